"""Action layout and observation encoder of Indian Rummy (numpy only).

Both are sized from an :class:`~rummy_env.indian.state.IndianGame` (rules and player count), so
one environment instance has one fixed ``Discrete(N)`` and one observation shape; the docs
tables are generated from them (``python -m rummy_env.docs``).

What an observation holds is what the seat may know: its own hand, the indicator and the wild
cards, the discard pile (every card in it was discarded face up), the cards each seat took face
up from the pile and still holds, and public counts: hand sizes, stock size, and the number of
cards out of play (a later packer's cards leave face down, IR-7, so only their count is public).
Other hands and the stock order are never encoded.
"""

from __future__ import annotations

import functools
from operator import itemgetter
from struct import pack_into

import numpy as np

from rummy_env.cards import JOKER, NUM_TYPES
from rummy_env.codec import ActionLayout
from rummy_env.indian.actions import DECLARE, DISCARD, DRAW_STOCK, HAND_RUMMY, PACK, TAKE_DISCARD
from rummy_env.indian.state import DRAW, PHASES, PLAY, IndianGame, IndianState, action_text
from rummy_env.obs import ObsLayout


def build_action_layout(game: IndianGame) -> ActionLayout:
    """The action ranges of Indian Rummy, in id order."""
    r = game.rules
    blocks = [
        ("draw_stock", [DRAW_STOCK], "draw the top stock card (IR-5)"),
        ("take_discard", [TAKE_DISCARD], "take the top discard (IR-5)"),
        ("pack", [PACK], "pack (drop) instead of drawing: owe 10 on the first turn, "
                         "40 later (IR-7)"),
        ("hand_rummy", [HAND_RUMMY] if r.hand_rummy else [],
         "declare the dealt hand on the first turn, before drawing (IR-10)"),
        ("discard", DISCARD, "discard a card by type, ending the turn (IR-5)"),
        ("declare", DECLARE,
         "discard the 14th card by type and declare: the 13 left are valid (IR-6)"),
    ]
    return ActionLayout(blocks, action_text)


def build_obs_layout(game: IndianGame) -> ObsLayout:
    """Named pieces of the observation; seat rows are egocentric (row 0 is the observer)."""
    n = game.num_players
    pieces = [
        ("hand", (NUM_TYPES,), "cards of each type in the observer's hand"),
        ("known", (n, NUM_TYPES), "cards each seat took face up from the discard pile and still "
                                  "holds (public)"),
        ("indicator", (NUM_TYPES,), "one-hot: the indicator card (IR-2)"),
        ("wild", (NUM_TYPES,), "1 for each wild card type: the indicator's rank and the printed "
                               "joker (IR-2)"),
        ("taken", (NUM_TYPES,), "one-hot: the card the player to move took from the discard "
                                "pile this turn, which may not be discarded (IR-5)"),
        ("discard_top", (NUM_TYPES,), "one-hot: the top discard"),
        ("discard_counts", (NUM_TYPES,), "cards of each type in the discard pile"),
        ("discard_top_by", (n + 1,), "one-hot: who discarded the top card (last: the first "
                                     "discard)"),
        ("hand_size", (n,), "cards in each seat's hand / 14"),
        ("packed", (n,), "1 if the seat has packed (IR-7)"),
        ("owed", (n,), "pack cost the seat owes / 100 (IR-7)"),
        ("had_turn", (n,), "1 if the seat has had a turn this deal, a draw or a pack (IR-10)"),
        ("to_move", (n,), "one-hot: whose turn it is"),
        ("dealer", (n,), "one-hot: the dealer"),
        ("scores", (n,), "net points each seat has paid over the game / 100"),
        ("phase", (len(PHASES),), "one-hot: " + ", ".join(PHASES)),
        ("counts", (3,), "cards in the stock, in the discard pile and out of play (IR-7), each "
                         "/ total cards"),
        ("turn", (4,), "turn number / 100, the player to move is on its first turn (IR-10), "
                       "stakes multiplier (IR-11), deals played / deals of the game (IR-12)"),
    ]
    return ObsLayout(pieces)


@functools.lru_cache(maxsize=4096)
def _hundredths(values: tuple[float, ...]) -> tuple[float, ...]:
    """``values / 100`` (the pack costs owed, the scores): few distinct rows recur in a game,
    so the division is memoised."""
    return tuple(x / 100.0 for x in values)


