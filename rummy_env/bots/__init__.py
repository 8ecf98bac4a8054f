"""Baseline bots; each sees only its seat's view (see :mod:`rummy_env.bots.base`).

``make_bot("random" | "greedy", seed)`` builds one by name: :class:`RandomBot` plays uniformly
over its legal actions; :class:`GreedyBot` plays the rule-based strategy of the variant's
family (``GREEDY_BY_FAMILY``; each family's bot documents its strategy), chosen from the
view's public ``family`` field, so one ``"greedy"`` name works for every variant.
"""

from __future__ import annotations

from rummy_env.bots.base import (
    Bot,
    RandomBot,
    SeatView,
    live_turns,
    only_kinds,
    play_episode,
    seat_view,
)
from rummy_env.bots.family import GREEDY_BY_FAMILY, GreedyBot
from rummy_env.bots.gin import GinGreedyBot as GinGreedyBot
from rummy_env.bots.greedy import ContractGreedyBot
from rummy_env.bots.indian import IndianGreedyBot as IndianGreedyBot
from rummy_env.bots.manipulation import ManipulationGreedyBot as ManipulationGreedyBot

# make_bot and BOTS sit with PolicyBot, which needs them for a header's delegate and prior bots
# (and which make_bot builds for a policy path); re-exported here, their public home.
from rummy_env.bots.policy import BOTS, make_bot
from rummy_env.bots.search import SearchBot

__all__ = ["BOTS", "GREEDY_BY_FAMILY", "Bot", "ContractGreedyBot", "GreedyBot", "RandomBot",
           "SearchBot", "SeatView", "live_turns", "make_bot", "only_kinds", "play_episode",
           "seat_view"]
