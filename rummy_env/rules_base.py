"""What every family's frozen rules object shares: overriding fields by name, validated."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from rummy_env.errors import RuleConfigError

R = TypeVar("R", bound="RulesBase")


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
