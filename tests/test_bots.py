"""The baseline bots and the evaluation harness.

GreedyBot's decisions in exact scripted positions (scenario dicts through
``env.reset(options={"scenario": ...})``, then ``seat_view`` and ``bot.act``), its legality over
seeded games of every contract-family variant, a short evaluation where it must clearly beat
uniform-random play, ``make_bot``, and ``training.evaluate`` (function and CLI). Rule ids are in
the test names.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import BOTS, ContractGreedyBot, GreedyBot, RandomBot, make_bot, seat_view
from training.evaluate import evaluate

CONTRACT_VARIANTS = ["contract_rummy", "contract_rummy_single_pack", "liverpool_rummy", "may_i"]
ROOT = pathlib.Path(__file__).resolve().parents[1]

# Cards for the other seats, so that no hand in a scripted position is empty.
FILLER = [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["6C", "6D", "10C"]]


def setup(scenario: dict, variant: str = "contract_rummy", n: int = 4):
    env = rummy_env.make(variant, num_players=n)
    env.reset(seed=0, options={"scenario": scenario})
    return env


def greedy(env, steps: int = 1) -> list[str]:
    """GreedyBot's next ``steps`` actions (each applied), as text."""
    out = []
    bot = GreedyBot()
    for _ in range(steps):
        view = seat_view(env, env.agent_selection)
        a = bot.act(view)
        assert a in view.legal_actions
        out.append(env.action_to_string(a))
        env.step(a)
    return out


def hands(first: list[str], n: int = 4) -> list[list[str]]:
    return [first] + FILLER[: n - 1]


# --------------------------------------------------------------------------- make_bot

def test_make_bot_names_and_error():
    assert isinstance(make_bot("random", 3), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert set(BOTS) == {"random", "greedy", "search"}
    with pytest.raises(ValueError, match="random, greedy, search"):
        make_bot("smart")


# --------------------------------------------------------------------------- melding

def test_cr5_greedy_melds_at_once_leaving_the_least_penalty():
    """CR-5/CR-12: both sets are legal; the 9s go first (27 points out of the hand), then the
    7s finish the contract, then the highest card (KS) is discarded."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play", "hands": hands(
        ["7H", "7C", "7D", "9S", "9H", "9D", "2C", "KS", "3D", "4C", "5S"])})
    assert "meld set 7x3" in env.legal_action_strings()
    assert greedy(env, 3) == ["meld set 9x3", "meld set 7x3", "discard KS"]


def test_cr3_greedy_melds_a_set_and_a_run():
    """CR-3 deal 2 (a set and a run): the bot lays the contract as soon as it is legal."""
    env = setup({"deal": 2, "to_move": 0, "phase": "play", "hands": hands(
        ["5H", "6H", "7H", "8H", "QC", "QD", "QS", "2C", "9D", "KS", "3S"])})
    got = greedy(env, 3)
    assert sorted(got[:2]) == ["meld run H 5-8", "meld set Qx3"]
    assert got[2] == "discard KS"


# --------------------------------------------------------------------------- lay-offs

def test_cr10_greedy_lays_off_everything_highest_first():
    """CR-10: a seat that melded on an earlier turn lays off QH (10) before 8S (8), then
    discards the higher of what is left."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play", "hands": hands(["8S", "QH", "3C", "5D"]),
                 "table": [{"owner": 1, "cards": ["8C", "8D", "8H"]},
                           {"owner": 0, "cards": ["QC", "QD", "QS"]},
                           {"owner": 0, "cards": ["4S", "4D", "4H"]},
                           {"owner": 1, "cards": ["JS", "JD", "JH"]}]})
    assert greedy(env, 3) == ["lay off QH on 1", "lay off 8S on 0", "discard 5D"]


