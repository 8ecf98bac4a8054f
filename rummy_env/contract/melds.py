"""Melds of the contract family: table melds, lay-off checks and contract completion.

Run positions are 1..14: 1 is a low ace, 14 a high ace, 2..13 the other ranks (C-3). A run is a
suit and a span ``[lo, hi]``; a set is a rank and a size. A *shape* names a contract meld the
way an action does: ``("set", rank, size)`` or ``("run", suit, lo, hi)``.

Which cards of the hand fill a shape is the engine's choice, made the same way every time
(the documented equivalent of letting the player pick copies): every meld first gets one
natural card, the meld being laid gets natural cards before jokers, and where a set may take
several suits it takes those that the rest of the contract does not need. A joker in a run
stands for the card of its position; a joker in a set stands for the first suit (C D H S)
that the set's natural cards do not hold, or clubs when they hold all four (C-4).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from dataclasses import dataclass, field
from typing import Any

from rummy_env.cards import JOKER, card, card_str, rank_of, suit_of
from rummy_env.contract.rules import Contract, ContractRules

Shape = tuple  # ("set", rank, size) | ("run", suit, lo, hi)


def pos_type(suit: int, pos: int) -> int:
    """Card type at run position ``pos`` (1..14) of ``suit``."""
    return card(pos, suit)


@dataclass
class TableMeld:
    """A meld on the table. ``cards`` are the physical types in order (runs low to high);
    ``stands`` the natural type each card stands for (itself for a natural)."""

    owner: int
    kind: str  # "set" | "run"
    key: int  # rank for a set, suit for a run
    lo: int = 0  # run span; unused for sets
    hi: int = 0
    cards: list[int] = field(default_factory=list)
    stands: list[int] = field(default_factory=list)

    def copy(self) -> TableMeld:
        return TableMeld(self.owner, self.kind, self.key, self.lo, self.hi,
                         list(self.cards), list(self.stands))

    def text(self) -> str:
        return " ".join(card_str(c) for c in self.cards)


# --------------------------------------------------------------------------- lay-offs
def set_missing_suit(meld_stands: Sequence[int]) -> int | None:
    """First suit (C D H S) that a set's cards do not stand for, or None if all four."""
    held = {suit_of(s) for s in meld_stands}
    for s in range(4):
        if s not in held:
            return s
    return None


def layoff_natural_pos(rules: ContractRules, m: TableMeld, t: int) -> int | None:
    """Where natural ``t`` would go when laid off on meld ``m``: the run position, 0 for a set,
    or None if it does not fit (CR-10, SP-3, C-3). An ace that fits both ends of a 2..K run goes
    high: both choices leave the same possible extensions."""
    if m.kind == "set":
        if rank_of(t) != m.key:
            return None
        if rules.set_max is not None and len(m.cards) >= rules.set_max:
            return None
        if rules.set_distinct_suits and any(suit_of(s) == suit_of(t) for s in m.stands):
            return None
        return 0
    if suit_of(t) != m.key:
        return None
    r = rank_of(t)
    positions = (14, 1) if r == 1 else (r,)
    for p in positions:
        if p == 1 and not rules.aces_low:
            continue
        if p == m.hi + 1 and p <= 14:
            return p
        if p == m.lo - 1 and p >= 1:
            return p
    return None


def joker_layoff_stand(rules: ContractRules, m: TableMeld, end: int) -> int | None:
    """The card a joker laid off on ``m`` would stand for (``end`` 0 = low, 1 = high for runs,
    ignored for sets), or None if it cannot go there."""
    if rules.max_jokers_per_meld is not None and m.cards.count(JOKER) >= rules.max_jokers_per_meld:
        return None  # SH-3: no meld holds more than its jokers' limit
    if m.kind == "set":
        if rules.set_max is not None and len(m.cards) >= rules.set_max:
            return None
        s = set_missing_suit(m.stands)
        if s is None:
            if rules.set_distinct_suits:
                return None
            s = 0
        return card(m.key, s)
    lowest = 1 if rules.aces_low else 2
    if end == 0:
        # Any span inside 1..14 is a run: a low ace below a run that ends on a high ace makes
        # the full 14-card run, the only one holding both aces (C-3).
        if m.lo - 1 < lowest:
            return None
        return pos_type(m.key, m.lo - 1)
    if m.hi + 1 > 14:
        return None
    return pos_type(m.key, m.hi + 1)


def apply_layoff(m: TableMeld, t: int, stand: int, pos: int) -> None:
    """Add physical card ``t`` standing for ``stand`` at run position ``pos`` (sets: append)."""
    if m.kind == "set":
        m.cards.append(t)
        m.stands.append(stand)
    elif pos < m.lo:
        m.lo = pos
        m.cards.insert(0, t)
        m.stands.insert(0, stand)
    else:
        m.hi = pos
        m.cards.append(t)
        m.stands.append(stand)


