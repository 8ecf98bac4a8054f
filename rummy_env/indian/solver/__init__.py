"""Indian Rummy / Paplu hand arrangement solver (RULES IR-3, IR-4, IR-6, IR-9).

Pure Python, no dependencies beyond the standard library. Card types are those of
:mod:`rummy_env.cards` (naturals ``suit * 13 + rank - 1``, printed joker ``52``); a hand is a
sequence of card types (a multiset).

* ``best_arrangement(cards, wild_rank, packs=2, *, sets_of_four=False, tanala=True)``: the
  ``Arrangement`` that pays least under IR-9, and whether it declares (IR-6);
* ``can_declare(...)``: the declaration answer alone, faster (the engine's masks);
* ``declare_discards(cards14, ...)`` / ``discard_bits(cards14, ...)``: every discard that
  leaves a declaration, in one search;
* ``wilds_suffice(counts, wild_rank, tan, four, drop)``: a cheap necessary condition for a
  declaration;
* ``is_wild``, ``card_value`` (IR-2, IR-9), ``cache_clear``.

The rules it implements, its decisions and its algorithm are in ``docs/solvers.md``
(section "Indian Rummy"). The modules: ``common`` (values, ``Arrangement``), ``suits`` (one
suit's tables), ``hand`` (sets, splits, first life), ``second_life``, ``fill``
(``wilds_suffice``), ``declare``, ``discards`` and ``build`` (witness to melds). Checked against
a brute force in ``tests/test_indian_solver.py``; speed: ``python benchmarks/indian_solver.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .build import _build, _make
from .common import _VALUES, Arrangement, _counts, _norm_wild_rank, card_value, is_wild
from .declare import _search_declare
from .discards import _DROP, _DROP_SUB, _discard_bits
from .discards import _search_discards as _search_discards
from .fill import _COVER, _FILL, _SUIT_FILL, _set_fills, wilds_suffice
from .hand import _has_pure, _max_pure, _set_options
from .second_life import _search_second_life
from .suits import _suit_full, _suit_points

__all__ = ["Arrangement", "best_arrangement", "can_declare", "declare_discards", "discard_bits",
           "wilds_suffice", "card_value", "is_wild", "cache_clear"]


@lru_cache(maxsize=1 << 15)
def _best(key: tuple, wr: int, tan: bool, four: bool) -> Arrangement:
    cnt = _counts(key, 10 ** 9)
    vals = _VALUES[wr]
    total = sum(vals[t] for t in key)
    first = _max_pure(cnt, wr, tan)
    if first is None:
        return _make(key, wr, [], [], False)
    pval, ptypes, pkind = first
    second = _search_second_life(cnt, wr, tan, four, pval - 1)
    if second is not None and total - second[0] == 0:
        dec = _search_declare(cnt, wr, tan, four)
        if dec is not None:
            melds, kinds = _build(cnt, wr, dec, True, four)
            return _make(key, wr, melds, kinds, True)
    if second is not None:
        melds, kinds = _build(cnt, wr, second[1:], False, four)
        return _make(key, wr, melds, kinds, False)
    if total - pval == 0:
        dec = _search_declare(cnt, wr, tan, four)
        if dec is not None:  # pragma: no cover - a declaration is also a second life
            melds, kinds = _build(cnt, wr, dec, True, four)
            return _make(key, wr, melds, kinds, True)
    return _make(key, wr, [ptypes], [pkind], False)


@lru_cache(maxsize=1 << 16)
def _can_declare(key: tuple, wr: int, tan: bool, four: bool) -> bool:
    cnt = _counts(key, 10 ** 9)
    if not _has_pure(cnt, tan) or not wilds_suffice(cnt, wr, tan, four, False):
        return False
    return _search_declare(cnt, wr, tan, four) is not None


def best_arrangement(cards: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                     sets_of_four: bool = False, tanala: bool = True) -> Arrangement:
    """The least-paying arrangement of ``cards`` under IR-9, and whether they declare (IR-6).

    ``wild_rank``: rank 1..13 whose naturals are wild besides printed jokers (None or 0: only
    printed jokers). ``packs``: packs in play (tanalas need 3). ``sets_of_four``: sets of 3 or
    4 cards (IR-3 option). ``tanala``: three identical cards count as a pure run (IR-4 option,
    only with 3 packs)."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards, packs)
    key = tuple(sorted(int(t) for t in cards))
    return _best(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def can_declare(cards: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                sets_of_four: bool = False, tanala: bool = True) -> bool:
    """Whether ``cards`` can declare (IR-6): every card in a valid meld, two runs, one pure.

    Equal to ``best_arrangement(...).can_declare`` (checked by the tests) but only the
    declaration search runs (memoised per hand), not the least-payment search: the cheap
    path for callers that need legality only (masks, bots)."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards, packs)
    key = tuple(sorted(int(t) for t in cards))
    return _can_declare(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def declare_discards(cards14: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                     sets_of_four: bool = False, tanala: bool = True) -> list[int]:
    """Card types ``t`` (sorted, unique) such that ``cards14`` less one ``t`` can declare (IR-6).

    One search over the whole hand answers every discard at once (the same answers as
    ``can_declare`` on each ``cards14`` less one card; memoised per hand)."""
    bits = discard_bits(cards14, wild_rank, packs, sets_of_four=sets_of_four, tanala=tanala)
    return [t for t in range(53) if bits >> t & 1]


def discard_bits(cards14: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                 sets_of_four: bool = False, tanala: bool = True) -> int:
    """:func:`declare_discards` as an ``int`` bit set (bit ``t``: type ``t`` can go), the
    engine's form: it tests its hand's types against it without building a list."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards14, packs)
    key = tuple(sorted(int(t) for t in cards14))
    return _discard_bits(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def cache_clear() -> None:
    """Empty the solver's memo tables (benchmarks measure cold caches with it)."""
    _best.cache_clear()
    _can_declare.cache_clear()
    _discard_bits.cache_clear()
    _DROP.clear()
    _DROP_SUB.clear()
    _FILL.clear()
    _SUIT_FILL.clear()
    _COVER[False].clear()
    _COVER[True].clear()
    _set_fills.cache_clear()
    _suit_points.cache_clear()
    _suit_full.cache_clear()
    _set_options.cache_clear()
