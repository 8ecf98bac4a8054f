"""Game records: every action of an episode in a JSON file, and exact replays of them.

A record is what it takes to play an episode again exactly, plus what a person wants to read:

* ``variant`` and ``env_id`` (the versioned module, ``contract_rummy_v1``: a behaviour change
  bumps ``_vN``, and a replay refuses a record of another version), the ``options`` the env was
  made with (env options and rule overrides, as ``rummy_env.make`` takes them);
* how the episode started: the ``seed`` of ``reset`` (a reset without one is given a fresh
  seed drawn here, so every record is seeded), or, for a reset that continued the env's
  generator, that generator's state (``rng_state``); ``reset_options`` (a starting
  ``scenario``); ``start``, the starting position (``get_state()``);
* every action: ``actions`` (ids), ``seats`` (who played each), ``texts`` (``discard QS``);
* ``rewards`` (``[step, [reward of each seat]]`` for the steps that gave any), ``returns`` (each
  seat's total), ``digests`` (a short hash of the position after every action, unless turned
  off) and ``end`` (the hash of the final position), which the replay checks;
* ``players`` (who sat where: bot names, a checkpoint, ``human``) and free ``meta``.

:class:`RecordGame` wraps an AEC env of this package (a PettingZoo ``BaseWrapper``: everything
else passes through) and keeps the record of the current episode in ``.record``; with
``directory`` it writes one file per finished episode. :func:`replay` plays a record again and
yields the env before every action (the animation and score plots of ``examples/replay.py``
use it); :func:`check_replay` plays it through and raises :class:`ReplayError` where a position
differs from the recorded one.

    env = RecordGame(rummy_env.make("gin_rummy"))
    env.reset(seed=3)
    ... play ...
    env.record.save("game.json")
    final_env = check_replay(load_record("game.json"))
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import pathlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pettingzoo.utils.wrappers import BaseWrapper

import rummy_env
from rummy_env.codec import as_action_id
from rummy_env.errors import RummyError

#: The format tag of a record file.
FORMAT = "rummy_env.record/1"
#: Env options a record keeps (besides the rule overrides); ``render_mode`` is the viewer's.
ENV_OPTIONS = ("num_players", "episode", "max_turns", "illegal_action", "illegal_reward",
               "reward_scale", "deal")


class ReplayError(RummyError):
    """A record that cannot be replayed here, or a replay that left the recorded game."""


# --------------------------------------------------------------------------- plain data
def _encode(v: Any) -> Any:
    """A rule value as JSON data: tuples as lists, a rules dataclass (``Contract``) as a dict
    naming its class."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        cls = type(v)
        return {"__class__": f"{cls.__module__}.{cls.__qualname__}",
                **{f.name: _encode(getattr(v, f.name)) for f in dataclasses.fields(v)}}
    if isinstance(v, (tuple, list)):
        return [_encode(x) for x in v]
    return v


def _decode(v: Any) -> Any:
    """:func:`_encode` undone: lists as tuples, rules dataclasses rebuilt (only this package's)."""
    if isinstance(v, list):
        return tuple(_decode(x) for x in v)
    if isinstance(v, dict) and "__class__" in v:
        module, _, name = v["__class__"].rpartition(".")
        if not module.startswith("rummy_env."):
            raise ReplayError(f"a record may only name classes of rummy_env, not {module!r}")
        cls = getattr(importlib.import_module(module), name)
        return cls(**{k: _decode(x) for k, x in v.items() if k != "__class__"})
    return v


def env_options(env: Any) -> dict[str, Any]:
    """The ``rummy_env.make`` options that rebuild ``env`` (its env options and every rule
    field that differs from the variant's preset), as JSON data."""
    raw = env.unwrapped
    opts: dict[str, Any] = {
        "num_players": raw.num_players, "episode": raw.episode, "max_turns": raw.max_turns,
        "illegal_action": raw.illegal_action, "illegal_reward": raw.illegal_reward,
        "reward_scale": raw.reward_scale, "deal": raw.deal_option,
    }
    preset = raw.preset
    for name in preset.option_names():
        value = getattr(raw.rules, name)
        if value != getattr(preset, name):
            opts[name] = _encode(value)
    return opts


