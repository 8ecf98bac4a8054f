"""The README's results rows from training runs' ``final_eval.json`` files.

    python -m training.report runs/gin_rummy runs/contract_rummy ...

One markdown row per run folder: variant and players, training CPU-minutes (teacher's
decisions, cloning, PPO and the periodic evaluations; the final evaluation excluded), PPO steps
and cloned decisions, then for each baseline the agent's points per deal, its paired
difference to the baseline seats (duplicate deals, 95% interval) and its win rate, and whether
it beats the baseline with 95% confidence.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

HEADER = ("| variant | players | CPU-min | PPO steps + cloned decisions | vs greedy: points per "
          "deal | minus greedy (95% CI) | win rate | beats greedy | vs random: points per deal "
          "| minus random (95% CI) | win rate |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def _cell(res: dict[str, Any]) -> tuple[str, str, str, bool]:
    a = res["results"][0]
    pr = res["paired"]
    lo, hi = pr["penalty_diff_ci"]
    return (f"{a['mean_penalty']:.1f}", f"{pr['penalty_diff']:+.1f} [{lo:+.1f}, {hi:+.1f}]",
            f"{a['win_rate']:.3f}", bool(pr["beats"]))


def row(run: pathlib.Path) -> str:
    summary = json.loads((run / "final_eval.json").read_text())
    cfg_text = (run / "config.yaml").read_text()
    import yaml

    cfg = yaml.safe_load(cfg_text)
    final = summary["final"]
    g = _cell(final["greedy"]) if "greedy" in final else ("-", "-", "-", False)
    r = _cell(final["random"]) if "random" in final else ("-", "-", "-", False)
    cpu = summary["train_cpu_seconds"] / 60
    decisions = summary.get("pretrain", {}).get("decisions", 0)
    players = cfg["env"].get("num_players", 4)
    deals = final.get("greedy", final.get("random", {})).get("deals", 0)
    return (f"| `{cfg['variant']}` | {players} | {cpu:.1f} | {summary['timesteps'] // 1000}k + "
            f"{decisions // 1000}k | {g[0]} | {g[1]} | {g[2]} | {'yes' if g[3] else 'no'} | "
            f"{r[0]} | {r[1]} | {r[2]} |  <!-- {deals} deals, best: {summary['best']} -->")


def main(argv: list[str] | None = None) -> int:
    runs = [pathlib.Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not runs:
        print(__doc__)
        return 2
    print(HEADER)
    for run in runs:
        print(row(run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
