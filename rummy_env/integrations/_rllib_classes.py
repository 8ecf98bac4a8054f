"""The Ray-dependent half of :mod:`rummy_env.integrations.rllib` (imported only with Ray).

Use the names through :mod:`rummy_env.integrations.rllib`; this module imports Ray at the top.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from rummy_env.integrations._rllib_spaces import rllib_observation_space, to_rllib_observation

#: Metric keys :class:`IllegalActionCallback` logs (under ``env_runners`` in a result).
ILLEGAL_METRIC = "illegal_actions"
ILLEGAL_LIFETIME_METRIC = "illegal_actions_lifetime"


class RummyRLlibEnv(PettingZooEnv):
    """A rummy_env AEC env as an RLlib ``MultiAgentEnv`` with masked observations.

    RLlib's ``PettingZooEnv`` does the turn handling (the next agent to act gets its
    observation; at the end every agent gets its final observation and reward); this
    subclass only renames/casts the observations (see :func:`to_rllib_observation`), declares
    the matching per-agent spaces and counts illegal actions (``info["illegal_actions"]``,
    episode so far; ``illegal_actions_total`` over the env's life).
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.observation_spaces = {
            a: rllib_observation_space(env.observation_space(a)) for a in env.possible_agents
        }
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.possible_agents = list(env.possible_agents)
        self.illegal_actions = 0
        self.illegal_actions_total = 0

    def _convert(self, obs: dict[str, Any], infos: dict[str, Any]) -> tuple[dict, dict]:
        # Copies: the AEC env's info dicts must not carry the adapter's key.
        return ({a: to_rllib_observation(o) for a, o in obs.items()},
                {a: {**i, "illegal_actions": self.illegal_actions} for a, i in infos.items()})

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.illegal_actions = 0
        obs, _ = super().reset(seed=seed, options=options)
        # PettingZooEnv returns reset infos as {}; give the acting agent its env info.
        infos = {a: self.env.infos[a] for a in obs}
        return self._convert(obs, infos)

    def step(self, action: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.env.agent_selection
        if agent in action and action[agent] is not None:
            mask = self.env.observe(agent)["action_mask"]
            a = int(action[agent])
            if not (0 <= a < len(mask) and mask[a]):
                self.illegal_actions += 1
                self.illegal_actions_total += 1
        obs, rewards, terminateds, truncateds, infos = super().step(action)
        obs, infos = self._convert(obs, infos)
        return obs, rewards, terminateds, truncateds, infos

    def render(self) -> Any:
        return self.env.render()


class IllegalActionCallback(RLlibCallback):
    """Logs each finished episode's illegal actions: ``illegal_actions`` (sum over the
    iteration) and ``illegal_actions_lifetime``."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None,
                       **kwargs: Any) -> None:
        if metrics_logger is None:
            return
        last = episode.get_infos(-1)
        n = max((int(i.get("illegal_actions", 0)) for i in last.values() if i), default=0)
        metrics_logger.log_value(ILLEGAL_METRIC, n, reduce="sum")
        metrics_logger.log_value(ILLEGAL_LIFETIME_METRIC, n, reduce="lifetime_sum")
