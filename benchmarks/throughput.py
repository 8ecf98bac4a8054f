"""Throughput of every variant under uniform random masked play.

For each variant (at ``--players``, or the variant's own count where that is not allowed):

* ``aec/s``: AEC steps per second through the environment users get (``rummy_env.make``):
  ``agent_iter()``, ``last()`` (observation and mask built every step) and ``step()``, a uniform
  random choice among the legal actions (``numpy`` generator), one deal per episode at a random
  deal number, resets included.
* ``raw/s``: engine steps per second with no PettingZoo layer: the state's own
  ``legal_actions()`` and ``apply()``, no observation, no mask; new deals from the family's
  ``_new_state`` hook, included in the time.
* ``reset us``: microseconds per ``env.reset(seed=...)``.
* ``KB/env``: memory held by one environment instance after a reset (``tracemalloc``: the
  growth of traced memory over ``--instances`` live instances, divided by their number).
* ``steps/ep``: AEC steps per episode in the ``aec/s`` runs.
* ``late/early``: how the cost per step grows over a long game: whole games
  (``episode="game"``) are played through the AEC API with each step timed; the mean time of a
  step in the last quarter of each game's steps over the mean in its first quarter (1.0: no
  growth).

* ``x OS gin`` (with ``--reference``): the variant's AEC steps/s over OpenSpiel's C++
  ``gin_rummy`` under the same random masked play (``observation_tensor`` and
  ``legal_actions_mask`` each decision; ``benchmarks/compare.py``), measured in this process
  right after each ``aec/s`` run, the median of the per-round ratios; ``target x``: issue 6's
  target for the variant over OpenSpiel's figure on these machines (19,700 steps/s), so the
  two columns compare on any machine and under any load. Needs the ``bench`` extra.

Every figure is the median of ``--repeats`` runs (runs of one variant alternate between the
measures). Machines here are shared and noisy: compare medians and ratios, never single runs;
``--clock cpu`` times this process's CPU time instead of wall time, which other work on a busy
machine disturbs less.

    python benchmarks/throughput.py                       # every variant at 4 players
    python benchmarks/throughput.py --variants indian_rummy --players 2 4 6 --seconds 5
    python benchmarks/throughput.py --seconds 0.02 --repeats 1 --instances 2 --max-turns 40
                                                          # a smoke run (the CI test)
    python benchmarks/throughput.py --clock cpu --reference   # with the OpenSpiel calibration
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Run from a checkout without installing: the package is the parent of this directory.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import rummy_env  # noqa: E402

#: Steps after which a raw-engine deal is abandoned (random play can cycle for long).
RAW_STEP_CAP = 5000

#: OpenSpiel gin_rummy with observation and mask, measured on these machines (issue 6).
OPENSPIEL_GIN_STEPS_PER_S = 19_700.0
#: Issue 6's AEC steps/s targets (gin: 1.5x OpenSpiel with observations); others: 10,000.
TARGETS = {"contract_rummy": 15_000.0, "indian_rummy": 25_000.0,
           "manipulation_rummy": 3_000.0, "gin_rummy": 1.5 * OPENSPIEL_GIN_STEPS_PER_S}
DEFAULT_TARGET = 10_000.0

#: The clock of every measure: wall time (what a user waits) or, with ``--clock cpu``, this
#: process's CPU time, steadier on a shared machine where other work steals the cores.
clock = time.perf_counter


@dataclass
class Result:
    """Median figures of one variant at one player count (see the module docstring)."""

    variant: str
    players: int
    aec_steps_per_s: float
    raw_steps_per_s: float
    reset_us: float
    kb_per_env: float
    steps_per_episode: float
    late_over_early: float
    reference_ratio: float | None = None  # aec/s over OpenSpiel gin's (``--reference``)

    @property
    def target_ratio(self) -> float:
        """Issue 6's target for this variant over OpenSpiel gin's figure on these machines."""
        return TARGETS.get(self.variant, DEFAULT_TARGET) / OPENSPIEL_GIN_STEPS_PER_S


def players_for(name: str, wanted: int) -> int:
    """``wanted`` if the variant allows it, else the variant's default player count."""
    env = rummy_env.make(name)
    rules = env.rules
    return wanted if rules.min_players <= wanted <= rules.max_players else env.num_players


