"""Evaluate bots and checkpoints against each other over many seeded deals.

Run::

    python -m training.evaluate --variant contract_rummy --seats greedy,random,random,random \\
        --deals 400 --seed 0 [--json OUT] [--players P]

A seat is ``random``, ``greedy`` or the path of a policy file (``.npz`` from training, or an
sb3-contrib ``.zip``), played by :class:`rummy_env.bots.policy.PolicyBot` with numpy only. Each
listed player plays ``--deals`` one-deal episodes (``episode="deal"``,
``deal="random"`` so every contract appears, ``reward_scale=1.0``, the env's ``max_turns``
default). Seats rotate: in deal ``k`` listed player ``j`` sits in seat ``(j + k) mod P``, so no
player keeps the advantage of a seat (the first dealer is drawn at random in every deal anyway).

Duplicate mode (``--duplicate``; ``--agent CKPT --vs greedy`` is the shorthand for a policy in
seat 0 against that bot in every other seat, duplicate on)::

    python -m training.evaluate --agent checkpoints/gin_rummy.npz --vs greedy --deals 2000

deals every deal once per rotation of the players through the seats (``--deals`` rounded up
to a multiple of the player count), so every player holds every hand. The comparison that
says whether player 0 beats the others is paired by deal: per group of rotations, player 0's
mean points minus the others' mean, with a normal 95% interval over the groups
(:func:`paired`); it is printed last, then split (``paired_by_cap``) into the deal groups that
``max_turns`` cut off and the rest, each with its share of the difference: a margin won in deals
that stall at the cap reads differently from one won where someone goes out.

Per listed player (named by position, e.g. ``0:greedy``) it reports the mean penalty points per
deal (CR-12: the cards left in hand when the deal ends) with a 95% confidence interval (normal
approximation, mean +- 1.96 sd / sqrt(N)), the win rate (a deal is won by the lowest penalty;
k tied players get 1/k each) with its 95% interval (clipped to [0, 1]), and the mean reward
(minus the deal's score change: minus the penalty, except for Liverpool's cut bonus, LV-1).
A deal cut off by ``max_turns`` (truncation) has no reward; its penalty is the hands' value at
that moment, as if the deal had ended with no one out (CR-11), and the number of such deals is
reported. (Outside the contract family, where CR-12 does not apply, the penalty is minus the
deal's reward.)

``--record DIR`` saves every evaluated deal as a game record (``DIR/deal_00000.json`` ...: the
seed, every move, the rewards, who sat where), which ``examples/replay.py`` animates or plots
and ``rummy_env.records.check_replay`` plays again exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import rummy_env
from rummy_env.bots import BOTS, GREEDY_BY_FAMILY, Bot, make_bot, seat_view
from rummy_env.bots.policy import PolicyBot, parse_bot_spec
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
    """The bot of one seat spec: a bot name (``random``, ``greedy``, ``search``), with options
    (``greedy(endgame_turn=150)``, :func:`rummy_env.bots.policy.parse_bot_spec`), or a policy
    file (``.npz`` or an sb3-contrib ``.zip``, played by
    :class:`rummy_env.bots.policy.PolicyBot`)."""
    if parse_bot_spec(spec)[0] in BOTS:
        return make_bot(spec, seed)
    path = pathlib.Path(spec)
    if not path.is_file():
        raise ValueError(f"seat {spec!r} is neither a bot ({', '.join(BOTS)}) nor an existing "
                         "policy file")
    if cache is not None and spec in cache:
        return cache[spec]
    bot = PolicyBot(path)  # deterministic: one bot object may sit in several seats
    if cache is not None:
        cache[spec] = bot
    return bot


def evaluate(variant: str, seats: Sequence[str], deals: int, seed: int,
             players: int | None = None, env_options: dict[str, Any] | None = None,
             duplicate: bool = False, bots: Sequence[Bot] | None = None,
             record_dir: str | pathlib.Path | None = None,
             ) -> dict[str, Any]:
    """Play ``deals`` one-deal episodes of ``variant`` with the listed ``seats`` and return the
    statistics as a JSON-serialisable dict (see the module docstring for what they mean).

    :param seats: one spec per player (``random``, ``greedy`` or a policy file); a single spec
        is repeated for every seat.
    :param players: player count; default ``len(seats)``.
    :param env_options: extra options for ``rummy_env.make`` (rule fields, ``max_turns``...);
        they override the evaluation defaults.
    :param duplicate: play every deal ``P`` times, the listed players rotated through the seats
        (``deals`` is rounded up to a multiple of ``P``), so every player holds every hand and
        the luck of the deal cancels in the paired comparison.
    :param bots: bot objects to use instead of loading ``seats`` (their labels still come from
        ``seats``).
    :param record_dir: save every deal as a game record there (``deal_00000.json`` ...; see
        :mod:`rummy_env.records`), with who sat where and the deal's index, group and rotation.

    Returns ``{"variant", "players", "deals", "seed", "seats", "env_options", "duplicate",
    "truncated", "seconds", "results": [{"player", "label", "seat", "mean_penalty",
    "penalty_ci", "win_rate", "win_ci", "mean_reward", "reward_ci"}, ...], "paired": {...}}``,
    one result per listed player; ``paired`` compares player 0 with the others (see
    :func:`paired`), and ``paired_by_cap`` splits that comparison by the groups ``max_turns``
    cut off (:func:`_paired_by_cap`).
    """
    seats, P = _checked_seats(seats, players, deals)
    opts: dict[str, Any] = {"num_players": P, "episode": "deal", "deal": "random",
                            "reward_scale": 1.0}
    opts.update(env_options or {})
    if bots is None:
        cache: dict[str, Any] = {}
        bots = [load_seat(s, seed * 1000 + j, cache) for j, s in enumerate(seats)]
    elif len(bots) != P:
        raise ValueError(f"{len(bots)} bots given for {P} players")
    env = _evaluation_env(variant, opts, seats, record_dir)
    n = -(-deals // P) * P if duplicate else deals
    t0 = time.perf_counter()
    penalty, reward, win, group, capped = _play_deals(env, bots, seats, n, duplicate, seed,
                                                      record_dir)
    seconds = time.perf_counter() - t0
    return {
        "variant": variant, "players": P, "deals": n, "seed": seed, "seats": seats,
        "env_options": {k: v for k, v in opts.items()}, "duplicate": bool(duplicate),
        "truncated": int(capped.sum()), "seconds": seconds,
        "results": _player_results(seats, penalty, win, reward),
        "paired": paired(penalty, win, group),
        "paired_by_cap": _paired_by_cap(penalty, win, group, capped),
        **({"records": str(record_dir)} if record_dir is not None else {}),
    }


def _checked_seats(seats: Sequence[str], players: int | None,
                   deals: int) -> tuple[list[str], int]:
    """The seat specs, one per player (a single spec repeated), and the player count; a
    ValueError for a list that does not fit the count, or a bad ``deals``."""
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
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise ValueError(f"deals={deals!r} must be an int >= 1")
    return seats, players


def _evaluation_env(variant: str, opts: dict[str, Any], seats: Sequence[str],
                    record_dir: str | pathlib.Path | None) -> Any:
    """The env every deal is played in, recording when ``record_dir`` is set; a ValueError
    when a seat is ``greedy`` and the variant's family has no greedy bot."""
    env = rummy_env.make(variant, **opts)
    if record_dir is not None:
        from rummy_env.records import RecordGame

        # Only the final position's hash: a hash per move would double the evaluation's cost.
        env = RecordGame(env, digests=False)
    if (any(parse_bot_spec(s)[0] == "greedy" for s in seats)
            and env.family not in GREEDY_BY_FAMILY):
        raise ValueError(f"no greedy bot for {variant!r} (its {env.family!r} family); families "
                         f"with one: {', '.join(GREEDY_BY_FAMILY)}")
    return env


