"""The compiled core of the Manipulation Rummy solver (numba; MR-3, MR-4, MR-5).

The layered programme and forward-backward sweep of the pure-Python solver
(``rummy_env.manipulation.solver``, whose docstring explains them, and which stays the
reference the tests compare this module with), reshaped for compiled code:

* **Keys** are int64 words: the four suits' 12-bit fields (``n1, n2, n3, hi``, 3 bits each)
  from bit 0, the rank's group count ``S`` (5 bits) at 48 and largest per-suit group count
  ``G`` (3 bits: at most 4) at 53, the summed joker need (4 bits) at 56. Bit 63 stays clear,
  so shifts never sign-extend.
* **Values** are ``W`` int64 words, a bit set of ``(aces kept, d, used)``: one block of
  ``2 * width`` bits per combination of aces kept for the ace high (for the suits whose aces
  ride in the values), as many whole blocks per word as fit in 63 bits, so the d shifts, the
  used merge and the masks work word by word and only the aces-kept moves cross words. The
  Python solver puts all four suits' aces in the keys or all in the values (its big integers
  hold any number of blocks); here they ride in the values while the blocks fit in
  ``_WMAX`` words (the suits with the most combinations first), in the key otherwise.
* **A joker as the ace high** is placed at the ace-high layer (``y`` jokers there) instead of
  being kept at rank 1 as in the Python programme, so the aces kept are natural ones and a
  suit's combinations are its natural aces', not the A, Q and K a joker could stand for (with
  a joker to place that cut the blocks from 81 to 12-54 on the slowest recorded masks). The
  two programmes make the same tables, so the answers are the same; the joker-as-ace
  candidate is checked at rank 1 and at the ace high.
* **Layers** store their entries (key, then the value's words) in insertion order in one pool
  with an open-addressing index per layer, so iterating a layer follows the Python dicts'
  order; the backward sets sit in a second pool at the same positions.
* **Moves** are computed once per (layer, kind, the key part the layer reads) and memoised
  for the sweep, merged by key delta (their value changes OR-ed): a layer's keys share few
  parts.
* Hot helpers are inlined at numba's IR level (``inline="always"``): a call's array
  arguments are reference-counted with atomic operations, which cost more than the work.

Entry points take plain int64 arrays (``table``, ``naturals``, ``freeable`` 52 long, ``hand``
53 long) and a layout ``policy`` (1: aces kept in the values while they fit; 0: in the keys)
and answer one of the solver's questions: :func:`valid_table`, :func:`can_complete`,
:func:`step_options` (bit masks of the steps), :func:`arrange_choices` (the plain programme's
choices, the same as the Python programme's, from which ``solver`` builds the melds). They
place at most ``MAX_WILDS`` jokers (``solver`` answers the rest). Functions compile on first
use and are cached on disk (``cache=True``); importing this module compiles nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

_JOKER = 52
_NT = 52
#: Layers of the sweep, as in ``solver._SWEEP``: per rank the four types then the rank's end,
#: ranks A..K (65 layers), then the four ace-high layers.
_NL = 69
#: Kind of each layer: 0 a type, 1 a rank's end, 2 an ace high.
_KIND = np.array([0 if p < 65 and p % 5 < 4 else (1 if p < 65 else 2) for p in range(_NL)],
                 np.int64)
#: Layer of each natural type.
_AT = np.array([(t % 13) * 5 + t // 13 for t in range(_NT)], np.int64)


def _groups_ok_py(total: int, biggest: int) -> bool:
    """As ``solver._groups_ok``: per-suit counts with this sum and maximum split into groups."""
    if total == 0:
        return True
    return max(biggest, (total + 3) // 4) <= total // 3


#: ``_GOK[total, biggest]`` and ``_GREACH[total, biggest, room]`` (``solver._groups_reachable``)
#: as tables: both are read for every move.
_GOK = np.array([[_groups_ok_py(n, b) for b in range(8)] for n in range(64)], np.bool_)
_GREACH = np.array([[[any(_groups_ok_py(n, b) for n in range(tot, min(tot + room, 63) + 1))
                      for room in range(40)] for b in range(8)] for tot in range(40)], np.bool_)

_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
#: Most choices one key can have at one layer (options x aces kept x group counts), with room.
_MAXMV = 512
#: Joker need that no number of jokers meets (as ``solver._NEVER``).
_NEVER = 99
#: Most jokers a question may have to place (the rules allow two; ``solver`` answers others).
MAX_WILDS = 2
#: Most words of a value (the suits whose aces would need more ride in the keys).
_WMAX = 16

# The context of one sweep is one flat int64 array ``cx`` (a numba function's array arguments
# are reference-counted at every call, so the hot code reads one array, not a dozen):
#: scalars: 0 wilds, 1 width, 2 block size, 3 pruning, 4 accepted ends (word 0), 5 / 6 the
#: used / unused halves of every block of a word, 7-9 ``kup[dd]`` (the bits whose d may go up
#: by dd), 10-13 aces kept in the key (per suit), 14-17 aces-kept combinations per suit in the
#: values, 18-21 blocks one more ace kept of the suit moves a value, 22 blocks, 23 words per
#: value ``W``, 24 blocks per word, 25 the word's used bits, 26 / 27 offsets of the keep masks
#: and the block masks.
_SC = 0
#: per type: table count m, hand count h, jokers that may stand there w, the most it can hold
#: cmax, naturals of table and hand c0, whether a joker may stand there.
_TI = 32
#: per layer: r, s, t, nx1, nx2, grp, hcap, room, shift (``solver._Sweep.params``).
_LP = _TI + 6 * _NT
#: then, per layer and key need n (0..2), W words: the values kept (joker-need pruning); then
#: per suit and aces kept h (0..7), W words: the blocks that keep h aces of the suit.
_KM = _LP + 9 * _NL


# ------------------------------------------------------------------------------------ maps
#
# A map is a run of entries in a pool array, ``1 + W`` int64 each (the key, then the value's
# W words), from an offset, in insertion order (so iterating it follows the Python dicts'
# order), with an open-addressing index: ``1 << bits`` int32 slots holding position + 1, 0
# empty. The index of the map being built lives in a scratch array that is all zero between
# uses (only its used slots are cleared after each layer), so no layer allocates. A step that
# runs out of room says so and its caller grows the arrays and runs it again.

@njit(cache=True, inline="always")
def _slot(key, bits):
    return np.int64((np.uint64(key) * _HASH_MUL) >> np.uint64(64 - bits))


@njit(cache=True, inline="always")
def _put(pool, S, off, idx, bits, n, key, tmp):
    """OR the value ``tmp`` (``S - 1`` words) into ``key``'s in the map at ``off`` (a new key
    goes last); the new count. Room reserved by the caller."""
    mask = (1 << bits) - 1
    i = _slot(key, bits)
    while True:
        j = idx[i]
        if j == 0:
            idx[i] = n + 1
            b = (off + n) * S
            pool[b] = key
            for w in range(S - 1):
                pool[b + 1 + w] = tmp[w]
            return n + 1
        b = (off + j - 1) * S
        if pool[b] == key:
            for w in range(S - 1):
                pool[b + 1 + w] |= tmp[w]
            return n
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def _find(pool, S, off, idx, ioff, bits, key):
    """Position of ``key`` in the map at ``off`` whose index is at ``ioff``, -1 if absent
    (``bits`` 0: an empty map)."""
    if bits == 0:
        return -1
    mask = (1 << bits) - 1
    i = _slot(key, bits)
    while True:
        j = idx[ioff + i]
        if j == 0:
            return -1
        if pool[(off + j - 1) * S] == key:
            return j - 1
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def _rehash(pool, S, off, n, idx, bits):
    """Rebuild the index of the map at ``off`` with ``bits`` bits (its slots zero)."""
    mask = (1 << bits) - 1
    for j in range(n):
        i = _slot(pool[(off + j) * S], bits)
        while idx[i] != 0:
            i = (i + 1) & mask
        idx[i] = j + 1


@njit(cache=True, inline="always")
def _clear(idx, size):
    for i in range(size):
        idx[i] = 0


@njit(cache=True)
def _grown(pool, keep):
    """A pool twice the size, its first ``keep`` int64 copied."""
    out = np.empty(2 * pool.shape[0], np.int64)
    out[:keep] = pool[:keep]
    return out


# ------------------------------------------------------------------------------- memo
#
# A layer's moves depend only on the part of a key it reads (``sub``) and the kind of step, so
# a sweep computes them once per (layer, kind, part) and keeps them in ``mm``, an int64 array
# of records: the number of moves, then per move its key delta, its number of pieces and the
# pieces (the choices that reach the same key, merged: their value changes are OR-ed). The
# memo's hash table ``mt`` holds (code, record offset) pairs, code -1 empty; ``mm[0]`` is the
# next free offset, ``mm[1]`` the number of records.

@njit(cache=True)
def _memo_new():
    mt = np.full(2 * 256, -1, np.int64)
    mm = np.empty(4 * _MAXMV + 64, np.int64)
    mm[0] = 2
    mm[1] = 0
    return mt, mm


@njit(cache=True, inline="always")
def _mslot(code, mask):
    return np.int64((np.uint64(code) * _HASH_MUL) >> np.uint64(40)) & mask


@njit(cache=True, inline="always")
def _memo_find(mt, code):
    """The record offset of ``code``, -1 if none yet."""
    mask = mt.shape[0] // 2 - 1
    i = _mslot(code, mask)
    while True:
        c = mt[2 * i]
        if c == code:
            return mt[2 * i + 1]
        if c == -1:
            return -1
        i = (i + 1) & mask


@njit(cache=True)
def _memo_grown(mt, mm):
    """The memo with twice the room in the table or the records, whichever is short."""
    if 2 * (mm[1] + 1) > mt.shape[0] // 2:
        size = mt.shape[0]
        mt2 = np.full(2 * size, -1, np.int64)
        mask = size - 1
        for i in range(size // 2):
            c = mt[2 * i]
            if c != -1:
                j = _mslot(c, mask)
                while mt2[2 * j] != -1:
                    j = (j + 1) & mask
                mt2[2 * j] = c
                mt2[2 * j + 1] = mt[2 * i + 1]
        mt = mt2
    if mm[0] + 4 * _MAXMV + 8 > mm.shape[0]:
        mm = _grown(mm, mm[0])
    return mt, mm


@njit(cache=True, inline="always")
def _memo_room(mt, mm):
    return 2 * (mm[1] + 1) <= mt.shape[0] // 2 and mm[0] + 4 * _MAXMV + 8 <= mm.shape[0]


@njit(cache=True, inline="always")
def _memo_add(mt, mm, code, mv, cnt):
    """Record the ``cnt`` choices in ``mv`` (key delta, piece) as moves merged by delta; the
    record's offset. Room checked by the caller (``_memo_room``)."""
    rec = mm[0]
    nm = 0
    o = rec + 1
    # Distinct deltas in order of first appearance, each followed by its pieces.
    for i in range(cnt):
        d = mv[i]
        seen = False
        for j in range(i):
            if mv[j] == d:
                seen = True
                break
        if seen:
            continue
        mm[o] = d
        np_ = 0
        for j in range(i, cnt):
            if mv[j] == d:
                pc = mv[_MAXMV + j]
                dup = False
                for q in range(np_):
                    if mm[o + 2 + q] == pc:
                        dup = True
                        break
                if not dup:
                    mm[o + 2 + np_] = pc
                    np_ += 1
        mm[o + 1] = np_
        o += 2 + np_
        nm += 1
    mm[rec] = nm
    mm[0] = o
    mm[1] += 1
    mask = mt.shape[0] // 2 - 1
    i = _mslot(code, mask)
    while mt[2 * i] != -1:
        i = (i + 1) & mask
    mt[2 * i] = code
    mt[2 * i + 1] = rec
    return rec


