"""Manipulation Rummy positions as plain data: ``state_to_dict`` and ``state_from_dict``.

Schema (JSON-serialisable; cards are card strings, a joker on the table is written ``JK=7H``:
the joker standing for the seven of hearts, MR-5):

=================  ===============================================================================
key                meaning
=================  ===============================================================================
``deal``           deal number, 1-based
``dealer``         dealer seat
``to_move``        seat whose turn it is (default: the seat after the dealer)
``phase``          absent: the start of ``to_move``'s turn, whose first draw the engine makes
                   from ``stock`` (none in the extra turns of MR-9); ``meld`` (after the draws
                   in ``turn.draws``), ``knock``, ``deal_over``, ``game_over``: as given
``hands``          one list of cards per seat; ``null`` for a seat (or no ``hands`` key) deals
                   ``hand_size`` cards to it from the unplaced cards
``stock``          stock cards, top card first
``table``          the table as a list of melds (each a list of cards); any arrangement will do,
                   since the table is a multiset (MR-4); out of a meld it must be valid (MR-3)
``points``         game totals (MR-8, MR-10), higher is better
``scores``         the same in the package's "lower is better" convention (minus ``points``);
                   give one of the two
``deals_won``      deals each seat has won (MR-10)
``deals_played``   deals finished before this position (default ``deal - 1``)
``turn``           ``number``; ``draws`` (draws of this turn, skipped ones included, MR-2);
                   ``melding`` (a meld is in progress: the table may be unfinished);
                   ``added`` (a hand card went to the table this turn, MR-4); ``pending`` (freed
                   jokers to play again, MR-5); ``locked`` (table jokers played this turn, by the
                   card they stand for: they keep their meaning to the end of the turn);
                   ``final_round`` and ``final_left`` (MR-9: extra turns left, the current one
                   included); ``knocker``, ``winners``, ``result``, ``last_deal_points``
``zones``          (output only) every place a card can be, each physical card exactly once:
                   ``hand:<seat>``, ``stock``, ``table`` (the table's jokers as ``JK``)
=================  ===============================================================================

Cards the scenario places nowhere are shuffled by the seeded generator: first the hands not given,
then the rest of the stock below any stock cards it lists. Anything inconsistent is a
:class:`~rummy_env.errors.ScenarioError` naming the problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import JOKER, NUM_NATURAL, NUM_TYPES, card_str
from rummy_env.errors import ScenarioError
from rummy_env.manipulation import solver
from rummy_env.manipulation.state import (
    DEAL_OVER, GAME_OVER, KNOCK, MELD, PHASES, RESULTS, ManipulationGame, ManipulationState,
)
# The writer lives with the state, so that the state never imports this module (the reader);
# re-exported under its old name.
from rummy_env.manipulation.state import state_to_dict as state_to_dict
from rummy_env.scenario_schema import CARDS, Bool, Int, List, Null, Schema, Seat, Str
from rummy_env.scenario_util import (
    card_at, cards_at, int_list, is_int, scenario_start, seat_at, unplaced_cards, verify_built,
)

#: Manipulation Rummy's keys on top of the common ones (scenario_schema.COMMON): no discard
#: pile; table cards may be ``JK=7H``; ``phase`` may be null (the start of a turn).
SCHEMA = Schema("manipulation", {
    "phase": Null(Str(PHASES)),
    "table": List(CARDS),
    "points": List(Int(), per_seat=True),
    "deals_won": List(Int(0), per_seat=True),
}, {
    "draws": Int(0, 3),
    "melding": Bool(),
    "added": Bool(),
    "pending": Int(0, 200),
    "locked": CARDS,
    "final_round": Bool(),
    "final_left": Int(0, 64),
    "knocker": Seat(none=True),
    "winners": List(Seat(), unique=True),
    "result": Null(Str(RESULTS)),
    "last_deal_points": List(Int(), per_seat=True),
})


def _table_card(text: Any, where: str) -> tuple[int, bool]:
    """``(type, is_joker)`` of a table card: ``7H`` or ``JK=7H``."""
    if isinstance(text, str) and "=" in text:
        head, _, tail = text.partition("=")
        if card_at(head, where) != JOKER:
            raise ScenarioError(f"scenario {where}: {text!r} binds a card that is not a joker")
        t = card_at(tail, where)
        if t == JOKER:
            raise ScenarioError(f"scenario {where}: a joker stands for a natural card, not "
                                f"{text!r} (MR-5)")
        return t, True
    t = card_at(text, where)
    if t == JOKER:
        raise ScenarioError(f"scenario {where}: a joker on the table must say what it stands "
                            "for, e.g. 'JK=7H' (MR-5)")
    return t, False


def state_from_dict(game: ManipulationGame, d: dict[str, Any], rng: np.random.Generator,
                    verify: bool = True) -> ManipulationState:
    """Build a position from plain data (see the module docstring), validated: the declared
    schema first, then the meaning of each part, then (``verify``) the built position's
    round trip (:func:`~rummy_env.scenario_util.verify_built`)."""
    rules, n = game.rules, game.num_players
    st = ManipulationState(game)
    st.deal, st.dealer, st.to_move = scenario_start(d, SCHEMA, rules.name, n, rules.num_deals, rng)
    phase = d.get("phase")
    if phase is not None and phase not in PHASES:
        raise ScenarioError(f"scenario phase={phase!r}; allowed: absent, {', '.join(PHASES)}")
    _load_scores(st, d)

    placed = [0] * NUM_TYPES
    to_deal = _load_hands(st, d, placed)
    _load_table(st, d, placed)
    turn = d.get("turn", {})
    pending = turn.get("pending", 0)
    if not is_int(pending) or pending < 0:
        raise ScenarioError(f"scenario turn.pending={pending!r} must be an int >= 0")
    placed[JOKER] += pending
    stock_top = cards_at(d.get("stock", []), "stock")
    for t in stock_top:
        placed[t] += 1
    rest = unplaced_cards(game.deck, placed, rules.name, n, rng)
    for s in to_deal:
        k = rules.hand_size
        if len(rest) < k:
            raise ScenarioError("scenario leaves too few cards to deal the hands")
        for t in rest[:k]:
            st.hands[s][t] += 1
        rest = rest[k:]
    st.stock = (stock_top + rest)[::-1]
    _load_turn(st, turn, n, pending)
    if phase is None:
        _start_turn(st, turn)
    else:
        _check_phase(st, phase)
    if sum(st.zone_counts()) != game.total_cards:
        raise ScenarioError("scenario does not hold every card of the packs exactly once")
    if verify:
        verify_built(st, lambda again: state_from_dict(game, again, np.random.default_rng(0), verify=False),
                     live=st.current_player >= 0)
    return st


def _load_scores(st: ManipulationState, d: dict[str, Any]) -> None:
    """Points (scores are minus points), deals won and deals played."""
    n = st.n
    if "points" in d and "scores" in d and [-x for x in d["scores"]] != list(d["points"]):
        raise ScenarioError("scenario gives both points and scores and they disagree "
                            "(scores = minus points)")
    if "points" in d:
        st.points = int_list(d["points"], n, "points")
    elif "scores" in d:
        st.points = [-x for x in int_list(d["scores"], n, "scores")]
    if "deals_won" in d:
        st.deals_won = int_list(d["deals_won"], n, "deals_won", lo=0)
    dp = d.get("deals_played", st.deal - 1)
    if not is_int(dp) or dp < 0:
        raise ScenarioError(f"scenario deals_played={dp!r} must be an int >= 0")
    st.deals_played = int(dp)


def _load_hands(st: ManipulationState, d: dict[str, Any], placed: list[int]) -> list[int]:
    """The hands given (counted in ``placed``); returns the seats whose hands are to deal."""
    n = st.n
    hv = d.get("hands")
    if hv is None:
        to_deal = list(range(n))
    else:
        if not isinstance(hv, (list, tuple)) or len(hv) != n:
            raise ScenarioError(f"scenario hands must be a list of {n} card lists (or null to "
                                "deal that hand), one per seat")
        to_deal = [s for s in range(n) if hv[s] is None]
        for s in range(n):
            if hv[s] is not None:
                for t in cards_at(hv[s], f"hands[{s}]"):
                    st.hands[s][t] += 1
                    placed[t] += 1
    return to_deal


def _load_table(st: ManipulationState, d: dict[str, Any], placed: list[int]) -> None:
    """The table's cards (natural, or jokers bound to the card they stand for)."""
    table = d.get("table", [])
    if not isinstance(table, (list, tuple)):
        raise ScenarioError("scenario table must be a list of melds (lists of cards)")
    for i, meld in enumerate(table):
        if not isinstance(meld, (list, tuple)):
            raise ScenarioError(f"scenario table[{i}] must be a list of cards")
        for x in meld:
            t, is_j = _table_card(x, f"table[{i}]")
            if is_j:
                st.table_jok[t] += 1
                placed[JOKER] += 1
            else:
                st.table_nat[t] += 1
                placed[t] += 1


