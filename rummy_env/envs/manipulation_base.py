"""The Manipulation Rummy environment: ``RummyAECEnv`` over the manipulation rules engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.envs.base import RummyAECEnv
from rummy_env.manipulation.codec import ManipulationEncoder, build_action_layout
from rummy_env.manipulation.scenario import state_from_dict
from rummy_env.manipulation.state import ManipulationGame, ManipulationState


class ManipulationEnv(RummyAECEnv):
    """AEC environment of a Manipulation Rummy preset (``preset`` set by the variant module).

    Deal scores are points won, higher is better (MR-8); the engine exposes them in the
    package's "lower is better" convention too (``scores`` and ``last_deal_delta`` are their
    negatives), so the shared base's reward, minus the deal's score change times
    ``reward_scale``, is the deal's points, and standings read as for every variant.
    """

    #: Rules family (public; bots dispatch on it, see ``rummy_env.bots.GreedyBot``).
    family = "manipulation"

    #: Generated docs (``rummy_env.docs``): the note above the action table and the rewards.
    SPEC_ACTIONS_NOTE = (
        "Action ids (one fixed layout; a meld is a sequence of single steps, and the mask",
        "offers a step only when the turn can still end with a valid table, MR-4/MR-5):",
    )
    SPEC_REWARDS_NOTE = (
        "Rewards: when a deal ends each agent gets the points it scored in the deal (MR-8: the",
        "winner's differences and bonuses, 0 for the others; on the game's last deal the MR-10",
        "bonuses too) times ``reward_scale`` (default 0.01): higher is better. ``infos[agent]``",
        "holds ``score`` in the package's lower-is-better convention (minus the game total),",
        "``place`` (1 = highest total) and ``deals_played``.",
    )

    def _make_game(self) -> ManipulationGame:
        return ManipulationGame(self.rules, self.num_players)

    def _make_layout(self) -> Any:
        return build_action_layout(self.game)

    def _make_encoder(self) -> ManipulationEncoder:
        return ManipulationEncoder(self.game)

    def _new_state(self, deal: int, rng: np.random.Generator) -> ManipulationState:
        return self.game.new_state(rng, first_deal=deal)

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> ManipulationState:
        return state_from_dict(self.game, d, rng)
