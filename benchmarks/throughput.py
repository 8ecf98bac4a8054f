"""AEC steps per second under random masked play, per variant.

Each step goes through the environment users get (``rummy_env.make``): ``agent_iter()``,
``last()`` (observation and mask built every step) and ``step()``, with a uniform random choice
among the legal actions. Prints the median of ``--repeats`` runs. Machines here are shared and
noisy: compare medians and ratios, never single runs.

    python benchmarks/throughput.py                    # every variant at 4 players
    python benchmarks/throughput.py --variants contract_rummy --players 3 4 5 --seconds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import rummy_env


def run_once(name: str, players: int, seconds: float, seed: int) -> tuple[float, int, int]:
    """Play random masked games for about ``seconds``; returns (steps/s, steps, episodes)."""
    env = rummy_env.make(name, num_players=players, deal="random")
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    ep_seed = seed
    while time.perf_counter() < deadline:
        env.reset(seed=ep_seed)
        ep_seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, steps, episodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="*", default=list(rummy_env.VARIANTS))
    ap.add_argument("--players", nargs="*", type=int, default=[4])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"{'variant':30s} {'players':>7s} {'steps/s (median)':>17s} {'runs':>24s} {'steps/ep':>9s}")
    for name in args.variants:
        for n in args.players:
            runs = [run_once(name, n, args.seconds, seed=1000 * r) for r in range(args.repeats)]
            rates = [r[0] for r in runs]
            per_ep = sum(r[1] for r in runs) / max(1, sum(r[2] for r in runs))
            print(f"{name:30s} {n:7d} {statistics.median(rates):17,.0f} "
                  f"{' '.join(f'{x:,.0f}' for x in rates):>24s} {per_ep:9.0f}", flush=True)


if __name__ == "__main__":
    main()
