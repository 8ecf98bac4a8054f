"""Rule tests for the common terms (RULES section 0, C-1..C-9) and Contract Rummy (section 1,
CR-1..CR-13).

Every test builds an exact position (a scenario dict through ``env.reset(options={"scenario":
...})`` or ``state_from_dict``) and checks exact legal action sets, exact hands, exact scores or
exact rewards. The rule id is in each test's name.

Documented engine decisions these tests rely on (rummy_env/contract/state.py docstring):

* CR-11: a deal ends with no one out when a player must draw and the stock is empty with at most
  one discard (the top discard stays, C-7, so nothing can be reshuffled).
* C-8/CR-7: a claim is offered only to players who did not discard the card, who did not claim
  the previous card of the same window, and when the penalty card can be drawn.
* CR-8: a freed joker must be laid off before discarding; a swap is legal only if a joker can
  then be laid off.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import rummy_env
from rummy_env.cards import (
    JOKER, NUM_TYPES, card, card_str, parse_card, parse_cards,
)
from rummy_env.contract.rules import CONTRACT_RUMMY
from rummy_env.contract.scenario import state_from_dict
from rummy_env.contract.state import ContractGame
from rummy_env.errors import CardParseError, IllegalActionError, RuleConfigError, ScenarioError

# --------------------------------------------------------------------------- helpers

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def points(c: str) -> int:
    """CR-12 penalty of one card, written independently of the engine."""
    c = c.upper()
    if c == "JK":
        return 15
    r = c[:-1]
    if r == "A":
        return 15
    if r in ("J", "Q", "K", "10", "T"):
        return 10
    return int(r)


def hand_points(cards) -> int:
    return sum(points(c) for c in cards)


def full_deck(n: int, jokers: bool = True) -> list[str]:
    """CR-1: two packs plus n-1 jokers."""
    deck = [r + s for s in "CDHS" for r in RANKS for _ in range(2)]
    if jokers:
        deck += ["JK"] * (n - 1)
    return deck


def rest_of_deck(n: int, *placed) -> list[str]:
    """Cards of the deck not in any of the given lists (multiset difference), sorted."""
    c = Counter(full_deck(n))
    for lst in placed:
        for x in lst:
            c[x] -= 1
            assert c[x] >= 0, f"too many {x}"
    return sorted(c.elements())


def make_env(n: int = 3, **kw):
    kw.setdefault("reward_scale", 1.0)
    kw.setdefault("illegal_action", "raise")  # a rule test wants the first illegal move to stop
    return rummy_env.make("contract_rummy", num_players=n, **kw)


def env_public(scenario: dict, n: int = 3, seed: int = 0, **kw):
    """An env reset to ``scenario`` through the public scenario API only."""
    e = make_env(n, **kw)
    e.reset(seed=seed, options={"scenario": scenario})
    return e


def env_for(scenario: dict, n: int = 3, seed: int = 0, **kw):
    """An env reset to ``scenario`` (the same as ``env_public``: the name the tests use)."""
    return env_public(scenario, n, seed, **kw)


def legal(e) -> list[str]:
    return sorted(e.legal_action_strings())


def meld_actions(e) -> list[str]:
    return sorted(s for s in e.legal_action_strings() if s.startswith("meld"))


def step(e, text: str) -> None:
    e.step(e.string_to_action(text))


def discards(*cards: str) -> list[str]:
    return [f"discard {c}" for c in cards]


def hand_of(e, seat: int) -> list[str]:
    h = e.state_obj.hands[seat]
    return sorted(card_str(t) for t in range(NUM_TYPES) for _ in range(h[t]))


def srt(xs) -> list[str]:
    return sorted(xs)


def rewards(e) -> list[float]:
    return [e.rewards[f"player_{i}"] for i in range(e.num_players)]


# =========================================================================== C: common terms


def test_c1_card_text_parse_ten_t_lower_case_and_joker():
    assert NUM_TYPES == 53 and JOKER == 52
    ten_h = card(10, 2)
    assert ten_h == 2 * 13 + 9
    assert parse_card("10H") == parse_card("TH") == parse_card("th") == parse_card("10h") == ten_h
    assert parse_card("AS") == parse_card("as") == 3 * 13 + 0
    assert parse_card("QD") == 1 * 13 + 11
    assert parse_card("2C") == 1
    assert parse_card("JK") == parse_card("jk") == JOKER
    assert parse_cards("AS 10H QD 2C JK") == [39, 35, 24, 1, 52]
    assert parse_cards(["ts", "Kc"]) == [3 * 13 + 9, 12]
    # Every type has a distinct text that round-trips.
    texts = [card_str(t) for t in range(NUM_TYPES)]
    assert len(set(texts)) == 53
    assert all(parse_card(s) == t for t, s in enumerate(texts))
    assert card_str(ten_h) == "10H"


@pytest.mark.parametrize("bad", ["", "H", "10", "11H", "0S", "ZZ", "7X", "10HH", "J K", "B7"])
def test_c1_bad_card_text_raises_card_parse_error(bad):
    with pytest.raises(CardParseError):
        parse_card(bad)


def test_c1_bad_card_text_in_scenario_raises_scenario_error():
    with pytest.raises(ScenarioError):
        env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7H", "XX"], ["2C"], ["3C"]]})


def test_c1_copies_of_one_type_are_identical_in_hand_and_actions():
    """Two 7H are one type: count 2, a single 'discard 7H' action; lower case and T accepted."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7h", "7H", "th", "kd"], ["2C"], ["3C"]]})
    assert e.state_obj.hands[0][parse_card("7H")] == 2
    assert legal(e) == srt(discards("7H", "10H", "KD"))
    assert e.string_to_action("discard th") == e.string_to_action("discard 10H")


def test_c2_set_and_run_shapes_validated_in_table():
    """C-2: a set is one rank (suits may repeat in CR), a run consecutive cards of one suit."""
    base = {"deal": 1, "to_move": 0, "phase": "play", "hands": [["2C"], ["3C"], ["4C"]],
            "melded": [1]}
    ok = dict(base, table=[{"owner": 1, "cards": ["7H", "7S", "7H"]},
                           {"owner": 1, "cards": ["AC", "2C", "3C", "4C"]}])
    st = env_public(ok).state_obj
    assert [(m.kind, m.key, m.lo, m.hi) for m in st.table] == [("set", 7, 0, 0),
                                                               ("run", 0, 1, 4)]
    for cards in (["7H", "8S", "9H", "10H"],  # mixed suits
                  ["7H", "9H", "10H", "JH"],  # gap
                  ["7H", "7S", "8H"],  # neither
                  ["QH", "KH", "AH", "2H"]):  # round the corner (C-3)
        with pytest.raises(ScenarioError):
            env_public(dict(base, table=[{"owner": 1, "cards": cards}]))


