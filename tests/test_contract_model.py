"""The contract-family opponent model (rummy_env.bots.contract_model): its checks on exact
hands, the pile it reads, and its worlds (load, blind, deterministic, shaped like greedy's).

The checks are those of the greedy bot's own rules (``ContractGreedyBot``: it takes a card
that advances its contract, and discards the card that advances least, highest points first).
Strength is measured, never asserted (README, "Search bot").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import GreedyBot, SearchBot, live_turns, make_bot
from rummy_env.bots.contract_model import ContractOpponentModel, _misses, _Seat
from rummy_env.bots.greedy import ContractGreedyBot
from rummy_env.cards import NUM_TYPES, parse_card
from rummy_env.worlds import Information, build_state, deal_scenario, sample_scenario


def _hand(*cards: str) -> list[int]:
    h = [0] * NUM_TYPES
    for c in cards:
        h[parse_card(c)] += 1
    return h


def _seat(discard: str | None = None, declined: str | None = None,
          known: tuple[str, ...] = ()) -> _Seat:
    return _Seat(1, tuple(parse_card(c) for c in known),
                 -1 if discard is None else parse_card(discard),
                 -1 if declined is None else parse_card(declined))


# ------------------------------------------------------------------ the checks, exact hands
def test_a_discard_check_counts_each_card_greedy_would_rather_have_thrown() -> None:
    """Contract of two sets (deal 1): greedy throws the card that advances least, highest
    points first. Throwing a useless 3 while holding a useless king and a useless 9 fails
    twice; throwing the king passes; a card of a pair thrown fails once per useless card and
    per card of a pair worth more."""
    hand = _hand("KS", "9H", "5C", "5D", "7S", "7H")  # the hand after the discard
    assert _misses(list(hand), _seat("3C"), True, False) == 2
    assert _misses(_hand("3C", "9H", "5C", "5D", "7S", "7H"), _seat("KS"), True, False) == 0
    # 5D thrown from a pair of fives with a useless king and 9 in hand: both fail, and so do
    # the two sevens (a pair too, and more points: greedy throws a seven before a five)
    assert _misses(_hand("KS", "9H", "5C", "7S", "7H"), _seat("5D"), True, False) == 4
    assert _misses(_hand("3S", "3H", "5C"), _seat("5D"), True, False) == 0
    # a joker is thrown only when nothing else is legal: any other card fails
    assert _misses(_hand("7S", "7H"), _seat("JK"), True, False) == 2


def test_a_face_up_card_must_advance_the_contract_beside_the_hand() -> None:
    """Greedy takes a discard (or claims one) only when it advances its contract: a face-up
    9H beside another nine passes for sets; beside 8H for runs (near-run); alone it fails."""
    assert _misses(_hand("9H", "9C", "2S"), _seat(known=("9H",)), True, False) == 0
    assert _misses(_hand("9H", "8H", "2S"), _seat(known=("9H",)), False, True) == 0
    assert _misses(_hand("9H", "8H", "2S"), _seat(known=("9H",)), True, False) == 1
    assert _misses(_hand("9H", "KC", "2S"), _seat(known=("9H",)), True, True) == 1


def test_a_declined_discard_fails_only_if_no_drawn_card_explains_it() -> None:
    """Declining the 7C (drawing the stock instead) fits a hand in which the 7C advanced
    nothing before the draw: with one other seven in hand now, that seven may be the card
    drawn (passes); with two sevens, one was held at the draw and the 7C made a pair (fails)."""
    assert _misses(_hand("7S", "KD", "2H"), _seat("QC", "7C"), True, False) == 0
    assert _misses(_hand("7S", "7D", "KD"), _seat("QC", "7C"), True, False) == 1
    assert _misses(_hand("4D", "KD", "2H"), _seat("QC", "7C"), True, False) == 0


def test_the_hand_is_left_as_it_was() -> None:
    hand = _hand("KS", "9H", "5C", "5D", "7S")
    before = list(hand)
    _misses(hand, _seat("3C", "7C", ("5C",)), True, True)
    assert hand == before


def test_the_pile_is_read_while_the_discarders_follow_one_another() -> None:
    """Top down: seat 3 discarded QH over seat 2's 5C (so seat 3 declined the 5C), seat 2's 5C
    lies over seat 1's 9D (declined too), and seat 1's 9D over seat 3's older card: seat 0's
    discard was taken, so seat 1's declined card is unknown and the walk stops."""
    pile = [parse_card(c) for c in ("4S", "KD", "9D", "5C", "QH")]
    last, declined = ContractOpponentModel._pile_evidence(pile, [-1, 3, 1, 2, 3], 4)
    assert last == {3: parse_card("QH"), 2: parse_card("5C"), 1: parse_card("9D")}
    assert declined == {3: parse_card("5C"), 2: parse_card("9D")}
    # a seat seen twice ends the walk: its lower card is not its latest discard
    last, declined = ContractOpponentModel._pile_evidence(pile[:2], [-1, 3], 4)
    assert last == {3: parse_card("KD")} and declined == {}


