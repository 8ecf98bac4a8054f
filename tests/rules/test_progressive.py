"""Rule tests of Progressive Rummy (RULES section 6, PR-1..8).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact scores and penny
settlements.
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env.cards import RANK_TEXT, card_str, parse_card
from rummy_env.contract.rules import PR_CONTRACTS, PROGRESSIVE_RUMMY
from rummy_env.contract.state import ContractGame

PR = "progressive_rummy"


def setup(scenario: dict, num_players: int = 3, seed: int = 0, **options):
    env = rummy_env.make(PR, num_players=num_players, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def melds(env) -> list[str]:
    return [a for a in legal(env) if a.startswith("meld")]


def discards(cards: str) -> list[str]:
    return [f"discard {c}" for c in dict.fromkeys(cards.split())]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def P(hand0: str, deal: int = 1, **kw) -> dict:
    d = {"deal": deal, "dealer": 2, "to_move": 0, "phase": "play",
         "hands": [hand0.split(), [], []]}
    d.update(kw)
    return d


ALL_RANKS = [RANK_TEXT[r] for r in range(1, 14)]


# --------------------------------------------------------------------------- PR-1
@pytest.mark.parametrize("n", [3, 4, 5])
def test_pr1_two_packs_four_jokers_eleven_cards_fifteen_deals(n):
    env = rummy_env.make(PR, num_players=n)
    env.reset(seed=3)
    g, st = env.game, env.state_obj
    assert (g.packs, g.num_jokers, g.total_cards) == (2, 4, 108)
    assert [st.hand_size(s) for s in range(n)] == [11] * n
    r = PROGRESSIVE_RUMMY
    assert r.num_deals == 15 and r.whole_hand_deals == () and r.contiguity_deals == ()
    assert not r.joker_swap


def test_pr1_no_may_i_outside_the_buying_deals():
    """Deal 1 allows no buys: drawing from the stock opens no window."""
    env = setup({"deal": 1, "dealer": 2, "to_move": 0,
                 "hands": [["3C", "5D"], ["3H", "6D"], ["4C", "7D"]],
                 "discard": ["9S", "KH"], "discarders": [-1, 2]})
    assert legal(env) == ["draw stock", "take discard"]
    play(env, "draw stock")
    assert env.state_obj.phase == "play" and env.agent_selection == "player_0"


# --------------------------------------------------------------------------- PR-2
def test_pr2_fifteen_contracts_and_buy_limits():
    got = [(c.sets, c.runs) for c in PR_CONTRACTS]
    assert got == [
        ((3, 3), ()), ((3,), (4,)), ((4, 4), ()), ((), (4, 4)), ((3, 3), (4,)), ((4,), (5,)),
        ((5, 5), ()), ((), (5, 5)), ((3, 3, 3, 3), ()), ((), (4, 4, 4)), ((4, 4, 4), ()),
        ((), (3, 3, 3, 3, 3)), ((3, 3, 3, 3, 3), ()), ((5, 2), (5,)), ((3, 3), (5,)),
    ]
    r = PROGRESSIVE_RUMMY
    assert [r.claim_limit(d) for d in range(1, 16)] == [0] * 8 + [1, 1, 1, 2, 2, 1, 0]
    assert [r.claim_penalty_in(d) for d in range(1, 16)] == [0] * 11 + [1, 1, 0, 0]


def test_pr2_pr4_deal14_pair():
    """Set of 5 + run of 5 + pair: the twelve cards after the draw meld out; a pair is a set
    of exactly two (CR-5 exact sizes), and its rank's cards are laid off on it."""
    hand = "8C 8C 8D 8D 8H 4S 5S 6S 7S 8S KD KH"
    env = setup(P(hand, deal=14))
    # No pair of 8s: with five 8s in the set and the 8S in the run, none is left.
    assert melds(env) == ["meld run S 4-8", "meld set 8x5", "meld set Kx2"]
    play(env, "meld set Kx2")
    play(env, "meld set 8x5")
    play(env, "meld run S 4-8")
    st = env.state_obj
    assert st.went_out == 0 and st.last_deal_delta[0] == 0
    table = [{"owner": 1, "cards": ["KD", "KH"]}]
    env = setup(P("KS 3C 4D", deal=14, melded=[0, 1], table=table,
                  turn={"number": 5, "melded_turn": [2, 2, -1]}))
    assert legal(env) == sorted(["lay off KS on 0"] + discards("KS 3C 4D"))


