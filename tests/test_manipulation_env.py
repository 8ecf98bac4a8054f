"""Environment-level guarantees of Manipulation Rummy (DESIGN: quality bars).

A seeded random-play soak with invariants at every step (cards conserved, the table valid at
the end of every turn, the actor's mask non-empty and every other mask zero, action text round
trips), the leak test (other hands and the stock order never reach an observation), scenario
round trips through ``get_state``, scenario validation errors, rendering of one valid
arrangement, and the greedy bot against the random bot.

The soak's deals run up to 400 turns, as the contract family's: with the solver's compiled core
(issue 20) whole deals cost a fraction of a second, so nearly every deal plays to its end
(knock, out or the stock, MR-7 to MR-9), through tables of 60-90 cards and jokers freed and
played again.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import RandomBot, seat_view
from rummy_env.bots.manipulation import ManipulationGreedyBot
from rummy_env.errors import ScenarioError
from rummy_env.manipulation import solver

VARIANT = "manipulation_rummy"


@pytest.mark.slow
def test_random_play_soak_with_invariants() -> None:
    """200 seeded games (2-5 players, deals cut at 400 turns as the contract family's soak:
    nearly all play to their end): invariants at every step."""
    rng = np.random.default_rng(99)
    ended = 0
    for game in range(200):
        players = 2 + game % 4
        env = rummy_env.make(VARIANT, num_players=players, max_turns=400)
        env.reset(seed=game)
        deck = list(env.game.deck)
        turn = env.state_obj.turn_number
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            st = env.state_obj
            assert st.zone_counts() == deck, "cards not conserved"
            if st.turn_number != turn or st.is_deal_over:
                # A turn ended: the table is valid (MR-4) and no joker waits (MR-5).
                assert solver.is_valid_table(st.table_counts()) and st.pending == 0
                turn = st.turn_number
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            legal = np.flatnonzero(mask)
            assert list(legal) == env.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            assert env.string_to_action(env.action_to_string(a)) == a
            env.step(a)
        ended += env.state_obj.is_deal_over
    # Deals that end (knock or out) as well as deals cut at the turn limit.
    assert ended >= 180, ended  # deals play to their end


def _permute_hidden(state: dict, viewer: int, rng: np.random.Generator) -> dict:
    s = copy.deepcopy(state)
    n = len(s["hands"])
    hidden = list(s["stock"])
    sizes = {}
    for q in range(n):
        if q != viewer:
            hidden.extend(s["hands"][q])
            sizes[q] = len(s["hands"][q])
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    for q, k in sizes.items():
        s["hands"][q], hidden = hidden[:k], hidden[k:]
    s["stock"] = hidden
    s.pop("zones")
    return s


@pytest.mark.parametrize("players", [2, 4])
def test_observations_leak_nothing(players: int) -> None:
    """Dealing the hidden cards anew leaves every other seat's observation and mask alone;
    the viewer's own hand does change its observation (the test can fail)."""
    env = rummy_env.make(VARIANT, num_players=players)
    env.reset(seed=5)
    bot = RandomBot(3)
    rng = np.random.default_rng(0)
    for _ in range(6):
        env.step(bot.act(seat_view(env, env.agent_selection)))
        if env.state_obj.melding or env.state_obj.phase != "meld":
            continue  # a meld in progress or a knock depends on the actor's exact hand
        state = env.get_state()
        for viewer in range(players):
            agent = f"player_{viewer}"
            before = env.observe(agent)
            other = rummy_env.make(VARIANT, num_players=players)
            other.reset(seed=1, options={"scenario": _permute_hidden(state, viewer, rng)})
            after = other.observe(agent)
            assert np.array_equal(before["observation"], after["observation"])
            assert np.array_equal(before["action_mask"], after["action_mask"])
        mine = copy.deepcopy(state)
        mine.pop("zones")
        actor = env.state_obj.to_move
        mine["hands"][actor], mine["stock"] = mine["stock"][:len(mine["hands"][actor])], (
            mine["hands"][actor] + mine["stock"][len(mine["hands"][actor]):])
        changed = rummy_env.make(VARIANT, num_players=players)
        try:
            changed.reset(seed=1, options={"scenario": mine})
        except ScenarioError:
            continue
        assert not np.array_equal(changed.observe(f"player_{actor}")["observation"],
                                  env.observe(f"player_{actor}")["observation"])


