"""The base of every family's ``Phase`` enum (issue 21, point 3): phases as named constants that
still are the strings they always were.

Each family's ``state.py`` declares its own ``class Phase(PhaseEnum)`` (its members and their
order are the family's: the order of the ``phase`` one-hot of its observation). A member *is*
its string, so nothing that reads or writes phases changes: ``Phase.DRAW == "draw"``, it hashes
as ``"draw"`` (dicts keyed by either find the other), ``json.dumps`` writes ``"draw"``,
scenarios may keep giving plain strings. What a str-mixin enum would change is its text, so
:class:`PhaseEnum` gives it back the string's: ``str()``, ``format()`` (f-strings; the default
differs between Python versions: 3.12 formats a mixin enum as ``str()``, earlier ones as the
value) and ``repr()`` (error messages say ``phase 'play'``) are those of the value. YAML's safe
dumper accepts only exact ``str``, so ``to_dict()`` writes ``str(phase)``.
"""

from __future__ import annotations

import enum


class PhaseEnum(str, enum.Enum):
    """A phase: a ``str`` enum whose text is its value (see the module docstring)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, format_spec: str) -> str:
        return format(str(self.value), format_spec)

    def __repr__(self) -> str:
        # The plain string's repr, so messages and reprs that show a phase read as before.
        return repr(str(self.value))


__all__ = ["PhaseEnum"]
