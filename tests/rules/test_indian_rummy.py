"""Rule tests of Indian Rummy / Paplu (RULES section 8, IR-1..IR-12).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact payments and
rewards (``reward_scale=1``: a reward is the settlement itself).
"""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.cards import card_str, counts_to_list, parse_cards
from rummy_env.errors import RuleConfigError

VARIANT = "indian_rummy"

# IR-9's worked example (5s wild): a first life (10H-KH) and no second: pays 43.
WORKED = "10H JH QH KH 7S 8S 8D 4C 4D 4S 4S 2D 2D"
# The same with a wild card in place of 8D: 7S 8S JK is a second life, the 4s a set: pays 8.
WORKED_WILD = "10H JH QH KH 7S 8S JK 4C 4D 4S 4S 2D 2D"
# No meld at all with 5s wild: every card counts, 10+3+7+9+10+10 + 2+4+6+8+10+10 + 3 = 92.
NOTHING = "AC 3C 7C 9C JC KC 2S 4D 6D 8D 10D QD 3H"
# A valid 13 (IR-6) with no wild card: pure runs 6S-9S, JD-KD, 2H-4H and the set of 9s.
VALID13 = "6S 7S 8S 9S JD QD KD 9H 9C 9D 2H 3H 4H"
# Thirteen cards of a later packer, face down out of play (IR-7).
PACKED13 = "AD 3D 7D JS QS KS 10S 6C 8C 10C QC 6H 7H"


def make(num_players: int = 4, **options):
    return rummy_env.make(VARIANT, num_players=num_players, reward_scale=1.0, **options)


