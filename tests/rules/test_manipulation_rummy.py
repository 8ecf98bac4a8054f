"""Rule tests of Manipulation Rummy (RULES section 7, MR-1..MR-10).

Every test builds an exact position through ``env.reset(options={"scenario": ...})`` (or a seeded
fresh deal) and checks the exact legal action set, as sorted strings, or exact deal scores and
rewards (``reward_scale=1``: a reward is the deal's points).
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env.cards import parse_cards
from rummy_env.errors import IllegalActionError, ScenarioError
from rummy_env.manipulation import solver
from rummy_env.manipulation.state import card_value

VARIANT = "manipulation_rummy"


def setup(scenario: dict, num_players: int = 3, seed: int = 0, **options):
    env = rummy_env.make(VARIANT, num_players=num_players, reward_scale=1.0, **options)
    env.reset(seed=seed, options={"scenario": scenario})
    return env


def legal(env) -> list[str]:
    return sorted(env.legal_action_strings())


def play(env, text: str) -> None:
    assert text in env.legal_action_strings(), (text, legal(env))
    env.step(env.string_to_action(text))


def table(text: str) -> tuple[int, ...]:
    c = [0] * 52
    for t in parse_cards(text):
        c[t] += 1
    return tuple(c)


def points(env) -> list[int]:
    return list(env.state_obj.last_deal_points)


# ---------------------------------------------------------------------------------------- MR-1
@pytest.mark.parametrize("n,total,jokers", [(2, 53, 1), (3, 106, 2), (5, 106, 2)])
def test_mr1_deck_deal_and_first_player(n: int, total: int, jokers: int) -> None:
    """MR-1: 53 cards (1 joker) for 2 players, 106 (2 jokers) for 3-5; 10 cards each, the rest
    is the stock; the next seat after the dealer plays first (and has drawn, MR-2)."""
    env = rummy_env.make(VARIANT, num_players=n)
    env.reset(seed=4)
    st = env.state_obj
    state = env.get_state()
    cards = [c for zone in state["zones"].values() for c in zone]
    assert len(cards) == total and cards.count("JK") == jokers
    first = (st.dealer + 1) % n
    assert st.to_move == first and env.agent_selection == f"player_{first}"
    assert [st.hand_size(s) for s in range(n)] == [11 if s == first else 10 for s in range(n)]
    assert len(st.stock) == total - 10 * n - 1


# ---------------------------------------------------------------------------------------- MR-2
def test_mr2_draw_one_decline_draw_two_decline_draw_three_and_no_meld() -> None:
    """MR-2: no meld after the first draw -> decline draws a second card and the player may
    meld; decline again draws the third and the turn ends without a meld."""
    env = setup({"dealer": 2, "hands": [["2C", "9D"], ["KS", "QD"], ["4H", "JC"]],
                 "stock": ["6S", "10C", "5D", "AH", "3S"]})
    assert env.state_obj.hands[0] == [1 if t in parse_cards("2C 9D 6S") else 0
                                      for t in range(53)]
    assert legal(env) == ["decline meld"]
    play(env, "decline meld")
    assert env.state_obj.draws == 2 and env.state_obj.hand_size(0) == 4
    # 6S and 5D ... no meld yet; 10C joins the hand.
    assert legal(env) == ["decline meld"]
    play(env, "decline meld")
    st = env.state_obj
    assert st.hand_size(0) == 5 and st.to_move == 1 and st.draws == 1
    assert st.hand_size(1) == 3  # player_1 drew AH


def test_mr2_meld_after_second_draw() -> None:
    """MR-2: after declining once, the second card may complete a meld."""
    env = setup({"dealer": 2, "hands": [["7C", "7D"], ["KS"], ["4H"]],
                 "stock": ["2S", "7H", "9D"]})
    assert legal(env) == ["decline meld"]
    play(env, "decline meld")
    assert legal(env) == ["decline meld", "play 7C", "play 7D", "play 7H"]


def _run(suit: str, lo: int, hi: int) -> list[str]:
    names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [names[r - 1] + suit for r in range(lo, hi + 1)]


#: Two players: every card but QC KC (player_0), 9D 5S (player_1) and KH (the stock) is on
#: the table, the joker standing for 5S.
FULL_TABLE = [_run("C", 1, 11), _run("D", 1, 8), _run("D", 10, 13), _run("H", 1, 12),
              _run("S", 1, 4) + ["JK=5S"] + _run("S", 6, 13)]


def test_mr2_skipped_draw_when_stock_is_empty_still_melds() -> None:
    """MR-2 [decision]: a draw the empty stock cannot supply is skipped, and the player may
    still meld (here after the second draw)."""
    env = setup({"dealer": 1, "to_move": 0, "phase": "meld", "table": FULL_TABLE,
                 "hands": [["QC", "KC", "KH"], ["9D", "5S"]], "stock": [],
                 "turn": {"draws": 1}}, num_players=2)
    play(env, "decline meld")
    st = env.state_obj
    assert st.draws == 2 and st.phase == "meld" and st.hand_size(0) == 3
    assert legal(env) == ["decline meld", "play KC", "play KH", "play QC"]


# ---------------------------------------------------------------------------------------- MR-3
@pytest.mark.parametrize("cards,valid", [
    ("5H 5S 5C", True),            # a group of three distinct suits
    ("5H 5S 5C 5D", True),         # a group of four
    ("5H 5H 5S", False),           # two identical cards in a group
    ("5H 5S", False),              # too short
    ("AS 2S 3S", True),            # ace low
    ("QS KS AS", True),            # ace high
    ("KS AS 2S", False),           # round the corner (C-3)
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", True),  # the full run, ace both ends
    ("4H 5H 7H", False),           # not consecutive
    ("4H 5D 6H", False),           # not one suit
    ("5H 5S 5C 5D 5H 5S 5C", True),  # two groups of the same rank (two packs)
])
def test_mr3_groups_and_sequences(cards: str, valid: bool) -> None:
    """MR-3: groups of 3-4 of a rank with distinct suits; sequences of 3+ of a suit, ace high
    or low, not round the corner."""
    assert solver.is_valid_table(table(cards)) is valid
    arr = solver.arrange(table(cards))
    assert (arr is not None) is valid
    if arr:
        assert all(solver.meld_is_valid(k, m) for k, m in arr)


def test_mr3_joker_stated_suit_counts_in_a_group() -> None:
    """MR-3/C-4: a joker's stated card counts: 5H 5S JK=5H is two identical cards."""
    with pytest.raises(ScenarioError, match="MR-3"):
        setup({"dealer": 2, "hands": [["KC"], ["KD"], ["KS"]],
               "table": [["5H", "5S", "JK=5H"]]})
    env = setup({"dealer": 2, "hands": [["KC"], ["KD"], ["KS"]],
                 "table": [["5H", "5S", "JK=5C"]]})
    assert "JK=5C" in env.render_text()


