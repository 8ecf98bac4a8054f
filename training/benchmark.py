"""Benchmark RL algorithms: algorithms x variants x seeds at a fixed budget, one command.

    python -m training.benchmark --config configs/benchmark/table.yaml
    python -m training.benchmark --config configs/benchmark/table.yaml --algorithms maskable_ppo \\
        --variants gin_rummy --seeds 0,1 --budget 5000 --out runs/benchmark/try --workers 2
    python -m training.benchmark --config configs/benchmark/table.yaml --ray auto  # a cluster

Every cell (one algorithm, one variant, one seed) trains from scratch for ``budget`` training
samples (:mod:`training.algorithms` says what a sample is for each algorithm) and is evaluated
at fixed checkpoints (``eval.every`` samples apart, plus 0 and the budget) against every bot of
the fixed opponent pool (``eval.opponents``: ``random``, ``greedy``, optionally ``search``),
with the duplicate protocol of :func:`training.evaluate.evaluate` (every deal played once per
seat rotation; the agent in one seat, the opponent in all others) on the same deals
(``eval.seed``) for every cell and checkpoint, so algorithms are compared on identical deals.

The config (YAML; flags override it, ``--set a.b=value`` reaches any key)::

    algorithms: {maskable_ppo: {}, rllib_ppo: {ppo: {lr: 1.0e-4}}}   # or a list of names
    variants: {gin_rummy: {num_players: 2}, contract_rummy: {num_players: 4}}
    seeds: [0, 1, 2]
    budget: 20000            # training samples per cell
    env: {reward_scale: 0.01, episode: deal}   # training env options, every variant
    eval: {every: 10000, deals: 200, opponents: [random, greedy], seed: 2026}
    out: runs/benchmark/table
    workers: 1               # cells in parallel as local processes
    ray: null                # or a Ray address: every cell a Ray task (one CPU each)

Resumable: each finished cell writes ``cells/<variant>/<algorithm>/seed_<s>.json`` (the
cell's spec, its curve, CPU time); a rerun keeps it and skips the cell; a cell file whose
spec differs from the config's (another budget, other settings) is an error naming the
difference, so numbers of different protocols are never mixed.

The output folder gets ``config.yaml`` (the resolved config), ``results.json`` (every cell
and the aggregate over seeds), ``results.md`` (the tables) and ``curve_<variant>.png`` (per
opponent: points per deal against the field over training, mean and 95% interval over seeds,
one line per algorithm). See docs/benchmark.md for the protocol.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import copy
import json
import math
import multiprocessing
import os
import pathlib
import sys
import time
from typing import Any

import yaml

from training.train import _merge, _set

DEFAULTS: dict[str, Any] = {
    "name": "benchmark",
    "algorithms": ["maskable_ppo", "rllib_ppo", "tianshou_dqn", "league_ppo"],
    "variants": {"gin_rummy": {"num_players": 2}},
    "seeds": [0, 1, 2],
    "budget": 20_000,
    "env": {"reward_scale": 0.01, "episode": "deal"},
    "eval": {"every": 10_000, "deals": 200, "opponents": ["random", "greedy"], "seed": 2026,
             "at_start": True},
    "out": "runs/benchmark",
    "workers": 1,
    "ray": None,
    "ray_init": {"include_dashboard": False},
    "torch_threads": 1,
}

#: Student t quantiles (0.975) by degrees of freedom, for intervals over a few seeds.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}
#: Keys of a cell's spec: a finished cell file is reused only when all of them match.
SPEC_KEYS = ("algorithm", "variant", "seed", "budget", "checkpoints", "env", "settings",
             "eval")


class ConfigError(ValueError):
    """A benchmark config or flag that cannot run; the message names the problem."""


# ---------------------------------------------------------------------------- config
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m training.benchmark",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="YAML file (configs/benchmark/<name>.yaml)")
    ap.add_argument("--algorithms", help="comma-separated subset (or new names, with their "
                    "default settings)")
    ap.add_argument("--variants", help="comma-separated subset of the config's variants")
    ap.add_argument("--seeds", help="comma-separated ints, e.g. 0,1,2")
    ap.add_argument("--budget", type=int, help="training samples per cell")
    ap.add_argument("--deals", type=int, help="evaluation deals per opponent and checkpoint")
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--workers", type=int, help="cells in parallel as local processes")
    ap.add_argument("--ray", metavar="ADDRESS", help="run the cells as Ray tasks on this "
                    "cluster (auto, host:6379, ray://host:10001)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override any config key, e.g. eval.every=5000 or "
                         "algorithms.rllib_ppo.ppo.lr=1e-4")
    return ap.parse_args(argv)


def _ints(text: str, flag: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"{flag}={text!r}: expected comma-separated ints, e.g. 0,1,2") from None


def resolve_config(argv: list[str] | None = None) -> dict[str, Any]:
    """Defaults, then the YAML file, then the flags; validated (:class:`ConfigError`)."""
    args = parse_args(argv)
    cfg = copy.deepcopy(DEFAULTS)
    if args.config:
        path = pathlib.Path(args.config)
        if not path.is_file():
            raise ConfigError(f"--config {args.config}: no such file")
        loaded = yaml.safe_load(path.read_text()) or {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{args.config}: expected a mapping of config keys")
        # lists and the variants/algorithms tables replace the defaults rather than merge
        for key in ("algorithms", "variants"):
            if key in loaded:
                cfg[key] = loaded.pop(key)
        cfg = _merge(cfg, loaded)
    try:
        for s in args.set:
            _set(cfg, s)
    except SystemExit as e:
        raise ConfigError(str(e)) from None
    cfg["algorithms"] = _algorithm_table(cfg["algorithms"])
    if args.algorithms:
        names = [a.strip() for a in args.algorithms.split(",") if a.strip()]
        cfg["algorithms"] = {a: cfg["algorithms"].get(a, {}) for a in names}
    if args.variants:
        names = [v.strip() for v in args.variants.split(",") if v.strip()]
        table = _variant_table(cfg["variants"])
        missing = [v for v in names if v not in table]
        if missing:
            raise ConfigError(f"--variants: {', '.join(missing)} not in the config's variants "
                              f"({', '.join(table)}); add them to 'variants' with their "
                              "num_players")
        cfg["variants"] = {v: table[v] for v in names}
    if args.seeds is not None:
        cfg["seeds"] = _ints(args.seeds, "--seeds")
    for key in ("budget", "out", "workers", "ray"):
        v = getattr(args, key)
        if v is not None:
            cfg[key] = v
    if args.deals is not None:
        cfg["eval"]["deals"] = args.deals
    validate(cfg)
    return cfg


def _algorithm_table(spec: Any) -> dict[str, dict[str, Any]]:
    if isinstance(spec, str):
        spec = [spec]
    if isinstance(spec, list):
        return {str(a): {} for a in spec}
    if isinstance(spec, dict):
        return {str(a): dict(v or {}) for a, v in spec.items()}
    raise ConfigError(f"algorithms: {spec!r}; expected a list of names or {{name: settings}}")


def _variant_table(spec: Any) -> dict[str, dict[str, Any]]:
    if isinstance(spec, list):
        spec = {v: {} for v in spec}
    if not isinstance(spec, dict):
        raise ConfigError(f"variants: {spec!r}; expected {{variant: {{num_players: N, ...}}}}")
    return {str(v): dict(o or {}) for v, o in spec.items()}


def validate(cfg: dict[str, Any]) -> None:
    """Raise :class:`ConfigError` naming the first problem of a resolved config."""
    import rummy_env
    from rummy_env.bots import BOTS
    from training.algorithms import ALGORITHMS, missing_modules, resolve_settings

    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise ConfigError(f"unknown config keys {sorted(unknown)}; allowed: {sorted(DEFAULTS)}")
    unknown = set(cfg["eval"]) - set(DEFAULTS["eval"])
    if unknown:
        raise ConfigError(f"unknown eval keys {sorted(unknown)}; allowed: "
                          f"{sorted(DEFAULTS['eval'])}")
    if not cfg["algorithms"]:
        raise ConfigError("algorithms is empty; registered: " + ", ".join(sorted(ALGORITHMS)))
    for name, over in cfg["algorithms"].items():
        try:
            resolve_settings(name, over)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        missing = missing_modules(name)
        if missing:
            raise ConfigError(missing)
    cfg["variants"] = _variant_table(cfg["variants"])
    if not cfg["variants"]:
        raise ConfigError("variants is empty")
    for v, opts in cfg["variants"].items():
        if v not in rummy_env.VARIANTS:
            raise ConfigError(f"unknown variant {v!r}; allowed: {', '.join(rummy_env.VARIANTS)}")
        if not isinstance(opts.get("num_players"), int) or opts["num_players"] < 2:
            raise ConfigError(f"variants.{v}.num_players={opts.get('num_players')!r}: give the "
                              "player count (an int >= 2), part of the protocol")
    seeds = cfg["seeds"]
    if (not isinstance(seeds, list) or not seeds
            or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds)):
        raise ConfigError(f"seeds={seeds!r}: a non-empty list of ints >= 0")
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"seeds={seeds!r} repeats a seed")
    for key, low in (("budget", 1), ("workers", 1)):
        v = cfg[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            raise ConfigError(f"{key}={v!r}: an int >= {low}")
    ev = cfg["eval"]
    for key in ("every", "deals"):
        v = ev[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ConfigError(f"eval.{key}={v!r}: an int >= 1")
    if not isinstance(ev["seed"], int):
        raise ConfigError(f"eval.seed={ev['seed']!r}: an int")
    opps = ev["opponents"]
    if not isinstance(opps, list) or not opps:
        raise ConfigError(f"eval.opponents={opps!r}: a non-empty list of bot names")
    for o in opps:
        if o not in BOTS:
            raise ConfigError(f"eval.opponents: unknown bot {o!r}; allowed: {', '.join(BOTS)}")
    if cfg["ray"] is not None and cfg["workers"] != 1:
        raise ConfigError("give --ray or --workers > 1, not both (Ray schedules the cells)")


def checkpoints(cfg: dict[str, Any]) -> list[int]:
    """The training-sample counts at which every cell is evaluated."""
    every, budget = cfg["eval"]["every"], cfg["budget"]
    pts = list(range(every, budget, every)) + [budget]
    return ([0] if cfg["eval"].get("at_start", True) else []) + pts


def cells(cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """Every cell's spec (JSON-serialisable), variants x algorithms x seeds."""
    from training.algorithms import resolve_settings

    out = pathlib.Path(cfg["out"])
    ck = checkpoints(cfg)
    ev = {k: cfg["eval"][k] for k in ("deals", "opponents", "seed")}
    specs = []
    for variant, vopts in cfg["variants"].items():
        env = {**cfg["env"], **vopts}
        for algo, over in cfg["algorithms"].items():
            settings = resolve_settings(algo, over)
            settings.setdefault("torch_threads", cfg["torch_threads"])
            for seed in cfg["seeds"]:
                specs.append({
                    "algorithm": algo, "variant": variant, "seed": int(seed),
                    "budget": cfg["budget"], "checkpoints": ck, "env": env,
                    "settings": settings, "eval": ev,
                    "file": str(out / "cells" / variant / algo / f"seed_{seed}.json"),
                    "dir": str(out / "cells" / variant / algo / f"seed_{seed}"),
                })
    return specs


