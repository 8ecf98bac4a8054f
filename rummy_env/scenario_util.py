"""Parsing helpers shared by every family's scenario loader (plain data -> validated values).

Each raises :class:`~rummy_env.errors.ScenarioError` naming the scenario key at fault.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from rummy_env.cards import NUM_TYPES, card_str, counts_to_list, parse_card
from rummy_env.errors import CardParseError, ScenarioError
from rummy_env.scenario_schema import Schema


def cards_at(items: Any, where: str) -> list[int]:
    """A list of card strings, parsed."""
    if not isinstance(items, (list, tuple)):
        raise ScenarioError(f"scenario {where} must be a list of card strings, got {items!r}")
    try:
        return [parse_card(x) for x in items]
    except CardParseError as e:
        raise ScenarioError(f"scenario {where}: {e}") from None


def card_at(item: Any, where: str) -> int:
    """One card string, parsed."""
    try:
        return parse_card(item)
    except CardParseError as e:
        raise ScenarioError(f"scenario {where}: {e}") from None


def per_seat_cards(v: Any, n: int, name: str) -> list[list[int]]:
    """One card list per seat (``hands``, ``known``), parsed."""
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise ScenarioError(f"scenario {name} must be a list of {n} card lists, one per seat")
    return [cards_at(cards, f"{name}[{s}]") for s, cards in enumerate(v)]


def is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def seat_at(v: Any, n: int, name: str) -> int:
    """A seat index in ``0..n-1``."""
    if not is_int(v) or not 0 <= int(v) < n:
        raise ScenarioError(f"scenario {name}={v!r} must be a seat index in 0..{n - 1}")
    return int(v)


def int_list(v: Any, n: int, name: str, lo: int | None = None) -> list[int]:
    """``n`` ints (each ``>= lo`` when ``lo`` is given)."""
    if not isinstance(v, (list, tuple)) or len(v) != n or any(
        not is_int(x) or (lo is not None and x < lo) for x in v
    ):
        bound = f" >= {lo}" if lo is not None else ""
        raise ScenarioError(f"scenario {name} must be a list of {n} ints{bound}, got {v!r}")
    return [int(x) for x in v]


def scenario_start(d: Any, schema: Schema, name: str, n: int, num_deals: int,
                   rng: np.random.Generator) -> tuple[int, int, int]:
    """The checks every loader starts with: the declared schema (types and ranges of every key,
    unknown keys refused, :mod:`rummy_env.scenario_schema`), the right player count and variant
    (where given), then ``(deal, dealer, to_move)``: the deal in ``1..num_deals`` (default 1),
    the dealer (default drawn from ``rng``) and the player to move (default the seat after the
    dealer, C-5)."""
    schema.validate(d, n)
    if "num_players" in d and d["num_players"] != n:
        raise ScenarioError(f"scenario num_players={d['num_players']!r} but the game has {n}")
    if "variant" in d and d["variant"] != name:
        raise ScenarioError(f"scenario variant={d['variant']!r} but the game is {name}")
    deal = d.get("deal", 1)
    if not is_int(deal) or not 1 <= deal <= num_deals:
        raise ScenarioError(f"scenario deal={deal!r} must be in 1..{num_deals}")
    dealer = seat_at(d.get("dealer", int(rng.integers(n))), n, "dealer")
    to_move = seat_at(d.get("to_move", (dealer + 1) % n), n, "to_move")
    return int(deal), dealer, to_move


def unplaced_cards(deck: Any, placed: list[int], name: str, n: int,
                   rng: np.random.Generator) -> list[int]:
    """The cards of ``deck`` (counts by type) that the scenario places nowhere, in an order
    shuffled by ``rng``; a type placed more often than the packs hold is an error."""
    for t in range(NUM_TYPES):
        if placed[t] > deck[t]:
            raise ScenarioError(f"scenario places {placed[t]} copies of {card_str(t)} but {name} "
                                f"with {n} players has {deck[t]}")
    rest = counts_to_list([deck[t] - placed[t] for t in range(NUM_TYPES)])
    return [rest[i] for i in rng.permutation(len(rest))]


def verify_built(st: Any, load: Callable[[Any], Any], live: bool) -> None:
    """The safety net after a family's declared and meaning checks, before the position is
    committed: the actor of a live position has a legal action, and the position round-trips
    (``to_dict`` is JSON and loading it again gives the same position), so a refused scenario
    is caught here rather than a few steps into play. ``load`` rebuilds a state from a dict
    (the family's loader without this check, with a generator of its own: the dict places
    every card, and the env's generator must not move)."""
    if live and st.current_player >= 0 and not st.legal_actions():
        raise ScenarioError(f"scenario leaves player_{st.current_player} no legal action in "
                            f"phase {st.phase}")
    try:
        d = st.to_dict()
        text = json.dumps(d)
    except (TypeError, ValueError) as e:
        raise ScenarioError(f"scenario builds a position that does not serialise: {e}") from None
    try:
        again = load(json.loads(text)).to_dict()
    except ScenarioError as e:
        raise ScenarioError(f"scenario builds a position its own get_state() does not load "
                            f"back ({e})") from None
    if again != d:
        diff = sorted(k for k in d if again.get(k) != d[k])
        raise ScenarioError(f"scenario builds a position that does not round-trip through "
                            f"get_state(): {', '.join(diff)} differ")
