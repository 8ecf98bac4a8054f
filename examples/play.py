"""Play any rummy_env variant in the terminal against bots or trained agents.

    python examples/play.py                          # contract_rummy, you are player_0 of 4
    python examples/play.py --variant may_i --players 3 --seat 1 --seed 7
    python examples/play.py --variant gin_rummy --opponents greedy --record game.json
    python examples/play.py --variant gin_rummy --opponents checkpoints/gin_rummy.npz
    python examples/play.py --variant contract_rummy --opponents greedy,random,greedy,random
    python examples/play.py --variant contract_rummy --bots   # watch bots play (a demo game)

``--opponents`` names the bot of every other seat: any name ``rummy_env.bots.make_bot`` knows
(``random``, ``greedy`` ...) or the path of a trained policy file, one for all or one per seat
(comma-separated, in seat order; your own seat's entry is ignored). ``--record FILE`` saves
the game as a record (also when you quit early) that ``examples/replay.py`` animates.

On your turn the table is printed with your hand and a numbered list of your legal moves;
answer with the number or the move's text (``discard QS``, ``meld run H 4-7``, ``claim``).
``h`` gives a hint (your hand's points or deadwood in its best arrangement, and the move the
greedy bot would make), ``?`` reprints the table, ``help`` lists the commands, ``q`` quits.
A mistyped move is answered with what was wrong and the closest legal moves. Bots see only
their own seat's view.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Any

import rummy_env
from rummy_env.bots import BOTS, make_bot, seat_view
from rummy_env.render import hand_summary

COMMANDS = ("  <number> or <move text>  play that move (e.g. 3, 'discard QS', 'draw stock')\n"
            "  h, hint                  your hand's points and a suggested move\n"
            "  ?                        show the table again\n"
            "  help                     this list\n"
            "  q, quit                  stop (a --record file keeps the game so far)")


def hint_lines(env: Any, seat: int, advisor: Any) -> list[str]:
    """What a hint says, from ``seat``'s own hand and view only: the family's hand summary
    (points if the deal ended now, deadwood, best arrangement), the best arrangement's melds
    where the family has a solver for them, and the advisor bot's move."""
    st, family = env.state_obj, env.family
    lines = [f"  {hand_summary(st, family, seat)}"]
    if family == "gin":
        from rummy_env.cards import cards_str
        from rummy_env.gin.melds import best_melds, card_list

        melds = best_melds(st.hands[seat])
        if melds:
            lines.append("  best melds: " + " | ".join(cards_str(card_list(m)) for m in melds))
    elif family == "indian" and not st.packed[seat] and st.hand_size(seat) == st.rules.hand_size:
        from rummy_env.cards import cards_str

        a = st.arrangement(seat)
        if a.melds:
            lines.append("  best arrangement: " + " | ".join(
                f"{kind} {cards_str(m, sort=False)}" for kind, m in zip(a.kinds, a.melds)))
    agent = env.possible_agents[seat]
    if env.agent_selection == agent:
        move = advisor.act(seat_view(env, agent))
        lines.append(f"  {advisor.name} would play: {env.action_to_string(move)}")
    return lines


def read_move(env: Any, line: str, legal: list[int]) -> tuple[int | None, str]:
    """The legal move a typed ``line`` names, or None and a message saying what is wrong (with
    the closest legal moves)."""
    texts = [env.action_to_string(a) for a in legal]
    if line.isdigit():
        k = int(line)
        if k < len(legal):
            return legal[k], ""
        return None, f"  there is no move {k}: choose a number from 0 to {len(legal) - 1}"
    try:
        a = env.string_to_action(line)
    except rummy_env.IllegalActionError as e:
        why = f"  '{line}' is not a move ({e})"
    else:
        if a in legal:
            return a, ""
        why = f"  '{env.action_to_string(a)}' is a move, but not a legal one now"
    lowered = [t.lower() for t in texts]
    close = difflib.get_close_matches(line.lower(), lowered, n=3, cutoff=0.5)
    if close:
        why += "\n  did you mean: " + ", ".join(
            f"{lowered.index(c)}: {texts[lowered.index(c)]}" for c in close)
    return None, why + "\n  (type a number from the list, 'h' for a hint, 'help' for commands)"


