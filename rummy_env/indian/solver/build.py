"""Turning a search's witness into the melds and deadwood of an ``Arrangement`` (Indian Rummy
solver)."""

from __future__ import annotations

from .common import _POS_RANK, _VALUES, JOKER, Arrangement

# --------------------------------------------------------------------------------------------
# Turning a witness into card types.

def _build(cnt, wr, witness, declare: bool, four: bool):
    """(melds, kinds) from a second-life or declaration witness."""
    reserved, sets, w = witness
    pool = _wild_pool(cnt, wr, reserved)
    runs = _witness_runs(w)
    _place_wilds(runs, pool, wr)
    setl = []  # [rank, suits, wild types]
    for rk, masks in sets:
        for m in masks:
            suits = [s for s in range(4) if m >> s & 1]  # bit s: suit s in the set
            setl.append([rk, suits, [pool.pop(0)] if len(suits) == 2 else []])
    extra_run = None
    if len(pool) >= 3:
        extra_run, pool = list(pool), []
    elif pool and declare:
        _absorb_leftovers(runs, setl, pool, four)
    melds = []
    kinds = []
    for run in runs:
        melds.append(tuple(t for _, t in run[2]))
        kinds.append("tanala" if run[0] == "T" else ("pure_run" if _is_pure(run) else "run"))
    for rk, suits, wl in setl:
        melds.append(tuple(s * 13 + rk - 1 for s in suits) + tuple(wl))
        kinds.append("set")
    if extra_run:
        melds.append(tuple(extra_run))
        kinds.append("run")
    return melds, kinds


def _wild_pool(cnt, wr, reserved) -> list:
    """The pool of wild cards: jokers and the wild-rank naturals not kept as naturals."""
    pool = [JOKER] * cnt[JOKER]
    if wr:
        for s in range(4):
            t = s * 13 + wr - 1
            pool += [t] * (cnt[t] - reserved[s])
    return pool


def _witness_runs(w) -> list:
    """The runs and tanalas of a witness link: ``[code, suit, [[position, type or None],
    ...]]`` each, None at the places a wild card takes."""
    runs = []
    while w:
        w, s, ms = w
        for code, slots in ms:
            runs.append([code, s, [[abs(p), s * 13 + _POS_RANK[p] - 1 if p > 0 else None]
                                   for p in slots]])
    return runs


def _place_wilds(runs: list, pool: list, wr: int) -> None:
    """Wild cards to the runs' places, out of ``pool``: the wild-rank natural of exactly that
    place first (it keeps the run pure), then printed jokers, then other wild-rank naturals."""
    for _code, s, slots in runs:
        for sl in slots:
            if sl[1] is None and _POS_RANK[sl[0]] == wr:
                t = s * 13 + wr - 1
                if t in pool:
                    pool.remove(t)
                    sl[1] = t
    pool.sort(key=lambda x: (x != JOKER, x))
    for _code, _s, slots in runs:
        for sl in slots:
            if sl[1] is None:
                sl[1] = pool.pop(0)


def _is_pure(run) -> bool:
    code, s, slots = run
    return code == "T" or all(t == s * 13 + _POS_RANK[p] - 1 for p, t in slots)


def _absorb_leftovers(runs: list, setl: list, pool: list, four: bool) -> None:
    """A declaration's 1-2 left-over wild cards join a meld (see ``_declare_ok``): an impure
    run, or a pure run while another pure run or tanala remains, or (sets of four) a set of
    three."""
    target = None
    for run in runs:
        if run[0] != "T" and not _is_pure(run):
            target = run
            break
    if target is None and sum(1 for r in runs if _is_pure(r)) >= 2:
        target = next((r for r in runs if r[0] != "T"), None)
    if target is not None:
        slots = target[2]
        while pool:
            t = pool.pop(0)
            if slots[-1][0] < 14:
                slots.append([slots[-1][0] + 1, t])
            else:
                slots.insert(0, [slots[0][0] - 1, t])
    elif four:
        for st in setl:
            if pool and len(st[1]) + len(st[2]) == 3:
                st[2].append(pool.pop(0))
    if pool:  # pragma: no cover - _declare_ok guarantees a place
        raise AssertionError("left-over wild cards found no meld")


_KIND_ORDER = {"pure_run": 0, "tanala": 1, "run": 2, "set": 3}


def _make(cards_key, wr, melds, kinds, can_declare):
    order = sorted(range(len(melds)), key=lambda i: (_KIND_ORDER[kinds[i]], melds[i]))
    melds = tuple(melds[i] for i in order)
    kinds = tuple(kinds[i] for i in order)
    if melds:
        rest = [0] * 53
        for t in cards_key:
            rest[t] += 1
        for m in melds:
            for t in m:
                rest[t] -= 1
                if rest[t] < 0:  # pragma: no cover - internal consistency
                    raise AssertionError("solver built melds that are not in the hand")
        dead = tuple(t for t in range(53) for _ in range(rest[t]))
    else:
        dead = cards_key
    vals = _VALUES[wr]
    points = sum(vals[t] for t in dead)
    nruns = sum(1 for k in kinds if k != "set")
    first = any(k in ("pure_run", "tanala") for k in kinds)
    return Arrangement(points=points, melds=melds, kinds=kinds, deadwood=dead,
                       first_life=first, second_life=first and nruns >= 2,
                       can_declare=can_declare)
