"""The Manipulation Rummy rules engine: game constants and a mutable game state.

Pure Python (no gymnasium, pettingzoo or torch). ``ManipulationGame`` is immutable: the rules,
the player count and the deck derived from them. ``ManipulationState`` is one position with a
phase state machine:

=============  ==========================================================================
phase          who acts and what they may do
=============  ==========================================================================
``meld``       the player to move, after a draw (MR-2; none in the extra turns of MR-9):
               one step of a meld (play a natural card, play a joker as a stated card, free
               a bound joker with its real card from hand or table, MR-4/MR-5), finish the
               meld, or, before any step, decline to meld (the next draw follows, MR-2)
``knock``      the player to move, at the end of their turn with a hand worth
               ``knock_limit`` or less: knock (the deal ends, MR-7) or not
``deal_over``  nobody: the deal is scored (MR-8); ``next_deal`` deals the next one
``game_over``  nobody: a player reached ``game_target`` (MR-10) or ``num_deals`` were played
=============  ==========================================================================

Draws are not actions: the engine draws the top stock card when a turn starts and after each
decline (MR-2); a draw the empty stock cannot supply is skipped. Actions are named tuples, one
class per kind (:mod:`rummy_env.manipulation.actions` lists them and their fields), each equal to
the plain tuple it replaces and turned into an integer only by the codec: ``Play(card)`` is
``("play", card)``, ``PlayJoker(card)`` (``("joker", card)``: a joker, the freed one if any is
pending, else one from hand, played as natural type ``card``), ``FreeHand(card)``,
``FreeTable(card)`` (free a joker bound to ``card`` with the real ``card`` from hand / from the
table), ``Finish()``, ``Decline()``, ``Knock()``, ``NoKnock()``. Each phase has its legal actions
and its way to apply one (``_LEGAL`` and ``_APPLY``, by phase).

The table is a multiset of card types: ``table_nat[t]`` natural cards and ``table_jok[t]`` jokers
standing for ``t`` (MR-5); ``pending`` jokers freed this turn wait to be played again. Any
arrangement of the table into melds is as good as another (MR-4 lets a player rearrange it
all), so the engine keeps the multiset and the solver (``rummy_env.manipulation.solver``)
decides validity and gives one arrangement for ``render``.

Scores: ``points[s]`` is seat ``s``'s game total in MR-8/MR-10 points, higher is better, and
``last_deal_points`` what each seat scored in the last deal (game bonuses included when it was
the last). The package's shared convention is "lower is better" (penalty points for the
contract family, net points paid for Indian Rummy), so ``scores`` and ``last_deal_delta`` are
their negatives: the environment's reward ``-last_deal_delta * reward_scale`` is the deal's
points, and standings and wrappers read ``scores`` as for every other variant.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from rummy_env.cards import (
    JOKER, NUM_NATURAL, NUM_TYPES, card_str, cards_str, counts_to_list, deck_list,
    rank_of,
)
from rummy_env.core import GameBase, StateBase, position_head, zones_head
from rummy_env.errors import IllegalActionError
from rummy_env.manipulation import solver
from rummy_env.manipulation.actions import (
    DECLINE, FINISH, FREE_HAND, FREE_TABLE, NO_KNOCK, PLAY, PLAY_JOKER, Action, Decline, Finish,
    FreeHand, FreeTable, Knock, NoKnock, Play, PlayJoker,
)
from rummy_env.manipulation.actions import KNOCK as _KNOCK  # KNOCK here is the phase
from rummy_env.manipulation.rules import ManipulationRules
from rummy_env.phases import PhaseEnum
from rummy_env.rules_base import places

class Phase(PhaseEnum):
    """The phases of a Manipulation Rummy deal (module docstring); each equals its string."""

    MELD = "meld"
    KNOCK = "knock"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


# The module names every caller uses (``from rummy_env.manipulation.state import MELD``).
MELD, KNOCK, DEAL_OVER, GAME_OVER = Phase.MELD, Phase.KNOCK, Phase.DEAL_OVER, Phase.GAME_OVER
PHASES = (MELD, KNOCK, DEAL_OVER, GAME_OVER)
#: How a deal ended (``ManipulationState.result``).
RESULTS = ("out", "knock", "stock")
_TYPES = range(NUM_TYPES)


def card_value(t: int, joker_value: int = 25) -> int:
    """MR-6: joker 25, J Q K 10, 2-10 face value, A 1."""
    if t == JOKER:
        return joker_value
    return min(rank_of(t), 10)


_VALUES = tuple(card_value(t) for t in range(NUM_NATURAL))


@dataclass(frozen=True)
class ManipulationGame(GameBase):
    """Immutable: rules, player count and the deck derived from them (not constructor
    arguments: :class:`~rummy_env.core.GameBase`)."""

    rules: ManipulationRules

    def new_state(self, rng: np.random.Generator, first_deal: int = 1) -> ManipulationState:
        """A new game: the first dealer drawn at random (C-5), deal ``first_deal`` dealt."""
        st = ManipulationState(self)
        st.dealer = int(rng.integers(self.num_players))
        st.start_deal(first_deal, rng)
        return st


class ManipulationState(StateBase):
    """A mutable position of a Manipulation Rummy game. See the module docstring."""

    def __init__(self, game: ManipulationGame) -> None:
        n = game.num_players
        self.game = game
        self.rules = game.rules
        self.n = n
        self.deal = 1
        self.dealer = 0
        self.to_move = 0
        self.phase = MELD
        self.hands: list[list[int]] = [[0] * NUM_TYPES for _ in range(n)]
        self.stock: list[int] = []  # top card last
        self.table_nat = [0] * NUM_NATURAL
        self.table_jok = [0] * NUM_NATURAL  # jokers on the table, by the card they stand for
        self.locked = [0] * NUM_NATURAL  # of those, played this turn (not freed again)
        self.pending = 0  # jokers freed this turn, to be played again (MR-5)
        self.draws = 0  # draws of this turn, skipped ones included (MR-2)
        self.added = False  # a hand card went to the table this turn (MR-4)
        self.melding = False  # a meld step was taken this turn
        self.final_round = False  # MR-9: the stock ran out; extra turns without a draw
        self.final_left = 0  # extra turns left, the current one included
        self.turn_number = 0
        self.points = [0] * n  # game totals, higher is better (MR-8, MR-10)
        self.deals_won = [0] * n
        self.deal_points = [0] * n
        self.last_deal_points = [0] * n
        self.deals_played = 0
        self.knocker = -1
        self.winners: list[int] = []
        self.result: str | None = None
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ basics
    @property
    def scores(self) -> list[int]:
        """Package convention (lower is better): minus the game totals."""
        return [-p for p in self.points]

    @property
    def last_deal_delta(self) -> list[int]:
        """Package convention: minus the points each seat scored in the last deal."""
        return [-p for p in self.last_deal_points]

    @property
    def current_player(self) -> int:
        return self.to_move if self.phase in (MELD, KNOCK) else -1

    @property
    def is_deal_over(self) -> bool:
        return self.phase in (DEAL_OVER, GAME_OVER)

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def hand_value(self, seat: int) -> int:
        """MR-6: the value of ``seat``'s hand."""
        h = self.hands[seat]
        # (map over the values: a third of a generator's cost, once or twice a step)
        return sum(map(operator.mul, _VALUES, h)) + h[JOKER] * self.rules.joker_value

    def table_counts(self) -> tuple[int, ...]:
        """Effective table: naturals plus the jokers by the card they stand for."""
        return tuple(map(operator.add, self.table_nat, self.table_jok))

    def table_size(self) -> int:
        return sum(self.table_nat) + sum(self.table_jok) + self.pending

    def query(self) -> solver.Query:
        """The turn in progress as the solver sees it."""
        # (map over the lists: half the cost of generator expressions, once per mask)
        return solver.Query(
            self.table_counts(), tuple(self.table_nat),
            tuple(map(operator.sub, self.table_jok, self.locked)),
            tuple(self.hands[self.to_move]), self.pending, self.added)

    def returns(self) -> list[float]:
        return [float(p) for p in self.points]

    def clone(self) -> ManipulationState:
        new = ManipulationState.__new__(ManipulationState)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.table_nat = list(self.table_nat)
        new.table_jok = list(self.table_jok)
        new.locked = list(self.locked)
        new.points = list(self.points)
        new.deals_won = list(self.deals_won)
        new.deal_points = list(self.deal_points)
        new.last_deal_points = list(self.last_deal_points)
        new.winners = list(self.winners)
        new._legal = None
        return new

    # ------------------------------------------------------------------ dealing
    def start_deal(self, deal: int, rng: np.random.Generator) -> None:
        """Shuffle all cards (C-6), deal ``hand_size`` each starting after the dealer (MR-1);
        the rest is the stock; the next seat after the dealer plays first (MR-1)."""
        g, n = self.game, self.n
        self.deal = deal
        deck = deck_list(g.packs, g.num_jokers)
        order = rng.permutation(len(deck))
        cards = [deck[i] for i in order]
        h = self.rules.hand_size
        self.hands = [[0] * NUM_TYPES for _ in range(n)]
        first = (self.dealer + 1) % n
        for i in range(h * n):
            self.hands[(first + i) % n][cards[i]] += 1
        self.stock = cards[h * n:][::-1]
        self.table_nat = [0] * NUM_NATURAL
        self.table_jok = [0] * NUM_NATURAL
        self.final_round = False
        self.final_left = 0
        self.turn_number = 0
        self.deal_points = [0] * n
        self.knocker = -1
        self.winners = []
        self.result = None
        self.to_move = first
        self.begin_turn()

    def next_deal(self, rng: np.random.Generator) -> None:
        """After ``deal_over``: the deal passes to the next seat (C-5)."""
        if self.phase != DEAL_OVER:
            raise IllegalActionError(f"next_deal needs phase deal_over, not {self.phase}")
        self.dealer = (self.dealer + 1) % self.n
        self.start_deal(self.deal + 1, rng)

    def begin_turn(self) -> None:
        """A turn starts: the first draw (MR-2), none in the extra turns (MR-9)."""
        self.turn_number += 1
        self.draws = 0
        self.added = False
        self.melding = False
        self.pending = 0
        self.locked = [0] * NUM_NATURAL
        self.phase = MELD
        self._legal = None
        if not self.final_round:
            self._draw()

    def _draw(self) -> None:
        """MR-2: draw the top stock card; a draw the stock cannot supply is skipped."""
        self.draws += 1
        if self.stock:
            self.hands[self.to_move][self.stock.pop()] += 1

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """The exact set of legal actions of the acting seat (empty when nobody acts)."""
        if self._legal is None:
            self._legal = self._LEGAL[self.phase](self)
        return self._legal

    def _legal_knock(self) -> list[Action]:
        return [_KNOCK, NO_KNOCK]  # MR-7

    def _legal_none(self) -> list[Action]:
        return []  # the deal or the game is over: nobody acts

    def _legal_meld(self) -> list[Action]:
        # The query as the bytes of its counts (``solver.step_options_counts``): cheaper to
        # build, hash and hand to the compiled core than a ``Query`` of tuples.
        nat, jok = self.table_nat, self.table_jok
        try:
            counts = (bytes(map(operator.add, nat, jok)) + bytes(nat)
                      + bytes(map(operator.sub, jok, self.locked))
                      + bytes(self.hands[self.to_move]))
        except ValueError:  # a count outside 0..255: not a position of the rules
            opts = solver.step_options(self.query())
        else:
            opts = solver.step_options_counts(counts, self.pending, self.added)
        out: list[Action] = [PLAY[t] for t in opts.play]
        out.extend(PLAY_JOKER[t] for t in opts.joker)
        out.extend(FREE_HAND[t] for t in opts.free_hand)
        out.extend(FREE_TABLE[t] for t in opts.free_table)
        if opts.finish:
            out.append(FINISH)
        if not self.melding:
            out.append(DECLINE)
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, rng: np.random.Generator | None = None) -> None:
        """Apply a legal action; raises IllegalActionError (state unchanged) otherwise."""
        legal = self.legal_actions()
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

    def _apply_meld(self, action: Play | PlayJoker | FreeHand | FreeTable | Finish | Decline,
                    ) -> None:
        """MR-2, MR-4, MR-5: one step of a meld, its end, or a decline."""
        seat = self.to_move
        hand = self.hands[seat]
        if action.kind == "play":
            t = action.card
            hand[t] -= 1
            self.table_nat[t] += 1
            self.added = self.melding = True
        elif action.kind == "joker":
            t = action.card
            if self.pending:
                self.pending -= 1  # MR-5: the freed joker is played again first
            else:
                hand[JOKER] -= 1
                self.added = True
            self.table_jok[t] += 1
            self.locked[t] += 1
            self.melding = True
        elif action.kind == "free_hand":
            t = action.card
            hand[t] -= 1
            self.table_nat[t] += 1
            self.table_jok[t] -= 1
            self.pending += 1
            self.added = self.melding = True
        elif action.kind == "free_table":
            t = action.card
            self.table_jok[t] -= 1
            self.pending += 1
            self.melding = True
        elif action.kind == "finish":
            self.locked = [0] * NUM_NATURAL
            self.melding = False
            if not any(hand):
                self._settle(seat, "out")  # MR-7: going out ends the deal
                return
            self._end_turn()
        elif self.final_round or self.draws >= 2:  # a decline that ends the turn
            if not self.final_round:
                self._draw()  # MR-2: the third card, and no meld this turn
            self._end_turn()
        else:  # a decline
            self._draw()  # MR-2: the next card; the player may meld again

    def _apply_knock(self, action: Knock | NoKnock) -> None:
        if action.kind == "knock":
            self._settle(self.to_move, "knock")  # MR-7
        else:
            self._advance()

    def _end_turn(self) -> None:
        """MR-7: a hand worth ``knock_limit`` or less may knock at the end of the turn."""
        if self.hand_value(self.to_move) <= self.rules.knock_limit:
            self.phase = KNOCK
            self._legal = None
            return
        self._advance()

    def _advance(self) -> None:
        """Pass the turn; MR-9: the stock ran out, so every player has one more turn."""
        if self.final_round:
            self.final_left -= 1
            if self.final_left <= 0:
                self._settle(-1, "stock")
                return
        elif not self.stock:
            # The player to move took the last card: the extra turns start after them and
            # end with them [decision].
            self.final_round = True
            self.final_left = self.n
        self.to_move = (self.to_move + 1) % self.n
        self.begin_turn()

    #: Per phase, the legal actions and how one applies: the one dispatch of ``legal_actions``
    #: and ``apply``; a handler of a phase with several kinds branches on ``action.kind``.
    _LEGAL: ClassVar[dict[str, Callable[[ManipulationState], list[Action]]]] = {
        MELD: _legal_meld, KNOCK: _legal_knock, DEAL_OVER: _legal_none, GAME_OVER: _legal_none,
    }
    _APPLY: ClassVar[dict[str, Callable[[ManipulationState, Any], None]]] = {
        MELD: _apply_meld, KNOCK: _apply_knock,
    }

    # ------------------------------------------------------------------ scoring
    def deal_scores(self, ender: int, how: str) -> tuple[list[int], list[int]]:
        """MR-8: each seat's points for the deal if it ended now (``how``: ``out`` or
        ``knock`` by ``ender``, or ``stock``: counted without a knock), and the winners."""
        vals = [self.hand_value(s) for s in range(self.n)]
        low = min(vals)
        tied = [s for s in range(self.n) if vals[s] == low]
        r = self.rules
        if how in ("out", "knock") and tied == [ender]:
            winners, bonus = [ender], 0
        elif how == "knock":
            winners, bonus = [s for s in tied if s != ender], r.knock_bonus
        else:
            winners, bonus = tied, 0  # MR-9: nobody knocked, nobody gets the 10
        pts = [0] * self.n
        for w in winners:
            pts[w] = sum(vals[s] - vals[w] for s in range(self.n)) + bonus
            if how == "out" and w == ender:
                pts[w] += r.go_out_bonus
        return pts, winners

    def penalty(self, seat: int) -> float:
        """Package convention (lower is better): minus what ``seat`` would score if the
        hands were counted now without a knock (MR-9)."""
        return -float(self.deal_scores(-1, "stock")[0][seat])

    def _settle(self, ender: int, how: str) -> None:
        pts, winners = self.deal_scores(ender, how)
        r = self.rules
        for w in winners:
            self.deals_won[w] += 1
        for s in range(self.n):
            self.points[s] += pts[s]
        self.knocker = ender if how == "knock" else -1
        self.winners = winners
        self.result = how
        self.deals_played += 1
        reached = [s for s in range(self.n) if self.points[s] >= r.game_target]
        over = bool(reached) or self.deal >= r.num_deals
        if reached:
            # MR-10: a bonus to each player who reached the target; 25 per deal won to
            # every other player.
            for s in range(self.n):
                extra = r.target_bonus if s in reached else r.deal_won_bonus * self.deals_won[s]
                pts[s] += extra
                self.points[s] += extra
        self.deal_points = pts
        self.last_deal_points = list(pts)
        self.pending = 0
        self.locked = [0] * NUM_NATURAL
        self._legal = []
        self.phase = GAME_OVER if over else DEAL_OVER

    def standings(self) -> list[int]:
        """Place of each seat (1 = the highest total); ties share a place (C-9)."""
        return places(self.points, low_wins=False)

    # ------------------------------------------------------------------ text
    def action_text(self, a: Action) -> str:
        return action_text(a)

    def table_shown(self) -> list[tuple[str | None, list[str]]]:
        """One valid arrangement of the table (MR-4) as ``(kind, cards)`` melds, jokers shown as
        ``JK=7H``; mid-meld, when the table is no valid arrangement, one entry of kind ``None``
        with the unfinished table as it stands. What ``table_text`` and ``to_dict`` show."""
        eff = self.table_counts()
        jok = list(self.table_jok)

        def show(t: int) -> str:
            if jok[t]:
                jok[t] -= 1
                return f"JK={card_str(t)}"
            return card_str(t)

        melds = solver.arrange(eff) if sum(eff) else []
        if melds is None:
            return [(None, [show(t) for t in counts_to_list(eff)])]
        return [(kind, [show(t) for t in ts]) for kind, ts in melds]

    def table_text(self) -> str:
        """One valid arrangement of the table (MR-4), jokers shown as ``JK=7H``; mid-meld an
        unfinished table is listed as it stands."""
        shown = self.table_shown()
        if shown and shown[0][0] is None:
            lines = ["  (being rearranged) " + " ".join(shown[0][1])]
        else:
            lines = [f"  {str(kind)[:3]} " + " ".join(cards) for kind, cards in shown]
        if self.pending:
            lines.append(f"  freed jokers to play again: {self.pending}")
        return "\n".join(lines) if lines else "  (empty)"

    def render_text(self, viewer: int | None = None) -> str:
        r = self.rules
        lines = [f"{r.name}  deal {self.deal}  target {r.game_target}  stock: {len(self.stock)}"
                 + ("  extra turns (MR-9)" if self.final_round else "")]
        actor = self.current_player
        who = f"player_{actor}" if actor >= 0 else "nobody"
        lines.append(f"phase: {self.phase}  turn of player_{self.to_move}  acting: {who}"
                     f"  dealer: player_{self.dealer}  draws this turn: {self.draws}")
        lines.append(f"table ({sum(self.table_counts()) + self.pending} cards):")
        lines.append(self.table_text())
        for s in range(self.n):
            mark = "*" if s == actor else " "
            info = (f"{mark}player_{s}: {self.hand_size(s):2d} cards  points {self.points[s]:4d}"
                    f"  deals won {self.deals_won[s]}")
            if viewer is None or viewer == s:
                info += f"  value {self.hand_value(s)}  hand: " + cards_str(
                    counts_to_list(self.hands[s]))
            lines.append(info)
        if self.is_deal_over:
            lines.append("deal over (" + str(self.result) + "): " + ", ".join(
                f"player_{s} {self.last_deal_points[s]:+d}" for s in range(self.n)))
        return "\n".join(lines)

    # ------------------------------------------------------------------ conservation
    def zone_counts(self) -> list[int]:
        """Count of every card type over every zone (must equal the deck)."""
        tot = [0] * NUM_TYPES
        for h in self.hands:
            for t in range(NUM_TYPES):
                tot[t] += h[t]
        for t in self.stock:
            tot[t] += 1
        for t in range(NUM_NATURAL):
            tot[t] += self.table_nat[t]
        tot[JOKER] += sum(self.table_jok) + self.pending
        return tot

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)


