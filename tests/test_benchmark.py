"""training.benchmark: a tiny benchmark end to end (table, plot, resumability), the league
adapter's snapshots, config and flag errors, and an RLlib cell on a two-node Ray cluster."""

from __future__ import annotations

import json

import pytest

yaml = pytest.importorskip("yaml")  # the train extra: training/benchmark.py reads YAML configs
pytest.importorskip("sb3_contrib")

from training import benchmark  # noqa: E402
from training.benchmark import ConfigError, resolve_config  # noqa: E402

SMOKE = "configs/benchmark/smoke.yaml"


@pytest.fixture(autouse=True)
def _one_thread():
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def _tiny(out, *extra: str) -> list[str]:
    """Two algorithms, one variant, one seed, a few hundred samples, few deals."""
    return ["--config", SMOKE, "--out", str(out), "--budget", "256", "--deals", "6",
            "--set", "eval.every=128", "--set", "algorithms.tianshou_dqn.warmup_steps=64", *extra]


# The two smoke runs are the slow tier's (tests/conftest.py): CI runs them (--run-slow).
@pytest.mark.slow
def test_tiny_benchmark_writes_the_table_and_the_plot_and_resumes(tmp_path, capsys):
    pytest.importorskip("tianshou")
    out = tmp_path / "bench"
    # the two cells in two spawned local processes (the reruns below run in this one)
    assert benchmark.main(_tiny(out, "--workers", "2")) == 0
    res = json.loads((out / "results.json").read_text())
    assert res["run"] == {"cells": 2, "skipped": 0, "ran": 2,
                          "wall_seconds": res["run"]["wall_seconds"]}
    assert res["checkpoints"] == [0, 128, 256]
    cells = {c["algorithm"]: c for c in res["cells"]}
    assert set(cells) == {"maskable_ppo", "tianshou_dqn"}
    for c in cells.values():
        assert [p["target"] for p in c["curve"]] == [0, 128, 256]
        steps = [p["steps"] for p in c["curve"]]
        assert steps[0] == 0 and steps[1] >= 128 and steps[2] >= 256 and steps == sorted(steps)
        for opp in ("random", "greedy"):
            v = c["final"]["vs"][opp]
            assert v["deals"] == 6  # 6 duplicate deals at 2 players: 3 groups x 2 rotations
            lo, hi = v["points_ci"]
            assert lo <= v["points"] <= hi and 0.0 <= v["win_rate"] <= 1.0
        assert c["cpu_seconds"]["train"] > 0 and c["cpu_seconds"]["eval"] > 0
    # aggregate over the one seed is the cell itself, with its duplicate interval
    agg = {a["algorithm"]: a for a in res["aggregate"]}
    assert agg["maskable_ppo"]["vs"]["greedy"]["points"] == \
        cells["maskable_ppo"]["final"]["vs"]["greedy"]["points"]
    md = (out / "results.md").read_text()
    assert "| gin_rummy | maskable_ppo | 1 |" in md and "| gin_rummy | tianshou_dqn | 0 |" in md
    assert "points/deal vs greedy" in md and "CPU-min/cell" in md
    png = out / "curve_gin_rummy.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
    resolved = yaml.safe_load((out / "config.yaml").read_text())
    assert resolved["budget"] == 256 and resolved["eval"]["deals"] == 6

    # Rerun: both cells are kept (files untouched), the outputs are written again.
    files = sorted((out / "cells").rglob("seed_*.json"))
    assert len(files) == 2
    stamps = [f.stat().st_mtime_ns for f in files]
    (out / "results.md").unlink()
    capsys.readouterr()
    assert benchmark.main(_tiny(out)) == 0
    assert "2 cells: 2 finished (kept), 0 to run" in capsys.readouterr().out
    assert [f.stat().st_mtime_ns for f in files] == stamps
    again = json.loads((out / "results.json").read_text())
    assert again["run"]["ran"] == 0 and again["aggregate"] == res["aggregate"]
    assert (out / "results.md").read_text() == md

    # A finished cell of another protocol is refused by name, not mixed in.
    with pytest.raises(ConfigError, match="other budget"):
        benchmark.run(resolve_config(_tiny(out, "--budget", "300")))
    # A deleted (or interrupted: no file) cell is the only one rerun.
    files[0].unlink()
    capsys.readouterr()
    assert benchmark.main(_tiny(out, "--algorithms", "maskable_ppo")) == 0
    assert "1 cells: 0 finished (kept), 1 to run" in capsys.readouterr().out


def test_league_adapter_snapshots_the_learner_into_its_pool(tmp_path):
    from training.algorithms import ALGORITHMS, CellSpec, resolve_settings

    settings = resolve_settings("league_ppo", {
        "n_envs": 2, "net_arch": [32], "snapshot_every": 128, "league_deals": 2,
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}})
    cell = CellSpec("league_ppo", "gin_rummy", 0, {"num_players": 2, "reward_scale": 0.01,
                                                    "episode": "deal"}, settings, str(tmp_path))
    learner = ALGORITHMS["league_ppo"](cell)
    try:
        assert learner.learn(256) >= 256
        assert learner.info["snapshots"] == 2
        pool = learner.schedule.pool()
        assert pool[:2] == ["random", "greedy"] and len(pool) == 4
        assert set(learner.schedule.win_rates) == {0, 1, 2, 3}
        sampler = learner.venv.get_attr("_opp_spec")[0][1]  # what the envs now draw from
        assert len(sampler.entries) == 4
    finally:
        learner.close()


