"""The Gin Rummy rules engine: game constants and a mutable game state.

Pure Python (no gymnasium, pettingzoo or torch). ``GinGame`` is immutable: the rules. ``GinState``
is one position with a phase state machine:

================  ======================================================================
phase             who acts and what they may do
================  ======================================================================
``first_upcard``  the non-dealer, then (if they pass) the dealer: take the upcard or pass
                  (GR-3)
``draw``          the player to move: draw the top stock card or take the top discard
                  (GR-4); only the stock after both players passed the first upcard (GR-3)
``play``          the player to move, holding 11 cards: discard a card, or discard it and
                  knock (GR-4, GR-5); never the card just taken from the discard pile
``knock``         the knocker lays its melds, one per action, then ``done`` (GR-5)
``defend``        the defender lays its melds and lays cards off on the knocker's melds,
                  one per action, then ``done`` (GR-6; no lay-offs against gin)
``deal_over``     nobody: the hand is scored (GR-7) or dead (GR-8); ``next_deal`` deals
                  the next hand of a game to ``game_to`` (GR-9)
``game_over``     nobody: the game is over
================  ======================================================================

Actions are named tuples, one class per kind (:mod:`rummy_env.gin.actions` lists them and their
fields), each equal to the plain tuple it replaces and turned into an integer only by the codec:
``DrawStock()`` is ``("draw_stock",)``, ``TakeDiscard()``, ``Pass()``, ``Discard(card)``,
``Knock(card)`` (discard ``card`` and knock), ``Meld(meld)`` (lay meld ``MELDS[meld]``),
``LayOff(card, slot)`` (lay ``card`` off on the knocker's meld ``slot``), ``Done()``. Each phase
has its legal actions and its way to apply one (``_LEGAL`` and ``_APPLY``, by phase, as
OpenSpiel's gin_rummy has ``ApplyDrawAction`` and the rest).

Cards in hands, piles and on the table are bitmasks (``rummy_env.gin.melds``): one pack, so
each card type exists once. The stock is a list, top card last.

Scores use the sign convention of every rummy_env variant: ``scores[s]`` is the net number of
points seat ``s`` has given away over the game (negative: net winnings), lower is better, and
``last_deal_delta`` is the hand's change (the scorer's entry is minus its points), so the
environment's reward ``-delta * reward_scale`` is zero-sum: plus the hand's points to the
scorer, minus them to the other. ``points`` are the points each seat has scored (GR-7), what a
game to ``game_to`` counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from rummy_env.cards import (
    DIAMONDS_START,
    HEARTS_START,
    NUM_NATURAL,
    NUM_SUITS,
    SPADES_START,
    SUIT_START,
    card_str,
    cards_str,
)
from rummy_env.core import StateBase, position_head, zones_head
from rummy_env.errors import IllegalActionError
from rummy_env.gin.actions import (
    DISCARD,
    DONE,
    DRAW_STOCK,
    LAY_OFF,
    MAX_SLOTS,
    MELD,
    PASS,
    TAKE_DISCARD,
    Action,
    Discard,
    Done,
    DrawStock,
    Knock,
    LayOff,
    Meld,
    Pass,
    TakeDiscard,
)
from rummy_env.gin.actions import KNOCK as _KNOCK  # KNOCK here is the phase
from rummy_env.gin.melds import (
    BITS13,
    CARD_VALUE,
    MELD_INDEX,
    MELDS,
    SUIT_BITS,
    card_list,
    deadwood,
    fits,
    knock_discards,
    melds_in,
    value,
)
from rummy_env.gin.rules import GinRules
from rummy_env.phases import PhaseEnum


class Phase(PhaseEnum):
    """The phases of a Gin Rummy hand (module docstring); each equals its string."""

    FIRST_UPCARD = "first_upcard"
    DRAW = "draw"
    PLAY = "play"
    KNOCK = "knock"
    DEFEND = "defend"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


# The module names every caller uses (``from rummy_env.gin.state import DRAW``).
FIRST_UPCARD, DRAW, PLAY, KNOCK, DEFEND, DEAL_OVER, GAME_OVER = (
    Phase.FIRST_UPCARD, Phase.DRAW, Phase.PLAY, Phase.KNOCK, Phase.DEFEND, Phase.DEAL_OVER,
    Phase.GAME_OVER)
PHASES = (FIRST_UPCARD, DRAW, PLAY, KNOCK, DEFEND, DEAL_OVER, GAME_OVER)
#: How a hand ended (``GinState.result``).
RESULTS = ("knock", "gin", "undercut", "dead")
HAND_SIZE = 10

_DISCARD: tuple[Discard, ...] = DISCARD[:NUM_NATURAL]  # the prebuilt discards of the natural cards

_UPCARD_ACTIONS: list[Action] = [TAKE_DISCARD, PASS]
_DRAW_BOTH: list[Action] = [DRAW_STOCK, TAKE_DISCARD]
_DRAW_STOCK_ONLY: list[Action] = [DRAW_STOCK]


class _ByCards:
    """``table[t]`` for every card ``t`` of a bitmask, ascending: one tuple per suit and 13-bit
    suit mask, built on first use, so a hand's discards are four list lookups."""

    def __init__(self, table: tuple[Action, ...]) -> None:
        self.table = table
        self.per_suit: list[list[tuple[Action, ...] | None]] = [
            [None] * (SUIT_BITS + 1) for _ in range(NUM_SUITS)]

    def fill(self, suit: int, m: int) -> tuple[Action, ...]:
        acts = tuple(self.table[SUIT_START[suit] + r] for r in BITS13[m])
        self.per_suit[suit][m] = acts
        return acts

    def __call__(self, cards: int) -> list[Action]:
        p0, p1, p2, p3 = self.per_suit
        a, b, c, d = (cards & SUIT_BITS, cards >> DIAMONDS_START & SUIT_BITS,
                      cards >> HEARTS_START & SUIT_BITS, cards >> SPADES_START)
        x0, x1, x2, x3 = p0[a], p1[b], p2[c], p3[d]
        if x0 is None:
            x0 = self.fill(0, a)
        if x1 is None:
            x1 = self.fill(1, b)
        if x2 is None:
            x2 = self.fill(2, c)
        if x3 is None:
            x3 = self.fill(3, d)
        return [*x0, *x1, *x2, *x3]