# --------------------------------------------------------------------------- validity
def shape_of(rules: ContractRules, cards: Sequence[int], stands: Sequence[int]) -> Shape | None:
    """The shape of a meld given its cards and what each stands for, or None if invalid
    (used to validate scenario tables)."""
    if len(cards) < min(3, rules.min_set) or len(cards) != len(stands):
        return None
    if any(c != s and not rules.is_wild(c) for c, s in zip(cards, stands)):
        return None
    if rules.meld_needs_natural and all(c != s for c, s in zip(cards, stands)):
        return None  # CR-4: every meld holds a natural card (a wild 2 standing as a 2 counts)
    if rules.max_jokers_per_meld is not None and cards.count(JOKER) > rules.max_jokers_per_meld:
        return None  # SH-3
    ranks = {rank_of(s) for s in stands}
    if len(ranks) == 1:
        if len(cards) < rules.min_set:
            return None
        if rules.set_max is not None and len(cards) > rules.set_max:
            return None
        if rules.set_distinct_suits and len({suit_of(s) for s in stands}) != len(stands):
            return None
        return ("set", ranks.pop(), len(cards))
    suits = {suit_of(s) for s in stands}
    if len(suits) != 1 or len(cards) < 3:
        return None
    suit = suits.pop()
    lo = rank_of(stands[0])  # a run starting with an ace starts low (C-3)
    hi = lo + len(cards) - 1
    if (lo == 1 and not rules.aces_low) or hi > 14:
        return None
    if all(pos_type(suit, p) == s for p, s in zip(range(lo, hi + 1), stands)):
        return ("run", suit, lo, hi)
    return None


def shape_cards(shape: Shape) -> int:
    return shape[2] if shape[0] == "set" else shape[3] - shape[2] + 1


# --------------------------------------------------------------------------- contract search
@dataclass(frozen=True)
class ContractContext:
    """What the contract search needs besides the hand."""

    rules: ContractRules
    contract: Contract
    whole_hand: bool  # CR-13
    contiguity: bool  # CR-9 applies to this deal
    # SH-1 with SH-4: in a whole-hand deal the runs need not hold the whole hand, the rest is
    # laid off on the same turn (``contract_options``'s ``finish`` decides each completion).
    layoffs: bool = False

    @property
    def exact_sizes(self) -> bool:
        """Contract melds hold exactly their minimum (CR-5), except in a whole-hand deal
        (CR-13), where a run may be longer so that the runs can hold the whole hand."""
        return self.rules.exact_contract_sizes and not self.whole_hand


_RUN_TYPES: dict[Shape, tuple[int, ...]] = {}


def _slot_types(sh: Shape) -> tuple[int, ...]:
    """Natural types a run shape's positions want, low to high (cached: a hot path)."""
    v = _RUN_TYPES.get(sh)
    if v is None:
        _, suit, lo, hi = sh
        v = _RUN_TYPES[sh] = tuple(pos_type(suit, p) for p in range(lo, hi + 1))
    return v


def _contiguous(a: Shape, b: Shape) -> bool:
    return a[1] == b[1] and (a[3] + 1 == b[2] or b[3] + 1 == a[2])