def _play_deals(env: Any, bots: Sequence[Bot], seats: Sequence[str], n: int, duplicate: bool,
                seed: int, record_dir: str | pathlib.Path | None,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play the ``n`` deals, the players rotated through the seats: per deal and listed
    player the penalty, the reward and the share of the win; each deal's group (a deal and
    its rotations, under ``duplicate``) and whether ``max_turns`` cut it off."""
    P = len(seats)
    penalty = np.zeros((n, P))
    reward = np.zeros((n, P))
    win = np.zeros((n, P))
    group = np.zeros(n, dtype=np.int64)
    capped = np.zeros(n, dtype=bool)
    for k in range(n):
        g, r = (k // P, k % P) if duplicate else (k, k)
        deal_seed = seed * 1_000_003 + g
        group[k] = g
        seat_of = [(j + r) % P for j in range(P)]  # listed player j sits in seat seat_of[j]
        if record_dir is not None:
            env.players = [""] * P
            for j in range(P):
                env.players[seat_of[j]] = f"{j}:{_short(seats[j])}"
        pen, tot, was_truncated = play_deal(env, bots, seat_of, deal_seed)
        if record_dir is not None:
            env.record.meta.update(deal=k, group=g, rotation=r, deal_seed=deal_seed)
            env.record.save(pathlib.Path(record_dir) / f"deal_{k:05d}.json")
        low = min(pen)
        winners = [j for j in range(P) if pen[j] == low]
        for j in range(P):
            penalty[k, j] = pen[j]
            reward[k, j] = tot[j]
            win[k, j] = 1.0 / len(winners) if j in winners else 0.0
        capped[k] = was_truncated
    return penalty, reward, win, group, capped


def _player_results(seats: Sequence[str], penalty: np.ndarray, win: np.ndarray,
                    reward: np.ndarray) -> list[dict[str, Any]]:
    """Per listed player: the means and 95% intervals of its penalty, wins and reward."""
    results = []
    for j in range(len(seats)):
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
    return results


def play_deal(env: Any, bots: Sequence[Bot], seat_of: Sequence[int],
              deal_seed: int) -> tuple[list[float], list[float], bool]:
    """One seeded deal with listed player ``j`` in seat ``seat_of[j]``: each player's penalty
    points (lower is better), total reward, and whether ``max_turns`` cut the deal off. The
    same ``deal_seed`` deals the same cards to the same seats whoever sits there."""
    P = len(seat_of)
    env.reset(seed=deal_seed)
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
        pen = [float(st.penalty(seat_of[j])) for j in range(P)]
    else:  # other families: the deal's score change stands for the penalty
        pen = [-totals[seat_of[j]] / (env.reward_scale or 1.0) for j in range(P)]
    return pen, [totals[seat_of[j]] for j in range(P)], was_truncated


def paired(penalty: np.ndarray, win: np.ndarray, group: np.ndarray) -> dict[str, Any]:
    """Player 0 against the field, paired by deal.

    For every group of deals (one deal, or in duplicate mode the ``P`` rotations of one deal)
    the difference is player 0's mean penalty minus the mean penalty of the other players in
    the same deals; in duplicate mode every player held every hand, so the difference holds
    the deal's luck out. The interval is the normal 95% interval of the mean of these
    per-group differences (independent across groups): ``mean +- 1.96 sd / sqrt(groups)``.
    ``beats`` is True when the whole interval lies below zero (fewer points than the field
    with 95% confidence). The same for the win rate, against the field's mean win rate.
    """
    ids = np.unique(group)
    d_pen = np.empty(len(ids))
    d_win = np.empty(len(ids))
    for i, g in enumerate(ids):
        rows = group == g
        d_pen[i] = penalty[rows, 0].mean() - penalty[rows, 1:].mean()
        d_win[i] = win[rows, 0].mean() - win[rows, 1:].mean()
    pm, plo, phi = _ci(d_pen)
    wm, wlo, whi = _ci(d_win)
    return {"groups": int(len(ids)), "penalty_diff": pm, "penalty_diff_ci": [plo, phi],
            "win_diff": wm, "win_diff_ci": [wlo, whi], "beats": bool(phi < 0.0),
            "method": "per-deal-group difference, player 0 minus the mean of the others; "
                      "normal 95% interval over groups"}


def _paired_by_cap(penalty: np.ndarray, win: np.ndarray, group: np.ndarray,
                   capped: np.ndarray) -> dict[str, Any]:
    """:func:`paired` over the deal groups that ``max_turns`` cut off (any deal of the group)
    and over the rest, with each part's share of the overall difference (``contribution``:
    the part's summed group differences over all groups; the two add up to
    ``penalty_diff``). A part with no group is ``None``; one with one group has no interval."""
    hit = {int(g) for g in np.unique(group[capped])}
    ids = np.unique(group)
    out: dict[str, Any] = {}
    for name, keep in (("capped", [g for g in ids if g in hit]),
                       ("finished", [g for g in ids if g not in hit])):
        if not keep:
            out[name] = None
            continue
        rows = np.isin(group, keep)
        part = paired(penalty[rows], win[rows], group[rows])
        part["contribution"] = part["penalty_diff"] * len(keep) / len(ids)
        out[name] = part
    return out


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
    pr = res.get("paired")
    if pr and res["players"] > 1:
        lo, hi = pr["penalty_diff_ci"]
        kind = "duplicate" if res.get("duplicate") else "paired"
        lines.append(f"{res['results'][0]['label']} minus the others ({kind}, {pr['groups']} "
                     f"groups): {pr['penalty_diff']:+.2f} [{lo:+.2f}, {hi:+.2f}] points per deal"
                     f"; win rate {pr['win_diff']:+.3f}"
                     + ("  (better with 95% confidence)" if pr["beats"] else ""))
        for name, part in (res.get("paired_by_cap") or {}).items():
            if part is not None and part["groups"] > 1:
                lo, hi = part["penalty_diff_ci"]
                lines.append(f"  in the {part['groups']} groups {name} "
                             f"{'by max_turns' if name == 'capped' else 'before it'}: "
                             f"{part['penalty_diff']:+.2f} [{lo:+.2f}, {hi:+.2f}], "
                             f"{part['contribution']:+.2f} of the difference per deal")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=rummy_env.VARIANTS,
                    help="the variant (default with --agent: the one the policy was trained on)")
    ap.add_argument("--seats", help="comma-separated seats: random, greedy or a policy file")
    ap.add_argument("--agent", help="shorthand: this policy file (or bot) in seat 0 ...")
    ap.add_argument("--vs", default="greedy", help="... against this bot in every other seat, "
                    "in duplicate mode (default: greedy)")
    ap.add_argument("--duplicate", action="store_true",
                    help="deal every deal once per seat rotation (implied by --agent)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=None,
                    help="player count (default: the number of seats; one seat fills all; with "
                         "--agent the policy's own)")
    ap.add_argument("--json", default=None, help="write the numbers to this file")
    ap.add_argument("--record", metavar="DIR", default=None,
                    help="save every evaluated deal as a game record in DIR (replay them with "
                         "examples/replay.py)")
    args = ap.parse_args(argv)
    duplicate = args.duplicate
    variant, players, env_options = args.variant, args.players, None
    try:
        if args.agent:
            if args.seats:
                raise ValueError("give --seats or --agent/--vs, not both")
            meta = {}
            if args.agent not in BOTS:
                meta = load_seat(args.agent).meta  # type: ignore[attr-defined]
            variant = variant or meta.get("variant")
            players = players or meta.get("num_players")
            env_options = meta.get("env_options") or None
            if variant is None or players is None:
                raise ValueError("--agent is a bot: give --variant and --players")
            seats = [args.agent] + [args.vs] * (int(players) - 1)
            duplicate = True
        elif args.seats:
            # commas inside a spec's brackets belong to its options: greedy(a=1, b=2),random
            seats = [s.strip() for s in re.split(r",(?![^()]*\))", args.seats) if s.strip()]
        else:
            raise ValueError("give --seats, or --agent (and --vs)")
        if variant is None:
            raise ValueError("give --variant")
        res = evaluate(variant, seats, args.deals, args.seed, players=players,
                       env_options=env_options, duplicate=duplicate, record_dir=args.record)
    except (ValueError, rummy_env.RummyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_table(res))
    if args.record:
        print(f"game records of the {res['deals']} deals: {args.record}/deal_*.json")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
