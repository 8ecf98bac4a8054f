"""Rule tests of Gin Rummy (RULES section 9, GR-1..GR-9).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact scores and
rewards (``reward_scale=1``: a reward is the hand's points).
"""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.cards import card_str, parse_cards
from rummy_env.errors import RuleConfigError, ScenarioError
from rummy_env.gin.melds import deadwood, mask_of

VARIANT = "gin_rummy"

# GR-5's running example: A-2-3 of clubs, three 7s, J-Q-K of spades, and 5D 9H loose.
HAND11 = "AC 2C 3C 7D 7H 7S JS QS KS 5D 9H"
OPP10 = "6C 8C 10C KC 2D 4D 6D 8D 10D QD"
OPP_HIGH = "9C 10C JC QC 5D 6D 7D 8D 9D 10D"


def make(**options):
    return rummy_env.make(VARIANT, reward_scale=1.0, **options)


def setup(scenario: dict, seed: int = 0, **options):
    env = make(**options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def discards(hand: str, but: str = "") -> list[str]:
    skip = set(but.split())
    return [f"discard {c}" for c in hand.split() if c not in skip]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def rewards(env) -> dict[str, float]:
    return {a: env._cumulative_rewards[a] for a in env.possible_agents}


def play_position(hand11: str, opp: str = OPP10, **extra) -> dict:
    """Phase ``play``: player_0 (non-dealer) has drawn and holds 11 cards."""
    return {"phase": "play", "dealer": 1, "to_move": 0,
            "hands": [hand11.split(), opp.split()], "discard": ["KH"], **extra}


def knocked(hand10: str, table: list[str], opp: str, phase: str = "knock",
            laid_off: str = "", **extra) -> dict:
    """After player_0 knocked: its cards left, its melds on the table (each a string)."""
    return {"phase": phase, "dealer": 1, "to_move": 0 if phase == "knock" else 1,
            "knocker": 0, "hands": [hand10.split(), opp.split()], "discard": ["QH", "5H"],
            "table": [{"owner": 0, "cards": m.split()} for m in table],
            "laid_off": laid_off.split(), **extra}


# --------------------------------------------------------------------------- GR-1 cards, melds
def test_gr1_two_players_one_pack_no_jokers():
    env = make()
    env.reset(seed=3)
    st = env.state_obj
    assert env.num_players == 2 and env.possible_agents == ["player_0", "player_1"]
    assert st.zone_counts() == [1] * 52 + [0]
    with pytest.raises(RuleConfigError, match="num_players"):
        make(num_players=3)
    with pytest.raises(ScenarioError, match="no jokers"):
        setup({"hands": [["JK"] + OPP10.split()[1:], None]})


@pytest.mark.parametrize("cards,value", [
    ("AC 2D 3H", 6), ("10S JC QD KH", 40), ("9C KD", 19), ("AS", 1),
])
def test_gr1_card_values(cards, value):
    """A 1, 2-10 face value, J Q K 10: a hand with no meld has all of it as deadwood."""
    assert deadwood(mask_of(parse_cards(cards))) == value


@pytest.mark.parametrize("cards,dw", [
    ("AH 2H 3H", 0),  # ace low run
    ("QH KH AH", 21),  # no ace high (Q K A is not a run)
    ("7C 7D 7H", 0), ("7C 7D 7H 7S", 0), ("7C 7D", 14),
    ("4S 5S 6S 7S 8S", 0), ("4S 5S 7S", 16),
])
def test_gr1_sets_and_runs_ace_low_only(cards, dw):
    assert deadwood(mask_of(parse_cards(cards))) == dw


def test_gr1_q_k_a_is_not_a_run_when_knocking():
    """QH KH AH 2H 3H: only A-2-3 melds, so only a discard of QH or KH leaves 10; were Q-K-A a
    run, discarding 3H (or 2H) would leave 2 (or 3)."""
    hand = "QH KH AH 2H 3H 7C 7D 7S 4S 5S 6S"
    env = setup(play_position(hand, discard=["JC"]))
    assert [a for a in legal(env) if a.startswith("knock")] == [
        "knock discarding KH", "knock discarding QH"]


# --------------------------------------------------------------------------- GR-2 deal
def test_gr2_deal_ten_each_upcard_and_stock():
    env = make()
    env.reset(seed=11)
    st = env.state_obj
    assert [st.hand_size(0), st.hand_size(1)] == [10, 10]
    assert len(st.discard) == 1 and st.upcard == st.discard[0]
    assert len(st.stock) == 31
    assert st.phase == "first_upcard" and st.current_player == 1 - st.dealer


# --------------------------------------------------------------------------- GR-3 first upcard
def upcard_position() -> dict:
    return {"phase": "first_upcard", "dealer": 1, "to_move": 0,
            "hands": [HAND11.split()[:10], OPP10.split()], "discard": ["9H"]}


def test_gr3_non_dealer_then_dealer_may_take_the_upcard_or_pass():
    env = setup(upcard_position())
    assert env.agent_selection == "player_0"
    assert legal(env) == ["pass", "take discard"]
    play(env, "pass")
    assert env.agent_selection == "player_1"
    assert legal(env) == ["pass", "take discard"]


def test_gr3_both_pass_then_the_non_dealer_draws_from_the_stock():
    env = setup(upcard_position())
    play(env, "pass")
    play(env, "pass")
    assert env.agent_selection == "player_0"
    assert legal(env) == ["draw stock"]
    play(env, "draw stock")
    st = env.state_obj
    assert st.hand_size(0) == 11 and len(st.stock) == 30


def test_gr3_dealer_takes_the_upcard_and_may_not_discard_it():
    env = setup(upcard_position())
    play(env, "pass")
    play(env, "take discard")
    assert env.agent_selection == "player_1"
    assert legal(env) == sorted(discards(OPP10))  # every card but the 9H just taken
    play(env, "discard QD")
    assert env.agent_selection == "player_0"
    assert legal(env) == ["draw stock", "take discard"]


def test_gr3_non_dealer_takes_the_upcard():
    env = setup(upcard_position())
    play(env, "take discard")
    assert env.agent_selection == "player_0"
    hand = HAND11.split()[:10]
    # HAND11 without 9H, plus the 9H taken: 9H may not go back (GR-4); 5D and the knock.
    assert legal(env) == sorted(discards(" ".join(hand)) + ["knock discarding 5D"])


# --------------------------------------------------------------------------- GR-4 a turn
def test_gr4_draw_from_the_stock_or_the_top_discard():
    env = setup({"dealer": 1, "to_move": 0, "hands": [HAND11.split()[:10], OPP10.split()],
                 "discard": ["2S", "QC"]})
    assert legal(env) == ["draw stock", "take discard"]
    play(env, "take discard")
    st = env.state_obj
    assert st.discard == parse_cards("2S") and st.taken == parse_cards("QC")[0]


def test_gr4_the_card_taken_from_the_discard_pile_may_not_be_discarded():
    hand = "AC 2C 3C 7D 7H 7S JS QS KS 5D QC"
    env = setup(play_position(hand, taken="QC"))
    # Discarding 5D leaves QC (10) as the only deadwood: a knock. Discarding QC is not allowed,
    # neither plainly nor with a knock.
    assert legal(env) == sorted(discards(hand, but="QC") + ["knock discarding 5D"])


def test_gr4_a_discard_ends_the_turn():
    env = setup(play_position(HAND11))
    play(env, "discard 5D")
    st = env.state_obj
    assert env.agent_selection == "player_1" and st.phase == "draw"
    assert st.discard[-1] == parse_cards("5D")[0]
    assert legal(env) == ["draw stock", "take discard"]


# --------------------------------------------------------------------------- GR-5 knock, gin
def test_gr5_knock_exactly_when_deadwood_after_the_discard_is_at_most_10():
    env = setup(play_position(HAND11))
    # Discard 9H: deadwood 5 (5D); discard 5D: deadwood 9 (9H); any other discard: more than 10.
    assert legal(env) == sorted(discards(HAND11) + ["knock discarding 5D",
                                                    "knock discarding 9H"])


def test_gr5_the_knocker_lays_melds_one_per_action_then_done():
    env = setup(play_position(HAND11))
    play(env, "knock discarding 9H")
    st = env.state_obj
    assert st.phase == "knock" and env.agent_selection == "player_0" and not st.gin
    assert legal(env) == ["meld 7D 7H 7S", "meld AC 2C 3C", "meld JS QS KS"]
    play(env, "meld JS QS KS")
    assert legal(env) == ["meld 7D 7H 7S", "meld AC 2C 3C"]
    play(env, "meld AC 2C 3C")
    assert legal(env) == ["meld 7D 7H 7S"]
    play(env, "meld 7D 7H 7S")
    assert legal(env) == ["done"]  # 5D alone: deadwood 5
    play(env, "done")
    assert env.agent_selection == "player_1" and env.state_obj.phase == "defend"


def test_gr5_only_melds_that_keep_the_knock_limit_reachable_are_offered():
    """7C 7D 7H 8H 9H 10H 2S 3S 4S 5C: the set of 7s with 8-10H leaves 5 deadwood; a run
    through 7H leaves 7C 7D (19 with 5C): over the limit, so never offered."""
    env = setup(knocked("7C 7D 7H 8H 9H 10H 2S 3S 4S 5C", [], OPP10))
    assert legal(env) == ["meld 2S 3S 4S", "meld 7C 7D 7H", "meld 8H 9H 10H"]
    play(env, "meld 2S 3S 4S")
    assert legal(env) == ["meld 7C 7D 7H", "meld 8H 9H 10H"]


def test_gr5_a_knocker_may_lay_a_set_of_three_of_four_within_the_limit():
    """AC AD AH AS 6C 7C 8C 2S 3H 4D (deadwood 9): the set of four, or any set of three with
    the fourth ace (1) left as deadwood (10), are within the limit of 10."""
    env = setup(knocked("AC AD AH AS 6C 7C 8C 2S 3H 4D", [], OPP_HIGH))
    assert not env.state_obj.gin
    assert legal(env) == ["meld 6C 7C 8C", "meld AC AD AH", "meld AC AD AH AS",
                          "meld AC AD AS", "meld AC AH AS", "meld AD AH AS"]


def test_gr5_with_gin_every_card_must_be_melded():
    """KC KD KH KS 2C 3C 4C AD 2D 3D has no deadwood: gin, so a set of three Ks (leaving a K
    as deadwood) is not offered."""
    env = setup(knocked("KC KD KH KS 2C 3C 4C AD 2D 3D", [], OPP_HIGH))
    assert env.state_obj.gin
    assert legal(env) == ["meld 2C 3C 4C", "meld AD 2D 3D", "meld KC KD KH KS"]


def test_gr5_gin_is_a_knock_with_no_deadwood():
    hand = "AC 2C 3C 7D 7H 7S JS QS KS 4C 9H"
    env = setup(play_position(hand))
    assert "knock discarding 9H" in env.legal_action_strings()
    play(env, "knock discarding 9H")
    st = env.state_obj
    assert st.gin
    # A-2-3 or 2-3-4 of clubs would leave a club as deadwood: only the four-card run.
    assert legal(env) == ["meld 7D 7H 7S", "meld AC 2C 3C 4C", "meld JS QS KS"]


# --------------------------------------------------------------------------- GR-6 defender
KNOCKER_TABLE = ["7C 7D 7H", "8H 9H 10H", "2S 3S 4S"]
GIN_TABLE = ["7C 7D 7H", "8H 9H 10H", "2C 3C 4C 5C"]
DEFENDER = "7S JH 5S AS 6S KC KD KS 3D 6H"


def defend_position(**extra) -> dict:
    return knocked("5C", KNOCKER_TABLE, DEFENDER, phase="defend", **extra)


def test_gr6_defender_lays_melds_and_lays_off_on_the_knockers_melds():
    env = setup(defend_position())
    assert env.agent_selection == "player_1"
    assert legal(env) == ["done", "lay off 5S on 2", "lay off 7S on 0", "lay off AS on 2",
                          "lay off JH on 1", "meld 5S 6S 7S", "meld KC KD KS"]


def test_gr6_lay_offs_extend_the_meld_so_cards_chain_and_may_target_two_melds():
    env = setup(defend_position())
    play(env, "lay off 5S on 2")
    assert "lay off 6S on 2" in env.legal_action_strings()
    play(env, "lay off 6S on 2")
    # 7S now extends the run 2S-6S and also the set of 7s.
    assert legal(env) == ["done", "lay off 7S on 0", "lay off 7S on 2", "lay off AS on 2",
                          "lay off JH on 1", "meld KC KD KS"]


def test_gr6_no_lay_offs_against_gin():
    env = setup(knocked("", GIN_TABLE, DEFENDER, phase="defend"))
    assert env.state_obj.gin
    # 7S would extend the set of 7s, JH the hearts run: not against gin.
    assert legal(env) == ["done", "meld 5S 6S 7S", "meld KC KD KS"]


# --------------------------------------------------------------------------- GR-7 scoring
def test_gr7_knocker_with_less_deadwood_scores_the_difference():
    env = setup(defend_position())
    for a in ("lay off AS on 2", "lay off 5S on 2", "lay off 6S on 2", "lay off 7S on 2",
              "lay off JH on 1", "meld KC KD KS", "done"):
        play(env, a)
    st = env.state_obj
    # Knocker: 5C = 5; defender: 3D 6H = 9.
    assert st.deadwood == [5, 9] and st.result == "knock" and st.winner == 0
    assert rewards(env) == {"player_0": 4.0, "player_1": -4.0}
    assert st.is_terminal and all(env.terminations.values())


def test_gr7_undercut_scores_the_difference_plus_25():
    env = setup(knocked("5C", KNOCKER_TABLE, "KC KD KS QC QD QS JC JD JS 3D",
                        phase="defend"))
    for a in ("meld KC KD KS", "meld QC QD QS", "meld JC JD JS", "done"):
        play(env, a)
    st = env.state_obj
    assert st.deadwood == [5, 3] and st.result == "undercut" and st.winner == 1
    assert rewards(env) == {"player_0": -27.0, "player_1": 27.0}


def test_gr7_a_tie_is_an_undercut():
    env = setup(knocked("5C", KNOCKER_TABLE, "KC KD KS QC QD QS JC JD JS 5D",
                        phase="defend"))
    for a in ("meld KC KD KS", "meld QC QD QS", "meld JC JD JS", "done"):
        play(env, a)
    st = env.state_obj
    assert st.deadwood == [5, 5] and st.result == "undercut"
    assert rewards(env) == {"player_0": -25.0, "player_1": 25.0}


def test_gr7_gin_scores_25_plus_the_defenders_deadwood():
    env = setup(knocked("", GIN_TABLE, DEFENDER, phase="defend"))
    for a in ("meld KC KD KS", "meld 5S 6S 7S", "done"):
        play(env, a)
    st = env.state_obj
    # Defender's deadwood: JH AS 3D 6H = 10 + 1 + 3 + 6 = 20 (nothing laid off against gin).
    assert st.deadwood == [0, 20] and st.result == "gin"
    assert rewards(env) == {"player_0": 45.0, "player_1": -45.0}


def test_gr7_defender_cards_kept_out_of_melds_count_as_deadwood():
    env = setup(defend_position())
    play(env, "done")
    st = env.state_obj
    assert st.deadwood == [5, 7 + 10 + 5 + 1 + 6 + 30 + 3 + 6]
    assert st.result == "knock"


# --------------------------------------------------------------------------- GR-8 the wall
def rest(*groups: str) -> list[str]:
    """Every card that none of ``groups`` holds (to fill the discard pile: a short stock)."""
    used = {t for g in groups for t in parse_cards(g)}
    return [card_str(t) for t in range(52) if t not in used]


def wall_position(stock: str, **extra) -> dict:
    return play_position(HAND11, stock=stock.split(),
                         discard=rest(HAND11, OPP10, stock), **extra)


def test_gr8_a_discard_that_leaves_two_stock_cards_makes_the_hand_dead():
    env = setup(wall_position("2H 3H"))
    assert len(env.state_obj.stock) == 2
    # Knocking is still allowed at the wall.
    assert "knock discarding 9H" in env.legal_action_strings()
    play(env, "discard 9H")
    st = env.state_obj
    assert st.result == "dead" and st.winner == -1 and st.is_terminal
    assert rewards(env) == {"player_0": 0.0, "player_1": 0.0}


def test_gr8_the_player_at_the_wall_may_knock():
    env = setup(wall_position("2H 3H"))
    play(env, "knock discarding 9H")
    assert env.state_obj.phase == "knock"


def test_gr8_three_stock_cards_left_play_goes_on():
    env = setup(wall_position("2H 3H 4H"))
    play(env, "discard 9H")
    assert env.state_obj.phase == "draw" and env.agent_selection == "player_1"


def test_gr8_a_draw_at_the_wall_is_not_a_position():
    pos = wall_position("2H 3H")
    pos["phase"] = "draw"
    pos["hands"][0].remove("9H")
    pos["discard"].append("9H")
    with pytest.raises(ScenarioError, match="wall"):
        setup(pos)


# --------------------------------------------------------------------------- GR-9 options
@pytest.mark.parametrize("knock_card,expected", [
    (10, ["knock discarding 5D", "knock discarding 9H"]),
    (9, ["knock discarding 5D", "knock discarding 9H"]),
    (8, ["knock discarding 9H"]),
    (5, ["knock discarding 9H"]),
    (4, []),
])
def test_gr9_knock_card(knock_card, expected):
    env = setup(play_position(HAND11), knock_card=knock_card)
    assert env.state_obj.knock_limit == knock_card
    assert [a for a in legal(env) if a.startswith("knock")] == expected


@pytest.mark.parametrize("upcard,limit,expected", [
    ("7H", 7, ["knock discarding 9H"]),
    ("KH", 10, ["knock discarding 5D", "knock discarding 9H"]),
    ("5H", 5, ["knock discarding 9H"]),
    ("AH", 0, []),  # an ace upcard allows only gin
])
def test_gr9_oklahoma_knock_limit_is_the_upcard_value(upcard, limit, expected):
    env = setup(play_position(HAND11, upcard=upcard), oklahoma=True)
    assert env.state_obj.knock_limit == limit
    assert [a for a in legal(env) if a.startswith("knock")] == expected
    obs = env.observe("player_0")["observation"]
    p = env.encoder.layout.pieces["knock_limit"]
    assert list(np.flatnonzero(obs[p.start:p.stop])) == [limit]


def test_gr9_oklahoma_ace_still_allows_gin():
    hand = "AC 2C 3C 7D 7H 7S JS QS KS 4C 9H"
    env = setup(play_position(hand, upcard="AD"), oklahoma=True)
    assert [a for a in legal(env) if a.startswith("knock")] == ["knock discarding 9H"]


def test_gr9_gin_and_undercut_bonuses_are_options():
    env = setup(knocked("5C", KNOCKER_TABLE, "KC KD KS QC QD QS JC JD JS 3D", phase="defend"),
                undercut_bonus=10)
    for a in ("meld KC KD KS", "meld QC QD QS", "meld JC JD JS", "done"):
        play(env, a)
    assert rewards(env) == {"player_0": -12.0, "player_1": 12.0}
    env = setup(knocked("", GIN_TABLE, DEFENDER, phase="defend"), gin_bonus=20)
    play(env, "done")
    assert rewards(env)["player_0"] == 20 + 7 + 10 + 5 + 1 + 6 + 30 + 3 + 6


def test_gr9_game_to_100_plays_hands_until_a_player_reaches_it():
    env = make(game_to=100, episode="game", max_turns=100000)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    st = env.state_obj
    hands = set()
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, r, term, trunc, _ = env.last()
        totals[agent] += r
        if term or trunc:
            env.step(None)
            continue
        hands.add(env.state_obj.deal)
        env.step(_lowest_deadwood_action(env, rng))
    st = env.state_obj
    assert st.is_terminal and max(st.points) >= 100
    assert len(hands) == st.deals_played > 1
    assert totals == {"player_0": -st.scores[0], "player_1": -st.scores[1]}
    assert sum(totals.values()) == 0


def _lowest_deadwood_action(env, rng) -> int:
    """Test player (it reads the position): knock, meld and lay off whenever possible, take
    the discard if it lowers deadwood, discard the card that leaves the least deadwood."""
    ids = env.legal_actions()
    texts = [env.action_to_string(i) for i in ids]
    for prefix in ("knock", "meld", "lay off"):
        hits = [i for i, t in zip(ids, texts) if t.startswith(prefix)]
        if hits:
            return hits[0]
    st = env.state_obj
    hand = st.hands[st.current_player]
    if "take discard" in texts and "draw stock" in texts:
        top = 1 << st.discard[-1]
        best_after = min(deadwood((hand | top) & ~(1 << t))
                         for t in range(52) if (hand | top) >> t & 1 and 1 << t != top)
        take = best_after < deadwood(hand)
        return ids[texts.index("take discard" if take else "draw stock")]
    if texts[0].startswith("discard"):
        scored = [(deadwood(hand & ~(1 << parse_cards(t.split()[1])[0])), i)
                  for i, t in zip(ids, texts)]
        return min(scored)[1]
    return ids[rng.integers(len(ids))]


def test_gr9_one_hand_is_the_game_by_default():
    env = make()
    assert env.rules.game_to == 0 and env.rules.num_deals == 1
    with pytest.raises(RuleConfigError, match="game_to"):
        make(game_to=-1)


@pytest.mark.parametrize("option,value", [
    ("knock_card", 0), ("knock_card", 11), ("oklahoma", 1), ("gin_bonus", -5),
    ("undercut_bonus", 2.5), ("wall", 31), ("max_players", 3),
])
def test_gr9_bad_options_name_the_field(option, value):
    with pytest.raises(RuleConfigError, match=option):
        make(**{option: value})
