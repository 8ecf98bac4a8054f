"""The actions of Indian Rummy (Paplu): one named tuple per kind (:mod:`rummy_env.actions`
gives the convention: each equals and hashes like the plain tuple it replaces).

================  ===========================  ==============================================
kind              class, fields                meaning
================  ===========================  ==============================================
``draw_stock``    ``DrawStock()``              draw the top stock card (IR-5)
``take_discard``  ``TakeDiscard()``            take the top discard (IR-5)
``pack``          ``Pack()``                   pack (drop) instead of drawing (IR-7)
``hand_rummy``    ``HandRummy()``              declare the dealt hand on the first turn,
                                               before drawing (IR-10)
``discard``       ``Discard(card)``            discard a card of type ``card`` (0..52),
                                               ending the turn (IR-5)
``declare``       ``Declare(card)``            discard the 14th card, of type ``card``, and
                                               declare the 13 left (IR-6)
================  ===========================  ==============================================

The prebuilt instances: ``DRAW_STOCK``, ``TAKE_DISCARD``, ``PACK``, ``HAND_RUMMY``, and the
tables ``DISCARD[card]``, ``DECLARE[card]``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from rummy_env.actions import (
    DISCARD,
    DRAW_STOCK,
    TAKE_DISCARD,
    Discard,
    DrawStock,
    TakeDiscard,
    action_kind,
)
from rummy_env.cards import NUM_TYPES


@action_kind
class Pack(NamedTuple):
    """Pack: leave the deal, owing the pack cost (IR-7)."""

    kind: Literal["pack"]


@action_kind
class HandRummy(NamedTuple):
    """Declare the dealt hand, valid as it is, on the first turn (IR-10)."""

    kind: Literal["hand_rummy"]


@action_kind
class Declare(NamedTuple):
    """Discard one card of type ``card`` and declare the 13 cards left (IR-6)."""

    kind: Literal["declare"]
    card: int


#: Any action of Indian Rummy.
Action = DrawStock | TakeDiscard | Pack | HandRummy | Discard | Declare

PACK = Pack("pack")
HAND_RUMMY = HandRummy("hand_rummy")
DECLARE = tuple(Declare("declare", t) for t in range(NUM_TYPES))

__all__ = ["DECLARE", "DISCARD", "DRAW_STOCK", "HAND_RUMMY", "PACK", "TAKE_DISCARD", "Action",
           "Declare", "Discard", "DrawStock", "HandRummy", "Pack", "TakeDiscard"]
