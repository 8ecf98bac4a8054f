"""Contract meld shapes: how an action names a contract meld, and the card of a run position.

A *shape* is ``("set", rank, size)`` or ``("run", suit, lo, hi)``; run positions are 1..14 (1 a
low ace, 14 a high ace, C-3). Shared by :mod:`rummy_env.contract.melds` and the contract search
(:mod:`rummy_env.contract.contract_search`), which both re-export these names.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy_env.cards import card, suit_of

Shape = tuple  # ("set", rank, size) | ("run", suit, lo, hi)


def pos_type(suit: int, pos: int) -> int:
    """Card type at run position ``pos`` (1..14) of ``suit``."""
    return card(pos, suit)


def set_missing_suit(meld_stands: Sequence[int]) -> int | None:
    """First suit (C D H S) that a set's cards do not stand for, or None if all four."""
    held = {suit_of(s) for s in meld_stands}
    for s in range(4):
        if s not in held:
            return s
    return None


def shape_cards(shape: Shape) -> int:
    return shape[2] if shape[0] == "set" else shape[3] - shape[2] + 1

