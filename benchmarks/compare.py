"""Gin Rummy side by side: rummy_env against OpenSpiel and RLCard, in one run.

Each implementation plays uniform random games over its legal actions, building what an RL user
builds every decision:

* ``rummy_env``: ``rummy_env.make("gin_rummy")`` through the AEC API, ``agent_iter()`` /
  ``last()`` (observation and mask) / ``step()``;
* ``open_spiel``: ``pyspiel.load_game("gin_rummy")``, ``observation_tensor(player)`` and
  ``legal_actions_mask(player)`` at every decision (chance nodes, the deal and stock draws, are
  sampled uniformly and not counted as steps);
* ``rlcard``: ``rlcard.make("gin-rummy")`` used directly: ``reset()`` / ``step()`` build the
  state (observation and legal actions) every step.

The random choice is the same everywhere, ``legal[rng.integers(len(legal))]`` with a seeded
``numpy`` generator, where ``legal`` is ``np.flatnonzero(mask)`` (RLCard: the legal ids its state
holds). Every run is a fresh
subprocess (``--worker``) that plays complete games for ``--seconds`` (after imports and setup),
so runs do not share caches or memory; runs alternate between implementations (A B C A B C ...)
and the table gives the median of ``--repeats`` runs. Peak memory is the worker process's peak
resident set size (``resource.getrusage(...).ru_maxrss``: interpreter, imports and game
included). A missing reference package is skipped with a message; rummy_env always runs.

    pip install -e '.[bench]'            # open_spiel and rlcard (optional, never a runtime need)
    python benchmarks/compare.py         # 3 repeats of 3 s each
    python benchmarks/compare.py --seconds 5 --repeats 5

PettingZoo's own gin_rummy_v4 (a wrapper over RLCard) was removed in PettingZoo 1.27, so it is
not run here; its figure measured on these machines (issue 6: 5,050 steps/s) is printed for
the ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing (the workers too): the package is ROOT's.
sys.path.insert(0, str(ROOT))
#: PettingZoo gin_rummy_v4 under the same random masked play, measured on these machines
#: (issue 6); it no longer installs with PettingZoo 1.27.
PETTINGZOO_V4_STEPS_PER_S = 5050.0

IMPLS = {
    "rummy_env": ("rummy_env", "rummy_env gin_rummy, AEC (obs + mask)"),
    "open_spiel": ("pyspiel", "OpenSpiel gin_rummy (obs + mask)"),
    "rlcard": ("rlcard", "RLCard gin-rummy, direct"),
}


# --------------------------------------------------------------------------- workers
def _run_rummy_env(seconds: float, seed: int) -> tuple[int, int, float]:
    import numpy as np

    import rummy_env

    env = rummy_env.make("gin_rummy")
    rng = np.random.default_rng(seed)
    steps = games = 0
    ep_seed = seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=ep_seed)
        ep_seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def _run_open_spiel(seconds: float, seed: int,
                    clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float]:
    """OpenSpiel gin_rummy under the shared random masked play (``benchmarks/throughput.py
    --reference`` runs it in-process, on its own clock, as the calibration point)."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # The deal and the stock draws: uniform over the cards left, so the cheaper
                # legal_actions() serves instead of chance_outcomes().
                cards = state.legal_actions()
                state.apply_action(cards[rng.integers(len(cards))])
                continue
            player = state.current_player()
            state.observation_tensor(player)
            legal = np.flatnonzero(state.legal_actions_mask(player))
            state.apply_action(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    return steps, games, clock() - start


def _run_rlcard(seconds: float, seed: int) -> tuple[int, int, float]:
    import numpy as np
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])  # its state holds the legal ids already
            state, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


WORKERS = {"rummy_env": _run_rummy_env, "open_spiel": _run_open_spiel, "rlcard": _run_rlcard}


def worker(name: str, seconds: float, seed: int) -> None:
    """One measured run in this process; prints one JSON line."""
    cpu0 = time.process_time()
    steps, games, elapsed = WORKERS[name](seconds, seed)
    cpu = time.process_time() - cpu0
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"impl": name, "steps": steps, "games": games, "seconds": elapsed,
                      "cpu_seconds": cpu, "peak_rss_mb": peak_kb / 1024.0}))


