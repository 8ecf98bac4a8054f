"""The greedy bot of each rules family, and :class:`GreedyBot`, which dispatches to them.

Use the names through :mod:`rummy_env.bots`. They sit in a module of their own so that
:mod:`rummy_env.bots.search` (whose rollouts play the family's greedy bot) and
:mod:`rummy_env.bots.policy` (``BOTS`` and ``make_bot``) can read them without importing the
package back; imports go one way.
"""

from __future__ import annotations

import inspect
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

    ``options`` are keyword arguments of a family's bot (``GreedyBot(endgame_turn=150)``, or
    ``make_bot("greedy(endgame_turn=150)")``; see
    :class:`~rummy_env.bots.greedy.ContractGreedyBot`);
    a name no family's bot takes, or a value its bot refuses, is refused here, and one the family
    at the table does not take is refused when the bot first plays there.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        known = self.option_names()
        for k in options:
            if k not in known:
                raise ValueError(f"greedy has no option {k!r}; options by family: "
                                 + "; ".join(f"{f}: {', '.join(bot_options(c)) or '-'}"
                                             for f, c in GREEDY_BY_FAMILY.items()))
        for cls in GREEDY_BY_FAMILY.values():  # a bad value fails now, not at a later table
            mine = {k: v for k, v in options.items() if k in bot_options(cls)}
            if mine:
                cls(seed, **mine)
        self.seed = seed
        self.options = dict(options)
        self._bots: dict[str, Bot] = {}

    @staticmethod
    def option_names() -> set[str]:
        """Every option some family's greedy bot takes."""
        return {k for cls in GREEDY_BY_FAMILY.values() for k in bot_options(cls)}

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
            extra = sorted(set(self.options) - set(bot_options(cls)))
            if extra:
                raise ValueError(f"greedy option(s) {', '.join(extra)} do not apply to the "
                                 f"{view.family!r} family (its options: "
                                 f"{', '.join(bot_options(cls)) or 'none'})")
            bot = self._bots[view.family] = cls(self.seed, **self.options)
        return bot.act(view)


def bot_options(cls: Any) -> list[str]:
    """The keyword options of a bot class: its constructor's parameters but ``seed``."""
    params = inspect.signature(cls.__init__).parameters
    return [k for k, p in params.items() if k not in ("self", "seed")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


__all__ = ["GREEDY_BY_FAMILY", "GreedyBot", "bot_options"]