def allocate(
    shapes: Sequence[Shape],
    counts: Sequence[int],
    rules: ContractRules,
    whole_hand: bool = False,
    prefer: int = -1,
) -> list[tuple[list[int], list[int]]] | None:
    """Fill ``shapes`` from a hand of ``counts`` (53 long): the cards and what each stands for,
    per shape, or None if the hand cannot fill them all. Shapes earlier in the list get natural
    cards first (after every shape has one natural). ``prefer`` is a natural type to use where
    there is a choice (an SP-4 dig obligation)."""
    if rules.max_jokers_per_meld is not None:
        return _allocate_limited(shapes, counts, rules, whole_hand, rules.max_jokers_per_meld)
    rem = list(counts)
    jokers = rem[JOKER]
    n = len(shapes)
    # Slot wishes: a run wants exact types; a set wants its rank (suits per the rules).
    fills: list[list[int]] = [[] for _ in range(n)]  # natural types taken, per shape
    run_demand = [0] * 53
    for sh in shapes:
        if sh[0] == "run":
            for t in _slot_types(sh):
                run_demand[t] += 1

    def options(i: int) -> list[int]:
        sh = shapes[i]
        types = set(_slot_types(sh)) if sh[0] == "run" else {card(sh[1], s) for s in range(4)}
        cand = sorted(types, key=lambda t: (t != prefer, run_demand[t] - rem[t], t))
        return [t for t in cand if rem[t] > 0]

    # Every meld needs a natural card (CR-4): reserve one per shape, backtracking.
    def reserve(i: int) -> bool:
        if i == n:
            return True
        for t in options(i):
            rem[t] -= 1
            fills[i].append(t)
            if reserve(i + 1):
                return True
            rem[t] += 1
            fills[i].pop()
        return False

    if rules.meld_needs_natural and not reserve(0):
        return None  # (PR-5: a meld may be all wild cards, so nothing is reserved)
    # Demand of the later shapes' runs, so a set takes the suits that runs do not need.
    out: list[tuple[list[int], list[int]]] = []
    for i, sh in enumerate(shapes):
        if sh[0] == "run":
            slots = _slot_types(sh)
            taken = list(fills[i])
            cards: list[int] = []
            for t in slots:
                if t in taken:
                    taken.remove(t)
                    cards.append(t)
                elif rem[t] > 0:
                    rem[t] -= 1
                    cards.append(t)
                else:
                    cards.append(JOKER)
            out.append((cards, list(slots)))
            continue
        _, rank, size = sh
        # What later runs still need of this rank (beyond the natural each already reserved),
        # so the set takes the suits they do not need.
        later_need = [0] * 4
        for j in range(i + 1, n):
            later = shapes[j]
            if later[0] == "run":
                for t in _slot_types(later):
                    if rank_of(t) == rank and t not in fills[j]:
                        later_need[suit_of(t)] += 1
        naturals = list(fills[i])
        suits_order = sorted(
            range(4),
            key=lambda s: (card(rank, s) != prefer, -(rem[card(rank, s)] - later_need[s]), s),
        )
        while len(naturals) < size:
            took = False
            for s in suits_order:
                t = card(rank, s)
                if rem[t] <= 0:
                    continue
                if rules.set_distinct_suits and any(suit_of(x) == s for x in naturals):
                    continue
                rem[t] -= 1
                naturals.append(t)
                took = True
                break
            if not took:
                break
        stands = list(naturals)
        cards = list(naturals)
        while len(cards) < size:
            s = set_missing_suit(stands)
            if s is None:
                if rules.set_distinct_suits:
                    return None
                s = 0
            cards.append(JOKER)
            stands.append(card(rank, s))
        out.append((cards, stands))
    used_jokers = sum(c.count(JOKER) for c, _ in out)
    if used_jokers > jokers:
        return None
    if whole_hand and (used_jokers != jokers or any(rem[t] for t in range(52))):
        return None
    return out


def _allocate_limited(
    shapes: Sequence[Shape], counts: Sequence[int], rules: ContractRules, whole_hand: bool,
    limit: int,
) -> list[tuple[list[int], list[int]]] | None:
    """:func:`allocate` when each meld may hold at most ``limit`` jokers (SH-3).

    The greedy fill (runs take their exact naturals first) can leave a set two jokers short
    where giving the set a natural and the run a joker would do, so this fill is an exhaustive
    search: each shape in turn takes as many naturals as it can (fewest jokers first), and the
    search backtracks over which shape gets a contested natural. Contracts hold at most four
    melds and a shape has few fills with at most ``limit`` jokers, so it stays small."""
    rem = list(counts)
    n = len(shapes)
    out: list[tuple[list[int], list[int]]] = [([], [])] * n

    def run_fills(sh: Shape) -> Iterator[tuple[list[int], list[int]]]:
        slots = _slot_types(sh)
        need: dict[int, int] = {}
        for t in slots:
            need[t] = need.get(t, 0) + 1
        missing = [i for i, t in enumerate(slots)
                   if sum(1 for u in slots[:i + 1] if u == t) > rem[t]]
        # Slots whose natural is short must be jokers; any other slot may be one as well.
        for extra in range(0, limit - len(missing) + 1):
            free = [i for i in range(len(slots)) if i not in missing]
            for pick in combinations(free, extra):
                jok = set(missing) | set(pick)
                if len(jok) == len(slots):
                    continue  # CR-4: a natural card in every meld
                yield [JOKER if i in jok else t for i, t in enumerate(slots)], list(slots)

    def set_fills(sh: Shape) -> Iterator[tuple[list[int], list[int]]]:
        _, rank, size = sh
        types = [card(rank, s) for s in range(4)]
        cap = [min(rem[t], 1 if rules.set_distinct_suits else rem[t]) for t in types]
        for jokers in range(0, min(limit, size - 1) + 1):
            k = size - jokers
            for split in _splits(k, cap):
                nat = [t for t, c in zip(types, split) for _ in range(c)]
                stands = list(nat)
                cards = list(nat)
                ok = True
                for _ in range(jokers):
                    s = set_missing_suit(stands)
                    if s is None:
                        if rules.set_distinct_suits:
                            ok = False
                            break
                        s = 0
                    cards.append(JOKER)
                    stands.append(card(rank, s))
                if ok:
                    yield cards, stands

    def rec(i: int) -> bool:
        if i == n:
            if whole_hand:
                return not any(rem)
            return rem[JOKER] >= 0
        sh = shapes[i]
        for cards, stands in (run_fills(sh) if sh[0] == "run" else set_fills(sh)):
            for c in cards:
                rem[c] -= 1
            if rem[JOKER] >= 0 and all(rem[c] >= 0 for c in cards) and rec(i + 1):
                out[i] = (cards, stands)
                return True
            for c in cards:
                rem[c] += 1
        return False

    return out if rec(0) else None


