"""GinGreedyBot: sees only its seat's view, plays legal actions, beats RandomBot by a wide
margin, and makes the documented choices in scripted positions."""

from __future__ import annotations

import numpy as np

import rummy_env
from rummy_env.bots import GREEDY_BY_FAMILY, GreedyBot, RandomBot, seat_view
from rummy_env.bots.gin import GinGreedyBot

HAND11 = "AC 2C 3C 7D 7H 7S JS QS KS 5D 9H"
OPP10 = "6C 8C 10C KC 2D 4D 6D 8D 10D QD"


def _setup(scenario: dict, **options):
    env = rummy_env.make("gin_rummy", reward_scale=1.0, **options)
    env.reset(seed=0, options={"scenario": scenario})
    return env


def _choice(env, bot=None) -> str:
    bot = bot or GinGreedyBot(0)
    a = bot.act(seat_view(env, env.agent_selection))
    assert a in env.legal_actions()
    return env.action_to_string(a)


def test_registered_for_the_gin_family():
    env = rummy_env.make("gin_rummy")
    assert env.family == "gin" and GREEDY_BY_FAMILY["gin"] is GinGreedyBot
    env.reset(seed=1)
    view = seat_view(env, env.agent_selection)
    assert GreedyBot(3).act(view) == GinGreedyBot(3).act(view)


def test_takes_the_upcard_only_when_it_lowers_deadwood():
    hand = "AC 2C 3C 7D 7H 7S JS QS KS 5D".split()
    env = _setup({"phase": "first_upcard", "dealer": 1, "to_move": 0,
                  "hands": [hand, OPP10.split()], "discard": ["4C"]})
    assert _choice(env) == "take discard"  # 4C extends A-3C; 5D can go: deadwood 14 -> 0
    env = _setup({"phase": "first_upcard", "dealer": 1, "to_move": 0,
                  "hands": [hand, OPP10.split()], "discard": ["9H"]})
    assert _choice(env) == "pass"


def test_knocks_with_the_discard_that_leaves_least_deadwood():
    env = _setup({"phase": "play", "dealer": 1, "to_move": 0,
                  "hands": [HAND11.split(), OPP10.split()], "discard": ["KH"]})
    assert _choice(env) == "knock discarding 9H"  # leaves 5 (5D), not 9


def test_holds_a_near_gin_early_and_knocks_late():
    hand = "AC 2C 3C 7D 7H 7S JS QS KS AD 9H"  # knock discarding 9H leaves 1 (AD)
    pos = {"phase": "play", "dealer": 1, "to_move": 0, "hands": [hand.split(), OPP10.split()],
           "discard": ["KH"]}
    env = _setup(pos)
    assert _choice(env) == "discard 9H"  # 31 stock cards: play for gin
    assert _choice(env, GinGreedyBot(0, gin_hold=0)) == "knock discarding 9H"
    late = dict(pos, stock=["2H", "3H", "4H"],
                discard=[c for c in _all_cards() if c not in set(hand.split()) | set(
                    OPP10.split()) | {"2H", "3H", "4H"}])
    env = _setup(late)
    assert _choice(env) == "knock discarding 9H"


def _all_cards() -> list[str]:
    from rummy_env.cards import card_str

    return [card_str(t) for t in range(52)]


def test_defender_lays_off_its_deadwood_then_melds():
    env = _setup({"phase": "defend", "dealer": 1, "to_move": 1, "knocker": 0,
                  "hands": [["5C"], "7S JH 5S AS 6S KC KD KS 3D 6H".split()],
                  "discard": ["QH", "5H"],
                  "table": [{"owner": 0, "cards": c.split()}
                            for c in ("7C 7D 7H", "8H 9H 10H", "2S 3S 4S")]})
    played = []
    while not env.state_obj.is_deal_over:
        played.append(_choice(env))
        env.step(env.string_to_action(played[-1]))
    # JH and AS are deadwood outside 5S-6S-7S and the kings: laid off first; then the melds;
    # 3D 6H stay.
    assert set(played[:2]) == {"lay off AS on 2", "lay off JH on 1"}
    assert set(played[2:4]) == {"meld 5S 6S 7S", "meld KC KD KS"} and played[-1] == "done"
    assert env.state_obj.deadwood == [5, 9]


def test_beats_random_by_a_wide_margin():
    """200 hands, seats alternating: the greedy bot's mean points per hand (zero-sum) is far
    above zero (about +60 measured), and every action it picks is legal."""
    env = rummy_env.make("gin_rummy", reward_scale=1.0)
    greedy, rand = GinGreedyBot(0), RandomBot(1)
    margin = []
    for d in range(200):
        seats = [greedy, rand] if d % 2 == 0 else [rand, greedy]
        env.reset(seed=d)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                env.step(None)
                continue
            view = seat_view(env, agent)
            a = seats[env.possible_agents.index(agent)].act(view)
            assert a in view.legal_actions
            env.step(a)
        g = d % 2
        margin.append(-env.state_obj.last_deal_delta[g])
    assert np.mean(margin) > 30
    assert sum(m > 0 for m in margin) > 150