def test_cr6_greedy_goes_out_by_laying_off():
    """CR-6: laying off the last card goes out; the bot does it."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play", "hands": hands(["8S"]),
                 "table": [{"owner": 0, "cards": ["8C", "8D", "8H"]},
                           {"owner": 0, "cards": ["QC", "QD", "QS"]}]})
    assert greedy(env) == ["lay off 8S on 0"]
    assert env.state_obj.went_out == 0


def test_cr8_greedy_swaps_a_joker_then_lays_it_off():
    """CR-8: 6H cannot be laid off, but it can replace the joker standing for 6H; the freed
    joker is then laid off before the discard."""
    env = setup({"deal": 2, "to_move": 0, "phase": "play", "hands": hands(["6H", "2D", "4C"]),
                 "table": [{"owner": 1, "cards": ["4H", "5H", "JK", "7H"], "wilds": ["6H"]},
                           {"owner": 1, "cards": ["9C", "9D", "9S"]},
                           {"owner": 0, "cards": ["KC", "KD", "KH"]},
                           {"owner": 0, "cards": ["2S", "3S", "4S", "5S"]}]})
    got = greedy(env, 3)
    assert got[0] == "swap 6H for joker on 0"
    assert got[1].startswith("lay off JK")
    assert got[2] == "discard 4C"


def test_cr10_greedy_lays_a_joker_where_a_natural_then_fits():
    """CR-10: a joker on the high end of 3H-6H (as 7H) lets 8H follow; the bot chooses that
    end, then lays off 8H."""
    env = setup({"deal": 2, "to_move": 0, "phase": "play", "hands": hands(["JK", "8H", "KC"]),
                 "table": [{"owner": 0, "cards": ["AC", "AD", "AS"]},
                           {"owner": 0, "cards": ["3H", "4H", "5H", "6H"]}]})
    assert greedy(env, 3) == ["lay off JK on 1", "lay off 8H on 1", "discard KC"]


# --------------------------------------------------------------------------- drawing

DRAW_HAND = ["7H", "2C", "3D", "5S", "9C", "JD", "QS", "KH", "AC", "4D"]


@pytest.mark.parametrize("deal,top,expected", [
    (1, "7S", "take discard"),   # pairs 7H: advances a set
    (1, "6S", "draw stock"),     # no 6 in hand; sets only, so 5S does not count
    (1, "JK", "take discard"),   # a joker always advances
    (3, "6S", "take discard"),   # runs: 5S is within 2 ranks
    (3, "6C", "draw stock"),     # runs: no club within 2 ranks of 6 (2C, 9C, AC are far)
])
def test_cr5_greedy_takes_the_discard_only_when_it_advances(deal, top, expected):
    """CR-5: take the top discard when it advances the contract (deal 1 sets, deal 3 runs),
    otherwise draw from the stock."""
    env = setup({"deal": deal, "to_move": 0, "hands": hands(DRAW_HAND), "discard": ["8D", top]})
    assert greedy(env) == [expected]


MELDED_TABLE = [{"owner": 0, "cards": ["8C", "8D", "8H"]},
                {"owner": 0, "cards": ["QC", "QD", "QS"]},
                {"owner": 1, "cards": ["3H", "4H", "5H", "6H"]},
                {"owner": 1, "cards": ["3C", "3D", "3S"]}]


@pytest.mark.parametrize("top,expected", [
    ("8S", "take discard"), ("7H", "take discard"), ("2H", "take discard"),
    ("JK", "take discard"), ("9C", "draw stock"), ("AH", "draw stock"),
])
def test_cr10_melded_greedy_takes_only_a_card_it_can_lay_off(top, expected):
    """CR-10: after meeting the contract the bot takes the discard only when it can lay it off
    (8S on the 8s, 7H/2H on either end of 3H-6H, a joker anywhere)."""
    env = setup({"deal": 2, "to_move": 0, "hands": hands(["9C", "KD"]), "table": MELDED_TABLE,
                 "discard": ["5D", top]})
    assert greedy(env) == [expected]


def claim_env(deal: int, hand: list[str], top: str, table=None):
    sc = {"deal": deal, "to_move": 0, "phase": "claim", "turn": {"claim_queue": [1]},
          "hands": [["2H", "2S"], hand, ["3C", "4C"], ["6C", "6D"]], "discard": ["8D", top]}
    if table is not None:
        sc["table"] = table
    return setup(sc)


CLAIM_HAND = ["7H", "7D", "2C", "3D", "5S", "9C", "JD", "QS", "KH", "AC"]


@pytest.mark.parametrize("top,expected", [("7S", "claim"), ("JK", "claim"), ("4S", "pass"),
                                          ("9D", "pass")])
def test_cr7_greedy_claims_a_card_that_makes_a_set(top, expected):
    """CR-7: May I? costs a penalty card, so the bot claims only a strong card: the third 7 (it
    holds two) or a joker; a useless 4S, or a 9 that only pairs its 9C, is passed."""
    env = claim_env(1, CLAIM_HAND, top)
    assert greedy(env) == [expected]


@pytest.mark.parametrize("top,expected", [("6H", "claim"), ("8H", "pass"), ("4S", "pass")])
def test_cr7_greedy_claims_a_run_card_only_between_two_neighbours(top, expected):
    """CR-7 in deal 3 (two runs): 6H sits between 5H and 7H (strong); 8H only touches 7H."""
    env = claim_env(3, ["5H", "7H", "2C", "3D", "9S", "9C", "JD", "QS", "KH", "AC"], top)
    assert greedy(env) == [expected]


def test_cr7_melded_greedy_never_claims():
    """CR-7: a claim adds the card and a penalty card; a melded seat would lay off one of them at
    best, so the bot passes even on a card it could lay off (player_0 melded the 8s)."""
    table = [{"owner": 1, "cards": ["8C", "8D", "8H"]},
             {"owner": 1, "cards": ["QC", "QD", "QS"]},
             {"owner": 0, "cards": ["3H", "4H", "5H", "6H"]},
             {"owner": 0, "cards": ["3C", "3D", "3S"]}]
    env = claim_env(2, ["9C", "KD"], "8S", table)
    assert greedy(env) == ["pass"]


def test_cr13_greedy_never_claims_in_the_whole_hand_deal():
    """CR-13 (deal 7, three runs, the whole hand): every claimed card must fit the final meld,
    so the bot passes even on a joker."""
    env = claim_env(7, ["5H", "7H", "2C", "3D", "9S", "9C", "JD", "QS", "KH", "AC", "4C", "5C"],
                    "JK")
    assert greedy(env) == ["pass"]


def test_sp4_greedy_digs_to_the_card_that_completes_the_contract():
    """SP-4: the engine offers only digs whose deepest card reaches the table this turn; 7H
    three deep completes 7s and 9s, so the bot digs 3 and melds both sets."""
    env = setup({"deal": 1, "to_move": 0,
                 "hands": [["7C", "7D", "9H", "9S", "2D", "KC", "4S", "JH", "5C", "AD"],
                           ["3C", "4C", "6H"], ["3D", "4D", "8D"], ["6C", "6D", "10C"]],
                 "discard": ["3S", "7H", "9C", "2H"]}, variant="contract_rummy_single_pack")
    assert env.legal_action_strings() == ["draw stock", "take discard", "take discards 3"]
    got = greedy(env, 4)
    assert got[0] == "take discards 3"
    assert sorted(got[1:3]) == ["meld set 7x3", "meld set 9x3"]
    assert got[3] == "discard AD"


# --------------------------------------------------------------------------- discarding

def test_cr12_greedy_discards_the_highest_useless_card():
    """CR-12: in a sets deal the ace (15) is the highest card that pairs nothing."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": hands(["QD", "QS", "AS", "9C", "7H", "2C", "5D", "JK", "8S", "3H",
                                 "KC"])})
    assert greedy(env) == ["discard AS"]


