"""Property-based suite over the public API (issue 16, point 2), for every variant.

What the issue's independent fuzz did, kept in the project: mutated ``get_state()`` dicts from
every phase (keys dropped, types changed, huge ints, bad card text, cards moved between zones,
turn fields tweaked), arbitrary values in any scenario field, bad actions, bad text and bad
options. It asserts only the documented exception types (rummy_env/errors.py: ScenarioError,
RuleConfigError, IllegalActionError; ValueError for text), that a refusal leaves the env as it
was (``get_state()``, the generator, the next unseeded trajectory), and that an accepted
scenario plays on to the end of the deal with the soak's invariants (tests/fuzz_inputs.py:
cards conserved, the mask non-empty exactly for the actor, ``get_state()`` JSON).

The default run is short and deterministic (``derandomize``); ``pytest -m fuzz
tests/test_fuzz.py`` (or ``RUMMY_FUZZ=1``) runs the deep versions with many more examples.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummy_env
from rummy_env.errors import IllegalActionError, RuleConfigError, ScenarioError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_inputs import BAD_VALUES, mutate, play_to_end, player_counts, positions  # noqa: E402

VARIANTS = tuple(rummy_env.VARIANTS)
#: Manipulation's exact masks cost milliseconds a step: fewer examples there.
SLOW = {"manipulation_rummy"}

_COMMON = dict(deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much])


def _deep(config: pytest.Config) -> bool:
    return "fuzz" in (config.getoption("markexpr") or "") or os.environ.get("RUMMY_FUZZ") == "1"


class _Chooser:
    """Mutation choices drawn from hypothesis (so failures shrink)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, seq):
        return seq[self.data.draw(st.integers(0, len(seq) - 1))]

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))


def _env(variant: str, n: int, **kw) -> Any:
    env = rummy_env.make(variant, num_players=n, illegal_action="raise", **kw)
    env.reset(seed=7)
    return env


def _snapshot(env) -> tuple:
    return (json.dumps(env.get_state(), sort_keys=True),
            json.dumps(env.np_random.bit_generator.state, sort_keys=True, default=str),
            env.agent_selection)


def _assert_unchanged(env, before: tuple, twin) -> None:
    """After a refusal: the position, the generator and the next unseeded trajectory are those
    of ``twin``, a deep copy taken before the attempt."""
    assert _snapshot(env) == before
    env.reset()
    twin.reset()
    assert env.get_state() == twin.get_state()


def _try_scenario(env, scenario, seed: int) -> bool:
    """Reset to ``scenario``: a refusal must be a ScenarioError that changes nothing; an
    accepted scenario must play on to the end of the deal. True if accepted."""
    twin = copy.deepcopy(env)
    before = _snapshot(env)
    try:
        env.reset(options={"scenario": scenario})
    except ScenarioError as e:
        assert str(e)
        _assert_unchanged(env, before, twin)
        return False
    play_to_end(env, seed)
    return True


# --------------------------------------------------------------------------- scenarios
def _cases() -> list[tuple[str, int]]:
    return [(v, n) for v in VARIANTS for n in player_counts(v)]


@pytest.mark.slow
@pytest.mark.parametrize("variant,n", _cases())
def test_positions_of_play_load_back(variant, n):
    """Every position reached in play is an accepted scenario and round-trips (the schema's
    checks refuse nothing that play reaches)."""
    env = _env(variant, n)
    for text in positions(variant, n, 2)[:: 3 if variant in SLOW else 1]:
        d = json.loads(text)
        env.reset(options={"scenario": d})
        assert env.get_state() == d


def _mutation_test(variant: str, n: int, examples: int):
    pos = positions(variant, n, 2)

    @settings(max_examples=examples, **_COMMON)
    @given(data=st.data())
    def run(data):
        base = json.loads(pos[data.draw(st.integers(0, len(pos) - 1), label="position")])
        scenario = mutate(base, _Chooser(data))
        env = _env(variant, n)
        _try_scenario(env, scenario, seed=data.draw(st.integers(0, 3), label="play seed"))

    run()


@pytest.mark.slow
@pytest.mark.parametrize("variant,n", _cases())
def test_mutated_scenarios_are_refused_cleanly_or_play_on(variant, n, request):
    examples = 10 if variant in SLOW else 25
    _mutation_test(variant, n, examples * (25 if _deep(request.config) else 1))


@pytest.mark.fuzz
@pytest.mark.parametrize("variant,n", _cases())
def test_mutated_scenarios_deep(variant, n, request):
    if not _deep(request.config):
        pytest.skip("deep fuzz: pytest -m fuzz (or RUMMY_FUZZ=1)")
    _mutation_test(variant, n, 100 if variant in SLOW else 1000)


