"""SearchBot decisions per second per variant, and where the time goes.

Run::

    python benchmarks/search_speed.py [--variants gin_rummy,indian_rummy] [--worlds K|auto]
        [--horizon H|full|auto] [--positions 40] [--seed 0]

Positions are taken from seeded greedy play (every decision of seat 0 with more than one legal
action, up to ``--positions`` per variant); at each the bot of that budget decides once. It
reports decisions per second and the mean worlds and rollouts (one per world and legal action,
played on the engine states, no PettingZoo layer) per decision. CPU time
(``time.process_time``), so a shared machine's load moves it less.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from search_strength import budget_arg  # noqa: E402

import rummy_env  # noqa: E402
from rummy_env.bots import GreedyBot, SearchBot, live_turns, seat_view  # noqa: E402

#: (variant, players) measured by default: every variant at its default player count, and the
#: 2-player tables of the families that have them.
DEFAULT = [(v, None) for v in rummy_env.VARIANTS if v not in ("indian_rummy",
                                                               "manipulation_rummy")]
DEFAULT += [("indian_rummy", 2), ("indian_rummy", 4), ("manipulation_rummy", 2)]


def positions(variant: str, players: int | None, count: int, seed: int) -> list:
    """Copies of envs at seat 0's decisions with a choice, from greedy play."""
    env = rummy_env.make(variant, num_players=players) if players else rummy_env.make(variant)
    bots = [GreedyBot(i) for i in range(env.num_players)]
    out: list = []
    deal = seed
    while len(out) < count:
        env.reset(seed=deal)
        deal += 1
        for agent, view in live_turns(env):
            if view.seat == 0 and len(view.legal_actions) > 1:
                out.append((copy.deepcopy(env), agent))
                if len(out) >= count:
                    break
            env.step(bots[view.seat].act(view))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", default="", help="comma-separated (default: every variant)")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--worlds", type=budget_arg, default="auto", help="K or auto")
    ap.add_argument("--horizon", type=budget_arg, default="auto", help="H, full or auto")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cases = ([(v, args.players) for v in args.variants.split(",")] if args.variants
             else DEFAULT)
    print("| variant | players | K | H | decisions/s | ms per decision | rollouts per "
          "decision |")
    print("|---|---|---|---|---|---|---|")
    for variant, players in cases:
        pos = positions(variant, players, args.positions, args.seed)
        bot = SearchBot(args.seed, worlds=args.worlds, horizon=args.horizon)
        rollouts = 0
        t0 = time.process_time()
        for env, agent in pos:
            bot.act(seat_view(env, agent))
            rollouts += bot.last["rollouts"]
        dt = time.process_time() - t0
        n = len(pos)
        K, H, _ = bot.budget(pos[0][0].family)
        print(f"| `{variant}` | {pos[0][0].num_players} | {K} | {'full' if H is None else H} | "
              f"{n / dt:.1f} | {1000 * dt / n:.0f} | {rollouts / n:.1f} |", flush=True)


if __name__ == "__main__":
    main()
