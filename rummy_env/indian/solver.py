"""Indian Rummy / Paplu hand arrangement solver (RULES IR-3, IR-4, IR-6, IR-9).

Pure Python, no dependencies beyond the standard library. Card types are those of
:mod:`rummy_env.cards`: natural ``suit * 13 + rank - 1`` (suits C D H S, ranks A=1 .. K=13),
printed joker ``52``. A hand is a sequence of card types (a multiset: several packs give
identical copies, C-1).

API
===

``best_arrangement(cards, wild_rank, packs=2, *, sets_of_four=False, tanala=True) -> Arrangement``
    The arrangement of ``cards`` (usually 13) that pays the least under IR-9, with
    ``can_declare`` telling whether every card lies in a valid declaration (IR-6).

``can_declare(cards, wild_rank, packs=2, *, sets_of_four=False, tanala=True) -> bool``
    Whether ``cards`` can declare (IR-6): the same answer as
    ``best_arrangement(...).can_declare``, found faster (only the declaration search runs, not
    the least-payment search); the engine's masks use it.

``declare_discards(cards14, wild_rank, packs=2, *, sets_of_four=False, tanala=True) -> list[int]``
    The card types ``t`` (sorted, unique) such that ``cards14`` less one copy of ``t`` can
    declare (IR-6): the legal "discard ``t`` and declare" moves of a player holding 14 cards.
    One search answers every discard (the same answers as ``can_declare`` per discard).

``discard_bits(cards14, wild_rank, packs=2, *, sets_of_four=False, tanala=True) -> int``
    ``declare_discards`` as a bit set (bit ``t`` set: type ``t`` can go); the engine's form.

``wilds_suffice(counts, wild_rank, tan, four, drop) -> bool``
    A cheap necessary condition for a declaration (IR-6), on 53 counts (a list or the
    engine's ``bytearray``), ``wild_rank`` 0..13 (0: none), ``tan`` whether tanalas are
    possible (the option and 3 packs), ``four`` sets of four, ``drop`` one card to go first:
    False when the naturals need more wild cards than the hand has, whatever the lives. The
    searches above run it first; the engine's ``could_declare`` as its last test.

``is_wild(t, wild_rank) -> bool``
    Printed joker, or natural of rank ``wild_rank``. ``wild_rank`` ``None`` (or ``0``, the
    engine's spelling): only printed jokers are wild (IR-2: a printed joker indicator). The
    aces-wild option of a joker indicator is the caller's ``wild_rank=1``.

``card_value(t, wild_rank) -> int``
    IR-9: wild cards 0; A K Q J 10 = 10; 2-9 face value.

``Arrangement`` (frozen dataclass):

=================  ==========================================================================
``points``         the least payment under IR-9 (an ``int``; IR-10's halves are the caller's)
``melds``          card types of each meld that is not counted (runs in rank order, a wild
                   card at the place it stands for)
``kinds``          per meld: ``"pure_run"``, ``"run"``, ``"set"`` or ``"tanala"``
``deadwood``       the counted cards (sorted); ``sum(card_value) == points``
``first_life``     the arrangement has a pure run (or a tanala, when tanalas are on)
``second_life``    it has a second run as well (any run, pure or not, or a tanala)
``can_declare``    all the cards lie in valid melds, with >= 2 runs, >= 1 of them pure (IR-6)
=================  ==========================================================================

``melds`` + ``deadwood`` is always exactly ``cards`` (as a multiset).

Rules implemented
=================

* Runs (IR-3, C-3): 3+ consecutive cards of one suit, ace low (``A 2 3``) or high (``Q K A``),
  never round the corner (``K A 2``); the only run holding both aces is the full 14-card run.
* Sets (IR-3): exactly 3 cards of one rank, all suits different; ``sets_of_four=True``: 3 or 4
  cards, all suits different.
* Wild cards (IR-2, IR-3, C-4) stand for any card of a run or set; the card a wild stands for is
  the one its place needs, so in a set its stated suit is one the set lacks (suits stay
  distinct). Three or more wild cards alone form an (impure) run.
* Pure runs (IR-4): no wild card stands in for another card. A wild-rank natural standing for
  itself (``8H`` in ``7H 8H 9H`` with 8s wild) is natural, so that run is pure.
* Tanala (IR-4): with ``packs >= 3`` and ``tanala=True``, three identical natural cards
  (``10C 10C 10C``) form a meld that counts as a pure run everywhere: a first life, and one of
  the two runs of a second life or a declaration. **[decision]** Three printed jokers are not a
  tanala (they are three wild cards: an impure run); three identical wild-rank naturals are.
* Melds of a hand never share a card.
* Payment (IR-9), the hand arranged to pay the least: the least of

  - no life: every card counts;
  - first life: one pure run (or tanala) is not counted, every other card is (even cards that
    would form sets or other runs);
  - second life: a pure run (or tanala) and at least one more run (pure or not, or a tanala,
    or three+ wild cards together), and no card of any run, set or tanala counts.

  Wild cards are worth 0, so wild cards left over count nothing; in a second life three or
  more left over are shown as one more (impure) run.
* Declaration (IR-6): all the cards in valid melds, at least two runs (a tanala counts as a
  run), at least one pure (a tanala counts as pure). ``can_declare`` is computed for whatever
  number of cards is given (IR-6's case is 13).

Decisions
=========

* The payment is the least over all arrangements of the three kinds above (IR-9's "arranged to
  pay the least"). The arrangement returned is one of least payment; among equal payments a
  second life is preferred to a first life, and a first life to none, so ``first_life`` and
  ``second_life`` describe the returned arrangement (``first_life`` is True exactly when the
  hand holds a pure run or tanala: showing one always pays less than showing none).
* When ``can_declare`` is True the arrangement returned is a declaration (``deadwood`` empty,
  ``points`` 0). ``can_declare`` is False whenever ``points > 0``; ``points == 0`` alone does
  not make a declaration (a wild card with no meld to join counts 0 but is not melded).
* The card a wild card stands for: in a run, the missing places between its naturals, then
  above the top one (below it when the run ends at a high ace); in a set, a suit the set lacks.
  Where a hand holds both printed jokers and wild-rank naturals, each wild place gets the
  wild-rank natural of exactly that place if there is one (the run is then pure and reported as
  ``"pure_run"``), then printed jokers, then the other wild-rank naturals.
* Wild cards left over: in a second life, three or more are shown as one more run, fewer stay
  in ``deadwood`` (worth 0); in a declaration they join an impure run, or a pure run while
  another pure run or tanala remains, or (sets of four) a set of three.
* Halves (IR-10) never arise here: card values are integers; IR-10's halving and doubling are
  the caller's.
* ``packs`` only matters for tanalas (``packs >= 3``); a card type given more than ``packs``
  times, a type outside 0..52 or a wild rank outside 1..13 is a ``ValueError``.
* ``wild_rank`` 0 means the same as None (the engine's spelling of "no wild rank").

Algorithm
=========

1. Count the cards; if no pure run or tanala exists, every card counts (done).
2. First life: the best single pure run (a maximal run of consecutive naturals of a suit) or
   tanala.
3. Second life: wild-rank naturals are split between "kept as naturals" (useful only in a pure
   run or tanala: each split that could use them is tried) and the pool of wild cards. Sets
   are chosen rank by rank (2-4 naturals of distinct suits, plus one wild card for a set of
   two: a set of one natural and two wild cards is never better than a run of the same cards);
   for each choice, within the wild-card budget, every suit is solved on its own by a memoised
   search over its remaining naturals (the lowest card is dead, in a tanala, or the lowest
   natural of a run, which takes the fewest wild cards it needs; groups of ranks too far apart
   for any run to join are solved apart), tabulated by (wild cards used, lives) and memoised
   across calls (bounded ``lru_cache``); the four tables are combined under the budget, with
   an upper bound pruning set choices that cannot win.
4. Declaration: the same search, keeping only partitions that meld every natural, then
   placing the left-over wild cards (see Decisions).
5. All discards at once (``declare_discards``): search 4 on the 14 cards with one card allowed
   out: a natural left out of its suit's runs (each suit's full-cover table carries, per key,
   which rank may be out, or none), or one card of the wild pool (the pool less one serves
   any wild type in it). Each leaf checks, per card out, what the 13-card search's leaf checks;
   the search stops once every card type of the hand is answered. Its suit tables keep keys
   only (no witness), are shared across budgets and memoised across hands (bounded).
6. Whole hands are memoised too (bounded).
7. Before searches 4 and 5, and at each set choice within them, a lower bound on the wild cards
   (``wilds_suffice``): each suit's least *fill* (the wild cards runs and tanalas holding its
   naturals need, one natural out for 5) over the set choices still open, plus the wild cards
   of the sets chosen. Most hands that cannot declare fail it at once; it ignores the lives,
   so it never turns a declaration away.

Everything is checked against an independent brute force in ``tests/test_indian_solver.py``
(every partition of the hand into explicitly validated melds). Speed:
``python benchmarks/indian_solver.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

__all__ = ["Arrangement", "best_arrangement", "can_declare", "declare_discards", "discard_bits",
           "wilds_suffice", "card_value", "is_wild", "cache_clear"]

JOKER = 52

# Run positions 1..14 of a suit: 1 = low ace, 2..13 = ranks, 14 = high ace.
_POS_RANK = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1)
_POS_VAL = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)
_RANK_VAL = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _norm_wild_rank(wild_rank: int | None) -> int:
    if wild_rank is None:
        return 0
    wr = int(wild_rank)
    if not 0 <= wr <= 13:
        raise ValueError(f"wild_rank must be None or 1..13 (0 = None), got {wild_rank!r}")
    return wr


def is_wild(t: int, wild_rank: int | None) -> bool:
    """True for the printed joker (type 52) and for naturals of rank ``wild_rank`` (IR-2).

    ``wild_rank`` None (or 0): only printed jokers are wild."""
    t = int(t)
    if not 0 <= t <= JOKER:
        raise ValueError(f"card type must be 0..52, got {t!r}")
    if t == JOKER:
        return True
    wr = _norm_wild_rank(wild_rank)
    return bool(wr) and t % 13 + 1 == wr


def card_value(t: int, wild_rank: int | None) -> int:
    """IR-9 value of one card: wild 0; A K Q J 10 = 10; 2-9 face value."""
    if is_wild(t, wild_rank):
        return 0
    return _RANK_VAL[int(t) % 13 + 1]


# _VALUES[wr][t]: card_value(t, wr) for wild rank wr (0 = none).
_VALUES = tuple(tuple(0 if (t == JOKER or (wr and t % 13 + 1 == wr)) else _RANK_VAL[t % 13 + 1]
                      for t in range(53)) for wr in range(14))


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A least-paying arrangement of a hand (IR-9); see the module docstring."""

    points: int | float
    melds: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...]
    deadwood: tuple[int, ...]
    first_life: bool
    second_life: bool
    can_declare: bool


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


