"""The second-life search of the Indian Rummy solver: the least payment with a pure run and
a second run (IR-9)."""

from __future__ import annotations

from .common import _RANK_VAL
from .hand import _leaf_tables, _Split, _splits
from .suits import _suit_points


def _search_second_life(cnt, wr, tan, four, floor):
    """Best second life: (covered value, witness) with value > floor, or None."""
    best = None
    best_val = floor
    for reserved in _splits(cnt, wr, tan):
        sp = _Split(cnt, wr, reserved, four)
        W = sp.W
        ranks = sp.ranks
        nr = len(ranks)
        chosen = []

        def leaf(sets_u, sets_val):
            nonlocal best, best_val
            budget = W - sets_u
            tables = list(_leaf_tables(sp, budget, tan, _suit_points))
            ub = sets_val
            for _, tb in tables:
                ub += tb[1]
            if ub <= best_val:
                return
            states = {(0, 0, 0): (0, ())}
            for s, tb in tables:
                entries = tb[0]
                new = {}
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
            for (u, p, n), (v, w) in states.items():
                if p and (n == 2 or budget - u >= 3) and sets_val + v > best_val:
                    best_val = sets_val + v
                    best = (best_val, sp.reserved, tuple(chosen), w)

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
    return best
