"""How much of the search bot's gap to a perfect-information search is information: a diagnostic.

Run::

    python benchmarks/search_oracle.py --variant may_i --players 4 --deals 80 [--seed 5000]
        [--worlds K|auto] [--horizon H|full|auto]

plays every seeded deal three times with GreedyBots in seats 1.. and, in seat 0, a
:class:`~rummy_env.bots.SearchBot` of that budget, the same search with every world replaced
by the true position (``oracle``: it reads the hidden cards, so it is a measuring stick and
never an opponent), and a GreedyBot. It prints, for the search and the oracle, seat 0's points
per deal minus the other seats' mean, less the same for greedy on the same deal (negative: fewer
points than greedy), with a normal 95% interval over deals. Seat 0 only, no rotation: cheaper
than ``search_strength.py``'s duplicate evaluation and noisier; the gap between the two rows is
what a better model of the hidden cards could gain (in Gin Rummy the Metropolis opponent model
came out of such a gap).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rummy_env  # noqa: E402
from rummy_env.bots import GreedyBot, SearchBot  # noqa: E402
from training.evaluate import Z95, play_deal  # noqa: E402


class OracleSearch(SearchBot):
    """A SearchBot whose every world is the true position of ``env`` (diagnostic only: it
    reads the state the bots are never given), handed to the search as given worlds."""

    def __init__(self, env: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env = env

    def values(self, info: Any, actions: Any, check: Any = None, given: Any = None
               ) -> np.ndarray:
        true = self.env.get_state()
        true.pop("zones")  # output only
        return super().values(info, actions, None, [true] * self.budget(info.family)[0])


def _budget(text: str) -> int | None | str:
    return text if text == "auto" else (None if text == "full" else int(text))


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--deals", type=int, default=80)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--worlds", type=_budget, default="auto")
    ap.add_argument("--horizon", type=_budget, default="auto")
    args = ap.parse_args(argv)
    env = rummy_env.make(args.variant, num_players=args.players) if args.players \
        else rummy_env.make(args.variant)
    n = env.num_players
    seats = list(range(n))
    diffs: dict[str, list[float]] = {"search": [], "oracle": []}
    for g in range(args.deals):
        seed = args.seed + g
        budget = {"worlds": args.worlds, "horizon": args.horizon}
        first = {"search": SearchBot(seed, **budget), "oracle": OracleSearch(env, seed, **budget),
                 "greedy": GreedyBot(0)}
        margin = {}
        for name, bot in first.items():
            pen = play_deal(env, [bot] + [GreedyBot(j) for j in range(1, n)], seats, seed)[0]
            margin[name] = pen[0] - float(np.mean(pen[1:]))
        for name in diffs:
            diffs[name].append(margin[name] - margin["greedy"])
    out = {}
    for name, d in diffs.items():
        x = np.array(d)
        half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
        out[name] = (float(x.mean()), half)
        print(f"{args.variant} {n}p {name}: {len(x)} deals, seat 0 minus greedy in seat 0 "
              f"{x.mean():+.2f} +- {half:.2f} points per deal")
    return out


if __name__ == "__main__":
    main()