def _start_turn(st: ManipulationState, turn: dict[str, Any]) -> None:
    """No phase given: the position is the start of ``to_move``'s turn."""
    if st.melding or st.pending or st.draws:
        raise ScenarioError("scenario turn.melding/pending/draws need an explicit phase")
    if not st.final_round and not st.stock:
        raise ScenarioError("scenario starts a turn with an empty stock outside the extra "
                            "turns of MR-9 (set turn.final_round)")
    if not solver.is_valid_table(st.table_counts()):
        raise ScenarioError("scenario table does not split into valid groups and sequences "
                            "(MR-3)")
    number = st.turn_number
    st.begin_turn()
    st.turn_number = number if "number" in turn else st.turn_number


def _check_phase(st: ManipulationState, phase: str) -> None:
    """An explicit phase: the turn data must fit it (MR-2 to MR-7)."""
    rules = st.rules
    st.phase = phase
    if phase == MELD:
        if not st.final_round and not 1 <= st.draws <= 2:
            raise ScenarioError("scenario phase 'meld' needs turn.draws 1 or 2 (MR-2: no "
                                "meld after the third draw)")
        if not st.melding and (st.pending or st.added or any(st.locked)):
            raise ScenarioError("scenario turn.pending/added/locked need turn.melding")
        if st.melding and not solver.can_complete(st.query()):
            raise ScenarioError("scenario meld in progress cannot end with a valid table "
                                "(MR-4, MR-5)")
    elif st.melding or st.pending:
        raise ScenarioError(f"scenario phase {phase!r} with a meld in progress")
    if not st.melding and not solver.is_valid_table(st.table_counts()):
        raise ScenarioError("scenario table does not split into valid groups and sequences "
                            "(MR-3)")
    if phase == KNOCK and st.hand_value(st.to_move) > rules.knock_limit:
        raise ScenarioError(f"scenario phase 'knock' but player_{st.to_move}'s hand is worth "
                            f"{st.hand_value(st.to_move)} > {rules.knock_limit} (MR-7)")
    if phase in (DEAL_OVER, GAME_OVER):
        st._legal = []