def aec_rate(name: str, players: int, seconds: float, seed: int,
             max_turns: int | None = None) -> tuple[float, int, int]:
    """Random masked play through the AEC API for about ``seconds`` (an episode under way
    when time is up is cut short): (steps/s, steps of the finished episodes, finished
    episodes)."""
    env = rummy_env.make(name, num_players=players, deal="random", max_turns=max_turns)
    rng = np.random.default_rng(seed)
    steps = episodes = finished_steps = 0
    ep_seed = seed
    start = clock()
    deadline = start + seconds
    cut = False
    while not cut:
        env.reset(seed=ep_seed)
        ep_seed += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
            if n % 16 == 0 and clock() >= deadline:
                cut = True
                break
        steps += n
        if not cut:
            episodes += 1
            finished_steps += n
            cut = clock() >= deadline
    if not episodes:  # not one episode finished in time: its steps so far stand for it
        finished_steps, episodes = steps, 1
    return steps / (clock() - start), finished_steps, episodes


def raw_rate(name: str, players: int, seconds: float, seed: int,
             max_turns: int | None = None) -> float:
    """Random play on the engine state alone (``legal_actions``/``apply``) for about
    ``seconds``: steps/s, new deals included. A deal is abandoned after ``RAW_STEP_CAP``
    steps (or ``4 * max_turns`` when given)."""
    env = rummy_env.make(name, num_players=players)
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    num_deals = env.rules.num_deals
    cap = RAW_STEP_CAP if max_turns is None else 4 * max_turns
    steps = 0
    start = clock()
    deadline = start + seconds
    while True:
        st = env._new_state(pick.randrange(num_deals) + 1, rng)  # the family hook
        for i in range(1, cap + 1):
            if st.is_deal_over:
                break
            legal = st.legal_actions()
            st.apply(legal[pick.randrange(len(legal))], rng)
            steps += 1
            if i % 16 == 0 and clock() >= deadline:
                break
        if clock() >= deadline:
            break
    return steps / (clock() - start)


def reset_us(name: str, players: int, seconds: float, seed: int) -> float:
    """Microseconds per ``env.reset(seed=...)`` (a new seed each time)."""
    env = rummy_env.make(name, num_players=players, deal="random")
    n = 0
    start = clock()
    deadline = start + seconds
    while True:
        env.reset(seed=seed + n)
        n += 1
        if n % 16 == 0 and clock() >= deadline:
            break
    return (clock() - start) / n * 1e6


def kb_per_env(name: str, players: int, instances: int, seed: int) -> float:
    """Traced memory held per live environment instance after a reset, in KB."""
    rummy_env.make(name, num_players=players).reset(seed=seed)  # imports and caches first
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        envs = []
        for i in range(instances):
            env = rummy_env.make(name, num_players=players)
            env.reset(seed=seed + i)
            env.observe(env.agent_selection)
            envs.append(env)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / instances / 1024


def growth(name: str, players: int, seconds: float, seed: int,
           max_turns: int | None = None) -> float:
    """Whole games through the AEC API, each step timed: the mean step time of the last
    quarter of each game's steps over that of its first quarter. ``max_turns`` cuts the games
    short (the environment's turn cap; None: its default); so does the time limit, once a
    game has 4 steps or more to split."""
    env = rummy_env.make(name, num_players=players, episode="game", max_turns=max_turns)
    rng = np.random.default_rng(seed)
    early = late = 0.0
    n_early = 0
    game_seed = seed
    deadline = clock() + seconds
    while True:
        env.reset(seed=game_seed)
        game_seed += 1
        times: list[float] = []
        for _agent in env.agent_iter():
            t0 = clock()
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            t1 = clock()
            times.append(t1 - t0)
            if t1 >= deadline and len(times) >= 4:
                break
        q = len(times) // 4
        if q:
            early += sum(times[:q])
            late += sum(times[-q:])
            n_early += q
        if clock() >= deadline and n_early:
            break
    return late / early if early > 0 else 1.0


