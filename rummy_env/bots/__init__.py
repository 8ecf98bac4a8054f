"""Baseline bots; each sees only its seat's view (see :mod:`rummy_env.bots.base`)."""

from rummy_env.bots.base import Bot, RandomBot, SeatView, play_episode, seat_view

__all__ = ["Bot", "RandomBot", "SeatView", "play_episode", "seat_view"]
