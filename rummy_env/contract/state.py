"""The contract-family rules engine: game constants and a mutable game state.

Pure Python (no gymnasium, pettingzoo or torch). ``ContractGame`` is immutable: the rules, the
player count and the constants derived from them (deck, most table melds, action shapes).
``ContractState`` is one position with a phase state machine:

====================  =====================================================================
phase                 who acts and what they may do
====================  =====================================================================
``draw``              the player to move: draw stock, take the top discard, dig (SP-4)
``claim``             a player who may claim the top discard (CR-7): claim or pass
``call``              a player who may call Shanghai on the discard just made (SH-6): call
                      (lay it off on a meld) or pass
``play``              the player to move, after drawing: contract melds (one per action,
                      CR-3/CR-5), lay-offs (CR-10), joker swaps (CR-8), discard (CR-5)
``deal_over``         nobody: the deal has been scored (CR-12); ``next_deal`` starts the next
``game_over``         nobody: the last deal has been scored
====================  =====================================================================

Actions are named tuples, one class per kind (:mod:`rummy_env.contract.actions` lists them and
their fields), each equal to the plain tuple it replaces and turned into an integer only by the
codec: ``DrawStock()`` is ``("draw_stock",)``, ``TakeDiscard()``, ``Dig(depth)``, ``Buy()``,
``Claim()``, ``Pass()``, ``Meld(shape)``, ``LayOff(card, meld, low)``, ``Swap(card, meld)``,
``Discard(card)``, ``Announce(card)`` (discard announcing Shanghai, SH-6a), ``Call(meld, low)``
(call Shanghai on the top discard and lay it off on ``meld``, SH-6b). Each phase has its legal
actions and its way to apply one (``_LEGAL`` and ``_APPLY``, by phase).

Decisions where RULES leaves room (each also in the variant docstrings):

* A deal ends with no one out (CR-11) when a turn starts, a claim window ends or a buy before the
  draw (PR-6) is made with the stock left empty and at most one discard: nothing can be reshuffled
  (the top discard stays, C-7), so no card can be drawn from the stock, though the top discard
  could be taken; a scenario in phase ``draw`` in that state is refused.
* A claim is offered only to players who did not discard the card (C-8), who did not claim the
  previous card of the same window (CR-7), who are within ``claims_per_deal``, and when the
  penalty cards can be drawn (C-8).
* Where ``no_discard_taken`` applies (SP-4) and every card left in hand is of the type just taken,
  that card may be discarded: otherwise the player could neither discard nor keep it.
* A joker freed by a swap (CR-8) must be laid off before the player discards; a swap is legal only
  if a joker can then be laid off.
* Where a player may not go out by discarding (TP-3), the discard needs two cards in hand, and a
  meld or lay-off may leave exactly one card only if that card can then be laid off: laying off
  the last two cards one action at a time is the same move as laying both off at once.
* A Shanghai call (SH-6b) takes the discarder's card at random from the caller's hand with the
  seeded generator; a caller whose hand that empties has gone out. Which face-up cards the
  caller still holds is then uncertain, so ``known`` drops by one for every type of the caller. A dig obligation (SP-4) likewise blocks the discard until a
  card of the dug type is on the table, and every step keeps that possible.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from rummy_env.cards import (
    JOKER, NUM_TYPES, card_str, cards_str, counts_to_list, deck_list,
)
from rummy_env.actions import kind_arity
from rummy_env.contract import turn
from rummy_env.contract.actions import (
    BUY, DRAW_STOCK, PASS, TAKE_DISCARD, Action, Announce, Buy, Call, Claim, Dig, Discard,
    DrawStock, LayOff, Meld, Pass, Swap, TakeDiscard, call, dig, lay_off,
)
from rummy_env.contract.actions import CLAIM as _CLAIM  # CLAIM here is the phase
from rummy_env.contract.melds import (
    ContractContext, Shape, TableMeld, allocate,
    iter_shapes,
    joker_lower_bound, pos_type, req_for_shape,
    shape_cards,
)
from rummy_env.contract.rules import ContractRules
from rummy_env.core import GameBase, StateBase, position_head, zones_head
from rummy_env.errors import IllegalActionError
from rummy_env.phases import PhaseEnum

class Phase(PhaseEnum):
    """The phases of a contract-family deal (module docstring); each equals its string."""

    DRAW = "draw"
    CLAIM = "claim"
    PLAY = "play"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"
    CALL = "call"


# The module names every caller uses (``from rummy_env.contract.state import DRAW``).
DRAW, CLAIM, PLAY, DEAL_OVER, GAME_OVER = (
    Phase.DRAW, Phase.CLAIM, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER)
CALL = Phase.CALL
#: Every phase; a game's own are ``ContractGame.phases`` (``call`` only with Shanghai calls, so
#: the observation of the other variants keeps its size).
PHASES = (DRAW, CLAIM, PLAY, DEAL_OVER, GAME_OVER, CALL)


@dataclass(frozen=True)
class ContractGame(GameBase):
    """Immutable: rules, player count and the sizes derived from them (not constructor
    arguments: :class:`~rummy_env.core.GameBase`)."""

    rules: ContractRules

    def __post_init__(self) -> None:
        super().__post_init__()  # packs, num_jokers, deck, total_cards
        packs, jokers = self.packs, self.num_jokers
        most = max(c.num_melds for c in self.rules.contracts)
        object.__setattr__(self, "max_melds", self.num_players * most)
        if self.rules.exact_contract_sizes:
            max_set = max((max(c.sets) for c in self.rules.contracts if c.sets), default=3)
        else:
            max_set = 4 * packs + jokers
            if self.rules.set_distinct_suits:
                max_set = min(max_set, 4)
            if self.rules.set_max is not None:
                max_set = min(max_set, self.rules.set_max)
        object.__setattr__(self, "max_set", max_set)
        object.__setattr__(self, "shapes", tuple(iter_shapes(self.rules, max_set)))
        object.__setattr__(self, "max_dig", self.total_cards if self.rules.dig else 1)
        object.__setattr__(self, "phases", PHASES if self.rules.shanghai else PHASES[:5])
        r = self.rules
        object.__setattr__(self, "contexts", tuple(
            ContractContext(rules=r, contract=c, whole_hand=d in r.whole_hand_deals,
                            contiguity=d in r.contiguity_deals,
                            layoffs=d in r.whole_hand_deals and r.final_layoffs)
            for d, c in enumerate(r.contracts, start=1)))

    max_melds: int = field(init=False, default=0)
    max_set: int = field(init=False, default=0)
    shapes: tuple[Shape, ...] = field(init=False, default=())
    max_dig: int = field(init=False, default=1)
    phases: tuple[str, ...] = field(init=False, default=())
    #: what the contract search needs, per deal
    contexts: tuple[ContractContext, ...] = field(init=False, default=())

    def new_state(self, rng: np.random.Generator, first_deal: int = 1,
                  scores: Sequence[int] | None = None) -> ContractState:
        """A new game: the first dealer drawn at random (C-5), deal ``first_deal`` dealt."""
        st = ContractState(self)
        st.dealer = int(rng.integers(self.num_players))
        if scores is not None:
            st.scores = list(scores)
        st.start_deal(first_deal, rng)
        return st


class ContractState(StateBase):
    """A mutable position of a contract-family game. See the module docstring for phases."""

    def __init__(self, game: ContractGame) -> None:
        n = game.num_players
        self.game = game
        self.rules = game.rules
        self.n = n
        self.deal = 1  # 1-based
        self.dealer = 0
        self.to_move = 0  # whose turn it is
        self.phase = DRAW
        self.hands: list[list[int]] = [[0] * NUM_TYPES for _ in range(n)]
        self.stock: list[int] = []  # top card last
        self.discard: list[int] = []  # bottom first, top last
        self.discarder: list[int] = []  # who discarded each pile card (-1 for the up-card)
        self.table: list[TableMeld] = []
        self.melded = [False] * n
        self.melded_turn = [-1] * n
        self.turn_number = 0  # turns started in this deal
        self.claims_used = [0] * n
        self.known: list[list[int]] = [[0] * NUM_TYPES for _ in range(n)]  # face-up takes
        self.scores = [0] * n
        self.kitty = 0  # PR-6: pennies paid for buys this game
        self.pennies: list[float] = [0.0] * n  # PR-6/PR-8: net pennies of each seat this game
        self.deal_delta = [0] * n  # score change of the current deal (cut bonus, penalties)
        self.last_deal_delta: list[int] = [0] * n
        self.deals_played = 0
        self.went_out = -1
        # Turn sub-state (play phase).
        self.contract_left: list[tuple[str, int]] | None = None  # contract melds still to lay
        self.contract_laid: list[Shape] = []
        self.jokers_owed = 0  # CR-8: freed jokers still to lay off
        self.obligation = -1  # SP-4: dug card type still to put on the table
        self.forbidden = -1  # SP-4: top discard taken, not to be discarded this turn
        # Claim window (claim phase).
        self.claim_queue: list[int] = []  # also the callers of a Shanghai window (SH-6)
        self.last_claimer = -1
        self.announced = False  # SH-6a: the top discard was announced (no take, no claim)
        self._views: dict[Shape, list[int]] = {}  # PR-5: the hand view of each meld option
        # SH-1: the fill of each completion that empties the hand with lay-offs (the engine
        # lays each contract meld as in the completion the mask offered it for)
        self._fills: dict[tuple[Shape, ...], list[tuple[list[int], list[int]]]] = {}
        self._legal: list[Action] | None = None
        self._opts: dict[Shape, tuple[Shape, ...]] | None = None
        # Bumped on every change to the table, so encoders may cache what they derive from it.
        self.table_version = 0
        self.table_cache: dict[Any, Any] = {}

    # ------------------------------------------------------------------ basics
    @property
    def current_player(self) -> int:
        """Seat that acts now, or -1 when nobody does (deal or game over)."""
        if self.phase == CLAIM or self.phase == CALL:
            return self.claim_queue[0]
        if self.phase in (DRAW, PLAY):
            return self.to_move
        return -1

    @property
    def is_deal_over(self) -> bool:
        return self.phase in (DEAL_OVER, GAME_OVER)

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def contract_ctx(self) -> ContractContext:
        return self.game.contexts[self.deal - 1]

    def penalty(self, seat: int) -> int:
        pts = self.rules.card_points
        return sum(pts[t] * c for t, c in enumerate(self.hands[seat]) if c)

    def clone(self) -> ContractState:
        """An independent copy of this position."""
        new = ContractState.__new__(ContractState)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discard = list(self.discard)
        new.discarder = list(self.discarder)
        new.table = [m.copy() for m in self.table]
        new.melded = list(self.melded)
        new.melded_turn = list(self.melded_turn)
        new.claims_used = list(self.claims_used)
        new.known = [list(k) for k in self.known]
        new.scores = list(self.scores)
        new.pennies = list(self.pennies)
        new.deal_delta = list(self.deal_delta)
        new.last_deal_delta = list(self.last_deal_delta)
        new.contract_left = None if self.contract_left is None else list(self.contract_left)
        new.contract_laid = list(self.contract_laid)
        new.claim_queue = list(self.claim_queue)
        new.table_cache = {}
        new._legal = None
        new._opts = None
        return new

    # ------------------------------------------------------------------ dealing
    def start_deal(self, deal: int, rng: np.random.Generator) -> None:
        """Shuffle all cards and deal ``deal`` (C-6, CR-2); the next seat after the dealer plays
        first (C-5); the top stock card starts the discard pile (C-7)."""
        g, r, n = self.game, self.rules, self.n
        self.deal = deal
        deck = deck_list(g.packs, g.num_jokers)
        order = rng.permutation(len(deck))
        cards = [deck[i] for i in order]
        h = r.hand_sizes[deal - 1]
        self.hands = [[0] * NUM_TYPES for _ in range(n)]
        for i in range(h * n):
            self.hands[i % n][cards[i]] += 1
        rest = cards[h * n:]
        self.discard = [rest[0]]
        self.discarder = [-1]
        self.announced = False
        self.stock = rest[1:][::-1]  # top card last
        self._reset_deal_state()
        self.to_move = (self.dealer + 1) % n
        # LV-1: the player before the dealer cuts; an exact cut is a chance event.
        if r.cut_probability > 0.0:
            cutter = (self.dealer - 1) % n
            if rng.random() < r.cut_probability:
                self.scores[cutter] -= r.cut_bonus
                self.deal_delta[cutter] -= r.cut_bonus
        self._begin_turn()

    def _table_changed(self) -> None:
        self.table_version += 1
        self.table_cache.clear()

    def _reset_deal_state(self) -> None:
        n = self.n
        self.table = []
        self._table_changed()
        self.melded = [False] * n
        self.melded_turn = [-1] * n
        self.turn_number = 0
        self.claims_used = [0] * n
        self.known = [[0] * NUM_TYPES for _ in range(n)]
        self.deal_delta = [0] * n
        self.went_out = -1
        self._clear_turn()
        self.claim_queue = []
        self.last_claimer = -1
        self.announced = False

    def _clear_turn(self) -> None:
        self.contract_left = None
        self.contract_laid = []
        self.jokers_owed = 0
        self.obligation = -1
        self.forbidden = -1
        self._legal = None
        self._opts = None

    def next_deal(self, rng: np.random.Generator) -> None:
        """After ``deal_over``: pass the deal to the next seat (C-5) and deal the next one."""
        if self.phase != DEAL_OVER:
            raise IllegalActionError(f"next_deal needs phase deal_over, not {self.phase}")
        self.dealer = (self.dealer + 1) % self.n
        self.start_deal(self.deal + 1, rng)

    def _begin_turn(self) -> None:
        self._clear_turn()
        self.last_claimer = -1  # a new discard window (CR-7, PR-6)
        self.phase = DRAW
        self.turn_number += 1
        if not self._stock_can_supply(1):
            self._end_deal()  # CR-11

    def _stock_can_supply(self, k: int, pile_extra: int = 0) -> bool:
        """Can ``k`` cards be drawn from the stock, reshuffling all discards but the top (C-7)?
        ``pile_extra`` is a change to the pile size before the draw (a claim takes its top)."""
        pile = len(self.discard) + pile_extra
        return len(self.stock) + max(0, pile - 1) >= k

    def _draw_stock(self, rng: np.random.Generator) -> int:
        if not self.stock:
            # C-7: all discards but the top one are shuffled to form a new stock.
            top, top_by = self.discard[-1], self.discarder[-1]
            rest = self.discard[:-1]
            order = rng.permutation(len(rest))
            self.stock = [rest[i] for i in order]
            self.discard, self.discarder = [top], [top_by]
        return self.stock.pop()

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """The exact set of legal actions of the acting seat (empty when nobody acts)."""
        if self._legal is None:
            self._legal = self._LEGAL[self.phase](self)
        return self._legal

    def _legal_claim(self) -> list[Action]:
        return [_CLAIM, PASS]  # CR-7

    def _legal_call(self) -> list[Action]:
        """SH-6b: pass, or call the discard onto any meld it can be laid off on."""
        out: list[Action] = [PASS]
        out.extend(call(a.meld, a.low) for a in self._layoffs_of(self.discard[-1]))
        return out

    def _legal_none(self) -> list[Action]:
        return []  # the deal or the game is over: nobody acts

    def _legal_draw(self) -> list[Action]:
        out: list[Action] = []
        if self._stock_can_supply(1):
            out.append(DRAW_STOCK)
        if self.discard and not self.announced:
            out.append(TAKE_DISCARD)
            if self.rules.buy_before_draw and self._may_buy(self.to_move):
                out.append(BUY)  # PR-6: the player to move buys before its draw
        if self.rules.dig:
            first = 2 if self.melded[self.to_move] else self._dig_floor()
            for depth in range(first, len(self.discard) + 1):
                if self._dig_ok(depth):
                    out.append(dig(depth))
        return out

    def _dig_floor(self) -> int:
        """SP-4 for a player who has not melded: 2 (try every dig depth), or
        ``len(pile) + 1`` (none) when the joker lower bound refutes the deepest dig. A shallower
        dig holds fewer of the pile's cards, which never lowers the bound below the jokers, so
        it is refuted too: one bound instead of one contract search per depth, the common case.
        Wild cards count as jokers here, the view that the bound refutes least."""
        r = self.rules
        reqs = self._contract_reqs()
        h = list(self.hands[self.to_move])
        for t in self.discard:
            h[t] += 1
        if r.wild_ranks:
            for t in range(52):
                if h[t] and r.is_wild(t):
                    h[JOKER] += h[t]
                    h[t] = 0
        return 2 if joker_lower_bound(h, reqs, r.aces_low) <= h[JOKER] else len(self.discard) + 1

    def _dig_ok(self, depth: int) -> bool:
        """SP-4: a dig of ``depth`` cards is legal only if the deepest one can be put on the
        table this turn: in the contract meld (not yet melded) or by lay-offs."""
        seat = self.to_move
        taken = self.discard[-depth:]
        deep = taken[0]
        hand = list(self.hands[seat])
        for t in taken:
            hand[t] += 1
        if not self.melded[seat]:
            return bool(self._contract_opts(hand, must_cover=deep, any_one=True))
        if not self._can_layoff_now(seat):
            return False
        return self._can_place(hand, deep, self.table)

    # ------------------------------------------------------------------ the play phase
    # The play phase's legal moves and the searches behind them are functions of the state in
    # contract/turn.py (issue 21); bound here as methods, so callers are unchanged.
    _can_layoff_now = turn.can_layoff_now
    _emptying_turn = turn.emptying_turn
    _can_swap_now = turn.can_swap_now
    _contract_reqs = turn.contract_reqs
    _contract_opts = turn.contract_opts
    _hand_views = turn.hand_views
    _physical = turn.physical
    _one_left_after_contract = turn.one_left_after_contract
    _empties_after_contract = turn.empties_after_contract
    _can_empty = turn.can_empty
    _joker_room = turn.joker_room
    _layoffs_of = turn.layoffs_of
    _can_end_turn = turn.can_end_turn
    _layoffs = turn.layoffs
    _swaps = turn.swaps
    _can_place = turn.can_place
    _place_search = turn.place_search
    _turn_can_end = turn.turn_can_end
    _apply_place = turn.apply_place
    _legal_play = turn.legal_play

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, rng: np.random.Generator) -> None:
        """Apply a legal action; raises IllegalActionError (state unchanged) otherwise."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {_shown(action)} is not legal in phase {self.phase!r} "
                f"for player_{self.current_player}; legal: "
                + ", ".join(self.action_text(a) for a in legal[:12])
                + (" ..." if len(legal) > 12 else "")
            )
        if type(action) is tuple:  # a plain tuple (users, tests, scenarios): its typed twin
            action = legal[legal.index(action)]
        self._APPLY[self.phase](self, action, rng)

    def _apply_draw(self, action: DrawStock | Buy | TakeDiscard | Dig,
                    rng: np.random.Generator) -> None:
        seat = self.to_move
        self._legal = None
        if action.kind == "draw_stock":
            if self.rules.may_i and self.discard and not self.announced:
                self.last_claimer = -1
                if self._open_claims():
                    return
            self._finish_stock_draw(rng)
        elif action.kind == "buy":
            self._take_claim(seat, rng)  # PR-6: then the normal draw follows
            if not self._stock_can_supply(1):
                self._end_deal()  # CR-7/CR-11: the buy used the last cards
            return
        elif action.kind == "take_discard":
            t = self._take_top(seat)
            if self.rules.no_discard_taken:
                self.forbidden = t
            self.phase = PLAY
        else:  # dig
            depth = action.depth
            taken = [self._take_top(seat) for _ in range(depth)]
            self.obligation = taken[-1]  # SP-4: the deepest card must reach the table
            self.phase = PLAY

    def _take_top(self, seat: int) -> int:
        t = self.discard.pop()
        self.discarder.pop()
        self.hands[seat][t] += 1
        self.known[seat][t] += 1
        return t

    def _may_buy(self, seat: int) -> bool:
        """Within the deal's claim (buy) limit, not the discarder of the card (C-8), not the
        buyer of the previous card of this window (CR-7, PR-6), and the penalty cards can be
        drawn (C-8)."""
        r = self.rules
        lim = r.claim_limit(self.deal)
        return (
            seat != self.discarder[-1]
            and seat != self.last_claimer
            and (lim is None or self.claims_used[seat] < lim)
            and self._stock_can_supply(r.claim_penalty_in(self.deal), pile_extra=-1)
        )

    def _claim_eligible(self, seat: int) -> bool:
        return seat != self.to_move and self._may_buy(seat)

    def _take_claim(self, seat: int, rng: np.random.Generator) -> None:
        """A claim or buy: the top discard, the deal's penalty cards from the stock, and the
        price into the kitty (CR-7, SH-5, PR-6)."""
        r = self.rules
        self._take_top(seat)
        for _ in range(r.claim_penalty_in(self.deal)):
            self.hands[seat][self._draw_stock(rng)] += 1
        self.claims_used[seat] += 1
        self.last_claimer = seat
        self.kitty += r.claim_price
        self.pennies[seat] -= r.claim_price

    def _open_claims(self) -> bool:
        """Open a May I? window on the top discard (CR-7); False if nobody may claim."""
        if not self.discard:
            return False
        order = [(self.to_move + k) % self.n for k in range(1, self.n)]
        self.claim_queue = [s for s in order if self._claim_eligible(s)]
        if not self.claim_queue:
            return False
        self.phase = CLAIM
        return True

    def _apply_claim(self, action: Claim | Pass, rng: np.random.Generator) -> None:
        self._legal = None
        seat = self.claim_queue.pop(0)
        if action.kind == "claim":
            self._take_claim(seat, rng)
            if self._open_claims():  # CR-7: the new top may be claimed the same way
                return
        elif self.claim_queue:
            return
        self._finish_stock_draw(rng)

    def _apply_call(self, action: Pass | Call, rng: np.random.Generator) -> None:
        """SH-6b: a pass asks the next caller; a call lays the discard off on the chosen meld,
        and the discarder draws one card at random from the caller's hand."""
        self._legal = None
        seat = self.claim_queue.pop(0)
        if action.kind == "pass":
            if not self.claim_queue:
                self._begin_turn()
            return
        self.claim_queue = []
        discarder = self.discarder[-1]
        t = self.discard.pop()
        self.discarder.pop()
        self.hands[seat][t] += 1  # through the caller's hand onto the meld
        self._apply_place(self.hands[seat], self.table, lay_off(t, action.meld, action.low))
        self._table_changed()
        hand = self.hands[seat]
        cards = counts_to_list(hand)
        drawn = cards[int(rng.integers(len(cards)))]
        hand[drawn] -= 1
        self.hands[discarder][drawn] += 1
        self.known[seat] = [max(0, k - 1) for k in self.known[seat]]
        if sum(hand) == 0:
            self._go_out(seat)
            return
        self._begin_turn()

    def _finish_stock_draw(self, rng: np.random.Generator) -> None:
        self.claim_queue = []
        self.last_claimer = -1
        if not self._stock_can_supply(1):
            self._end_deal()  # CR-7/CR-11: claims used the last cards
            return
        self.hands[self.to_move][self._draw_stock(rng)] += 1
        self.phase = PLAY
        self._legal = None

    def _apply_play(self, action: Meld | LayOff | Swap | Discard | Announce,
                    rng: np.random.Generator) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        opts = self._opts
        self._legal = None
        self._opts = None
        if action.kind == "meld":
            self._apply_meld(seat, action.shape, opts or {})
        elif action.kind == "lay_off" or action.kind == "swap":
            t = self._apply_place(hand, self.table, action)
            self._table_changed()
            if self.known[seat][t]:
                self.known[seat][t] -= 1
            if action.kind == "swap":
                self.jokers_owed += 1
            elif t == JOKER and self.jokers_owed:
                self.jokers_owed -= 1
            if t == self.obligation:
                self.obligation = -1
        else:  # discard or announce
            t = action.card
            hand[t] -= 1
            if self.known[seat][t]:
                self.known[seat][t] -= 1
            self.discard.append(t)
            self.discarder.append(seat)
            self.announced = action.kind == "announce"
            if sum(hand) == 0:
                self._go_out(seat)
                return
            self.to_move = (seat + 1) % self.n
            if self.rules.shanghai and not self.announced and self._layoffs_of(t):
                # SH-6b: every other player, from the next one on, may call Shanghai first.
                self.claim_queue = [(seat + k) % self.n for k in range(1, self.n)]
                self.phase = CALL
                return
            self._begin_turn()
            return
        if self.phase == PLAY and sum(hand) == 0:
            self._go_out(seat)  # CR-6: laying off (or melding) the last card goes out

    def _apply_meld(self, seat: int, shape: Shape, opts: dict[Shape, tuple[Shape, ...]]) -> None:
        combo = list(opts[shape])
        combo.remove(shape)
        hand = self.hands[seat]
        view = self._views.get(shape, hand) if self.rules.wild_ranks else hand
        ctx = self.contract_ctx()
        kept = self._fills.get(opts[shape]) if ctx.layoffs else None
        if kept is not None:
            # SH-1: fill as in the completion that empties the hand (where its jokers sit
            # decides what can be laid off after)
            fill = [kept[opts[shape].index(shape)]]
        else:
            fill = allocate([shape] + combo, view, self.rules, ctx.whole_hand, self.obligation)
        if fill is not None:
            cards, stands = fill[0]
        else:
            # The completion's own order always fills (contract_options checked it).
            full = list(opts[shape])
            fill = allocate(full, view, self.rules, ctx.whole_hand, self.obligation)
            if fill is None:
                raise RuntimeError(f"engine error: no fill for {full} from the hand")
            cards, stands = fill[full.index(shape)]
        if view is not hand:
            cards = self._physical(hand, view, cards, stands)
        for c in cards:
            hand[c] -= 1
            if self.known[seat][c]:
                self.known[seat][c] -= 1
        if shape[0] == "set":
            m = TableMeld(seat, "set", shape[1], 0, 0, cards, stands)
        else:
            m = TableMeld(seat, "run", shape[1], shape[2], shape[3], cards, stands)
        self.table.append(m)
        self._table_changed()
        if self.obligation >= 0 and self.obligation in cards:
            self.obligation = -1
        if self.contract_left is None:
            self.contract_left = self._contract_reqs()  # a new list, consumed meld by meld
        idx = req_for_shape(self.contract_left, shape, ctx.exact_sizes)
        assert idx is not None
        self.contract_left.pop(idx)
        self.contract_laid.append(shape)
        if not self.contract_left:
            self.contract_left = None
            self.contract_laid = []
            self.melded[seat] = True
            self.melded_turn[seat] = self.turn_number
            if ctx.whole_hand and not any(hand):
                # CR-13: the whole hand is melded; the deal ends without a discard. (SH-1: a
                # hand with cards left lays them off first, then goes out, _apply_play.)
                self._go_out(seat)

    #: Per phase, the legal actions and how one applies: the one dispatch of ``legal_actions``
    #: and ``apply``; a handler of a phase with several kinds branches on ``action.kind``.
    _LEGAL: ClassVar[dict[str, Callable[[ContractState], list[Action]]]] = {
        DRAW: _legal_draw, CLAIM: _legal_claim, CALL: _legal_call, PLAY: _legal_play,
        DEAL_OVER: _legal_none, GAME_OVER: _legal_none,
    }
    _APPLY: ClassVar[dict[str, Callable[[ContractState, Any, np.random.Generator], None]]] = {
        DRAW: _apply_draw, CLAIM: _apply_claim, CALL: _apply_call, PLAY: _apply_play,
    }

    # ------------------------------------------------------------------ ending
    def _go_out(self, seat: int) -> None:
        self.went_out = seat
        self._end_deal()

    def _end_deal(self) -> None:
        """CR-12: everyone scores the cards left in hand."""
        self._book_deal([self.penalty(s) for s in range(self.n)])
        self.claim_queue = []
        self.phase = GAME_OVER if self.deal >= self.rules.num_deals else DEAL_OVER
        if self.phase == GAME_OVER:
            for s, v in enumerate(self.settlement()):
                self.pennies[s] += v

    def settlement(self) -> list[float]:
        """PR-8: pennies each seat receives at the end of the game from the standings (lowest
        total first): place k >= 2 pays (k - 1) * ``place_pennies`` to the winner, and the
        kitty goes by ``kitty_split``; tied seats share the payments and shares of the places
        they hold equally (C-9). All zeros without a penny settlement."""
        r, n = self.rules, self.n
        pay = [-(k * r.place_pennies) for k in range(n)]  # place k+1 pays k * pennies
        pay[0] = -sum(pay[1:])
        share = [r.kitty_split[k] * self.kitty if k < len(r.kitty_split) else 0.0
                 for k in range(n)]
        order = sorted(range(n), key=lambda x: self.scores[x])
        out = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and self.scores[order[j + 1]] == self.scores[order[i]]:
                j += 1
            tied = order[i:j + 1]
            each = (sum(pay[i:j + 1]) + sum(share[i:j + 1])) / len(tied)
            for x in tied:
                out[x] = each
            i = j + 1
        return out

    # ------------------------------------------------------------------ text
    def action_text(self, a: Action) -> str:
        """Human text of an action (the codec's strings)."""
        return action_text(a)

    def render_text(self, viewer: int | None = None) -> str:
        """A readable table: the viewer's hand (or every hand), melds with owners, discard top,
        hand sizes, scores, whose turn and phase."""
        lines = []
        c = self.rules.contracts[self.deal - 1]
        lines.append(
            f"{self.rules.name}  deal {self.deal}/{self.rules.num_deals}  contract: "
            f"{c.describe()}{'  (whole hand, CR-13)' if self.deal in self.rules.whole_hand_deals else ''}"
        )
        actor = self.current_player
        who = f"player_{actor}" if actor >= 0 else "nobody"
        lines.append(f"phase: {self.phase}  turn of player_{self.to_move}  acting: {who}"
                     f"  dealer: player_{self.dealer}")
        top = card_str(self.discard[-1]) if self.discard else "--"
        lines.append(f"stock: {len(self.stock)}  discard pile: {len(self.discard)}  top: {top}")
        if self.phase == CLAIM:
            lines.append(f"May I? window on {top}: asking player_{self.claim_queue[0]}")
        if self.phase == CALL:
            lines.append(f"Shanghai window on {top}: asking player_{self.claim_queue[0]}")
        elif self.announced and self.phase == DRAW:
            lines.append(f"{top} was announced: Shanghai (no take, no May I?)")
        lines.append("table:" if self.table else "table: (empty)")
        for i, m in enumerate(self.table):
            lines.append(f"  [{i}] player_{m.owner} {m.kind}: {m.text()}")
        for s in range(self.n):
            mark = "*" if s == actor else " "
            info = f"{mark}player_{s}: {self.hand_size(s):2d} cards  score {self.scores[s]:4d}"
            info += "  melded" if self.melded[s] else ""
            if viewer is None or viewer == s:
                info += "  hand: " + cards_str(counts_to_list(self.hands[s]))
            lines.append(info)
        if self.is_deal_over:
            lines.append("deal over: " + ", ".join(
                f"player_{s} {self.last_deal_delta[s]:+d}" for s in range(self.n))
                + (f"  (player_{self.went_out} went out)" if self.went_out >= 0 else ""))
        return "\n".join(lines)

    # ------------------------------------------------------------------ conservation
    def zone_counts(self) -> list[int]:
        """Count of every card type over every zone (must equal the deck: cards conserved)."""
        tot = [0] * NUM_TYPES
        for h in self.hands:
            for t in range(NUM_TYPES):
                tot[t] += h[t]
        for t in self.stock:
            tot[t] += 1
        for t in self.discard:
            tot[t] += 1
        for m in self.table:
            for t in m.cards:
                tot[t] += 1
        return tot

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)


