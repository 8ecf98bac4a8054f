"""The actions of the contract family: one named tuple per kind (:mod:`rummy_env.actions` gives
the convention: each equals and hashes like the plain tuple it replaces).

================  ============================  ============================================
kind              class, fields                 meaning
================  ============================  ============================================
``draw_stock``    ``DrawStock()``               draw the top stock card (CR-5; opens May I?,
                                                CR-7)
``take_discard``  ``TakeDiscard()``             take the top discard (CR-5, SP-4)
``dig``           ``Dig(depth)``                take the top ``depth`` discards, 2 or more
                                                (SP-4)
``buy``           ``Buy()``                     buy the top discard before the draw (PR-6)
``claim``         ``Claim()``                   claim the top discard out of turn (CR-7)
``pass``          ``Pass()``                    decline to claim (CR-7) or to call (SH-6)
``call``          ``Call(meld, low)``           call Shanghai on the top discard and lay it
                                                off on table meld ``meld`` (its index in
                                                ``state.table``), at the low end of a run
                                                when ``low`` (SH-6b)
``meld``          ``Meld(shape)``               lay one contract meld of ``shape``:
                                                ``("set", rank, size)`` or ``("run", suit,
                                                lo, hi)`` (CR-3, CR-5)
``lay_off``       ``LayOff(card, meld, low)``   lay a card of type ``card`` off on table meld
                                                ``meld``, at the low end of a run when
                                                ``low`` (a joker or wild card; CR-10, PR-5)
``swap``          ``Swap(card, meld)``          put natural ``card`` in place of the joker
                                                standing for it in run ``meld`` (CR-8)
``discard``       ``Discard(card)``             discard a card of type ``card`` (CR-5)
``announce``      ``Announce(card)``            discard it announcing Shanghai: no one may
                                                take or claim it (SH-6a)
================  ============================  ============================================

The prebuilt instances: ``DRAW_STOCK``, ``TAKE_DISCARD``, ``BUY``, ``CLAIM``, ``PASS``, the
tables ``DISCARD[card]`` and ``ANNOUNCE[card]``, and for the kinds whose range depends on the
game (table melds, dig depths, meld shapes) the functions :func:`dig`, :func:`call`,
:func:`meld`, :func:`lay_off` and :func:`swap`, which build each instance once, on first use,
and return that one ever after (``lay_offs_on(meld, low)[card]`` and ``swaps_on(meld)[card]``
hand a loop over a meld's cards the row at once).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

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
from rummy_env.cards import NUM_TYPES


@action_kind
class Dig(NamedTuple):
    """Take the top ``depth`` cards of the discard pile (SP-4)."""

    kind: Literal["dig"]
    depth: int


@action_kind
class Buy(NamedTuple):
    """Buy the top discard before the normal draw, paying the kitty (PR-6)."""

    kind: Literal["buy"]


@action_kind
class Claim(NamedTuple):
    """Claim (May I?) the top discard out of turn, with the penalty cards (CR-7)."""

    kind: Literal["claim"]


@action_kind
class Call(NamedTuple):
    """Call Shanghai on the top discard and lay it off on table meld ``meld``; ``low``: at the
    low end of a run (a joker; SH-6b)."""

    kind: Literal["call"]
    meld: int
    low: bool


@action_kind
class Meld(NamedTuple):
    """Lay one contract meld of ``shape`` (:mod:`rummy_env.contract.shapes`; CR-3, CR-5)."""

    kind: Literal["meld"]
    shape: tuple[Any, ...]  # a Shape: ("set", rank, size) or ("run", suit, lo, hi)


@action_kind
class LayOff(NamedTuple):
    """Lay a card of type ``card`` off on table meld ``meld``; ``low``: at the low end of a run
    (a joker or wild card, CR-10, PR-5), else on a set, at a run's fitting end or, for a joker
    or wild card, its high end."""

    kind: Literal["lay_off"]
    card: int
    meld: int
    low: bool


@action_kind
class Swap(NamedTuple):
    """Put natural ``card`` from hand in place of the joker standing for it in run ``meld``;
    the joker comes to hand, to be laid off this turn (CR-8)."""

    kind: Literal["swap"]
    card: int
    meld: int


@action_kind
class Announce(NamedTuple):
    """Discard a card of type ``card`` that fits a table meld, announcing Shanghai (SH-6a)."""

    kind: Literal["announce"]
    card: int


#: Any action of the contract family.
Action = (DrawStock | TakeDiscard | Dig | Buy | Claim | Pass | Call | Meld | LayOff | Swap
          | Discard | Announce)

BUY = Buy("buy")
CLAIM = Claim("claim")
ANNOUNCE = tuple(Announce("announce", t) for t in range(NUM_TYPES))

# The kinds whose range depends on the game, built on first use (module docstring).
_DIG: list[Dig] = []
_CALL: list[tuple[Call, Call]] = []
_LAY_OFF: tuple[list[tuple[LayOff, ...]], list[tuple[LayOff, ...]]] = ([], [])
_SWAP: list[tuple[Swap, ...]] = []
_MELD: dict[tuple[Any, ...], Meld] = {}


def dig(depth: int) -> Dig:
    """The dig of the top ``depth`` discards."""
    while len(_DIG) <= depth:
        _DIG.append(Dig("dig", len(_DIG)))
    return _DIG[depth]


def call(meld: int, low: bool = False) -> Call:
    """The Shanghai call laying the discard off on table meld ``meld`` (``low``: a run's low
    end)."""
    while len(_CALL) <= meld:
        mi = len(_CALL)
        _CALL.append((Call("call", mi, False), Call("call", mi, True)))
    return _CALL[meld][low]


def lay_offs_on(meld: int, low: bool = False) -> tuple[LayOff, ...]:
    """The lay-offs on table meld ``meld`` (at a run's low end when ``low``), by card type."""
    rows = _LAY_OFF[low]
    while len(rows) <= meld:
        mi = len(rows)
        rows.append(tuple(LayOff("lay_off", t, mi, low) for t in range(NUM_TYPES)))
    return rows[meld]


def lay_off(card: int, meld: int, low: bool = False) -> LayOff:
    """The lay-off of a card of type ``card`` on table meld ``meld``."""
    return lay_offs_on(meld, low)[card]


def swaps_on(meld: int) -> tuple[Swap, ...]:
    """The joker swaps on table meld ``meld``, by the natural card put in."""
    while len(_SWAP) <= meld:
        mi = len(_SWAP)
        _SWAP.append(tuple(Swap("swap", t, mi) for t in range(NUM_TYPES)))
    return _SWAP[meld]


def swap(card: int, meld: int) -> Swap:
    """The swap of natural ``card`` for the joker standing for it in run ``meld``."""
    return swaps_on(meld)[card]


def meld(shape: tuple[Any, ...]) -> Meld:
    """The contract meld of ``shape``."""
    a = _MELD.get(shape)
    if a is None:
        a = _MELD[shape] = Meld("meld", shape)
    return a


__all__ = ["ANNOUNCE", "BUY", "CLAIM", "DISCARD", "DRAW_STOCK", "PASS", "TAKE_DISCARD", "Action",
           "Announce", "Buy", "Call", "Claim", "Dig", "Discard", "DrawStock", "LayOff", "Meld",
           "Pass", "Swap", "TakeDiscard", "call", "dig", "lay_off", "lay_offs_on", "meld", "swap",
           "swaps_on"]
