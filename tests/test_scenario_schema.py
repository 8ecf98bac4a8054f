"""The declared scenario schema (rummy_env/scenario_schema.py, issue 16 point 1): one set of
conventions for the four families, and regression tests for what the fuzz found (each cites
the failure it had before)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

import rummy_env
import rummy_env.scenario_schema as schema
from rummy_env.errors import RuleConfigError, ScenarioError

FAMILIES = {"contract": "contract_rummy", "gin": "gin_rummy", "indian": "indian_rummy",
            "manipulation": "manipulation_rummy"}


def _env(variant: str, seed: int = 3, **kw):
    if variant == "contract_rummy":
        kw.setdefault("num_players", 3)
    env = rummy_env.make(variant, illegal_action="raise", **kw)
    env.reset(seed=seed)
    return env


def _refused(env, scenario, *words: str) -> None:
    before = env.get_state()
    with pytest.raises(ScenarioError) as info:
        env.reset(options={"scenario": scenario})
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    assert env.get_state() == before


def test_module_docstring_holds_every_family_table():
    for family in FAMILIES:
        assert schema.schema_table(family) in schema.__doc__, (
            f"paste schema_table({family!r}) into rummy_env/scenario_schema.py's docstring")


@pytest.mark.parametrize("family,variant", FAMILIES.items())
def test_unknown_keys_are_refused_alike_at_the_top_and_under_turn(family, variant):
    """Before: the contract family accepted unknown keys under ``turn``, the others refused."""
    env = _env(variant)
    _refused(env, {"colour": 1}, "unknown scenario keys", "colour")
    _refused(env, {"turn": {"sideways": 1}}, "unknown scenario turn keys", "sideways")


@pytest.mark.parametrize("family,variant", FAMILIES.items())
def test_null_hands_are_dealt_in_every_family(family, variant):
    """Before: the contract family refused a ``null`` hand that the others dealt."""
    env = _env(variant)
    d = env.get_state()
    hands = copy.deepcopy(d["hands"])
    hands[1] = None
    scenario = {k: d[k] for k in ("deal", "dealer", "to_move", "hands")}
    scenario["hands"] = hands
    env.reset(seed=5, options={"scenario": scenario})
    got = env.get_state()["hands"]
    # seat 0's hand as given (plus a card drawn if it is to move in Manipulation), seat 1's dealt
    assert not Counter(d["hands"][0]) - Counter(got[0])
    assert len(got[1]) >= len(d["hands"][1]) > 0


@pytest.mark.parametrize("family,variant", FAMILIES.items())
@pytest.mark.parametrize("field,value", [
    ("scores", "huge"), ("deals_played", 10**30), ("dealer", 2**64), ("to_move", 1.0),
    ("deal", True), ("stock", ["7H"] * 5000), ("hands", "7H 8H"), ("turn", [1]),
    ("turn.number", float("inf")), ("turn.number", "3"),
])
def test_wrong_types_and_huge_numbers_name_the_field(family, variant, field, value):
    """Before: TypeError, OverflowError or plain ValueError from inside the loaders (an
    Indian score of 10**30 reached ``np.isfinite`` as an object: TypeError)."""
    env = _env(variant)
    d = env.get_state()
    n = env.num_players
    if value == "huge":
        value = [10**30] + [0] * (n - 1)
    if field.startswith("turn."):
        d["turn"][field[5:]] = value
    else:
        d[field] = value
    _refused(env, d, field.split(".")[-1])


def test_bad_card_text_under_turn_is_a_scenario_error():
    """Before: ``turn.last_claimer='JK'`` reached ``int()`` (plain ValueError)."""
    env = _env("contract_rummy")
    for key, value in (("last_claimer", "JK"), ("obligation", "ZZ"), ("forbidden", 7),
                       ("jokers_owed", "1"), ("contract_laid", [[["set"]]])):
        d = env.get_state()
        d["turn"][key] = value
        _refused(env, d, f"turn.{key}")


def _contract_in_progress():
    """Contract Rummy deal 1 (two sets): player_0 has laid one set of 7s this turn."""
    return {
        "deal": 1, "dealer": 2, "to_move": 0, "phase": "play",
        "hands": [["8H", "8C", "8D", "2S", "3S", "4S", "9D", "KD"],
                  ["AH", "AC", "3D", "4D", "5D", "6D", "9S", "TS", "JS", "QS", "KS"],
                  ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "JH", "QH", "KH", "AS"]],
        "discard": ["QD"],
        "table": [{"owner": 0, "cards": ["7H", "7C", "7D"]}],
        "melded": [],
        "turn": {"number": 4, "contract_left": [["set", 3]], "contract_laid": [["set", 7, 3]]},
    }


def test_a_contract_in_progress_is_accepted_and_plays_on():
    env = _env("contract_rummy")
    env.reset(seed=1, options={"scenario": _contract_in_progress()})
    assert any(t.startswith("meld set 8") for t in env.legal_action_strings())


@pytest.mark.parametrize("turn,words", [
    # Before: KeyError ('meld', ('run', 0, 8, 8)) in the mask: a run of one card to lay.
    ({"contract_left": [["run", 1]]}, ["contract_left", "leaves"]),
    # Before: AssertionError in the engine (state.py: req_for_shape found nothing).
    ({"contract_left": [["set", 3], ["set", 3]]}, ["contract_left"]),
    ({"contract_laid": [["set", 8, 3]]}, ["contract_laid", "table melds"]),
    ({"contract_laid": [["set", 7, 2]]}, ["contract_laid[0]"]),
    ({"contract_laid": [["run", 0, 9, 8]]}, ["contract_laid[0]"]),
    ({"contract_left": None}, ["who has not melded"]),
])
def test_contract_progress_must_match_the_table_and_the_contract(turn, words):
    env = _env("contract_rummy")
    d = _contract_in_progress()
    d["turn"].update(turn)
    _refused(env, d, *words)


def test_turn_data_must_match_the_phase():
    """Before: a mutated ``jokers_owed``, ``obligation`` or ``contract_left`` left the actor
    with an empty mask a few steps later (181 cases over the contract family)."""
    env = _env("contract_rummy")
    d = env.get_state()  # phase draw, nobody melded
    for key, value, words in (
        ("jokers_owed", 1, ["jokers_owed", "phase 'draw'"]),
        ("obligation", "7H", ["obligation"]),  # Contract Rummy has no digging (SP-4)
        ("contract_left", [["set", 3]], ["contract_left", "phase 'play'"]),
        ("melded_turn", [0, -1, -1], ["melded_turn[0]"]),
        ("claim_queue", [1], ["claim_queue"]),
        ("went_out", 1, ["went_out"]),
    ):
        s = copy.deepcopy(d)
        s["turn"][key] = value
        _refused(env, s, *words)
    s = _contract_in_progress()
    s["turn"]["jokers_owed"] = 1
    _refused(env, s, "jokers_owed")


def test_non_dict_reset_options_are_a_clear_error():
    """Before: ``reset(options="scenario")`` raised AttributeError."""
    env = _env("gin_rummy")
    before = env.get_state()
    with pytest.raises(RuleConfigError, match="reset options must be a dict"):
        env.reset(options="scenario")
    assert env.get_state() == before


def test_deeply_nested_value_is_a_scenario_error():
    """Found by tests/test_fuzz.py: the message's repr of 5,000 nested lists raised
    RecursionError; the schema shows bad values with a depth-capped repr."""
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    env = _env("indian_rummy")
    _refused(env, {"turn": {"number": deep}}, "turn.number")
