"""Adapters for RL libraries that cannot take the AEC environments exactly as they are.

Most pipelines need no adapter: every variant gives all agents the same spaces and numeric,
fixed-shape ``infos`` (``score``, ``place``, ``deals_played``), so these work unchanged on
``rummy_env.make(...)`` (tested in ``tests/test_integrations.py``):

* PettingZoo's registry: ``pettingzoo.make("aec", "rummy_env/<variant>-v1")``;
* Tianshou: ``tianshou.env.PettingZooEnv(env)``;
* TorchRL: ``torchrl.envs.libs.pettingzoo.PettingZooWrapper(env=env, use_mask=True)``;
* Stable-Baselines3 / sb3-contrib: :class:`rummy_env.wrappers.SingleSeatEnv` (a Gymnasium env
  with ``action_masks()``).

Ray RLlib does need one, :mod:`rummy_env.integrations.rllib` (extra ``rllib``): its
action-masking module reads ``{"observations": float32, "action_mask": float32}`` where
PettingZoo has ``{"observation": ..., "action_mask": int8}``. Importing this package never
imports an RL library; the adapter imports Ray only when an RLlib object is built.
"""

__all__ = ["rllib"]
