"""The declared scenario schema shared by the four families (DESIGN: Scenarios; issue 16).

A scenario is checked in two stages, both before the environment changes:

1. **Declared types and ranges** (this module): :func:`validate` checks that the scenario is a
   dict, that every key (and every key under ``turn``) is one the family declares, and that each
   value present has its declared type and range. Every family's schema is :data:`COMMON` (and
   :data:`COMMON_TURN`) plus its own keys, so the common keys are parsed by one piece of code.
2. **Meaning** (each family's ``scenario.py``): cards exist and are placed no more often than
   the packs hold, table melds are valid under the rules, contract progress matches the table
   and the deal's contract, turn data matches the phase; then, as a safety net, the built
   position is verified (:func:`rummy_env.scenario_util.verify_built`: the actor has a legal
   action and the position round-trips through ``to_dict``) before it is committed.

Anything refused is a :class:`~rummy_env.errors.ScenarioError` naming the field (``hands[2]``,
``turn.contract_left[0]``); wrong types, huge numbers and deep nesting never reach the loaders,
so they cannot raise ``TypeError``, ``OverflowError`` or ``RecursionError``.

Conventions, the same in every family: unknown keys are refused at the top level and under
``turn``; ``zones`` (output only) is accepted and ignored; a key left out takes its
start-of-deal value; ``hands`` may be left out or hold ``null`` for a seat, whose hand is then
dealt from the cards the scenario places nowhere; ints are Python or numpy ints, never bools;
every int lies within ``±MAX_INT`` (finer ranges, such as scores the observation can hold, are
checked against the spaces when the position is built).

Common keys (every family; ``n`` is the player count):

==================  ==========================================  =================================
key                 type                                        range
==================  ==========================================  =================================
``variant``         str                                         the game's name
``num_players``     int                                         the game's player count
``deal``            int                                         ``1..num_deals``
``dealer``          int                                         seat ``0..n-1``
``to_move``         int                                         seat ``0..n-1``
``phase``           str                                         the family's phases
``hands``           list of n (card list or null)
``stock``           card list                                   top card first
``scores``          list of n ints (Indian: numbers)
``deals_played``    int                                         ``0..MAX_INT``
``turn``            dict (the family's turn keys)
``zones``           dict                                        output only, ignored
``turn.number``     int                                         ``0..MAX_INT`` (and max_turns)
==================  ==========================================  =================================

Each family's own keys (and the common ones it retypes), as :func:`schema_table` prints
them (a test keeps these tables current):

The contract family (Contract Rummy, Liverpool, May I?, Shanghai, Progressive; what each key means: rummy_env/contract/scenario.py):

========================  ===================================================================================
key                       type and range
========================  ===================================================================================
``phase``                 'draw' | 'claim' | 'play' | 'deal_over' | 'game_over' | 'call'
``discard``               list of (card)
``discarders``            list of (seat index in -1..n-1)
``table``                 list of (a meld {owner, kind, cards, wilds})
``melded``                list of (seat index in 0..n-1), each once
``claims_used``           n x (int >= 0)
``kitty``                 int >= 0
``pennies``               n x (number)
``known``                 n x (list of (card))
``deal_delta``            n x (int)
``turn.melded_turn``      n x (int >= -1)
``turn.contract_left``    null | list of (['set' | 'run', int 1..200])
``turn.contract_laid``    list of (['set', int 1..13, int 1..200] or ['run', int 0..3, int 1..14, int 1..14])
``turn.jokers_owed``      int 0..200
``turn.obligation``       null | card
``turn.forbidden``        null | card
``turn.claim_queue``      list of (seat index in 0..n-1), each once
``turn.last_claimer``     seat index in -1..n-1
``turn.announced``        true or false
``turn.went_out``         seat index in -1..n-1
``turn.last_deal_delta``  n x (int)
========================  ===================================================================================

Gin Rummy (rummy_env/gin/scenario.py):

========================  =================================================================================
key                       type and range
========================  =================================================================================
``phase``                 'first_upcard' | 'draw' | 'play' | 'knock' | 'defend' | 'deal_over' | 'game_over'
``discard``               list of (card)
``upcard``                null | card
``knock_limit``           int 0..10
``upcard_refused``        true or false
``known``                 n x (list of (card))
``taken``                 null | card
``knocker``               seat index in -1..n-1
``gin``                   true or false
``table``                 list of (a meld {owner, cards})
``laid_off``              list of (card)
``points``                n x (int >= 0)
``deal_delta``            n x (int)
``turn.winner``           seat index in -1..n-1
``turn.result``           null | 'knock' | 'gin' | 'undercut' | 'dead'
``turn.last_deal_delta``  n x (int)
``turn.deadwood``         n x (int >= 0)
========================  =================================================================================

Indian Rummy (rummy_env/indian/scenario.py):

========================  ============================================================================
key                       type and range
========================  ============================================================================
``phase``                 'draw' | 'play' | 'deal_over' | 'game_over'
``scores``                n x (number)
``discard``               list of (card)
``discarders``            list of (seat index in -1..n-1)
``indicator``             card
``out_of_play``           list of (card)
``packed``                list of (seat index in 0..n-1), each once
``owed``                  n x (number >= 0)
``turns_taken``           n x (int >= 0)
``known``                 n x (list of (card))
``deal_delta``            n x (number)
``turn.taken``            null | card
``turn.winner``           seat index in -1..n-1
``turn.result``           null | 'declare' | 'early_declare' | 'hand_rummy' | 'last_standing' | 'void'
``turn.last_deal_delta``  n x (number)
========================  ============================================================================

Manipulation Rummy (rummy_env/manipulation/scenario.py):

=========================  ===================================================
key                        type and range
=========================  ===================================================
``phase``                  null | 'meld' | 'knock' | 'deal_over' | 'game_over'
``table``                  list of (list of (card))
``points``                 n x (int)
``deals_won``              n x (int >= 0)
``turn.draws``             int 0..3
``turn.melding``           true or false
``turn.added``             true or false
``turn.pending``           int 0..200
``turn.locked``            list of (card)
``turn.final_round``       true or false
``turn.final_left``        int 0..64
``turn.knocker``           seat index in -1..n-1
``turn.winners``           list of (seat index in 0..n-1), each once
``turn.result``            null | 'out' | 'knock' | 'stock'
``turn.last_deal_points``  n x (int)
=========================  ===================================================
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from rummy_env.errors import ScenarioError

#: The largest magnitude of any int in a scenario: far beyond anything play reaches (the
#: spaces' bounds are checked later), small enough that no conversion overflows.
MAX_INT = 10**9
#: The longest list a scenario may hold (every card list is far shorter: 3 packs hold 162).
MAX_LEN = 1000


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxstring, _REPR.maxother = 3, 6, 4, 30, 30


def _show(v: Any) -> str:
    """A short repr of a bad value (depth and length capped: a scenario may nest thousands of
    lists, whose plain repr would raise RecursionError)."""
    return _REPR.repr(v)


class Check:
    """One field's declared type and range. ``check`` raises ScenarioError naming ``where``."""

    text = "any"

    def check(self, v: Any, where: str, n: int) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def fail(self, v: Any, where: str, n: int | str) -> None:
        raise ScenarioError(f"scenario {where}={_show(v)} must be {self.describe(n)}")

    def describe(self, n: int | str) -> str:
        return self.text


