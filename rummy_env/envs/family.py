"""One environment class for every rules family, configured by a small :class:`Family` record.

The four family environments used to be four modules (``envs/contract_base.py`` and its
siblings) that differed only in the names they imported: the game class, the action layout, the
observation encoder and the scenario loader. Those names are now the fields of a frozen
:class:`Family` record, and :class:`FamilyEnv` implements the hooks of
:class:`~rummy_env.envs.base.RummyAECEnv` once, from the record its subclass names. A variant
module subclasses its family's class (``class raw_env(ContractEnv): preset = SHANGHAI_RUMMY``);
a new family is a record and a three-line class here.

The four families' records are built at import, so loading one variant loads all four engines
(about 0.1 s more than one of them, measured here: the RL libraries are most of an env's import
time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from rummy_env.contract import codec as contract_codec
from rummy_env.contract.scenario import state_from_dict as contract_from_dict
from rummy_env.contract.state import ContractGame
from rummy_env.envs.base import RENDER_MODES, RummyAECEnv
from rummy_env.envs.options import check_playable
from rummy_env.gin import codec as gin_codec
from rummy_env.gin.scenario import state_from_dict as gin_from_dict
from rummy_env.gin.state import GinGame
from rummy_env.indian import codec as indian_codec
from rummy_env.indian.scenario import state_from_dict as indian_from_dict
from rummy_env.indian.state import IndianGame
from rummy_env.manipulation import codec as manipulation_codec
from rummy_env.manipulation.scenario import state_from_dict as manipulation_from_dict
from rummy_env.manipulation.state import ManipulationGame


def variant_metadata(name: str) -> dict[str, Any]:
    """PettingZoo metadata of a versioned variant module (``name`` carries ``_vN``)."""
    return {"name": name, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
            "render_fps": 1}


@dataclass(frozen=True)
class Family:
    """What an environment needs to know about a rules family's engine.

    :param name: the family's public name (``env.family``; the bots dispatch on it).
    :param game: builds the immutable game from the rules and the player count.
    :param layout: the game's action layout (``build_action_layout`` of the family's codec).
    :param encoder: the game's observation encoder class.
    :param state_from_dict: the family's scenario loader, ``(game, data, rng) -> state``.
    :param check_playable: refuse, at ``make``, rules whose largest hand cannot be dealt
        (the contract family, whose hand sizes are rule fields per deal).
    :param actions_note: the generated docs' line above the action table (``None``: the
        docs' default, the contract family's).
    :param rewards_note: the generated docs' paragraph on rewards (``None``: the default).
    """

    name: str
    game: Callable[[Any, int], Any]
    layout: Callable[[Any], Any]
    encoder: Callable[[Any], Any]
    state_from_dict: Callable[[Any, dict[str, Any], np.random.Generator], Any]
    check_playable: bool = False
    actions_note: tuple[str, ...] | None = None
    rewards_note: tuple[str, ...] | None = None


CONTRACT = Family(
    name="contract", game=ContractGame, layout=contract_codec.build_action_layout,
    encoder=contract_codec.ContractEncoder, state_from_dict=contract_from_dict,
    check_playable=True,
)
GIN = Family(
    name="gin", game=GinGame, layout=gin_codec.build_action_layout,
    encoder=gin_codec.GinEncoder, state_from_dict=gin_from_dict,
    actions_note=(
        "Action ids (one fixed layout for two players and one pack):",
    ),
    rewards_note=(
        "Rewards: when a hand ends, the seat that scores gets the hand's points (GR-7: the",
        "deadwood difference, plus the gin or undercut bonus) times ``reward_scale`` (default",
        "0.01) and the other seat minus that; a dead hand (GR-8) gives 0. ``infos[agent]``",
        "always holds ``score`` (net points given away over the game: negative is a net win),",
        "``place`` and ``deals_played``.",
    ),
)
INDIAN = Family(
    name="indian", game=IndianGame, layout=indian_codec.build_action_layout,
    encoder=indian_codec.IndianEncoder, state_from_dict=indian_from_dict,
    actions_note=(
        "Action ids (one fixed layout; cards by type, so the size does not grow with the packs):",
    ),
    rewards_note=(
        "Rewards: when a deal ends each agent gets its settlement (IR-9: the winner collects what",
        "the others pay; zero-sum, and zero for a void deal, IR-8) times ``reward_scale`` (default",
        "0.01); ``infos[agent]`` always holds ``score`` (net points paid over the game: negative",
        "is a net win), ``place`` and ``deals_played``.",
    ),
)
MANIPULATION = Family(
    name="manipulation", game=ManipulationGame, layout=manipulation_codec.build_action_layout,
    encoder=manipulation_codec.ManipulationEncoder, state_from_dict=manipulation_from_dict,
    actions_note=(
        "Action ids (one fixed layout; a meld is a sequence of single steps, and the mask",
        "offers a step only when the turn can still end with a valid table, MR-4/MR-5):",
    ),
    rewards_note=(
        "Rewards: when a deal ends each agent gets the points it scored in the deal (MR-8: the",
        "winner's differences and bonuses, 0 for the others; on the game's last deal the MR-10",
        "bonuses too) times ``reward_scale`` (default 0.01): higher is better. ``infos[agent]``",
        "holds ``score`` in the package's lower-is-better convention (minus the game total),",
        "``place`` (1 = highest total) and ``deals_played``.",
    ),
)
#: Every family's record, by name.
FAMILIES: dict[str, Family] = {f.name: f for f in (CONTRACT, GIN, INDIAN, MANIPULATION)}


class FamilyEnv(RummyAECEnv):
    """AEC environment of one preset of the family its subclass names in ``family_record``
    (``preset`` set by the variant module); the hooks of ``RummyAECEnv`` read the record."""

    family_record: ClassVar[Family]
    #: Rules family (public; bots dispatch on it, see ``rummy_env.bots.GreedyBot``).
    family: ClassVar[str]
    #: Generated docs (``rummy_env.docs``): the note above the action table and the rewards;
    #: set from the record when it has them (the docs fall back to the contract family's).
    SPEC_ACTIONS_NOTE: ClassVar[tuple[str, ...]]
    SPEC_REWARDS_NOTE: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        record = cls.__dict__.get("family_record")
        if record is not None:
            # What the variant pages and the bots read as class attributes.
            cls.family = record.name
            if record.actions_note is not None:
                cls.SPEC_ACTIONS_NOTE = record.actions_note
            if record.rewards_note is not None:
                cls.SPEC_REWARDS_NOTE = record.rewards_note

    def _make_game(self) -> Any:
        if self.family_record.check_playable:
            check_playable(self.rules, self.num_players)  # at make, not at the first reset()
        return self.family_record.game(self.rules, self.num_players)

    def _make_layout(self) -> Any:
        return self.family_record.layout(self.game)

    def _make_encoder(self) -> Any:
        return self.family_record.encoder(self.game)

    def _new_state(self, deal: int, rng: np.random.Generator) -> Any:
        return self.game.new_state(rng, first_deal=deal)

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> Any:
        return self.family_record.state_from_dict(self.game, d, rng)


class ContractEnv(FamilyEnv):
    """AEC environment of one contract-family preset (``preset`` set by the variant module)."""

    family_record = CONTRACT


class GinEnv(FamilyEnv):
    """AEC environment of a Gin Rummy preset (``preset`` set by the variant module).

    Scores follow the package's sign convention (net points given away, lower is better), so
    the shared base's reward, minus the hand's score change times ``reward_scale``, is zero-sum:
    the hand's points (GR-7) to the seat that scores them, minus them to the other.
    """

    family_record = GIN


class IndianEnv(FamilyEnv):
    """AEC environment of an Indian Rummy preset (``preset`` set by the variant module).

    Scores follow the package's sign convention (net points paid, lower is better), so the
    shared base's reward, minus the deal's score change times ``reward_scale``, is the deal's
    settlement: what the winner collects, minus what each other seat pays (IR-9).
    """

    family_record = INDIAN


class ManipulationEnv(FamilyEnv):
    """AEC environment of a Manipulation Rummy preset (``preset`` set by the variant module).

    Deal scores are points won, higher is better (MR-8); the engine exposes them in the
    package's "lower is better" convention too (``scores`` and ``last_deal_delta`` are their
    negatives), so the shared base's reward, minus the deal's score change times
    ``reward_scale``, is the deal's points, and standings read as for every variant.
    """

    family_record = MANIPULATION


__all__ = ["CONTRACT", "FAMILIES", "GIN", "INDIAN", "MANIPULATION", "ContractEnv", "Family",
           "FamilyEnv", "GinEnv", "IndianEnv", "ManipulationEnv", "variant_metadata"]
