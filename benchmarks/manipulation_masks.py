"""Manipulation Rummy meld masks recorded from seeded random play, and their cost per call.

``record``: plays seeded random 4-player games through ``rummy_env.make`` and keeps every
distinct meld position (``solver.Query``) met, with the pure-Python solver's answers (the
reference): the step options, ``can_complete`` and ``is_valid_table`` of the table. Written as
one compressed ``.npz`` (``tests/data/manipulation_masks.npz`` by default: the recorded masks
``tests/test_manipulation_core.py`` compares the compiled core with).

``time``: the cost of one mask (``step_options``, its memo cleared: every call a real solve)
on the recorded positions, by table size and by whether a joker is to be placed (pending or in
hand): median, p99 and maximum, for the pure-Python solver and for the compiled core, and the
first mask's cost in a fresh process (numba's on-disk cache warm or cold). CPU time of this
process (``time.process_time``), steadier than wall time on a shared machine.

    python benchmarks/manipulation_masks.py record --games 90
    python benchmarks/manipulation_masks.py time                 # both solvers
    python benchmarks/manipulation_masks.py time --only compiled
    python benchmarks/manipulation_masks.py first                # the first mask's cost
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

# Run from a checkout without installing: the package is the parent of this directory.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import rummy_env  # noqa: E402
from rummy_env.manipulation import solver  # noqa: E402

DEFAULT_PATH = os.path.join(ROOT, "tests", "data", "manipulation_masks.npz")
#: Table-size rows of the per-call table.
SIZE_ROWS = ((0, 19), (20, 39), (40, 59), (60, 79), (80, 200))


def positions(games: int, seed: int, players: int = 4) -> list[solver.Query]:
    """The distinct meld positions met in ``games`` seeded random games (one deal each)."""
    rng = np.random.default_rng(seed)
    seen: dict[solver.Query, None] = {}
    for game in range(games):
        env = rummy_env.make("manipulation_rummy", num_players=players)
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            st = env.state_obj
            if st.phase == "meld":
                seen.setdefault(st.query(), None)
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    return list(seen)


def mask_bits(types: tuple[int, ...]) -> int:
    return sum(1 << t for t in types)


def save(path: str, qs: list[solver.Query]) -> None:
    """Write the queries and the pure-Python solver's answers to ``path``."""
    counts = np.array([q.table + q.naturals + q.freeable + q.hand for q in qs], np.int8)
    flags = np.array([(q.pending, int(q.added)) for q in qs], np.int8)
    answers = np.zeros((len(qs), 7), np.int64)
    for i, q in enumerate(qs):
        o = solver.py_step_options(q)
        answers[i] = (mask_bits(o.play), mask_bits(o.joker), mask_bits(o.free_hand),
                      mask_bits(o.free_table), o.finish, solver.py_can_complete(q),
                      solver.py_is_valid_table(q.table))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savez_compressed(path, counts=counts, flags=flags, answers=answers)


def load(path: str = DEFAULT_PATH) -> tuple[list[solver.Query], np.ndarray]:
    """The recorded queries and their answers (columns: play, joker, free_hand, free_table
    bit masks, finish, can_complete, is_valid_table)."""
    data = np.load(path)
    qs = []
    for row, (pending, added) in zip(data["counts"].tolist(), data["flags"].tolist()):
        qs.append(solver.Query(tuple(row[:52]), tuple(row[52:104]), tuple(row[104:156]),
                               tuple(row[156:]), pending, bool(added)))
    return qs, data["answers"]


def joker_to_place(q: solver.Query) -> bool:
    return q.pending + q.hand[52] > 0


def time_masks(qs: list[solver.Query], compiled: bool) -> list[float]:
    """Seconds per ``step_options`` call on each query (memo cleared)."""
    solver.use_compiled(compiled)
    solver.step_options(qs[0])  # load (and compile) the core outside the timing
    out = []
    for q in qs:
        solver.step_options.cache_clear()
        solver.py_step_options.cache_clear()
        solver.py_can_complete.cache_clear()
        t0 = time.process_time()
        solver.step_options(q)
        out.append(time.process_time() - t0)
    return out


