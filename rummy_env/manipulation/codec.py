"""Action layout and observation encoder of Manipulation Rummy (numpy only).

The action layout is fixed: four ranges of 52 natural card types (play a natural card, play a
joker as a stated card, free a joker bound to a card with the real card from hand, or from the
table) and four single actions, so one meld is a sequence of single steps (MR-4, MR-5).

An observation holds what the seat may know: its own hand and the whole table (face up: the
natural cards and what each joker stands for), the jokers played this turn, the turn's state,
and public counts and scores. Other hands and the stock order are never encoded.
"""

from __future__ import annotations

import operator

import numpy as np

from rummy_env.cards import JOKER, NUM_NATURAL, NUM_TYPES
from rummy_env.codec import ActionLayout
from rummy_env.manipulation.actions import (
    DECLINE, FINISH, FREE_HAND, FREE_TABLE, KNOCK, NO_KNOCK, PLAY, PLAY_JOKER,
)
from rummy_env.manipulation.state import (
    PHASES, ManipulationGame, ManipulationState, action_text, card_value,
)
from rummy_env.obs import ObsLayout


def build_action_layout(game: ManipulationGame) -> ActionLayout:
    """The action ranges of Manipulation Rummy, in id order."""
    blocks = [
        ("play", PLAY, "play a natural card from hand to the table (one step of a meld, MR-4)"),
        ("joker", PLAY_JOKER, "play a joker as the stated card: the freed one if one waits, "
                              "else one from hand (MR-5)"),
        ("free_hand", FREE_HAND, "replace the joker standing for this card by the real card "
                                 "from hand (MR-5)"),
        ("free_table", FREE_TABLE, "replace the joker standing for this card by the real card "
                                   "on the table (MR-5)"),
        ("finish", [FINISH], "end the meld: the table is valid, a hand card was added (MR-4); "
                             "the turn ends"),
        ("decline", [DECLINE], "do not meld now: draw the next card (MR-2); in the extra turns "
                               "of MR-9, end the turn"),
        ("knock", [KNOCK], "knock: the deal ends and is scored (MR-7, MR-8)"),
        ("no_knock", [NO_KNOCK], "do not knock; the turn passes"),
    ]
    return ActionLayout(blocks, action_text)


def build_obs_layout(game: ManipulationGame) -> ObsLayout:
    """Named pieces; seat rows are egocentric (row 0 is the observer)."""
    n = game.num_players
    pieces = [
        ("hand", (NUM_TYPES,), "cards of each type in the observer's hand"),
        ("table", (NUM_NATURAL,), "cards on the table by the card they are or stand for"),
        ("table_jokers", (NUM_NATURAL,), "jokers on the table by the card they stand for (MR-5)"),
        ("locked", (NUM_NATURAL,), "of those, jokers played this turn (kept to the turn's end)"),
        ("hand_size", (n,), "cards in each seat's hand / 20"),
        ("points", (n,), "game totals / game target (MR-10)"),
        ("deals_won", (n,), "deals each seat has won / 10 (MR-10)"),
        ("to_move", (n,), "one-hot: whose turn it is"),
        ("dealer", (n,), "one-hot: the dealer"),
        ("phase", (len(PHASES),), "one-hot: " + ", ".join(PHASES)),
        ("turn", (9,), "draws this turn / 3, meld in progress, hand card added (MR-4), freed "
                       "jokers pending (MR-5), extra turns (MR-9), extra turns left / players, "
                       "stock / total cards, own hand value / 100, may knock (MR-7)"),
    ]
    return ObsLayout(pieces)


