"""PettingZoo's conventions by default (issue 16, point 3): an illegal action ends the episode
with ``illegal_reward`` for the offender and 0 for the others, with PettingZoo's warning, so the
tools that sample unmasked actions run: ``pettingzoo.test.state_test`` and
``pettingzoo.utils.average_total_reward``, on one variant of each family."""

from __future__ import annotations

import random
import warnings

import pytest
from pettingzoo.test.state_test import test_state as pz_test_state
from pettingzoo.test.state_test import test_state_space as pz_test_state_space
from pettingzoo.utils import average_total_reward

import rummy_env

#: One variant per family: contract, Indian, manipulation, gin.
FAMILIES = ["contract_rummy", "indian_rummy", "manipulation_rummy", "gin_rummy"]


@pytest.mark.parametrize("variant", FAMILIES)
def test_default_illegal_action_ends_the_episode_with_a_warning(variant, caplog):
    env = rummy_env.make(variant, num_players=3 if variant != "gin_rummy" else 2)
    assert env.illegal_action == "penalize" and env.illegal_reward == -1.0
    env.reset(seed=1)
    offender = env.agent_selection
    legal = set(env.legal_actions())
    bad = next(i for i in range(env.action_space(offender).n) if i not in legal)
    env.step(bad)
    assert "Illegal move made" in caplog.text and offender in caplog.text
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env._cumulative_rewards[offender] == -1.0
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.legal_actions() == []
    for agent in env.agent_iter():
        assert env.last()[2] and not env.observe(agent)["action_mask"].any()
        env.step(None)
    assert env.agents == []


@pytest.mark.parametrize("variant", FAMILIES)
def test_pettingzoo_state_test(variant):
    env = rummy_env.make(variant)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pz_test_state_space(env)  # finite bounds: no "-infinity ... probably too low"
    assert not [w for w in caught if "infinity" in str(w.message)]
    env.action_space(env.possible_agents[0]).seed(0)
    pz_test_state(env, num_cycles=20)


@pytest.mark.parametrize("variant", FAMILIES)
def test_pettingzoo_average_total_reward(variant, capsys):
    env = rummy_env.make(variant)
    env.reset(seed=0)
    random.seed(0)
    for a in env.possible_agents:
        env.action_space(a).seed(0)
    # last(observe=False) gives no mask, so it samples the whole Discrete(N): almost every
    # first action is illegal and ends its episode with -1 for the offender.
    avg = average_total_reward(env, max_episodes=5, max_steps=2_000)
    assert -1.0 <= avg <= 0.0
    assert "Average total reward" in capsys.readouterr().out


def test_the_replaced_v0_modules_say_what_replaced_them():
    """The default illegal-action policy is a behaviour change: every variant is now _v1
    (DESIGN's version rule); the old names raise an ImportError naming the new module."""
    with pytest.raises(ImportError, match="replaced by rummy_env.contract_rummy_v1"):
        from rummy_env import contract_rummy_v0  # noqa: F401
    for name in rummy_env.VARIANTS:
        mod = getattr(rummy_env, f"{name}_v1")
        assert mod.raw_env.metadata["name"] == f"{name}_v1"
        assert "* v1:" in mod.__doc__
