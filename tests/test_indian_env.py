"""Environment-level guarantees of Indian Rummy (DESIGN: quality bars; RULES section 8).

api_test and seed_test at 2, 4, 6, 7 and 10 players; a 500-game seeded soak with invariants
checked at every step (cards conserved with the indicator and the cards out of play, masks, the
declaration mask against the solver's declare_discards, codec and position round trips,
termination, zero-sum settlements); hidden cards never reach an observation; scenarios and
rule overrides are validated; the generated docs are current.
"""

from __future__ import annotations

import functools
import json
import warnings

import numpy as np
import pettingzoo
import pytest
from checkers import (
    check_blind_to_hidden_cards,
    check_copies_keep_the_position,
    check_round_trip,
    play_checked,
)
from pettingzoo.test import api_test, seed_test

import rummy_env
from rummy_env.cards import JOKER, card_str, counts_to_list
from rummy_env.errors import IllegalActionError, RuleConfigError, ScenarioError
from rummy_env.indian.solver import can_declare, declare_discards

VARIANT = "indian_rummy"
PLAYERS = [2, 4, 6, 7, 10]


def make(num_players: int = 4, **options):
    return rummy_env.make(VARIANT, num_players=num_players, **options)


# --------------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api_test(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make(players), num_cycles=200)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: make(players), num_cycles=200)


def test_registry_and_versioned_module() -> None:
    assert VARIANT in rummy_env.VARIANTS
    e = pettingzoo.make("aec", f"rummy_env/{VARIANT}-v1", num_players=3)
    assert e.metadata["name"] == "indian_rummy_v1"
    mod = rummy_env.indian_rummy_v1
    assert isinstance(mod.env(num_players=3), mod.raw_env)


# --------------------------------------------------------------------------- soak
def _solver_declares(st) -> list[int]:
    """IR-6 from the solver's own ``declare_discards``, less the card taken from the discard
    pile this turn (IR-5); checked against ``can_declare`` on each 13 left by one discard (a
    different code path from the mask's all-discards search, and from its fast checks)."""
    r, hand = st.rules, st.hands[st.to_move]
    cards = counts_to_list(hand)
    opts = declare_discards(cards, st.wild_rank, st.game.packs,
                            sets_of_four=r.sets_of_four, tanala=r.tanala)
    each = []
    for t in sorted(set(cards)):
        rest = list(cards)
        rest.remove(t)
        if can_declare(rest, st.wild_rank, st.game.packs, sets_of_four=r.sets_of_four,
                       tanala=r.tanala):
            each.append(t)
    assert opts == each, (cards, st.wild_rank)
    return [t for t in opts if t != st.taken]


def _policy(env, legal: list[int], rng: np.random.Generator, eager: bool) -> int:
    """Uniform random; or (``eager``) declare whenever possible and never pack, so that deals
    also end by declarations and by the stock running out, not only by packing."""
    if not eager:
        return int(legal[rng.integers(len(legal))])
    texts = [env.action_to_string(a) for a in legal]
    wins = [a for a, t in zip(legal, texts) if t.startswith(("declare", "hand rummy"))]
    if wins:
        return wins[0]
    keep = [a for a, t in zip(legal, texts) if t != "pack"]
    return int(keep[rng.integers(len(keep))])


@pytest.mark.slow
def test_random_play_soak() -> None:
    """500 seeded games (2-10 players, half of them played eagerly): at every step the cards
    are conserved (hands, stock, discard pile, indicator, out of play), the actor's mask is
    non-empty and is the legal set, and the chosen action's text parses back to it; every
    fifth step, every other mask is all zeros and every legal action's text parses back; the
    declaration mask equals the solver's ``declare_discards`` less the taken card (first 60
    games: every play step; then whenever a declaration is offered); positions round-trip
    through get_state; every episode ends, and each settlement is zero-sum."""
    rng = np.random.default_rng(2024)
    results: dict[str | None, int] = {}
    for game in range(500):
        players = 2 + game % 9
        eager = game % 2 == 1
        env = make(players, reward_scale=1.0)
        env.reset(seed=game)
        other = make(players)

        def on_step(env, agent, obs, steps, game=game, other=other):
            st = env.state_obj
            legal = env.legal_actions()
            if st.phase == "play":
                offered = [env.layout.decode(a)[1] for a in legal
                           if env.layout.decode(a)[0] == "declare"]
                if game < 60 or offered:
                    assert offered == _solver_declares(st)
            if steps % 17 == 3:
                check_round_trip(env, other)
                np.testing.assert_array_equal(other.observe(agent)["observation"],
                                              obs["observation"])

        totals = play_checked(env, rng, policy=functools.partial(_policy, eager=eager),
                              others_every=lambda step, st: step % 5 == 0,
                              texts_every=lambda step: step % 5 == 0,
                              on_step=on_step, max_steps=2000)
        st = env.state_obj
        assert st.is_deal_over, "random play ends every deal before the turn cap"
        results[st.result] = results.get(st.result, 0) + 1
        assert sum(st.last_deal_delta) == 0.0
        assert sum(totals.values()) == 0.0
        assert totals == {a: -st.last_deal_delta[i] for i, a in enumerate(env.possible_agents)}
        if st.result not in ("void", None):
            assert totals[f"player_{st.winner}"] >= 0
    # Every way a deal can end happens in the soak.
    assert set(results) >= {"declare", "last_standing", "void"}, results


