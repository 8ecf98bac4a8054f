"""Observations leak nothing (DESIGN: egocentric, leak-free observations).

At positions reached by seeded random play, for every viewer: deal the cards that viewer cannot
see (other hands except the cards they took face up, and the stock) anew at random, restore the
position with that change, and check the viewer's observation and mask are unchanged. A second
check makes sure the test can fail: the viewer's own hand does change its observation.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import rummy_env

from rummy_env.contract.rules import ContractRules

#: The contract family (Indian Rummy's leak test is in tests/test_indian_env.py).
VARIANTS = [v for v in rummy_env.VARIANTS if isinstance(rummy_env.make(v).rules, ContractRules)]


def _permute_hidden(state: dict, viewer: int, rng: np.random.Generator) -> dict:
    s = copy.deepcopy(state)
    n = len(s["hands"])
    hidden: list[str] = list(s["stock"])
    keep: dict[int, list[str]] = {}
    for q in range(n):
        if q == viewer:
            continue
        hand = list(s["hands"][q])
        known = list(s["known"][q])
        for c in known:
            hand.remove(c)
        keep[q] = known
        hidden.extend(hand)
        s["hands"][q] = len(hand)  # placeholder: number of hidden cards to deal back
    order = rng.permutation(len(hidden))
    hidden = [hidden[i] for i in order]
    for q in keep:
        k = s["hands"][q]
        s["hands"][q] = keep[q] + hidden[:k]
        hidden = hidden[k:]
    s["stock"] = hidden
    s.pop("zones")
    return s


@pytest.mark.parametrize("name", VARIANTS)
def test_observations_do_not_depend_on_hidden_cards(name: str) -> None:
    rng = np.random.default_rng(99)
    checked = 0
    for game in range(6):
        env = rummy_env.make(name, num_players=3 + game % 3, deal=1 + game)
        env.reset(seed=game)
        other = rummy_env.make(name, num_players=env.num_players, deal=1 + game)
        for step in range(120):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            if step % 10 == 0:
                state = env.get_state()
                for viewer, a in enumerate(env.possible_agents):
                    # Some deals of the hidden cards give positions that cannot arise (the
                    # actor under a dig obligation it cannot meet): the loader refuses them,
                    # and another deal is tried.
                    for _ in range(50):
                        try:
                            other.reset(seed=1, options={
                                "scenario": _permute_hidden(state, viewer, rng)})
                            break
                        except rummy_env.ScenarioError:
                            continue
                    else:
                        continue
                    assert other.get_state()["hands"][viewer] == state["hands"][viewer]
                    mine, theirs = env.observe(a), other.observe(a)
                    np.testing.assert_array_equal(mine["observation"], theirs["observation"])
                    np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
                    checked += 1
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
    assert checked > 60


def test_the_leak_check_can_fail() -> None:
    """Changing a card the viewer does see (its own hand) changes its observation."""
    env = rummy_env.make("contract_rummy", num_players=3)
    env.reset(seed=0)
    state = env.get_state()
    state.pop("zones")
    hand = state["hands"][0]
    swap_in = next(c for c in state["stock"] if c not in hand)
    idx = state["stock"].index(swap_in)
    state["stock"][idx], hand[0] = hand[0], swap_in
    other = rummy_env.make("contract_rummy", num_players=3)
    other.reset(seed=1, options={"scenario": state})
    assert not np.array_equal(env.observe("player_0")["observation"],
                              other.observe("player_0")["observation"])
