"""Environment-level guarantees for every contract-family variant (DESIGN: quality bars).

api_test and seed_test at every supported player count; a seeded random-play soak with
invariants checked at every step; deepcopy/pickle keeping the position; rendering; the
PettingZoo registry; the generated docs tables.
"""

from __future__ import annotations

import copy
import json
import warnings

import numpy as np
import pettingzoo
import pytest
from checkers import check_copies_keep_the_position, play_checked
from pettingzoo.test import api_test, seed_test

import rummy_env
from rummy_env.contract.rules import ContractRules
from rummy_env.bots import RandomBot, SeatView, play_episode, seat_view

VARIANTS = list(rummy_env.VARIANTS)
#: The contract family (Indian Rummy has its own soak, leak and scenario tests).
CONTRACT = [v for v in VARIANTS if isinstance(rummy_env.make(v).rules, ContractRules)]


class EagerBot(RandomBot):
    """Test bot: melds, lays off and swaps whenever it can and claims every May I?; else
    random. Its claims pull cards out of the stock and its melds empty hands, so deals end
    quickly, where uniform random play can run for thousands of turns."""

    def act(self, view: SeatView) -> int:
        texts = {a: view.action_layout.to_string(a) for a in view.legal_actions}
        for prefix in ("meld", "lay off", "swap", "claim", "draw stock"):
            hits = [a for a, t in texts.items() if t.startswith(prefix)]
            if hits:
                return int(hits[self.rng.integers(len(hits))])
        return super().act(view)
PLAYERS = {name: range(rummy_env.make(name).rules.min_players,
                       rummy_env.make(name).rules.max_players + 1) for name in VARIANTS}
CASES = [(v, n) for v in VARIANTS for n in PLAYERS[v]]


@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_api_test(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rummy_env.make(name, num_players=players, deal="random"),
                 num_cycles=200)


@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_seed_test(name: str, players: int) -> None:
    seed_test(lambda: rummy_env.make(name, num_players=players, deal="random"),
              num_cycles=200)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONTRACT)
def test_random_play_soak(name: str) -> None:
    """200 seeded random games per variant (players and deal vary): at every step the cards are
    conserved, the actor's mask is non-empty, the chosen action's text parses back to it, and
    every episode ends (terminated or truncated); every other agent's mask is all zeros (on a
    sample of steps, see below)."""
    lo, hi = PLAYERS[name].start, PLAYERS[name].stop - 1
    rng = np.random.default_rng(12345)
    ended_naturally = 0
    for game in range(200):
        players = lo + game % (hi - lo + 1)
        env = rummy_env.make(name, num_players=players, deal=1 + game % 7, max_turns=400)
        env.reset(seed=game)
        # Every other agent's mask is all zeros: checked at every out-of-turn window step
        # (where the actor is not the player to move) and every 5th step otherwise, which
        # keeps eight 200-game soaks inside the CI budget.
        play_checked(env, rng, max_steps=20000,
                     others_every=lambda step, st: step % 5 == 0 or st.phase in ("claim",
                                                                                 "call"))
        ended_naturally += env.state_obj.is_deal_over
    # Random play ends many deals by someone going out or the stock running dry (a quarter at
    # least even where contracts are long, as in Deb Kolsov's; the rest hit max_turns).
    assert ended_naturally > 50


@pytest.mark.parametrize("name", VARIANTS)
def test_deepcopy_and_pickle_keep_the_position(name: str) -> None:
    env = rummy_env.make(name, num_players=min(4, PLAYERS[name].stop - 1))
    env.reset(seed=7)
    bot = RandomBot(1)
    for _ in range(37):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        env.step(bot.act(seat_view(env, env.agent_selection)))
    b = RandomBot(5)
    check_copies_keep_the_position(env, lambda e: b.act(seat_view(e, e.agent_selection)))


@pytest.mark.parametrize("name", CONTRACT)
def test_get_state_is_json_and_zones_hold_every_card_once(name: str) -> None:
    env = rummy_env.make(name, num_players=5)
    env.reset(seed=3)
    state = json.loads(json.dumps(env.get_state()))
    counts: dict[str, int] = {}
    for cards in state["zones"].values():
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
    assert sum(counts.values()) == env.game.total_cards
    packs, jokers = env.rules.deck_for(5)
    assert counts.get("JK", 0) == jokers
    assert all(v == packs for k, v in counts.items() if k != "JK")


def test_episode_game_plays_every_deal_and_reports_standings() -> None:
    """CR-2/CR-12: a whole game is seven deals; rewards are minus the penalty points; the final
    standings are in infos."""
    env = rummy_env.make("contract_rummy", num_players=3, episode="game", reward_scale=1.0,
                         max_turns=5000)
    totals = play_episode(env, [EagerBot(i) for i in range(3)], seed=11)
    st = env.state_obj
    assert st.is_terminal and st.deals_played == 7 and st.deal == 7
    assert all(totals[f"player_{i}"] == -st.scores[i] for i in range(3))
    places = st.standings()
    assert sorted(places)[0] == 1
    env2 = rummy_env.make("contract_rummy", num_players=3, episode="game", max_turns=5000)
    env2.reset(seed=11)
    bots = [EagerBot(i) for i in range(3)]
    seen = 0
    for agent in env2.agent_iter():
        _, _, term, trunc, info = env2.last()
        if term or trunc:
            assert term and not trunc
            assert info["place"] == env2.state_obj.standings()[int(agent[-1])]
            assert info["deals_played"] == 7
            seen += 1
            env2.step(None)
        else:
            env2.step(bots[int(agent[-1])].act(seat_view(env2, agent)))
    assert seen == 3