def _valid_hand(rng: np.random.Generator, wild_rank: int, packs: int) -> list[int] | None:
    """A random 13-card hand that is valid by construction (IR-3, IR-4, IR-6): a pure run, a
    second run (wild cards may stand in), then sets and runs to 13 cards; None if the packs
    run short of a card."""
    wilds = [JOKER] + ([s * 13 + wild_rank - 1 for s in range(4)] if wild_rank else [])
    counts = [0] * 53

    def take(t: int) -> None:
        if counts[t] >= packs:
            raise LookupError
        counts[t] += 1

    def run(length: int, p_wild: float) -> None:
        lo, suit = int(rng.integers(1, 16 - length)), int(rng.integers(4))
        for q in range(lo, lo + length):
            if rng.random() < p_wild:
                take(wilds[int(rng.integers(len(wilds)))])
            else:
                take(suit * 13 + (q - 1) % 13)

    try:
        first = int(rng.integers(3, 6))
        run(first, 0.0)
        second = int(rng.integers(3, 5))
        run(second, 0.3)
        left = 13 - first - second
        while left:
            k = 3 if left in (3, 4, 5) or rng.random() < 0.5 else 4
            if left - k in (1, 2):
                k = left
            if k == 3 and rng.random() < 0.5:
                rank = int(rng.integers(13))
                for suit in rng.permutation(4)[:3]:
                    take(wilds[int(rng.integers(len(wilds)))] if rng.random() < 0.3
                         else int(suit) * 13 + rank)
            else:
                run(k, 0.3)
            left -= k
    except LookupError:
        return None
    return counts


def test_the_declaration_mask_never_misses_a_valid_hand() -> None:
    """IR-6: on 300 random hands valid by construction, the engine's fast checks never rule a
    valid hand out: hand rummy is offered on the 13, and with any 14th card the declaration
    mask equals the solver's ``declare_discards``."""
    from rummy_env.indian.state import IndianGame, IndianState

    rng = np.random.default_rng(7)
    checked = 0
    for i in range(300):
        players = 4 if i % 3 else 7
        game = IndianGame(rummy_env.make(VARIANT, num_players=players).rules, players)
        indicator = int(rng.integers(53))
        wild_rank = game.wild_rank_for(indicator)
        counts = _valid_hand(rng, wild_rank, game.packs)
        if counts is None:
            continue
        st = IndianState(game)
        st.set_indicator(indicator)
        st.hands[0] = list(counts)
        assert st.can_hand_rummy(0), counts_to_list(counts)
        extra = int(rng.integers(53))
        if counts[extra] < game.packs:
            st.hands[0][extra] += 1
            want = declare_discards(counts_to_list(st.hands[0]), wild_rank, game.packs)
            assert st.declare_options(0) == want and extra in want
        checked += 1
    assert checked > 200


# --------------------------------------------------------------------------- leaks
def test_observations_do_not_depend_on_hidden_cards() -> None:
    """Other hands (except the cards they took face up), the stock and the cards out of play
    dealt anew change nothing a viewer sees (tests/checkers.py; that the check can fail is
    tests/test_leak.py's, for every variant)."""
    rng = np.random.default_rng(99)
    checked = 0
    for game in range(12):
        players = [2, 3, 4, 6, 7, 10][game % 6]
        env = make(players)
        env.reset(seed=game)
        other = make(players)
        for step in range(200):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            if step % 3 == 0:
                checked += check_blind_to_hidden_cards(env, other, rng)
            legal = env.legal_actions()
            texts = [env.action_to_string(x) for x in legal]
            keep = [x for x, t in zip(legal, texts) if t != "pack"] or legal  # long deals
            env.step(keep[rng.integers(len(keep))])
    assert checked > 300


