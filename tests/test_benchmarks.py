"""The benchmark scripts keep working (issue 6: a CI run of about a second each; no speed is
asserted, since the machines are shared and noisy)."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rummy_env

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def test_throughput_covers_every_variant(capsys) -> None:
    """throughput.py measures every registered variant: every figure is a finite positive
    number and the printed table has one row per variant."""
    mod = _load("throughput")
    results = mod.main(["--seconds", "0.02", "--repeats", "1", "--instances", "2",
                     "--max-turns", "40"])
    assert [r.variant for r in results] == list(rummy_env.VARIANTS)
    for r in results:
        for field in ("aec_steps_per_s", "raw_steps_per_s", "reset_us", "kb_per_env",
                      "steps_per_episode", "late_over_early"):
            v = getattr(r, field)
            assert math.isfinite(v) and v > 0, (r.variant, field, v)
        env = rummy_env.make(r.variant)
        assert env.rules.min_players <= r.players <= env.rules.max_players
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["variant", "players", "aec/s"]
    assert [line.split()[0] for line in out[1:]] == list(rummy_env.VARIANTS)


def test_throughput_reference_column(capsys) -> None:
    """``--reference`` adds the ratio to OpenSpiel gin where pyspiel is installed (the bench
    extra), and says so and measures without it where it is not."""
    mod = _load("throughput")
    results = mod.main(["--variants", "contract_rummy", "--seconds", "0.05", "--repeats", "1",
                        "--instances", "2", "--max-turns", "40", "--reference"])
    out = capsys.readouterr().out.splitlines()
    (r,) = results
    assert r.target_ratio == 15_000 / 19_700
    if importlib.util.find_spec("pyspiel") is None:
        assert r.reference_ratio is None
        assert "pyspiel is not installed" in out[0]
        assert "x OS gin" not in out[1]
    else:
        assert math.isfinite(r.reference_ratio) and r.reference_ratio > 0
        assert out[0].endswith("x OS gin  target x")
        assert out[1].split()[0] == "contract_rummy" and len(out[1].split()) == 10


def test_solver_benchmarks_run_from_any_directory(tmp_path) -> None:
    """The two solver benchmarks run from a checkout without an install (they put the checkout
    on ``sys.path``), started from another directory, on tiny inputs, and print their tables."""
    runs = {  # name: (arguments, a word of the table it prints)
        "manipulation_solver": (["--tables", "1", "--sizes", "30", "--games", "1",
                                 "--max-turns", "8", "--joker-max", "30"], "steps/s"),
        "indian_solver": (["--hands", "40"], "median"),
    }
    for name, (args, word) in runs.items():
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), *args],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
        assert done.returncode == 0, (name, done.stderr[-2000:])
        assert word in done.stdout, (name, done.stdout)


def test_gin_opponent_model_benchmark_reports_worlds_closer_to_the_truth(capsys) -> None:
    """``benchmarks/gin_opponent_model.py`` on two deals prints its table, and its numbers
    say what it measures: the chain's opponent hands carry less deadwood than uniform ones,
    nearer the true hands' (the opponent is greedy, so its real hand is low in deadwood)."""
    mod = _load("gin_opponent_model")
    out = mod.main(["--deals", "2", "--worlds", "4", "--depth", "4"])[4]
    assert "opponent deadwood" in capsys.readouterr().out
    assert out["started"] >= 5
    assert out["deadwood_model"] < out["deadwood_uniform"]
    assert abs(out["deadwood_model"] - out["deadwood_true"]) < \
        abs(out["deadwood_uniform"] - out["deadwood_true"])