def variant_of(env: Any) -> str:
    """The variant name of an env of this package (``metadata["name"]`` less its ``_vN``)."""
    name = env.unwrapped.metadata["name"]
    base = name.rsplit("_v", 1)[0]
    if base not in rummy_env.VARIANTS:
        raise ReplayError(f"{name!r} is not an environment of rummy_env")
    return base


def digest(env: Any) -> str:
    """A short hash of ``env``'s whole position (``get_state()``, generator excluded)."""
    text = json.dumps(env.unwrapped.get_state(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


@dataclass
class GameRecord:
    """One episode of one variant, as plain data; see the module docstring for each field."""

    variant: str
    env_id: str
    options: dict[str, Any]
    seed: int | None = None
    rng_state: dict[str, Any] | None = None
    reset_options: dict[str, Any] | None = None
    start: dict[str, Any] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    rewards: list[list[Any]] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    digests: list[str] | None = field(default_factory=list)
    end: str = ""
    complete: bool = False
    players: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    format: str = FORMAT

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        """The record as JSON text, one top-level field per line."""
        d = self.to_dict()
        return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}"
                                  for k, v in d.items()) + "\n}\n"

    def save(self, path: str | pathlib.Path) -> pathlib.Path:
        """Write the record to ``path`` (folders made as needed); returns the path."""
        p = pathlib.Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_json())
        return p

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            got = d.get("format") if isinstance(d, dict) else type(d).__name__
            raise ReplayError(f"not a game record of format {FORMAT!r} (format: {got!r})")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ReplayError(f"unknown record fields {unknown}; allowed: {sorted(names)}")
        return cls(**d)

    @property
    def steps(self) -> int:
        return len(self.actions)


def load_record(path: str | pathlib.Path) -> GameRecord:
    """A record read from a JSON file (ReplayError if it is not one)."""
    try:
        data = json.loads(pathlib.Path(path).read_text())
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}: not JSON ({e})") from None
    return GameRecord.from_dict(data)


# --------------------------------------------------------------------------- recording
class RecordGame(BaseWrapper):
    """Records every episode of an AEC env of this package (see the module docstring).

    :param env: the env (``rummy_env.make(...)``, wrapped or not).
    :param directory: where to write each finished episode (``game_00000.json`` ...); None:
        keep it in ``.record`` only (``.record.save(path)`` writes it).
    :param digests: hash the position after every action (the replay checks each; about as
        costly as a bot's step); False keeps only the final position's hash.
    :param players: who sits in each seat (labels kept in the record), or None.
    """

    def __init__(self, env: Any, directory: str | pathlib.Path | None = None,
                 digests: bool = True, players: list[str] | None = None) -> None:
        super().__init__(env)
        self.directory = pathlib.Path(directory) if directory is not None else None
        self.digests = bool(digests)
        self.players = players
        self.record: GameRecord | None = None
        self.saved: list[pathlib.Path] = []
        self._episodes = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        raw = self.env.unwrapped
        rng_state = None
        if seed is None:
            if raw._has_reset:  # the reset continues the env's generator: keep its state
                rng_state = raw.np_random.bit_generator.state
            else:  # fresh entropy: draw the seed here, so that the record has one
                seed = secrets.randbits(63)
        self.env.reset(seed=seed, options=options)
        self.record = GameRecord(
            variant=variant_of(raw), env_id=raw.metadata["name"], options=env_options(raw),
            seed=seed, rng_state=rng_state,
            reset_options=json.loads(json.dumps(options)) if options else None,
            start=raw.get_state(), digests=[] if self.digests else None,
            returns=[0.0] * raw.num_players,
            players=list(self.players) if self.players is not None else None)
        self._finish_if_over()

    def step(self, action: Any) -> None:
        raw = self.env.unwrapped
        agent = raw.agent_selection
        live = bool(raw.agents) and not (raw.terminations[agent] or raw.truncations[agent])
        self.env.step(action)
        rec = self.record
        if not live or rec is None:
            return  # a dead agent's None step: not part of the game
        a = as_action_id(action, raw.layout.n)
        rec.actions.append(a)
        rec.seats.append(raw.agent_name_mapping[agent])
        rec.texts.append(raw.action_to_string(a))
        rewards = [float(raw.rewards.get(x, 0.0)) for x in raw.possible_agents]
        if any(rewards):
            rec.rewards.append([len(rec.actions) - 1, rewards])
            rec.returns = [t + r for t, r in zip(rec.returns, rewards)]
        if rec.digests is not None:
            rec.digests.append(digest(raw))
        self._finish_if_over()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.env.last(observe)

    def _finish_if_over(self) -> None:
        raw = self.env.unwrapped
        rec = self.record
        if rec is None or rec.complete:
            return
        if all(raw.terminations[a] or raw.truncations[a] for a in raw.agents):
            rec.end = digest(raw)
            rec.complete = True
            if self.directory is not None:
                self.saved.append(rec.save(self.directory / f"game_{self._episodes:05d}.json"))
            self._episodes += 1


