"""Solver features: what each family's solver and greedy bot compute from a seat's own view.

A network that must learn meld arithmetic from card bits learns slowly; the solvers already know
it. :func:`solver_features` turns one :class:`~rummy_env.bots.SeatView` (the seat's observation
pieces, its legal actions and the public layouts: nothing else, so the features leak nothing the
observation does not) into a fixed-length float32 vector of per-card and per-hand quantities,
computed by the family's own solver and greedy-bot functions (imported, never re-implemented):

* gin (:mod:`rummy_env.gin.melds`, :class:`~rummy_env.bots.gin.GinGreedyBot`): deadwood after
  each discard (GR-5), the best arrangement, greedy's discard, and what taking the top discard
  would do (GR-4);
* indian (:func:`rummy_env.indian.solver.best_arrangement`,
  :class:`~rummy_env.bots.indian.IndianGreedyBot`): payment after each discard (IR-9), the
  arrangement, greedy's discard, the hand with the top discard, declarations (IR-6);
* contract (:class:`~rummy_env.bots.greedy.ContractGreedyBot`'s card strength, its table
  model, :func:`rummy_env.contract.melds.joker_lower_bound`): each card's use toward the
  contract, whether it fits a table meld (CR-10), penalty points in hand (CR-12), the cards the
  contract still lacks, and whether the top discard is worth taking or claiming (CR-7);
* manipulation (the legal actions): hand values (MR-6), which cards can join the table now
  (MR-4), knocking (MR-7).

Choice-based parts (greedy's discard or take) are zero when the seat has no legal action (the
final view of an episode); the rest is defined for every view.

:class:`SolverFeatures` appends the features to the flat observation of a
:class:`~rummy_env.wrappers.SingleSeatEnv` (or :class:`~rummy_env.wrappers.SelfPlayEnv`)::

    env = SolverFeatures(SingleSeatEnv("gin_rummy", opponents="greedy", seed=0))
    obs, info = env.reset()          # obs: observation then features, float32

With ``shaping > 0`` it adds potential-based reward shaping (Ng, Harada and Russell 1999, which
leaves the optimal policy unchanged): ``reward += shaping * (gamma * phi(s') - phi(s))``, where
``phi`` is :func:`potential` (minus the hand's deadwood, IR-9 payment, CR-12 penalty or MR-6
value, times the env's ``reward_scale``: the reward the hand would cost now) and ``phi`` of the
final position (terminated or truncated) is 0. ``info["true_reward"]`` is always the unshaped
reward.

With ``prior="greedy"`` the observation ends with one more entry: the action the greedy bot would
play from the learner's view (-1 with no legal action), for the residual policy of
``training.prior_policy``; the bot reads the view only, so the entry leaks nothing either.

:func:`feature_layout` gives the named pieces (an :class:`~rummy_env.obs.ObsLayout`);
:func:`feature_size` the length; :func:`feature_table` the table below (generated: run
``python -m rummy_env.wrappers.features`` after a change, a test checks it is not stale). All
values lie in [0, 1] except where the table gives other bounds (``features_space`` has them).

Gin Rummy:

<!-- features:gin_rummy:2:begin -->
Features of `gin_rummy` at 2 players (family `gin`): `Box(163,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `discard_deadwood` | (52,) | 1 | deadwood left after discarding the card / 100; 0 if not in hand (GR-5) |
| 52 | `in_best` | (52,) | 1 | 1 if the card is in the hand's best arrangement (GR-5) |
| 104 | `best_discard` | (52,) | 1 | one-hot: the greedy bot's discard (least deadwood left, then highest card); zero unless a discard is legal |
| 156 | `deadwood` | (1,) | 1.1 | deadwood of the hand / 100 (11 cards: before the discard) |
| 157 | `best_after` | (1,) | 1 | least deadwood after one discard / 100 (10 cards or fewer: the deadwood) |
| 158 | `take_deadwood` | (1,) | 1 | hand + top discard, then the best other discard: deadwood / 100 (GR-4); 0 without a top discard or with 11 cards |
| 159 | `take_melds` | (1,) | 1 | 1 if the top discard is in a meld of that hand's best arrangement |
| 160 | `take_gain` | (1,) | 1 | 1 if taking the top discard lowers the deadwood (greedy takes it) |
| 161 | `can_knock` | (1,) | 1 | 1 if a knock is legal now (GR-5) |
| 162 | `stock` | (1,) | 1 | cards in the stock / 31 |
| | | **total: (163,) float32** | | |
<!-- features:gin_rummy:2:end -->

Indian Rummy:

<!-- features:indian_rummy:4:begin -->
Features of `indian_rummy` at 4 players (family `indian`): `Box(167,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `discard_points` | (53,) | 1.3 | with 14 cards (after the draw): IR-9 payment of the 13 left after discarding the card / 100; 0 if not in hand or with 13 cards |
| 53 | `in_melds` | (53,) | 1 | copies of the card in the hand's least-paying arrangement's melds (not counted) / 3 |
| 106 | `best_discard` | (53,) | 1 | one-hot: the greedy bot's discard (or declaration) card; zero unless one is legal |
| 159 | `points` | (1,) | 1.4 | IR-9 payment of the hand / 100 |
| 160 | `best_after` | (1,) | 1.4 | least payment after one discard / 100 (13 cards or fewer: the payment) |
| 161 | `take_points` | (1,) | 1.4 | payment of the hand with the top discard / 100 (13 cards held; else 0) |
| 162 | `take_melds` | (1,) | 1 | 1 if the top discard lies in a meld of that arrangement |
| 163 | `greedy_take` | (1,) | 1 | 1 if the greedy bot takes the top discard now |
| 164 | `lives` | (2,) | 1 | the arrangement has a first life, a second life (IR-9) |
| 166 | `can_declare` | (1,) | 1 | 1 if a declaration is legal now (IR-6), or, with 13 cards, if the hand with the top discard could declare |
| | | **total: (167,) float32** | | |
<!-- features:indian_rummy:4:end -->

The contract family (every contract variant has the same layout):

<!-- features:contract_rummy:4:begin -->
Features of `contract_rummy` at 4 players (family `contract`): `Box(272,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `strength` | (53,) | 1 | the greedy bot's use of the card / 2: toward the contract (a pair or near-run, 2 strong, a joker 2) before it is met, 1 if it can be laid off after; for a held card, judged against the rest of the hand |
| 53 | `fits_table` | (53,) | 1 | 1 if the card would fit a table meld (CR-10, the bot's estimate) |
| 106 | `held_points` | (53,) | 3 | CR-12 penalty of the copies held / 50 |
| 159 | `discard_cost` | (53,) | 1 | for a held card: natural cards the contract lacks without it, less with it (lower bounds, joker_lower_bound), / 2, capped at 1; 0 once melded |
| 212 | `best_discard` | (53,) | 1 | one-hot: the greedy bot's discard; zero unless a discard is legal |
| 265 | `missing` | (1,) | 2 | natural cards the contract still lacks (lower bound), less jokers held, / 10; 0 once melded |
| 266 | `melds_needed` | (1,) | 1 | melds of the contract / 4; 0 once melded |
| 267 | `penalty` | (1,) | 3 | CR-12 penalty of the hand / 100 |
| 268 | `top_useful` | (1,) | 1 | 1 if the top discard is useful to this seat (the greedy bot's test) |
| 269 | `top_claim` | (1,) | 1 | 1 if the top discard is claim-worthy (CR-7, the greedy bot's test) |
| 270 | `top_gain` | (1,) | 1 | natural cards the contract lacks, less those it lacks with the top discard (lower bounds) / 2, capped at 1; 0 once melded |
| 271 | `melded` | (1,) | 1 | 1 if the seat has met the contract |
| | | **total: (272,) float32** | | |
<!-- features:contract_rummy:4:end -->

Manipulation Rummy:

<!-- features:manipulation_rummy:2:begin -->
Features of `manipulation_rummy` at 2 players (family `manipulation`): `Box(160,) float32`.

| offset | piece | shape | high | meaning |
|---|---|---|---|---|
| 0 | `held_value` | (53,) | 1 | MR-6 value of the copies held / 50 (joker 25) |
| 53 | `playable` | (52,) | 1 | 1 if playing the card from hand is legal now (MR-4) |
| 105 | `joker_playable` | (52,) | 1 | 1 if a joker may be played standing for the card now (MR-5) |
| 157 | `hand_value` | (1,) | 3 | MR-6 value of the hand / 100 |
| 158 | `n_playable` | (1,) | 2 | hand cards that can be played now / 10 |
| 159 | `can_knock` | (1,) | 1 | 1 if knocking is legal now (MR-7) |
| | | **total: (160,) float32** | | |
<!-- features:manipulation_rummy:2:end -->
"""

