"""Phases as str enums (issue 21, point 3): each family's ``Phase`` members are the strings the
phases always were, so scenarios, ``get_state()`` and its JSON or YAML, render text and error
messages read as before."""

from __future__ import annotations

import json
import pickle

import pytest
import yaml

import rummy_env
from rummy_env.contract import state as contract
from rummy_env.gin import state as gin
from rummy_env.indian import state as indian
from rummy_env.manipulation import state as manipulation

#: Per family: its state module, the phases as plain strings in their one-hot order (the
#: observation's ``phase`` piece: this order must not change), and a variant to play.
FAMILIES = {
    "contract": (contract, ("draw", "claim", "play", "deal_over", "game_over", "call"),
                 "shanghai_rummy"),
    "gin": (gin, ("first_upcard", "draw", "play", "knock", "defend", "deal_over", "game_over"),
            "gin_rummy"),
    "indian": (indian, ("draw", "play", "deal_over", "game_over"), "indian_rummy"),
    "manipulation": (manipulation, ("meld", "knock", "deal_over", "game_over"),
                     "manipulation_rummy"),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_phase_members_are_the_legacy_strings(family: str) -> None:
    module, strings, _ = FAMILIES[family]
    assert module.PHASES == strings
    assert [m.value for m in module.Phase] == list(strings)
    for member, text in zip(module.PHASES, strings):
        assert isinstance(member, module.Phase) and isinstance(member, str)
        # the old module constant is the member (DRAW = Phase.DRAW)
        assert getattr(module, member.name) is member
        assert member == text and text == member and hash(member) == hash(text)
        assert {text: 1}[member] == 1 and {member: 1}[text] == 1
        assert module.Phase(text) is member
        assert str(member) == text and type(str(member)) is str
        assert f"{member}" == text and f"{member:>12}" == f"{text:>12}"
        assert format(member) == text and " ".join([member, member]) == f"{text} {text}"
        assert repr(member) == repr(text)
        assert json.dumps({"phase": member}) == json.dumps({"phase": text})
        assert json.dumps([member], indent=1) == json.dumps([text], indent=1)
        assert pickle.loads(pickle.dumps(member)) is member


@pytest.mark.parametrize("family", FAMILIES)
def test_scenario_round_trips_to_identical_json(family: str) -> None:
    """``get_state()`` writes the phase as a plain ``str`` (YAML's safe dumper takes it), and a
    position saved and restored gives the same JSON, after play has moved through phases."""
    _, _, variant = FAMILIES[family]
    env = rummy_env.make(variant, render_mode="ansi")
    env.reset(seed=3)
    for _ in range(12):
        state = env.get_state()
        assert type(state["phase"]) is str
        yaml.safe_dump(state)
        text = json.dumps(state, sort_keys=True)
        other = rummy_env.make(variant, render_mode="ansi")
        other.reset(seed=9, options={"scenario": json.loads(text)})
        assert json.dumps(other.get_state(), sort_keys=True) == text
        assert other.render() == env.render()
        if any(env.terminations.values()):
            break
        env.step(env.legal_actions()[0])