@lru_cache(maxsize=1 << 17)
def _suit_points(vec: tuple, zr: int, wcap: int, tan: bool):
    """Points table of one suit's naturals ``vec`` (13 counts by rank; rank ``zr`` worth 0).

    Returns ``(entries, maxval)``: entries, the Pareto-best ``(u, p, n, value, melds)`` over
    the partitions of the suit: ``u`` wild cards used (<= wcap), ``p`` 1 if it has a pure run or
    tanala, ``n`` runs (capped at 2), ``value`` of the naturals melded; maxval, the largest
    value. Groups of ranks that no run can join are solved apart and combined."""
    parts = _clusters(vec, wcap)
    if len(parts) > 1:
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
    vals = _suit_vals(zr)
    W = wcap
    best: dict = {}
    for start in _ace_splits(vec):
        opts = _options_fn(vals, W, tan)
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

        for key, (v, link) in f(start).items():
            old = best.get(key)
            if old is None or v > old[0]:
                best[key] = (v, link)
    entries = [(u, p, n, v, _flatten(link))
               for u, p, n, v, link in _pareto([(u, p, n, v, link)
                                                for (u, p, n), (v, link) in best.items()])]
    entries.sort(key=lambda e: -e[3])
    return tuple(entries), (entries[0][3] if entries else 0)


