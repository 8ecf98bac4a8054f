"""Gymnasium views of the AEC environments (single seat against bots, self-play pools).

These depend on gymnasium and rummy_env only (no torch, no stable-baselines3): see
:mod:`rummy_env.wrappers.single_agent`; :class:`SolverFeatures` appends the families' solver
features to the observation (:mod:`rummy_env.wrappers.features`).
"""

from rummy_env.wrappers.features import (
    SolverFeatures, feature_layout, feature_size, feature_table, potential, solver_features,
)
from rummy_env.wrappers.single_agent import INFO_KEYS, SelfPlayEnv, SingleSeatEnv

__all__ = ["INFO_KEYS", "SelfPlayEnv", "SingleSeatEnv", "SolverFeatures", "feature_layout",
           "feature_size", "feature_table", "potential", "solver_features"]
