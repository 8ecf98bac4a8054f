"""The all-discards search of the Indian Rummy solver: every card a 14-card hand can discard and
declare (IR-6), in one search."""

from __future__ import annotations

from functools import lru_cache

from rummy_env.cards import NUM_TYPES, RANKS, SUIT_BITS, SUIT_START

from .common import _POS_RANK, _POS_VAL, JOKER, _counts
from .declare import _declare_ok
from .fill import _fill_bounds, _fill_need, _next_codes, wilds_suffice
from .hand import _has_pure, _Split, _splits
from .suits import _ace_splits, _options_fn

#: Drop tags of the all-discards search: bit ``t`` (0..52) for "one card of type ``t`` left
#: out"; ``_NONE`` for "no card left out yet".
_NONE = 1 << NUM_TYPES  # the bit above the card bits
_SUIT_NONE = 1 << RANKS  # the same in a suit's table, whose drop bits are rank indices 0..12
_SUIT_RANKS = SUIT_BITS  # the 13 rank bits of a suit's drop tags


#: ``(vec, tan) -> (cap, table)`` of :func:`_drop_table`, bounded by ``_DROP_LIMIT`` entries
#: (emptied when full: entries are cheap to rebuild).
_DROP: dict = {}
_DROP_LIMIT = 1 << 14


def _drop_table(vec: tuple, cap: int, tan: bool) -> dict:
    """Full-cover table of one suit with at most one natural left out: dict ``(u, a, b, t) ->
    tags`` (keys as in :func:`_suit_full`): ``_SUIT_NONE`` when every natural of ``vec`` is
    covered by runs and tanalas with ``u`` wild cards, bit ``r`` when its naturals less one of
    rank index ``r`` are.

    :func:`_suit_full`'s search with one more choice for the lowest card while no card is out:
    it is the card left out. Every key with ``u <= cap`` is there, and keys with a larger ``u``
    may be (never more than two wild cards per natural covered): the caller skips keys over its
    budget, so one table, built at the largest cap asked so far, serves every budget. Point
    values play no part, so the wild-rank flag of :func:`_suit_full` has no counterpart here.
    """
    e = _DROP.get((vec, tan))
    if e is not None and e[0] >= cap:
        return e[1]
    if len(_DROP) >= _DROP_LIMIT:
        _DROP.clear()
        _DROP_SUB.clear()
    g = _drop_sub(cap, tan)
    out: dict = {}
    for start in _ace_splits(vec):
        for key, tags in g(start).items():
            out[key] = out.get(key, 0) | tags
    _DROP[(vec, tan)] = (cap, out)
    return out


#: ``(cap, tan) -> g`` of :func:`_drop_sub`: the memo of the suit searches, shared by every
#: suit vector (their remainders recur across hands), emptied with ``_DROP``.
_DROP_SUB: dict = {}


def _drop_sub(cap: int, tan: bool):
    """The memoised search of :func:`_drop_table` for one cap: ``g(rem)`` is the table of
    the position counts ``rem`` (index 1..14, as ``_ace_splits`` gives)."""
    g = _DROP_SUB.get((cap, tan))
    if g is not None:
        return g
    opts = _options_fn(_POS_VAL, cap, tan)
    memo: dict = {}

    def g(rem):
        r = memo.get(rem)
        if r is not None:
            return r
        o = opts(rem)
        if o is None:
            r = memo[rem] = {(0, 0, 0, 0): _SUIT_NONE}
            return r
        dead_rest, melds = o
        i = 1
        while not rem[i]:
            i += 1
        bit = 1 << (_POS_RANK[i] - 1)
        res: dict = {}
        for key, tags in g(dead_rest).items():
            if tags & _SUIT_NONE:  # the lowest card is the one left out
                res[key] = res.get(key, 0) | bit
        for w, code, _rv, _slots, rest in melds:
            da = 1 if code == "P" else 0
            db = 1 if code == "R" else 0
            dt = 1 if code == "T" else 0
            for (u, a, b, t), tags in g(rest).items():
                uu = u + w
                if uu > cap:
                    continue
                key = (uu, min(a + da, 2), min(b + db, 2), min(t + dt, 2))
                res[key] = res.get(key, 0) | tags
        memo[rem] = res
        return res

    _DROP_SUB[(cap, tan)] = g
    return g


def _search_discards(cnt: list, wr: int, tan: bool, four: bool) -> int:
    """All the discards of a hand at once: bit ``t`` set when ``cnt`` less one card of type
    ``t`` declares (IR-6).

    The declaration search of :func:`_search_declare` run once on the whole hand, with one card
    allowed out: a natural left out of its suit's runs (:func:`_drop_table`), or one wild card
    left out of the pool (every wild type in the pool then goes: wild cards are
    interchangeable, the wild-rank naturals kept as naturals aside). Every split and set choice
    of the smaller hand is one of the whole hand's (they only grow with the cards), and each
    leaf checks, per card left out, exactly what the smaller hand's leaf checks, so the answer
    is the per-discard search's; ``tests/test_indian_solver.py`` checks it on thousands of
    hands. It stops early once every card type of the hand has been found, and skips the set
    choices whose suits need more wild cards than are left, whatever card is out
    (:func:`_fill_need`: no leaf below could find a discard)."""
    have = 0
    for t in range(53):
        if cnt[t]:
            have |= 1 << t
    acc = [0]  # the discard bits found so far, over every split
    for reserved in _splits(cnt, wr, tan):
        if _discards_in_split(_Split(cnt, wr, reserved, four), cnt, wr, tan, four, have, acc):
            break
    return acc[0]


