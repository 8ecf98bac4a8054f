"""True observation and state bounds (issue 16, point 4): every space declares finite bounds
built from the encoders' ranges, and every observation (every seat's, at every step) and every
state of a seeded random soak lies inside them, in every variant; a scenario whose position
would not is refused."""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env

#: Soak length per variant: (episodes of one random deal, whole games); Manipulation Rummy's
#: masks now come from a compiled core (issue 20), so it plays the default like the others.
SOAK = {"gin_rummy": (6, 2), "indian_rummy": (6, 1)}


def _inside(box, vec) -> bool:
    return (vec.shape == box.shape and vec.dtype == box.dtype
            and bool(np.all(vec >= box.low)) and bool(np.all(vec <= box.high)))


def _soak(env, seed: int) -> int:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    obs_box = env.observation_space(env.possible_agents[0])["observation"]
    steps = 0
    for agent in env.agent_iter():
        for a in env.possible_agents:
            vec = env.observe(a)["observation"]
            assert _inside(obs_box, vec), (a, _outside(env.encoder.layout, obs_box, vec))
        state = env.state()
        assert _inside(env.state_space, state), _outside(
            env.encoder.state_layout, env.state_space, state)
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
        else:
            legal = env.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
        steps += 1
    return steps


def _outside(layout, box, vec):
    bad = np.flatnonzero((vec < box.low) | (vec > box.high))
    return [(p.name, int(i) - p.start, float(vec[i]), float(box.low[i]), float(box.high[i]))
            for i in bad[:5] for p in layout.pieces.values() if p.start <= i < p.stop]


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_spaces_declare_finite_bounds(variant):
    env = rummy_env.make(variant)
    for box in (env.observation_space("player_0")["observation"], env.state_space):
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
        assert (box.low <= box.high).all() and box.is_bounded()
    mask = env.observation_space("player_0")["action_mask"]
    assert mask.dtype == np.int8 and (mask.low == 0).all() and (mask.high == 1).all()


@pytest.mark.slow
@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_soak_stays_inside_the_spaces(variant):
    deals, games = SOAK.get(variant, (4, 1))
    env = rummy_env.make(variant, deal="random")
    for seed in range(deals):
        _soak(env, seed)
    if games:
        lo, hi = env.rules.min_players, env.rules.max_players
        for seed in range(games):
            game = rummy_env.make(variant, episode="game", num_players=(lo, hi)[seed % 2])
            _soak(game, 100 + seed)


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_scenario_outside_the_bounds_is_refused(variant):
    env = rummy_env.make(variant)
    env.reset(seed=0)
    base = env.get_state()
    before = env.get_state()
    key = "points" if "points" in base else "scores"
    for bad, match in ((10**9, "outside what play can reach|overflow"),):
        scenario = dict(base)
        scenario[key] = [bad] + list(base[key][1:])
        with pytest.raises(rummy_env.ScenarioError, match=match):
            env.reset(options={"scenario": scenario})
        assert env.get_state() == before
    scenario = dict(base, turn=dict(base["turn"], number=env.max_turns + 1))
    with pytest.raises(rummy_env.ScenarioError, match="max_turns"):
        env.reset(options={"scenario": scenario})
    env.reset(options={"scenario": base})
    assert env.get_state() == before
