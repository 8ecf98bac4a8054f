"""Plain reference observation encoders, one per family (issue 21, point 3).

The fast encoders of ``rummy_env/<family>/codec.py`` are written for speed: byte joins, packed
bit integers, caches on the state, sizes inferred from the phase. These are written to be read:
each fills the pieces of the codec's ``ObsLayout`` by name, through ``ObsLayout.views()``, from
the state's public attributes and what each piece's meaning (the layout's third column, the
docs table) and the rules say, one piece at a time. They share no encoding code with the
codecs: only the layout (names, shapes, offsets) and the ``rummy_env.cards`` helpers.
``tests/test_reference_encoders.py`` compares the two at every step of seeded games.

Conventions (docs/design.md, "Observations"): seat rows are egocentric (row ``k`` is seat
``(observer + k) % n``, so row 0 is the observer), one-hots of a seat are at the seat's
egocentric index, and nothing of another hand or the stock order is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rummy_env.cards import JOKER, NUM_NATURAL, NUM_TYPES, card, rank_of
from rummy_env.obs import ObsLayout


class Pieces:
    """The named views of one observation buffer that records which pieces were written, so
    that a piece the layout declares and the reference forgets fails loudly."""

    def __init__(self, layout: ObsLayout) -> None:
        self.buf = np.zeros(layout.size, dtype=np.float32)
        self.views = layout.views(self.buf)
        self.written: set[str] = set()

    def __getitem__(self, name: str) -> np.ndarray:
        self.written.add(name)
        return self.views[name]

    def __setitem__(self, name: str, value: object) -> None:
        self.written.add(name)
        self.views[name][...] = value

    def done(self) -> np.ndarray:
        missing = set(self.views) - self.written
        if missing:
            raise AssertionError(f"reference encoder fills no {sorted(missing)}")
        return self.buf


def egocentric(values: Sequence[Any], seat: int) -> list[Any]:
    """Per-seat ``values`` reordered so that row ``k`` is seat ``(seat + k) % n``."""
    n = len(values)
    return [values[(seat + k) % n] for k in range(n)]


def one_hot(size: int, index: int) -> list[float]:
    """``size`` zeros with a 1 at ``index``; all zeros when ``index`` is -1 (nothing)."""
    out = [0.0] * size
    if index >= 0:
        out[index] = 1.0
    return out


def seat_one_hot(n: int, who: int, seat: int) -> list[float]:
    """One-hot of seat ``who`` seen from ``seat`` (all zeros when ``who`` is -1)."""
    return one_hot(n, (who - seat) % n if who >= 0 else -1)


def counts_of(cards: Sequence[int], size: int = NUM_TYPES) -> list[int]:
    """How many of each card type a list of cards holds."""
    out = [0] * size
    for t in cards:
        out[t] += 1
    return out


def bits_of(mask: int) -> list[float]:
    """A 52-card bitmask (gin) as 0/1 per card type."""
    return [1.0 if mask >> t & 1 else 0.0 for t in range(NUM_NATURAL)]


# --------------------------------------------------------------------------- contract
def contract_may_lay_off_now(st: Any, seat: int) -> bool:
    """Whether ``seat`` may lay off now (CR-10): only once it has met the contract, and not on
    the turn it met it unless the rules allow that, or unless it is a whole-hand deal with final
    lay-offs, where the cards left must be laid off on that turn (SH-1)."""
    r = st.rules
    if not st.melded[seat]:
        return False
    if r.layoff_same_turn or st.melded_turn[seat] < st.turn_number:
        return True
    final_layoffs = st.deal in r.whole_hand_deals and r.final_layoffs
    return st.melded_turn[seat] == st.turn_number and final_layoffs


def contract_observation(st: Any, layout: ObsLayout, seat: int) -> np.ndarray:
    g, r, n = st.game, st.rules, st.n
    v = Pieces(layout)
    v["hand"] = st.hands[seat]
    v["known"] = egocentric(st.known, seat)
    v["hand_size"] = egocentric([sum(h) / 20.0 for h in st.hands], seat)
    v["melded"] = egocentric([float(m) for m in st.melded], seat)
    v["scores"] = egocentric([s / 100.0 for s in st.scores], seat)
    v["claims_used"] = egocentric(st.claims_used, seat)
    v["to_move"] = seat_one_hot(n, st.to_move, seat)
    v["dealer"] = seat_one_hot(n, st.dealer, seat)
    v["phase"] = [1.0 if st.phase == ph else 0.0 for ph in g.phases]
    v["deal"] = one_hot(r.num_deals, st.deal - 1)
    contract = r.contracts[st.deal - 1]
    v["contract"] = [len(contract.sets), len(contract.runs), min(contract.sets, default=0) / 10,
                     min(contract.runs, default=0) / 10, st.deal in r.whole_hand_deals,
                     st.deal in r.contiguity_deals]
    may_lay_off = st.phase == "play" and contract_may_lay_off_now(st, st.to_move)
    v["turn"] = [st.contract_left is not None, st.jokers_owed, may_lay_off,
                 st.turn_number / 100.0]
    v["obligation"] = one_hot(NUM_TYPES, st.obligation)
    v["forbidden"] = one_hot(NUM_TYPES, st.forbidden)
    # A claim (or Shanghai call) window: is the observer the one asked, and who claimed the
    # previous card of the window (CR-7)?
    claim = [0.0] * (n + 1)
    if st.phase in ("claim", "call"):
        claim[0] = float(st.claim_queue[0] == seat)
        if st.last_claimer >= 0:
            claim[1 + (st.last_claimer - seat) % n] = 1.0
    v["claim"] = claim
    v["stock_size"] = len(st.stock) / g.total_cards
    v["discard_size"] = len(st.discard) / g.total_cards
    top_by = [0.0] * (n + 1)
    if st.discard:
        v["discard_top"] = one_hot(NUM_TYPES, st.discard[-1])
        by = st.discarder[-1]
        top_by[(by - seat) % n if by >= 0 else n] = 1.0  # last: the up-card (C-7)
    else:
        v["discard_top"] = 0
    v["discard_top_by"] = top_by
    v["discard_counts"] = counts_of(st.discard)
    if "claims_left" in layout.pieces:
        limit = r.claim_limit(st.deal) or 0
        largest = max([r.claim_limit(d) or 0 for d in range(1, r.num_deals + 1)] + [1])
        v["claims_left"] = egocentric([max(0, limit - c) / largest for c in st.claims_used],
                                      seat)
    if "kitty" in layout.pieces:
        v["kitty"] = [st.kitty / 10.0] + egocentric([p / 10.0 for p in st.pennies], seat)
    if "announced" in layout.pieces:
        v["announced"] = float(st.announced)
    if "discard_order" in layout.pieces:
        order = v["discard_order"]
        from_top = st.discard[::-1]
        for depth in range(min(len(from_top), g.max_dig)):
            order[depth, from_top[depth]] = 1.0
    owner, kind, cards, jokers = (v["meld_owner"], v["meld_kind"], v["meld_cards"],
                                  v["meld_jokers"])
    for i, meld in enumerate(st.table):
        owner[i, (meld.owner - seat) % n] = 1.0
        kind[i, 0 if meld.kind == "set" else 1] = 1.0
        for physical, stands_for in zip(meld.cards, meld.stands):
            # a card standing for itself is a natural; one standing for another is wild
            if physical == stands_for:
                cards[i, stands_for] += 1.0
            else:
                jokers[i, stands_for] += 1.0
    return v.done()


def contract_state(st: Any, layout: ObsLayout, observation: np.ndarray) -> np.ndarray:
    v = Pieces(layout)
    v["hands"] = st.hands
    v["stock"] = counts_of(st.stock)
    v["public"] = observation
    return v.done()


# --------------------------------------------------------------------------- gin
def gin_observation(st: Any, layout: ObsLayout, seat: int) -> np.ndarray:
    r = st.rules
    opp = 1 - seat
    v = Pieces(layout)
    v["hand"] = bits_of(st.hands[seat])
    v["known"] = [bits_of(st.known[seat]), bits_of(st.known[opp])]
    v["discard_top"] = one_hot(NUM_NATURAL, st.discard[-1] if st.discard else -1)
    v["discard_pile"] = counts_of(st.discard, NUM_NATURAL)
    v["taken"] = one_hot(NUM_NATURAL, st.taken)
    melds = [0, 0]
    for s in (0, 1):
        for m in st.melds[s]:
            melds[s] |= m
    v["melds"] = [bits_of(melds[seat]), bits_of(melds[opp])]
    slots = v["slots"]
    for k, slot in enumerate(st.slots):
        slots[k] = bits_of(slot)
    v["laid_off"] = bits_of(st.laid_off)
    # Deadwood face up: the knocker's once it is done laying melds, the phase then being
    # defend (GR-5); the defender's too when the hand is scored (GR-7). A dead hand (GR-8) has
    # no knocker and shows nothing.
    shown = [0, 0]
    k = st.knocker
    if k >= 0 and st.phase in ("defend", "deal_over", "game_over"):
        shown[k] = st.hands[k]
        if st.phase != "defend":
            shown[1 - k] = st.hands[1 - k]
    v["shown"] = [bits_of(shown[seat]), bits_of(shown[opp])]
    v["upcard"] = one_hot(NUM_NATURAL, st.upcard)
    v["phase"] = [1.0 if st.phase == ph else 0.0 for ph in PHASE_ORDER["gin"]]
    v["to_move"] = seat_one_hot(2, st.to_move, seat)
    v["dealer"] = seat_one_hot(2, st.dealer, seat)
    v["knocker"] = seat_one_hot(2, k, seat)
    v["gin"] = float(k >= 0 and st.gin)
    v["knock_limit"] = one_hot(11, st.knock_limit)
    v["upcard_refused"] = float(st.upcard_refused)
    stock_after_deal = 52 - 2 * 10 - 1  # GR-2: the stock after the deal and the upcard
    v["counts"] = [len(st.stock) / stock_after_deal, len(st.discard) / stock_after_deal]
    v["points"] = [st.points[seat] / 100.0, st.points[opp] / 100.0]
    v["turn"] = [st.turn_number / 100.0, st.deals_played / r.num_deals]
    return v.done()


def gin_state(st: Any, layout: ObsLayout, observation: np.ndarray) -> np.ndarray:
    v = Pieces(layout)
    v["hands"] = [bits_of(st.hands[0]), bits_of(st.hands[1])]
    v["stock"] = counts_of(st.stock, NUM_NATURAL)
    v["public"] = observation
    return v.done()


# --------------------------------------------------------------------------- indian
def indian_observation(st: Any, layout: ObsLayout, seat: int) -> np.ndarray:
    g, n = st.game, st.n
    v = Pieces(layout)
    v["hand"] = list(st.hands[seat])
    v["known"] = [list(k) for k in egocentric(st.known, seat)]
    v["indicator"] = one_hot(NUM_TYPES, st.indicator)
    # IR-2: the printed joker is always wild, and every card of the wild rank (none when a
    # joker is the indicator, unless the rules make aces wild then)
    wild = [0.0] * NUM_TYPES
    wild[JOKER] = 1.0
    wild_rank = g.wild_rank_for(st.indicator)
    if wild_rank:
        for suit in range(4):
            wild[card(wild_rank, suit)] = 1.0
    v["wild"] = wild
    v["taken"] = one_hot(NUM_TYPES, st.taken)
    v["discard_top"] = one_hot(NUM_TYPES, st.discard[-1] if st.discard else -1)
    v["discard_counts"] = counts_of(st.discard)
    top_by = [0.0] * (n + 1)
    if st.discard:
        by = st.discarder[-1]
        top_by[(by - seat) % n if by >= 0 else n] = 1.0  # last: the first discard
    v["discard_top_by"] = top_by
    v["hand_size"] = egocentric([sum(h) / 14.0 for h in st.hands], seat)
    v["packed"] = egocentric([float(p) for p in st.packed], seat)
    v["owed"] = egocentric([x / 100.0 for x in st.owed], seat)
    v["had_turn"] = egocentric([float(t > 0) for t in st.turns_taken], seat)
    v["to_move"] = seat_one_hot(n, st.to_move, seat)
    v["dealer"] = seat_one_hot(n, st.dealer, seat)
    v["scores"] = egocentric([s / 100.0 for s in st.scores], seat)
    v["phase"] = [1.0 if st.phase == ph else 0.0 for ph in PHASE_ORDER["indian"]]
    total = g.total_cards
    v["counts"] = [len(st.stock) / total, len(st.discard) / total, len(st.out_of_play) / total]
    # IR-10: the player to move is on its first turn when it had no turn before this one (a
    # turn counts once it has drawn, so in phase play the current one is counted already)
    first = False
    if st.phase in ("draw", "play"):
        before = st.turns_taken[st.to_move] - (1 if st.phase == "play" else 0)
        first = before == 0
    v["turn"] = [st.turn_number / 100.0, float(first), float(st.stake),
                 st.deals_played / st.rules.num_deals]
    return v.done()


def indian_state(st: Any, layout: ObsLayout, observation: np.ndarray) -> np.ndarray:
    v = Pieces(layout)
    v["hands"] = [list(h) for h in st.hands]
    v["stock"] = counts_of(st.stock)
    v["out_of_play"] = counts_of(st.out_of_play)
    v["public"] = observation
    return v.done()


# --------------------------------------------------------------------------- manipulation
def manipulation_hand_value(hand: Sequence[int], joker_value: int) -> int:
    """MR-6: joker ``joker_value`` (25), J Q K 10, 2-10 face value, A 1."""
    total = hand[JOKER] * joker_value
    for t in range(NUM_NATURAL):
        total += hand[t] * min(rank_of(t), 10)
    return total


def manipulation_observation(st: Any, layout: ObsLayout, seat: int) -> np.ndarray:
    r, n = st.rules, st.n
    v = Pieces(layout)
    v["hand"] = st.hands[seat]
    v["table"] = [st.table_nat[t] + st.table_jok[t] for t in range(NUM_NATURAL)]
    v["table_jokers"] = st.table_jok
    v["locked"] = st.locked
    v["hand_size"] = egocentric([sum(h) / 20.0 for h in st.hands], seat)
    v["points"] = egocentric([p / float(r.game_target) for p in st.points], seat)
    v["deals_won"] = egocentric([w / 10.0 for w in st.deals_won], seat)
    v["to_move"] = seat_one_hot(n, st.to_move, seat)
    v["dealer"] = seat_one_hot(n, st.dealer, seat)
    v["phase"] = [1.0 if st.phase == ph else 0.0 for ph in PHASE_ORDER["manipulation"]]
    value = manipulation_hand_value(st.hands[seat], r.joker_value)
    # MR-7: a hand worth at most the knock limit may knock (an empty hand has gone out)
    may_knock = sum(st.hands[seat]) > 0 and value <= r.knock_limit
    v["turn"] = [st.draws / 3.0, float(st.melding), float(st.added), float(st.pending),
                 float(st.final_round), st.final_left / n, len(st.stock) / st.game.total_cards,
                 value / 100.0, float(may_knock)]
    return v.done()


def manipulation_state(st: Any, layout: ObsLayout, observation: np.ndarray) -> np.ndarray:
    v = Pieces(layout)
    v["hands"] = st.hands
    v["stock"] = counts_of(st.stock)
    v["public"] = observation
    return v.done()


#: The order of the one-hot ``phase`` piece, per family: the phases as the docs tables list
#: them (the contract family's are the game's own, ``ContractGame.phases``).
PHASE_ORDER = {
    "gin": ("first_upcard", "draw", "play", "knock", "defend", "deal_over", "game_over"),
    "indian": ("draw", "play", "deal_over", "game_over"),
    "manipulation": ("meld", "knock", "deal_over", "game_over"),
}

#: family -> (observation of a seat, full-information state vector)
ObservationFn = Callable[[Any, ObsLayout, int], np.ndarray]
StateFn = Callable[[Any, ObsLayout, np.ndarray], np.ndarray]
REFERENCE: dict[str, tuple[ObservationFn, StateFn]] = {
    "contract": (contract_observation, contract_state),
    "gin": (gin_observation, gin_state),
    "indian": (indian_observation, indian_state),
    "manipulation": (manipulation_observation, manipulation_state),
}


def first_difference(layout: ObsLayout, fast: np.ndarray, ref: np.ndarray) -> str | None:
    """``None`` when ``fast`` and ``ref`` are the same bits, else the first piece and index
    that differ, with both values."""
    fast = np.ascontiguousarray(fast, dtype=np.float32)
    if fast.shape != ref.shape:
        return f"shape {fast.shape} != reference {ref.shape}"
    if fast.tobytes() == ref.tobytes():
        return None
    bad = np.flatnonzero(fast.view(np.uint32) != ref.view(np.uint32))
    i = int(bad[0])
    for name, p in layout.pieces.items():
        if p.start <= i < p.stop:
            index = np.unravel_index(i - p.start, p.shape)
            return (f"piece {name!r} index {tuple(int(x) for x in index)} (flat {i}): fast "
                    f"{fast[i]!r}, reference {ref[i]!r}; {len(bad)} entries differ")
    return f"flat index {i} outside every piece"
