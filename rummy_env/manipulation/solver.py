"""The exact table-partition solver of Manipulation Rummy (MR-3, MR-4, MR-5).

A table is a multiset of card *types* (52 naturals; a joker counts as the card it stands for,
MR-5), valid when it splits into melds (MR-3): *groups* of 3 or 4 cards of one rank with distinct
suits, and *sequences* of 3 or more consecutive cards of one suit, the ace low (``A 2 3``) or high
(``Q K A``), never round the corner; the full ``A 2 ... K A`` is one sequence (C-3).

The solver answers, exactly:

* :func:`is_valid_table` - is this multiset a valid table;
* :func:`can_complete` - can a turn in progress still end with a valid table: some of the hand's
  natural cards added, some of its jokers played, the table's jokers that may still be freed
  freed by their real card and every freed joker played again (MR-4, MR-5);
* :func:`step_options` - which single steps keep that possible (the action mask of a meld);
* :func:`arrange` - one valid arrangement of a valid table (for ``render``).

How it works: a dynamic programme over *layers*, one per card type in rank-major order (ranks
A..K, suits C D H S within a rank), then a last layer per suit for the ace high. Its key is, per
suit, the number of open sequences of length 1, 2 and 3+ that end at the previous rank, the
number of aces of each suit kept back to end a sequence as the ace high, and, within a rank, the
number of cards put into groups so far and the largest per-suit count (the ``k`` groups of a
rank can take per-suit counts ``g_s`` exactly when ``g_s <= k`` and ``3k <= sum g <= 4k``: deal
the cards round-robin). A length-1 or -2 sequence must be extended; a 3+ one may stop anywhere.
Open 3+ sequences are counted only up to what the next rank can extend (its cards, less those
that extend the short ones first): the others just stop, whatever comes.

A turn in progress is solved by the same programme. At each type the effective count ``c`` is
the table's count, plus ``a`` of the hand's natural cards, minus ``r`` freed jokers (only where
a natural of that type is or will be on the table), plus ``x`` jokers played as that card. The
value stored per key is a bit set of (``d``, ``used``): ``d`` is the running ``x - r`` and
``used`` whether a hand natural was added. At the end every freed joker and the pending ones
must be placed and the hand's jokers may be (``F <= d <= F + hand jokers``), and at least one
hand card must have been added in the turn (MR-4). Every table reachable from the position
through single steps is one of these choices, and every choice is reachable, so the answer is
exact.

The mask (:func:`step_options`) comes from one forward and one backward sweep
(:class:`_Sweep`) instead of one run per candidate step. The sweep's layers are the 52 types
(a rank's end, where its group cards must split into groups, is a layer of its own) and the
four ace-high layers. Forward: the keys reachable before each layer with their values. A
layer's moves depend only on the part of a key it reads (the suit's field, ``S`` and ``G``;
at a rank's end ``S`` and ``G``), so they are memoised on that part and stored as key deltas.
A type's move is dropped when the rank's group cards could no longer split into groups
whatever its later suits and the jokers add (:func:`_groups_reachable`): a necessary
condition of the rank's end, so only keys that die there go, earlier (on 70-card tables
more than half the keys before a rank's end died there: a quarter to nearly half of all).
Backward: per forward key, the values from which the rest reaches an accepted end, through
moves into forward keys only (a value the forward pass reaches moves only into forward keys,
so these sets are exact on every such value; they are needed only from the first
candidate's layer on). Playing a hand card ``t`` (``a >= 1`` at
``t``) is possible exactly when some live forward value before ``t``'s layer (one its
backward set accepts), moved by such a choice, meets the backward set of the next layer. A
joker as ``t`` (``x >= 1``, the joker may then sit in a group as that suit: keys the
programme does not make) goes on through the rest of the rank until its keys and values are
forward ones, and meets the backward set there or after the rank's end. Starting from live
values only is exact: a completion through either choice is, or is as good as (a joker in a
group is as good as a suitless one), one of the programme's own. Pruning bounds (what the
next cards can hold) are taken loose enough for every candidate's choices; a looser bound
prunes less, never wrongly. ``finish`` is read off the forward pass (the end reached with
``d = 0`` and no hand card: the table as it stands).

Aces kept for the ace high: the programme's key carries, per suit, the aces kept back at rank 1,
untouched until the K and the ace-high layer read them, so every combination that stays
possible repeats nearly the same keys through the eleven ranks between (on the slowest recorded
masks the keys with those fields dropped were 4 to 27 times fewer, 13 on average). On positions
of ``_HI_IN_VALUES`` cards or more the sweep carries them in the values instead: a value is a
bit set over (aces kept per suit, ``d``, ``used``), one block of ``2 * width`` bits per
combination of aces kept, rank 1 moves a value into the blocks of the aces it keeps, and the
ace-high layer of a suit keeps the blocks whose count its open sequences can take (its Q K
sequences and at most all its 3+ ones: ``n2 <= hi <= n2 + n3``) and moves them back to the
block of none kept. The K no longer checks the aces kept (the ace-high layer checks the same
condition whole). A move that reaches one key by several choices is one move whose value change
is the union of theirs. The joker need of the Qs and Ks for the aces kept is then a per-block
mask of the values (``_keep_masks``), counted only where the key's own need cannot be on the
same cards. On small positions the wider values cost more than the keys they save, so the aces
stay in the keys there (one block; on the recorded masks the crossover is at 25-35 cards).

Jokers to place: a joker may stand for any card next to a natural one, and the programme's
bounds count it everywhere, so most keys it makes are dead: a joker placed in one suit
leaves the other suits' choices that needed it (an open sequence or an ace kept high that
only a joker could serve) in place. Measured on a 72-card table with one joker pending,
about 1% of the forward keys were live. The forward pass therefore prunes by *joker need*
(``_Sweep._suit_need``): a suit's field commits future cards (a card at the next rank per
open sequence of length 1 or 2, another at the rank after per length-1 one, a Q and a K per
ace kept for the ace high); what the naturals of table and hand cannot supply there must be
jokers, and only where a joker may stand. The suits' needs add up (distinct cards), the key
carries their sum (bit 60 up, updated by the moves), and a value with fewer jokers left than
that is dropped (``d`` counts the jokers placed, so ``wilds - d`` are left; a need no joker
can meet drops the move). It is a necessary condition, so only dead values go: every value
on a path to an accepted end stays, the backward sets stay exact on them, and the answers
are the same. With it, 5-30% of the forward keys are live.

Frees come first: playing a card or a joker is offered when the turn can end validly without
freeing another joker; a free is offered when the turn can end after it. Two exact shortcuts
answer most frees: freeing a joker with the table's card and playing it again as that card
changes nothing, so any end without frees will do; freeing it with the hand's card and playing
it again as that card is playing the card. The rest go to :func:`can_complete` on the turn
after the free, which tries the at most two further frees, then one forward run without frees
(frees as choices of a single run would be exact too, but every freeable joker is then a
joker to place anywhere, which multiplies the states).

Cost: pure Python, about twice one run of the programme per mask (plus one forward run per
free the shortcuts do not settle). A layer's moves are memoised by the key part it reads and
the layer's context (its type's options, the pruning bounds, the joker needs of its suit, the
value layout), shared by every sweep (bounded, ``_MOVES_MEMO_CAP`` contexts): positions a few
steps apart share most of their layers. Without a joker to place, a run visits tens of keys
per layer on a 30-card table and hundreds to a few thousand at 60-90 cards. A joker that may
still be placed multiplies the keys even after the pruning (5-30% of the forward keys are
live; a per-suit bound over the suit's whole rest, groups taken as free, cut only about 5%
more, so the dead keys die of the suits' coupling in groups). On 9,000 masks recorded from
4-player random play (median and mean per mask, by table size):

=============  ======================  =====================
table cards    no joker to place       a joker to place
=============  ======================  =====================
0-19           0.3 ms, 0.5 ms          2.7 ms, 3.2 ms
20-39          0.4 ms, 0.7 ms          5 ms, 7 ms
40-59          0.6 ms, 1.1 ms          10 ms, 16 ms
60-79          1.4 ms, 2.2 ms          37 ms, 41 ms
80-99          6 ms, 7 ms              0.1 s, 0.13 s
=============  ======================  =====================

(all: median 0.5 ms, mean 2 ms; before the aces kept moved to the values and the moves were
shared, 0.75 ms and 6.7 ms, up to 4 s at 80-90 cards with a joker).
``benchmarks/manipulation_solver.py`` measures it.

The public functions (:func:`is_valid_table`, :func:`can_complete`, :func:`step_options`,
:func:`arrange`) are answered by a compiled core of the same programme
(``rummy_env.manipulation._core``, numba; its docstring says how its data differ) when it
loads, by the Python functions here (``py_*``) otherwise or under ``RUMMY_ENV_PURE_PYTHON=1``;
the Python ones are the reference the tests compare the core with, on 9,097 recorded masks
among others. The core answers the recorded masks 8-20x faster (median 18 us under 20 cards,
0.7 ms at 40-59 cards with a joker to place; ``benchmarks/manipulation_masks.py time``).
Answers are memoised on the whole query (table, hand, bindings), in small bounded caches: a
query is about 2-10 KB and play almost never asks the same one twice (the state keeps its own
legal actions), so the memo serves repeated positions (clones, restored scenarios, the
determinism tests) without holding hundreds of MB in each worker of a vectorised env.
:func:`is_valid_table` is the sweep's forward pass alone, :func:`arrange` the plain programme
(:func:`_run`, which keeps the choices made).
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummy_env.cards import JOKER, NUM_NATURAL

#: Layers: (rank 1..13, suit) in rank-major order; the ace-high layers (rank 14) come last.
_LAYERS = tuple((r, s) for r in range(1, 14) for s in range(4)) + tuple((14, s) for s in range(4))
_ZERO = (0,) * 52
STATS = None


_ID = ((0, False),)


@functools.lru_cache(maxsize=None)
def _suit_moves(r: int, f: int, c: int, gmax: int, nx1: int, nx2: int, grp: bool,
                hcap: int, hi_in_key: bool = True) -> tuple[tuple[int, int, tuple], ...]:
    """The moves of one suit at rank ``r`` holding ``c`` cards of it: from its field ``f``
    (open sequences of length 1, 2, 3+ ending at the previous rank, aces kept for the ace
    high, 3 bits each) to ``(new field, cards put into groups, choice for arrange)``; the
    choice's second item is the number of aces kept for the ace high (rank 1).

    ``hi_in_key=False`` (the sweep): the aces kept are not part of the field (the values
    carry them), so rank 1 leaves them out of the new field and the K checks nothing against
    them (the ace-high layer checks the whole condition)."""
    n1, n2, n3, hi0 = f & 7, f >> 3 & 7, f >> 6 & 7, f >> 9
    need_ext = n1 + n2
    out = []
    if c < need_ext:
        return ()
    for hi in (range(min(c, hcap) + 1) if r == 1 else (hi0,)):
        free = c - (hi if r == 1 else 0) - need_ext
        for g in range(min(free, gmax) + 1 if grp else 1):
            rem = free - g
            # Extending an open 3+ sequence dominates starting a new one (the longer one can
            # stop anywhere), so new ones start only once every 3+ one is extended.
            e3 = n3 if rem > n3 else rem
            k = rem - e3
            n3n = n2 + e3
            if r == 13:
                if k:
                    continue  # a K left short of three before the ace high
                if hi_in_key:
                    if n1 > hi:
                        continue  # Q K left short of three before the ace high
                    if n3n > hi:
                        n3n = hi
            else:
                if k + n1 > nx1 or (k and k > nx2):
                    continue  # short sequences that the next cards cannot extend
                # The next cards extend the ``k + n1`` short sequences first, so at most
                # ``nx1 - k - n1`` of them can extend a 3+ one: the others just stop here.
                if n3n > nx1 - k - n1:
                    n3n = nx1 - k - n1
            out.append((k | n1 << 3 | n3n << 6 | (hi << 9 if hi_in_key else 0), g,
                        (c, hi, e3, k, g)))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _groups_reachable(total: int, biggest: int, room: int) -> bool:
    """Some of up to ``room`` more group cards make ``total`` (with per-suit maximum at least
    ``biggest``) split into groups: a necessary condition for a rank's groups (more cards
    never lower the maximum, and a larger maximum only makes :func:`_groups_ok` harder)."""
    return any(_groups_ok(n, biggest) for n in range(total, total + room + 1))


def _groups_ok(total: int, biggest: int) -> bool:
    """Per-suit group counts with this sum and maximum split into groups of 3-4 distinct
    suits (some ``k`` with ``biggest <= k`` and ``3k <= total <= 4k``)."""
    if total == 0:
        return True
    lo = max(biggest, (total + 3) // 4)
    return lo <= total // 3


@dataclass(frozen=True)
class Query:
    """A turn in progress, as the solver sees it (all tuples of counts by type).

    ``table``: effective counts of the table (naturals plus bound jokers), 52 long;
    ``naturals``: natural cards on the table, 52 long (a joker freed from the table needs its
    real card there, MR-5); ``freeable``: jokers on the table bound to each type that may
    still be freed this turn; ``hand``: the player's hand, 53 long (jokers last);
    ``pending``: freed jokers that must be played again (MR-5); ``added``: a hand card was
    already added this turn (MR-4)."""

    table: tuple[int, ...]
    naturals: tuple[int, ...]
    freeable: tuple[int, ...]
    hand: tuple[int, ...]
    pending: int = 0
    added: bool = False


@functools.lru_cache(maxsize=4096)
def _options(m: int, h: int, j: int, nat_ok: bool, wilds: int, need: str) -> tuple:
    """Per effective count ``c``: the (d-shift, used) pairs of the choices at one type.

    ``need``: '' (any), 'a' (a hand natural added), 'x' (a joker played as it), 'r' (a joker
    freed), 'ar' (freed by a hand natural)."""
    out: dict[int, set[tuple[int, bool]]] = {}
    for a in range(h + 1):
        for r in range(j + 1):
            if r and not (nat_ok or a):
                continue
            for x in range(wilds + 1):
                if x and r and need not in ("r", "ar"):
                    continue  # freeing a joker and playing one as the same card: no change
                if need and not ((need == "a" and a) or (need == "x" and x) or (need == "r" and r)
                                 or (need == "ar" and a and r)):
                    continue
                # Jokers played as this card serve in sequences (group jokers are counted per
                # rank, suitless), except the one a ``joker as`` step asks for.
                nat = m + a - r
                key = (nat + x, nat + x if need == "x" else nat)
                out.setdefault(key, set()).add((x - r, a > 0))
    return tuple((c, gm, tuple(sorted(p))) for (c, gm), p in sorted(out.items()))


def _shift_bits(val: int, pairs: tuple, width: int, full: int) -> int:
    """The values ``val`` (a bit set of (``d``, ``used``): low ``width`` bits unused, high ones
    used) becomes under a choice's (d-shift, used) pairs."""
    lo0 = val & full
    hi0 = val >> width
    res = 0
    for dd, used in pairs:
        if dd >= 0:
            lo = (lo0 << dd) & full
            hi = (hi0 << dd) & full
        else:
            lo = lo0 >> -dd
            hi = hi0 >> -dd
        if used:
            hi |= lo
            lo = 0
        res |= lo | (hi << width)
    return res


