"""The greedy bot of each rules family, and :class:`GreedyBot`, which dispatches to them.

Use the names through :mod:`rummy_env.bots`. They sit in a module of their own so that
:mod:`rummy_env.bots.search` (whose rollouts play the family's greedy bot) and
:mod:`rummy_env.bots.policy` (``BOTS`` and ``make_bot``) can read them without importing the
package back; imports go one way.
"""

from __future__ import annotations

from typing import Any

from rummy_env.bots.base import Bot, SeatView
from rummy_env.bots.gin import GinGreedyBot
from rummy_env.bots.greedy import ContractGreedyBot
from rummy_env.bots.indian import IndianGreedyBot
from rummy_env.bots.manipulation import ManipulationGreedyBot

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


__all__ = ["GREEDY_BY_FAMILY", "GreedyBot"]