def _wild_pool_bits(cnt: list, wr: int, reserved: tuple) -> int:
    """The wild types in the pool of a split, as card bits: leaving out any one of them leaves
    the same pool less one."""
    pool = 1 << JOKER if cnt[JOKER] else 0
    if wr:
        for s in range(4):
            if cnt[SUIT_START[s] + wr - 1] > reserved[s]:
                pool |= 1 << (SUIT_START[s] + wr - 1)
    return pool


def _drop_states(sp: _Split, budget: int, tan: bool):
    """The drop tables of the suits (:func:`_drop_table`) combined under ``budget`` wild cards,
    at most one card out over all of them: dict ``(u, a, b, t) -> tags`` (card bits of the
    card out, ``_NONE`` for none), or None when some suit cannot be covered."""
    states = {(0, 0, 0, 0): _NONE}
    for s in range(4):
        v = sp.vecs[s]
        n = sum(v)
        if not n:
            continue
        tb = _drop_table(tuple(v), budget if budget < 2 * n else 2 * n, tan)
        if not tb:
            return None
        shift = SUIT_START[s]  # a suit's rank bits become card bits of that suit
        new: dict = {}
        for (u, a, b, t), y in states.items():
            ynone = y & _NONE
            for (u2, a2, b2, t2), x in tb.items():
                uu = u + u2
                if uu > budget:
                    continue
                # at most one card out over the suits: a drop here needs none before
                val = ((x & _SUIT_RANKS) << shift) | (_NONE if x & _SUIT_NONE else 0) \
                    if ynone else 0
                if x & _SUIT_NONE:
                    val |= y
                if not val:
                    continue
                aa = a + a2
                bb = b + b2
                tt = t + t2
                key = (uu, aa if aa < 2 else 2, bb if bb < 2 else 2, tt if tt < 2 else 2)
                new[key] = new.get(key, 0) | val
        if not new:
            return None
        states = new
    return states


def _discards_in_split(sp: _Split, cnt: list, wr: int, tan: bool, four: bool, have: int,
                       acc: list) -> bool:
    """:func:`_search_discards` for one split of the wild-rank naturals: a branch and bound
    over the set choices of each rank, adding to ``acc[0]`` the discards each leaf finds.
    True once every card type of the hand (``have``) is found."""
    W = sp.W
    ranks = sp.ranks
    nr = len(ranks)
    pool = _wild_pool_bits(cnt, wr, sp.reserved)

    def leaf(sets_u, s3):
        budget = W - sets_u
        states = _drop_states(sp, budget, tan)
        if states is None:
            return
        found = acc[0]
        for (u, a, b, t), y in states.items():
            left = budget - u
            d = y & ~_NONE & ~found
            if d and _declare_ok(a, b, t, left, s3, four):
                found |= d
            if (y & _NONE and pool & ~found and left >= 1
                    and _declare_ok(a, b, t, left - 1, s3, four)):
                found |= pool
        acc[0] = found

    tables, mults = _fill_bounds(sp.vecs, [rk - 1 for rk, _ in ranks], tan)

    def dfs(j, sets_u, s3, codes):
        if sets_u + _fill_need(tables, j, codes, True) > W:
            return False  # no leaf below has the wild cards, whatever card is out
        if j == nr:
            leaf(sets_u, s3)
            return acc[0] == have
        rk, opts = ranks[j]
        mult = mults[j]
        for used, w, os3, masks in opts:
            if sets_u + w > W:
                continue
            if masks:
                for s in range(4):
                    sp.vecs[s][rk - 1] -= used[s]
                done = dfs(j + 1, sets_u + w, s3 + os3, _next_codes(codes, mult, used))
                for s in range(4):
                    sp.vecs[s][rk - 1] += used[s]
            else:
                done = dfs(j + 1, sets_u, s3, _next_codes(codes, mult, used))
            if done:
                return True
        return False

    return dfs(0, 0, 0, (0, 0, 0, 0))


@lru_cache(maxsize=1 << 15)
def _discard_bits(key: tuple, wr: int, tan: bool, four: bool) -> int:
    """:func:`_search_discards` of a sorted hand, memoised per hand (bits as there)."""
    cnt = _counts(key, 10 ** 9)
    if not _has_pure(cnt, tan) or not wilds_suffice(cnt, wr, tan, four, True):
        return 0  # no 13 of these cards hold a pure run, or enough wild cards
    return _search_discards(cnt, wr, tan, four)
