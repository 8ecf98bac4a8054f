"""Parsing helpers shared by every family's scenario loader (plain data -> validated values).

Each raises :class:`~rummy_env.errors.ScenarioError` naming the scenario key at fault.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.cards import parse_card
from rummy_env.errors import CardParseError, ScenarioError


def cards_at(items: Any, where: str) -> list[int]:
    """A list of card strings, parsed."""
    if not isinstance(items, (list, tuple)):
        raise ScenarioError(f"scenario {where} must be a list of card strings, got {items!r}")
    try:
        return [parse_card(x) for x in items]
    except CardParseError as e:
        raise ScenarioError(f"scenario {where}: {e}") from None


def card_at(item: Any, where: str) -> int:
    """One card string, parsed."""
    try:
        return parse_card(item)
    except CardParseError as e:
        raise ScenarioError(f"scenario {where}: {e}") from None


def per_seat_cards(v: Any, n: int, name: str) -> list[list[int]]:
    """One card list per seat (``hands``, ``known``), parsed."""
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise ScenarioError(f"scenario {name} must be a list of {n} card lists, one per seat")
    return [cards_at(cards, f"{name}[{s}]") for s, cards in enumerate(v)]


def is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def seat_at(v: Any, n: int, name: str) -> int:
    """A seat index in ``0..n-1``."""
    if not is_int(v) or not 0 <= int(v) < n:
        raise ScenarioError(f"scenario {name}={v!r} must be a seat index in 0..{n - 1}")
    return int(v)


def int_list(v: Any, n: int, name: str, lo: int | None = None) -> list[int]:
    """``n`` ints (each ``>= lo`` when ``lo`` is given)."""
    if not isinstance(v, (list, tuple)) or len(v) != n or any(
        not is_int(x) or (lo is not None and x < lo) for x in v
    ):
        bound = f" >= {lo}" if lo is not None else ""
        raise ScenarioError(f"scenario {name} must be a list of {n} ints{bound}, got {v!r}")
    return [int(x) for x in v]
