"""SearchBot (rummy_env.bots.search): legal, deterministic, blind to hidden cards, every family.

Small budgets (K worlds, H steps) keep these fast; strength is measured, never asserted (README,
"Search bot").
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import GreedyBot, SearchBot, live_turns, make_bot, seat_view
from rummy_env.bots.base import SeatView
from rummy_env.bots.search import BUDGETS, estimate, relative
from rummy_env.cards import card_str, parse_card
from rummy_env.gin.melds import deadwood
from rummy_env.worlds import sample_scenario

from test_sampler import _redeal

#: One variant per family (and Indian at 4 players, where packs leave cards out of play).
SMOKE = [("contract_rummy", None), ("may_i", None), ("gin_rummy", None), ("indian_rummy", 2),
         ("indian_rummy", 4), ("manipulation_rummy", 2)]


def _make(variant: str, players: int | None, **kw) -> object:
    return (rummy_env.make(variant, num_players=players, **kw) if players
            else rummy_env.make(variant, **kw))


def _play(variant: str, players: int | None, seed: int, bot: SearchBot,
          max_steps: int = 10**6) -> list[int]:
    """One deal, the search bot in seat 0 and greedy bots elsewhere, illegal actions raising;
    the search bot's actions."""
    env = _make(variant, players, illegal_action="raise")
    env.reset(seed=seed)
    bot.reset(seed)
    others = [GreedyBot(i) for i in range(env.num_players)]
    mine = []
    for k, agent in enumerate(env.agent_iter()):
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        if k >= max_steps:
            break
        seat = env.agent_name_mapping[agent]
        view = seat_view(env, agent)
        a = bot.act(view) if seat == 0 else others[seat].act(view)
        assert a in view.legal_actions
        if seat == 0:
            mine.append(a)
        env.step(a)
    return mine


@pytest.mark.parametrize("variant,players", SMOKE)
def test_smoke_game_with_only_legal_actions(variant: str, players: int | None) -> None:
    steps = 40 if variant == "manipulation_rummy" else 10**6
    played = _play(variant, players, 1, SearchBot(worlds=2, horizon=3), max_steps=steps)
    assert played


@pytest.mark.parametrize("variant,players", [("gin_rummy", None), ("contract_rummy", None)])
def test_deterministic_under_its_seed(variant: str, players: int | None) -> None:
    a = _play(variant, players, 4, SearchBot(worlds=2, horizon=4))
    b = _play(variant, players, 4, SearchBot(worlds=2, horizon=4))
    assert a == b


def test_full_rollouts_and_the_random_policy_play_legally() -> None:
    assert _play("gin_rummy", None, 2, SearchBot(worlds=2, horizon=None))
    assert _play("gin_rummy", None, 3, SearchBot(worlds=2, horizon=5, rollout="random",
                                                   time_budget=0.05))


@pytest.mark.parametrize("variant,players", [("gin_rummy", None), ("contract_rummy", None),
                                             ("indian_rummy", 4)])
def test_decisions_do_not_depend_on_hidden_cards(variant: str, players: int | None) -> None:
    """Re-deal every card the bot's seat cannot see: the same seed plays the same action."""
    env = _make(variant, players)
    rng = np.random.default_rng(0)
    greedy = GreedyBot(0)
    compared = 0
    env.reset(seed=7)
    for k, agent in enumerate(env.agent_iter()):
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc or compared >= 4:
            break
        view = seat_view(env, agent)
        st = env.state_obj
        if len(view.legal_actions) > 2 and k % 3 == 0 and getattr(st, "knocker", -1) < 0:
            other = _make(variant, env.num_players)
            other.reset(options={"scenario": _redeal(st.to_dict(), view.seat, rng)})
            assert other.state_obj.to_dict() != st.to_dict()
            a = SearchBot(11, worlds=2, horizon=6).act(view)
            b = SearchBot(11, worlds=2, horizon=6).act(seat_view(other, agent))
            assert a == b
            compared += 1
        env.step(greedy.act(view))
    assert compared >= 2


