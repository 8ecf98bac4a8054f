"""RLlib's observation form, shared by :mod:`rummy_env.integrations.rllib` and its Ray classes.

Use the names through :mod:`rummy_env.integrations.rllib`. They sit here, with no Ray import, so
that the Ray-dependent ``_rllib_classes`` can use them without importing ``rllib`` (which
imports ``_rllib_classes`` when an RLlib object is built): imports go one way.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from gymnasium import spaces


def rllib_observation_space(space: spaces.Dict) -> spaces.Dict:
    """The RLlib form of an AEC observation space ``Dict{"observation", "action_mask"}``."""
    if not isinstance(space, spaces.Dict) or set(space.spaces) != {"observation", "action_mask"}:
        raise ValueError(f"expected Dict{{'observation', 'action_mask'}}, got {space!r}")
    obs, mask = space["observation"], space["action_mask"]
    return spaces.Dict({
        "observations": spaces.Box(obs.low.reshape(-1).astype(np.float32),
                                   obs.high.reshape(-1).astype(np.float32),
                                   (int(np.prod(obs.shape)),), np.float32),
        "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32),
    })


def to_rllib_observation(obs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """An AEC observation in RLlib's form: ``{"observations": float32 (flat),
    "action_mask": float32}``."""
    return {"observations": np.asarray(obs["observation"], dtype=np.float32).reshape(-1),
            "action_mask": np.asarray(obs["action_mask"], dtype=np.float32)}


__all__ = ["rllib_observation_space", "to_rllib_observation"]