@functools.lru_cache(maxsize=64)
def _static_blocks(game: IndianGame) -> tuple[bytes, ...]:
    """Per indicator card: the "indicator" and "wild" pieces as bytes (they change only with the
    indicator; shared by the encoders of one game)."""
    blocks = []
    for indicator in range(NUM_TYPES):
        raw = [0] * (2 * NUM_TYPES)
        raw[indicator] = 1
        raw[NUM_TYPES + JOKER] = 1
        wr = game.wild_rank_for(indicator)
        if wr:
            for suit in range(4):
                raw[NUM_TYPES + suit * 13 + wr - 1] = 1
        blocks.append(bytes(raw))
    return tuple(blocks)


class IndianEncoder:
    """Builds observations and the full-information state vector of an IndianState.

    ``observe`` is on the hot path of every environment step, so it builds the observation in
    two writes: every piece before ``hand_size`` holds small non-negative integers (card counts
    and one-hots), so they are joined as bytes (the state's count vectors are bytearrays, joined
    as they are; one-hot and constant blocks are precomputed bytes) and converted to float32
    in one ``astype``; the pieces from ``hand_size`` on are one list of floats (the seat rows
    built in absolute seat order and rotated to the observer's by one ``itemgetter``; the
    all-zero rows, no pack costs or no scores yet, precomputed), written as float32 into the
    array's buffer by ``struct.pack_into``.
    """

    #: The pieces written as bytes, in layout order (checked in ``__init__``).
    _BYTE_PIECES = ("hand", "known", "indicator", "wild", "taken", "discard_top",
                    "discard_counts", "discard_top_by")
    #: The pieces written as one float list, in layout order (checked in ``__init__``).
    _TAIL_PIECES = ("hand_size", "packed", "owed", "had_turn", "to_move", "dealer", "scores",
                    "phase", "counts", "turn")

    def __init__(self, game: IndianGame) -> None:
        self.game = game
        self.layout = build_obs_layout(game)
        n = game.num_players
        self.state_layout = ObsLayout([
            ("hands", (n, NUM_TYPES), "every hand, by seat"),
            ("stock", (NUM_TYPES,), "cards of each type in the stock"),
            ("out_of_play", (NUM_TYPES,), "cards of each type out of play (IR-7)"),
            ("public", (self.layout.size,), "the observation of player_0 (public part and hand)"),
        ])
        self.size = self.layout.size
        if tuple(self.layout.pieces) != self._BYTE_PIECES + self._TAIL_PIECES:
            raise AssertionError("observe() writes the pieces in this order: update it")
        self._tail = self.layout.pieces["hand_size"].start
        self._n = n
        # one-hot bytes: _onehot[t + 1] for card type t, _onehot[0] (t = -1) all zeros
        self._onehot = [bytes(NUM_TYPES)] + [bytes(1 if i == t else 0 for i in range(NUM_TYPES))
                                             for t in range(NUM_TYPES)]
        self._by = [bytes(1 if i == k else 0 for i in range(n + 1)) for k in range(n + 1)]
        self._no_known = bytes(n * NUM_TYPES)
        self._no_pile = bytes(2 * NUM_TYPES + n + 1)
        self._phase = {ph: [1.0 if q == ph else 0.0 for q in PHASES] for ph in PHASES}
        self._onehot_n = [[1.0 if i == k else 0.0 for i in range(n)] for k in range(n)]
        # _rotate[seat]: the seven seat rows of the tail (absolute order, one after another)
        # to egocentric order; the layout check above fixes which seven
        self._rotate = [itemgetter(*[b * n + (seat + k) % n for b in range(7) for k in range(n)])
                        for seat in range(n)]
        self._zeros_n = [0.0] * n
        self._tail4 = 4 * self._tail  # byte offset of the tail in a float32 array
        self._tail_fmt = f"={self.size - self._tail}f"  # the tail as native float32 (struct)
        # Scratch for the byte pieces: copying bytes in and converting the whole array in one
        # astype costs less than np.frombuffer, np.empty and a slice assignment.
        self._head = np.zeros(self.size, dtype=np.uint8)
        self._full_size = game.rules.hand_size / 14.0
        self._full_sizes = [self._full_size] * n
        self._statics = _static_blocks(game)
        self._full_size1 = (game.rules.hand_size + 1) / 14.0
        self._total = float(game.total_cards)
        self._deals = float(game.rules.num_deals)

    def bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """True ``(low, high)`` of every observation entry (see ``ContractEncoder.bounds``):
        a loser pays at most its pack cost or 10 points a card of a full hand, doubled for a
        hand rummy (IR-10) and by the stakes (IR-11); the winner collects from every other
        seat."""
        g, r, n = self.game, self.game.rules, self._n
        deck = np.asarray(g.deck, np.float64)
        pack = float(max(r.first_pack_cost, r.later_pack_cost))
        loser = max(pack, 2.0 * 10 * (r.hand_size + 1)) * 2.0
        deals = r.num_deals
        spec = {
            "hand": (0, deck), "known": (0, deck), "indicator": (0, 1), "wild": (0, 1),
            "taken": (0, 1), "discard_top": (0, 1), "discard_counts": (0, deck),
            "discard_top_by": (0, 1), "hand_size": (0, (r.hand_size + 1) / 14.0),
            "packed": (0, 1), "owed": (0, pack / 100.0), "had_turn": (0, 1), "to_move": (0, 1),
            "dealer": (0, 1),
            "scores": (-deals * (n - 1) * loser / 100.0, deals * loser / 100.0),
            "phase": (0, 1), "counts": (0, 1), "turn": (0, [turn_cap / 100.0, 1, 2, 1]),
        }
        return self.layout.bounds(spec)

    def state_bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of the state vector (see ``bounds``)."""
        deck = np.asarray(self.game.deck, np.float64)
        lo, hi = self.bounds(turn_cap)
        return self.state_layout.bounds({"hands": (0, deck), "stock": (0, deck),
                                         "out_of_play": (0, deck), "public": (lo, hi)})

    def observe(self, st: IndianState, seat: int) -> np.ndarray:
        """The egocentric observation of ``seat``: nothing of other hands or the stock order."""
        n = self._n
        pile = st.discard
        # The byte pieces: the state's count vectors are bytearrays, joined as they are.
        parts = [st.hands[seat]]
        if st.known_count:
            known = st.known
            parts += known[seat:]  # row k: seat (seat + k) % n
            parts += known[:seat]
        else:
            parts.append(self._no_known)
        parts.append(self._statics[st.indicator])
        parts.append(self._onehot[st.taken + 1])
        if pile:
            by = st.discarder[-1]
            parts += (self._onehot[pile[-1] + 1], st.pile_counts,
                      self._by[(by - seat) % n if by >= 0 else n])
        else:
            parts.append(self._no_pile)
        head = self._head
        head.data[:self._tail] = b"".join(parts)
        buf = head.astype(np.float32)  # a new array; its tail is written below
        # The seat rows, in absolute seat order, then rotated to start at the observer by one
        # itemgetter (rel order); the one-hot rows of the player to move and of the dealer are
        # absolute one-hots, rotated with them.
        phase = st.phase
        packed = st.packed  # bools: struct packs them as 1.0 / 0.0
        live = phase == DRAW or phase == PLAY
        if live:
            # Sizes follow from the phase in live play (the engine and the scenario loader
            # keep them so): hand_size cards each, one more for the player to move after
            # drawing, none for packers. Summing every hand would cost a loop per seat.
            sizes = [0.0 if p else self._full_size for p in packed] if True in packed \
                else self._full_sizes[:]
            if phase == PLAY:
                sizes[st.to_move] = self._full_size1
        else:
            sizes = [sum(h) / 14.0 for h in st.hands]
        turns = st.turns_taken
        owed = st.owed
        owed = _hundredths(tuple(owed)) if any(owed) else self._zeros_n
        scores = st.scores
        scores = _hundredths(tuple(scores)) if any(scores) else self._zeros_n
        onehot = self._onehot_n
        total = self._total
        first = live and turns[st.to_move] == (phase == PLAY)
        # the whole tail as float32, written into the array's buffer by struct: cheaper than
        # numpy's conversion of a list
        pack_into(
            self._tail_fmt, buf, self._tail4,
            *self._rotate[seat]([*sizes, *packed, *owed, *map(bool, turns), *onehot[st.to_move],
                                 *onehot[st.dealer], *scores]),
            *self._phase[phase], len(st.stock) / total, len(pile) / total,
            len(st.out_of_play) / total, st.turn_number / 100.0, 1.0 if first else 0.0,
            float(st.stake), st.deals_played / self._deals)
        return buf

    def state(self, st: IndianState) -> np.ndarray:
        """Full information (every hand, the stock's and out-of-play contents) for centralised
        critics."""
        n = self.game.num_players
        out = np.zeros(self.state_layout.size, dtype=np.float32)
        for p in range(n):
            out[p * NUM_TYPES:(p + 1) * NUM_TYPES] = st.hands[p]
        base = n * NUM_TYPES
        out[base:base + NUM_TYPES] = np.bincount(st.stock, minlength=NUM_TYPES) if st.stock else 0
        base += NUM_TYPES
        if st.out_of_play:
            out[base:base + NUM_TYPES] = np.bincount(st.out_of_play, minlength=NUM_TYPES)
        base += NUM_TYPES
        out[base:] = self.observe(st, 0)
        return out


__all__ = ["build_action_layout", "build_obs_layout", "IndianEncoder"]