_discards = _ByCards(_DISCARD)
_knocks = _ByCards(_KNOCK)


@dataclass(frozen=True)
class GinGame:
    """Immutable: the rules (two players, one 52-card pack, GR-1)."""

    rules: GinRules
    num_players: int = 2

    total_cards = NUM_NATURAL
    #: One of each natural type (the deck as type counts, as the other families give it).
    deck = tuple([1] * NUM_NATURAL + [0])

    def new_state(self, rng: np.random.Generator, first_deal: int = 1) -> GinState:
        """A new game: the first dealer drawn at random (C-5), hand ``first_deal`` dealt."""
        st = GinState(self)
        st.dealer = int(rng.integers(2))
        st.start_deal(first_deal, rng)
        return st


class GinState(StateBase):
    """A mutable position of a Gin Rummy game. See the module docstring for phases."""

    def __init__(self, game: GinGame) -> None:
        self.game = game
        self.rules = game.rules
        self.n = 2
        self.deal = 1  # 1-based
        self.dealer = 0
        self.to_move = 1  # the seat that acts (or acted last, once the hand is over)
        self.phase = FIRST_UPCARD
        self.hands = [0, 0]  # bitmasks
        self.stock: list[int] = []  # top card last
        self.discard: list[int] = []  # bottom first, top last
        self.pile = 0  # bitmask of the discard pile
        self.known = [0, 0]  # cards each seat took face up from the pile and still holds
        self.taken = -1  # card taken from the discard pile this turn (GR-4)
        self.upcard = -1  # the first upcard of the hand (GR-2; Oklahoma's knock limit)
        self.upcard_refused = False  # both passed the first upcard: the stock only (GR-3)
        self.knock_limit = self.rules.knock_card
        self.knocker = -1
        self.gin = False
        self.melds: list[list[int]] = [[], []]  # melds each seat laid, in order (bitmasks)
        self.slots: list[int] = []  # the knocker's melds with the cards laid off on them
        self.laid_off = 0  # cards the defender laid off (bitmask)
        self.deadwood = [0, 0]  # each seat's deadwood when the hand was scored
        self.turn_number = 0  # turns started in this hand (a draw phase, or the first upcard)
        self.scores = [0, 0]  # net points given away over the game (lower is better)
        self.points = [0, 0]  # points scored over the game (GR-7, GR-9)
        self.deal_delta = [0, 0]
        self.last_deal_delta = [0, 0]
        self.deals_played = 0
        self.winner = -1
        self.result: str | None = None
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ basics
    @property
    def current_player(self) -> int:
        """Seat that acts now, or -1 when nobody does (hand or game over)."""
        return -1 if self.phase == DEAL_OVER or self.phase == GAME_OVER else self.to_move

    @property
    def is_deal_over(self) -> bool:
        return self.phase == DEAL_OVER or self.phase == GAME_OVER

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def hand_deadwood(self, seat: int) -> int:
        """Deadwood of ``seat``'s hand in its best arrangement (GR-5)."""
        return deadwood(self.hands[seat])

    def standings(self) -> list[int]:
        """Place of each seat (1 = best: the least given away net); ties share a place."""
        a, b = self.scores
        return [1 + (b < a), 1 + (a < b)]

    def clone(self) -> GinState:
        """An independent copy of this position."""
        new = GinState.__new__(GinState)
        new.__dict__.update(self.__dict__)
        new.hands = list(self.hands)
        new.stock = list(self.stock)
        new.discard = list(self.discard)
        new.known = list(self.known)
        new.melds = [list(m) for m in self.melds]
        new.slots = list(self.slots)
        new.deadwood = list(self.deadwood)
        new.scores = list(self.scores)
        new.points = list(self.points)
        new.deal_delta = list(self.deal_delta)
        new.last_deal_delta = list(self.last_deal_delta)
        new._legal = None
        return new

    # ------------------------------------------------------------------ dealing
    def start_deal(self, deal: int, rng: np.random.Generator) -> None:
        """Shuffle the pack and deal hand ``deal`` (GR-2): 10 cards each, one at a time from
        the non-dealer; the next card is the upcard; the rest is the stock. The non-dealer
        decides on the upcard first (GR-3)."""
        self.deal = deal
        cards = rng.permutation(NUM_NATURAL).tolist()
        first = 1 - self.dealer
        hands = [0, 0]
        for i in range(2 * HAND_SIZE):
            hands[(first + i) % 2] |= 1 << cards[i]
        self.hands = hands
        up = cards[2 * HAND_SIZE]
        self.discard = [up]
        self.pile = 1 << up
        self.stock = cards[2 * HAND_SIZE + 1:][::-1]  # top card last
        self._reset_hand_state(up)
        self.to_move = first
        self.phase = FIRST_UPCARD
        self.turn_number = 1

    def _reset_hand_state(self, upcard: int) -> None:
        self.upcard = upcard
        self.knock_limit = self.rules.knock_limit_for(upcard)
        self.upcard_refused = False
        self.known = [0, 0]
        self.taken = -1
        self.knocker = -1
        self.gin = False
        self.melds = [[], []]
        self.slots = []
        self.laid_off = 0
        self.deadwood = [0, 0]
        self.deal_delta = [0, 0]
        self.winner = -1
        self.result = None
        self.turn_number = 0
        self._legal = None

    def next_deal(self, rng: np.random.Generator) -> None:
        """After ``deal_over``: the deal passes to the other seat and the next hand is dealt."""
        if self.phase != DEAL_OVER:
            raise IllegalActionError(f"next_deal needs phase deal_over, not {self.phase}")
        self.dealer = 1 - self.dealer
        self.start_deal(self.deal + 1, rng)

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """The exact set of legal actions of the acting seat (empty when nobody acts). The list
        is cached for the position (and shared between positions for the draw phases): do not
        modify it."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._LEGAL[self.phase](self)
        return legal

    def _legal_first_upcard(self) -> list[Action]:
        return _UPCARD_ACTIONS  # GR-3

    def _legal_draw(self) -> list[Action]:
        return _DRAW_STOCK_ONLY if self.upcard_refused else _DRAW_BOTH  # GR-3, GR-4

    def _legal_none(self) -> list[Action]:
        return []  # the hand or the game is over: nobody acts

    def knock_options(self) -> int:
        """Cards (bitmask) whose discard leaves deadwood within the knock limit (GR-5), less
        the card taken from the discard pile this turn (GR-4); phase ``play`` only."""
        taken = self.taken
        return knock_discards(self.hands[self.to_move], self.knock_limit,
                              (1 << taken) if taken >= 0 else 0)

    def _legal_play(self) -> list[Action]:
        hand = self.hands[self.to_move]
        taken = self.taken
        allowed = hand & ~(1 << taken) if taken >= 0 else hand
        out = _discards(allowed)
        knocks = self.knock_options()
        if knocks:
            out.extend(_knocks(knocks))
        return out

    def _knock_limit_now(self) -> int:
        return 0 if self.gin else self.knock_limit

    def _legal_knock(self) -> list[Action]:
        """GR-5: melds whose laying keeps an arrangement within the limit reachable (so the
        knocker can always finish), and ``done`` once the cards left are within it."""
        hand = self.hands[self.knocker]
        limit = self._knock_limit_now()
        out: list[Action] = [MELD[MELD_INDEX[m]] for m in melds_in(hand)
                              if deadwood(hand & ~m) <= limit]
        out.sort()
        if value(hand) <= limit:
            out.append(DONE)
        return out

    def _legal_defend(self) -> list[Action]:
        """GR-6: any meld of the defender's cards, any lay-off on the knocker's melds (none
        against gin), and ``done``."""
        hand = self.hands[1 - self.knocker]
        out: list[Action] = [MELD[MELD_INDEX[m]] for m in melds_in(hand)]
        out.sort()
        if not self.gin:
            for k, slot in enumerate(self.slots):
                f = fits(slot) & hand
                while f:
                    low = f & -f
                    f ^= low
                    out.append(LAY_OFF[low.bit_length() - 1][k])
        out.append(DONE)
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, rng: np.random.Generator | None = None) -> None:
        """Apply a legal action; raises IllegalActionError (state unchanged) otherwise.
        ``rng`` is unused (no chance event within a hand) and kept for the shared interface."""
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {action_text(action) if _is_action(action) else action!r} is not legal "
                f"in phase {self.phase!r} for player_{self.current_player}; legal: "
                + ", ".join(action_text(a) for a in legal[:12])
                + (" ..." if len(legal) > 12 else "")
            )
        if type(action) is tuple:  # a plain tuple (users, tests, scenarios): its typed twin
            action = legal[legal.index(action)]
        self._legal = None
        self._APPLY[self.phase](self, action)

    def _apply_first_upcard(self, action: TakeDiscard | Pass) -> None:
        if action.kind == "pass":
            self._apply_pass(self.to_move)
        else:
            self._take_discard(self.to_move)

    def _apply_draw(self, action: DrawStock | TakeDiscard) -> None:
        if action.kind == "draw_stock":
            self.hands[self.to_move] |= 1 << self.stock.pop()
            self.upcard_refused = False
            self.phase = PLAY
        else:
            self._take_discard(self.to_move)

    def _take_discard(self, seat: int) -> None:
        """GR-3, GR-4: the top discard (or the first upcard) goes to the hand, face up."""
        t = self.discard.pop()
        bit = 1 << t
        self.pile ^= bit
        self.hands[seat] |= bit
        self.known[seat] |= bit
        self.taken = t
        self.phase = PLAY

    def _apply_play(self, action: Discard | Knock) -> None:
        if action.kind == "discard":
            self._apply_discard(self.to_move, action.card)
        else:
            self._apply_knock(self.to_move, action.card)

    def _apply_laying(self, action: Meld | LayOff | Done) -> None:
        """Phases ``knock`` and ``defend``: a meld, a lay-off (the defender's) or ``done``."""
        seat = self.to_move
        if action.kind == "meld":
            m = MELDS[action.meld]
            self.hands[seat] &= ~m
            self.known[seat] &= ~m
            self.melds[seat].append(m)
            if seat == self.knocker:
                self.slots.append(m)
        elif action.kind == "lay_off":
            bit = 1 << action.card
            self.hands[seat] &= ~bit
            self.known[seat] &= ~bit
            self.slots[action.slot] |= bit
            self.laid_off |= bit
        elif seat == self.knocker:  # done
            self.to_move = 1 - seat
            self.phase = DEFEND
        else:
            self._score()

    def _apply_discard(self, seat: int, t: int) -> None:
        """A discard ends the turn, or the hand when the stock is down to the wall (GR-8)."""
        bit = 1 << t
        self.hands[seat] ^= bit
        if self.known[seat] & bit:
            self.known[seat] ^= bit
        self.discard.append(t)
        self.pile |= bit
        self.taken = -1
        if len(self.stock) <= self.rules.wall:
            self._dead()  # GR-8: the drawer left the wall and did not knock
            return
        self.to_move = 1 - seat
        self.phase = DRAW
        self.turn_number += 1

    def _apply_pass(self, seat: int) -> None:
        """GR-3: a pass on the first up-card."""
        if seat != self.dealer:
            self.to_move = self.dealer  # GR-3: the dealer may take it next
        else:
            self.to_move = 1 - seat  # GR-3: both passed; the non-dealer draws the stock
            self.upcard_refused = True
            self.phase = DRAW

    def _apply_knock(self, seat: int, t: int) -> None:
        """A knock discards ``t`` face down and starts the knocker's melds (GR-5)."""
        bit = 1 << t
        hand = self.hands[seat] ^ bit
        self.hands[seat] = hand
        self.known[seat] &= ~bit
        self.discard.append(t)
        self.pile |= bit
        self.taken = -1
        self.knocker = seat
        self.gin = deadwood(hand) == 0  # GR-5: a knock with no deadwood is gin
        self.phase = KNOCK

    #: Per phase, the legal actions and how one applies: the one dispatch of ``legal_actions``
    #: and ``apply`` (OpenSpiel's gin_rummy has ApplyDrawAction, ApplyDiscardAction, ...); a
    #: handler of a phase with several kinds branches on ``action.kind``.
    _LEGAL: ClassVar[dict[str, Callable[[GinState], list[Action]]]] = {
        FIRST_UPCARD: _legal_first_upcard, DRAW: _legal_draw, PLAY: _legal_play,
        KNOCK: _legal_knock, DEFEND: _legal_defend, DEAL_OVER: _legal_none,
        GAME_OVER: _legal_none,
    }
    _APPLY: ClassVar[dict[str, Callable[[GinState, Any], None]]] = {
        FIRST_UPCARD: _apply_first_upcard, DRAW: _apply_draw, PLAY: _apply_play,
        KNOCK: _apply_laying, DEFEND: _apply_laying,
    }

    # ------------------------------------------------------------------ ending
    def _score(self) -> None:
        """GR-7: the knocker scores the difference of deadwood if lower; otherwise the
        defender undercuts and scores the difference plus the undercut bonus; gin scores the
        gin bonus plus the defender's deadwood."""
        r = self.rules
        k = self.knocker
        d = 1 - k
        kd = value(self.hands[k])
        dd = value(self.hands[d])
        self.deadwood = [0, 0]
        self.deadwood[k] = kd
        self.deadwood[d] = dd
        if self.gin:
            winner, pts, how = k, r.gin_bonus + dd, "gin"
        elif kd < dd:
            winner, pts, how = k, dd - kd, "knock"
        else:
            winner, pts, how = d, kd - dd + r.undercut_bonus, "undercut"
        delta = [0, 0]
        delta[winner] = -pts
        delta[1 - winner] = pts
        self.points[winner] += pts
        self.winner = winner
        self.result = how
        self._end_deal(delta)

    def _dead(self) -> None:
        self.winner = -1
        self.result = "dead"
        self._end_deal([0, 0])

    def _end_deal(self, delta: list[int]) -> None:
        self._book_deal(delta)
        self.taken = -1
        r = self.rules
        over = (r.game_to == 0 or max(self.points) >= r.game_to or self.deal >= r.num_deals)
        self.phase = GAME_OVER if over else DEAL_OVER

    # ------------------------------------------------------------------ text
    def action_text(self, a: Action) -> str:
        """Human text of an action (the codec's strings)."""
        return action_text(a)

    def render_text(self, viewer: int | None = None) -> str:
        """A readable table: the upcard and knock limit, the viewer's hand (or both), the
        discard top, the melds on the table, scores, whose turn and phase."""
        r = self.rules
        head = f"{r.name}  hand {self.deal}"
        if r.game_to:
            head += f" (game to {r.game_to}: points {self.points[0]}-{self.points[1]})"
        limit = "gin only" if self.knock_limit == 0 else f"knock with {self.knock_limit} or less"
        lines = [head + f"  first upcard: {card_str(self.upcard)}  {limit}"]
        actor = self.current_player
        who = f"player_{actor}" if actor >= 0 else "nobody"
        lines.append(f"phase: {self.phase}  acting: {who}  dealer: player_{self.dealer}")
        top = card_str(self.discard[-1]) if self.discard else "--"
        lines.append(f"stock: {len(self.stock)}  discard pile: {len(self.discard)}  top: {top}")
        if self.taken >= 0:
            lines.append(f"taken from the discard pile this turn: {card_str(self.taken)}")
        for s in (0, 1):
            mark = "*" if s == actor else " "
            info = f"{mark}player_{s}: {self.hand_size(s):2d} cards  score {-self.scores[s]:+d}"
            if viewer is None or viewer == s or self.is_deal_over:
                info += "  hand: " + cards_str(card_list(self.hands[s]))
                if self.phase in (FIRST_UPCARD, DRAW, PLAY) and self.hand_size(s) <= 10:
                    info += f"  (deadwood {deadwood(self.hands[s])})"
            lines.append(info)
        for s in (0, 1):
            if self.melds[s]:
                shown = self.slots if s == self.knocker else self.melds[s]
                lines.append(f"  melds of player_{s}: " + " | ".join(
                    f"{k}: {cards_str(card_list(m))}" if s == self.knocker
                    else cards_str(card_list(m)) for k, m in enumerate(shown)))
        if self.knocker >= 0:
            lines.append(f"player_{self.knocker} {'went gin' if self.gin else 'knocked'}"
                         + (f"; laid off: {cards_str(card_list(self.laid_off))}"
                            if self.laid_off else ""))
        if self.is_deal_over:
            if self.result == "dead":
                lines.append("hand over: dead, the stock reached the wall (GR-8); no score")
            else:
                lines.append(f"hand over: player_{self.winner} scores "
                             f"{-self.last_deal_delta[self.winner]} ({self.result}; deadwood "
                             f"{self.deadwood[0]} and {self.deadwood[1]})")
        return "\n".join(lines)

    # ------------------------------------------------------------------ conservation
    def zone_counts(self) -> list[int]:
        """Count of every card type over every zone (must equal the deck: cards conserved)."""
        tot = [0] * 53
        places = list(self.hands) + [m for ms in self.melds for m in ms] + [self.laid_off]
        for m in places:
            for t in card_list(m):
                tot[t] += 1
        for t in self.stock:
            tot[t] += 1
        for t in self.discard:
            tot[t] += 1
        return tot

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)