# -------------------------------------------------------------------------- small helpers

@njit(cache=True)
def _seq_touch(present, t) -> bool:
    """As ``solver._seq_touch``: a natural card of ``t``'s suit within two places of it."""
    s = t // 13
    r0 = t % 13
    base = s * 13
    for k in range(2 if r0 == 0 else 1):
        pos = (1 if k == 0 else 14) if r0 == 0 else r0 + 1
        for d in (-2, -1, 1, 2):
            q = pos + d
            if 1 <= q <= 14 and present[base + (q - 1) % 13]:
                return True
    return False


@njit(cache=True)
def _near(counts, t, wilds) -> bool:
    """As ``solver._near`` (``touch=False``): enough distinct other suits of ``t``'s rank, or a
    window of three consecutive cards of its suit, short of at most ``wilds`` cards."""
    s = t // 13
    r0 = t % 13
    suits = 0
    for q in range(4):
        if q != s and counts[q * 13 + r0] > 0:
            suits += 1
    if suits + wilds >= 2:
        return True
    base = s * 13
    for k in range(2 if r0 == 0 else 1):
        pos = (1 if k == 0 else 14) if r0 == 0 else r0 + 1
        for lo in range(pos - 2, pos + 1):
            if lo < 1 or lo + 2 > 14:
                continue
            miss = 0
            for q in range(lo, lo + 3):
                if q != pos and counts[base + (q - 1) % 13] == 0:
                    miss += 1
            if miss <= wilds:
                return True
    return False


# --------------------------------------------------------------------------- sweep set-up

