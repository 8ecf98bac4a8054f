"""Rule tests of Shanghai Rummy and its Tahelia Powe and Deb Kolsov versions (RULES section 5:
SH-1..7, TP-1..6, DK).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact scores. Where a
rule differs from Contract Rummy, the same position is also checked under ``contract_rummy`` so
the test shows what the rule changes.
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env.cards import parse_card
from rummy_env.contract.rules import (
    CR_CONTRACTS, DK_CONTRACTS, SHANGHAI_DEB_KOLSOV, SHANGHAI_RUMMY, SHANGHAI_TAHELIA_POWE,
)

SH, TP, DK = "shanghai_rummy", "shanghai_tahelia_powe", "shanghai_deb_kolsov"


def setup(scenario: dict, variant: str = SH, num_players: int = 3, seed: int = 0, **options):
    env = rummy_env.make(variant, num_players=num_players, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def discards(cards: str, announce: str = "") -> list[str]:
    out = [f"discard {c}" for c in dict.fromkeys(cards.split())]
    return out + [f"discard {c} announcing shanghai" for c in dict.fromkeys(announce.split())]


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def melds(env) -> list[str]:
    return [a for a in legal(env) if a.startswith("meld")]


def P(hand0: str, deal: int = 1, **kw) -> dict:
    """A play-phase position of seat 0 (dealer 2) with ``hand0`` after the draw."""
    d = {"deal": deal, "dealer": 2, "to_move": 0, "phase": "play",
         "hands": [hand0.split(), [], []]}
    d.update(kw)
    return d


# --------------------------------------------------------------------------- SH-1 deck, deals
@pytest.mark.parametrize("n", [3, 4, 5])
def test_sh1_two_packs_four_jokers_eleven_cards(n):
    env = rummy_env.make(SH, num_players=n)
    env.reset(seed=1)
    g, st = env.game, env.state_obj
    assert (g.packs, g.num_jokers, g.total_cards) == (2, 4, 108)
    assert st.zone_counts() == [2] * 52 + [4]
    assert [st.hand_size(s) for s in range(n)] == [11] * n
    assert len(st.stock) == 108 - 11 * n - 1


def test_sh1_seven_deals_with_cr3_contracts_and_a_final_three_runs_deal():
    assert SHANGHAI_RUMMY.contracts == CR_CONTRACTS
    assert SHANGHAI_RUMMY.hand_sizes == (11,) * 7
    assert SHANGHAI_RUMMY.whole_hand_deals == (7,)
    with pytest.raises(rummy_env.RuleConfigError, match="num_players=6"):
        rummy_env.make(SH, num_players=6)


def test_sh1_deal7_whole_hand_goes_out_without_a_discard():
    """SH-1/CR-13: the twelve cards after the draw are three runs; melding them ends the deal
    (lay-offs are allowed on the meld turn, SH-4, but nothing is left to lay off)."""
    hand = "4C 5C 6C 7C 8D 9D 10D JD 2H 3H JK 5H"
    env = setup(P(hand, deal=7))
    assert melds(env) == ["meld run C 4-7", "meld run D 8-J", "meld run H 2-5"]
    for m in ("meld run C 4-7", "meld run D 8-J", "meld run H 2-5"):
        play(env, m)
    st = env.state_obj
    assert st.went_out == 0 and st.is_deal_over and st.last_deal_delta[0] == 0


# --------------------------------------------------------------------------- SH-2 runs, books
def test_sh2_aces_high_only():
    """A 2 3 4 is no run in Shanghai (it is in Contract Rummy); J Q K A is."""
    hand = "AH 2H 3H 4H JS QS KS AS 9C 9D 5C"
    env = setup(P(hand, deal=2))  # a set of 3 and a run of 4: no set here
    assert melds(env) == []
    env = setup(P(hand + " 9H", deal=2))
    assert melds(env) == ["meld run S J-A", "meld set 9x3"]
    cr = setup(P(hand + " 9H", deal=2), variant="contract_rummy")
    assert "meld run H A-4" in melds(cr)


def test_sh2_first_meld_no_contiguous_runs_of_one_suit():
    """Deal 3 (two runs of 4) from 5H..QH: 5-8 with 9-Q are contiguous and refused. With a joker
    (one per meld) the first runs offered are exactly those with a partner that is not
    contiguous: 4-7 (joker 4) + 9-Q; 5-8 + 10-K (joker K); 5-9 + 9-Q (joker 9: overlapping runs
    are not contiguous); 6-9 + 9-Q; 8-J or 8-Q + 5-8 (joker 8); 9-Q + 4-7; 10-K + 5-8.
    7-10 has no partner: 5H 6H and the joker make three cards."""
    hand = "5H 6H 7H 8H 9H 10H JH QH 2C 2D KS"
    env = setup(P(hand, deal=3))
    assert melds(env) == []
    env = setup(P(hand.replace("KS", "JK"), deal=3))
    assert melds(env) == ["meld run H 10-K", "meld run H 4-7", "meld run H 5-8",
                          "meld run H 5-9", "meld run H 6-9", "meld run H 8-J", "meld run H 8-Q",
                          "meld run H 9-Q"]
    play(env, "meld run H 9-Q")
    # 5-8 would touch 9-Q; 5-9 and 6-9 (joker 9) overlap it, which is allowed.
    assert melds(env) == ["meld run H 4-7", "meld run H 5-9", "meld run H 6-9"]
    cr = setup(P(hand, deal=3), variant="contract_rummy")  # CR-9 holds in deal 3 too
    assert melds(cr) == []


def test_sh2_no_two_books_of_one_rank():
    """Six 8s are not two books in Shanghai (they are in Contract Rummy)."""
    hand = "8C 8C 8D 8D 8H 8H 2S 4S 6S KD QC"
    env = setup(P(hand))
    assert melds(env) == []
    cr = setup(P(hand), variant="contract_rummy")
    assert melds(cr) == ["meld set 8x3"]


def test_sh2_sh4_books_and_runs_may_be_longer_than_the_minimum():
    hand = "7C 7D 7H 7S 9C 9D 9H 2S 4S KD QD"
    env = setup(P(hand))
    assert melds(env) == ["meld set 7x3", "meld set 7x4", "meld set 9x3"]


# --------------------------------------------------------------------------- SH-3 jokers
def test_sh3_at_most_one_joker_per_meld_in_a_contract():
    """7C + two jokers is no book in Shanghai, so 9s and 7s cannot both be met; Contract Rummy
    would meld 7C JK JK."""
    hand = "7C 9C 9D 9H JK JK 2S 4S 6D KD QC"
    env = setup(P(hand))
    assert melds(env) == []
    cr = setup(P(hand), variant="contract_rummy")
    assert {"meld set 7x3", "meld set 9x3"} <= set(melds(cr))
    env = setup(P(hand.replace("9H", "7D")))
    assert melds(env) == ["meld set 7x3", "meld set 9x3"]
    play(env, "meld set 7x3")
    play(env, "meld set 9x3")
    assert [m.cards.count(parse_card("JK")) for m in env.state_obj.table] == [1, 1]


def test_sh3_a_joker_is_laid_off_only_on_a_meld_without_one():
    table = [{"owner": 1, "cards": ["5C", "JK", "7C", "8C"], "wilds": ["6C"]},
             {"owner": 1, "cards": ["QD", "QH", "QS"]}]
    env = setup(P("JK 3S 3D", melded=[0, 1], table=table,
                  turn={"number": 5, "melded_turn": [1, 1, -1]}))
    assert legal(env) == sorted(["lay off JK on 1"] + discards("JK 3S 3D", "JK"))


def test_sh3_swap_only_where_the_freed_joker_fits_the_limit():
    """6C frees the joker of meld 0; the joker can go on the set (no joker) or back on meld 0
    (now jokerless), so the swap is offered; with both melds holding a joker it is not."""
    table = [{"owner": 1, "cards": ["5C", "JK", "7C", "8C"], "wilds": ["6C"]},
             {"owner": 1, "cards": ["QD", "QH", "JK"], "wilds": ["QC"]}]
    scen = P("6C 3S 3D", melded=[0, 1], table=table, turn={"number": 5, "melded_turn": [1, 1, -1]})
    env = setup(scen)
    assert legal(env) == sorted(["swap 6C for joker on 0"] + discards("6C 3S 3D"))
    play(env, "swap 6C for joker on 0")
    assert legal(env) == ["lay off JK low on 0", "lay off JK on 0"]
    # Full runs (both ends closed by the meld's joker or the ace) leave no room: no swap.
    table[0] = {"owner": 1, "cards": ["2C", "3C", "4C", "5C", "JK", "7C", "8C", "9C", "10C",
                                      "JC", "QC", "KC", "AC"], "wilds": ["6C"]}
    env = setup(P("6C 3S 3D", melded=[0, 1], table=table,
                  turn={"number": 5, "melded_turn": [1, 1, -1]}))
    assert legal(env) == sorted(discards("6C 3S 3D"))


# --------------------------------------------------------------------------- SH-4 lay-offs
def test_sh4_lay_offs_on_the_turn_of_the_first_meld():
    table = [{"owner": 1, "cards": ["4D", "5D", "6D", "7D"]}]
    env = setup(P("9C 9D 9H KC KD KH 8D 2S", melded=[1], table=table))
    play(env, "meld set 9x3")
    play(env, "meld set Kx3")
    assert legal(env) == sorted(["lay off 8D on 0"] + discards("8D 2S", "8D"))
    cr = setup(P("9C 9D 9H KC KD KH 8D 2S", melded=[1], table=table), variant="contract_rummy")
    play(cr, "meld set 9x3")
    play(cr, "meld set Kx3")
    assert legal(cr) == sorted(discards("8D 2S"))


# --------------------------------------------------------------------------- SH-5 May I?
def _may_i_position(claims_used=(0, 0, 0)):
    return {"deal": 1, "dealer": 2, "to_move": 0,
            "hands": [["2C", "5D"], ["3C", "6D"], ["4C", "7D"]],
            "discard": ["9S", "KH"], "discarders": [-1, 2], "stock": ["AS", "AD", "AH"],
            "claims_used": list(claims_used)}


def test_sh5_claim_takes_the_discard_and_two_stock_cards_and_play_returns():
    env = setup(_may_i_position())
    assert legal(env) == ["draw stock", "take discard"]
    play(env, "draw stock")  # the player to move declines the KH: a May I? window opens
    st = env.state_obj
    assert st.phase == "claim" and env.agent_selection == "player_1"
    assert legal(env) == ["claim", "pass"]
    play(env, "claim")
    assert sorted(st.hands[1][t] for t in map(parse_card, ["KH", "AS", "AD"])) == [1, 1, 1]
    assert st.hand_size(1) == 5 and st.claims_used == [0, 1, 0]
    # The new top (9S, the up-card) may be claimed by player_2 but not again by player_1.
    assert env.agent_selection == "player_2" and legal(env) == ["claim", "pass"]
    play(env, "pass")
    assert env.agent_selection == "player_0" and st.phase == "play"
    assert st.hands[0][parse_card("AH")] == 1  # the interrupted draw


def test_sh5_at_most_twice_per_player_per_deal():
    env = setup(_may_i_position(claims_used=(0, 2, 0)))
    play(env, "draw stock")
    # player_1 used both claims; player_2 discarded the KH (C-8): nobody may claim.
    assert env.state_obj.phase == "play" and env.agent_selection == "player_0"


# --------------------------------------------------------------------------- SH-6 Shanghai
_TABLE = [{"owner": 1, "cards": ["4D", "5D", "6D", "7D"]}, {"owner": 1, "cards": ["QS", "QH", "QC"]}]


def _sh6(hand0="8D 2S 3C", **kw):
    return P(hand0, melded=[1], table=[dict(m) for m in _TABLE],
             hands=[hand0.split(), ["9C", "9H", "KD"], ["2H", "5S", "10C", "JC"]], **kw)


def test_sh6a_a_discard_that_fits_may_be_announced():
    env = setup(_sh6())
    assert legal(env) == sorted(discards("8D 2S 3C", "8D"))
    play(env, "discard 8D announcing shanghai")
    st = env.state_obj
    # Nobody may take it: the next player only draws, and no May I? window opens.
    assert env.agent_selection == "player_1" and legal(env) == ["draw stock"]
    play(env, "draw stock")
    assert st.phase == "play" and env.agent_selection == "player_1"


def test_sh6b_unannounced_discard_opens_a_shanghai_window_next_player_first():
    env = setup(_sh6(), seed=4)
    play(env, "discard 8D")
    st = env.state_obj
    assert st.phase == "call" and env.agent_selection == "player_1"
    assert legal(env) == ["call shanghai on 0", "pass"]
    play(env, "pass")
    assert env.agent_selection == "player_2" and legal(env) == ["call shanghai on 0", "pass"]
    before0, before2 = st.hand_size(0), st.hand_size(2)
    play(env, "call shanghai on 0")
    # The 8D went onto the run; the discarder drew one of the caller's four cards at random.
    assert [st.table[0].lo, st.table[0].hi] == [4, 8]
    assert st.hand_size(0) == before0 + 1 and st.hand_size(2) == before2 - 1
    assert st.zone_counts() == [2] * 52 + [4]
    # The next player's turn starts on the new top discard.
    assert st.phase == "draw" and env.agent_selection == "player_1"


def test_sh6b_a_shanghai_call_beats_the_next_players_take():
    """The next player, asked first, may take the call itself; a later caller also wins the
    card before the next player could take it."""
    env = setup(_sh6(), seed=4)
    play(env, "discard 8D")
    play(env, "call shanghai on 0")
    st = env.state_obj
    assert st.table[0].hi == 8 and st.hand_size(1) == 2  # gave one card to player_0
    assert env.agent_selection == "player_1" and st.phase == "draw"
    assert st.discard == [] or parse_card("8D") not in st.discard[-1:]


def test_sh6b_joker_discard_names_the_end_and_the_meld():
    env = setup(_sh6("JK 2S 3C"))
    play(env, "discard JK")
    assert legal(env) == ["call shanghai on 0", "call shanghai on 0 low",
                          "call shanghai on 1", "pass"]


def test_sh6_no_window_for_a_discard_that_fits_nothing():
    env = setup(_sh6())
    assert "discard 2S announcing shanghai" not in legal(env)
    play(env, "discard 2S")
    assert env.state_obj.phase == "draw" and env.agent_selection == "player_1"
    assert legal(env) == ["draw stock", "take discard"]


# --------------------------------------------------------------------------- SH-7 scoring
def test_sh7_card_values():
    env = setup({"deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
                 "hands": [["3S"], ["2C", "7D", "8H", "KS", "AC"], ["JK", "10D", "AH"]]})
    play(env, "discard 3S")  # going out by the last discard
    st = env.state_obj
    assert st.last_deal_delta == [0, 5 + 5 + 10 + 10 + 20, 50 + 10 + 20]
    assert SHANGHAI_RUMMY.card_points[parse_card("6C")] == 5


# --------------------------------------------------------------------------- TP
def test_tp1_tp2_ten_cards_and_eight_deals():
    r = SHANGHAI_TAHELIA_POWE
    assert r.hand_sizes == (10,) * 8 and r.num_deals == 8
    assert r.contracts[:6] == CR_CONTRACTS[:6]
    assert (r.contracts[6].sets, r.contracts[6].runs) == ((3, 3, 3, 3), ())
    assert (r.contracts[7].sets, r.contracts[7].runs) == ((), (4, 4, 4))
    assert r.whole_hand_deals == (8,)
    env = rummy_env.make(TP, num_players=4)
    env.reset(seed=0)
    assert [env.state_obj.hand_size(s) for s in range(4)] == [10] * 4


def test_tp2_deal7_four_books_need_more_than_a_hand():
    hand = "5C 5D 5H 8C 8D 8H JC JD JH KC KD"  # 11 cards: three books and two kings
    env = setup(P(hand, deal=7), variant=TP)
    assert melds(env) == []


def test_tp2_deal6_only_by_melding_the_whole_hand():
    hand = "9C 9D 9H 4S 5S 6S 7S 10D JD QD KD"
    env = setup(P(hand, deal=6), variant=TP)
    assert melds(env) == ["meld run D 10-K", "meld run S 4-7", "meld set 9x3"]
    for m in ("meld set 9x3", "meld run S 4-7", "meld run D 10-K"):
        play(env, m)
    assert env.state_obj.went_out == 0


def test_tp3_never_go_out_by_discarding():
    """One card left after the draw would be two: the discard needs two cards, a lay-off that
    leaves one card only when that card can follow."""
    table = [{"owner": 0, "cards": ["4D", "5D", "6D", "7D"]}]
    env = setup(P("8D 2S", melded=[0], table=table, turn={"number": 4, "melded_turn": [1, -1, -1]}),
                variant=TP)
    assert legal(env) == sorted(discards("8D 2S"))  # laying off 8D would strand the 2S
    env = setup(P("8D 9D", melded=[0], table=table, turn={"number": 4, "melded_turn": [1, -1, -1]}),
                variant=TP)
    assert legal(env) == sorted(["lay off 8D on 0"] + discards("8D 9D"))
    play(env, "lay off 8D on 0")
    assert legal(env) == ["lay off 9D on 0"]  # no discard of the last card
    play(env, "lay off 9D on 0")
    assert env.state_obj.went_out == 0
    sh = setup(P("8D 2S", melded=[0], table=table, turn={"number": 4, "melded_turn": [1, -1, -1]}))
    assert "lay off 8D on 0" in legal(sh)


def test_tp3_a_contract_meld_may_not_strand_one_card():
    """Deal 1 after the draw: 7 cards, two books of 3 leave one card; it must fit a meld."""
    env = setup(P("7C 7D 7H 9C 9D 9H 2S"), variant=TP)
    assert melds(env) == []
    env = setup(P("7C 7D 7H 9C 9D 9H 7S"), variant=TP)
    assert melds(env) == ["meld set 7x3", "meld set 7x4", "meld set 9x3"]


def test_tp4_first_meld_holds_one_run_of_a_suit():
    hand = "2H 3H 4H 5H 9H 10H JH QH 2C 3D KS"
    env = setup(P(hand, deal=3), variant=TP)
    assert melds(env) == []
    env = setup(P(hand, deal=3))  # Shanghai allows non-contiguous runs of one suit
    assert melds(env) == ["meld run H 2-5", "meld run H 9-Q"]


def test_tp5_buying_is_may_i_with_the_shanghai_limits():
    r = SHANGHAI_TAHELIA_POWE
    assert (r.may_i, r.claims_per_deal, r.claim_penalty) == (True, 2, 2)
    env = setup(_may_i_position(), variant=TP)
    play(env, "draw stock")
    assert env.state_obj.phase == "claim" and legal(env) == ["claim", "pass"]


def test_tp6_no_shanghai_calls():
    env = setup(_sh6(), variant=TP)
    assert legal(env) == sorted(discards("8D 2S 3C"))
    play(env, "discard 8D")
    assert env.state_obj.phase == "draw" and legal(env) == ["draw stock", "take discard"]


# --------------------------------------------------------------------------- DK
def test_dk_ten_contracts():
    c = [(x.sets, x.runs) for x in DK_CONTRACTS]
    assert c == [((3, 3), ()), ((3,), (4,)), ((), (4, 4)), ((3, 3, 3), ()), ((3,), (7,)),
                 ((3, 3), (5,)), ((4, 4, 4), ()), ((3,), (10,)), ((3, 3, 3), (5,)),
                 ((), (5, 5, 5))]
    r = SHANGHAI_DEB_KOLSOV
    assert r.hand_sizes == (11,) * 10 and r.whole_hand_deals == () and r.shanghai


def test_dk_minimum_run_length():
    """Deal 5: a book of 3 and a run of at least 7."""
    hand = "2C 2D 2H 4S 5S 6S 7S 8S 9S QD"
    env = setup(P(hand + " KD", deal=5), variant=DK)
    assert melds(env) == []
    env = setup(P(hand + " JK", deal=5), variant=DK)
    # The joker fills the run (3 or 10 of spades); a 2x4 book would need a second joker.
    assert melds(env) == ["meld run S 3-9", "meld run S 4-10", "meld set 2x3"]


def test_dk_contract_larger_than_the_hand_needs_claims():
    """Deal 8 (a book of 3 and a run of 10: 13 cards) cannot be met from 12 cards."""
    hand = "2C 2D 2H 3S 4S 5S 6S 7S 8S 9S 10S JS"
    env = setup(P(hand, deal=8), variant=DK)
    assert melds(env) == []
    env = setup(P(hand + " QS", deal=8), variant=DK)
    assert melds(env) == ["meld run S 3-Q", "meld set 2x3"]
