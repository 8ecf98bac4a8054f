"""One suit's tables for the Indian Rummy solver: the partitions of a suit's naturals into dead
cards, runs and tanalas (IR-3, IR-4), by wild cards used and lives."""

from __future__ import annotations

from functools import lru_cache

from .common import _POS_VAL

# --------------------------------------------------------------------------------------------
# One suit: a memoised search over the partitions of its naturals into dead cards, runs and
# tanalas (each run with the fewest wild cards it needs), by the lowest remaining card: it is
# dead, in a tanala, or the lowest natural of a run.
#
# Melds in a suit table: (code, slots) with code "P" (pure run), "R" (impure run), "T" (tanala);
# slots in position order, +p a natural at position p, -p a wild card standing at position p.


def _suit_vals(zr: int) -> list:
    vals = list(_POS_VAL)
    if zr:
        vals[zr] = 0
        if zr == 1:
            vals[14] = 0
    return vals


def _ace_splits(vec: tuple):
    """Position counts (index 1..14) for each way of playing the aces low (1) or high (14)."""
    nA = vec[0]
    for h in range(nA + 1):
        pos = [0] * 15
        for rk in range(2, 14):
            pos[rk] = vec[rk - 1]
        pos[1] = nA - h
        pos[14] = h
        yield tuple(pos)


def _options_fn(vals: list, W: int, tan: bool):
    """opts(rem) -> (rest after the lowest card dies, [(wilds, code, value, slots, rest)]) for
    each meld the lowest remaining card can head; None when nothing remains."""
    memo: dict = {}

    def opts(rem):
        r = memo.get(rem, 0)
        if r != 0:
            return r
        i = 1
        while i < 15 and not rem[i]:
            i += 1
        if i == 15:
            memo[rem] = None
            return None
        lst = list(rem)
        out = []
        if tan and lst[i] >= 3:
            lst[i] -= 3
            out.append((0, "T", 3 * vals[i], (i, i, i), tuple(lst)))
            lst[i] += 3
        lst[i] -= 1
        dead_rest = tuple(lst)

        def ext(last, gaps, m, rv, slots):
            span = last - i + 1
            pad = 3 - span if span < 3 else 0
            w = gaps + pad
            if w <= W and w <= 2 * m:
                if pad:
                    if last + pad <= 14:
                        s2 = slots + tuple(-(last + k) for k in range(1, pad + 1))
                    else:
                        s2 = tuple(-(i - k) for k in range(pad, 0, -1)) + slots
                else:
                    s2 = slots
                out.append((w, "R" if w else "P", rv, s2, tuple(lst)))
            for q in range(last + 1, 15):
                g = gaps + (q - last - 1)
                if g > W:
                    break
                if lst[q]:
                    lst[q] -= 1
                    ext(q, g, m + 1, rv + vals[q],
                        slots + tuple(-x for x in range(last + 1, q)) + (q,))
                    lst[q] += 1

        ext(i, 0, 1, vals[i], (i,))
        r = (dead_rest, out)
        memo[rem] = r
        return r

    return opts


def _flatten(link) -> tuple:
    out = []
    while link is not None:
        meld, link = link
        out.append(meld)
    return tuple(out)


def _clusters(vec: tuple, wcap: int) -> list:
    """Split a suit into groups that no run can join: ranks whose run positions are more than
    ``wcap`` missing places apart (an ace at both ends of the suit). One 13-count vector each."""
    pos = [rk for rk in range(2, 14) if vec[rk - 1]]
    if vec[0]:
        pos = [1] + pos + [14]
    groups = []
    cur = []
    last = None
    for p in pos:
        if last is not None and p - last - 1 > wcap:
            groups.append(cur)
            cur = []
        cur.append(1 if p == 14 else p)
        last = p
    if cur:
        groups.append(cur)
    if vec[0] and len(groups) > 1 and groups[0][0] == 1 and groups[-1][-1] == 1:
        # the ace links the lowest and the highest group
        groups[0] = groups[0] + groups.pop()
    if len(groups) <= 1:
        return [vec]
    out = []
    for g in groups:
        v = [0] * 13
        for rk in g:
            v[rk - 1] = vec[rk - 1]
        out.append(tuple(v))
    return out


def _sub_args(sub: tuple, zr: int, wcap: int):
    z = zr if (zr and sub[zr - 1]) else 0
    n = sum(sub)
    return z, (wcap if wcap < 2 * n else 2 * n)


def _pareto(items) -> list:
    """Entries (u, p, n, value, ...) not dominated by another (fewer or equal wild cards, no
    fewer lives, no less value)."""
    out = []
    for e in items:
        for o in items:
            if o is not e and o[0] <= e[0] and o[1] >= e[1] and o[2] >= e[2] and o[3] >= e[3]:
                break
        else:
            out.append(e)
    return out


def _points_of_clusters(parts: list, zr: int, wcap: int, tan: bool):
    """:func:`_suit_points` of a suit split into ``parts`` that no run can join: each part's
    table, combined under the cap ``wcap``."""
    states = {(0, 0, 0): (0, ())}
    for sub in parts:
        z, wc = _sub_args(sub, zr, wcap)
        new = {}
        for (u, p, n), (v, ms) in states.items():
            for u2, p2, n2, v2, m2 in _suit_points(sub, z, wc, tan)[0]:
                uu = u + u2
                if uu > wcap:
                    continue
                nn = n + n2
                key = (uu, p | p2, nn if nn < 2 else 2)
                vv = v + v2
                old = new.get(key)
                if old is None or vv > old[0]:
                    new[key] = (vv, ms + m2)
        states = new
    entries = _pareto([(u, p, n, v, ms) for (u, p, n), (v, ms) in states.items()])
    entries.sort(key=lambda e: -e[3])
    return tuple(entries), entries[0][3]