def test_c2_scenario_table_accepts_runs_at_any_position():
    """C-2/C-3: runs 7-10, 4-7 with a joker, and J-A are valid table melds in a scenario."""
    base = {"deal": 1, "to_move": 0, "phase": "play", "hands": [["2C"], ["3C"], ["4C"]],
            "melded": [1]}
    scn = dict(base, table=[{"owner": 1, "cards": ["7C", "8C", "9C", "10C"]},
                            {"owner": 1, "cards": ["4H", "JK", "6H", "7H"], "wilds": ["5H"]},
                            {"owner": 1, "cards": ["JS", "QS", "KS", "AS"]}])
    st = env_public(scn).state_obj
    assert [(m.kind, m.key, m.lo, m.hi) for m in st.table] == [
        ("run", 0, 7, 10), ("run", 2, 4, 7), ("run", 3, 11, 14)]


def test_c3_ace_low_and_ace_high_runs_legal():
    """C-3: A-2-3-4 and J-Q-K-A are runs (deal 2: one set + one run)."""
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["5C", "5D", "5S", "AH", "2H", "3H", "4H", "9C"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["meld set 5x3", "meld run H A-4"]
                           + discards("5C", "5D", "5S", "AH", "2H", "3H", "4H", "9C"))
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["5C", "5D", "5S", "JH", "QH", "KH", "AH", "9C"], ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld set 5x3", "meld run H J-A"])
    step(e, "meld run H J-A")
    m = e.state_obj.table[0]
    assert (m.kind, m.lo, m.hi) == ("run", 11, 14)
    assert [card_str(c) for c in m.cards] == ["JH", "QH", "KH", "AH"]


def test_c3_round_the_corner_not_a_run():
    """C-3: Q-K-A-2 is not a run: no meld action at all (no run is possible)."""
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["5C", "5D", "5S", "QH", "KH", "AH", "2H", "9C"], ["2C"], ["3C"]]})
    assert legal(e) == srt(discards("5C", "5D", "5S", "QH", "KH", "AH", "2H", "9C"))


def test_c3_round_the_corner_layoff_refused():
    """C-3: a K cannot go below an A-4 run, nor a 2 above a J-A run."""
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "table": [{"owner": 1, "cards": ["AH", "2H", "3H", "4H"]},
                           {"owner": 1, "cards": ["JS", "QS", "KS", "AS"]}],
                 "hands": [["KH", "5H", "2S", "10S"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off 5H on 0", "lay off 10S on 1"]
                           + discards("KH", "5H", "2S", "10S"))


def test_c3_full_fourteen_card_run_holds_both_aces_via_layoffs():
    """C-3/CR-10: 2H-KH takes an ace (high), then the second ace low: the 14-card run."""
    run = [r + "H" for r in RANKS[1:]]  # 2H .. KH
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "table": [{"owner": 1, "cards": run}],
                 "hands": [["AH", "AH", "9C"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off AH on 0"] + discards("AH", "9C"))
    step(e, "lay off AH on 0")
    m = e.state_obj.table[0]
    assert (m.lo, m.hi) == (2, 14)
    assert legal(e) == srt(["lay off AH on 0"] + discards("AH", "9C"))
    step(e, "lay off AH on 0")
    m = e.state_obj.table[0]
    assert (m.lo, m.hi, len(m.cards)) == (1, 14, 14)
    assert [card_str(c) for c in m.cards] == ["AH"] + run + ["AH"]
    assert legal(e) == discards("9C")


def test_c3_ace_high_only_option_refuses_low_ace():
    """C-3: under 'ace high only' (aces_low=False) A-2-3-4 is not a run; J-Q-K-A still is."""
    hands = [["5C", "5D", "5S", "AH", "2H", "3H", "4H", "JD", "QD", "KD", "AD"], ["2C"], ["3C"]]
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "hands": hands}, aces_low=False)
    assert meld_actions(e) == srt(["meld set 5x3", "meld run D J-A"])
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "hands": hands})
    assert meld_actions(e) == srt(["meld set 5x3", "meld run D J-A", "meld run H A-4"])


def test_c4_wild_card_stand_is_fixed_and_recorded():
    """C-4: the card a joker stands for is recorded at the meld and does not change later."""
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["4H", "5H", "JK", "7H", "9C", "9D", "9S", "KD"], ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld run H 4-7", "meld set 9x3"])
    step(e, "meld run H 4-7")
    run = e.state_obj.table[0]
    assert [card_str(c) for c in run.cards] == ["4H", "5H", "JK", "7H"]
    assert [card_str(s) for s in run.stands] == ["4H", "5H", "6H", "7H"]
    assert e.get_state()["table"][0]["wilds"] == ["6H"]
    # Later lay-offs extend the run but the joker still stands for 6H.
    e2 = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1],
                  "table": [{"owner": 1, "cards": ["4H", "5H", "JK", "7H"], "wilds": ["6H"]}],
                  "hands": [["8H", "3H", "KD"], ["2C"], ["3C"]]})
    step(e2, "lay off 8H on 0")
    step(e2, "lay off 3H on 0")
    assert e2.get_state()["table"][0]["wilds"] == ["6H"]
    assert e2.get_state()["table"][0]["cards"] == ["3H", "4H", "5H", "JK", "7H", "8H"]


def test_c5_first_player_is_seat_after_dealer():
    """C-5: on a fresh reset the first player to act is the next seat after the dealer."""
    dealers = set()
    for n in (3, 4, 5):
        e = make_env(n)
        for seed in range(8):
            e.reset(seed=seed)
            st = e.state_obj
            dealers.add((n, st.dealer))
            assert st.to_move == (st.dealer + 1) % n
            assert st.phase == "draw"
            assert e.agent_selection == f"player_{(st.dealer + 1) % n}"
    # The first dealer is drawn at random: more than one seat deals first over the seeds.
    for n in (3, 4, 5):
        assert len({d for (m, d) in dealers if m == n}) > 1


def test_c5_play_passes_to_next_seat_after_discard():
    e = env_for({"deal": 1, "dealer": 1, "to_move": 2, "phase": "play",
                 "hands": [["2C"], ["3C"], ["4C", "5D"]]})
    step(e, "discard 5D")
    assert e.state_obj.to_move == 0 and e.agent_selection == "player_0"
    assert e.state_obj.phase == "draw"


def _go_out_scenario(deal: int, dealer: int, n: int, scores=None) -> dict:
    """The player to move (after the dealer) holds one card and goes out by discarding it."""
    to_move = (dealer + 1) % n
    hands = [["KS", "QS"], ["KH", "QH"], ["KD", "QD"], ["KC", "QC"], ["JC", "JD"]][:n]
    hands[to_move] = ["5D"]
    d = {"deal": deal, "dealer": dealer, "to_move": to_move, "phase": "play", "hands": hands,
         "melded": [to_move], "table": [{"owner": to_move, "cards": ["9C", "9D", "9H"]}]}
    if deal == 7:
        d["table"] = [{"owner": to_move, "cards": ["2D", "3D", "4D", "5D"]}]
        hands[to_move] = ["8S"]
    if scores is not None:
        d["scores"] = scores
    return d


