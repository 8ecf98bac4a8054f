"""The search bot's model of contract-family opponents: worlds their public play makes likely.

Uniform worlds give every opponent a random hand, but a greedy player's hand is shaped by its
play: it keeps pairs and near-runs and throws the rest, and it takes a discard only when the
card advances its contract. Measured in May I? (``benchmarks/search_oracle.py``): the search
given the true position beats greedy by 8 points per deal, the same search over uniform worlds
loses 2 to it. :class:`ContractOpponentModel` keeps the worlds in which the rollout policy, the
:class:`~rummy_env.bots.greedy.ContractGreedyBot`, would have played what the public record
shows of each opponent that has not met its contract yet:

* **Cards it took face up and still holds** (``known``): greedy takes a discard or claims one
  only when it advances the contract, so each such card has a pair or a near-run (or is a
  joker) in the hand beside it (``_strength`` at least 1).
* **Its last discard** ``d`` (the pile and its ``discarders`` show it): greedy discards the card
  that advances least, highest points first, so no card of its hand with ``d`` back in it
  ranks below ``d`` in that order.
* **The discard it declined**: when the card under ``d`` on the pile is the previous seat's,
  the opponent saw it on top at its draw and drew the stock, so that card advanced nothing in
  the hand it held then (its hand now with ``d`` back, less the stock card it drew, which the
  record does not show: one of its cards that was not taken face up).

The checks read the hand as it is now, not turn by turn: the cards taken since (a later claim's
card and its hidden penalty card) are not taken out, so a check can fail in the true world.
That is why the target is soft: a world's weight is ``exp(-beta * misses)``, ``misses`` the
number of failed checks over the opponents, sampled with a Metropolis chain whose moves swap
one hidden card of a modelled opponent with a hidden card of another zone (an opponent's hand
or the stock): symmetric moves, so after ``burn`` moves every ``thin``-th state is a draw from
the target. Melded opponents are not modelled (greedy's play there follows the table, and
their hands are short). Only the public record and the bot's own hand are read.

Measured, and why it is opt-in (``SearchBot(opponent_model=True)``; README, "Search bot"): on
52 of seat 0's positions in 10 greedy May I? games the true world fails 0.04 checks on
average, uniform worlds 4.1 and the chain's worlds 0.11; the share of the modelled opponents'
cards in a pair or near-run is 0.72 in the true hands, 0.53 in uniform worlds and 0.68 in the
chain's (3.4 ms a chain). Yet over 1,000 duplicate May I? deals (seed 1000) the search bot with
these worlds is *worse* against greedy than with uniform ones: +6.61 [+4.10, +9.12] points per
deal against +3.63 [+1.08, +6.19]. Hands shaped like greedy's are not what the search lacks
there; the true position's advantage (the oracle diagnostic) lies in what these checks do not
reach (which cards, not what kind of cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummy_env.bots.greedy import CARD_POINTS, ContractGreedyBot
from rummy_env.cards import JOKER, NUM_TYPES, parse_card
from rummy_env.worlds import Information, deal_scenario

_strength = ContractGreedyBot._strength


@dataclass(frozen=True)
class _Seat:
    """The evidence of one opponent: its zone in the hidden deal, its face-up cards, its last
    discard (-1: none on the pile) and the discard it declined (-1: none shown)."""

    zone: int
    known: tuple[int, ...]
    discard: int
    declined: int


def _misses(hand: list[int], seat: _Seat, sets: bool, runs: bool) -> int:
    """How many of ``seat``'s checks (module docstring) the hand ``hand`` (counts by type, the
    opponent's whole hand now) fails."""
    out = 0
    for k in seat.known:
        hand[k] -= 1
        out += _strength(hand, k, sets, runs) < 1
        hand[k] += 1
    d = seat.discard
    if d < 0:
        return out
    hand[d] += 1
    try:
        held = [t for t in range(NUM_TYPES) if hand[t]]
        hand[d] -= 1
        mine = (d == JOKER, _strength(hand, d, sets, runs), -CARD_POINTS[d])
        hand[d] += 1
        for t in held:
            if t == d:
                continue
            hand[t] -= 1
            key = (t == JOKER, _strength(hand, t, sets, runs), -CARD_POINTS[t])
            hand[t] += 1
            out += key < mine
        c = seat.declined
        if c >= 0 and _strength(hand, c, sets, runs) >= 1:
            # the stock card it drew is one of its cards not taken face up: is there one
            # without which the declined card advanced nothing?
            free = [t for t in held if hand[t] > seat.known.count(t)]
            ok = False
            for t in free:
                hand[t] -= 1
                ok = _strength(hand, c, sets, runs) < 1
                hand[t] += 1
                if ok:
                    break
            out += not ok
    finally:
        hand[d] -= 1
    return out