def test_cr12_greedy_keeps_pairs_over_higher_points():
    """CR-12: a pair of kings (10 each) is kept and the useless 9C discarded; the joker is kept."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": hands(["KD", "KS", "9C", "JK", "4H", "4D", "2S", "3H", "5C", "6S",
                                 "8D"])})
    assert greedy(env) == ["discard 9C"]


def test_cr12_greedy_keeps_near_runs_in_a_runs_deal():
    """CR-12 in deal 3 (two runs): 5H 6H and 9D 10D are near-runs; the 10-point KC and QS
    pair nothing, so one of them goes (equal points: the lower id, KC)."""
    env = setup({"deal": 3, "to_move": 0, "phase": "play",
                 "hands": hands(["5H", "6H", "9D", "10D", "KC", "QS", "2S", "3S", "JK", "7C",
                                 "8C"])})
    assert greedy(env) == ["discard KC"]


def test_cr12_greedy_discards_a_joker_only_when_forced():
    """CR-12: with every other card useful the bot still keeps the joker."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": hands(["KD", "KS", "QD", "QS", "JK"])})
    assert greedy(env) in (["discard KD"], ["discard KS"], ["discard QD"], ["discard QS"])


# --------------------------------------------------------------------------- legality

@pytest.mark.slow
@pytest.mark.parametrize("variant", CONTRACT_VARIANTS)
def test_cr5_greedy_never_proposes_an_illegal_action(variant):
    """CR-5 (and SP-4, CR-7, CR-8, CR-13): over 50 seeded games at 3-5 players, mixing greedy
    and random seats, every action the bot picks is in its legal set."""
    for g in range(50):
        n = 3 + g % 3
        env = rummy_env.make(variant, num_players=n, deal="random", max_turns=150)
        env.reset(seed=g)
        bots = [GreedyBot() if s == 0 or (s + g) % 2 == 0 else RandomBot(g * 10 + s)
                for s in range(n)]
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                env.step(None)
                continue
            view = seat_view(env, agent)
            a = bots[env.agent_name_mapping[agent]].act(view)
            assert a in view.legal_actions, (variant, g, env.action_to_string(a))
            env.step(a)


