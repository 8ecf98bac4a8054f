"""The README's results rows from training runs' ``final_eval.json`` files.

    python -m training.report runs/gin_rummy runs/contract_rummy ...
    python -m training.report --publish runs/gin_rummy     # also into checkpoints/

One markdown row per run folder: variant and players, training CPU-minutes (teacher's
decisions, cloning, PPO and the periodic evaluations; the final evaluation excluded), PPO steps
and cloned decisions, then for each baseline the agent's points per deal, its paired
difference to the baseline seats (duplicate deals, 95% interval) and its win rate, and whether
it beats the baseline with 95% confidence.

``--publish`` also copies each run's ``best.npz`` to ``checkpoints/<variant>.npz`` and records
it in ``checkpoints/manifest.json`` (the run's config file, the checkpoint chosen, steps and the
final result against greedy), the committed policies that ``tests/test_checkpoints.py`` plays.
"""

from __future__ import annotations

import json
import pathlib
import shutil
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


def publish(run: pathlib.Path, root: pathlib.Path = pathlib.Path(".")) -> dict[str, Any]:
    """Copy ``run/best.npz`` to ``checkpoints/<variant>.npz`` and record it in the manifest."""
    import yaml

    summary = json.loads((run / "final_eval.json").read_text())
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    variant = cfg["variant"]
    folder = root / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{variant}.npz"
    shutil.copyfile(run / "best.npz", target)
    greedy = summary["final"].get("greedy", {}).get("paired", {})
    entry = {"file": f"checkpoints/{variant}.npz", "players": int(cfg["env"].get("num_players", 4)),
             "config": f"configs/train/{variant}.yaml", "checkpoint": summary["best"],
             "ppo_steps": int(summary["timesteps"]),
             "cloned_decisions": int(summary.get("pretrain", {}).get("decisions", 0)),
             "minus_greedy": greedy.get("penalty_diff"),
             "minus_greedy_ci": greedy.get("penalty_diff_ci"),
             "deals_vs_greedy": summary["final"].get("greedy", {}).get("deals", 0)}
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest[variant] = entry
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    return entry


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    publish_runs = "--publish" in args
    runs = [pathlib.Path(p) for p in args if p != "--publish"]
    if not runs:
        print(__doc__)
        return 2
    print(HEADER)
    for run in runs:
        print(row(run))
        if publish_runs:
            publish(run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