# ---------------------------------------------------------------------------- one cell
_EPISODE_KEYS = ("num_players", "deal", "reward_scale", "episode")


def evaluate_bot(bot: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """The agent ``bot`` against each opponent of the pool (agent in one seat, the opponent in
    every other), duplicate deals of :func:`training.evaluate.evaluate`; per opponent the
    paired points-per-deal difference and the agent's win rate, with 95% intervals."""
    from rummy_env.bots import make_bot
    from training.evaluate import evaluate

    n = int(spec["env"]["num_players"])
    env_options = {k: v for k, v in spec["env"].items() if k not in _EPISODE_KEYS}
    out = {}
    for opp in spec["eval"]["opponents"]:
        bots = [bot] + [make_bot(opp, spec["eval"]["seed"] * 100 + j) for j in range(1, n)]
        res = evaluate(spec["variant"], ["agent"] + [opp] * (n - 1), int(spec["eval"]["deals"]),
                       int(spec["eval"]["seed"]), players=n, env_options=env_options,
                       duplicate=True, bots=bots)
        agent = res["results"][0]
        out[opp] = {"deals": res["deals"], "points": res["paired"]["penalty_diff"],
                    "points_ci": res["paired"]["penalty_diff_ci"],
                    "agent_penalty": agent["mean_penalty"], "win_rate": agent["win_rate"],
                    "win_ci": agent["win_ci"], "truncated": res["truncated"]}
    return out


def run_cell(spec: dict[str, Any]) -> dict[str, Any]:
    """Train and evaluate one cell; return its result (the spec, the curve, CPU time)."""
    import torch

    torch.set_num_threads(int(spec["settings"].get("torch_threads") or 1))
    from training.algorithms import ALGORITHMS, CellSpec

    pathlib.Path(spec["dir"]).mkdir(parents=True, exist_ok=True)
    cell = CellSpec(algorithm=spec["algorithm"], variant=spec["variant"], seed=spec["seed"],
                    env=dict(spec["env"]), settings=dict(spec["settings"]), out=spec["dir"])
    wall0, cpu0 = time.time(), time.process_time()
    learner = ALGORITHMS[spec["algorithm"]](cell)
    cpu = {"setup": time.process_time() - cpu0, "train": 0.0, "eval": 0.0}
    curve = []
    try:
        steps = 0
        for target in spec["checkpoints"]:
            c0 = time.process_time()
            if target > 0:
                steps = int(learner.learn(target))
            cpu["train"] += time.process_time() - c0
            c0 = time.process_time()
            curve.append({"target": target, "steps": steps,
                          "vs": evaluate_bot(learner.bot(), spec)})
            cpu["eval"] += time.process_time() - c0
            print(f"[{spec['variant']} {spec['algorithm']} seed {spec['seed']}] {steps:>7} "
                  "samples: " + "  ".join(
                      f"vs {o} {r['points']:+.1f} [{r['points_ci'][0]:+.1f}, "
                      f"{r['points_ci'][1]:+.1f}] win {r['win_rate']:.3f}"
                      for o, r in curve[-1]["vs"].items()), flush=True)
        info = dict(learner.info)
    finally:
        learner.close()
    return {**{k: spec[k] for k in SPEC_KEYS}, "curve": curve, "final": curve[-1],
            "steps": curve[-1]["steps"], "cpu_seconds": cpu,
            "wall_seconds": time.time() - wall0, "info": info, "host": os.uname().nodename}


def _spec_diff(old: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    return [k for k in SPEC_KEYS if json.dumps(old.get(k), sort_keys=True)
            != json.dumps(spec[k], sort_keys=True)]


def _load_finished(spec: dict[str, Any]) -> dict[str, Any] | None:
    path = pathlib.Path(spec["file"])
    if not path.is_file():
        return None
    old = json.loads(path.read_text())
    diff = _spec_diff(old, spec)
    if diff:
        raise ConfigError(f"{path} was run with other {', '.join(diff)} than this config's "
                          f"(e.g. {diff[0]}: {old.get(diff[0])!r} there, {spec[diff[0]]!r} "
                          "now): use another --out, or delete the file to rerun the cell")
    return old


def _save_cell(spec: dict[str, Any], result: dict[str, Any]) -> None:
    path = pathlib.Path(spec["file"])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1))
    tmp.replace(path)  # atomic: an interrupted cell leaves no result file, so it reruns