@dataclass(frozen=True)
class Int(Check):
    lo: int = -MAX_INT
    hi: int = MAX_INT

    def check(self, v: Any, where: str, n: int) -> None:
        if not _is_int(v) or not self.lo <= int(v) <= self.hi:
            self.fail(v, where, n)

    def describe(self, n: int | str) -> str:
        if self.hi == MAX_INT:
            return "int" if self.lo == -MAX_INT else f"int >= {self.lo}"
        return f"int {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Seat(Check):
    """A seat index; ``none=True`` also allows -1 (no seat)."""

    none: bool = False

    def check(self, v: Any, where: str, n: int) -> None:
        if not _is_int(v) or not (-1 if self.none else 0) <= int(v) < n:
            self.fail(v, where, n)

    def describe(self, n: int | str) -> str:
        top = n - 1 if isinstance(n, int) else f"{n}-1"
        return f"seat index in {'-1' if self.none else '0'}..{top}"


@dataclass(frozen=True)
class Num(Check):
    """A finite int or float within ``±MAX_INT``."""

    lo: float = -MAX_INT
    hi: float = MAX_INT

    def check(self, v: Any, where: str, n: int) -> None:
        ok = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        if not ok or not np.isfinite(float(v)) or not self.lo <= float(v) <= self.hi:
            self.fail(v, where, n)

    def describe(self, n: int | str) -> str:
        return "number" if self.lo == -MAX_INT else f"number >= {self.lo:g}"


