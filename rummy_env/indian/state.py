"""The Indian Rummy (Paplu) rules engine: game constants and a mutable game state.

Pure Python (no gymnasium, pettingzoo or torch). ``IndianGame`` is immutable: the rules, the
player count and the deck derived from them. ``IndianState`` is one position with a phase state
machine:

====================  =====================================================================
phase                 who acts and what they may do
====================  =====================================================================
``draw``              the player to move, at the start of their turn: draw stock, take the
                      top discard (IR-5), pack (IR-7), hand rummy on the first turn (IR-10)
``play``              the player to move, holding 14 cards: discard a card (IR-5) or discard
                      it and declare (IR-6)
``deal_over``         nobody: the deal is settled (IR-9) or void (IR-8); ``next_deal``
                      deals the next one (IR-12)
``game_over``         nobody: the last deal is settled
====================  =====================================================================

Card count vectors (``hands``, ``known``, ``pile_counts``: 53 counts by card type) are
``bytearray`` objects: they index, add and compare like lists of ints, and the encoder joins them
into observations without a Python loop.

Actions are named tuples, one class per kind (:mod:`rummy_env.indian.actions` lists them and
their fields), each equal to the plain tuple it replaces and turned into an integer only by the
codec: ``DrawStock()`` is ``("draw_stock",)``, ``TakeDiscard()``, ``Pack()``, ``HandRummy()``,
``Discard(card)``, ``Declare(card)`` (discard ``card``, the 14th, and declare). Each phase has
its legal actions and its way to apply one (``_LEGAL`` and ``_APPLY``, by phase).

Scores use the sign convention of every rummy_env variant: ``scores[s]`` is the net number of
points seat ``s`` has paid over the game (negative: net winnings), lower is better, and
``last_deal_delta`` is what each seat paid in the last deal (the winner's entry is minus what
it collected), so the environment's reward ``-delta * reward_scale`` is the settlement.

Decisions where RULES leaves room (each also in the variant's docstring):

* The indicator is the first card of the shuffled deck (IR-2 turns it before the deal), then
  the hands, then the first discard; the rest is the stock.
* A printed-joker indicator leaves no wild rank (wild rank 0): only printed jokers are wild,
  unless ``aces_wild_when_joker_indicator`` (wild rank 1, aces).
* A card taken from the discard pile may not be discarded on that turn (IR-5), and since copies
  are identical (C-1) neither may another copy of its type; this holds for the discard that
  goes with a declaration too.
* Packing counts as having had a turn (IR-10: "to draw or pack"). A first-turn packer's cards
  go, shuffled, under the stock (IR-7); a later packer's cards leave play face down.
* IR-11's doubled stakes double every payment of the deal, pack costs included; IR-10's
  halving and doubling apply to the points of unmatched cards only, never to pack costs.
* A void deal (IR-8) pays nothing; the deal still counts towards ``num_deals``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, ClassVar

import numpy as np

from rummy_env.actions import kind_arity
from rummy_env.cards import (
    DIAMONDS_START,
    HEARTS_START,
    JOKER,
    NUM_TYPES,
    RANK_TEXT,
    RANKS,
    SPADES_START,
    SUIT_BITS,
    SUIT_START,
    card_str,
    cards_str,
    counts_to_list,
    deck_list,
    rank_of,
)
from rummy_env.core import GameBase, StateBase, position_head, zones_head
from rummy_env.errors import IllegalActionError
from rummy_env.indian.actions import (
    DECLARE,
    DISCARD,
    DRAW_STOCK,
    HAND_RUMMY,
    PACK,
    TAKE_DISCARD,
    Action,
    Declare,
    Discard,
    DrawStock,
    HandRummy,
    Pack,
    TakeDiscard,
)
from rummy_env.indian.rules import IndianRules
from rummy_env.indian.solver import wilds_suffice
from rummy_env.phases import PhaseEnum


class Phase(PhaseEnum):
    """The phases of an Indian Rummy deal (module docstring); each equals its string."""

    DRAW = "draw"
    PLAY = "play"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"


# The module names every caller uses (``from rummy_env.indian.state import DRAW``).
DRAW, PLAY, DEAL_OVER, GAME_OVER = Phase.DRAW, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER
PHASES = (DRAW, PLAY, DEAL_OVER, GAME_OVER)
#: How a deal ended (``IndianState.result``).
RESULTS = ("declare", "early_declare", "hand_rummy", "last_standing", "void")
_TYPES = range(NUM_TYPES)


def _near_masks() -> tuple[int, ...]:
    """Per rank index (ace 0 .. king 12): bit mask of the rank indices at run distance 1 or 2
    in one suit (ace low or high, C-3)."""
    out = []
    for r in range(13):
        positions = {r + 1} | ({14} if r == 0 else set())
        m = 0
        for p in positions:
            for d in (-2, -1, 1, 2):
                if 1 <= p + d <= 14:
                    m |= 1 << ((p + d - 1) % 13)
        out.append(m & ~(1 << r))
    return tuple(out)


_NEAR_MASK = _near_masks()


def cards_of(counts: Sequence[int]) -> list[int]:
    """The sorted card types of a count vector (``cards.counts_to_list``, faster on the
    sparse vectors of hands: the zero counts are skipped in C)."""
    return [t for t in compress(_TYPES, counts) for _ in range(counts[t])]


@functools.cache
def _run_shares(mask: int) -> tuple[tuple[int, int, float, bool], ...]:
    """For one suit's non-wild cards (bit r = rank index r present): per present rank, in
    rank order, ``(r, 1 << r, ratio, near)``: the least number of wild cards per natural card
    over the runs that could hold a card of that rank, and whether a card of the suit lies at
    run distance 1 or 2 of it (C-3: the ace low or high)."""
    pos = [r + 1 for r in range(13) if mask >> r & 1]
    if mask & 1:
        pos.append(14)  # the ace high as well (C-3)
    out = [9.0] * 13
    for i, lo in enumerate(pos):
        for j in range(i, len(pos)):
            hi = pos[j]
            if hi - lo > 12:
                break
            cnt = j - i + 1
            ratio = (max(3, hi - lo + 1) - cnt) / cnt
            for q in pos[i:j + 1]:
                r = (q - 1) % 13
                if ratio < out[r]:
                    out[r] = ratio
    return tuple((r, 1 << r, out[r], bool(mask & _NEAR_MASK[r]))
                 for r in range(13) if mask >> r & 1)


def could_declare(hand: Sequence[int], wild_rank: int, tanala: bool, drop: int) -> bool:
    """A fast necessary condition for ``hand`` (53 counts) less ``drop`` cards to be a valid
    declaration (IR-6) when ``wild_rank`` (0: none) and the jokers are wild. False means it
    surely is not; True means: ask the solver. Four tests, each implied by a valid hand, the
    cheap ones first:

    1. a pure run: three consecutive cards of a suit (a wild-rank card counting as itself),
       or three identical cards when a tanala is possible (IR-4);
    2. a meld with ``k`` non-wild cards and ``w`` wild cards shares its ``w`` among its ``k``;
       so the wild cards of the hand number at least the sum, over its melded non-wild cards,
       of the least ``w / k`` of any meld the hand could make with that card (a set of the
       suits present of its rank, ``max(0, 3 - k) / k``; a run spanning present cards of its
       suit, gaps and padding to 3 filled by wild cards; a tanala, 0). Leaving ``drop`` cards
       out can only remove the largest such shares;
    3. a *lone* card (no non-wild card of its rank, none of its suit at run distance 1 or 2)
       needs two wild cards of its own meld, and ``k`` lone cards at least ``max(2, k)``;
    4. test 2 prices each card on its own, so cards that compete for the same partners pass
       it (wild rank 7: ``3C AD KD 2H 3H 4H 7H 8H 9H 10H 3S 4S 5S 8S``, where ``3C``'s set
       needs ``3H`` and ``3S``, which the runs need): :func:`~rummy_env.indian.solver.
       wilds_suffice`, the least number of wild cards over every partition of the naturals
       into runs, sets and tanalas, settles about four in five of them, for a fraction of
       what the solver's search takes to say "no". Without the rules at hand it allows sets of
       four (more melds: a weaker bound, still necessary); ``tanala`` may be the rule as it is
       whatever the packs (three identical cards need three packs).
    """
    if type(hand) is not bytearray:
        hand = bytearray(hand)
    if not _has_pure_run(hand, tanala):
        return False
    # No share exceeds 2 (a card alone and two wild cards), so once the shares so far, less
    # 2 per card left out, exceed the wild cards, test 2 surely fails: stop there.
    shares = _wild_shares(hand, wild_rank, tanala, 2.0 * drop)
    if shares is None:
        return False
    w, total, worst, lone = shares
    if drop:
        total -= worst * drop
        lone = max(0, lone - drop)
    if lone and w < max(2, lone):
        return False
    if w < total - 1e-9:
        return False
    return wilds_suffice(hand, wild_rank, tanala, True, bool(drop))


#: ``bytes.translate`` table: a card count to 1 if present, else 0.
_PRESENT = bytes([0] + [1] * 255)
# The presence int of a hand (_has_pure_run): one byte a card type, byte ``t`` (bits
# ``BYTE * t`` up) is 1 when type ``t`` is present. Shifting right by ``_NEXT`` brings byte
# ``t + 1`` (the next rank of a suit, or the next suit's ace) down to byte ``t``.
BYTE = 8
_NEXT = BYTE
_AFTER_NEXT = 2 * BYTE
_QUEEN = RANKS - 2  # rank index of the queen, where the ace-high run ``Q K A`` starts (C-3)
#: Shifting left by this brings each suit's ace (byte ``start``) up to its queen's byte.
_ACE_TO_QUEEN = _QUEEN * BYTE
#: Bytes ``i`` (as bits ``8 i`` of an int) where three cards ``i, i+1, i+2`` lie in one suit.
_RUN_STARTS = sum(1 << BYTE * (start + r) for start in SUIT_START for r in range(_QUEEN))
#: Bytes of each suit's queen: the start of its ``Q K A`` run (ace high, C-3).
_QUEENS = sum(1 << BYTE * (start + _QUEEN) for start in SUIT_START)


def _has_pure_run(hand: bytearray, tanala: bool) -> bool:
    """Test 1 of :func:`could_declare`: three consecutive naturals of a suit (a wild-rank card
    counting as itself; the ace low or high, C-3), or three identical cards when a tanala is
    possible. About half the hands fail here, so it is a few operations in C: the presence
    bytes of the hand as one int ``x`` (byte ``t`` is 1 when type ``t`` is present); byte
    ``i`` of ``x & x >> _NEXT & x >> _AFTER_NEXT`` is 1 when types ``i .. i+2`` are all present
    (kept where they lie in one suit), and byte ``i`` of ``x & x >> _NEXT & x << _ACE_TO_QUEEN``
    when ``i``, ``i+1`` and ``i-11`` are (kept at the queens: ``Q K A``)."""
    x = int.from_bytes(hand.translate(_PRESENT), "little")
    if x & (x >> _NEXT) & ((x >> _AFTER_NEXT) & _RUN_STARTS | (x << _ACE_TO_QUEEN) & _QUEENS):
        return True
    # a count of 3 or more: what is left once the counts 0, 1 and 2 are deleted (max() would
    # loop in Python over the 53 counts)
    return tanala and bool(hand.translate(None, b"\0\1\2"))


#: ``bytes.translate`` table: a card count to the character ``1`` if present, else ``0``.
_BIT_CHAR = bytes([48] + [49] * 255)
#: Slices of those characters that read one suit's presence as a binary numeral, king first:
#: the suit's 13-bit rank mask (``int(chars[slice], 2)``, bit ``r`` for rank index ``r``).
_CLUBS_DIGITS, _DIAMONDS_DIGITS, _HEARTS_DIGITS, _SPADES_DIGITS = (
    slice(start + RANKS - 1, start - 1 if start else None, -1) for start in SUIT_START)


def _wild_shares(hand: bytearray, wild_rank: int, tanala: bool, slack: float,
                 ) -> tuple[int, float, float, int] | None:
    """Tests 2 and 3 of :func:`could_declare`: ``(w, total, worst, lone)``: the wild cards
    of ``hand``; the least wild cards its melded non-wild cards need, summed; the largest share
    of one card; the number of lone cards. None as soon as the shares summed so far exceed
    ``w + slack`` (the total can only grow).

    A card's share is its run share (:func:`_run_shares`), at most 0.5 when two suits hold
    its rank (a set of two and one wild card) and 0 when three or four do (a set of three).
    The suits' rank masks come from the hand's presence bytes read as binary numerals."""
    w = hand[JOKER]
    keep = SUIT_BITS
    if wild_rank:
        keep &= ~(1 << (wild_rank - 1))
        r = wild_rank - 1
        w += hand[r] + hand[DIAMONDS_START + r] + hand[HEARTS_START + r] + hand[SPADES_START + r]
    b = hand.translate(_BIT_CHAR)
    m0 = int(b[_CLUBS_DIGITS], 2) & keep
    m1 = int(b[_DIAMONDS_DIGITS], 2) & keep
    m2 = int(b[_HEARTS_DIGITS], 2) & keep
    m3 = int(b[_SPADES_DIGITS], 2) & keep
    two = m0 & m1 | m2 & m3 | (m0 | m1) & (m2 | m3)  # ranks held by two suits or more
    three = m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)  # by three or more
    limit = w + slack + 1e-9
    total = worst = 0.0
    lone = 0
    base = 0
    for m in (m0, m1, m2, m3):
        if m:
            for r, bit, x, near in _run_shares(m):
                if three & bit:
                    continue  # in a set of three: no wild card
                c = hand[base + r]
                if tanala and c >= 3:
                    continue  # in a tanala: no wild card
                if two & bit:
                    if x > 0.5:
                        x = 0.5
                elif not near:
                    lone += c
                total += x * c
                if x > worst:
                    worst = x
                if total > limit:
                    return None
        base += RANKS
    return w, total, worst, lone


@functools.cache
def _wild_types(wild_rank: int) -> tuple[bool, ...]:
    """Per card type: wild when the wild rank is ``wild_rank`` (0: none) (IR-2)."""
    wild = [False] * NUM_TYPES
    wild[JOKER] = True
    if wild_rank:
        for start in SUIT_START:
            wild[start + wild_rank - 1] = True
    return tuple(wild)


@dataclass(frozen=True)
class IndianGame(GameBase):
    """Immutable: rules, player count and the deck derived from them (not constructor
    arguments: :class:`~rummy_env.core.GameBase`)."""

    rules: IndianRules

    def __post_init__(self) -> None:
        super().__post_init__()  # packs, num_jokers, deck, total_cards
        object.__setattr__(self, "deck_array", np.array(deck_list(self.packs, self.num_jokers),
                                                        dtype=np.int64))

    #: every physical card as a type, in the fixed order that deals shuffle (C-6)
    deck_array: np.ndarray = field(init=False, default=None, compare=False,  # type: ignore
                                   repr=False)

    def wild_rank_for(self, indicator: int) -> int:
        """IR-2: the indicator's rank; a printed joker gives 0 (no wild rank) or, with
        ``aces_wild_when_joker_indicator``, 1 (aces)."""
        if indicator == JOKER:
            return 1 if self.rules.aces_wild_when_joker_indicator else 0
        return rank_of(indicator)

    def new_state(self, rng: np.random.Generator, first_deal: int = 1,
                  scores: Sequence[float] | None = None) -> IndianState:
        """A new game: the first dealer drawn at random (C-5), deal ``first_deal`` dealt."""
        st = IndianState(self)
        st.dealer = int(rng.integers(self.num_players))
        if scores is not None:
            st.scores = [float(x) for x in scores]
        st.start_deal(first_deal, rng)
        return st


class IndianState(StateBase):
    """A mutable position of an Indian Rummy game. See the module docstring for phases."""

    def __init__(self, game: IndianGame) -> None:
        n = game.num_players
        self.game = game
        self.rules = game.rules
        self.n = n
        self.deal = 1  # 1-based
        self.dealer = 0
        self.to_move = 0
        self.phase = DRAW
        # Count vectors (hands, known, pile_counts) are bytearrays of 53 counts: they index,
        # add and compare like lists of ints, and the encoder joins them into an observation
        # as they are (``bytes`` of a list of ints costs a Python loop; of a bytearray, a copy).
        self.hands: list[bytearray] = [bytearray(NUM_TYPES) for _ in range(n)]
        self.stock: list[int] = []  # top card last
        self.discard: list[int] = []  # bottom first, top last
        self.pile_counts = bytearray(NUM_TYPES)  # cards of each type in ``discard``
        self.discarder: list[int] = []  # who discarded each pile card (-1: the first discard)
        self.out_of_play: list[int] = []  # cards of later packers, face down (IR-7)
        self.indicator = 0
        self.wild_rank = 0
        self.wild: tuple[bool, ...] = (False,) * NUM_TYPES
        self.stake = 1  # IR-11 multiplier of this deal's payments
        self.packed = [False] * n
        self.owed = [0.0] * n  # pack cost owed by each packer (IR-7)
        self.turns_taken = [0] * n  # turns each seat has had this deal (a draw or a pack)
        self.known: list[bytearray] = [bytearray(NUM_TYPES) for _ in range(n)]  # face-up takes
        self.known_count = 0  # sum of ``known`` (encoders skip the rows when it is 0)
        self.taken = -1  # card type taken from the discard pile this turn (IR-5)
        self.turn_number = 0  # turns started in this deal
        self.scores = [0.0] * n
        self.deal_delta = [0.0] * n
        self.last_deal_delta: list[float] = [0.0] * n
        self.deals_played = 0
        self.winner = -1
        self.result: str | None = None
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ basics
    @property
    def current_player(self) -> int:
        """Seat that acts now, or -1 when nobody does (deal or game over)."""
        return self.to_move if self.phase in (DRAW, PLAY) else -1

    @property
    def is_deal_over(self) -> bool:
        return self.phase in (DEAL_OVER, GAME_OVER)

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def active(self) -> list[int]:
        """Seats that have not packed."""
        return [s for s in range(self.n) if not self.packed[s]]

    def set_indicator(self, indicator: int) -> None:
        """Turn up ``indicator`` (IR-2): the wild rank, the wild types and the stakes."""
        g = self.game
        self.indicator = indicator
        self.wild_rank = g.wild_rank_for(indicator)
        self.wild = _wild_types(self.wild_rank)
        doubled = indicator == JOKER and self.rules.double_stakes_on_joker_indicator
        self.stake = 2 if doubled else 1  # IR-11

    def arrangement(self, seat: int) -> Any:
        """The solver's least-paying arrangement of ``seat``'s hand (IR-9)."""
        from rummy_env.indian.solver import best_arrangement

        r = self.rules
        return best_arrangement(cards_of(self.hands[seat]), self.wild_rank, self.game.packs,
                                sets_of_four=r.sets_of_four, tanala=r.tanala)

    def points(self, seat: int) -> int:
        """Value of ``seat``'s unmatched cards, arranged to pay the least (IR-9)."""
        if not any(self.hands[seat]):
            return 0
        return int(self.arrangement(seat).points)

    def penalty(self, seat: int) -> float:
        """What ``seat`` would pay if another player declared now: its pack cost if it packed,
        else its points (IR-9), times the stakes (IR-11)."""
        base = self.owed[seat] if self.packed[seat] else float(self.points(seat))
        return base * self.stake

    def returns(self) -> list[float]:
        """Net winnings of each seat over the game so far (minus ``scores``)."""
        # 0.0 - s rather than the base's float(-s): an even seat's 0.0 stays 0.0, not -0.0.
        return [0.0 - s for s in self.scores]

    def clone(self) -> IndianState:
        """An independent copy of this position."""
        new = IndianState.__new__(IndianState)
        new.__dict__.update(self.__dict__)
        new.hands = [bytearray(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discard = list(self.discard)
        new.pile_counts = bytearray(self.pile_counts)
        new.discarder = list(self.discarder)
        new.out_of_play = list(self.out_of_play)
        new.packed = list(self.packed)
        new.owed = list(self.owed)
        new.turns_taken = list(self.turns_taken)
        new.known = [bytearray(k) for k in self.known]
        new.scores = list(self.scores)
        new.deal_delta = list(self.deal_delta)
        new.last_deal_delta = list(self.last_deal_delta)
        new._legal = None
        return new

    # ------------------------------------------------------------------ dealing
    def start_deal(self, deal: int, rng: np.random.Generator) -> None:
        """Shuffle all cards (C-6) and deal ``deal``: the indicator (IR-2), 13 cards each
        (IR-1) starting with the seat after the dealer, the first discard (IR-2); the next
        seat after the dealer plays first (C-5)."""
        g, n = self.game, self.n
        self.deal = deal
        # rng.permutation(deck) makes the same swaps as rng.permutation(len(deck)) (the same
        # draws from the generator), so this is deck[permutation] without the fancy index.
        cards = rng.permutation(g.deck_array).tolist()
        self.set_indicator(cards[0])
        h = self.rules.hand_size
        first = (self.dealer + 1) % n
        hands = self.hands = [bytearray(NUM_TYPES) for _ in range(n)]
        for k in range(n):  # card 1 + i goes to seat (first + i) % n
            hand = hands[(first + k) % n]
            for t in cards[1 + k:1 + h * n:n]:
                hand[t] += 1
        top = cards[1 + h * n]
        self.discard = [top]
        self.discarder = [-1]
        pile = self.pile_counts = bytearray(NUM_TYPES)
        pile[top] = 1
        self.stock = cards[:1 + h * n:-1]  # the rest after the first discard, top card last
        self.out_of_play = []
        self._reset_deal_state()
        self.to_move = first
        self._begin_turn()

    def _reset_deal_state(self) -> None:
        n = self.n
        self.packed = [False] * n
        self.owed = [0.0] * n
        self.turns_taken = [0] * n
        self.known = [bytearray(NUM_TYPES) for _ in range(n)]
        self.known_count = 0
        self.taken = -1
        self.turn_number = 0
        self.deal_delta = [0.0] * n
        self.winner = -1
        self.result = None
        self._legal = None

    def next_deal(self, rng: np.random.Generator) -> None:
        """After ``deal_over``: pass the deal to the next seat (C-5) and deal the next one."""
        if self.phase != DEAL_OVER:
            raise IllegalActionError(f"next_deal needs phase deal_over, not {self.phase}")
        self.dealer = (self.dealer + 1) % self.n
        self.start_deal(self.deal + 1, rng)

    def _begin_turn(self) -> None:
        self.phase = DRAW
        self.taken = -1
        self._legal = None
        self.turn_number += 1

    def _next_active(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not self.packed[s]:
                return s
        raise RuntimeError("engine error: nobody left to play")

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        """The exact set of legal actions of the acting seat (empty when nobody acts)."""
        if self._legal is None:
            self._legal = self._LEGAL[self.phase](self)
        return self._legal

    def can_hand_rummy(self, seat: int) -> bool:
        """IR-10: on ``seat``'s first turn, before drawing, its dealt hand is already valid."""
        if not self.rules.hand_rummy or self.turns_taken[seat] or self.packed[seat]:
            return False
        hand = self.hands[seat]
        if not could_declare(hand, self.wild_rank, self.rules.tanala, 0):
            return False
        from rummy_env.indian.solver import can_declare

        r = self.rules
        return can_declare(cards_of(hand), self.wild_rank, self.game.packs,
                           sets_of_four=r.sets_of_four, tanala=r.tanala)

    def declare_options(self, seat: int) -> list[int]:
        """Card types whose discard leaves a valid declaration (IR-6), less the card taken from
        the discard pile this turn (IR-5).

        The solver's ``declare_discards`` less the taken card (the soak test checks it):
        :func:`could_declare` rules out most hands at once (about 98% in random play), and one
        search of the solver over the 14 cards answers every discard of the rest.
        """
        hand = self.hands[seat]
        r = self.rules
        if not could_declare(hand, self.wild_rank, r.tanala, 1):
            return []
        from rummy_env.indian.solver import discard_bits

        bits = discard_bits(cards_of(hand), self.wild_rank, self.game.packs,
                            sets_of_four=r.sets_of_four, tanala=r.tanala)
        if not bits:
            return []
        taken = self.taken
        return [t for t in compress(_TYPES, hand) if bits >> t & 1 and t != taken]

    def _legal_draw(self) -> list[Action]:
        seat = self.to_move
        out: list[Action] = []
        if self.stock:
            out.append(DRAW_STOCK)
        if self.discard:
            out.append(TAKE_DISCARD)
        out.append(PACK)
        if self.can_hand_rummy(seat):
            out.append(HAND_RUMMY)
        return out

    def _legal_play(self) -> list[Action]:
        seat = self.to_move
        hand = self.hands[seat]
        taken = self.taken
        out: list[Action] = [DISCARD[t] for t in compress(_TYPES, hand) if t != taken]
        out.extend(DECLARE[t] for t in self.declare_options(seat))
        return out

    def _legal_none(self) -> list[Action]:
        return []  # the deal or the game is over: nobody acts

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, rng: np.random.Generator) -> None:
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
        self._APPLY[self.phase](self, action, rng)

    def _apply_draw(self, action: DrawStock | TakeDiscard | Pack | HandRummy,
                    rng: np.random.Generator) -> None:
        """IR-5, IR-7, IR-10: draw from the stock or the pile, pack, or declare the dealt hand."""
        seat = self.to_move
        if action.kind == "draw_stock":
            self.hands[seat][self.stock.pop()] += 1
            self.turns_taken[seat] += 1
            self.phase = PLAY
        elif action.kind == "take_discard":
            t = self.discard.pop()
            self.discarder.pop()
            self.pile_counts[t] -= 1
            self.hands[seat][t] += 1
            self.known[seat][t] += 1
            self.known_count += 1
            self.taken = t
            self.turns_taken[seat] += 1
            self.phase = PLAY
        elif action.kind == "pack":
            self._pack(seat, rng)
        else:  # hand_rummy
            self._settle(seat, "hand_rummy")

    def _apply_play(self, action: Discard | Declare, rng: np.random.Generator) -> None:
        """IR-5, IR-6: discard a card, declaring or not."""
        seat = self.to_move
        t = action.card
        hand = self.hands[seat]
        hand[t] -= 1
        if self.known[seat][t]:
            self.known[seat][t] -= 1
            self.known_count -= 1
        self.discard.append(t)
        self.discarder.append(seat)
        self.pile_counts[t] += 1
        if action.kind == "declare":
            # IR-6; IR-10: on the declarer's first turn, an early declaration.
            self._settle(seat, "early_declare" if self.turns_taken[seat] == 1 else "declare")
        elif not self.stock:
            self._void()  # IR-8: the last stock card was taken and nobody declared
        else:
            self.to_move = self._next_active(seat)
            self._begin_turn()

    def _pack(self, seat: int, rng: np.random.Generator) -> None:
        """IR-7: a first-turn packer owes ``first_pack_cost`` and their cards go, shuffled,
        under the stock; a later packer owes ``later_pack_cost`` and their cards leave play."""
        r = self.rules
        cards = cards_of(self.hands[seat])
        if self.turns_taken[seat] == 0:
            self.owed[seat] = float(r.first_pack_cost)
            order = rng.permutation(len(cards)).tolist()
            self.stock = [cards[i] for i in order] + self.stock  # stock top is last
        else:
            self.owed[seat] = float(r.later_pack_cost)
            self.out_of_play.extend(cards)
            self.out_of_play.sort()
        self.hands[seat] = bytearray(NUM_TYPES)
        self.known_count -= sum(self.known[seat])
        self.known[seat] = bytearray(NUM_TYPES)
        self.packed[seat] = True
        self.turns_taken[seat] += 1
        left = self.active()
        if len(left) == 1:
            self._settle(left[0], "last_standing")  # IR-7: the last player wins at once
            return
        self.to_move = self._next_active(seat)
        self._begin_turn()

    #: Per phase, the legal actions and how one applies: the one dispatch of ``legal_actions``
    #: and ``apply``; a handler of a phase with several kinds branches on ``action.kind``.
    _LEGAL: ClassVar[dict[str, Callable[[IndianState], list[Action]]]] = {
        DRAW: _legal_draw, PLAY: _legal_play, DEAL_OVER: _legal_none, GAME_OVER: _legal_none,
    }
    _APPLY: ClassVar[dict[str, Callable[[IndianState, Any, np.random.Generator], None]]] = {
        DRAW: _apply_draw, PLAY: _apply_play,
    }

    # ------------------------------------------------------------------ ending
    def _settle(self, winner: int, how: str) -> None:
        """IR-9/IR-10/IR-11: every other player pays the winner."""
        r = self.rules
        pay = [0.0] * self.n
        for p in range(self.n):
            if p == winner:
                continue
            if self.packed[p]:
                amount = self.owed[p]
            else:
                amount = float(self.points(p))
                if how == "early_declare" and r.early_declaration_half and not self.turns_taken[p]:
                    amount *= 0.5
                elif how == "hand_rummy" and r.hand_rummy_double and self.turns_taken[p]:
                    amount *= 2.0
            pay[p] = amount * self.stake
        pay[winner] = 0.0 - sum(pay)
        self.winner = winner
        self.result = how
        self._end_deal(pay)

    def _void(self) -> None:
        self.winner = -1
        self.result = "void"
        self._end_deal([0.0] * self.n)

    def _end_deal(self, pay: list[float]) -> None:
        self._book_deal(pay)
        self.taken = -1
        self.phase = GAME_OVER if self.deal >= self.rules.num_deals else DEAL_OVER

    # ------------------------------------------------------------------ text
    def action_text(self, a: Action) -> str:
        """Human text of an action (the codec's strings)."""
        return action_text(a)

    def wild_text(self) -> str:
        if self.wild_rank:
            return f"{RANK_TEXT[self.wild_rank]}s and JK"
        return "JK only"

    def render_text(self, viewer: int | None = None) -> str:
        """A readable table: the indicator and wild cards, the viewer's hand (or every hand),
        the discard top, hand sizes, packers, scores, whose turn and phase."""
        r = self.rules
        lines = [
            f"{r.name}  deal {self.deal}/{r.num_deals}  indicator: {card_str(self.indicator)}"
            f"  wild: {self.wild_text()}" + (f"  stakes x{self.stake}" if self.stake != 1 else "")
        ]
        actor = self.current_player
        who = f"player_{actor}" if actor >= 0 else "nobody"
        lines.append(f"phase: {self.phase}  turn of player_{self.to_move}  acting: {who}"
                     f"  dealer: player_{self.dealer}")
        top = card_str(self.discard[-1]) if self.discard else "--"
        lines.append(f"stock: {len(self.stock)}  discard pile: {len(self.discard)}  top: {top}"
                     f"  out of play: {len(self.out_of_play)}")
        if self.taken >= 0:
            lines.append(f"taken from the discard pile this turn: {card_str(self.taken)}")
        for s in range(self.n):
            mark = "*" if s == actor else " "
            info = f"{mark}player_{s}: {self.hand_size(s):2d} cards  paid {self.scores[s]:7.1f}"
            if self.packed[s]:
                info += f"  packed (owes {self.owed[s]:g})"
            elif viewer is None or viewer == s:
                info += "  hand: " + cards_str(counts_to_list(self.hands[s]))
            lines.append(info)
        if self.is_deal_over:
            if self.result == "void":
                lines.append("deal over: void, the stock ran out (IR-8); nothing paid")
            else:
                lines.append("deal over: " + ", ".join(
                    f"player_{s} {self.last_deal_delta[s]:+g}" for s in range(self.n))
                    + f"  (player_{self.winner} won: {self.result})")
        return "\n".join(lines)

    # ------------------------------------------------------------------ conservation
    def zone_counts(self) -> list[int]:
        """Count of every card type over every zone, the indicator and the cards out of play
        included (must equal the deck: cards conserved)."""
        tot = [0] * NUM_TYPES
        for h in self.hands:
            for t in range(NUM_TYPES):
                tot[t] += h[t]
        for pile in (self.stock, self.discard, self.out_of_play):
            for t in pile:
                tot[t] += 1
        tot[self.indicator] += 1
        return tot

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)


#: Fields after the kind, by kind (``rummy_env.actions.kind_arity``).
_ARITY = kind_arity(Action)


def _is_action(a: Any) -> bool:
    """``a`` has an action's shape: a known kind, its number of fields, card types in range."""
    return (isinstance(a, tuple) and bool(a) and isinstance(a[0], str)
            and _ARITY.get(a[0]) == len(a) - 1
            and all(isinstance(x, int) and 0 <= x < NUM_TYPES for x in a[1:]))


def action_text(a: tuple[Any, ...]) -> str:
    """Text of an action: ``draw stock``, ``pack``, ``discard QS``, ``declare discarding QS``
    ..."""
    # By position: plain tuples arrive here too (a user's action in apply's error message).
    k = a[0]
    if k == "draw_stock":
        return "draw stock"
    if k == "take_discard":
        return "take discard"
    if k == "pack":
        return "pack"
    if k == "hand_rummy":
        return "hand rummy"
    if k == "discard":
        return f"discard {card_str(a[1])}"
    if k == "declare":
        return f"declare discarding {card_str(a[1])}"
    raise ValueError(f"unknown action {a!r}")


def state_to_dict(st: IndianState) -> dict[str, Any]:
    """The full position as plain data, with ``zones`` (every card exactly once); what
    ``to_dict()`` returns and :func:`rummy_env.indian.scenario.state_from_dict` reads back."""
    n = st.n
    hands = [[card_str(t) for t in counts_to_list(h)] for h in st.hands]
    d: dict[str, Any] = {
        **position_head(st, hands),
        "discard": [card_str(t) for t in st.discard],
        "discarders": list(st.discarder),
        "indicator": card_str(st.indicator),
        "out_of_play": [card_str(t) for t in st.out_of_play],
        "packed": [s for s in range(n) if st.packed[s]],
        "owed": list(st.owed),
        "turns_taken": list(st.turns_taken),
        "known": [[card_str(t) for t in counts_to_list(k)] for k in st.known],
        "scores": list(st.scores),
        "deal_delta": list(st.deal_delta),
        "deals_played": st.deals_played,
        "turn": {
            "number": st.turn_number,
            "taken": card_str(st.taken) if st.taken >= 0 else None,
            "winner": st.winner,
            "result": st.result,
            "last_deal_delta": list(st.last_deal_delta),
        },
    }
    zones = zones_head(d)
    zones["discard"] = d["discard"]
    zones["indicator"] = [d["indicator"]]
    zones["out_of_play"] = d["out_of_play"]
    d["zones"] = zones
    return d


__all__ = [
    "Action", "IndianGame", "IndianState", "action_text", "could_declare", "PHASES", "RESULTS",
    "Phase", "DRAW", "PLAY", "DEAL_OVER", "GAME_OVER",
    "state_to_dict",
]
