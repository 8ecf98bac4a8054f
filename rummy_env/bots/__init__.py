"""Baseline bots; each sees only its seat's view (see :mod:`rummy_env.bots.base`).

``make_bot("random" | "greedy", seed)`` builds one by name: :class:`RandomBot` plays uniformly
over its legal actions, :class:`GreedyBot` plays a simple greedy contract-family strategy
(see its docstring).
"""

from __future__ import annotations

from rummy_env.bots.base import Bot, RandomBot, SeatView, play_episode, seat_view
from rummy_env.bots.greedy import GreedyBot

#: Bot names accepted by :func:`make_bot`, and their classes.
BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"`` or ``"greedy"``), seeded; ValueError naming the allowed
    names otherwise."""
    cls = BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; allowed: {', '.join(BOTS)}")
    return cls(seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SeatView", "make_bot", "play_episode",
           "seat_view"]
