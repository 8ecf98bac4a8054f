"""Train a MaskablePPO agent for one seat against baseline bots, evaluating as it goes.

    python -m training.train --config configs/train/contract_rummy.yaml
    python -m training.train --config configs/train/contract_rummy.yaml --timesteps 20000 \\
        --opponents greedy --set ppo.learning_rate=1e-4 --out runs/try1

The YAML holds the variant and its options, the opponents, the algorithm settings and the
evaluation schedule; flags override it (``--set a.b=value`` reaches any key). The output folder
gets ``config.yaml`` (the resolved config), checkpoints, TensorBoard logs (``tb/``), the
evaluation history (``evals.json``), a learning curve (``learning_curve.png``) and ``final.zip``.
At the end the final checkpoint is evaluated against each baseline and the table is printed.

On these 2-core machines torch runs with one thread (``torch_threads: 1``): with two, OpenMP
contention with the environment makes training many times slower (ECOSYSTEM-NOTES).
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import sys
import time
from typing import Any

import yaml

DEFAULTS: dict[str, Any] = {
    "variant": "contract_rummy",
    "env": {"num_players": 4, "deal": "random", "reward_scale": 0.01},
    "opponents": "random",
    "seat": "rotate",
    "algorithm": "MaskablePPO",
    "timesteps": 100_000,
    "seed": 0,
    "n_envs": 4,
    "vec_env": "dummy",
    "policy": {"net_arch": [256, 256]},
    "ppo": {"n_steps": 512, "batch_size": 256, "learning_rate": 3.0e-4, "gamma": 0.995,
            "gae_lambda": 0.95, "ent_coef": 0.01, "n_epochs": 4},
    "eval": {"every": 25_000, "deals": 100, "opponents": ["random", "greedy"], "final_deals": 400},
    "out": "runs/contract_rummy",
    "torch_threads": 1,
    "progress_bar": True,
}


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _set(cfg: dict[str, Any], dotted: str) -> None:
    key, sep, raw = dotted.partition("=")
    if not sep:
        raise SystemExit(f"--set wants key=value, got {dotted!r}")
    *path, last = key.split(".")
    node = cfg
    for p in path:
        node = node.setdefault(p, {})
    node[last] = yaml.safe_load(raw)


def resolve_config(argv: list[str] | None = None) -> dict[str, Any]:
    """The run's config: defaults, then the YAML file, then the flags."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="YAML file (configs/train/<variant>.yaml)")
    ap.add_argument("--variant")
    ap.add_argument("--opponents", help="random | greedy | selfplay (snapshots of the learner)")
    ap.add_argument("--timesteps", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--n-envs", type=int)
    ap.add_argument("--eval-every", type=int)
    ap.add_argument("--eval-deals", type=int)
    ap.add_argument("--final-deals", type=int)
    ap.add_argument("--out")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    cfg = copy.deepcopy(DEFAULTS)
    if args.config:
        with open(args.config) as f:
            cfg = _merge(cfg, yaml.safe_load(f) or {})
    for flag, key in (("variant", "variant"), ("opponents", "opponents"),
                      ("timesteps", "timesteps"), ("seed", "seed"), ("n_envs", "n_envs"),
                      ("out", "out")):
        v = getattr(args, flag)
        if v is not None:
            cfg[key] = v
    if args.eval_every is not None:
        cfg["eval"]["every"] = args.eval_every
    if args.eval_deals is not None:
        cfg["eval"]["deals"] = args.eval_deals
    if args.final_deals is not None:
        cfg["eval"]["final_deals"] = args.final_deals
    if args.no_progress:
        cfg["progress_bar"] = False
    for s in args.set:
        _set(cfg, s)
    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise SystemExit(f"unknown config keys {sorted(unknown)}; allowed: {sorted(DEFAULTS)}")
    if cfg["algorithm"] != "MaskablePPO":
        raise SystemExit(f"algorithm {cfg['algorithm']!r} is not supported; allowed: MaskablePPO")
    return cfg


def _make_env_fn(cfg: dict[str, Any], rank: int):
    def make():
        from rummy_env.wrappers import SelfPlayEnv, SingleSeatEnv

        seed = cfg["seed"] * 1000 + rank
        if cfg["opponents"] == "selfplay":
            # Opponents are drawn from snapshots of the learner (random bots until the first
            # evaluation adds one); the last few are kept.
            return SelfPlayEnv(cfg["variant"], max_pool=5, seat=cfg["seat"], seed=seed,
                               **cfg["env"])
        return SingleSeatEnv(cfg["variant"], opponents=cfg["opponents"], seat=cfg["seat"],
                             seed=seed, **cfg["env"])

    return make


def _evaluate(cfg: dict[str, Any], model_path: str, opponent: str, deals: int,
              seed: int) -> dict[str, Any]:
    from training.evaluate import evaluate

    n = cfg["env"].get("num_players", 4)
    seats = [model_path] + [opponent] * (n - 1)
    env_options = {k: v for k, v in cfg["env"].items() if k not in ("num_players", "deal",
                                                                   "reward_scale", "episode")}
    return evaluate(cfg["variant"], seats, deals, seed, players=n, env_options=env_options)


def _plot(history: list[dict[str, Any]], path: pathlib.Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for opp in sorted({h["opponent"] for h in history}):
        pts = [h for h in history if h["opponent"] == opp]
        x = [h["timesteps"] for h in pts]
        y = [h["agent"]["mean_penalty"] for h in pts]
        lo = [h["agent"]["penalty_ci"][0] for h in pts]
        hi = [h["agent"]["penalty_ci"][1] for h in pts]
        ax.plot(x, y, marker="o", label=f"agent vs {opp}")
        ax.fill_between(x, lo, hi, alpha=0.2)
        ax.plot(x, [h["opponent_mean_penalty"] for h in pts], linestyle="--",
                label=f"{opp} (same games)")
    ax.set_xlabel("timesteps")
    ax.set_ylabel("penalty points per deal (lower is better)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """The agent's row and the opponents' mean from an evaluate() result."""
    rows = result["results"]
    agent = rows[0]
    others = rows[1:]
    return {
        "agent": agent,
        "opponent_mean_penalty": sum(p["mean_penalty"] for p in others) / len(others),
    }


def train(cfg: dict[str, Any]) -> dict[str, Any]:
    import torch

    if cfg.get("torch_threads"):
        torch.set_num_threads(int(cfg["torch_threads"]))
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    out = pathlib.Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    fns = [_make_env_fn(cfg, i) for i in range(cfg["n_envs"])]
    venv = SubprocVecEnv(fns) if cfg["vec_env"] == "subproc" else DummyVecEnv(fns)
    model = MaskablePPO(
        "MlpPolicy", venv, seed=cfg["seed"], verbose=0, tensorboard_log=str(out / "tb"),
        policy_kwargs={"net_arch": list(cfg["policy"]["net_arch"])}, device="cpu",
        **cfg["ppo"],
    )
    history: list[dict[str, Any]] = []
    ev = cfg["eval"]

    def run_eval(step: int, deals: int, tag: str) -> None:
        path = out / f"{tag}.zip"
        model.save(path)
        if cfg["opponents"] == "selfplay":
            from training.policy_bot import PolicyBot

            # Sampling (not argmax) keeps the snapshot opponents varied.
            venv.env_method("add_snapshot", PolicyBot(path, deterministic=False))
        for opp in ev["opponents"]:
            res = _evaluate(cfg, str(path), opp, deals, seed=10_000 + step)
            row = {"timesteps": step, "opponent": opp, "deals": deals, **_summary(res)}
            history.append(row)
            a = row["agent"]
            print(f"[eval {step:>8}] vs {opp:6s}: agent {a['mean_penalty']:.1f} "
                  f"[{a['penalty_ci'][0]:.1f}, {a['penalty_ci'][1]:.1f}] penalty/deal, "
                  f"win rate {a['win_rate']:.2f}; {opp} {row['opponent_mean_penalty']:.1f}",
                  flush=True)
        (out / "evals.json").write_text(json.dumps(history, indent=1))
        _plot(history, out / "learning_curve.png", f"{cfg['variant']} MaskablePPO")

    class EvalCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = ev["every"]

        def _on_step(self) -> bool:
            if ev["every"] and self.num_timesteps >= self.next_eval:
                run_eval(self.num_timesteps, ev["deals"], f"checkpoint_{self.num_timesteps}")
                self.next_eval += ev["every"]
            return True

    start, cpu_start = time.time(), time.process_time()
    model.learn(total_timesteps=cfg["timesteps"], callback=EvalCallback(),
                progress_bar=bool(cfg["progress_bar"]))
    train_seconds = time.time() - start
    # CPU time of this process (training and the periodic evaluations): on a shared machine
    # it, not the wall clock, is the "one core for N minutes" budget.
    cpu_seconds = time.process_time() - cpu_start
    model.save(out / "final.zip")
    print(f"trained {cfg['timesteps']} steps in {train_seconds:.0f} s wall, "
          f"{cpu_seconds:.0f} s CPU; final evaluation:")
    finals = {}
    for opp in ev["opponents"]:
        n = cfg["env"].get("num_players", 4)
        res = _evaluate(cfg, str(out / "final.zip"), opp, ev["final_deals"], seed=99_999)
        finals[opp] = res
        history.append({"timesteps": cfg["timesteps"], "opponent": opp,
                        "deals": ev["final_deals"], **_summary(res)})
        from training.evaluate import format_table

        print(f"\n{cfg['variant']}: final.zip (seat rotating) vs {n - 1} x {opp}, "
              f"{ev['final_deals']} deals")
        print(format_table(res))
    (out / "evals.json").write_text(json.dumps(history, indent=1))
    _plot(history, out / "learning_curve.png", f"{cfg['variant']} MaskablePPO")
    summary = {"train_seconds": train_seconds, "train_cpu_seconds": cpu_seconds,
               "timesteps": cfg["timesteps"], "final": finals}
    if cfg["opponents"] == "selfplay":
        summary["snapshots"] = [len(pool) for pool in venv.get_attr("snapshot_pool")]
    (out / "final_eval.json").write_text(json.dumps(summary, indent=1))
    venv.close()
    return summary


def main(argv: list[str] | None = None) -> int:
    cfg = resolve_config(argv)
    train(cfg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