def test_c5_c6_dealer_passes_each_deal_and_scores_carry_in_game_episode():
    """C-5: the deal passes to the next seat; C-6: fresh shuffle, scores carry across deals."""
    n = 4
    e = env_for(_go_out_scenario(1, dealer=2, n=n, scores=[5, 7, 9, 11]), n=n, episode="game")
    step(e, "discard 5D")  # player_3 goes out
    st = e.state_obj
    assert st.deal == 2 and st.phase == "draw"
    assert st.dealer == 3 and st.to_move == 0 and e.agent_selection == "player_0"
    assert st.scores == [5 + 20, 7 + 20, 9 + 20, 11 + 0]
    assert rewards(e) == [-20.0, -20.0, -20.0, 0.0]
    assert [sum(h) for h in st.hands] == [10] * n
    assert st.table == [] and len(st.discard) == 1 and st.melded == [False] * n
    assert st.zone_counts() == [2] * 52 + [3]
    assert not any(e.terminations.values())
    # Wrap-around: dealer 3 in deal 5 passes to dealer 0 in deal 6, player_1 plays first.
    e = env_for(_go_out_scenario(5, dealer=3, n=n), n=n, episode="game")
    step(e, "discard 5D")  # player_0 goes out
    st = e.state_obj
    assert (st.deal, st.dealer, st.to_move) == (6, 0, 1)
    assert [sum(h) for h in st.hands] == [12] * n


def test_c7_draw_from_empty_stock_reshuffles_all_but_top_discard():
    """C-7: drawing from an empty stock shuffles every discard but the top into a new stock."""
    n = 3
    pile = ["3C", "4D", "5S", "9H", "KD"]
    p0 = ["2C"]
    rest = rest_of_deck(n, p0, pile)
    e = env_for({"deal": 1, "to_move": 0, "hands": [p0, rest[:50], rest[50:]],
                 "discard": pile, "stock": []})
    st = e.state_obj
    assert st.stock == [] and legal(e) == srt(["draw stock", "take discard"])
    step(e, "draw stock")
    # May I? on KD (discarded by player_2): only player_1 may claim; they pass.
    assert st.phase == "claim" and st.claim_queue == [1]
    step(e, "pass")
    assert st.phase == "play" and st.to_move == 0
    assert [card_str(t) for t in st.discard] == ["KD"]
    drawn = [c for c in hand_of(e, 0) if c != "2C"]
    assert len(drawn) == 1 and len(st.stock) == 3
    assert srt([card_str(t) for t in st.stock] + drawn) == srt(["3C", "4D", "5S", "9H"])
    assert st.zone_counts() == [2] * 52 + [2]


def test_c7_cr11_no_card_can_be_drawn_ends_deal_with_nobody_out():
    """C-7/CR-11: stock empty and only the top discard left when the next player must draw:
    the deal ends at once, no one out, everyone scores their hand (documented decision)."""
    n = 3
    p0, p1 = ["2C", "7D"], ["KS", "QS"]
    p2 = rest_of_deck(n, p0, p1)
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "hands": [p0, p1, p2],
                 "discard": [], "stock": []})
    assert legal(e) == srt(discards("2C", "7D"))
    step(e, "discard 7D")
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == -1
    assert st.last_deal_delta == [2, 20, hand_points(p2)]
    assert rewards(e) == [-2.0, -20.0, -float(hand_points(p2))]
    assert all(e.terminations.values())


@pytest.mark.parametrize("variant", ["shanghai_rummy", "progressive_rummy"])
def test_cr11_no_card_from_the_stock_ends_the_deal_across_the_family(variant: str) -> None:
    """CR-11 (documented decision, shared by the family): the discard that leaves an empty
    stock and only that card in the pile ends the deal, though the card could be taken; a
    draw-phase scenario of the same position is refused, so play and scenarios agree."""
    n = 3
    p0, p1 = ["2C", "7D"], ["KS", "QS"]
    e = rummy_env.make(variant, num_players=n)
    left = Counter({card_str(t): k for t, k in enumerate(e.game.deck) if k})
    left.subtract(p0 + p1)
    hands = [p0, p1, sorted(left.elements())]
    e.reset(seed=0, options={"scenario": {"deal": 1, "to_move": 0, "phase": "play",
                                          "hands": hands, "discard": [], "stock": []}})
    e.step(e.string_to_action("discard 7D"))
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == -1 and len(st.discard) == 1
    with pytest.raises(ScenarioError, match="CR-11"):
        e.reset(seed=0, options={"scenario": {"deal": 1, "to_move": 1, "phase": "draw",
                                              "hands": [["2C"], p1, hands[2]],
                                              "discard": ["7D"], "stock": []}})


def test_c8_claim_priority_order_starts_after_player_to_move_and_skips_discarder():
    """C-8: claims are asked in order from the seat after the player to move; the seat that
    discarded the card is never asked (5 players, player_2 to move, player_1 discarded)."""
    n = 5
    e = env_for({"deal": 1, "dealer": 1, "to_move": 2,
                 "hands": [["2C"], ["3C"], ["4C"], ["5C"], ["6C"]],
                 "discard": ["9D", "8D"], "discarders": [-1, 1], "stock": ["KS"]}, n=n)
    st = e.state_obj
    step(e, "draw stock")
    assert st.phase == "claim" and st.claim_queue == [3, 4, 0]
    asked = []
    while st.phase == "claim":
        asked.append(e.agent_selection)
        assert legal(e) == ["claim", "pass"]
        step(e, "pass")
    assert asked == ["player_3", "player_4", "player_0"]
    assert st.phase == "play" and e.agent_selection == "player_2"
    assert hand_of(e, 2) == srt(["4C", "KS"])
    assert [card_str(t) for t in st.discard] == ["9D", "8D"]


def test_c8_claim_not_offered_when_penalty_card_cannot_be_drawn():
    """C-8: stock empty, pile of two: the player to move can draw (reshuffle of the bottom
    card) but a claimant could not draw a penalty card, so no claim is offered."""
    n = 3
    pile = ["4D", "KD"]
    p0 = ["2C"]
    rest = rest_of_deck(n, p0, pile)
    e = env_for({"deal": 1, "to_move": 0, "hands": [p0, rest[:50], rest[50:]],
                 "discard": pile, "discarders": [-1, 2], "stock": []})
    st = e.state_obj
    assert legal(e) == srt(["draw stock", "take discard"])
    step(e, "draw stock")
    assert st.phase == "play" and e.agent_selection == "player_0"
    assert hand_of(e, 0) == srt(["2C", "4D"])
    assert [card_str(t) for t in st.discard] == ["KD"] and st.stock == []
    # Control: with one more card in the pile the claim is offered to player_1.
    pile = ["3S", "4D", "KD"]
    rest = rest_of_deck(n, p0, pile)
    e = env_for({"deal": 1, "to_move": 0, "hands": [p0, rest[:50], rest[50:]],
                 "discard": pile, "discarders": [-1, -1, 2], "stock": []})
    step(e, "draw stock")
    assert e.state_obj.phase == "claim" and e.state_obj.claim_queue == [1]


