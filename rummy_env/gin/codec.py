"""Action layout and observation encoder of Gin Rummy (numpy only).

The layout is fixed (two players, one pack): ``Discrete(569)``; the docs tables are generated
from it (``python -m rummy_env.docs``).

What an observation holds is what the seat may know (GR-2..GR-7): its own hand, the discard
pile (every card in it was discarded face up), the first upcard, the cards each seat took face
up from the pile and still holds, the melds laid on the table, the cards laid off and the
deadwood laid down face up after a knock, and public facts (phase, whose turn, the dealer, the
knocker, the knock limit, the stock size, the points).
The opponent's hand and the stock order are never encoded.

Every piece but the last few is 0/1, so :meth:`GinEncoder.observe` packs them into one Python
integer (hands and piles are bitmasks already) and writes only the bits that changed since the
seat's last observation (a step changes a handful), or unpacks them all with one numpy call
after a bigger change: the cost of an observation does not grow with the number of pieces.
"""

from __future__ import annotations

from math import prod

import numpy as np

from rummy_env.cards import NUM_NATURAL
from rummy_env.codec import ActionLayout
from rummy_env.gin.actions import (
    DISCARD,
    DONE,
    DRAW_STOCK,
    KNOCK,
    LAY_OFF,
    MAX_SLOTS,
    MELD,
    PASS,
    TAKE_DISCARD,
)
from rummy_env.gin.state import DEAL_OVER, DEFEND, GAME_OVER, PHASES, GinGame, GinState, action_text
from rummy_env.obs import ObsLayout

_CARDS = NUM_NATURAL  # one pack: a hand or a pile is a bitmask of 52 card types
_STOCK_AFTER_DEAL = 31  # 52 - 2 * 10 - the upcard (GR-2)


def build_action_layout(game: GinGame) -> ActionLayout:
    """The action ranges of Gin Rummy, in id order."""
    blocks = [
        ("draw_stock", [DRAW_STOCK], "draw the top stock card (GR-4)"),
        ("take_discard", [TAKE_DISCARD], "take the top discard, or the first upcard "
                                         "(GR-3, GR-4)"),
        ("pass", [PASS], "pass the first upcard (GR-3)"),
        ("discard", DISCARD[:_CARDS],
         "discard a card by type, ending the turn (GR-4)"),
        ("knock", KNOCK,
         "discard a card by type and knock: deadwood within the knock limit, gin at 0 (GR-5)"),
        ("meld", MELD,
         "lay a meld (cards listed by suit then rank): the knocker after knocking (GR-5), "
         "the defender after that (GR-6)"),
        ("lay_off", [a for row in LAY_OFF for a in row],
         "the defender lays a card off on the knocker's meld 0, 1 or 2 (GR-6)"),
        ("done", [DONE], "finish laying melds: the cards left are deadwood (GR-5, GR-6)"),
    ]
    return ActionLayout(blocks, action_text)


#: The 0/1 pieces, in order; each is packed as bits of one integer by ``observe``.
_BINARY = [
    ("hand", (_CARDS,), "the observer's cards"),
    ("known", (2, _CARDS), "cards each seat took face up from the discard pile and still holds "
                           "(public)"),
    ("discard_top", (_CARDS,), "one-hot: the top discard (the upcard at the start, GR-2)"),
    ("discard_pile", (_CARDS,), "cards in the discard pile"),
    ("taken", (_CARDS,), "one-hot: the card the player to move took from the discard pile this "
                         "turn, which it may not discard (GR-4)"),
    ("melds", (2, _CARDS), "cards each seat laid in its own melds (GR-5, GR-6)"),
    ("slots", (MAX_SLOTS, _CARDS), "the knocker's melds in the order laid, with the cards laid "
                                   "off on them: the targets of `lay off ... on k` (GR-6)"),
    ("laid_off", (_CARDS,), "cards the defender laid off (GR-6)"),
    ("shown", (2, _CARDS), "cards each seat laid down face up as deadwood: the knocker's once "
                           "it is done laying melds (GR-5), the defender's when the hand is "
                           "scored (GR-7)"),
    ("upcard", (_CARDS,), "one-hot: the first upcard of the hand (GR-2; Oklahoma, GR-9)"),
    ("phase", (len(PHASES),), "one-hot: " + ", ".join(PHASES)),
    ("to_move", (2,), "one-hot: who acts (or acted last)"),
    ("dealer", (2,), "one-hot: the dealer"),
    ("knocker", (2,), "one-hot: who knocked (zero before a knock)"),
    ("gin", (1,), "1 if the knock is gin (GR-5)"),
    ("knock_limit", (11,), "one-hot: the most deadwood a knock may have, 0 (gin only) to 10 "
                           "(GR-5, GR-9)"),
    ("upcard_refused", (1,), "1 if both passed the first upcard: the stock only (GR-3)"),
]
_FLOATS = [
    ("counts", (2,), "cards in the stock and in the discard pile, each / 31"),
    ("points", (2,), "points each seat has scored over the game / 100 (GR-7, GR-9)"),
    ("turn", (2,), "turn number / 100, hands played / hands of the game"),
]