# ---------------------------------------------------------------------------- running
def run(cfg: dict[str, Any]) -> dict[str, Any]:
    """Run (or resume) every cell, then write the outputs; returns ``results.json``'s dict."""
    out = pathlib.Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    specs = cells(cfg)
    done: dict[str, dict[str, Any]] = {}
    todo = []
    for s in specs:
        old = _load_finished(s)
        if old is not None:
            done[s["file"]] = old
        else:
            todo.append(s)
    print(f"{len(specs)} cells: {len(done)} finished (kept), {len(todo)} to run", flush=True)
    skipped = len(done)
    t0 = time.time()
    if cfg["ray"] is not None:
        _run_ray(cfg, todo, done)
    elif cfg["workers"] > 1 and len(todo) > 1:
        ctx = multiprocessing.get_context("spawn")  # no forked torch/Ray state
        with cf.ProcessPoolExecutor(max_workers=cfg["workers"], mp_context=ctx) as pool:
            futs = {pool.submit(run_cell, s): s for s in todo}
            for f in cf.as_completed(futs):
                s = futs[f]
                done[s["file"]] = f.result()
                _save_cell(s, done[s["file"]])
    else:
        for s in todo:
            done[s["file"]] = run_cell(s)
            _save_cell(s, done[s["file"]])
    results = [done[s["file"]] for s in specs]
    summary = write_outputs(cfg, results)
    summary["run"] = {"cells": len(specs), "skipped": skipped, "ran": len(todo),
                      "wall_seconds": round(time.time() - t0, 1)}
    (out / "results.json").write_text(json.dumps(summary, indent=1))
    print(f"wrote {out / 'results.md'}, {out / 'results.json'} and "
          f"{len(cfg['variants'])} learning-curve PNGs", flush=True)
    return summary


