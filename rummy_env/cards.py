"""Cards by type (RULES C-1).

A card is one of 53 *types*: 52 naturals and the printed joker. Copies of a type in multi-pack
games are interchangeable, so hands, piles and action spaces are indexed by type and never grow
with the number of packs.

Type ids: ``suit * 13 + (rank - 1)`` for naturals, with suits in the order clubs, diamonds,
hearts, spades (``C D H S``) and ranks ``A=1 .. K=13``; the joker is ``52``. Text form is
``7H 10S QD AC JK``; parsing also accepts ``T`` for ten and lower case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummy_env.errors import CardParseError

SUITS = "CDHS"
NUM_SUITS = len(SUITS)
#: Ranks per suit: the type id layout is ``suit * RANKS + rank - 1``, so suit ``s`` holds the
#: type ids ``SUIT_START[s] .. SUIT_START[s] + RANKS - 1``, ace first.
RANKS = 13
SUIT_START: tuple[int, ...] = tuple(RANKS * s for s in range(NUM_SUITS))  # (0, 13, 26, 39)
# The same as scalars, for inner loops that would otherwise index SUIT_START at every call.
CLUBS_START, DIAMONDS_START, HEARTS_START, SPADES_START = SUIT_START
NUM_NATURAL = NUM_SUITS * RANKS  # 52
JOKER = NUM_NATURAL  # 52, after the naturals
NUM_TYPES = JOKER + 1  # 53
#: One suit's ranks as a bitmask, bit ``r`` for rank index ``r`` (ace 0 .. king 12): the 13-bit
#: suit masks of the Gin Rummy card bitmasks and of the Indian Rummy hand tests.
SUIT_BITS = (1 << RANKS) - 1
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_PARSE = {t: r for r, t in enumerate(RANK_TEXT) if t}
_RANK_PARSE["T"] = 10
_RANK_PARSE["1"] = 1


def card(rank: int, suit: int) -> int:
    """Type id of the natural card of ``rank`` (1..13, or 14 for a high ace) and ``suit`` (0..3)."""
    return suit * RANKS + (rank - 1) % RANKS


def rank_of(t: int) -> int:
    """Rank 1..13 of a natural type (ace = 1)."""
    return t % RANKS + 1


def suit_of(t: int) -> int:
    """Suit 0..3 of a natural type."""
    return t // RANKS


def card_str(t: int) -> str:
    """Text of one card type: ``7H``, ``10S``, ``JK``."""
    if t == JOKER:
        return "JK"
    if not 0 <= t < NUM_NATURAL:
        raise CardParseError(f"card type id {t!r} is not in 0..52")
    return RANK_TEXT[rank_of(t)] + SUITS[suit_of(t)]


def parse_card(text: str) -> int:
    """Type id of card text (``7H``, ``10s``, ``TS``, ``jk``); raises CardParseError naming the
    text."""
    if not isinstance(text, str):
        raise CardParseError(f"card must be text like '7H', got {text!r}")
    s = text.strip().upper()
    if s in ("JK", "JOKER", "*"):
        return JOKER
    if len(s) < 2 or s[-1] not in SUITS or s[:-1] not in _RANK_PARSE:
        raise CardParseError(
            f"bad card text {text!r}: expected rank A 2-10 J Q K (or T) and suit C D H S, or JK"
        )
    return card(_RANK_PARSE[s[:-1]], SUITS.index(s[-1]))


def parse_cards(items: str | Iterable[str]) -> list[int]:
    """Type ids of several cards, from a list of texts or one space/comma separated string."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(x) for x in items]


def sort_key(t: int) -> tuple[int, int]:
    """Hands print sorted by suit then rank; jokers last."""
    return (4, 0) if t == JOKER else (suit_of(t), rank_of(t))


def cards_str(types: Iterable[int], sort: bool = True) -> str:
    """Space-separated text of card types (sorted by suit then rank unless ``sort=False``)."""
    seq = sorted(types, key=sort_key) if sort else list(types)
    return " ".join(card_str(t) for t in seq)


def counts_to_list(counts: Sequence[int]) -> list[int]:
    """Expand a 53-long count vector into a sorted list of types."""
    out: list[int] = []
    for t, c in enumerate(counts):
        out.extend([t] * c)
    return out


def list_to_counts(types: Iterable[int]) -> list[int]:
    """Count vector (53 long) of a list of types."""
    counts = [0] * NUM_TYPES
    for t in types:
        counts[t] += 1
    return counts


def deck_counts(packs: int, jokers: int) -> list[int]:
    """Count vector of ``packs`` 52-card packs plus ``jokers`` printed jokers."""
    return [packs] * NUM_NATURAL + [jokers]


def deck_list(packs: int, jokers: int) -> list[int]:
    """All physical cards of ``packs`` packs plus ``jokers`` jokers, as types, in a fixed order."""
    return [t for t in range(NUM_NATURAL) for _ in range(packs)] + [JOKER] * jokers
