"""What every family's rules share: the frozen rules object's overrides by name, validated,
and the places of a game's standings (C-9)."""

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


class RulesBase:
    """Mixin for a frozen rules dataclass with a ``name`` field that validates itself in
    ``__post_init__`` (raising RuleConfigError that names the field and its allowed values)."""

    name: str

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
