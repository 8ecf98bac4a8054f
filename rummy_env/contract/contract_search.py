"""The contract search of the contract family: which contract melds a hand can lay.

``contract_options`` lists every shape that starts (or continues) a completion of the deal's
contract from a hand, each with one completion, so the mask never offers a contract meld the
hand cannot finish (CR-4, CR-5, CR-9, CR-13, SP-3, SP-4, SH-1 to SH-3, TP-3, PR-5);
``allocate`` fills a completion's shapes with the hand's cards (the engine's choice of copies,
:mod:`rummy_env.contract.melds`); ``combo_fills`` lists the fills that matter when the rest of
the hand is laid off (SH-1); ``joker_lower_bound`` and ``whole_hand_refuted`` refute most
hands before any search. How the search prunes is in ``docs/solvers.md`` (section "Contract
search"). :mod:`rummy_env.contract.melds` re-exports the public names.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from rummy_env.cards import JOKER, card, rank_of, suit_of
from rummy_env.contract.rules import Contract, ContractRules
from rummy_env.contract.shapes import Shape, pos_type, set_missing_suit, shape_cards


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
    # Slot wishes: a run wants exact types; a set wants its rank (suits per the rules).
    fills: list[list[int]] = [[] for _ in shapes]  # natural types taken, per shape
    run_demand = [0] * 53
    for sh in shapes:
        if sh[0] == "run":
            for t in _slot_types(sh):
                run_demand[t] += 1
    # Every meld needs a natural card (CR-4): reserve one per shape, backtracking.
    if rules.meld_needs_natural and not _reserve(0, shapes, rem, fills, run_demand, prefer):
        return None  # (PR-5: a meld may be all wild cards, so nothing is reserved)
    out: list[tuple[list[int], list[int]]] = []
    for i, sh in enumerate(shapes):
        if sh[0] == "run":
            out.append(_fill_run(sh, fills[i], rem))
            continue
        got = _fill_set(i, shapes, fills, rem, rules, prefer)
        if got is None:
            return None
        out.append(got)
    used_jokers = sum(c.count(JOKER) for c, _ in out)
    if used_jokers > jokers:
        return None
    if whole_hand and (used_jokers != jokers or any(rem[t] for t in range(52))):
        return None
    return out


def _natural_options(sh: Shape, rem: Sequence[int], run_demand: Sequence[int],
                     prefer: int) -> list[int]:
    """The natural types the hand can give shape ``sh`` as its reserved natural, best first:
    ``prefer``, then the types the runs want least beyond what the hand holds."""
    types = set(_slot_types(sh)) if sh[0] == "run" else {card(sh[1], s) for s in range(4)}
    cand = sorted(types, key=lambda t: (t != prefer, run_demand[t] - rem[t], t))
    return [t for t in cand if rem[t] > 0]


def _reserve(i: int, shapes: Sequence[Shape], rem: list[int], fills: list[list[int]],
             run_demand: Sequence[int], prefer: int) -> bool:
    """Reserve one natural for each shape from ``i`` on (CR-4), backtracking; the natural
    taken goes to ``fills[i]`` and out of ``rem``. False if some shape can get none."""
    if i == len(shapes):
        return True
    for t in _natural_options(shapes[i], rem, run_demand, prefer):
        rem[t] -= 1
        fills[i].append(t)
        if _reserve(i + 1, shapes, rem, fills, run_demand, prefer):
            return True
        rem[t] += 1
        fills[i].pop()
    return False


def _fill_run(sh: Shape, reserved: Sequence[int], rem: list[int]) -> tuple[list[int], list[int]]:
    """The cards of run ``sh``: its reserved natural, the hand's naturals for the other
    positions while they last (taken out of ``rem``), jokers for the rest."""
    slots = _slot_types(sh)
    taken = list(reserved)
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
    return cards, list(slots)


def _later_need(shapes: Sequence[Shape], fills: Sequence[list[int]], i: int,
                rank: int) -> list[int]:
    """Per suit, the naturals of ``rank`` that the runs after shape ``i`` still need beyond
    the natural each already reserved, so that a set takes the suits they do not need."""
    later_need = [0] * 4
    for j in range(i + 1, len(shapes)):
        later = shapes[j]
        if later[0] == "run":
            for t in _slot_types(later):
                if rank_of(t) == rank and t not in fills[j]:
                    later_need[suit_of(t)] += 1
    return later_need


def _fill_set(i: int, shapes: Sequence[Shape], fills: Sequence[list[int]], rem: list[int],
              rules: ContractRules, prefer: int) -> tuple[list[int], list[int]] | None:
    """The cards and stands of set ``shapes[i]``: its reserved natural, then naturals of the
    suits the later runs need least (``prefer`` first), then jokers standing for the missing
    suits (C-4). None when distinct suits leave a joker no suit to stand for."""
    _, rank, size = shapes[i]
    later_need = _later_need(shapes, fills, i, rank)
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
    return cards, stands


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
    out: list[tuple[list[int], list[int]]] = [([], [])] * len(shapes)
    found = _limited_search(0, shapes, rem, out, rules, whole_hand, limit)
    return out if found else None


def _limited_run_fills(sh: Shape, rem: Sequence[int],
                       limit: int) -> Iterator[tuple[list[int], list[int]]]:
    """The fills of run ``sh`` with at most ``limit`` jokers, fewest first (``rem`` is read
    once, at the first fill)."""
    slots = _slot_types(sh)
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


def _limited_set_fills(sh: Shape, rem: Sequence[int], rules: ContractRules,
                       limit: int) -> Iterator[tuple[list[int], list[int]]]:
    """The fills of set ``sh`` with at most ``limit`` jokers, fewest first (``rem`` is read
    once, at the first fill)."""
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


def _limited_search(i: int, shapes: Sequence[Shape], rem: list[int],
                    out: list[tuple[list[int], list[int]]], rules: ContractRules,
                    whole_hand: bool, limit: int) -> bool:
    """Fill the shapes from ``i`` on (into ``out``) from what ``rem`` holds, backtracking."""
    if i == len(shapes):
        if whole_hand:
            return not any(rem)
        return rem[JOKER] >= 0
    sh = shapes[i]
    fills = (_limited_run_fills(sh, rem, limit) if sh[0] == "run"
             else _limited_set_fills(sh, rem, rules, limit))
    for cards, stands in fills:
        for c in cards:
            rem[c] -= 1
        if (rem[JOKER] >= 0 and all(rem[c] >= 0 for c in cards)
                and _limited_search(i + 1, shapes, rem, out, rules, whole_hand, limit)):
            out[i] = (cards, stands)
            return True
        for c in cards:
            rem[c] += 1
    return False


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
    fills = list(_run_fills(0, combo, list(counts), [], limit, rules.meld_needs_natural))
    fills.sort(key=lambda f: sum(c.count(JOKER) for c, _ in f))
    yield from fills


def _joker_placements(sh: Shape, rem: Sequence[int], limit: int,
                      needs_natural: bool) -> list[tuple[int, ...]]:
    """The joker positions (slot indices) of each fill of run ``sh`` from ``rem``, fewest
    jokers first: those the hand lacks the natural for must be jokers, any other position
    may be one (up to the limit and the jokers left)."""
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
            if needs_natural and len(jok) == len(slots):
                continue
            out.append(jok)
    return out


def _run_fills(i: int, combo: Sequence[Shape], rem: list[int],
               chosen: list[tuple[list[int], list[int]]], limit: int,
               needs_natural: bool) -> Iterator[list[tuple[list[int], list[int]]]]:
    """The fills of ``combo[i:]`` from ``rem``, after the fills ``chosen`` of the runs before
    (each joker placement of each run in turn, in :func:`_joker_placements`' order)."""
    if i == len(combo):
        yield [(list(c), list(s)) for c, s in chosen]
        return
    sh = combo[i]
    slots = _slot_types(sh)
    for jok in _joker_placements(sh, rem, limit, needs_natural):
        cards = [JOKER if k in jok else t for k, t in enumerate(slots)]
        for c in cards:
            rem[c] -= 1
        chosen.append((cards, list(slots)))
        yield from _run_fills(i + 1, combo, rem, chosen, limit, needs_natural)
        chosen.pop()
        for c in cards:
            rem[c] += 1


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
    whole = ctx.whole_hand and finish is None  # CR-13 proper: the runs are the whole hand
    if whole and whole_hand_refuted(counts, reqs):
        return {}
    order, min_left = _search_order(reqs)
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
    deficit = _Deficit(counts)
    table = _candidate_table(counts, order, ctx, deficit, bound)
    if table is None:
        return {}
    if bound:
        for i in range(1, len(order)):
            rest_bound[i] = joker_lower_bound(counts, order[i:], rules.aces_low)
    search = _ContractSearch(counts, ctx, order, min_left, rest_bound, table, deficit, laid,
                             must_cover, one_left_ok, any_one, finish)
    if not _covers(must_cover, list(search.pending)):
        return {}  # SP-4: no candidate meld can hold the dug card
    search.rec(0, 0)
    return search.result


def _search_order(
    reqs: Sequence[tuple[str, int]],
) -> tuple[list[tuple[str, int]], list[int]]:
    """The requirements in the order the search fills them, and per level the cards that the
    requirements from that level on need at least (``min_left``, 0 past the last)."""
    # Runs first (they need exact cards), larger minimums first within a kind.
    order = sorted(reqs, key=lambda r: (r[0] != "run", -r[1]))
    min_left = [0] * (len(order) + 1)
    for i in range(len(order) - 1, -1, -1):
        min_left[i] = min_left[i + 1] + order[i][1]
    return order, min_left


#: Per contract requirement ``(kind, minimum)``: its candidate shapes as ``(shape, cards,
#: own missing cards)``.
_Table = dict[tuple[str, int], list[tuple[Shape, int, int]]]


def _candidate_table(counts: Sequence[int], order: Sequence[tuple[str, int]],
                     ctx: ContractContext, deficit: _Deficit, bound: bool) -> _Table | None:
    """The candidate shapes of each requirement of ``order`` that can be in a completion, or
    None when some requirement has none: a shape is in no completion if its own missing
    cards exceed the jokers a meld may hold, or together with what the other requirements
    need at least (on the whole hand: they share no natural with it) the hand's jokers."""
    rules = ctx.rules
    hand_size = sum(counts)
    jokers = counts[JOKER]
    cands: dict[tuple[str, int], list[Shape]] = {}
    for kind, minimum in set(order):
        if kind == "run":
            cands[(kind, minimum)] = _run_candidates(counts, minimum, ctx, hand_size)
        else:
            cands[(kind, minimum)] = _set_candidates(counts, minimum, ctx, hand_size)
        if not cands[(kind, minimum)]:
            return None
    table = {
        k: [(sh, shape_cards(sh), deficit.standalone(sh)) for sh in v]
        for k, v in cands.items()
    }
    per_meld = jokers if rules.max_jokers_per_meld is None else min(jokers,
                                                                       rules.max_jokers_per_meld)
    others = {k: jokers for k in table}
    if bound:
        for k in table:
            rest = list(order)
            rest.remove(k)
            others[k] = jokers - joker_lower_bound(counts, rest, rules.aces_low)
    table = {k: [c for c in v if c[2] <= per_meld and c[2] <= others[k]]
             for k, v in table.items()}
    if any(not v for v in table.values()):
        return None
    return table


def _covers(must_cover: int, shapes: Sequence[Shape]) -> bool:
    """SP-4: can one of ``shapes`` hold the dug natural ``must_cover`` (always, when there is
    none; a dug joker is checked on the fill)?"""
    if must_cover < 0 or must_cover == JOKER:
        return True  # a joker is checked on the allocation below
    r, s = rank_of(must_cover), suit_of(must_cover)
    for sh in shapes:
        if sh[0] == "set" and sh[1] == r:
            return True
        if sh[0] == "run" and sh[1] == s and must_cover in _slot_types(sh):
            return True
    return False


def _rank_free(sh: Shape, laid_set_ranks: set[int], chosen: Sequence[Shape]) -> bool:
    """SH-2: no two sets of one rank in a player's contract."""
    return sh[1] not in laid_set_ranks and all(
        c[0] != "set" or c[1] != sh[1] for c in chosen)


def _run_ok(sh: Shape, laid_runs: list[Shape], chosen: Sequence[Shape], runs_distinct: bool,
            contiguity: bool) -> bool:
    """SP-3 (contract runs of distinct suits) and CR-9 (no two contiguous runs of a suit):
    may run ``sh`` join the runs laid and chosen?"""
    for other in laid_runs + [c for c in chosen if c[0] == "run"]:
        if other[1] != sh[1]:
            continue
        if runs_distinct:
            return False
        if contiguity and _contiguous(sh, other):
            return False
    return True


class _ContractSearch:
    """The depth-first search of :func:`contract_options`: one candidate per requirement
    level, pruned by the joker deficit of the shapes chosen (:class:`_Deficit`) plus the bound
    of the levels left; a complete choice is recorded for each of its shapes that has no
    completion yet, and the search stops once every candidate has one."""

    __slots__ = ("counts", "rules", "order", "min_left", "rest_bound", "table", "deficit",
                 "must_cover", "one_left_ok", "any_one", "finish", "hand_size", "jokers",
                 "whole", "result", "chosen", "pending", "run_rules", "runs_distinct",
                 "contiguity", "laid_runs", "laid_set_ranks", "distinct_ranks", "fast_ok",
                 "exact_bound", "start_at")

    def __init__(self, counts: Sequence[int], ctx: ContractContext,
                 order: list[tuple[str, int]], min_left: list[int], rest_bound: list[int],
                 table: _Table, deficit: _Deficit, laid: Sequence[Shape], must_cover: int,
                 one_left_ok: Callable[[tuple[Shape, ...]], bool] | None, any_one: bool,
                 finish: Callable[[tuple[Shape, ...]], bool] | None) -> None:
        rules = ctx.rules
        self.counts, self.rules, self.order = counts, rules, order
        self.min_left, self.rest_bound, self.table, self.deficit = (
            min_left, rest_bound, table, deficit)
        self.must_cover, self.one_left_ok, self.any_one = must_cover, one_left_ok, any_one
        # SH-1 with SH-4: ``finish`` decides a completion of a whole-hand deal (see above)
        self.finish = finish if ctx.whole_hand else None
        self.whole = ctx.whole_hand and finish is None  # CR-13 proper: runs are the hand
        self.hand_size = sum(counts)
        self.jokers = counts[JOKER]
        self.result: dict[Shape, tuple[Shape, ...]] = {}
        self.chosen: list[Shape] = []
        # Stop as soon as every candidate shape has a completion.
        self.pending = {c[0] for v in table.values() for c in v}
        self.runs_distinct = rules.contract_runs_distinct
        self.contiguity = ctx.contiguity
        self.run_rules = rules.contract_runs_distinct or ctx.contiguity
        self.laid_runs = [x for x in laid if x[0] == "run"]
        self.laid_set_ranks = {x[1] for x in laid if x[0] == "set"}
        self.distinct_ranks = rules.sets_distinct_ranks
        # Without distinct-suit sets, a whole-hand deal or a joker obligation, a combination
        # whose joint bound needs no joker is filled by naturals alone.
        self.fast_ok = not (rules.set_distinct_suits or ctx.whole_hand or must_cover == JOKER)
        # Then, without a per-meld joker limit, the bound is exact: runs take their own
        # naturals (they have no choice), sets take any natural of their rank the runs
        # leave, and every missing card is a joker.
        self.exact_bound = self.fast_ok and rules.max_jokers_per_meld is None
        # index to start from at each level (same-kind de-duplication)
        self.start_at = [0] * (len(order) + 1)

    def rec(self, i: int, used: int) -> None:
        """Choose the shape of level ``i`` (``used`` cards chosen so far) and search on."""
        order = self.order
        if i == len(order):
            self._complete(used)
            return
        key = order[i]
        lst = self.table[key]
        start_at = self.start_at
        first = start_at[i] if i > 0 and order[i - 1] == key else 0
        room = self.hand_size - used - self.min_left[i + 1]
        after = self.rest_bound[i + 1]
        deficit = self.deficit
        jokers = self.jokers
        budget = jokers - deficit.total - after
        is_run = key[0] == "run"
        check_runs = is_run and self.run_rules
        check_ranks = not is_run and self.distinct_ranks
        pending = self.pending
        chosen = self.chosen
        for j in range(first, len(lst)):
            if not pending:
                return
            sh, size, own = lst[j]
            if size > room or own > budget:
                continue  # too many cards, or its own missing cards exceed the jokers left
            if check_runs and not _run_ok(sh, self.laid_runs, chosen, self.runs_distinct,
                                          self.contiguity):
                continue
            if check_ranks and not _rank_free(sh, self.laid_set_ranks, chosen):
                continue
            chosen.append(sh)
            deficit.add(sh, 1)
            if deficit.total + after <= jokers:
                start_at[i + 1] = j  # the next meld of the same kind starts here
                self.rec(i + 1, used + size)
            deficit.add(sh, -1)
            chosen.pop()

    def _complete(self, used: int) -> None:
        """A shape for every level: record the choice if it is a legal completion."""
        combo = tuple(self.chosen)
        if self.whole and used != self.hand_size:
            return
        if not _covers(self.must_cover, combo):
            return
        result = self.result
        if self.finish is not None:
            # SH-1: the completion is legal if the cards it leaves can all be laid off.
            if any(sh not in result for sh in combo) and self.finish(combo):
                self._record(combo)
            return
        one_left_ok = self.one_left_ok
        if one_left_ok is not None and used == self.hand_size - 1 and not one_left_ok(combo):
            return
        if any(sh not in result for sh in combo) and self._fills(combo):
            self._record(combo)

    def _fills(self, combo: tuple[Shape, ...]) -> bool:
        """Can ``combo`` be filled from the hand (with a joker in it, for a dug joker: SP-4)?"""
        if self.fast_ok and self.deficit.total == 0:
            return True  # every slot gets a natural card: the fill cannot fail
        rules = self.rules
        if self.exact_bound and _own_naturals(combo, self.counts, rules.meld_needs_natural):
            return True  # the bound is the fill's joker count and every meld has a natural
        fill = allocate(combo, self.counts, rules, self.whole, self.must_cover)
        return fill is not None and (
            self.must_cover != JOKER or any(JOKER in c for c, _ in fill))

    def _record(self, combo: tuple[Shape, ...]) -> None:
        """``combo`` is a completion for each of its shapes that had none yet."""
        result, pending = self.result, self.pending
        for sh in combo:
            if sh not in result:
                result[sh] = combo
                pending.discard(sh)
        if self.any_one:
            pending.clear()  # the answer is yes: stop the search
