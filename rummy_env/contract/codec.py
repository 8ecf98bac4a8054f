"""Action layout and observation encoder of the contract family (numpy only).

Both are sized from a :class:`~rummy_env.contract.state.ContractGame` (rules and player count),
so one environment instance has one fixed ``Discrete(N)`` and one observation shape; the docs
tables are generated from them (``python -m rummy_env.docs``).
"""

from __future__ import annotations

import numpy as np

from rummy_env.cards import JOKER, NUM_TYPES
from rummy_env.codec import ActionLayout
from rummy_env.contract.actions import (
    ANNOUNCE, BUY, DISCARD, DRAW_STOCK, PASS, TAKE_DISCARD, call, dig, lay_off, meld, swap,
)
from rummy_env.contract.actions import CLAIM as _CLAIM  # CLAIM here is the phase
from rummy_env.contract.state import (
    CALL, CLAIM, DRAW, PLAY, ContractGame, ContractState, action_text,
)
from rummy_env.obs import ObsLayout


def build_action_layout(game: ContractGame) -> ActionLayout:
    """The action ranges of a contract-family game, in id order."""
    r, m = game.rules, game.max_melds
    blocks = [
        ("draw_stock", [DRAW_STOCK], "draw the top stock card (CR-5; opens May I?, CR-7)"),
        ("take_discard", [TAKE_DISCARD], "take the top discard (CR-5, SP-4)"),
        ("dig", [dig(d) for d in range(2, game.max_dig + 1)] if r.dig else [],
         "take the top d discards, d = id - first + 2 (SP-4)"),
        ("buy", [BUY] if r.buy_before_draw else [],
         "buy the top discard before the normal draw, paying the kitty (PR-6)"),
        ("claim", [_CLAIM] if r.may_i else [],
         "buy the top discard out of turn, paying the kitty (PR-6)" if r.claim_price
         else "claim the top discard out of turn (CR-7)"),
        ("pass", [PASS] if r.may_i or r.shanghai else [],
         "decline to claim (CR-7)" + (" or to call Shanghai (SH-6)" if r.shanghai else "")),
        ("call", [call(i) for i in range(m)] if r.shanghai else [],
         "call Shanghai on the top discard and lay it off on meld i: on a set, at the fitting "
         "end of a run, a joker at the high end (SH-6b)"),
        ("call_joker_low", [call(i, True) for i in range(m)] if r.shanghai else [],
         "call Shanghai on a joker discard and lay it off at the low end of run i (SH-6b)"),
        ("meld", [meld(sh) for sh in game.shapes],
         "lay one contract meld: a set by rank and size, a run by suit and span (CR-3, CR-5)"),
        ("lay_off", [lay_off(t, i) for i in range(m) for t in range(52)],
         "lay off a natural card on table meld i: id = first + 52*i + card (CR-10)"),
        ("lay_off_wild_low", [lay_off(t, i, True) for i in range(m) for t in range(52)
                              if r.is_wild(t)],
         "lay off a wild card (PR-5) at the low end of run i, standing for the card there; "
         "its lay_off id puts it on a set or the high end"),
        ("lay_off_joker", [lay_off(JOKER, i) for i in range(m)],
         "lay off a joker on meld i: on a set, or at the high end of a run (CR-10)"),
        ("lay_off_joker_low", [lay_off(JOKER, i, True) for i in range(m)],
         "lay off a joker at the low end of run i (CR-10)"),
        ("swap", [swap(t, i) for i in range(m) for t in range(52)] if r.joker_swap else [],
         "put the natural card in place of the joker standing for it in run i (CR-8)"),
        ("discard", DISCARD, "discard a card by type (CR-5)"),
        ("announce", ANNOUNCE if r.shanghai else [],
         "discard a card that fits a table meld, announcing Shanghai: no one may take or "
         "claim it (SH-6a)"),
    ]
    return ActionLayout(blocks, action_text)


