"""Gin Rummy positions as plain data: ``state_to_dict`` and ``state_from_dict``.

Schema (JSON-serialisable; card lists are card strings):

==================  ==============================================================================
key                 meaning
==================  ==============================================================================
``deal``            hand number, 1-based
``dealer``          dealer seat (0 or 1)
``to_move``         seat that acts (default: the non-dealer)
``phase``           ``first_upcard``, ``draw`` (default: the start of ``to_move``'s turn), ``play``
                    (``to_move`` has drawn and holds 11 cards), ``knock``, ``defend``,
                    ``deal_over``, ``game_over``
``hands``           one list of cards per seat (cards not laid on the table); ``null`` for a seat
                    (or no ``hands`` key) deals that hand from the unplaced cards
``stock``           stock cards, top card first
``discard``         discard pile, bottom first, top last
``upcard``          the first upcard of the hand (GR-2; default: the bottom discard); with
                    Oklahoma it sets the knock limit (GR-9)
``knock_limit``     the most deadwood a knock may have (default: from the rules and the upcard)
``upcard_refused``  both players passed the first upcard: ``to_move`` may only draw the stock
                    (GR-3)
``known``           cards each seat took face up from the discard pile and still holds (public)
``taken``           the card ``to_move`` took from the discard pile this turn (GR-4), or null
``knocker``         the seat that knocked (phases ``knock`` and ``defend``), or -1
``gin``             the knock is gin (default: the knocker's cards have no deadwood, GR-5)
``table``           melds laid, in order: ``{"owner": seat, "cards": [...]}``; a knocker's meld
                    lists the cards laid off on it too
``laid_off``        cards the defender laid off on the knocker's melds (GR-6)
``scores``          net points each seat has given away over the game (lower is better)
``points``          points each seat has scored over the game (GR-7, GR-9)
``deal_delta``      this hand's change of ``scores`` (zero until it is scored)
``deals_played``    hands finished before this position (default ``deal - 1``)
``turn``            ``number`` (turns started this hand), ``winner``, ``result``,
                    ``last_deal_delta``, ``deadwood`` (per seat, once scored)
``zones``           (output only) every place a card can be, each card exactly once:
                    ``hand:<seat>``, ``stock``, ``discard``, ``table``
==================  ==============================================================================

A partial scenario is completed: the hands not given (10 cards, 11 for ``to_move`` in phase
``play``), then the upcard (if no pile is given) are drawn from the cards it places nowhere,
shuffled by the seeded generator; the remaining cards go to the stock below any stock cards it
lists. Anything inconsistent is a :class:`~rummy_env.errors.ScenarioError` naming the problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import card_str
from rummy_env.errors import ScenarioError
from rummy_env.gin.melds import RANK_BITS, deadwood, value
from rummy_env.gin.state import (
    DEFEND, DRAW, FIRST_UPCARD, HAND_SIZE, KNOCK, PHASES, PLAY, RESULTS, GinGame, GinState,
)
# The writer lives with the state, so that the state never imports this module (the reader);
# re-exported under its old name.
from rummy_env.gin.state import state_to_dict as state_to_dict
from rummy_env.scenario_schema import CARD, CARDS, Bool, Dict, Int, List, Null, Schema, Seat, Str
from rummy_env.scenario_util import (
    card_at, cards_at, int_list, is_int, per_seat_cards, scenario_start, seat_at, verify_built,
)

#: Gin's keys on top of the common ones (scenario_schema.COMMON).
SCHEMA = Schema("gin", {
    "phase": Str(PHASES),
    "discard": CARDS,
    "upcard": Null(CARD),
    "knock_limit": Int(0, 10),
    "upcard_refused": Bool(),
    "known": List(CARDS, per_seat=True),
    "taken": Null(CARD),
    "knocker": Seat(none=True),
    "gin": Bool(),
    "table": List(Dict({"owner": Seat(), "cards": CARDS}, required=("owner", "cards"),
                       name="a meld")),
    "laid_off": CARDS,
    "points": List(Int(0), per_seat=True),
    "deal_delta": List(Int(), per_seat=True),
}, {
    "winner": Seat(none=True),
    "result": Null(Str(RESULTS)),
    "last_deal_delta": List(Int(), per_seat=True),
    "deadwood": List(Int(0), per_seat=True),
})


def is_meld(cards: int) -> bool:
    """A set of 3 or 4 cards of one rank, or a run of 3 or more of one suit, ace low (GR-1)."""
    n = cards.bit_count()
    if n < 3:
        return False
    low = cards & -cards
    t = low.bit_length() - 1
    if cards & RANK_BITS[t % 13] == cards:
        return True
    # a run: n consecutive bits within one suit
    return cards == ((1 << n) - 1) << t and t % 13 + n <= 13


def state_from_dict(game: GinGame, d: dict[str, Any], rng: np.random.Generator,
                    verify: bool = True) -> GinState:
    """Build a position from plain data (see the module docstring), validated: the declared
    schema first, then the meaning of each part, then (``verify``) the built position's
    round trip (:func:`~rummy_env.scenario_util.verify_built`)."""
    rules = game.rules
    st = GinState(game)
    st.deal, st.dealer, st.to_move = scenario_start(d, SCHEMA, rules.name, 2, rules.num_deals, rng)
    phase = d.get("phase", DRAW)
    if phase not in PHASES:
        raise ScenarioError(f"scenario phase={phase!r}; allowed: {', '.join(PHASES)}")
    live = phase not in ("deal_over", "game_over")

    # ---- where every card is
    owner = [""] * 52  # where each card is placed, "" where not yet
    to_deal = _load_hands(st, d, owner)
    discard, stock_top = _load_piles(d, owner)
    laid = _load_table(d, owner)
    discard = _deal_rest(st, owner, to_deal, discard, stock_top, phase, live, rng)

    # ---- the hand's public facts
    _load_public(st, d, phase, live, discard)
    _load_knock(st, d, phase, live, laid)
    if "scores" in d:
        st.scores = int_list(d["scores"], 2, "scores")
    if "points" in d:
        st.points = int_list(d["points"], 2, "points", lo=0)
    if "deal_delta" in d:
        st.deal_delta = int_list(d["deal_delta"], 2, "deal_delta")
    dp = d.get("deals_played", st.deal - 1)
    if not is_int(dp) or dp < 0:
        raise ScenarioError(f"scenario deals_played={dp!r} must be an int >= 0")
    st.deals_played = int(dp)
    _load_turn(st, d.get("turn", {}))
    st.phase = phase

    if live:
        _check_live(st, phase)
    if st.zone_counts() != list(game.deck):
        raise ScenarioError("scenario does not hold every card of the pack exactly once")
    if verify:
        verify_built(st, lambda again: state_from_dict(game, again, np.random.default_rng(0), verify=False), live)
    return st


def _place(owner: list[str], t: int, where: str) -> None:
    """Card ``t`` is at ``where``: a single pack places each card once (GR-1)."""
    if owner[t]:
        raise ScenarioError(f"scenario places {card_str(t)} twice ({owner[t]} and {where}); "
                            "a single pack has one of each card (GR-1)")
    owner[t] = where


def _load_hands(st: GinState, d: dict[str, Any], owner: list[str]) -> list[int]:
    """The hands given; returns the seats whose hands are to deal."""
    hv = d.get("hands")
    to_deal = [0, 1]
    if hv is not None:
        if not isinstance(hv, (list, tuple)) or len(hv) != 2:
            raise ScenarioError("scenario hands must be a list of 2 card lists (or null to deal "
                                "that hand), one per seat")
        to_deal = [s for s in (0, 1) if hv[s] is None]
        for s in (0, 1):
            if hv[s] is not None:
                for t in _naturals(cards_at(hv[s], f"hands[{s}]"), f"hands[{s}]"):
                    _place(owner, t, f"hands[{s}]")
                    st.hands[s] |= 1 << t
    return to_deal


def _load_piles(d: dict[str, Any], owner: list[str]) -> tuple[list[int] | None, list[int]]:
    """The discard pile given (None: none given) and the stock's listed top cards."""
    discard = None
    if "discard" in d:
        discard = _naturals(cards_at(d["discard"], "discard"), "discard")
        for t in discard:
            _place(owner, t, "discard")
    stock_top = _naturals(cards_at(d.get("stock", []), "stock"), "stock")
    for t in stock_top:
        _place(owner, t, "stock")
    return discard, stock_top


