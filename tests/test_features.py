"""Solver features (rummy_env.wrappers.features): shapes, bounds, no leaks, exact values on
hand-built positions, the wrapper's Gymnasium conformance and its potential-based shaping."""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummy_env
from rummy_env.bots import RandomBot, seat_view
from rummy_env.cards import parse_card
from rummy_env.wrappers import SelfPlayEnv, SingleSeatEnv
from rummy_env.wrappers import features as F
from rummy_env.wrappers.features import (
    SolverFeatures, feature_layout, feature_size, features_space, potential, solver_features,
)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkers import SEEN, hidden_redeal  # noqa: E402

#: One supported player count per variant (manipulation at 2).
PLAYERS = {v: 2 if rummy_env.make(v).family in ("gin", "manipulation") else 4
           for v in rummy_env.VARIANTS}
#: Families implemented (each has its layout, its features and its potential).
FAMILIES = tuple(F._LAYOUTS)
VARIANTS = [v for v in rummy_env.VARIANTS if rummy_env.make(v).family in FAMILIES]
#: One variant per family for the heavier checks.
ONE_PER_FAMILY = {"gin": "gin_rummy", "indian": "indian_rummy", "contract": "contract_rummy",
                  "manipulation": "manipulation_rummy"}
ONE_PER_FAMILY = [v for f, v in ONE_PER_FAMILY.items() if f in FAMILIES]


def _random_views(variant: str, games: int, seed: int, max_steps: int = 400):
    """Views of every acting seat (and, at the end, of every seat) in seeded random play."""
    env = rummy_env.make(variant, num_players=PLAYERS[variant])
    bot = RandomBot(seed)
    for g in range(games):
        env.reset(seed=seed + g)
        for step, agent in enumerate(env.agent_iter()):
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc or step >= max_steps:
                if step >= max_steps:
                    break
                yield env, seat_view(env, agent)
                env.step(None)
                continue
            view = seat_view(env, agent)
            yield env, view
            # no packs (IR-7): uniform play would pack most Indian deals away at once
            keep = [a for a in view.legal_actions if env.action_to_string(a) != "pack"]
            env.step(int(keep[bot.rng.integers(len(keep))]) if keep else bot.act(view))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_shape_dtype_bounds_on_random_play(variant: str) -> None:
    space = features_space(variant)
    n = feature_size(variant)
    seen = 0
    for env, view in _random_views(variant, 3, 11, max_steps=250):
        f = solver_features(view)
        assert f.dtype == np.float32 and f.shape == (n,)
        assert np.isfinite(f).all()
        assert space.contains(f), feature_layout(variant).pieces
        assert np.isfinite(potential(view))
        seen += 1
    assert seen > 100
    assert feature_size(env) == n == feature_layout(view).size


# --------------------------------------------------------------------------- leaks
@pytest.mark.parametrize("variant", ONE_PER_FAMILY)
def test_features_do_not_depend_on_hidden_cards(variant: str) -> None:
    """Every card a seat cannot see (other hands but their face-up takes, the stock order)
    dealt anew: that seat's features are unchanged (its observation and mask are too: the
    features read nothing else)."""
    family = rummy_env.make(variant).family
    rng = np.random.default_rng(5)
    n = PLAYERS[variant]
    other = rummy_env.make(variant, num_players=n)
    checked = changed = 0
    for k, (env, view) in enumerate(_random_views(variant, 4, 21, max_steps=120)):
        if k % 5 or not view.legal_actions:
            continue
        st = env.state_obj
        if family == "manipulation" and (st.melding or st.phase != "meld"):
            continue  # as tests/test_manipulation_env.py: a meld in progress is not a scenario
        state = env.get_state()
        for viewer, agent in enumerate(env.possible_agents):
            for _ in range(30):  # some deals of the hidden cards are not valid positions
                try:
                    other.reset(seed=1, options={"scenario": hidden_redeal(
                        state, viewer, rng, seen=SEEN.get(family))})
                    break
                except rummy_env.ScenarioError:
                    continue
            else:
                continue
            mine, theirs = seat_view(env, agent), seat_view(other, agent)
            np.testing.assert_array_equal(solver_features(mine), solver_features(theirs))
            changed += other.get_state()["hands"] != state["hands"]
            checked += 1
    assert checked > 20 and changed > 10


