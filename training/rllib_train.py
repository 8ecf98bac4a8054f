"""Train masked PPO for every seat of a rummy_env variant with Ray RLlib, on a laptop or a cluster.

    python -m training.rllib_train --config configs/rllib/contract_rummy.yaml
    python -m training.rllib_train --config configs/rllib/indian_rummy.yaml --iterations 5 \\
        --num-env-runners 0 --set ppo.train_batch_size_per_learner=1000 --out runs/try
    python -m training.rllib_train --config configs/rllib/contract_rummy.yaml \\
        --address auto --num-env-runners 32          # on a Ray cluster (see below)

Needs the ``rllib`` extra (``pip install "rummy-env[rllib]"``). The YAML holds the variant and
its options, ``policies`` (``shared``: one policy plays every seat, which works because
observations are ego-centric; ``per_seat``: one policy per seat), the sampling layout
(``num_env_runners``, ``num_envs_per_env_runner``, ``num_cpus_per_env_runner``,
``num_learners``), the network (``model``: RLlib ``DefaultModelConfig`` keys) and the PPO
settings (``ppo``: keys of ``PPOConfig.training``); flags override it (``--set a.b=value``
reaches any key). ``num_env_runners: 0`` samples in the driver process (no Ray workers), the
lightest setting for a smoke test.

Each iteration prints one line (sampled steps, episodes, mean episode length, mean return per
agent, illegal actions, PPO losses) and appends it to ``progress.jsonl``; the output folder also
gets ``config.yaml`` (the resolved config), ``checkpoint/`` (an RLlib checkpoint, rewritten
every ``checkpoint_every`` iterations and at the end; ``Algorithm.from_checkpoint`` restores it)
and ``summary.json``. Illegal actions are counted by the adapter
(:mod:`rummy_env.integrations.rllib`) before the env sees them; with masking there are none,
and the script exits with status 1 if any occurred.

Cluster: ``address`` (``--address``) is passed to ``ray.init``: ``auto`` joins the cluster the
machine belongs to (``ray start --head`` / ``ray start --address=<head>:6379``, or a job run
with ``ray job submit``), ``ray://<head>:10001`` connects through Ray Client. Every node needs
rummy_env installed (or ``ray_init: {runtime_env: {...}}`` shipping it); the env creator is
registered from the driver and reaches the env runners through Ray. ``ray_init`` holds extra
``ray.init`` arguments (``num_cpus``, ``_temp_dir``, ``runtime_env`` ...).

On these 2-core machines torch runs with one thread in the driver (``torch_threads: 1``); Ray
gives each env runner ``OMP_NUM_THREADS`` = its CPUs (1).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import pathlib
import sys
import time
from typing import Any

import yaml

from training.train import _merge, _set

DEFAULTS: dict[str, Any] = {
    "variant": "contract_rummy",
    # Merged into each config file's env (options of rummy_env.make); "penalize" (not
    # "raise") so that a stray illegal action is counted and ends its episode instead of
    # killing an env runner.
    "env": {"reward_scale": 0.01, "illegal_action": "penalize"},
    "policies": "shared",
    "iterations": 100,
    "seed": 0,
    "address": None,
    "num_env_runners": 2,
    "num_envs_per_env_runner": 1,
    "num_cpus_per_env_runner": 1,
    "num_learners": 0,
    "model": {"fcnet_hiddens": [256, 256]},
    "ppo": {"train_batch_size_per_learner": 4000, "minibatch_size": 500, "num_epochs": 4,
            "lr": 3.0e-4, "gamma": 0.995, "lambda_": 0.95, "entropy_coeff": 0.01},
    "checkpoint_every": 10,
    "out": "runs/rllib/contract_rummy",
    "torch_threads": 1,
    "ray_init": {"include_dashboard": False},
}


def resolve_config(argv: list[str] | None = None) -> dict[str, Any]:
    """The run's config: defaults, then the YAML file, then the flags."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="YAML file (configs/rllib/<variant>.yaml)")
    ap.add_argument("--variant")
    ap.add_argument("--policies", help="shared | per_seat")
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--address", help="Ray address: auto, ray://host:10001, host:6379")
    ap.add_argument("--num-env-runners", type=int)
    ap.add_argument("--num-envs-per-env-runner", type=int)
    ap.add_argument("--out")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    cfg = copy.deepcopy(DEFAULTS)
    if args.config:
        with open(args.config) as f:
            cfg = _merge(cfg, yaml.safe_load(f) or {})
    for key in ("variant", "policies", "iterations", "seed", "address", "num_env_runners",
                "num_envs_per_env_runner", "out"):
        v = getattr(args, key)
        if v is not None:
            cfg[key] = v
    for s in args.set:
        _set(cfg, s)
    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise SystemExit(f"unknown config keys {sorted(unknown)}; allowed: {sorted(DEFAULTS)}")
    from rummy_env.integrations.rllib import POLICY_MODES

    if cfg["policies"] not in POLICY_MODES:
        raise SystemExit(f"policies={cfg['policies']!r} is invalid; allowed: "
                         + ", ".join(POLICY_MODES))
    for key in ("iterations", "num_env_runners", "num_envs_per_env_runner", "num_learners"):
        if not isinstance(cfg[key], int) or cfg[key] < (1 if key in (
                "iterations", "num_envs_per_env_runner") else 0):
            raise SystemExit(f"{key}={cfg[key]!r} is invalid; allowed: an int >= "
                             f"{1 if key in ('iterations', 'num_envs_per_env_runner') else 0}")
    return cfg


