"""Evaluate bots and checkpoints against each other over many seeded deals.

Run::

    python -m training.evaluate --variant contract_rummy --seats greedy,random,random,random \\
        --deals 400 --seed 0 [--json OUT] [--players P]

A seat is ``random``, ``greedy`` or the path of a MaskablePPO checkpoint (loaded with
:class:`training.policy_bot.PolicyBot`, imported only then, so evaluating the built-in bots
needs no torch). Each listed player plays ``--deals`` one-deal episodes (``episode="deal"``,
``deal="random"`` so every contract appears, ``reward_scale=1.0``, the env's ``max_turns``
default). Seats rotate: in deal ``k`` listed player ``j`` sits in seat ``(j + k) mod P``, so no
player keeps the advantage of a seat (the first dealer is drawn at random in every deal anyway).

Per listed player (named by position, e.g. ``0:greedy``) it reports the mean penalty points per
deal (CR-12: the cards left in hand when the deal ends) with a 95% confidence interval (normal
approximation, mean +- 1.96 sd / sqrt(N)), the win rate (a deal is won by the lowest penalty;
k tied players get 1/k each) with its 95% interval (clipped to [0, 1]), and the mean reward
(minus the deal's score change: minus the penalty, except for Liverpool's cut bonus, LV-1).
A deal cut off by ``max_turns`` (truncation) has no reward; its penalty is the hands' value at
that moment, as if the deal had ended with no one out (CR-11), and the number of such deals is
reported. (Outside the contract family, where CR-12 does not apply, the penalty is minus the
deal's reward.)
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import rummy_env
from rummy_env.bots import BOTS, GREEDY_BY_FAMILY, Bot, make_bot, seat_view
from rummy_env.contract.state import ContractState

Z95 = 1.96


def _ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(x)
    mean = float(np.mean(x)) if n else float("nan")
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n else float("nan")
    return mean, mean - half, mean + half


def load_seat(spec: str, seed: int | None = None, cache: dict[str, Any] | None = None) -> Bot:
    """The bot of one seat spec: a bot name (``random``, ``greedy``) or a checkpoint path."""
    if spec in BOTS:
        return make_bot(spec, seed)
    path = pathlib.Path(spec)
    if not path.is_file():
        raise ValueError(f"seat {spec!r} is neither a bot ({', '.join(BOTS)}) nor an existing "
                         "checkpoint file")
    if cache is not None and spec in cache:
        return cache[spec]
    from training.policy_bot import PolicyBot  # lazy: only checkpoints need torch

    bot = PolicyBot(path)
    if cache is not None:
        cache[spec] = bot
    return bot


def evaluate(variant: str, seats: Sequence[str], deals: int, seed: int,
             players: int | None = None, env_options: dict[str, Any] | None = None,
             ) -> dict[str, Any]:
    """Play ``deals`` one-deal episodes of ``variant`` with the listed ``seats`` and return the
    statistics as a JSON-serialisable dict (see the module docstring for what they mean).

    :param seats: one spec per player (``random``, ``greedy`` or a checkpoint path); a single
        spec is repeated for every seat.
    :param players: player count; default ``len(seats)``.
    :param env_options: extra options for ``rummy_env.make`` (rule fields, ``max_turns``...);
        they override the evaluation defaults.

    Returns ``{"variant", "players", "deals", "seed", "seats", "env_options", "truncated",
    "seconds", "results": [{"player", "label", "seat", "mean_penalty", "penalty_ci",
    "win_rate", "win_ci", "mean_reward", "reward_ci"}, ...]}``, one result per listed player.
    """
    seats = [str(s) for s in seats]
    if not seats:
        raise ValueError("seats must list at least one bot")
    if players is None:
        players = len(seats)
    if len(seats) == 1:
        seats = seats * players
    if len(seats) != players:
        raise ValueError(f"{len(seats)} seats listed for {players} players: list one per player "
                         "(or a single one for every seat)")
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals={deals!r} must be an int >= 1")
    opts: dict[str, Any] = {"num_players": players, "episode": "deal", "deal": "random",
                            "reward_scale": 1.0}
    opts.update(env_options or {})
    P = players
    cache: dict[str, Any] = {}
    bots = [load_seat(s, seed * 1000 + j, cache) for j, s in enumerate(seats)]
    env = rummy_env.make(variant, **opts)
    if "greedy" in seats and env.family not in GREEDY_BY_FAMILY:
        raise ValueError(f"no greedy bot for {variant!r} (its {env.family!r} family); families "
                         f"with one: {', '.join(GREEDY_BY_FAMILY)}")
    penalty = np.zeros((deals, P))
    reward = np.zeros((deals, P))
    win = np.zeros((deals, P))
    truncated = 0
    t0 = time.perf_counter()
    for k in range(deals):
        deal_seed = seed * 1_000_003 + k
        env.reset(seed=deal_seed)
        seat_of = [(j + k) % P for j in range(P)]  # listed player j sits in seat seat_of[j]
        player_at = {s: j for j, s in enumerate(seat_of)}
        for j, b in enumerate(bots):
            b.reset(deal_seed * 16 + j)
        totals = [0.0] * P
        was_truncated = False
        for agent in env.agent_iter():
            _, r, term, trunc, _ = env.last(observe=False)
            seat = env.agent_name_mapping[agent]
            totals[seat] += r
            if term or trunc:
                was_truncated |= bool(trunc)
                env.step(None)
                continue
            env.step(bots[player_at[seat]].act(seat_view(env, agent)))
        st = env.state_obj  # the harness may read the position; the bots never do
        if isinstance(st, ContractState):
            pen = [st.penalty(seat_of[j]) for j in range(P)]
        else:  # other families: the deal's score change stands for the penalty
            pen = [-totals[seat_of[j]] / (env.reward_scale or 1.0) for j in range(P)]
        low = min(pen)
        winners = [j for j in range(P) if pen[j] == low]
        for j in range(P):
            penalty[k, j] = pen[j]
            reward[k, j] = totals[seat_of[j]]
            win[k, j] = 1.0 / len(winners) if j in winners else 0.0
        truncated += was_truncated
    seconds = time.perf_counter() - t0
    results = []
    for j in range(P):
        pm, plo, phi = _ci(penalty[:, j])
        wm, wlo, whi = _ci(win[:, j])
        wlo, whi = max(0.0, wlo), min(1.0, whi)  # a rate lies in [0, 1]
        rm, rlo, rhi = _ci(reward[:, j])
        results.append({
            "player": j, "label": f"{j}:{_short(seats[j])}", "seat": seats[j],
            "mean_penalty": pm, "penalty_ci": [plo, phi],
            "win_rate": wm, "win_ci": [wlo, whi],
            "mean_reward": rm, "reward_ci": [rlo, rhi],
        })
    return {
        "variant": variant, "players": P, "deals": deals, "seed": seed, "seats": seats,
        "env_options": {k: v for k, v in opts.items()}, "truncated": int(truncated),
        "seconds": seconds, "results": results,
    }


def _short(spec: str) -> str:
    return spec if spec in BOTS else pathlib.Path(spec).name


def format_table(res: dict[str, Any]) -> str:
    """The printed report of an :func:`evaluate` result."""
    lines = [
        f"{res['variant']}: {res['players']} players, {res['deals']} deals "
        f"(each a random deal of the game), "
        f"seed {res['seed']}, {res['seconds']:.1f} s",
        f"{'player':<22} {'mean penalty (95% CI)':<28} {'win rate (95% CI)':<26} "
        f"{'mean reward':>11}",
    ]
    for r in res["results"]:
        lo, hi = r["penalty_ci"]
        wlo, whi = r["win_ci"]
        pen = f"{r['mean_penalty']:7.2f} [{lo:6.2f}, {hi:6.2f}]"
        wr = f"{r['win_rate']:5.3f} [{wlo:5.3f}, {whi:5.3f}]"
        lines.append(f"{r['label']:<22} {pen:<28} {wr:<26} {r['mean_reward']:11.2f}")
    lines.append(f"deals ended by truncation (max_turns): {res['truncated']} of {res['deals']}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True, choices=rummy_env.VARIANTS)
    ap.add_argument("--seats", required=True,
                    help="comma-separated seats: random, greedy or a checkpoint path")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=None,
                    help="player count (default: the number of seats; one seat fills all)")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    args = ap.parse_args(argv)
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    try:
        res = evaluate(args.variant, seats, args.deals, args.seed, players=args.players)
    except (ValueError, rummy_env.RummyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_table(res))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
