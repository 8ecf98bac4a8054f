"""May I? (RULES section 4, MI-1..6).

Contract Rummy with one pack (and its two jokers) per two players, contract melds that may be
larger than the minimum (MI-2), jokers that are never taken back (MI-3), no contiguity rule (MI-4),
an ordinary seventh deal (MI-5) and jokers worth 25 (MI-6).

<!-- spec:may_i:begin -->
<!-- spec:may_i:end -->

Arguments (``rummy_env.make("may_i", **options)`` or ``may_i_v0.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal episode, or
``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``, ``illegal_action``
(``"raise"``, ``"penalize"``), ``illegal_reward``, ``reward_scale`` (reward = -penalty points x
scale, default 0.01), and every rule field of :class:`rummy_env.contract.rules.ContractRules` by
name (for example ``jokers=False``).

Rewards: when a deal ends each agent gets minus its score change for the deal (CR-12 penalty
points) times ``reward_scale``; ``infos[agent]`` holds ``score``, ``place`` and ``deals_played``.

Decisions where the rules leave room:

* Contract melds name their size: ``meld set 7x5`` lays five 7s (jokers filling gaps).
* Otherwise every decision of ``contract_rummy`` applies.

Version History

* v0: Initial release.
"""

from __future__ import annotations

from rummy_env.contract.rules import MAY_I
from rummy_env.envs.contract_base import ContractEnv


class raw_env(ContractEnv):
    """May I? (RULES section 4, MI-1..6); see the module docstring."""

    metadata = {
        "name": "may_i_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    preset = MAY_I


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
