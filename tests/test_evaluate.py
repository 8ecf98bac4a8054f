"""Duplicate evaluation, the paired interval and the numpy policy bot (training/evaluate.py,
rummy_env/bots/policy.py)."""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import make_bot, seat_view
from rummy_env.bots.policy import PolicyBot, load_policy, save_policy
from training.evaluate import evaluate, main, paired


def test_duplicate_deals_every_hand_to_every_player():
    """Two identical deterministic bots in duplicate mode: every deal is played twice with the
    seats swapped, so each pair of deals mirrors exactly and the paired difference is 0."""
    res = evaluate("gin_rummy", ["greedy", "greedy"], 40, seed=3, duplicate=True)
    pr = res["paired"]
    assert res["deals"] == 40 and pr["groups"] == 20
    assert pr["penalty_diff"] == 0.0 and pr["penalty_diff_ci"] == [0.0, 0.0]
    assert not pr["beats"]
    # without duplicate mode the same bots differ deal by deal (the luck of the deal)
    plain = evaluate("gin_rummy", ["greedy", "greedy"], 40, seed=3)
    assert plain["paired"]["groups"] == 40 and plain["paired"]["penalty_diff_ci"][1] > 0


def test_duplicate_rounds_deals_up_to_whole_rotations():
    res = evaluate("may_i", ["greedy", "random", "random"], 7, seed=1, duplicate=True)
    assert res["deals"] == 9 and res["paired"]["groups"] == 3


def test_paired_difference_and_interval():
    # two groups of two deals: player 0 pays 1 and 3 less than the other
    penalty = np.array([[0.0, 2.0], [1.0, 1.0], [0.0, 4.0], [2.0, 4.0]])
    win = np.array([[1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [1.0, 0.0]])
    pr = paired(penalty, win, np.array([0, 0, 1, 1]))
    assert pr["penalty_diff"] == pytest.approx(-2.0)
    half = 1.96 * np.std([-1.0, -3.0], ddof=1) / np.sqrt(2)
    assert pr["penalty_diff_ci"] == pytest.approx([-2.0 - half, -2.0 + half])
    assert pr["win_diff"] == pytest.approx(0.75)  # (0.5 + 1.0) / 2
    assert pr["beats"] == (-2.0 + half < 0)


def _tiny_policy(env, rng, features=False, hidden=8):
    n_in = env.observation_space(env.possible_agents[0])["observation"].shape[0]
    n_out = env.action_space(env.possible_agents[0]).n
    layers = [(rng.normal(size=(n_in, hidden)), rng.normal(size=hidden)),
              (rng.normal(size=(hidden, n_out)), rng.normal(size=n_out))]
    meta = {"format": "rummy_env.policy/1", "variant": "gin_rummy", "num_players": 2,
            "obs_size": n_in, "n_actions": n_out, "features": features, "activation": "tanh"}
    return {"meta": meta, "layers": layers}


def test_policy_file_round_trip_and_argmax_of_the_masked_logits(tmp_path):
    env = rummy_env.make("gin_rummy")
    env.reset(seed=0)
    data = _tiny_policy(env, np.random.default_rng(0))
    path = save_policy(data, tmp_path / "p.npz")
    bot = make_bot(str(path))
    assert isinstance(bot, PolicyBot)
    back = load_policy(path)
    assert back["meta"] == data["meta"]
    for (w, b), (w2, b2) in zip(data["layers"], back["layers"]):
        np.testing.assert_allclose(w.astype(np.float32), w2)
        np.testing.assert_allclose(b.astype(np.float32), b2)
    view = seat_view(env, env.agent_selection)
    x = np.asarray(view.observation, dtype=np.float64)
    (w0, b0), (w1, b1) = data["layers"]
    z = np.tanh(x @ w0 + b0) @ w1 + b1
    legal = list(view.legal_actions)
    assert bot.act(view) == legal[int(np.argmax(z[legal]))]


def test_policy_bot_refuses_another_variant_and_missing_files(tmp_path):
    env = rummy_env.make("gin_rummy")
    path = save_policy(_tiny_policy(env, np.random.default_rng(1)), tmp_path / "p.npz")
    other = rummy_env.make("indian_rummy", num_players=2)
    other.reset(seed=0)
    with pytest.raises(ValueError, match="trained on gin_rummy"):
        PolicyBot(path).act(seat_view(other, other.agent_selection))
    with pytest.raises(ValueError, match="no such file"):
        make_bot(str(tmp_path / "missing.npz"))


def test_agent_vs_shorthand(tmp_path, capsys):
    env = rummy_env.make("gin_rummy")
    path = save_policy(_tiny_policy(env, np.random.default_rng(2)), tmp_path / "p.npz")
    assert main(["--agent", str(path), "--vs", "greedy", "--deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "gin_rummy: 2 players, 4 deals" in out and "(duplicate, 2 groups)" in out


def test_large_policies_are_stored_in_float16_and_play_the_same_as_float32(tmp_path):
    env = rummy_env.make("gin_rummy")
    env.reset(seed=4)
    data = _tiny_policy(env, np.random.default_rng(3), hidden=8)
    small = save_policy(data, tmp_path / "a.npz")
    assert load_policy(small)["layers"][0][0].dtype == np.float32
    half = save_policy(data, tmp_path / "b.npz", dtype="float16")
    assert load_policy(half)["layers"][0][0].dtype == np.float16
    assert half.stat().st_size < small.stat().st_size
    view = seat_view(env, env.agent_selection)
    a, b = PolicyBot(small), PolicyBot(half)
    np.testing.assert_allclose(a.logits(a.input_of(view)), b.logits(b.input_of(view)),
                               rtol=0.02, atol=0.05)
    with pytest.raises(ValueError, match="float32 or float16"):
        save_policy(data, tmp_path / "c.npz", dtype="int8")


def test_paired_by_cap_splits_the_difference_by_deals_cut_off():
    """A 40-turn cap cuts some Shanghai deals off: the capped and finished parts partition the
    deal groups, a group is capped when any of its rotations hit the cap, and the two parts'
    contributions add up to the overall difference."""
    from training.evaluate import format_table

    res = evaluate("shanghai_deb_kolsov", ["greedy(endgame_turn=20)", "greedy", "greedy"], 24, 3,
                   duplicate=True, env_options={"max_turns": 40})
    by = res["paired_by_cap"]
    assert res["truncated"] > 0 and by["capped"] is not None and by["finished"] is not None
    assert by["capped"]["groups"] + by["finished"]["groups"] == res["paired"]["groups"] == 8
    assert by["capped"]["groups"] * 3 >= res["truncated"]
    assert (by["capped"]["contribution"] + by["finished"]["contribution"]
            == pytest.approx(res["paired"]["penalty_diff"]))
    assert "groups capped by max_turns" in format_table(res)
    none = evaluate("gin_rummy", ["greedy", "random"], 4, 0, duplicate=True)
    assert none["truncated"] == 0 and none["paired_by_cap"]["capped"] is None
    assert none["paired_by_cap"]["finished"]["contribution"] == pytest.approx(
        none["paired"]["penalty_diff"])


def test_cli_seats_keep_the_commas_of_a_specs_options(tmp_path):
    out = tmp_path / "r.json"
    main(["--variant", "contract_rummy", "--seats",
          "greedy(endgame_turn=50, endgame_whole_hand=true),random,random", "--deals", "3",
          "--json", str(out)])
    import json

    seats = json.loads(out.read_text())["seats"]
    assert seats == ["greedy(endgame_turn=50, endgame_whole_hand=true)", "random", "random"]