def ask(env: Any, agent: str, seat: int, advisor: Any) -> int | None:
    """Your move at ``seat`` read from the terminal; None to quit."""
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
        if not line:
            continue
        if line == "?":
            print(env.render_text(viewer=seat))
            continue
        if line == "help":
            print(COMMANDS)
            continue
        if line in ("h", "hint"):
            print("\n".join(hint_lines(env, seat, advisor)))
            continue
        move, why = read_move(env, line, legal)
        if move is not None:
            return move
        print(why)


def _parser() -> argparse.ArgumentParser:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="contract_rummy", choices=rummy_env.VARIANTS)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seat", type=int, default=0, help="your seat")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--episode", default="deal", choices=("deal", "game"))
    ap.add_argument("--bots", action="store_true", help="every seat is a bot (a demo game)")
    ap.add_argument("--max-turns", type=int, default=None)
    ap.add_argument("--opponents", default="random",
                    help=f"a bot ({', '.join(BOTS)} ...) or a policy file (.npz, .zip); one, "
                         "or one per seat (comma-separated)")
    ap.add_argument("--record", metavar="FILE", default=None,
                    help="save the game as a record (JSON) for examples/replay.py")
    return ap


def _seat_bots(env: Any, args: argparse.Namespace,
               human: str | None) -> tuple[list[str], dict[str, Any]] | None:
    """Who sits where (a label per seat) and the bot of every seat but the human's, from
    ``--opponents``; None, with the reason printed, when the flag does not fit the table."""
    specs = [x.strip() for x in args.opponents.split(",") if x.strip()] or ["random"]
    if len(specs) not in (1, env.num_players):
        print(f"--opponents: give one bot or {env.num_players} (one per seat)", file=sys.stderr)
        return None
    labels = [specs[i % len(specs)] for i in range(env.num_players)]
    try:
        bots = {a: make_bot(labels[i], args.seed * 100 + i)
                for i, a in enumerate(env.possible_agents) if a != human}
    except ValueError as e:
        print(f"--opponents: {e}", file=sys.stderr)
        return None
    if human is not None:
        labels[args.seat] = "human"
    return labels, bots


def _play(env: Any, human: str | None, seat: int, bots: dict[str, Any],
          advisor: Any) -> tuple[dict[str, float], bool]:
    """The game from its reset to its end, or until the human quits: each agent's total
    reward, and whether the human quit. With a human at the table every bot move is printed;
    in a bots-only demo only the table moves are."""
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if agent == human:
            a = ask(env, agent, seat, advisor)
            if a is None:
                return totals, True
        else:
            a = bots[agent].act(seat_view(env, agent))
            if human is not None or env.action_to_string(a).startswith(
                    ("meld", "lay off", "swap", "claim")):
                print(f"{agent}: {env.action_to_string(a)}")
        env.step(a)
    return totals, False


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        env = rummy_env.make(args.variant, num_players=args.players, episode=args.episode,
                             max_turns=args.max_turns, reward_scale=1.0)
    except rummy_env.RummyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not args.bots and not 0 <= args.seat < env.num_players:
        print(f"--seat: choose 0..{env.num_players - 1}", file=sys.stderr)
        return 2
    human = None if args.bots else f"player_{args.seat}"
    seated = _seat_bots(env, args, human)
    if seated is None:
        return 2
    labels, bots = seated
    if args.record:
        from rummy_env.records import RecordGame

        env = RecordGame(env, players=labels)
    advisor = make_bot("greedy", args.seed)
    env.reset(seed=args.seed)
    totals, quit_early = _play(env, human, args.seat, bots, advisor)
    if args.record:
        path = env.record.save(args.record)
        n = env.record.steps
        print(f"game record: {path} ({n} move{'' if n == 1 else 's'}"
              + (", unfinished)" if quit_early else ")"))
    if quit_early:
        print("bye")
        return 0
    print()
    print(env.render_text(viewer=None))
    # Rewards (reward_scale=1) are minus penalty points (contract family), settlements (Indian
    # Rummy, Gin Rummy) or deal points (Manipulation Rummy): higher is better in every variant.
    print("rewards (points, higher is better): "
          + ", ".join(f"{a} {totals[a]:+.0f}" for a in env.possible_agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