@pytest.mark.parametrize("argv, message", [
    (["--algorithms", "ppo2"], "unknown algorithm 'ppo2'; registered: league_ppo, maskable_ppo"),
    (["--set", "algorithms.maskable_ppo.learning_rate=1e-3"],
     "algorithms.maskable_ppo: unknown setting 'learning_rate'; allowed:"),
    (["--set", "algorithms.league_ppo.league.snapshot=3", "--algorithms", "league_ppo"],
     "algorithms.league_ppo.league: unknown setting 'snapshot'"),
    (["--variants", "contract_rummy"], "--variants: contract_rummy not in the config's variants"),
    (["--set", "variants.gin_rumy.num_players=2"], "unknown variant 'gin_rumy'"),
    (["--set", "variants.gin_rummy.num_players=null"], "variants.gin_rummy.num_players=None"),
    (["--seeds", "0,x"], "--seeds='0,x': expected comma-separated ints"),
    (["--seeds", "1,1"], "repeats a seed"),
    (["--budget", "0"], "budget=0: an int >= 1"),
    (["--deals", "0"], "eval.deals=0: an int >= 1"),
    (["--set", "eval.opponents=[random,grredy]"], "unknown bot 'grredy'; allowed: random, greedy"),
    (["--set", "eval.deal=3"], "unknown eval keys ['deal']"),
    (["--set", "budgett=3"], "unknown config keys ['budgett']"),
    (["--set", "budget"], "--set wants key=value"),
    (["--ray", "auto", "--workers", "2"], "give --ray or --workers > 1, not both"),
])
def test_config_and_flag_errors_name_the_problem(argv, message):
    with pytest.raises(ConfigError) as e:
        resolve_config(["--config", SMOKE, *argv])
    assert message in str(e.value)


def test_an_algorithm_whose_library_is_missing_is_refused_with_its_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tianshou", None)
    with pytest.raises(ConfigError, match="'tianshou_dqn' needs tianshou, not installed; "
                                          "install the 'tianshou' extra"):
        resolve_config(["--config", SMOKE])


def test_main_reports_a_config_error_without_a_traceback(capsys, tmp_path):
    assert benchmark.main(["--config", str(tmp_path / "nope.yaml")]) == 2
    assert "error: --config" in capsys.readouterr().err


def test_flags_override_the_file(tmp_path):
    cfg = resolve_config(["--config", SMOKE, "--seeds", "3,4", "--budget", "1000",
                          "--out", str(tmp_path), "--set", "eval.every=500",
                          "--set", "algorithms.maskable_ppo.ppo.learning_rate=1e-4"])
    assert cfg["seeds"] == [3, 4] and cfg["budget"] == 1000 and cfg["out"] == str(tmp_path)
    assert benchmark.checkpoints(cfg) == [0, 500, 1000]
    specs = benchmark.cells(cfg)
    assert [(s["algorithm"], s["seed"]) for s in specs] == [
        ("maskable_ppo", 3), ("maskable_ppo", 4), ("tianshou_dqn", 3), ("tianshou_dqn", 4)]
    ppo = specs[0]["settings"]["ppo"]
    assert ppo["learning_rate"] == 1e-4 and ppo["n_steps"] == 64  # merged, not replaced
    assert specs[0]["env"] == {"reward_scale": 0.01, "episode": "deal", "num_players": 2}


def test_mean_ci_over_seeds_is_a_t_interval():
    m, lo, hi = benchmark.mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and hi - m == pytest.approx(4.303 * 1.0 / 3 ** 0.5)
    m, lo, hi = benchmark.mean_ci([5.0])
    assert m == 5.0 and lo != lo  # nan: one seed has no spread


# ----------------------------------------------------------------- Ray: two nodes
# ray_sandbox: tests/conftest.py


@pytest.mark.slow
def test_rllib_cell_runs_as_a_ray_task_with_its_env_runner_on_the_second_node(
        ray_sandbox, tmp_path):
    """A two-node local cluster: the head (1 CPU) and a second node carrying the custom
    resource ``env_node``. The benchmark submits the cell as a Ray task; the cell's RLlib env
    runner needs ``env_node`` and so runs on the second node; the cell runs to its end."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "temp_dir": ray_sandbox, "include_dashboard": False})
    try:
        second = cluster.add_node(num_cpus=1, resources={"env_node": 1})
        cluster.wait_for_nodes()
        out = tmp_path / "bench"
        code = benchmark.main([
            "--config", SMOKE, "--out", str(out), "--algorithms", "rllib_ppo",
            "--ray", cluster.address, "--budget", "128", "--deals", "4",
            "--set", "eval.every=128", "--set", "eval.at_start=false",
            "--set", "eval.opponents=[random]",
            "--set", "algorithms.rllib_ppo.num_env_runners=1",
            "--set", "algorithms.rllib_ppo.num_cpus_per_env_runner=0",
            "--set", "algorithms.rllib_ppo.custom_resources_per_env_runner={env_node: 1}",
            "--set", "algorithms.rllib_ppo.model.fcnet_hiddens=[16]",
            "--set", "algorithms.rllib_ppo.ppo={train_batch_size_per_learner: 128, "
                     "minibatch_size: 64, num_epochs: 1}"])
        assert code == 0
        res = json.loads((out / "results.json").read_text())
        (cell,) = res["cells"]
        assert cell["algorithm"] == "rllib_ppo" and cell["steps"] >= 128
        assert cell["info"]["env_runner_nodes"] == [second.node_id]
        assert cell["info"]["illegal_actions"] == 0
        assert cell["final"]["vs"]["random"]["deals"] == 4
        assert (out / "curve_gin_rummy.png").is_file()
    finally:
        cluster.shutdown()
