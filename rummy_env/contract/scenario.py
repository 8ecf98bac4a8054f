"""Positions as plain data: ``state_to_dict`` and ``state_from_dict`` (DESIGN: Scenarios).

Schema (JSON-serialisable; card lists are card strings):

=================  ===============================================================================
key                meaning
=================  ===============================================================================
``deal``           deal number, 1-based
``dealer``         dealer seat
``to_move``        seat whose turn it is
``phase``          ``draw`` (default: the start of ``to_move``'s turn), ``claim``, ``play``,
                   ``deal_over``, ``game_over``, ``call`` (a Shanghai window, SH-6: the top
                   discard was just discarded and ``to_move`` is the next player)
``hands``          one list of cards per seat; ``null`` for a seat (or no ``hands`` key) deals
                   that hand from the unplaced cards (as in every family)
``stock``          stock cards, top card first
``discard``        discard pile, bottom first, top last
``discarders``     who discarded each pile card (-1 for the up-card); default -1 for every card
                   except the top one, which the seat before ``to_move`` discarded
``table``          melds: ``{"owner": seat, "cards": [...], "wilds": [...]}``, cards in order (runs
                   low to high), ``wilds`` the card each joker or wild card (PR-5: every 2,
                   even one standing for itself) stands for, in order
``melded``         seats that have met their contract (default: owners of table melds)
``scores``         score of each seat before this deal's penalties
``claims_used``    May I? claims (buys) made this deal, per seat
``kitty``          pennies in the kitty (PR-6)
``pennies``        net pennies of each seat this game (PR-6 buys, PR-8 settlement)
``known``          cards each seat took face up and still holds (public)
``turn``           turn state: ``number``, ``melded_turn``, ``contract_left``, ``contract_laid``,
                   ``jokers_owed``, ``obligation``, ``forbidden``, ``claim_queue`` (also the
                   callers of a Shanghai window), ``last_claimer``, ``announced`` (SH-6a)
``deal_delta``     score change of this deal so far (LV-1 cut bonus)
``zones``          (output only) every place a card can be, each physical card exactly once
=================  ===============================================================================

Types and ranges are declared in :data:`SCHEMA` (:mod:`rummy_env.scenario_schema`, which
tabulates them); unknown keys are refused, under ``turn`` too. Turn data must be what play can
reach in the phase: ``contract_left``/``contract_laid`` only in phase ``play`` for a player who
has not melded, the laid shapes being that player's table melds and the two together the deal's
contract; ``jokers_owed`` at most the jokers held, by a melded player;
``obligation`` (held in phase ``play``) and ``forbidden`` only with the rules that make them
(SP-4), all three clear at the start of a turn (phases ``draw`` and ``claim``);
``claim_queue`` only in phases ``claim`` and ``call``; ``melded_turn`` -1 exactly for the seats
that have not melded.

A partial scenario is completed: cards of the packs that it places nowhere go to the stock, in
an order shuffled by the seeded generator, below any stock cards it lists; other keys take
their start-of-deal values. Anything inconsistent is a :class:`~rummy_env.errors.ScenarioError`
naming the problem, and nothing is changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import JOKER, NUM_TYPES, card_str
from rummy_env.contract.melds import TableMeld, req_for_shape, shape_of
from rummy_env.contract.rules import ContractRules
from rummy_env.contract.state import CALL, CLAIM, DRAW, PHASES, PLAY, ContractGame, ContractState
# The writer lives with the state, so that the state never imports this module (the reader);
# re-exported under its old name.
from rummy_env.contract.state import state_to_dict as state_to_dict
from rummy_env.errors import ScenarioError
from rummy_env.scenario_schema import (
    CARD, CARDS, Bool, Dict, Int, List, Null, Num, Schema, Seat, Str, Tuple,
)
from rummy_env.scenario_util import (
    card_at, cards_at, int_list, per_seat_cards, scenario_start, seat_at, unplaced_cards,
    verify_built,
)

_KIND = Str(("set", "run"))
#: The contract family's keys on top of the common ones (scenario_schema.COMMON).
SCHEMA = Schema("contract", {
    "phase": Str(PHASES),
    "discard": CARDS,
    "discarders": List(Seat(none=True)),
    "table": List(Dict({"owner": Seat(), "kind": _KIND, "cards": CARDS, "wilds": CARDS},
                       required=("owner", "cards"), name="a meld")),
    "melded": List(Seat(), unique=True),
    "claims_used": List(Int(0), per_seat=True),
    "kitty": Int(0),
    "pennies": List(Num(), per_seat=True),
    "known": List(CARDS, per_seat=True),
    "deal_delta": List(Int(), per_seat=True),
}, {
    "melded_turn": List(Int(-1), per_seat=True),
    "contract_left": Null(List(Tuple(((_KIND, Int(1, 200)),)), max_len=20)),
    "contract_laid": List(Tuple(((Str(("set",)), Int(1, 13), Int(1, 200)),
                                 (Str(("run",)), Int(0, 3), Int(1, 14), Int(1, 14)))),
                          max_len=20),
    "jokers_owed": Int(0, 200),
    "obligation": Null(CARD),
    "forbidden": Null(CARD),
    "claim_queue": List(Seat(), unique=True),
    "last_claimer": Seat(none=True),
    "announced": Bool(),
    "went_out": Seat(none=True),
    "last_deal_delta": List(Int(), per_seat=True),
})


def state_from_dict(game: ContractGame, d: dict[str, Any], rng: np.random.Generator,
                    verify: bool = True) -> ContractState:
    """Build a position from plain data (see the module docstring), validated: the declared
    schema first, then the meaning of each part, then (``verify``) the built position's
    round trip (:func:`~rummy_env.scenario_util.verify_built`)."""
    rules, n = game.rules, game.num_players
    st = ContractState(game)
    st.deal, st.dealer, st.to_move = scenario_start(d, SCHEMA, rules.name, n, rules.num_deals, rng)
    phase = d.get("phase", DRAW)
    if phase not in game.phases:
        raise ScenarioError(f"scenario phase={phase!r}; allowed: {', '.join(game.phases)}")
    if "scores" in d:
        st.scores = int_list(d["scores"], n, "scores")

    placed = [0] * NUM_TYPES
    to_deal = _load_hands(st, d, placed)
    st.table = _load_table(d, rules, n, placed)
    _load_piles(st, game, d, placed, to_deal, rng)
    _load_seats(st, d)
    st.deals_played = int(d.get("deals_played", st.deal - 1))
    _load_turn(st, d.get("turn", {}), n)
    st.phase = phase
    _check_turn(st, phase)
    _check_phase(st, game, phase)
    if verify:
        verify_built(st, lambda again: state_from_dict(game, again, np.random.default_rng(0), verify=False),
                     live=phase in (DRAW, PLAY, CLAIM, CALL))
    return st


def _load_hands(st: ContractState, d: dict[str, Any], placed: list[int]) -> list[int]:
    """The hands given (counted in ``placed``); returns the seats whose hands are to deal."""
    n = st.n
    hv = d.get("hands")
    to_deal = list(range(n)) if hv is None else [s for s in range(n) if hv[s] is None]
    for s in range(n):
        if hv is not None and hv[s] is not None:
            for t in cards_at(hv[s], f"hands[{s}]"):
                st.hands[s][t] += 1
                placed[t] += 1
    return to_deal


def _load_table(d: dict[str, Any], rules: ContractRules, n: int,
                placed: list[int]) -> list[TableMeld]:
    """The table melds, each a valid set or run under the rules (counted in ``placed``)."""
    table: list[TableMeld] = []
    if not isinstance(d.get("table", []), (list, tuple)):
        raise ScenarioError("scenario table must be a list of melds")
    for i, m in enumerate(d.get("table", [])):
        owner = seat_at(m["owner"], n, f"table[{i}].owner")
        cards = cards_at(m["cards"], f"table[{i}].cards")
        wilds = cards_at(m.get("wilds", []), f"table[{i}].wilds")
        nwild = sum(1 for c in cards if rules.is_wild(c))
        if len(wilds) != nwild or JOKER in wilds:
            raise ScenarioError(
                f"scenario table[{i}]: 'wilds' must name one natural card per joker or wild "
                f"card ({nwild} wild cards, {len(wilds)} wilds)"
            )
        it = iter(wilds)
        stands = [next(it) if rules.is_wild(c) else c for c in cards]
        shape = shape_of(rules, cards, stands)
        if shape is not None and m.get("kind", shape[0]) != shape[0]:
            raise ScenarioError(f"scenario table[{i}].kind={m['kind']!r} but the cards make a "
                                f"{shape[0]}")
        if shape is None:
            raise ScenarioError(
                f"scenario table[{i}] {' '.join(m['cards'])} is not a valid set or run under "
                f"{rules.name} (runs low to high, wilds naming what each joker stands for)"
            )
        if shape[0] == "set":
            tm = TableMeld(owner, "set", shape[1], 0, 0, cards, stands)
        else:
            tm = TableMeld(owner, "run", shape[1], shape[2], shape[3], cards, stands)
        table.append(tm)
        for t in cards:
            placed[t] += 1
    return table


def _load_piles(st: ContractState, game: ContractGame, d: dict[str, Any], placed: list[int],
                to_deal: list[int], rng: np.random.Generator) -> None:
    """The discard pile and the stock: the cards given, then the unplaced cards shuffled by
    ``rng``, from which the hands not given are dealt first."""
    rules, n = game.rules, game.num_players
    hand_size = rules.hand_sizes[st.deal - 1]
    discard = cards_at(d.get("discard", []), "discard") if "discard" in d else None
    stock_top = cards_at(d.get("stock", []), "stock")
    for t in stock_top:
        placed[t] += 1
    if discard is not None:
        for t in discard:
            placed[t] += 1
    rest = unplaced_cards(game.deck, placed, rules.name, n, rng)
    if to_deal:
        # Deal the hands not given (every seat's when there is no ``hands``) from the
        # unplaced cards, one at a time round the table as at the start of a deal.
        if len(rest) < hand_size * len(to_deal):
            raise ScenarioError("scenario leaves too few cards to deal the hands")
        for i in range(hand_size * len(to_deal)):
            st.hands[to_deal[i % len(to_deal)]][rest[i]] += 1
        rest = rest[hand_size * len(to_deal):]
    if discard is None:
        if not rest:
            raise ScenarioError("scenario leaves no card to start the discard pile")
        discard = [rest.pop(0)]
    st.discard = discard
    # Stock: the listed cards on top (top first), then the rest; stored top-last.
    st.stock = (stock_top + rest)[::-1]
    if "discarders" in d:
        dl = d["discarders"]
        if len(dl) != len(discard):
            raise ScenarioError(
                f"scenario discarders must hold one seat (or -1) per discard ({len(discard)})"
            )
        st.discarder = [int(x) for x in dl]
    else:
        st.discarder = [-1] * len(discard)
        if len(discard) > 1:
            st.discarder[-1] = (st.to_move - 1) % n


def _load_seats(st: ContractState, d: dict[str, Any]) -> None:
    """Who has melded (every table meld's owner has, CR-5), and the per-seat counters."""
    n, table = st.n, st.table
    melded = d.get("melded", sorted({m.owner for m in table}))
    for s in melded:
        st.melded[seat_at(s, n, "melded[]")] = True
    in_progress = d.get("turn", {}).get("contract_left") is not None
    for m in table:
        # A contract being laid this turn (turn.contract_left) puts melds down before the
        # seat counts as melded.
        if not st.melded[m.owner] and not (in_progress and m.owner == st.to_move):
            raise ScenarioError(f"scenario table meld owned by seat {m.owner}, who has not melded")
    if "claims_used" in d:
        st.claims_used = int_list(d["claims_used"], n, "claims_used")
    if "kitty" in d:
        st.kitty = int(d["kitty"])
    if "pennies" in d:
        st.pennies = [float(x) for x in d["pennies"]]
    if "known" in d:
        for s, cards in enumerate(per_seat_cards(d["known"], n, "known")):
            for t in cards:
                st.known[s][t] += 1
            if any(st.known[s][t] > st.hands[s][t] for t in range(NUM_TYPES)):
                raise ScenarioError(f"scenario known[{s}] lists cards that hand {s} does not hold")
    if "deal_delta" in d:
        st.deal_delta = int_list(d["deal_delta"], n, "deal_delta")


def _check_phase(st: ContractState, game: ContractGame, phase: str) -> None:
    """The phase must be one play can reach with these cards: a claim or call window with
    seats to ask (C-8, CR-7, SH-6), every card once, a draw the stock can supply (CR-11)."""
    rules, n = game.rules, game.num_players
    if phase == "claim":
        if not rules.may_i:
            raise ScenarioError(f"scenario phase 'claim' but {rules.name} has no May I? claims")
        if not st.claim_queue or st.to_move in st.claim_queue or not st.discard:
            raise ScenarioError("scenario phase 'claim' needs turn.claim_queue (seats to ask, "
                                "not the player to move) and a discard to claim")
    if phase == "call":
        if (not st.claim_queue or len(st.discard) < 1 or st.discarder[-1] < 0
                or st.discarder[-1] in st.claim_queue or not st._layoffs_of(st.discard[-1])):
            raise ScenarioError("scenario phase 'call' needs turn.claim_queue (seats to ask, not "
                                "the discarder), a top discard with its discarder, and a table "
                                "meld it fits (SH-6)")
    if st.announced and (not st.rules.shanghai or not st.discard):
        raise ScenarioError("scenario turn.announced needs Shanghai calls (SH-6) and a top "
                            "discard that was announced")
    if not -1 <= st.last_claimer < n:
        raise ScenarioError(f"scenario turn.last_claimer={st.last_claimer} must be -1 or a seat")
    if sum(st.zone_counts()) != game.total_cards:
        raise ScenarioError("scenario does not hold every card of the packs exactly once")
    if phase == "claim":
        barred = [s for s in st.claim_queue if not st._claim_eligible(s)]
        if barred:
            raise ScenarioError(
                f"scenario turn.claim_queue holds seats that may not claim the top discard: "
                f"{barred} (C-8/CR-7: its discarder, the previous claimant, a seat at its claim "
                f"limit, or penalty cards the stock cannot supply)")
    if phase == "draw" and not st._stock_can_supply(1):
        raise ScenarioError(
            "scenario phase 'draw' with an empty stock and at most one discard: nothing can be "
            "reshuffled (C-7), so the deal ended before this turn (CR-11)")


def _load_turn(st: ContractState, turn: dict[str, Any], n: int) -> None:
    """Turn sub-state of a scenario (see the schema; types and ranges are checked already)."""
    st.turn_number = int(turn.get("number", 1))
    st.melded_turn = [(-1 if not st.melded[s] else 0) for s in range(n)]
    if "melded_turn" in turn:
        st.melded_turn = [int(x) for x in turn["melded_turn"]]
    cl = turn.get("contract_left")
    st.contract_left = None if cl is None else [(str(k), int(v)) for k, v in cl]
    st.contract_laid = [(str(x[0]),) + tuple(int(v) for v in x[1:])
                        for x in turn.get("contract_laid", [])]
    st.jokers_owed = int(turn.get("jokers_owed", 0))
    ob, fb = turn.get("obligation"), turn.get("forbidden")
    st.obligation = card_at(ob, "turn.obligation") if ob is not None else -1
    st.forbidden = card_at(fb, "turn.forbidden") if fb is not None else -1
    st.claim_queue = [int(s) for s in turn.get("claim_queue", [])]
    st.last_claimer = int(turn.get("last_claimer", -1))
    st.announced = bool(turn.get("announced", False))
    st.went_out = int(turn.get("went_out", -1))
    if "last_deal_delta" in turn:
        st.last_deal_delta = [int(x) for x in turn["last_deal_delta"]]


def _check_turn(st: ContractState, phase: str) -> None:
    """The turn data must be what play can reach in ``phase`` (issue 16: inconsistent
    ``contract_left``, ``jokers_owed`` or ``obligation`` left the actor without a move a few
    steps later, or named shapes the action table does not have)."""
    _check_melded_turns(st)
    _check_contract_progress(st, phase)
    _check_turn_flags(st, phase)
    if phase not in (CLAIM, CALL) and st.claim_queue:
        raise ScenarioError("scenario turn.claim_queue is only for phases 'claim' and 'call'")
    if phase in (CLAIM, CALL) and len(set(st.claim_queue)) != len(st.claim_queue):
        raise ScenarioError("scenario turn.claim_queue lists a seat twice")
    if st.went_out >= 0 and (not st.is_deal_over or st.hand_size(st.went_out)):
        raise ScenarioError(f"scenario turn.went_out={st.went_out}: set only once the deal is "
                            "over, for a seat with an empty hand")


def _check_melded_turns(st: ContractState) -> None:
    """``melded_turn`` is the turn a seat met its contract, -1 for a seat that has not."""
    for s in range(st.n):
        mt = st.melded_turn[s]
        if st.melded[s] and not 0 <= mt <= st.turn_number:
            raise ScenarioError(f"scenario turn.melded_turn[{s}]={mt}: seat {s} has melded, so "
                                f"it is the turn it met its contract, 0..turn.number")
        if not st.melded[s] and mt != -1:
            raise ScenarioError(f"scenario turn.melded_turn[{s}]={mt} but seat {s} has not "
                                "melded (-1)")


def _check_contract_progress(st: ContractState, phase: str) -> None:
    """Contract progress (CR-5): melds of to_move's contract laid this turn, the rest to lay."""
    rules, seat = st.rules, st.to_move
    if st.contract_left is None:
        if st.contract_laid:
            raise ScenarioError("scenario turn.contract_laid without turn.contract_left: the "
                                "contract melds laid this turn are listed only while the "
                                "contract is in progress")
    else:
        if phase != PLAY or st.melded[seat]:
            raise ScenarioError("scenario turn.contract_left: a contract is in progress only in "
                                "phase 'play', for a player to move who has not melded")
        if not st.contract_laid or not st.contract_left:
            raise ScenarioError("scenario turn.contract_left and turn.contract_laid: a contract "
                                "in progress has melds laid and melds left (else it is null)")
        c = rules.contracts[st.deal - 1]
        reqs = [("set", k) for k in c.sets] + [("run", k) for k in c.runs]
        exact = st.contract_ctx().exact_sizes  # the engine's own test (a CR-13 run may be longer)
        for i, sh in enumerate(st.contract_laid):
            j = req_for_shape(reqs, sh, exact) if _shape_ok(sh) else None
            if j is None:
                raise ScenarioError(f"scenario turn.contract_laid[{i}]={list(sh)} is not a meld "
                                    f"deal {st.deal}'s contract still needs ({reqs})")
            reqs.pop(j)
        if sorted(reqs) != sorted(st.contract_left):
            raise ScenarioError(f"scenario turn.contract_left={[list(r) for r in st.contract_left]}"
                                f" but deal {st.deal}'s contract less the melds laid leaves "
                                f"{[list(r) for r in reqs]}")
        mine = sorted(_table_shape(m) for m in st.table if m.owner == seat)
        if mine != sorted(st.contract_laid):
            raise ScenarioError("scenario turn.contract_laid must be the shapes of to_move's "
                                f"table melds ({[list(x) for x in mine]}), laid this turn")


def _check_turn_flags(st: ContractState, phase: str) -> None:
    """This turn's data (CR-8's freed jokers, SP-4's dug and taken cards)."""
    rules, seat = st.rules, st.to_move
    hand = st.hands[seat]
    # This turn's data (CR-8's freed jokers, SP-4's dug and taken cards): clear at
    # the start of a turn (draw, claim), checked against the hand in play, and left as the
    # turn ended it in a Shanghai call window or once the deal is over (the engine clears it
    # only when the next turn begins).
    flags = (("jokers_owed", st.jokers_owed > 0, rules.joker_swap, "joker swaps (CR-8)"),
             ("obligation", st.obligation >= 0, rules.dig, "digging (SP-4)"),
             ("forbidden", st.forbidden >= 0, rules.no_discard_taken,
              "a taken discard that may not be discarded (SP-4)"))
    for name, is_set, allowed, what in flags:
        if is_set and (phase in (DRAW, CLAIM) or not allowed):
            raise ScenarioError(f"scenario turn.{name} is set, but it is only for a turn in "
                                f"progress (not phase {phase!r}) of a game with {what}")
    if phase == PLAY:
        if st.jokers_owed and not st.melded[seat]:
            raise ScenarioError("scenario turn.jokers_owed: only a player who has melded swaps "
                                "jokers (CR-8)")
        if hand[JOKER] < st.jokers_owed:
            raise ScenarioError(f"scenario turn.jokers_owed={st.jokers_owed} but player_{seat} "
                                f"holds {hand[JOKER]} jokers")
        if st.obligation >= 0 and not hand[st.obligation]:
            raise ScenarioError(f"scenario turn.obligation={card_str(st.obligation)} is not in "
                                f"the hand of player_{seat}")


def _shape_ok(sh: tuple) -> bool:
    """A shape the action table can name: a run low to high within the ranks."""
    return sh[0] == "set" or sh[2] <= sh[3]


def _table_shape(m: TableMeld) -> tuple:
    return ("set", m.key, len(m.cards)) if m.kind == "set" else ("run", m.key, m.lo, m.hi)