from __future__ import annotations

import pathlib
import re
import sys
from typing import Any

import gymnasium as gym
import numpy as np

from rummy_env.bots.base import SeatView, seat_view
from rummy_env.obs import ObsLayout

# --------------------------------------------------------------------------- layouts
#: Per family: (name, shape, meaning, high); every piece is >= 0 and <= its ``high``.
_GIN = [
    ("discard_deadwood", (52,), "deadwood left after discarding the card / 100; 0 if not in "
                                "hand (GR-5)", 1.0),
    ("in_best", (52,), "1 if the card is in the hand's best arrangement (GR-5)", 1.0),
    ("best_discard", (52,), "one-hot: the greedy bot's discard (least deadwood left, then "
                            "highest card); zero unless a discard is legal", 1.0),
    ("deadwood", (1,), "deadwood of the hand / 100 (11 cards: before the discard)", 1.1),
    ("best_after", (1,), "least deadwood after one discard / 100 (10 cards or fewer: the "
                         "deadwood)", 1.0),
    ("take_deadwood", (1,), "hand + top discard, then the best other discard: deadwood / 100 "
                            "(GR-4); 0 without a top discard or with 11 cards", 1.0),
    ("take_melds", (1,), "1 if the top discard is in a meld of that hand's best arrangement", 1.0),
    ("take_gain", (1,), "1 if taking the top discard lowers the deadwood (greedy takes it)", 1.0),
    ("can_knock", (1,), "1 if a knock is legal now (GR-5)", 1.0),
    ("stock", (1,), "cards in the stock / 31", 1.0),
]
_INDIAN = [
    ("discard_points", (53,), "with 14 cards (after the draw): IR-9 payment of the 13 left after "
                              "discarding the card / 100; 0 if not in hand or with 13 cards", 1.3),
    ("in_melds", (53,), "copies of the card in the hand's least-paying arrangement's melds "
                        "(not counted) / 3", 1.0),
    ("best_discard", (53,), "one-hot: the greedy bot's discard (or declaration) card; zero "
                            "unless one is legal", 1.0),
    ("points", (1,), "IR-9 payment of the hand / 100", 1.4),
    ("best_after", (1,), "least payment after one discard / 100 (13 cards or fewer: the "
                         "payment)", 1.4),
    ("take_points", (1,), "payment of the hand with the top discard / 100 (13 cards held; "
                          "else 0)", 1.4),
    ("take_melds", (1,), "1 if the top discard lies in a meld of that arrangement", 1.0),
    ("greedy_take", (1,), "1 if the greedy bot takes the top discard now", 1.0),
    ("lives", (2,), "the arrangement has a first life, a second life (IR-9)", 1.0),
    ("can_declare", (1,), "1 if a declaration is legal now (IR-6), or, with 13 cards, if the "
                          "hand with the top discard could declare", 1.0),
]
_CONTRACT = [
    ("strength", (53,), "the greedy bot's use of the card / 2: toward the contract (a pair or "
                        "near-run, 2 strong, a joker 2) before it is met, 1 if it can be laid "
                        "off after; for a held card, judged against the rest of the hand", 1.0),
    ("fits_table", (53,), "1 if the card would fit a table meld (CR-10, the bot's estimate)", 1.0),
    ("held_points", (53,), "CR-12 penalty of the copies held / 50", 3.0),
    ("discard_cost", (53,), "for a held card: natural cards the contract lacks without it, less "
                            "with it (lower bounds, joker_lower_bound), / 2, capped at 1; 0 once "
                            "melded", 1.0),
    ("best_discard", (53,), "one-hot: the greedy bot's discard; zero unless a discard is legal",
     1.0),
    ("missing", (1,), "natural cards the contract still lacks (lower bound), less jokers held, "
                      "/ 10; 0 once melded", 2.0),
    ("melds_needed", (1,), "melds of the contract / 4; 0 once melded", 1.0),
    ("penalty", (1,), "CR-12 penalty of the hand / 100", 3.0),
    ("top_useful", (1,), "1 if the top discard is useful to this seat (the greedy bot's test)",
     1.0),
    ("top_claim", (1,), "1 if the top discard is claim-worthy (CR-7, the greedy bot's test)", 1.0),
    ("top_gain", (1,), "natural cards the contract lacks, less those it lacks with the top "
                       "discard (lower bounds) / 2, capped at 1; 0 once melded", 1.0),
    ("melded", (1,), "1 if the seat has met the contract", 1.0),
]
_MANIPULATION = [
    ("held_value", (53,), "MR-6 value of the copies held / 50 (joker 25)", 1.0),
    ("playable", (52,), "1 if playing the card from hand is legal now (MR-4)", 1.0),
    ("joker_playable", (52,), "1 if a joker may be played standing for the card now (MR-5)", 1.0),
    ("hand_value", (1,), "MR-6 value of the hand / 100", 3.0),
    ("n_playable", (1,), "hand cards that can be played now / 10", 2.0),
    ("can_knock", (1,), "1 if knocking is legal now (MR-7)", 1.0),
]
_SPECS = {"gin": _GIN, "indian": _INDIAN, "contract": _CONTRACT, "manipulation": _MANIPULATION}
_LAYOUTS = {f: ObsLayout([(n, s, m) for n, s, m, _ in spec]) for f, spec in _SPECS.items()}
#: Per family: (name, start, stop, shape) of each piece (ObsLayout.views recomputes sizes).
_SLICES = {f: [(p.name, p.start, p.stop, p.shape) for p in lay.pieces.values()]
           for f, lay in _LAYOUTS.items()}