def _points_search(opts, W: int):
    """The memoised search of :func:`_suit_points` for one way of playing the aces: ``f(rem)``
    is the dict ``(u, p, n) -> (value, link)`` of the position counts ``rem``, ``link`` the
    melds as a linked list (:func:`_flatten`)."""
    memo: dict = {}

    def f(rem):
        r = memo.get(rem)
        if r is not None:
            return r
        o = opts(rem)
        if o is None:
            r = {(0, 0, 0): (0, None)}
            memo[rem] = r
            return r
        dead_rest, out = o
        res = dict(f(dead_rest))
        for w, code, rv, slots, rest in out:
            pure = code != "R"
            meld = (code, slots)
            for (u, p, n), (v, link) in f(rest).items():
                uu = u + w
                if uu > W:
                    continue
                key = (uu, 1 if (p or pure) else 0, n + 1 if n < 2 else 2)
                vv = v + rv
                old = res.get(key)
                if old is None or vv > old[0]:
                    res[key] = (vv, (meld, link))
        memo[rem] = res
        return res

    return f


@lru_cache(maxsize=1 << 17)
def _suit_points(vec: tuple, zr: int, wcap: int, tan: bool):
    """Points table of one suit's naturals ``vec`` (13 counts by rank; rank ``zr`` worth 0).

    Returns ``(entries, maxval)``: entries, the Pareto-best ``(u, p, n, value, melds)`` over
    the partitions of the suit: ``u`` wild cards used (<= wcap), ``p`` 1 if it has a pure run or
    tanala, ``n`` runs (capped at 2), ``value`` of the naturals melded; maxval, the largest
    value. Groups of ranks that no run can join are solved apart and combined."""
    parts = _clusters(vec, wcap)
    if len(parts) > 1:
        return _points_of_clusters(parts, zr, wcap, tan)
    vals = _suit_vals(zr)
    W = wcap
    best: dict = {}
    for start in _ace_splits(vec):
        f = _points_search(_options_fn(vals, W, tan), W)
        for key, (v, link) in f(start).items():
            old = best.get(key)
            if old is None or v > old[0]:
                best[key] = (v, link)
    entries = [(u, p, n, v, _flatten(link))
               for u, p, n, v, link in _pareto([(u, p, n, v, link)
                                                for (u, p, n), (v, link) in best.items()])]
    entries.sort(key=lambda e: -e[3])
    return tuple(entries), (entries[0][3] if entries else 0)


def _full_of_clusters(parts: list, zr: int, wcap: int, tan: bool) -> dict:
    """:func:`_suit_full` of a suit split into ``parts`` that no run can join: each part's
    table, combined under the cap ``wcap`` (empty when a part cannot be covered)."""
    states = {(0, 0, 0, 0): ()}
    for sub in parts:
        z, wc = _sub_args(sub, zr, wcap)
        tb = _suit_full(sub, z, wc, tan)
        if not tb:
            return {}
        new = {}
        for (u, a, b, t), ms in states.items():
            for (u2, a2, b2, t2), m2 in tb.items():
                uu = u + u2
                if uu > wcap:
                    continue
                key = (uu, min(a + a2, 2), min(b + b2, 2), min(t + t2, 2))
                if key not in new:
                    new[key] = ms + m2
        states = new
    return states


def _full_search(opts, W: int):
    """The memoised search of :func:`_suit_full` for one way of playing the aces: ``f(rem)``
    is the dict ``(u, a, b, t) -> link`` of the position counts ``rem``."""
    memo: dict = {}

    def f(rem):
        r = memo.get(rem)
        if r is not None:
            return r
        o = opts(rem)
        if o is None:
            r = {(0, 0, 0, 0): None}
            memo[rem] = r
            return r
        res = {}
        for w, code, _rv, slots, rest in o[1]:
            da = 1 if code == "P" else 0
            db = 1 if code == "R" else 0
            dt = 1 if code == "T" else 0
            meld = (code, slots)
            for (u, a, b, t), link in f(rest).items():
                uu = u + w
                if uu > W:
                    continue
                key = (uu, min(a + da, 2), min(b + db, 2), min(t + dt, 2))
                if key not in res:
                    res[key] = (meld, link)
        memo[rem] = res
        return res

    return f


@lru_cache(maxsize=1 << 16)
def _suit_full(vec: tuple, zr: int, wcap: int, tan: bool):
    """Full-cover table of one suit: dict ``(u, a, b, t) -> melds`` over the partitions of
    every natural of ``vec`` into runs and tanalas with ``u`` (<= wcap) wild cards, ``a`` pure
    runs, ``b`` impure runs, ``t`` tanalas (each capped at 2)."""
    parts = _clusters(vec, wcap)
    if len(parts) > 1:
        return _full_of_clusters(parts, zr, wcap, tan)
    vals = _suit_vals(zr)
    W = wcap
    full: dict = {}
    for start in _ace_splits(vec):
        f = _full_search(_options_fn(vals, W, tan), W)
        for key, link in f(start).items():
            if key not in full:
                full[key] = _flatten(link)
    return full