def test_needs_the_seats_information_and_checks_its_parameters() -> None:
    env = rummy_env.make("gin_rummy")
    env.reset(seed=0)
    view = seat_view(env, env.agent_selection)
    bare = SeatView(view.seat, view.observation, view.legal_actions, view.action_layout,
                    view.obs_layout, view.family)
    if len(view.legal_actions) > 1:
        with pytest.raises(ValueError, match="information"):
            SearchBot().act(bare)
    for bad in ({"worlds": 0}, {"horizon": -1}, {"rollout": "nope"}, {"time_budget": 0}):
        with pytest.raises(ValueError):
            SearchBot(**bad)
    assert isinstance(make_bot("search", 3), SearchBot)
    assert SearchBot().budget("gin") == BUDGETS["gin"]
    assert SearchBot(worlds=3, horizon=None, confidence=1).budget("contract") == (3, None, 1.0)


def test_the_evaluation_counts_hands_as_the_deal_would() -> None:
    env = rummy_env.make("contract_rummy")
    env.reset(seed=0)
    st = copy.deepcopy(env.state_obj)
    est = estimate(st)
    assert est == [float(st.penalty(s)) for s in range(st.n)]
    assert relative([10.0, 20.0, 30.0, 40.0], 0) == pytest.approx(20.0)
    gin = rummy_env.make("gin_rummy")
    gin.reset(seed=0)
    assert estimate(gin.state_obj) == [float(gin.state_obj.hand_deadwood(s)) for s in (0, 1)]


def test_gin_opponent_model_keeps_the_true_world() -> None:
    """The opponent is greedy, so the real position is always one of the worlds its model of
    the opponent's last turn keeps, given the stock card it really drew (and the model finds
    evidence to use, with the bot's discard both taken and declined)."""
    env = rummy_env.make("gin_rummy")
    checked, kinds = 0, set()
    for seed in range(12):
        if checked >= 5 and len(kinds) == 2:
            break
        bot, greedy = SearchBot(seed, worlds=2, horizon=2), GreedyBot(1)
        env.reset(seed=seed)
        bot.reset(seed)
        drawn = None
        for _, view in live_turns(env):
            if view.seat == 0 and len(view.legal_actions) > 1:
                info = view.information()
                model = bot._model("gin")
                ev = model.evidence(info)
                if ev is not None:
                    true = env.get_state()
                    true.pop("zones")
                    policy = bot.policy(info.game, "gin")
                    assert model.consistent(info, true, ev, policy, np.random.default_rng(0),
                                            drawn=None if ev["took"] else drawn)
                    checked += 1
                    kinds.add(ev["took"] is None)
                env.step(bot.act(view))
            else:
                before = env.state_obj.hands[1]
                env.step(greedy.act(view))
                new = env.state_obj.hands[1] & ~before
                if new:  # the card the opponent drew (the stock's when it declined)
                    drawn = card_str(new.bit_length() - 1)
    assert checked >= 5 and kinds == {True, False}


def test_gin_opponent_model_history_fits_the_true_world_turn_by_turn() -> None:
    """Against a real greedy opponent, the true hidden hand with the stock cards it really drew
    fits every turn of the model's history (``fitter`` walks back through them), and the
    history reaches several turns."""
    env = rummy_env.make("gin_rummy")
    checked = deepest = 0
    for seed in range(4):
        bot, greedy = SearchBot(seed, worlds=2, horizon=2), GreedyBot(1)
        env.reset(seed=seed)
        bot.reset(seed)
        draws: list[int] = []  # the opponent's stock draws, oldest first (-1: it took)
        for _, view in live_turns(env):
            if view.seat == 1:
                a = greedy.act(view)
                kind = view.action_layout.decode(a).kind
                before = env.state_obj.hands[1]
                env.step(a)
                if kind in ("draw_stock", "take_discard"):
                    new = env.state_obj.hands[1] & ~before
                    draws.append(new.bit_length() - 1 if kind == "draw_stock" else -1)
                continue
            if len(view.legal_actions) > 1:
                info = view.information()
                model = bot._model("gin")
                if model.evidence(info) is not None:
                    depth = model.fitter(info, bot.policy(info.game, "gin").bot)
                    turns = min(model.depth, len(model.history))
                    known = {parse_card(c) for c in info.public["known"][1]}
                    hand = env.state_obj.hands[1]
                    cards = [t for t in range(52) if hand >> t & 1 and t not in known]
                    assert depth(cards, draws[::-1][:turns]) == turns
                    checked += 1
                    deepest = max(deepest, turns)
            env.step(bot.act(view))
    assert checked >= 20 and deepest == 4


