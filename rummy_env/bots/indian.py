"""A rule-based baseline for Indian Rummy (Paplu) that sees only its seat's view.

:class:`IndianGreedyBot` reads nothing but a :class:`~rummy_env.bots.base.SeatView`: its
observation pieces (``hand``, ``wild``, ``discard_top``, ``turn``, ``hand_size``, ``counts``)
and its legal action ids, decoded into typed actions with ``view.action_layout.decode``. It
never sees the game state, other hands or the stock. It values hands with the public solver
:func:`rummy_env.indian.solver.best_arrangement` on its own cards, with the wild rank read from
the ``wild`` piece (so the aces-wild option of a printed-joker indicator is seen as it is).

Strategy (deterministic):

* **Declare** (IR-6) whenever a declare action is legal (the mask is the rulebook: the engine
  offers only valid declarations); **hand rummy** (IR-10) whenever legal.
* **Draw** (IR-5): take the top discard when it is a wild card, or when it lies in a meld of
  the least-paying arrangement of the hand with it (IR-9) and that hand, less its costliest
  other unmatched card, pays at least ``TAKE_GAIN`` (4) points less than the hand now (a
  stock card may help too); otherwise draw from the stock.
* **Discard** (IR-5): the card of the 14 whose removal leaves the least-paying arrangement;
  only unmatched cards (the arrangement's deadwood) are considered first, and among them the
  one of highest value with the fewest partners in hand (cards of its rank in other suits, or
  of its suit within two ranks), never a wild card while another card is left. If every card is
  matched (a hand that still cannot declare), each legal discard is scored by the solver.
* **Pack** (IR-7) only on the first turn, where it costs 10, and only a *hopeless* hand: no
  wild card, no pure run, at most one pair of partner cards (cards that could share a meld) and
  at least ``PACK_POINTS`` (60) points unmatched. Later packs (40) are never chosen: a random
  or greedy table declares rarely enough that keeping the hand pays less on average.

The solver needs the pack count: it is read from the public counts (cards in hands, stock,
discard pile and out of play, each a known fraction of the total, plus the indicator), and the
default options (sets of exactly three, tanalas on) are assumed; the bot only uses the solver
to rank choices, never to decide legality, so an option set otherwise costs play strength, not
legality.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rummy_env.bots.base import SeatView
from rummy_env.cards import JOKER, NUM_NATURAL
from rummy_env.indian.solver import best_arrangement, card_value

#: The least unmatched points of a first-turn hand that the bot packs (with the other
#: conditions of the module docstring).
PACK_POINTS = 60
#: The least points a (non-wild) top discard must save to be taken instead of a stock card.
TAKE_GAIN = 4


def _wild_rank(wild: np.ndarray) -> int:
    """The wild rank shown by the ``wild`` piece (0: only printed jokers are wild)."""
    naturals = np.flatnonzero(wild[:NUM_NATURAL])
    return int(naturals[0]) % 13 + 1 if len(naturals) else 0


def _packs(view: SeatView, hand: Sequence[int]) -> int:
    """Packs in play, from public counts: every card is in a hand, the stock, the discard
    pile, out of play or the indicator; ``counts`` gives the first three over the total."""
    sizes = view.piece("hand_size")  # cards / 14
    stock, pile, out = (float(x) for x in view.piece("counts"))
    in_hands = float(np.sum(sizes)) * 14.0
    rest = 1.0 - stock - pile - out
    if rest > 1e-6:
        total = (in_hands + 1.0) / rest
        packs = int(round(total / 53.0))  # 52 cards and a joker per pack
    else:  # pragma: no cover - hands are never empty while the bot acts
        packs = 2
    return max(packs, 1, max(hand) if len(hand) else 1)


def _near_ranks(r: int) -> tuple[int, ...]:
    """Rank indices (ace 0 .. king 12) within two run places of rank index ``r`` (ace low or
    high, C-3)."""
    out = set()
    for p in ((1, 14) if r == 0 else (r + 1,)):
        for d in (-2, -1, 1, 2):
            if 1 <= p + d <= 14:
                out.add((p + d - 1) % 13)
    out.discard(r)
    return tuple(sorted(out))


_NEAR = tuple(_near_ranks(r) for r in range(13))


def _partners(counts: Sequence[int], t: int, wr: int) -> int:
    """Natural non-wild card types in hand that could share a meld with ``t``: its rank in
    another suit, or its suit within two ranks."""
    suit, r = divmod(t, 13)
    n = 0
    if r + 1 != wr:
        n += sum(1 for s in range(4) if s != suit and counts[s * 13 + r])
    n += sum(1 for q in _NEAR[r] if q + 1 != wr and counts[suit * 13 + q])
    return n


class IndianGreedyBot:
    """A simple greedy Indian Rummy player, deterministic, seeing only its
    :class:`~rummy_env.bots.base.SeatView` (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, pack_points: int = PACK_POINTS,
                 take_gain: int = TAKE_GAIN) -> None:
        """:param seed: unused (the bot is deterministic); kept for the Bot protocol.
        :param pack_points: least unmatched points of a hopeless first-turn hand it packs.
        :param take_gain: least points a non-wild top discard must save to be taken."""
        self.seed = seed
        self.pack_points = pack_points
        self.take_gain = take_gain

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed

    # ------------------------------------------------------------------ helpers
    def _arrangement(self, counts: Sequence[int], wr: int, packs: int):
        cards = [t for t in range(len(counts)) for _ in range(int(counts[t]))]
        return best_arrangement(cards, wr, packs)

    def _is_wild(self, t: int, wr: int) -> bool:
        return t == JOKER or (wr > 0 and t < NUM_NATURAL and t % 13 + 1 == wr)

    # ------------------------------------------------------------------ act
    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        decode = view.action_layout.decode
        typed = {i: decode(i) for i in legal}
        for kind in ("hand_rummy", "declare"):
            for i, a in typed.items():
                if a.kind == kind:
                    return i
        counts = [int(x) for x in view.piece("hand")]
        wr = _wild_rank(view.piece("wild"))
        packs = _packs(view, counts)
        by_kind = {a.kind: i for i, a in typed.items() if len(a) == 1}
        if "draw_stock" in by_kind or "take_discard" in by_kind or "pack" in by_kind:
            return self._draw(view, counts, wr, packs, by_kind)
        discards = {a.card: i for i, a in typed.items() if a.kind == "discard"}
        return self._discard(counts, wr, packs, discards)

    def _draw(self, view: SeatView, counts: list[int], wr: int, packs: int,
              by_kind: dict[str, int]) -> int:
        if "pack" in by_kind and self._hopeless(view, counts, wr, packs):
            return by_kind["pack"]
        top = np.flatnonzero(view.piece("discard_top"))
        if "take_discard" in by_kind and len(top):
            t = int(top[0])
            if self._is_wild(t, wr):
                return by_kind["take_discard"]
            if counts[t] < packs:
                now = self._arrangement(counts, wr, packs).points
                counts[t] += 1
                arr = self._arrangement(counts, wr, packs)
                counts[t] -= 1
                # what the hand would pay after the discard that follows (its costliest
                # unmatched card other than t, which may not go back at once: IR-5)
                out = [card_value(d, wr) for d in arr.deadwood if d != t]
                after = arr.points - max(out, default=0)
                if t not in arr.deadwood and after <= now - self.take_gain:
                    return by_kind["take_discard"]
        if "draw_stock" in by_kind:
            return by_kind["draw_stock"]
        if "take_discard" in by_kind:
            return by_kind["take_discard"]
        return by_kind["pack"]

    def _hopeless(self, view: SeatView, counts: list[int], wr: int, packs: int) -> bool:
        first_turn = view.piece("turn")[1] > 0
        if not first_turn:
            return False
        if any(counts[t] and self._is_wild(t, wr) for t in range(len(counts))):
            return False
        arr = self._arrangement(counts, wr, packs)
        if arr.first_life or arr.points < self.pack_points:
            return False
        pairs = sum(_partners(counts, t, wr) for t in range(NUM_NATURAL) if counts[t]) // 2
        return pairs <= 1

    def _discard(self, counts: list[int], wr: int, packs: int, discards: dict[int, int]) -> int:
        arr = self._arrangement(counts, wr, packs)
        dead = sorted({t for t in arr.deadwood if t in discards and not self._is_wild(t, wr)})
        if dead:
            # highest value, then fewest partners, then highest id (deterministic)
            best = max(dead, key=lambda t: (card_value(t, wr) - 3 * _partners(counts, t, wr),
                                            card_value(t, wr), t))
            return discards[best]
        # Every non-wild card is matched (or only wild cards are unmatched): score each legal
        # discard by the arrangement it leaves; keep wild cards.
        scored = []
        for t, i in discards.items():
            counts[t] -= 1
            pts = self._arrangement(counts, wr, packs).points
            counts[t] += 1
            scored.append((pts, self._is_wild(t, wr), -card_value(t, wr), -t, i))
        return min(scored)[-1]


__all__ = ["IndianGreedyBot", "PACK_POINTS", "TAKE_GAIN"]
