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


@pytest.mark.parametrize("variant,options", GOOD, ids=[f"{v}-{o}"[:60] for v, o in GOOD])
def test_good_options_build_and_reset(variant, options):
    env = rummy_env.make(variant, **options)
    env.reset(seed=0)
    assert env.legal_actions()
