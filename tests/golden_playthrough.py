"""Golden playthroughs: one seeded deal per variant, written out as text and kept in
``tests/golden/<variant>.txt``, in the style of OpenSpiel's ``playthroughs/``.

A playthrough is what a user sees of a deal: the table (every hand shown) and each legal
action's text at the first ``DETAILED`` steps, then one line per step to the end of the deal:
the actor, the action id and text, digests of the actor's observation and mask, and the
rewards paid. The actions are drawn uniformly from the legal ids by a generator seeded with the
playthrough's seed, so the file depends only on the environment. ``tests/test_golden.py``
replays every file and fails on the first line that differs: a refactor that claims to change
nothing user-visible must leave these files bit-identical, and a deliberate change (a rule fix,
a new observation piece) regenerates them and shows up as a diff in review, with the env's
version bumped as the design's version rule says.

Regenerate after a deliberate change, then review ``git diff tests/golden``::

    python tests/golden_playthrough.py            # every variant
    python tests/golden_playthrough.py gin_rummy  # one
"""

from __future__ import annotations

import hashlib
import pathlib
import sys
from collections.abc import Iterator

import numpy as np

import rummy_env

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
#: Steps shown in full (table text and every legal action); the rest get one line each.
DETAILED = 12
SEED = 0


def _digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:12]


def _rewards(env: object) -> str:
    paid = {a: r for a, r in env.rewards.items() if r}  # type: ignore[attr-defined]
    return " ".join(f"{a}:{r:+g}" for a, r in sorted(paid.items())) or "-"


def lines(variant: str, seed: int = SEED) -> Iterator[str]:
    """The playthrough of ``variant`` (default players, one deal), line by line."""
    env = rummy_env.make(variant, episode="deal")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    yield (f"# golden playthrough of {variant}: {env.num_players} players, episode='deal', "
           f"reset(seed={seed}); actions uniform over the legal ids, "
           f"numpy default_rng({seed})")
    yield "# regenerate: python tests/golden_playthrough.py " + variant
    step = 0
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        legal = [int(i) for i in np.flatnonzero(obs["action_mask"])]
        action = legal[int(rng.integers(len(legal)))]
        text = env.action_to_string(action)
        if step < DETAILED:
            yield f"== step {step}: {agent}"
            yield from env.render_text(None).splitlines()
            yield "legal: " + " | ".join(f"{i} {env.action_to_string(i)}" for i in legal)
        env.step(action)
        for a, r in env.rewards.items():
            paid[a] += r
        yield (f"{step} {agent} {action} {text!r} obs={_digest(obs['observation'])} "
               f"mask={_digest(obs['action_mask'])} rewards={_rewards(env)}")
        step += 1
    yield "== end of deal"
    yield from env.render_text(None).splitlines()
    yield "rewards paid in the deal: " + " ".join(f"{a}:{r:+g}" for a, r in sorted(paid.items()))


def text(variant: str, seed: int = SEED) -> str:
    return "\n".join(lines(variant, seed)) + "\n"


def main(argv: list[str]) -> int:
    GOLDEN.mkdir(exist_ok=True)
    for variant in argv or rummy_env.VARIANTS:
        path = GOLDEN / f"{variant}.txt"
        path.write_text(text(variant))
        print(f"{path.relative_to(GOLDEN.parent.parent)}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
