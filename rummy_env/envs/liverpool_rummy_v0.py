"""Liverpool Rummy (RULES section 3, LV-1).

Contract Rummy plus the cut: before each deal the player before the dealer cuts, and an exact cut
(exactly the cards needed for the deal) takes 50 off that player's score (LV-1).

<!-- spec:liverpool_rummy:begin -->
<!-- spec:liverpool_rummy:end -->

Arguments (``rummy_env.make("liverpool_rummy", **options)`` or ``liverpool_rummy_v0.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal episode, or
``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``, ``illegal_action``
(``"raise"``, ``"penalize"``), ``illegal_reward``, ``reward_scale`` (reward = -penalty points x
scale, default 0.01), and every rule field of :class:`rummy_env.contract.rules.ContractRules` by
name (for example ``jokers=False``).

Rewards: when a deal ends each agent gets minus its score change for the deal (CR-12 penalty
points) times ``reward_scale``; ``infos[agent]`` holds ``score``, ``place`` and ``deals_played``.

Decisions where the rules leave room:

* The cut is a chance event drawn from the seeded generator with probability
  ``cut_probability`` (default 0.1); the cutter takes no action. Its 50 points count in that deal's
  score change, so the cutter's reward for the deal includes them.
* Otherwise every decision of ``contract_rummy`` applies.

Version History

* v0: Initial release.
"""

from __future__ import annotations

from rummy_env.contract.rules import LIVERPOOL_RUMMY
from rummy_env.envs.contract_base import ContractEnv


class raw_env(ContractEnv):
    """Liverpool Rummy (RULES section 3, LV-1); see the module docstring."""

    metadata = {
        "name": "liverpool_rummy_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    preset = LIVERPOOL_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
