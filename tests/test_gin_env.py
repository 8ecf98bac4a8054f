"""Gin Rummy environment: masks against a brute-force rulebook, the deadwood solver against
brute force, a seeded random-play soak, leak-free observations, positions as data, text.

The brute-force reference here shares nothing with the engine but card text: melds are found by
trying every subset of a hand, deadwood by trying every combination of disjoint melds, and the
legal actions of each phase are written straight from RULES section 9.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from checkers import (
    check_blind_to_hidden_cards,
    check_copies_keep_the_position,
    check_round_trip,
    gin_seen,
    play_checked,
)

import rummy_env
from rummy_env.cards import card_str
from rummy_env.gin.melds import best_melds, card_list, deadwood, knock_discards, mask_of

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- brute force
def bf_value(cards) -> int:
    return sum(min(t % 13 + 1, 10) for t in cards)


def bf_is_meld(cards) -> bool:
    """GR-1 from scratch: 3-4 of a rank, or 3+ consecutive of a suit with the ace low."""
    cards = sorted(cards)
    if len(cards) < 3:
        return False
    ranks = {t % 13 for t in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    if len({t // 13 for t in cards}) != 1:
        return False
    rs = [t % 13 for t in cards]
    return rs == list(range(rs[0], rs[0] + len(rs)))


def bf_melds(hand) -> list[tuple[int, ...]]:
    """Every subset of ``hand`` that is a meld; subsets are tried within each rank and each
    suit only (a meld has one rank or one suit), which keeps 11-card hands fast."""
    groups = [sorted(t for t in hand if t % 13 == r) for r in range(13)]
    groups += [sorted(t for t in hand if t // 13 == s) for s in range(4)]
    out = set()
    for g in groups:
        for k in range(3, len(g) + 1):
            out.update(c for c in itertools.combinations(g, k) if bf_is_meld(c))
    return sorted(out)


@lru_cache(maxsize=None)
def bf_deadwood(hand: frozenset) -> int:
    melds = bf_melds(hand)
    best = 0

    def rec(i: int, used: frozenset, val: int) -> None:
        nonlocal best
        best = max(best, val)
        for j in range(i, len(melds)):
            if used.isdisjoint(melds[j]):
                rec(j + 1, used | set(melds[j]), val + bf_value(melds[j]))

    rec(0, frozenset(), 0)
    return bf_value(hand) - best


def cards_of(mask: int) -> frozenset:
    return frozenset(t for t in range(52) if mask >> t & 1)


def meld_text(cards) -> str:
    return "meld " + " ".join(card_str(t) for t in sorted(cards))


def bf_legal(st) -> set[str]:
    """The legal actions of the acting seat, from RULES section 9 alone."""
    ph = st.phase
    if ph == "first_upcard":
        return {"take discard", "pass"}  # GR-3
    if ph == "draw":
        return {"draw stock"} | (set() if st.upcard_refused else {"take discard"})  # GR-3, GR-4
    if ph == "play":
        hand = cards_of(st.hands[st.to_move])
        out = set()
        for t in hand:
            if t == st.taken:
                continue  # GR-4
            out.add(f"discard {card_str(t)}")
            if bf_deadwood(hand - {t}) <= st.knock_limit:  # GR-5
                out.add(f"knock discarding {card_str(t)}")
        return out
    if ph == "knock":
        hand = cards_of(st.hands[st.knocker])
        limit = 0 if st.gin else st.knock_limit
        out = {meld_text(m) for m in bf_melds(hand) if bf_deadwood(hand - set(m)) <= limit}
        if bf_value(hand) <= limit:
            out.add("done")
        return out
    if ph == "defend":
        hand = cards_of(st.hands[1 - st.knocker])
        out = {meld_text(m) for m in bf_melds(hand)} | {"done"}
        if not st.gin:  # GR-6: no lay-offs against gin
            for k, slot in enumerate(st.slots):
                for t in hand:
                    if bf_is_meld(cards_of(slot) | {t}):
                        out.add(f"lay off {card_str(t)} on {k}")
        return out
    return set()


def check_masks(env) -> None:
    """The acting agent's mask is exactly the brute-force legal set; the other's is empty."""
    st = env.state_obj
    actor = env.agent_selection
    mask = env.observe(actor)["action_mask"]
    got = {env.action_to_string(i) for i in np.flatnonzero(mask)}
    assert got == bf_legal(st), (st.phase, sorted(got ^ bf_legal(st)))
    other = env.possible_agents[1 - env.possible_agents.index(actor)]
    assert not env.observe(other)["action_mask"].any()


class KnockerBot:
    """Test bot: knocks, melds and lays off with probability 0.8 when it can (random play
    alone rarely knocks), else uniform; on a draw, takes the discard when that lowers its
    deadwood (it reads the position: a test helper, not a seat-view bot)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env) -> int:
        ids = env.legal_actions()
        texts = [env.action_to_string(i) for i in ids]
        eager = [i for i, t in zip(ids, texts) if t.startswith(("knock", "meld", "lay off"))]
        if eager and self.rng.random() < 0.8:
            return int(eager[self.rng.integers(len(eager))])
        st = env.state_obj
        if st.phase == "play" and self.rng.random() < 0.7:
            hand = st.hands[st.to_move]
            options = [(deadwood(hand & ~(1 << _card(t.split()[1]))), i)
                       for i, t in zip(ids, texts) if t.startswith("discard")]
            return int(min(options)[1])
        return int(ids[self.rng.integers(len(ids))])