_HIGHS: dict[str, np.ndarray] = {}
for _f, _spec in _SPECS.items():
    _HIGHS[_f] = np.concatenate([np.full(int(np.prod(s)), h, np.float32)
                                 for _, s, _, h in _spec])


def _family_of(env: Any) -> str:
    if isinstance(env, str):
        import rummy_env

        return rummy_env.make(env).family
    if isinstance(env, SeatView):
        return env.family
    u = getattr(env, "unwrapped", env)
    aec = getattr(u, "aec", u)
    return aec.family


def feature_layout(env: Any) -> ObsLayout:
    """The named pieces of the features of ``env`` (an AEC env, a single-seat env, a variant
    name, a :class:`SeatView` or a family name)."""
    family = env if isinstance(env, str) and env in _LAYOUTS else _family_of(env)
    layout = _LAYOUTS.get(family)
    if layout is None:
        raise ValueError(f"no solver features for the {family!r} family; families with them: "
                         f"{', '.join(_LAYOUTS)}")
    return layout


def feature_size(env: Any) -> int:
    """Length of :func:`solver_features` for ``env`` (as :func:`feature_layout`)."""
    return feature_layout(env).size


def features_space(env: Any) -> gym.spaces.Box:
    """The Box of the features (true bounds: 0 up to each piece's ``high``)."""
    family = env if isinstance(env, str) and env in _LAYOUTS else _family_of(env)
    feature_layout(family)
    high = _HIGHS[family]
    return gym.spaces.Box(np.zeros_like(high), high.copy(), dtype=np.float32)