def build_obs_layout(game: ContractGame) -> ObsLayout:
    """Named pieces of the observation; seat rows are egocentric (row 0 is the observer)."""
    n, m, r = game.num_players, game.max_melds, game.rules
    pieces = [
        ("hand", (NUM_TYPES,), "cards of each type in the observer's hand"),
        ("known", (n, NUM_TYPES), "cards each seat took face up and still holds (public)"),
        ("hand_size", (n,), "cards in each seat's hand / 20"),
        ("melded", (n,), "1 if the seat has met this deal's contract"),
        ("scores", (n,), "game score of each seat / 100"),
        ("claims_used", (n,), "May I? claims each seat made this deal"),
        ("to_move", (n,), "one-hot: whose turn it is"),
        ("dealer", (n,), "one-hot: the dealer"),
        ("phase", (len(game.phases),), "one-hot: " + ", ".join(game.phases)),
        ("deal", (r.num_deals,), "one-hot: deal number"),
        ("contract", (6,), "sets, runs, smallest set / 10, smallest run / 10, whole-hand deal "
                           "(CR-13), contiguity rule (CR-9)"),
        ("turn", (4,), "contract meld in progress, freed jokers owed (CR-8), may lay off now, "
                       "turn number / 100"),
        ("obligation", (NUM_TYPES,), "one-hot: dug card still to put on the table (SP-4)"),
        ("forbidden", (NUM_TYPES,), "one-hot: card that may not be discarded this turn (SP-4)"),
        ("claim", (n + 1,), "1 at 0 if the observer is asked to claim"
                            + (" (or, SH-6, to call)" if r.shanghai else "")
                            + "; then one-hot of the seat that claimed the previous card of "
                              "this window"),
        ("stock_size", (1,), "cards in the stock / total cards"),
        ("discard_size", (1,), "cards in the discard pile / total cards"),
        ("discard_top", (NUM_TYPES,), "one-hot: the top discard"),
        ("discard_top_by", (n + 1,), "one-hot: who discarded the top card (last: the up-card)"),
        ("discard_counts", (NUM_TYPES,), "cards of each type in the discard pile"),
    ]
    if r.claims_per_deal is not None:
        pieces.append(("claims_left", (n,), "May I? claims (buys) each seat may still make this "
                                            "deal / the largest limit (SH-5, PR-2)"))
    if r.claim_price:
        pieces.append(("kitty", (1 + n,), "pennies in the kitty, then each seat's net pennies "
                                          "this game, / 10 (PR-6)"))
    if r.shanghai:
        pieces.append(("announced", (1,), "1 if the top discard was announced: no take, no "
                                          "claim (SH-6a)"))
    if r.dig:
        pieces.append(("discard_order", (game.max_dig, NUM_TYPES),
                       "one-hot per depth: the discard pile from the top (SP-4)"))
    pieces += [
        ("meld_owner", (m, n), "one-hot per table meld: its owner"),
        ("meld_kind", (m, 2), "per table meld: set, run (all zero: no meld)"),
        ("meld_cards", (m, 52), "per table meld: cards it holds by the card they stand for"),
        ("meld_jokers", (m, 52), "per table meld: cards its jokers (wild cards) stand for"),
    ]
    return ObsLayout(pieces)


