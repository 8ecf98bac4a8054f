"""Actions as named tuples (rummy_env/actions.py and each family's actions.py; issue 21, point 3).

Every id of every variant's codec decodes to a typed instance of its kind's class, equal to and
hashing like the plain tuple it replaces, which encodes back to the id and survives pickle and
deepcopy; the engine's legal actions are typed throughout seeded random play; ``apply`` takes a
plain tuple as well as its typed twin, and refuses an illegal one with the same message.
"""

from __future__ import annotations

import copy
import importlib
import json
import pickle
import typing
from typing import Any

import numpy as np
import pytest

import rummy_env
from rummy_env.errors import IllegalActionError

CASES = [(v, n) for v in rummy_env.VARIANTS
         for n in sorted({rummy_env.make(v).rules.min_players,
                          rummy_env.make(v).rules.max_players})]
#: Blocks that hold a kind under another name (the contract family's low ends and jokers).
BLOCK_KIND = {"call_joker_low": "call", "lay_off_wild_low": "lay_off",
              "lay_off_joker": "lay_off", "lay_off_joker_low": "lay_off"}


def actions_module(env: Any) -> Any:
    """``rummy_env.<family>.actions`` of an environment."""
    return importlib.import_module(type(env.state_obj).__module__.replace(".state", ".actions"))


def classes_by_kind(module: Any) -> dict[str, type]:
    """Each action class of ``module`` by the kind its first field is declared as."""
    out = {}
    for name in module.__all__:
        cls = getattr(module, name)
        if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
            assert cls._fields[0] == "kind", name
            (kind,) = typing.get_args(typing.get_type_hints(cls)["kind"])
            assert kind not in out, kind
            out[kind] = cls
    return out


def plain(a: tuple) -> tuple:
    return tuple(a)


@pytest.mark.parametrize("name,players", CASES)
def test_every_id_decodes_to_its_typed_action(name: str, players: int) -> None:
    env = rummy_env.make(name, num_players=players)
    env.reset(seed=0)
    layout = env.layout
    classes = classes_by_kind(actions_module(env))
    for i in range(layout.n):
        a = layout.decode(i)
        block, _ = layout.locate(i)
        assert a.kind == BLOCK_KIND.get(block, block)
        assert type(a) is classes[a.kind]
        t = plain(a)
        assert type(t) is tuple and a == t and t == a and hash(a) == hash(t)
        assert repr(a) == repr(t) and json.dumps(a) == json.dumps(t)
        assert layout.encode(a) == i and layout.encode(t) == i and layout.decode(i) is a
        for back in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a), copy.copy(a)):
            assert type(back) is type(a) and back == a and layout.encode(back) == i
        assert copy.deepcopy(a) is a  # immutable: the copy is the prebuilt instance itself
        assert layout._text[i] == env.state_obj.action_text(t)  # text of the plain tuple too


@pytest.mark.parametrize("name,players", CASES)
def test_random_play_sees_only_typed_actions(name: str, players: int) -> None:
    """Seeded random play on the engine: every legal action is a typed instance (the layout's
    own, so hot paths encode by identity), and applying its plain tuple instead leads to the
    same position as applying it."""
    env = rummy_env.make(name, num_players=players)
    env.reset(seed=3)
    classes = tuple(classes_by_kind(actions_module(env)).values())
    layout = env.layout
    st = env.state_obj
    rng = np.random.default_rng(3)
    for step in range(300):
        if st.is_deal_over:
            if st.is_terminal:
                break
            st.next_deal(rng)
            continue
        legal = st.legal_actions()
        assert legal and all(isinstance(a, classes) for a in legal), legal
        assert all(layout.decode(layout.encode(a)) is a for a in legal)
        a = legal[int(rng.integers(len(legal)))]
        if step % 25 == 0:  # copies of the state keep its typed legal list
            for other in (copy.deepcopy(st), pickle.loads(pickle.dumps(st)), st.clone()):
                got = other.legal_actions()
                assert got == legal and all(isinstance(b, classes) for b in got)
            assert all(b is c for b, c in zip(copy.deepcopy(st).legal_actions(), legal))
        if step % 2:
            twin = st.clone()
            seed = int(rng.integers(2**32))
            twin.apply(plain(a), np.random.default_rng(seed))
            st.apply(a, np.random.default_rng(seed))
            assert twin.to_dict() == st.to_dict()
        else:
            st.apply(a, rng)


@pytest.mark.parametrize("name", ["gin_rummy", "indian_rummy", "manipulation_rummy",
                                  "contract_rummy"])
def test_illegal_plain_and_typed_tuples_read_alike(name: str) -> None:
    env = rummy_env.make(name)
    env.reset(seed=1)
    st = env.state_obj
    legal = st.legal_actions()
    bad = next(a for a in (env.layout.decode(i) for i in range(env.layout.n)) if a not in legal)
    messages = []
    for a in (bad, plain(bad)):
        with pytest.raises(IllegalActionError) as err:
            st.apply(a, np.random.default_rng(0))
        messages.append(str(err.value))
    assert messages[0] == messages[1] and "is not legal in phase" in messages[0]
    assert st.legal_actions() == legal


def test_kinds_shared_across_families_are_one_class() -> None:
    from rummy_env import actions
    from rummy_env.contract import actions as contract
    from rummy_env.gin import actions as gin
    from rummy_env.indian import actions as indian

    for family in (contract, gin, indian):
        assert family.Discard is actions.Discard and family.DISCARD is actions.DISCARD
        assert family.DrawStock is actions.DrawStock
    assert contract.lay_off(5, 2, True) is contract.lay_off(5, 2, True) == ("lay_off", 5, 2, True)
    assert contract.meld(("set", 7, 3)) is contract.meld(("set", 7, 3))
    assert contract.dig(4).depth == 4 and contract.call(1, True).low is True