def test_greedy_refuses_other_families():
    """ContractGreedyBot is for the contract family: given a view whose observation is laid out
    for another family, it says so instead of guessing; the GreedyBot dispatcher names a family
    it has no bot for."""
    from rummy_env.bots import SeatView
    from rummy_env.obs import ObsLayout

    env = rummy_env.make("contract_rummy", num_players=3)
    env.reset(seed=0)
    view = seat_view(env, env.agent_selection)
    other = ObsLayout([("hand", (53,), "cards in hand"), ("indicator", (53,), "wild indicator")])
    foreign = SeatView(view.seat, np.zeros(other.size, np.float32), view.legal_actions,
                       view.action_layout, other)
    with pytest.raises(ValueError, match="contract family"):
        ContractGreedyBot().act(foreign)
    with pytest.raises(ValueError, match="no greedy bot for the 'bridge' family"):
        GreedyBot().act(dataclasses.replace(view, family="bridge"))


# --------------------------------------------------------------------------- evaluation

def test_cr12_greedy_clearly_beats_random_play():
    """CR-12: over 60 deals of contract_rummy (4 players, every contract), greedy's mean
    penalty is below half of every random seat's, and it wins most deals. (Measured over seeds
    0-11: greedy 13-32 points per deal, random 160-210; win rate 0.97-1.0.)"""
    res = evaluate("contract_rummy", ["greedy", "random", "random", "random"], 60, seed=7)
    g, rand = res["results"][0], res["results"][1:]
    assert all(g["mean_penalty"] < 0.5 * r["mean_penalty"] for r in rand)
    assert g["penalty_ci"][1] < min(r["penalty_ci"][0] for r in rand)
    assert g["win_rate"] > 0.7