def _load_table(d: dict[str, Any], owner: list[str]) -> list[tuple[int, int]]:
    """The melds on the table, as ``(owner, card bits)``."""
    table = d.get("table", [])
    if not isinstance(table, (list, tuple)):
        raise ScenarioError("scenario table must be a list of {owner, cards} melds")
    laid: list[tuple[int, int]] = []
    for i, item in enumerate(table):
        if not isinstance(item, dict) or set(item) - {"owner", "cards"} or "cards" not in item:
            raise ScenarioError(f"scenario table[{i}] must be {{'owner': seat, 'cards': [...]}}")
        s = seat_at(item.get("owner"), 2, f"table[{i}].owner")
        m = 0
        for t in _naturals(cards_at(item["cards"], f"table[{i}].cards"), f"table[{i}].cards"):
            _place(owner, t, f"table[{i}]")
            m |= 1 << t
        if not is_meld(m):
            raise ScenarioError(f"scenario table[{i}] is not a meld: a set of 3-4 of a rank or "
                                "a run of 3+ of a suit, ace low (GR-1)")
        laid.append((s, m))

    return laid


def _deal_rest(st: GinState, owner: list[str], to_deal: list[int], discard: list[int] | None,
               stock_top: list[int], phase: str, live: bool,
               rng: np.random.Generator) -> list[int]:
    """The cards placed nowhere, shuffled by ``rng``: the hands not given, the upcard when no
    discard pile is given, then the stock under its listed cards; returns the discard pile."""
    rest = [t for t in range(52) if not owner[t]]
    rest = [rest[i] for i in rng.permutation(len(rest))]
    if to_deal and not live:
        raise ScenarioError("scenario without hands is only allowed while the hand is played")
    for s in to_deal:
        k = HAND_SIZE + (phase == PLAY and s == st.to_move)
        if len(rest) < k:
            raise ScenarioError("scenario leaves too few cards to deal the hands")
        for t in rest[:k]:
            st.hands[s] |= 1 << t
        rest = rest[k:]
    if discard is None:
        if not rest:
            raise ScenarioError("scenario leaves no card for the upcard")
        discard = [rest.pop(0)]
    st.discard = discard
    for t in discard:
        st.pile |= 1 << t
    st.stock = (stock_top + rest)[::-1]  # listed cards on top (top first), stored top-last
    return discard


