"""The declaration search of the Indian Rummy solver: all the cards in melds, two runs, one
pure (IR-6)."""

from __future__ import annotations

from .fill import _fill_bounds, _fill_need, _next_codes
from .hand import _leaf_tables, _Split, _splits
from .suits import _suit_full


def _declare_ok(a, b, t, L, s3, four):
    if not (a or t):
        return False
    n = a + b + t
    if L == 0:
        return n >= 2
    if L >= 3:
        return True  # the left-over wild cards are the second run
    if n < 2:
        return False
    if b or a >= 2 or (a and t):
        return True
    return four and s3 >= L


def _search_declare(cnt, wr, tan, four):
    """A declaration of all the cards: witness or None. Set choices whose suits need more
    wild cards than are left are skipped (:func:`_fill_need`: no leaf below could declare)."""
    for reserved in _splits(cnt, wr, tan):
        found = _declare_in_split(_Split(cnt, wr, reserved, four), tan, four)
        if found is not None:
            return found
    return None


def _full_states(sp: _Split, budget: int, tan: bool):
    """The full-cover tables of the suits (:func:`_suit_full`) combined under ``budget`` wild
    cards: dict ``(u, a, b, t) -> witness link``, or None when some suit cannot be covered."""
    states: dict = {(0, 0, 0, 0): ()}
    for s, fl in _leaf_tables(sp, budget, tan, _suit_full):
        if not fl:
            return None
        new: dict = {}
        for (u, a, b, t), w in states.items():
            for (u2, a2, b2, t2), m2 in fl.items():
                uu = u + u2
                if uu > budget:
                    continue
                aa = a + a2
                bb = b + b2
                tt = t + t2
                key = (uu, aa if aa < 2 else 2, bb if bb < 2 else 2, tt if tt < 2 else 2)
                if key not in new:
                    new[key] = (w, s, m2)
        if not new:
            return None
        states = new
    return states


def _declare_in_split(sp: _Split, tan: bool, four: bool):
    """:func:`_search_declare` for one split of the wild-rank naturals: a branch and bound
    over the set choices of each rank (``sp.ranks``), each leaf solving the suits left."""
    W = sp.W
    ranks = sp.ranks
    nr = len(ranks)
    chosen: list = []
    found: list = []

    def leaf(sets_u, s3):
        budget = W - sets_u
        states = _full_states(sp, budget, tan)
        if states is None:
            return False
        for (u, a, b, t), w in states.items():
            if _declare_ok(a, b, t, budget - u, s3, four):
                found.append((sp.reserved, tuple(chosen), w))
                return True
        return False

    tables, mults = _fill_bounds(sp.vecs, [rk - 1 for rk, _ in ranks], tan)

    def dfs(j, sets_u, s3, codes):
        if sets_u + _fill_need(tables, j, codes, False) > W:
            return False  # no leaf below has the wild cards
        if j == nr:
            return leaf(sets_u, s3)
        rk, opts = ranks[j]
        mult = mults[j]
        for used, w, os3, masks in opts:
            if sets_u + w > W:
                continue
            if masks:
                for s in range(4):
                    sp.vecs[s][rk - 1] -= used[s]
                chosen.append((rk, masks))
                ok = dfs(j + 1, sets_u + w, s3 + os3, _next_codes(codes, mult, used))
                chosen.pop()
                for s in range(4):
                    sp.vecs[s][rk - 1] += used[s]
            else:
                ok = dfs(j + 1, sets_u, s3, _next_codes(codes, mult, used))
            if ok:
                return True
        return False

    if dfs(0, 0, 0, (0, 0, 0, 0)):
        return found[0]
    return None
