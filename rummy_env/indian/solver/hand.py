"""Whole-hand pieces of the Indian Rummy solver: set options per rank, the first life, the
splits of the wild-rank naturals and the leaf tables of the searches (IR-3, IR-4)."""

from __future__ import annotations

from functools import lru_cache

from .common import _POS_RANK, _POS_VAL, _RANK_VAL, JOKER

# --------------------------------------------------------------------------------------------
# Sets: per rank, every multiset of sets (2..4 naturals of distinct suits; one wild card fills a
# set of two).

def _masks(four: bool):
    out = []
    for m in range(16):
        suits = tuple(s for s in range(4) if m >> s & 1)
        k = len(suits)
        if k < 2 or (k == 4 and not four):
            continue
        out.append((m, suits, 1 if k == 2 else 0, 1 if k <= 3 else 0))
    return tuple(out)


_MASKS = {False: _masks(False), True: _masks(True)}


@lru_cache(maxsize=4096)
def _set_options(c: tuple, four: bool):
    """Options for one rank with ``c[s]`` naturals of suit s: tuple of
    ``(used4, wilds, sets_of_three, suit_masks)``, the empty option first."""
    masks = _MASKS[four]
    out = []
    used = [0, 0, 0, 0]
    chosen: list = []

    def dfs(start, w, s3):
        out.append((tuple(used), w, s3, tuple(chosen)))
        for j in range(start, len(masks)):
            m, suits, mw, ms3 = masks[j]
            if all(used[s] < c[s] for s in suits):
                for s in suits:
                    used[s] += 1
                chosen.append(m)
                dfs(j, w + mw, s3 + ms3)
                chosen.pop()
                for s in suits:
                    used[s] -= 1

    dfs(0, 0, 0)
    return tuple(out)


def _pure_through(cnt: list, s: int, rank: int) -> bool:
    """Could a pure run of suit ``s`` hold the natural of ``rank``?"""
    have = [False] * 16
    for rk in range(1, 14):
        if cnt[s * 13 + rk - 1]:
            have[rk] = True
    have[14] = have[1]
    for p in ((rank, 14) if rank == 1 else (rank,)):
        for lo in (p - 2, p - 1, p):
            if lo >= 1 and lo + 2 <= 14 and have[lo] and have[lo + 1] and have[lo + 2]:
                return True
    return False


def _max_pure(cnt: list, wr: int, tan: bool):
    """Best single pure run or tanala (first life): (value, meld types, kind) or None."""
    best = None
    for s in range(4):
        base = s * 13
        have = [0] * 16
        for rk in range(1, 14):
            have[rk] = cnt[base + rk - 1]
        have[14] = have[1]
        p = 1
        while p <= 14:
            if not have[p]:
                p += 1
                continue
            q = p
            while q + 1 <= 14 and have[q + 1]:
                q += 1
            lo, hi = p, q
            if lo == 1 and hi == 14 and have[1] < 2:
                hi = 13
            if hi - lo + 1 >= 3:
                types = tuple(base + _POS_RANK[x] - 1 for x in range(lo, hi + 1))
                v = sum(0 if _POS_RANK[x] == wr else _POS_VAL[x] for x in range(lo, hi + 1))
                if best is None or v > best[0]:
                    best = (v, types, "pure_run")
            p = q + 1
        if tan:
            for rk in range(1, 14):
                if cnt[base + rk - 1] >= 3:
                    v = 0 if rk == wr else 3 * _RANK_VAL[rk]
                    if best is None or v > best[0]:
                        t = base + rk - 1
                        best = (v, (t, t, t), "tanala")
    return best


def _splits(cnt: list, wr: int, tan: bool):
    """Ways to keep wild-rank naturals as naturals (per suit 0..count); only where a pure run
    or tanala could use them."""
    opts = []
    for s in range(4):
        if not wr:
            opts.append((0,))
            continue
        c = cnt[s * 13 + wr - 1]
        if c and (_pure_through(cnt, s, wr) or (tan and c >= 3)):
            opts.append(tuple(range(c + 1)))
        else:
            opts.append((0,))
    res = [()]
    for o in opts:
        res = [r + (k,) for r in res for k in o]
    return res


class _Split:
    """One split of the wild-rank naturals: suit vectors, set options, wild pool size."""

    __slots__ = ("reserved", "W", "vecs", "zr", "ranks")

    def __init__(self, cnt, wr, reserved, four):
        self.reserved = reserved
        W = cnt[JOKER]
        vecs = []
        zr = []
        for s in range(4):
            v = cnt[s * 13:s * 13 + 13]
            if wr:
                W += v[wr - 1] - reserved[s]
                v[wr - 1] = reserved[s]
            vecs.append(v)
            zr.append(wr if (wr and reserved[s]) else 0)
        self.W = W
        self.vecs = vecs
        self.zr = zr
        ranks = []
        for rk in range(1, 14):
            if rk == wr:
                continue
            c = (vecs[0][rk - 1], vecs[1][rk - 1], vecs[2][rk - 1], vecs[3][rk - 1])
            if (c[0] > 0) + (c[1] > 0) + (c[2] > 0) + (c[3] > 0) >= 2:
                opts = tuple(o for o in _set_options(c, four) if o[1] <= W)
                if len(opts) > 1:
                    ranks.append((rk, opts))
        self.ranks = ranks


def _leaf_tables(sp: _Split, budget: int, tan: bool, table):
    """``table`` (_suit_points or _suit_full) of each non-empty (set-reduced) suit: yields
    (suit, table). Tables are keyed by a wild-card cap of min(budget, 2 * cards): a run never
    needs more than two wild cards per natural (k runs of one natural and two wild cards do at
    least as well)."""
    for s in range(4):
        v = sp.vecs[s]
        n = sum(v)
        if not n:
            continue
        z = sp.zr[s]
        if z and not v[z - 1]:
            z = 0
        wc = 2 * n
        if budget < wc:
            wc = budget
        yield s, table(tuple(v), z, wc, tan)


def _has_pure(cnt: list, tan: bool) -> bool:
    for s in range(4):
        base = s * 13
        run = 0
        for p in range(1, 15):
            if cnt[base + _POS_RANK[p] - 1]:
                run += 1
                if run >= 3:
                    return True
            else:
                run = 0
        if tan:
            for t in range(base, base + 13):
                if cnt[t] >= 3:
                    return True
    return False

