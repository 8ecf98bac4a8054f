"""The solver features of one seat's view, computed with numpy alone (no gymnasium).

What :class:`~rummy_env.wrappers.features.SolverFeatures` appends to a learner's observation and
what :class:`~rummy_env.bots.policy.PolicyBot` appends to its own when its header says
``features: true``; the feature tables and their meaning are in
:mod:`rummy_env.wrappers.features`, which re-exports these names. They live in the bots layer
because a bot needs them and a bot must not import the wrappers (imports go one way,
docs/design.md, "Layers").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.bots.base import SeatView
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
        kinds = {decode(i).kind for i in view.legal_actions}
        out["can_knock"][0] = float("knock" in kinds)
        if "discard" in kinds or "knock" in kinds:
            a = decode(GinGreedyBot().act(view))  # a Discard or a Knock
            out["best_discard"][a.card] = 1.0


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
        kinds = {a.kind for a in typed}
        declare = declare or "declare" in kinds
        if kinds & {"discard", "declare", "take_discard"}:
            a = decode(IndianGreedyBot().act(view))
            if a.kind in ("discard", "declare"):
                out["best_discard"][a.card] = 1.0
            elif a.kind == "take_discard":
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
            if a.kind == "play":
                playable[a.card] = 1.0
            elif a.kind == "joker":
                joker[a.card] = 1.0
            elif a.kind == "knock":
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


__all__ = ["feature_layout", "feature_size", "potential", "prior_choice", "solver_features"]
