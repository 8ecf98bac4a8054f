"""Action codecs: typed actions <-> integers in one declared layout of named ranges.

A family builds an :class:`ActionLayout` from its rules (``build_action_layout`` in each
``rummy_env/<family>/codec.py``): an ordered list of named, contiguous blocks of the fixed
``Discrete(N)``, each with its meaning and the typed actions it holds, in id order. The layout
gives ``encode``/``decode`` (typed action <-> id), ``locate``/``id_of`` (id <-> block name and
index within the block), the text of every id and its parse (a round trip for every id), the
mask of a list of typed actions, and the generated spec table of the docs. A block a game's rules
leave empty (no ``dig`` without digging) takes no ids. Numpy only; no gymnasium or pettingzoo.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from rummy_env.cards import card_str, parse_card
from rummy_env.errors import CardParseError, IllegalActionError

_CARD_TOKEN = re.compile(r"^(10|[2-9]|[AJQKT1])[CDHS]$|^JK$|^JOKER$")
_RANK_TOKEN = {"T": "10", "1": "A"}


def normalize_text(text: str) -> str:
    """Canonical form of action text: upper case, single spaces, cards as ``10S``/``JK``,
    ranks ``T``/``1`` as ``10``/``A`` in spans and sizes."""
    out = []
    for tok in text.strip().upper().split():
        if _CARD_TOKEN.match(tok):
            try:
                tok = card_str(parse_card(tok))
            except CardParseError:
                pass
        elif "-" in tok:
            tok = "-".join(_RANK_TOKEN.get(p, p) for p in tok.split("-"))
        elif "X" in tok and tok[0] != "X":
            head, _, tail = tok.partition("X")
            tok = _RANK_TOKEN.get(head, head) + "X" + tail
        out.append(tok)
    return " ".join(out)


def as_action_id(action: object, n: int) -> int:
    """``action`` as an int id of ``Discrete(n)``, or :class:`IllegalActionError` naming it.

    Accepted: what ``Discrete(n).contains`` accepts, i.e. Python ints and numpy integer scalars
    (or 0-d integer arrays) in ``0..n-1``, except ``bool``: a flag passed as an action is a bug,
    not a move, though Python counts ``True`` as the int 1 (numpy's ``bool_`` is refused by
    ``contains`` too). Floats (even ``3.0``), strings, bytes, ``None`` and arrays of any other
    shape are refused, never rounded or parsed."""
    if type(action) is int:
        a = action
    elif (isinstance(action, (int, np.integer)) and not isinstance(action, bool)) or (
            isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"):
        a = int(action)
    else:
        text = repr(action)
        if len(text) > 60:
            text = text[:57] + "..."
        raise IllegalActionError(
            f"action {text} ({type(action).__name__}) is not an integer action id of "
            f"Discrete({n}); expected an int (or numpy integer) in 0..{n - 1}")
    if not 0 <= a < n:
        raise IllegalActionError(f"action {a} is outside Discrete({n}); allowed: 0..{n - 1}")
    return a


@dataclass(frozen=True)
class ActionRange:
    """One named, contiguous block of action ids."""

    name: str
    start: int
    actions: tuple[Hashable, ...]
    meaning: str

    @property
    def size(self) -> int:
        return len(self.actions)

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionLayout:
    """A fixed ``Discrete(N)`` layout of named blocks (module docstring).

    ``blocks`` are ``(name, typed actions in id order, meaning)``; ``describe`` gives the text
    of a typed action. Ids are numbered block after block, so a block's ids and their meaning
    follow from its declaration alone, and the docs table (``table()``) is built from it."""

    def __init__(self, blocks: Sequence[tuple[str, Sequence[Hashable], str]],
                 describe: Callable[[Hashable], str]) -> None:
        self.ranges: list[ActionRange] = []
        self._decode: list[Hashable] = []
        start = 0
        for name, actions, meaning in blocks:
            if not actions:
                continue
            r = ActionRange(name, start, tuple(actions), meaning)
            self.ranges.append(r)
            self._decode.extend(r.actions)
            start = r.stop
        self.n = start
        self._encode = {a: i for i, a in enumerate(self._decode)}
        if len(self._encode) != self.n:
            raise ValueError("action layout holds a typed action twice")
        self._describe = describe
        self._text_list: list[str] | None = None
        self._parse_map: dict[str, int] | None = None

    # The texts and their parse are built at first use: writing and normalising every id's
    # text was most of a ``make`` once the spaces were cached, and most envs never ask.
    @property
    def _text(self) -> list[str]:
        """The text of every id, in id order."""
        if self._text_list is None:
            self._text_list = [self._describe(a) for a in self._decode]
        return self._text_list

    @property
    def _parse(self) -> dict[str, int]:
        """Normalised text -> id; ValueError if two ids share a text."""
        if self._parse_map is None:
            parse = {normalize_text(t): i for i, t in enumerate(self._text)}
            if len(parse) != self.n:
                raise ValueError("two action ids share a text")
            self._parse_map = parse
        return self._parse_map

    def encode(self, action: Hashable) -> int:
        try:
            return self._encode[action]
        except KeyError:
            raise IllegalActionError(f"action {action!r} has no id in this layout") from None

    def decode(self, i: int) -> Hashable:
        return self._decode[as_action_id(i, self.n)]

    def to_string(self, i: int) -> str:
        """Text of id ``i``; IllegalActionError for anything not an id (see ``as_action_id``)."""
        return self._text[as_action_id(i, self.n)]

    def from_string(self, text: str) -> int:
        """Id of an action's text; IllegalActionError (a ValueError) for a non-string or a
        text that reads no action."""
        if not isinstance(text, str):
            raise IllegalActionError(
                f"action text must be a str, not {type(text).__name__} ({text!r:.60}); "
                "for an id use action_to_string")
        key = normalize_text(text)
        if key in self._parse:
            return self._parse[key]
        raise IllegalActionError(
            f"no action reads {text!r}; examples: "
            + ", ".join(repr(self._text[r.start]) for r in self.ranges)
        )

    def mask(self, actions: Sequence[Hashable], out: np.ndarray | None = None) -> np.ndarray:
        m = np.zeros(self.n, dtype=np.int8) if out is None else out
        enc = self._encode
        for a in actions:
            m[enc[a]] = 1
        return m

    def range_of(self, i: int) -> ActionRange:
        """The block that holds id ``i``."""
        for r in self.ranges:
            if r.start <= i < r.stop:
                return r
        raise IllegalActionError(f"action id {i} is out of range 0..{self.n - 1}")

    def block(self, name: str) -> ActionRange:
        """The block called ``name``; IllegalActionError naming the blocks this layout has (a
        block the rules leave empty, such as ``dig`` without digging, is not one of them)."""
        for r in self.ranges:
            if r.name == name:
                return r
        raise IllegalActionError(f"no action block {name!r} in this layout; blocks: "
                                 + ", ".join(r.name for r in self.ranges))

    def locate(self, i: int) -> tuple[str, int]:
        """``(block name, index within the block)`` of id ``i``: ``locate(id_of(b, k)) ==
        (b, k)``. IllegalActionError for anything not an id (see ``as_action_id``)."""
        r = self.range_of(as_action_id(i, self.n))
        return r.name, i - r.start

    def id_of(self, name: str, index: int) -> int:
        """The id of entry ``index`` of block ``name`` (``0 <= index < block(name).size``)."""
        r = self.block(name)
        if (not isinstance(index, (int, np.integer)) or isinstance(index, bool)
                or not 0 <= index < r.size):
            raise IllegalActionError(f"index {index!r} is outside action block {name!r}; "
                                     f"allowed: 0..{r.size - 1}")
        return r.start + int(index)

    def table(self) -> str:
        """The generated Markdown table of id ranges (module docstrings and README)."""
        rows = ["| ids | name | meaning | first id reads |", "|---|---|---|---|"]
        for r in self.ranges:
            ids = f"{r.start}" if r.size == 1 else f"{r.start}-{r.stop - 1}"
            rows.append(f"| {ids} | `{r.name}` | {r.meaning} | `{self._text[r.start]}` |")
        rows.append(f"| | | **total: Discrete({self.n})** | |")
        return "\n".join(rows)
