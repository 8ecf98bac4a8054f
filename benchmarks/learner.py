"""Where a MaskablePPO training run spends its CPU: rollouts (environment, bots and the policy's
forward passes) against PPO's update, for a few network sizes and epoch counts.

    python benchmarks/learner.py --variant gin_rummy --players 2 --steps 16384
    python benchmarks/learner.py --variant contract_rummy --players 4 --arch 256,256 64,64

For each setting it trains ``--steps`` learner steps against greedy bots (one torch thread, as
training does) and prints the CPU seconds of ``collect_rollouts`` and of ``train`` (the
update), the update's share, and learner steps per CPU-second. CPU time of this process, so
other load on a shared machine matters less than for wall time; compare settings as ratios.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout


def measure(variant: str, players: int, steps: int, arch: list[int], epochs: int,
            batch: int, n_steps: int, features: bool, n_envs: int = 4) -> dict[str, float]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.train import DEFAULTS, _make_env_fn, _merge
    from training.opponents import Schedule

    torch.set_num_threads(1)
    cfg = _merge(DEFAULTS, {"variant": variant, "env": {"num_players": players},
                            "opponents": "greedy", "features": {"enabled": features}})
    sampler = Schedule("greedy").sampler()
    venv = DummyVecEnv([_make_env_fn(cfg, i, sampler) for i in range(n_envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=batch, n_epochs=epochs,
                        policy_kwargs={"net_arch": arch}, device="cpu", verbose=0, seed=0)
    spent = {"collect": 0.0, "train": 0.0}

    def timed(name, fn):
        def wrapper(*a, **k):
            t0 = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - t0
        return wrapper

    model.collect_rollouts = timed("collect", model.collect_rollouts)
    model.train = timed("train", model.train)
    model.learn(total_timesteps=steps)
    total = spent["collect"] + spent["train"]
    return {"collect_s": spent["collect"], "train_s": spent["train"],
            "update_share": spent["train"] / total, "steps_per_cpu_s": steps / total}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="gin_rummy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=16384)
    ap.add_argument("--arch", nargs="+", default=["256,256", "128,128", "64,64"],
                    help="hidden layer sizes, one setting per argument")
    ap.add_argument("--epochs", nargs="+", type=int, default=[4])
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--n-steps", type=int, default=1024)
    ap.add_argument("--n-envs", nargs="+", type=int, default=[4],
                    help="envs per vector step (the rollout is n_steps x n_envs)")
    ap.add_argument("--features", action="store_true")
    args = ap.parse_args(argv)
    print(f"{args.variant} ({args.players} players), {args.steps} steps vs greedy, "
          f"rollout {args.n_steps * 4} steps, batch {args.batch}")
    print(f"{'arch':>10} {'epochs':>6} {'envs':>5} {'rollout CPU-s':>14} {'update CPU-s':>13} "
          f"{'update share':>12} {'steps/CPU-s':>11}")
    for arch in args.arch:
        layers = [int(x) for x in arch.split(",")]
        for ep in args.epochs:
            for ne in args.n_envs:
                r = measure(args.variant, args.players, args.steps, layers, ep, args.batch,
                            args.n_steps * 4 // ne, args.features, ne)
                print(f"{arch:>10} {ep:>6} {ne:>5} {r['collect_s']:>14.1f} "
                      f"{r['train_s']:>13.1f} {r['update_share']:>12.2f} "
                      f"{r['steps_per_cpu_s']:>11.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