#: Arbitrary JSON-like values, nested a little (and a deep one: RecursionError must not escape).
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(BAD_VALUES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                  max_size=3),
    max_leaves=12,
)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_any_value_in_any_field_is_a_scenario_error_or_plays(variant, request):
    n = player_counts(variant)[0]
    base = json.loads(positions(variant, n, 2)[1])
    fields = sorted(k for k in base if k != "zones") + [f"turn.{k}" for k in base["turn"]]

    @settings(max_examples=(10 if variant in SLOW else 30) * (25 if _deep(request.config) else 1),
              **_COMMON)
    @given(field=st.sampled_from(fields), value=JSONISH)
    def run(field, value):
        scenario = copy.deepcopy(base)
        if field.startswith("turn."):
            scenario["turn"][field[5:]] = value
        else:
            scenario[field] = value
        _try_scenario(_env(variant, n), scenario, seed=0)

    run()


@pytest.mark.parametrize("variant", VARIANTS)
def test_deeply_nested_and_non_dict_scenarios(variant):
    env = _env(variant, player_counts(variant)[0])
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for bad in ("scenario", 3, ["7H"], None, {"hands": deep}, {"turn": {"number": deep}},
                {"table": deep}, {"turn": deep}, {"stock": ["7H"] * 10**4}):
        twin = copy.deepcopy(env)
        before = _snapshot(env)
        if bad is None:
            continue  # no scenario: a plain reset
        with pytest.raises(ScenarioError):
            env.reset(options={"scenario": bad})
        _assert_unchanged(env, before, twin)
    for options in ("scenario", 3, ["scenario"]):
        twin = copy.deepcopy(env)
        before = _snapshot(env)
        with pytest.raises(RuleConfigError, match="reset options"):
            env.reset(options=options)
        _assert_unchanged(env, before, twin)


# --------------------------------------------------------------------------- actions and text
ACTIONS = (st.integers() | st.floats() | st.text(max_size=8) | st.binary(max_size=4)
           | st.none() | st.booleans() | st.sampled_from(BAD_VALUES)
           | st.integers(-3, 3).map(np.int64) | st.floats(-3, 3).map(np.float32)
           | st.lists(st.integers(0, 3), max_size=2).map(np.array))


def _is_id(space, action) -> bool:
    """What step() takes (README): Discrete's ids as Python or numpy ints, never bools or
    arrays."""
    if isinstance(action, (bool, np.ndarray, np.bool_)):
        return False
    try:
        return bool(space.contains(action))
    except OverflowError:  # gymnasium's contains() on an int beyond int64
        return False


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_actions_raise_and_change_nothing(variant, request):
    n = player_counts(variant)[-1]
    pos = positions(variant, n, 2)

    @settings(max_examples=(10 if variant in SLOW else 30) * (25 if _deep(request.config) else 1),
              **_COMMON)
    @given(i=st.integers(0, len(pos) - 1), action=ACTIONS)
    def run(i, action):
        env = _env(variant, n)
        env.reset(options={"scenario": json.loads(pos[i])})
        _, _, term, trunc, _ = env.last(observe=False)
        before = _snapshot(env)
        space = env.action_space(env.agent_selection)
        if term or trunc:
            return
        legal = env.legal_actions()
        ok = _is_id(space, action)
        if ok and int(action) in legal:
            env.step(action)
            return
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert _snapshot(env) == before
        play_to_end(env, 0, max_steps=50)

    run()


@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_text_is_a_value_error(variant):
    env = _env(variant, player_counts(variant)[0])
    n_actions = env.action_space("player_0").n

    @settings(max_examples=60, **_COMMON)
    @given(text=st.text(max_size=20) | st.sampled_from(
        ["draw", "meld", "discard 7H 7H", "lay off", "pass pass", "knock", "10H", "discard ZZ"]),
        thing=ACTIONS)
    def run(text, thing):
        try:
            a = env.string_to_action(text)
        except ValueError:
            pass
        else:
            assert 0 <= a < n_actions
            assert env.string_to_action(env.action_to_string(a)) == a
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                s = env.action_to_string(thing)
            except IllegalActionError:
                assert not _is_id(env.action_space("player_0"), thing)
            else:
                assert isinstance(s, str) and _is_id(env.action_space("player_0"), thing)
        with pytest.raises(ValueError):
            env.string_to_action(thing if not isinstance(thing, str) else 5)

    run()


# --------------------------------------------------------------------------- options
OPTION_NAMES = ("num_players", "episode", "deal", "max_turns", "illegal_action", "reward_scale",
                "illegal_reward")


@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_options_are_rule_config_errors_or_play(variant, request):
    rules = rummy_env.make(variant).rules
    names = sorted(set(OPTION_NAMES) | set(rules.__dataclass_fields__) - {"name"})

    @settings(max_examples=30 * (10 if _deep(request.config) else 1), **_COMMON)
    @given(name=st.sampled_from(names),
           value=st.sampled_from(BAD_VALUES) | st.integers(-5, 200) | JSONISH)
    def run(name, value):
        try:
            env = rummy_env.make(variant, **{name: value})
        except RuleConfigError as e:
            assert name in str(e) or "option" in str(e)
            return
        env.reset(seed=0)
        play_to_end(env, 0, max_steps=150)

    run()