def test_c8_claim_penalty_card_drawn_through_a_reshuffle():
    """C-8/C-7: a claimant's penalty card comes from a reshuffle when the stock is empty; the
    window then moves to the new top, and the player to move draws the last stock card."""
    n = 3
    pile = ["3S", "4D", "5S", "KD"]
    p0 = ["2C"]
    rest = rest_of_deck(n, p0, pile)
    e = env_for({"deal": 1, "to_move": 0, "hands": [p0, rest[:50], rest[50:]],
                 "discard": pile, "discarders": [-1, -1, -1, 2], "stock": []})
    st = e.state_obj
    step(e, "draw stock")
    assert st.claim_queue == [1]
    before = Counter(hand_of(e, 1))
    step(e, "claim")
    got = sorted((Counter(hand_of(e, 1)) - before).elements())
    assert len(got) == 2 and "KD" in got
    x = [c for c in got if c != "KD"]
    assert len(x) == 1 and x[0] in ("3S", "4D")
    assert [card_str(t) for t in st.discard] == ["5S"]
    # Window on 5S: player_1 just claimed, so only player_2 is asked.
    assert st.phase == "claim" and st.claim_queue == [2]
    step(e, "pass")
    y = [c for c in hand_of(e, 0) if c != "2C"]
    assert srt(x + y) == srt(["3S", "4D"])
    assert st.stock == [] and st.phase == "play" and e.agent_selection == "player_0"


def test_c9_ties_share_a_place_in_standings():
    """C-9: tied players share the place (1 = lowest total)."""
    game = ContractGame(CONTRACT_RUMMY, 4)
    rng = np.random.default_rng(0)
    cases = {
        (10, 5, 10, 5): [3, 1, 3, 1],
        (0, 0, 0, 0): [1, 1, 1, 1],
        (30, 20, 10, 20): [4, 2, 1, 2],
        (7, 8, 9, 10): [1, 2, 3, 4],
    }
    for scores, places in cases.items():
        st = state_from_dict(game, {"deal": 1, "to_move": 0, "scores": list(scores)}, rng)
        assert st.standings() == places


def test_c9_cr12_final_standings_after_deal_seven_with_tie():
    """CR-12/C-9: after deal 7 the lowest total wins; tied totals share a place (env infos)."""
    n = 3
    hand0 = ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "7C", "8C"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play", "scores": [40, 10, 10],
                 "hands": [hand0, ["5C"], ["2C", "3D"]]}, n=n)
    for m in ("meld run H 2-5", "meld run S 9-Q", "meld run C 4-8"):
        step(e, m)
    st = e.state_obj
    assert st.phase == "game_over"
    assert st.scores == [40, 15, 15]
    assert st.standings() == [3, 1, 1]
    assert [e.infos[f"player_{i}"]["place"] for i in range(n)] == [3, 1, 1]
    assert rewards(e) == [0.0, -5.0, -5.0]


# =========================================================================== CR: Contract Rummy


@pytest.mark.parametrize("n,total", [(3, 106), (4, 107), (5, 108)])
def test_cr1_deck_sizes_two_packs_plus_players_minus_one_jokers(n, total):
    e = make_env(n)
    e.reset(seed=1)
    zc = e.state_obj.zone_counts()
    assert sum(zc) == total
    assert zc == [2] * 52 + [n - 1]
    assert e.state_obj.game.total_cards == total


def test_cr1_no_jokers_option_and_player_range():
    for n in (3, 4, 5):
        e = make_env(n, jokers=False)
        e.reset(seed=2)
        assert e.state_obj.zone_counts() == [2] * 52 + [0]
    for bad in (2, 6):
        with pytest.raises(RuleConfigError):
            make_env(bad)
    # A scenario that places a joker in a no-joker game is refused.
    with pytest.raises(ScenarioError):
        env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["JK", "2C"], ["3C"], ["4C"]]}, jokers=False)


@pytest.mark.parametrize("deal,size", [(1, 10), (2, 10), (3, 10), (4, 12), (5, 12), (6, 12),
                                       (7, 12)])
def test_cr2_hand_sizes_per_deal(deal, size):
    """CR-2: seven deals, 10 cards in deals 1-3 and 12 in deals 4-7; the rest form the stock
    with the top card turned up (C-7)."""
    n = 4
    e = make_env(n, deal=deal)
    e.reset(seed=deal)
    st = e.state_obj
    assert st.deal == deal and st.rules.num_deals == 7
    assert [sum(h) for h in st.hands] == [size] * n
    assert len(st.discard) == 1 and st.discarder == [-1]
    assert len(st.stock) == 107 - size * n - 1


def test_cr2_game_ends_after_deal_seven():
    """CR-2: seven deals; after deal 7 the game is over (episode="game")."""
    hand = ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "7C", "8C"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play",
                 "hands": [hand, ["KD", "2S"], ["AD", "JK", "3S"]]}, episode="game")
    for m in ("meld run H 2-5", "meld run S 9-Q", "meld run C 4-8"):
        step(e, m)
    assert e.state_obj.phase == "game_over" and e.state_obj.deal == 7
    assert all(e.terminations.values())
    assert e.legal_actions() == []


def test_cr5_empty_discard_pile_only_stock_draw():
    e = env_for({"deal": 1, "to_move": 1, "hands": [["2C"], ["3C", "9D"], ["4C"]],
                 "discard": []})
    assert legal(e) == ["draw stock"]
    step(e, "draw stock")  # no May I? window: there is no discard to claim
    assert e.state_obj.phase == "play" and e.agent_selection == "player_1"


CR3_CASES = [
    # deal, hand, exact contract meld actions offered
    (1, ["7C", "7D", "7H", "9S", "9H", "9D", "2H", "3H", "4H", "5H", "KC"],
     ["meld set 7x3", "meld set 9x3"]),
    (2, ["7C", "7D", "7H", "9S", "9H", "9D", "2H", "3H", "4H", "5H", "KC"],
     ["meld set 7x3", "meld set 9x3", "meld run H 2-5"]),
    (3, ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "7C", "7D", "7H"],
     ["meld run H 2-5", "meld run S 9-Q"]),
    (4, ["7C", "7D", "7H", "9S", "9H", "9D", "KC", "KD", "KS", "2H", "3H", "4H", "5H"],
     ["meld set 7x3", "meld set 9x3", "meld set Kx3"]),
    (5, ["7C", "7D", "7H", "9S", "9H", "9D", "2H", "3H", "4H", "5H", "KC", "QD", "8S"],
     ["meld set 7x3", "meld set 9x3", "meld run H 2-5"]),
    (6, ["7C", "7D", "7H", "2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "KD", "8C"],
     ["meld set 7x3", "meld run H 2-5", "meld run S 9-Q"]),
    (7, ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "7C", "8C"],
     ["meld run H 2-5", "meld run S 9-Q", "meld run C 4-8"]),
]