def _card(text: str) -> int:
    from rummy_env.cards import parse_card

    return parse_card(text)


# --------------------------------------------------------------------------- the solver
def test_deadwood_solver_matches_brute_force_on_random_hands():
    rng = np.random.default_rng(0)
    for trial in range(1500):
        k = int(rng.integers(3, 12))
        # Half the hands are drawn from a few suits and ranks, so melds overlap a lot.
        pool = rng.choice(52, size=26, replace=False) if trial % 2 else np.arange(52)
        hand = frozenset(int(x) for x in rng.choice(pool, size=k, replace=False))
        m = mask_of(hand)
        dw = deadwood(m)
        assert dw == bf_deadwood(hand), sorted(card_str(t) for t in hand)
        arrangement = best_melds(m)
        used = 0
        for meld in arrangement:
            assert bf_is_meld(cards_of(meld)) and not used & meld
            used |= meld
        assert bf_value(hand - cards_of(used)) == dw


def test_knock_discards_matches_brute_force_on_meld_rich_hands():
    rng = np.random.default_rng(1)
    checked_positive = 0
    for _ in range(600):
        hand = _meld_rich_hand(rng, 11)
        for limit in (0, 5, 10):
            got = cards_of(knock_discards(mask_of(hand), limit))
            want = {t for t in hand if bf_deadwood(hand - {t}) <= limit}
            assert got == want
            checked_positive += bool(want)
    assert checked_positive > 300


def _meld_rich_hand(rng: np.random.Generator, size: int) -> frozenset:
    """``size`` cards built from random sets and runs, topped up at random."""
    cards: set[int] = set()
    while len(cards) < size - 2:
        if rng.random() < 0.5:
            r = int(rng.integers(13))
            cards.update(int(s) * 13 + r for s in rng.choice(4, size=3, replace=False))
        else:
            s, lo = int(rng.integers(4)), int(rng.integers(11))
            cards.update(s * 13 + lo + i for i in range(int(rng.integers(3, 5))) if lo + i < 13)
    cards = set(list(cards)[:size])
    while len(cards) < size:
        cards.add(int(rng.integers(52)))
    return frozenset(sorted(cards)[:size])


# --------------------------------------------------------------------------- masks
def test_masks_match_brute_force_along_games():
    """Every position of 60 seeded games between knock-happy bots, every phase."""
    env = rummy_env.make("gin_rummy")
    seen: set[str] = set()
    for game in range(60):
        env.reset(seed=game)
        bots = [KnockerBot(2 * game), KnockerBot(2 * game + 1)]
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            check_masks(env)
            seen.add(env.state_obj.phase)
            env.step(bots[env.possible_agents.index(agent)].act(env))
    assert seen == {"first_upcard", "draw", "play", "knock", "defend"}


def test_masks_match_brute_force_in_generated_knock_positions():
    """Random knocks built from meld-rich hands (gin, Oklahoma limits, ...), played to the end
    with random legal actions."""
    rng = np.random.default_rng(7)
    env = rummy_env.make("gin_rummy")
    played = 0
    while played < 150:
        hand = _meld_rich_hand(rng, 10)
        limit = int(rng.choice([0, 3, 7, 10]))
        if bf_deadwood(hand) > limit:
            continue
        others = [t for t in range(52) if t not in hand]
        rng.shuffle(others)
        env.reset(seed=played, options={"scenario": {
            "phase": "knock", "dealer": 1, "to_move": 0, "knocker": 0, "knock_limit": limit,
            "hands": [[card_str(t) for t in hand], [card_str(t) for t in others[:10]]],
            "discard": [card_str(t) for t in others[10:12]],
        }})
        while not env.state_obj.is_deal_over:
            check_masks(env)
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
        played += 1