def test_evaluate_structure_and_intervals():
    res = evaluate("may_i", ["greedy", "random", "random"], 12, seed=3)
    assert res["variant"] == "may_i" and res["players"] == 3 and res["deals"] == 12
    assert res["seats"] == ["greedy", "random", "random"]
    assert res["env_options"]["deal"] == "random" and res["env_options"]["reward_scale"] == 1.0
    assert 0 <= res["truncated"] <= 12
    assert [r["label"] for r in res["results"]] == ["0:greedy", "1:random", "2:random"]
    wins = 0.0
    for r in res["results"]:
        for key, ci in (("mean_penalty", "penalty_ci"), ("win_rate", "win_ci"),
                        ("mean_reward", "reward_ci")):
            lo, hi = r[ci]
            assert lo <= r[key] <= hi and math.isfinite(lo) and math.isfinite(hi)
        assert 0.0 <= r["win_ci"][0] <= r["win_ci"][1] <= 1.0
        assert r["mean_penalty"] >= 0
        wins += r["win_rate"]
    assert wins == pytest.approx(1.0)  # one win per deal, ties split
    json.dumps(res)  # serialisable
    # Seeded: the same call gives the same numbers.
    again = evaluate("may_i", ["greedy", "random", "random"], 12, seed=3)
    assert [r["mean_penalty"] for r in again["results"]] == [
        r["mean_penalty"] for r in res["results"]]


def test_lv1_evaluate_reward_is_minus_penalty_plus_cut_bonus():
    """CR-12: a deal's reward is minus its penalty points (reward_scale 1.0); LV-1: Liverpool's
    exact cut takes 50 off the cutter's score, so there reward is at least minus the penalty
    (a truncated deal has reward 0)."""
    res = evaluate("contract_rummy", ["greedy", "random", "random"], 6, seed=1)
    assert res["truncated"] == 0
    for r in res["results"]:
        assert r["mean_reward"] == pytest.approx(-r["mean_penalty"])
    res = evaluate("liverpool_rummy", ["greedy", "random", "random"], 20, seed=1)
    for r in res["results"]:
        assert r["mean_reward"] >= -r["mean_penalty"] - 1e-9


def test_evaluate_rejects_bad_seats():
    with pytest.raises(ValueError, match="neither a bot"):
        evaluate("contract_rummy", ["greedy", "nobot", "random"], 2, seed=0)
    with pytest.raises(ValueError, match="seats listed"):
        evaluate("contract_rummy", ["greedy", "random"], 2, seed=0, players=4)