def _load_turn(st: ManipulationState, turn: dict, n: int, pending: int) -> None:
    def flag(name: str) -> bool:
        v = turn.get(name, False)
        if not isinstance(v, bool):
            raise ScenarioError(f"scenario turn.{name}={v!r} must be true or false")
        return v

    num = turn.get("number", 1)
    if not is_int(num) or num < 0:
        raise ScenarioError(f"scenario turn.number={num!r} must be an int >= 0")
    st.turn_number = int(num)
    draws = turn.get("draws", 0)
    if not is_int(draws) or not 0 <= draws <= 3:
        raise ScenarioError(f"scenario turn.draws={draws!r} must be in 0..3")
    st.draws = int(draws)
    st.melding = flag("melding")
    st.added = flag("added")
    st.pending = pending
    for t in cards_at(turn.get("locked", []), "turn.locked"):
        if t == JOKER:
            raise ScenarioError("scenario turn.locked lists the cards jokers stand for, not JK")
        st.locked[t] += 1
    for t in range(NUM_NATURAL):
        if st.locked[t] > st.table_jok[t]:
            raise ScenarioError(f"scenario turn.locked has {card_str(t)} but no such joker on "
                                "the table")
    st.final_round = flag("final_round")
    fl = turn.get("final_left", n if st.final_round else 0)
    if not is_int(fl) or not 0 <= fl <= n or (st.final_round and fl < 1):
        raise ScenarioError(f"scenario turn.final_left={fl!r} must be in 1..{n} in the extra "
                            "turns (MR-9), else 0")
    st.final_left = int(fl)
    kn = turn.get("knocker", -1)
    if not is_int(kn) or not -1 <= kn < n:
        raise ScenarioError(f"scenario turn.knocker={kn!r} must be -1 or a seat")
    st.knocker = int(kn)
    w = turn.get("winners", [])
    if not isinstance(w, (list, tuple)):
        raise ScenarioError("scenario turn.winners must be a list of seats")
    st.winners = [seat_at(x, n, "turn.winners[]") for x in w]
    res = turn.get("result")
    if res is not None and res not in RESULTS:
        raise ScenarioError(f"scenario turn.result={res!r}; allowed: None, {', '.join(RESULTS)}")
    st.result = res
    if "last_deal_points" in turn:
        st.last_deal_points = int_list(turn["last_deal_points"], n, "turn.last_deal_points")