def setup(scenario: dict, num_players: int = 4, seed: int = 0, **options):
    env = make(num_players, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def cards(text: str) -> list[str]:
    return text.split()


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def discards(hand: str, but: str = "") -> list[str]:
    skip = set(but.split())
    return [f"discard {c}" for c in sorted(set(hand.split())) if c not in skip]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def deltas(env) -> list[float]:
    return list(env.state_obj.last_deal_delta)


def settle_rewards(env) -> dict[str, float]:
    return {a: env._cumulative_rewards[a] for a in env.possible_agents}


def rest_of_deck(env, *groups: str) -> list[str]:
    """The cards of ``env``'s packs that none of ``groups`` holds (for a stock of given size)."""
    counts = list(env.game.deck)
    for g in groups:
        for t in parse_cards(g):
            counts[t] -= 1
    assert min(counts) >= 0
    return [card_str(t) for t in counts_to_list(counts)]


# --------------------------------------------------------------------------- IR-1 cards
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_ir1_two_packs_and_two_jokers_for_2_to_6_players(n):
    env = make(n)
    env.reset(seed=n)
    g, st = env.game, env.state_obj
    assert (g.packs, g.num_jokers, g.total_cards) == (2, 2, 106)
    assert st.zone_counts() == [2] * 53
    assert [st.hand_size(s) for s in range(n)] == [13] * n
    # The indicator and the first discard are out of the stock (IR-2).
    assert len(st.stock) == 106 - 13 * n - 2


@pytest.mark.parametrize("n", [7, 8, 9, 10])
def test_ir1_three_packs_and_three_jokers_for_7_to_10_players(n):
    env = make(n)
    env.reset(seed=n)
    g, st = env.game, env.state_obj
    assert (g.packs, g.num_jokers, g.total_cards) == (3, 3, 159)
    assert st.zone_counts() == [3] * 53
    assert [st.hand_size(s) for s in range(n)] == [13] * n
    assert len(st.stock) == 159 - 13 * n - 2


@pytest.mark.parametrize("n", [1, 11])
def test_ir1_players_outside_2_to_10_are_refused(n):
    with pytest.raises(RuleConfigError, match="num_players"):
        make(n)


# --------------------------------------------------------------------------- IR-2 wild cards
def test_ir2_the_indicator_rank_and_the_jokers_are_wild():
    env = setup({"indicator": "7H", "to_move": 0, "dealer": 3})
    st = env.state_obj
    assert st.wild_rank == 7
    wild = [card_str(t) for t in range(53) if st.wild[t]]
    assert wild == ["7C", "7D", "7H", "7S", "JK"]
    for a in env.possible_agents:  # the indicator is visible to everyone
        obs = env.observe(a)["observation"]
        p = env.encoder.layout.pieces
        ind = obs[p["indicator"].start:p["indicator"].stop]
        assert list(np.flatnonzero(ind)) == [parse_cards("7H")[0]]
        assert [card_str(t) for t in np.flatnonzero(obs[p["wild"].start:p["wild"].stop])] == wild


def test_ir2_a_joker_indicator_makes_only_the_jokers_wild():
    st = setup({"indicator": "JK"}).state_obj
    assert st.wild_rank == 0
    assert [card_str(t) for t in range(53) if st.wild[t]] == ["JK"]
    # Option: all aces are wild as well.
    st = setup({"indicator": "JK"}, aces_wild_when_joker_indicator=True).state_obj
    assert st.wild_rank == 1
    assert [card_str(t) for t in range(53) if st.wild[t]] == ["AC", "AD", "AH", "AS", "JK"]
    # The option changes nothing when the indicator is not a joker.
    st = setup({"indicator": "9D"}, aces_wild_when_joker_indicator=True).state_obj
    assert st.wild_rank == 9


def test_ir2_wild_cards_complete_melds_only_when_their_rank_is_turned_up():
    # 4S 7D 6S is a run only when 7s are wild (7D standing for 5S); with it, the 13 cards
    # other than QC are valid.
    hand = "8H 9H 10H JH 4S 7D 6S KH KC KD 2C 2D 2H QC"
    state = {"to_move": 0, "dealer": 3, "phase": "play", "turns_taken": [2, 1, 1, 1],
             "hands": [cards(hand), None, None, None]}
    env = setup(dict(state, indicator="7C"))
    assert legal(env) == sorted(discards(hand) + ["declare discarding QC"])
    env = setup(dict(state, indicator="AC"))
    assert legal(env) == discards(hand)


def test_ir2_indicator_is_out_of_play_and_the_first_discard_is_the_top_stock_card():
    env = make(4)
    env.reset(seed=11)
    st, state = env.state_obj, env.get_state()
    assert state["zones"]["indicator"] == [card_str(st.indicator)]
    assert len(state["discard"]) == 1 and state["discarders"] == [-1]
    # The first player is the next seat after the dealer (C-5, IR-2).
    assert st.to_move == (st.dealer + 1) % 4 == st.current_player
    assert env.agent_selection == f"player_{(st.dealer + 1) % 4}"


def test_ir2_a_wild_card_may_be_taken_from_the_discard_pile():
    env = setup({"indicator": "5C", "to_move": 0, "dealer": 3, "discard": ["JK"],
                 "turns_taken": [0, 0, 0, 0]})
    play(env, "take discard")
    assert env.state_obj.hands[0][52] >= 1


# --------------------------------------------------------------------------- IR-3 melds
def test_ir3_a_set_needs_three_different_suits():
    base = "3H 4H 5H 6S 7S 8S 9S KH KC KD {} QS"
    state = {"indicator": "2C", "to_move": 0, "dealer": 3, "phase": "play",
             "turns_taken": [2, 1, 1, 1]}
    env = setup(dict(state, hands=[cards(base.format("7H 7C 7C")), None, None, None]))
    hand = base.format("7H 7C 7C")
    assert legal(env) == discards(hand)  # 7H 7C 7C is no set: no declaration
    env = setup(dict(state, hands=[cards(base.format("7H 7C 7D")), None, None, None]))
    assert legal(env) == sorted(discards(base.format("7H 7C 7D")) + ["declare discarding QS"])


def test_ir3_sets_of_four_only_with_the_option():
    hand = "3H 4H 5H 6S 7S 8S KH KC KD KS 9D 10D JD QC"
    state = {"indicator": "JK", "to_move": 0, "dealer": 3, "phase": "play",
             "turns_taken": [2, 1, 1, 1], "hands": [cards(hand), None, None, None]}
    env = setup(state)
    assert [a for a in legal(env) if a.startswith("declare")] == []
    env = setup(state, sets_of_four=True)
    assert [a for a in legal(env) if a.startswith("declare")] == ["declare discarding QC"]


def test_ir3_aces_high_or_low_but_not_round_the_corner():
    state = {"indicator": "4H", "to_move": 0, "dealer": 3, "phase": "play",
             "turns_taken": [2, 1, 1, 1]}
    hand = "QD KD AD AC 2C 3C 5S 6S 7S 8S 9H 9C 9D JH"
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == sorted(discards(hand) + ["declare discarding JH"])
    hand = "QD KD AD KC AC 2C 5S 6S 7S 8S 9H 9C 9D JH"  # K A 2 is no run
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == discards(hand)


def test_ir3_three_or_more_wild_cards_alone_form_an_impure_run():
    # 4s wild. The only way to meld the four wild cards is alone: joined to the pure run it
    # would lose the only pure run, and sets hold exactly three cards.
    hand = "6H 7H 8H KH KC KD QH QC QD JK JK 4C 4D"
    env = setup({"indicator": "4S", "to_move": 0, "dealer": 3, "turns_taken": [0, 0, 0, 0],
                 "hands": [cards(hand), None, None, None]})
    assert legal(env) == ["draw stock", "hand rummy", "pack", "take discard"]


# --------------------------------------------------------------------------- IR-4 pure runs
def test_ir4_a_wild_rank_card_standing_for_itself_keeps_a_run_pure():
    # 8s wild: 7H 8H 9H 10H is pure (8H stands for itself); 4S JK 6S is the second run.
    hand = "7H 8H 9H 10H 4S JK 6S KH KC KD QH QC QD 2C"
    state = {"indicator": "8C", "to_move": 0, "dealer": 3, "phase": "play",
             "turns_taken": [2, 1, 1, 1]}
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == sorted(discards(hand) + ["declare discarding 2C"])
    # A printed joker in its place makes that run impure too: no pure run, no declaration.
    hand = "7H JK 9H 10H 4S JK 6S KH KC KD QH QC QD 2C"
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == discards(hand)


def test_ir4_a_tanala_counts_as_a_pure_run_with_three_packs():
    hand = "10C 10C 10C 4S JK 6S 7S KH KC KD QH QC QD 9D"
    state = {"indicator": "2S", "to_move": 0, "dealer": 6, "phase": "play",
             "turns_taken": [2, 1, 1, 1, 1, 1, 1],
             "hands": [cards(hand)] + [None] * 6}
    env = setup(state, num_players=7)
    assert legal(env) == sorted(discards(hand) + ["declare discarding 9D"])
    env = setup(state, num_players=7, tanala=False)
    assert legal(env) == discards(hand)


# --------------------------------------------------------------------------- IR-5 a turn
def test_ir5_a_turn_starts_with_a_draw_from_the_stock_or_the_discard_pile():
    env = setup({"to_move": 0, "dealer": 3, "turns_taken": [1, 1, 1, 1], "discard": ["QS"],
                 "hands": [cards(NOTHING), None, None, None], "indicator": "5C"})
    assert legal(env) == ["draw stock", "pack", "take discard"]


def test_ir5_the_card_taken_from_the_discard_pile_may_not_be_discarded_that_turn():
    # The hand holds a QS already: neither copy may go back (copies are identical, C-1).
    hand = "AC 3C 7C 9C JC KC 2S 4D 6D 8D 10D QS 3H"
    env = setup({"to_move": 0, "dealer": 3, "turns_taken": [1, 1, 1, 1], "discard": ["QS"],
                 "hands": [cards(hand), None, None, None], "indicator": "5C"})
    play(env, "take discard")
    assert legal(env) == discards(hand, but="QS")
    play(env, "discard 3H")
    st = env.state_obj
    assert st.discard[-1] == parse_cards("3H")[0] and st.discarder[-1] == 0
    assert st.to_move == 1 and st.phase == "draw"
    assert sorted(env.get_state()["known"][0]) == ["QS"]  # taken face up: public


def test_ir5_the_taken_card_may_not_be_the_declaration_discard_either():
    # VALID13 + the taken QS: discarding the QS would declare, but it was just taken.
    state = {"to_move": 0, "dealer": 3, "turns_taken": [1, 1, 1, 1], "indicator": "5C",
             "hands": [cards(VALID13), None, None, None]}
    env = setup(dict(state, discard=["QS"]))
    play(env, "take discard")
    assert legal(env) == discards(VALID13)
    # Drawn from the stock instead, the same card may be discarded to declare.
    env = setup(dict(state, stock=["QS"]))
    play(env, "draw stock")
    assert legal(env) == sorted(discards(VALID13 + " QS") + ["declare discarding QS"])


def test_ir5_nothing_is_laid_on_the_table():
    env = make(3)
    env.reset(seed=5)
    assert set(env.get_state()["zones"]) == {"hand:0", "hand:1", "hand:2", "stock", "discard",
                                               "indicator", "out_of_play"}


# --------------------------------------------------------------------------- IR-6 declare
def test_ir6_declaring_discards_the_14th_card_and_wins_the_deal():
    hand = VALID13 + " KC"
    env = setup({"to_move": 0, "dealer": 3, "phase": "play", "turns_taken": [2, 2, 2, 2],
                 "indicator": "5C", "hands": [cards(hand), None, None, None]})
    assert legal(env) == sorted(discards(hand) + ["declare discarding KC"])
    play(env, "declare discarding KC")
    st = env.state_obj
    assert st.phase == "game_over" and st.winner == 0 and st.result == "declare"
    assert card_str(st.discard[-1]) == "KC" and st.hand_size(0) == 13
    assert all(env.terminations.values())


def test_ir6_two_runs_one_pure_are_needed():
    state = {"to_move": 0, "dealer": 3, "phase": "play", "turns_taken": [2, 2, 2, 2],
             "indicator": "5C"}
    # Every card but the 4C melded, with one run only (the rest sets): no declaration.
    hand = "6S 7S 8S 9S 9H 9C 9D KH KC KD QH QC QD 4C"
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == discards(hand)
    # Every card but the 4C melded, with two runs, none pure (JK and 5D wild): none either.
    hand = "6S JK 8S 9S 9H 10H 5D KH KC KD QH QC QD 4C"
    env = setup(dict(state, hands=[cards(hand), None, None, None]))
    assert legal(env) == discards(hand)


# --------------------------------------------------------------------------- IR-7 pack
def test_ir7_packing_on_the_first_turn_owes_10_and_puts_the_cards_under_the_stock():
    env = setup({"to_move": 1, "dealer": 0, "turns_taken": [0, 0, 0, 0]}, seed=3)
    before = env.get_state()
    hand = sorted(before["hands"][1])
    play(env, "pack")
    after = env.get_state()
    st = env.state_obj
    assert st.packed[1] and st.owed[1] == 10 and st.hand_size(1) == 0
    assert after["stock"][:len(before["stock"])] == before["stock"]  # top unchanged
    assert sorted(after["stock"][len(before["stock"]):]) == hand  # the 13 at the bottom
    assert after["out_of_play"] == []
    assert st.to_move == 2 and legal(env) == ["draw stock", "pack", "take discard"]


def test_ir7_packing_later_owes_40_and_the_cards_leave_play_face_down():
    env = setup({"to_move": 1, "dealer": 0, "turns_taken": [1, 1, 1, 1]}, seed=3)
    hand = env.get_state()["hands"][1]
    stock = env.get_state()["stock"]
    obs_before = {a: env.observe(a)["observation"].copy() for a in ("player_0", "player_2")}
    play(env, "pack")
    st, after = env.state_obj, env.get_state()
    assert st.owed[1] == 40 and after["out_of_play"] == hand and after["stock"] == stock
    assert st.to_move == 2
    # Observations hold only the number of cards out of play (counts piece), not the cards.
    p = env.encoder.layout.pieces["counts"]
    for a in ("player_0", "player_2"):
        obs = env.observe(a)["observation"]
        assert obs[p.start + 2] == pytest.approx(13 / 106)
        assert obs_before[a][p.start + 2] == 0


def test_ir7_packed_players_are_skipped():
    env = setup({"to_move": 3, "dealer": 2, "packed": [0, 1], "turns_taken": [1, 2, 1, 1]})
    play(env, "draw stock")
    play(env, env.legal_action_strings()[0])  # a discard
    assert env.state_obj.to_move == 2


def test_ir7_when_all_but_one_pack_the_last_player_wins_at_once():
    env = setup({"to_move": 2, "dealer": 3, "packed": [0, 3], "turns_taken": [1, 2, 1, 2],
                 "out_of_play": cards(PACKED13)})
    st = env.state_obj
    assert st.owed == [10.0, 0.0, 0.0, 40.0]
    play(env, "pack")  # player 2 packs on its second turn: owes 40
    assert st.is_deal_over and st.winner == 1 and st.result == "last_standing"
    assert deltas(env) == [10.0, -90.0, 40.0, 40.0]
    assert settle_rewards(env) == {"player_0": -10.0, "player_1": 90.0, "player_2": -40.0,
                                   "player_3": -40.0}


# --------------------------------------------------------------------------- IR-8 stock
def _last_stock_card_state(env, hand0: str, stock_card: str) -> dict:
    others = [WORKED, NOTHING]
    rest = rest_of_deck(env, hand0, *others, "5C", stock_card, PACKED13)
    return {"to_move": 0, "dealer": 3, "indicator": "5C", "turns_taken": [3, 3, 3, 2],
            "hands": [cards(hand0), cards(WORKED), cards(NOTHING), []], "packed": [3],
            "out_of_play": cards(PACKED13), "stock": [stock_card], "discard": rest,
            "scores": [5, -5, 0, 0]}


def test_ir8_the_deal_is_void_if_the_last_stock_card_is_taken_without_declaring():
    env = make(4)
    hand = "AH 3S 5D 7H 9S JD KS 2C 6C 8C 10S QH 4H"
    env.reset(seed=0, options={"scenario": _last_stock_card_state(env, hand, "8H")})
    assert len(env.state_obj.stock) == 1
    play(env, "draw stock")
    play(env, "discard 8H")
    st = env.state_obj
    assert st.is_deal_over and st.result == "void" and st.winner == -1
    assert deltas(env) == [0.0, 0.0, 0.0, 0.0]  # nothing paid, the packer's 40 included
    assert st.scores == [5.0, -5.0, 0.0, 0.0]
    assert settle_rewards(env) == dict.fromkeys(env.possible_agents, 0.0)


def test_ir8_declaring_with_the_last_stock_card_wins():
    env = make(4)
    hand = "6S 7S 8S 9S JD QD KD 9H 9C 9D 2H 3H KC"  # 4H completes 2H 3H 4H
    env.reset(seed=0, options={"scenario": _last_stock_card_state(env, hand, "4H")})
    play(env, "draw stock")
    assert [a for a in legal(env) if a.startswith("declare")] == ["declare discarding KC"]
    play(env, "declare discarding KC")
    assert env.state_obj.winner == 0 and deltas(env) == [-175.0, 43.0, 92.0, 40.0]


# --------------------------------------------------------------------------- IR-9 payment
def test_ir9_each_player_pays_the_value_of_unmatched_cards_and_packers_their_cost():
    """Through the env: player 0 declares; player 1 holds IR-9's worked example (43), player 2
    a hand without melds (92), player 3 packed after its first turn (40)."""
    env = setup({"to_move": 0, "dealer": 3, "phase": "play", "indicator": "5C",
                 "turns_taken": [2, 2, 2, 2], "discard": ["2C"],
                 "hands": [cards(VALID13 + " KC"), cards(WORKED), cards(NOTHING), []],
                 "packed": [3], "out_of_play": cards(PACKED13)})
    st = env.state_obj
    assert [st.points(1), st.points(2)] == [43, 92]
    play(env, "declare discarding KC")
    assert deltas(env) == [-175.0, 43.0, 92.0, 40.0]
    assert settle_rewards(env) == {"player_0": 175.0, "player_1": -43.0, "player_2": -92.0,
                                   "player_3": -40.0}
    assert st.scores == [-175.0, 43.0, 92.0, 40.0]
    assert env.infos["player_0"]["score"] == -175.0 and env.infos["player_0"]["place"] == 1


def test_ir9_worked_example_with_a_wild_card_pays_8():
    env = setup({"to_move": 0, "dealer": 2, "phase": "play", "indicator": "5C",
                 "turns_taken": [2, 2, 2],
                 "hands": [cards(VALID13 + " KC"), cards(WORKED_WILD), cards(NOTHING)]},
                num_players=3)
    play(env, "declare discarding KC")
    assert deltas(env) == [-100.0, 8.0, 92.0]


def test_ir9_reward_scale_scales_the_settlement():
    env = rummy_env.make(VARIANT, num_players=3, reward_scale=0.01)
    env.reset(seed=0, options={"scenario": {
        "to_move": 0, "dealer": 2, "phase": "play", "indicator": "5C", "turns_taken": [2, 2, 2],
        "hands": [cards(VALID13 + " KC"), cards(WORKED_WILD), cards(NOTHING)]}})
    env.step(env.string_to_action("declare discarding KC"))
    assert env._cumulative_rewards == pytest.approx(
        {"player_0": 1.0, "player_1": -0.08, "player_2": -0.92})


# --------------------------------------------------------------------------- IR-10 early
def _early_state(phase: str, turns0: int) -> dict:
    # Dealer 1: the order is 2, 3, 0, 1. Players 2 and 3 have had their turn (3 packed on it:
    # owes 10); player 1 (the dealer) has not.
    hand0 = VALID13 + (" KC" if phase == "play" else "")
    return {"to_move": 0, "dealer": 1, "phase": phase, "indicator": "5C",
            "turns_taken": [turns0, 0, 1, 1], "packed": [3],
            "hands": [cards(hand0), cards(WORKED), cards(NOTHING), []]}


def test_ir10_a_declaration_on_the_first_turn_collects_half_from_those_yet_to_play():
    env = setup(_early_state("play", 1))
    play(env, "declare discarding KC")
    st = env.state_obj
    assert st.result == "early_declare"
    assert deltas(env) == [-123.5, 21.5, 92.0, 10.0]  # halves kept; the pack cost is not halved
    env = setup(_early_state("play", 1), early_declaration_half=False)
    play(env, "declare discarding KC")
    assert deltas(env) == [-145.0, 43.0, 92.0, 10.0]


def test_ir10_a_declaration_on_a_later_turn_is_paid_in_full():
    state = _early_state("play", 2)
    state["turns_taken"] = [2, 1, 2, 1]
    env = setup(state)
    play(env, "declare discarding KC")
    assert env.state_obj.result == "declare"
    assert deltas(env) == [-145.0, 43.0, 92.0, 10.0]


def test_ir10_hand_rummy_doubles_for_those_who_have_played():
    env = setup(_early_state("draw", 0))
    assert legal(env) == ["draw stock", "hand rummy", "pack", "take discard"]
    play(env, "hand rummy")
    st = env.state_obj
    assert st.result == "hand_rummy" and st.winner == 0 and st.hand_size(0) == 13
    # Player 1 has not played: single (43); player 2 has: double (2 x 92); player 3 packed: 10.
    assert deltas(env) == [-237.0, 43.0, 184.0, 10.0]
    env = setup(_early_state("draw", 0), hand_rummy_double=False)
    play(env, "hand rummy")
    assert deltas(env) == [-145.0, 43.0, 92.0, 10.0]


def test_ir10_hand_rummy_only_on_the_first_turn_with_a_valid_dealt_hand():
    state = _early_state("draw", 1)
    state["turns_taken"] = [1, 1, 1, 1]
    assert legal(setup(state)) == ["draw stock", "pack", "take discard"]
    state = _early_state("draw", 0)
    state["hands"][0] = cards(NOTHING.replace("3H", "5H"))
    state["hands"][2] = cards(VALID13)
    assert legal(setup(state)) == ["draw stock", "pack", "take discard"]
    env = setup(_early_state("draw", 0), hand_rummy=False)
    assert legal(env) == ["draw stock", "pack", "take discard"]
    assert env.action_space("player_0").n == 109 and make(4).action_space("player_0").n == 110


# --------------------------------------------------------------------------- IR-11 stakes
def _stakes_state() -> dict:
    return {"to_move": 0, "dealer": 3, "phase": "play", "indicator": "JK",
            "turns_taken": [2, 2, 2, 2], "packed": [3], "out_of_play": cards(PACKED13),
            "hands": [cards(VALID13 + " KC"), cards(WORKED), cards(NOTHING), []]}


def test_ir11_stakes_doubled_when_the_indicator_is_a_joker():
    env = setup(_stakes_state(), double_stakes_on_joker_indicator=True)
    assert env.state_obj.stake == 2
    play(env, "declare discarding KC")
    assert deltas(env) == [-350.0, 86.0, 184.0, 80.0]  # pack costs doubled too
    # Off by default; and a natural indicator never doubles.
    env = setup(_stakes_state())
    play(env, "declare discarding KC")
    assert deltas(env) == [-175.0, 43.0, 92.0, 40.0]
    state = dict(_stakes_state(), indicator="5C")
    env = setup(state, double_stakes_on_joker_indicator=True)
    assert env.state_obj.stake == 1


# --------------------------------------------------------------------------- IR-12 deals
def test_ir12_one_deal_by_default():
    env = make(3, episode="game")
    env.reset(seed=1)
    assert env.rules.num_deals == 1
    while not all(env.terminations.values()):
        env.step(env.string_to_action("pack"))
    assert env.state_obj.deals_played == 1 and env.state_obj.is_terminal


def test_ir12_a_game_of_several_deals_carries_the_settlements():
    """Everyone packs whenever possible: in each deal the first two players pack on their
    first turn (10 each) and the dealer, last to play, wins 20; the deal passes on (C-5)."""
    env = make(3, episode="game", num_deals=2)
    env.reset(seed=4)
    d = env.state_obj.dealer
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(env.string_to_action("pack"))
    st = env.state_obj
    assert st.deals_played == 2 and st.deal == 2 and st.is_terminal
    want = [0.0] * 3
    want[d] += -20 + 10
    want[(d + 1) % 3] += 10 - 20
    want[(d + 2) % 3] += 10 + 10
    assert st.scores == want
    assert totals == {f"player_{s}": -want[s] for s in range(3)}
    assert st.standings() == [1 if s != (d + 2) % 3 else 3 for s in range(3)]


def test_ir12_scores_carried_into_a_later_deal():
    state = _stakes_state()
    state.update(indicator="5C", deal=2, scores=[-10, 10, 0, 0])
    env = setup(state, num_deals=2, episode="game")
    play(env, "declare discarding KC")
    st = env.state_obj
    assert st.is_terminal and st.scores == [-185.0, 53.0, 92.0, 40.0]