class ContractEncoder:
    """Builds observations and the full-information state vector of a ContractState."""

    def __init__(self, game: ContractGame) -> None:
        self.game = game
        self.layout = build_obs_layout(game)
        n = game.num_players
        self.state_layout = ObsLayout([
            ("hands", (n, NUM_TYPES), "every hand, by seat"),
            ("stock", (NUM_TYPES,), "cards of each type in the stock"),
            ("public", (self.layout.size,), "the observation of player_0 (public part and hand)"),
        ])
        self.size = self.layout.size
        s = self.layout.slices
        self._s = s
        c = [(
            len(k.sets), len(k.runs), min(k.sets, default=0) / 10, min(k.runs, default=0) / 10,
            float(i + 1 in game.rules.whole_hand_deals), float(i + 1 in game.rules.contiguity_deals),
        ) for i, k in enumerate(game.rules.contracts)]
        self._contract = [list(x) for x in c]
        self._num_deals = game.rules.num_deals
        lims = [game.rules.claim_limit(d) or 0 for d in range(1, self._num_deals + 1)]
        self._max_claims = max(lims + [1])
        self._phases = game.phases
        self._off = {name: p.start for name, p in self.layout.pieces.items()}
        order = list(self.layout.pieces)
        self._table_start = self._off["meld_owner"]
        if order[-4:] != ["meld_owner", "meld_kind", "meld_cards", "meld_jokers"]:
            raise AssertionError("observe() writes the table pieces as one block at the end")
        if order[:2] != ["hand", "known"] or self._off["known"] != NUM_TYPES:
            raise AssertionError("observe() writes hand and known as one contiguous run")
        self._n = n
        self._rel = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self._hk_end = self._off["known"] + n * NUM_TYPES
        self._head = self._off["hand_size"]
        self._head_end = self._off["turn"] + 4
        self._onehot_n = [[1.0 if i == k else 0.0 for i in range(n)] for k in range(n)]
        self._phase = {ph: [1.0 if q == ph else 0.0 for q in game.phases] for ph in game.phases}
        # one-hot of the deal number followed by the "contract" piece, per deal
        self._deal_contract = [[1.0 if i == d else 0.0 for i in range(self._num_deals)]
                               + self._contract[d] for d in range(self._num_deals)]
        self._claims_left = self._off.get("claims_left")
        self._kitty = self._off.get("kitty")
        self._dig = "discard_order" in self._off
        self._max_order = game.max_dig
        self._total = float(game.total_cards)
        self._sizes = self._off["stock_size"]
        if self._off["discard_size"] != self._sizes + 1:
            raise AssertionError("observe() writes stock_size and discard_size together")
        run = order[order.index("hand_size"):order.index("turn") + 1]
        if run != ["hand_size", "melded", "scores", "claims_used", "to_move", "dealer", "phase",
                   "deal", "contract", "turn"]:
            raise AssertionError("observe() writes these pieces as one contiguous run")

    def bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """True ``(low, high)`` of every observation entry, from the rules and player count;
        ``turn_cap`` bounds the turn number (the environment's ``2 * max_turns``: a scenario
        starts at most ``max_turns`` turns in, and the episode is cut ``max_turns`` later).
        Card counts are bounded by the copies in the packs; the game's sums by what the whole
        pack could add in each deal."""
        g, r, n = self.game, self.game.rules, self._n
        deck = np.asarray(g.deck, np.float64)
        wild = float(deck[JOKER] + sum(deck[t] for t in range(52) if r.is_wild(t)))
        deals = self._num_deals
        deck_points = float(np.dot(deck, r.card_points))
        cut = r.cut_bonus if r.cut_probability > 0 else 0
        # a claim window opens once per turn, each seat claiming at most once in it
        lims = [r.claim_limit(d) for d in range(1, deals + 1)]
        claims = max(min(lim, n * turn_cap) if lim is not None else n * turn_cap for lim in lims)
        buys = deals * n * claims  # claims (buys) of a game, every seat
        kitty = buys * r.claim_price
        pennies = kitty + n * n * r.place_pennies
        contract = np.asarray(self._contract, np.float64)
        spec = {
            "hand": (0, deck), "known": (0, deck), "hand_size": (0, g.total_cards / 20.0),
            "melded": (0, 1),
            "scores": (-deals * cut / 100.0, deals * deck_points / 100.0),
            "claims_used": (0, claims), "to_move": (0, 1), "dealer": (0, 1), "phase": (0, 1),
            "deal": (0, 1), "contract": (contract.min(axis=0), contract.max(axis=0)),
            "turn": (0, [1, wild, 1, turn_cap / 100.0]),
            "obligation": (0, 1), "forbidden": (0, 1), "claim": (0, 1),
            "stock_size": (0, 1), "discard_size": (0, 1), "discard_top": (0, 1),
            "discard_top_by": (0, 1), "discard_counts": (0, deck),
            "claims_left": (0, 1), "kitty": ([0] + [-pennies / 10.0] * n,
                                            [kitty / 10.0] + [pennies / 10.0] * n),
            "announced": (0, 1), "discard_order": (0, 1), "meld_owner": (0, 1),
            "meld_kind": (0, 1), "meld_cards": (0, deck[:52]), "meld_jokers": (0, wild),
        }
        return self.layout.bounds({k: v for k, v in spec.items() if k in self.layout.pieces})

    def state_bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of the state vector (see ``bounds``)."""
        deck = np.asarray(self.game.deck, np.float64)
        lo, hi = self.bounds(turn_cap)
        return self.state_layout.bounds({"hands": (0, deck), "stock": (0, deck),
                                         "public": (lo, hi)})

    def observe(self, st: ContractState, seat: int) -> np.ndarray:
        """The egocentric observation of ``seat``: nothing of other hands or the stock order.

        On the hot path of every environment step, so it writes few, large blocks: "hand" and
        the "known" rows as one run of bytes (counts are < 256), the small pieces from
        "hand_size" to "turn" as one float list (seat rows are the absolute lists rotated to
        start at the observer), precomputed one-hots, and the table block cached on the state.
        """
        buf = np.zeros(self.size, dtype=np.float32)
        self._write_seats(buf, st, seat)
        self._write_turn(buf, st, seat)
        self._write_pile(buf, st, seat)
        if st.table:
            # The table changes only on melds, lay-offs and swaps: its block is cached per
            # (table version, viewer) on the state, which clears the cache on every change.
            key = ("obs", seat)
            block = st.table_cache.get(key)
            if block is None:
                block = st.table_cache[key] = self._table_block(st, seat)
            buf[self._table_start:] = block
        return buf

    def _write_seats(self, buf: np.ndarray, st: ContractState, seat: int) -> None:
        """"hand" and "known" as one run of bytes, then the pieces from "hand_size" to "turn"
        as one float list (seat rows rotated to start at the observer)."""
        n = self._n
        hands = st.hands
        known = st.known
        rows = [bytes(hands[seat])]
        rows += [bytes(known[p]) for p in self._rel[seat]]
        buf[:self._hk_end] = np.frombuffer(b"".join(rows), dtype=np.uint8)
        sizes = [sum(h) / 20.0 for h in hands]
        melded = st.melded  # bools: numpy stores them as 1.0 / 0.0
        scores = [x / 100.0 for x in st.scores]
        claims = st.claims_used
        head = sizes[seat:] + sizes[:seat]
        head += melded[seat:] + melded[:seat]
        head += scores[seat:] + scores[:seat]
        head += claims[seat:] + claims[:seat]
        head += self._onehot_n[(st.to_move - seat) % n]
        head += self._onehot_n[(st.dealer - seat) % n]
        phase = st.phase
        head += self._phase[phase]
        head += self._deal_contract[st.deal - 1]
        head += [st.contract_left is not None, st.jokers_owed,
                 phase == PLAY and st._can_layoff_now(st.to_move), st.turn_number / 100.0]
        buf[self._head:self._head_end] = head

    def _write_turn(self, buf: np.ndarray, st: ContractState, seat: int) -> None:
        """This turn's pieces: SP-4's dug and taken cards, claims left, PR-6's pennies, the
        SH-6a announcement and an open claim window."""
        n = self._n
        o = self._off
        phase = st.phase
        if st.obligation >= 0:
            buf[o["obligation"] + st.obligation] = 1
        if st.forbidden >= 0:
            buf[o["forbidden"] + st.forbidden] = 1
        if self._claims_left is not None:
            lim = self.game.rules.claim_limit(st.deal) or 0
            left = [max(0, lim - c) / self._max_claims for c in st.claims_used]
            start = self._claims_left
            buf[start:start + n] = left[seat:] + left[:seat]
        if self._kitty is not None:
            pennies = [x / 10.0 for x in st.pennies]
            buf[self._kitty:self._kitty + 1 + n] = [st.kitty / 10.0] + pennies[seat:] + pennies[:seat]
        if st.announced:
            buf[o["announced"]] = 1
        if phase == CLAIM or phase == CALL:
            buf[o["claim"]] = st.claim_queue[0] == seat
            if st.last_claimer >= 0:
                buf[o["claim"] + 1 + (st.last_claimer - seat) % n] = 1

    def _write_pile(self, buf: np.ndarray, st: ContractState, seat: int) -> None:
        """The stock and pile sizes, the top discard and who made it, the pile's counts and
        (with digging, SP-4) its order from the top."""
        n = self._n
        o = self._off
        pile = st.discard
        total = self._total
        buf[self._sizes:self._sizes + 2] = (len(st.stock) / total, len(pile) / total)
        if pile:
            buf[o["discard_top"] + pile[-1]] = 1
            by = st.discarder[-1]
            buf[o["discard_top_by"] + ((by - seat) % n if by >= 0 else n)] = 1
            counts = [0] * NUM_TYPES
            for t in pile:
                counts[t] += 1
            start = o["discard_counts"]
            buf[start:start + NUM_TYPES] = np.frombuffer(bytes(counts), dtype=np.uint8)
            if self._dig:
                start = o["discard_order"]
                k = len(pile) - 1
                for d in range(min(len(pile), self._max_order)):
                    buf[start + d * NUM_TYPES + pile[k - d]] = 1

    def _table_block(self, st: ContractState, seat: int) -> np.ndarray:
        """The table pieces seen from ``seat``: what every seat sees (kinds, cards) is built
        once per table version with one ``bincount``; each viewer adds its owner one-hots."""
        n, o = self._n, self._off
        start = self._table_start
        common = st.table_cache.get("obs")
        if common is None:
            mk, mc, mj = (o["meld_kind"] - start, o["meld_cards"] - start,
                          o["meld_jokers"] - start)
            idx = []
            for i, m in enumerate(st.table):
                idx.append(mk + i * 2 + (m.kind == "run"))
                base_c, base_j = mc + i * 52, mj + i * 52
                # a wild card counts where it stands for another card
                idx += [(base_j if c != t else base_c) + t for c, t in zip(m.cards, m.stands)]
            common = st.table_cache["obs"] = np.bincount(
                idx, minlength=self.size - start).astype(np.float32)
        block = common.copy()
        at = o["meld_owner"] - start
        for m in st.table:
            block[at + (m.owner - seat) % n] = 1
            at += n
        return block

    def state(self, st: ContractState) -> np.ndarray:
        """Full information (every hand, the stock's contents) for centralised critics."""
        n = self.game.num_players
        out = np.zeros(self.state_layout.size, dtype=np.float32)
        for p in range(n):
            out[p * NUM_TYPES:(p + 1) * NUM_TYPES] = st.hands[p]
        base = n * NUM_TYPES
        for t in st.stock:
            out[base + t] += 1
        out[base + NUM_TYPES:] = self.observe(st, 0)
        return out


__all__ = ["build_action_layout", "build_obs_layout", "ContractEncoder", "DRAW"]