@njit(cache=True)
def _setup(table, hand, xcand, pending, added, policy):
    """The context of a sweep (``solver._Sweep.__init__``; layout at ``_SC`` .. ``_KM``).

    ``xcand[t]``: a joker may be stated as ``t`` in a candidate check, whose options reach
    higher counts than the programme's own (the pruning bounds must hold for them too).
    ``policy``: 0 every suit's aces kept for the ace high ride in the keys; 1 in the values,
    as many suits as ``_WMAX`` words hold (the suits with the most combinations first)."""
    hj = hand[_JOKER]
    wilds = pending + hj
    width = wilds + 1
    bsize = 2 * width
    bpw = 63 // bsize
    present = np.zeros(_NT, np.bool_)
    for t in range(_NT):
        present[t] = table[t] + hand[t] > 0
    ti = np.zeros(6 * _NT, np.int64)
    for t in range(_NT):
        w = wilds if (wilds > 0 and _seq_touch(present, t)) else 0
        c0 = table[t] + hand[t]
        cm = c0 + w
        if xcand[t] and c0 + wilds > cm:
            cm = c0 + wilds
        ti[6 * t] = table[t]
        ti[6 * t + 1] = hand[t]
        ti[6 * t + 2] = w
        ti[6 * t + 3] = cm
        ti[6 * t + 4] = c0
        ti[6 * t + 5] = 1 if w > 0 else 0
    # Where each suit's aces kept for the ace high ride (at most as many as its natural aces and
    # its Q and K can hold: a joker as the ace high is placed at the ace-high layer, never kept
    # at rank 1, see ``_choices``): the values while the blocks fit in ``_WMAX`` words.
    kk = np.zeros(4, np.int64)
    for s in range(4):
        kk[s] = min(ti[6 * s * 13 + 4], ti[6 * (s * 13 + 11) + 3], ti[6 * (s * 13 + 12) + 3])
    best_mask = 0
    if policy == 1:
        best = 1
        for m in range(16):
            prod = 1
            for s in range(4):
                if m >> s & 1:
                    prod *= kk[s] + 1
            if (prod + bpw - 1) // bpw <= _WMAX and prod > best:
                best = prod
                best_mask = m
        for s in range(4):
            if kk[s] == 0:
                best_mask |= 1 << s  # nothing to keep: neutral either way
    hmax = np.ones(4, np.int64)
    mult = np.ones(4, np.int64)
    for s in range(4):
        if best_mask >> s & 1:
            hmax[s] = kk[s] + 1
    for s in range(1, 4):
        mult[s] = mult[s - 1] * hmax[s - 1]
    blocks = mult[3] * hmax[3]
    W = (blocks + bpw - 1) // bpw
    cx = np.zeros(_KM + (3 * _NL + 32) * W, np.int64)
    cx[_TI:_TI + 6 * _NT] = ti
    km = _KM
    bk = _KM + 3 * _NL * W
    full = (1 << width) - 1
    rep = 0
    for b in range(bpw):
        rep |= 1 << (b * bsize)
    lom = full * rep
    whole = (1 << bsize) - 1
    for s in range(4):
        for b in range(blocks):
            cx[bk + (8 * s + (b // mult[s]) % hmax[s]) * W + b // bpw] |= whole << (
                (b % bpw) * bsize)
    # Accepted ends (block 0 of word 0): every pending joker placed, perhaps hand jokers too,
    # and a hand card added (a natural: the ``used`` half; or a hand joker: d above pending).
    hi_acc = 0
    lo_acc = 0
    for d in range(pending, pending + hj + 1):
        hi_acc |= 1 << d
        if added or d > pending:
            lo_acc |= 1 << d
    cx[_SC] = wilds
    cx[_SC + 1] = width
    cx[_SC + 2] = bsize
    cx[_SC + 3] = 1 if wilds > 0 else 0  # pruning: no frees in a sweep, d counts jokers placed
    cx[_SC + 4] = lo_acc | (hi_acc << width)
    cx[_SC + 5] = lom << width
    cx[_SC + 6] = lom
    for dd in range(min(width, 3)):
        cx[_SC + 7 + dd] = ((full >> dd << dd) * (1 | 1 << width)) * rep
    for s in range(4):
        cx[_SC + 10 + s] = 0 if best_mask >> s & 1 else 1
        cx[_SC + 14 + s] = hmax[s]
        cx[_SC + 18 + s] = mult[s]
    cx[_SC + 22] = blocks
    cx[_SC + 23] = W
    cx[_SC + 24] = bpw
    cx[_SC + 25] = (1 << (bpw * bsize)) - 1
    cx[_SC + 26] = km
    cx[_SC + 27] = bk
    # Layer parameters.
    for r0 in range(13):
        r = r0 + 1
        nz = 0
        room = wilds
        for s in range(4):
            v = ti[6 * (s * 13 + r0) + 3]
            room += v
            if v > 0:
                nz += 1
        grp = 1 if nz + wilds >= 3 else 0
        for s in range(4):
            o = _LP + 9 * (r0 * 5 + s)
            t = s * 13 + r0
            base = s * 13
            room -= ti[6 * t + 3]
            cx[o] = r
            cx[o + 1] = s
            cx[o + 2] = t
            cx[o + 3] = ti[6 * (t + 1) + 3] if r <= 12 else -1
            cx[o + 4] = (ti[6 * (t + 2) + 3] if r <= 11 else
                         (ti[6 * base + 3] if r == 12 else -1))
            cx[o + 5] = grp
            cx[o + 6] = min(ti[6 * (base + 11) + 3], ti[6 * (base + 12) + 3]) if r == 1 else 0
            cx[o + 7] = room
            cx[o + 8] = 12 * s
        o = _LP + 9 * (r0 * 5 + 4)
        cx[o] = r
        cx[o + 1] = -1
        cx[o + 8] = 48
    for s in range(4):
        o = _LP + 9 * (65 + s)
        cx[o] = 14
        cx[o + 1] = s
        cx[o + 8] = 12 * s
    # Joker-need pruning: per layer and key need n, the values with enough jokers left for n
    # plus the Qs and Ks of their blocks' aces kept (``solver._Sweep._keep_masks``).
    if wilds > 0:
        keep = np.zeros(wilds + 1, np.int64)
        for n in range(wilds + 1):
            keep[n] = ((1 << (wilds - n + 1)) - 1) * (1 | 1 << width)
        per = np.zeros((4, 8), np.int64)
        hneed = np.zeros(blocks, np.int64)
        nxt = np.zeros(4, np.int64)
        last_code = -1
        for p in range(65):
            r = cx[_LP + 9 * p]
            s = cx[_LP + 9 * p + 1]
            code = 0
            for q in range(4):
                x = r + 1 if (s < 0 or q <= s) else r
                nxt[q] = min(max(x, 10), 12)
                code = code * 3 + nxt[q] - 10
            if code != last_code:
                for q in range(4):
                    for h in range(hmax[q]):
                        need = 0
                        if h:
                            for rank in (12, 13):
                                if nxt[q] + 1 < rank:
                                    o = 6 * (q * 13 + rank - 1)
                                    short = h - ti[o + 4]
                                    if short > 0:
                                        need += short if ti[o + 5] else _NEVER
                        per[q, h] = need
                for b in range(blocks):
                    hn = 0
                    for q in range(4):
                        hn += per[q, (b // mult[q]) % hmax[q]]
                    hneed[b] = hn
                last_code = code
            for n in range(wilds + 1):
                o = km + (3 * p + n) * W
                for b in range(blocks):
                    if n + hneed[b] <= wilds:
                        cx[o + b // bpw] |= keep[n + hneed[b]] << ((b % bpw) * bsize)
    return cx


@njit(cache=True, inline="always")
def _suit_need(cx, wilds, rank, s, f):
    """As ``solver._Sweep._suit_need``: the jokers suit ``s`` still needs in sequences with
    field ``f`` and next rank ``rank``, or ``wilds + 1`` when more than the jokers there are
    (a move to such a field is dead whatever the other suits need)."""
    if rank > 13:
        return 0
    n1 = f & 7
    n2 = f >> 3 & 7
    hi = f >> 9
    top = 13 if hi else min(rank + 1, 13)
    need = 0
    for q in range(rank, top + 1):
        want = 0
        if q == rank:
            want = n1 + n2
        elif q == rank + 1:
            want = n1
        if hi and q >= 12 and hi > want:
            want = hi
        o = _TI + 6 * (s * 13 + q - 1)
        short = want - cx[o + 4]
        if short > 0:
            if cx[o + 5] == 0:
                return wilds + 1
            need += short
    return need if need <= wilds else wilds + 1


# ------------------------------------------------------------------------------- moves

@njit(cache=True)
def _choices(cx, p, sub, kind, mv):
    """The choices of the keys whose part read by layer ``p`` is ``sub`` (type layer: the
    suit's field, then ``S`` and ``G`` from bit 12; a rank's
    end: ``S`` and ``G``; an ace high: the suit's field), as in ``solver._Sweep._moves``
    before the merge: ``mv[i]`` the key delta, ``mv[_MAXMV + i]`` its piece, the value change:
    at a type layer ``dd | used << 4 | k << 8`` (jokers placed, a hand card used, blocks the
    aces kept move it up); at a rank's end ``dd`` (jokers joining the groups); at an ace high
    ``1 | h << 4 | y << 8`` (the blocks of h aces kept go on as none kept, y jokers placed as
    the ace) or ``2 | y << 8`` (every block goes on, y jokers placed), 0 the identity. ``kind`` at a
    type layer: 0 the programme's options, 1 a hand card of the type played (a candidate), 2 a
    joker stated as the type (a candidate). Returns the count."""
    o = _LP + 9 * p
    r = cx[o]
    s = cx[o + 1]
    wilds = cx[_SC]
    if s < 0:
        # A rank's end: its group cards must split into groups, jokers as extra members.
        S = sub & 31
        G = sub >> 5 & 7
        cnt = 0
        for wg in range(0, wilds + 1):
            if _GOK[S + wg, G]:
                mv[cnt] = -(sub << 48)
                mv[_MAXMV + cnt] = wg
                cnt += 1
        return cnt
    f = sub & 0xFFF
    n1 = f & 7
    n2 = f >> 3 & 7
    n3 = f >> 6 & 7
    sh = cx[o + 8]
    if r == 14:
        # The ace high: the Q K sequences and some 3+ ones take the aces kept and ``y``
        # jokers stated as the ace (a joker is placed here, not kept at rank 1, so the aces
        # kept are naturals and their combinations stay few): ``n2 <= h + y <= n2 + n3``.
        if n1:
            return 0
        y_lo = 1 if kind == 2 else 0
        y_hi = wilds if kind == 2 else cx[_TI + 6 * (s * 13) + 2]
        cnt = 0
        if cx[_SC + 10 + s] or cx[_SC + 14 + s] == 1:
            kept = f >> 9
            for y in range(y_lo, y_hi + 1):
                if n2 <= kept + y <= n2 + n3:
                    mv[cnt] = -(f << sh)
                    mv[_MAXMV + cnt] = (2 | y << 8) if y else 0
                    cnt += 1
            return cnt
        for h in range(cx[_SC + 14 + s]):
            for y in range(y_lo, y_hi + 1):
                if n2 <= h + y <= n2 + n3:
                    mv[cnt] = -(f << sh)
                    mv[_MAXMV + cnt] = 1 | h << 4 | y << 8
                    cnt += 1
        return cnt
    t = cx[o + 2]
    nx1 = cx[o + 3]
    nx2 = cx[o + 4]
    grp = cx[o + 5]
    hcap = cx[o + 6]
    room = cx[o + 7]
    hik = cx[_SC + 10 + s]
    mult = cx[_SC + 18 + s]
    S = sub >> 12 & 31
    G = sub >> 17 & 7
    hi0 = f >> 9
    pruning = cx[_SC + 3]
    need0 = _suit_need(cx, wilds, r, s, f) if pruning else 0
    m = cx[_TI + 6 * t]
    h = cx[_TI + 6 * t + 1]
    a_lo = 1 if kind == 1 else 0
    x_lo = 1 if kind == 2 else 0
    x_hi = wilds if kind == 2 else cx[_TI + 6 * t + 2]
    need_ext = n1 + n2
    cnt = 0
    for a in range(a_lo, h + 1):
        for x in range(x_lo, x_hi + 1):
            c = m + a + x
            gmax = c if kind == 2 else m + a
            if c < need_ext:
                continue
            hi_top = min(m + a, hcap) if r == 1 else hi0  # naturals only (see above)
            hi_bot = 0 if r == 1 else hi0
            for hi in range(hi_bot, hi_top + 1):
                free = c - (hi if r == 1 else 0) - need_ext
                gtop = min(free, gmax) if grp else 0
                for g in range(0, gtop + 1):
                    rem = free - g
                    e3 = n3 if rem > n3 else rem
                    k = rem - e3
                    n3n = n2 + e3
                    if r == 13:
                        if k:
                            continue  # a K left short of three before the ace high
                        if hik:
                            # Q K left short of three before the ace high: the aces kept
                            # and the jokers there may be take them.
                            if n1 > hi + wilds:
                                continue
                            if n3n > hi + wilds:
                                n3n = hi + wilds
                    else:
                        if k + n1 > nx1 or (k and k > nx2):
                            continue  # short sequences the next cards cannot extend
                        if n3n > nx1 - k - n1:
                            n3n = nx1 - k - n1
                    Gn = g if g > G else G
                    if not _GREACH[S + g, Gn, room]:
                        continue  # the rank's group cards can no longer split into groups
                    nf = k | n1 << 3 | n3n << 6 | ((hi << 9) if hik else 0)
                    delta = (nf - f) << sh
                    if g:
                        delta += (g << 48) + ((Gn - G) << 53)
                    if pruning:
                        need1 = _suit_need(cx, wilds, r + 1, s, nf)
                        if need1 > wilds:
                            continue
                        delta += (need1 - need0) << 56
                    mv[cnt] = delta
                    mv[_MAXMV + cnt] = x | (1 if a > 0 else 0) << 4 | (
                        (hi * mult) << 8 if (r == 1 and not hik) else 0)
                    cnt += 1
    return cnt


@njit(cache=True, inline="always")
def _sub(cx, p, key):
    """The part of ``key`` that layer ``p`` reads (see ``_choices``)."""
    o = _LP + 9 * p
    s = cx[o + 1]
    if s < 0:
        return key >> 48 & 0xFF
    f = key >> cx[o + 8] & 0xFFF
    if cx[o] == 14:
        return f
    return f | (key >> 48 & 0xFF) << 12


# ------------------------------------------------------------------------------ values
#
# A value is W words; word w holds blocks ``w * bpw .. (w + 1) * bpw - 1`` of ``bsize`` bits
# (d then used), so the d shifts, the used merge and the masks work word by word and only the
# aces-kept moves (whole blocks, at rank 1 and the ace high) cross words.

@njit(cache=True, inline="always")
def _blocks_up(cx, src, so, dst, do, k):
    """OR into ``dst[do:]`` the value at ``src[so:]`` moved ``k`` blocks up."""
    W = cx[_SC + 23]
    bpw = cx[_SC + 24]
    bsize = cx[_SC + 2]
    wm = cx[_SC + 25]
    q = k // bpw
    rb = (k % bpw) * bsize
    for w in range(q, W):
        v = (src[so + w - q] << rb) & wm
        if rb and w - q - 1 >= 0:
            v |= src[so + w - q - 1] >> (bpw * bsize - rb)
        dst[do + w] |= v


@njit(cache=True, inline="always")
def _blocks_down(cx, src, so, dst, do, k, mo):
    """OR into ``dst[do:]`` the value at ``src[so:]`` masked by the W words at ``cx[mo:]``
    (``mo`` 0: no mask) and moved ``k`` blocks down."""
    W = cx[_SC + 23]
    bpw = cx[_SC + 24]
    bsize = cx[_SC + 2]
    wm = cx[_SC + 25]
    q = k // bpw
    rb = (k % bpw) * bsize
    for w in range(0, W - q):
        a = src[so + w + q]
        if mo:
            a &= cx[mo + w + q]
        v = a >> rb
        if rb and w + q + 1 < W:
            b = src[so + w + q + 1]
            if mo:
                b &= cx[mo + w + q + 1]
            v |= (b << (bpw * bsize - rb)) & wm
        dst[do + w] |= v


@njit(cache=True, inline="always")
def _apply(cx, lk, s, pc, src, so, dst, do, scr, sco):
    """OR into ``dst[do:]`` what piece ``pc`` (``_choices``) of a layer of kind ``lk`` makes
    of the value at ``src[so:]`` (``solver._Sweep._apply``); scratch W words at
    ``scr[sco:]``."""
    W = cx[_SC + 23]
    width = cx[_SC + 1]
    if pc == 0:
        for w in range(W):
            dst[do + w] |= src[so + w]
        return
    if lk == 2:
        y = pc >> 8
        kup = cx[_SC + 7 + y] if y else 0
        if pc & 1:
            h = pc >> 4 & 15
            if y == 0:
                _blocks_down(cx, src, so, dst, do, h * cx[_SC + 18 + s],
                             cx[_SC + 27] + (8 * s + h) * W)
                return
            for w in range(W):
                scr[sco + w] = 0
            _blocks_down(cx, src, so, scr, sco, h * cx[_SC + 18 + s],
                         cx[_SC + 27] + (8 * s + h) * W)
            for w in range(W):
                dst[do + w] |= (scr[sco + w] << y) & kup
            return
        for w in range(W):
            dst[do + w] |= (src[so + w] << y) & kup
        return
    dd = pc & 15
    used = pc >> 4 & 1
    k = pc >> 8
    kup = cx[_SC + 7 + dd] if dd else 0
    him = cx[_SC + 5]
    lom = cx[_SC + 6]
    if k == 0:
        for w in range(W):
            v = src[so + w]
            if dd:
                v = (v << dd) & kup
            if used:
                v = (v & him) | ((v & lom) << width)
            dst[do + w] |= v
        return
    for w in range(W):
        v = src[so + w]
        if dd:
            v = (v << dd) & kup
        if used:
            v = (v & him) | ((v & lom) << width)
        scr[sco + w] = v
    _blocks_up(cx, scr, sco, dst, do, k)


@njit(cache=True, inline="always")
def _preimage(cx, lk, s, pc, src, so, dst, do, scr, sco):
    """OR into ``dst[do:]`` the values that piece ``pc`` takes into the accepted set at
    ``src[so:]`` (``solver._Sweep._preimage``; bits no forward value holds may come along);
    scratch W words at ``scr[sco:]``."""
    W = cx[_SC + 23]
    width = cx[_SC + 1]
    if pc == 0:
        for w in range(W):
            dst[do + w] |= src[so + w]
        return
    if lk == 2:
        y = pc >> 8
        kup = cx[_SC + 7 + y] if y else 0
        if pc & 1:
            h = pc >> 4 & 15
            # Undo the d shift into the scratch's second half, then the block move.
            for w in range(W):
                x = src[so + w]
                scr[sco + W + w] = (x & kup) >> y if y else x
                scr[sco + w] = 0
            _blocks_up(cx, scr, sco + W, scr, sco, h * cx[_SC + 18 + s])
            mo = cx[_SC + 27] + (8 * s + h) * W
            for w in range(W):
                dst[do + w] |= scr[sco + w] & cx[mo + w]
            return
        for w in range(W):
            dst[do + w] |= (src[so + w] & kup) >> y
        return
    dd = pc & 15
    used = pc >> 4 & 1
    k = pc >> 8
    kup = cx[_SC + 7 + dd] if dd else 0
    him = cx[_SC + 5]
    for w in range(W):
        scr[sco + w] = 0
    if k == 0:
        for w in range(W):
            scr[sco + w] = src[so + w]
    else:
        _blocks_down(cx, src, so, scr, sco, k, 0)
    for w in range(W):
        x = scr[sco + w]
        if used:
            x &= him
            x |= x >> width
        if dd:
            x = (x & kup) >> dd
        dst[do + w] |= x


# ------------------------------------------------------------------------------ passes

@njit(cache=True, inline="always")
def _step(cx, p, lcode, src, soff, n_in, kind, dst, doff, idx, mt, mm, mv, tmp):
    """The keys and values after layer ``p`` (``solver._Sweep._step``, joker-need pruning
    included) from the ``n_in`` entries at ``soff`` of ``src``, written at ``doff`` of ``dst``
    (which may be ``src``, past its input) with their index in the scratch ``idx`` (all zero
    on entry; the caller clears its ``1 << bits`` slots after use). Returns ``(bits,
    count)``, the count -1 when ``dst`` or ``idx`` is too small and -2 when the memo is full
    (grow them and run the step again). ``tmp``: scratch of 3 W words. ``lcode``: the layer's
    part of the memo's codes (``p << 32``, or the layer's generation, ``_sweep_mask``)."""
    W = cx[_SC + 23]
    S = W + 1
    bits = 4
    while (1 << bits) < 2 * n_in:
        bits += 1
    if idx.shape[0] < (1 << bits):
        return bits, -1
    n = 0
    lk = _KIND[p]
    s = cx[_LP + 9 * p + 1]
    wilds = cx[_SC]
    prune = cx[_SC + 3] != 0 and lk != 2
    kmo = cx[_SC + 26] + 3 * p * W
    cap = dst.shape[0] // S
    width = cx[_SC + 1]
    him = cx[_SC + 5]
    lom = cx[_SC + 6]
    kups = (np.int64(-1), cx[_SC + 8], cx[_SC + 9])
    base_code = lcode | kind << 28
    for i in range(n_in):
        so = (soff + i) * S
        key = src[so]
        code = base_code | _sub(cx, p, key)
        rec = _memo_find(mt, code)
        if rec < 0:
            if not _memo_room(mt, mm):
                return bits, -2
            cnt = _choices(cx, p, code & 0xFFFFFFF, kind, mv)
            rec = _memo_add(mt, mm, code, mv, cnt)
        nm = mm[rec]
        if nm == 0:
            continue
        if doff + n + nm > cap:
            return bits, -1
        if 2 * (n + nm) > (1 << bits):
            while 2 * (n + nm) > (1 << bits):
                bits += 1
            if idx.shape[0] < (1 << bits):
                return bits, -1
            _clear(idx, 1 << bits)
            _rehash(dst, S, doff, n, idx, bits)
        o = rec + 1
        for _j in range(nm):
            nk = key + mm[o]
            npc = mm[o + 1]
            first = o + 2
            o = first + npc
            need = 0
            if prune:
                need = nk >> 56
                if need > wilds:
                    continue
            pc0 = mm[first]
            if npc == 1 and lk != 2 and pc0 >> 8 == 0:
                # One piece and no block move (most moves): d shift and used merge inline.
                dd = pc0 & 15
                used = pc0 >> 4 & 1
                kup = kups[dd]
                for w in range(W):
                    v = src[so + 1 + w]
                    if dd:
                        v = (v << dd) & kup
                    if used:
                        v = (v & him) | ((v & lom) << width)
                    tmp[w] = v
            else:
                for w in range(W):
                    tmp[w] = 0
                for q in range(npc):
                    _apply(cx, lk, s, mm[first + q], src, so + 1, tmp, 0, tmp, W)
            nz = False
            if prune:
                for w in range(W):
                    tmp[w] &= cx[kmo + need * W + w]
                    if tmp[w]:
                        nz = True
            else:
                for w in range(W):
                    if tmp[w]:
                        nz = True
                        break
            if nz:
                n = _put(dst, S, doff, idx, bits, n, nk, tmp)
    return bits, n


@njit(cache=True, inline="always")
def _grow_for(res, bits, pool, keep, idx):
    """After a step asked for room (``res`` -1): the pool (first ``keep`` int64 kept) or the
    index, grown."""
    if idx.shape[0] < (1 << bits):
        return pool, np.zeros(2 * (1 << bits), np.int32)
    return _grown(pool, keep), idx


@njit(cache=True)
def _forward_only(table, hand, pending, added, policy) -> bool:
    """One forward run, keeping no layers: an accepted end is reachable."""
    xcand = np.zeros(_NT, np.bool_)
    cx = _setup(table, hand, xcand, pending, added, policy)
    W = cx[_SC + 23]
    S = W + 1
    mt, mm = _memo_new()
    mv = np.empty(2 * _MAXMV, np.int64)
    tmp = np.zeros(3 * W, np.int64)
    a = np.empty(256 * S, np.int64)  # (only what the steps write is read)
    for w in range(S):
        a[w] = 0
    a[1] = 1
    b = np.empty(256 * S, np.int64)
    idx = np.zeros(512, np.int32)
    n = 1
    for p in range(_NL):
        while True:
            bits, m = _step(cx, p, p << 32, a, 0, n, 0, b, 0, idx, mt, mm, mv, tmp)
            if m >= 0:
                break
            _clear(idx, min(idx.shape[0], 1 << bits))
            if m == -2:
                mt, mm = _memo_grown(mt, mm)
            else:
                b, idx = _grow_for(m, bits, b, 0, idx)
        _clear(idx, 1 << bits)
        n = m
        if n == 0:
            return False
        a, b = b, a
    for i in range(n):
        if a[i * S] == 0:
            return (a[i * S + 1] & cx[_SC + 4]) != 0
    return False


@njit(cache=True)
def valid_table(table, policy) -> bool:
    """MR-3/MR-4: the 52 effective counts split into valid groups and sequences."""
    hand = np.zeros(_NT + 1, np.int64)
    return _forward_only(table, hand, 0, True, policy)


@njit(cache=True)
def _complete_no_frees(table, naturals, freeable, hand, pending, added, policy) -> bool:
    """``solver.can_complete`` without its frees: the cheap necessary condition, then one
    forward run."""
    if not added and hand[_JOKER] == 0:
        wilds = pending
        for t in range(_NT):
            wilds += freeable[t]
        both = np.empty(_NT, np.int64)
        for t in range(_NT):
            both[t] = table[t] + hand[t]
        some = False
        for t in range(_NT):
            if hand[t] and _near(both, t, wilds):
                some = True
                break
        if not some:
            return False
    return _forward_only(table, hand, pending, added, policy)


@njit(cache=True)
def can_complete(table, naturals, freeable, hand, pending, added, policy) -> bool:
    """MR-4/MR-5 (``solver.can_complete``): the turn can still end with a valid table, after
    freeing some of the freeable jokers (a depth-first search over the frees, at most as deep
    as there are freeable jokers)."""
    depth = 1
    for t in range(_NT):
        depth += freeable[t]
    tab = np.empty((depth, _NT), np.int64)
    nat = np.empty((depth, _NT), np.int64)
    fre = np.empty((depth, _NT), np.int64)
    hnd = np.empty((depth, _NT + 1), np.int64)
    pen = np.empty(depth, np.int64)
    add = np.empty(depth, np.bool_)
    nxt = np.zeros(depth, np.int64)  # next (type * 2 + from table) to try at each level
    tab[0] = table
    nat[0] = naturals
    fre[0] = freeable
    hnd[0] = hand
    pen[0] = pending
    add[0] = added
    if _complete_no_frees(tab[0], nat[0], fre[0], hnd[0], pen[0], add[0], policy):
        return True
    lvl = 0
    while lvl >= 0:
        moved = False
        while nxt[lvl] < 2 * _NT:
            code = nxt[lvl]
            nxt[lvl] += 1
            t = code // 2
            from_hand = code % 2 == 0
            if not fre[lvl, t]:
                continue
            if from_hand and not hnd[lvl, t]:
                continue
            if not from_hand and not nat[lvl, t]:
                continue
            # The turn after freeing the joker bound to ``t`` (``solver.after_free``).
            c = lvl + 1
            tab[c] = tab[lvl]
            nat[c] = nat[lvl]
            fre[c] = fre[lvl]
            hnd[c] = hnd[lvl]
            fre[c, t] -= 1
            if from_hand:
                hnd[c, t] -= 1
                nat[c, t] += 1
            else:
                tab[c, t] -= 1
            pen[c] = pen[lvl] + 1
            add[c] = add[lvl] or from_hand
            if _complete_no_frees(tab[c], nat[c], fre[c], hnd[c], pen[c], add[c], policy):
                return True
            nxt[c] = 0
            lvl = c
            moved = True
            break
        if not moved:
            lvl -= 1
    return False


#: A kept record of the last sweep (``_sweep_mask``) is dropped once its memo holds this many
#: words (4 MB) or its layers have had this many generations.
_KEEP_WORDS = 1 << 19
_KEEP_GENS = 1 << 28


@njit(cache=True)
def keep_new():
    """An empty record of the last sweep, for :func:`step_options_kept` (see ``_sweep_mask``):
    a list of int64 arrays: the sweep's context ``cx``, the forward pool ``pk`` and indexes
    ``pi``, ``off``, ``fn``, ``ioff``, ``fb``, the memo ``mt``, ``mm``, the layers'
    generations (``gen[p]``, then the next one at ``gen[_NL]``), and the scratch pools of the
    backward sets and candidate checks (``pb``, ``ca``, ``cb``: allocated once, not per
    mask)."""
    keep = List()
    keep.append(np.zeros(0, np.int64))
    keep.append(np.empty(2048 * 2, np.int64))
    keep.append(np.zeros(8192, np.int64))
    keep.append(np.zeros(_NL + 2, np.int64))
    keep.append(np.zeros(_NL + 1, np.int64))
    keep.append(np.zeros(_NL + 2, np.int64))
    keep.append(np.zeros(_NL + 1, np.int64))
    mt, mm = _memo_new()
    keep.append(mt)
    keep.append(mm)
    keep.append(np.zeros(_NL + 1, np.int64))
    keep.append(np.zeros(0, np.int64))
    keep.append(np.empty(1024 * 2, np.int64))
    keep.append(np.empty(1024 * 2, np.int64))
    return keep


@njit(cache=True)
def _sweep_mask(table, naturals, hand, pending, added, play_c, joker_c, policy, keep):
    """The forward-backward sweep of ``solver.step_options``: ``(ok, valid, play, joker)``,
    the last two bit masks over the candidate types (``play_c``, ``joker_c``: bool arrays).

    The forward layers sit one after another in the pool ``pk`` (layer ``p`` from entry
    ``off[p]``, ``fn[p]`` entries) with their indexes in ``pi`` (from ``ioff[p]``, ``fb[p]``
    bits, 0 for an empty layer); the backward sets in ``pb``, W words per forward entry.

    ``keep`` (:func:`keep_new`) holds the last sweep's forward layers and memo, which this one
    starts from. A layer's moves are a function of the part of the context it reads, and the
    forward layers before ``p`` of the moves of the layers before ``p``, so when the two
    contexts differ only in the table and hand counts of some types (a card played from hand
    leaves every bound, need and option elsewhere as it was), the forward layers up to the
    first such type's are the last sweep's, and so are the memo's moves of every layer but
    those types' (a layer's memo codes carry its generation, renewed when its context
    changes). Any other difference starts afresh."""
    cx = _setup(table, hand, joker_c, pending, added, policy)
    W = cx[_SC + 23]
    S = W + 1
    old = keep[0]
    pk = keep[1]
    pi = keep[2]
    off = keep[3]
    fn = keep[4]
    ioff = keep[5]
    fb = keep[6]
    mt = keep[7]
    mm = keep[8]
    gen = keep[9]
    same = old.shape[0] == cx.shape[0]
    if same:
        for i in range(cx.shape[0]):
            if cx[i] != old[i] and i != _SC + 4 and not (
                    _TI <= i < _TI + 6 * _NT and (i - _TI) % 6 < 2):
                same = False
                break
    nxt_gen = gen[_NL]
    if mm[0] > _KEEP_WORDS or nxt_gen > _KEEP_GENS:
        same = False
    if same:
        first_p = _NL
        for t in range(_NT):
            o = _TI + 6 * t
            if cx[o] != old[o] or cx[o + 1] != old[o + 1]:
                gen[_AT[t]] = nxt_gen
                nxt_gen += 1
                if _AT[t] < first_p:
                    first_p = _AT[t]
    else:
        # Nothing of the last sweep holds: a fresh memo (a small one is faster to read).
        first_p = 0
        mt, mm = _memo_new()
        for p in range(_NL):
            gen[p] = p
        nxt_gen = _NL
    gen[_NL] = nxt_gen
    mv = np.empty(2 * _MAXMV, np.int64)
    tmp = np.zeros(3 * W, np.int64)
    idx = np.zeros(1024, np.int32)
    if first_p == 0:
        if pk.shape[0] < 2048 * S:
            pk = np.empty(2048 * S, np.int64)  # (only what the steps write is read)
        for w in range(S):
            pk[w] = 0
        for i in range(16):
            pi[i] = 0
        pk[1] = 1
        fn[0] = 1
        fb[0] = 4
        pi[_slot(0, 4)] = 1
        off[0] = 0
        ioff[0] = 0
        off[1] = 1
        ioff[1] = 16
    for p in range(first_p, _NL):
        if fn[p] == 0:
            fn[p + 1] = 0
            fb[p + 1] = 0
            off[p + 2] = off[p + 1]
            ioff[p + 2] = ioff[p + 1]
            continue
        while True:
            bits, n = _step(cx, p, gen[p] << 32, pk, off[p], fn[p], 0, pk, off[p + 1], idx,
                            mt, mm, mv, tmp)
            if n >= 0:
                break
            _clear(idx, min(idx.shape[0], 1 << bits))
            if n == -2:
                mt, mm = _memo_grown(mt, mm)
            else:
                pk, idx = _grow_for(n, bits, pk, off[p + 1] * S, idx)
        fn[p + 1] = n
        size = (1 << bits) if n else 0
        fb[p + 1] = bits if n else 0
        off[p + 2] = off[p + 1] + n
        ioff[p + 2] = ioff[p + 1] + size
        if ioff[p + 2] > pi.shape[0]:
            pi2 = np.zeros(max(2 * pi.shape[0], ioff[p + 2]), np.int64)
            pi2[:ioff[p + 1]] = pi[:ioff[p + 1]]
            pi = pi2
        for i in range(size):
            pi[ioff[p + 1] + i] = idx[i]
        _clear(idx, 1 << bits)
    keep[0] = cx
    keep[1] = pk
    keep[2] = pi
    end_val = 0
    for i in range(fn[_NL]):
        if pk[(off[_NL] + i) * S] == 0:
            end_val = pk[(off[_NL] + i) * S + 1]
    ok = (end_val & cx[_SC + 4]) != 0
    valid = (end_val & 1) != 0
    play = np.int64(0)
    joker = np.int64(0)
    first = _NL
    for t in range(_NT):
        if (play_c[t] or joker_c[t]) and _AT[t] < first:
            first = _AT[t]
    keep[7] = mt
    keep[8] = mm
    if not ok or first == _NL:
        return ok, valid, play, joker
    # Backward: per forward key, the values from which the rest reaches an accepted end
    # (through moves into forward keys only; the layer's moves are all in the memo).
    npb = (off[_NL + 1] + 1) * W
    pb = keep[10]
    if pb.shape[0] < npb:
        pb = np.zeros(max(npb, 2 * pb.shape[0]), np.int64)
        keep[10] = pb
    else:
        for i in range(npb):
            pb[i] = 0
    for i in range(fn[_NL]):
        if pk[(off[_NL] + i) * S] == 0:
            pb[(off[_NL] + i) * W] = cx[_SC + 4]
    for p in range(_NL - 1, first - 1, -1):
        if fn[p + 1] == 0:
            continue
        lk = _KIND[p]
        s = cx[_LP + 9 * p + 1]
        o1 = off[p + 1]
        io1 = ioff[p + 1]
        b1 = fb[p + 1]
        base_code = gen[p] << 32
        for i in range(fn[p]):
            key = pk[(off[p] + i) * S]
            rec = _memo_find(mt, base_code | _sub(cx, p, key))
            nm = mm[rec]
            o = rec + 1
            here = (off[p] + i) * W
            for _j in range(nm):
                npc = mm[o + 1]
                pos = _find(pk, S, o1, pi, io1, b1, key + mm[o])
                if pos >= 0:
                    there = (o1 + pos) * W
                    nz = False
                    for w in range(W):
                        if pb[there + w]:
                            nz = True
                            break
                    if nz:
                        for q in range(npc):
                            _preimage(cx, lk, s, mm[o + 2 + q], pb, there, pb, here, tmp, W)
                o += 2 + npc
    # Candidate checks (``solver._Sweep.possible``), in two scratch pools taking turns.
    ca = keep[11]
    cb = keep[12]
    if ca.shape[0] < 1024 * S:
        ca = np.empty(1024 * S, np.int64)
    if cb.shape[0] < 1024 * S:
        cb = np.empty(1024 * S, np.int64)
    for which in range(2):
        for t in range(_NT):
            if which == 0 and not play_c[t]:
                continue
            if which == 1 and not joker_c[t]:
                continue
            found = False
            for attempt in range(2):
                # A joker stated as an ace may also sit at the ace high, where the compiled
                # programme places it (``_choices``): a second check there.
                if attempt == 0:
                    p = _AT[t]
                    end = p if which == 0 else p + 4 - cx[_LP + 9 * p + 1]  # the rank's end
                elif found or which == 0 or t % 13 != 0:
                    break
                else:
                    p = 65 + t // 13
                    end = p
                n0 = fn[p]
                if n0 * S > ca.shape[0]:
                    ca = np.empty(2 * n0 * S, np.int64)
                m = 0
                for i in range(n0):
                    e = (off[p] + i) * S
                    nz = False
                    for w in range(W):
                        v = pk[e + 1 + w] & pb[(off[p] + i) * W + w]
                        ca[m * S + 1 + w] = v
                        if v:
                            nz = True
                    if nz:
                        ca[m * S] = pk[e]
                        m += 1
                if m:
                    q = p
                    qkind = 1 + which
                    while True:
                        while True:
                            bits, cn = _step(cx, q, gen[q] << 32, ca, 0, m, qkind, cb, 0,
                                             idx, mt, mm, mv, tmp)
                            if cn >= 0:
                                break
                            _clear(idx, min(idx.shape[0], 1 << bits))
                            if cn == -2:
                                mt, mm = _memo_grown(mt, mm)
                            else:
                                cb, idx = _grow_for(cn, bits, cb, 0, idx)
                        _clear(idx, 1 << bits)
                        q += 1
                        qkind = 0
                        if q > end:
                            break
                        # Inside the rank: a key and value the forward pass has meets the backward
                        # set at once; the rest go on.
                        if cn * S > ca.shape[0]:
                            ca = np.empty(2 * cn * S, np.int64)
                        m = 0
                        for i in range(cn):
                            key = cb[i * S]
                            pos = _find(pk, S, off[q], pi, ioff[q], fb[q], key)
                            nz = False
                            if pos >= 0:
                                e = (off[q] + pos) * S
                                bb = (off[q] + pos) * W
                                for w in range(W):
                                    v = cb[i * S + 1 + w]
                                    known = pk[e + 1 + w]
                                    if v & known & pb[bb + w]:
                                        found = True
                                    v &= ~known
                                    ca[m * S + 1 + w] = v
                                    if v:
                                        nz = True
                                if found:
                                    break
                            else:
                                for w in range(W):
                                    v = cb[i * S + 1 + w]
                                    ca[m * S + 1 + w] = v
                                    if v:
                                        nz = True
                            if nz:
                                ca[m * S] = key
                                m += 1
                        if found:
                            break
                    if not found:
                        for i in range(cn):
                            pos = _find(pk, S, off[end + 1], pi, ioff[end + 1], fb[end + 1],
                                        cb[i * S])
                            if pos >= 0:
                                bb = (off[end + 1] + pos) * W
                                for w in range(W):
                                    if cb[i * S + 1 + w] & pb[bb + w]:
                                        found = True
                                if found:
                                    break
            if found:
                if which == 0:
                    play |= np.int64(1) << t
                else:
                    joker |= np.int64(1) << t
    keep[7] = mt
    keep[8] = mm
    keep[11] = ca
    keep[12] = cb
    return ok, valid, play, joker


#: Most placements of a lone joker :func:`_joker_alone` tries (1.6 on average on the 40+-card
#: valid tables of random play, at most 6) before the full search answers.
_ALONE_TRIES = 6


@njit(cache=True)
def _joker_alone(table, policy) -> bool:
    """A cheap proof that a free by a hand card can end the turn: after freeing the joker
    bound to ``t`` with the hand's ``t`` (MR-5) the table's counts are as they were, a hand
    card has been added (MR-4) and one joker is to place, so the turn ends validly if the
    table with one more card of some type ``u`` (the joker stated as ``u``) is valid. Tries
    the types that complete a window of three or a group of the table (``_near``); False
    proves nothing (the caller searches). It answers every free by a hand card of a mask at
    once, for about 40-80 us where ``can_complete`` took about 0.4 ms on large tables."""
    tab = table.copy()
    tries = 0
    for u in range(_NT):
        if tries == _ALONE_TRIES:
            break
        if not _near(table, u, 0):
            continue
        tries += 1
        tab[u] += 1
        if valid_table(tab, policy):
            return True
        tab[u] -= 1
    return False


@njit(cache=True)
def step_options(table, naturals, freeable, hand, pending, added, policy):
    """The meld mask (``solver.step_options``): ``(play, joker, free_hand, free_table,
    finish)``, the first four bit masks over the 52 natural types (a sweep from scratch)."""
    return step_options_kept(table, naturals, freeable, hand, pending, added, policy,
                             keep_new())


@njit(cache=True)
def step_options_kept(table, naturals, freeable, hand, pending, added, policy, keep):
    """:func:`step_options`, its sweep starting from the last one's in ``keep``
    (:func:`keep_new`, updated; see ``_sweep_mask``): the same answers."""
    hj = hand[_JOKER]
    wilds = pending + hj
    both = np.empty(_NT, np.int64)
    for t in range(_NT):
        both[t] = table[t] + hand[t]
    play_c = np.zeros(_NT, np.bool_)
    joker_c = np.zeros(_NT, np.bool_)
    anyc = False
    for t in range(_NT):
        if hand[t] and _near(both, t, wilds):
            play_c[t] = True
            anyc = True
        if wilds and _near(both, t, wilds):
            joker_c[t] = True
            anyc = True
        if freeable[t] and (hand[t] or naturals[t]):
            anyc = True
    ok = False
    valid = False
    known = False
    play = np.int64(0)
    joker = np.int64(0)
    if anyc:
        ok, valid, play, joker = _sweep_mask(table, naturals, hand, pending, added, play_c,
                                             joker_c, policy, keep)
        known = True
    finish = False
    if pending == 0 and added:
        finish = valid if known else valid_table(table, policy)
    free_hand = np.int64(0)
    free_table = np.int64(0)
    alone = 0  # _joker_alone(table) once asked: 1 yes, -1 no (the same for every free by hand)
    for t in range(_NT):
        if not freeable[t]:
            continue
        if hand[t]:
            if not play >> t & 1 and alone == 0:
                alone = 1 if pending == 0 and _joker_alone(table, policy) else -1
            if play >> t & 1 or alone == 1:
                free_hand |= np.int64(1) << t
            else:
                nat = naturals.copy()
                fre = freeable.copy()
                hnd = hand.copy()
                fre[t] -= 1
                hnd[t] -= 1
                nat[t] += 1
                if can_complete(table, nat, fre, hnd, pending + 1, True, policy):
                    free_hand |= np.int64(1) << t
        if naturals[t]:
            if ok:
                free_table |= np.int64(1) << t
            else:
                tab = table.copy()
                fre = freeable.copy()
                fre[t] -= 1
                tab[t] -= 1
                if can_complete(tab, naturals, fre, hand, pending + 1, added, policy):
                    free_table |= np.int64(1) << t
    return play, joker, free_hand, free_table, finish


# ----------------------------------------------------------------------------- arrange

#: Layers of the plain programme (``solver._LAYERS``): the 52 types rank-major (a rank's end
#: folded into its last suit), then the four ace-high layers.
_NPL = 56


@njit(cache=True)
def arrange_choices(table):
    """The plain programme of ``solver._run`` on a table alone, keeping each layer's first
    parent as it does: ``(valid, choices)``, ``choices[i]`` the choice ``(c, hi, e3, k, g)``
    made at layer ``i`` of ``solver._LAYERS`` on the arrangement found. The maps are numba's
    typed dicts, which iterate in insertion order as Python's do, so the first parents, and the
    arrangement, are the Python programme's own. (Rendering only: no need for the pools.)"""
    cmax = table
    group_rank = np.zeros(13, np.bool_)
    for r0 in range(13):
        nz = 0
        for q in range(4):
            if cmax[q * 13 + r0]:
                nz += 1
        group_rank[r0] = nz >= 3
    cur = Dict.empty(key_type=types.int64, value_type=types.int64)
    cur[0] = 1
    pars = List()
    chs = List()
    ends = List()
    for li in range(_NPL):
        nxt = Dict.empty(key_type=types.int64, value_type=types.int64)
        par = Dict.empty(key_type=types.int64, value_type=types.int64)
        ch = Dict.empty(key_type=types.int64, value_type=types.int64)
        if li >= 52:
            sh = 12 * (li - 52)
            for key in cur:
                f = key >> sh & 0xFFF
                if f:
                    n1 = f & 7
                    n2 = f >> 3 & 7
                    n3 = f >> 6 & 7
                    kept = f >> 9
                    if n1 or kept < n2 or kept > n2 + n3:
                        continue
                    nk = key - (f << sh)
                else:
                    nk = key
                    kept = 0
                    n2 = 0
                if nk not in nxt:
                    nxt[nk] = 1
                    par[nk] = key
                    ch[nk] = kept | (kept - n2) << 8
        else:
            r0 = li // 4
            s = li % 4
            r = r0 + 1
            t = s * 13 + r0
            base = s * 13
            sh = 12 * s
            c = cmax[t]
            nx1 = cmax[t + 1] if r <= 12 else -1
            nx2 = cmax[t + 2] if r <= 11 else (cmax[base] if r == 12 else -1)
            grp = group_rank[r0]
            hcap = min(cmax[base + 11], cmax[base + 12]) if r == 1 else 0
            for key in cur:
                f = key >> sh & 0xFFF
                G = key >> 53 & 7
                n1 = f & 7
                n2 = f >> 3 & 7
                n3 = f >> 6 & 7
                hi0 = f >> 9
                need_ext = n1 + n2
                if c < need_ext:
                    continue
                hi_top = min(c, hcap) if r == 1 else hi0
                hi_bot = 0 if r == 1 else hi0
                for hi in range(hi_bot, hi_top + 1):
                    free = c - (hi if r == 1 else 0) - need_ext
                    gtop = min(free, c) if grp else 0
                    for g in range(0, gtop + 1):
                        rem = free - g
                        e3 = n3 if rem > n3 else rem
                        k = rem - e3
                        n3n = n2 + e3
                        if r == 13:
                            if k or n1 > hi:
                                continue
                            if n3n > hi:
                                n3n = hi
                        else:
                            if k + n1 > nx1 or (k and k > nx2):
                                continue
                            if n3n > nx1 - k - n1:
                                n3n = nx1 - k - n1
                        nf = k | n1 << 3 | n3n << 6 | hi << 9
                        nk = key + ((nf - f) << sh)
                        if g:
                            nk += (g << 48) + ((g - G if g > G else 0) << 53)
                        if nk not in nxt:
                            nxt[nk] = 1
                            par[nk] = key
                            ch[nk] = c | hi << 4 | e3 << 8 | k << 12 | g << 16
        pars.append(par)
        chs.append(ch)
        if li < 52 and li % 4 == 3:
            # A rank's end: its group cards must split into groups; the counters reset.
            done = Dict.empty(key_type=types.int64, value_type=types.int64)
            low = (np.int64(1) << 48) - 1
            for key in nxt:
                S = key >> 48 & 31
                G = key >> 53 & 7
                if _GOK[S, G] and (key & low) not in done:
                    done[key & low] = key
            ends.append(done)
            nxt = done
        if len(nxt) == 0:
            return False, np.zeros((_NPL, 5), np.int64)
        cur = nxt
    if 0 not in cur:
        return False, np.zeros((_NPL, 5), np.int64)
    # Walk back from the final key, collecting each layer's choice.
    choices = np.zeros((_NPL, 5), np.int64)
    key = 0
    for li in range(_NPL - 1, -1, -1):
        if li < 52 and li % 4 == 3:
            key = ends[li // 4][key]
        code = chs[li][key]
        if li >= 52:
            choices[li, 0] = code & 0xFF
            choices[li, 2] = code >> 8
        else:
            for j in range(5):
                choices[li, j] = code >> (4 * j) & 15
        key = pars[li][key]
    return True, choices