def build_config(cfg: dict[str, Any]) -> Any:
    """The RLlib ``PPOConfig`` of a resolved config (the env creator must be registered)."""
    from rummy_env.integrations.rllib import masked_ppo_config

    return (
        masked_ppo_config(cfg["variant"], cfg["env"], policies=cfg["policies"],
                          model=cfg["model"])
        .env_runners(num_env_runners=cfg["num_env_runners"],
                     num_envs_per_env_runner=cfg["num_envs_per_env_runner"],
                     num_cpus_per_env_runner=cfg["num_cpus_per_env_runner"])
        .learners(num_learners=cfg["num_learners"])
        .training(**cfg["ppo"])
        .debugging(seed=cfg["seed"])
    )


def iteration_row(i: int, result: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The stats of one ``algo.train()`` result that the script prints and logs."""
    er = result.get("env_runners", {})
    learners = {pid: stats for pid, stats in result.get("learners", {}).items()
                if isinstance(stats, dict) and "policy_loss" in stats}

    # An iteration in which no episode ended has no (or NaN) episode metrics.
    def num(x: Any) -> float | None:
        return None if x is None or math.isnan(float(x)) else float(x)

    def count(x: Any) -> int:
        v = num(x)
        return 0 if v is None else int(v)

    return {
        "iteration": i,
        "env_steps": int(result.get("num_env_steps_sampled_lifetime", 0)),
        "episodes": count(er.get("num_episodes")),
        "episode_len_mean": num(er.get("episode_len_mean")),
        "agent_return_mean": {a: num(v) for a, v in
                              sorted(er.get("agent_episode_returns_mean", {}).items())},
        "illegal_actions": count(er.get("illegal_actions")),
        "policy_loss": {p: float(s["policy_loss"]) for p, s in learners.items()},
        "entropy": {p: num(s.get("entropy")) for p, s in learners.items()},
        "seconds": round(seconds, 2),
    }


def _format_row(row: dict[str, Any]) -> str:
    ret = " ".join(f"{v:+.3f}" for v in row["agent_return_mean"].values()
                   if v is not None) or "-"
    ent = " ".join(f"{v:.2f}" for v in row["entropy"].values() if v is not None) or "-"
    length = row["episode_len_mean"]
    return (f"[iter {row['iteration']:>4}] steps {row['env_steps']:>8}  episodes "
            f"{row['episodes']:>4}  len {length if length is None else round(length, 1)}  "
            f"return/agent {ret}  illegal {row['illegal_actions']}  entropy {ent}  "
            f"{row['seconds']:.1f} s")


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    """Run the iterations; return the summary (also written to ``summary.json``)."""
    from rummy_env.integrations.rllib import ENV_NAME, env_creator, require_ray

    require_ray()
    import ray
    import torch
    from ray.tune.registry import register_env

    if cfg.get("torch_threads"):
        torch.set_num_threads(int(cfg["torch_threads"]))
    out = pathlib.Path(cfg["out"]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    init_kwargs = dict(cfg["ray_init"] or {})
    if cfg["address"]:
        init_kwargs["address"] = cfg["address"]
    ray.init(**init_kwargs)
    try:
        register_env(ENV_NAME, env_creator)
        algo = build_config(cfg).build_algo()
        rows = []
        progress = out / "progress.jsonl"
        progress.write_text("")
        start = time.time()
        for i in range(1, cfg["iterations"] + 1):
            t = time.time()
            result = algo.train()
            row = iteration_row(i, result, time.time() - t)
            rows.append(row)
            print(_format_row(row), flush=True)
            with progress.open("a") as f:
                f.write(json.dumps(row) + "\n")
            every = cfg["checkpoint_every"]
            if i == cfg["iterations"] or (every and i % every == 0):
                algo.save_to_path(str(out / "checkpoint"))
        algo.stop()
    finally:
        ray.shutdown()
    summary = {
        "variant": cfg["variant"], "policies": cfg["policies"], "iterations": cfg["iterations"],
        "env_steps": rows[-1]["env_steps"], "episodes": sum(r["episodes"] for r in rows),
        "illegal_actions": sum(r["illegal_actions"] for r in rows),
        "seconds": round(time.time() - start, 1), "checkpoint": str(out / "checkpoint"),
        "last": rows[-1],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"trained {summary['iterations']} iterations ({summary['env_steps']} env steps, "
          f"{summary['episodes']} episodes) in {summary['seconds']} s; illegal actions: "
          f"{summary['illegal_actions']}; checkpoint: {summary['checkpoint']}")
    return summary


def main(argv: list[str] | None = None) -> int:
    from rummy_env.integrations.rllib import require_ray

    cfg = resolve_config(argv)
    try:
        require_ray()
    except ImportError as e:
        raise SystemExit(str(e)) from None
    summary = train(cfg)
    if summary["illegal_actions"]:
        print(f"error: {summary['illegal_actions']} illegal actions (the masks must prevent "
              "every one)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