@lru_cache(maxsize=1 << 16)
def _suit_full(vec: tuple, zr: int, wcap: int, tan: bool):
    """Full-cover table of one suit: dict ``(u, a, b, t) -> melds`` over the partitions of
    every natural of ``vec`` into runs and tanalas with ``u`` (<= wcap) wild cards, ``a`` pure
    runs, ``b`` impure runs, ``t`` tanalas (each capped at 2)."""
    parts = _clusters(vec, wcap)
    if len(parts) > 1:
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
    vals = _suit_vals(zr)
    W = wcap
    full: dict = {}
    for start in _ace_splits(vec):
        opts = _options_fn(vals, W, tan)
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
            for w, code, rv, slots, rest in o[1]:
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

        for key, link in f(start).items():
            if key not in full:
                full[key] = _flatten(link)
    return full


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


# --------------------------------------------------------------------------------------------
# Whole hands.

def _counts(cards: Sequence[int], packs: int) -> list:
    cnt = [0] * 53
    for x in cards:
        t = int(x)
        if not 0 <= t <= JOKER:
            raise ValueError(f"card type must be 0..52, got {x!r}")
        cnt[t] += 1
    if packs < 1:
        raise ValueError(f"packs must be >= 1, got {packs!r}")
    for t in range(53):
        if cnt[t] > packs:
            raise ValueError(f"{cnt[t]} copies of card type {t} with {packs} pack(s)")
    return cnt


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
            code = code * 4 + x
        last[code] = _suit_fill(bytes(v), tan)
    levels = [last]
    for _ in rks:
        up: dict = {}
        for code, (a, b) in levels[-1].items():
            o = up.get(code >> 2)
            if o is None:
                up[code >> 2] = (a, b)
            elif a < o[0] or b < o[1]:
                up[code >> 2] = (min(a, o[0]), min(b, o[1]))
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
    mults = [(4 if vecs[0][rk] else 1, 4 if vecs[1][rk] else 1, 4 if vecs[2][rk] else 1,
              4 if vecs[3][rk] else 1) for rk in rks]
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
        sp = _Split(cnt, wr, reserved, four)
        W = sp.W
        ranks = sp.ranks
        nr = len(ranks)
        chosen = []
        found = []

        def leaf(sets_u, s3):
            budget = W - sets_u
            tables = _leaf_tables(sp, budget, tan, _suit_full)
            states = {(0, 0, 0, 0): ()}
            for s, fl in tables:
                if not fl:
                    return False
                new = {}
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
                    return False
                states = new
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


