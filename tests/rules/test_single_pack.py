"""Rule tests of Contract Rummy, single-pack rules (RULES section 2, SP-1..SP-5).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact counts/scores.
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env.cards import JOKER, parse_card
from rummy_env.contract.rules import CONTRACT_RUMMY_SINGLE_PACK
from rummy_env.errors import IllegalActionError, ScenarioError

VARIANT = "contract_rummy_single_pack"


def make(num_players: int = 4, **options):
    return rummy_env.make(VARIANT, num_players=num_players, **options)


def setup(scenario: dict, num_players: int = 4, seed: int = 0, **options):
    env = make(num_players, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def discards(cards: str) -> list[str]:
    return [f"discard {c}" for c in cards.split()]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def hand_of(env, seat: int) -> list[str]:
    return sorted(env.get_state()["hands"][seat])


# --------------------------------------------------------------------------- SP-1 cards
@pytest.mark.parametrize("n", [3, 4])
def test_sp1_one_pack_and_one_joker_for_3_or_4_players(n):
    env = make(n)
    env.reset(seed=1)
    assert env.game.packs == 1 and env.game.num_jokers == 1
    assert env.game.total_cards == 53
    assert list(env.game.deck) == [1] * 53
    assert env.state_obj.zone_counts() == [1] * 53


def test_sp1_two_packs_and_two_jokers_for_5_players():
    env = make(5)
    env.reset(seed=1)
    assert env.game.packs == 2 and env.game.num_jokers == 2
    assert env.game.total_cards == 106
    assert list(env.game.deck) == [2] * 52 + [2]
    assert env.state_obj.zone_counts() == [2] * 53


def test_sp1_rules_field_decks():
    assert CONTRACT_RUMMY_SINGLE_PACK.decks == ((3, 1, 1), (4, 1, 1), (5, 2, 2))


@pytest.mark.parametrize("deal", [5, 6, 7])
def test_sp1_four_players_12_card_deal_leaves_4_card_stock(deal):
    env = make(4, deal=deal)
    env.reset(seed=3)
    st = env.state_obj
    assert [st.hand_size(s) for s in range(4)] == [12] * 4
    assert len(st.discard) == 1  # the up-card
    assert len(st.stock) == 4
    assert st.zone_counts() == [1] * 53


def test_sp1_reshuffle_keeps_the_12_card_deal_going():
    """SP-1 + C-7: after the 4-card stock runs out, the discards but the top are reshuffled."""
    env = make(4, deal=5)
    env.reset(seed=3)
    st = env.state_obj
    for _ in range(4):
        assert st.phase == "draw"
        seat = st.to_move
        before = list(st.hands[seat])
        play(env, "draw stock")
        drawn = next(t for t in range(53) if st.hands[seat][t] > before[t])
        # discard the card just drawn (never forbidden: it came from the stock)
        env.step(env.layout.encode(("discard", drawn)))
    assert len(st.stock) == 0
    assert len(st.discard) == 5
    top = st.discard[-1]
    below = sorted(st.discard[:-1])
    assert st.phase == "draw" and not st.is_deal_over
    assert "draw stock" in env.legal_action_strings()
    seat = st.to_move
    before = list(st.hands[seat])
    play(env, "draw stock")
    assert st.phase == "play"
    # the four discards below the top formed the new stock, and its top card was drawn
    drawn = next(t for t in range(53) if st.hands[seat][t] > before[t])
    assert sorted(st.stock + [drawn]) == below
    assert st.discard == [top]
    assert st.zone_counts() == [1] * 53


# --------------------------------------------------------------------------- SP-2 hand sizes
@pytest.mark.parametrize("deal,size", [(1, 10), (2, 10), (3, 10), (4, 10), (5, 12), (6, 12),
                                       (7, 12)])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_sp2_hand_sizes(deal, size, n):
    env = make(n, deal=deal)
    env.reset(seed=deal)
    st = env.state_obj
    assert [st.hand_size(s) for s in range(n)] == [size] * n
    assert len(st.stock) == env.game.total_cards - size * n - 1


def test_sp2_rules_hand_sizes_and_contracts():
    r = CONTRACT_RUMMY_SINGLE_PACK
    assert r.hand_sizes == (10, 10, 10, 10, 12, 12, 12)
    assert [(len(c.sets), len(c.runs)) for c in r.contracts] == [
        (2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert all(s == 3 for c in r.contracts for s in c.sets + c.runs)


# --------------------------------------------------------------------------- SP-3 melds
def test_sp3_sets_of_3_or_4_only_and_contract_may_exceed_minimum():
    hand = "7C 7D 7H 7S JK 9C 9D 9H 2S 4S KD".split()
    env = setup({"deal": 1, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(
        ["meld set 7x3", "meld set 7x4", "meld set 9x3", "meld set 9x4"]
        + discards("7C 7D 7H 7S JK 9C 9D 9H 2S 4S KD"))
    # no set of 5 exists at all (SP-3: 3 or 4 cards)
    with pytest.raises(IllegalActionError):
        env.string_to_action("meld set 7x5")


def test_sp3_no_lay_off_making_a_set_of_5():
    env = setup({"deal": 1, "dealer": 3, "to_move": 1, "phase": "play",
                 "hands": [[], ["JK", "2C", "KD"], [], []],
                 "table": [{"owner": 0, "cards": ["7C", "7D", "7H", "7S"]},
                           {"owner": 0, "cards": ["9C", "9D", "9H"]}],
                 "melded": [0, 1]})
    # JK may go on the 3-card set (as 9S) but not on the 4-card set
    assert legal(env) == sorted(["lay off JK on 1"] + discards("JK 2C KD"))


def test_sp3_five_players_no_two_cards_of_one_suit_in_a_set():
    # Two packs: 7C 7C 7D and 9C 9C 9D are not sets (suits repeat); 5C 5D 5H is.
    hand = "7C 7C 7D 9C 9C 9D 5C 5D 5H QS KS".split()
    env = setup({"deal": 1, "dealer": 4, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], [], []]}, num_players=5)
    assert legal(env) == sorted(discards("7C 7D 9C 9D 5C 5D 5H QS KS"))
    # With a joker standing for the missing suit, 7x3 and 9x3 become possible (7C 7D JK)
    hand2 = "7C 7C 7D 9C 9C 9D JK JK QH QS KS".split()
    env = setup({"deal": 1, "dealer": 4, "to_move": 0, "phase": "play",
                 "hands": [hand2, [], [], [], []]}, num_players=5)
    # two jokers: any two of 7x3, 9x3, Qx3 (a set of four would leave the other set no joker)
    assert legal(env) == sorted(
        ["meld set 7x3", "meld set 9x3", "meld set Qx3"]
        + discards("7C 7D 9C 9D JK QH QS KS"))


def test_sp3_five_players_no_lay_off_of_a_repeated_suit():
    env = setup({"deal": 1, "dealer": 4, "to_move": 1, "phase": "play",
                 "hands": [[], ["7C", "7S", "2D"], [], [], []],
                 "table": [{"owner": 0, "cards": ["7C", "7D", "7H"]}],
                 "melded": [0, 1]}, num_players=5)
    assert legal(env) == sorted(["lay off 7S on 0"] + discards("7C 7S 2D"))


def test_sp3_a_jokers_stated_suit_counts_in_a_set():
    # JK stands for 7H: 7H may not join, 7S may (5 players: two packs, so 7H exists twice).
    env = setup({"deal": 1, "dealer": 4, "to_move": 1, "phase": "play",
                 "hands": [[], ["7H", "7S", "2D"], [], [], []],
                 "table": [{"owner": 0, "cards": ["7C", "7D", "JK"], "wilds": ["7H"]}],
                 "melded": [0, 1]}, num_players=5)
    assert legal(env) == sorted(["lay off 7S on 0"] + discards("7H 7S 2D"))


def test_sp3_a_joker_may_not_state_a_suit_already_in_the_set():
    with pytest.raises(ScenarioError):
        setup({"deal": 1, "dealer": 4, "to_move": 1,
               "hands": [[], ["7S", "2D"], [], [], []],
               "table": [{"owner": 0, "cards": ["7C", "7D", "JK"], "wilds": ["7C"]}]},
              num_players=5)


def test_sp3_joker_in_a_contract_set_takes_a_free_suit():
    # 5 players: 7C 7C JK is no set (only two suits can be filled: 7C and the joker); the one
    # joker can complete 9C 9D 9H to four or QD QH to three, not both.
    env = setup({"deal": 1, "dealer": 4, "to_move": 0, "phase": "play",
                 "hands": [["7C", "7C", "JK", "9C", "9D", "9H", "2S", "4S", "KD", "QD", "QH"],
                           [], [], [], []]}, num_players=5)
    assert legal(env) == sorted(
        ["meld set 9x3", "meld set Qx3"]
        + discards("7C JK 9C 9D 9H 2S 4S KD QD QH"))


def test_sp3_runs_of_3_or_more_and_contract_may_exceed_minimum():
    # Deal 2: one set + one run, both of 3 or more (SP-3).
    hand = "4H 5H 6H 7H 9C 9D 9S 2C KD QS JC".split()
    env = setup({"deal": 2, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(
        ["meld run H 4-6", "meld run H 4-7", "meld run H 5-7", "meld set 9x3"]
        + discards(" ".join(hand)))
    play(env, "meld run H 4-7")
    assert legal(env) == ["meld set 9x3"]  # a started contract must be finished
    play(env, "meld set 9x3")
    st = env.state_obj
    assert st.melded[0]
    assert [len(m.cards) for m in st.table] == [4, 3]


def test_sp3_runs_of_one_contract_must_be_of_different_suits():
    # Deal 3: two runs. Two heart runs (2-4 and 8-10) are not a contract.
    hand = "2H 3H 4H 8H 9H 10H 5C 6C QS KD JS".split()
    env = setup({"deal": 3, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(discards(" ".join(hand)))
    hand = "2H 3H 4H 8H 9H 10H 5C 6C 7C QS KD".split()
    env = setup({"deal": 3, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(
        ["meld run C 5-7", "meld run H 2-4", "meld run H 8-10"] + discards(" ".join(hand)))
    play(env, "meld run H 2-4")
    assert legal(env) == ["meld run C 5-7"]


def test_sp3_aces_high_or_low_in_runs_of_three():
    hand = "QS KS AS 2D 3D 9C 9D 9H 5C 7H JD".split()
    env = setup({"deal": 2, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    # Q-K-A and A-2-3 are runs (C-3); K-A-2 round the corner is not; AS/AD alone no run
    assert legal(env) == sorted(["meld run S Q-A", "meld set 9x3"] + discards(" ".join(hand)))
    hand = "AD 2D 3D 9C 9D 9H 5C 7H JD QS KC".split()
    env = setup({"deal": 2, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(["meld run D A-3", "meld set 9x3"] + discards(" ".join(hand)))


# --------------------------------------------------------------------------- SP-4 digging
def _dig_unmelded(discard):
    return setup({"deal": 1, "dealer": 3, "to_move": 0,
                  "hands": [["7C", "7H", "9C", "9D", "9H", "3S", "5S", "JD", "QH", "4C"],
                            [], [], []],
                  "discard": discard})


def test_sp4_dig_offered_only_if_the_deepest_card_fits_the_contract():
    env = _dig_unmelded(["7D", "2S", "KC"])
    # depth 3 takes 7D (7C 7H 7D is a set; 9s the other); depth 2's deepest 2S fits nothing
    assert legal(env) == ["draw stock", "take discard", "take discards 3"]


def test_sp4_dig_obligation_blocks_discards_until_the_card_is_melded():
    env = _dig_unmelded(["7D", "2S", "KC"])
    play(env, "take discards 3")
    st = env.state_obj
    assert hand_of(env, 0) == sorted(
        "7C 7H 9C 9D 9H 3S 5S JD QH 4C 7D 2S KC".split())
    assert st.obligation == parse_card("7D")
    assert legal(env) == ["meld set 7x3", "meld set 9x3"]
    play(env, "meld set 9x3")
    assert legal(env) == ["meld set 7x3"]
    play(env, "meld set 7x3")
    assert st.obligation == -1
    # SP-4: one who took several cards may discard any of the others, the top one (KC) included
    assert legal(env) == sorted(discards("3S 5S JD QH 4C 2S KC"))


def test_sp4_unmelded_dig_needs_the_card_in_the_contract_not_a_later_lay_off():
    # player_0 could meld two sets and then lay 5H off on player_1's run, but SP-4 asks that the
    # contract itself hold the dug card: no dig of depth 2.
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["8C", "8D", "8S", "9C", "9D", "9H", "3S", "5S", "JD", "QC"],
                           ["2C"], [], []],
                 "table": [{"owner": 1, "cards": ["2H", "3H", "4H"]},
                           {"owner": 1, "cards": ["KC", "KD", "KH"]}],
                 "discard": ["5H", "2D"]})
    assert legal(env) == ["draw stock", "take discard"]


def test_sp4_melded_dig_needs_a_lay_off_of_the_deepest_card():
    scen = {"deal": 1, "dealer": 3, "to_move": 0,
            "hands": [["2C", "5D", "9H", "JS"], [], [], []],
            "table": [{"owner": 0, "cards": ["8C", "8D", "8H"]},
                      {"owner": 0, "cards": ["KC", "KD", "KH"]}],
            "discard": ["8S", "4D", "QC"]}
    env = setup(scen)
    assert legal(env) == ["draw stock", "take discard", "take discards 3"]
    play(env, "take discards 3")
    assert legal(env) == ["lay off 8S on 0"]  # no discard until 8S is on the table
    play(env, "lay off 8S on 0")
    assert legal(env) == sorted(discards("2C 5D 9H JS 4D QC"))


def test_sp4_melded_dig_through_a_chain_of_lay_offs():
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["5H", "2D", "KS", "QS"], [], [], []],
                 "table": [{"owner": 0, "cards": ["2H", "3H", "4H"]},
                           {"owner": 0, "cards": ["JC", "JD", "JH"]}],
                 "discard": ["6H", "3C"]})
    assert legal(env) == ["draw stock", "take discard", "take discards 2"]
    play(env, "take discards 2")
    assert env.state_obj.obligation == parse_card("6H")
    # 6H needs 5H first; laying off anything else (nothing else fits) is not offered
    assert legal(env) == ["lay off 5H on 0"]
    play(env, "lay off 5H on 0")
    assert legal(env) == ["lay off 6H on 0"]
    play(env, "lay off 6H on 0")
    assert legal(env) == sorted(discards("2D KS QS 3C"))


def test_sp4_dug_cards_above_the_deepest_may_help_place_it():
    # Run 2H-4H on the table; pile 9C 6H 5H (top). Digging 2 takes 5H and 6H: 5H then 6H go on
    # the run. Digging 3 (deepest 9C) is not offered: 9C fits nowhere.
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["2D", "KS"], [], [], []],
                 "table": [{"owner": 0, "cards": ["2H", "3H", "4H"]},
                           {"owner": 0, "cards": ["JC", "JD", "JH"]}],
                 "discard": ["9C", "6H", "5H"]})
    assert legal(env) == ["draw stock", "take discard", "take discards 2"]
    play(env, "take discards 2")
    assert legal(env) == ["lay off 5H on 0"]
    play(env, "lay off 5H on 0")
    assert legal(env) == ["lay off 6H on 0"]
    play(env, "lay off 6H on 0")
    assert legal(env) == sorted(discards("2D KS"))


def test_sp4_unmelded_dig_with_the_other_dug_card_in_the_contract():
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": ["7C 9C 9D 9H 2S 4S KD QH JD 3C".split(), [], [], []],
                 "discard": ["7D", "7S"]})
    assert legal(env) == ["draw stock", "take discard", "take discards 2"]
    play(env, "take discards 2")
    assert legal(env) == ["meld set 7x3", "meld set 9x3"]


def test_sp4_dug_card_placed_by_a_joker_swap():
    """SP-5: jokers as CR-8; the dug 3H goes on the table by replacing the joker standing for it,
    and the freed joker must then be laid off before the discard."""
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["2D", "KS"], [], [], []],
                 "table": [{"owner": 0, "cards": ["2H", "JK", "4H"], "wilds": ["3H"]},
                           {"owner": 0, "cards": ["JC", "JD", "JH"]}],
                 "discard": ["3H", "9C"]})
    assert legal(env) == ["draw stock", "take discard", "take discards 2"]
    play(env, "take discards 2")
    assert legal(env) == ["swap 3H for joker on 0"]
    play(env, "swap 3H for joker on 0")
    assert legal(env) == ["lay off JK low on 0", "lay off JK on 0", "lay off JK on 1"]
    play(env, "lay off JK on 1")
    assert legal(env) == sorted(discards("2D KS 9C"))


def test_sp4_no_dig_whose_only_placement_frees_a_joker_with_nowhere_to_go():
    """SP-4 with CR-8: the dug 7H could replace the joker standing for it, but that joker would
    then have to be laid off and every meld is full (a 14-card run, sets of four): the swap is
    a dead end, so the dig is not offered (the rules audit found it offered, leaving no legal
    action after it). With room for the joker the same dig is offered."""
    run = ["AH", "2H", "3H", "4H", "5H", "6H", "JK", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    table = [{"owner": 1, "cards": run, "wilds": ["7H"]},
             {"owner": 0, "cards": ["9C", "9D", "9H", "9S"]},
             {"owner": 0, "cards": ["10C", "10D", "10H", "10S"]},
             {"owner": 1, "cards": ["QC", "QD", "QS", "JK"], "wilds": ["QH"]}]
    scen = {"deal": 2, "dealer": 4, "to_move": 0,
            "hands": [["2C", "3D"], ["4C"], ["4D"], ["4S"], ["5S"]],
            "table": table, "melded": [0, 1], "discard": ["7H", "KC"], "discarders": [3, 4],
            "turn": {"number": 9, "melded_turn": [1, 2, -1, -1, -1]}}
    env = setup(scen, num_players=5)
    assert legal(env) == ["draw stock", "take discard"]
    # A set of three of 9s instead of four: now the freed joker has a place.
    scen["table"][1] = {"owner": 0, "cards": ["9C", "9D", "9H"]}
    scen["hands"][1] = ["4C", "9S"]
    env = setup(scen, num_players=5)
    assert legal(env) == ["draw stock", "take discard", "take discards 2"]
    play(env, "take discards 2")
    assert legal(env) == ["swap 7H for joker on 0"]
    play(env, "swap 7H for joker on 0")
    assert legal(env) == ["lay off JK on 1"]


def test_sp4_taking_only_the_top_discard_forbids_discarding_it():
    env = _dig_unmelded(["7D", "2S", "KC"])
    play(env, "take discard")
    assert env.state_obj.forbidden == parse_card("KC")
    assert env.state_obj.obligation == -1
    assert legal(env) == sorted(discards("7C 7H 9C 9D 9H 3S 5S JD QH 4C"))
    assert "discard KC" not in env.legal_action_strings()


def test_sp4_taking_the_top_discard_has_no_meld_obligation():
    # Taking only the top card (7D here) creates no obligation: melding is optional.
    env = _dig_unmelded(["2S", "KC", "7D"])
    play(env, "take discard")
    assert legal(env) == sorted(["meld set 7x3", "meld set 9x3"]
                                + discards("7C 7H 9C 9D 9H 3S 5S JD QH 4C"))


def test_sp4_forbidden_card_may_be_discarded_when_it_is_all_the_hand_holds():
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["4C"], ["2H", "3H"], ["JK", "AD"], ["KD"]],
                 "table": [{"owner": 0, "cards": ["AC", "2C", "3C"]},
                           {"owner": 0, "cards": ["QC", "QD", "QH"]}],
                 "discard": ["AS", "5D"]})
    play(env, "take discard")
    assert legal(env) == ["discard 4C", "lay off 4C on 0"]
    play(env, "lay off 4C on 0")
    assert legal(env) == ["discard 5D"]  # the only card left: the exception applies
    play(env, "discard 5D")
    st = env.state_obj
    assert st.went_out == 0 and st.is_deal_over
    # SP-5: scoring as CR-12 (joker 15, ace 15, K 10, 2-10 face value)
    assert st.last_deal_delta == [0, 5, 30, 10]
    assert env.rewards == pytest.approx(
        {"player_0": 0.0, "player_1": -0.05, "player_2": -0.3, "player_3": -0.1})


# --------------------------------------------------------------------------- SP-5
def test_sp5_no_claim_or_pass_actions_exist():
    for n in (3, 4, 5):
        env = make(n)
        texts = [env.action_to_string(i) for i in range(env.action_space("player_0").n)]
        assert "claim" not in texts and "pass" not in texts
        with pytest.raises(IllegalActionError):
            env.string_to_action("claim")
        with pytest.raises(IllegalActionError):
            env.string_to_action("pass")


def test_sp5_claim_phase_scenario_is_rejected():
    """No May I? in this variant: a scenario in phase 'claim' is inconsistent (ScenarioError),
    not a position whose legal actions have no action id."""
    env = make(4)
    with pytest.raises(ScenarioError):
        env.reset(seed=0, options={"scenario": {
            "deal": 1, "dealer": 3, "to_move": 0, "phase": "claim",
            "turn": {"claim_queue": [1]}, "discard": ["7H", "8H"]}})


def test_sp5_drawing_from_the_stock_opens_no_claim_window():
    env = setup({"deal": 1, "dealer": 3, "to_move": 0,
                 "hands": [["2C", "5D", "9H", "JS", "4C", "6D", "8H", "10S", "QC", "KD"],
                           ["3C", "3D", "3H", "4D", "5C", "6C", "7D", "8D", "9D", "10D"],
                           [], []],
                 "discard": ["AS", "3S"]})
    assert legal(env) == ["draw stock", "take discard"]
    play(env, "draw stock")
    st = env.state_obj
    assert st.phase == "play" and st.current_player == 0
    assert env.agent_selection == "player_0"


def test_sp5_lay_offs_allowed_on_the_turn_of_the_contract_meld():
    hand = "7C 7D 7H 9C 9D 9H 5H KS QS JD 2C".split()
    env = setup({"deal": 1, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, ["AC"], [], []],
                 "table": [{"owner": 1, "cards": ["2H", "3H", "4H"]},
                           {"owner": 1, "cards": ["KC", "KD", "KH"]}]})
    assert legal(env) == sorted(["meld set 7x3", "meld set 9x3"] + discards(" ".join(hand)))
    play(env, "meld set 7x3")
    play(env, "meld set 9x3")
    assert env.state_obj.melded[0]
    assert legal(env) == sorted(["lay off 5H on 0", "lay off KS on 1"]
                                + discards("5H KS QS JD 2C"))
    play(env, "lay off KS on 1")
    play(env, "lay off 5H on 0")
    assert legal(env) == sorted(discards("QS JD 2C"))


def test_sp5_deal_7_is_whole_hand_by_default():
    assert CONTRACT_RUMMY_SINGLE_PACK.whole_hand_deals == (7,)
    # A stray KD: the three runs cannot take the whole hand, so no meld is legal (CR-13).
    hand = "2H 3H 4H 5H 6H 8C 9C 10C JC 3S 4S 5S KD".split()
    env = setup({"deal": 7, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, [], [], []]})
    assert legal(env) == sorted(discards(" ".join(hand)))
    # Thirteen cards in three runs: only the whole-hand runs are offered; melding them ends it.
    hand = "2H 3H 4H 5H 6H 8C 9C 10C JC 3S 4S 5S 6S".split()
    env = setup({"deal": 7, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": [hand, ["KD", "QD"], ["JK"], ["AC"]]})
    assert legal(env) == sorted(["meld run C 8-J", "meld run H 2-6", "meld run S 3-6"]
                                + discards(" ".join(hand)))
    play(env, "meld run H 2-6")
    assert legal(env) == ["meld run C 8-J", "meld run S 3-6"]
    play(env, "meld run S 3-6")
    play(env, "meld run C 8-J")
    st = env.state_obj
    assert st.went_out == 0 and st.phase == "game_over"
    assert all(env.terminations.values())


def test_sp5_whole_hand_meld_scores_the_deal_once():
    """CR-12/CR-13: going out by the whole-hand meld scores each other hand once."""
    hand = "2H 3H 4H 5H 6H 8C 9C 10C JC 3S 4S 5S 6S".split()
    env = setup({"deal": 7, "dealer": 3, "to_move": 0, "phase": "play",
                 "scores": [100, 0, 0, 0],
                 "hands": [hand, ["KD", "QD"], ["JK"], ["AC"]]})
    for m in ("meld run H 2-6", "meld run S 3-6", "meld run C 8-J"):
        play(env, m)
    st = env.state_obj
    assert st.last_deal_delta == [0, 20, 15, 15]
    assert st.scores == [100, 20, 15, 15]
    assert st.deals_played == 7
    assert env.rewards == pytest.approx(
        {"player_0": 0.0, "player_1": -0.2, "player_2": -0.15, "player_3": -0.15})


def test_sp5_whole_hand_deal_off_with_option():
    env = setup({"deal": 7, "dealer": 3, "to_move": 0, "phase": "play",
                 "hands": ["2H 3H 4H 5H 6H 8C 9C 10C JC 3S 4S 5S KD".split(), [], [], []]},
                whole_hand_deals=())
    assert env.rules.whole_hand_deals == ()
    runs_h = ["meld run H 2-4", "meld run H 2-5", "meld run H 2-6", "meld run H 3-5",
              "meld run H 3-6", "meld run H 4-6"]
    runs_c = ["meld run C 8-10", "meld run C 8-J", "meld run C 9-J"]
    assert legal(env) == sorted(
        runs_h + runs_c + ["meld run S 3-5"]
        + discards("2H 3H 4H 5H 6H 8C 9C 10C JC 3S 4S 5S KD"))
    play(env, "meld run H 2-6")
    play(env, "meld run C 8-J")
    play(env, "meld run S 3-5")
    st = env.state_obj
    assert st.melded[0] and not st.is_deal_over
    assert legal(env) == ["discard KD"]
    assert JOKER not in [t for m in st.table for t in m.cards]
