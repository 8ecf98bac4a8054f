"""Gin Rummy card sets as bitmasks, the meld table and the exact deadwood solver.

Pure Python. A single pack has one card of each natural type, so a set of cards is an ``int``
whose bit ``t`` is card type ``t`` (``suit * 13 + rank - 1``, rummy_env.cards); suit ``s`` holds
bits ``13*s .. 13*s + 12``, ace first.

Melds (GR-1): a *set* is 3 or 4 cards of one rank; a *run* is 3 or more consecutive cards of one
suit, ace low only (``A 2 3`` yes, ``Q K A`` no). :data:`MELDS` lists every meld that fits in a
hand of at most 10 cards (runs of 3..10), in a fixed order that the action layout uses.

Deadwood (GR-5) is the value of the cards outside the best arrangement: :func:`deadwood` is
exact (a memoised search over the melds of the hand, branching on its lowest meldable card) and
:func:`best_melds` returns one best arrangement.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rummy_env.cards import (
    DIAMONDS_START,
    HEARTS_START,
    NUM_NATURAL,
    NUM_SUITS,
    RANKS,
    SPADES_START,
    SUIT_BITS,
    SUIT_START,
)

# The card bitmask: bit ``t`` is card type ``t``, so suit ``s`` is the 13-bit rank mask
# ``cards >> SUIT_START[s] & SUIT_BITS`` (rummy_env.cards), clubs from bit 0.
ALL_CARDS = (1 << NUM_NATURAL) - 1
#: Card values (GR-1): ace 1, 2-10 face value, J Q K 10; by card type.
CARD_VALUE: tuple[int, ...] = tuple(min(t % RANKS + 1, 10) for t in range(NUM_NATURAL))
#: Every card of rank index ``r`` (0 = ace): bits r, r+13, r+26, r+39.
RANK_BITS: tuple[int, ...] = tuple(sum(1 << (start + r) for start in SUIT_START)
                                   for r in range(RANKS))
#: The aces, bits 0, 13, 26 and 39: ``m * ACES`` copies a 13-bit rank mask ``m`` into every suit.
ACES = RANK_BITS[0]


def _suit_tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    value = []
    bits = []
    for m in range(SUIT_BITS + 1):
        value.append(sum(min(r + 1, 10) for r in range(RANKS) if m >> r & 1))
        bits.append(tuple(r for r in range(RANKS) if m >> r & 1))
    return tuple(value), tuple(bits)


#: Value of the cards of a 13-bit suit mask, and the rank indices it holds.
VALUE13, BITS13 = _suit_tables()


def value(cards: int) -> int:
    """Total value of a set of cards (GR-1)."""
    return (VALUE13[cards & SUIT_BITS] + VALUE13[cards >> DIAMONDS_START & SUIT_BITS]
            + VALUE13[cards >> HEARTS_START & SUIT_BITS] + VALUE13[cards >> SPADES_START])


def card_list(cards: int) -> list[int]:
    """The card types of a bitmask, ascending."""
    out: list[int] = []
    for base in SUIT_START:
        m = cards >> base & SUIT_BITS
        if m:
            out.extend(base + r for r in BITS13[m])
    return out


def mask_of(types: Iterable[int]) -> int:
    """The bitmask of card types (each at most once: a single pack)."""
    m = 0
    for t in types:
        m |= 1 << t
    return m


def popcount(cards: int) -> int:
    return cards.bit_count()


# --------------------------------------------------------------------------- the meld table
def _meld_table() -> tuple[tuple[int, ...], tuple[str, ...]]:
    masks: list[int] = []
    kinds: list[str] = []
    for r in range(RANKS):
        suits = [1 << (start + r) for start in SUIT_START]
        for skip in (3, 2, 1, 0):  # the four sets of three, clubs-diamonds-hearts first
            masks.append(sum(b for i, b in enumerate(suits) if i != skip))
            kinds.append("set")
        masks.append(sum(suits))
        kinds.append("set")
    for start in SUIT_START:
        for length in range(3, 11):
            for lo in range(0, RANKS + 1 - length):
                masks.append(((1 << length) - 1) << (start + lo))
                kinds.append("run")
    return tuple(masks), tuple(kinds)


#: Every meld of at most 10 cards (sets of 3 and 4 by rank; runs of 3..10 by suit, length and
#: lowest card), as bitmasks; ``MELD_INDEX[mask]`` is its position.
MELDS, MELD_KINDS = _meld_table()
MELD_INDEX: dict[int, int] = {m: i for i, m in enumerate(MELDS)}
MELD_VALUE: tuple[int, ...] = tuple(value(m) for m in MELDS)


def _run_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per suit, per 13-bit suit mask: the run melds (bitmasks, up to 10 cards) it holds."""
    per_suit = []
    for start in SUIT_START:
        table = []
        for m in range(SUIT_BITS + 1):
            runs = []
            lo = 0
            while lo < RANKS:
                if not m >> lo & 1:
                    lo += 1
                    continue
                hi = lo
                while hi + 1 < RANKS and m >> (hi + 1) & 1:
                    hi += 1
                # the maximal segment lo..hi: every sub-segment of 3..10 cards
                for a in range(lo, hi + 1):
                    for b in range(a + 2, min(hi, a + 9) + 1):
                        runs.append(((1 << (b - a + 1)) - 1) << (start + a))
                lo = hi + 1
            table.append(tuple(runs))
        per_suit.append(tuple(table))
    return tuple(per_suit)


