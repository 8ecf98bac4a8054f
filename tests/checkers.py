"""Checks that every family's tests share (issue 21, point 4): the soak's per-step invariants,
the leak check (hidden cards dealt anew change nothing the viewer sees), the round trip of a
position through ``get_state()`` and a scenario, and copies (deepcopy, pickle) that keep the
position. The family test modules call these with their own play policies and counts, and add
what only their family has (tests/test_envs.py, test_leak.py, test_gin_env.py,
test_indian_env.py, test_scenarios_and_options.py).
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

import rummy_env

#: A play policy: (env, legal action ids, generator) -> the action to take.
Policy = Callable[[Any, list[int], np.random.Generator], int]


def uniform(env: Any, legal: list[int], rng: np.random.Generator) -> int:
    """Uniform random over the mask."""
    return int(legal[rng.integers(len(legal))])


# --------------------------------------------------------------------------- soak
def play_checked(env: Any, rng: np.random.Generator, *, policy: Policy = uniform,
                 others_every: Callable[[int, Any], bool] = lambda step, st: True,
                 texts_every: Callable[[int], bool] = lambda step: False,
                 on_step: Callable[[Any, str, dict, int], None] | None = None,
                 max_steps: int) -> dict[str, float]:
    """Play the deal of the reset ``env`` to its end with ``policy``, checking at every step:
    the cards are conserved (``zone_counts()`` is the deck's), the actor's mask is int8 and
    non-empty and is ``legal_actions()``, the chosen action's text parses back to it; where
    ``others_every(step, state)``, every other agent's mask is all zeros; where
    ``texts_every(step)``, every legal action's text parses back. ``on_step(env, agent, obs,
    step)`` adds a family's own checks before the action. The episode ends within
    ``max_steps``. Returns each agent's summed reward."""
    deck = list(env.game.deck)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        st = env.state_obj
        assert st.zone_counts() == deck, f"cards not conserved at step {steps}"
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any(), "acting agent's mask is empty"
        legal = [int(a) for a in np.flatnonzero(mask)]
        assert legal == env.legal_actions()
        if others_every(steps, st):
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any(), f"{other} has a mask"
        if texts_every(steps):
            for a in legal:
                assert env.string_to_action(env.action_to_string(a)) == a
        if on_step is not None:
            on_step(env, agent, obs, steps)
        a = policy(env, legal, rng)
        assert env.string_to_action(env.action_to_string(a)) == a
        env.step(a)
        steps += 1
        assert steps < max_steps, "episode did not end"
    return totals


# --------------------------------------------------------------------------- leaks
def hidden_redeal(state: dict, viewer: int, rng: np.random.Generator, *,
                  seen: Callable[[dict, int], list[str]] | None = None) -> dict:
    """``state`` (a ``get_state()`` dict) with every card ``viewer`` cannot see dealt anew: the
    other hands except the cards they took face up (``known`` where the family keeps it, or
    ``seen(state, seat)``), the stock and the cards out of play where the family has them."""
    s = copy.deepcopy(state)
    hidden: list[str] = list(s["stock"]) + list(s.get("out_of_play", ()))
    keep: dict[int, list[str]] = {}
    for q in range(len(s["hands"])):
        if q == viewer:
            continue
        keep[q] = list(seen(s, q) if seen is not None else s["known"][q] if "known" in s
                       else ())
        hand = list(s["hands"][q])
        for c in keep[q]:
            hand.remove(c)
        hidden.extend(hand)
        s["hands"][q] = len(hand)  # placeholder: the number of hidden cards to deal back
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    for q in keep:
        k = s["hands"][q]
        s["hands"][q] = keep[q] + hidden[:k]
        hidden = hidden[k:]
    if "out_of_play" in s:
        k = len(s["out_of_play"])
        s["out_of_play"], hidden = hidden[:k], hidden[k:]
    s["stock"] = hidden
    s.pop("zones")
    return s