def test_places_share_ties() -> None:
    """C-9: tied seats share a place and the next place counts them all, the lowest total
    first (contract, Indian) or the highest (Manipulation); a brute count agrees."""
    from rummy_env.rules_base import places

    assert places([30.0, 5.0, 5.0, 70.0]) == [3, 1, 1, 4]
    assert places([30, 5, 5, 70], low_wins=False) == [2, 3, 3, 1]
    assert places([0.0] * 4) == [1, 1, 1, 1]
    rng = np.random.default_rng(9)
    for _ in range(300):
        v = rng.integers(-3, 4, size=int(rng.integers(1, 9))).tolist()
        assert places(v) == [1 + sum(o < x for o in v) for x in v]
        assert places(v, low_wins=False) == [1 + sum(o > x for o in v) for x in v]


def test_truncation_at_max_turns() -> None:
    env = rummy_env.make("contract_rummy", num_players=3, max_turns=5)
    env.reset(seed=0)
    turns = 0
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        legal = env.legal_actions()
        # Always draw from the stock and discard: nobody melds, so only the cap ends it.
        strings = [env.action_to_string(a) for a in legal]
        pick = next((a for a, s in zip(legal, strings) if s in ("draw stock", "pass")), None)
        if pick is None:
            pick = next(a for a, s in zip(legal, strings) if s.startswith("discard"))
            turns += 1
        env.step(pick)
    assert turns == 5


@pytest.mark.parametrize("name,players,max_turns", [("indian_rummy", 4, None),
                                                     ("contract_rummy", 3, 4),
                                                     ("gin_rummy", 2, None)])
def test_dead_steps_match_pettingzoos_own(name: str, players: int, max_turns: int | None) -> None:
    """The base class's lean ``_was_dead_step`` has PettingZoo's effects: at every dead step of
    seeded episodes (ended by the rules or truncated), a deep copy stepped with
    ``AECEnv._was_dead_step`` ends with the same agents, selection and dicts."""
    env = rummy_env.make(name, num_players=players, max_turns=max_turns)
    rng = np.random.default_rng(3)
    dead_steps = 0
    for ep in range(15):
        env.reset(seed=ep)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                ref = copy.deepcopy(env)
                pettingzoo.AECEnv._was_dead_step(ref, None)
                env.step(None)
                dead_steps += 1
                assert env.agents == ref.agents and env.agent_selection == ref.agent_selection
                for attr in ("terminations", "truncations", "rewards", "_cumulative_rewards",
                             "infos"):
                    assert getattr(env, attr) == getattr(ref, attr), attr
                assert env._skip_agent_selection == ref._skip_agent_selection
                continue
            legal = env.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
    assert dead_steps >= 15 * players
    with pytest.raises(ValueError, match="only valid action is None"):
        env.reset(seed=0)
        while not (env.terminations[env.agent_selection]
                   or env.truncations[env.agent_selection]):
            env.step(env.legal_actions()[0])
        env.step(0)


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
def test_no_offered_action_is_a_dead_end(name: str) -> None:
    """The mask is the rulebook with no dead ends: in seeded random play, every legal action
    of every position, applied to a clone, leaves either the deal over or the player who must
    act with a legal action (one step of lookahead over all the offered actions, not only the
    one played; the rules audit's dead ends were of this kind)."""
    env = rummy_env.make(name, max_turns=200)
    rng = np.random.default_rng(17)
    checked = 0
    for ep in range(10):
        env.reset(seed=ep)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            st = env.state_obj
            legal = st.legal_actions()
            for a in legal:
                nxt = st.clone()
                nxt.apply(a, np.random.default_rng(checked))
                checked += 1
                assert nxt.is_deal_over or (nxt.current_player >= 0 and nxt.legal_actions()), (
                    name, st.to_dict() if hasattr(st, "to_dict") else None, a)
            ids = env.legal_actions()
            env.step(ids[int(rng.integers(len(ids)))])
    assert checked >= 50


def test_render_ansi_shows_the_table() -> None:
    env = rummy_env.make("contract_rummy", num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert "contract: 2 sets of 3" in text and "discard pile" in text
    actor = env.state_obj.current_player
    assert f"*player_{actor}" in text and "hand:" in text
    # Only the viewer's hand is shown.
    assert text.count("hand:") == 1


def test_registry_and_versioned_modules() -> None:
    for name in VARIANTS:
        n = PLAYERS[name].start  # a count every variant allows (Gin Rummy: 2 only)
        e = pettingzoo.make("aec", f"rummy_env/{name}-v1", num_players=n)
        assert e.metadata["name"] == f"{name}_v1"
        mod = getattr(rummy_env, f"{name}_v1")
        assert isinstance(mod.env(num_players=n), mod.raw_env)


def test_calls_before_reset_raise_clear_errors() -> None:
    env = rummy_env.make("contract_rummy")
    with pytest.raises(RuntimeError, match="before reset"):
        env.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection


def test_generated_docs_are_current() -> None:
    from rummy_env.docs import stale

    assert stale() == [], "run: python -m rummy_env.docs"
