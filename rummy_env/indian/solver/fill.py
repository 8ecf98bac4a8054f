"""A cheap lower bound on the wild cards a declaration needs (IR-6): ``wilds_suffice``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from .common import JOKER
from .hand import _set_options
from .suits import _ace_splits

# --------------------------------------------------------------------------------------------
# A cheap proof of "no": the wild cards the naturals need, whatever the lives (IR-6).
#
# Every meld of a declaration holds its non-wild naturals and wild cards (a wild-rank natural
# kept as itself counts as a wild card here: it could stand in its own place as one, IR-2). A
# run of ``k`` naturals spanning ``span`` places holds at least ``max(3, span) - k`` wild
# cards, a set of ``k`` naturals ``3 - k`` (none for four with ``sets_of_four``), a tanala none
# (IR-3, IR-4). So the hand's wild cards number at least the least *fill* of any partition of
# its non-wild naturals into such groups; leaving one card out of a 14-card hand leaves either a
# natural out of the groups or one wild card fewer. The lives (a pure run, two runs) and the
# places of left-over wild cards are ignored, so the bound is necessary only.

_INF = 99

#: ``tan -> {cluster: (fill, fill with one natural out)}`` of :func:`_cover`, shared by every
#: suit, and ``(vec, tan) ->`` the same per suit of :func:`_suit_fill`: both emptied when
#: ``_SUIT_FILL`` reaches ``_SUIT_FILL_LIMIT`` entries; ``_FILL``, the tables of
#: :func:`_fill_table`, when it reaches ``_FILL_LIMIT`` (all are cheap to rebuild).
_COVER: dict = {False: {}, True: {}}
_SUIT_FILL: dict = {}
_SUIT_FILL_LIMIT = 1 << 15
_FILL: dict = {}
_FILL_LIMIT = 1 << 12
#: Bits of one digit of a set-choice code of :func:`_fill_table`: the naturals (0..3) of one
#: rank taken into sets, a base-4 digit.
_DIGIT_BITS = 2
_DIGIT_BASE = 1 << _DIGIT_BITS


def _trim(lst: list) -> tuple:
    """``lst`` without its leading and trailing zeros, as a tuple."""
    i = 0
    j = len(lst)
    while i < j and not lst[i]:
        i += 1
    while j > i and not lst[j - 1]:
        j -= 1
    return tuple(lst[i:j])


def _cover(pat: tuple, tan: bool) -> tuple[int, int]:
    """``(f0, f1)`` for a cluster ``pat`` of one suit's naturals: the counts at consecutive
    run places from the lowest natural to the highest (trimmed: a fill does not depend on where
    the places lie, every run fits in a suit's 14 places). ``f0``: the fewest wild cards of
    runs and tanalas holding every natural; ``f1``: the same with one natural left out. The
    lowest natural is the lowest of its run (or in a tanala, or the card left out); a run never
    needs a gap of four places or more between two naturals (the two runs on either side need
    at most four padding wild cards between them)."""
    memo = _COVER[tan]
    r = memo.get(pat)
    if r is not None:
        return r
    if not pat:
        return 0, 0
    lst = list(pat)
    lst[0] -= 1
    f0 = _INF
    f1 = _cover(_trim(lst), tan)[0]  # the lowest natural is the one left out
    if tan and pat[0] >= 3:
        lst[0] -= 2
        f0, f1t = _cover(_trim(lst), tan)
        f1 = min(f1, f1t)
        lst[0] += 2
    n = len(lst)

    def ext(last: int, gaps: int) -> None:
        nonlocal f0, f1
        w = gaps + 2 - last if last < 2 else gaps  # the span is last + 1: padding to 3
        a, b = _cover(_trim(lst), tan)
        if w + a < f0:
            f0 = w + a
        if w + b < f1:
            f1 = w + b
        for q in range(last + 1, min(last + 5, n)):
            if lst[q]:
                lst[q] -= 1
                ext(q, gaps + q - last - 1)
                lst[q] += 1

    ext(0, 0)
    memo[pat] = r = (f0, f1)
    return r


def _suit_fill(vec: bytes, tan: bool) -> tuple[int, int]:
    """``(f0, f1)`` of :func:`_cover` for one suit's non-wild naturals ``vec`` (13 counts by
    rank index), each ace played low or high: the sum over its clusters (naturals more than
    four places apart share no run), one natural out in one of them for ``f1``. Memoised
    (bounded)."""
    key = (vec, tan)
    r = _SUIT_FILL.get(key)
    if r is not None:
        return r
    if len(_SUIT_FILL) >= _SUIT_FILL_LIMIT:
        _SUIT_FILL.clear()
        _COVER[False].clear()
        _COVER[True].clear()
    f0 = f1 = _INF
    for pos in _ace_splits(vec):
        a0 = gain = 0
        i = 1
        while i < 15:
            if not pos[i]:
                i += 1
                continue
            last = k = i
            while k < 15 and k <= last + 4:
                if pos[k]:
                    last = k
                k += 1
            a, b = _cover(pos[i:last + 1], tan)
            a0 += a
            if b - a < gain:
                gain = b - a
            i = last + 1
        if a0 < f0:
            f0 = a0
        if a0 + gain < f1:
            f1 = a0 + gain
    _SUIT_FILL[key] = r = (f0, f1)
    return r


def _fill_table(vec: bytes, rks: tuple, tan: bool) -> list:
    """The least fill of one suit's non-wild naturals ``vec`` (13 counts by rank index), as
    its naturals of the rank indices ``rks`` (ascending) go to sets or not: per depth ``j``
    (0..len(rks)), ``{code: (f0, f1)}``, the least :func:`_suit_fill` over the choices for
    ``rks[j:]``, ``code`` the choice made for ``rks[:j]`` (base-4 digits: the naturals of that
    rank taken into sets). Memoised (bounded)."""
    key = (vec, rks, tan)
    levels = _FILL.get(key)
    if levels is not None:
        return levels
    if len(_FILL) >= _FILL_LIMIT:
        _FILL.clear()
    # the last level: every choice for every rank; each level above: the least over the
    # choices for its next rank (the last base-4 digit of the codes below)
    v = bytearray(vec)
    last = {}
    for xs in product(*[range(vec[rk] + 1) for rk in rks]):
        code = 0
        for rk, x in zip(rks, xs):
            v[rk] = vec[rk] - x
            code = (code << _DIGIT_BITS) + x
        last[code] = _suit_fill(bytes(v), tan)
    levels = [last]
    for _ in rks:
        up: dict = {}
        for code, (a, b) in levels[-1].items():
            parent = code >> _DIGIT_BITS  # the code less its last choice
            o = up.get(parent)
            if o is None:
                up[parent] = (a, b)
            elif a < o[0] or b < o[1]:
                up[parent] = (min(a, o[0]), min(b, o[1]))
        levels.append(up)
    levels.reverse()
    _FILL[key] = levels
    return levels


@lru_cache(maxsize=4096)
def _set_fills(c: tuple, four: bool) -> tuple:
    """The set choices of one rank with ``c[s]`` naturals of suit ``s``: ``(used4, wilds)``
    per distinct ``used4`` (naturals of each suit in its sets), with the fewest wild cards,
    by wild cards (no sets first)."""
    best: dict = {}
    for used, w, _s3, _masks in _set_options(c, four):
        if best.get(used, _INF) > w:
            best[used] = w
    return tuple(sorted(best.items(), key=lambda e: e[1]))


def _fill_bounds(vecs: list, rks: list, tan: bool) -> tuple[list, list]:
    """For the suit vectors ``vecs`` (13 counts by rank index each) and the rank indices
    ``rks`` whose sets are chosen in that order: ``(tables, mults)``. ``tables[s][j]`` is the
    :func:`_fill_table` level of suit ``s`` once the sets of ``rks[:j]`` are chosen, keyed by
    the code of its choices so far; a choice taking ``u`` naturals of suit ``s`` at ``rks[j]``
    turns code ``c`` into ``c * mults[j][s] + u`` (``mults[j][s]`` is 1 when suit ``s`` has
    no card of that rank: ``u`` is then 0)."""
    tables = []
    for v in vecs:
        own = [rk for rk in rks if v[rk]]
        if not own:  # no set can take a card of this suit
            tables.append([{0: _suit_fill(bytes(v), tan)}] * (len(rks) + 1))
            continue
        levels = _fill_table(bytes(v), tuple(own), tan)
        depth = 0
        row = []
        for rk in rks:
            row.append(levels[depth])
            if v[rk]:
                depth += 1
        row.append(levels[depth])
        tables.append(row)
    base = _DIGIT_BASE
    mults = [(base if vecs[0][rk] else 1, base if vecs[1][rk] else 1,
              base if vecs[2][rk] else 1, base if vecs[3][rk] else 1) for rk in rks]
    return tables, mults


def _fill_need(tables: list, j: int, codes: tuple, drop: bool) -> int:
    """The least fill of the suits over the set choices still open at depth ``j`` of
    :func:`_fill_bounds` (``codes``: per suit, the choices made), one natural out when
    ``drop``: a lower bound on the wild cards any completion of those choices needs."""
    a0, b0 = tables[0][j][codes[0]]
    a1, b1 = tables[1][j][codes[1]]
    a2, b2 = tables[2][j][codes[2]]
    a3, b3 = tables[3][j][codes[3]]
    need = a0 + a1 + a2 + a3
    if drop:
        need += min(b0 - a0, b1 - a1, b2 - a2, b3 - a3)
    return need


def _next_codes(codes: tuple, mult: tuple, used: tuple) -> tuple:
    """The codes of :func:`_fill_bounds` after a set choice taking ``used[s]`` of suit ``s``."""
    return (codes[0] * mult[0] + used[0], codes[1] * mult[1] + used[1],
            codes[2] * mult[2] + used[2], codes[3] * mult[3] + used[3])


def wilds_suffice(cnt: Sequence[int], wr: int, tan: bool, four: bool, drop: bool) -> bool:
    """A necessary condition for ``cnt`` (53 counts), less one card when ``drop``, to declare
    (IR-6): its wild cards are at least the least fill of its non-wild naturals, one of them
    left out when ``drop`` (see above). The least fill is found by a branch and bound over the
    set choices of the ranks present in two suits or more (:func:`_set_fills`), bounded below by
    each suit's least fill over the set choices still open (:func:`_fill_need`)."""
    wilds = cnt[JOKER]
    vecs = [bytes(cnt[0:13]), bytes(cnt[13:26]), bytes(cnt[26:39]), bytes(cnt[39:52])]
    if wr:
        r = wr - 1
        for s in range(4):
            v = vecs[s]
            if v[r]:
                wilds += v[r]
                vecs[s] = v[:r] + b"\0" + v[r + 1:]
    v0, v1, v2, v3 = vecs
    ranks = []
    for rk in range(13):
        if (v0[rk] > 0) + (v1[rk] > 0) + (v2[rk] > 0) + (v3[rk] > 0) >= 2:
            ranks.append((rk, _set_fills((v0[rk], v1[rk], v2[rk], v3[rk]), four)))
    m = len(ranks)
    tables, mults = _fill_bounds(vecs, [rk for rk, _ in ranks], tan)

    def dfs(j: int, sets_w: int, codes: tuple) -> bool:
        if sets_w + _fill_need(tables, j, codes, drop) > wilds:
            return False
        if j == m:
            return True
        mult = mults[j]
        for used, w in ranks[j][1]:
            if sets_w + w > wilds:
                break
            if dfs(j + 1, sets_w + w, _next_codes(codes, mult, used)):
                return True
        return False

    return dfs(0, 0, (0, 0, 0, 0))