# --------------------------------------------------------------------------- positions
def test_get_state_is_json_and_zones_hold_every_card_once() -> None:
    env = make(5)
    env.reset(seed=3)
    # Three first-turn packs (cards under the stock) and a later one (cards out of play).
    for text in ("draw stock", None, "pack", "pack", "pack", "draw stock", None, "pack"):
        env.step(env.string_to_action(text) if text else env.legal_actions()[0])
    assert env.state_obj.result == "last_standing"
    state = json.loads(json.dumps(env.get_state()))
    counts: dict[str, int] = {}
    for cards in state["zones"].values():
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
    assert sum(counts.values()) == env.game.total_cards == 106
    assert counts["JK"] == 2 and all(v == 2 for v in counts.values())
    assert len(state["zones"]["indicator"]) == 1 and len(state["zones"]["out_of_play"]) == 13


def test_deepcopy_and_pickle_keep_the_position() -> None:
    """After 9 moves that never pack (tests/checkers.py: same position, state vector and
    trajectory; tests/test_envs.py checks every variant after random moves)."""
    env = make(4)
    env.reset(seed=7)
    rng = np.random.default_rng(1)
    for _ in range(9):
        legal = [a for a in env.legal_actions() if env.action_to_string(a) != "pack"]
        env.step(legal[rng.integers(len(legal))])
    r = np.random.default_rng(5)
    check_copies_keep_the_position(
        env, lambda e: (legal := e.legal_actions())[r.integers(len(legal))], steps=40)


def test_state_vector_holds_hands_stock_and_out_of_play() -> None:
    env = make(3)
    env.reset(seed=2, options={"scenario": {"to_move": 1, "dealer": 0,
                                            "turns_taken": [1, 1, 1]}})
    env.step(env.string_to_action("pack"))  # a later pack: out of play
    st = env.state_obj
    v = env.state()
    sl = env.encoder.state_layout.slices
    assert v.shape == env.state_space.shape
    np.testing.assert_array_equal(v[sl["hands"]].reshape(3, 53), np.array(st.hands))
    assert v[sl["stock"]].sum() == len(st.stock)
    assert v[sl["out_of_play"]].sum() == 13
    np.testing.assert_array_equal(v[sl["public"]], env.observe("player_0")["observation"])


def _base_scenario() -> dict:
    return {"to_move": 0, "dealer": 2, "indicator": "5C", "turns_taken": [1, 1, 1]}


@pytest.mark.parametrize("change,message", [
    ({"colour": 1}, "unknown scenario keys"),
    ({"indicator": "1X"}, "indicator"),
    ({"hands": [["AS"] * 3, None, None]}, "copies of AS"),
    ({"hands": [["AS", "2S"], None, None]}, "holds 2 cards; want 13"),
    ({"packed": [0]}, "to_move=0 has packed"),
    ({"packed": [1, 2]}, "fewer than two players"),
    ({"phase": "play", "turns_taken": [0, 0, 0]}, "turns_taken"),
    ({"turn": {"taken": "QS"}}, "phase 'draw'"),
    ({"turn": {"sideways": 1}}, "unknown scenario turn keys"),
    ({"owed": [10, 0, 0]}, "only packed seats owe"),
    ({"deal": 2}, "deal=2"),
    ({"scores": [1, 2]}, "scores"),
    ({"num_players": 4}, "num_players"),
])
def test_bad_scenarios_are_refused_and_change_nothing(change, message) -> None:
    env = make(3)
    env.reset(seed=0)
    before = env.get_state()
    with pytest.raises(ScenarioError, match=message):
        env.reset(seed=1, options={"scenario": {**_base_scenario(), **change}})
    assert env.get_state() == before


def test_a_draw_phase_with_an_empty_stock_is_refused() -> None:
    env = make(2)
    env.reset(seed=0)
    state = env.get_state()
    state.pop("zones")
    state["discard"] = state["discard"] + state["stock"]
    state["stock"] = []
    state["discarders"] = [-1] * len(state["discard"])
    with pytest.raises(ScenarioError, match="empty stock"):
        env.reset(options={"scenario": state})


def test_partial_scenarios_deal_the_rest_from_the_seed() -> None:
    given = "AS AS KD KD 2C 3C 4C 5H 6H 7H 8D 9D 10D".split()
    s = {"indicator": "9H", "to_move": 1, "dealer": 0, "hands": [None, given]}
    a, b = make(2), make(2)
    a.reset(seed=5, options={"scenario": s})
    b.reset(seed=5, options={"scenario": s})
    assert a.get_state() == b.get_state()
    assert sorted(a.get_state()["hands"][1]) == sorted(given)
    assert len(a.get_state()["hands"][0]) == 13 and a.get_state()["indicator"] == "9H"
    with pytest.raises(ScenarioError, match="3 copies of AS"):
        a.reset(options={"scenario": {**s, "discard": ["AS"]}})


