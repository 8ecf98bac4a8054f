"""SH-1 with SH-4: the final three-runs deal (CR-13) of Shanghai, Tahelia Powe and a Deb Kolsov game
with a final deal (issue 16, point 5).

SH-1: "Deal 7 is the final three-runs deal (CR-13), with SH-4's same-turn lay-offs: the player
must empty the hand on the meld turn, with no discard." SH-4 lets cards be laid off on the turn
of the first meld. So the three runs need not hold the whole hand: a shorter run is legal when
every card it leaves can then be laid off on that turn; after the contract only such lay-offs are
legal (no discard), and the deal ends when the hand is empty. Contract Rummy's CR-13 (and the
single-pack rules, SP-5) keep the three runs as the whole hand; ``whole_hand_layoffs=False`` gives
Shanghai that rule, which the tests use to show what SH-1 changes.

Every test builds the exact position with ``env.reset(options={"scenario": ...})`` and checks the
exact legal action set as sorted strings.
"""

from __future__ import annotations

import rummy_env

SH, TP, DK = "shanghai_rummy", "shanghai_tahelia_powe", "shanghai_deb_kolsov"


def setup(hand0: str, deal: int, variant: str = SH, **kw):
    """Seat 0 to move in the play phase (after its draw) holding ``hand0``; ``kw``: scenario keys
    (``table``, ``melded``, ``turn``) or rule options."""
    scen_keys = {"table", "melded", "turn"}
    scen = {"deal": deal, "dealer": 2, "to_move": 0, "phase": "play",
            "hands": [hand0.split(), ["2D"], ["2S"]]}
    scen.update({k: v for k, v in kw.items() if k in scen_keys})
    env = rummy_env.make(variant, num_players=3, illegal_action="raise",
                         **{k: v for k, v in kw.items() if k not in scen_keys})
    env.reset(seed=0, options={"scenario": scen})
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


ISSUE_HAND = "2C 3C 4C 5C 6C 7D 8D 9D 10D JD JS QS KS AS"


def test_sh1_tp2_shorter_runs_then_lay_off_the_rest():
    """Tahelia Powe deal 8 (three runs of 4, CR-13), the issue's hand: `C 2-5` and then laying off
    6C is legal, and so are `C 3-6`, `D 7-10`, `D 8-J`, besides the whole-hand runs. TP-4 (one run
    per suit) leaves one run of each suit; the player may also just discard (TP-3: two cards or
    more), as a player who does not meld draws and discards as usual (CR-13)."""
    env = setup(ISSUE_HAND, deal=8, variant=TP)
    assert legal(env) == sorted(
        ["meld run C 2-5", "meld run C 2-6", "meld run C 3-6", "meld run D 7-10",
         "meld run D 7-J", "meld run D 8-J", "meld run S J-A"] + discards(ISSUE_HAND))
    play(env, "meld run C 2-5")
    # a contract once started is finished first (CR-5), each run still leaving a layable rest
    assert legal(env) == ["meld run D 7-10", "meld run D 7-J", "meld run D 8-J", "meld run S J-A"]
    play(env, "meld run D 8-J")
    assert legal(env) == ["meld run S J-A"]
    play(env, "meld run S J-A")
    # SH-1: the contract is met with 6C and 7D left: lay-offs only, no discard (SH-4 same turn)
    assert legal(env) == ["lay off 6C on 0", "lay off 7D on 1"]
    play(env, "lay off 6C on 0")
    assert legal(env) == ["lay off 7D on 1"]
    play(env, "lay off 7D on 1")
    st = env.state_obj
    assert st.went_out == 0 and st.is_deal_over and st.hand_size(0) == 0
    assert st.last_deal_delta[0] == 0
    assert [m.text() for m in st.table] == ["2C 3C 4C 5C 6C", "7D 8D 9D 10D JD", "JS QS KS AS"]


def test_sh1_without_same_turn_layoffs_only_whole_hand_runs():
    """The same position under CR-13 proper (``whole_hand_layoffs=False``): only the runs that
    together hold the whole hand, and melding them ends the deal at once."""
    env = setup(ISSUE_HAND, deal=8, variant=TP, whole_hand_layoffs=False)
    assert melds(env) == ["meld run C 2-6", "meld run D 7-J", "meld run S J-A"]
    for m in ("meld run C 2-6", "meld run D 7-J", "meld run S J-A"):
        play(env, m)
    assert env.state_obj.went_out == 0


