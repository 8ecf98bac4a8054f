"""Generate the spec tables of every variant from its codec and observation layout.

``python -m rummy_env.docs`` rewrites the blocks between ``<!-- spec:NAME:begin -->`` and
``<!-- spec:NAME:end -->`` in each variant module's docstring and in README.md;
``python -m rummy_env.docs --check`` exits 1 if any block is stale (a test runs the check), so
the documented action ids and observation pieces cannot drift from the code.

The same run writes one page per variant in PettingZoo's format, ``docs/variants/<name>.md``
(import, actions, observations, arguments, rewards, the variant's rule decisions, version
history), and their index ``docs/variants/README.md``, from the variant module (its docstring:
summary, decisions, Version History), the environment it builds (spaces, codec and observation
layout at every player count), the env options documented in ``RummyAECEnv.__init__`` and the
rule fields documented in the rules class's docstring table; ``--check`` covers them too.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import re
import sys
import textwrap
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent

#: The notes above the action table and on rewards, unless the env class sets its own
#: (``SPEC_ACTIONS_NOTE``, ``SPEC_REWARDS_NOTE``): the contract family's.
ACTIONS_NOTE = (
    "Action ids (table melds are numbered in the order they were laid; their count, and so",
    "the size of the lay-off and swap ranges, grows with the players):",
)
REWARDS_NOTE = (
    "Rewards: when a deal ends each agent gets minus its score change for the deal (penalty",
    "points, CR-12) times ``reward_scale`` (default 0.01); ``infos[agent]`` always holds",
    "``score``, ``place`` and ``deals_played``.",
)


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
    actions_note = getattr(env, "SPEC_ACTIONS_NOTE", ACTIONS_NOTE)
    rewards_note = getattr(env, "SPEC_REWARDS_NOTE", REWARDS_NOTE)
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
        "episode, or ``\"random\"``), ``render_mode`` (``\"ansi\"``, ``\"human\"``), "
        "``max_turns``,",
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
        paths.append(pathlib.Path(str(mod.__file__)))
    readme = ROOT.parent / "README.md"
    if readme.exists():
        paths.append(readme)
    return paths


def stale() -> list[str]:
    """Files whose generated blocks, or generated pages, differ from the code."""
    return [str(p) for p in targets() if _render(p)[0] != _render(p)[1]] + stale_pages()


# --------------------------------------------------------------------- variant pages
#: Where the generated variant pages live (only in a checkout: an installed package has none).
PAGES = ROOT.parent / "docs" / "variants"
#: Rules reference the pages link to (docs/rules.md, section anchors ``section-N``).
RULES_DOC = "../rules.md"
_GENERATED = ("<!-- generated by `python -m rummy_env.docs` from rummy_env/envs/{module}.py and "
              "the code it builds; do not edit -->")


def _md(text: str) -> str:
    """reStructuredText inline markup of the docstrings as Markdown: ````x```` and roles
    (``:class:`~a.b.C``` reads ``C``, ``:mod:`a.b``` reads ``a.b``) become code spans;
    everything else the docstrings use is already Markdown."""

    def role(m: re.Match[str]) -> str:
        target = m.group(2)
        return "`" + (target.rsplit(".", 1)[-1] if m.group(1) else target) + "`"

    text = re.sub(r":[a-z]+:`(~?)([^`]+)`", role, text)
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.S)


def _players(r: object) -> str:
    lo, hi = r.min_players, r.max_players  # type: ignore[attr-defined]
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _docstring_parts(doc: str) -> dict[str, str]:
    """A variant module's docstring in pieces: ``title`` (its first line), ``summary`` (up to the
    spec block), ``decisions`` (the bullets after "Decisions where the rules leave room:") and
    ``history`` (the bullets after "Version History")."""
    head, _, rest = doc.partition("<!-- spec:")
    _, _, after = rest.partition(":end -->")
    decisions, _, history = after.partition("Version History")
    decisions = decisions.replace("Decisions where the rules leave room:", "", 1)
    title, _, summary = head.strip().partition("\n")
    return {"title": title.strip(), "summary": summary.strip(), "decisions": decisions.strip(),
            "history": history.strip()}


def _field_table(doc: str) -> dict[str, str]:
    """Meaning of each field from a rules class's docstring table (RST simple table, rows
    ````field````, continuation lines indented to the second column; ````a/b```` rows name two
    fields; a row with no text shares the previous row's)."""
    lines = [ln.rstrip() for ln in textwrap.dedent(doc.split("\n", 1)[1]).splitlines()]
    borders = [i for i, ln in enumerate(lines) if re.fullmatch(r"=+ +=+", ln)]
    if len(borders) < 2:
        return {}
    col = lines[borders[0]].index(" =") + 1
    col += len(lines[borders[0]][col:]) - len(lines[borders[0]][col:].lstrip())
    out: dict[str, list[str]] = {}
    names: list[str] = []
    last = ""
    for ln in lines[borders[0] + 1:borders[1]]:
        m = re.match(r"``([a-z_/]+)``", ln)
        text = ln[col:].strip() if len(ln) > col else ""
        if m:
            names = m.group(1).split("/")
            if not text:
                text = last
            for n in names:
                out[n] = [text] if text else []
        elif names and ln.strip():
            for n in names:
                out[n].append(ln.strip())
        if names and out[names[0]]:
            last = " ".join(out[names[0]])
    return {n: " ".join(t) for n, t in out.items()}


