"""The second-life search of the Indian Rummy solver: the least payment with a pure run and
a second run (IR-9)."""

from __future__ import annotations

from .common import _RANK_VAL
from .hand import _leaf_tables, _Split, _splits
from .suits import _suit_points


def _search_second_life(cnt, wr, tan, four, floor):
    """Best second life: (covered value, witness) with value > floor, or None."""
    top = [floor, None]  # the best value so far and its witness, over every split
    for reserved in _splits(cnt, wr, tan):
        _second_life_in_split(_Split(cnt, wr, reserved, four), tan, top)
    return top[1]


def _points_states(tables: list, budget: int) -> dict:
    """The points tables of the suits (:func:`_suit_points`) combined under ``budget`` wild
    cards: dict ``(u, p, n) -> (value, witness link)``, the best value per key."""
    states: dict = {(0, 0, 0): (0, ())}
    for s, tb in tables:
        entries = tb[0]
        new: dict = {}
        for (u, p, n), (v, w) in states.items():
            for (u2, p2, n2, v2, m2) in entries:
                uu = u + u2
                if uu > budget:
                    continue
                nn = n + n2
                if nn > 2:
                    nn = 2
                key = (uu, p | p2, nn)
                vv = v + v2
                o = new.get(key)
                if o is None or vv > o[0]:
                    new[key] = (vv, (w, s, m2))
        states = new
    return states


def _second_life_in_split(sp: _Split, tan: bool, top: list) -> None:
    """:func:`_search_second_life` for one split of the wild-rank naturals: a branch and bound
    over the set choices of each rank, raising ``top`` (``[value, witness]``) where a leaf
    beats it; a leaf whose suits cannot reach ``top`` even at their best is skipped."""
    W = sp.W
    ranks = sp.ranks
    nr = len(ranks)
    chosen: list = []

    def leaf(sets_u, sets_val):
        budget = W - sets_u
        tables = list(_leaf_tables(sp, budget, tan, _suit_points))
        ub = sets_val
        for _, tb in tables:
            ub += tb[1]
        if ub <= top[0]:
            return
        for (u, p, n), (v, w) in _points_states(tables, budget).items():
            if p and (n == 2 or budget - u >= 3) and sets_val + v > top[0]:
                top[0] = sets_val + v
                top[1] = (top[0], sp.reserved, tuple(chosen), w)

    def dfs(j, sets_u, sets_val):
        if j == nr:
            leaf(sets_u, sets_val)
            return
        rk, opts = ranks[j]
        rv = _RANK_VAL[rk]
        for used, w, _s3, masks in opts:
            if sets_u + w > W:
                continue
            if masks:
                for s in range(4):
                    sp.vecs[s][rk - 1] -= used[s]
                chosen.append((rk, masks))
                dfs(j + 1, sets_u + w, sets_val + rv * sum(used))
                chosen.pop()
                for s in range(4):
                    sp.vecs[s][rk - 1] += used[s]
            else:
                dfs(j + 1, sets_u, sets_val)

    dfs(0, 0, 0)