class ContractOpponentModel:
    """Worlds that the contract-family opponents' public play makes likely (see the module
    docstring).

    :param beta: the weight of one failed check: a world's target weight is
        ``exp(-beta * misses)`` (large: nearly only worlds that fit every check).
    :param burn: chain moves before the first world is kept.
    :param thin: chain moves between two worlds kept.
    """

    def __init__(self, beta: float = 3.0, burn: int = 120, thin: int = 12) -> None:
        self.beta = float(beta)
        self.burn = int(burn)
        self.thin = max(1, int(thin))
        #: Statistics of the last chain: moves, moves accepted, misses at the end.
        self.last: dict[str, float] = {}

    # the protocol the search bot calls (see rummy_env.bots.search.SearchBot.act)
    def remember(self, info: Information, action: Any) -> None:
        """The model keeps no memory: everything it reads is in the public record."""

    def evidence(self, info: Information) -> dict[str, Any] | None:
        """The modelled opponents and their checks (None when there is none to model)."""
        seats = self.seats(info)
        return {"seats": seats} if seats else None

    def propose(self, info: Information, ev: dict[str, Any], policy: Any, count: int,
                rng: np.random.Generator
                ) -> tuple[list[dict[str, Any]] | None, Callable[[dict[str, Any]], bool] | None]:
        """``count`` worlds of :meth:`worlds` with the greedy rollout policy; with another
        policy the model does not apply: no worlds and no check (uniform worlds)."""
        if not isinstance(getattr(policy, "bot", None), ContractGreedyBot):
            return None, None
        return self.worlds(info, ev["seats"], count, rng), None

    # ----------------------------------------------------------------- the evidence
    @staticmethod
    def seats(info: Information) -> list[_Seat]:
        """Every opponent that has not melded and has a check (module docstring)."""
        pub = info.public
        n = info.game.num_players
        zones = {name: i for i, (name, _) in enumerate(info.hidden)}
        melded = set(pub.get("melded", ()))
        pile = [parse_card(c) for c in pub["discard"]]
        by = list(pub.get("discarders", [-2] * len(pile)))
        last, declined = ContractOpponentModel._pile_evidence(pile, by, n)
        out = []
        for s in range(n):
            zone = zones.get(f"hand:{s}")
            if s == info.seat or s in melded or zone is None:
                continue
            known = tuple(parse_card(c) for c in pub["known"][s])
            d = last.get(s, -1)
            if known or d >= 0:
                out.append(_Seat(zone, known, d, declined.get(s, -1)))
        return out

    @staticmethod
    def _pile_evidence(pile: Sequence[int], by: Sequence[int], n: int
                       ) -> tuple[dict[int, int], dict[int, int]]:
        """Each seat's last discard and the discard it declined, read from the top of the pile
        while the discarders follow one another backwards in seat order (each a seat's latest
        discard, with the previous seat's under it); the walk stops where a discard was taken."""
        last: dict[int, int] = {}
        declined: dict[int, int] = {}
        i = len(pile) - 1
        while i >= 0 and 0 <= by[i] < n and by[i] not in last:
            s = by[i]
            last[s] = pile[i]
            if i == 0 or by[i - 1] != (s - 1) % n:
                break
            declined[s] = pile[i - 1]
            i -= 1
        return last, declined

    # ----------------------------------------------------------------- the chain
    def worlds(self, info: Information, seats: list[_Seat], count: int,
               rng: np.random.Generator) -> list[dict[str, Any]]:
        """``count`` worlds from the chain (module docstring), as scenario dicts."""
        pub = info.public
        contract = info.game.rules.contracts[pub["deal"] - 1]
        sets, runs = bool(contract.sets), bool(contract.runs)
        bounds, i = [], 0
        for _, k in info.hidden:
            bounds.append((i, i + k))
            i += k
        pool = info.pool
        order = [pool[j] for j in rng.permutation(len(pool))]
        zone_of = [z for z, (a, b) in enumerate(bounds) for _ in range(a, b)]
        by_zone = {s.zone: s for s in seats if bounds[s.zone][1] > bounds[s.zone][0]}
        if not by_zone:
            return [deal_scenario(info, order) for _ in range(count)]
        hands: dict[int, list[int]] = {}
        for z, s in by_zone.items():
            h = [0] * NUM_TYPES
            for t in s.known:
                h[t] += 1
            for t in order[bounds[z][0]:bounds[z][1]]:
                h[t] += 1
            hands[z] = h
        miss = {z: _misses(hands[z], s, sets, runs) for z, s in by_zone.items()}
        slots = [j for z in by_zone for j in range(*bounds[z])]
        total, beta = len(order), self.beta
        out: list[dict[str, Any]] = []
        accepted = 0
        steps = self.burn + count * self.thin
        for step in range(steps):
            a = slots[int(rng.integers(len(slots)))]
            za = zone_of[a]
            b = int(rng.integers(total - (bounds[za][1] - bounds[za][0])))
            if b >= bounds[za][0]:
                b += bounds[za][1] - bounds[za][0]
            zb = zone_of[b]
            ta, tb = order[a], order[b]
            if ta != tb:
                delta, new = 0, {}
                for z, gone, come in ((za, ta, tb), (zb, tb, ta)):
                    if z in hands:
                        h = hands[z]
                        h[gone] -= 1
                        h[come] += 1
                        new[z] = _misses(h, by_zone[z], sets, runs)
                        delta += new[z] - miss[z]
                if delta <= 0 or rng.random() < np.exp(-beta * delta):
                    order[a], order[b] = tb, ta
                    miss.update(new)
                    accepted += 1
                else:
                    for z, gone, come in ((za, ta, tb), (zb, tb, ta)):
                        if z in hands:
                            hands[z][gone] += 1
                            hands[z][come] -= 1
            if step >= self.burn and (step - self.burn) % self.thin == self.thin - 1:
                out.append(deal_scenario(info, order))
        self.last = {"moves": steps, "accepted": accepted, "misses": sum(miss.values())}
        return out

    def misses(self, info: Information, world: dict[str, Any]) -> int:
        """The failed checks of a world (a scenario dict of ``info``'s position): the chain's
        energy, for tests and the benchmark."""
        contract = info.game.rules.contracts[info.public["deal"] - 1]
        out = 0
        for s in self.seats(info):
            seat = int(info.hidden[s.zone][0][5:])
            h = [0] * NUM_TYPES
            for c in world["hands"][seat]:
                h[parse_card(c)] += 1
            out += _misses(h, s, bool(contract.sets), bool(contract.runs))
        return out


__all__ = ["ContractOpponentModel"]