def _env_params() -> dict[str, str]:
    """Meaning of each env option from the ``:param name:`` lines of ``RummyAECEnv.__init__``."""
    from rummy_env.envs.base import RummyAECEnv

    doc = textwrap.dedent("    " + (RummyAECEnv.__init__.__doc__ or "").strip())
    out: dict[str, str] = {}
    for m in re.finditer(r":param (\w+):(.*?)(?=:param |\Z)", doc, re.S):
        out[m.group(1)] = " ".join(m.group(2).split())
    return out


def _value(v: object) -> str:
    """A default value for the arguments table (contracts by their description)."""
    if isinstance(v, tuple) and v and all(hasattr(c, "describe") for c in v):
        return "; ".join(f"{i + 1}: {c.describe()}" for i, c in enumerate(v))
    return f"`{v!r}`"


def _num(x: float) -> str:
    return f"{float(x):.6g}"


def _cell(text: str) -> str:
    return _md(text).replace("|", "\\|").replace("\n", " ")


def variant_page(name: str) -> str:
    """The generated page of variant ``name`` (``docs/variants/<name>.md``)."""
    import rummy_env

    module = _module(name)
    mod = importlib.import_module(f"rummy_env.envs.{module}")
    parts = _docstring_parts(mod.__doc__ or "")
    env = rummy_env.make(name)
    r = env.rules
    n = env.num_players
    counts = range(r.min_players, r.max_players + 1)
    envs = {k: (env if k == n else rummy_env.make(name, num_players=k)) for k in counts}
    lines = _page_header(name, module, parts, env)
    lines += _page_spaces(env, envs)
    lines += _page_arguments(name, module, env)
    lines += _page_rules(env, parts)
    return "\n".join(lines)