def _splits(k: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Ways to take ``k`` cards from four piles of ``caps`` cards (counts per pile)."""
    for a in range(min(k, caps[0]), -1, -1):
        for b in range(min(k - a, caps[1]), -1, -1):
            for c in range(min(k - a - b, caps[2]), -1, -1):
                d = k - a - b - c
                if d <= caps[3]:
                    yield (a, b, c, d)


def _set_candidates(counts: Sequence[int], minimum: int, ctx: ContractContext,
                    hand_size: int) -> list[Shape]:
    rules = ctx.rules
    jokers = counts[JOKER]
    exact = ctx.exact_sizes
    distinct = rules.set_distinct_suits
    cap = rules.set_max
    out = []
    for rank in range(1, 14):
        c0, c1, c2, c3 = counts[rank - 1], counts[rank + 12], counts[rank + 25], counts[rank + 38]
        nat = c0 + c1 + c2 + c3
        if nat == 0 and (rules.meld_needs_natural or jokers < minimum):
            continue  # an all-wild set only where melds need no natural (PR-5)
        if distinct:
            top = min((c0 > 0) + (c1 > 0) + (c2 > 0) + (c3 > 0) + jokers, 4)
        else:
            top = nat + jokers
        if cap is not None and top > cap:
            top = cap
        if top > hand_size:
            top = hand_size
        if top < minimum:
            continue
        if exact:
            out.append(("set", rank, minimum))
        else:
            out.extend(("set", rank, k) for k in range(minimum, top + 1))
    return out


def _run_candidates(counts: Sequence[int], minimum: int, ctx: ContractContext,
                    hand_size: int) -> list[Shape]:
    jokers = counts[JOKER]
    exact = ctx.exact_sizes
    lowest = 1 if ctx.rules.aces_low else 2
    need_natural = ctx.rules.meld_needs_natural
    out = []
    for suit in range(4):
        base = suit * 13
        row = counts[base:base + 13]
        if not any(row) and (need_natural or jokers < minimum):
            continue
        # have[p] for positions 1..14 (14 is the ace again).
        have = [0] + list(row) + [row[0]]
        if sum(1 for x in row if x) + jokers < minimum:
            continue
        for lo in range(lowest, 15 - minimum + 1):
            gaps = 0
            nats = 0
            for hi in range(lo, 15):
                need_two = hi == 14 and lo == 1  # a full run holds both aces of the suit
                if have[hi] >= (2 if need_two else 1):
                    nats += 1
                else:
                    gaps += 1
                length = hi - lo + 1
                if gaps > jokers or length > hand_size:
                    break
                if length >= minimum:
                    if nats > 0 or not need_natural:
                        out.append(("run", suit, lo, hi))
                    if exact:
                        break
    return out




class _Deficit:
    """Incremental lower bound on the jokers a list of shapes needs together: runs by exact
    type, sets by rank from what the runs leave, summed over ranks. A rank touched by one shape
    only contributes that shape's own deficit (precomputed); only ranks that two chosen shapes
    share are recomputed, which keeps the search cheap on large hands."""

    __slots__ = ("counts", "run_need", "set_need", "per_rank", "refs", "total", "_own")

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts = counts
        self.run_need = [0] * 52
        self.set_need = [0] * 14
        self.per_rank = [0] * 14
        self.refs = [0] * 14
        self.total = 0
        self._own: dict[Shape, tuple[tuple[int, int], ...]] = {}

    def _rank(self, r: int) -> int:
        c, rn = self.counts, self.run_need
        d = 0
        spare = 0
        for t in (r - 1, r + 12, r + 25, r + 38):
            need, have = rn[t], c[t]
            if need > have:
                d += need - have
            else:
                spare += have - need
        if self.set_need[r] > spare:
            d += self.set_need[r] - spare
        return d

    def own(self, sh: Shape) -> tuple[tuple[int, int], ...]:
        """``(rank, deficit)`` of a shape alone, per rank it touches."""
        v = self._own.get(sh)
        if v is None:
            c = self.counts
            if sh[0] == "run":
                per: dict[int, int] = {}
                for t in _slot_types(sh):
                    r = t % 13 + 1
                    per[r] = per.get(r, 0) + (1 if c[t] < 1 + (per.get(-t, 0)) else 0)
                    per[-t] = per.get(-t, 0) + 1  # a full run wants two copies of its ace
                v = tuple((r, d) for r, d in per.items() if r > 0)
            else:
                r = sh[1]
                nat = c[r - 1] + c[r + 12] + c[r + 25] + c[r + 38]
                v = ((r, max(0, sh[2] - nat)),)
            self._own[sh] = v
        return v

    def standalone(self, sh: Shape) -> int:
        return sum(d for _, d in self.own(sh))

    def add(self, sh: Shape, sign: int) -> None:
        if sh[0] == "run":
            rn = self.run_need
            for t in _slot_types(sh):
                rn[t] += sign
        else:
            self.set_need[sh[1]] += sign * sh[2]
        refs, per_rank = self.refs, self.per_rank
        own = self._own.get(sh) or self.own(sh)
        total = self.total
        for r, d in own:
            k = refs[r] + sign
            refs[r] = k
            if k == 0:
                new = 0
            elif k == 1 and sign > 0:
                new = d
            else:
                new = self._rank(r)
            total += new - per_rank[r]
            per_rank[r] = new
        self.total = total


def combo_fills(
    combo: Sequence[Shape], counts: Sequence[int], rules: ContractRules,
) -> Iterator[list[tuple[list[int], list[int]]]]:
    """Every way to fill the run shapes ``combo`` from a hand of ``counts`` that can matter
    when the cards left are then laid off (SH-1's final deal), fewest jokers first: each
    position holds its natural card or a joker, every run a natural (CR-4), at most
    ``max_jokers_per_meld`` jokers per run (SH-3).

    Where a joker may stand anywhere (no per-meld limit, no distinct-suit sets) the fill with
    naturals wherever the hand has them is the only one: a joker put in a run in place of a
    natural ``x`` that the hand holds leaves ``x`` to lay off, and every lay-off of ``x`` can
    be made by the joker instead, standing for ``x`` (then nothing else differs), so that fill
    is never needed. With a limit, where the jokers sit changes what the melds may take, so
    every placement is listed (a limit of one keeps it small: one joker slot per run)."""
    if rules.max_jokers_per_meld is None and not rules.set_distinct_suits:
        fill = allocate(combo, counts, rules)
        if fill is not None:
            yield fill
        return
    limit = counts[JOKER] if rules.max_jokers_per_meld is None else rules.max_jokers_per_meld
    rem = list(counts)
    chosen: list[tuple[list[int], list[int]]] = []

    def placements(sh: Shape) -> list[tuple[int, ...]]:
        # Joker positions: those the hand lacks the natural for must be jokers, any other
        # position may be one (up to the limit and the jokers left), fewest first.
        slots = _slot_types(sh)
        seen: dict[int, int] = {}
        forced = []
        for i, t in enumerate(slots):
            seen[t] = seen.get(t, 0) + 1
            if seen[t] > rem[t]:
                forced.append(i)
        free = [i for i in range(len(slots)) if i not in forced]
        out = []
        room = min(limit, rem[JOKER]) - len(forced)
        for extra in range(0, room + 1):
            for pick in combinations(free, extra):
                jok = tuple(sorted(forced + list(pick)))
                if rules.meld_needs_natural and len(jok) == len(slots):
                    continue
                out.append(jok)
        return out

    def rec(i: int) -> Iterator[list[tuple[list[int], list[int]]]]:
        if i == len(combo):
            yield [(list(c), list(s)) for c, s in chosen]
            return
        sh = combo[i]
        slots = _slot_types(sh)
        for jok in placements(sh):
            cards = [JOKER if k in jok else t for k, t in enumerate(slots)]
            for c in cards:
                rem[c] -= 1
            chosen.append((cards, list(slots)))
            yield from rec(i + 1)
            chosen.pop()
            for c in cards:
                rem[c] += 1

    fills = list(rec(0))
    fills.sort(key=lambda f: sum(c.count(JOKER) for c, _ in f))
    yield from fills


def joker_lower_bound(counts: Sequence[int], reqs: Sequence[tuple[str, int]],
                      aces_low: bool = True) -> int:
    """A lower bound on the jokers that any completion of ``reqs`` from ``counts`` needs.

    Most hands in play cannot meet their contract, and proving that by search is the costly
    case; this bound refutes about nine in ten of them in a few microseconds. It relaxes the
    contract into two independent parts, each given every natural card of the hand (sharing
    naturals between sets and runs, or with another run, only lowers what a part needs, so the
    sum stays a lower bound):

    * sets: the ``k`` set requirements all get the smallest minimum ``m``; the ``j``-th set on
      a rank with ``n`` naturals lacks ``m - (n - j*m)`` cards, kept between 0 and ``m``; the
      ``k`` cheapest such slots over all ranks are what ``k`` sets of size ``m`` need at least
      (a larger set, or a suit rule, only needs more);
    * runs: the ``j``-th run over a window of ``m`` positions of a suit lacks the positions
      whose natural count is at most ``j``; the ``k`` cheapest (window, copy) slots are a lower
      bound (overlapping windows may count a natural twice: lower still).
    """
    total = 0
    set_mins = [m for kind, m in reqs if kind == "set"]
    run_mins = [m for kind, m in reqs if kind == "run"]
    if set_mins:
        k, m = len(set_mins), min(set_mins)
        # A rank of n naturals gives n // m slots that lack nothing, then one that lacks
        # m - n % m (if n % m), then slots that lack m.
        full = 0
        partial = []
        for n in map(sum, zip(counts[0:13], counts[13:26], counts[26:39], counts[39:52])):
            full += n // m
            if n % m:
                partial.append(m - n % m)
        if full < k:
            partial.sort()
            short = k - full
            total += sum(partial[:short]) + m * max(0, short - len(partial))
    if run_mins:
        k, m = len(run_mins), min(run_mins)
        costs = []
        for suit in range(0, 52, 13):
            costs += _run_slot_costs(tuple(counts[suit:suit + 13]), m, k, aces_low)
        costs.sort()
        total += sum(costs[:k])
    return total


@functools.lru_cache(maxsize=1 << 14)  # a few MB at most
def _run_slot_costs(row: tuple[int, ...], m: int, k: int, aces_low: bool) -> tuple[int, ...]:
    """The ``k`` cheapest (window, copy) slots of one suit for :func:`joker_lower_bound`: the
    ``j``-th run over a window of ``m`` positions lacks the positions whose natural count is at
    most ``j``. Cached: a suit holds few cards, so its rows repeat across hands."""
    have = [*row, row[0]] if aces_low else [*row[1:], row[0]]  # positions lowest..14
    if len(have) < m:
        return ()  # no window fits: the candidate check refuses such a contract
    costs: list[int] = []
    for j in range(k):
        miss = [1 if x <= j else 0 for x in have]
        s = sum(miss[:m])
        if s == m and all(miss):
            costs += [m] * (k - j)  # no natural left at copy j: every window lacks m
            break
        costs.append(s)
        for i in range(m, len(miss)):  # slide the window one position up
            s += miss[i] - miss[i - m]
            costs.append(s)
    costs.sort()
    return tuple(costs[:k])


def _own_naturals(combo: Sequence[Shape], counts: Sequence[int], needed: bool) -> bool:
    """True if each shape of ``combo`` surely gets a natural card (CR-4) when ``needed``:
    the shapes want pairwise different card types and each has one in hand. False also when
    shapes compete for a type (then :func:`allocate` decides)."""
    if not needed:
        return True
    seen: set[int] = set()
    for sh in combo:
        types = _slot_types(sh) if sh[0] == "run" else _SET_TYPES[sh[1]]
        if not seen.isdisjoint(types):
            return False
        seen.update(types)
        for t in types:
            if counts[t]:
                break
        else:
            return False
    return True


#: The four natural types of each rank (index 1..13), for :func:`_own_naturals`.
_SET_TYPES = [()] + [tuple(card(r, s) for s in range(4)) for r in range(1, 14)]


def whole_hand_refuted(counts: Sequence[int], reqs: Sequence[tuple[str, int]]) -> bool:
    """CR-13's cheap refusals: True if ``counts`` surely cannot all lie in the runs ``reqs``.
    Every natural lies in a run of its suit, each run holds a type at most once (an ace twice
    only in the full run) and at most 14 cards. They hold as well where the rest is laid off
    (SH-1) onto a table with no meld yet: lay-offs only lengthen those runs."""
    runs = sum(1 for k, _ in reqs if k == "run")
    if any(k != "run" for k, _ in reqs) or sum(counts) > 14 * runs:
        return True
    if sum(1 for s in range(4) if any(counts[s * 13:(s + 1) * 13])) > runs:
        return True
    return any(counts[t] > (2 * runs if t % 13 == 0 else runs) for t in range(52))


def contract_options(
    counts: Sequence[int],
    reqs: Sequence[tuple[str, int]],
    ctx: ContractContext,
    laid: Sequence[Shape] = (),
    must_cover: int = -1,
    one_left_ok: Callable[[tuple[Shape, ...]], bool] | None = None,
    bound: bool = True,
    any_one: bool = False,
    finish: Callable[[tuple[Shape, ...]], bool] | None = None,
) -> dict[Shape, tuple[Shape, ...]]:
    """Every shape that starts (or continues) a completion of the contract from this hand.

    ``reqs`` are the contract melds still to lay, as ``(kind, minimum size)``; ``laid`` the
    shapes of this contract already laid this turn (for CR-9 and SP-3's distinct suits);
    ``must_cover`` a natural type that the rest of the contract must contain (SP-4);
    ``one_left_ok`` decides a completion that would leave exactly one card in hand (TP-3: only
    if that card can then be laid off; None: any completion is fine). Returns a
    map from each legal shape to one full completion that contains it (the engine fills the
    shape from that completion), so the mask never lets a player start a contract meld that the
    hand cannot finish. ``bound=False`` skips the :func:`joker_lower_bound` refutation (tests
    compare both ways). ``any_one``: stop at the first completion found (a yes/no question, such
    as SP-4's "can this dig be melded": the map then holds that completion's shapes only).
    ``finish``: in a whole-hand deal whose rest may be laid off on the same turn (SH-1 with
    SH-4, ``ctx.layoffs``), decides whether a completion, which then need not use the whole
    hand, can be filled so that every card it leaves is laid off this turn (the caller knows
    the table); it replaces the whole-hand checks and ``one_left_ok``.
    """
    rules = ctx.rules
    hand_size = sum(counts)
    jokers = counts[JOKER]
    emptying = ctx.whole_hand and finish is not None
    whole = ctx.whole_hand and not emptying  # CR-13 proper: the runs are the whole hand
    if whole and whole_hand_refuted(counts, reqs):
        return {}
    # Runs first (they need exact cards), larger minimums first within a kind.
    order = sorted(reqs, key=lambda r: (r[0] != "run", -r[1]))
    min_left = [0] * (len(order) + 1)
    for i in range(len(order) - 1, -1, -1):
        min_left[i] = min_left[i + 1] + order[i][1]
    if min_left[0] > hand_size:
        return {}
    # What the requirements from level i on need at least, on the whole hand (sharing naturals
    # with the melds chosen before level i only lowers it): level 0 refutes most hands at once,
    # before the candidates are listed; the others prune the search below.
    rest_bound = [0] * (len(order) + 1)
    if bound:
        rest_bound[0] = joker_lower_bound(counts, order, rules.aces_low)
        if rest_bound[0] > jokers:
            return {}  # no completion: refuted without the search
    cands: dict[tuple[str, int], list[Shape]] = {}
    for kind, minimum in set(order):
        if kind == "run":
            cands[(kind, minimum)] = _run_candidates(counts, minimum, ctx, hand_size)
        else:
            cands[(kind, minimum)] = _set_candidates(counts, minimum, ctx, hand_size)
        if not cands[(kind, minimum)]:
            return {}
    if bound:
        for i in range(1, len(order)):
            rest_bound[i] = joker_lower_bound(counts, order[i:], rules.aces_low)
    result: dict[Shape, tuple[Shape, ...]] = {}
    chosen: list[Shape] = []
    deficit = _Deficit(counts)
    # Per requirement: (shape, cards, own deficit), dropping shapes short of jokers alone.
    table = {
        k: [(sh, shape_cards(sh), deficit.standalone(sh)) for sh in v]
        for k, v in cands.items()
    }
    per_meld = jokers if rules.max_jokers_per_meld is None else min(jokers,
                                                                       rules.max_jokers_per_meld)
    # A shape is in no completion if its own missing cards and what the other requirements
    # need at least (on the whole hand: they share no natural with it) exceed the jokers.
    others = {k: jokers for k in table}
    if bound:
        for k in table:
            rest = list(order)
            rest.remove(k)
            others[k] = jokers - joker_lower_bound(counts, rest, rules.aces_low)
    table = {k: [c for c in v if c[2] <= per_meld and c[2] <= others[k]]
             for k, v in table.items()}
    if any(not v for v in table.values()):
        return {}
    # Stop as soon as every candidate shape has a completion.
    pending = {c[0] for v in table.values() for c in v}
    run_rules = rules.contract_runs_distinct or ctx.contiguity
    laid_runs = [x for x in laid if x[0] == "run"]
    laid_set_ranks = {x[1] for x in laid if x[0] == "set"}
    distinct_ranks = rules.sets_distinct_ranks

    def rank_free(sh: Shape) -> bool:
        # SH-2: no two sets of one rank in a player's contract.
        return sh[1] not in laid_set_ranks and all(
            c[0] != "set" or c[1] != sh[1] for c in chosen)

    def ok_with(sh: Shape) -> bool:
        for other in laid_runs + [c for c in chosen if c[0] == "run"]:
            if other[1] != sh[1]:
                continue
            if rules.contract_runs_distinct:
                return False
            if ctx.contiguity and _contiguous(sh, other):
                return False
        return True

    def covers(shapes: Sequence[Shape]) -> bool:
        if must_cover < 0 or must_cover == JOKER:
            return True  # a joker is checked on the allocation below
        r, s = rank_of(must_cover), suit_of(must_cover)
        for sh in shapes:
            if sh[0] == "set" and sh[1] == r:
                return True
            if sh[0] == "run" and sh[1] == s and must_cover in _slot_types(sh):
                return True
        return False

    if not covers(list(pending)):
        return {}  # SP-4: no candidate meld can hold the dug card

    # Without distinct-suit sets, a whole-hand deal or a joker obligation, a combination whose
    # joint bound needs no joker is filled by naturals alone.
    fast_ok = not (rules.set_distinct_suits or ctx.whole_hand or must_cover == JOKER)
    # Then, without a per-meld joker limit, the bound is exact: runs take their own naturals
    # (they have no choice), sets take any natural of their rank the runs leave, and every
    # missing card is a joker.
    exact_bound = fast_ok and rules.max_jokers_per_meld is None
    nlev = len(order)
    start_at = [0] * (nlev + 1)  # index to start from at each level (same-kind de-duplication)

    def rec(i: int, used: int) -> None:
        if i == nlev:
            combo = tuple(chosen)
            if whole and used != hand_size:
                return
            if not covers(combo):
                return
            if emptying:
                # SH-1: the completion is legal if the cards it leaves can all be laid off.
                if any(sh not in result for sh in combo) and finish(combo):
                    for sh in combo:
                        if sh not in result:
                            result[sh] = combo
                            pending.discard(sh)
                    if any_one:
                        pending.clear()
                return
            if one_left_ok is not None and used == hand_size - 1 and not one_left_ok(combo):
                return
            if any(sh not in result for sh in combo):
                if fast_ok and deficit.total == 0:
                    # Every slot gets a natural card: the fill cannot fail.
                    fill: Any = True
                elif exact_bound and _own_naturals(combo, counts, rules.meld_needs_natural):
                    # The bound is the fill's joker count and every meld has a natural.
                    fill = True
                else:
                    fill = allocate(combo, counts, rules, whole, must_cover)
                if fill is not None and (
                    must_cover != JOKER or fill is True or any(JOKER in c for c, _ in fill)
                ):
                    for sh in combo:
                        if sh not in result:
                            result[sh] = combo
                            pending.discard(sh)
                    if any_one:
                        pending.clear()  # the answer is yes: stop the search
            return
        key = order[i]
        lst = table[key]
        first = start_at[i] if i > 0 and order[i - 1] == key else 0
        room = hand_size - used - min_left[i + 1]
        after = rest_bound[i + 1]
        budget = jokers - deficit.total - after
        is_run = key[0] == "run"
        for j in range(first, len(lst)):
            if not pending:
                return
            sh, size, own = lst[j]
            if size > room or own > budget:
                continue  # too many cards, or its own missing cards exceed the jokers left
            if is_run and run_rules and not ok_with(sh):
                continue
            if not is_run and distinct_ranks and not rank_free(sh):
                continue
            chosen.append(sh)
            deficit.add(sh, 1)
            if deficit.total + after <= jokers:
                start_at[i + 1] = j  # the next meld of the same kind starts here
                rec(i + 1, used + size)
            deficit.add(sh, -1)
            chosen.pop()

    rec(0, 0)
    return result


def req_for_shape(reqs: Sequence[tuple[str, int]], shape: Shape, exact: bool) -> int | None:
    """Index of the requirement a shape fulfils: the largest minimum it meets."""
    size = shape_cards(shape)
    best = None
    for i, (kind, minimum) in enumerate(reqs):
        if kind != shape[0] or size < minimum or (exact and size != minimum):
            continue
        if best is None or minimum > reqs[best][1]:
            best = i
    return best


def iter_shapes(rules: ContractRules, max_set: int) -> Iterator[Shape]:
    """Every contract meld shape an action can name, in action order (sets, then runs)."""
    min_set = min((min(c.sets) for c in rules.contracts if c.sets), default=3)
    for rank in range(1, 14):
        for k in range(min_set, max_set + 1):
            yield ("set", rank, k)
    min_run = min((min(c.runs) for c in rules.contracts if c.runs), default=4)
    lowest = 1 if rules.aces_low else 2
    for suit in range(4):
        for lo in range(lowest, 15):
            for hi in range(lo + min_run - 1, 15):
                yield ("run", suit, lo, hi)
