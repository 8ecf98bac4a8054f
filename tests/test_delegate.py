"""Delegated decisions: a bot plays the learner's decisions whose legal actions are all of some
kinds (Gin Rummy's laying out after a knock), in training (SingleSeatEnv's ``delegate``) and in
play (a policy header's ``delegate``), so both play the same way."""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import make_bot, only_kinds, seat_view
from rummy_env.bots.policy import FORMAT, PolicyBot
from rummy_env.wrappers import SingleSeatEnv

LAYOUT = ["meld", "lay_off", "done"]


def _greedy_episode(env: SingleSeatEnv, seed: int) -> tuple[float, list[int]]:
    """The learner plays greedy at every decision it is shown; returns its reward and actions."""
    bot = make_bot("greedy", 0)
    env.reset(seed=seed)
    total, actions, done = 0.0, [], False
    while not done:
        a = int(bot.act(seat_view(env.aec, env.learner)))
        actions.append(a)
        _, r, term, trunc, _ = env.step(a)
        total += r
        done = term or trunc
    return total, actions


def test_delegated_decisions_are_the_bots_and_never_shown_to_the_learner() -> None:
    plain = SingleSeatEnv("gin_rummy", opponents="greedy", seed=0)
    deleg = SingleSeatEnv("gin_rummy", opponents="greedy", seed=0, delegate=("greedy", LAYOUT))
    shown_layout = 0
    for seed in range(40):
        r0, a0 = _greedy_episode(plain, seed)
        r1, a1 = _greedy_episode(deleg, seed)
        # greedy everywhere either way: the same game, the same reward; the delegating env
        # showed the learner exactly the decisions that are not all lay-out actions
        assert r1 == pytest.approx(r0)
        layout = [a for a in a0 if plain.aec.layout.decode(a)[0] in LAYOUT]
        shown_layout += len(layout)
        assert len(a1) < len(a0) or not layout
        assert all(deleg.aec.layout.decode(a)[0] not in LAYOUT for a in a1)
    assert shown_layout > 0  # the deals did reach the lay-out phase


def test_only_kinds() -> None:
    env = rummy_env.make("gin_rummy")
    env.reset(seed=1)
    view = seat_view(env, env.agent_selection)
    kinds = {view.action_layout.decode(i)[0] for i in view.legal_actions}
    assert only_kinds(view, kinds) and not only_kinds(view, {"meld"})
    assert not only_kinds(view, set())


def _policy(obs_size: int, n_actions: int, delegate: dict | None) -> dict:
    rng = np.random.default_rng(0)
    meta = {"format": FORMAT, "variant": "gin_rummy", "num_players": 2, "features": False,
            "activation": "tanh", "obs_size": obs_size, "n_actions": n_actions}
    if delegate:
        meta["delegate"] = delegate
    return {"meta": meta, "layers": [(rng.normal(size=(obs_size, 8)), np.zeros(8)),
                                     (rng.normal(size=(8, n_actions)), np.zeros(n_actions))]}


def test_a_policy_header_delegates_the_same_decisions() -> None:
    env = rummy_env.make("gin_rummy")
    size = env.observation_space("player_0")["observation"].shape[0]
    n = env.action_space("player_0").n
    pol = PolicyBot(_policy(size, n, {"bot": "greedy", "kinds": LAYOUT}))
    raw = PolicyBot(_policy(size, n, None))
    greedy = make_bot("greedy", 0)
    delegated = differ = 0
    for seed in range(60):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = seat_view(env, agent)
            a = pol.act(view)
            if only_kinds(view, set(LAYOUT)):
                delegated += 1
                assert a == greedy.act(view)
                differ += a != raw.act(view)
            else:
                assert a == raw.act(view)  # the network's own decision otherwise
            env.step(a)
    assert delegated > 0 and differ > 0


def test_bad_delegates_are_refused() -> None:
    with pytest.raises(ValueError, match="delegate"):
        SingleSeatEnv("gin_rummy", delegate="greedy")
    with pytest.raises(ValueError, match="delegate"):
        PolicyBot(_policy(4, 3, {"bot": "greedy"}))
    pytest.importorskip("yaml")  # training.train reads YAML recipes (the "train" extra)
    from training.train import resolve_config
    with pytest.raises(SystemExit, match="delegate"):
        resolve_config(["--variant", "gin_rummy", "--set", "delegate={bot: greedy}"])