# --------------------------------------------------------------------------- exact values
def _gin_env(hand: list[str], discard: list[str], phase: str) -> SolverFeatures:
    env = SolverFeatures(SingleSeatEnv("gin_rummy", opponents="greedy", seat=1, seed=0))
    env.reset(options={"scenario": {"dealer": 0, "to_move": 1, "phase": phase,
                                    "hands": [None, hand], "discard": discard}})
    return env


def _pieces(env: SolverFeatures) -> dict[str, np.ndarray]:
    return feature_layout(env.family).views(solver_features(env.view()))


def test_gin_values_after_each_discard() -> None:
    """GR-1 values, GR-5 deadwood: A-2-3 of clubs and three 7s melded; KC QD 9H 5S 4D dead."""
    hand = "AC 2C 3C 7D 7H 7S KC QD 9H 5S 4D".split()
    env = _gin_env(hand, ["8S"], "play")
    p = _pieces(env)
    want = {"KC": 28, "QD": 28, "9H": 29, "5S": 33, "4D": 34, "AC": 43, "2C": 42, "3C": 41,
            "7D": 52, "7H": 52, "7S": 52}
    got = {c: round(float(p["discard_deadwood"][parse_card(c)]) * 100) for c in hand}
    assert got == want
    assert np.count_nonzero(p["discard_deadwood"]) == 11
    assert sorted(np.flatnonzero(p["in_best"])) == sorted(
        parse_card(c) for c in "AC 2C 3C 7D 7H 7S".split())
    # greedy: least deadwood, then the highest card, then the highest id (QD > KC by id)
    assert np.flatnonzero(p["best_discard"]).tolist() == [parse_card("QD")]
    assert p["deadwood"][0] == pytest.approx(0.38) and p["best_after"][0] == pytest.approx(0.28)
    assert p["take_deadwood"][0] == 0 and p["take_melds"][0] == 0  # 11 cards: no take
    assert p["can_knock"][0] == 0  # 28 > 10 (GR-5)


def test_gin_values_of_taking_the_top_discard() -> None:
    """GR-4: with 4C on the pile, taking it makes A-4 of clubs; the best discard after is a
    ten-card (deadwood 34 - 10 = 24, down from 34)."""
    hand = "AC 2C 3C 7D 7H 7S KC QD 9H 5S".split()
    env = _gin_env(hand, ["4C"], "draw")
    p = _pieces(env)
    assert p["deadwood"][0] == pytest.approx(0.34) and p["best_after"][0] == pytest.approx(0.34)
    assert p["take_deadwood"][0] == pytest.approx(0.24)
    assert p["take_melds"][0] == 1 and p["take_gain"][0] == 1
    assert p["discard_deadwood"][parse_card("AC")] == pytest.approx(0.39)
    assert not p["best_discard"].any()  # a draw, not a discard
    assert potential(env.view()) == pytest.approx(-0.34)


def _indian_pieces(hand: str, top: str) -> tuple[SolverFeatures, dict[str, np.ndarray]]:
    env = SolverFeatures(SingleSeatEnv("indian_rummy", num_players=3, seat=0, seed=0))
    env.reset(options={"scenario": {"dealer": 2, "to_move": 0, "indicator": "5C",
                                    "hands": [hand.split(), None, None], "discard": [top]}})
    return env, _pieces(env)


def test_indian_values_of_the_ir9_example() -> None:
    """IR-9's worked example (5s wild): a first life but no second pays 43; with the wild 5H
    taken (IR-5) the hand has a second life (7S 8S 5H) and pays 16 (8D 4S 2D 2D); with a
    wild card in place of 8D it pays 8."""
    env, p = _indian_pieces("10H JH QH KH 7S 8S 8D 4C 4D 4S 4S 2D 2D", "5H")
    assert p["points"][0] == pytest.approx(0.43) and p["best_after"][0] == pytest.approx(0.43)
    assert p["lives"].tolist() == [1.0, 0.0]
    assert p["take_points"][0] == pytest.approx(0.16) and p["take_melds"][0] == 1
    assert p["greedy_take"][0] == 1  # the greedy bot always takes a wild card
    assert p["can_declare"][0] == 0 and not p["discard_points"].any()  # 13 cards: a draw
    assert potential(env.view(), 0.01) == pytest.approx(-0.43)
    _, p = _indian_pieces("10H JH QH KH 7S 8S 5H 4C 4D 4S 4S 2D 2D", "KS")
    assert p["points"][0] == pytest.approx(0.08) and p["lives"].tolist() == [1.0, 1.0]
    assert p["in_melds"][parse_card("4S")] == pytest.approx(1 / 3)  # one 4S melded, one dead


