"""Worlds sampled from one seat's information (determinization), for every rules family.

A seat of a rummy game sees its own hand, the table, the discard pile, the cards each seat took
face up and still holds (``known``), every hand size, the stock size and the family's public
extras (the Indian indicator and packs, contract claims, kitty and turn data, manipulation
bindings and locks, gin's knock and lay-offs ...). What it cannot see is where the other cards
are: the rest of the other hands, the stock order and, in Indian Rummy, the cards a later
packer put out of play face down (IR-7).

* :func:`information` turns a position into what ``seat`` knows: an :class:`Information`, the
  position's scenario dict (``to_dict``) with every hidden card taken out, the number of hidden
  cards in each hidden zone, and the *pool*: the cards of the packs that the seat sees nowhere
  (the deck less every visible card). Nothing in it depends on where the hidden cards are: a
  test re-deals them and gets the same information.
* :func:`sample_scenario` deals the pool into the hidden zones with a generator, uniformly: one
  uniform permutation of the pool's physical cards fills the hidden slots in a fixed order, so
  every arrangement of the unseen cards among the hidden zones (and the stock's order) is
  equally likely. The result is a scenario dict that ``reset(options={"scenario": ...})``
  loads, and in which the seat's observation and legal actions are the ones it has in the real
  game. :func:`sample_state` builds the engine state of such a world directly (what a search
  bot rolls out on).

The information is the position's public record as the engine keeps it (what the observations
are built from), not a memory of the whole deal: after a stock reshuffle (C-7) a seat that
remembered every discard would know which cards the new stock holds, and the sampler treats
them as unseen like the rest. Only the engine's modules are imported here (no RL library).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummy_env.cards import NUM_TYPES, card_str, counts_to_list, parse_card

#: Zones whose cards no seat sees (beside the other hands), by family: the stock everywhere and
#: the cards later packers put out of play face down in Indian Rummy (IR-7).
HIDDEN_ZONES: dict[str, tuple[str, ...]] = {
    "contract": ("stock",),
    "gin": ("stock",),
    "indian": ("stock", "out_of_play"),
    "manipulation": ("stock",),
}


def family_of(state: Any) -> str:
    """The rules family of an engine state (``rummy_env.<family>.state``)."""
    parts = type(state).__module__.split(".")
    if len(parts) < 3 or parts[0] != "rummy_env" or parts[1] not in HIDDEN_ZONES:
        raise TypeError(f"{type(state).__name__} is not a rummy_env engine state")
    return parts[1]


def _shown_seats(family: str, d: dict[str, Any]) -> set[int]:
    """Seats whose whole hand is face up in position ``d``: in Gin Rummy the knocker's from the
    defence on (its deadwood is laid down, GR-5) and both at the score (GR-7), as the gin
    observation shows them; no hand is shown in the other families."""
    if family == "gin" and d["knocker"] >= 0:
        if d["phase"] == "defend":
            return {d["knocker"]}
        if d["phase"] in ("deal_over", "game_over"):
            return {0, 1}
    return set()


def _loader(family: str) -> Callable[..., Any]:
    """The family's ``state_from_dict(game, d, rng, verify=...)``."""
    return importlib.import_module(f"rummy_env.{family}.scenario").state_from_dict


@dataclass(frozen=True)
class Information:
    """What one seat knows of a position (see the module docstring).

    ``public`` is the position's scenario dict with the hidden cards left out (the other
    seats' ``hands`` hold only their ``known`` cards, hidden zones are empty lists); ``hidden``
    gives the number of cards each hidden zone holds (``hand:<seat>`` for the unseen part of
    another hand, ``stock``, ``out_of_play``), in the order the sampler fills them; ``pool`` is
    the sorted card types of the unseen cards (as many as ``hidden`` counts)."""

    family: str
    seat: int
    game: Any  # the family's immutable game object: rules and player count (public)
    public: dict[str, Any]
    hidden: tuple[tuple[str, int], ...]
    pool: tuple[int, ...]