def _run_ray(cfg: dict[str, Any], todo: list[dict[str, Any]],
             done: dict[str, dict[str, Any]]) -> None:
    import ray

    owns = not ray.is_initialized()
    if owns:
        kwargs = dict(cfg["ray_init"] or {})
        # the workers import training.* (not an installed package) from this checkout: on a
        # cluster every node needs the same path (or give ray_init.runtime_env yourself)
        kwargs.setdefault("runtime_env", {"env_vars": {"PYTHONPATH": os.pathsep.join(
            filter(None, [str(pathlib.Path(__file__).resolve().parents[1]),
                          os.environ.get("PYTHONPATH")]))}})
        ray.init(address=cfg["ray"], **kwargs)
    try:
        task = ray.remote(num_cpus=1)(run_cell)
        refs = {task.remote(s): s for s in todo}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            s = refs[ready[0]]
            done[s["file"]] = ray.get(ready[0])
            _save_cell(s, done[s["file"]])  # the driver writes: no shared filesystem needed
    finally:
        if owns:
            ray.shutdown()


# ---------------------------------------------------------------------------- outputs
def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean over seeds and its 95% Student t interval (nan bounds for one value)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan"), float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    df = n - 1
    t = _T975.get(df) or next((_T975[k] for k in sorted(_T975) if k >= df), 1.96)
    half = t * sd / math.sqrt(n)
    return m, m - half, m + half


