"""The search bot's model of a Gin Rummy opponent: worlds its recent turns make likely.

Uniform worlds give the opponent a random hand, but its hand was shaped by its own play, so
rollouts from them misjudge the race (measured: searching the true world beats greedy by 65
points per deal, searching uniform worlds does not beat it). :class:`GinOpponentModel` models
the opponent as the rollout policy and keeps the worlds in which that policy would have played
the opponent's last turns as the public record shows them: taken or declined the bot's discard
``X``, then discarded ``Y`` (and not knocked).

Everything comes from the public record and the bot's own moves: at its draw the bot knows
the card the opponent just discarded, whether it took the bot's previous discard (the pile
shows it) and the bot's own hand. What the record does not show is which stock card the
opponent drew when it declined: that card is a hidden variable of the world.

Two ways to get such worlds:

* :meth:`GinOpponentModel.consistent` rebuilds the position before the opponent's last
  discard and draw and asks the rollout policy (any policy): rejection sampling, used when the
  rollout policy is not the greedy bot. It accepts about 10% of uniform worlds on average and
  well under 1% after a low discard (the rest of the hand must be melded or lower).
* :meth:`GinOpponentModel.worlds`, for the greedy rollout policy, decides on cards alone
  (:meth:`~rummy_env.bots.gin.GinGreedyBot.takes` and
  :meth:`~rummy_env.bots.gin.GinGreedyBot.play`, about 30 µs a turn) and samples with a
  Metropolis chain over the opponent's hidden cards and the stock card it drew at each declined
  turn, fitting as many of its last ``depth`` turns as the chain reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from rummy_env.bots.gin import GinGreedyBot
from rummy_env.cards import card_str, parse_card
from rummy_env.gin.melds import knock_discards
from rummy_env.worlds import Information, build_state, deal_scenario


class _Turn(NamedTuple):
    """One opponent turn of the history, parsed: the card it discarded ``y``, the bot's discard
    ``x`` it was offered, the card it took (-1: it declined ``x`` and drew the stock), its
    face-up cards after the turn (a bitmask), the stock and the knock limit its play saw."""

    y: int
    x: int
    took: int
    known: int
    stock: int
    limit: int


#: ``depth(cards, drawns)``: how many of the opponent's last turns, newest first, a hidden
#: hand and the stock cards drawn at declined turns fit (see :meth:`GinOpponentModel.fitter`).
Depth = Callable[[list[int], list[int]], int]


class GinOpponentModel:
    """Worlds that the Gin Rummy opponent's last turns make likely (see the module docstring).

    :param depth: how many of the opponent's last turns the chain of :meth:`worlds` tries to
        fit (1: the last one only).
    """

    def __init__(self, depth: int = 4) -> None:
        self.depth = max(1, int(depth))
        self._mine: tuple[Any, int, list[str], str] | None = None  # deal, turn, pile, X
        self._evidence: dict[str, Any] | None = None
        self._history: list[dict[str, Any]] = []  # this deal's evidence, oldest first

    @staticmethod
    def _key(info: Information) -> tuple[int, int]:
        return (info.public["deal"], info.public["deals_played"])

    def remember(self, info: Information, action: Any) -> None:
        """After the bot's own move: its discard ``X`` and the pile it leaves."""
        pub = info.public
        if action.kind == "discard":
            x = card_str(action.card)
            self._mine = (self._key(info), pub["turn"]["number"], pub["discard"] + [x], x)

    def evidence(self, info: Information) -> dict[str, Any] | None:
        """What the opponent's last turn shows, at the bot's draw and the play that follows;
        each new one is added to :attr:`history` (kept while the turns follow one another)."""
        pub = info.public
        turn = pub["turn"]["number"]
        if pub["phase"] == "play":
            ev = self._evidence
            return ev if ev is not None and ev["turn"] == turn and ev["key"] == self._key(info) \
                else None
        last = self._history[-1] if self._history else None
        if pub["phase"] == "draw" and last is not None and last["key"] == self._key(info) \
                and last["turn"] == turn:
            self._evidence = last  # asked again at the same draw
            return last
        self._evidence = None
        mine = self._mine
        if pub["phase"] != "draw" or mine is None or mine[0] != self._key(info) \
                or mine[1] != turn - 2 or not pub["discard"]:
            return None
        cur, after = pub["discard"], mine[2]
        y = cur[-1]
        if cur == after[:-1] + [y]:
            took = mine[3]
        elif cur == after + [y]:
            took = None
        else:
            return None
        opp = 1 - info.seat
        ev = self._evidence = {
            "key": self._key(info), "turn": turn, "y": y, "took": took, "x": mine[3],
            "hand": list(pub["hands"][info.seat]), "opp": opp,
            # what the opponent's play saw: the stock after its draw, its face-up cards
            "stock": dict(info.hidden)["stock"], "known": list(pub["known"][opp]),
            "limit": int(pub["knock_limit"])}
        if last is None or last["key"] != ev["key"] or last["turn"] != turn - 2:
            self._history = []
        self._history.append(ev)
        return ev

    @property
    def history(self) -> list[dict[str, Any]]:
        """The evidence of the opponent's turns that followed one another up to the last."""
        return list(self._history)

    def propose(self, info: Information, ev: dict[str, Any], policy: Any, count: int,
                rng: np.random.Generator
                ) -> tuple[list[dict[str, Any]] | None, Callable[[dict[str, Any]], bool] | None]:
        """How the search bot gets its worlds, ``(worlds, check)``: with the greedy rollout
        policy, ``count`` worlds of :meth:`worlds` (None where the chain finds no start: the
        bot then samples uniform worlds) and no check; with another policy, no worlds and
        :meth:`consistent` as the check of rejection sampling."""
        bot = getattr(policy, "bot", None)
        if isinstance(bot, GinGreedyBot):
            return self.worlds(info, bot, count, rng), None

        def check(world: dict[str, Any]) -> bool:
            return self.consistent(info, world, ev, policy, rng)

        return None, check

    # ----------------------------------------------------------------- any rollout policy
    def consistent(self, info: Information, world: dict[str, Any], ev: dict[str, Any],
                   policy: Any, rng: np.random.Generator, drawn: str | None = None) -> bool:
        """Would ``policy`` (a rollout policy), as the opponent of ``world``, have played its
        last turn: drawn as it did (taken the bot's discard or declined it) and discarded
        ``Y``?

        The discard is checked first (its position is fixed by the world). For a declined
        card the stock card the opponent drew is hidden: unless ``drawn`` names it (a test
        that knows the true world), it is one of the world's opponent cards not known to be
        held, drawn uniformly, so keeping the world when the policy declines with that card
        removed is rejection sampling by the draw's likelihood."""
        past = self._before_discard(info, world, ev)
        try:
            st = build_state(info, past, rng)
        except ValueError:  # a position the loader refuses: no evidence against the world
            return True
        if policy.act(st, rng) != ("discard", parse_card(ev["y"])):
            return False
        pre = self._before_draw(past, ev, rng, drawn)
        if pre is None:
            return True
        try:
            st = build_state(info, pre, rng)
        except ValueError:
            return True
        return policy.act(st, rng).kind == ("draw_stock" if ev["took"] is None
                                            else "take_discard")

    @staticmethod
    def _before_discard(info: Information, world: dict[str, Any], ev: dict[str, Any]
                        ) -> dict[str, Any]:
        """``world`` as it stood when the opponent discarded ``Y``: its hand plus ``Y``, the
        card the bot drew since (none at its draw) back on the stock."""
        me, opp, y = info.seat, ev["opp"], ev["y"]
        past = dict(world)
        extra = list(world["hands"][me])
        for c in ev["hand"]:
            extra.remove(c)
        past["hands"] = [list(h) for h in world["hands"]]
        past["hands"][me] = list(ev["hand"])
        past["hands"][opp] = past["hands"][opp] + [y]
        pile = list(world["discard"])
        if pile and pile[-1] == y:
            pile.pop()
        past["discard"] = pile
        past["stock"] = [c for c in extra if c != y] + list(world["stock"])
        known = [list(k) for k in world["known"]]
        if y in known[me]:
            known[me].remove(y)
        past["known"] = known
        past.update(phase="play", to_move=opp, taken=ev["took"])
        return past

    @staticmethod
    def _before_draw(past: dict[str, Any], ev: dict[str, Any], rng: np.random.Generator,
                     drawn: str | None = None) -> dict[str, Any] | None:
        """``past`` (before the discard) as it stood before the opponent's draw: the bot's
        discard ``X`` back on the pile if the opponent took it, else ``drawn`` (by default a
        card drawn uniformly from the opponent's cards not known to be held) back on the
        stock (None if there is none)."""
        opp, took = ev["opp"], ev["took"]
        pre = dict(past)
        hands = [list(h) for h in past["hands"]]
        known = [list(k) for k in past["known"]]
        if took is not None:
            hands[opp].remove(took)
            if took in known[opp]:
                known[opp].remove(took)
            pre["discard"] = list(past["discard"]) + [took]
        else:
            if drawn is None:
                free = [c for c in hands[opp] if c not in known[opp]]
                if not free:
                    return None
                drawn = free[int(rng.integers(len(free)))]
            hands[opp].remove(drawn)
            pre["stock"] = [drawn] + list(past["stock"])
        pre.update(hands=hands, known=known, phase="draw", taken=None)
        return pre

    # ----------------------------------------------------------------- the greedy policy
    def fitter(self, info: Information, bot: GinGreedyBot) -> Depth | None:
        """``depth(cards, drawns)``: how many of the opponent's last turns (newest first, at
        most :attr:`depth`) ``bot`` would have played as it did, holding its known cards and
        the hidden ``cards`` (card types) now, having drawn ``drawns[j]`` from the stock at
        turn ``j`` (newest 0) if it declined the bot's discard there. Going back a turn puts
        ``Y`` back in the hand and takes out the card drawn. :meth:`consistent` for the last
        turn on cards alone (no state built; a test checks they agree). None outside Gin
        Rummy's hidden zones or without evidence."""
        got = self._turns(info)
        if got is None:
            return None
        now, rows = got
        return self._depth(bot, now, rows)

    def _turns(self, info: Information) -> tuple[int, list[_Turn]] | None:
        """The opponent's known cards now (a bitmask) and its last turns, newest first, parsed
        once for a decision's checks and moves; None outside Gin Rummy's hidden zones or
        without evidence at this decision."""
        turns = self._history[-self.depth:][::-1]
        if not turns or turns[0] is not self._evidence:
            return None
        opp = turns[0]["opp"]
        if set(dict(info.hidden)) != {f"hand:{opp}", "stock"}:
            return None
        rows = [_Turn(parse_card(e["y"]), parse_card(e["x"]),
                      -1 if e["took"] is None else parse_card(e["took"]), _mask(e["known"]),
                      e["stock"], e["limit"]) for e in turns]
        return _mask(info.public["known"][opp]), rows

    @staticmethod
    def _depth(bot: GinGreedyBot, now: int, rows: list[_Turn]) -> Depth:
        """:meth:`fitter`'s function over parsed turns."""

        def depth(cards: list[int], drawns: list[int]) -> int:
            h10 = now
            for t in cards:
                h10 |= 1 << t
            for j, (y, x, took, known, stock, limit) in enumerate(rows):
                if h10 >> y & 1:
                    return j
                h11 = h10 | 1 << y
                forbid = 1 << took if took >= 0 else 0
                if bot.play(h11, h11 & ~forbid, knock_discards(h11, limit, forbid),
                            stock) != ("discard", y):
                    return j
                if took >= 0:
                    if not h11 & forbid or not bot.takes(h11 & ~forbid, took):
                        return j
                    h10 = h11 & ~forbid
                else:
                    d = drawns[j]
                    if not h11 >> d & 1 or known >> d & 1 or bot.takes(h11 & ~(1 << d), x):
                        return j
                    h10 = h11 & ~(1 << d)
            return len(rows)

        return depth

    def worlds(self, info: Information, bot: GinGreedyBot, count: int,
               rng: np.random.Generator, tries: int = 100, repair: int = 300, climb: int = 100,
               burn: int = 40, thin: int = 4) -> list[dict[str, Any]] | None:
        """``count`` worlds in which ``bot`` (the greedy rollout policy), as the opponent,
        plays as many of its last turns as it did as the chain reaches; None if no start that
        fits the last turn is found (:meth:`_start`).

        The chain's state is the opponent's hidden cards and the stock card drawn at each
        declined turn. A move swaps one hidden card with an unseen one (a drawn card that was
        the swapped one becomes the new one) or redraws one turn's card uniformly from that
        turn's hand less its face-up cards; moves are symmetric. For ``climb`` moves the
        chain keeps any move that fits at least the turns fitted so far and raises that
        floor when a state fits more; from then on the floor is fixed, so after ``burn``
        moves every ``thin``-th state is uniform among the worlds that fit that many turns
        (Metropolis with a uniform target over them)."""
        got = self._turns(info)
        if got is None:
            return None
        now, rows = got
        depth = self._depth(bot, now, rows)
        start = self._start(info, bot, now, rows, depth, rng, tries, repair)
        if start is None:
            return None
        cards, rest, drawns = start
        floor = depth(cards, drawns)
        out: list[dict[str, Any]] = []
        for step in range(climb + burn + count * thin):
            new_cards, new_drawns = self._move(now, rows, cards, rest, drawns, rng)
            fit = depth(new_cards, new_drawns)
            if fit >= floor:
                if new_cards is not cards:
                    self._swap_rest(cards, new_cards, rest)
                cards, drawns = new_cards, new_drawns
                if step < climb:
                    floor = max(floor, fit)
            if step >= climb + burn and (step - climb - burn) % thin == thin - 1:
                out.append(self._world(info, cards, rest, rng))
        return out

    def _start(self, info: Information, bot: GinGreedyBot, now: int, rows: list[_Turn],
               depth: Depth, rng: np.random.Generator, tries: int, repair: int
               ) -> tuple[list[int], list[int], list[int]] | None:
        """A state ``(cards, rest, drawns)`` that fits at least the opponent's last turn:
        the first of ``tries`` uniform ones that does, else the last one walked for up to
        ``repair`` moves downhill in the number of cards the greedy bot would rather discard
        than ``Y`` (after a low discard, uniform worlds almost never fit: the walk finds
        one). Only the chain's start: where the chain begins changes how fast it mixes, not
        what it samples."""
        k = dict(info.hidden)[f"hand:{1 - info.seat}"]
        pool = list(info.pool)
        for n in range(max(tries, 1)):
            order = [pool[j] for j in rng.permutation(len(pool))]
            cards, rest = order[:k], order[k:]
            drawns = self._draw_back(now, rows, cards, [-1] * len(rows), rng)
            if n < tries and depth(cards, drawns):
                return cards, rest, drawns
        y, took = rows[0].y, rows[0].took
        forbid = 1 << took if took >= 0 else 0

        def miss(cs: list[int]) -> int:
            h11 = now | 1 << y
            for t in cs:
                h11 |= 1 << t
            mine = bot.discard_key(h11, y)
            return sum(bot.discard_key(h11, t) < mine for t in _cards(h11 & ~forbid))

        score = miss(cards)
        for _ in range(repair):
            new_cards, new_drawns = self._move(now, rows, cards, rest, drawns, rng)
            got = miss(new_cards)
            if got <= score:
                if new_cards is not cards:
                    self._swap_rest(cards, new_cards, rest)
                cards, drawns, score = new_cards, new_drawns, got
                if depth(cards, drawns):
                    return cards, rest, drawns
        return None

    @staticmethod
    def _swap_rest(cards: list[int], new_cards: list[int], rest: list[int]) -> None:
        """After a swap move from ``cards`` to ``new_cards``: the card swapped out takes the
        swapped-in card's place among the other unseen cards ``rest``."""
        j = next(i for i, (a, b) in enumerate(zip(cards, new_cards)) if a != b)
        rest[rest.index(new_cards[j])] = cards[j]

    def _move(self, now: int, rows: list[_Turn], cards: list[int], rest: list[int],
              drawns: list[int], rng: np.random.Generator) -> tuple[list[int], list[int]]:
        """One symmetric proposal of :meth:`worlds`: a swap or a redrawn stock card."""
        declined = [j for j, r in enumerate(rows) if r.took < 0]
        if cards and rest and (not declined or rng.random() < 0.5):
            i, j = int(rng.integers(len(cards))), int(rng.integers(len(rest)))
            old, new = cards[i], rest[j]
            return (cards[:i] + [new] + cards[i + 1:],
                    [new if d == old else d for d in drawns])
        if not declined:
            return cards, drawns
        j = declined[int(rng.integers(len(declined)))]
        return cards, self._draw_back(now, rows, cards, drawns, rng, only=j)

    @staticmethod
    def _draw_back(now: int, rows: list[_Turn], cards: list[int], drawns: list[int],
                   rng: np.random.Generator, only: int | None = None) -> list[int]:
        """``drawns`` with the stock card of every declined turn (or of turn ``only``) drawn
        anew, uniformly among that turn's hand (11 cards, walked back from the opponent's
        known cards ``now`` and ``cards``) less its face-up cards."""
        out = list(drawns)
        h10 = now
        for t in cards:
            h10 |= 1 << t
        for j, r in enumerate(rows):
            h11 = h10 | 1 << r.y
            if r.took >= 0:
                h10 = h11 & ~(1 << r.took)
                continue
            if only is None or j == only:
                free = _cards(h11 & ~r.known)
                out[j] = free[int(rng.integers(len(free)))]
                if j == only:
                    break
            h10 = h11 & ~(1 << out[j]) if out[j] >= 0 else h11
        return out

    @staticmethod
    def _world(info: Information, cards: list[int], rest: list[int],
               rng: np.random.Generator) -> dict[str, Any]:
        """The scenario dict of ``info`` with ``cards`` in the opponent's hand and the other
        unseen cards shuffled into the stock (Gin Rummy's hidden zones, in that order)."""
        return deal_scenario(info, cards + [rest[i] for i in rng.permutation(len(rest))])


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


def _cards(mask: int) -> list[int]:
    return [t for t in range(52) if mask >> t & 1]


__all__ = ["GinOpponentModel"]