# --------------------------------------------------------------------------- options
@pytest.mark.parametrize("option,message", [
    ({"hand_size": 20}, "hand_size"),
    ({"first_pack_cost": -1}, "first_pack_cost"),
    ({"tanala": "yes"}, "tanala"),
    ({"num_deals": 0}, "num_deals"),
    ({"decks": ((2, 2, 2),)}, "decks"),
    ({"jokers": False}, "unknown rule option 'jokers'"),
    ({"deal": 2}, "deal=2"),
    ({"episode": "forever"}, "episode"),
])
def test_bad_options_name_the_field(option, message) -> None:
    with pytest.raises(RuleConfigError, match=message):
        make(4, **option)


def test_rule_overrides_from_yaml_lists() -> None:
    env = make(2, decks=[[2, 1, 0], [3, 1, 1]], max_players=3)
    assert env.game.total_cards == 52 and env.rules.decks == ((2, 1, 0), (3, 1, 1))
    env.reset(seed=0)
    assert env.state_obj.zone_counts() == [1] * 52 + [0]


def test_illegal_actions_raise_or_penalize() -> None:
    env = make(3, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(env.string_to_action("discard AS"))
    with pytest.raises(IllegalActionError, match="outside"):
        env.step(10_000)
    env = make(3, illegal_action="penalize", illegal_reward=-5.0)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(env.string_to_action("discard AS"))
    assert env._cumulative_rewards[agent] == -5.0 and all(env.terminations.values())


def test_truncation_at_max_turns() -> None:
    env = make(3, max_turns=4)
    env.reset(seed=0)
    turns = 0
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        texts = env.legal_action_strings()
        if "draw stock" in texts:
            env.step(env.string_to_action("draw stock"))
        else:
            turns += 1
            env.step(env.string_to_action(next(t for t in texts if t.startswith("discard"))))
    assert turns == 4


def test_render_ansi_shows_the_indicator_and_only_the_viewers_hand() -> None:
    env = make(3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    st = env.state_obj
    assert f"indicator: {card_str(st.indicator)}" in text and "wild:" in text
    assert f"*player_{st.current_player}" in text and text.count("hand:") == 1
    env.step(env.string_to_action("pack"))
    assert "packed (owes 10)" in env.render()


def test_observation_pieces_are_egocentric() -> None:
    env = make(4)
    env.reset(seed=0, options={"scenario": {"to_move": 2, "dealer": 1, "packed": [3],
                                            "turns_taken": [0, 0, 0, 1]}})
    p = env.encoder.layout.pieces
    for seat in range(4):
        obs = env.observe(f"player_{seat}")["observation"]
        packed = obs[p["packed"].start:p["packed"].stop]
        to_move = obs[p["to_move"].start:p["to_move"].stop]
        assert packed[(3 - seat) % 4] == 1 and packed.sum() == 1
        assert to_move[(2 - seat) % 4] == 1
        hand = obs[p["hand"].start:p["hand"].stop]
        np.testing.assert_array_equal(hand, env.state_obj.hands[seat])
    assert env.observe("player_2")["observation"][p["turn"].start + 1] == 1  # first turn
    assert p["hand"].stop - p["hand"].start == 53 and JOKER == 52


def test_observation_counts_match_the_state_in_random_play() -> None:
    """The encoder reads hand sizes from the phase and the pile's counts from the engine's
    running tally (both kept for speed): over seeded random play, every seat's observation
    still equals the counts recomputed from the hands and the pile."""
    from rummy_env.cards import NUM_TYPES

    for players in (2, 4, 7):
        env = make(players, episode="game", num_deals=2)
        p = env.encoder.layout.pieces
        rng = np.random.default_rng(players)
        for ep in range(15):
            env.reset(seed=ep)
            for agent in env.agent_iter():
                st = env.state_obj
                for seat in range(players):
                    obs = env.observe(f"player_{seat}")["observation"]
                    sizes = [sum(st.hands[(seat + k) % players]) / 14.0 for k in range(players)]
                    np.testing.assert_array_equal(
                        obs[p["hand_size"].start:p["hand_size"].stop],
                        np.array(sizes, dtype=np.float32))
                    pile = np.bincount(st.discard, minlength=NUM_TYPES) if st.discard else 0
                    np.testing.assert_array_equal(
                        obs[p["discard_counts"].start:p["discard_counts"].stop], pile)
                    known = obs[p["known"].start:p["known"].stop].reshape(players, NUM_TYPES)
                    for k in range(players):
                        np.testing.assert_array_equal(known[k], st.known[(seat + k) % players])
                _, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = env.legal_actions()
                env.step(legal[int(rng.integers(len(legal)))])


def test_generated_docs_are_current() -> None:
    from rummy_env.docs import stale

    assert stale() == [], "run: python -m rummy_env.docs"