def _is_action(a: Any) -> bool:
    if not isinstance(a, tuple) or not a:
        return False
    k = a[0]
    if k in ("draw_stock", "take_discard", "pass", "done"):
        return len(a) == 1
    if k in ("discard", "knock"):
        return len(a) == 2 and isinstance(a[1], int) and 0 <= a[1] < NUM_NATURAL
    if k == "meld":
        return len(a) == 2 and isinstance(a[1], int) and 0 <= a[1] < len(MELDS)
    if k == "lay_off":
        return (len(a) == 3 and isinstance(a[1], int) and 0 <= a[1] < NUM_NATURAL
                and isinstance(a[2], int) and 0 <= a[2] < MAX_SLOTS)
    return False


def action_text(a: tuple[Any, ...]) -> str:
    """Text of an action: ``draw stock``, ``take discard``, ``pass``, ``discard QS``,
    ``knock discarding QS``, ``meld 7C 7D 7H``, ``lay off 8S on 0``, ``done``."""
    # By position: plain tuples arrive here too (a user's action in apply's error message).
    k = a[0]
    if k == "draw_stock":
        return "draw stock"
    if k == "take_discard":
        return "take discard"
    if k == "pass":
        return "pass"
    if k == "done":
        return "done"
    if k == "discard":
        return f"discard {card_str(a[1])}"
    if k == "knock":
        return f"knock discarding {card_str(a[1])}"
    if k == "meld":
        return "meld " + " ".join(card_str(t) for t in card_list(MELDS[a[1]]))
    if k == "lay_off":
        return f"lay off {card_str(a[1])} on {a[2]}"
    raise ValueError(f"unknown action {a!r}")


