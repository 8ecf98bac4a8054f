"""The contract-family environment: ``RummyAECEnv`` over the contract rules engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.contract.codec import ContractEncoder, build_action_layout
from rummy_env.contract.scenario import state_from_dict
from rummy_env.contract.state import ContractGame, ContractState
from rummy_env.envs.base import RENDER_MODES, RummyAECEnv
from rummy_env.envs.options import check_playable


def variant_metadata(name: str) -> dict[str, Any]:
    """PettingZoo metadata of a versioned variant module (``name`` carries ``_vN``)."""
    return {"name": name, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
            "render_fps": 1}


class ContractEnv(RummyAECEnv):
    """AEC environment of one contract-family preset (``preset`` set by the variant module)."""

    #: Rules family (public; bots dispatch on it, see ``rummy_env.bots.GreedyBot``).
    family = "contract"

    def _make_game(self) -> ContractGame:
        check_playable(self.rules, self.num_players)  # at make, not at the first reset()
        return ContractGame(self.rules, self.num_players)

    def _make_layout(self) -> Any:
        return build_action_layout(self.game)

    def _make_encoder(self) -> ContractEncoder:
        return ContractEncoder(self.game)

    def _new_state(self, deal: int, rng: np.random.Generator) -> ContractState:
        return self.game.new_state(rng, first_deal=deal)

    def _state_from_dict(self, d: dict[str, Any], rng: np.random.Generator) -> ContractState:
        return state_from_dict(self.game, d, rng)