#: Drop tags of the all-discards search: bit ``t`` (0..52) for "one card of type ``t`` left
#: out"; ``_NONE`` for "no card left out yet".
_NONE = 1 << 53
_SUIT_NONE = 1 << 13  # the same in a suit's table, whose drop bits are rank indices 0..12


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
    found = 0
    for reserved in _splits(cnt, wr, tan):
        sp = _Split(cnt, wr, reserved, four)
        W = sp.W
        ranks = sp.ranks
        nr = len(ranks)
        # the wild types in the pool: leaving out any one of them leaves the same pool less one
        pool = 1 << JOKER if cnt[JOKER] else 0
        if wr:
            for s in range(4):
                if cnt[s * 13 + wr - 1] > reserved[s]:
                    pool |= 1 << (s * 13 + wr - 1)

        def leaf(sets_u, s3):
            nonlocal found
            budget = W - sets_u
            states = {(0, 0, 0, 0): _NONE}
            for s in range(4):
                v = sp.vecs[s]
                n = sum(v)
                if not n:
                    continue
                tb = _drop_table(tuple(v), budget if budget < 2 * n else 2 * n, tan)
                if not tb:
                    return
                shift = 13 * s
                new: dict = {}
                for (u, a, b, t), y in states.items():
                    ynone = y & _NONE
                    for (u2, a2, b2, t2), x in tb.items():
                        uu = u + u2
                        if uu > budget:
                            continue
                        # at most one card out over the suits: a drop here needs none before
                        val = ((x & 0x1FFF) << shift) | (_NONE if x & _SUIT_NONE else 0) \
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
                    return
                states = new
            for (u, a, b, t), y in states.items():
                left = budget - u
                d = y & ~_NONE & ~found
                if d and _declare_ok(a, b, t, left, s3, four):
                    found |= d
                if (y & _NONE and pool & ~found and left >= 1
                        and _declare_ok(a, b, t, left - 1, s3, four)):
                    found |= pool

        tables, mults = _fill_bounds(sp.vecs, [rk - 1 for rk, _ in ranks], tan)

        def dfs(j, sets_u, s3, codes):
            if sets_u + _fill_need(tables, j, codes, True) > W:
                return False  # no leaf below has the wild cards, whatever card is out
            if j == nr:
                leaf(sets_u, s3)
                return found == have
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

        if dfs(0, 0, 0, (0, 0, 0, 0)):
            break
    return found