def _page_header(name: str, module: str, parts: dict[str, str], env: Any) -> list[str]:
    """A variant page's title, its summary table and the docstring's summary."""
    import rummy_env

    r = env.rules
    n = env.num_players
    version = module.rsplit("_v", 1)[1]
    title = parts["title"].split(" (")[0]
    section = re.search(r"RULES section (\d+)", parts["title"])
    ids = re.search(r"RULES section \d+, ([^)]*)\)", parts["title"])
    obs_space = env.observation_space(env.possible_agents[0])["observation"]
    rules_link = (f"[section {section.group(1)}]({RULES_DOC}#section-{section.group(1)})"
                  if section else f"[rules]({RULES_DOC})")
    return [
        f"# {title}",
        "",
        _GENERATED.format(module=module),
        "",
        f"This environment is part of [rummy_env](../../README.md)'s `{env.family}` family; "
        f"its rules are {rules_link} of the [rules reference]({RULES_DOC})"
        + (f" ({ids.group(1)})." if ids else "."),
        "",
        "| | |",
        "|---|---|",
        f"| Import | `from rummy_env import {module}` |",
        f"| Creation | `rummy_env.make(\"{name}\")`, `{module}.env()`, or "
        f"`pettingzoo.make(\"aec\", \"{rummy_env.NAMESPACE}/{name}-v{version}\")` "
        "(PettingZoo 1.27 on) |",
        "| Actions | Discrete |",
        "| Parallel API | No |",
        f"| Manual Control | Yes: `python examples/play.py --variant {name}` |",
        f"| Agents | `agents= {env.possible_agents!r}` (at {n} players) |",
        f"| Agents | {_players(r)} (default {n}) |",
        "| Action Shape | (1,) |",
        f"| Action Values | Discrete({env.layout.n}) |",
        f"| Observation Shape | ({env.encoder.size},) |",
        f"| Observation Values | [{_num(obs_space.low.min())}, {_num(obs_space.high.max())}] "
        "(per element: `observation_space(agent)[\"observation\"].low`/`.high`) |",
        f"| State Shape | ({env.encoder.state_layout.size},) |",
        "",
        _md(parts["summary"]),
        "",
    ]


def _page_spaces(env: Any, envs: dict[int, Any]) -> list[str]:
    """A variant page's sizes by player count, observation space, mask and action space."""
    n = env.num_players
    return [
        "## Sizes by player count",
        "",
        "Every agent has the same spaces; their sizes follow the player count:",
        "",
        "| players | actions | observation | state |",
        "|---|---|---|---|",
        *(f"| {k} | Discrete({e.layout.n}) | ({e.encoder.size},) | "
          f"({e.encoder.state_layout.size},) |" for k, e in envs.items()),
        "",
        "## Observation Space",
        "",
        "The observation is a dictionary: `observation`, the seat's view as one flat float32 "
        "vector of the named pieces below, and `action_mask`, described under Legal Actions "
        "Mask. Views are egocentric (seat rows start with the observer) and hold only what "
        "that seat may know: other hands and the stock order are never encoded. `state()` "
        "gives the full information, for centralised critics.",
        "",
        f"Pieces at {n} players:",
        "",
        env.encoder.layout.table(),
        "",
        "### Legal Actions Mask",
        "",
        "`action_mask` is an int8 vector over the action ids: for the acting agent it is "
        "exactly the set of legal actions (never empty), for every other agent all zeros. An "
        "illegal action (an id in range that the mask does not allow) ends the episode with "
        "`illegal_reward` (-1) for the offender and 0 for the others, with PettingZoo's "
        "warning; `illegal_action=\"raise\"` raises `IllegalActionError` instead. Anything "
        "but an integer id of the action space is refused with `IllegalActionError`.",
        "",
        "## Action Space",
        "",
        _md(" ".join(getattr(env, "SPEC_ACTIONS_NOTE", ACTIONS_NOTE))),
        "",
        f"`env.action_to_string(id)` and `env.string_to_action(text)` convert; at {n} players:",
        "",
        env.layout.table(),
        "",
    ]


def _page_arguments(name: str, module: str, env: Any) -> list[str]:
    """A variant page's table of environment arguments."""
    import inspect

    from rummy_env.envs.base import RummyAECEnv

    n = env.num_players
    lines = [
        "## Arguments",
        "",
        f"`rummy_env.make(\"{name}\", **options)` or `{module}.env(**options)`; a bad name or "
        "value raises `RuleConfigError` naming it.",
        "",
        "| argument | default | meaning |",
        "|---|---|---|",
    ]
    params = _env_params()
    sig = inspect.signature(RummyAECEnv.__init__).parameters
    for p in sig.values():
        if p.name in ("self", "rule_options"):
            continue
        default = f"`{p.default!r}`" if p.default is not None or p.name != "num_players" else (
            f"`None` ({n})")
        lines.append(f"| `{p.name}` | {default} | {_cell(params.get(p.name, ''))} |")
    return lines


