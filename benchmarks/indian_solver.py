"""Speed of the Indian Rummy hand solver (rummy_env.indian.solver), microseconds per call.

Random 13-card hands dealt from the real decks (2 packs + 2 jokers, 3 packs + 3 jokers), with a
random indicator rank as the wild rank (one hand in 14 with only printed jokers wild), so hands
hold the wild cards a deal gives. Times ``best_arrangement`` (every hand distinct: the per-hand
memo does not help; the per-suit memo does, and is cleared first, so the figures include its
warm-up), then ``declare_discards`` on 14-card hands, then ``can_declare`` (the declaration
search alone, which the engine's mask uses). Prints mean and median.

    python benchmarks/indian_solver.py                 # 5000 hands per deck
    python benchmarks/indian_solver.py --hands 20000 --seed 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

# Run from a checkout without installing: the package is the parent of this directory.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rummy_env.indian import solver  # noqa: E402


def deal(rng: random.Random, packs: int, size: int) -> tuple[list[int], int | None]:
    deck = [t for t in range(52) for _ in range(packs)] + [52] * packs
    cards = rng.sample(deck, size + 1)
    indicator = cards.pop()
    wild_rank = None if indicator == 52 else indicator % 13 + 1
    return cards, wild_rank


def time_calls(fn, cases) -> list[float]:
    out = []
    for args, kw in cases:
        t0 = time.perf_counter()
        fn(*args, **kw)
        out.append((time.perf_counter() - t0) * 1e6)
    return out


def report(name: str, us: list[float]) -> None:
    us_sorted = sorted(us)
    p99 = us_sorted[int(0.99 * (len(us) - 1))]
    print(f"{name:44s} n={len(us):6d}  mean {statistics.fmean(us):8.1f} us  "
          f"median {statistics.median(us):8.1f} us  p99 {p99:9.1f} us  max {max(us):9.1f} us")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000, help="hands per deck size")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    solver.cache_clear()
    everything = []
    for packs in (2, 3):
        cases = []
        for i in range(args.hands):
            cards, wr = deal(rng, packs, 13)
            cases.append(((cards, wr, packs), {"sets_of_four": i % 4 == 0}))
        us = time_calls(solver.best_arrangement, cases)
        everything += us
        report(f"best_arrangement, 13 cards, {packs} packs", us)
    report("best_arrangement, 13 cards, all", everything)
    # a second pass over new hands with the per-suit memo warm
    cases = []
    for i in range(args.hands):
        packs = 2 + i % 2
        cards, wr = deal(rng, packs, 13)
        cases.append(((cards, wr, packs), {}))
    report("best_arrangement, 13 cards, warm suit memo", time_calls(solver.best_arrangement, cases))
    cases = []
    for i in range(args.hands // 5):
        packs = 2 + i % 2
        cards, wr = deal(rng, packs, 14)
        cases.append(((cards, wr, packs), {}))
    report("declare_discards, 14 random cards", time_calls(solver.declare_discards, cases))
    # can_declare: the declaration search alone (what the engine's mask asks), on new hands
    cases = []
    for i in range(args.hands):
        packs = 2 + i % 2
        cards, wr = deal(rng, packs, 13)
        cases.append(((cards, wr, packs), {}))
    report("can_declare, 13 cards, warm suit memo", time_calls(solver.can_declare, cases))


if __name__ == "__main__":
    main()
