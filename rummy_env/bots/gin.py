"""A rule-based baseline for Gin Rummy that sees only its seat's view.

:class:`GinGreedyBot` reads nothing but a :class:`~rummy_env.bots.base.SeatView`: its observation
pieces (``hand``, ``discard_top``, ``phase``, ``upcard_refused``, ``counts``) and its legal action
ids, decoded into typed actions with ``view.action_layout.decode``. It never sees the game
state, the other hand or the stock. It uses the pure deadwood solver of
:mod:`rummy_env.gin.melds` on its own cards.

Strategy (deterministic):

* **Upcard and draw** (GR-3, GR-4): take the top discard when, after the best discard that
  follows, the hand's deadwood is lower than now; otherwise draw from the stock (or pass the
  first upcard).
* **Discard**: the card that leaves the least deadwood; ties go to the highest card (it costs
  most if the opponent knocks), then the highest id.
* **Knock** (GR-5) as soon as allowed, with the discard that leaves the least deadwood; but with
  ``gin_hold`` > 0, a knock that would leave 1..``gin_hold`` deadwood while the stock still
  holds more than ``gin_stock`` cards is held back to play for gin (default: hold at 1-2
  deadwood with more than 12 stock cards). A knock with no deadwood is gin.
* **Knocker's melds**: the melds of a best arrangement of the cards left, then ``done``.
* **Defender** (GR-6): lays off every card outside its best arrangement that fits a knocker's
  meld (lay-offs chain), lays the melds of its best arrangement, lays off again, then ``done``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from rummy_env.bots.base import SeatView
from rummy_env.gin.melds import CARD_VALUE, MELDS, best_melds, deadwood

_STOCK_AFTER_DEAL = 31


def _mask(piece: np.ndarray) -> int:
    """A 52-long 0/1 observation piece as a card bitmask."""
    m = 0
    for t in np.flatnonzero(piece):
        m |= 1 << int(t)
    return m


class GinGreedyBot:
    """A simple greedy Gin Rummy player, deterministic, seeing only its
    :class:`~rummy_env.bots.base.SeatView` (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, gin_hold: int = 2, gin_stock: int = 12) -> None:
        """:param seed: unused (the bot is deterministic); kept for the Bot protocol.
        :param gin_hold: hold back knocks that would leave at most this much deadwood (0:
            always knock at once).
        :param gin_stock: ... while the stock holds more than this many cards."""
        self.seed = seed
        self.gin_hold = gin_hold
        self.gin_stock = gin_stock

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed

    def act(self, view: SeatView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        decode = view.action_layout.decode
        by_kind: dict[str, list[tuple[Any, int]]] = {}
        for i in view.legal_actions:
            a = decode(i)
            by_kind.setdefault(a.kind, []).append((a, i))
        hand = _mask(view.piece("hand"))
        if "knock" in by_kind or "discard" in by_kind:
            return self._play(view, hand, by_kind)
        if "draw_stock" in by_kind or "pass" in by_kind:
            return self._draw(view, hand, by_kind)
        return self._lay(hand, by_kind)

    # ----------------------------------------------------------------- draw and discard
    def _draw(self, view: SeatView, hand: int, by_kind: dict) -> int:
        if "take_discard" in by_kind:
            top = np.flatnonzero(view.piece("discard_top"))
            if len(top) and self.takes(hand, int(top[0])):
                return by_kind["take_discard"][0][1]
        if "draw_stock" in by_kind:
            return by_kind["draw_stock"][0][1]
        return by_kind["pass"][0][1]

    @staticmethod
    def takes(hand: int, up: int) -> bool:
        """Would the bot take card ``up`` into ``hand`` (a bitmask of 10 cards)? Yes when the
        best discard that follows leaves less deadwood than the hand has now. The draw rule
        on cards alone, shared with the search bot's model of a greedy opponent."""
        with_up = hand | 1 << up
        return min(deadwood(with_up & ~(1 << t)) for t in _cards(hand)) < deadwood(hand)

    def _play(self, view: SeatView, hand: int, by_kind: dict) -> int:
        discards = knocks = 0
        for a, _ in by_kind.get("discard", []):
            discards |= 1 << a.card
        for a, _ in by_kind.get("knock", []):
            knocks |= 1 << a.card
        # the observation gives the stock size / 31 as a float32: rounded back to a count
        stock = round(float(view.piece("counts")[0]) * _STOCK_AFTER_DEAL)
        kind, card = self.play(hand, discards, knocks, stock)
        return next(i for a, i in by_kind[kind] if a.card == card)

    def play(self, hand: int, discards: int, knocks: int, stock: int) -> tuple[str, int]:
        """``("knock" | "discard", card)``: the bot's play from ``hand`` (11 cards) given the
        legal discards and knocks (bitmasks) and the stock size: the knock (or discard) that
        leaves the least deadwood, a knock held back as the class docstring says. The play
        rule on cards alone, shared with the search bot's model of a greedy opponent."""
        after = partial(self.discard_key, hand)  # a C-level call: this is a rollout hot path
        if knocks:
            t = min(_cards(knocks), key=after)
            left = deadwood(hand & ~(1 << t))
            hold = 0 < left <= self.gin_hold and stock > self.gin_stock
            if not hold or not discards:
                return ("knock", t)
        return ("discard", min(_cards(discards), key=after))

    @staticmethod
    def discard_key(hand: int, t: int) -> tuple[int, int, int]:
        """The order of the bot's discards from ``hand``, lowest first: least deadwood left,
        then the highest card out, then the highest id."""
        return (deadwood(hand & ~(1 << t)), -CARD_VALUE[t], -t)

    # ----------------------------------------------------------------- after a knock
    def _lay(self, hand: int, by_kind: dict) -> int:
        best = set(best_melds(hand))
        keep = 0
        for m in best:
            keep |= m
        # Defender: lay off the cards outside the best arrangement first (GR-6).
        for (a, i) in by_kind.get("lay_off", []):
            if not keep >> a.card & 1:
                return i
        for (a, i) in by_kind.get("meld", []):
            if MELDS[a.meld] in best:
                return i
        if "done" in by_kind:
            return by_kind["done"][0][1]
        return max(by_kind["meld"], key=lambda ai: MELDS[ai[0].meld].bit_count())[1]


def _cards(mask: int) -> list[int]:
    return [t for t in range(52) if mask >> t & 1]


__all__ = ["GinGreedyBot"]