def feature_table(variant: str, num_players: int) -> str:
    """The markdown table of the features of ``variant`` at ``num_players`` players."""
    import rummy_env

    env = rummy_env.make(variant, num_players=num_players)
    family = env.family
    layout = feature_layout(family)
    highs = {n: h for n, _, _, h in _SPECS[family]}
    rows = [f"Features of `{variant}` at {num_players} players (family `{family}`): "
            f"`Box({layout.size},) float32`.", "",
            "| offset | piece | shape | high | meaning |", "|---|---|---|---|---|"]
    for p in layout.pieces.values():
        rows.append(f"| {p.start} | `{p.name}` | {p.shape} | {highs[p.name]:g} | {p.meaning} |")
    rows.append(f"| | | **total: ({layout.size},) float32** | | |")
    return "\n".join(rows)


# --------------------------------------------------------------------------- gin
def _gin(view: SeatView, out: dict[str, np.ndarray]) -> None:
    from rummy_env.bots.gin import GinGreedyBot, _mask
    from rummy_env.gin.melds import best_melds, card_list, deadwood

    hand = _mask(view.piece("hand"))
    cards = card_list(hand)
    after = {t: deadwood(hand & ~(1 << t)) for t in cards}
    for t, d in after.items():
        out["discard_deadwood"][t] = d / 100.0
    melded = 0
    for m in best_melds(hand):
        melded |= m
    for t in card_list(melded):
        out["in_best"][t] = 1.0
    now = deadwood(hand)
    out["deadwood"][0] = now / 100.0
    out["best_after"][0] = (min(after.values(), default=0) if len(cards) > 10 else now) / 100.0
    top = np.flatnonzero(view.piece("discard_top"))
    if len(top) and len(cards) <= 10 and cards:
        up = int(top[0])
        with_up = hand | 1 << up
        # the card taken may not be discarded on the same turn (GR-4)
        best_t = min(cards, key=lambda t: deadwood(with_up & ~(1 << t)))
        left = with_up & ~(1 << best_t)
        take = deadwood(left)
        out["take_deadwood"][0] = take / 100.0
        out["take_gain"][0] = float(take < now)
        if any(m >> up & 1 for m in best_melds(left)):
            out["take_melds"][0] = 1.0
    out["stock"][0] = float(view.piece("counts")[0])
    if view.legal_actions:
        decode = view.action_layout.decode
        kinds = {decode(i)[0] for i in view.legal_actions}
        out["can_knock"][0] = float("knock" in kinds)
        if "discard" in kinds or "knock" in kinds:
            a = decode(GinGreedyBot().act(view))
            out["best_discard"][a[1]] = 1.0