@pytest.mark.parametrize("deal,hand,expected", CR3_CASES)
def test_cr3_each_contract_offers_exactly_its_melds(deal, hand, expected):
    e = env_for({"deal": deal, "to_move": 0, "phase": "play",
                 "hands": [hand, ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(expected)
    assert legal(e) == srt(expected + discards(*sorted(set(hand))))


def test_cr3_contract_not_offered_when_incomplete():
    """CR-3: deal 4 needs three sets; a hand with two sets and a run gets no meld action."""
    hand = ["7C", "7D", "7H", "9S", "9H", "9D", "2H", "3H", "4H", "5H", "KC", "QD", "8S"]
    e = env_for({"deal": 4, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert legal(e) == srt(discards(*sorted(set(hand))))
    # Deal 3 needs two runs: one run and sets are not enough.
    hand = ["2H", "3H", "4H", "5H", "7C", "7D", "7H", "9S", "9H", "9D", "KC"]
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert meld_actions(e) == []


def test_cr3_contract_in_progress_allows_only_remaining_melds():
    """CR-3/CR-5: once the contract meld is started only its remaining melds are legal."""
    hand = ["7C", "7D", "7H", "9S", "9H", "9D", "2H", "3H", "4H", "5H", "KC", "QD", "8S"]
    e = env_for({"deal": 5, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    step(e, "meld run H 2-5")
    assert legal(e) == srt(["meld set 7x3", "meld set 9x3"])
    step(e, "meld set 9x3")
    assert legal(e) == ["meld set 7x3"]
    step(e, "meld set 7x3")
    st = e.state_obj
    assert st.melded[0] and len(st.table) == 3
    assert legal(e) == srt(discards("KC", "QD", "8S"))


def test_cr4_set_with_duplicate_suits():
    """CR-4: suits are free in a set: 7H 7H 7C is a set of 3."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7H", "7H", "7C", "QS", "QS", "QD", "2D"], ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld set 7x3", "meld set Qx3"])
    step(e, "meld set 7x3")
    assert srt(card_str(c) for c in e.state_obj.table[0].cards) == srt(["7H", "7H", "7C"])
    assert legal(e) == ["meld set Qx3"]
    step(e, "meld set Qx3")
    assert e.state_obj.melded[0]
    assert srt(card_str(c) for c in e.state_obj.table[1].cards) == srt(["QS", "QS", "QD"])


def test_cr4_two_sets_of_same_rank_in_one_contract():
    e = env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7C", "7D", "7H", "7S", "7C", "7D", "2H", "5S", "9D", "KC"],
                           ["2C"], ["3C"]]})
    assert meld_actions(e) == ["meld set 7x3"]
    step(e, "meld set 7x3")
    assert legal(e) == ["meld set 7x3"]
    step(e, "meld set 7x3")
    st = e.state_obj
    assert st.melded[0]
    assert [(m.kind, m.key, len(m.cards)) for m in st.table] == [("set", 7, 3), ("set", 7, 3)]
    assert hand_of(e, 0) == srt(["2H", "5S", "9D", "KC"])


def test_cr4_set_of_one_natural_and_two_jokers():
    """CR-4/C-4: a set needs one natural card; the jokers stand for the missing suits."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7C", "JK", "JK", "9C", "9D", "9S", "KD"], ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld set 7x3", "meld set 9x3", "meld set Kx3"])
    step(e, "meld set 7x3")
    m = e.state_obj.table[0]
    assert [card_str(c) for c in m.cards] == ["7C", "JK", "JK"]
    assert [card_str(x) for x in m.stands] == ["7C", "7D", "7H"]
    assert legal(e) == ["meld set 9x3"]
    step(e, "meld set 9x3")
    assert e.state_obj.melded[0] and hand_of(e, 0) == ["KD"]
    assert legal(e) == ["discard KD"]


def test_cr4_no_meld_of_jokers_only():
    """CR-4: every meld holds a natural card: a table of jokers only is refused, and a contract
    melded from 7C 7D 7H JK JK JK splits the 7s rather than laying JK JK JK."""
    with pytest.raises(ScenarioError):
        env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [1],
                 "hands": [["2C"], ["3C"], ["4C"]],
                 "table": [{"owner": 1, "cards": ["JK", "JK", "JK"], "wilds": ["7C", "7D", "7H"]}]},
                n=4)
    e = env_for({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": [["7C", "7D", "7H", "JK", "JK", "JK"], ["2C"], ["3C"], ["4C"]]}, n=4)
    assert meld_actions(e) == ["meld set 7x3"]
    step(e, "meld set 7x3")
    assert legal(e) == ["meld set 7x3"]
    step(e, "meld set 7x3")
    st = e.state_obj
    assert len(st.table) == 2
    for m in st.table:
        assert any(c != JOKER for c in m.cards)
    assert srt(c for m in st.table for c in map(card_str, m.cards)) == srt(
        ["7C", "7D", "7H", "JK", "JK", "JK"])


def test_cr5_contract_melds_have_exact_sizes():
    """CR-5: sets of exactly 3 and runs of exactly 4 in the contract meld (deals 1-6)."""
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["9C", "9D", "9S", "9H", "2H", "3H", "4H", "5H", "6H", "KC"],
                           ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld set 9x3", "meld run H 2-5", "meld run H 3-6"])
    with pytest.raises(IllegalActionError):
        e.string_to_action("meld set 9x4")  # no such action: sets are laid 3 at a time
    for text in ("meld run H 2-6", "meld run H 2-7"):
        with pytest.raises(IllegalActionError):
            e.step(e.string_to_action(text))
    assert e.state_obj.table == []


def test_cr5_melding_optional_and_draw_phase_actions():
    """CR-5: the draw step offers stock or discard; melding is optional (discards offered)."""
    hand = ["7C", "7D", "7H", "9S", "9H", "9D", "KC"]
    e = env_for({"deal": 1, "to_move": 0, "hands": [hand, ["2C"], ["3C"]],
                 "discard": ["QS"], "stock": ["4D"]})
    assert legal(e) == srt(["draw stock", "take discard"])
    step(e, "take discard")
    assert hand_of(e, 0) == srt(hand + ["QS"])
    assert legal(e) == srt(["meld set 7x3", "meld set 9x3"]
                           + discards("7C", "7D", "7H", "9S", "9H", "9D", "KC", "QS"))
    step(e, "discard 9S")  # declines to meld
    st = e.state_obj
    assert st.table == [] and not st.melded[0] and st.to_move == 1


def test_cr5_layoffs_only_from_the_next_turn():
    """CR-5: no lay-off on the turn of the contract meld; allowed on a later turn."""
    n = 3
    e = env_for({"deal": 2, "to_move": 0, "phase": "play",
                 "hands": [["7C", "7D", "7H", "2H", "3H", "4H", "5H", "6H", "KS", "QD"],
                           ["9C", "10C"], ["4S", "8D"]],
                 "stock": ["2D", "3D", "4D"]}, n=n)
    assert meld_actions(e) == srt(["meld set 7x3", "meld run H 2-5", "meld run H 3-6"])
    step(e, "meld set 7x3")
    assert legal(e) == srt(["meld run H 2-5", "meld run H 3-6"])
    step(e, "meld run H 2-5")
    # Melded this turn: 6H fits the run but may not be laid off yet.
    assert legal(e) == srt(discards("6H", "KS", "QD"))
    step(e, "discard KS")
    step(e, "take discard")  # player_1 takes KS
    step(e, "discard 9C")
    step(e, "take discard")  # player_2 takes 9C
    step(e, "discard 8D")
    assert e.agent_selection == "player_0"
    step(e, "take discard")  # player_0 takes 8D
    assert legal(e) == srt(["lay off 6H on 1"] + discards("6H", "8D", "QD"))
    step(e, "lay off 6H on 1")
    assert [card_str(c) for c in e.state_obj.table[1].cards] == ["2H", "3H", "4H", "5H", "6H"]


def test_cr5_meld_at_most_once_per_deal():
    """CR-5: a player who has met the contract cannot meld a contract again this deal."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0],
                 "turn": {"number": 4},
                 "table": [{"owner": 0, "cards": ["5C", "5D", "5S"]},
                           {"owner": 0, "cards": ["8C", "8D", "8H"]}],
                 "hands": [["7C", "7D", "7H", "9C", "9D", "9H", "5H"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off 5H on 0"]
                           + discards("7C", "7D", "7H", "9C", "9D", "9H", "5H"))


def test_cr5_layoff_needs_the_contract():
    """CR-5: a player who has not melded cannot lay off on others' melds."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [1],
                 "table": [{"owner": 1, "cards": ["5C", "5D", "5S"]},
                           {"owner": 1, "cards": ["8C", "8D", "8H"]}],
                 "hands": [["5H", "8S", "KD"], ["2C"], ["3C"]]})
    assert legal(e) == srt(discards("5H", "8S", "KD"))


def test_cr6_going_out_by_laying_off_last_card():
    """CR-6: laying off the last card goes out; the deal ends at once, reward = -penalty."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0],
                 "table": [{"owner": 0, "cards": ["5C", "5D", "5S"]},
                           {"owner": 0, "cards": ["4H", "5H", "6H", "7H"]}],
                 "hands": [["8H"], ["JH", "QH", "KH", "10H"], ["AH", "JK", "2C", "9D"]]})
    assert legal(e) == srt(["lay off 8H on 1", "discard 8H"])
    step(e, "lay off 8H on 1")
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == 0 and st.discard[-1] != parse_card("8H")
    assert st.last_deal_delta == [0, 40, 41]
    assert rewards(e) == [0.0, -40.0, -41.0]
    assert all(e.terminations.values())
    assert e.legal_actions() == []


def test_cr6_going_out_by_discarding_last_card_and_reward_scale():
    scn = {"deal": 1, "to_move": 1, "phase": "play", "melded": [1],
           "table": [{"owner": 1, "cards": ["5C", "5D", "5S"]},
                     {"owner": 1, "cards": ["9C", "9D", "9S"]}],
           "hands": [["KC", "2D"], ["QS"], ["3H", "3S", "AC"]]}
    e = env_for(scn)
    assert legal(e) == ["discard QS"]
    step(e, "discard QS")
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == 1
    assert card_str(st.discard[-1]) == "QS"
    assert st.last_deal_delta == [12, 0, 21]
    assert rewards(e) == [-12.0, 0.0, -21.0]
    e = env_for(scn, reward_scale=0.01)
    step(e, "discard QS")
    assert rewards(e) == pytest.approx([-0.12, 0.0, -0.21])


def _may_i_scenario(**extra) -> dict:
    d = {"deal": 1, "dealer": 3, "to_move": 0,
         "hands": [["KC"], ["QC"], ["JC"], ["10C"]],
         "discard": ["9D", "8D", "7D"], "discarders": [-1, 1, 3],
         "stock": ["2S", "3S", "4S", "6S"],
         "melded": [2], "table": [{"owner": 2, "cards": ["5C", "5D", "5S"]}]}
    d.update(extra)
    return d


def test_cr7_may_i_window_order_chaining_and_no_consecutive_claims():
    """CR-7: on a stock draw the others may claim the top discard in order (C-8); the first
    claimer takes it plus the top stock card; the new top may be claimed the same way; no one
    claims two consecutive discards; then the player to move draws the stock and plays on.
    player_2 has melded and may still claim."""
    n = 4
    e = env_for(_may_i_scenario(), n=n)
    st = e.state_obj
    step(e, "draw stock")
    # 7D was discarded by player_3: asked are player_1 then player_2.
    assert st.phase == "claim" and st.claim_queue == [1, 2]
    assert e.agent_selection == "player_1" and legal(e) == ["claim", "pass"]
    step(e, "pass")
    assert e.agent_selection == "player_2"
    step(e, "claim")
    assert hand_of(e, 2) == srt(["JC", "7D", "2S"])
    # Window on 8D (discarded by player_1); player_2 just claimed: only player_3.
    assert st.phase == "claim" and st.claim_queue == [3] and e.agent_selection == "player_3"
    step(e, "claim")
    assert hand_of(e, 3) == srt(["10C", "8D", "3S"])
    # Window on 9D (the up-card): player_3 just claimed; player_1, player_2 are asked.
    assert st.claim_queue == [1, 2] and e.agent_selection == "player_1"
    step(e, "pass")
    step(e, "claim")  # player_2 claims again: not two consecutive discards
    assert hand_of(e, 2) == srt(["JC", "7D", "2S", "9D", "4S"])
    # Pile empty: the player to move draws the next stock card and plays on.
    assert st.phase == "play" and st.to_move == 0 and e.agent_selection == "player_0"
    assert hand_of(e, 0) == srt(["KC", "6S"])
    assert hand_of(e, 1) == ["QC"]
    assert st.discard == [] and st.claims_used == [0, 0, 2, 1]
    assert legal(e) == srt(discards("KC", "6S"))
    assert st.zone_counts() == [2] * 52 + [3]


def test_cr7_everyone_passes_then_mover_draws():
    n = 4
    e = env_for(_may_i_scenario(), n=n)
    st = e.state_obj
    step(e, "draw stock")
    step(e, "pass")
    step(e, "pass")
    assert st.phase == "play" and e.agent_selection == "player_0"
    assert hand_of(e, 0) == srt(["KC", "2S"])
    assert [card_str(t) for t in st.discard] == ["9D", "8D", "7D"]
    assert st.claims_used == [0, 0, 0, 0]


def test_cr7_taking_the_discard_opens_no_window():
    """CR-7: if the player to move takes the discard no one can claim it; no penalty card."""
    n = 4
    e = env_for(_may_i_scenario(), n=n)
    st = e.state_obj
    step(e, "take discard")
    assert st.phase == "play" and e.agent_selection == "player_0"
    assert hand_of(e, 0) == srt(["KC", "7D"])
    assert [card_str(t) for t in st.discard] == ["9D", "8D"]
    assert [card_str(t) for t in reversed(st.stock[-4:])] == ["2S", "3S", "4S", "6S"]
    assert [hand_of(e, s) for s in (1, 2, 3)] == [["QC"], ["JC"], ["10C"]]


def test_cr7_cr11_claims_exhausting_stock_and_pile_end_the_deal():
    """CR-7/CR-11: a claim takes the last stock card; nothing is left for the player to move
    (one discard, empty stock): the deal ends with no one out, everyone scores their hand."""
    n = 4
    pile = ["9D", "7D"]
    hands = [["KC"], ["QC"], ["JC"]]
    sink = rest_of_deck(n, *hands, pile, ["6S"])
    e = env_for({"deal": 1, "dealer": 3, "to_move": 0, "hands": hands + [sink],
                 "discard": pile, "discarders": [-1, 3], "stock": ["6S"]}, n=n)
    st = e.state_obj
    step(e, "draw stock")
    assert st.claim_queue == [1, 2]
    step(e, "claim")
    assert hand_of(e, 1) == srt(["QC", "7D", "6S"])
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == -1
    assert st.last_deal_delta == [10, 10 + 7 + 6, 10, hand_points(sink)]
    assert rewards(e) == [-10.0, -23.0, -10.0, -float(hand_points(sink))]


def test_cr8_joker_swap_in_run_and_freed_joker_must_be_laid_off():
    """CR-8: a player who melded on an earlier turn swaps the natural for a run's joker; the
    joker must be laid off before discarding; a set's joker is never swappable."""
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "turn": {"number": 5, "melded_turn": [2, 3, -1]},
                 "table": [{"owner": 1, "cards": ["4H", "JK", "6H", "7H"], "wilds": ["5H"]},
                           {"owner": 1, "cards": ["9C", "9D", "JK"], "wilds": ["9H"]}],
                 "hands": [["5H", "9H", "KS"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["swap 5H for joker on 0", "lay off 9H on 1"]
                           + discards("5H", "9H", "KS"))
    step(e, "swap 5H for joker on 0")
    st = e.state_obj
    assert [card_str(c) for c in st.table[0].cards] == ["4H", "5H", "6H", "7H"]
    assert hand_of(e, 0) == srt(["9H", "KS", "JK"])
    # No discard until the joker is laid off.
    assert legal(e) == srt(["lay off JK on 0", "lay off JK low on 0", "lay off JK on 1",
                            "lay off 9H on 1"])
    step(e, "lay off 9H on 1")
    assert legal(e) == srt(["lay off JK on 0", "lay off JK low on 0", "lay off JK on 1"])
    step(e, "lay off JK low on 0")
    assert [card_str(s) for s in st.table[0].stands] == ["3H", "4H", "5H", "6H", "7H"]
    assert legal(e) == ["discard KS"]


def test_cr6_cr8_swap_then_lay_off_the_joker_as_last_card_goes_out():
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "table": [{"owner": 1, "cards": ["4H", "JK", "6H", "7H"], "wilds": ["5H"]}],
                 "hands": [["5H"], ["2C", "3C"], ["4C"]]})
    assert legal(e) == srt(["swap 5H for joker on 0", "discard 5H"])
    step(e, "swap 5H for joker on 0")
    assert legal(e) == srt(["lay off JK on 0", "lay off JK low on 0"])
    step(e, "lay off JK on 0")
    st = e.state_obj
    assert st.phase == "deal_over" and st.went_out == 0
    assert [card_str(c) for c in st.table[0].cards] == ["4H", "5H", "6H", "7H", "JK"]
    assert rewards(e) == [0.0, -5.0, -4.0]


def test_cr8_no_swap_on_the_meld_turn_or_without_meld():
    table = [{"owner": 1, "cards": ["4H", "JK", "6H", "7H"], "wilds": ["5H"]}]
    # Melded this very turn: no swap, no lay-off.
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "turn": {"number": 5, "melded_turn": [5, 3, -1]}, "table": table,
                 "hands": [["5H", "8H", "KS"], ["2C"], ["3C"]]})
    assert legal(e) == srt(discards("5H", "8H", "KS"))
    # Not melded: no swap, no lay-off.
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [1], "table": table,
                 "hands": [["5H", "8H", "KS"], ["2C"], ["3C"]]})
    assert legal(e) == srt(discards("5H", "8H", "KS"))