def gin_seen(state: dict, q: int) -> list[str]:
    """Gin's ``seen``: the cards of seat ``q`` its opponent sees are those it took face up, and
    all of them once it has knocked and the knock is done (its deadwood is face up, GR-5)."""
    if state["knocker"] == q and state["phase"] != "knock":
        return list(state["hands"][q])
    return list(state["known"][q])


#: The ``seen`` of each family that needs its own (the others: ``known``, or nothing).
SEEN = {"gin": gin_seen}


def check_blind_to_hidden_cards(env: Any, other: Any, rng: np.random.Generator, *,
                                tries: int = 1,
                                seen: Callable[[dict, int], list[str]] | None = None) -> int:
    """The leak check at ``env``'s position: for every viewer, load into ``other`` the position
    with the cards that viewer cannot see dealt anew (``hidden_redeal``); the viewer's hand,
    observation and mask are unchanged. A deal the loader refuses (a position that cannot
    arise) is dealt again, up to ``tries`` times, then that viewer is passed over; with
    ``tries=1`` a refusal fails the test. Returns the number of viewers checked."""
    state = env.get_state()
    checked = 0
    for viewer, a in enumerate(env.possible_agents):
        for _ in range(tries):
            try:
                other.reset(seed=1, options={
                    "scenario": hidden_redeal(state, viewer, rng, seen=seen)})
                break
            except rummy_env.ScenarioError:
                if tries == 1:
                    raise
        else:
            continue
        assert other.get_state()["hands"][viewer] == state["hands"][viewer]
        mine, theirs = env.observe(a), other.observe(a)
        np.testing.assert_array_equal(mine["observation"], theirs["observation"])
        np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
        checked += 1
    return checked


def check_own_hand_is_seen(variant: str, num_players: int) -> None:
    """The leak check can fail: swapping a card of the viewer's own hand with one of the stock
    changes the viewer's observation."""
    env = rummy_env.make(variant, num_players=num_players)
    env.reset(seed=0)
    state = env.get_state()
    state.pop("zones")
    hand = state["hands"][0]
    swap_in = next(c for c in state["stock"] if c not in hand)
    idx = state["stock"].index(swap_in)
    state["stock"][idx], hand[0] = hand[0], swap_in
    other = rummy_env.make(variant, num_players=num_players)
    other.reset(seed=1, options={"scenario": state})
    assert not np.array_equal(env.observe("player_0")["observation"],
                              other.observe("player_0")["observation"])


# --------------------------------------------------------------------------- round trips
def check_round_trip(env: Any, other: Any, *, observations: bool = False) -> dict:
    """``get_state()`` through JSON and back into ``other`` as a scenario gives the same
    position: the same ``get_state()``, legal actions and agent to move; with
    ``observations``, the same observation and mask for every agent. Returns the state."""
    state = env.get_state()
    other.reset(seed=123, options={"scenario": json.loads(json.dumps(state))})
    assert other.get_state() == state
    assert other.legal_actions() == env.legal_actions()
    assert other.agent_selection == env.agent_selection
    if observations:
        for a in env.possible_agents:
            mine, theirs = env.observe(a), other.observe(a)
            np.testing.assert_array_equal(mine["observation"], theirs["observation"])
            np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
    return state


def check_copies_keep_the_position(env: Any, policy: Callable[[Any], int],
                                   steps: int = 60) -> None:
    """``copy.deepcopy`` and a pickle round trip of ``env`` hold the same position (state,
    agent to move, state vector), and the same actions from there give the same trajectory
    with the same legal actions at every step (the generator is copied too): ``policy(env)``
    chooses on one copy and the other plays the same action."""
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert clone.get_state() == env.get_state()
        assert clone.agent_selection == env.agent_selection
        np.testing.assert_array_equal(clone.state(), env.state())
        e1, e2 = copy.deepcopy(env), clone
        for _ in range(steps):
            if any(e1.terminations.values()) or any(e1.truncations.values()):
                break
            assert e1.legal_actions() == e2.legal_actions()
            a = policy(e1)
            e1.step(a)
            e2.step(a)
        assert e1.get_state() == e2.get_state()