# --------------------------------------------------------------------------- PR-3
def test_pr3_lay_offs_on_the_turn_of_the_first_meld():
    env = setup(P("7C 7D 7H 9C 9D 9H 7S 5D"))
    play(env, "meld set 7x3")
    play(env, "meld set 9x3")
    assert legal(env) == sorted(["lay off 7S on 0"] + discards("7S 5D"))


# --------------------------------------------------------------------------- PR-4
def test_pr4_contiguous_runs_of_a_suit_stay_separate():
    """Deal 4 (two runs of 4): 5-8 and 9-Q of hearts are allowed as two runs (CR-9 is off);
    laying off on one never joins it to the other."""
    hand = "5H 6H 7H 8H 9H 10H JH QH 3C 4D KS"
    env = setup(P(hand, deal=4))
    assert melds(env) == ["meld run H 5-8", "meld run H 9-Q"]
    play(env, "meld run H 5-8")
    play(env, "meld run H 9-Q")
    st = env.state_obj
    assert [(m.lo, m.hi) for m in st.table] == [(5, 8), (9, 12)]
    assert legal(env) == sorted(discards("3C 4D KS"))


def test_pr4_identical_cards_and_two_sets_of_one_rank():
    hand = "8C 8C 8D 8D 8H 8H 3S 4S 6S KD QC"
    env = setup(P(hand))
    assert melds(env) == ["meld set 8x3"]
    play(env, "meld set 8x3")
    assert melds(env) == ["meld set 8x3"]
    play(env, "meld set 8x3")
    assert env.state_obj.melded[0]


# --------------------------------------------------------------------------- PR-5
def test_pr5_twos_and_jokers_are_wild():
    """7C 7D 2S and 9C 9D JK make deal 1's two sets (no 2 is needed as a natural)."""
    env = setup(P("7C 7D 2S 9C 9D JK 4H 6H KD"))
    assert melds(env) == ["meld set 7x3", "meld set 9x3"]
    play(env, "meld set 7x3")
    play(env, "meld set 9x3")
    st = env.state_obj
    assert [m.cards for m in st.table] == [
        [parse_card(c) for c in "7C 7D 2S".split()], [parse_card(c) for c in "9C 9D JK".split()]]
    assert [m.stands[2] for m in st.table] == [parse_card("7H"), parse_card("9H")]


def test_pr5_a_meld_of_wild_cards_only():
    """Three wild cards make a set of any rank (the melder states it); with the option that
    every meld holds a natural, only 2 2 2 (the 2s standing as 2s) is a set of wild cards."""
    hand = "2C 2D JK 9C 9D 9H 4S 6S KD"
    env = setup(P(hand))
    assert melds(env) == sorted(f"meld set {r}x3" for r in ALL_RANKS)
    # With the option, the second set needs a natural: 2C 2D standing as 2s (with the joker),
    # or one of 4S 6S KD with two wild cards.
    env = setup(P(hand), meld_needs_natural=True)
    assert melds(env) == ["meld set 2x3", "meld set 4x3", "meld set 6x3", "meld set 9x3",
                          "meld set Kx3"]
    play(env, "meld set 2x3")
    m = env.state_obj.table[0]
    naturals = sorted(c for c, st in zip(m.cards, m.stands) if c == st)
    assert naturals == [parse_card("2C"), parse_card("2D")]  # standing as 2s


def test_pr5_a_two_in_its_own_place_is_natural_and_runs_take_wild_twos():
    env = setup(P("2H 3H 4H 5H 9C 9D 2S 6D KD", deal=2))  # a set of 3 + a run of 4
    # One wild card is spare for the set of 9s: run 2-5 (2H natural, 2S to the 9s), or 3-6
    # (2S as 6H, 2H to the 9s); A-4 would need both 2s in the run.
    assert melds(env) == ["meld run H 2-5", "meld run H 3-6", "meld set 9x3"]
    play(env, "meld run H 2-5")
    st = env.state_obj
    assert st.table[0].cards == [parse_card(c) for c in "2H 3H 4H 5H".split()]
    assert st.table[0].stands == st.table[0].cards  # the 2H stands for itself