def test_evaluate_cli_runs_and_writes_json(tmp_path):
    out = tmp_path / "x.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run(
        [sys.executable, "-m", "training.evaluate", "--variant", "contract_rummy",
         "--seats", "greedy,random,random,random", "--deals", "8", "--seed", "0",
         "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "0:greedy" in p.stdout and "3:random" in p.stdout and "truncation" in p.stdout
    data = json.loads(out.read_text())
    assert data["deals"] == 8 and len(data["results"]) == 4


# ------------------------------------------------------------------ options and the endgame

def test_make_bot_parses_options_and_names_bad_ones():
    """A bot spec ``name(key=value, ...)`` passes the options to the bot's class; a key the bot
    does not take, a malformed pair or a repeated key is refused with the reason."""
    bot = make_bot("greedy(endgame_turn=150, endgame_whole_hand=true)", 3)
    assert isinstance(bot, GreedyBot) and bot.seed == 3
    assert bot.options == {"endgame_turn": 150, "endgame_whole_hand": True}
    assert make_bot("search(worlds=4)").worlds == 4
    for spec, reason in [("greedy(foo=1)", "greedy has no option 'foo'"),
                         ("random(x=1)", "bot 'random' has no option 'x'; its options: none"),
                         ("greedy(endgame_turn)", "is not key=value"),
                         ("greedy(endgame_turn=1, endgame_turn=2)", "given twice"),
                         ("greedy(endgame_turn=-1)", "endgame_turn must be an int >= 0"),
                         ("greedy(endgame_whole_hand=1)", "endgame_whole_hand must be true or"),
                         ("clever(x=1)", "unknown bot")]:
        with pytest.raises(ValueError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            make_bot(spec)


def test_greedy_option_of_another_family_is_refused_at_its_table():
    """``pack_points`` is an Indian Rummy greedy option: at a contract table it names the
    family and the options there."""
    env = setup({"deal": 1, "to_move": 0, "phase": "play",
                 "hands": hands(["KD", "KS", "9C", "4H"])})
    with pytest.raises(ValueError, match="do not apply to the 'contract' family"):
        make_bot("greedy(pack_points=20)").act(seat_view(env, env.agent_selection))


def endgame_choice(scenario: dict, spec: str, variant: str = "contract_rummy") -> str:
    env = setup(scenario, variant=variant)
    view = seat_view(env, env.agent_selection)
    a = make_bot(spec).act(view)
    assert a in view.legal_actions
    return env.action_to_string(a)


@pytest.mark.parametrize("number,spec,expected", [
    (99, "greedy(endgame_turn=100)", "discard 9C"),   # before turn 100: the usual choice
    (100, "greedy(endgame_turn=100)", "discard JK"),  # from turn 100: the highest points
    (100, "greedy", "discard 9C"),                    # the baseline never plays the endgame
])
def test_cr11_endgame_discards_the_highest_points_from_its_turn(number, spec, expected):
    """CR-11/CR-12: a deal cut off scores the hands as they stand; from ``endgame_turn`` on the
    bot sheds its highest card, here the joker (15) before the pair of kings it kept."""
    sc = {"deal": 1, "to_move": 0, "phase": "play", "turn": {"number": number},
          "hands": hands(["KD", "KS", "9C", "JK", "4H", "4D", "2S", "3H", "5C", "6S", "8D"])}
    assert endgame_choice(sc, spec) == expected


@pytest.mark.parametrize("top,spec,expected", [
    ("2C", "greedy(endgame_turn=100)", "take discard"),  # 2 points, under the hand's 10
    ("QC", "greedy(endgame_turn=100)", "draw stock"),    # no lower than the hand's highest
    ("2C", "greedy", "draw stock"),                      # the baseline: 2C advances nothing
])
def test_cr11_endgame_takes_a_discard_lower_than_its_highest_card(top, expected, spec):
    sc = {"deal": 1, "to_move": 0, "turn": {"number": 120},
          "hands": hands(["KD", "9S", "7H", "5D"]), "discard": ["3S", top]}
    assert endgame_choice(sc, spec) == expected


def test_tp2_endgame_whole_hand_only_where_the_hand_cannot_meld():
    """TP-2: deal 8 (three runs of 4, the whole hand) needs 12 cards and the hand holds 11 after
    drawing, so ``endgame_whole_hand`` sheds the highest card from the first turn; in Contract
    Rummy's deal 7 (13 cards after drawing) the contract fits the hand: the bot plays as usual."""
    hand = ["5H", "6H", "7H", "2C", "3D", "9S", "9C", "JD", "QS", "KH", "AC"]
    sc = {"deal": 8, "to_move": 0, "phase": "play", "turn": {"number": 2},
          "hands": hands(hand)}
    assert endgame_choice(sc, "greedy(endgame_whole_hand=true)",
                          "shanghai_tahelia_powe") == "discard AC"
    assert endgame_choice(sc, "greedy", "shanghai_tahelia_powe") != "discard AC"
    sc7 = {"deal": 7, "to_move": 0, "phase": "play", "turn": {"number": 2},
           "hands": hands(hand + ["8H", "4C"])}
    assert (endgame_choice(sc7, "greedy(endgame_whole_hand=true)")
            == endgame_choice(sc7, "greedy"))


def test_live_turns_yields_every_decision_and_steps_the_finished_agents() -> None:
    """``live_turns`` yields each live decision once, with the acting agent's view (legal
    actions non-empty), and does the finished agents' ``step(None)`` itself: a random game
    played through it ends with every agent gone, in as many decisions as a plain loop."""
    from rummy_env.bots import live_turns

    counts = []
    for through in (True, False):
        env = rummy_env.make("gin_rummy")
        env.reset(seed=5)
        bot = RandomBot(0)
        n = 0
        if through:
            for agent, view in live_turns(env):
                assert agent == env.agent_selection and view.legal_actions
                assert view.seat == env.possible_agents.index(agent)
                env.step(bot.act(view))
                n += 1
        else:
            for agent in env.agent_iter():
                _, _, term, trunc, _ = env.last(observe=False)
                if term or trunc:
                    env.step(None)
                    continue
                env.step(bot.act(seat_view(env, agent)))
                n += 1
        assert not env.agents
        counts.append(n)
    assert counts[0] == counts[1] > 0