def _gin_potential(view: SeatView) -> float:
    from rummy_env.bots.gin import _mask
    from rummy_env.gin.melds import card_list, deadwood

    hand = _mask(view.piece("hand"))
    cards = card_list(hand)
    if len(cards) > 10:
        return -float(min(deadwood(hand & ~(1 << t)) for t in cards))
    return -float(deadwood(hand))


# --------------------------------------------------------------------------- indian
def _indian_hand(view: SeatView) -> tuple[list[int], list[int], int, int]:
    """The hand (counts and card list), the wild rank and the packs, as the greedy bot reads
    them from the view."""
    from rummy_env.bots.indian import _packs, _wild_rank

    counts = [int(x) for x in np.rint(view.piece("hand"))]
    cards = [t for t in range(len(counts)) for _ in range(counts[t])]
    return counts, cards, _wild_rank(view.piece("wild")), _packs(view, counts)


def _indian(view: SeatView, out: dict[str, np.ndarray]) -> None:
    from rummy_env.bots.indian import IndianGreedyBot
    from rummy_env.indian.solver import best_arrangement, discard_bits

    counts, cards, wr, packs = _indian_hand(view)
    arr = best_arrangement(cards, wr, packs)
    out["points"][0] = arr.points / 100.0
    out["lives"][:] = (float(arr.first_life), float(arr.second_life))
    dead = [0] * len(counts)
    for t in arr.deadwood:
        dead[t] += 1
    for t in set(cards):
        out["in_melds"][t] = (counts[t] - dead[t]) / 3.0
    if len(cards) > 13:  # a discard to choose (the solver costs ~80 us a hand: only then)
        after = {}
        for t in set(cards):
            rest = list(cards)
            rest.remove(t)
            after[t] = best_arrangement(rest, wr, packs).points
            out["discard_points"][t] = after[t] / 100.0
        out["best_after"][0] = min(after.values()) / 100.0
    else:
        out["best_after"][0] = arr.points / 100.0
    top = np.flatnonzero(view.piece("discard_top"))
    declare = False
    if len(top) and len(cards) == 13:
        up = int(top[0])
        with_up = [*cards, up]
        arr2 = best_arrangement(with_up, wr, packs)
        out["take_points"][0] = arr2.points / 100.0
        out["take_melds"][0] = float(up not in arr2.deadwood)
        # the card taken may not go back on the same turn (IR-5)
        declare = bool(discard_bits(with_up, wr, packs) & ~(1 << up))
    if view.legal_actions:
        decode = view.action_layout.decode
        typed = [decode(i) for i in view.legal_actions]
        kinds = {a[0] for a in typed}
        declare = declare or "declare" in kinds
        if kinds & {"discard", "declare", "take_discard"}:
            a = decode(IndianGreedyBot().act(view))
            if a[0] in ("discard", "declare"):
                out["best_discard"][a[1]] = 1.0
            elif a[0] == "take_discard":
                out["greedy_take"][0] = 1.0
    out["can_declare"][0] = float(declare)