def test_pr5_wild_two_lay_offs_name_the_run_end_and_never_move():
    table = [{"owner": 1, "cards": ["5H", "6H", "JK", "8H"], "wilds": ["7H"]},
             {"owner": 1, "cards": ["QD", "QH", "2C"], "wilds": ["QS"]}]
    env = setup(P("2S 7H 3D", melded=[0, 1], table=table,
                  turn={"number": 5, "melded_turn": [2, 2, -1]}))
    # No swap of 7H for the joker (wild cards never move); the 2S goes on the set or at
    # either end of the run.
    assert legal(env) == sorted(["lay off 2S on 0", "lay off 2S low on 0", "lay off 2S on 1"]
                                + discards("2S 7H 3D"))
    play(env, "lay off 2S low on 0")
    m = env.state_obj.table[0]
    assert (m.lo, m.hi) == (4, 8) and m.stands[0] == parse_card("4H")


# --------------------------------------------------------------------------- PR-6
def _buy_position(deal, claims_used=(0, 0, 0), stock=("AS", "AD", "AH")):
    return {"deal": deal, "dealer": 2, "to_move": 0,
            "hands": [["3C", "5D"], ["3H", "6D"], ["4C", "7D"]],
            "discard": ["9S", "KH"], "discarders": [-1, 2], "stock": list(stock),
            "claims_used": list(claims_used)}


def test_pr6_no_buying_before_deal_9():
    env = setup(_buy_position(8))
    assert legal(env) == ["draw stock", "take discard"]


def test_pr6_player_to_move_buys_then_draws_as_usual():
    env = setup(_buy_position(9))
    assert legal(env) == ["buy", "draw stock", "take discard"]
    play(env, "buy")
    st = env.state_obj
    assert st.hands[0][parse_card("KH")] == 1 and st.hand_size(0) == 3
    assert st.kitty == 1 and st.pennies == [-1.0, 0.0, 0.0] and st.claims_used == [1, 0, 0]
    # The normal draw follows: stock or the new top discard; no second buy in a row.
    assert st.phase == "draw" and legal(env) == ["draw stock", "take discard"]
    play(env, "take discard")
    assert st.hands[0][parse_card("9S")] == 1 and st.phase == "play"


def test_pr6_deals_12_and_13_take_the_top_stock_card_too():
    env = setup(_buy_position(12))
    play(env, "buy")
    st = env.state_obj
    assert st.hands[0][parse_card("KH")] == 1 and st.hands[0][parse_card("AS")] == 1
    assert st.hand_size(0) == 4


def test_pr6_others_buy_in_turn_order_when_the_player_to_move_declines():
    env = setup(_buy_position(10), num_players=3)
    play(env, "draw stock")
    st = env.state_obj
    # player_2 discarded the KH (C-8): only player_1 may buy it.
    assert st.phase == "claim" and env.agent_selection == "player_1"
    assert legal(env) == ["claim", "pass"]
    play(env, "claim")
    assert st.hands[1][parse_card("KH")] == 1 and st.kitty == 1 and st.pennies[1] == -1.0
    # The 9S beneath may now be bought, by player_2 (player_1 just bought).
    assert env.agent_selection == "player_2"
    play(env, "pass")
    assert env.agent_selection == "player_0" and st.phase == "play"


def test_pr6_buy_limit_per_deal():
    env = setup(_buy_position(9, claims_used=(1, 1, 0)))
    assert legal(env) == ["draw stock", "take discard"]  # player_0's one buy is used
    play(env, "draw stock")
    assert env.state_obj.phase == "play"  # player_1's too; player_2 discarded the KH