def _set_tables() -> dict[int, tuple[int, ...]]:
    """Per rank index ``r``, per subset of its cards (``cards & RANK_BITS[r]``): the set melds
    it holds, the sets of three before the set of four."""
    out = {}
    for r in range(RANKS):
        for present in range(1 << NUM_SUITS):  # bit s: suit s holds the card
            cards = [1 << (SUIT_START[s] + r) for s in range(NUM_SUITS) if present >> s & 1]
            sets: list[int] = []
            if len(cards) == 4:
                sets.extend(sum(cards) - c for c in reversed(cards))
                sets.append(sum(cards))
            elif len(cards) == 3:
                sets.append(sum(cards))
            out[sum(cards)] = tuple(sets)
    return out


_RUNS = _run_tables()
_SETS = _set_tables()
#: The cards that can start a run of three: rank index 0..10 of every suit (ace low only, so
#: neither the queen nor the king). A run's next card is the next bit, ``cards >> 1``.
_RUN_STARTS = ((1 << (RANKS - 2)) - 1) * ACES


def melds_in(cards: int) -> list[int]:
    """Every meld (bitmask) made of cards of ``cards``."""
    a = cards & SUIT_BITS
    b = cards >> DIAMONDS_START & SUIT_BITS
    c = cards >> HEARTS_START & SUIT_BITS
    d = cards >> SPADES_START & SUIT_BITS
    out: list[int] = []
    three = (a & b & (c | d)) | ((a | b) & c & d)
    while three:
        low = three & -three
        r = low.bit_length() - 1
        three ^= low
        out.extend(_SETS[cards & RANK_BITS[r]])
    if cards & (cards >> 1) & (cards >> 2) & _RUN_STARTS:
        if a:
            out.extend(_RUNS[0][a])
        if b:
            out.extend(_RUNS[1][b])
        if c:
            out.extend(_RUNS[2][c])
        if d:
            out.extend(_RUNS[3][d])
    return out


def meldable(cards: int) -> int:
    """The cards of ``cards`` that belong to at least one meld within ``cards``."""
    a = cards & SUIT_BITS
    b = cards >> DIAMONDS_START & SUIT_BITS
    c = cards >> HEARTS_START & SUIT_BITS
    d = cards >> SPADES_START & SUIT_BITS
    three = (a & b & (c | d)) | ((a | b) & c & d)  # the ranks that three suits or four hold
    in_sets = three * ACES & cards
    starts = cards & (cards >> 1) & (cards >> 2) & _RUN_STARTS
    return in_sets | starts | starts << 1 | starts << 2


