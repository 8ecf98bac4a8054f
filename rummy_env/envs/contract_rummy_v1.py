"""Contract Rummy (RULES section 1, CR-1..13).

Three to five players race through seven deals; each deal has a contract, the exact first meld
that a player must lay down (CR-3) before laying off. When the player to move draws from the stock,
the others may claim the top discard out of turn ("May I?", CR-7), each claim costing a penalty card.
Penalty points are the cards left in hand (CR-12); the lowest total after seven deals wins.

<!-- spec:contract_rummy:begin -->
| | contract_rummy (at 4 players) |
|---|---|
| Import | `from rummy_env import contract_rummy_v1` or `rummy_env.make("contract_rummy")` |
| Actions | `Discrete(1606)` |
| Observation | `Dict(observation: Box(1855,) float32, action_mask: Box(1606,) int8)` |
| State | `Box(2120,)` |
| Players | 3-5 (agents `player_0` ... `player_4`) |
| Deals | 7: 1: 2 sets of 3; 2: 1 set of 3 + 1 run of 4; 3: 2 runs of 4; 4: 3 sets of 3; 5: 2 sets of 3 + 1 run of 4; 6: 1 set of 3 + 2 runs of 4; 7: 3 runs of 4 |

Action ids (table melds are numbered in the order they were laid; their count, and so
the size of the lay-off and swap ranges, grows with the players):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (CR-5; opens May I?, CR-7) | `draw stock` |
| 1 | `take_discard` | take the top discard (CR-5, SP-4) | `take discard` |
| 2 | `claim` | claim the top discard out of turn (CR-7) | `claim` |
| 3 | `pass` | decline to claim (CR-7) | `pass` |
| 4-280 | `meld` | lay one contract meld: a set by rank and size, a run by suit and span (CR-3, CR-5) | `meld set Ax3` |
| 281-904 | `lay_off` | lay off a natural card on table meld i: id = first + 52*i + card (CR-10) | `lay off AC on 0` |
| 905-916 | `lay_off_joker` | lay off a joker on meld i: on a set, or at the high end of a run (CR-10) | `lay off JK on 0` |
| 917-928 | `lay_off_joker_low` | lay off a joker at the low end of run i (CR-10) | `lay off JK low on 0` |
| 929-1552 | `swap` | put the natural card in place of the joker standing for it in run i (CR-8) | `swap AC for joker on 0` |
| 1553-1605 | `discard` | discard a card by type (CR-5) | `discard AC` |
| | | **total: Discrete(1606)** | |

Observation pieces (egocentric: seat rows start with the observer):

| offset | piece | shape | meaning |
|---|---|---|---|
| 0 | `hand` | (53,) | cards of each type in the observer's hand |
| 53 | `known` | (4, 53) | cards each seat took face up and still holds (public) |
| 265 | `hand_size` | (4,) | cards in each seat's hand / 20 |
| 269 | `melded` | (4,) | 1 if the seat has met this deal's contract |
| 273 | `scores` | (4,) | game score of each seat / 100 |
| 277 | `claims_used` | (4,) | May I? claims each seat made this deal |
| 281 | `to_move` | (4,) | one-hot: whose turn it is |
| 285 | `dealer` | (4,) | one-hot: the dealer |
| 289 | `phase` | (5,) | one-hot: draw, claim, play, deal_over, game_over |
| 294 | `deal` | (7,) | one-hot: deal number |
| 301 | `contract` | (6,) | sets, runs, smallest set / 10, smallest run / 10, whole-hand deal (CR-13), contiguity rule (CR-9) |
| 307 | `turn` | (4,) | contract meld in progress, freed jokers owed (CR-8), may lay off now, turn number / 100 |
| 311 | `obligation` | (53,) | one-hot: dug card still to put on the table (SP-4) |
| 364 | `forbidden` | (53,) | one-hot: card that may not be discarded this turn (SP-4) |
| 417 | `claim` | (5,) | 1 at 0 if the observer is asked to claim; then one-hot of the seat that claimed the previous card of this window |
| 422 | `stock_size` | (1,) | cards in the stock / total cards |
| 423 | `discard_size` | (1,) | cards in the discard pile / total cards |
| 424 | `discard_top` | (53,) | one-hot: the top discard |
| 477 | `discard_top_by` | (5,) | one-hot: who discarded the top card (last: the up-card) |
| 482 | `discard_counts` | (53,) | cards of each type in the discard pile |
| 535 | `meld_owner` | (12, 4) | one-hot per table meld: its owner |
| 583 | `meld_kind` | (12, 2) | per table meld: set, run (all zero: no meld) |
| 607 | `meld_cards` | (12, 52) | per table meld: cards it holds by the card they stand for |
| 1231 | `meld_jokers` | (12, 52) | per table meld: cards its jokers (wild cards) stand for |
| | | **total: (1855,) float32** | |

Arguments (``rummy_env.make("contract_rummy", **options)`` or ``contract_rummy_v1.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal
episode, or ``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``,
``illegal_action`` (``"penalize"``, default; ``"raise"``), ``illegal_reward``, ``reward_scale``,
and every rule field of ``ContractRules`` by name: ``min_players``, ``max_players``, ``decks``,
``jokers``, ``hand_sizes``, ``contracts``, ``exact_contract_sizes``, ``whole_hand_deals``,
``whole_hand_layoffs``, ``aces_low``, ``set_max``, ``set_distinct_suits``,
``contract_runs_distinct``, ``contiguity_deals``, ``layoff_same_turn``, ``joker_swap``,
``may_i``, ``claim_penalty``, ``claims_per_deal``, ``buy_before_draw``, ``claim_price``,
``place_pennies``, ``kitty_split``, ``wild_ranks``, ``meld_needs_natural``, ``dig``,
``no_discard_taken``, ``joker_points``, ``rank_points``, ``sets_distinct_ranks``,
``max_jokers_per_meld``, ``shanghai``, ``go_out_by_discard``, ``cut_probability``,
``cut_bonus``.

Rewards: when a deal ends each agent gets minus its score change for the deal (penalty
points, CR-12) times ``reward_scale`` (default 0.01); ``infos[agent]`` always holds
``score``, ``place`` and ``deals_played``.
<!-- spec:contract_rummy:end -->

Decisions where the rules leave room:

* A contract meld is one action naming its shape (a set by rank and size, a run by suit and
  span); the engine fills it with natural cards first and jokers for the gaps, choosing copies so
  that the rest of the contract stays possible. A joker in a set stands for the first suit
  (C D H S) the set lacks. The mask never offers a meld the hand cannot finish.
* A deal ends with no one out (CR-11) when a turn starts, or a claim window ends, with the stock
  empty and at most one discard: nothing can be reshuffled (the top discard stays, C-7), so no
  card can be drawn from the stock, though the top discard could be taken (taking it would let the
  players trade one card back and forth). A scenario in phase ``draw`` in that state is refused.
* A May I? claim is not offered to the player who discarded the card (C-8), to the claimant of the
  previous card of the same window (CR-7), or when the penalty card cannot be drawn (C-8).
* A joker freed by a swap must be laid off before the discard; a swap is offered only when that is
  possible (CR-8). An ace that fits both ends of a 2-K run goes high (the same run either way).

Version History

* v0: Initial release.
* v1: an illegal action (an id in range that the rules do not allow) ends the episode by
  default, ``illegal_reward`` (-1) to the offender and 0 to the others, with PettingZoo's
  warning (``illegal_action="penalize"``, PettingZoo classic's convention; ``"raise"`` keeps
  the old behaviour); anything but an integer id (floats, strings, bools) is refused with
  ``IllegalActionError`` instead of being converted. Legal play is unchanged.
* v1 (also): observation and state spaces declare their true, finite bounds instead of
  ``Box(-inf, inf)``; a scenario whose position lies outside them (huge scores or counts, a
  turn number beyond ``max_turns``) is refused with ``ScenarioError``.
"""

from __future__ import annotations

from rummy_env.contract.rules import CONTRACT_RUMMY
from rummy_env.envs.family import ContractEnv, variant_metadata


class raw_env(ContractEnv):
    """Contract Rummy (RULES section 1, CR-1..13); see the module docstring."""

    metadata = variant_metadata("contract_rummy_v1")
    preset = CONTRACT_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