def information(state: Any, seat: int) -> Information:
    """What ``seat`` knows of ``state`` (see :class:`Information`)."""
    family = family_of(state)
    d = state.to_dict()
    zones = d.pop("zones")
    n = state.n if hasattr(state, "n") else len(d["hands"])
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not a seat of this {n}-player game")
    hidden_zones = HIDDEN_ZONES[family]
    visible = [0] * NUM_TYPES
    for name, cards in zones.items():
        if name in hidden_zones or (name.startswith("hand:") and name != f"hand:{seat}"):
            continue
        for c in cards:
            visible[parse_card(c)] += 1
    known = d.get("known")
    shown = _shown_seats(family, d)
    hidden: list[tuple[str, int]] = []
    for s in range(n):
        if s == seat:
            continue
        if s in shown:
            for c in d["hands"][s]:
                visible[parse_card(c)] += 1
            continue
        held = list(known[s]) if known is not None else []
        for c in held:
            visible[parse_card(c)] += 1
        hidden.append((f"hand:{s}", len(d["hands"][s]) - len(held)))
        d["hands"][s] = held
    for name in hidden_zones:
        hidden.append((name, len(d[name])))
        d[name] = []
    deck = state.game.deck
    pool = counts_to_list([deck[t] - visible[t] for t in range(NUM_TYPES)])
    if len(pool) != sum(k for _, k in hidden):  # pragma: no cover - a broken to_dict
        raise RuntimeError(f"{family}: {len(pool)} unseen cards for "
                           f"{sum(k for _, k in hidden)} hidden places")
    return Information(family, seat, state.game, d, tuple(hidden), tuple(pool))


def sample_scenario(info: Information, rng: np.random.Generator) -> dict[str, Any]:
    """One world consistent with ``info``: the unseen cards dealt uniformly at random into the
    hidden zones (one permutation of the pool drawn from ``rng``), as a scenario dict."""
    pool = info.pool
    return deal_scenario(info, [pool[i] for i in rng.permutation(len(pool))])


def deal_scenario(info: Information, order: Sequence[int]) -> dict[str, Any]:
    """The world of ``info`` whose hidden zones hold ``order`` (an arrangement of the pool's
    card types), filled in the order of ``info.hidden``, as a scenario dict."""
    if len(order) != len(info.pool):
        raise ValueError(f"{len(order)} cards for the {len(info.pool)} hidden places")
    cards = [card_str(t) for t in order]
    d = dict(info.public)
    d["hands"] = [list(h) for h in info.public["hands"]]
    i = 0
    for name, k in info.hidden:
        part, i = cards[i:i + k], i + k
        if name.startswith("hand:"):
            d["hands"][int(name[5:])].extend(part)
        elif name == "out_of_play":
            d[name] = sorted(part, key=parse_card)  # the engine keeps it sorted
        else:
            d[name] = part
    return d


def sample_state(info: Information, rng: np.random.Generator) -> Any:
    """The engine state of one world of ``info`` (:func:`sample_scenario`, loaded by
    :func:`build_state`)."""
    return build_state(info, sample_scenario(info, rng), rng)


def build_state(info: Information, scenario: dict[str, Any], rng: np.random.Generator) -> Any:
    """An engine state of ``info``'s game from a scenario dict of a world, without the scenario
    loader's round-trip check (the dict comes from a valid position)."""
    return _loader(info.family)(info.game, scenario, rng, verify=False)


def load_world(info: Information, scenario: dict[str, Any]) -> Any:
    """An engine state from a scenario dict of ``info``'s game (fully validated)."""
    return _loader(info.family)(info.game, scenario, np.random.default_rng(0))


__all__ = ["HIDDEN_ZONES", "Information", "build_state", "deal_scenario", "family_of",
           "information", "load_world", "sample_scenario", "sample_state"]