def _indian_potential(view: SeatView) -> float:
    from rummy_env.indian.solver import best_arrangement

    _, cards, wr, packs = _indian_hand(view)
    if len(cards) > 13:
        best = None
        for t in set(cards):
            rest = list(cards)
            rest.remove(t)
            p = best_arrangement(rest, wr, packs).points
            best = p if best is None or p < best else best
        return -float(best)
    return -float(best_arrangement(cards, wr, packs).points)


# --------------------------------------------------------------------------- contract
_CONTRACT_BOT: Any = None


def _contract_bot() -> Any:
    global _CONTRACT_BOT
    if _CONTRACT_BOT is None:
        from rummy_env.bots.greedy import ContractGreedyBot

        _CONTRACT_BOT = ContractGreedyBot()
    return _CONTRACT_BOT


def _contract(view: SeatView, out: dict[str, np.ndarray]) -> None:
    from rummy_env.bots.greedy import CARD_POINTS, _Table
    from rummy_env.cards import JOKER
    from rummy_env.contract.melds import joker_lower_bound

    bot = _contract_bot()
    hand = [int(x) for x in np.rint(view.piece("hand"))]
    contract = view.piece("contract")
    n_sets, n_runs = int(round(contract[0])), int(round(contract[1]))
    sets, runs = n_sets > 0, n_runs > 0
    melded = bool(view.piece("melded")[0] > 0)
    table = _Table(view)
    strength, fits, held = out["strength"], out["fits_table"], out["held_points"]
    table_empty = table.empty
    if not table_empty:
        for t in range(53):
            fits[t] = float(table.fits(t))
    reqs = ([("set", int(round(contract[2] * 10)))] * n_sets
            + [("run", int(round(contract[3] * 10)))] * n_runs)
    base = joker_lower_bound(hand, reqs) if reqs and not melded else 0
    cost = out["discard_cost"]
    for t in range(53):
        h = hand[t]
        if h:
            hand[t] -= 1  # a held card is judged against the rest of the hand, as greedy does
            if melded:
                strength[t] = 1.0 if t != JOKER and fits[t] else 0.0
            else:
                strength[t] = bot._strength(hand, t, sets, runs) / 2.0
                if reqs and t != JOKER:
                    cost[t] = min(joker_lower_bound(hand, reqs) - base, 2) / 2.0
            hand[t] += 1
            held[t] = h * CARD_POINTS[t] / 50.0
        elif melded:
            strength[t] = 1.0 if fits[t] else 0.0
        else:
            strength[t] = bot._strength(hand, t, sets, runs) / 2.0
    if melded:
        strength[JOKER] = float(not table_empty)
    out["penalty"][0] = sum(h * p for h, p in zip(hand, CARD_POINTS)) / 100.0
    out["melded"][0] = float(melded)
    if reqs and not melded:
        out["missing"][0] = max(0, base - hand[JOKER]) / 10.0
        out["melds_needed"][0] = len(reqs) / 4.0
    top = bot._top(view)
    if top is not None:
        out["top_useful"][0] = float(bot._useful(hand, top, melded, table, sets, runs) >= 1)
        out["top_claim"][0] = float(not melded and bot._claim_worthy(hand, top, sets, runs))
        if base and top != JOKER:
            hand[top] += 1
            out["top_gain"][0] = min(base - joker_lower_bound(hand, reqs), 2) / 2.0
            hand[top] -= 1
    if view.legal_actions:
        decode = view.action_layout.decode
        discards = [(i, a) for i in view.legal_actions if (a := decode(i))[0] == "discard"]
        if discards:
            i = bot._best_discard(discards, hand, melded, table, sets, runs)
            out["best_discard"][decode(i)[1]] = 1.0