def state_to_dict(st: GinState) -> dict[str, Any]:
    """The full position as plain data, with ``zones`` (every card exactly once); what
    ``to_dict()`` returns and :func:`rummy_env.gin.scenario.state_from_dict` reads back."""
    def cs(mask: int) -> list[str]:
        return [card_str(t) for t in card_list(mask)]

    hands = [cs(h) for h in st.hands]
    table: list[dict[str, Any]] = []
    for s in (0, 1):
        laid = st.slots if s == st.knocker else st.melds[s]
        table.extend({"owner": s, "cards": cs(m)} for m in laid)
    if st.knocker == 1:  # the knocker's melds come first (lay-off targets 0, 1, 2)
        table = [t for t in table if t["owner"] == 1] + [t for t in table if t["owner"] == 0]
    d: dict[str, Any] = {
        **position_head(st, hands),
        "discard": [card_str(t) for t in st.discard],
        "upcard": card_str(st.upcard) if st.upcard >= 0 else None,
        "knock_limit": st.knock_limit,
        "upcard_refused": st.upcard_refused,
        "known": [cs(k) for k in st.known],
        "taken": card_str(st.taken) if st.taken >= 0 else None,
        "knocker": st.knocker,
        "gin": st.gin,
        "table": table,
        "laid_off": cs(st.laid_off),
        "scores": list(st.scores),
        "points": list(st.points),
        "deal_delta": list(st.deal_delta),
        "deals_played": st.deals_played,
        "turn": {
            "number": st.turn_number,
            "winner": st.winner,
            "result": st.result,
            "last_deal_delta": list(st.last_deal_delta),
            "deadwood": list(st.deadwood),
        },
    }
    d["zones"] = {
        **zones_head(d), "discard": d["discard"],
        "table": [c for m in table for c in m["cards"]],
    }
    return d


__all__ = [
    "Action", "GinGame", "GinState", "action_text", "Phase", "PHASES", "RESULTS", "HAND_SIZE",
    "MAX_SLOTS", "FIRST_UPCARD", "DRAW", "PLAY", "KNOCK", "DEFEND", "DEAL_OVER", "GAME_OVER",
    "CARD_VALUE",
    "state_to_dict",
]
