"""The shared core (rummy_env/core.py, rules_base.py; issue 21, point 1): a game's derived
fields are not constructor arguments, every family's rules use the shared deck and checks, and
every family's state declares what the environment layer reads (:class:`GameState`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rummy_env.contract.rules import CONTRACT_RUMMY
from rummy_env.contract.state import ContractGame
from rummy_env.core import GameBase
from rummy_env.errors import RuleConfigError
from rummy_env.indian.rules import INDIAN_RUMMY
from rummy_env.indian.state import IndianGame
from rummy_env.manipulation.rules import MANIPULATION_RUMMY
from rummy_env.manipulation.state import ManipulationGame
from rummy_env.rules_base import DeckRules

GAMES = [(ContractGame, CONTRACT_RUMMY, 4), (IndianGame, INDIAN_RUMMY, 3),
         (ManipulationGame, MANIPULATION_RUMMY, 2)]


@pytest.mark.parametrize(("cls", "rules", "n"), GAMES)
@pytest.mark.parametrize("derived", ["packs", "num_jokers", "deck", "total_cards"])
def test_derived_fields_are_not_constructor_arguments(cls, rules, n, derived) -> None:
    # Before, ContractGame(rules, 4, packs=99) was accepted and packs silently recomputed.
    with pytest.raises(TypeError, match=derived):
        cls(rules, n, **{derived: 99})
    game = cls(rules, n)
    assert isinstance(game, GameBase)
    packs, jokers = rules.deck_for(n)
    assert (game.packs, game.num_jokers, game.total_cards) == (packs, jokers, 52 * packs + jokers)
    assert sum(game.deck) == game.total_cards
    assert [f.name for f in dataclasses.fields(cls) if f.init] == ["rules", "num_players"]


def test_contract_game_derived_sizes_are_not_arguments() -> None:
    for name in ("max_melds", "max_set", "shapes", "max_dig", "phases", "contexts"):
        with pytest.raises(TypeError):
            ContractGame(CONTRACT_RUMMY, 4, **{name: 1})


@pytest.mark.parametrize("rules", [CONTRACT_RUMMY, INDIAN_RUMMY, MANIPULATION_RUMMY])
def test_deck_for_is_shared_and_names_the_allowed_counts(rules) -> None:
    assert isinstance(rules, DeckRules)
    with pytest.raises(RuleConfigError, match=f"allowed {rules.min_players}..{rules.max_players}"):
        rules.deck_for(rules.max_players + 1)


def test_contract_deck_without_jokers() -> None:
    assert CONTRACT_RUMMY.with_overrides(jokers=False).deck_for(4)[1] == 0


@pytest.mark.parametrize("rules", [CONTRACT_RUMMY, INDIAN_RUMMY, MANIPULATION_RUMMY])
def test_shared_decks_check_refuses_rows_that_are_not_int_triples(rules) -> None:
    rows = rules.decks
    for bad in (((rows[0][0], 1.5, rows[0][2]),) + rows[1:], rows[1:], list(rows), rows[:-1]
                + ((rows[-1][0], True, 0),)):
        with pytest.raises(RuleConfigError, match="rule decks="):
            dataclasses.replace(rules, decks=bad)
    assert dataclasses.replace(rules, decks=rows).decks == rows


FAMILY_VARIANTS = {"contract": "contract_rummy", "gin": "gin_rummy", "indian": "indian_rummy",
                   "manipulation": "manipulation_rummy"}


@pytest.mark.parametrize("variant", sorted(FAMILY_VARIANTS.values()))
def test_every_family_state_satisfies_the_protocol(variant: str) -> None:
    # GameState declares what envs/base.py, the wrappers and the search read from a state;
    # every family's state has each member, at the start of a deal and after the deal ends.
    import rummy_env
    from rummy_env.core import GameState, StateBase

    env = rummy_env.make(variant)
    env.reset(seed=3)
    st = env.state_obj
    assert isinstance(st, GameState) and isinstance(st, StateBase)
    assert isinstance(st.clone(), GameState)
    rng = np.random.default_rng(0)
    while not st.is_deal_over:
        st.apply(st.legal_actions()[int(rng.integers(len(st.legal_actions())))], env.np_random)
    assert st.current_player == -1
    assert st.returns() == [0.0 - s for s in st.scores]
    assert sorted(st.standings())[0] == 1
    assert sum(st.zone_counts()) == env.game.total_cards  # every card in exactly one zone


def test_one_generic_family_environment() -> None:
    # The four envs/*_base.py are one FamilyEnv configured by a frozen Family record.
    import rummy_env
    from rummy_env.envs.family import FAMILIES, FamilyEnv

    for variant in rummy_env.VARIANTS:
        env = rummy_env.make(variant)
        assert isinstance(env, FamilyEnv)
        assert env.family_record is FAMILIES[env.family]
        assert type(env.game) is env.family_record.game
    with pytest.raises(dataclasses.FrozenInstanceError):
        FAMILIES["gin"].name = "other"  # type: ignore[misc]