def _gin_evidence_positions(seeds: range) -> Iterator[tuple[Any, SearchBot, Any, dict]]:
    """Yield ``(env, bot, info, ev)`` at each decision of a search bot in seat 0 against greedy
    where its Gin opponent model has evidence (the position is left as it is while in use)."""
    env = rummy_env.make("gin_rummy")
    for seed in seeds:
        bot, greedy = SearchBot(seed, worlds=2, horizon=2), GreedyBot(1)
        env.reset(seed=seed)
        bot.reset(seed)
        for _, view in live_turns(env):
            if view.seat == 0 and len(view.legal_actions) > 1:
                info = view.information()
                ev = bot._model("gin").evidence(info)
                if ev is not None:
                    yield env, bot, info, ev
                env.step(bot.act(view))
            else:
                env.step(greedy.act(view))


def _card_mask(cards: list[str]) -> int:
    return sum(1 << parse_card(c) for c in cards)


def _hidden_cards(info: Any, world: dict[str, Any]) -> list[int]:
    return [parse_card(c) for c in world["hands"][1][len(info.public["hands"][1]):]]


def test_gin_opponent_model_on_cards_agrees_with_the_state_check() -> None:
    """The model's card-level test of the opponent's last turn (``fitter``'s first turn, the
    greedy bot's draw and play rules on bitmasks) gives the same answer as ``consistent`` (a
    state built and the rollout policy asked) on uniform worlds and drawn cards, both answers
    occurring."""
    seen = {True: 0, False: 0}
    for _, bot, info, ev in _gin_evidence_positions(range(2)):
        model, policy = bot._model("gin"), bot.policy(info.game, "gin")
        depth = model.fitter(info, policy.bot)
        rng = np.random.default_rng(len(info.pool))
        y = parse_card(ev["y"])
        for _ in range(30):
            world = sample_scenario(info, rng)
            cards = _hidden_cards(info, world)
            drawn = (cards + [y])[int(rng.integers(len(cards) + 1))]
            got = depth(cards, [drawn] * model.depth) >= 1
            assert got == model.consistent(info, world, ev, policy, rng,
                                           drawn=None if ev["took"] else card_str(drawn))
            seen[got] += 1
    assert seen[True] >= 20 and seen[False] >= 20


