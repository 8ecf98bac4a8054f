"""Write the README's pictures of each rules family: ``python -m rummy_env.render docs/img``.

Each picture is a seat's view of a position reached by seeded greedy play, chosen to show the
family's features (contract melds with a joker on the table, a Gin knock being laid out, the
Indian indicator and wild cards, Manipulation's rearranged table with a joker), saved with a
reduced palette so that each file stays small. The same command gives the same pictures.
"""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Callable
from typing import Any

import rummy_env
from rummy_env.bots import make_bot, seat_view
from rummy_env.render import save_png


def _joker_on_table(env: Any) -> bool:
    st = env.state_obj
    return len(st.table) >= 4 and any(52 in m.cards for m in st.table) and st.hand_size(0) > 3


def _laying_out(env: Any) -> bool:
    return env.state_obj.phase in ("knock", "defend") and bool(env.state_obj.melds[0])


def _mid_deal(env: Any) -> bool:
    return env.state_obj.turn_number >= 9 and env.state_obj.phase == "draw"


def _busy_table(env: Any) -> bool:
    from rummy_env.manipulation.solver import arrange

    st = env.state_obj
    return (sum(st.table_jok) >= 1 and sum(st.table_counts()) >= 24 and st.phase == "meld"
            and arrange(st.table_counts()) is not None)


#: (file stem, variant, env options, the position wanted, seat whose view is drawn).
SCENES: list[tuple[str, str, dict[str, Any], Callable[[Any], bool], int]] = [
    ("contract_rummy", "contract_rummy", {"num_players": 4}, _joker_on_table, 0),
    ("gin_rummy", "gin_rummy", {}, _laying_out, 1),
    ("indian_rummy", "indian_rummy", {"num_players": 4}, _mid_deal, 0),
    ("manipulation_rummy", "manipulation_rummy", {"num_players": 3}, _busy_table, 0),
]


def scene(variant: str, options: dict[str, Any], wanted: Callable[[Any], bool],
          seeds: range = range(200)) -> Any:
    """The first position of seeded greedy play (seed by seed) where ``wanted`` holds."""
    for seed in seeds:
        env = rummy_env.make(variant, **options)
        env.reset(seed=seed)
        bots = [make_bot("greedy", seed * 10 + i) for i in range(env.num_players)]
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            if wanted(env):
                return env
            env.step(bots[env.agent_name_mapping[agent]].act(seat_view(env, agent)))
    raise RuntimeError(f"no {variant} position found for the picture")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(args[0] if args else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    for stem, variant, options, wanted, seat in SCENES:
        env = scene(variant, options, wanted)
        path = out / f"{stem}.png"
        save_png(env.render_rgb(seat), path, colors=128)
        print(f"{path}: {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