class ManipulationEncoder:
    """Builds observations and the full-information state vector."""

    def __init__(self, game: ManipulationGame) -> None:
        self.game = game
        self.layout = build_obs_layout(game)
        n = game.num_players
        self.state_layout = ObsLayout([
            ("hands", (n, NUM_TYPES), "every hand, by seat"),
            ("stock", (NUM_TYPES,), "cards of each type in the stock"),
            ("public", (self.layout.size,), "the observation of player_0"),
        ])
        self.size = self.layout.size
        self._off = {name: p.start for name, p in self.layout.pieces.items()}
        self._rel = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self._total = float(game.total_cards)
        self._tail = self._off["hand_size"]
        # The one-hot rows of (to move, dealer) relative to the observer, and of the phase.
        self._onehot = [[[float(i == a) for i in range(n)] + [float(i == b) for i in range(n)]
                         for b in range(n)] for a in range(n)]
        self._phase = {ph: [float(ph == x) for x in PHASES] for ph in PHASES}

    def bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """True ``(low, high)`` of every observation entry (see ``ContractEncoder.bounds``): a
        deal scores a winner at most every other hand's value plus the bonuses (MR-8, MR-10),
        the losers nothing."""
        g, r, n = self.game, self.game.rules, self.game.num_players
        deck = np.asarray(g.deck, np.float64)
        jokers = float(deck[JOKER])
        value = float(sum(card_value(t, r.joker_value) * deck[t] for t in range(NUM_TYPES)))
        deal = ((n - 1) * value + r.knock_bonus + r.go_out_bonus + r.target_bonus
                + r.deal_won_bonus * r.num_deals)
        spec = {
            "hand": (0, deck), "table": (0, deck[:NUM_NATURAL] + jokers),
            "table_jokers": (0, jokers), "locked": (0, jokers),
            "hand_size": (0, g.total_cards / 20.0),
            "points": (0, r.num_deals * deal / r.game_target),
            "deals_won": (0, r.num_deals / 10.0), "to_move": (0, 1), "dealer": (0, 1),
            "phase": (0, 1),
            "turn": (0, [1, 1, 1, jokers, 1, 1, 1, value / 100.0, 1]),
        }
        return self.layout.bounds(spec)

    def state_bounds(self, turn_cap: int) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of the state vector (see ``bounds``)."""
        deck = np.asarray(self.game.deck, np.float64)
        lo, hi = self.bounds(turn_cap)
        return self.state_layout.bounds({"hands": (0, deck), "stock": (0, deck),
                                         "public": (lo, hi)})

    def observe(self, st: ManipulationState, seat: int) -> np.ndarray:
        """The egocentric observation of ``seat``: nothing of other hands or the stock order."""
        n = self.game.num_players
        buf = np.zeros(self.size, dtype=np.float32)
        nat, jok = st.table_nat, st.table_jok
        raw = (bytes(st.hands[seat]) + bytes(map(operator.add, nat, jok)) + bytes(jok)
               + bytes(st.locked))
        buf[:len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        rel = self._rel[seat]
        hands, points, won = st.hands, st.points, st.deals_won
        target = float(st.rules.game_target)
        tail = [sum(hands[p]) / 20.0 for p in rel]
        tail += [points[p] / target for p in rel]
        tail += [won[p] / 10.0 for p in rel]
        tail += self._onehot[(st.to_move - seat) % n][(st.dealer - seat) % n]
        tail += self._phase[st.phase]
        value = st.hand_value(seat)
        tail += [st.draws / 3.0, float(st.melding), float(st.added), float(st.pending),
                 float(st.final_round), st.final_left / n, len(st.stock) / self._total,
                 value / 100.0, float(0 < value <= st.rules.knock_limit)]
        buf[self._tail:] = tail
        return buf

    def state(self, st: ManipulationState) -> np.ndarray:
        n = self.game.num_players
        out = np.zeros(self.state_layout.size, dtype=np.float32)
        for p in range(n):
            out[p * NUM_TYPES:(p + 1) * NUM_TYPES] = st.hands[p]
        base = n * NUM_TYPES
        if st.stock:
            out[base:base + NUM_TYPES] = np.bincount(st.stock, minlength=NUM_TYPES)
        base += NUM_TYPES
        out[base:] = self.observe(st, 0)
        return out


__all__ = ["build_action_layout", "build_obs_layout", "ManipulationEncoder"]