def _bit_offsets(pieces: list[tuple[str, tuple[int, ...], str]]) -> dict[str, int]:
    """Where each piece starts when the pieces are packed one after another."""
    out = {}
    at = 0
    for name, shape, _ in pieces:
        out[name] = at
        at += prod(shape)
    return out


# The packed 0/1 observation: every piece of _BINARY in order, from bit 0. ``observe`` shifts
# the card bitmasks that make up the first pieces straight into place (the encoder checks
# these offsets against the layout).
_AT = _bit_offsets(_BINARY)
_HAND_AT = _AT["hand"]  # 0: the observer's hand needs no shift
_KNOWN_AT = _AT["known"]  # the observer's row of "known"
_OPP_KNOWN_AT = _KNOWN_AT + _CARDS  # the opponent's row
_PILE_AT = _AT["discard_pile"]
# The card part of the state vector: the two hands, then the stock.
_STATE_STOCK_AT = 2 * _CARDS
_STATE_CARD_BITS = _STATE_STOCK_AT + _CARDS
_STATE_CARD_BYTES = (_STATE_CARD_BITS + 7) // 8


def build_obs_layout(game: GinGame) -> ObsLayout:
    """Named pieces of the observation; seat rows are egocentric (row 0 is the observer)."""
    return ObsLayout(_BINARY + _FLOATS)