def test_contract_values_before_the_contract() -> None:
    """Deal 1 of Contract Rummy, two sets of three (CR-2): pairs of 7s and 9s; the contract
    lacks at least 2 cards; 7H on the pile completes a set (claim-worthy, CR-7); CR-12 points."""
    env = SolverFeatures(SingleSeatEnv("contract_rummy", num_players=3, seat=0, seed=0))
    hands = ["7C 7D 9H 9S KC 3D 5S 2H JD QS", "2C 3C 4C 5C 6C 8C 10C JC QC AC",
             "2S 3S 4S 6S 7S 8S 10S AS AD 8D"]
    env.reset(options={"scenario": {"deal": 1, "dealer": 2, "to_move": 0,
                                    "hands": [h.split() for h in hands], "discard": ["7H"]}})
    p = _pieces(env)
    c = parse_card
    assert p["missing"][0] == pytest.approx(0.2) and p["melds_needed"][0] == pytest.approx(0.5)
    assert p["penalty"][0] == pytest.approx(0.72) and p["melded"][0] == 0
    assert p["top_useful"][0] == 1 and p["top_claim"][0] == 1 and p["top_gain"][0] == 0.5
    assert p["strength"][c("7C")] == 0.5 and p["strength"][c("7H")] == 1.0  # pair; third
    assert p["strength"][c("KC")] == 0 and p["strength"][c("JK")] == 1.0
    assert p["discard_cost"][c("7C")] == 0.5 and p["discard_cost"][c("KC")] == 0
    assert p["held_points"][c("KC")] == pytest.approx(0.2) and not p["fits_table"].any()
    assert not p["best_discard"].any()  # a draw
    assert potential(env.view(), 0.01) == pytest.approx(-0.72)


def test_manipulation_values_follow_the_legal_plays() -> None:
    """Playable cards are exactly the legal ``play`` actions (MR-4); MR-6 hand values."""
    for _, view in _random_views("manipulation_rummy", 1, 3, max_steps=60):
        p = feature_layout(view).views(solver_features(view))
        decode = view.action_layout.decode
        plays = sorted(a[1] for a in map(decode, view.legal_actions) if a[0] == "play")
        assert np.flatnonzero(p["playable"]).tolist() == plays
        hand = view.piece("hand")
        want = sum(hand[t] * min(t % 13 + 1, 10) for t in range(52)) + 25 * hand[52]
        assert p["hand_value"][0] == pytest.approx(want / 100)