class Bool(Check):
    text = "true or false"

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, (bool, np.bool_)):
            self.fail(v, where, n)


@dataclass(frozen=True)
class Str(Check):
    """A string (card text is checked by the card parser, naming the field)."""

    choices: tuple[str, ...] = ()

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, str) or (self.choices and v not in self.choices) or len(v) > 40:
            self.fail(v, where, n)

    def describe(self, n: int | str) -> str:
        return " | ".join(map(repr, self.choices)) if self.choices else "str"


@dataclass(frozen=True)
class Null(Check):
    """``null`` or the inner type."""

    inner: Check

    def check(self, v: Any, where: str, n: int) -> None:
        if v is not None:
            self.inner.check(v, where, n)

    def describe(self, n: int | str) -> str:
        return f"null | {self.inner.describe(n)}"


@dataclass(frozen=True)
class List(Check):
    """A list (or tuple) of ``item``; ``per_seat``: exactly one per seat."""

    item: Check
    per_seat: bool = False
    max_len: int = MAX_LEN
    unique: bool = False

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, (list, tuple)) or (self.per_seat and len(v) != n) or (
                len(v) > self.max_len):
            self.fail(v, where, n)
        for i, x in enumerate(v):
            self.item.check(x, f"{where}[{i}]", n)
        if self.unique and len({int(x) if _is_int(x) else x for x in v}) != len(v):
            raise ScenarioError(f"scenario {where}={_show(v)} lists an entry twice")

    def describe(self, n: int | str) -> str:
        what = f"{n} x" if self.per_seat else "list of"
        return f"{what} ({self.item.describe(n)})" + (", each once" if self.unique else "")


@dataclass(frozen=True)
class Tuple(Check):
    """A fixed-length list whose entries have their own types (``["set", 3]``); ``alts`` lists
    the allowed layouts, told apart by length."""

    alts: tuple[tuple[Check, ...], ...]

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, (list, tuple)):
            self.fail(v, where, n)
        for alt in self.alts:
            if len(alt) == len(v):
                for i, (c, x) in enumerate(zip(alt, v)):
                    c.check(x, f"{where}[{i}]", n)
                return
        self.fail(v, where, n)

    def describe(self, n: int | str) -> str:
        return " or ".join("[" + ", ".join(c.describe(n) for c in alt) + "]" for alt in self.alts)


@dataclass(frozen=True)
class Dict(Check):
    """A dict with declared keys (``required`` must be present); unknown keys are refused."""

    keys: Mapping[str, Check]
    required: tuple[str, ...] = ()
    name: str = "a dict"

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, dict):
            self.fail(v, where, n)
        _keys_known(v, self.keys, where)
        for k in self.required:
            if k not in v:
                raise ScenarioError(f"scenario {where} lacks the key {k!r}; "
                                    f"{where} must be {self.describe(n)}")
        for k, x in v.items():
            self.keys[k].check(x, f"{where}.{k}", n)

    def describe(self, n: int | str) -> str:
        return f"{self.name} {{{', '.join(self.keys)}}}"