def table(qs: list[solver.Query], times: dict[str, list[float]]) -> str:
    """Markdown rows: per size and joker, median / p99 / max per solver (ms)."""
    names = list(times)
    head = "| table cards | joker to place | masks | " + " | ".join(
        f"{n} median / p99 / max (ms)" for n in names) + " |"
    lines = [head, "|" + "---|" * (3 + len(names))]
    for lo, hi in SIZE_ROWS:
        for jk in (False, True):
            idx = [i for i, q in enumerate(qs)
                   if lo <= sum(q.table) <= hi and joker_to_place(q) == jk]
            if not idx:
                continue
            cells = []
            for n in names:
                v = sorted(times[n][i] * 1e3 for i in idx)
                p99 = v[min(len(v) - 1, int(0.99 * len(v)))]
                cells.append(f"{statistics.median(v):.3g} / {p99:.3g} / {v[-1]:.3g}")
            label = f"{lo}-{hi}" if hi < 200 else f"{lo}+"
            lines.append(f"| {label} | {'yes' if jk else 'no'} | {len(idx)} | "
                         + " | ".join(cells) + " |")
    for n in names:
        lines.append(f"\n{n}: mean {statistics.mean(times[n]) * 1e3:.3g} ms, total "
                     f"{sum(times[n]):.1f} s over {len(qs)} masks")
    return "\n".join(lines)


_FIRST = """
import time
t0 = time.perf_counter()
import rummy_env
from rummy_env.manipulation import solver
t1 = time.perf_counter()
env = rummy_env.make("manipulation_rummy", num_players=4)
env.reset(seed=0)
t2 = time.perf_counter()
env.observe(env.agent_selection)
t3 = time.perf_counter()
print(f"{t1 - t0:.3f} {t3 - t2:.3f} {int(solver.compiled_active())}")
"""


def first_mask(cold: bool) -> tuple[float, float, bool]:
    """In a fresh process: ``import rummy_env`` seconds, the first mask's seconds (reset
    included), and whether the core answered; ``cold``: numba's cache in an empty directory
    (a machine's first run, which compiles)."""
    env = dict(os.environ)
    if cold:
        import tempfile

        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="rummy_numba_")
    out = subprocess.run([sys.executable, "-c", _FIRST], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), out[2] == "1"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="record masks from seeded random play")
    rec.add_argument("--games", type=int, default=90)
    rec.add_argument("--seed", type=int, default=1000)
    rec.add_argument("--out", default=DEFAULT_PATH)
    tm = sub.add_parser("time", help="per-call cost on the recorded masks")
    tm.add_argument("--path", default=DEFAULT_PATH)
    tm.add_argument("--only", choices=("python", "compiled"))
    tm.add_argument("--limit", type=int, default=0, help="first N masks only (0: all)")
    sub.add_parser("first", help="import and first-mask cost in fresh processes")
    args = ap.parse_args()
    if args.cmd == "record":
        t0 = time.time()
        qs = positions(args.games, args.seed)
        save(args.out, qs)
        print(f"{len(qs)} masks from {args.games} games in {time.time() - t0:.0f} s -> "
              f"{args.out}")
    elif args.cmd == "time":
        qs, _ = load(args.path)
        if args.limit:
            qs = qs[:args.limit]
        times = {}
        for name in ("python", "compiled"):
            if args.only in (None, name):
                times[name] = time_masks(qs, name == "compiled")
        print(table(qs, times))
    else:
        for cold in (True, False):
            imp, first, core = first_mask(cold)
            print(f"numba cache {'cold' if cold else 'warm'}: import rummy_env {imp:.2f} s, "
                  f"first mask {first:.2f} s (compiled core: {core})")


if __name__ == "__main__":
    main()