# ------------------------------------------------------------------ worlds of real positions
def _positions(variant: str, seeds: range, every: int = 3
               ) -> Iterator[tuple[Any, Information]]:
    """Seat 0's decisions (more than one legal action; every ``every``-th) in greedy games,
    with the env at that position and the seat's information."""
    bot = GreedyBot(0)
    for seed in seeds:
        env = rummy_env.make(variant)
        env.reset(seed=seed)
        for k, (agent, view) in enumerate(live_turns(env)):
            if agent == "player_0" and len(view.legal_actions) > 1 and k % every == 0:
                yield env, env.information(agent)
            env.step(bot.act(view))


def _structure(info: Information, world: dict[str, Any], seats: list[_Seat],
               sets: bool, runs: bool) -> float:
    """The share of the modelled opponents' cards that advance their contract (a pair, a
    near-run or a joker): what greedy's hands hold much more of than random ones."""
    good = total = 0
    for s in seats:
        h = _hand(*world["hands"][int(info.hidden[s.zone][0][5:])])
        for t in range(NUM_TYPES):
            for _ in range(h[t]):
                h[t] -= 1
                good += ContractGreedyBot._strength(h, t, sets, runs) >= 1
                h[t] += 1
                total += 1
    return good / max(total, 1)


def test_worlds_load_look_the_same_to_the_seat_and_repeat() -> None:
    """Every world of the chain loads, conserves the cards and gives seat 0 exactly its
    observation and mask; the same generator state gives the same worlds."""
    model = ContractOpponentModel()
    other = rummy_env.make("may_i")
    checked = 0
    for env, info in _positions("may_i", range(2), every=7):
        seats = model.seats(info)
        if not seats:
            continue
        worlds = model.worlds(info, seats, 3, np.random.default_rng(11))
        assert worlds == model.worlds(info, seats, 3, np.random.default_rng(11))
        real = env.observe("player_0")
        for world in worlds:
            st = build_state(info, world, np.random.default_rng(0))
            assert st.zone_counts() == list(info.game.deck)
            other.reset(options={"scenario": world})
            got = other.observe("player_0")
            assert np.array_equal(got["observation"], real["observation"])
            assert np.array_equal(got["action_mask"], real["action_mask"])
        checked += 1
    assert checked >= 5