def _load_public(st: GinState, d: dict[str, Any], phase: str, live: bool,
                 discard: list[int]) -> None:
    """The hand's public facts: the upcard and knock limit, a refused upcard (GR-3), the
    cards known to be held and the card just taken (GR-4)."""
    rules = st.rules
    if d.get("upcard") is not None:
        st.upcard = card_at(d["upcard"], "upcard")
        if st.upcard == 52:
            raise ScenarioError("scenario upcard: Gin Rummy has no jokers (GR-1)")
    elif discard:
        st.upcard = discard[0]
    elif live:
        raise ScenarioError("scenario with an empty discard pile must name the upcard")
    st.knock_limit = rules.knock_limit_for(st.upcard) if st.upcard >= 0 else rules.knock_card
    if "knock_limit" in d:
        kl = d["knock_limit"]
        if not is_int(kl) or not 0 <= kl <= 10:
            raise ScenarioError(f"scenario knock_limit={kl!r} must be an int in 0..10")
        st.knock_limit = int(kl)
    st.upcard_refused = bool(d.get("upcard_refused", False))
    if st.upcard_refused and not (phase == DRAW and st.to_move != st.dealer):
        raise ScenarioError("scenario upcard_refused is only for the non-dealer's draw after "
                            "both passed the first upcard (GR-3)")
    if "known" in d:
        for s, cards in enumerate(per_seat_cards(d["known"], 2, "known")):
            for t in cards:
                if not st.hands[s] >> t & 1:
                    raise ScenarioError(f"scenario known[{s}] lists {card_str(t)}, which hand "
                                        f"{s} does not hold")
                st.known[s] |= 1 << t
    taken = d.get("taken")
    if taken is not None:
        st.taken = card_at(taken, "taken")
        if phase != PLAY:
            raise ScenarioError("scenario taken is set outside phase 'play' (GR-4)")
        if st.taken == 52 or not st.hands[st.to_move] >> st.taken & 1:
            raise ScenarioError(f"scenario taken={taken!r} is not in the hand of "
                                f"player_{st.to_move}")
        st.known[st.to_move] |= 1 << st.taken