def test_get_state_round_trips_with_joker_bindings() -> None:
    env = rummy_env.make(VARIANT, num_players=3)
    env.reset(seed=0, options={"scenario": {
        "dealer": 2, "hands": [["7H", "KC"], ["KD"], ["4S"]],
        "table": [["JK=7H", "8H", "9H"]], "stock": ["2D"]}})
    env.step(env.string_to_action("free joker 7H from hand"))
    state = json.loads(json.dumps(env.get_state()))
    assert state["turn"]["pending"] == 1 and state["turn"]["melding"]
    assert sorted(state["zones"]["table"]) == ["7H", "8H", "9H", "JK"]
    assert sum(len(z) for z in state["zones"].values()) == 106
    again = rummy_env.make(VARIANT, num_players=3)
    state.pop("zones")
    again.reset(seed=9, options={"scenario": state})
    assert again.get_state() == env.get_state()
    assert again.legal_action_strings() == env.legal_action_strings()


@pytest.mark.parametrize("scenario,match", [
    ({"table": [["5H", "6H"]]}, "MR-3"),
    ({"table": [["JK", "6H", "7H"]]}, "JK=7H"),
    ({"hands": [["5H", "5H", "5H"], None, None]}, "copies of 5H"),
    ({"phase": "knock", "hands": [["KC"], None, None], "turn": {"draws": 1}}, "MR-7"),
    ({"phase": "meld", "turn": {"draws": 3}}, "MR-2"),
    ({"turn": {"bogus": 1}}, "unknown scenario turn keys"),
])
def test_bad_scenarios_raise(scenario: dict, match: str) -> None:
    env = rummy_env.make(VARIANT, num_players=3)
    with pytest.raises(ScenarioError, match=match):
        env.reset(seed=0, options={"scenario": scenario})


def test_render_shows_one_valid_arrangement() -> None:
    env = rummy_env.make(VARIANT, num_players=3, render_mode="ansi")
    env.reset(seed=0, options={"scenario": {
        "dealer": 2, "hands": [["KC"], ["KD"], ["4S"]],
        "table": [["4H", "5H", "6H", "7H", "7C", "7D"]], "stock": ["2D"]}})
    text = env.render()
    assert "seq 4H 5H 6H" in text and "gro 7C 7D 7H" in text
    assert text.count("hand:") == 1


def test_greedy_bot_plays_the_most_cards_and_knocks() -> None:
    """The greedy bot reads only its view: it plays the highest legal card first, keeps
    playing while the mask allows, finishes, and knocks when it may (MR-7)."""
    env = rummy_env.make(VARIANT, num_players=3, reward_scale=1.0)
    env.reset(seed=0, options={"scenario": {
        "dealer": 2, "hands": [["AC", "2D", "5H", "6H"], ["KC", "QC"], ["9S"]],
        "table": [["7H", "8H", "9H"]], "stock": ["4H"]}})
    bot = ManipulationGreedyBot(0)
    played = []
    while env.agent_selection == "player_0" and not env.state_obj.is_deal_over:
        view = seat_view(env, "player_0")
        a = bot.act(view)
        assert a in view.legal_actions
        played.append(env.action_to_string(a))
        env.step(a)
    assert played == ["play 6H", "play 5H", "play 4H", "finish meld", "knock"]
    assert env.state_obj.last_deal_points == [23, 0, 0]


def test_greedy_bot_only_returns_legal_actions_in_play() -> None:
    env = rummy_env.make(VARIANT, num_players=2, max_turns=6)
    bots = [ManipulationGreedyBot(1), ManipulationGreedyBot(2)]
    env.reset(seed=3)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        view = seat_view(env, agent)
        a = bots[int(agent[-1])].act(view)
        assert a in view.legal_actions
        env.step(a)