def test_cr8_swap_refused_when_freed_joker_cannot_be_laid_off():
    """CR-8: the freed joker is never kept: if no meld can take it, the swap is not legal."""
    full_h = ["AH", "2H", "3H", "4H", "JK"] + [r + "H" for r in RANKS[5:]] + ["AH"]
    full_s = [r + "S" for r in RANKS] + ["AS"]
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "melded": [0],
                 "table": [{"owner": 0, "cards": full_h, "wilds": ["5H"]},
                           {"owner": 0, "cards": full_s}],
                 "hands": [["5H", "2C"], ["3C"], ["4C"]]})
    assert legal(e) == srt(discards("5H", "2C"))


def test_cr8_set_jokers_are_dead():
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0],
                 "table": [{"owner": 0, "cards": ["9C", "JK", "9D"], "wilds": ["9H"]},
                           {"owner": 0, "cards": ["4C", "4D", "4S"]}],
                 "hands": [["9H", "KS"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off 9H on 0"] + discards("9H", "KS"))


def test_cr9_contiguous_same_suit_runs_refused_in_deal_3():
    hand = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "2C", "5D"]
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert legal(e) == srt(discards(*hand))


def test_cr9_overlapping_or_gapped_runs_allowed():
    hand = ["3H", "4H", "5H", "6H", "5H", "6H", "7H", "8H", "2C"]
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld run H 3-6", "meld run H 5-8"])
    step(e, "meld run H 3-6")
    assert legal(e) == ["meld run H 5-8"]
    step(e, "meld run H 5-8")
    assert e.state_obj.melded[0]
    hand = ["3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH", "2C"]
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert meld_actions(e) == srt(["meld run H 3-6", "meld run H 8-J"])


def test_cr9_contiguity_in_deals_6_and_7():
    hand = ["7C", "7D", "7S", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "KD"]
    e = env_for({"deal": 6, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert meld_actions(e) == []
    hand = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "4C", "5C", "6C", "7C", "8C"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play", "hands": [hand, ["2C"], ["3C"]]})
    assert legal(e) == srt(discards(*hand))


def test_cr9_layoffs_may_make_runs_contiguous_later():
    e = env_for({"deal": 3, "to_move": 0, "phase": "play", "melded": [0],
                 "table": [{"owner": 0, "cards": ["3H", "4H", "5H", "6H"]},
                           {"owner": 0, "cards": ["8H", "9H", "10H", "JH"]}],
                 "hands": [["7H", "KS"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off 7H on 0", "lay off 7H on 1"] + discards("7H", "KS"))
    step(e, "lay off 7H on 0")
    st = e.state_obj
    assert [(m.lo, m.hi) for m in st.table] == [(3, 7), (8, 11)]
    assert legal(e) == ["discard KS"]


def test_cr10_extend_runs_at_either_end_and_sets_with_jokers():
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1, 2],
                 "table": [{"owner": 1, "cards": ["5H", "6H", "7H", "8H"]},
                           {"owner": 2, "cards": ["7C", "7D", "7S"]}],
                 "hands": [["4H", "9H", "5H", "JK", "7C", "KD"], ["2C"], ["3C"]]})
    assert legal(e) == srt(["lay off 4H on 0", "lay off 9H on 0", "lay off JK on 0",
                            "lay off JK low on 0", "lay off JK on 1", "lay off 7C on 1"]
                           + discards("4H", "9H", "5H", "JK", "7C", "KD"))
    step(e, "lay off JK low on 0")
    st = e.state_obj
    assert (st.table[0].lo, st.table[0].hi) == (4, 8)
    assert card_str(st.table[0].stands[0]) == "4H"
    # 4H no longer fits at the end (the joker holds its place) but may replace the joker
    # (CR-8: this player melded on an earlier turn); 9H still fits.
    assert legal(e) == srt(["lay off 9H on 0", "lay off 7C on 1", "swap 4H for joker on 0"]
                           + discards("4H", "9H", "5H", "7C", "KD"))
    step(e, "lay off 7C on 1")
    assert len(st.table[1].cards) == 4
    assert srt(card_str(c) for c in st.table[1].cards) == srt(["7C", "7D", "7S", "7C"])


def test_cr10_joker_end_choice_and_fourteen_card_limit():
    """CR-10: a joker on A-K can go only at the high end (ace high); on 2-A only the low end;
    the 14-card run takes nothing more."""
    run_ak = [r + "H" for r in RANKS]
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "table": [{"owner": 1, "cards": run_ak}],
                 "hands": [["JK", "5C"], ["2C"], ["3C"]]}, n=3)
    assert legal(e) == srt(["lay off JK on 0"] + discards("JK", "5C"))
    step(e, "lay off JK on 0")
    m = e.state_obj.table[0]
    assert (m.lo, m.hi, len(m.cards)) == (1, 14, 14) and card_str(m.stands[-1]) == "AH"
    assert legal(e) == ["discard 5C"]
    run_2a = [r + "H" for r in RANKS[1:]] + ["AH"]
    e = env_for({"deal": 2, "to_move": 0, "phase": "play", "melded": [0, 1],
                 "table": [{"owner": 1, "cards": run_2a}],
                 "hands": [["JK", "AH", "5C"], ["2C"], ["3C"]]}, n=3)
    assert legal(e) == srt(["lay off JK low on 0", "lay off AH on 0"]
                           + discards("JK", "AH", "5C"))
    step(e, "lay off JK low on 0")
    m = e.state_obj.table[0]
    assert (m.lo, m.hi, len(m.cards)) == (1, 14, 14) and card_str(m.stands[0]) == "AH"
    assert legal(e) == srt(discards("AH", "5C"))


def test_cr12_scoring_values():
    """CR-12: J Q K 10, A 15, joker 15, 2-10 face value; the player out scores 0."""
    p1 = ["JH", "QD", "KS", "10C", "2D", "9S"]  # 10+10+10+10+2+9 = 51
    p2 = ["AH", "AS", "JK", "3C", "5D", "7H", "8C"]  # 15+15+15+3+5+7+8 = 68
    e = env_for({"deal": 1, "to_move": 0, "phase": "play", "melded": [0],
                 "table": [{"owner": 0, "cards": ["5C", "5H", "5S"]},
                           {"owner": 0, "cards": ["9C", "9D", "9H"]}],
                 "scores": [3, 4, 5],
                 "hands": [["4D"], p1, p2]})
    step(e, "discard 4D")
    st = e.state_obj
    assert st.last_deal_delta == [0, 51, 68]
    assert st.scores == [3, 55, 73]
    assert rewards(e) == [0.0, -51.0, -68.0]
    assert st.standings() == [1, 2, 3]
    assert [st.penalty(s) for s in range(3)] == [0, 51, 68]


def test_cr13_deal_seven_whole_hand_meld_no_discard_deal_ends():
    n = 3
    hand = ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "7C", "8C"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play",
                 "hands": [hand, ["KD", "2S"], ["AD", "JK", "3S"]],
                 "discard": ["6D"]}, n=n)
    assert legal(e) == srt(["meld run H 2-5", "meld run S 9-Q", "meld run C 4-8"]
                           + discards(*hand))
    step(e, "meld run C 4-8")
    assert legal(e) == srt(["meld run H 2-5", "meld run S 9-Q"])
    step(e, "meld run H 2-5")
    assert legal(e) == ["meld run S 9-Q"]
    step(e, "meld run S 9-Q")
    st = e.state_obj
    assert st.phase == "game_over" and st.went_out == 0
    assert [card_str(t) for t in st.discard] == ["6D"]  # no discard was made
    assert sum(st.hands[0]) == 0 and len(st.table) == 3
    assert st.last_deal_delta == [0, 12, 33]
    assert rewards(e) == [0.0, -12.0, -33.0]
    assert all(e.terminations.values())