def _contract_potential(view: SeatView) -> float:
    from rummy_env.bots.greedy import CARD_POINTS

    hand = np.rint(view.piece("hand"))
    return -float(np.dot(hand, CARD_POINTS))


# --------------------------------------------------------------------------- manipulation
#: MR-6 values by card type (the joker at the rules' default, 25: the view does not show the
#: option).
_MR_VALUES = np.array([min(t % 13 + 1, 10) for t in range(52)] + [25], dtype=np.float32)


def _manipulation(view: SeatView, out: dict[str, np.ndarray]) -> None:
    hand = view.piece("hand")
    held = hand * _MR_VALUES
    out["held_value"][:] = held / 50.0
    out["hand_value"][0] = float(held.sum()) / 100.0
    if view.legal_actions:
        decode = view.action_layout.decode
        playable, joker = out["playable"], out["joker_playable"]
        for i in view.legal_actions:
            a = decode(i)
            if a[0] == "play":
                playable[a[1]] = 1.0
            elif a[0] == "joker":
                joker[a[1]] = 1.0
            elif a[0] == "knock":
                out["can_knock"][0] = 1.0
        out["n_playable"][0] = float(playable.sum()) / 10.0


def _manipulation_potential(view: SeatView) -> float:
    return -float(np.dot(view.piece("hand"), _MR_VALUES))


_FAMILIES: dict[str, Any] = {"gin": _gin, "indian": _indian, "contract": _contract,
                             "manipulation": _manipulation}
_POTENTIALS: dict[str, Any] = {"gin": _gin_potential, "indian": _indian_potential,
                               "contract": _contract_potential,
                               "manipulation": _manipulation_potential}


# --------------------------------------------------------------------------- entry points
def solver_features(view: SeatView) -> np.ndarray:
    """The solver features of one seat's view (float32, :func:`feature_size` long); see the
    module docstring and its tables."""
    layout = feature_layout(view.family)
    fill = _FAMILIES.get(view.family)
    if fill is None:
        raise ValueError(f"solver features of the {view.family!r} family are not implemented; "
                         f"implemented: {', '.join(_FAMILIES)}")
    buf = np.zeros(layout.size, dtype=np.float32)
    fill(view, {n: buf[a:b].reshape(shape) for n, a, b, shape in _SLICES[view.family]})
    np.minimum(buf, _HIGHS[view.family], out=buf)
    return buf


def potential(view: SeatView, reward_scale: float = 0.01) -> float:
    """The shaping potential of a view: minus what the hand would cost if the deal ended now
    (gin deadwood after the best discard, GR-5; Indian payment after the best discard, IR-9;
    contract penalty, CR-12; manipulation hand value, MR-6), times ``reward_scale``."""
    feature_layout(view.family)
    fn = _POTENTIALS.get(view.family)
    if fn is None:
        raise ValueError(f"no shaping potential for the {view.family!r} family yet")
    return float(fn(view)) * float(reward_scale)


def prior_choice(bot: Any, view: SeatView) -> int:
    """The action ``bot`` would play from ``view``, or -1 when the seat has no legal action
    (the final view of an episode): the ``prior`` entry of :class:`SolverFeatures` and of a
    policy with a prior (:class:`~rummy_env.bots.policy.PolicyBot`)."""
    if not view.legal_actions:
        return -1
    return int(bot.act(view))