def _is_action(a: Any) -> bool:
    return isinstance(a, tuple) and bool(a) and (
        (len(a) == 1 and a[0] in ("finish", "decline", "knock", "no_knock"))
        or (len(a) == 2 and a[0] in ("play", "joker", "free_hand", "free_table")
            and isinstance(a[1], int) and 0 <= a[1] < NUM_NATURAL))


def action_text(a: tuple[Any, ...]) -> str:
    """Text of an action: ``play 7H``, ``joker as 7H``, ``free JK=7H with hand 7H``,
    ``free JK=7H with table 7H``, ``finish meld``, ``decline meld``, ``knock``, ``no knock``."""
    # By position: plain tuples arrive here too (a user's action in apply's error message).
    k = a[0]
    if k == "play":
        return f"play {card_str(a[1])}"
    if k == "joker":
        return f"joker as {card_str(a[1])}"
    if k == "free_hand":
        return f"free joker {card_str(a[1])} from hand"
    if k == "free_table":
        return f"free joker {card_str(a[1])} from table"
    if k == "finish":
        return "finish meld"
    if k == "decline":
        return "decline meld"
    if k == "knock":
        return "knock"
    if k == "no_knock":
        return "no knock"
    raise ValueError(f"unknown action {a!r}")


def state_to_dict(st: ManipulationState) -> dict[str, Any]:
    """The full position as plain data, with ``zones`` (every card exactly once); what
    ``to_dict()`` returns and :func:`rummy_env.manipulation.scenario.state_from_dict` reads back."""
    hands = [[card_str(t) for t in counts_to_list(h)] for h in st.hands]
    table = [cards for _, cards in st.table_shown()]  # mid-meld: the unfinished table, one list
    d: dict[str, Any] = {
        **position_head(st, hands),
        "table": table,
        "points": list(st.points),
        "deals_won": list(st.deals_won),
        "deals_played": st.deals_played,
        "turn": {
            "number": st.turn_number,
            "draws": st.draws,
            "melding": st.melding,
            "added": st.added,
            "pending": st.pending,
            "locked": [card_str(t) for t in counts_to_list(st.locked + [0])],
            "final_round": st.final_round,
            "final_left": st.final_left,
            "knocker": st.knocker,
            "winners": list(st.winners),
            "result": st.result,
            "last_deal_points": list(st.last_deal_points),
        },
    }
    table_zone = [card_str(t) for t in counts_to_list(st.table_nat + [0])]
    table_zone += ["JK"] * (sum(st.table_jok) + st.pending)
    zones = zones_head(d)
    zones["table"] = table_zone
    d["zones"] = zones
    return d


__all__ = ["Action", "ManipulationGame", "ManipulationState", "action_text", "card_value",
           "Phase", "PHASES", "RESULTS", "MELD", "KNOCK", "DEAL_OVER", "GAME_OVER",
           "state_to_dict"]