def _open_spiel_runner():
    """compare.py's OpenSpiel gin worker, or None without pyspiel (the ``bench`` extra)."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare.py")
    spec = importlib.util.spec_from_file_location("bench_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod._run_open_spiel


def reference_rate(runner, seconds: float, seed: int) -> float:
    """OpenSpiel gin_rummy steps/s on this module's clock."""
    steps, _, elapsed = runner(seconds, seed, clock)
    return steps / elapsed


def measure(name: str, players: int, seconds: float, repeats: int, instances: int,
            max_turns: int | None = None, reference=None) -> Result:
    """Medians over ``repeats`` rounds of every measure of one variant; with a ``reference``
    runner, also the median ratio of each round's AEC rate to OpenSpiel gin's right after."""
    aec, raw, reset, mem, per_ep, grow, ratio = [], [], [], [], [], [], []
    for r in range(repeats):
        seed = 1000 * r
        rate, steps, episodes = aec_rate(name, players, seconds, seed, max_turns)
        aec.append(rate)
        if reference is not None:
            ratio.append(rate / reference_rate(reference, seconds, seed))
        per_ep.append(steps / max(1, episodes))
        raw.append(raw_rate(name, players, seconds, seed, max_turns))
        reset.append(reset_us(name, players, seconds / 4, seed))
        mem.append(kb_per_env(name, players, instances, seed))
        grow.append(growth(name, players, seconds, seed, max_turns))
    med = statistics.median
    return Result(name, players, med(aec), med(raw), med(reset), med(mem), med(per_ep),
                  med(grow), med(ratio) if ratio else None)


HEADER = (f"{'variant':28s} {'players':>7s} {'aec/s':>9s} {'raw/s':>9s} {'reset us':>9s} "
          f"{'KB/env':>8s} {'steps/ep':>9s} {'late/early':>10s}")


REFERENCE_HEADER = f" {'x OS gin':>9s} {'target x':>9s}"


def row(r: Result) -> str:
    text = (f"{r.variant:28s} {r.players:7d} {r.aec_steps_per_s:9,.0f} "
            f"{r.raw_steps_per_s:9,.0f} {r.reset_us:9,.0f} {r.kb_per_env:8,.0f} "
            f"{r.steps_per_episode:9,.0f} {r.late_over_early:10.2f}")
    if r.reference_ratio is not None:
        text += f" {r.reference_ratio:9.2f} {r.target_ratio:9.2f}"
    return text


def main(argv: Sequence[str] | None = None) -> list[Result]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="*", default=list(rummy_env.VARIANTS))
    ap.add_argument("--players", nargs="*", type=int, default=[4])
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="length of one run of each measure (reset: a quarter of it)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--instances", type=int, default=20,
                    help="live instances over which memory per environment is measured")
    ap.add_argument("--max-turns", type=int, default=None,
                    help="turn cap of every episode (default: the environment's), for quick "
                         "runs")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall time, or this process's CPU time (steadier on a busy machine)")
    ap.add_argument("--reference", action="store_true",
                    help="also run OpenSpiel gin_rummy after each AEC run and report the "
                         "ratio (needs the bench extra)")
    args = ap.parse_args(argv)
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    unknown = [v for v in args.variants if v not in rummy_env.VARIANTS]
    if unknown:
        ap.error(f"unknown variant(s) {', '.join(unknown)}; allowed: "
                 + ", ".join(rummy_env.VARIANTS))
    reference = _open_spiel_runner() if args.reference else None
    if args.reference and reference is None:
        print("--reference: pyspiel is not installed (pip install -e '.[bench]'); "
              "measuring without it", flush=True)
    print(HEADER + (REFERENCE_HEADER if reference else ""), flush=True)
    results = []
    for name in args.variants:
        for n in dict.fromkeys(players_for(name, p) for p in args.players):
            res = measure(name, n, args.seconds, args.repeats, args.instances, args.max_turns,
                          reference)
            results.append(res)
            print(row(res), flush=True)
    return results


if __name__ == "__main__":
    main()