def _run(table: Sequence[int], hand: Sequence[int], freeable: Sequence[int],
         naturals: Sequence[int], pending: int, added: bool, need_t: int, need: str,
         parents: list | None = None) -> bool:
    """The layered programme (see the module docstring). ``parents``, if a list, receives one
    dict per layer (new key -> (old key, choice)) for :func:`arrange`. ``need`` at type
    ``need_t`` restricts that type's choices as in :func:`_options`."""
    hj = hand[JOKER] if len(hand) > JOKER else 0
    jtot = sum(freeable)
    dlo = -jtot
    dhi = pending + hj + jtot
    width = dhi - dlo + 1
    full = (1 << width) - 1
    wilds = pending + hj + jtot
    opts = []
    trivial = ((0, 0, _ID),)
    # At most two jokers exist (rules), so every meld holds a natural card: a joker can only
    # stand next to one, in its rank or within two places of its suit.
    present = [1 if table[t] + hand[t] else 0 for t in range(NUM_NATURAL)] if wilds else None
    for t in range(NUM_NATURAL):
        m, h, j = table[t], hand[t], freeable[t]
        nd = need if t == need_t else ""
        w = wilds if wilds and (nd == "x" or _seq_touch(present, t)) else 0
        if not (h or j or w or nd):
            opts.append(((m, m, _ID),) if m else trivial)
        else:
            opts.append(_options(m, h, j, naturals[t] > 0, w, nd))

    cache: dict[tuple[int, tuple], int] = {}

    def shift(val: int, pairs: tuple) -> int:
        got = cache.get((val, pairs))
        if got is None:
            got = cache[(val, pairs)] = _shift_bits(val, pairs, width, full)
        return got

    # Upper bounds used to prune: the most cards a type can hold at the end, and the ranks
    # where at least three suits can hold a card (a group needs three).
    cmax = [o[-1][0] for o in opts]
    group_rank = [sum(1 for q in range(4) if cmax[q * 13 + r0]) + wilds >= 3 for r0 in range(13)]
    cur: dict[int, int] = {0: 1 << (0 - dlo)}
    track = parents is not None
    for li in range(len(_LAYERS)):
        r, s = _LAYERS[li]
        nxt: dict[int, int] = {}
        par: dict = {}
        sh = 12 * s
        if r == 14:
            for key, val in cur.items():
                f = key >> sh & 0xFFF
                if f:
                    n1, n2, n3, ch = f & 7, f >> 3 & 7, f >> 6 & 7, f >> 9
                    if n1 or ch < n2 or ch > n2 + n3:
                        continue
                    nk = key - (f << sh)
                else:
                    nk = key
                    ch = n2 = 0
                nxt[nk] = nxt.get(nk, 0) | val
                if track and nk not in par:
                    par[nk] = (key, (ch, 0, ch - n2, 0, 0))
        else:
            t = s * 13 + r - 1
            base = s * 13
            # What the next two positions of this suit can hold (after K: the ace high).
            nx1 = cmax[t + 1] if r <= 12 else -1
            nx2 = cmax[t + 2] if r <= 11 else (cmax[base] if r == 12 else -1)
            grp = group_rank[r - 1]
            hcap = min(cmax[base + 11], cmax[base + 12]) if r == 1 else 0
            ot = opts[t]
            for key, val in cur.items():
                f = key >> sh & 0xFFF
                gs = key >> 48
                S, G = gs & 31, gs >> 5
                for c, gmax, pairs in ot:
                    if pairs is _ID:
                        nv = val
                    else:
                        nv = shift(val, pairs)
                        if not nv:
                            continue
                    for nf, g, choice in _suit_moves(r, f, c, gmax, nx1, nx2, grp, hcap):
                        nk = key + ((nf - f) << sh)
                        if g:
                            nk += (g << 48) + ((g - G if g > G else 0) << 53)
                        nxt[nk] = nxt.get(nk, 0) | nv
                        if track and nk not in par:
                            par[nk] = (key, choice)
            if s == 3:
                # End of a rank: its group cards must split into groups; reset the counters.
                done: dict[int, int] = {}
                low = (1 << 48) - 1
                for key, val in nxt.items():
                    gs = key >> 48
                    nk = key & low
                    ok = not gs
                    if ok:
                        done[nk] = done.get(nk, 0) | val
                    else:
                        S, G = gs & 31, gs >> 5
                        if _groups_ok(S, G):
                            ok = True
                            done[nk] = done.get(nk, 0) | val
                        # Jokers in groups: suitless extra members (their stated suits just
                        # differ), at least one natural per group (two jokers at most).
                        for wg in range(1, wilds + 1):
                            if _groups_ok(S + wg, G):
                                nv = shift(val, ((wg, False),))
                                if nv:
                                    done[nk] = done.get(nk, 0) | nv
                    if track and ok and nk not in par.get("_end", {}):
                        # (``arrange`` has no jokers: only groups of natural cards.)
                        par.setdefault("_end", {})[nk] = key
                nxt = done
        if track:
            parents.append(par)
        cur = nxt
        if STATS is not None:
            STATS.append(len(cur))
        if not cur:
            return False
    val = cur.get(0, 0)
    if not val:
        return False
    acc = 0
    for d in range(max(pending, dlo), min(pending + hj, dhi) + 1):
        bit = 1 << (d - dlo)
        acc |= bit << width  # a hand natural was added
        if added or d > pending:  # or a hand joker was played
            acc |= bit
    return bool(val & acc)


