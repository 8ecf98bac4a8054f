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
``hands``          one list of cards per seat
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

A partial scenario is completed: cards of the packs that it places nowhere go to the stock, in
an order shuffled by the seeded generator, below any stock cards it lists; other keys take
their start-of-deal values. Anything inconsistent is a :class:`~rummy_env.errors.ScenarioError`
naming the problem, and nothing is changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import JOKER, NUM_TYPES, card_str, counts_to_list, parse_card
from rummy_env.contract.melds import TableMeld, shape_of
from rummy_env.contract.state import DRAW, ContractGame, ContractState
from rummy_env.errors import CardParseError, ScenarioError
from rummy_env.scenario_util import cards_at, int_list, per_seat_cards, seat_at, scenario_start, unplaced_cards

_KEYS = {
    "deal", "dealer", "to_move", "phase", "hands", "stock", "discard", "discarders", "table",
    "melded", "scores", "claims_used", "known", "turn", "deal_delta", "zones", "variant",
    "num_players", "deals_played", "kitty", "pennies",
}






def _shape_text(sh: Any) -> Any:
    return list(sh)


def state_to_dict(st: ContractState) -> dict[str, Any]:
    """The full position as plain data, with ``zones`` (every card exactly once)."""
    n = st.n
    table = []
    for m in st.table:
        table.append({
            "owner": m.owner,
            "kind": m.kind,
            "cards": [card_str(c) for c in m.cards],
            "wilds": [card_str(s) for c, s in zip(m.cards, m.stands) if st.rules.is_wild(c)],
        })
    hands = [[card_str(t) for t in counts_to_list(h)] for h in st.hands]
    d: dict[str, Any] = {
        "variant": st.rules.name,
        "num_players": n,
        "deal": st.deal,
        "dealer": st.dealer,
        "to_move": st.to_move,
        "phase": st.phase,
        "hands": hands,
        "stock": [card_str(t) for t in reversed(st.stock)],
        "discard": [card_str(t) for t in st.discard],
        "discarders": list(st.discarder),
        "table": table,
        "melded": [s for s in range(n) if st.melded[s]],
        "scores": list(st.scores),
        "claims_used": list(st.claims_used),
        "kitty": st.kitty,
        "pennies": list(st.pennies),
        "known": [[card_str(t) for t in counts_to_list(k)] for k in st.known],
        "deal_delta": list(st.deal_delta),
        "deals_played": st.deals_played,
        "turn": {
            "number": st.turn_number,
            "melded_turn": list(st.melded_turn),
            "contract_left": [list(r) for r in st.contract_left] if st.contract_left is not None
            else None,
            "contract_laid": [_shape_text(s) for s in st.contract_laid],
            "jokers_owed": st.jokers_owed,
            "obligation": card_str(st.obligation) if st.obligation >= 0 else None,
            "forbidden": card_str(st.forbidden) if st.forbidden >= 0 else None,
            "claim_queue": list(st.claim_queue),
            "last_claimer": st.last_claimer,
            "announced": st.announced,
            "went_out": st.went_out,
            "last_deal_delta": list(st.last_deal_delta),
        },
    }
    zones: dict[str, list[str]] = {}
    for s in range(n):
        zones[f"hand:{s}"] = hands[s]
    zones["stock"] = d["stock"]
    zones["discard"] = d["discard"]
    for i, m in enumerate(table):
        zones[f"meld:{i}"] = m["cards"]
    d["zones"] = zones
    return d






