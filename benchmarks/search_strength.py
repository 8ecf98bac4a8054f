"""SearchBot against GreedyBot at a chosen budget: duplicate evaluation and time per decision.

Run::

    python benchmarks/search_strength.py --variant gin_rummy --players 2 --deals 1000 \\
        [--worlds K|auto] [--horizon H|full|auto] [--time-budget S] [--confidence Z|auto]
        [--rollout greedy] [--model auto|on|off] [--seed 0] [--json OUT]

plays ``training.evaluate``'s duplicate evaluation (every deal once per rotation of the players
through the seats, paired comparison by deal) with a :class:`~rummy_env.bots.SearchBot` of
that budget in listed seat 0 and GreedyBots elsewhere, and reports, besides evaluate's
numbers, the search bot's mean seconds per decision: over every decision, and over those it
searched (more than one legal action). ``python -m training.evaluate --agent search --vs
greedy --duplicate`` plays the default budget (``make_bot("search")``) the same way.

A long run may be split into runs of the same budget with different ``--seed`` values (their
deals are disjoint: evaluate deals ``seed * 1_000_003 + g``), on two cores or over several
sessions, and put together with::

    python benchmarks/search_strength.py --combine a.json b.json [--json OUT]

which gives the paired margin and its interval over all the deal groups exactly as one run
would (the mean and sample deviation of the groups' differences are rebuilt from each part's
count, mean and interval), and the time per decision over all decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rummy_env  # noqa: E402
from rummy_env.bots import GreedyBot, SearchBot, SeatView  # noqa: E402
from training.evaluate import Z95, evaluate  # noqa: E402


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


def _pool(parts: list[tuple[int, float, list[float]]]) -> tuple[int, float, list[float]]:
    """``(groups, mean, 95% interval)`` of all groups from each part's: a part's sample
    deviation is ``half * sqrt(n) / Z95``, and the pooled sum of squares adds each part's
    spread around its mean and its mean's distance from the overall one."""
    n = sum(k for k, _, _ in parts)
    mean = sum(k * m for k, m, _ in parts) / n
    ss = 0.0
    for k, m, (lo, hi) in parts:
        sd = (hi - lo) / 2 * math.sqrt(k) / Z95
        ss += (k - 1) * sd * sd + k * (m - mean) ** 2
    half = Z95 * math.sqrt(ss / (n - 1)) / math.sqrt(n) if n > 1 else 0.0
    return n, mean, [mean - half, mean + half]


def combine(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One result from runs of the same variant, players and search budget on disjoint deals
    (different seeds): deals, paired margin and win difference over all groups, decisions and
    seconds per decision over all decisions (see the module docstring)."""
    first = results[0]
    same = ("variant", "players", "duplicate")
    budget = ("worlds", "horizon", "rollout", "time_budget", "margin", "confidence")
    for r in results[1:]:
        if any(r[k] != first[k] for k in same) or \
                any(r["search"][k] != first["search"][k] for k in budget):
            raise ValueError("runs to combine must share variant, players, duplicate and the "
                             "search budget")
    seeds = [r["seed"] for r in results]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"runs to combine must have different seeds (disjoint deals): {seeds}")
    pen = _pool([(r["paired"]["groups"], r["paired"]["penalty_diff"],
                  r["paired"]["penalty_diff_ci"]) for r in results])
    win = _pool([(r["paired"]["groups"], r["paired"]["win_diff"], r["paired"]["win_diff_ci"])
                 for r in results])
    decisions = sum(r["search"]["decisions"] for r in results)
    searched = sum(r["search"]["searched"] for r in results)
    search = dict(first["search"])
    search.update(
        decisions=decisions, searched=searched,
        fallbacks=sum(r["search"]["fallbacks"] for r in results),
        seconds_per_decision=sum(r["search"]["seconds_per_decision"] * r["search"]["decisions"]
                                 for r in results) / max(1, decisions),
        seconds_per_searched=sum(r["search"]["seconds_per_searched"] * r["search"]["searched"]
                                 for r in results) / max(1, searched))
    paired = dict(first["paired"], groups=pen[0], penalty_diff=pen[1], penalty_diff_ci=pen[2],
                  win_diff=win[1], win_diff_ci=win[2], beats=bool(pen[2][1] < 0.0))
    return {k: first[k] for k in same} | {
        "deals": sum(r["deals"] for r in results), "seed": seeds,
        "seconds": sum(r["seconds"] for r in results), "paired": paired, "search": search,
        "truncated": sum(r.get("truncated", 0) for r in results)}


def _report(res: dict[str, Any]) -> None:
    p, s = res["paired"], res["search"]
    lo, hi = p["penalty_diff_ci"]
    print(f"{res['variant']} {res['players']}p K={s['worlds']} H={s['horizon']} "
          f"budget={s['time_budget']} z={s['confidence']}: "
          f"{res['deals']} deals, search minus greedy {p['penalty_diff']:+.2f} "
          f"[{lo:+.2f}, {hi:+.2f}] points per deal (beats: {p['beats']}), win rate "
          f"{p['win_diff']:+.3f}; {1000 * s['seconds_per_decision']:.1f} ms per decision, "
          f"{1000 * s['seconds_per_searched']:.1f} ms per searched decision "
          f"({s['searched']} of {s['decisions']}; {s['fallbacks']} played greedy's move: no "
          f"world could be built); {res['seconds']:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--combine", type=Path, nargs="+", default=None,
                    help="put together the --json results of runs on disjoint deals")
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int)
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
    ap.add_argument("--model", choices=("auto", "on", "off"), default="auto",
                    help="the family's opponent model: where measured to pay (auto, the "
                         "default), in every variant (on) or never (off)")
    ap.add_argument("--json", type=Path, default=None, help="write the result here")
    args = ap.parse_args(argv)
    if args.combine:
        res = combine([json.loads(f.read_text()) for f in args.combine])
        _report(res)
        if args.json:
            args.json.write_text(json.dumps(res, indent=1))
        return res
    if not args.variant or not args.players:
        ap.error("--variant and --players are required (or --combine)")
    bot = TimedSearch(args.seed, worlds=args.worlds, horizon=args.horizon,
                      rollout=args.rollout, time_budget=args.time_budget, margin=args.margin,
                      confidence=args.confidence,
                      opponent_model={"auto": "auto", "on": True, "off": False}[args.model])
    P = args.players
    bots = [bot] + [GreedyBot(args.seed * 1000 + j) for j in range(1, P)]
    res = evaluate(args.variant, ["search"] + ["greedy"] * (P - 1), args.deals, args.seed,
                   players=P, duplicate=True, bots=bots)
    fam = rummy_env.make(args.variant, num_players=P).family
    worlds, horizon, z = bot.budget(fam)
    res["search"] = {"worlds": worlds, "horizon": horizon, "rollout": args.rollout,
                     "time_budget": args.time_budget, "margin": args.margin,
                     "confidence": z, "model": args.model,
                     "decisions": bot.decisions, "searched": bot.searched,
                     "fallbacks": bot.fallbacks,
                     "seconds_per_decision": bot.seconds / max(1, bot.decisions),
                     "seconds_per_searched": bot.search_seconds / max(1, bot.searched)}
    _report(res)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