# --------------------------------------------------------------------------- the wrapper
@pytest.mark.parametrize("variant", ONE_PER_FAMILY)
def test_wrapper_passes_the_gymnasium_checker(variant: str) -> None:
    env = SolverFeatures(SingleSeatEnv(variant, num_players=PLAYERS[variant],
                                       illegal_action="penalize", seed=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warning; the base space's own bounds
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    base = env.unwrapped
    assert obs.shape == (base.observation_space.shape[0] + feature_size(base),)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs[:base.observation_space.shape[0]], base._obs())
    assert env.action_masks().dtype == bool and env.action_masks().any()
    assert env.learner == base.learner and env.learner_seat == base.learner_seat
    assert set(info) == {*rummy_env.wrappers.INFO_KEYS, "true_reward"}


def _play(env, seed: int, actions_seed: int, max_steps: int = 2000):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(actions_seed)
    rewards, true, observations = [], [], [obs]
    for _ in range(max_steps):
        legal = np.flatnonzero(env.action_masks())
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        rewards.append(r)
        true.append(info.get("true_reward", r))
        observations.append(obs)
        if term or trunc:
            return rewards, true, observations, info
    raise AssertionError("episode did not end")


@pytest.mark.parametrize("variant", ONE_PER_FAMILY)
def test_shaping_telescopes(variant: str) -> None:
    """gamma = 1: the shaped rewards of an episode sum to the true return - shaping * phi(s0)
    (phi of the final position is 0); shaping 0 leaves every reward as the bare env's."""
    n = PLAYERS[variant]
    for seed in range(3):
        bare = SingleSeatEnv(variant, num_players=n, opponents="greedy", seat=0)
        plain = SolverFeatures(SingleSeatEnv(variant, num_players=n, opponents="greedy", seat=0))
        shaped = SolverFeatures(SingleSeatEnv(variant, num_players=n, opponents="greedy",
                                              seat=0), shaping=0.5, gamma=1.0)
        r0, _, o0, _ = _play(bare, seed, seed)
        r1, t1, o1, _ = _play(plain, seed, seed)
        assert r1 == r0 == t1
        for a, b in zip(o0, o1):
            np.testing.assert_array_equal(a, b[:len(a)])
        shaped.reset(seed=seed)
        phi0 = potential(shaped.view(), shaped.aec.reward_scale)
        r2, t2, _, _ = _play(shaped, seed, seed)
        assert t2 == r0
        assert sum(r2) == pytest.approx(sum(r0) - 0.5 * phi0, abs=1e-9)
        if seed == 0:
            assert phi0 != 0 and r2 != r0


def test_selfplay_env_and_delegation() -> None:
    env = SolverFeatures(SelfPlayEnv("gin_rummy", seed=0))
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    env.add_snapshot(RandomBot(1))
    env.set_opponents([RandomBot(2)])
    assert len(env.unwrapped.snapshot_pool) == 1
    with pytest.raises(TypeError):
        SolverFeatures(rummy_env.make("gin_rummy"))  # an AEC env is not a single-seat env


@pytest.mark.parametrize("variant", ONE_PER_FAMILY)
def test_prior_entry_is_the_bots_choice_from_the_learners_view(variant: str) -> None:
    """prior="greedy": one entry after the features, the action the greedy bot plays from the
    learner's view (legal, inside the space), -1 once the learner has no move; everything
    before it is the plain wrapper's observation."""
    from rummy_env.bots import make_bot

    env = SolverFeatures(SingleSeatEnv(variant, num_players=PLAYERS[variant], seed=2),
                         prior="greedy")
    plain = SolverFeatures(SingleSeatEnv(variant, num_players=PLAYERS[variant], seed=2))
    greedy = make_bot("greedy", seed=0)
    obs, _ = env.reset(seed=4)
    ref, _ = plain.reset(seed=4)
    assert obs.shape == (plain.observation_space.shape[0] + 1,)
    steps, done = 0, False
    while not done:
        assert env.observation_space.contains(obs) and steps < 2_000
        np.testing.assert_array_equal(obs[:-1], ref)
        choice = int(obs[-1])
        assert choice == greedy.act(env.view()) and env.action_masks()[choice]
        mask = env.action_masks()
        a = int(np.flatnonzero(mask)[steps % int(mask.sum())])
        obs, _, term, trunc, _ = env.step(a)
        ref, _, _, _, _ = plain.step(a)
        done = term or trunc
        steps += 1
    assert obs[-1] == -1 and not env.action_masks().any()


def test_final_view_is_defined() -> None:
    """At episode end (no legal action) the features are still finite and in bounds, with the
    choice-based parts zero."""
    for variant in ONE_PER_FAMILY:
        env = SolverFeatures(SingleSeatEnv(variant, num_players=PLAYERS[variant], seed=1))
        _, _, observations, _ = _play(env, 1, 1)
        last = observations[-1]
        assert not env.action_masks().any()
        assert env.observation_space.contains(last)
        view = feature_layout(env.family).views(last[-env.n_features:])
        assert not view["best_discard"].any() if "best_discard" in view else True


# --------------------------------------------------------------------------- docs
def test_docstring_tables_are_not_stale() -> None:
    text = F.__doc__
    assert F.render_docstring(text) == text, "run: python -m rummy_env.wrappers.features"
    for variant in ONE_PER_FAMILY:
        table = F.feature_table(variant, PLAYERS[variant] if variant != "indian_rummy" else 4)
        assert table in text
        assert f"total: ({feature_size(variant)},) float32" in table
