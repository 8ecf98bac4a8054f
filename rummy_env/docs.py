"""Generate the spec tables of every variant from its codec and observation layout.

``python -m rummy_env.docs`` rewrites the blocks between ``<!-- spec:NAME:begin -->`` and
``<!-- spec:NAME:end -->`` in each variant module's docstring and in README.md;
``python -m rummy_env.docs --check`` exits 1 if any block is stale (a test runs the check), so
the documented action ids and observation pieces cannot drift from the code.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent


def _module(name: str) -> str:
    """The versioned module of variant ``name`` (``contract_rummy_v1``)."""
    import rummy_env

    return rummy_env._MODULES[name]


def spec_text(name: str) -> str:
    """The generated spec of variant ``name`` at its default player count."""
    import rummy_env

    module = _module(name)
    env = rummy_env.make(name)
    n = env.num_players
    r = env.rules
    # A family whose deals are not a list of contracts describes them itself; its env class
    # may replace the notes above the action table and on rewards.
    if hasattr(r, "describe_deals"):
        deals = r.describe_deals()
    else:
        deals = f"{r.num_deals}: " + "; ".join(
            f"{i + 1}: {c.describe()}" for i, c in enumerate(r.contracts))
    actions_note = getattr(env, "SPEC_ACTIONS_NOTE", (
        "Action ids (table melds are numbered in the order they were laid; their count, and so",
        "the size of the lay-off and swap ranges, grows with the players):",
    ))
    rewards_note = getattr(env, "SPEC_REWARDS_NOTE", (
        "Rewards: when a deal ends each agent gets minus its score change for the deal (penalty",
        "points, CR-12) times ``reward_scale`` (default 0.01); ``infos[agent]`` always holds",
        "``score``, ``place`` and ``deals_played``.",
    ))
    lines = [
        f"| | {name} (at {n} players) |",
        "|---|---|",
        f"| Import | `from rummy_env import {module}` or `rummy_env.make(\"{name}\")` |",
        f"| Actions | `Discrete({env.layout.n})` |",
        f"| Observation | `Dict(observation: Box({env.encoder.size},) float32, "
        f"action_mask: Box({env.layout.n},) int8)` |",
        f"| State | `Box({env.encoder.state_layout.size},)` |",
        f"| Players | {r.min_players}-{r.max_players} (agents `player_0` ... "
        f"`player_{r.max_players - 1}`) |",
        f"| Deals | {deals} |",
        "",
        *actions_note,
        "",
        env.layout.table(),
        "",
        "Observation pieces (egocentric: seat rows start with the observer):",
        "",
        env.encoder.layout.table(),
        "",
        f"Arguments (``rummy_env.make(\"{name}\", **options)`` or ``{module}.env(**options)``):",
        "``num_players``, ``episode`` (``\"deal\"`` or ``\"game\"``), ``deal`` (deal of a one-deal",
        "episode, or ``\"random\"``), ``render_mode`` (``\"ansi\"``, ``\"human\"``), ``max_turns``,",
        "``illegal_action`` (``\"penalize\"``, default; ``\"raise\"``), ``illegal_reward``, "
        "``reward_scale``,",
        *textwrap.wrap(f"and every rule field of ``{type(r).__name__}`` by name: "
                       + ", ".join(f"``{f}``" for f in r.option_names()) + ".", 96),
        "",
        *rewards_note,
    ]
    return "\n".join(lines)


def variant_names() -> list[str]:
    import rummy_env

    return list(rummy_env.VARIANTS)


_BLOCK = re.compile(
    r"(<!-- spec:(?P<name>[a-z_0-9]+):begin -->\n)(?:.*?\n)?(<!-- spec:(?P=name):end -->)", re.S)


def _render(path: pathlib.Path) -> tuple[str, str]:
    old = path.read_text()
    new = _BLOCK.sub(lambda m: m.group(1) + spec_text(m.group("name")) + "\n" + m.group(3), old)
    return old, new


def targets() -> list[pathlib.Path]:
    paths = []
    for name in variant_names():
        mod = importlib.import_module(f"rummy_env.envs.{_module(name)}")
        paths.append(pathlib.Path(mod.__file__))
    readme = ROOT.parent / "README.md"
    if readme.exists():
        paths.append(readme)
    return paths


def stale() -> list[str]:
    """Files whose generated blocks differ from the code."""
    return [str(p) for p in targets() if _render(p)[0] != _render(p)[1]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated block is stale")
    args = ap.parse_args(argv)
    if args.check:
        bad = stale()
        for p in bad:
            print(f"stale generated spec in {p}; run: python -m rummy_env.docs")
        return 1 if bad else 0
    for p in targets():
        old, new = _render(p)
        if old != new:
            p.write_text(new)
            print(f"updated {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
