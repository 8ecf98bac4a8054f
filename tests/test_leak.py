"""Observations leak nothing (DESIGN: egocentric, leak-free observations).

At positions reached by seeded random play, for every viewer: deal the cards that viewer cannot
see (other hands except the cards they took face up, and the stock) anew at random, restore the
position with that change, and check the viewer's observation and mask are unchanged. A second
check makes sure the test can fail: the viewer's own hand does change its observation (for
every variant). The checks themselves are tests/checkers.py's, shared with the other families'
leak tests (tests/test_gin_env.py, tests/test_indian_env.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from checkers import check_blind_to_hidden_cards, check_own_hand_is_seen

import rummy_env
from rummy_env.contract.rules import ContractRules

#: The contract family (Indian Rummy's leak test is in tests/test_indian_env.py).
VARIANTS = [v for v in rummy_env.VARIANTS if isinstance(rummy_env.make(v).rules, ContractRules)]


@pytest.mark.parametrize("name", VARIANTS)
def test_observations_do_not_depend_on_hidden_cards(name: str) -> None:
    rng = np.random.default_rng(99)
    checked = 0
    for game in range(6):
        env = rummy_env.make(name, num_players=3 + game % 3, deal=1 + game)
        env.reset(seed=game)
        other = rummy_env.make(name, num_players=env.num_players, deal=1 + game)
        for step in range(120):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            if step % 10 == 0:
                # Some deals of the hidden cards give positions that cannot arise (the actor
                # under a dig obligation it cannot meet): the loader refuses them, and another
                # deal is tried.
                checked += check_blind_to_hidden_cards(env, other, rng, tries=50)
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
    assert checked > 60


@pytest.mark.parametrize("name", rummy_env.VARIANTS)
def test_the_leak_check_can_fail(name: str) -> None:
    """Changing a card the viewer does see (its own hand) changes its observation."""
    rules = rummy_env.make(name).rules
    check_own_hand_is_seen(name, max(rules.min_players, min(3, rules.max_players)))