def test_gin_opponent_model_worlds_fit_load_and_match_the_true_deadwood() -> None:
    """The Metropolis chain's worlds each load, look to the bot as the real position does,
    fit the opponent's last turn for some drawn card, and repeat under the same generator
    state; the opponent's deadwood in them is much nearer the true hand's than in uniform
    worlds (a greedy opponent's hand is low in deadwood: about 35 against 55 in uniform
    worlds)."""
    from rummy_env.worlds import build_state

    model_dw, uniform_dw, true_dw, chains = [], [], [], 0
    other = rummy_env.make("gin_rummy")
    for env, bot, info, ev in _gin_evidence_positions(range(4)):
        model, policy = bot._model("gin"), bot.policy(info.game, "gin")
        worlds = model.worlds(info, policy.bot, 6, np.random.default_rng(7))
        if worlds is None:
            continue
        chains += 1
        again = model.worlds(info, policy.bot, 6, np.random.default_rng(7))
        assert again == worlds
        depth = model.fitter(info, policy.bot)
        y = parse_card(ev["y"])
        rng = np.random.default_rng(0)
        real = env.observe("player_0")
        for world in worlds:
            st = build_state(info, world, rng)
            assert st.zone_counts() == list(info.game.deck)
            other.reset(options={"scenario": world})
            got = other.observe("player_0")
            assert np.array_equal(got["observation"], real["observation"])
            assert np.array_equal(got["action_mask"], real["action_mask"])
            cards = _hidden_cards(info, world)
            assert any(depth(cards, [d] * model.depth) >= 1 for d in cards + [y])
            model_dw.append(deadwood(_card_mask(world["hands"][1])))
            uniform_dw.append(deadwood(_card_mask(sample_scenario(info, rng)["hands"][1])))
            true_dw.append(deadwood(env.state_obj.hands[1]))
    assert chains >= 10
    gap_model = abs(np.mean(model_dw) - np.mean(true_dw))
    gap_uniform = abs(np.mean(uniform_dw) - np.mean(true_dw))
    assert np.mean(model_dw) < np.mean(uniform_dw) and gap_model < gap_uniform / 2


def test_gin_opponent_model_repair_walk_finds_starts_that_fit() -> None:
    """With no uniform tries, the downhill walk alone finds a start in most positions, and
    every world of such a chain fits the opponent's last turn for some drawn card."""
    found = positions = 0
    for _, bot, info, ev in _gin_evidence_positions(range(3)):
        model, policy = bot._model("gin"), bot.policy(info.game, "gin")
        positions += 1
        worlds = model.worlds(info, policy.bot, 3, np.random.default_rng(1), tries=0)
        if worlds is None:
            continue
        found += 1
        depth = model.fitter(info, policy.bot)
        y = parse_card(ev["y"])
        for world in worlds:
            cards = _hidden_cards(info, world)
            assert any(depth(cards, [d] * model.depth) >= 1 for d in cards + [y])
    assert positions >= 10 and found >= positions * 2 // 3


def test_gin_opponent_model_rejects_with_a_policy_that_is_not_greedy() -> None:
    """With the greedy rollout policy the model proposes the chain's worlds and no check; with
    another policy (random rollouts) no worlds and a rejection check, which a game played by
    such a bot goes through with legal moves only."""
    seen = 0
    for _, bot, info, ev in _gin_evidence_positions(range(1)):
        model = bot._model("gin")
        given, check = model.propose(info, ev, bot.policy(info.game, "gin"), 3,
                                     np.random.default_rng(0))
        assert check is None and (given is None or len(given) == 3)
        random_policy = SearchBot(0, rollout="random").policy(info.game, "gin")
        given, check = model.propose(info, ev, random_policy, 3, np.random.default_rng(0))
        assert given is None and callable(check)
        assert isinstance(check(sample_scenario(info, np.random.default_rng(1))), bool)
        seen += 1
    assert seen >= 3
    env = rummy_env.make("gin_rummy")
    env.reset(seed=1)
    bots = [SearchBot(1, worlds=2, horizon=4, rollout="random"), GreedyBot(1)]
    for _, view in live_turns(env):
        action = bots[view.seat].act(view)
        assert action in view.legal_actions
        env.step(action)


def test_a_position_whose_worlds_cannot_be_built_plays_the_policys_move() -> None:
    """Contract Rummy's deal 7 lets a run longer than the contract's be laid mid-contract, which
    the scenario loader refuses (get_state() does not load back there): the bot then plays the
    rollout policy's move instead of failing."""
    env = rummy_env.make("contract_rummy", deal=7)
    greedy = GreedyBot(0)
    env.reset(seed=0)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        assert not (term or trunc), "no contract in progress this deal"
        view = seat_view(env, agent)
        if env.state_obj.contract_left is not None and len(view.legal_actions) > 1:
            a = SearchBot(1, worlds=2, horizon=2).act(view)
            assert a in view.legal_actions
            return
        env.step(greedy.act(view))
