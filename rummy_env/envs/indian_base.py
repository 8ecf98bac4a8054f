"""The Indian Rummy environment: ``RummyAECEnv`` over the Indian Rummy rules engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.envs.base import RummyAECEnv
from rummy_env.indian.codec import IndianEncoder, build_action_layout
from rummy_env.indian.scenario import state_from_dict
from rummy_env.indian.state import IndianGame, IndianState


class IndianEnv(RummyAECEnv):
    """AEC environment of an Indian Rummy preset (``preset`` set by the variant module).

    Scores follow the package's sign convention (net points paid, lower is better), so the
    shared base's reward, minus the deal's score change times ``reward_scale``, is the deal's
    settlement: what the winner collects, minus what each other seat pays (IR-9).
    """

    #: Rules family (public; bots dispatch on it, see ``rummy_env.bots.GreedyBot``).
    family = "indian"

    #: Generated docs (``rummy_env.docs``): the note above the action table and the rewards.
    SPEC_ACTIONS_NOTE = (
        "Action ids (one fixed layout; cards by type, so the size does not grow with the packs):",
    )
    SPEC_REWARDS_NOTE = (
        "Rewards: when a deal ends each agent gets its settlement (IR-9: the winner collects what",
        "the others pay; zero-sum, and zero for a void deal, IR-8) times ``reward_scale`` (default",
        "0.01); ``infos[agent]`` always holds ``score`` (net points paid over the game: negative",
        "is a net win), ``place`` and ``deals_played``.",
    )

    def _make_game(self) -> IndianGame:
        return IndianGame(self.rules, self.num_players)

    def _make_layout(self) -> Any:
        return build_action_layout(self.game)

    def _make_encoder(self) -> IndianEncoder:
        return IndianEncoder(self.game)

    def _new_state(self, deal: int, rng: np.random.Generator) -> IndianState:
        return self.game.new_state(rng, first_deal=deal)

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> IndianState:
        return state_from_dict(self.game, d, rng)
