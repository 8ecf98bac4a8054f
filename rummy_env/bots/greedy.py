"""A rule-based baseline for the contract family that sees only its seat's view.

:class:`ContractGreedyBot` reads nothing but a :class:`~rummy_env.bots.base.SeatView`: its observation
pieces (``hand``, ``contract``, ``melded``, ``turn``, ``discard_top``, ``discard_order``, the
table pieces ``meld_kind``/``meld_cards``/``meld_jokers``) and its legal action ids, decoded into
typed actions with ``view.action_layout.decode``. It never sees the game state, other hands or
the stock order, and it only ever returns one of its legal ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rummy_env.bots.base import SeatView
from rummy_env.cards import JOKER, card, rank_of, suit_of
from rummy_env.contract.actions import Discard, LayOff, Meld

#: CR-12 penalty points by card type: A 15, 10-K 10, 2-9 face value, joker 15 (MI-6 makes a
#: joker 25, but the bot never discards a joker unless forced, so its exact value matters little).
CARD_POINTS: tuple[int, ...] = tuple(
    [15 if rank_of(t) == 1 else (10 if rank_of(t) >= 10 else rank_of(t)) for t in range(52)]
    + [15]
)


def _positions(rank: int) -> tuple[int, ...]:
    """Run positions of a rank (C-3): an ace is position 1 and 14."""
    return (1, 14) if rank == 1 else (rank,)


def _pos_type(pos: int, suit: int) -> int:
    return card(1 if pos == 14 else pos, suit)


class _Table:
    """The table melds as the observation shows them (kind, set rank, run suit and span),
    read from the view at first use: a player that has not met its contract never asks (it
    was a sixth of a search bot's rollout time in the contract family)."""

    def __init__(self, view: SeatView) -> None:
        self._view: SeatView | None = view
        self._sets: list[tuple[int, int]] = []  # (meld index, rank)
        self._runs: list[tuple[int, int, int, int]] = []  # (meld index, suit, lo, hi)

    @property
    def sets(self) -> list[tuple[int, int]]:
        if self._view is not None:
            self._read()
        return self._sets

    @property
    def runs(self) -> list[tuple[int, int, int, int]]:
        if self._view is not None:
            self._read()
        return self._runs

    def _read(self) -> None:
        view, self._view = self._view, None
        assert view is not None
        kinds = view.piece("meld_kind")
        stands = view.piece("meld_cards") + view.piece("meld_jokers")
        for i in range(kinds.shape[0]):
            if kinds[i, 0] > 0:
                t = int(np.flatnonzero(stands[i])[0])
                self._sets.append((i, rank_of(t)))
            elif kinds[i, 1] > 0:
                types = np.flatnonzero(stands[i])
                suit = suit_of(int(types[0]))
                ranks = {rank_of(int(t)) for t in types}
                aces = int(stands[i][card(1, suit)])
                others = sorted(r for r in ranks if r != 1)
                if not others:  # cannot happen for a legal run; be safe
                    continue
                lo, hi = others[0], others[-1]
                if aces:
                    if aces >= 2:
                        lo, hi = 1, 14
                    elif lo == 2 and hi != 13:
                        lo = 1
                    else:  # Q K A, or the 2..K run where a lone ace goes high
                        hi = 14
                self._runs.append((i, suit, lo, hi))

    @property
    def empty(self) -> bool:
        return not self.sets and not self.runs

    def fits(self, t: int) -> bool:
        """Could card ``t`` be laid off on some table meld (CR-10)? A joker fits any meld.
        An approximation: set size limits (SP-3) are not checked."""
        if t == JOKER:
            return not self.empty
        r, s = rank_of(t), suit_of(t)
        if any(rank == r for _, rank in self.sets):
            return True
        for _, suit, lo, hi in self.runs:
            if suit == s and any(p == lo - 1 or p == hi + 1 for p in _positions(r)):
                return True
        return False

    def fits_after_joker(self, t: int, meld: int, low: bool) -> bool:
        """Would natural ``t`` fit on run ``meld`` once a joker extends it at that end?"""
        for i, suit, lo, hi in self.runs:
            if i != meld or suit != suit_of(t):
                continue
            if low:
                lo -= 1
            else:
                hi += 1
            return any(p == lo - 1 or p == hi + 1 for p in _positions(rank_of(t)))
        return False


class ContractGreedyBot:
    """A simple greedy player of the contract family (Contract Rummy, single-pack, Liverpool,
    May I?), deterministic, seeing only its :class:`~rummy_env.bots.base.SeatView`.

    Strategy, in the order it is applied:

    * **Meld as soon as legal.** Any legal ``meld`` action is taken; among several, the one that
      leaves the lowest penalty in hand (CR-12 points, estimated as the engine fills a meld:
      natural cards first, jokers for the gaps), ties broken by fewer jokers used. A started
      contract is finished the same way, one meld per action.
    * **Lay off everything possible.** Whenever lay-offs are legal (CR-10): a joker owed after a
      swap first (CR-8), then natural cards, highest points first, then joker swaps (the freed
      joker is laid off next), then the bot's own jokers (preferring a run end that makes a
      natural card in hand fit next).
    * **Advancing cards.** Before the contract is met, a card *advances* it when it is a joker,
      or, for a contract with sets, the hand holds another natural card of its rank (a pair;
      two or more make it *strong*), or, for a contract with runs, the hand holds a card of its
      suit within 2 ranks (a near-run; two such cards make it *strong*). After the contract is
      met, a card is wanted only if it can be laid off on a table meld at once (estimated from
      the table pieces of the observation).
    * **Drawing.** Take the top discard when it advances the contract (melded: when it can be
      laid off), otherwise draw from the stock. Claim a May I? card (CR-7, which costs a penalty
      card) only when it advances *strongly*: a joker, the third card of a set (the hand holds
      exactly two of its rank), or a run card not yet held with two cards of its suit within
      2 ranks; and only before the contract is met, at most ``max_claims`` (3) times a deal,
      and never in a whole-hand deal (CR-13, where every card taken must fit the final meld).
      A melded player never claims: a claim adds two cards of which only the claimed one is
      known to fit, and the player draws on its own turn anyway (letting melded players claim
      a card that fits showed no gain over 300 greedy deals); it passes.
      Single-pack digging (SP-4): the engine offers only digs whose deepest card can reach the
      table this turn, so the bot digs the shallowest legal depth whose deepest card advances
      the contract (melded: can be laid off), provided at most two (melded: no) other taken
      cards are useless; otherwise it takes or draws as above.
    * **Discarding.** The card that advances least (melded: that cannot be laid off), highest
      penalty first among equals; a card in a pair or near-run is kept while a useless card
      remains, and a joker is discarded only when nothing else is legal.
    * **Shanghai** (SH-6): call whenever a call is offered (the caller sheds a card to the
      table and one at random to the discarder), and announce a discard whenever it fits a
      table meld, so that no one can call it and hand the bot an extra card.

    * **Endgame** (off by default; the baseline never plays it). A deal that stalls ends at the
      env's turn cap (``max_turns``) with every hand scored as it stands (CR-11), and greedy
      plays on for a meld that may never come. With ``endgame_turn=T`` the bot, from turn ``T``
      of the deal (every player's turns counted, as the observation's ``turn`` piece does),
      plays for the points left in its hand: it discards its highest-points card (a joker
      counts as 15, ties by card id), and takes the top discard whenever it is worth fewer
      points than its highest card; melds, lay-offs, claims, digs and calls stay as above.
      With ``endgame_whole_hand=True`` it does so from the start of a whole-hand deal (CR-13)
      whose contract needs more cards than its hand holds after drawing: greedy never claims
      in such a deal, so it can never meld there (Tahelia Powe's deal 8, TP-2).

    ``seed`` is accepted for the :class:`~rummy_env.bots.base.Bot` protocol; decisions are
    deterministic.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, max_claims: int = 3,
                 endgame_turn: int | None = None, endgame_whole_hand: bool = False) -> None:
        if endgame_turn is not None and (not isinstance(endgame_turn, int)
                                         or isinstance(endgame_turn, bool) or endgame_turn < 0):
            raise ValueError(f"endgame_turn must be an int >= 0 or None, got {endgame_turn!r}")
        if not isinstance(endgame_whole_hand, bool):
            raise ValueError(f"endgame_whole_hand must be true or false, got {endgame_whole_hand!r}")
        self.seed = seed
        self.max_claims = max_claims
        self.endgame_turn = endgame_turn
        self.endgame_whole_hand = endgame_whole_hand

    def reset(self, seed: int | None = None) -> None:
        pass

    # ------------------------------------------------------------------ entry point
    def act(self, view: SeatView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        if "contract" not in view.obs_layout.pieces:
            raise ValueError("ContractGreedyBot plays the contract family only (its observation has "
                             "no 'contract' piece)")
        decode = view.action_layout.decode
        by_kind: dict[str, list[tuple[int, Any]]] = {}  # (id, typed action) by kind
        for i in view.legal_actions:
            a = decode(i)
            by_kind.setdefault(a.kind, []).append((i, a))
        hand = [int(x) for x in np.rint(view.piece("hand"))]
        contract = view.piece("contract")
        want_sets, want_runs = contract[0] > 0, contract[1] > 0
        melded = bool(view.piece("melded")[0] > 0)
        table = _Table(view)

        if "call" in by_kind:
            # SH-6b: a call puts the discard on the table and costs one random card of the
            # hand to the discarder: one card fewer to be caught with, so always call.
            return by_kind["call"][0][0]
        if "claim" in by_kind or "pass" in by_kind:
            top = self._top(view)
            yes = (top is not None and not melded and contract[4] == 0
                   and view.piece("claims_used")[0] < self.max_claims
                   and self._claim_worthy(hand, top, want_sets, want_runs))
            key = "claim" if yes else "pass"
            if key not in by_kind:
                key = "pass" if key == "claim" else "claim"
            return by_kind[key][0][0]

        endgame = self._endgame(view, hand, melded, contract)
        if any(k in by_kind for k in ("draw_stock", "take_discard", "dig")):
            if endgame and "take_discard" in by_kind:
                top = self._top(view)
                held = [CARD_POINTS[t] for t, n in enumerate(hand) if n]
                if top is not None and held and CARD_POINTS[top] < max(held):
                    return by_kind["take_discard"][0][0]
            return self._draw(view, by_kind, hand, melded, table, want_sets, want_runs)

        if "meld" in by_kind:
            return self._best_meld(by_kind["meld"], hand)
        if "lay_off" in by_kind or "swap" in by_kind:
            return self._best_layoff(view, by_kind, hand, table)
        if "discard" in by_kind:
            if endgame:  # the highest-points card; ties by id
                choice = min(by_kind["discard"], key=lambda x: (-CARD_POINTS[x[1].card], x[0]))[0]
            else:
                choice = self._best_discard(by_kind["discard"], hand, melded, table,
                                            want_sets, want_runs)
            # SH-6a: announce a discard that fits a meld, so nobody can call it and hand the
            # bot an extra card.
            card_t = decode(choice).card
            for i, a in by_kind.get("announce", []):
                if a.card == card_t:
                    return i
            return choice
        return int(view.legal_actions[0])

    # ------------------------------------------------------------------ evaluation
    def _endgame(self, view: SeatView, hand: Sequence[int], melded: bool,
                 contract: np.ndarray) -> bool:
        """Does the endgame rule (see the class docstring) hold for this decision?"""
        if self.endgame_turn is not None and view.piece("turn")[3] * 100 >= self.endgame_turn - 0.5:
            return True
        if not self.endgame_whole_hand or melded or contract[4] == 0:
            return False
        # cards the contract needs: sets x smallest set + runs x smallest run (stored / 10)
        need = round(10 * (contract[0] * contract[2] + contract[1] * contract[3]))
        return need > sum(hand) + (1 if view.piece("phase")[0] > 0 else 0)

    @staticmethod
    def _top(view: SeatView) -> int | None:
        top = np.flatnonzero(view.piece("discard_top"))
        return int(top[0]) if len(top) else None

    @staticmethod
    def _strength(hand: Sequence[int], t: int, sets: bool, runs: bool) -> int:
        """0: advances nothing; 1: makes a pair or near-run; 2: strong (or a joker).
        ``hand`` must not hold the copy of ``t`` being judged."""
        if t == JOKER:
            return 2
        r, s = rank_of(t), suit_of(t)
        best = 0
        if sets:
            same = sum(hand[card(r, x)] for x in range(4))
            best = max(best, min(same, 2))
        if runs:
            near = set()
            for p in _positions(r):
                for q in (p - 2, p - 1, p + 1, p + 2):
                    if 1 <= q <= 14 and q not in _positions(r) and hand[_pos_type(q, s)]:
                        near.add(1 if q == 14 else q)
            best = max(best, min(len(near), 2))
        return best

    @staticmethod
    def _claim_worthy(hand: Sequence[int], t: int, sets: bool, runs: bool) -> bool:
        """A May I? card worth its penalty card: a joker, the third card of a set (the hand
        holds exactly two of its rank), or a new card of a run (not held yet) with two cards
        of its suit within 2 ranks."""
        if t == JOKER:
            return True
        if sets and sum(hand[card(rank_of(t), x)] for x in range(4)) == 2:
            return True
        return runs and not hand[t] and ContractGreedyBot._strength(hand, t, False, True) >= 2

    def _useful(self, hand: Sequence[int], t: int, melded: bool, table: _Table,
                sets: bool, runs: bool) -> int:
        if melded:
            return 2 if table.fits(t) else 0
        return self._strength(hand, t, sets, runs)

    # ------------------------------------------------------------------ draw phase
    def _draw(self, view: SeatView, by_kind: dict, hand: list[int], melded: bool, table: _Table,
              sets: bool, runs: bool) -> int:
        if "dig" in by_kind and "discard_order" in view.obs_layout.pieces:
            order = view.piece("discard_order")
            for i, a in sorted(by_kind["dig"], key=lambda x: x[1].depth):
                depth = a.depth
                taken = [int(np.flatnonzero(order[k])[0]) for k in range(depth)]
                deep, rest = taken[-1], taken[:-1]
                if self._useful(hand, deep, melded, table, sets, runs) < 1:
                    continue
                h = list(hand)
                for t in rest:
                    h[t] += 1
                useless = 0
                for t in rest:
                    h[t] -= 1
                    if self._useful(h, t, melded, table, sets, runs) < 1:
                        useless += 1
                    h[t] += 1
                if useless <= (0 if melded else 2):
                    return i
        top = self._top(view)
        if "take_discard" in by_kind and top is not None:
            useful = self._useful(hand, top, melded, table, sets, runs) >= 1
            if useful or "draw_stock" not in by_kind:
                return by_kind["take_discard"][0][0]
        if "draw_stock" in by_kind:
            return by_kind["draw_stock"][0][0]
        return next(iter(by_kind.values()))[0][0]

    # ------------------------------------------------------------------ play phase
    @staticmethod
    def _best_meld(melds: list[tuple[int, Meld]], hand: list[int]) -> int:
        def cost(a: Meld) -> tuple[int, int]:
            h = list(hand)
            removed = jokers = 0
            shape = a.shape
            if shape[0] == "set":
                _, rank, size = shape
                for _ in range(size):
                    nat = [card(rank, s) for s in range(4) if h[card(rank, s)]]
                    if nat:
                        h[nat[0]] -= 1
                        removed += CARD_POINTS[nat[0]]
                    else:
                        jokers += 1
            else:
                _, suit, lo, hi = shape
                for p in range(lo, hi + 1):
                    t = _pos_type(p, suit)
                    if h[t]:
                        h[t] -= 1
                        removed += CARD_POINTS[t]
                    else:
                        jokers += 1
            jokers = min(jokers, hand[JOKER])
            removed += jokers * CARD_POINTS[JOKER]
            return (-removed, jokers)

        return min(melds, key=lambda x: (cost(x[1]), x[0]))[0]

    @staticmethod
    def _best_layoff(view: SeatView, by_kind: dict, hand: list[int], table: _Table) -> int:
        layoffs = by_kind.get("lay_off", [])
        swaps = by_kind.get("swap", [])
        jokers = [(i, a) for i, a in layoffs if a.card == JOKER]
        naturals = [(i, a) for i, a in layoffs if a.card != JOKER]
        owed = view.piece("turn")[1] > 0
        if owed and jokers:
            return ContractGreedyBot._pick_joker(jokers, hand, table)
        if naturals:
            return max(naturals, key=lambda x: (CARD_POINTS[x[1].card], -x[0]))[0]
        if swaps:
            return swaps[0][0]
        if jokers:
            return ContractGreedyBot._pick_joker(jokers, hand, table)
        return int(view.legal_actions[0])

    @staticmethod
    def _pick_joker(jokers: list[tuple[int, LayOff]], hand: list[int], table: _Table) -> int:
        """A joker lay-off, preferring a run end that lets a natural card in hand fit next."""
        naturals = [t for t in range(52) if hand[t]]
        for i, a in jokers:
            if any(not table.fits(t) and table.fits_after_joker(t, a.meld, a.low)
                   for t in naturals):
                return i
        return jokers[0][0]

    def _best_discard(self, discards: list[tuple[int, Discard]], hand: list[int], melded: bool,
                      table: _Table, sets: bool, runs: bool) -> int:
        def key(x: tuple[int, Discard]) -> tuple[int, int, int, int]:
            i, t = x[0], x[1].card
            h = list(hand)
            h[t] -= 1
            return (t == JOKER, self._useful(h, t, melded, table, sets, runs),
                    -CARD_POINTS[t], i)

        return min(discards, key=key)[0]


__all__ = ["CARD_POINTS", "ContractGreedyBot"]
