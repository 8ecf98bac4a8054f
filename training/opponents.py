"""Opponent schedules for training one seat: a fixed bot, a mix, a curriculum, a league.

The ``opponents`` key of a training config takes one of::

    opponents: greedy                                  # a fixed bot (or random, or a policy file)
    opponents: {mix: {greedy: 0.7, random: 0.3}}       # each opponent seat drawn per episode
    opponents: {curriculum: [random, {mix: {greedy: 0.5, random: 0.5}}, greedy],
                promote_at: 0.45}                      # next stage once the evaluated win rate
                                                       # against the current one reaches 0.45
    opponents: {league: {bots: [random, greedy], snapshots: 6, power: 2.0}}
    opponents: selfplay                                # snapshots of the learner only (legacy)

A league's pool holds the baseline bots and past snapshots of the learner (added at every
evaluation); each episode draws each opponent seat from the pool with probability proportional
to ``(1 - w_i) ** power + 0.05``, where ``w_i`` is the learner's last evaluated win rate
against entry ``i`` at a table of that entry alone (prioritised fictitious self-play: the
entries that beat the learner most are met most; the floor keeps every entry in play).

:class:`OpponentSampler` is what the environments receive: a picklable
``factory(seat_index, rng) -> bot`` for :class:`rummy_env.wrappers.SingleSeatEnv`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rummy_env.bots import make_bot

KINDS = ("fixed", "mix", "curriculum", "league", "selfplay")


class OpponentSampler:
    """Draws one bot per opponent seat per episode from weighted entries.

    An entry is a bot name or policy path (a fresh bot is built per draw, so no state is
    shared between seats) or a bot object (used as it is: it must act from its view alone).
    """

    def __init__(self, entries: Sequence[Any], weights: Sequence[float] | None = None) -> None:
        if not entries:
            raise ValueError("an opponent sampler needs at least one entry")
        self.entries = list(entries)
        w = np.ones(len(entries)) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (len(entries),) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights {list(w)} must be one non-negative number per entry, "
                             "not all zero")
        self.p = w / w.sum()

    def __call__(self, seat: int, rng: np.random.Generator) -> Any:
        i = int(rng.choice(len(self.entries), p=self.p)) if len(self.entries) > 1 else 0
        e = self.entries[i]
        return make_bot(e, int(rng.integers(2**31 - 1))) if isinstance(e, str) else e

    def __repr__(self) -> str:
        parts = [f"{label(e)}:{p:.2f}" for e, p in zip(self.entries, self.p)]
        return f"OpponentSampler({', '.join(parts)})"


def label(entry: Any) -> str:
    return entry if isinstance(entry, str) else getattr(entry, "name", type(entry).__name__)


def _stage(spec: Any, where: str) -> OpponentSampler:
    """A fixed bot or a mix as a sampler."""
    if isinstance(spec, str):
        make_bot(spec)  # fail early on a bad name or a missing policy file
        return OpponentSampler([spec])
    if isinstance(spec, dict) and set(spec) == {"mix"} and isinstance(spec["mix"], dict):
        names = list(spec["mix"])
        for n in names:
            make_bot(n)
        try:
            weights = [float(spec["mix"][n]) for n in names]
        except (TypeError, ValueError):
            raise ValueError(f"{where}: mix weights must be numbers, got {spec['mix']!r}")
        return OpponentSampler(names, weights)
    raise ValueError(f"{where}: {spec!r} is neither a bot name, a policy file nor "
                     "{mix: {name: weight, ...}}")


class Schedule:
    """The opponents of one training run and how they change (see the module docstring)."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.stage = 0
        self.snapshots: list[Any] = []
        self.win_rates: dict[int, float] = {}
        if spec == "selfplay":
            self.kind = "selfplay"
        elif isinstance(spec, dict) and "curriculum" in spec:
            unknown = set(spec) - {"curriculum", "promote_at"}
            if unknown:
                raise ValueError(f"opponents.curriculum: unknown keys {sorted(unknown)}")
            stages = spec["curriculum"]
            if not isinstance(stages, list) or not stages:
                raise ValueError("opponents.curriculum must be a non-empty list of stages")
            self.kind = "curriculum"
            self.stages = [_stage(s, f"opponents.curriculum[{i}]") for i, s in enumerate(stages)]
            self.stage_specs = stages
            self.promote_at = float(spec.get("promote_at", 0.5))
        elif spec == "league" or (isinstance(spec, dict) and "league" in spec):
            cfg = {} if spec == "league" else dict(spec["league"] or {})
            unknown = set(cfg) - {"bots", "snapshots", "power"}
            if unknown:
                raise ValueError(f"opponents.league: unknown keys {sorted(unknown)}")
            self.kind = "league"
            self.bots = list(cfg.get("bots", ["random", "greedy"]))
            for b in self.bots:
                make_bot(b)
            self.max_snapshots = int(cfg.get("snapshots", 6))
            self.power = float(cfg.get("power", 2.0))
        elif isinstance(spec, dict) and "mix" in spec:
            self.kind = "mix"
            self.stages = [_stage(spec, "opponents")]
        else:
            self.kind = "fixed"
            self.stages = [_stage(spec, "opponents")]

    # ------------------------------------------------------------------ what the envs get
    def pool(self) -> list[Any]:
        """The league's entries: its bots, then the snapshots."""
        return list(self.bots) + list(self.snapshots)

    def sampler(self) -> OpponentSampler | None:
        """The current sampler (None for self-play, which the env handles itself)."""
        if self.kind == "selfplay":
            return None
        if self.kind == "league":
            pool = self.pool()
            w = [(1.0 - self.win_rates.get(i, 0.5)) ** self.power + 0.05
                 for i in range(len(pool))]
            return OpponentSampler(pool, w)
        return self.stages[self.stage]

    def current(self) -> str:
        """A short text of the current opponents (for logs)."""
        s = self.sampler()
        return "selfplay" if s is None else repr(s)

    # ------------------------------------------------------------------ updates
    def add_snapshot(self, bot: Any) -> bool:
        """A league adds a snapshot of the learner (dropping the oldest); True if it changed."""
        if self.kind != "league":
            return False
        self.snapshots.append(bot)
        del self.snapshots[:-self.max_snapshots]
        # the indices of the snapshots moved: their rates are re-measured by the caller
        self.win_rates = {i: w for i, w in self.win_rates.items() if i < len(self.bots)}
        return True

    def promote(self, win_rate: float) -> bool:
        """A curriculum moves on when the learner's win rate against the stage is high enough;
        True if it moved."""
        if self.kind != "curriculum" or self.stage + 1 >= len(self.stages):
            return False
        if win_rate >= self.promote_at:
            self.stage += 1
            return True
        return False

    def stage_spec(self) -> Any:
        return self.stage_specs[self.stage] if self.kind == "curriculum" else self.spec


__all__ = ["KINDS", "OpponentSampler", "Schedule", "label"]
