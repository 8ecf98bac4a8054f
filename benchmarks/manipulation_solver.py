"""Speed of the Manipulation Rummy table-partition solver (rummy_env.manipulation.solver).

Three measurements:

1. ``is_valid_table`` on random valid tables of about 30, 60 and 100 cards (random groups and
   sequences from two packs), and on the same tables less one card (mostly invalid), in
   milliseconds per call (memo cleared first: every call is a real solve);
2. ``step_options`` (the whole meld mask, one forward-backward sweep of the programme) at the
   start of a turn on such tables, with a random 10-card hand and no jokers, then with one
   joker in the hand (one table, sizes up to ``--joker-max``: a joker that may stand for any
   card multiplies the programme's states even after the solver's joker-need pruning, and
   tables of 90-100 cards take seconds even without one);
3. random masked play through ``rummy_env.make("manipulation_rummy")`` at 4 players: AEC
   steps per second and seconds per game (``--max-turns`` per game; full games with
   ``--max-turns 0``).

Times are this process's CPU time (``time.process_time``), steadier than wall time on a
shared machine.

    python benchmarks/manipulation_solver.py
    python benchmarks/manipulation_solver.py --tables 5 --games 3 --max-turns 0
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

# Run from a checkout without installing: the package is the parent of this directory.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import rummy_env  # noqa: E402
from rummy_env.manipulation import solver  # noqa: E402


def random_table(rng: random.Random, size: int, packs: int = 2) -> tuple[int, ...]:
    """A valid table of about ``size`` cards built from random groups and sequences."""
    avail = [packs] * 52
    c = [0] * 52
    n = tries = 0
    while n < size and tries < 5000:
        tries += 1
        if rng.random() < 0.5:
            r = rng.randrange(13)
            ts = [s * 13 + r for s in rng.sample(range(4), rng.choice((3, 4)))]
        else:
            s, lo, length = rng.randrange(4), rng.randint(1, 12), rng.randint(3, 6)
            if lo + length - 1 > 14:
                continue
            ts = [s * 13 + (p - 1) % 13 for p in range(lo, lo + length)]
        if all(avail[t] > 0 for t in ts) and n + len(ts) <= size + 2:
            for t in ts:
                avail[t] -= 1
                c[t] += 1
            n += len(ts)
    return tuple(c)


def random_hand(rng: random.Random, tab: tuple[int, ...], jokers: int) -> tuple[int, ...]:
    avail = [2 - x for x in tab]
    pool = [t for t in range(52) for _ in range(avail[t])]
    hand = [0] * 53
    for t in rng.sample(pool, min(10, len(pool))):
        hand[t] += 1
    hand[52] = jokers
    return tuple(hand)


def timed(fn, args_list) -> float:
    t0 = time.process_time()
    for a in args_list:
        fn(a)
    return (time.process_time() - t0) / max(1, len(args_list)) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10, help="tables per size")
    ap.add_argument("--sizes", type=int, nargs="*", default=[30, 60, 100])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--max-turns", type=int, default=40, help="0: play full deals")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--joker-max", type=int, default=70,
                    help="largest table size for the mask with a joker in hand (slow)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"{'cards':>5} {'valid ms':>9} {'minus-one ms':>13} {'mask ms':>8} {'mask+JK ms':>11}")
    zero = (0,) * 52
    for size in args.sizes:
        tabs = [random_table(rng, size) for _ in range(args.tables)]
        solver.is_valid_table.cache_clear()
        valid = timed(solver.is_valid_table, tabs)
        minus = []
        for tb in tabs:
            lst = list(tb)
            t = rng.choice([i for i in range(52) if lst[i]])
            lst[t] -= 1
            minus.append(tuple(lst))
        solver.is_valid_table.cache_clear()
        less = timed(solver.is_valid_table, minus)
        qs = [solver.Query(tb, tb, zero, random_hand(rng, tb, 0)) for tb in tabs]
        mask = timed(solver.step_options, qs)
        if size <= args.joker_max:
            qj = [solver.Query(tb, tb, zero, random_hand(rng, tb, 1)) for tb in tabs[:1]]
            maskj = timed(solver.step_options, qj)
        else:
            maskj = float("nan")  # skipped: slow (see the module docstring)
        mean = statistics.mean(sum(t) for t in tabs)
        print(f"{mean:5.0f} {valid:9.2f} {less:13.2f} {mask:8.1f} {maskj:11.1f}", flush=True)
    env = rummy_env.make("manipulation_rummy", num_players=4,
                         max_turns=args.max_turns or 10_000)
    nrng = np.random.default_rng(args.seed)
    steps = 0
    t0 = time.process_time()
    for g in range(args.games):
        env.reset(seed=g)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[nrng.integers(len(legal))]))
            steps += 1
    dt = time.process_time() - t0
    print(f"random play, 4 players, max_turns={args.max_turns or 'none'}: {steps / dt:,.0f} "
          f"steps/s, {dt / args.games:.2f} s per game ({steps / args.games:.0f} steps)")


if __name__ == "__main__":
    main()
