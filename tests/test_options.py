"""Bad rule options raise RuleConfigError naming the field that was given, at make (issue 16).

The values a fuzz of ``rummy_env.make`` found reaching the rules' comparisons (``TypeError``
from inside), being accepted with the wrong type, naming the wrong field, or being accepted and
failing at ``reset()``; see ``rummy_env.envs.options``.
"""

from __future__ import annotations

import pytest

import rummy_env
from rummy_env import RuleConfigError

BAD = [
    ("may_i", {"decks": 0}, "decks"),
    ("may_i", {"decks": [2]}, "decks"),
    ("may_i", {"contracts": 0}, "contracts"),
    ("may_i", {"contracts": ()}, "contracts"),
    ("may_i", {"max_players": "x"}, "max_players"),
    ("may_i", {"min_players": "x"}, "min_players"),
    ("may_i", {"min_players": 2}, "min_players"),
    ("may_i", {"max_players": 9}, "max_players"),
    ("may_i", {"min_players": 5, "max_players": 4}, "min_players"),
    ("may_i", {"hand_sizes": (60,) * 7}, "hand_sizes"),
    ("may_i", {"hand_sizes": (27,) * 7}, "hand_sizes"),
    ("may_i", {"hand_sizes": (10,) * 3}, "hand_sizes"),
    ("may_i", {"max_turns": True}, "max_turns"),
    ("may_i", {"claims_per_deal": "3"}, "claims_per_deal"),
    ("may_i", {"set_max": 4.0}, "set_max"),
    ("may_i", {"max_jokers_per_meld": True}, "max_jokers_per_meld"),
    ("may_i", {"jokers": 1}, "jokers"),
    ("shanghai_rummy", {"wild_ranks": tuple(range(1, 14))}, "wild_ranks"),
    ("shanghai_rummy", {"wild_ranks": "2"}, "wild_ranks"),
    ("indian_rummy", {"first_pack_cost": True}, "first_pack_cost"),
    ("indian_rummy", {"hand_size": 13.0}, "hand_size"),
    ("manipulation_rummy", {"knock_limit": None}, "knock_limit"),
    ("gin_rummy", {"knock_card": True}, "knock_card"),
    ("gin_rummy", {"oklahoma": "yes"}, "oklahoma"),
]


@pytest.mark.parametrize("variant,options,field", BAD, ids=[f"{v}-{o}" for v, o, _ in BAD])
def test_bad_option_names_its_field(variant, options, field):
    with pytest.raises(RuleConfigError) as info:
        rummy_env.make(variant, **options)
    assert f"{field}=" in str(info.value), str(info.value)


@pytest.mark.parametrize("name", [{"a": 1}, None, 3, ["may_i"]])
def test_make_refuses_a_name_that_is_not_a_variant(name):
    with pytest.raises(RuleConfigError, match="unknown variant"):
        rummy_env.make(name)


GOOD = [
    ("may_i", {"hand_sizes": [26] * 7}),  # 4 players, 108 cards: 104 dealt, discard, stock
    ("may_i", {"claims_per_deal": None, "set_max": None, "max_jokers_per_meld": None}),
    ("may_i", {"decks": [[3, 2, 2], [4, 2, 3], [5, 2, 4]]}),  # YAML/JSON lists
    ("may_i", {"contracts": rummy_env.make("may_i").rules.contracts[:3],
               "hand_sizes": (10, 10, 10)}),
    ("shanghai_rummy", {"wild_ranks": tuple(range(1, 13))}),
    ("indian_rummy", {"first_pack_cost": 1.5}),
]

# The fuzz listed these as "accepted with the wrong type"; each is a value its field
# documents (ContractRules: None is "no limit" for claims_per_deal, set_max and
# max_jokers_per_meld; IndianRules: pack costs are ``int | float`` payments, which IR-10's halves
# already make fractional), so they stay accepted: on the variants where they change a rule
# (Shanghai's two claims, SH-5, and one joker per meld, SH-3; SP-3's sets of at most 4) a game
# with them plays on, every observation inside its space, every position saved and restored.
HOUSE_RULES = [
    ("shanghai_rummy", {"claims_per_deal": None}),
    ("shanghai_rummy", {"max_jokers_per_meld": None}),
    ("contract_rummy_single_pack", {"set_max": None}),
    ("indian_rummy", {"first_pack_cost": 1.5, "later_pack_cost": 2.5}),
]


@pytest.mark.parametrize("variant,options", HOUSE_RULES, ids=[f"{v}-{o}" for v, o in HOUSE_RULES])
def test_documented_none_and_float_values_play_on(variant, options):
    import numpy as np

    env = rummy_env.make(variant, episode="game", **options)
    for k, v in options.items():
        assert getattr(env.rules, k) == v
    rng = np.random.default_rng(0)
    steps = 0
    for seed in range(30):  # (an Indian Rummy game is one short deal)
        if steps >= 300:
            break
        env.reset(seed=seed)
        while env.agents and steps < 300:
            agent = env.agent_selection
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert env.observation_space(agent)["observation"].contains(obs["observation"])
            if steps % 50 == 0:
                again = rummy_env.make(variant, episode="game", **options)
                again.reset(seed=1, options={"scenario": env.get_state()})
                assert again.get_state() == env.get_state()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    assert steps > 100


@pytest.mark.parametrize("variant,options", GOOD, ids=[f"{v}-{o}"[:60] for v, o in GOOD])
def test_good_options_build_and_reset(variant, options):
    env = rummy_env.make(variant, **options)
    env.reset(seed=0)
    assert env.legal_actions()
