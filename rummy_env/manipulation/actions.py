"""The actions of Manipulation Rummy: one named tuple per kind (:mod:`rummy_env.actions` gives
the convention: each equals and hashes like the plain tuple it replaces). Draws are not
actions (MR-2): the engine draws.

================  ===========================  ==============================================
kind              class, fields                meaning
================  ===========================  ==============================================
``play``          ``Play(card)``               play natural card ``card`` (0..51) from hand to
                                               the table: one step of a meld (MR-4)
``joker``         ``PlayJoker(card)``          play a joker standing for natural card
                                               ``card``: the freed one if one waits, else one
                                               from hand (MR-5)
``free_hand``     ``FreeHand(card)``           free the table joker standing for ``card`` with
                                               the real ``card`` from hand (MR-5)
``free_table``    ``FreeTable(card)``          free it with a real ``card`` already on the
                                               table (MR-5)
``finish``        ``Finish()``                 end the meld: the table is valid and a hand
                                               card was added (MR-4)
``decline``       ``Decline()``                do not meld now: draw the next card (MR-2)
``knock``         ``Knock()``                  knock: the deal ends and is scored (MR-7)
``no_knock``      ``NoKnock()``                do not knock; the turn passes
================  ===========================  ==============================================

The prebuilt instances: ``FINISH``, ``DECLINE``, ``KNOCK``, ``NO_KNOCK``, and the tables
``PLAY[card]``, ``PLAY_JOKER[card]``, ``FREE_HAND[card]``, ``FREE_TABLE[card]``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from rummy_env.actions import action_kind
from rummy_env.cards import NUM_NATURAL


@action_kind
class Play(NamedTuple):
    """Play the natural card ``card`` from hand to the table (MR-4)."""

    kind: Literal["play"]
    card: int


@action_kind
class PlayJoker(NamedTuple):
    """Play a joker (the freed one first, MR-5) standing for the natural card ``card``."""

    kind: Literal["joker"]
    card: int


@action_kind
class FreeHand(NamedTuple):
    """Put the real ``card`` from hand in place of the table joker standing for it; the joker
    is freed, to be played again this turn (MR-5)."""

    kind: Literal["free_hand"]
    card: int


@action_kind
class FreeTable(NamedTuple):
    """Free the table joker standing for ``card`` with a real ``card`` on the table (MR-5)."""

    kind: Literal["free_table"]
    card: int


@action_kind
class Finish(NamedTuple):
    """End the meld: the turn ends, or the deal when the hand is empty (MR-4, MR-7)."""

    kind: Literal["finish"]


@action_kind
class Decline(NamedTuple):
    """Decline to meld: the next card is drawn, or the turn ends (MR-2, MR-9)."""

    kind: Literal["decline"]


@action_kind
class Knock(NamedTuple):
    """Knock: the deal ends and is scored (MR-7, MR-8)."""

    kind: Literal["knock"]


@action_kind
class NoKnock(NamedTuple):
    """Do not knock: the turn passes."""

    kind: Literal["no_knock"]


#: Any action of Manipulation Rummy.
Action = Play | PlayJoker | FreeHand | FreeTable | Finish | Decline | Knock | NoKnock

PLAY = tuple(Play("play", t) for t in range(NUM_NATURAL))
PLAY_JOKER = tuple(PlayJoker("joker", t) for t in range(NUM_NATURAL))
FREE_HAND = tuple(FreeHand("free_hand", t) for t in range(NUM_NATURAL))
FREE_TABLE = tuple(FreeTable("free_table", t) for t in range(NUM_NATURAL))
FINISH = Finish("finish")
DECLINE = Decline("decline")
KNOCK = Knock("knock")
NO_KNOCK = NoKnock("no_knock")

__all__ = ["DECLINE", "FINISH", "FREE_HAND", "FREE_TABLE", "KNOCK", "NO_KNOCK", "PLAY",
           "PLAY_JOKER", "Action", "Decline", "Finish", "FreeHand", "FreeTable", "Knock", "NoKnock",
           "Play", "PlayJoker"]