# --------------------------------------------------------------------------- soak
def test_random_play_soak():
    """200 seeded random games (uniform over the mask, one in three with Oklahoma): at every
    step the cards are conserved, the actor's mask is non-empty and the other's all zeros, the
    chosen action's text parses back to it; every episode ends (tests/checkers.py)."""
    rng = np.random.default_rng(12345)
    results: dict[str, int] = {}
    for game in range(200):
        env = rummy_env.make("gin_rummy", oklahoma=game % 3 == 0)
        env.reset(seed=game)
        assert list(env.game.deck) == [1] * 52 + [0]
        play_checked(env, rng, max_steps=5000)
        results[str(env.state_obj.result)] = results.get(str(env.state_obj.result), 0) + 1
    # Uniform play mostly reaches the wall; some hands are knocked.
    assert results.get("dead", 0) > 120 and sum(v for k, v in results.items() if k != "dead")


# --------------------------------------------------------------------------- leaks
def test_observations_do_not_depend_on_hidden_cards():
    """At positions of seeded games, the opponent's hidden cards and the stock are dealt anew:
    the viewer's observation and mask do not change (tests/checkers.py; the check that it can
    fail is tests/test_leak.py's, for every variant)."""
    rng = np.random.default_rng(99)
    env = rummy_env.make("gin_rummy")
    other = rummy_env.make("gin_rummy")
    checked = 0
    for game in range(12):
        env.reset(seed=game)
        bots = [KnockerBot(game), KnockerBot(game + 100)]
        step = 0
        while not env.state_obj.is_deal_over:
            if step % 7 == 0:
                # A knocker's hand dealt anew may be over the limit: the loader refuses it.
                checked += check_blind_to_hidden_cards(env, other, rng, tries=30, seen=gin_seen)
            env.step(bots[env.state_obj.current_player].act(env))
            step += 1
    assert checked > 60


def test_observation_pieces_are_egocentric():
    env = rummy_env.make("gin_rummy")
    env.reset(seed=4)
    st = env.state_obj
    pieces = env.encoder.layout.pieces
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        hand = obs[pieces["hand"].start:pieces["hand"].stop]
        assert set(np.flatnonzero(hand)) == set(card_list(st.hands[seat]))
        dealer = obs[pieces["dealer"].start:pieces["dealer"].stop]
        assert list(dealer) == ([1, 0] if st.dealer == seat else [0, 1])
        top = obs[pieces["discard_top"].start:pieces["discard_top"].stop]
        assert list(np.flatnonzero(top)) == [st.discard[-1]]
        assert obs[pieces["counts"].start] == pytest.approx(31 / 31)


# --------------------------------------------------------------------------- positions, text
def test_get_state_round_trips_and_zones_hold_every_card_once():
    env = rummy_env.make("gin_rummy")
    other = rummy_env.make("gin_rummy")
    rng_bots = [KnockerBot(5), KnockerBot(6)]
    for game in range(20):
        env.reset(seed=game)
        while not env.state_obj.is_deal_over:
            state = check_round_trip(env, other, observations=True)
            cards = [c for zone in state["zones"].values() for c in zone]
            assert sorted(cards) == sorted(card_str(t) for t in range(52))
            env.step(rng_bots[env.state_obj.current_player].act(env))
        check_round_trip(env, other, observations=True)


@pytest.mark.parametrize("scenario,match", [
    ({"bogus": 1}, "unknown scenario keys"),
    ({"hands": [["AC", "AC"], None]}, "twice"),
    ({"hands": [["AC", "2C"], None]}, "want 10 each"),
    ({"phase": "play"}, None),
    ({"phase": "nope"}, "phase"),
    ({"phase": "knock"}, "needs a knocker"),
    ({"table": [{"owner": 0, "cards": ["AC", "2C", "4C"]}], "knocker": 0, "phase": "defend"},
     "not a meld"),
    ({"dealer": 2}, "seat index"),
    ({"taken": "5H"}, "outside phase 'play'"),
])
def test_scenarios_are_validated(scenario, match):
    env = rummy_env.make("gin_rummy")
    if match is None:  # a valid partial scenario: the hands are dealt, 11 to the player to move
        env.reset(seed=0, options={"scenario": scenario})
        st = env.state_obj
        assert st.hand_size(st.to_move) == 11 and st.hand_size(1 - st.to_move) == 10
        return
    before = None
    env.reset(seed=3)
    before = env.get_state()
    with pytest.raises(rummy_env.ScenarioError, match=match):
        env.reset(seed=0, options={"scenario": scenario})
    assert env.get_state() == before  # nothing half-applied