@functools.lru_cache(maxsize=1 << 16)  # a few MB: hands repeat within a game
def melded_value(cards: int) -> int:
    """The largest total value of disjoint melds within ``cards`` (exact)."""
    ms = melds_in(cards)
    if not ms:
        return 0
    union = 0
    for m in ms:
        union |= m
    low = union & -union  # the lowest meldable card: in no meld, or in one of its melds
    best = melded_value(cards & ~low)
    for m in ms:
        if m & low:
            v = MELD_VALUE[MELD_INDEX[m]] + melded_value(cards & ~m)
            if v > best:
                best = v
    return best


def deadwood(cards: int) -> int:
    """Deadwood of a hand (GR-5): the value of the cards outside its best arrangement."""
    mk = meldable(cards)
    if not mk:
        return value(cards)
    return value(cards) - melded_value(mk)


def best_melds(cards: int) -> list[int]:
    """One best arrangement of ``cards``: disjoint melds (bitmasks) of the largest total value."""
    target = melded_value(cards)
    out: list[int] = []
    rest = cards
    while target:
        for m in melds_in(rest):
            v = MELD_VALUE[MELD_INDEX[m]]
            if melded_value(rest & ~m) == target - v:
                out.append(m)
                rest &= ~m
                target -= v
                break
        else:  # pragma: no cover - melded_value guarantees a meld that reaches the target
            raise RuntimeError("engine error: no meld reaches the best arrangement")
    return out


def lower_bound(cards: int) -> int:
    """A cheap lower bound of :func:`deadwood`: the value of the cards in no meld at all."""
    return value(cards & ~meldable(cards))


def knock_discards(hand: int, limit: int, forbidden: int = 0) -> int:
    """The cards of ``hand`` (11 cards) whose discard leaves deadwood at most ``limit``
    (GR-5), less ``forbidden`` (the card taken from the discard pile this turn, GR-4), as a
    bitmask.

    Cards in no meld are deadwood whatever the discard, except the discarded card itself: so
    the hand is ruled out at once when its unmeldable value less its largest unmeldable card
    exceeds the limit (the common case), and each discard is then checked exactly.
    """
    mk = meldable(hand)
    iso = hand & ~mk
    iso_value = value(iso)
    if iso_value - _max_value(iso) > limit:
        return 0
    out = 0
    rest = hand & ~forbidden
    while rest:
        low = rest & -rest
        rest ^= low
        t = low.bit_length() - 1
        if low & iso:
            if iso_value - CARD_VALUE[t] > limit:
                continue
        elif iso_value > limit:
            continue
        if deadwood(hand ^ low) <= limit:
            out |= low
    return out


_TENS = sum(RANK_BITS[r] for r in range(9, RANKS))  # every 10, J, Q, K: worth 10


def _max_value(cards: int) -> int:
    """The largest card value in ``cards`` (0 if empty)."""
    if cards & _TENS:
        return 10
    # rank of the highest
    return (cards | cards >> DIAMONDS_START | cards >> HEARTS_START
            | cards >> SPADES_START).bit_length()


def fits(slot: int) -> int:
    """The cards that would extend the table meld ``slot`` (a lay-off, GR-6): the missing card
    of a set of three, or the card below and above a run (ace low only)."""
    low = slot & -slot
    t = low.bit_length() - 1
    r = t % RANKS
    rank = RANK_BITS[r]
    if slot & rank == slot:  # a set
        return rank & ~slot if slot.bit_count() == 3 else 0
    out = 0
    if r > 0:
        out |= low >> 1
    top = slot.bit_length() - 1
    if top % RANKS < RANKS - 1:  # not a king
        out |= 1 << (top + 1)
    return out


__all__ = [
    "ACES", "ALL_CARDS", "BITS13", "CARD_VALUE", "MELDS", "MELD_INDEX", "MELD_KINDS",
    "MELD_VALUE", "RANK_BITS", "SUIT_BITS", "VALUE13", "best_melds", "card_list", "deadwood",
    "fits", "knock_discards", "lower_bound", "mask_of", "meldable", "melded_value", "melds_in",
    "popcount", "value",
]
