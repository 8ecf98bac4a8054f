"""The actions of Gin Rummy: one named tuple per kind (:mod:`rummy_env.actions` gives the
convention: each equals and hashes like the plain tuple it replaces).

================  ===========================  ==============================================
kind              class, fields                meaning
================  ===========================  ==============================================
``draw_stock``    ``DrawStock()``              draw the top stock card (GR-4)
``take_discard``  ``TakeDiscard()``            take the top discard, or the first upcard
                                               (GR-3, GR-4)
``pass``          ``Pass()``                   pass the first upcard (GR-3)
``discard``       ``Discard(card)``            discard ``card`` (0..51), ending the turn (GR-4)
``knock``         ``Knock(card)``              discard ``card`` face down and knock (GR-5)
``meld``          ``Meld(meld)``               lay meld ``MELDS[meld]`` (a bitmask of
                                               :mod:`rummy_env.gin.melds`; GR-5, GR-6)
``lay_off``       ``LayOff(card, slot)``       the defender lays ``card`` off on the
                                               knocker's meld ``slot`` (0..2, the order they
                                               were laid; GR-6)
``done``          ``Done()``                   finish laying melds: the cards left are
                                               deadwood (GR-5, GR-6)
================  ===========================  ==============================================

The prebuilt instances: ``DRAW_STOCK``, ``TAKE_DISCARD``, ``PASS``, ``DONE``, and the tables
``DISCARD[card]``, ``KNOCK[card]``, ``MELD[meld]``, ``LAY_OFF[card][slot]``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from rummy_env.actions import (
    DISCARD,
    DRAW_STOCK,
    PASS,
    TAKE_DISCARD,
    Discard,
    DrawStock,
    Pass,
    TakeDiscard,
    action_kind,
)
from rummy_env.gin.melds import MELDS

#: Knocker's melds a lay-off may target: 10 cards hold at most 3 melds.
MAX_SLOTS = 3


@action_kind
class Knock(NamedTuple):
    """Discard ``card`` (0..51) face down and knock (GR-5)."""

    kind: Literal["knock"]
    card: int


@action_kind
class Meld(NamedTuple):
    """Lay the meld ``MELDS[meld]`` from hand (GR-5, GR-6)."""

    kind: Literal["meld"]
    meld: int


@action_kind
class LayOff(NamedTuple):
    """Lay ``card`` off on the knocker's meld ``slot``, counted in the order laid (GR-6)."""

    kind: Literal["lay_off"]
    card: int
    slot: int


@action_kind
class Done(NamedTuple):
    """Finish laying melds (GR-5, GR-6)."""

    kind: Literal["done"]


#: Any action of Gin Rummy.
Action = DrawStock | TakeDiscard | Pass | Discard | Knock | Meld | LayOff | Done

DONE = Done("done")
KNOCK = tuple(Knock("knock", t) for t in range(52))
MELD = tuple(Meld("meld", i) for i in range(len(MELDS)))
LAY_OFF = tuple(tuple(LayOff("lay_off", t, k) for k in range(MAX_SLOTS)) for t in range(52))

__all__ = ["DISCARD", "DONE", "DRAW_STOCK", "KNOCK", "LAY_OFF", "MAX_SLOTS", "MELD", "PASS",
           "TAKE_DISCARD", "Action", "Discard", "Done", "DrawStock", "Knock", "LayOff", "Meld",
           "Pass", "TakeDiscard"]