def _page_rules(env: Any, parts: dict[str, str]) -> list[str]:
    """A variant page's rule fields, rewards, rule decisions and version history."""
    r = env.rules
    fields = _field_table(type(r).__doc__ or "")
    return [
        "",
        f"Rule fields of `{type(r).__name__}` (a house rule is an override by name; the "
        "defaults are this variant's preset):",
        "",
        "| rule field | default | meaning |",
        "|---|---|---|",
        *(f"| `{f}` | {_cell(_value(getattr(r, f)))} | {_cell(fields.get(f, ''))} |"
          for f in r.option_names()),
        "",
        "## Rewards",
        "",
        _md(" ".join(getattr(env, "SPEC_REWARDS_NOTE", REWARDS_NOTE))),
        "",
        "## Rule decisions",
        "",
        "Where the rules leave room, this environment decides as follows (from the module "
        f"docstring; the [rules reference]({RULES_DOC}) marks the decisions of the rules "
        "themselves):",
        "",
        _md(parts["decisions"]),
        "",
        "## Version History",
        "",
        _md(parts["history"]),
        "",
    ]


def variants_index() -> str:
    """The generated index of the variant pages (``docs/variants/README.md``)."""
    import rummy_env

    lines = [
        "# Variants",
        "",
        _GENERATED.format(module="*").replace("rummy_env/envs/*.py", "rummy_env/envs/*_v*.py"),
        "",
        "One page per variant, in PettingZoo's format; the rules are in the "
        f"[rules reference]({RULES_DOC}).",
        "",
        "| variant | module | family | players | actions | observation |",
        "|---|---|---|---|---|---|",
    ]
    for name in variant_names():
        env = rummy_env.make(name)
        r = env.rules
        title = _docstring_parts(importlib.import_module(
            f"rummy_env.envs.{_module(name)}").__doc__ or "")["title"].split(" (")[0]
        lines.append(f"| [{title}]({name}.md) | `{_module(name)}` | {env.family} | "
                     f"{_players(r)} | Discrete({env.layout.n}) | "
                     f"({env.encoder.size},) |")
    lines += ["", "Sizes are at each variant's default player count; each page gives them "
              "for every count.", ""]
    return "\n".join(lines)


def pages() -> dict[pathlib.Path, str]:
    """Every generated page by path (empty outside a checkout, where there is no docs/)."""
    if not PAGES.parent.is_dir():
        return {}
    out = {PAGES / f"{name}.md": variant_page(name) for name in variant_names()}
    out[PAGES / "README.md"] = variants_index()
    return out


def stale_pages() -> list[str]:
    """Generated pages that are missing or differ from the code, and pages of no variant."""
    want = pages()
    bad = [str(p) for p, text in want.items() if not p.exists() or p.read_text() != text]
    if PAGES.is_dir():
        bad += [str(p) for p in sorted(PAGES.glob("*.md")) if p not in want]
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated block is stale")
    args = ap.parse_args(argv)
    if args.check:
        bad = stale()
        for name in bad:
            print(f"stale generated spec in {name}; run: python -m rummy_env.docs")
        return 1 if bad else 0
    for p in targets():
        old, new = _render(p)
        if old != new:
            p.write_text(new)
            print(f"updated {p}")
    want = pages()
    if want:
        PAGES.mkdir(exist_ok=True)
    for page, text in want.items():
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
            print(f"updated {page}")
    for page in sorted(PAGES.glob("*.md")) if PAGES.is_dir() else ():
        if page not in want:
            print(f"{page} is no variant's page: remove it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