def _load_knock(st: GinState, d: dict[str, Any], phase: str, live: bool,
                laid: list[tuple[int, int]]) -> None:
    """The knocker, the melds laid and the cards laid off on them (GR-5, GR-6), and gin."""
    knocker = d.get("knocker", -1)
    if not is_int(knocker) or not -1 <= knocker <= 1:
        raise ScenarioError(f"scenario knocker={knocker!r} must be -1 or a seat")
    st.knocker = int(knocker)
    if phase in (KNOCK, DEFEND) and st.knocker < 0:
        raise ScenarioError(f"scenario phase {phase!r} needs a knocker")
    if phase in (FIRST_UPCARD, DRAW, PLAY) and st.knocker >= 0:
        raise ScenarioError(f"scenario phase {phase!r} has no knocker yet")
    for s, m in laid:
        if s == st.knocker:
            st.slots.append(m)
        st.melds[s].append(m)
    if "laid_off" in d:
        lo = 0
        for t in _naturals(cards_at(d["laid_off"], "laid_off"), "laid_off"):
            lo |= 1 << t
        on_knocker = 0
        for m in st.slots:
            on_knocker |= m
        if lo & ~on_knocker:
            raise ScenarioError("scenario laid_off lists cards that are not on the knocker's "
                                "melds (GR-6)")
        st.laid_off = lo
        st.melds[st.knocker] = [m & ~lo for m in st.slots] if st.knocker >= 0 else []
        for m in st.melds[st.knocker] if st.knocker >= 0 else []:
            if not is_meld(m):
                raise ScenarioError("scenario laid_off leaves a knocker's meld that is not a "
                                    "meld without the cards laid off on it (GR-6)")
    if len(st.slots) > 3:
        raise ScenarioError("scenario gives the knocker more than 3 melds (10 cards)")
    if live and st.knocker < 0 and any(st.melds):
        raise ScenarioError("scenario has melds on the table before anyone knocked (GR-5)")
    if st.knocker >= 0:
        k = st.knocker
        mine = st.hands[k]
        for m in st.melds[k]:
            mine |= m
        st.gin = bool(d.get("gin", live and deadwood(mine) == 0))


def _naturals(cards: list[int], where: str) -> list[int]:
    if 52 in cards:
        raise ScenarioError(f"scenario {where}: Gin Rummy has no jokers (GR-1)")
    return cards


