"""Contract Rummy, single-pack rules (RULES section 2, SP-1..5).

Contract Rummy with one pack and a joker (two packs and two jokers for five players), sets of 3
or 4 distinct suits, runs of 3 or more, runs of one contract in different suits, no May I?, and
digging: a player may take a discard at any depth with every card above it (SP-4).

<!-- spec:contract_rummy_single_pack:begin -->
<!-- spec:contract_rummy_single_pack:end -->

Arguments (``rummy_env.make("contract_rummy_single_pack", **options)`` or ``contract_rummy_single_pack_v0.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal episode, or
``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``, ``illegal_action``
(``"raise"``, ``"penalize"``), ``illegal_reward``, ``reward_scale`` (reward = -penalty points x
scale, default 0.01), and every rule field of :class:`rummy_env.contract.rules.ContractRules` by
name (for example ``jokers=False``).

Rewards: when a deal ends each agent gets minus its score change for the deal (CR-12 penalty
points) times ``reward_scale``; ``infos[agent]`` holds ``score``, ``place`` and ``deals_played``.

Decisions where the rules leave room:

* A dig below the top card obliges the player to put the deepest card on the table this turn
  (in the contract meld if not yet melded, else by lay-offs or a joker swap); the mask offers a dig
  only when that can be done, and keeps it possible at every step (SP-4).
* The top discard taken may not be discarded the same turn, unless every card left in hand is of
  that type (otherwise the player could neither discard nor keep it).
* A joker in a set stands for the first suit (C D H S) the set lacks; a set's cards have
  distinct suits counting that stated suit (SP-3, C-4).
* Option ``whole_hand_deals=()`` turns off the final three-runs deal (SP-5's "usually").

Version History

* v0: Initial release.
"""

from __future__ import annotations

from rummy_env.contract.rules import CONTRACT_RUMMY_SINGLE_PACK
from rummy_env.envs.contract_base import ContractEnv


class raw_env(ContractEnv):
    """Contract Rummy, single-pack rules (RULES section 2, SP-1..5); see the module docstring."""

    metadata = {
        "name": "contract_rummy_single_pack_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    preset = CONTRACT_RUMMY_SINGLE_PACK


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