def test_search_strength_combines_runs_as_one_run_over_all_groups(tmp_path, capsys) -> None:
    """``search_strength.combine`` rebuilds the paired margin and its interval over all deal
    groups from each run's count, mean and interval: the same numbers as ``_ci`` over the
    concatenated groups; it refuses runs of different budgets or the same seed."""
    import numpy as np

    from training.evaluate import _ci

    mod = _load("search_strength")
    rng = np.random.default_rng(0)
    parts = [rng.normal(-3.0, 20.0, 250), rng.normal(1.0, 25.0, 130)]
    wins = [rng.normal(0.0, 0.3, 250), rng.normal(0.1, 0.3, 130)]

    def run(seed: int, pen: np.ndarray, win: np.ndarray, decisions: int) -> dict:
        pm, plo, phi = _ci(pen)
        wm, wlo, whi = _ci(win)
        return {"variant": "gin_rummy", "players": 2, "duplicate": True, "deals": len(pen),
                "seed": seed, "seconds": 10.0, "truncated": 1,
                "paired": {"groups": len(pen), "penalty_diff": pm, "penalty_diff_ci": [plo, phi],
                           "win_diff": wm, "win_diff_ci": [wlo, whi], "beats": phi < 0},
                "search": {"worlds": 16, "horizon": None, "rollout": "greedy",
                           "time_budget": None, "margin": 0.0, "confidence": 1.5,
                           "decisions": decisions, "searched": decisions, "fallbacks": 0,
                           "seconds_per_decision": 0.1 * seed,
                           "seconds_per_searched": 0.1 * seed}}

    runs = [run(1, parts[0], wins[0], 300), run(2, parts[1], wins[1], 100)]
    files = []
    for i, r in enumerate(runs):
        files.append(tmp_path / f"{i}.json")
        files[-1].write_text(json.dumps(r))
    got = mod.main(["--combine", *map(str, files)])
    assert "380 deals" in capsys.readouterr().out
    pm, plo, phi = _ci(np.concatenate(parts))
    wm, wlo, whi = _ci(np.concatenate(wins))
    p = got["paired"]
    assert p["groups"] == 380 and math.isclose(p["penalty_diff"], pm)
    assert np.allclose(p["penalty_diff_ci"], [plo, phi]) and p["beats"] == (phi < 0)
    assert math.isclose(p["win_diff"], wm) and np.allclose(p["win_diff_ci"], [wlo, whi])
    assert math.isclose(got["search"]["seconds_per_decision"], (300 * 0.1 + 100 * 0.2) / 400)
    assert got["deals"] == 380 and got["seed"] == [1, 2] and got["truncated"] == 2
    with pytest.raises(ValueError, match="different seeds"):
        mod.combine([runs[0], runs[0]])
    other = json.loads(json.dumps(runs[1]))
    other["search"]["worlds"] = 8
    with pytest.raises(ValueError, match="search budget"):
        mod.combine([runs[0], other])


def test_search_oracle_benchmark_plays_the_same_deals_three_ways(capsys) -> None:
    """``benchmarks/search_oracle.py`` on two tiny Gin Rummy deals prints a row for the search
    and one for the oracle, and the oracle really searches the true position: every world it
    plays holds the opponent's true hand."""
    mod = _load("search_oracle")
    out = mod.main(["--variant", "gin_rummy", "--deals", "2", "--worlds", "2",
                    "--horizon", "2"])
    text = capsys.readouterr().out
    assert set(out) == {"search", "oracle"} and "oracle: 2 deals" in text
    env = rummy_env.make("gin_rummy")
    env.reset(seed=3)
    bot = mod.OracleSearch(env, 0, worlds=2, horizon=0)
    view = rummy_env.bots.seat_view(env, env.agent_selection)
    other = 1 - view.seat  # the hidden hand, which the actor's move leaves alone
    seen = []
    bot.play_out = lambda st, seat, policy, rng, horizon: seen.append(st.hands[other]) or 0.0
    bot.values(view.information(), [view.action_layout.decode(i) for i in view.legal_actions])
    assert len(seen) == 2 * len(view.legal_actions)
    assert all(h == env.state_obj.hands[other] for h in seen)