class SolverFeatures(gym.Wrapper):
    """Appends :func:`solver_features` of the learner's view to the observation of a
    :class:`~rummy_env.wrappers.SingleSeatEnv` (or ``SelfPlayEnv``), with optional
    potential-based shaping; see the module docstring.

    :param shaping: weight of the shaping term (0: rewards unchanged).
    :param gamma: the discount of the shaping term (use the learner's).
    :param prior: a bot name (``"greedy"``): one more entry after the features, the action id
        that bot would choose from the learner's view (-1 without a legal action), for a policy
        that adds a bonus to that action's logit (``training.prior_policy``; a policy file
        says ``"prior"`` in its header and :class:`~rummy_env.bots.policy.PolicyBot` plays it
        the same way). The bot sees the learner's view only, so the entry leaks nothing.
    """

    def __init__(self, env: gym.Env, shaping: float = 0.0, gamma: float = 0.99,
                 prior: str | None = None) -> None:
        base = getattr(env, "unwrapped", None)
        if not isinstance(env, gym.Env) or not hasattr(base, "aec") or not hasattr(
                base, "learner"):
            raise TypeError(f"SolverFeatures wraps a SingleSeatEnv or SelfPlayEnv, not {env!r}")
        super().__init__(env)
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self.family = base.aec.family
        self.layout = feature_layout(self.family)
        self.n_features = self.layout.size
        obs_space = env.observation_space
        feats = features_space(self.family)
        low = [obs_space.low.astype(np.float32), feats.low]
        high = [obs_space.high.astype(np.float32), feats.high]
        self.prior = prior
        self._prior_bot: Any = None
        if prior is not None:
            from rummy_env.bots import make_bot  # lazily: rummy_env.bots imports wrappers

            self._prior_bot = make_bot(prior, seed=0)
            space = env.action_space
            if not isinstance(space, gym.spaces.Discrete):
                raise TypeError(f"prior={prior!r} needs a Discrete action space, not {space!r}")
            n_actions = int(space.n)
            low.append(np.array([-1.0], dtype=np.float32))
            high.append(np.array([n_actions - 1], dtype=np.float32))
        self.observation_space = gym.spaces.Box(np.concatenate(low), np.concatenate(high),
                                                dtype=np.float32)
        self._phi = 0.0

    # ------------------------------------------------------------------ delegation
    @property
    def aec(self) -> Any:
        return self.env.unwrapped.aec

    @property
    def learner(self) -> str:
        return self.env.unwrapped.learner

    @property
    def learner_seat(self) -> int:
        return self.env.unwrapped.learner_seat

    @property
    def opponents(self) -> dict[int, Any]:
        return self.env.unwrapped.opponents

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def set_opponents(self, opponents: Any) -> None:
        self.env.unwrapped.set_opponents(opponents)

    def add_snapshot(self, bot: Any) -> None:
        self.env.unwrapped.add_snapshot(bot)

    # ------------------------------------------------------------------ gym API
    def view(self) -> SeatView:
        """The learner's current view."""
        base = self.env.unwrapped
        return seat_view(base.aec, base.learner)

    def _with_features(self, obs: np.ndarray, view: SeatView) -> np.ndarray:
        parts = [np.asarray(obs, dtype=np.float32), solver_features(view)]
        if self._prior_bot is not None:
            parts.append(np.array([prior_choice(self._prior_bot, view)], dtype=np.float32))
        return np.concatenate(parts)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        view = self.view()
        self._phi = potential(view, self.aec.reward_scale) if self.shaping else 0.0
        info = dict(info)
        info["true_reward"] = 0.0
        return self._with_features(obs, view), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        view = self.view()
        info = dict(info)
        info["true_reward"] = float(reward)
        if self.shaping:
            phi = 0.0 if terminated or truncated else potential(view, self.aec.reward_scale)
            reward = float(reward) + self.shaping * (self.gamma * phi - self._phi)
            self._phi = phi
        return self._with_features(obs, view), reward, terminated, truncated, info


# --------------------------------------------------------------------------- docs
_BLOCK = re.compile(r"(<!-- features:(?P<v>[a-z_]+):(?P<n>\d+):begin -->\n)(?:.*?\n)?"
                    r"(<!-- features:(?P=v):(?P=n):end -->)", re.S)


def render_docstring(text: str) -> str:
    """``text`` with every generated feature table block filled in from the code."""
    return _BLOCK.sub(lambda m: m.group(1) + feature_table(m.group("v"), int(m.group("n")))
                      + "\n" + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    """Rewrite this module's generated tables (``--check``: exit 1 if stale)."""
    path = pathlib.Path(__file__)
    old = path.read_text()
    new = render_docstring(old)
    if argv is None:
        argv = sys.argv[1:]
    if "--check" in argv:
        if old != new:
            print(f"stale feature tables in {path}; run: python -m rummy_env.wrappers.features")
            return 1
        return 0
    if old != new:
        path.write_text(new)
        print(f"updated {path}")
    return 0


__all__ = ["SolverFeatures", "prior_choice", "feature_layout", "feature_size", "feature_table",
           "features_space", "potential", "solver_features"]

if __name__ == "__main__":
    sys.exit(main())