def test_pr6_cr11_a_buy_that_leaves_nothing_to_draw_ends_the_deal():
    """PR-6 with CR-7/CR-11 (documented decision): in deal 12 a buy takes the top discard and the
    top stock card; when those were the last cards (reached by play from a pile of four and an
    empty stock: player_0's buy reshuffles the pile), the deal ends with no one out instead of
    leaving the buyer with nothing to draw (the dead-end fuzzer found that empty mask)."""
    h0 = "3C 5D 7H 9S JC KD 4H 6S 8C 10D QH".split()
    h1 = "3D 5H 7S 9C JD KH 4S 6C 8D 10H QS".split()
    pile = ["AH", "AS", "KS", "KC"]
    deck = list(ContractGame(PROGRESSIVE_RUMMY, 3).deck)
    for c in h0 + h1 + pile:
        deck[parse_card(c)] -= 1
    rest = [card_str(t) for t in range(len(deck)) for _ in range(deck[t])]
    env = setup({"deal": 12, "to_move": 0, "phase": "draw", "hands": [h0, h1, rest],
                 "discard": pile, "discarders": [-1, 1, 2, 2], "stock": []})
    st = env.state_obj
    play(env, "buy")  # KC, and the penalty card from the reshuffled AH AS (KS stays on top)
    assert (len(st.stock), len(st.discard)) == (1, 1) and legal(env) == ["draw stock",
                                                                        "take discard"]
    play(env, "take discard")
    play(env, "discard 3C")
    assert legal(env) == ["buy", "draw stock", "take discard"]  # player_1: stock 1, pile 1
    play(env, "buy")
    assert st.phase == "deal_over" and st.went_out == -1 and not st.stock and not st.discard
    assert st.claims_used == [1, 1, 0] and st.kitty == 2
    assert all(env.terminations.values())


# --------------------------------------------------------------------------- PR-7
def test_pr7_going_out_by_the_last_discard():
    env = setup({"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [["3S"], ["2C", "7D", "AH", "KS"], ["JK", "10D", "4H"]]})
    play(env, "discard 3S")
    st = env.state_obj
    assert st.went_out == 0
    # PR-8 values: wild cards 20, A 15, J Q K 10, 3-10 5.
    assert st.last_deal_delta == [0, 20 + 5 + 15 + 10, 20 + 5 + 5]


def test_pr7_going_out_by_melding():
    env = setup(P("7C 7D 7H 9C 9D 2S"))
    play(env, "meld set 7x3")
    play(env, "meld set 9x3")
    assert env.state_obj.went_out == 0


# --------------------------------------------------------------------------- PR-8
def _last_deal(scores, kitty=0, pennies=None, n=4, **options):
    hands = [["3S"]] + [[c] for c in ("4C", "4D", "4H")[:n - 1]]
    d = {"deal": 15, "dealer": n - 1, "to_move": 0, "phase": "play", "hands": hands,
         "scores": list(scores), "kitty": kitty}
    if pennies is not None:
        d["pennies"] = pennies
    env = setup(d, num_players=n, **options)
    play(env, "discard 3S")  # player_0 goes out; every other seat adds 5
    return env.state_obj


def test_pr8_penny_settlement_four_players():
    st = _last_deal([10, 40, 20, 70], kitty=3, pennies=[-1, -1, -1, 0])
    assert st.phase == "game_over" and st.scores == [10, 45, 25, 75]
    # Places: player_0 1st, player_2 2nd (pays 2), player_1 3rd (4), player_3 4th (6); the
    # winner takes the 12 and the kitty's 3 (each had paid a penny for a buy).
    assert st.pennies == [-1 + 12 + 3, -1 - 4, -1 - 2, -6]
    assert sum(st.pennies) == 0


def test_pr8_ties_share_their_places_payments_c9():
    st = _last_deal([10, 30, 30, 70], kitty=0)
    # player_1 and player_2 tie for 2nd and 3rd: each pays (2 + 4) / 2.
    assert st.pennies == [12.0, -3.0, -3.0, -6.0]


def test_pr8_kitty_split_option():
    st = _last_deal([10, 40, 20, 70], kitty=3, kitty_split=(2 / 3, 1 / 3))
    assert st.pennies == pytest.approx([12 + 2, -4, -2 + 1, -6])


def test_pr8_other_player_counts_pay_two_per_place():
    st = _last_deal([0, 10, 20], n=3)
    assert st.pennies == [6.0, -2.0, -4.0]


def test_pr2_contract_larger_than_the_hand_needs_buys():
    """Deal 12 (five runs of 3: 15 cards) cannot be met from the 12 cards after the draw, so no
    run is offered even though four runs are in hand; bought cards make it possible."""
    hand = "3C 4C 5C 3D 4D 5D 3H 4H 5H 3S 4S 5S"
    env = setup(P(hand, deal=12))
    assert melds(env) == []
    env = setup(P(hand + " 8C 9C 10C", deal=12))
    assert melds(env) == ["meld run C 3-5", "meld run C 8-10", "meld run D 3-5",
                          "meld run H 3-5", "meld run S 3-5"]