def shape_text(sh: Shape) -> str:
    if sh[0] == "set":
        from rummy_env.cards import RANK_TEXT

        return f"meld set {RANK_TEXT[sh[1]]}x{sh[2]}"
    _, suit, lo, hi = sh
    from rummy_env.cards import RANK_TEXT, SUITS

    def rt(p: int) -> str:
        return RANK_TEXT[1 if p == 14 else p]

    return f"meld run {SUITS[suit]} {rt(lo)}-{rt(hi)}"


#: Fields after the kind, by kind (``rummy_env.actions.kind_arity``), as in the Indian engine.
_ARITY = kind_arity(Action)


def _shown(a: Any) -> str:
    """``a`` as ``apply``'s error names it: its text, quoted, when it has an action's shape (a
    known kind and that kind's number of fields), else its repr (a malformed tuple, a number,
    a string), so a bad action is named, never met with an IndexError from its text."""
    if isinstance(a, tuple) and a and isinstance(a[0], str) and _ARITY.get(a[0]) == len(a) - 1:
        try:
            return repr(action_text(a))
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            pass
    return repr(a)


def action_text(a: tuple[Any, ...]) -> str:
    """Text of an action: ``draw stock``, ``meld run H 4-7``, ``lay off 8H on 2`` ..."""
    # By position: plain tuples arrive here too (a user's action in apply's error message).
    k = a[0]
    if k == "draw_stock":
        return "draw stock"
    if k == "take_discard":
        return "take discard"
    if k == "dig":
        return f"take discards {a[1]}"
    if k in ("claim", "pass", "buy"):
        return k
    if k == "meld":
        return shape_text(a[1])
    if k == "lay_off":
        _, t, m, low = a
        return f"lay off {card_str(t)}{' low' if low else ''} on {m}"
    if k == "swap":
        return f"swap {card_str(a[1])} for joker on {a[2]}"
    if k == "discard":
        return f"discard {card_str(a[1])}"
    if k == "announce":
        return f"discard {card_str(a[1])} announcing shanghai"
    if k == "call":
        return f"call shanghai on {a[1]}{' low' if a[2] else ''}"
    raise ValueError(f"unknown action {a!r}")


