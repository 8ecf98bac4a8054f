"""The Gin Rummy environment: ``RummyAECEnv`` over the Gin Rummy rules engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.envs.base import RummyAECEnv
from rummy_env.gin.codec import GinEncoder, build_action_layout
from rummy_env.gin.scenario import state_from_dict
from rummy_env.gin.state import GinGame, GinState


class GinEnv(RummyAECEnv):
    """AEC environment of a Gin Rummy preset (``preset`` set by the variant module).

    Scores follow the package's sign convention (net points given away, lower is better), so
    the shared base's reward, minus the hand's score change times ``reward_scale``, is zero-sum:
    the hand's points (GR-7) to the seat that scores them, minus them to the other.
    """

    #: Rules family (public; bots dispatch on it, see ``rummy_env.bots.GreedyBot``).
    family = "gin"

    #: Generated docs (``rummy_env.docs``): the note above the action table and the rewards.
    SPEC_ACTIONS_NOTE = (
        "Action ids (one fixed layout for two players and one pack):",
    )
    SPEC_REWARDS_NOTE = (
        "Rewards: when a hand ends, the seat that scores gets the hand's points (GR-7: the",
        "deadwood difference, plus the gin or undercut bonus) times ``reward_scale`` (default",
        "0.01) and the other seat minus that; a dead hand (GR-8) gives 0. ``infos[agent]``",
        "always holds ``score`` (net points given away over the game: negative is a net win),",
        "``place`` and ``deals_played``.",
    )

    def _make_game(self) -> GinGame:
        return GinGame(self.rules)

    def _make_layout(self) -> Any:
        return build_action_layout(self.game)

    def _make_encoder(self) -> GinEncoder:
        return GinEncoder(self.game)

    def _new_state(self, deal: int, rng: np.random.Generator) -> GinState:
        return self.game.new_state(rng, first_deal=deal)

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> GinState:
        return state_from_dict(self.game, d, rng)