def _check_live(st: GinState, phase: str) -> None:
    """The counts a live position must have (GR-2..GR-6)."""
    r = st.rules
    sizes = [st.hand_size(0), st.hand_size(1)]
    nstock = len(st.stock)
    if phase == FIRST_UPCARD:
        if sizes != [HAND_SIZE, HAND_SIZE] or len(st.discard) != 1 or nstock != 31:
            raise ScenarioError("scenario phase 'first_upcard' needs 10 cards in each hand, the "
                                "upcard alone in the discard pile and 31 stock cards (GR-2)")
        if st.discard[0] != st.upcard:
            raise ScenarioError("scenario phase 'first_upcard': the discard pile must be the "
                                "upcard")
    elif phase == DRAW:
        if sizes != [HAND_SIZE, HAND_SIZE]:
            raise ScenarioError(f"scenario hands hold {sizes[0]} and {sizes[1]} cards; want 10 "
                                "each at the start of a turn (GR-2)")
        if nstock <= r.wall:
            raise ScenarioError(f"scenario phase 'draw' with {nstock} stock cards: the hand "
                                f"ended at the wall of {r.wall} (GR-8)")
        if not st.discard and not st.upcard_refused:
            raise ScenarioError("scenario phase 'draw' with an empty discard pile")
    elif phase == PLAY:
        want = [HAND_SIZE, HAND_SIZE]
        want[st.to_move] += 1
        if sizes != want:
            raise ScenarioError(f"scenario hands hold {sizes[0]} and {sizes[1]} cards; want "
                                f"{want[0]} and {want[1]}: the player to move has drawn (GR-4)")
        if nstock < r.wall:
            raise ScenarioError(f"scenario phase 'play' with {nstock} stock cards, below the "
                                f"wall of {r.wall} (GR-8)")
    else:
        k = st.knocker
        dfd = 1 - k
        held = [st.hands[s] for s in (0, 1)]
        for s in (0, 1):
            for m in st.melds[s]:
                held[s] |= m
        held[dfd] |= st.laid_off
        if held[0].bit_count() != HAND_SIZE or held[1].bit_count() != HAND_SIZE:
            raise ScenarioError("scenario after a knock: each seat's hand, melds and lay-offs "
                                "must make 10 cards (GR-5)")
        limit = 0 if st.gin else st.knock_limit
        if phase == KNOCK:
            if st.to_move != k:
                raise ScenarioError("scenario phase 'knock': to_move must be the knocker")
            if st.melds[dfd] or st.laid_off:
                raise ScenarioError("scenario phase 'knock': the defender has laid nothing yet")
            if deadwood(st.hands[k]) > limit:
                raise ScenarioError(f"scenario phase 'knock': the knocker's cards cannot be "
                                    f"arranged with deadwood {limit} or less (GR-5)")
        else:
            if st.to_move != dfd:
                raise ScenarioError("scenario phase 'defend': to_move must be the defender")
            if value(st.hands[k]) > limit:
                raise ScenarioError(f"scenario phase 'defend': the knocker's deadwood is more "
                                    f"than {limit} (GR-5)")
            if st.gin and st.laid_off:
                raise ScenarioError("scenario lays off against gin (GR-6)")


def _load_turn(st: GinState, turn: Any) -> None:
    """Turn sub-state of a scenario (see the schema)."""
    num = turn.get("number", 1)
    if not is_int(num) or num < 0:
        raise ScenarioError(f"scenario turn.number={num!r} must be an int >= 0")
    st.turn_number = int(num)
    winner = turn.get("winner", -1)
    if not is_int(winner) or not -1 <= winner <= 1:
        raise ScenarioError(f"scenario turn.winner={winner!r} must be -1 or a seat")
    st.winner = int(winner)
    result = turn.get("result")
    if result is not None and result not in RESULTS:
        raise ScenarioError(f"scenario turn.result={result!r}; allowed: None, {', '.join(RESULTS)}")
    st.result = result
    if "last_deal_delta" in turn:
        st.last_deal_delta = int_list(turn["last_deal_delta"], 2, "turn.last_deal_delta")
    if "deadwood" in turn:
        st.deadwood = int_list(turn["deadwood"], 2, "turn.deadwood", lo=0)