def aggregate(cfg: dict[str, Any], results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per variant, algorithm and opponent: the final checkpoint's numbers over seeds (one
    seed: its own duplicate interval), mean samples and CPU time."""
    rows = []
    for variant in cfg["variants"]:
        for algo in cfg["algorithms"]:
            rs = [r for r in results if r["variant"] == variant and r["algorithm"] == algo]
            if not rs:
                continue
            row: dict[str, Any] = {"variant": variant, "algorithm": algo, "seeds": len(rs),
                                   "steps": sum(r["steps"] for r in rs) / len(rs),
                                   "cpu_seconds": sum(sum(r["cpu_seconds"].values())
                                                      for r in rs) / len(rs), "vs": {}}
            for opp in cfg["eval"]["opponents"]:
                finals = [r["final"]["vs"][opp] for r in rs]
                if len(rs) == 1:
                    f = finals[0]
                    pts = (f["points"], *f["points_ci"])
                    win = (f["win_rate"], *f["win_ci"])
                    how = "duplicate interval of the one seed"
                else:
                    pts = mean_ci([f["points"] for f in finals])
                    wm, wlo, whi = mean_ci([f["win_rate"] for f in finals])
                    win = (wm, max(0.0, wlo), min(1.0, whi))  # a rate lies in [0, 1]
                    how = "t interval over seeds"
                row["vs"][opp] = {"points": pts[0], "points_ci": [pts[1], pts[2]],
                                  "win_rate": win[0], "win_ci": [win[1], win[2]],
                                  "interval": how}
            rows.append(row)
    return rows


def _fmt(x: float, ci: list[float], spec: str) -> str:
    """``x [lo, hi]`` in ``spec`` (just ``x`` when the interval is undefined)."""
    lo, hi = ci
    if math.isnan(lo):
        return format(x, spec)
    return f"{format(x, spec)} [{format(lo, spec)}, {format(hi, spec)}]"


def results_markdown(cfg: dict[str, Any], results: list[dict[str, Any]],
                     agg: list[dict[str, Any]]) -> str:
    """The tables of ``results.md``."""
    opps = cfg["eval"]["opponents"]
    ev = cfg["eval"]
    lines = [
        f"# Benchmark: {cfg['name']}",
        "",
        f"Budget {cfg['budget']:,} training samples per cell; evaluated at "
        f"{', '.join(str(c) for c in checkpoints(cfg))} samples against "
        f"{', '.join(opps)}, {ev['deals']} duplicate deals each (evaluation seed {ev['seed']}); "
        f"seeds {', '.join(map(str, cfg['seeds']))}. Points per deal: the agent's penalty "
        "minus the field's, per duplicate group (lower is better; negative beats the "
        "opponent). Win rate: the agent's share of deals won.",
        "",
        "## Aggregated over seeds (final checkpoint; mean and 95% t interval over seeds)",
        "",
        "| variant | algorithm | seeds | samples | CPU-min/cell | "
        + " | ".join(f"points/deal vs {o} | win rate vs {o}" for o in opps) + " |",
        "|---|---|---|---|---|" + "---|---|" * len(opps),
    ]
    for r in agg:
        cells_ = []
        for o in opps:
            v = r["vs"][o]
            cells_ += [_fmt(v["points"], v["points_ci"], spec="+.1f"),
                       _fmt(v["win_rate"], v["win_ci"], spec=".3f")]
        lines.append(f"| {r['variant']} | {r['algorithm']} | {r['seeds']} | {r['steps']:,.0f} | "
                     f"{r['cpu_seconds'] / 60:.1f} | " + " | ".join(cells_) + " |")
    lines += ["", "## Per cell (final checkpoint; 95% duplicate intervals)", "",
              "| variant | algorithm | seed | samples | CPU-s train | CPU-s eval | "
              + " | ".join(f"points/deal vs {o} | win rate vs {o}" for o in opps) + " |",
              "|---|---|---|---|---|---|" + "---|---|" * len(opps)]
    for r in results:
        cells_ = []
        for o in opps:
            v = r["final"]["vs"][o]
            cells_ += [_fmt(v["points"], v["points_ci"], spec="+.1f"),
                       _fmt(v["win_rate"], v["win_ci"], spec=".3f")]
        c = r["cpu_seconds"]
        lines.append(f"| {r['variant']} | {r['algorithm']} | {r['seed']} | {r['steps']:,} | "
                     f"{c['setup'] + c['train']:.0f} | {c['eval']:.0f} | "
                     + " | ".join(cells_) + " |")
    total = sum(sum(r["cpu_seconds"].values()) for r in results)
    lines += ["", f"Total CPU time of the cells: {total / 60:.1f} CPU-minutes "
              "(the cells' own processes; RLlib's remote env runners, if any, not included).", ""]
    return "\n".join(lines)


def plot_curves(cfg: dict[str, Any], results: list[dict[str, Any]],
                out: pathlib.Path) -> list[pathlib.Path]:
    """``curve_<variant>.png`` per variant: one panel per opponent, points per deal against
    the field over training samples, one line per algorithm (mean over seeds), the band its
    95% interval (t over seeds; the duplicate interval with one seed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    opps = cfg["eval"]["opponents"]
    for variant in cfg["variants"]:
        fig, axes = plt.subplots(1, len(opps), figsize=(5.5 * len(opps), 4), squeeze=False)
        for ax, opp in zip(axes[0], opps):
            for algo in cfg["algorithms"]:
                rs = [r for r in results if r["variant"] == variant and r["algorithm"] == algo]
                if not rs:
                    continue
                n = min(len(r["curve"]) for r in rs)
                xs, ys, lo, hi = [], [], [], []
                for i in range(n):
                    pts = [r["curve"][i]["vs"][opp] for r in rs]
                    xs.append(sum(r["curve"][i]["steps"] for r in rs) / len(rs))
                    if len(rs) == 1:
                        m = pts[0]["points"]
                        a, b = pts[0]["points_ci"]
                    else:
                        m, a, b = mean_ci([p["points"] for p in pts])
                    ys.append(m)
                    lo.append(a)
                    hi.append(b)
                (line,) = ax.plot(xs, ys, marker="o", label=algo)
                ax.fill_between(xs, lo, hi, alpha=0.2, color=line.get_color())
            ax.axhline(0.0, color="grey", linewidth=0.8)
            ax.set_title(f"{variant} vs {opp}")
            ax.set_xlabel("training samples")
            ax.set_ylabel("points per deal minus the field (lower is better)")
            ax.legend(fontsize=8)
        fig.tight_layout()
        path = out / f"curve_{variant}.png"
        fig.savefig(path, dpi=80)
        plt.close(fig)
        paths.append(path)
    return paths


def write_outputs(cfg: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    out = pathlib.Path(cfg["out"])
    agg = aggregate(cfg, results)
    (out / "results.md").write_text(results_markdown(cfg, results, agg))
    plots = plot_curves(cfg, results, out)
    return {"config": cfg, "checkpoints": checkpoints(cfg), "aggregate": agg, "cells": results,
            "plots": [p.name for p in plots],
            "cpu_minutes": sum(sum(r["cpu_seconds"].values()) for r in results) / 60}


def main(argv: list[str] | None = None) -> int:
    try:
        cfg = resolve_config(argv)
        run(cfg)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
