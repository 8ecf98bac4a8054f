"""A trained MaskablePPO checkpoint as a Bot (sees only its seat's view, like every bot)."""

from __future__ import annotations

import pathlib

import numpy as np

from rummy_env.bots import SeatView


class PolicyBot:
    """Plays the greedy (argmax) action of a saved sb3-contrib MaskablePPO model.

    :param path: a ``.zip`` saved by ``model.save`` (``training.train`` writes ``final.zip``).
    :param deterministic: argmax (True) or sample from the policy (False).
    """

    def __init__(self, path: str | pathlib.Path, deterministic: bool = True,
                 device: str = "cpu") -> None:
        from sb3_contrib import MaskablePPO

        self.path = str(path)
        self.name = pathlib.Path(path).stem
        self.model = MaskablePPO.load(self.path, device=device)
        self.deterministic = deterministic

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, view: SeatView) -> int:
        mask = np.zeros(view.action_layout.n, dtype=bool)
        mask[list(view.legal_actions)] = True
        action, _ = self.model.predict(view.observation, action_masks=mask,
                                       deterministic=self.deterministic)
        return int(action)