@lru_cache(maxsize=1 << 15)
def _discard_bits(key: tuple, wr: int, tan: bool, four: bool) -> int:
    """:func:`_search_discards` of a sorted hand, memoised per hand (bits as there)."""
    cnt = _counts(key, 10 ** 9)
    if not _has_pure(cnt, tan) or not wilds_suffice(cnt, wr, tan, four, True):
        return 0  # no 13 of these cards hold a pure run, or enough wild cards
    return _search_discards(cnt, wr, tan, four)


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


# --------------------------------------------------------------------------------------------
# Turning a witness into card types.

def _build(cnt, wr, witness, declare: bool, four: bool):
    """(melds, kinds) from a second-life or declaration witness."""
    reserved, sets, w = witness
    # the pool of wild cards: jokers and the wild-rank naturals not kept as naturals
    pool = [JOKER] * cnt[JOKER]
    if wr:
        for s in range(4):
            t = s * 13 + wr - 1
            pool += [t] * (cnt[t] - reserved[s])
    runs = []  # [code, suit, [[position, type or None], ...]]
    while w:
        w, s, ms = w
        for code, slots in ms:
            runs.append([code, s, [[abs(p), s * 13 + _POS_RANK[p] - 1 if p > 0 else None]
                                   for p in slots]])
    # wild cards to places: the wild-rank natural of exactly that place first (it keeps the
    # run pure), then printed jokers, then other wild-rank naturals
    for code, s, slots in runs:
        for sl in slots:
            if sl[1] is None and _POS_RANK[sl[0]] == wr:
                t = s * 13 + wr - 1
                if t in pool:
                    pool.remove(t)
                    sl[1] = t
    pool.sort(key=lambda x: (x != JOKER, x))
    for code, s, slots in runs:
        for sl in slots:
            if sl[1] is None:
                sl[1] = pool.pop(0)
    setl = []  # [rank, suits, wild types]
    for rk, masks in sets:
        for m in masks:
            suits = [s for s in range(4) if m >> s & 1]
            setl.append([rk, suits, [pool.pop(0)] if len(suits) == 2 else []])

    def is_pure(run):
        code, s, slots = run
        return code == "T" or all(t == s * 13 + _POS_RANK[p] - 1 for p, t in slots)

    extra_run = None
    if len(pool) >= 3:
        extra_run, pool = list(pool), []
    elif pool and declare:
        # absorb 1-2 left-over wild cards (see _declare_ok)
        target = None
        for run in runs:
            if run[0] != "T" and not is_pure(run):
                target = run
                break
        if target is None and sum(1 for r in runs if is_pure(r)) >= 2:
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
    melds = []
    kinds = []
    for run in runs:
        melds.append(tuple(t for _, t in run[2]))
        kinds.append("tanala" if run[0] == "T" else ("pure_run" if is_pure(run) else "run"))
    for rk, suits, wl in setl:
        melds.append(tuple(s * 13 + rk - 1 for s in suits) + tuple(wl))
        kinds.append("set")
    if extra_run:
        melds.append(tuple(extra_run))
        kinds.append("run")
    return melds, kinds


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