def test_sh1_sh3_a_joker_left_in_hand_or_standing_for_a_laid_off_end():
    """Shanghai deal 7 with a joker (SH-3: one per run, aces high, SH-2). A run may hold the joker
    at an end and leave the natural beyond it to lay off (`C 4-7`: JK as 7C, then 3C low; `D 6-9`:
    JK as 6D, then 10D; `S 10-K`: JK as 10S, then AS), or hold no joker and leave it to lay off on
    a run without one. A joker in the middle of a run (C 3-6 with JK as 4C) would leave a natural
    that fits nowhere, so such a fill is never chosen."""
    hand = "3C 4C 5C 6C JK 7D 8D 9D 10D JS QS KS AS"
    env = setup(hand, deal=7)
    assert legal(env) == sorted(
        ["meld run C 2-5", "meld run C 2-6", "meld run C 3-6", "meld run C 3-7", "meld run C 4-7",
         "meld run D 6-10", "meld run D 6-9", "meld run D 7-10", "meld run D 7-J",
         "meld run D 8-J", "meld run S 10-A", "meld run S 10-K", "meld run S J-A"]
        + discards(hand))
    play(env, "meld run C 4-7")
    play(env, "meld run D 7-10")
    play(env, "meld run S J-A")
    assert [m.text() for m in env.state_obj.table] == ["4C 5C 6C JK", "7D 8D 9D 10D",
                                                       "JS QS KS AS"]
    assert legal(env) == ["lay off 3C on 0"]  # JK is the 7C: 3C goes low
    play(env, "lay off 3C on 0")
    assert env.state_obj.went_out == 0


def test_sh1_a_card_that_fits_nowhere_blocks_every_meld():
    """Three runs of 4 and a king: nothing can take the king (no set on the table, no spade run),
    so no contract meld is offered (the hand cannot be emptied this turn): discard only."""
    hand = "4C 5C 6C 7C 8D 9D 10D JD 2H 3H 4H 5H KS"
    env = setup(hand, deal=7)
    assert legal(env) == sorted(discards(hand))


def test_sh1_sh4_lay_off_on_another_players_meld():
    """SH-4: lay-offs on others' melds too. The same hand with player_1's set of kings on the
    table (a position the scenario sets up; in play a final-deal meld ends the deal): the king
    goes on that set, so the runs become legal, and after them the one lay-off is the king."""
    hand = "4C 5C 6C 7C 8D 9D 10D JD 2H 3H 4H 5H KS"
    env = setup(hand, deal=7, table=[{"owner": 1, "cards": ["KC", "KD", "KH"]}], melded=[1],
                turn={"number": 3, "melded_turn": [-1, 1, -1]})
    assert legal(env) == sorted(["meld run C 4-7", "meld run D 8-J", "meld run H 2-5"]
                                + discards(hand) + ["discard KS announcing shanghai"])  # SH-6a
    for m in ("meld run C 4-7", "meld run D 8-J", "meld run H 2-5"):
        play(env, m)
    assert legal(env) == ["lay off KS on 0"]
    play(env, "lay off KS on 0")
    st = env.state_obj
    assert st.went_out == 0 and st.table[0].text() == "KC KD KH KS"


def test_dk_with_a_final_deal_gets_sh1_layoffs():
    """DK has no final deal; with ``whole_hand_deals=(10,)`` its deal 10 (three runs of 5) is one
    under SH-1 as in Shanghai: `C 2-6` leaves 7C to lay off, `C 3-7` leaves 2C; after the contract
    no discard."""
    hand = "2C 3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 8H 9H 10H JH QH"
    env = setup(hand, deal=10, variant=DK, whole_hand_deals=(10,))
    assert melds(env) == ["meld run C 2-6", "meld run C 2-7", "meld run C 3-7", "meld run D 3-7",
                          "meld run H 8-Q"]
    for m in ("meld run C 3-7", "meld run D 3-7", "meld run H 8-Q"):
        play(env, m)
    assert legal(env) == ["lay off 2C on 0"]
    play(env, "lay off 2C on 0")
    assert env.state_obj.went_out == 0


def test_cr13_contract_rummy_keeps_the_whole_hand_rule():
    """Contract Rummy's CR-13 has no same-turn lay-offs (CR-5): the runs are the whole hand."""
    assert not rummy_env.make("contract_rummy").rules.whole_hand_layoffs
    assert not rummy_env.make("contract_rummy_single_pack").rules.whole_hand_layoffs
    assert rummy_env.make(SH).rules.whole_hand_layoffs
    assert rummy_env.make(TP).rules.whole_hand_layoffs
    env = setup(ISSUE_HAND, deal=7, variant="contract_rummy")
    assert melds(env) == ["meld run C 2-6", "meld run D 7-J", "meld run S J-A"]
