"""Contract Rummy (RULES section 1, CR-1..13).

Three to five players race through seven deals; each deal has a contract, the exact first meld
that a player must lay down (CR-3) before laying off. When the player to move draws from the stock,
the others may claim the top discard out of turn ("May I?", CR-7), each claim costing a penalty card.
Penalty points are the cards left in hand (CR-12); the lowest total after seven deals wins.

<!-- spec:contract_rummy:begin -->
<!-- spec:contract_rummy:end -->

Arguments (``rummy_env.make("contract_rummy", **options)`` or ``contract_rummy_v0.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal episode, or
``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``, ``illegal_action``
(``"raise"``, ``"penalize"``), ``illegal_reward``, ``reward_scale`` (reward = -penalty points x
scale, default 0.01), and every rule field of :class:`rummy_env.contract.rules.ContractRules` by
name (for example ``jokers=False``).

Rewards: when a deal ends each agent gets minus its score change for the deal (CR-12 penalty
points) times ``reward_scale``; ``infos[agent]`` holds ``score``, ``place`` and ``deals_played``.

Decisions where the rules leave room:

* A contract meld is one action naming its shape (a set by rank and size, a run by suit and
  span); the engine fills it with natural cards first and jokers for the gaps, choosing copies so
  that the rest of the contract stays possible. A joker in a set stands for the first suit
  (C D H S) the set lacks. The mask never offers a meld the hand cannot finish.
* A deal ends with no one out (CR-11) when a player must draw and the stock is empty with at most
  one discard (the top discard stays, C-7).
* A May I? claim is not offered to the player who discarded the card (C-8), to the claimant of the
  previous card of the same window (CR-7), or when the penalty card cannot be drawn (C-8).
* A joker freed by a swap must be laid off before the discard; a swap is offered only when that is
  possible (CR-8). An ace that fits both ends of a 2-K run goes high (the same run either way).

Version History

* v0: Initial release.
"""

from __future__ import annotations

from rummy_env.contract.rules import CONTRACT_RUMMY
from rummy_env.envs.contract_base import ContractEnv


class raw_env(ContractEnv):
    """Contract Rummy (RULES section 1, CR-1..13); see the module docstring."""

    metadata = {
        "name": "contract_rummy_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    preset = CONTRACT_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
