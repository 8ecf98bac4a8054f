"""SuperSuit's AEC wrappers run on the envs with the default ``illegal_action="penalize"``
(issue 16, point 3).

``frame_skip``, ``sticky_actions`` and ``delay_observations`` replay an action, or act on an old
observation, so they send actions the current mask does not allow: with PettingZoo classic's
convention the episode then ends with ``illegal_reward`` for the offender and 0 for the others,
where ``illegal_action="raise"`` crashed them. ``normalize_obs`` rescales a ``Box`` by its
bounds, so it runs on the observation vector (the ``"observation"`` entry, taken out with
SuperSuit's own ``observation_lambda``, as for PettingZoo's classic envs, whose observations are
the same dicts) and needs finite bounds with ``high > low`` everywhere: every rescaled value must
land in [0, 1]. One variant per family, unmasked random actions (as the tools sample) and masked
ones.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import rummy_env

ss = pytest.importorskip("supersuit")  # the "supersuit" extra (in "integrations", .ci/run)

FAMILIES = ("contract_rummy", "shanghai_rummy", "indian_rummy", "manipulation_rummy", "gin_rummy")


def play(env, masked: bool, seed: int, cycles: int = 400) -> list[float]:
    """Random play through ``agent_iter``; returns the rewards of the episode's last step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(cycles):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]) if isinstance(obs, dict) else []
        if masked and len(legal):
            # (frame_skip's and delay_observations' obs may be an older one, mask and all)
            action = int(rng.choice(legal))
        else:
            action = int(env.action_space(agent).sample())
        env.step(action)
    return list(env.rewards.values())


WRAPPERS = {
    "frame_skip": lambda e: ss.frame_skip_v0(e, 3),
    "sticky_actions": lambda e: ss.sticky_actions_v0(e, repeat_action_probability=0.5),
    "delay_observations": lambda e: ss.delay_observations_v0(e, 2),
}


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
@pytest.mark.parametrize("variant", FAMILIES)
def test_supersuit_wrappers_run_with_the_default_illegal_action(variant, wrapper):
    for masked in (False, True):
        env = WRAPPERS[wrapper](rummy_env.make(variant))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PettingZoo's illegal-move warning, by design
            for seed in range(3):
                rewards = play(env, masked, seed)
                # an illegal move ends the episode with -1 for the offender, 0 for the others
                assert all(np.isfinite(rewards))


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_supersuit_normalize_obs_on_the_observation_vector(variant):
    env = rummy_env.make(variant)
    space = env.observation_space(env.possible_agents[0])["observation"]
    assert (space.high > space.low).all()  # no zero-width feature to divide by
    env = ss.observation_lambda_v0(env, lambda obs, _space: obs["observation"],
                                   lambda sp: sp["observation"])
    env = ss.normalize_obs_v0(env, env_min=0.0, env_max=1.0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(300):
        obs = env.observe(agent)
        assert obs.dtype == np.float32 and np.isfinite(obs).all()
        assert obs.min() >= 0.0 and obs.max() <= 1.0, (obs.min(), obs.max())
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.unwrapped.observe(agent)["action_mask"]  # the raw env's own dict
        env.step(int(rng.choice(np.flatnonzero(mask))))