# --------------------------------------------------------------------------- forward-backward

#: Layers of the sweep: the four types of a rank, then that rank's end (``s = -1``: its group
#: cards must split into groups), ranks A..K; then the four ace-high layers.
_SWEEP = tuple(x for r in range(1, 14) for x in ((r, 0), (r, 1), (r, 2), (r, 3), (r, -1))) + tuple(
    (14, s) for s in range(4))
#: Index of each natural type's layer in ``_SWEEP``.
_AT = tuple(_SWEEP.index((t % 13 + 1, t // 13)) for t in range(NUM_NATURAL))
#: Per layer: where its moves read a key (see ``_Sweep._moves``): (shift, mask), mask -1 for a
#: type layer (the suit's field, ``S`` and ``G``).
_READS = tuple((48, 0xFFF) if s < 0 else (12 * s, 0xFFF if r == 14 else -1) for r, s in _SWEEP)
#: A joker need that no number of jokers meets.
_NEVER = 99
#: Positions of at least this many cards (table and hand) keep the aces for the ace high in
#: the values, smaller ones in the keys (see the module docstring).
_HI_IN_VALUES = 30
#: Moves by layer context, shared by sweeps (see ``_Sweep.__init__``), cleared when it holds
#: this many contexts; value layouts (``_Layout``) by (width, aces kept per suit, wilds).
_MOVES_MEMO: dict[tuple, tuple[dict, dict]] = {}
_MOVES_MEMO_CAP = 2000
_LAYOUTS: dict[tuple, _Layout] = {}


@functools.lru_cache(maxsize=None)
def _pieces(pairs: tuple, hsh: int) -> tuple:
    """The pieces (:meth:`_Sweep._apply`) of an option's (d-shift, used) pairs, its values
    then moved ``hsh`` bits up (aces kept); ``_ID`` for the identity."""
    if pairs is _ID and not hsh:
        return _ID
    return tuple(sorted((dd, u, 0, hsh) for dd, u in pairs))


@functools.lru_cache(maxsize=4096)
def _union(a: tuple, b: tuple) -> tuple:
    """The pieces of two moves to the same key, as one move."""
    return tuple(sorted(set(_ID_PIECES if a is _ID else a) | set(_ID_PIECES if b is _ID else b)))


_ID_PIECES = ((0, False, 0, 0),)


class _Layout:
    """The masks of one value layout (see ``_Sweep``): ``width`` bits of ``d`` per half-block,
    two halves (``used``) per block, one block per combination of aces kept for the ace high
    (``hmax[s]`` counts per suit). Shared by every sweep with the same layout, with the memo
    of the value changes (``values``: pieces -> forward and backward memos)."""

    def __init__(self, width: int, hmax: tuple[int, ...], wilds: int) -> None:
        self.mult = mult = (1, hmax[0], hmax[0] * hmax[1], hmax[0] * hmax[1] * hmax[2])
        self.blocks = blocks = mult[3] * hmax[3]
        self.bsize = bsize = 2 * width
        full = (1 << width) - 1
        rep = sum(1 << (b * bsize) for b in range(blocks))  # x * rep: x in every block
        self.lom = full * rep
        self.him = self.lom << width
        self.allbits = ((1 << bsize) - 1) * rep
        # kup[dd] / kdn[dd]: the bits whose d can go up / down by dd within their half-block.
        self.kup = [((full >> dd << dd) * (1 | 1 << width)) * rep for dd in range(width)] + [0]
        self.kdn = [((full >> dd) * (1 | 1 << width)) * rep for dd in range(width)] + [0]
        # blk[s][h]: the blocks that keep ``h`` aces of suit ``s`` for the ace high.
        whole = (1 << bsize) - 1
        self.blk = [[sum(whole << (b * bsize) for b in range(blocks) if b // mult[q] % hmax[q] == h)
                     for h in range(hmax[q])] for q in range(4)]
        # keep[n]: the bits of one block with at least n jokers left (d <= wilds - n).
        self.keep = [((1 << (wilds - n + 1)) - 1) * (1 | 1 << width) for n in range(wilds + 1)]
        self.values: dict[tuple, tuple[dict, dict]] = {}


class _Sweep:
    """One position's programme run forward and backward (see the module docstring).

    ``fwd[p]`` maps each key reachable before layer ``p`` to the bit set of (``d``, ``used``)
    values it is reached with (one block of them per combination of aces kept for the ace
    high when those ride in the values, :class:`_Layout`); ``bwd[p]`` gives, for each of
    those keys, the values from which the rest of the layers reach an accepted end. A choice
    at one type is then possible exactly when some forward key, moved by that choice, meets a
    value the backward set accepts: one forward and one backward pass answer every candidate
    step at once.

    A key packs, from bit 0: the four suits' 12-bit fields (``n1, n2, n3, hi``, 3 bits
    each; ``hi`` stays 0 when the aces kept ride in the values), ``S`` (5 bits) and ``G``
    (7 bits) of the rank in progress, and with pruning on (jokers to place, no frees in the
    run) the summed joker need of the fields from bit 60 (:meth:`_suit_need`).

    ``extra``: per type, option lists that candidate checks will use there (only for the
    pruning bounds, which must hold for them too: a looser bound prunes less, never wrongly).
    The aces kept ride in the keys below ``_HI_IN_VALUES`` cards of table and hand, in the
    values from there on (``hi_in_key``).
    """

    def __init__(self, table: Sequence[int], hand: Sequence[int], freeable: Sequence[int],
                 naturals: Sequence[int], pending: int, added: bool,
                 extra: dict[int, tuple] | None = None) -> None:
        hj = hand[JOKER] if len(hand) > JOKER else 0
        jtot = sum(freeable)
        self.dlo = dlo = -jtot
        self.dhi = dhi = pending + hj + jtot
        self.width = width = dhi - dlo + 1
        self.wilds = wilds = pending + hj + jtot
        self.table, self.hand, self.freeable, self.naturals = table, hand, freeable, naturals
        trivial = ((0, 0, _ID),)
        # At most two jokers exist (rules), so every meld holds a natural card: a joker can
        # only stand next to one, in its rank or within two places of its suit.
        present = [1 if table[t] + hand[t] else 0 for t in range(NUM_NATURAL)] if wilds else None
        self.present = present
        opts = []
        optkey = []  # what each type's options are made of (part of its layer's context)
        triv = []  # the type's one option keeps the values
        for t in range(NUM_NATURAL):
            m, h, j = table[t], hand[t], freeable[t]
            w = wilds if wilds and _seq_touch(present, t) else 0
            if not (h or j or w):
                opts.append(((m, m, _ID),) if m else trivial)
                optkey.append(m)
                triv.append(True)
            else:
                nat_ok = naturals[t] > 0
                opts.append(_options(m, h, j, nat_ok, w, ""))
                optkey.append((m, h, j, nat_ok, w))
                triv.append(False)
        self.opts = opts
        cmax = [o[-1][0] for o in opts]
        if extra:
            for t, ex in extra.items():
                if ex and ex[-1][0] > cmax[t]:
                    cmax[t] = ex[-1][0]
        self.cmax = cmax
        hi_acc = 0
        lo_acc = 0
        for d in range(max(pending, dlo), min(pending + hj, dhi) + 1):
            bit = 1 << (d - dlo)
            hi_acc |= bit  # a hand natural was added
            if added or d > pending:  # or a hand joker was played
                lo_acc |= bit
        self.acc = lo_acc | (hi_acc << width)
        # Aces kept for the ace high ride in the values: block ``sum hi_s * mult[s]`` of
        # ``2 * width`` bits holds the (d, used) bits of the keys' paths that keep ``hi_s``
        # aces of each suit ``s`` back (at most its aces, Qs and Ks can hold).
        self.hi_in_key = hi_in_key = sum(table) + sum(hand[:NUM_NATURAL]) < _HI_IN_VALUES
        # (Three per suit whenever that is enough, however many the suit can keep: the
        # layout, and so the layers' memoised moves, then stays the same from one position
        # to the next; unused blocks cost nothing but wider bit sets.)
        hmax = (1, 1, 1, 1) if hi_in_key else tuple(
            3 if k <= 2 else k + 1
            for k in (min(cmax[q * 13], cmax[q * 13 + 11], cmax[q * 13 + 12]) for q in range(4)))
        layout = (width, hmax, wilds)
        lay = _LAYOUTS.get(layout)
        if lay is None:
            if len(_LAYOUTS) > 256:
                _LAYOUTS.clear()
            lay = _LAYOUTS[layout] = _Layout(width, hmax, wilds)
        self.hmax, self.mult, self.blocks, self.bsize = hmax, lay.mult, lay.blocks, lay.bsize
        self.lom, self.him, self.allbits = lay.lom, lay.him, lay.allbits
        self.kup, self.kdn, self.blk, self.keep = lay.kup, lay.kdn, lay.blk, lay.keep
        self._pairs = lay.values
        # The joker-need pruning (:meth:`_suit_need`, :meth:`_step`): with no frees in the
        # run, ``d`` counts the jokers placed so far, so ``wilds - d`` are left.
        self.pruning = pruning = bool(wilds) and jtot == 0
        self.c0 = [table[t] + hand[t] for t in range(NUM_NATURAL)]
        self.jok_at = [bool(wilds) and _seq_touch(present, t) for t in range(NUM_NATURAL)]
        self._keep_at: dict = {}  # by layer and by the suits' next ranks
        self._need: dict[tuple[int, int, int], int] = {}
        # Per layer: the arguments of ``_suit_moves`` that do not depend on the key
        # (``params``); whether every move keeps the values and nothing is pruned (``plain``:
        # there the passes use the moves' key deltas alone, ``_deltas_at``); the moves of
        # the keys by their part the layer reads (``_moves_at``, :meth:`_moves`). The moves
        # depend on the key part and the layer's context alone (its type's options, the
        # pruning bounds, the joker needs of its suit, the value layout), so they are shared
        # by every sweep with the same context: positions a few steps apart share most of
        # their layers. The shared memo is bounded (cleared whole when full).
        if len(_MOVES_MEMO) > _MOVES_MEMO_CAP:
            _MOVES_MEMO.clear()
            for other in _LAYOUTS.values():
                other.values.clear()  # (the moves held their memos)
        c0, jok_at = self.c0, self.jok_at
        n_layers = len(_SWEEP)
        self.params = params = [None] * n_layers
        self.plain = plain = [False] * n_layers
        self._moves_at = moves_at = [None] * n_layers
        self._deltas_at = deltas_at = [None] * n_layers
        memo_get = _MOVES_MEMO.get
        end_ctx = (-1, layout)
        group_rank = []
        for r0 in range(13):
            r = r0 + 1
            here = (cmax[r0], cmax[13 + r0], cmax[26 + r0], cmax[39 + r0])
            grp = (here[0] > 0) + (here[1] > 0) + (here[2] > 0) + (here[3] > 0) + wilds >= 3
            group_rank.append(grp)
            # The most group cards the rank's later suits and the jokers can still add.
            room = wilds + here[0] + here[1] + here[2] + here[3]
            for s in range(4):
                p = r0 * 5 + s
                t = s * 13 + r0
                base = s * 13
                room -= here[s]
                nx1 = cmax[t + 1] if r <= 12 else -1
                nx2 = cmax[t + 2] if r <= 11 else (cmax[base] if r == 12 else -1)
                hcap = min(cmax[base + 11], cmax[base + 12]) if r == 1 else 0
                par = params[p] = (r, 12 * s, t, nx1, nx2, grp, hcap, room)
                plain[p] = triv[t] and not pruning and (r > 1 or hmax[s] == 1)
                if pruning:
                    # What the joker needs of the move read (:meth:`_suit_need`): the naturals
                    # at the next three ranks, and at the Q and K for aces kept in the key.
                    top = min(t + 3, base + 13)
                    need_ctx: tuple | None = (tuple(c0[t:top]), tuple(jok_at[t:top])) + (
                        (tuple(c0[base + 11:base + 13]), tuple(jok_at[base + 11:base + 13]))
                        if hi_in_key else ())
                else:
                    need_ctx = None
                ctx = (p, hi_in_key, layout, optkey[t], par, need_ctx)
                got = memo_get(ctx)
                if got is None:
                    got = _MOVES_MEMO[ctx] = ({}, {})
                moves_at[p], deltas_at[p] = got
            p = r0 * 5 + 4  # the rank's end: jokers may join its groups
            plain[p] = not wilds
            got = memo_get(end_ctx)
            if got is None:
                got = _MOVES_MEMO[end_ctx] = ({}, {})
            moves_at[p], deltas_at[p] = got
        self.group_rank = group_rank
        for s in range(4):
            p = 65 + s  # the ace high: it reads the aces kept
            plain[p] = hmax[s] == 1
            ctx = (p, hi_in_key, layout)
            got = memo_get(ctx)
            if got is None:
                got = _MOVES_MEMO[ctx] = ({}, {})
            moves_at[p], deltas_at[p] = got
        self.bwd: list[dict] = [{} for _ in _SWEEP] + [{0: self.acc}]
        self.fwd: list[dict] = []

    # ----------------------------------------------------------------- values
    def _entry(self, delta: int, pieces: tuple) -> tuple:
        """A move as ``(key delta, pieces, forward memo, backward memo)``: the memos map a
        value to what the pieces make of it (:meth:`_apply`, :meth:`_preimage`), shared by
        every move with these pieces; None for the identity (``_ID``)."""
        if pieces is _ID:
            return (delta, pieces, None, None)
        memo = self._pairs.get(pieces)
        if memo is None:
            memo = self._pairs[pieces] = ({}, {})
        return (delta, pieces, memo[0], memo[1])

    def _apply(self, val: int, pieces: tuple) -> int:
        """Forward: what a move makes of the values ``val``, the union over its pieces
        ``(dd, used, sel, hsh)``: keep the blocks ``sel`` (0: all), add ``dd`` to ``d`` and
        set ``used`` in every block (:func:`_shift_bits` blockwise), then move the blocks by
        ``hsh`` bits (up: aces kept at rank 1; down: aces used at the ace high)."""
        res = 0
        for dd, used, sel, hsh in pieces:
            v = val & sel if sel else val
            if dd > 0:
                v = (v << dd) & self.kup[min(dd, self.width)]
            elif dd < 0:
                v = (v >> -dd) & self.kdn[min(-dd, self.width)]
            if used:
                v = (v & self.him) | ((v & self.lom) << self.width)
            if hsh > 0:
                v <<= hsh
            elif hsh < 0:
                v >>= -hsh
            res |= v
        return res

    def _preimage(self, acc: int, pieces: tuple) -> int:
        """Backward: the values that a move's pieces take into the accepted set ``acc`` (bits
        outside the blocks a piece reads may come along; no forward value holds them)."""
        res = 0
        width = self.width
        for dd, used, sel, hsh in pieces:
            x = acc
            if hsh > 0:
                x >>= hsh
            elif hsh < 0:
                x <<= -hsh
            if used:
                x &= self.him  # a source bit (d, u) lands on (d + dd, u or used)
                x |= x >> width
            if dd > 0:
                x = (x & self.kup[min(dd, width)]) >> dd
            elif dd < 0:
                x = (x & self.kdn[min(-dd, width)]) << -dd
            if sel:
                x &= sel
            res |= x
        return res

    def _keep_masks(self, p: int) -> list:
        """Per key need ``n`` (0..wilds): the values after layer ``p`` with enough jokers
        left for the key's need plus, per block, the Qs and Ks its aces kept for the ace
        high need (None: every value). The aces' Q and K are counted only where the key's
        own demand (the next two ranks, :meth:`_suit_need`) cannot be on the same cards, so
        the needs add up."""
        got = self._keep_at.get(p)
        if got is not None:
            return got
        r, s = _SWEEP[p]
        # A suit's next rank (the need is the same for every rank up to 10).
        nxt = [min(max(r + 1 if (s < 0 or q <= s) else r, 10), 12) for q in range(4)]
        got = self._keep_at.get(tuple(nxt))
        if got is not None:
            self._keep_at[p] = got
            return got
        hmax, mult, c0, jok_at = self.hmax, self.mult, self.c0, self.jok_at
        per = []  # per suit: the need of h aces kept, h = 0..hmax - 1
        for q in range(4):
            row = []
            for h in range(hmax[q]):
                need = 0
                for rank in (12, 13):
                    if h and nxt[q] + 1 < rank:
                        t = q * 13 + rank - 1
                        short = h - c0[t]
                        if short > 0:
                            need += short if jok_at[t] else _NEVER
                row.append(need)
            per.append(row)
        hneed = [sum(per[q][b // mult[q] % hmax[q]] for q in range(4))
                 for b in range(self.blocks)]
        wilds, keep, bsize = self.wilds, self.keep, self.bsize
        out = []
        for n in range(wilds + 1):
            m = 0
            for b, hn in enumerate(hneed):
                if n + hn <= wilds:
                    m |= keep[n + hn] << (b * bsize)
            out.append(None if m == self.allbits else m)
        self._keep_at[p] = self._keep_at[tuple(nxt)] = out
        return out

    # ----------------------------------------------------------------- pruning
    def _suit_need(self, rank: int, s: int, f: int) -> int:
        """A lower bound on the jokers suit ``s`` still needs in sequences when its field is
        ``f`` and its next rank to play is ``rank`` (``_NEVER`` if no number will do).

        The field commits future cards: its ``n1 + n2`` short sequences take a card each at
        ``rank``, the ``n1`` of length one another at ``rank + 1``, and the ``hi`` aces kept
        for the ace high each end a ``Q K A``, so ``hi`` Qs and ``hi`` Ks. At most the
        naturals of table and hand are there; the rest must be jokers, and only where the
        programme lets a joker stand."""
        got = self._need.get((rank, s, f))
        if got is not None:
            return got
        n1, n2, hi = f & 7, f >> 3 & 7, f >> 9
        if rank > 13:
            return 0  # past the K: the ace-high layers check the field
        demand = {rank: n1 + n2}
        if rank < 13:
            demand[rank + 1] = n1
        if hi:
            for q in (12, 13):
                if q >= rank:
                    demand[q] = max(demand.get(q, 0), hi)
        need = 0
        for q, want in demand.items():
            t = s * 13 + q - 1
            short = want - self.c0[t]
            if short > 0:
                need += short if self.jok_at[t] else _NEVER
        self._need[(rank, s, f)] = need
        return need

    # ----------------------------------------------------------------- transitions
    def _moves(self, p: int, sub: int, ot: tuple | None = None) -> tuple:
        """The moves through layer ``p`` of the keys whose part that the layer reads is
        ``sub`` (type layer: the suit's field, ``S`` and ``G``; rank end: ``S`` and ``G``;
        ace high: the suit's field), as :meth:`_entry` tuples; a move adds its delta to the
        key. ``ot``: other options at a type layer, for candidate checks (not memoised). A
        type's move after which the rank's groups cannot work out is dropped.

        With pruning on, the key also carries (from bit 60) the sum of the suits' joker
        needs (:meth:`_suit_need`), which a type layer's move updates for its suit; a move
        to a field no number of jokers serves is dropped."""
        if ot is None:
            got = self._moves_at[p].get(sub)
            if got is not None:
                return got
        r, s = _SWEEP[p]
        out: list = []
        if s < 0:
            # End of a rank: its group cards must split into groups; reset the counters.
            S, G = sub & 31, sub >> 5
            pairs = [(0, False)] if _groups_ok(S, G) else []
            # Jokers in groups: suitless extra members (their stated suits just differ), at
            # least one natural per group (two jokers at most).
            pairs.extend((wg, False) for wg in range(1, self.wilds + 1) if _groups_ok(S + wg, G))
            if pairs:
                out.append(self._entry(-(sub << 48), _ID if pairs == [(0, False)] else tuple(
                    (dd, u, 0, 0) for dd, u in pairs)))
        elif r == 14:
            # The ace high: the suit's Q K sequences and some of its 3+ ones take the aces
            # kept, ``n2 <= hi <= n2 + n3`` (no K may be left alone); the blocks of every
            # such ``hi`` go on, as blocks of none kept.
            f = sub
            n1, n2, n3, kept = f & 7, f >> 3 & 7, f >> 6 & 7, f >> 9
            if self.hi_in_key:
                his = [0] if n2 <= kept <= n2 + n3 else []  # one block: kept is in the key
            else:
                his = [h for h in range(self.hmax[s]) if n2 <= h <= n2 + n3]
            if not n1 and his:
                if self.hmax[s] == 1:
                    out.append(self._entry(-(f << 12 * s), _ID))
                else:
                    step = self.mult[s] * self.bsize
                    out.append(self._entry(-(f << 12 * s), tuple(
                        (0, False, self.blk[s][h], -h * step) for h in his)))
        else:
            r, sh, t, nx1, nx2, grp, hcap, room = self.params[p]
            f, S, G = sub & 0xFFF, sub >> 12 & 31, sub >> 17
            pruning = self.pruning
            if pruning:
                need0 = self._suit_need(r, s, f)
            step = self.mult[s] * self.bsize
            hik = self.hi_in_key
            merged: dict[int, tuple] = {}  # moves to one key: one move, its pieces' union
            for c, gmax, pairs in (self.opts[t] if ot is None else ot):
                for nf, g, choice in _suit_moves(r, f, c, gmax, nx1, nx2, grp, hcap, hik):
                    if not _groups_reachable(S + g, g if g > G else G, room):
                        continue  # the rank's group cards can no longer split into groups
                    delta = (nf - f) << sh
                    if g:
                        delta += (g << 48) + ((g - G if g > G else 0) << 53)
                    if pruning:
                        need1 = self._suit_need(r + 1, s, nf)
                        if need1 >= _NEVER:
                            continue
                        delta += (need1 - need0) << 60
                    pcs = _pieces(pairs, choice[1] * step if r == 1 and not hik else 0)
                    was = merged.get(delta)
                    merged[delta] = pcs if was is None or was == pcs else _union(was, pcs)
            for delta, pcs in merged.items():
                out.append(self._entry(delta, pcs))
        res = tuple(out)
        if ot is None:
            self._moves_at[p][sub] = res
        return res

    def _step(self, p: int, cur: dict[int, int], ot: tuple | None = None) -> dict[int, int]:
        """The keys and values after layer ``p`` from those before it (``ot`` as in
        :meth:`_moves`). With pruning on, a value with fewer jokers left than its key needs
        is dead and dropped: only dead values go, so every value on a path to an accepted
        end stays, and the backward sets stay exact on them."""
        sh, mask = _READS[p]
        moves = self._moves
        nxt: dict[int, int] = {}
        get = nxt.get
        if ot is None and self.plain[p]:
            # Every move keeps the values and nothing is pruned: the keys' moves only.
            dm = self._deltas_at[p]
            for key, val in cur.items():
                sub = key >> sh & mask if mask > 0 else key >> sh & 0xFFF | (key >> 48 & 4095) << 12
                ds = dm.get(sub)
                if ds is None:
                    ds = dm[sub] = tuple(e[0] for e in moves(p, sub))
                for delta in ds:
                    nk = key + delta
                    nxt[nk] = get(nk, 0) | val
            return nxt
        memo = self._moves_at[p]
        if ot is not None:  # a candidate's options: their moves are kept beside the layer's
            got = memo.get(ot)
            memo = memo[ot] = {} if got is None else got
        prune = self.pruning and _SWEEP[p][0] < 14
        wilds = self.wilds
        if prune:
            keep = self._keep_masks(p)
        apply = self._apply
        for key, val in cur.items():
            sub = key >> sh & mask if mask > 0 else key >> sh & 0xFFF | (key >> 48 & 4095) << 12
            ms = memo.get(sub)
            if ms is None:
                ms = memo[sub] = moves(p, sub, ot)
            for delta, pieces, fm, _ in ms:
                nk = key + delta
                if fm is None:
                    nv = val
                else:
                    nv = fm.get(val)
                    if nv is None:
                        nv = fm[val] = apply(val, pieces)
                if prune:
                    n = nk >> 60
                    if n > wilds:
                        continue
                    km = keep[n]
                    if km is not None:
                        nv &= km
                if nv:
                    nxt[nk] = get(nk, 0) | nv
        return nxt

    # ----------------------------------------------------------------- passes
    def forward(self, stop_early: bool = False) -> bool:
        """Every layer's reachable keys; True when an accepted end is reachable.
        ``stop_early``: keep no record (for a yes/no answer only)."""
        cur = {0: 1 << (0 - self.dlo)}
        fwd = self.fwd
        for p in range(len(_SWEEP)):
            if not stop_early:
                fwd.append(cur)
            cur = self._step(p, cur)
            if not cur:
                while not stop_early and len(fwd) <= len(_SWEEP):
                    fwd.append({})
                return False
        if not stop_early:
            fwd.append(cur)
        return bool(cur.get(0, 0) & self.acc)

    def backward(self, first: int = 0) -> None:
        """The accepted values of every forward key, last layer first, down to layer
        ``first`` (the candidate checks need no earlier one). Only moves into forward keys
        count: a value reached going forward moves only into forward keys, so the sets are
        exact on every value that the forward pass reaches."""
        bwd, fwd = self.bwd, self.fwd
        preimage = self._preimage
        for p in range(len(_SWEEP) - 1, first - 1, -1):
            here = bwd[p]
            nxt = bwd[p + 1]
            memo = self._moves_at[p]
            sh, mask = _READS[p]
            if self.plain[p]:
                dm = self._deltas_at[p]
                for key in fwd[p]:
                    acc = 0
                    sub = (key >> sh & mask if mask > 0
                           else key >> sh & 0xFFF | (key >> 48 & 4095) << 12)
                    for delta in dm[sub]:
                        acc |= nxt.get(key + delta, 0)
                    here[key] = acc
                continue
            for key in fwd[p]:
                acc = 0
                sub = key >> sh & mask if mask > 0 else key >> sh & 0xFFF | (key >> 48 & 4095) << 12
                for delta, pieces, _, bm in memo[sub]:
                    b = nxt.get(key + delta)
                    if b:
                        if bm is None:
                            acc |= b
                        else:
                            got = bm.get(b)
                            if got is None:
                                got = bm[b] = preimage(b, pieces)
                            acc |= got
                here[key] = acc

    def possible(self, t: int, ot: tuple, in_programme: bool) -> bool:
        """Some completion makes one of the choices ``ot`` at type ``t``.

        Only the live values of the forward keys before ``t``'s layer (those the backward
        set accepts) can start one: a completion through such a choice is, or is as good
        as, one of the programme's own (below).

        ``in_programme``: the choices are among the programme's own at ``t`` (a hand card
        played), so their moves lead into forward keys, where the backward sets of the next
        layer are exact. Otherwise (a joker stated as ``t``, which may then sit in a group
        as that suit) a move may lead to a new key or value: those go on through the rest
        of the rank (the others meet the backward sets at once) and meet the backward sets
        after the rank's end, where every such value is one the forward pass reaches too (a
        joker in a group is as good as a suitless one)."""
        p = _AT[t]
        back = self.bwd[p]
        cur = {}
        for key, val in self.fwd[p].items():
            val &= back[key]
            if val:
                cur[key] = val
        cur = self._step(p, cur, ot)
        end = p if in_programme else p + 4 - _SWEEP[p][1]  # the rank's end layer
        for q in range(p + 1, end + 1):
            fwd, bwd = self.fwd[q], self.bwd[q]
            rest: dict[int, int] = {}
            for key, val in cur.items():
                known = fwd.get(key, 0)
                if val & known & bwd.get(key, 0):
                    return True
                val &= ~known
                if val:
                    rest[key] = val
            cur = self._step(q, rest)
        bwd = self.bwd[end + 1]
        for key, val in cur.items():
            if val & bwd.get(key, 0):
                return True
        return False

    def end_values(self) -> int:
        """The values reaching the end (forward pass done)."""
        return self.fwd[-1].get(0, 0)


@functools.lru_cache(maxsize=8192)
def py_is_valid_table(table: tuple[int, ...]) -> bool:
    """MR-3/MR-4: the multiset (52 effective counts) splits into valid groups and sequences.
    An empty table is valid. (The sweep's forward pass: the same programme as :func:`_run`,
    with its moves memoised and its rank's groups checked as they fill.)"""
    return _Sweep(table, _ZERO, _ZERO, _ZERO, 0, True).forward(True)


def after_free(q: Query, t: int, from_hand: bool) -> Query:
    """The turn after freeing a joker bound to ``t`` with the real card from hand or table."""
    table = list(q.table)
    naturals = list(q.naturals)
    hand = list(q.hand)
    free = list(q.freeable)
    free[t] -= 1
    if from_hand:
        hand[t] -= 1
        naturals[t] += 1
    else:
        table[t] -= 1
    return Query(tuple(table), tuple(naturals), tuple(free), tuple(hand), q.pending + 1,
                 q.added or from_hand)


@functools.lru_cache(maxsize=4096)
def py_can_complete(q: Query) -> bool:
    """The turn can still end with a valid table (MR-4, MR-5): some hand cards and jokers
    played, perhaps after freeing some of the table's freeable jokers. Steps commute, so the
    frees can come first: this is a search over the (at most two) frees, then one forward run
    of the programme without frees. (Frees as choices of one run would do too, but every
    freeable joker is then a joker to place anywhere, which multiplies the states.)"""
    hand = q.hand
    if not q.added and not hand[JOKER]:
        # Cheap necessary condition (MR-4): some hand card must still be added, in a meld of
        # table and hand cards and the jokers that may be in play.
        wilds = q.pending + sum(q.freeable)
        both = [q.table[t] + hand[t] for t in range(NUM_NATURAL)]
        if not any(hand[t] and _near(both, t, wilds) for t in range(NUM_NATURAL)):
            return False
    if _Sweep(q.table, hand, _ZERO, q.naturals, q.pending, q.added).forward(True):
        return True
    for t in range(NUM_NATURAL):
        if q.freeable[t]:
            if q.hand[t] and py_can_complete(after_free(q, t, True)):
                return True
            if q.naturals[t] and py_can_complete(after_free(q, t, False)):
                return True
    return False


def _seq_touch(present: Sequence[int], t: int) -> bool:
    """A natural card of ``t``'s suit within two places of it (ace low or high): where a joker
    standing for ``t`` could sit in a sequence (at most two jokers exist, so every sequence
    holds a natural card)."""
    s, r0 = divmod(t, 13)
    base = s * 13
    for pos in ((r0 + 1,) if r0 else (1, 14)):
        for p in (pos - 2, pos - 1, pos + 1, pos + 2):
            if 1 <= p <= 14 and present[base + (p - 1) % 13]:
                return True
    return False


def _near(counts: Sequence[int], t: int, wilds: int, touch: bool = False) -> bool:
    """Necessary condition for a card of type ``t`` to sit in some meld when ``counts``
    (table plus hand, 52 long) are the other cards and ``wilds`` jokers could join: enough
    distinct other suits of its rank, or a window of three consecutive cards of its suit.
    ``touch``: only whether some other card shares its rank or sits within two places of
    it in its suit (where a joker standing for ``t`` could find a natural meld-mate)."""
    s, r0 = divmod(t, 13)
    if touch:
        if any(counts[q * 13 + r0] for q in range(4) if q != s):
            return True
        base = s * 13
        for pos in ((r0 + 1,) if r0 else (1, 14)):
            for p in (pos - 2, pos - 1, pos + 1, pos + 2):
                if 1 <= p <= 14 and counts[base + (p - 1) % 13]:
                    return True
        return False
    suits = sum(1 for q in range(4) if q != s and counts[q * 13 + r0] > 0)
    if suits + wilds >= 2:
        return True
    base = s * 13
    for pos in ((r0 + 1,) if r0 else (1, 14)):
        for lo in range(pos - 2, pos + 1):
            if lo < 1 or lo + 2 > 14:
                continue
            miss = 0
            for p in range(lo, lo + 3):
                if p != pos and not counts[base + (p - 1) % 13]:
                    miss += 1
            if miss <= wilds:
                return True
    return False


@dataclass(frozen=True)
class StepOptions:
    """Which single steps of a meld keep a valid end of the turn reachable."""

    play: tuple[int, ...]         # natural types that may be played from hand
    joker: tuple[int, ...]        # types a joker (pending or from hand) may be played as
    free_hand: tuple[int, ...]    # bound jokers that may be freed by the hand's real card
    free_table: tuple[int, ...]   # bound jokers that may be freed by the table's real card
    finish: bool                  # the table is valid, nothing pending, a card was added


@functools.lru_cache(maxsize=2048)
def py_step_options(q: Query) -> StepOptions:
    """The next steps of a meld that keep a valid end of the turn reachable (MR-4, MR-5).

    Frees come first: playing a card or a joker is offered when the turn can end validly
    without freeing another joker; freeing one is offered when the turn can end validly after
    it (further frees allowed). Steps commute, so every table a turn could end with stays
    reachable (free the jokers it needs first), and no offered step is a dead end.
    """
    table, hand, naturals, freeable = q.table, q.hand, q.naturals, q.freeable
    hj = hand[JOKER]
    wilds = q.pending + hj
    both = [table[t] + hand[t] for t in range(NUM_NATURAL)]
    # Cheap necessary condition: a card must have meld-mates among the table and hand.
    play_c = [t for t in range(NUM_NATURAL) if hand[t] and _near(both, t, wilds)]
    joker_c = [t for t in range(NUM_NATURAL) if _near(both, t, wilds)] if wilds else []
    fh_c = [t for t in range(NUM_NATURAL) if freeable[t] and hand[t]]
    ft_c = [t for t in range(NUM_NATURAL) if freeable[t] and naturals[t]]
    play: tuple[int, ...] = ()
    joker: tuple[int, ...] = ()
    valid: bool | None = None
    ok = False
    if play_c or joker_c or ft_c or fh_c:
        x_opts = {t: _options(table[t], hand[t], 0, naturals[t] > 0, wilds, "x")
                  for t in joker_c}
        sw = _Sweep(table, hand, _ZERO, naturals, q.pending, q.added, x_opts)
        ok = sw.forward()
        valid = bool(sw.end_values() & 1)  # d = 0, no hand card: the table as it stands
        if ok and (play_c or joker_c):
            sw.backward(min(_AT[t] for t in play_c + joker_c))
            present = sw.present
            play = tuple(t for t in play_c if sw.possible(t, _options(
                table[t], hand[t], 0, naturals[t] > 0,
                wilds if wilds and _seq_touch(present, t) else 0, "a"), True))
            joker = tuple(t for t in joker_c if sw.possible(t, x_opts[t], False))
    finish = q.pending == 0 and q.added and (
        valid if valid is not None else py_is_valid_table(table))
    # A free is offered when the turn can end after it. Sufficient: freeing a joker with the
    # table's card and playing it again as the same card changes nothing, so any end without
    # frees will do; freeing it with the hand's card and playing it again as that card is
    # playing the card. Otherwise the turn after the free is searched (further frees allowed).
    free_hand = [t for t in fh_c if t in play or py_can_complete(after_free(q, t, True))]
    free_table = [t for t in ft_c if ok or py_can_complete(after_free(q, t, False))]
    return StepOptions(play, joker, tuple(sorted(free_hand)), tuple(sorted(free_table)),
                       finish)


def py_arrange(table: Sequence[int]) -> list[tuple[str, list[int]]] | None:
    """One valid arrangement of a valid table: a list of ``("group" | "sequence", types)``
    (a sequence's types low to high, ``0`` standing for the ace in both places), or None if
    the table is not valid."""
    parents: list = []
    tab = tuple(table)
    if not _run(tab, _ZERO, _ZERO, _ZERO, 0, True, -1, "", parents=parents):
        return None
    # Walk back from the final key, collecting each layer's choice.
    choices: list = [None] * len(_LAYERS)
    key = 0
    for i in range(len(_LAYERS) - 1, -1, -1):
        par = parents[i]
        r, s = _LAYERS[i]
        if r != 14 and s == 3:
            key = par["_end"][key]
        key, choice = par[key]
        choices[i] = choice
    return melds_from_choices(choices)


def melds_from_choices(choices: Sequence[Sequence[int]]) -> list[tuple[str, list[int]]]:
    """The melds of the plain programme's choices ``(c, hi, e3, k, g)`` at each layer of
    ``_LAYERS`` (from :func:`py_arrange` or the compiled core's ``arrange_choices``)."""
    melds: list[tuple[str, list[int]]] = []
    open_runs: list[list[list[int]]] = [[] for _ in range(4)]
    highs = [0, 0, 0, 0]
    group_cards: list[list[int]] = []
    for i, (r, s) in enumerate(_LAYERS):
        c, hi, e3, k, g = (int(x) for x in choices[i])
        runs = open_runs[s]
        if r == 14:
            # Extend every length-2 run and ``e3`` of the longer ones with the ace high.
            short = [x for x in runs if len(x) < 3]
            long = [x for x in runs if len(x) >= 3]
            for x in short + long[:e3]:
                x.append(s * 13)
            for x in runs:
                melds.append(("sequence", x))
            open_runs[s] = []
            continue
        t = s * 13 + r - 1
        if r == 1:
            highs[s] = hi
        short = [x for x in runs if len(x) < 3]
        long = [x for x in runs if len(x) >= 3]
        keep = short + long[:e3]
        for x in long[e3:]:
            melds.append(("sequence", x))
        for x in keep:
            x.append(t)
        open_runs[s] = keep + [[t] for _ in range(k)]
        group_cards.extend([t] * g)
        if s == 3:
            if group_cards:
                # Round-robin by suit gives k groups of 3-4 distinct suits.
                group_cards.sort(key=lambda x: x // 13)
                total = len(group_cards)
                biggest = max(group_cards.count(x) for x in set(group_cards))
                ng = max(biggest, (total + 3) // 4)
                groups: list[list[int]] = [[] for _ in range(ng)]
                for j, x in enumerate(group_cards):
                    groups[j % ng].append(x)
                melds.extend(("group", gr) for gr in groups)
            group_cards = []
    return melds


def meld_is_valid(kind: str, types: Sequence[int]) -> bool:
    """Independent check of one meld of :func:`arrange` (MR-3); used by tests and render."""
    if kind == "group":
        ranks = {t % 13 for t in types}
        suits = [t // 13 for t in types]
        return 3 <= len(types) <= 4 and len(ranks) == 1 and len(set(suits)) == len(suits)
    if len(types) < 3 or len({t // 13 for t in types}) != 1:
        return False
    pos = [t % 13 + 1 for t in types]
    if len(pos) >= 2 and pos[-1] == 1:
        pos[-1] = 14  # the ace high at the end
    return all(b == a + 1 for a, b in zip(pos, pos[1:])) and len(pos) <= 14


# --------------------------------------------------------------------------- dispatch
#
# The questions are answered by the compiled core (``rummy_env.manipulation._core``, numba)
# when it can be had, by the pure-Python programme above otherwise: the reference that the
# tests compare the core with. ``RUMMY_ENV_PURE_PYTHON=1`` forces the Python path (for
# debugging, and for CI's second run of the solver tests). The core is imported, and numba
# with it, at the first question, not with the package: ``import rummy_env`` compiles nothing
# (the compiled code is cached on disk by numba, so only a machine's first run compiles).

#: The compiled core once loaded, False when the Python path answers, None before the first
#: question.
_CORE: Any = None
#: Layout the compiled core uses (1: aces kept for the ace high in the values while they fit,
#: 0: in the keys). Tests answer in both (``tests/solver_layouts.py``).
CORE_POLICY = 1


def _compiled() -> Any:
    """The compiled core module, or False (Python path)."""
    global _CORE
    if _CORE is None:
        if os.environ.get("RUMMY_ENV_PURE_PYTHON", "").strip() not in ("", "0"):
            _CORE = False
        else:
            try:
                from rummy_env.manipulation import _core as core
            except ImportError as exc:  # numba missing (a Python it has no wheel for yet)
                warnings.warn(f"Manipulation Rummy solver: no compiled core ({exc}); the "
                              "pure-Python solver answers, about 10x slower", stacklevel=3)
                _CORE = False
            else:
                _CORE = core
    return _CORE


def use_compiled(flag: bool | None) -> None:
    """Answer with the compiled core (True), the Python programme (False), or as the
    environment says (None). Clears the answer memos (they do not record the path)."""
    global _CORE
    _CORE = None
    if flag is True:
        from rummy_env.manipulation import _core as core
        _CORE = core
    elif flag is False:
        _CORE = False
    for fn in (is_valid_table, can_complete, step_options, step_options_counts):
        fn.cache_clear()


def compiled_active() -> bool:
    """Whether the compiled core answers (loading it if it has not been asked yet)."""
    return bool(_compiled())


def _arrays(q: Query) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A query's counts as the int64 arrays the core reads (through bytes: counts are small,
    and that is three times faster than ``np.array`` of the tuples)."""
    counts = q.table + q.naturals + q.freeable + q.hand
    try:
        a = np.frombuffer(bytes(counts), np.uint8).astype(np.int64)
    except ValueError:  # a count outside 0..255: not a position of the rules, but answer it
        a = np.array(counts, np.int64)
    return a[:52], a[52:104], a[104:156], a[156:]


def _bits(m: int) -> tuple[int, ...]:
    """The types of a bit mask, in order."""
    out = []
    m = int(m)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return tuple(out)


#: The compiled core's records of its last sweeps (``_core.keep_new``), one per number of
#: jokers to place (pending plus in hand), which the next mask's sweep with as many starts
#: from: a card played from hand leaves the forward layers before its type's and most layers'
#: moves as they were (``_core._sweep_mask``; the answers are the same). One record per count
#: because a free and the joker's placement change the count and back: with one record the
#: mask after the placement started afresh, with one per count it starts from the mask
#: before the free (about 4% less core time in random play).
_KEEP: dict[int, Any] = {}


def _kept(core: Any, wilds: int) -> Any:
    keep = _KEEP.get(wilds)
    if keep is None:
        keep = _KEEP[wilds] = core.keep_new()
    return keep


def _core_fits(q: Query) -> bool:
    """The core places at most ``MAX_WILDS`` jokers (the rules deal at most two)."""
    return q.pending + q.hand[JOKER] + sum(q.freeable) <= 2


@functools.lru_cache(maxsize=8192)
def is_valid_table(table: tuple[int, ...]) -> bool:
    """MR-3/MR-4: the multiset (52 effective counts) splits into valid groups and sequences.
    An empty table is valid. (The sweep's forward pass: the same programme as :func:`_run`,
    with its moves memoised and its rank's groups checked as they fill.)"""
    core = _compiled()
    if core:
        return bool(core.valid_table(np.array(table, np.int64), CORE_POLICY))
    return py_is_valid_table(table)


@functools.lru_cache(maxsize=4096)
def can_complete(q: Query) -> bool:
    """The turn can still end with a valid table (MR-4, MR-5): some hand cards and jokers
    played, perhaps after freeing some of the table's freeable jokers (see
    :func:`py_can_complete`, the reference)."""
    core = _compiled()
    if core and _core_fits(q):
        return bool(core.can_complete(*_arrays(q), q.pending, q.added, CORE_POLICY))
    return py_can_complete(q)


@functools.lru_cache(maxsize=2048)
def step_options(q: Query) -> StepOptions:
    """The next steps of a meld that keep a valid end of the turn reachable (MR-4, MR-5):
    the action mask of a meld in progress (see :func:`py_step_options`, the reference)."""
    core = _compiled()
    if core and _core_fits(q):
        play, joker, fh, ft, fin = core.step_options_kept(
            *_arrays(q), q.pending, q.added, CORE_POLICY, _kept(core, q.pending + q.hand[JOKER]))
        return StepOptions(_bits(play), _bits(joker), _bits(fh), _bits(ft), bool(fin))
    return py_step_options(q)


@functools.lru_cache(maxsize=2048)
def step_options_counts(counts: bytes, pending: int, added: bool) -> StepOptions:
    """:func:`step_options` of the query whose counts are the 209 bytes ``counts`` (table,
    naturals, freeable, hand, as ``Query``'s fields in order): the state's mask, without a
    ``Query`` of tuples to build and hash, and handed to the compiled core as they are."""
    core = _compiled()
    if core and pending + counts[208] + sum(counts[104:156]) <= 2:
        a = np.frombuffer(counts, np.uint8).astype(np.int64)
        play, joker, fh, ft, fin = core.step_options_kept(
            a[:52], a[52:104], a[104:156], a[156:], pending, added, CORE_POLICY,
            _kept(core, pending + counts[208]))
        return StepOptions(_bits(play), _bits(joker), _bits(fh), _bits(ft), bool(fin))
    return step_options(Query(tuple(counts[:52]), tuple(counts[52:104]),
                              tuple(counts[104:156]), tuple(counts[156:]), pending, added))


def arrange(table: Sequence[int]) -> list[tuple[str, list[int]]] | None:
    """One valid arrangement of a valid table: a list of ``("group" | "sequence", types)``
    (a sequence's types low to high, ``0`` standing for the ace in both places), or None if
    the table is not valid. The compiled core finds the same one as :func:`py_arrange`."""
    core = _compiled()
    if core:
        ok, choices = core.arrange_choices(np.array(table, np.int64))
        return melds_from_choices(choices.tolist()) if ok else None
    return py_arrange(table)


__all__ = ["Query", "StepOptions", "after_free", "arrange", "can_complete", "compiled_active",
           "is_valid_table", "meld_is_valid", "py_arrange", "py_can_complete",
           "py_is_valid_table", "py_step_options", "step_options", "step_options_counts",
           "use_compiled"]
