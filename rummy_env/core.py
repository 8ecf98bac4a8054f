"""The shared core of the four engine families: what a game and a state are to the rest.

Engine layer (docs/design.md, "Layers"): imports the standard library, numpy and
:mod:`rummy_env.cards` only, never an RL library (``tests/test_imports.py`` pins it).

* :class:`GameBase`: the immutable half of a game, a frozen dataclass of the rules and the
  player count plus the fields derived from them (the packs, the jokers, the deck), which are
  *not* constructor arguments (``field(init=False)``): ``ContractGame(rules, 4, packs=99)`` is
  a TypeError, not a game whose packs are silently recomputed.
* :class:`GameState`: the members of a state that the environment layer
  (:mod:`rummy_env.envs.base`), the wrappers, the bots' search and the tools read, as a
  :class:`typing.Protocol`; every family's state satisfies it (``tests/test_imports.py``
  checks each one).
* :class:`StateBase`: what the families' states share: the end-of-deal bookkeeping and the
  default ``hand_size``, ``standings`` and ``returns``, so a family writes only what differs;
  :func:`position_head` and :func:`zones_head`, the keys and zones every family's
  ``to_dict()`` opens with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from rummy_env.cards import card_str, deck_counts
from rummy_env.rules_base import places


@dataclass(frozen=True)
class GameBase:
    """Immutable: the rules, the player count and the deck they give (``rules.deck_for``).

    A family's game subclasses it (still ``@dataclass(frozen=True)``) and adds its own derived
    fields, each ``field(init=False)``, set in its ``__post_init__`` after this one's.
    """

    rules: Any
    num_players: int

    packs: int = field(init=False, default=0)
    num_jokers: int = field(init=False, default=0)
    #: copies of each of the 53 card types in the packs (C-1)
    deck: tuple[int, ...] = field(init=False, default=())
    total_cards: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        packs, jokers = self.rules.deck_for(self.num_players)
        # A frozen dataclass sets its own derived fields through object.__setattr__.
        object.__setattr__(self, "packs", packs)
        object.__setattr__(self, "num_jokers", jokers)
        object.__setattr__(self, "deck", tuple(deck_counts(packs, jokers)))
        object.__setattr__(self, "total_cards", 52 * packs + jokers)


@runtime_checkable
class GameState(Protocol):
    """One position of a family's game, as the code outside the engine sees it.

    ``current_player`` is -1 when nobody acts (a deal or the game is over); ``apply`` checks
    the action against ``legal_actions()`` first and changes nothing when it is not there;
    ``scores`` follow the package's convention (lower is better) and ``last_deal_delta`` is
    the last finished deal's change of them; ``returns()`` are the game's net results so far,
    higher is better; ``to_dict()`` is the scenario schema (docs/design.md, "Scenarios").
    """

    game: Any
    rules: Any
    n: int
    phase: str
    deal: int
    dealer: int
    to_move: int
    turn_number: int
    deals_played: int

    @property
    def current_player(self) -> int: ...
    @property
    def is_deal_over(self) -> bool: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def scores(self) -> Sequence[float]: ...
    @property
    def last_deal_delta(self) -> Sequence[float]: ...

    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any, rng: np.random.Generator) -> None: ...
    def next_deal(self, rng: np.random.Generator) -> None: ...
    def hand_size(self, seat: int) -> int: ...
    def standings(self) -> list[int]: ...
    def returns(self) -> list[float]: ...
    def zone_counts(self) -> list[int]: ...
    def clone(self) -> GameState: ...
    def to_dict(self) -> dict[str, Any]: ...
    def render_text(self, viewer: int | None = None) -> str: ...


def position_head(st: Any, hands: list[list[str]]) -> dict[str, Any]:
    """The keys every family's ``state_to_dict`` opens with, in this order (the common keys of
    :mod:`rummy_env.scenario_schema`): the variant, the seats, the deal, who deals and moves,
    the phase, ``hands`` (one card list per seat, as the family writes them) and the stock, top
    card first."""
    return {
        "variant": st.rules.name,
        "num_players": st.n,
        "deal": st.deal,
        "dealer": st.dealer,
        "to_move": st.to_move,
        "phase": str(st.phase),  # a plain str: YAML's safe dumper refuses the enum
        "hands": hands,
        "stock": [card_str(t) for t in reversed(st.stock)],
    }


def zones_head(d: dict[str, Any]) -> dict[str, list[str]]:
    """The zones every family's ``to_dict()["zones"]`` opens with, from the :func:`position_head`
    keys of ``d``: each seat's hand (``hand:<seat>``), then the stock."""
    zones = {f"hand:{s}": hand for s, hand in enumerate(d["hands"])}
    zones["stock"] = d["stock"]
    return zones


class StateBase:
    """What the families' states share (mixed into each; no state of its own).

    It reads the host's attributes that :class:`GameState` declares, plus ``hands`` (per seat,
    card type counts, for the default :meth:`hand_size`), ``deal_delta`` (the running deal's
    score changes) and ``_legal`` (the cached legal actions). They are not declared here: a
    family may make ``scores`` a property (manipulation derives it from its points), which a
    declared attribute would contradict.
    """

    def hand_size(self, seat: int) -> int:
        """Cards in ``seat``'s hand (a family with another hand form overrides it)."""
        host: Any = self
        return sum(host.hands[seat])

    def standings(self) -> list[int]:
        """Place of each seat (1 = best: the lowest total, the package's convention); ties
        share a place (C-9)."""
        host: Any = self
        return places(host.scores)

    def returns(self) -> list[float]:
        """Net result of each seat over the game so far, higher is better: minus ``scores``."""
        host: Any = self
        return [float(-s) for s in host.scores]

    def _book_deal(self, delta: Sequence[float]) -> None:
        """The end-of-deal bookkeeping every family with ``deal_delta`` does the same way:
        ``delta`` (one score change per seat) into the game totals and the deal's running
        changes, the deal's changes kept as ``last_deal_delta`` (the reward the environment
        hands out), one more deal played, and no legal action left. The caller then sets the
        phase (deal or game over) and anything of its own."""
        host: Any = self
        scores, running = host.scores, host.deal_delta
        for s, d in enumerate(delta):
            scores[s] += d
            running[s] += d
        host.last_deal_delta = list(running)
        host.deals_played += 1
        host._legal = []


__all__ = ["GameBase", "GameState", "StateBase", "position_head", "zones_head"]
