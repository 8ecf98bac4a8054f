"""Actions as named tuples (issue 21, point 3): the convention, and the kinds families share.

Each family's ``actions`` module (``rummy_env.contract.actions``, ``rummy_env.gin.actions``,
``rummy_env.indian.actions``, ``rummy_env.manipulation.actions``) declares one
:class:`typing.NamedTuple` per action kind and documents its fields. The first field, ``kind``,
is the kind's string, so a typed action *is* the plain tuple it replaces:
``Discard("discard", 5) == ("discard", 5)``, both hash alike (a dict or set keyed by one finds
the other), ``json.dumps`` writes the same list, and :func:`action_kind` gives every class the
plain tuple's ``repr()`` (messages and logs read as before), ``copy`` and ``deepcopy`` (an
action is immutable: the copy is itself). Pickling is the named tuple's own. Code reads fields
by name (``a.card``) where it used to read positions (``a[1]``).

The engine emits only typed instances (``legal_actions()``, the codec's ``decode``), and every
kind with a ``Discrete`` id is a finite set, prebuilt: a hot loop takes ``DISCARD[t]`` from a
table, a lookup, rather than building a named tuple (about 0.3 µs each, a sizeable part of a
Gin Rummy step). A state's ``apply`` also accepts plain tuples (from users, tests, scenarios):
once it has found the action in its legal list, it goes on with the list's equal typed
instance.

The kinds that mean the same in several families are declared here, once, and each family's
module re-exports the ones it uses:

================  ============================  ============================================
kind              class, fields                 meaning
================  ============================  ============================================
``draw_stock``    ``DrawStock()``               draw the top stock card
``take_discard``  ``TakeDiscard()``             take the top discard (gin: or the upcard)
``pass``          ``Pass()``                    decline what is offered (gin's first upcard,
                                                a contract claim or Shanghai call)
``discard``       ``Discard(card)``             discard a card of type ``card`` (0..52,
                                                :mod:`rummy_env.cards`)
================  ============================  ============================================
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, TypeVar, get_args, get_type_hints

from rummy_env.cards import NUM_TYPES

_C = TypeVar("_C", bound=type)


def _itself(self: Any, memo: Any = None) -> Any:
    return self


def action_kind(cls: _C) -> _C:
    """Class decorator of every action class: ``repr()`` as the plain tuple, ``copy.copy`` and
    ``copy.deepcopy`` return the action itself (as they do for a tuple of ints and strings),
    so deep copies of states keep the prebuilt instances."""
    cls.__repr__ = tuple.__repr__  # type: ignore[assignment]
    cls.__copy__ = _itself  # type: ignore[attr-defined]
    cls.__deepcopy__ = _itself  # type: ignore[attr-defined]
    return cls


@action_kind
class DrawStock(NamedTuple):
    """Draw the top stock card."""

    kind: Literal["draw_stock"]


@action_kind
class TakeDiscard(NamedTuple):
    """Take the top discard (in Gin Rummy, also the first upcard)."""

    kind: Literal["take_discard"]


@action_kind
class Pass(NamedTuple):
    """Decline what is offered: Gin Rummy's first upcard, a contract claim or Shanghai call."""

    kind: Literal["pass"]


@action_kind
class Discard(NamedTuple):
    """Discard one card of type ``card`` (0..52, :mod:`rummy_env.cards`)."""

    kind: Literal["discard"]
    card: int


DRAW_STOCK = DrawStock("draw_stock")
TAKE_DISCARD = TakeDiscard("take_discard")
PASS = Pass("pass")
#: ``DISCARD[t]``: the discard of card type ``t``, for every type (the joker last).
DISCARD = tuple(Discard("discard", t) for t in range(NUM_TYPES))


def kind_arity(action: Any) -> dict[str, int]:
    """The fields after the kind, by kind, of the action classes of a family's ``Action``
    union: the shape a plain tuple of each kind has (an engine's error names a tuple of
    another shape as given, never reads it as some action)."""
    return {get_args(get_type_hints(c)["kind"])[0]: len(c._fields) - 1 for c in get_args(action)}


__all__ = ["DISCARD", "DRAW_STOCK", "PASS", "TAKE_DISCARD", "Discard", "DrawStock", "Pass",
           "TakeDiscard", "action_kind", "kind_arity"]
