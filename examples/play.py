"""Play any rummy_env variant in the terminal against bots.

    python examples/play.py                          # contract_rummy, you are player_0 of 4
    python examples/play.py --variant may_i --players 3 --seat 1 --seed 7
    python examples/play.py --variant contract_rummy --bots   # watch bots play (a demo game)
    python examples/play.py --variant gin_rummy --opponents checkpoints/gin_rummy.npz

``--opponents`` names the bot of every other seat (``random``, ``greedy`` or a trained policy
file), or one per seat, comma-separated.

On your turn the table is printed with your hand and a numbered list of your legal actions;
answer with the number or the action's text (``discard QS``, ``meld run H 4-7``, ``claim``).
``?`` reprints the table, ``q`` quits. Bots see only their own seat's view.
"""

from __future__ import annotations

import argparse
import sys

import rummy_env
from rummy_env.bots import make_bot, seat_view


def ask(env, agent: str, seat: int) -> int | None:
    legal = env.legal_actions()
    print()
    print(env.render_text(viewer=seat))
    for i, a in enumerate(legal):
        print(f"  {i:3d}: {env.action_to_string(a)}")
    while True:
        try:
            line = input(f"{agent}> ").strip()
        except EOFError:
            return None
        if line in ("q", "quit", "exit"):
            return None
        if line == "?":
            print(env.render_text(viewer=seat))
            continue
        if line.isdigit() and int(line) < len(legal):
            return legal[int(line)]
        try:
            a = env.string_to_action(line)
        except rummy_env.IllegalActionError as e:
            print(f"  {e}")
            continue
        if a in legal:
            return a
        print(f"  '{env.action_to_string(a)}' is not legal now")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="contract_rummy", choices=rummy_env.VARIANTS)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seat", type=int, default=0, help="your seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--episode", default="deal", choices=("deal", "game"))
    ap.add_argument("--bots", action="store_true", help="every seat is a bot (a demo game)")
    ap.add_argument("--max-turns", type=int, default=None)
    ap.add_argument("--opponents", default="random",
                    help="random, greedy or a policy file (.npz); one, or one per seat")
    args = ap.parse_args(argv)
    env = rummy_env.make(args.variant, num_players=args.players, episode=args.episode,
                         max_turns=args.max_turns, reward_scale=1.0)
    env.reset(seed=args.seed)
    human = None if args.bots else f"player_{args.seat}"
    specs = [x.strip() for x in args.opponents.split(",") if x.strip()] or ["random"]
    if len(specs) not in (1, env.num_players):
        print(f"--opponents: give one bot or {env.num_players} (one per seat)", file=sys.stderr)
        return 2
    try:
        bots = {a: make_bot(specs[i % len(specs)], args.seed * 100 + i)
                for i, a in enumerate(env.possible_agents)}
    except ValueError as e:
        print(f"--opponents: {e}", file=sys.stderr)
        return 2
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if agent == human:
            a = ask(env, agent, args.seat)
            if a is None:
                print("bye")
                return 0
        else:
            a = bots[agent].act(seat_view(env, agent))
            if human is not None or env.action_to_string(a).startswith(("meld", "lay off", "swap", "claim")):
                print(f"{agent}: {env.action_to_string(a)}")
        env.step(a)
    print()
    print(env.render_text(viewer=None))
    # Rewards (reward_scale=1) are minus penalty points (contract family), settlements (Indian
    # Rummy, Gin Rummy) or deal points (Manipulation Rummy): higher is better in every variant.
    print("rewards (points, higher is better): "
          + ", ".join(f"{a} {totals[a]:+.0f}" for a in env.possible_agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
