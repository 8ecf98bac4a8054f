"""Rule tests of May I? (RULES section 4, MI-1..MI-6).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact scores/rewards.
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env.contract.rules import CONTRACT_RUMMY, MAY_I
from rummy_env.errors import IllegalActionError

VARIANT = "may_i"


def setup(scenario: dict, num_players: int = 3, seed: int = 0, variant: str = VARIANT,
          **options):
    env = rummy_env.make(variant, num_players=num_players, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def discards(cards: str) -> list[str]:
    return [f"discard {c}" for c in dict.fromkeys(cards.split())]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


# --------------------------------------------------------------------------- MI-1 decks
@pytest.mark.parametrize("n", [3, 4])
def test_mi1_two_packs_and_four_jokers_for_3_or_4_players(n):
    env = rummy_env.make(VARIANT, num_players=n)
    env.reset(seed=2)
    g = env.game
    assert (g.packs, g.num_jokers, g.total_cards) == (2, 4, 108)
    assert list(g.deck) == [2] * 52 + [4]
    st = env.state_obj
    assert st.zone_counts() == [2] * 52 + [4]
    assert [st.hand_size(s) for s in range(n)] == [10] * n
    assert len(st.stock) == 108 - 10 * n - 1


def test_mi1_three_packs_and_six_jokers_for_5_players():
    env = rummy_env.make(VARIANT, num_players=5)
    env.reset(seed=2)
    g = env.game
    assert (g.packs, g.num_jokers, g.total_cards) == (3, 6, 162)
    assert list(g.deck) == [3] * 52 + [6]
    assert env.state_obj.zone_counts() == [3] * 52 + [6]
    assert MAY_I.decks == ((3, 2, 4), (4, 2, 4), (5, 3, 6))


def test_mi1_scenario_may_place_four_jokers_and_two_of_each_card():
    env = setup({"deal": 1, "dealer": 2, "to_move": 0,
                 "hands": [["JK", "JK", "JK", "JK", "7H", "7H"], [], []]})
    assert env.state_obj.zone_counts() == [2] * 52 + [4]


# --------------------------------------------------------------------------- MI-2 sizes
def test_mi2_contract_sets_may_hold_more_than_three():
    hand = "7C 7C 7D 7H 7S 9C 9D 9H 2S 4S KD".split()
    env = setup({"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, [], []]})
    assert legal(env) == sorted(
        ["meld set 7x3", "meld set 7x4", "meld set 7x5", "meld set 9x3"]
        + discards(" ".join(hand)))
    play(env, "meld set 7x5")
    assert legal(env) == ["meld set 9x3"]
    play(env, "meld set 9x3")
    st = env.state_obj
    assert st.melded[0]
    assert sorted(len(m.cards) for m in st.table) == [3, 5]
    assert sorted(env.get_state()["hands"][0]) == sorted(["2S", "4S", "KD"])


def test_mi2_contract_set_with_jokers_beyond_the_minimum():
    hand = "7C 7D JK JK 9C 9D 9H 2S 4S KD QC".split()
    env = setup({"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, [], []]})
    # one natural per set at least (CR-4); the two jokers fill sets beyond three, but the
    # other set must stay completable: 9x5 would leave 7C 7D no joker; one natural and two
    # jokers (2x3, 4x3, Kx3, Qx3) go with 9x3.
    assert legal(env) == sorted(
        ["meld set 2x3", "meld set 4x3", "meld set 7x3", "meld set 7x4", "meld set 9x3",
         "meld set 9x4", "meld set Kx3", "meld set Qx3"]
        + discards(" ".join(hand)))


def test_mi2_contract_run_of_six():
    hand = "3H 4H 5H 6H 7H 8H QC QD QS 2C KD".split()
    env = setup({"deal": 2, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, [], []]})
    assert legal(env) == sorted(
        ["meld run H 3-6", "meld run H 3-7", "meld run H 3-8", "meld run H 4-7",
         "meld run H 4-8", "meld run H 5-8", "meld set Qx3"]
        + discards(" ".join(hand)))
    play(env, "meld run H 3-8")
    play(env, "meld set Qx3")
    st = env.state_obj
    assert st.melded[0]
    assert [len(m.cards) for m in st.table] == [6, 3]
    # CR-5 applies otherwise: no lay-off on the meld turn
    assert legal(env) == ["discard 2C", "discard KD"]


# --------------------------------------------------------------------------- MI-3 no swaps
@pytest.mark.parametrize("n", [3, 4, 5])
def test_mi3_no_swap_actions_exist(n):
    env = rummy_env.make(VARIANT, num_players=n)
    texts = [env.action_to_string(i) for i in range(env.action_space("player_0").n)]
    assert not any(t.startswith("swap") for t in texts)
    with pytest.raises(IllegalActionError):
        env.string_to_action("swap 5H for joker on 0")
    assert MAY_I.joker_swap is False


def test_mi3_joker_in_a_run_is_never_taken_back():
    scen = {"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
            "hands": [["5H", "2C", "KD"], [], []],
            "table": [{"owner": 1, "cards": ["AH", "2H", "JK", "4H"], "wilds": ["3H"]},
                      {"owner": 0, "cards": ["9C", "9D", "9S"]},
                      {"owner": 0, "cards": ["QC", "QD", "QS"]}],
            "melded": [0, 1]}
    env = setup(scen)
    assert legal(env) == ["discard 2C", "discard 5H", "discard KD", "lay off 5H on 0"]
    # Under Contract Rummy the same position offers the swap (CR-8), so MI-3 is what removes it.
    env = setup(dict(scen, hands=[["3H", "2C", "KD"], [], []]))
    assert legal(env) == ["discard 2C", "discard 3H", "discard KD"]
    cr = setup(dict(scen, hands=[["3H", "2C", "KD"], [], []]), variant="contract_rummy")
    assert "swap 3H for joker on 0" in cr.legal_action_strings()


# --------------------------------------------------------------------------- MI-4 contiguity
def test_mi4_contiguous_runs_of_one_suit_allowed_in_deal_3():
    hand = "3H 4H 5H 6H 7H 8H 9H 10H 2C KD QS".split()
    scen = {"deal": 3, "dealer": 2, "to_move": 0, "phase": "play", "hands": [hand, [], []]}
    env = setup(scen)
    assert legal(env) == sorted(["meld run H 3-6", "meld run H 7-10"]
                                + discards(" ".join(hand)))
    play(env, "meld run H 3-6")
    assert legal(env) == ["meld run H 7-10"]
    play(env, "meld run H 7-10")
    assert env.state_obj.melded[0]
    # Contract Rummy's CR-9 forbids exactly this contract
    cr = setup(scen, variant="contract_rummy")
    assert legal(cr) == sorted(discards(" ".join(hand)))


@pytest.mark.parametrize("deal", [6, 7])
def test_mi4_no_contiguity_rule_in_deals_6_and_7(deal):
    assert MAY_I.contiguity_deals == ()
    if deal == 6:  # one set + two runs
        hand = "3H 4H 5H 6H 7H 8H 9H 10H QC QD QS 2C KD".split()
        expect = ["meld run H 3-6", "meld run H 7-10", "meld set Qx3"]
    else:  # three runs
        hand = "3H 4H 5H 6H 7H 8H 9H 10H 4S 5S 6S 7S 2C".split()
        expect = ["meld run H 3-6", "meld run H 7-10", "meld run S 4-7"]
    env = setup({"deal": deal, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, [], []]})
    assert legal(env) == sorted(expect + discards(" ".join(hand)))


# --------------------------------------------------------------------------- MI-5 deal 7
def test_mi5_deal_7_is_ordinary():
    assert MAY_I.whole_hand_deals == ()
    assert CONTRACT_RUMMY.whole_hand_deals == (7,)
    hand = "2H 3H 4H 5H 8C 9C 10C JC 3S 4S 5S 6S KD".split()
    env = setup({"deal": 7, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, ["AC"], ["2D"]]})
    # need not meld the whole hand (KD stays); runs are exactly 4 here (no longer runs possible)
    assert legal(env) == sorted(["meld run C 8-J", "meld run H 2-5", "meld run S 3-6"]
                                + discards(" ".join(hand)))
    play(env, "meld run H 2-5")
    play(env, "meld run C 8-J")
    play(env, "meld run S 3-6")
    st = env.state_obj
    assert st.melded[0] and not st.is_deal_over and st.phase == "play"
    assert legal(env) == ["discard KD"]
    play(env, "discard KD")  # the last card: out by discarding, as in other deals
    assert st.went_out == 0 and st.phase == "game_over"
    assert st.last_deal_delta == [0, 15, 2]


def test_mi5_deal_7_play_goes_on_with_discards():
    hand = "2H 3H 4H 5H 8C 9C 10C JC 3S 4S 5S 6S KD QD".split()
    env = setup({"deal": 7, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [hand, ["AC", "2C"], ["2D", "3D"]]})
    for m in ("meld run H 2-5", "meld run C 8-J", "meld run S 3-6"):
        play(env, m)
    assert legal(env) == ["discard KD", "discard QD"]
    play(env, "discard QD")
    st = env.state_obj
    assert not st.is_deal_over
    assert st.phase == "draw" and st.to_move == 1


# --------------------------------------------------------------------------- MI-6 scoring
def test_mi6_joker_counts_25():
    assert MAY_I.joker_points == 25
    env = setup({"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [["9S"], ["JK", "AS", "KD", "5C"], ["JK", "JK", "2H"]],
                 "table": [{"owner": 0, "cards": ["8C", "8D", "8H"]},
                           {"owner": 0, "cards": ["QC", "QD", "QS"]}]})
    assert legal(env) == ["discard 9S"]
    play(env, "discard 9S")
    st = env.state_obj
    assert st.went_out == 0 and st.is_deal_over
    assert st.last_deal_delta == [0, 25 + 15 + 10 + 5, 25 + 25 + 2]
    assert st.scores == [0, 55, 52]
    assert env.rewards == pytest.approx({"player_0": 0.0, "player_1": -0.55,
                                         "player_2": -0.52})
    assert all(env.terminations.values())
