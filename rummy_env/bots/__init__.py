"""Baseline bots; each sees only its seat's view (see :mod:`rummy_env.bots.base`).

``make_bot("random" | "greedy", seed)`` builds one by name: :class:`RandomBot` plays uniformly
over its legal actions; :class:`GreedyBot` plays the rule-based strategy of the variant's
family (``GREEDY_BY_FAMILY``; each family's bot documents its strategy), chosen from the
view's public ``family`` field, so one ``"greedy"`` name works for every variant.
"""

from __future__ import annotations

from typing import Any

from rummy_env.bots.base import Bot, RandomBot, SeatView, only_kinds, play_episode, seat_view
from rummy_env.bots.gin import GinGreedyBot
from rummy_env.bots.greedy import ContractGreedyBot
from rummy_env.bots.indian import IndianGreedyBot
from rummy_env.bots.manipulation import ManipulationGreedyBot
from rummy_env.bots.search import SearchBot

#: The greedy bot class of each rules family (``SeatView.family``).
GREEDY_BY_FAMILY: dict[str, Any] = {
    "contract": ContractGreedyBot,
    "gin": GinGreedyBot,
    "indian": IndianGreedyBot,
    "manipulation": ManipulationGreedyBot,
}


class GreedyBot:
    """The greedy baseline of whichever family the view belongs to (see ``GREEDY_BY_FAMILY``).

    The family's bot is built on first use with this bot's seed, so one instance can sit at
    tables of different variants (a bot per family, each keeping its own state).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._bots: dict[str, Bot] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
        for bot in self._bots.values():
            bot.reset(seed)

    def act(self, view: SeatView) -> int:
        bot = self._bots.get(view.family)
        if bot is None:
            cls = GREEDY_BY_FAMILY.get(view.family)
            if cls is None:
                raise ValueError(f"no greedy bot for the {view.family!r} family; families with "
                                 f"one: {', '.join(GREEDY_BY_FAMILY)}")
            bot = self._bots[view.family] = cls(self.seed)
        return bot.act(view)


#: Bot names accepted by :func:`make_bot`, and their classes.
BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"`` or ``"greedy"``) or by the path of a trained policy
    (``"checkpoints/gin_rummy.npz"``, or an sb3-contrib ``.zip``: a
    :class:`~rummy_env.bots.policy.PolicyBot`), seeded; ValueError naming the allowed names
    otherwise."""
    cls = BOTS.get(name) if isinstance(name, str) else None
    if cls is not None:
        return cls(seed)
    if isinstance(name, str) and name.endswith((".npz", ".zip")):
        import os

        if os.path.isfile(name):
            from rummy_env.bots.policy import PolicyBot

            return PolicyBot(name, seed=seed)
        raise ValueError(f"bot {name!r} looks like a policy file, but there is no such file")
    raise ValueError(f"unknown bot {name!r}; allowed: {', '.join(BOTS)}, or the path of a "
                     "policy file (.npz, .zip)")


__all__ = ["BOTS", "GREEDY_BY_FAMILY", "Bot", "ContractGreedyBot", "GreedyBot", "RandomBot",
           "SearchBot", "SeatView", "make_bot", "only_kinds", "play_episode", "seat_view"]
