"""Rule overrides checked before the rules object is built (issue 16: bad options).

The rules classes validate values (``ContractRules._validate`` and its siblings), but a value of
the wrong type could reach their comparisons first and fail there with a ``TypeError`` from
inside (``decks=0``, ``contracts=0``, ``max_players="x"``), and a check that compares two fields
names whichever it tests first, not the one the user changed (a bad ``contracts`` reported as
``hand_sizes``, a bad ``min_players`` as ``decks``). :func:`check_overrides` runs before
``with_overrides``: each value against its field's annotation (so a flag must be a ``bool``, a
count an ``int`` and not a ``bool``, a tuple field a tuple or list of the right items), then the
pairs of fields that must agree, naming the one that was overridden. :func:`check_playable` runs
once the player count is known and refuses rules that cannot deal a hand (``hand_sizes`` of 27
for four players on two packs), which would otherwise fail at ``reset()``.
"""

from __future__ import annotations

import math
import types
import typing
from functools import lru_cache
from typing import Any

from rummy_env.errors import RuleConfigError


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _as_given(v: Any) -> Any:
    # What ``RulesBase.with_overrides`` does with YAML and JSON lists.
    if isinstance(v, list):
        return tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return v


def _matches(v: Any, tp: Any) -> bool:
    """Whether ``v`` has the type of annotation ``tp`` (the subset the rules classes use)."""
    if tp is Any:
        return True
    if tp is type(None) or tp is None:
        return v is None
    if tp is bool:
        return type(v) is bool
    if tp is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if tp is float:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    if tp is str:
        return isinstance(v, str)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(v, t) for t in typing.get_args(tp))
    if origin is tuple:
        if not isinstance(v, tuple):
            return False
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(x, args[0]) for x in v)
        return len(v) == len(args) and all(_matches(x, t) for x, t in zip(v, args))
    if isinstance(tp, type):
        return isinstance(v, tp)
    return True  # an annotation this checker does not read: the rules class decides


def _describe(tp: Any) -> str:
    if tp is type(None) or tp is None:
        return "None"
    if isinstance(tp, type) and typing.get_origin(tp) is None:
        return {bool: "True or False", int: "an int", float: "a finite number",
                str: "a str"}.get(tp, tp.__name__)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(t) for t in typing.get_args(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple (or list) of {_describe(args[0])}"
        return "a tuple of (" + ", ".join(_describe(t) for t in args) + ")"
    return str(tp)


def _bad(rules: Any, name: str, value: Any, allowed: str) -> RuleConfigError:
    return RuleConfigError(f"rule {name}={value!r} is invalid for {rules.name}; allowed: {allowed}")


def check_overrides(rules: Any, overrides: dict[str, Any]) -> None:
    """Refuse an override of the wrong type, or one that disagrees with a field it must match,
    with a RuleConfigError naming that override. Unknown names are left to ``with_overrides``,
    which lists the allowed ones; values of the right type to the rules class's own checks."""
    hints = _hints(type(rules))
    given = {k: _as_given(v) for k, v in overrides.items() if k in hints}
    for k, v in given.items():
        if not _matches(v, hints[k]):
            raise _bad(rules, k, overrides[k], f"{_describe(hints[k])} (default "
                                                f"{getattr(rules, k)!r})")

    def now(k: str) -> Any:
        return given.get(k, getattr(rules, k))

    if "min_players" in given and "max_players" in given and (
            given["min_players"] > given["max_players"]):
        raise _bad(rules, "min_players", given["min_players"],
                   f"an int <= max_players ({given['max_players']})")
    if "decks" in hints and "decks" not in given:
        # The players counts must match the rows of ``decks``: name the count that moved.
        counts = {d[0] for d in rules.decks}
        for k in ("min_players", "max_players"):
            if k in given and given[k] not in counts:
                raise _bad(rules, k, given[k], f"a player count that decks lists "
                           f"({', '.join(map(str, sorted(counts)))}), or override decks too")
    if "contracts" in given and not given["contracts"]:
        raise _bad(rules, "contracts", overrides["contracts"], "at least one Contract (one per deal)")
    if "contracts" in hints and ("contracts" in given) != ("hand_sizes" in given):
        k, other = ("contracts", "hand_sizes") if "contracts" in given else (
            "hand_sizes", "contracts")
        if len(given[k]) != len(now(other)):
            raise _bad(rules, k, overrides[k], f"{len(now(other))} items, one per deal as in "
                                               f"{other}, or override {other} too")
    if "wild_ranks" in given and len(set(given["wild_ranks"])) >= 13:
        # Every card wild: any cards make any meld, so the mask's meld search has nothing to
        # prune (about 4 steps/s here against 15 with 11 wild ranks; the fuzz saw a
        # random deal run past 90 s). A degenerate game, refused rather than left to hang.
        raise _bad(rules, "wild_ranks", overrides["wild_ranks"],
                   "ranks in 1..13 that leave at least one rank natural")


def check_playable(rules: Any, num_players: int, what: str = "hand_sizes") -> None:
    """Refuse rules whose largest hand cannot be dealt to ``num_players`` with a card left to
    start the discard pile and one in the stock (the contract family deals ``hand_sizes``)."""
    sizes = getattr(rules, what, None)
    decks = getattr(rules, "decks", None)
    if sizes is None or decks is None:
        return
    sizes = sizes if isinstance(sizes, tuple) else (sizes,)
    for n, packs, jokers in decks:
        if n != num_players:
            continue
        cards = 52 * packs + (jokers if getattr(rules, "jokers", True) else 0)
        need = num_players * max(sizes) + 2
        if cards < need:
            raise _bad(rules, what, getattr(rules, what),
                       f"hands that {num_players} players can be dealt from {cards} cards with "
                       f"one left for the discard pile and one for the stock (largest "
                       f"{(cards - 2) // num_players})")
