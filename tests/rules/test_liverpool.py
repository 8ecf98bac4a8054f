"""Rule tests of Liverpool Rummy (RULES section 3, LV-1): the cut before each deal.

LV-1: before each deal the player before the dealer cuts; an exact cut (a chance event with
probability ``cut_probability``, default 0.1, drawn from the seeded generator) takes 50 off that
player's score, and the deal's reward (minus the deal's score change, times ``reward_scale``)
includes it.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.contract.rules import CONTRACT_RUMMY, LIVERPOOL_RUMMY

VARIANT = "liverpool_rummy"

# CR-12 penalty points, written out independently of the engine.
_POINTS = {"A": 15, "J": 10, "Q": 10, "K": 10, "10": 10}


def points(card: str) -> int:
    if card == "JK":
        return 15
    rank = card[:-1]
    return _POINTS.get(rank, int(rank) if rank.isdigit() else 0)


def hand_points(cards: list[str]) -> int:
    return sum(points(c) for c in cards)


def greedy_action(env, rng) -> int:
    """A quick deterministic-by-seed policy that ends deals fast (melds and lays off first)."""
    ids, texts = env.legal_actions(), env.legal_action_strings()
    for pref in ("meld", "lay off", "pass"):
        c = [i for i, s in zip(ids, texts) if s.startswith(pref)]
        if c:
            return c[0]
    d = [i for i, s in zip(ids, texts) if s.startswith("discard")]
    if d:
        return d[int(rng.integers(len(d)))]
    c = [i for i, s in zip(ids, texts) if s == "draw stock"]
    return c[0] if c else ids[0]


def play_out(env, seed: int) -> None:
    rng = np.random.default_rng(seed)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        env.step(greedy_action(env, rng))


def test_lv1_rules_defaults():
    assert LIVERPOOL_RUMMY.cut_probability == 0.1
    assert LIVERPOOL_RUMMY.cut_bonus == 50
    env = rummy_env.make(VARIANT, num_players=4)
    assert env.rules.cut_probability == 0.1 and env.rules.cut_bonus == 50
    # Liverpool is Contract Rummy plus the cut: every other rule field is the same.
    for f in CONTRACT_RUMMY.option_names():
        if f != "cut_probability":
            assert getattr(LIVERPOOL_RUMMY, f) == getattr(CONTRACT_RUMMY, f), f
    assert CONTRACT_RUMMY.cut_probability == 0.0


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lv1_certain_cut_takes_50_from_the_seat_before_the_dealer(n, seed):
    env = rummy_env.make(VARIANT, num_players=n, cut_probability=1.0)
    env.reset(seed=seed)
    st = env.state_obj
    cutter = (st.dealer - 1) % n
    expect = [0] * n
    expect[cutter] = -50
    assert st.scores == expect
    assert st.deal_delta == expect
    assert env.get_state()["scores"] == expect
    assert env.infos[f"player_{cutter}"]["score"] == -50
    # the cutter takes no action: the deal starts with the seat after the dealer drawing
    assert st.phase == "draw" and st.to_move == (st.dealer + 1) % n
    assert env.agent_selection == f"player_{(st.dealer + 1) % n}"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_lv1_deal_reward_includes_the_cut_bonus(seed):
    n, scale = 4, 0.01
    env = rummy_env.make(VARIANT, num_players=n, cut_probability=1.0)
    env.reset(seed=seed)
    cutter = (env.state_obj.dealer - 1) % n
    play_out(env, seed)
    st = env.state_obj
    assert st.is_deal_over
    state = env.get_state()
    pens = [hand_points(h) for h in state["hands"]]
    for s in range(n):
        bonus = 50 if s == cutter else 0
        assert st.last_deal_delta[s] == pens[s] - bonus
        assert st.scores[s] == pens[s] - bonus
        assert env.rewards[f"player_{s}"] == pytest.approx((bonus - pens[s]) * scale)


def test_lv1_cut_bonus_with_reward_scale_one():
    env = rummy_env.make(VARIANT, num_players=3, cut_probability=1.0, reward_scale=1.0)
    env.reset(seed=5)
    cutter = (env.state_obj.dealer - 1) % 3
    play_out(env, 5)
    pens = [hand_points(h) for h in env.get_state()["hands"]]
    assert env.rewards[f"player_{cutter}"] == pytest.approx(50.0 - pens[cutter])


@pytest.mark.parametrize("seed", range(10))
def test_lv1_no_cut_with_probability_zero(seed):
    env = rummy_env.make(VARIANT, num_players=4, cut_probability=0.0)
    env.reset(seed=seed)
    assert env.state_obj.scores == [0, 0, 0, 0]
    assert env.state_obj.deal_delta == [0, 0, 0, 0]
    play_out(env, seed)
    pens = [hand_points(h) for h in env.get_state()["hands"]]
    assert env.state_obj.last_deal_delta == pens


def test_lv1_cut_before_every_deal_of_a_game():
    """With episode='game', deal 2 starts with a cut by the seat before the new dealer."""
    env = rummy_env.make(VARIANT, num_players=4, cut_probability=1.0, episode="game")
    # deal 1: player_1 (melded) goes out by discarding its last card
    env.reset(seed=0, options={"scenario": {
        "deal": 1, "dealer": 0, "to_move": 1, "phase": "play",
        "hands": [["KD", "5C"], ["9S"], ["JK"], ["AH", "2H"]],
        "table": [{"owner": 1, "cards": ["8C", "8D", "8H"]},
                  {"owner": 1, "cards": ["QC", "QD", "QS"]}],
    }})
    assert env.state_obj.scores == [0, 0, 0, 0]  # a scenario is mid-deal: no cut
    assert sorted(env.legal_action_strings()) == ["discard 9S"]
    env.step(env.string_to_action("discard 9S"))
    st = env.state_obj
    assert st.deal == 2 and st.dealer == 1
    assert not any(env.terminations.values())
    # deal 1 penalties: 15, 0, 15, 17; the reward of deal 1 has no cut
    assert env.rewards == pytest.approx(
        {"player_0": -0.15, "player_1": 0.0, "player_2": -0.15, "player_3": -0.17})
    # deal 2 was cut by seat 0 (before dealer 1): -50 in its score at the start of deal 2
    assert st.scores == [15 - 50, 0, 15, 17]
    assert st.deal_delta == [-50, 0, 0, 0]
    assert env.infos["player_0"]["score"] == -35


@pytest.mark.parametrize("p", [0.3, 0.5])
def test_lv1_cut_chance_comes_from_the_seeded_generator(p):
    outcomes = []
    a = rummy_env.make(VARIANT, num_players=4, cut_probability=p)
    b = rummy_env.make(VARIANT, num_players=4, cut_probability=p)
    for seed in range(40):
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.get_state() == b.get_state()
        a.reset(seed=seed)  # the same env reseeded repeats it too
        assert a.get_state() == b.get_state()
        outcomes.append(min(a.state_obj.scores) == -50)
    # both outcomes occur over 40 seeds
    assert any(outcomes) and not all(outcomes)


def test_lv1_default_probability_is_about_one_in_ten():
    cuts = 0
    trials = 600
    env = rummy_env.make(VARIANT, num_players=3)
    for seed in range(trials):
        env.reset(seed=seed)
        sc = env.state_obj.scores
        assert sorted(sc) in ([0, 0, 0], [-50, 0, 0])
        cuts += min(sc) == -50
    # Binomial(600, 0.1): mean 60, sd ~7.3; these bounds are > 4 sd away
    assert 30 <= cuts <= 90


def test_lv1_contract_rummy_has_no_cut():
    for seed in range(20):
        env = rummy_env.make("contract_rummy", num_players=4)
        env.reset(seed=seed)
        assert env.state_obj.scores == [0, 0, 0, 0]
