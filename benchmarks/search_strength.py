"""SearchBot against GreedyBot at a chosen budget: duplicate evaluation and time per decision.

Run::

    python benchmarks/search_strength.py --variant gin_rummy --players 2 --deals 1000 \\
        [--worlds K|auto] [--horizon H|full|auto] [--time-budget S] [--confidence Z|auto]
        [--rollout greedy] [--seed 0] [--json OUT]

plays ``training.evaluate``'s duplicate evaluation (every deal once per rotation of the players
through the seats, paired comparison by deal) with a :class:`~rummy_env.bots.SearchBot` of
that budget in listed seat 0 and GreedyBots elsewhere, and reports, besides evaluate's
numbers, the search bot's mean seconds per decision: over every decision, and over those it
searched (more than one legal action). ``python -m training.evaluate --agent search --vs
greedy --duplicate`` plays the default budget (``make_bot("search")``) the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rummy_env  # noqa: E402
from rummy_env.bots import GreedyBot, SearchBot, SeatView  # noqa: E402
from training.evaluate import evaluate  # noqa: E402


def budget_arg(text: str) -> int | None | str:
    """``--worlds``/``--horizon`` values: ``auto`` (the family's, ``BUDGETS``), ``full`` (a
    horizon to the end of the deal) or an int."""
    if text in ("auto", "full"):
        return None if text == "full" else text
    return int(text)


class TimedSearch(SearchBot):
    """A SearchBot that adds up the time it spends per decision."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions = self.searched = self.fallbacks = 0
        self.seconds = self.search_seconds = 0.0

    def act(self, view: SeatView) -> int:
        t0 = time.perf_counter()
        a = super().act(view)
        dt = time.perf_counter() - t0
        self.decisions += 1
        self.seconds += dt
        self.fallbacks += int(self.last.get("fallback", 0))
        if len(view.legal_actions) > 1:
            self.searched += 1
            self.search_seconds += dt
        return a


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worlds", type=budget_arg, default="auto",
                    help="K, worlds sampled per decision (default: auto, the family's)")
    ap.add_argument("--horizon", type=budget_arg, default="auto",
                    help="H, rollout steps before the cheap evaluation; full: to the end of "
                         "the deal (default: auto, the family's)")
    ap.add_argument("--time-budget", type=float, default=None, help="seconds per decision")
    ap.add_argument("--rollout", default="greedy", help="greedy or random")
    ap.add_argument("--margin", type=float, default=0.0)
    ap.add_argument("--confidence", type=lambda t: t if t == "auto" else float(t),
                    default="auto",
                    help="standard errors a gain over greedy's choice must clear (auto: the "
                         "family's)")
    ap.add_argument("--json", type=Path, default=None, help="write the result here")
    args = ap.parse_args(argv)
    bot = TimedSearch(args.seed, worlds=args.worlds, horizon=args.horizon,
                      rollout=args.rollout, time_budget=args.time_budget, margin=args.margin,
                      confidence=args.confidence)
    P = args.players
    bots = [bot] + [GreedyBot(args.seed * 1000 + j) for j in range(1, P)]
    res = evaluate(args.variant, ["search"] + ["greedy"] * (P - 1), args.deals, args.seed,
                   players=P, duplicate=True, bots=bots)
    fam = rummy_env.make(args.variant, num_players=P).family
    worlds, horizon, z = bot.budget(fam)
    res["search"] = {"worlds": worlds, "horizon": horizon, "rollout": args.rollout,
                     "time_budget": args.time_budget, "margin": args.margin,
                     "confidence": z,
                     "decisions": bot.decisions, "searched": bot.searched,
                     "fallbacks": bot.fallbacks,
                     "seconds_per_decision": bot.seconds / max(1, bot.decisions),
                     "seconds_per_searched": bot.search_seconds / max(1, bot.searched)}
    p = res["paired"]
    lo, hi = p["penalty_diff_ci"]
    s = res["search"]
    print(f"{args.variant} {P}p K={worlds} H={horizon} budget={args.time_budget} "
          f"z={z}: "
          f"{res['deals']} deals, search minus greedy {p['penalty_diff']:+.2f} "
          f"[{lo:+.2f}, {hi:+.2f}] points per deal (beats: {p['beats']}), win rate "
          f"{p['win_diff']:+.3f}; {1000 * s['seconds_per_decision']:.1f} ms per decision, "
          f"{1000 * s['seconds_per_searched']:.1f} ms per searched decision "
          f"({s['searched']} of {s['decisions']}; {s['fallbacks']} played greedy's move: no "
          f"world could be built); {res['seconds']:.0f} s", flush=True)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
