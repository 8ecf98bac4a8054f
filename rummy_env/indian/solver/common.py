"""Card values, the hand arrangement type and hand counts of the Indian Rummy solver
(IR-2, IR-9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy_env.cards import JOKER

# Run positions 1..14 of a suit: 1 = low ace, 2..13 = ranks, 14 = high ace.
_POS_RANK = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1)
_POS_VAL = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)
_RANK_VAL = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _norm_wild_rank(wild_rank: int | None) -> int:
    if wild_rank is None:
        return 0
    wr = int(wild_rank)
    if not 0 <= wr <= 13:
        raise ValueError(f"wild_rank must be None or 1..13 (0 = None), got {wild_rank!r}")
    return wr


def is_wild(t: int, wild_rank: int | None) -> bool:
    """True for the printed joker (type 52) and for naturals of rank ``wild_rank`` (IR-2).

    ``wild_rank`` None (or 0): only printed jokers are wild."""
    t = int(t)
    if not 0 <= t <= JOKER:
        raise ValueError(f"card type must be 0..52, got {t!r}")
    if t == JOKER:
        return True
    wr = _norm_wild_rank(wild_rank)
    return bool(wr) and t % 13 + 1 == wr


def card_value(t: int, wild_rank: int | None) -> int:
    """IR-9 value of one card: wild 0; A K Q J 10 = 10; 2-9 face value."""
    if is_wild(t, wild_rank):
        return 0
    return _RANK_VAL[int(t) % 13 + 1]


# _VALUES[wr][t]: card_value(t, wr) for wild rank wr (0 = none).
_VALUES = tuple(tuple(0 if (t == JOKER or (wr and t % 13 + 1 == wr)) else _RANK_VAL[t % 13 + 1]
                      for t in range(53)) for wr in range(14))


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A least-paying arrangement of a hand (IR-9); see the module docstring."""

    points: int | float
    melds: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...]
    deadwood: tuple[int, ...]
    first_life: bool
    second_life: bool
    can_declare: bool

def _counts(cards: Sequence[int], packs: int) -> list:
    cnt = [0] * 53
    for x in cards:
        t = int(x)
        if not 0 <= t <= JOKER:
            raise ValueError(f"card type must be 0..52, got {x!r}")
        cnt[t] += 1
    if packs < 1:
        raise ValueError(f"packs must be >= 1, got {packs!r}")
    for t in range(53):
        if cnt[t] > packs:
            raise ValueError(f"{cnt[t]} copies of card type {t} with {packs} pack(s)")
    return cnt