# --------------------------------------------------------------------------- replaying
def start_env(record: GameRecord, **make_options: Any) -> Any:
    """A new env of the record's variant and options, reset to its starting position
    (``make_options``, e.g. ``render_mode``, are added)."""
    if record.variant not in rummy_env.VARIANTS:
        raise ReplayError(f"unknown variant {record.variant!r}; this package has: "
                          + ", ".join(rummy_env.VARIANTS))
    opts = {k: (v if k in ENV_OPTIONS else _decode(v)) for k, v in record.options.items()}
    env = rummy_env.make(record.variant, **opts, **make_options)
    if env.metadata["name"] != record.env_id:
        raise ReplayError(f"the record was made with {record.env_id}, this package has "
                          f"{env.metadata['name']}: its rules may have changed (see its "
                          "Version History)")
    if record.rng_state is not None:
        env.reset(seed=0)  # then the generator the original reset continued
        env.np_random = np.random.Generator(np.random.PCG64())
        env.np_random.bit_generator.state = record.rng_state
    env.reset(seed=record.seed, options=record.reset_options)
    if record.start and env.get_state() != record.start:
        raise ReplayError("the starting position differs from the record's")
    return env


def replay(record: GameRecord, check: bool = True, **make_options: Any,
           ) -> Iterator[tuple[int, Any]]:
    """Play ``record`` again: yields ``(k, env)`` with ``env`` at the position before action
    ``k`` (0-based), then ``(steps, env)`` at the final position. With ``check`` every
    position is compared with the record (ReplayError where one differs)."""
    env = start_env(record, **make_options)
    n = len(record.actions)
    if not (len(record.seats) == n and len(record.texts) in (0, n)
            and (record.digests is None or len(record.digests) in (0, n))):
        raise ReplayError("the record's actions, seats, texts and digests differ in length")
    for k, a in enumerate(record.actions):
        yield k, env
        seat = env.agent_name_mapping[env.agent_selection]
        if check and seat != record.seats[k]:
            raise ReplayError(f"action {k}: player_{seat} is to act, the record has "
                              f"player_{record.seats[k]}")
        env.step(int(a))
        if check and record.digests and digest(env) != record.digests[k]:
            raise ReplayError(f"action {k} ({record.texts[k] if record.texts else a}): the "
                              "position differs from the recorded one")
    if check and record.end and digest(env) != record.end:
        raise ReplayError("the final position differs from the recorded one")
    yield n, env


def check_replay(record: GameRecord, **make_options: Any) -> Any:
    """Replay ``record`` through, checking every position; returns the env at the end."""
    env = None
    for _, at in replay(record, check=True, **make_options):
        env = at
    return env


__all__ = ["FORMAT", "GameRecord", "RecordGame", "ReplayError", "check_replay", "digest",
           "env_options", "load_record", "replay", "start_env", "variant_of"]