class Anything(Check):
    """Accepted as is (``zones``: output only, ignored when loading)."""

    text = "any value (ignored)"

    def check(self, v: Any, where: str, n: int) -> None:
        return None


class OutputOnly(Check):
    text = "a dict (output only, ignored)"

    def check(self, v: Any, where: str, n: int) -> None:
        if not isinstance(v, dict):
            self.fail(v, where, n)


class CardText(Str):
    """Card text (``7H``, ``TD``, ``JK``; parsed, naming the field, by the family's loader)."""

    def describe(self, n: int | str) -> str:
        return "card"


CARD = CardText()
#: A list of card strings (each parsed later by :func:`rummy_env.scenario_util.cards_at`).
CARDS = List(CARD)


def _keys_known(v: Mapping[Any, Any], keys: Mapping[str, Check], where: str) -> None:
    unknown = [k for k in v if k not in keys]
    if unknown:
        label = "scenario" if where == "" else f"scenario {where}"
        shown = sorted(map(repr, unknown))
        raise ScenarioError(f"unknown {label} keys [{', '.join(shown)}]; allowed: "
                            f"{', '.join(sorted(keys))}")


#: Keys every family reads, with their types (a family may override one, e.g. number scores).
COMMON: dict[str, Check] = {
    "variant": Str(),
    "num_players": Int(1, 64),
    "deal": Int(1, MAX_INT),
    "dealer": Seat(),
    "to_move": Seat(),
    "phase": Str(),
    "hands": List(Null(CARDS), per_seat=True),
    "stock": CARDS,
    "scores": List(Int(), per_seat=True),
    "deals_played": Int(0, MAX_INT),
    "zones": OutputOnly(),
}
#: Keys under ``turn`` every family reads.
COMMON_TURN: dict[str, Check] = {
    "number": Int(0, MAX_INT),
}


@dataclass(frozen=True)
class Schema:
    """One family's scenario schema: :data:`COMMON` plus ``extra``, and under ``turn``
    :data:`COMMON_TURN` plus ``turn_extra``."""

    family: str
    extra: Mapping[str, Check]
    turn_extra: Mapping[str, Check]
    keys: dict[str, Check] = field(init=False)
    turn: dict[str, Check] = field(init=False)

    def __post_init__(self) -> None:
        turn = {**COMMON_TURN, **self.turn_extra}
        keys = {**COMMON, **self.extra, "turn": Dict(turn, name="a dict")}
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "keys", keys)

    def validate(self, d: Any, n: int) -> None:
        """Declared types and ranges of every key present (before anything is built)."""
        if not isinstance(d, dict):
            raise ScenarioError(f"scenario must be a dict, got {type(d).__name__}")
        _keys_known(d, self.keys, "")
        for k, v in d.items():
            self.keys[k].check(v, k, n)

    def table(self, n: int | str = "n", own_only: bool = True) -> str:
        """The schema as an reStructuredText table (for docs): key, type and range; with
        ``own_only`` only the family's own keys (and overrides of the common ones)."""
        rows = [(k, c) for k, c in self.keys.items() if k != "turn"
                and not (own_only and k in COMMON and k not in self.extra)]
        rows += [(f"turn.{k}", c) for k, c in self.turn.items()
                 if not (own_only and k in COMMON_TURN and k not in self.turn_extra)]
        cells = [(f"``{k}``", c.describe(n)) for k, c in rows]
        w0 = max(len(a) for a, _ in cells)
        w1 = max(len(b) for _, b in cells)
        line = "=" * w0 + "  " + "=" * w1
        out = [line, f"{'key':<{w0}}  type and range", line]
        out += [f"{a:<{w0}}  {b}" for a, b in cells]
        out.append(line)
        return "\n".join(out)


def schema_table(family: str) -> str:
    """The declared schema of ``family`` (``contract``, ``gin``, ``indian``, ``manipulation``)
    as a table of keys, types and ranges."""
    import importlib

    mod = importlib.import_module(f"rummy_env.{family}.scenario")
    return mod.SCHEMA.table()