class GinEncoder:
    """Builds observations and the full-information state vector of a GinState."""

    def __init__(self, game: GinGame) -> None:
        self.game = game
        self.layout = build_obs_layout(game)
        self.size = self.layout.size
        self.state_layout = ObsLayout([
            ("hands", (2, _CARDS), "both hands, by seat"),
            ("stock", (_CARDS,), "cards in the stock"),
            ("public", (self.size,), "the observation of player_0"),
        ])
        st_at = {name: p.start for name, p in self.state_layout.pieces.items()}
        if (st_at["hands"], st_at["stock"], st_at["public"]) != (0, _STATE_STOCK_AT,
                                                                 _STATE_CARD_BITS):
            raise AssertionError("state() packs hands and stock at fixed offsets")
        o = {name: p.start for name, p in self.layout.pieces.items()}
        self._off = o
        self._nbits = o["counts"]
        if self._nbits != sum(int(np.prod(s)) for _, s, _ in _BINARY):
            raise AssertionError("observe() packs the binary pieces as one run at the start")
        self._nbytes = (self._nbits + 7) // 8
        if _HAND_AT != 0 or any(o[name] != at for name, at in _AT.items()):
            raise AssertionError("observe() packs hand, known and discard_pile at fixed offsets")
        # Bit offsets of the one-hot pieces within the packed integer.
        self._phase_bit = {ph: 1 << (o["phase"] + i) for i, ph in enumerate(PHASES)}
        self._deals = float(game.rules.num_deals)
        self._top_bits = tuple(1 << (o["discard_top"] + t) for t in range(_CARDS))
        self._taken_bits = tuple(1 << (o["taken"] + t) for t in range(_CARDS))
        self._misc_cache: dict[tuple, int] = {}
        # Per seat: the last observation built and its 0/1 part as an integer (observe()).
        self._bufs = [np.zeros(self.size, dtype=np.float32) for _ in range(2)]
        self._last = [0, 0]
        if list(self.layout.pieces)[-3:] != ["counts", "points", "turn"]:
            raise AssertionError("observe() writes the six floats at the end in this order")

    def bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """True ``(low, high)`` of every observation entry (see ``ContractEncoder.bounds``):
        the 0/1 pieces, the pile counts (at most every card), a hand's points at most a
        bonus plus a whole pack's deadwood (GR-7)."""
        r = self.game.rules
        deal = max(r.gin_bonus, r.undercut_bonus) + 340  # 4 * (1 + ... + 9) + 16 * 10
        spec = {name: (0, 1) for name, _, _ in _BINARY}
        spec.update({"counts": (0, _CARDS / _STOCK_AFTER_DEAL),
                     "points": (0, r.num_deals * deal / 100.0),
                     "turn": (0, [turn_cap / 100.0, 1])})
        return self.layout.bounds(spec)

    def state_bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of the state vector (see ``bounds``)."""
        lo, hi = self.bounds(turn_cap)
        return self.state_layout.bounds({"hands": (0, 1), "stock": (0, 1), "public": (lo, hi)})

    def _misc_bits(self, st: GinState, seat: int) -> int:
        """The one-hot pieces from ``upcard`` to ``upcard_refused`` (cached: they change a few
        times a hand)."""
        key = (seat, st.phase, st.to_move, st.dealer, st.knocker, st.gin, st.knock_limit,
               st.upcard, st.upcard_refused)
        x = self._misc_cache.get(key)
        if x is None:
            o = self._off
            x = (self._phase_bit[st.phase] | 1 << (o["to_move"] + (st.to_move != seat))
                 | 1 << (o["dealer"] + (st.dealer != seat))
                 | 1 << (o["knock_limit"] + st.knock_limit))
            if st.upcard >= 0:
                x |= 1 << (o["upcard"] + st.upcard)
            if st.knocker >= 0:
                x |= 1 << (o["knocker"] + (st.knocker != seat))
                if st.gin:
                    x |= 1 << o["gin"]
            if st.upcard_refused:
                x |= 1 << o["upcard_refused"]
            if len(self._misc_cache) > 4096:
                self._misc_cache.clear()
            self._misc_cache[key] = x
        return x

    def _table_bits(self, st: GinState, seat: int) -> int:
        """The pieces ``melds``, ``slots`` and ``laid_off`` (after a knock)."""
        o = self._off
        mine = theirs = 0
        for m in st.melds[seat]:
            mine |= m
        for m in st.melds[1 - seat]:
            theirs |= m
        x = mine << o["melds"] | theirs << (o["melds"] + _CARDS) | st.laid_off << o["laid_off"]
        for k, slot in enumerate(st.slots):
            x |= slot << (o["slots"] + _CARDS * k)
        # Deadwood is laid face up: the knocker's after its ``done``, the defender's at the
        # score (GR-5, GR-7).
        ph = st.phase
        if ph == DEFEND or ph == DEAL_OVER or ph == GAME_OVER:
            k = st.knocker
            x |= st.hands[k] << (o["shown"] + _CARDS * (k != seat))
            if ph != DEFEND:
                x |= st.hands[1 - k] << (o["shown"] + _CARDS * (k == seat))
        return x

    def observe(self, st: GinState, seat: int) -> np.ndarray:
        """The egocentric observation of ``seat``: nothing of the other hand or the stock."""
        known = st.known
        opp = 1 - seat
        # The card pieces shift straight to their offsets (_AT: hand 0, known 52 and 104,
        # discard_pile 208; checked in __init__); the other pieces' bits come from tables and
        # caches.
        x = (st.hands[seat] | known[seat] << _KNOWN_AT | known[opp] << _OPP_KNOWN_AT
             | st.pile << _PILE_AT)
        pile = st.discard
        if pile:
            x |= self._top_bits[pile[-1]]
        if st.taken >= 0:
            x |= self._taken_bits[st.taken]
        if st.knocker >= 0:
            x |= self._table_bits(st, seat)
        x |= self._misc_bits(st, seat)
        # Each seat's last observation is kept, and only the bits that changed since are
        # written (a step flips a handful); ``_last[seat]`` always equals the 0/1 part of
        # ``_bufs[seat]``, whatever position was observed last.
        buf = self._bufs[seat]
        diff = x ^ self._last[seat]
        self._last[seat] = x
        if diff.bit_count() > 24:  # e.g. a new hand: unpack every bit at once
            nb = self._nbits
            buf[:nb] = np.unpackbits(np.frombuffer(x.to_bytes(self._nbytes, "little"),
                                                   np.uint8), count=nb, bitorder="little")
        else:
            while diff:
                low = diff & -diff
                diff ^= low
                buf[low.bit_length() - 1] = 1.0 if x & low else 0.0
        f = self._nbits
        pts = st.points
        buf[f] = len(st.stock) / _STOCK_AFTER_DEAL
        buf[f + 1] = len(pile) / _STOCK_AFTER_DEAL
        buf[f + 2] = pts[seat] / 100.0
        buf[f + 3] = pts[opp] / 100.0
        buf[f + 4] = st.turn_number / 100.0
        buf[f + 5] = st.deals_played / self._deals
        return buf.copy()  # a fresh array: callers may keep or change it

    def state(self, st: GinState) -> np.ndarray:
        """Full information (both hands and the stock's contents) for centralised critics."""
        out = np.zeros(self.state_layout.size, dtype=np.float32)
        stock = 0
        for t in st.stock:
            stock |= 1 << t
        x = st.hands[0] | st.hands[1] << _CARDS | stock << _STATE_STOCK_AT
        out[:_STATE_CARD_BITS] = np.unpackbits(
            np.frombuffer(x.to_bytes(_STATE_CARD_BYTES, "little"), np.uint8),
            count=_STATE_CARD_BITS, bitorder="little")
        out[_STATE_CARD_BITS:] = self.observe(st, 0)
        return out


__all__ = ["build_action_layout", "build_obs_layout", "GinEncoder"]