@lru_cache(maxsize=1 << 15)
def _best(key: tuple, wr: int, tan: bool, four: bool) -> Arrangement:
    cnt = _counts(key, 10 ** 9)
    vals = _VALUES[wr]
    total = sum(vals[t] for t in key)
    first = _max_pure(cnt, wr, tan)
    if first is None:
        return _make(key, wr, [], [], False)
    pval, ptypes, pkind = first
    second = _search_second_life(cnt, wr, tan, four, pval - 1)
    if second is not None and total - second[0] == 0:
        dec = _search_declare(cnt, wr, tan, four)
        if dec is not None:
            melds, kinds = _build(cnt, wr, dec, True, four)
            return _make(key, wr, melds, kinds, True)
    if second is not None:
        melds, kinds = _build(cnt, wr, second[1:], False, four)
        return _make(key, wr, melds, kinds, False)
    if total - pval == 0:
        dec = _search_declare(cnt, wr, tan, four)
        if dec is not None:  # pragma: no cover - a declaration is also a second life
            melds, kinds = _build(cnt, wr, dec, True, four)
            return _make(key, wr, melds, kinds, True)
    return _make(key, wr, [ptypes], [pkind], False)


@lru_cache(maxsize=1 << 16)
def _can_declare(key: tuple, wr: int, tan: bool, four: bool) -> bool:
    cnt = _counts(key, 10 ** 9)
    if not _has_pure(cnt, tan) or not wilds_suffice(cnt, wr, tan, four, False):
        return False
    return _search_declare(cnt, wr, tan, four) is not None


def best_arrangement(cards: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                     sets_of_four: bool = False, tanala: bool = True) -> Arrangement:
    """The least-paying arrangement of ``cards`` under IR-9, and whether they declare (IR-6).

    ``wild_rank``: rank 1..13 whose naturals are wild besides printed jokers (None or 0: only
    printed jokers). ``packs``: packs in play (tanalas need 3). ``sets_of_four``: sets of 3 or
    4 cards (IR-3 option). ``tanala``: three identical cards count as a pure run (IR-4 option,
    only with 3 packs)."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards, packs)
    key = tuple(sorted(int(t) for t in cards))
    return _best(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def can_declare(cards: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                sets_of_four: bool = False, tanala: bool = True) -> bool:
    """Whether ``cards`` can declare (IR-6): every card in a valid meld, two runs, one pure.

    Equal to ``best_arrangement(...).can_declare`` (checked by the tests) but only the
    declaration search runs (memoised per hand), not the least-payment search: the cheap
    path for callers that need legality only (masks, bots)."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards, packs)
    key = tuple(sorted(int(t) for t in cards))
    return _can_declare(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def declare_discards(cards14: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                     sets_of_four: bool = False, tanala: bool = True) -> list[int]:
    """Card types ``t`` (sorted, unique) such that ``cards14`` less one ``t`` can declare (IR-6).

    One search over the whole hand answers every discard at once (the same answers as
    ``can_declare`` on each ``cards14`` less one card; memoised per hand)."""
    bits = discard_bits(cards14, wild_rank, packs, sets_of_four=sets_of_four, tanala=tanala)
    return [t for t in range(53) if bits >> t & 1]


def discard_bits(cards14: Sequence[int], wild_rank: int | None, packs: int = 2, *,
                 sets_of_four: bool = False, tanala: bool = True) -> int:
    """:func:`declare_discards` as an ``int`` bit set (bit ``t``: type ``t`` can go), the
    engine's form: it tests its hand's types against it without building a list."""
    wr = _norm_wild_rank(wild_rank)
    _counts(cards14, packs)
    key = tuple(sorted(int(t) for t in cards14))
    return _discard_bits(key, wr, bool(tanala) and packs >= 3, bool(sets_of_four))


def cache_clear() -> None:
    """Empty the solver's memo tables (benchmarks measure cold caches with it)."""
    _best.cache_clear()
    _can_declare.cache_clear()
    _discard_bits.cache_clear()
    _DROP.clear()
    _DROP_SUB.clear()
    _FILL.clear()
    _SUIT_FILL.clear()
    _COVER[False].clear()
    _COVER[True].clear()
    _set_fills.cache_clear()
    _suit_points.cache_clear()
    _suit_full.cache_clear()
    _set_options.cache_clear()
