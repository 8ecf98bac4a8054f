"""The Bot protocol: a bot sees only what its seat may see.

A :class:`SeatView` holds one seat's observation (the same array an RL agent gets), its legal
action ids, and the public layouts that give those numbers meaning (action texts and typed
actions, observation pieces). It never holds the game state, so a bot cannot read other hands
or the stock order (RLCard's and pgx's leaks, STYLE-ANCHORS section 3 and 4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class SeatView:
    """What one seat may know when it acts."""

    seat: int
    observation: np.ndarray
    legal_actions: tuple[int, ...]
    action_layout: Any  # rummy_env.codec.ActionLayout (decode ids, texts)
    obs_layout: Any  # rummy_env.obs.ObsLayout (piece slices)
    #: The rules family of the variant ("contract", "indian", "gin", "manipulation"): public,
    #: and what :class:`~rummy_env.bots.GreedyBot` dispatches on.
    family: str = ""
    #: The seat's information for search bots, computed on call: the public record and the
    #: seat's own hand, nothing hidden (:func:`rummy_env.worlds.information`); None when the
    #: view was not built from an env of this package.
    information: Callable[[], Any] | None = None

    def piece(self, name: str) -> np.ndarray:
        """A named piece of the observation, reshaped."""
        p = self.obs_layout.pieces[name]
        return self.observation[p.start:p.stop].reshape(p.shape)


def seat_view(env: Any, agent: str) -> SeatView:
    """The view of ``agent`` in an AEC env of this package, built from ``observe`` only."""
    obs = env.observe(agent)
    legal = tuple(int(i) for i in np.flatnonzero(obs["action_mask"]))
    info = getattr(env, "information", None)
    return SeatView(env.possible_agents.index(agent), obs["observation"], legal,
                    env.layout, env.encoder.layout, env.family,
                    None if info is None else partial(info, agent))


def only_kinds(view: SeatView, kinds: frozenset[str] | set[str]) -> bool:
    """True if ``view`` has legal actions and every one is of a kind in ``kinds`` (the first
    field of the decoded action: ``"meld"``, ``"lay_off"``, ``"done"`` ...). A policy that
    delegates those decisions to a bot asks this (``delegate`` in a policy header, and
    :class:`~rummy_env.wrappers.SingleSeatEnv`'s ``delegate``)."""
    if not view.legal_actions or not kinds:
        return False
    decode = view.action_layout.decode
    return all(decode(i).kind in kinds for i in view.legal_actions)


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(view) -> action id``; ``reset`` is called at each episode start."""

    name: str

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, view: SeatView) -> int: ...


class RandomBot:
    """Uniform over the legal actions (its own seeded generator)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        return int(view.legal_actions[self.rng.integers(len(view.legal_actions))])


def live_turns(env: Any) -> Iterator[tuple[str, SeatView]]:
    """``env.agent_iter()`` with the finished agents' ``step(None)`` done: ``(agent, view)``
    for every decision of the current episode; the caller steps the env (and may look at the
    position first)."""
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        yield agent, seat_view(env, agent)


def play_episode(env: Any, bots: Sequence[Bot], seed: int | None = None) -> dict[str, float]:
    """Play one episode of ``env`` with one bot per seat; returns each agent's total reward."""
    env.reset(seed=seed)
    for i, b in enumerate(bots):
        b.reset(None if seed is None else seed * 1000 + i)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(bots[env.possible_agents.index(agent)].act(seat_view(env, agent)))
    return totals
