"""Melds of the contract family: table melds, lay-off checks and meld shapes.

Run positions are 1..14: 1 is a low ace, 14 a high ace, 2..13 the other ranks (C-3). A run is a
suit and a span ``[lo, hi]``; a set is a rank and a size. A *shape* names a contract meld the
way an action does: ``("set", rank, size)`` or ``("run", suit, lo, hi)``.

Which cards of the hand fill a shape is the engine's choice, made the same way every time
(the documented equivalent of letting the player pick copies): every meld first gets one
natural card, the meld being laid gets natural cards before jokers, and where a set may take
several suits it takes those that the rest of the contract does not need. A joker in a run
stands for the card of its position; a joker in a set stands for the first suit (C D H S)
that the set's natural cards do not hold, or clubs when they hold all four (C-4).

The contract search (which contract melds a hand can complete, and their fills) is in
:mod:`rummy_env.contract.contract_search`; its public names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rummy_env.cards import JOKER, card, card_str, rank_of, suit_of
from rummy_env.contract.contract_search import (  # noqa: F401 - re-exported for importers
    ContractContext,
    allocate,
    combo_fills,
    contract_options,
    joker_lower_bound,
    whole_hand_refuted,
)
from rummy_env.contract.rules import ContractRules
from rummy_env.contract.shapes import (  # noqa: F401 - re-exported for importers
    Shape,
    pos_type,
    set_missing_suit,
    shape_cards,
)


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