# ---------------------------------------------------------------------------------------- MR-4
def test_mr4_first_meld_on_an_empty_table_needs_a_valid_meld() -> None:
    """MR-4: only cards that can end in a valid table are offered; a lone card is not."""
    env = setup({"dealer": 2, "hands": [["7C", "7D", "KS", "2H"], ["KC"], ["4H"]],
                 "stock": ["7S"]})
    assert legal(env) == ["decline meld", "play 7C", "play 7D", "play 7S"]
    play(env, "play 7C")
    # A meld has started: no decline, no finish until the table is valid.
    assert legal(env) == ["play 7D", "play 7S"]
    play(env, "play 7S")
    assert legal(env) == ["play 7D"]
    play(env, "play 7D")
    assert legal(env) == ["finish meld"]
    play(env, "finish meld")
    st = env.state_obj
    assert st.to_move == 1 and sorted(solver.arrange(st.table_counts())[0][1]) == sorted(
        parse_cards("7C 7D 7S"))


def test_mr4_rearranging_the_table() -> None:
    """MR-4: the table may be rearranged: 7C 7D with the table's 4H-7H make 7C 7D 7H and
    4H 5H 6H; with only one of them the table cannot end valid, so each is offered only while
    the other is still in hand."""
    env = setup({"dealer": 2, "hands": [["7C", "7D", "KS"], ["KC"], ["4S"]],
                 "table": [["4H", "5H", "6H", "7H"]], "stock": ["QD"]})
    assert legal(env) == ["decline meld", "play 7C", "play 7D"]
    play(env, "play 7D")
    assert legal(env) == ["play 7C"]
    play(env, "play 7C")
    assert legal(env) == ["finish meld"]


def test_mr4_must_add_a_card_and_keep_table_cards() -> None:
    """MR-4: finishing needs at least one hand card added; nothing leaves the table (there is
    no action that takes a card back)."""
    env = setup({"dealer": 2, "hands": [["8H", "KS"], ["KC"], ["4S"]],
                 "table": [["5H", "6H", "7H"]], "stock": ["QD"]}, illegal_action="raise")
    assert legal(env) == ["decline meld", "play 8H"]
    with pytest.raises(IllegalActionError):
        env.step(env.string_to_action("finish meld"))
    play(env, "play 8H")
    assert legal(env) == ["finish meld"]


