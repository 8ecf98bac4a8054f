"""What every family's rules share: the frozen rules object's overrides by name, validated,
the checks the families' validators have in common (each error names the field and what is
allowed), the deck of a player count, and the places of a game's standings (C-9)."""

from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any, TypeVar

from rummy_env.errors import RuleConfigError

R = TypeVar("R", bound="RulesBase")


def places(values: Sequence[float], low_wins: bool = True) -> list[int]:
    """The place of each seat by ``values`` (1 = best: the lowest when ``low_wins``, else the
    highest); tied seats share a place and the next place counts them all (C-9: ``[1, 1, 3]``).
    One sort and a binary search per seat: the envs ask at every reset and every deal's end."""
    srt = sorted(values)
    if low_wins:  # 1 + the seats strictly below
        return [1 + bisect_left(srt, v) for v in values]
    n = len(srt)  # 1 + the seats strictly above
    return [1 + n - bisect_right(srt, v) for v in values]


def is_int(v: Any) -> bool:
    """An int that is not a bool (``True`` is an int to Python, never a count to the rules)."""
    return isinstance(v, int) and not isinstance(v, bool)


class RulesBase:
    """Mixin for a frozen rules dataclass with a ``name`` field that validates itself in
    ``__post_init__`` (raising RuleConfigError that names the field and its allowed values).

    The ``_bad`` and ``_require_*`` helpers are the checks several families' ``_validate``
    share.
    """

    # Fields of the host dataclass that the helpers read (annotations only: a mixin's
    # annotations are no dataclass fields, but typing.get_type_hints, which envs/options.py
    # reads, sees them, so only fields every family has are declared here).
    name: str
    min_players: int
    max_players: int

    @classmethod
    def option_names(cls) -> list[str]:
        """Rule fields a user may override by name."""
        return [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                if f.init and f.name != "name"]

    def with_overrides(self: R, **overrides: Any) -> R:
        """A copy with the named fields replaced, validated (RuleConfigError on a bad one)."""
        allowed = self.option_names()
        for k in overrides:
            if k not in allowed:
                raise RuleConfigError(
                    f"unknown rule option {k!r} for {self.name}; allowed: {', '.join(allowed)}"
                )
        fixed = {}
        for k, v in overrides.items():
            if isinstance(v, list):  # YAML and JSON give lists where the rules hold tuples
                v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
            fixed[k] = v
        return dataclasses.replace(self, **fixed)  # type: ignore[type-var]

    # ----------------------------------------------------------------- validation helpers
    def _bad(self, field_name: str, allowed: str) -> RuleConfigError:
        """The error for a field whose value is not allowed: names both, says what is."""
        return RuleConfigError(
            f"rule {field_name}={getattr(self, field_name)!r} is invalid; allowed: {allowed}"
        )

    def _require_bools(self, *names: str) -> None:
        """Each named field is True or False."""
        for name in names:
            if not isinstance(getattr(self, name), bool):
                raise self._bad(name, "True or False")

    def _require_player_range(self) -> None:
        """``min_players`` an int >= 2, ``max_players`` an int >= it."""
        lo, hi = self.min_players, self.max_players
        if not (is_int(lo) and 2 <= lo):
            raise self._bad("min_players", "an int >= 2 and <= max_players")
        if not (is_int(hi) and lo <= hi):
            raise self._bad("max_players", "an int >= min_players")


class DeckRules(RulesBase):
    """:class:`RulesBase` for a family whose deck depends on the player count: a ``decks``
    field of ``(players, packs, jokers)`` rows, one per supported count (contract, Indian and
    manipulation rummy; Gin Rummy always plays one pack)."""

    decks: tuple[tuple[int, int, int], ...]

    def deck_for(self, num_players: int) -> tuple[int, int]:
        """``(packs, jokers)`` for a player count, from the ``decks`` row of that count."""
        for n, packs, jok in self.decks:
            if n == num_players:
                return packs, jok
        raise RuleConfigError(
            f"num_players={num_players!r} is not supported by {self.name}: "
            f"allowed {self.min_players}..{self.max_players}"
        )

    def _require_decks(self, packs: tuple[int, int | None] = (1, None),
                       jokers: tuple[int, int | None] = (0, None),
                       allowed: str = "one (players, packs>=1, jokers>=0) per supported "
                                      "player count") -> None:
        """``decks`` is a tuple of ``(players, packs, jokers)`` int rows, one per player count
        from ``min_players`` to ``max_players`` in order, packs and jokers within the given
        ``(low, high)`` bounds (``None``: no upper bound)."""
        decks, lo, hi = self.decks, self.min_players, self.max_players

        def within(v: int, bounds: tuple[int, int | None]) -> bool:
            return bounds[0] <= v and (bounds[1] is None or v <= bounds[1])

        if not isinstance(decks, tuple) or [
            d[0] if isinstance(d, tuple) and d else None for d in decks
        ] != list(range(lo, hi + 1)) or any(
            len(d) != 3 or not all(is_int(x) for x in d) or not within(d[1], packs)
            or not within(d[2], jokers) for d in decks
        ):
            raise self._bad("decks", allowed)
