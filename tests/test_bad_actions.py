"""Bad actions and action text, every variant (issue 16, point 1).

``step`` takes what ``Discrete(N).contains`` accepts (Python and numpy integers in range; not
``bool``, see ``rummy_env.codec.as_action_id``) and refuses everything else with
``IllegalActionError`` naming the value, changing nothing; after every agent has left the
episode, ``step`` warns and does nothing (PettingZoo's ``OrderEnforcingWrapper``),
``legal_actions()`` is empty and ``last()`` says to reset.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env import IllegalActionError

NOT_IDS = [3.0, 3.5, float("inf"), float("-inf"), float("nan"), "3", "draw stock", b"3",
           True, False, np.bool_(True), np.float32(1.0), np.array([1]), np.array(1.0),
           [1], (1,), {1: 1}, object(), 1j, 2**70, -(2**70)]


@pytest.fixture(scope="module", params=rummy_env.VARIANTS)
def env(request):
    e = rummy_env.make(request.param, illegal_action="raise")
    e.reset(seed=3)
    return e


def test_step_refuses_what_is_not_an_id_and_changes_nothing(env):
    env.reset(seed=3)
    before = env.get_state()
    agent, rng_state = env.agent_selection, env.np_random.bit_generator.state
    space = env.action_space(agent)
    for bad in NOT_IDS:
        if not isinstance(bad, bool):  # Discrete.contains counts True as 1; we refuse bools
            assert not space.contains(bad) if not isinstance(bad, int) else True
        with pytest.raises(IllegalActionError) as info:
            env.step(bad)
        if not isinstance(bad, int) or isinstance(bad, bool):
            assert "not an integer action id" in str(info.value), bad
        with pytest.raises(IllegalActionError):
            env.action_to_string(bad)
    for bad in (space.n, -1, np.int64(space.n), np.int8(-1)):
        with pytest.raises(IllegalActionError, match=f"outside Discrete\\({space.n}\\)"):
            env.step(bad)
    assert env.get_state() == before
    assert env.agent_selection == agent
    assert env.np_random.bit_generator.state == rng_state
    assert not any(env.terminations.values())


def test_step_takes_python_and_numpy_integers(env):
    for kind in (int, np.int16, np.int32, np.int64, np.uint16, np.uint64,
                 lambda i: np.array(i)):
        env.reset(seed=3)
        a = env.legal_actions()[0]
        space = env.action_space(env.agent_selection)
        if kind not in (np.uint16, np.uint64):  # gymnasium's contains is unsure of unsigned
            assert space.contains(kind(a))
        env.step(kind(a))
        ref = rummy_env.make(env.metadata["name"].rsplit("_v", 1)[0], illegal_action="raise")
        ref.reset(seed=3)
        ref.step(a)
        assert env.get_state() == ref.get_state()
        assert env.action_to_string(kind(a)) == ref.action_to_string(a)


def test_string_to_action_refuses_non_strings(env):
    for bad in (5, 3.5, None, b"draw stock", ["draw stock"]):
        with pytest.raises(IllegalActionError, match="must be a str"):
            env.string_to_action(bad)
    for bad in ("", "fly away", "draw stock please"):
        with pytest.raises(IllegalActionError, match="no action reads"):
            env.string_to_action(bad)


def _play_to_the_end(env):
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    assert env.agents == []


def test_calls_after_every_agent_has_left(env, caplog):
    env.reset(seed=4)
    _play_to_the_end(env)
    assert env.legal_actions() == []
    before = env.get_state()
    for action in (None, 0, 3.5):
        caplog.clear()
        env.step(action)  # PettingZoo's EnvLogger warning (the logging module)
        assert "after all agents are terminated" in caplog.text
    assert env.get_state() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.last()
    env.observe("player_0")  # a departed agent's last observation stays available
    env.reset(seed=5)
    assert env.legal_actions()


#: What a user or a bot might hand the engine's ``apply`` (not the env's ``step``, which takes
#: ids): malformed tuples of every family's kinds, and values that are no tuple at all.
NOT_ACTIONS = [(), ("meld",), ("lay_off", 1), ("draw_stock", 1), ("discard", 999),
               ("discard", "7H"), ("play",), ("knock", 1, 2), ("meld", "x", "y", "z"),
               ("nonsense", 1), 5, "draw stock", None, [("discard", 3)]]


def test_engine_apply_names_a_malformed_action_and_changes_nothing(env):
    """The rules engine's ``apply`` (bots, scenarios, users of the engine) answers a malformed
    action, of any family, with ``IllegalActionError`` naming the value as given (its repr,
    not an IndexError or TypeError from building its text, nor the text of some other,
    well-formed action), and the position is as it was."""
    st = env.state_obj.clone()
    before = st.to_dict()
    for bad in NOT_ACTIONS:
        with pytest.raises(IllegalActionError) as err:
            st.apply(bad, np.random.default_rng(0))
        assert f"action {bad!r} is not legal" in str(err.value), (bad, str(err.value))
        assert st.to_dict() == before