def state_from_dict(game: ContractGame, d: dict[str, Any], rng: np.random.Generator) -> ContractState:
    """Build a position from plain data (see the module docstring), validated."""
    rules, n = game.rules, game.num_players
    st = ContractState(game)
    st.deal, st.dealer, st.to_move = scenario_start(d, _KEYS, rules.name, n, rules.num_deals, rng)
    phase = d.get("phase", DRAW)
    if phase not in game.phases:
        raise ScenarioError(f"scenario phase={phase!r}; allowed: {', '.join(game.phases)}")
    if "scores" in d:
        st.scores = int_list(d["scores"], n, "scores")

    placed = [0] * NUM_TYPES
    hand_size = rules.hand_sizes[st.deal - 1]
    if "hands" in d:
        for s, cards in enumerate(per_seat_cards(d["hands"], n, "hands")):
            for t in cards:
                st.hands[s][t] += 1
                placed[t] += 1
    table: list[TableMeld] = []
    if not isinstance(d.get("table", []), (list, tuple)):
        raise ScenarioError("scenario table must be a list of melds")
    for i, m in enumerate(d.get("table", [])):
        if not isinstance(m, dict) or "cards" not in m or "owner" not in m:
            raise ScenarioError(f"scenario table[{i}] must be a dict with 'owner' and 'cards'")
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
    st.table = table
    discard = cards_at(d.get("discard", []), "discard") if "discard" in d else None
    stock_top = cards_at(d.get("stock", []), "stock")
    for t in stock_top:
        placed[t] += 1
    if discard is not None:
        for t in discard:
            placed[t] += 1
    rest = unplaced_cards(game.deck, placed, rules.name, n, rng)
    if "hands" not in d:
        # Deal the hands from the unplaced cards.
        if len(rest) < hand_size * n:
            raise ScenarioError("scenario leaves too few cards to deal the hands")
        for i in range(hand_size * n):
            st.hands[i % n][rest[i]] += 1
        rest = rest[hand_size * n:]
    if discard is None:
        if not rest:
            raise ScenarioError("scenario leaves no card to start the discard pile")
        discard = [rest.pop(0)]
    st.discard = discard
    # Stock: the listed cards on top (top first), then the rest; stored top-last.
    st.stock = (stock_top + rest)[::-1]
    if "discarders" in d:
        dl = d["discarders"]
        if not isinstance(dl, (list, tuple)) or len(dl) != len(discard) or any(
            not isinstance(x, int) or not -1 <= x < n for x in dl
        ):
            raise ScenarioError(
                f"scenario discarders must hold one seat (or -1) per discard ({len(discard)})"
            )
        st.discarder = list(dl)
    else:
        st.discarder = [-1] * len(discard)
        if len(discard) > 1:
            st.discarder[-1] = (st.to_move - 1) % n
    melded = d.get("melded", sorted({m.owner for m in table}))
    if not isinstance(melded, (list, tuple)):
        raise ScenarioError("scenario melded must be a list of seats")
    for s in melded:
        st.melded[seat_at(s, n, "melded[]")] = True
    turn = d.get("turn", {})
    if not isinstance(turn, dict):
        raise ScenarioError("scenario turn must be a dict")
    in_progress = turn.get("contract_left") is not None
    for m in table:
        # A contract being laid this turn (turn.contract_left) puts melds down before the
        # seat counts as melded.
        if not st.melded[m.owner] and not (in_progress and m.owner == st.to_move):
            raise ScenarioError(f"scenario table meld owned by seat {m.owner}, who has not melded")
    if "claims_used" in d:
        st.claims_used = int_list(d["claims_used"], n, "claims_used")
    if "kitty" in d:
        if not isinstance(d["kitty"], int) or isinstance(d["kitty"], bool) or d["kitty"] < 0:
            raise ScenarioError(f"scenario kitty={d['kitty']!r} must be an int >= 0")
        st.kitty = d["kitty"]
    if "pennies" in d:
        pn = d["pennies"]
        if (not isinstance(pn, (list, tuple)) or len(pn) != n
                or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in pn)):
            raise ScenarioError(f"scenario pennies must hold one number per seat ({n})")
        st.pennies = [float(x) for x in pn]
    if "known" in d:
        for s, cards in enumerate(per_seat_cards(d["known"], n, "known")):
            for t in cards:
                st.known[s][t] += 1
            if any(st.known[s][t] > st.hands[s][t] for t in range(NUM_TYPES)):
                raise ScenarioError(f"scenario known[{s}] lists cards that hand {s} does not hold")
    if "deal_delta" in d:
        st.deal_delta = int_list(d["deal_delta"], n, "deal_delta")
    st.deals_played = int(d.get("deals_played", st.deal - 1))
    try:
        _load_turn(st, turn, n)
    except ScenarioError:
        raise
    except (TypeError, ValueError, KeyError, CardParseError) as e:
        raise ScenarioError(f"scenario turn is malformed: {e}") from None
    st.phase = phase
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
    if phase == "play" and "hands" in d and "turn" not in d:
        pass  # a play-phase scenario: the player to move has drawn already
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
    if phase in ("draw", "play") and not st.legal_actions():
        raise ScenarioError(f"scenario leaves player_{st.to_move} no legal action in phase {phase}")
    return st


def _load_turn(st: ContractState, turn: dict[str, Any], n: int) -> None:
    """Turn sub-state of a scenario (see the schema)."""
    st.turn_number = int(turn.get("number", 1))
    st.melded_turn = [(-1 if not st.melded[s] else 0) for s in range(n)]
    if "melded_turn" in turn:
        st.melded_turn = int_list(turn["melded_turn"], n, "turn.melded_turn")
    cl = turn.get("contract_left")
    st.contract_left = None if cl is None else [(str(k), int(v)) for k, v in cl]
    st.contract_laid = [tuple(x) for x in turn.get("contract_laid", [])]
    st.jokers_owed = int(turn.get("jokers_owed", 0))
    ob, fb = turn.get("obligation"), turn.get("forbidden")
    st.obligation = parse_card(ob) if ob else -1
    st.forbidden = parse_card(fb) if fb else -1
    st.claim_queue = [seat_at(s, n, "turn.claim_queue[]") for s in turn.get("claim_queue", [])]
    st.last_claimer = int(turn.get("last_claimer", -1))
    st.announced = bool(turn.get("announced", False))
    st.went_out = int(turn.get("went_out", -1))
    if "last_deal_delta" in turn:
        st.last_deal_delta = int_list(turn["last_deal_delta"], n, "turn.last_deal_delta")
