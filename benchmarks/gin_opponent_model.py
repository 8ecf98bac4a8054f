"""How close the Gin Rummy opponent model's worlds come to the true one, against greedy.

Run::

    python benchmarks/gin_opponent_model.py [--deals 10] [--worlds 16] [--depth 1 4]

plays ``--deals`` seeded deals of a :class:`~rummy_env.bots.SearchBot` (seat 0, a small
budget: the worlds measured here are the model's, not the bot's) against a GreedyBot, and at
every decision where the model has evidence of the opponent's last turn compares, with the
true opponent hand: uniform worlds (``rummy_env.worlds.sample_scenario``) and the worlds of
:meth:`~rummy_env.bots.gin_model.GinOpponentModel.worlds` at each ``--depth``. It reports the
opponent's deadwood (true, uniform, model, over the positions where the chain found a start),
how many true cards the worlds' opponent hands hold, the positions without a start, and the
model's time per call (median, p90).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rummy_env  # noqa: E402
from rummy_env.bots import GreedyBot, SearchBot, live_turns  # noqa: E402
from rummy_env.cards import parse_card  # noqa: E402
from rummy_env.gin.melds import deadwood  # noqa: E402
from rummy_env.worlds import sample_scenario  # noqa: E402


def _mask(cards: list[str]) -> int:
    return sum(1 << parse_card(c) for c in cards)


Row = tuple[float, float, float, float, float, float]


def _positions(deals: int) -> Iterator[tuple[Any, SearchBot, Any, int]]:
    """``(env, bot, info, seed)`` at each decision of the search seat (0) against greedy where
    its opponent model has evidence; the game goes on when the caller is done with it."""
    env = rummy_env.make("gin_rummy")
    for seed in range(deals):
        bot, greedy = SearchBot(seed, worlds=2, horizon=2), GreedyBot(1)
        env.reset(seed=seed)
        bot.reset(seed)
        for _, view in live_turns(env):
            if view.seat != 0:
                env.step(greedy.act(view))
                continue
            info = view.information()
            if len(view.legal_actions) > 1 and bot._model("gin").evidence(info) is not None:
                yield env, bot, info, seed
            env.step(bot.act(view))


def _measure(env: Any, bot: SearchBot, info: Any, seed: int, depth: int, uniform: list[list[str]],
             count: int) -> tuple[Row | None, float]:
    """The model's worlds at ``depth`` against ``uniform`` opponent hands and the true one:
    ``(deadwood true, uniform, model, true cards, held by uniform, by model)`` (None without a
    start) and the seconds the model took."""
    model = bot._model("gin")
    default, model.depth = model.depth, depth
    t0 = time.perf_counter()
    worlds = model.worlds(info, bot.policy(info.game, "gin").bot, count,
                          np.random.default_rng(seed))
    seconds = time.perf_counter() - t0
    model.depth = default
    if worlds is None:
        return None, seconds
    true = env.state_obj.hands[1]
    hands = [w["hands"][1] for w in worlds]

    def mean(values: list[int]) -> float:
        return float(np.mean(values))

    return ((deadwood(true), mean([deadwood(_mask(h)) for h in uniform]),
             mean([deadwood(_mask(h)) for h in hands]), float(true.bit_count()),
             mean([(_mask(h) & true).bit_count() for h in uniform]),
             mean([(_mask(h) & true).bit_count() for h in hands])), seconds)


def main(argv: list[str] | None = None) -> dict[int, dict[str, float]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--depth", type=int, nargs="+", default=[1, 4])
    args = ap.parse_args(argv)
    rows: dict[int, list[Row]] = {d: [] for d in args.depth}
    seconds: dict[int, list[float]] = {d: [] for d in args.depth}
    positions = 0
    for env, bot, info, seed in _positions(args.deals):
        positions += 1
        rng = np.random.default_rng(seed)
        uniform = [sample_scenario(info, rng)["hands"][1] for _ in range(args.worlds)]
        for d in args.depth:
            row, dt = _measure(env, bot, info, seed, d, uniform, args.worlds)
            seconds[d].append(dt)
            if row is not None:
                rows[d].append(row)
    print(f"{positions} positions with evidence, {args.deals} deals, {args.worlds} worlds each")
    print("depth | started | opponent deadwood true / uniform / model | true cards held "
          "uniform / model (of 10) | ms per call median, p90")
    out: dict[int, dict[str, float]] = {}
    for d in args.depth:
        r = np.array(rows[d]) if rows[d] else np.zeros((0, 6))
        ms = np.array(seconds[d]) * 1e3
        o = out[d] = {
            "positions": positions, "started": len(rows[d]),
            "deadwood_true": float(r[:, 0].mean()), "deadwood_uniform": float(r[:, 1].mean()),
            "deadwood_model": float(r[:, 2].mean()), "cards_uniform": float(r[:, 4].mean()),
            "cards_model": float(r[:, 5].mean()), "ms_median": float(np.median(ms)),
            "ms_p90": float(np.percentile(ms, 90))}
        print(f"{d} | {len(rows[d])} | {o['deadwood_true']:.1f} / {o['deadwood_uniform']:.1f} / "
              f"{o['deadwood_model']:.1f} | {o['cards_uniform']:.2f} / {o['cards_model']:.2f} | "
              f"{o['ms_median']:.1f}, {o['ms_p90']:.1f}")
    return out


if __name__ == "__main__":
    main()