# ---------------------------------------------------------------------------------------- MR-5
def test_mr5_joker_is_played_as_a_stated_card() -> None:
    """MR-5: the player states what the joker stands for; only meanings that can end valid."""
    env = setup({"dealer": 2, "hands": [["5H", "6H", "JK", "KS"], ["KC"], ["4S"]],
                 "stock": ["QD"]}, num_players=3)
    assert legal(env) == ["decline meld", "joker as 4H", "joker as 7H", "play 5H", "play 6H"]
    play(env, "joker as 7H")
    assert legal(env) == ["play 5H", "play 6H"]
    play(env, "play 5H")
    play(env, "play 6H")
    assert legal(env) == ["finish meld"]
    play(env, "finish meld")
    assert env.get_state()["table"] == [["5H", "6H", "JK=7H"]]


def test_mr5_free_a_joker_with_the_real_card_from_hand_then_play_it_again() -> None:
    """MR-5: 7H from hand replaces JK=7H; the freed joker must be played again on the same
    turn (no finish while it waits), and keeps its new meaning to the end of the turn."""
    env = setup({"dealer": 2, "hands": [["7H", "KC"], ["KD"], ["4S"]],
                 "table": [["JK=7H", "8H", "9H"]], "stock": ["2D"]})
    # 7H as a natural card would make 7H 7H 8H 9H: invalid. Only the free is offered.
    assert legal(env) == ["decline meld", "free joker 7H from hand"]
    play(env, "free joker 7H from hand")
    assert legal(env) == ["joker as 10H", "joker as 6H"]
    play(env, "joker as 10H")
    assert legal(env) == ["finish meld"]
    play(env, "finish meld")
    assert env.get_state()["table"] == [["7H", "8H", "9H", "JK=10H"]]


def test_mr5_free_a_joker_with_the_real_card_from_the_table() -> None:
    """MR-5: the real card from elsewhere on the table frees the joker; a hand card must still
    be added (MR-4)."""
    env = setup({"dealer": 2, "hands": [["7S", "KC"], ["KD"], ["4S"]],
                 "table": [["JK=7H", "8H", "9H"], ["7C", "7D", "7H"]], "stock": ["2D"]})
    assert legal(env) == ["decline meld", "free joker 7H from table", "play 7S"]
    play(env, "free joker 7H from table")
    # 7H 8H 9H with the joker as 6H or 10H (7S then joins 7C 7D), or the joker back as 7H
    # (7S makes 7C 7D 7H 7S); 7S may also go first.
    assert legal(env) == ["joker as 10H", "joker as 6H", "joker as 7H", "play 7S"]
    play(env, "joker as 10H")
    assert legal(env) == ["play 7S"]


def test_mr6_card_values() -> None:
    """MR-6: joker 25, J Q K 10, 2-10 face value, A 1."""
    assert [card_value(t) for t in parse_cards("JK KH QS JD 10C 9D 2S AC")] == [
        25, 10, 10, 10, 10, 9, 2, 1]


# ---------------------------------------------------------------------------------------- MR-7
def test_mr7_knock_offered_at_five_or_less_after_the_turn() -> None:
    """MR-7: after melding down to AC 2D (3) the player may knock; knocking ends the deal."""
    env = setup({"dealer": 2, "hands": [["AC", "2D", "5H", "6H"], ["KC", "QC"], ["9S"]],
                 "table": [["7H", "8H", "9H"]], "stock": ["4H"]})
    for c in ("play 4H", "play 5H", "play 6H"):
        play(env, c)
    play(env, "finish meld")
    assert legal(env) == ["knock", "no knock"]
    play(env, "knock")
    st = env.state_obj
    assert st.is_deal_over and st.result == "knock"
    # MR-8: knocker lowest: (20 - 3) + (9 - 3) = 23.
    assert points(env) == [23, 0, 0]
    assert env.rewards == {"player_0": 23.0, "player_1": 0.0, "player_2": 0.0}


def test_mr7_no_knock_above_five_and_going_out_ends_the_deal() -> None:
    """MR-7: a hand worth 6 is not offered the knock; emptying the hand ends the deal, and
    MR-8 gives the 25 to the player who went out."""
    env = setup({"dealer": 2, "hands": [["8H"], ["KC", "QC"], ["5D"]],
                 "table": [["5H", "6H", "7H"]], "stock": ["9H"]})
    play(env, "play 8H")
    play(env, "play 9H")
    play(env, "finish meld")
    assert env.state_obj.result == "out"
    assert points(env) == [20 + 5 + 25, 0, 0]


