"""Contract Rummy, single-pack rules (RULES section 2, SP-1..5).

Contract Rummy with one pack and a joker (two packs and two jokers for five players), sets of 3
or 4 distinct suits, runs of 3 or more, runs of one contract in different suits, no May I?, and
digging: a player may take a discard at any depth with every card above it (SP-4).

<!-- spec:contract_rummy_single_pack:begin -->
| | contract_rummy_single_pack (at 4 players) |
|---|---|
| Import | `from rummy_env import contract_rummy_single_pack_v1` or `rummy_env.make("contract_rummy_single_pack")` |
| Actions | `Discrete(1717)` |
| Observation | `Dict(observation: Box(4664,) float32, action_mask: Box(1717,) int8)` |
| State | `Box(4929,)` |
| Players | 3-5 (agents `player_0` ... `player_4`) |
| Deals | 7: 1: 2 sets of 3; 2: 1 set of 3 + 1 run of 3; 3: 2 runs of 3; 4: 3 sets of 3; 5: 2 sets of 3 + 1 run of 3; 6: 1 set of 3 + 2 runs of 3; 7: 3 runs of 3 |

Action ids (table melds are numbered in the order they were laid; their count, and so
the size of the lay-off and swap ranges, grows with the players):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (CR-5; opens May I?, CR-7) | `draw stock` |
| 1 | `take_discard` | take the top discard (CR-5, SP-4) | `take discard` |
| 2-53 | `dig` | take the top d discards, d = id - first + 2 (SP-4) | `take discards 2` |
| 54-391 | `meld` | lay one contract meld: a set by rank and size, a run by suit and span (CR-3, CR-5) | `meld set Ax3` |
| 392-1015 | `lay_off` | lay off a natural card on table meld i: id = first + 52*i + card (CR-10) | `lay off AC on 0` |
| 1016-1027 | `lay_off_joker` | lay off a joker on meld i: on a set, or at the high end of a run (CR-10) | `lay off JK on 0` |
| 1028-1039 | `lay_off_joker_low` | lay off a joker at the low end of run i (CR-10) | `lay off JK low on 0` |
| 1040-1663 | `swap` | put the natural card in place of the joker standing for it in run i (CR-8) | `swap AC for joker on 0` |
| 1664-1716 | `discard` | discard a card by type (CR-5) | `discard AC` |
| | | **total: Discrete(1717)** | |

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
| 535 | `discard_order` | (53, 53) | one-hot per depth: the discard pile from the top (SP-4) |
| 3344 | `meld_owner` | (12, 4) | one-hot per table meld: its owner |
| 3392 | `meld_kind` | (12, 2) | per table meld: set, run (all zero: no meld) |
| 3416 | `meld_cards` | (12, 52) | per table meld: cards it holds by the card they stand for |
| 4040 | `meld_jokers` | (12, 52) | per table meld: cards its jokers (wild cards) stand for |
| | | **total: (4664,) float32** | |

Arguments (``rummy_env.make("contract_rummy_single_pack", **options)`` or ``contract_rummy_single_pack_v1.env(**options)``):
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
<!-- spec:contract_rummy_single_pack:end -->

Decisions where the rules leave room:

* A dig below the top card obliges the player to put the deepest card on the table this turn
  (in the contract meld if not yet melded, else by lay-offs or a joker swap); the mask offers a dig
  only when that can be done, and keeps it possible at every step (SP-4).
* The top discard taken may not be discarded the same turn, unless every card left in hand is of
  that type (otherwise the player could neither discard nor keep it).
* A joker in a set stands for the first suit (C D H S) the set lacks; a set's cards have
  distinct suits counting that stated suit (SP-3, C-4), with one pack as well as with two (SP-3
  names several packs, where naturals can repeat; with one pack the rule only bars a natural
  from a set whose joker already stands for it, so ``7C 7D JK`` takes ``7S``, not ``7H``).
* Option ``whole_hand_deals=()`` turns off the final three-runs deal (SP-5's "usually").
* A contract meld that uses every card in hand goes out with no discard (CR-6: the hand is
  empty; seed 003: "unless every card has been melded, you must discard").
* As in ``contract_rummy``, a deal ends with no one out (CR-11) when a turn starts, or a claim
  window ends, with the stock empty and at most one discard: nothing can be reshuffled (the top
  discard stays, C-7), so no card can be drawn from the stock, though the top discard could be
  taken.

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

from rummy_env.contract.rules import CONTRACT_RUMMY_SINGLE_PACK
from rummy_env.envs.family import ContractEnv, variant_metadata


class raw_env(ContractEnv):
    """Contract Rummy, single-pack rules (RULES section 2, SP-1..5); see the module docstring."""

    metadata = variant_metadata("contract_rummy_single_pack_v1")
    preset = CONTRACT_RUMMY_SINGLE_PACK


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