def state_to_dict(st: ContractState) -> dict[str, Any]:
    """The full position as plain data, with ``zones`` (every card exactly once); what
    ``to_dict()`` returns and :func:`rummy_env.contract.scenario.state_from_dict` reads back."""
    n = st.n
    table: list[dict[str, Any]] = []
    for m in st.table:
        table.append({
            "owner": m.owner,
            "kind": m.kind,
            "cards": [card_str(c) for c in m.cards],
            "wilds": [card_str(s) for c, s in zip(m.cards, m.stands) if st.rules.is_wild(c)],
        })
    hands = [[card_str(t) for t in counts_to_list(h)] for h in st.hands]
    d: dict[str, Any] = {
        **position_head(st, hands),
        "discard": [card_str(t) for t in st.discard],
        "discarders": list(st.discarder),
        "table": table,
        "melded": [s for s in range(n) if st.melded[s]],
        "scores": list(st.scores),
        "claims_used": list(st.claims_used),
        "kitty": st.kitty,
        "pennies": list(st.pennies),
        "known": [[card_str(t) for t in counts_to_list(k)] for k in st.known],
        "deal_delta": list(st.deal_delta),
        "deals_played": st.deals_played,
        "turn": {
            "number": st.turn_number,
            "melded_turn": list(st.melded_turn),
            "contract_left": [list(r) for r in st.contract_left] if st.contract_left is not None
            else None,
            "contract_laid": [list(s) for s in st.contract_laid],
            "jokers_owed": st.jokers_owed,
            "obligation": card_str(st.obligation) if st.obligation >= 0 else None,
            "forbidden": card_str(st.forbidden) if st.forbidden >= 0 else None,
            "claim_queue": list(st.claim_queue),
            "last_claimer": st.last_claimer,
            "announced": st.announced,
            "went_out": st.went_out,
            "last_deal_delta": list(st.last_deal_delta),
        },
    }
    zones = zones_head(d)
    zones["discard"] = d["discard"]
    for i, t in enumerate(table):
        zones[f"meld:{i}"] = t["cards"]
    d["zones"] = zones
    return d


__all__ = [
    "Action", "ContractGame", "ContractState", "action_text", "shape_text", "pos_type",
    "shape_cards", "Phase", "PHASES", "DRAW", "CLAIM", "CALL", "PLAY", "DEAL_OVER", "GAME_OVER",
    "state_to_dict",
]