def test_the_true_world_passes_and_the_chains_worlds_look_like_greedy_hands() -> None:
    """On positions of greedy games: the true world fails almost no check (the checks read
    the hands as they are now, so a later claim can break one) while uniform worlds fail
    several; the chain's worlds fail few, and the share of the opponents' cards in pairs or
    near-runs in them is much nearer the true hands' than in uniform worlds."""
    model = ContractOpponentModel()
    rng = np.random.default_rng(3)
    misses: dict[str, list[int]] = {"true": [], "uniform": [], "model": []}
    shape: dict[str, list[float]] = {"true": [], "uniform": [], "model": []}
    for env, info in _positions("may_i", range(3)):
        seats = model.seats(info)
        if not seats:
            continue
        contract = info.game.rules.contracts[info.public["deal"] - 1]
        sets, runs = bool(contract.sets), bool(contract.runs)
        worlds = {"true": [env.state_obj.to_dict()],
                  "uniform": [sample_scenario(info, rng) for _ in range(3)],
                  "model": model.worlds(info, seats, 3, rng)}
        for key, ws in worlds.items():
            for w in ws:
                misses[key].append(model.misses(info, w))
                shape[key].append(_structure(info, w, seats, sets, runs))
    assert len(misses["true"]) >= 10
    mean = {k: float(np.mean(v)) for k, v in misses.items()}
    assert mean["true"] < 0.5 and mean["uniform"] > 2.0 and mean["model"] < mean["uniform"] / 4
    gap_model = abs(np.mean(shape["model"]) - np.mean(shape["true"]))
    gap_uniform = abs(np.mean(shape["uniform"]) - np.mean(shape["true"]))
    assert gap_model < gap_uniform / 2


def test_deal_scenario_fills_the_hidden_zones_in_order() -> None:
    """``deal_scenario`` is the dealer ``sample_scenario`` uses: the same permutation gives
    the same world, and a wrong number of cards is refused."""
    env = rummy_env.make("may_i")
    env.reset(seed=4)
    info = env.information("player_0")
    rng = np.random.default_rng(9)
    order = rng.permutation(len(info.pool))
    want = sample_scenario(info, np.random.default_rng(9))
    assert deal_scenario(info, [info.pool[i] for i in order]) == want
    with pytest.raises(ValueError, match="hidden places"):
        deal_scenario(info, list(info.pool)[:-1])


# ------------------------------------------------------------------ the search bot's switch
def test_the_search_bot_uses_the_contract_model_only_when_asked() -> None:
    """``opponent_model="auto"`` (the default) uses the Gin model and not the contract model
    (measured in May I?, it did not pay: README, "Search bot"), ``True`` every family's model,
    ``False`` none; a value that is none of these is refused."""
    infos = {}
    for variant in ("may_i", "contract_rummy", "gin_rummy"):
        env = rummy_env.make(variant)
        env.reset(seed=0)
        infos[variant] = env.information("player_0")
    auto, on, off = SearchBot(0), SearchBot(0, opponent_model=True), \
        SearchBot(0, opponent_model=False)
    assert [auto.uses_model(infos[v]) for v in infos] == [False, False, True]
    assert [on.uses_model(infos[v]) for v in infos] == [True, True, True]
    assert [off.uses_model(infos[v]) for v in infos] == [False, False, False]
    assert make_bot("search(opponent_model=true)").uses_model(infos["contract_rummy"])
    assert SearchBot(0, opponent_model=0).opponent_model is False
    with pytest.raises(ValueError, match="opponent_model"):
        SearchBot(0, opponent_model="yes")


def test_with_random_rollouts_the_model_proposes_nothing() -> None:
    """The checks model the greedy bot: with another rollout policy the worlds stay uniform."""
    model = ContractOpponentModel()
    for _, info in _positions("may_i", range(1), every=5):
        ev = model.evidence(info)
        if ev is None:
            continue
        policy = SearchBot(0, rollout="random").policy(info.game, "contract")
        assert model.propose(info, ev, policy, 3, np.random.default_rng(0)) == (None, None)
        greedy = SearchBot(0).policy(info.game, "contract")
        given, check = model.propose(info, ev, greedy, 3, np.random.default_rng(0))
        assert check is None and given is not None and len(given) == 3
        return
    raise AssertionError("no position with evidence")