def test_cr13_hand_that_cannot_use_every_card_gets_no_meld():
    hand = ["2H", "3H", "4H", "5H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "7C", "KD"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play",
                 "hands": [hand, ["2C"], ["3C"]]})
    assert legal(e) == srt(discards(*hand))


def test_cr13_longer_runs_and_jokers_in_whole_hand_meld():
    """CR-13: runs may be longer than 4; a joker fills a missing card; every card is used."""
    hand = ["2H", "3H", "4H", "5H", "6H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "JK"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play",
                 "hands": [hand, ["2C"], ["3C"]]})
    # The joker must complete the clubs (C 3-6 or C 4-7); H 2-6 is a 5-card run.
    assert meld_actions(e) == srt(["meld run H 2-6", "meld run S 9-Q", "meld run C 3-6",
                                   "meld run C 4-7"])
    step(e, "meld run C 4-7")
    assert legal(e) == srt(["meld run H 2-6", "meld run S 9-Q"])
    step(e, "meld run H 2-6")
    step(e, "meld run S 9-Q")
    st = e.state_obj
    assert st.phase == "game_over" and st.went_out == 0
    assert [card_str(s) for s in st.table[0].stands] == ["4C", "5C", "6C", "7C"]


def test_cr13_whole_hand_contract_in_progress_with_a_longer_run_reloads():
    """CR-13 (with CR-5): in the whole-hand deal a contract run may be longer than 4, also while
    the contract is still being laid; such a turn saved by ``get_state()`` reloads exactly (it
    was refused as "not a meld deal 7's contract still needs", the check using CR-5's exact
    sizes), and play goes on from it: the other two runs, then the deal is over."""
    hand = ["2H", "3H", "4H", "5H", "6H", "9S", "10S", "JS", "QS", "4C", "5C", "6C", "JK"]
    e = env_for({"deal": 7, "to_move": 0, "phase": "play",
                 "hands": [hand, ["2C"], ["3C"]]})
    step(e, "meld run H 2-6")
    saved = e.get_state()
    assert saved["turn"]["contract_laid"] == [["run", 2, 2, 6]]
    assert sorted(map(tuple, saved["turn"]["contract_left"])) == [("run", 4), ("run", 4)]
    again = env_for(saved)
    assert again.get_state() == saved
    assert legal(again) == legal(e) == srt(["meld run S 9-Q", "meld run C 3-6",
                                            "meld run C 4-7"])
    step(again, "meld run C 3-6")
    step(again, "meld run S 9-Q")
    assert again.state_obj.phase == "game_over" and again.state_obj.went_out == 0


def test_cr5_contract_in_progress_with_a_longer_run_is_refused_outside_the_whole_hand_deal():
    """CR-5: outside the whole-hand deal a contract meld holds exactly its minimum, so a saved
    turn claiming a 5-card contract run is refused with an error naming the field."""
    saved = {"deal": 3, "to_move": 0, "phase": "play",
             "hands": [["9S", "10S", "JS", "QS", "KD"], ["2C"], ["3C"]],
             "table": [{"owner": 0, "cards": ["2H", "3H", "4H", "5H", "6H"]}], "melded": [],
             "turn": {"contract_left": [["run", 4]], "contract_laid": [["run", 2, 2, 6]]}}
    with pytest.raises(ScenarioError, match=r"turn\.contract_laid\[0\]"):
        env_for(saved)
