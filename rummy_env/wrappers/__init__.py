"""Gymnasium views of the AEC environments (single seat against bots, self-play pools).

These depend on gymnasium and rummy_env only (no torch, no stable-baselines3): see
:mod:`rummy_env.wrappers.single_agent`.
"""

from rummy_env.wrappers.single_agent import INFO_KEYS, SelfPlayEnv, SingleSeatEnv

__all__ = ["INFO_KEYS", "SelfPlayEnv", "SingleSeatEnv"]
