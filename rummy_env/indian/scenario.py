"""Indian Rummy positions as plain data: ``state_to_dict`` and ``state_from_dict``.

Schema (JSON-serialisable; card lists are card strings):

=================  ===============================================================================
key                meaning
=================  ===============================================================================
``deal``           deal number, 1-based
``dealer``         dealer seat
``to_move``        seat whose turn it is (default: the seat after the dealer)
``phase``          ``draw`` (default: the start of ``to_move``'s turn), ``play`` (``to_move`` has
                   drawn and holds 14 cards), ``deal_over``, ``game_over``
``hands``          one list of cards per seat (a packed seat's is empty); ``null`` for a seat
                   (or no ``hands`` key) deals that hand from the unplaced cards
``stock``          stock cards, top card first
``discard``        discard pile, bottom first, top last
``discarders``     who discarded each pile card (-1 for the first discard); default -1 for every
                   card except the top one, which the active seat before ``to_move`` discarded
``indicator``      the card turned up (IR-2); its rank is wild, a printed joker leaves only the
                   jokers wild (default: a card drawn from the unplaced ones)
``out_of_play``    cards of players who packed after their first turn (IR-7), face down
``packed``         seats that have packed (IR-7)
``owed``           pack cost owed by each seat (0 if it has not packed); default for a packed
                   seat: ``first_pack_cost`` if packing was its only turn, else
                   ``later_pack_cost``
``turns_taken``    turns each seat has had this deal, a draw or a pack (IR-10); default 0,
                   1 for ``to_move`` in phase ``play`` and for packed seats
``known``          cards each seat took face up from the discard pile and still holds (public)
``scores``         net points each seat has paid over the game before this deal's settlement
``deal_delta``     what each seat has paid in this deal (zero until it is settled)
``deals_played``   deals finished before this position (default ``deal - 1``)
``turn``           ``number`` (turns started this deal), ``taken`` (card taken from the discard
                   pile this turn, which may not be discarded), ``winner``, ``result``,
                   ``last_deal_delta``
``zones``          (output only) every place a card can be, each physical card exactly once:
                   ``hand:<seat>``, ``stock``, ``discard``, ``indicator``, ``out_of_play``
=================  ===============================================================================

A partial scenario is completed: the indicator (if not given), then the hands not given
(``hand_size`` cards per seat still playing, one more for ``to_move`` in phase ``play``), then the
first discard (if no pile is given) are drawn from the cards it places nowhere, shuffled by the
seeded generator; the remaining cards go to the stock below any stock cards it lists. Anything
inconsistent is a :class:`~rummy_env.errors.ScenarioError` naming the problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import NUM_TYPES, card_str
from rummy_env.errors import ScenarioError
from rummy_env.indian.state import DRAW, PHASES, PLAY, RESULTS, IndianGame, IndianState
# The writer lives with the state, so that the state never imports this module (the reader);
# re-exported under its old name.
from rummy_env.indian.state import state_to_dict as state_to_dict
from rummy_env.scenario_schema import CARD, CARDS, Int, List, Null, Num, Schema, Seat, Str
from rummy_env.scenario_util import (
    card_at, cards_at, int_list, is_int, per_seat_cards, scenario_start, seat_at, unplaced_cards,
    verify_built,
)

#: Indian Rummy's keys on top of the common ones (scenario_schema.COMMON); its scores are
#: numbers (IR-9's payments may be fractional).
SCHEMA = Schema("indian", {
    "phase": Str(PHASES),
    "discard": CARDS,
    "discarders": List(Seat(none=True)),
    "indicator": CARD,
    "out_of_play": CARDS,
    "packed": List(Seat(), unique=True),
    "owed": List(Num(0), per_seat=True),
    "turns_taken": List(Int(0), per_seat=True),
    "known": List(CARDS, per_seat=True),
    "scores": List(Num(), per_seat=True),
    "deal_delta": List(Num(), per_seat=True),
}, {
    "taken": Null(CARD),
    "winner": Seat(none=True),
    "result": Null(Str(RESULTS)),
    "last_deal_delta": List(Num(), per_seat=True),
})














def _num_list(v: Any, n: int, name: str) -> list[float]:
    if not isinstance(v, (list, tuple)) or len(v) != n or any(
        not isinstance(x, (int, float, np.integer, np.floating)) or isinstance(x, bool)
        or not np.isfinite(x) for x in v
    ):
        raise ScenarioError(f"scenario {name} must be a list of {n} numbers, got {v!r}")
    return [float(x) for x in v]


def state_from_dict(game: IndianGame, d: dict[str, Any], rng: np.random.Generator,
                    verify: bool = True) -> IndianState:
    """Build a position from plain data (see the module docstring), validated: the declared
    schema first, then the meaning of each part, then (``verify``) the built position's
    round trip (:func:`~rummy_env.scenario_util.verify_built`)."""
    rules, n = game.rules, game.num_players
    st = IndianState(game)
    st.deal, st.dealer, st.to_move = scenario_start(d, SCHEMA, rules.name, n, rules.num_deals, rng)
    phase = d.get("phase", DRAW)
    if phase not in PHASES:
        raise ScenarioError(f"scenario phase={phase!r}; allowed: {', '.join(PHASES)}")
    live = phase in (DRAW, PLAY)
    if "scores" in d:
        st.scores = _num_list(d["scores"], n, "scores")
    _load_packing(st, d, phase, live)
    _load_cards(st, game, d, phase, live, rng)
    _load_known(st, d)
    dp = d.get("deals_played", st.deal - 1)
    if not is_int(dp) or dp < 0:
        raise ScenarioError(f"scenario deals_played={dp!r} must be an int >= 0")
    st.deals_played = int(dp)
    _load_turn(st, d.get("turn", {}), n)
    st.phase = phase
    _check_live(st, phase, live)
    if sum(st.zone_counts()) != game.total_cards:
        raise ScenarioError("scenario does not hold every card of the packs exactly once")
    if verify:
        verify_built(st, lambda again: state_from_dict(game, again, np.random.default_rng(0), verify=False), live)
    return st


def _load_packing(st: IndianState, d: dict[str, Any], phase: str, live: bool) -> None:
    """Who has packed, the turns each seat has taken and the pack costs owed (IR-7, IR-10)."""
    rules, n = st.rules, st.n
    packed = d.get("packed", [])
    if not isinstance(packed, (list, tuple)):
        raise ScenarioError("scenario packed must be a list of seats")
    for s in packed:
        st.packed[seat_at(s, n, "packed[]")] = True
    if live:
        if st.packed[st.to_move]:
            raise ScenarioError(f"scenario to_move={st.to_move} has packed (IR-7)")
        if len(st.active()) < 2:
            raise ScenarioError("scenario leaves fewer than two players who have not packed; "
                                "the last one would have won at once (IR-7)")
    if "turns_taken" in d:
        st.turns_taken = int_list(d["turns_taken"], n, "turns_taken", lo=0)
    else:
        st.turns_taken = [1 if (st.packed[s] or (phase == PLAY and s == st.to_move)) else 0
                          for s in range(n)]
    for s in range(n):
        if st.packed[s] and not st.turns_taken[s]:
            raise ScenarioError(f"scenario seat {s} packed but turns_taken[{s}] is 0 "
                                "(packing is a turn, IR-10)")
    if live and phase == PLAY and not st.turns_taken[st.to_move]:
        raise ScenarioError("scenario phase 'play' but turns_taken[to_move] is 0 (it has drawn)")
    if "owed" in d:
        st.owed = _num_list(d["owed"], n, "owed")
        for s in range(n):
            if st.owed[s] < 0 or (st.owed[s] and not st.packed[s]):
                raise ScenarioError(f"scenario owed[{s}]={st.owed[s]} but only packed seats owe "
                                    "a pack cost (IR-7), never a negative one")
    else:
        st.owed = [float(rules.first_pack_cost if st.turns_taken[s] <= 1 else rules.later_pack_cost)
                   if st.packed[s] else 0.0 for s in range(n)]


def _load_cards(st: IndianState, game: IndianGame, d: dict[str, Any], phase: str, live: bool,
                rng: np.random.Generator) -> None:
    """The hands, the indicator, the discard pile, the stock and the cards out of play: the
    cards given, then the unplaced cards shuffled by ``rng`` (the indicator, the hands not
    given, the first discard, the stock, in that order)."""
    rules, n = game.rules, game.num_players
    placed = [0] * NUM_TYPES
    to_deal = _load_hands(st, d, placed)
    indicator = card_at(d["indicator"], "indicator") if "indicator" in d else None
    if indicator is not None:
        placed[indicator] += 1
    discard = cards_at(d["discard"], "discard") if "discard" in d else None
    stock_top = cards_at(d.get("stock", []), "stock")
    oop = cards_at(d.get("out_of_play", []), "out_of_play")
    for group in (discard or [], stock_top, oop):
        for t in group:
            placed[t] += 1
    rest = unplaced_cards(game.deck, placed, rules.name, n, rng)
    if indicator is None:
        if not rest:
            raise ScenarioError("scenario leaves no card for the indicator")
        indicator = rest.pop(0)
    st.set_indicator(indicator)
    if to_deal and not live:
        raise ScenarioError("scenario without hands is only allowed in phases draw and play")
    for s in to_deal:
        k = 0 if st.packed[s] else rules.hand_size + (phase == PLAY and s == st.to_move)
        if len(rest) < k:
            raise ScenarioError("scenario leaves too few cards to deal the hands")
        for t in rest[:k]:
            st.hands[s][t] += 1
        rest = rest[k:]
    if discard is None:
        if not rest:
            raise ScenarioError("scenario leaves no card to start the discard pile")
        discard = [rest.pop(0)]
    st.discard = discard
    for t in discard:
        st.pile_counts[t] += 1
    st.stock = (stock_top + rest)[::-1]  # listed cards on top (top first), stored top-last
    st.out_of_play = sorted(oop)
    if "discarders" in d:
        dl = d["discarders"]
        if not isinstance(dl, (list, tuple)) or len(dl) != len(discard) or any(
            not is_int(x) or not -1 <= x < n for x in dl
        ):
            raise ScenarioError(
                f"scenario discarders must hold one seat (or -1) per discard ({len(discard)})"
            )
        st.discarder = [int(x) for x in dl]
    else:
        st.discarder = [-1] * len(discard)
        if len(discard) > 1:
            prev = next((st.to_move - k) % n for k in range(1, n + 1)
                        if not st.packed[(st.to_move - k) % n])
            st.discarder[-1] = prev


def _load_hands(st: IndianState, d: dict[str, Any], placed: list[int]) -> list[int]:
    """The hands given (counted in ``placed``); returns the seats whose hands are to deal."""
    n = st.n
    hv = d.get("hands")
    if hv is None:
        return list(range(n))
    if not isinstance(hv, (list, tuple)) or len(hv) != n:
        raise ScenarioError(f"scenario hands must be a list of {n} card lists (or null to "
                            "deal that hand), one per seat")
    for s in range(n):
        if hv[s] is not None:
            for t in cards_at(hv[s], f"hands[{s}]"):
                st.hands[s][t] += 1
                placed[t] += 1
    return [s for s in range(n) if hv[s] is None]


def _load_known(st: IndianState, d: dict[str, Any]) -> None:
    """The face-up takes each seat still holds, and the deal's score changes so far."""
    n = st.n
    if "known" in d:
        for s, cards in enumerate(per_seat_cards(d["known"], n, "known")):
            for t in cards:
                st.known[s][t] += 1
            if any(st.known[s][t] > st.hands[s][t] for t in range(NUM_TYPES)):
                raise ScenarioError(f"scenario known[{s}] lists cards that hand {s} does not hold")
        st.known_count = sum(sum(k) for k in st.known)
    if "deal_delta" in d:
        st.deal_delta = _num_list(d["deal_delta"], n, "deal_delta")