# ---------------------------------------------------------------------------------------- MR-8
@pytest.mark.parametrize("hands,expected", [
    # Someone lower than the knocker: that player wins, with the 10 bonus.
    ([["2C", "3D"], ["AC"], ["KC"]], [0, (5 - 1) + (10 - 1) + 10, 0]),
    # The knocker ties with one player: that player wins, with the bonus.
    ([["AC", "2D"], ["3C"], ["9C"]], [0, (9 - 3) + 10, 0]),
])
def test_mr8_undercut_and_tie(hands, expected) -> None:
    """MR-8: the lowest hand wins (it may not be the knocker); a winner other than the knocker
    scores 10 more; a tie with the knocker goes to the other player."""
    env = setup({"dealer": 2, "to_move": 0, "phase": "knock", "hands": hands,
                 "turn": {"draws": 1}})
    play(env, "knock")
    assert points(env) == expected


def test_mr8_knocker_ties_with_two_players_both_win() -> None:
    """MR-8: the knocker ties with two players: both win, each the sum of differences + 10."""
    env = setup({"dealer": 3, "to_move": 0, "phase": "knock",
                 "hands": [["3C"], ["AC", "2D"], ["3D"], ["10C"]], "turn": {"draws": 1}},
                num_players=4)
    play(env, "knock")
    assert points(env) == [0, 7 + 10, 7 + 10, 0]
    assert env.state_obj.deals_won == [0, 1, 1, 0]


def test_mr8_two_players_score_the_difference() -> None:
    """MR-8: with 2 players the winner scores the difference."""
    env = setup({"dealer": 1, "to_move": 0, "phase": "knock", "hands": [["AC", "2D"], ["9C"]],
                 "turn": {"draws": 1}}, num_players=2)
    play(env, "knock")
    assert points(env) == [6, 0]


# ---------------------------------------------------------------------------------------- MR-9
def test_mr9_extra_turns_after_the_stock_runs_out() -> None:
    """MR-9: the player who took the last card ends their turn; every player then has one
    more turn without a draw, starting with the next seat and ending with that player; then
    the hands are counted; nobody knocked, so the lowest wins without the 10 (MR-8)."""
    env = setup({"dealer": 1, "to_move": 0, "phase": "meld", "table": FULL_TABLE,
                 "hands": [["QC", "KC"], ["9D", "5S"]], "stock": ["KH"],
                 "turn": {"draws": 2}}, num_players=2)
    play(env, "decline meld")  # the third draw takes KH, the last card; no meld
    st = env.state_obj
    assert not st.stock and st.final_round and st.to_move == 1 and st.draws == 0
    assert st.hand_size(1) == 2  # no draw in the extra turn
    # 5S splits the spades into A-5 and JK=5S-K; 9D completes the diamonds.
    assert legal(env) == ["decline meld", "free joker 5S from hand", "play 5S", "play 9D"]
    play(env, "decline meld")
    st = env.state_obj
    assert st.to_move == 0 and st.hand_size(0) == 3 and not st.is_deal_over
    play(env, "decline meld")
    st = env.state_obj
    assert st.is_deal_over and st.result == "stock"
    # player_1 (9D 5S = 14) is lowest against QC KC KH = 30.
    assert points(env) == [0, 30 - 14]


# --------------------------------------------------------------------------------------- MR-10
def test_mr10_game_ends_at_150_with_bonuses() -> None:
    """MR-10: a player reaching 150 ends the game: 100 more to them, 25 per deal won to every
    other player; the highest total wins."""
    env = setup({"dealer": 2, "to_move": 0, "phase": "knock",
                 "hands": [["AC", "2D"], ["5C", "5D"], ["KC"]], "points": [140, 60, 0],
                 "deals_won": [3, 2, 0], "turn": {"draws": 1}}, episode="game")
    play(env, "knock")
    st = env.state_obj
    assert st.is_terminal
    assert points(env) == [14 + 100, 2 * 25, 0]
    assert st.points == [254, 110, 0] and st.standings() == [1, 2, 3]
    assert env.rewards == {"player_0": 114.0, "player_1": 50.0, "player_2": 0.0}


def test_mr10_game_continues_below_the_target() -> None:
    """MR-10: below the target the next deal is dealt (episode="game")."""
    env = setup({"dealer": 2, "to_move": 0, "phase": "knock",
                 "hands": [["AC", "2D"], ["5C", "5D"], ["KC"]], "turn": {"draws": 1}},
                episode="game")
    play(env, "knock")
    st = env.state_obj
    assert not st.is_deal_over and st.deal == 2 and st.points == [14, 0, 0]
    assert st.dealer == 0 and st.to_move == 1