def test_every_action_id_round_trips_through_its_text():
    env = rummy_env.make("gin_rummy")
    texts = [env.action_to_string(i) for i in range(env.action_space("player_0").n)]
    assert len(set(texts)) == len(texts) == 569
    for i, t in enumerate(texts):
        assert env.string_to_action(t) == i
        assert env.string_to_action(t.lower().replace("10", "T")) == i


def test_illegal_action_raises_and_changes_nothing():
    env = rummy_env.make("gin_rummy", illegal_action="raise")
    env.reset(seed=2)
    before = env.get_state()
    with pytest.raises(rummy_env.IllegalActionError, match="not legal in phase 'first_upcard'"):
        env.step(env.string_to_action("draw stock"))
    assert env.get_state() == before


def test_deepcopy_and_pickle_keep_the_position():
    """After 25 moves of a knocking bot (tests/checkers.py: same position, state vector and
    trajectory; tests/test_envs.py checks every variant after random moves)."""
    env = rummy_env.make("gin_rummy")
    env.reset(seed=7)
    bot = KnockerBot(0)
    for _ in range(25):
        env.step(bot.act(env))
    check_copies_keep_the_position(env, KnockerBot(1).act)


def test_render_ansi_shows_the_viewers_hand_only():
    env = rummy_env.make("gin_rummy", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "first upcard" in text and "knock with 10 or less" in text
    assert text.count("hand:") == 1 and f"*player_{env.state_obj.current_player}" in text


def test_play_example_runs_a_bot_game():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "play.py"), "--variant",
                          "gin_rummy", "--bots", "--seed", "3"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "hand over" in out.stdout and "rewards" in out.stdout


def test_game_episode_rewards_are_zero_sum_and_match_scores():
    env = rummy_env.make("gin_rummy", game_to=50, episode="game", reward_scale=1.0,
                         max_turns=100000)
    env.reset(seed=1)
    bots = [KnockerBot(1), KnockerBot(2)]
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, r, term, trunc, info = env.last()
        totals[agent] += r
        if term or trunc:
            env.step(None)
            continue
        env.step(bots[env.possible_agents.index(agent)].act(env))
    st = env.state_obj
    assert st.is_terminal and st.deals_played > 1
    assert totals == {"player_0": -st.scores[0], "player_1": -st.scores[1]}
    assert sum(st.scores) == 0 and max(st.points) >= 50


def test_deadwood_laid_down_face_up_is_observed():
    """GR-5: after the knocker's ``done`` its deadwood is public (the defender's row 1 of
    ``shown``); GR-7: at the score both seats' deadwood is."""
    env = rummy_env.make("gin_rummy")
    env.reset(seed=0, options={"scenario": {
        "phase": "defend", "dealer": 1, "to_move": 1, "knocker": 0,
        "hands": [["5C"], "7S JH 5S AS 6S KC KD KS 3D 6H".split()], "discard": ["QH", "5H"],
        "table": [{"owner": 0, "cards": c.split()}
                  for c in ("7C 7D 7H", "8H 9H 10H", "2S 3S 4S")]}})
    p = env.encoder.layout.pieces["shown"]

    def shown(agent: str) -> list[list[str]]:
        rows = env.observe(agent)["observation"][p.start:p.stop].reshape(2, 52)
        return [[card_str(t) for t in np.flatnonzero(r)] for r in rows]

    assert shown("player_1") == [[], ["5C"]] and shown("player_0") == [["5C"], []]
    env.step(env.string_to_action("done"))
    assert shown("player_1")[1] == ["5C"]
    assert sorted(shown("player_0")[1]) == sorted("7S JH 5S AS 6S KC KD KS 3D 6H".split())


def test_incremental_observations_equal_observations_built_from_scratch():
    """The encoder writes only the bits that changed since a seat's last observation: at every
    step of seeded games (new hands, scenarios and state() calls in between) its output equals
    a fresh encoder's, which builds everything."""
    from rummy_env.gin.codec import GinEncoder

    env = rummy_env.make("gin_rummy")
    fresh = GinEncoder(env.game)
    rng = np.random.default_rng(3)
    for game in range(10):
        if game % 5 == 4:  # a scenario in between
            env.reset(seed=game, options={"scenario": {"phase": "play", "dealer": 0}})
        else:
            env.reset(seed=game)
        bots = [KnockerBot(game), KnockerBot(game + 50)]
        while not env.state_obj.is_deal_over:
            st = env.state_obj
            for seat in rng.permutation(2):
                got = env.encoder.observe(st, int(seat))
                fresh._last[seat] = 0  # as if never observed: every bit is written
                fresh._bufs[seat][:] = 0
                want = fresh.observe(st, int(seat))
                np.testing.assert_array_equal(got, want)
            if rng.random() < 0.1:
                env.state()
            env.step(bots[st.current_player].act(env))