def _check_live(st: IndianState, phase: str, live: bool) -> None:
    """Consistency of the live position: hand sizes, the stock, the card just taken."""
    rules, n = st.rules, st.n
    if live:
        h = rules.hand_size
        for s in range(n):
            want = 0 if st.packed[s] else h + (phase == PLAY and s == st.to_move)
            if st.hand_size(s) != want:
                what = "a packed seat holds no cards (IR-7)" if st.packed[s] else (
                    f"{h} cards, {h + 1} for the player to move after drawing (IR-1, IR-5)")
                raise ScenarioError(
                    f"scenario hand {s} holds {st.hand_size(s)} cards; want {want}: {what}")
        if phase == DRAW and not st.stock:
            raise ScenarioError("scenario phase 'draw' with an empty stock: the deal ended when "
                                "the last stock card was taken (IR-8)")
        if phase == DRAW and st.taken >= 0:
            raise ScenarioError("scenario turn.taken is set in phase 'draw' (nothing drawn yet)")
        if phase == PLAY and st.taken >= 0 and not st.hands[st.to_move][st.taken]:
            raise ScenarioError(f"scenario turn.taken={card_str(st.taken)} is not in the hand of "
                                f"player_{st.to_move}")
    elif st.taken >= 0:
        raise ScenarioError("scenario turn.taken is set but the deal is over")

def _load_turn(st: IndianState, turn: Any, n: int) -> None:
    """Turn sub-state of a scenario (see the schema)."""
    num = turn.get("number", 1)
    if not is_int(num) or num < 0:
        raise ScenarioError(f"scenario turn.number={num!r} must be an int >= 0")
    st.turn_number = int(num)
    taken = turn.get("taken")
    st.taken = card_at(taken, "turn.taken") if taken is not None else -1
    winner = turn.get("winner", -1)
    if not is_int(winner) or not -1 <= winner < n:
        raise ScenarioError(f"scenario turn.winner={winner!r} must be -1 or a seat")
    st.winner = int(winner)
    result = turn.get("result")
    if result is not None and result not in RESULTS:
        raise ScenarioError(f"scenario turn.result={result!r}; allowed: None, {', '.join(RESULTS)}")
    st.result = result
    if "last_deal_delta" in turn:
        st.last_deal_delta = _num_list(turn["last_deal_delta"], n, "turn.last_deal_delta")