# --------------------------------------------------------------------------- driver
def available(name: str) -> bool:
    return importlib.util.find_spec(IMPLS[name][0]) is not None


def run_one(name: str, seconds: float, seed: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", name, "--seconds",
                          str(seconds), "--seed", str(seed)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{name} worker failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    ap.add_argument("--repeats", type=int, default=3, help="runs per implementation (median)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--impls", nargs="*", default=list(IMPLS), choices=list(IMPLS))
    ap.add_argument("--worker", choices=list(IMPLS), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker, args.seconds, args.seed)
        return 0

    impls = []
    for name in args.impls:
        if name == "rummy_env" or available(name):
            impls.append(name)
        else:
            print(f"skipped {name}: the {IMPLS[name][0]!r} package is not installed "
                  f"(pip install -e '.[bench]' installs open_spiel and rlcard)")
    if "rummy_env" not in impls:
        impls.insert(0, "rummy_env")
    runs: dict[str, list[dict]] = {n: [] for n in impls}
    for r in range(args.repeats):  # alternate: A B C A B C ...
        for name in impls:
            runs[name].append(run_one(name, args.seconds, args.seed + 1000 * r))

    print(f"\nGin Rummy, uniform random play over legal actions, median of {args.repeats} "
          f"runs of {args.seconds:g} s (alternating), one process per run")
    print("(steps/s: wall clock; CPU steps/s: per second of the worker's CPU time, which a "
          "busy shared machine disturbs less)")
    print(f"{'implementation':40s} {'steps/s':>9s} {'CPU steps/s':>11s} {'games/s':>8s} "
          f"{'steps/game':>10s} {'peak RSS MB':>11s}  runs (steps/s)")
    rates: dict[str, float] = {}
    cpu_rates: dict[str, float] = {}
    for name in impls:
        rs = runs[name]
        sps = [x["steps"] / x["seconds"] for x in rs]
        gps = [x["games"] / x["seconds"] for x in rs]
        per_game = sum(x["steps"] for x in rs) / max(1, sum(x["games"] for x in rs))
        mem = max(x["peak_rss_mb"] for x in rs)
        rates[name] = statistics.median(sps)
        cpu_rates[name] = statistics.median(x["steps"] / max(x["cpu_seconds"], 1e-9) for x in rs)
        print(f"{IMPLS[name][1]:40s} {rates[name]:9,.0f} {cpu_rates[name]:11,.0f} "
              f"{statistics.median(gps):8,.1f} {per_game:10.1f} {mem:11.1f}  "
              + " ".join(f"{x:,.0f}" for x in sps))
    ours, ours_cpu = rates["rummy_env"], cpu_rates["rummy_env"]
    print("\nratios of rummy_env's steps/s over the reference's (wall clock; CPU time):")
    if "open_spiel" in rates:
        print(f"  rummy_env / OpenSpiel (obs + mask)    {ours / rates['open_spiel']:5.2f}x  "
              f"{ours_cpu / cpu_rates['open_spiel']:5.2f}x   (issue 6 target: >= 1.5x)")
    if "rlcard" in rates:
        print(f"  rummy_env / RLCard (direct)           {ours / rates['rlcard']:5.2f}x  "
              f"{ours_cpu / cpu_rates['rlcard']:5.2f}x")
    print(f"  rummy_env / PettingZoo gin_rummy_v4   {ours / PETTINGZOO_V4_STEPS_PER_S:5.2f}x  "
          f"{ours_cpu / PETTINGZOO_V4_STEPS_PER_S:5.2f}x   (its {PETTINGZOO_V4_STEPS_PER_S:,.0f} "
          "steps/s measured in issue 6, not here; target: >= 4x)")
    print("Steps differ between implementations (OpenSpiel counts each meld and lay-off, RLCard "
          "adds score actions), so compare games/s too.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
