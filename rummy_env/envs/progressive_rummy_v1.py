"""Progressive Rummy (RULES section 6, PR-1..8).

Contract Rummy with two packs and four jokers, 11 cards each and fifteen deals of growing
contracts (PR-2), lay-offs from the meld turn on (PR-3), runs that never join or split and sets
that may repeat a rank (PR-4), jokers and every 2 wild in any number, even a meld of wild cards
only (PR-5), buying in deals 9-14 with a penny into the kitty per buy and, in deals 12-13, the top
stock card as well (PR-6), going out by melding or by the last discard (PR-7), and PR-8's card
values with a penny settlement after deal 15. No May I? penalties, joker swaps, contiguity rule or
whole-hand deal (PR-1).

<!-- spec:progressive_rummy:begin -->
| | progressive_rummy (at 4 players) |
|---|---|
| Import | `from rummy_env import progressive_rummy_v1` or `rummy_env.make("progressive_rummy")` |
| Actions | `Discrete(1582)` |
| Observation | `Dict(observation: Box(2752,) float32, action_mask: Box(1582,) int8)` |
| State | `Box(3017,)` |
| Players | 3-5 (agents `player_0` ... `player_4`) |
| Deals | 15: 1: 2 sets of 3; 2: 1 set of 3 + 1 run of 4; 3: 2 sets of 4; 4: 2 runs of 4; 5: 2 sets of 3 + 1 run of 4; 6: 1 set of 4 + 1 run of 5; 7: 2 sets of 5; 8: 2 runs of 5; 9: 4 sets of 3; 10: 3 runs of 4; 11: 3 sets of 4; 12: 5 runs of 3; 13: 5 sets of 3; 14: 1 set of 2 + 1 set of 5 + 1 run of 5; 15: 2 sets of 3 + 1 run of 5 |

Action ids (table melds are numbered in the order they were laid; their count, and so
the size of the lay-off and swap ranges, grows with the players):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (CR-5; opens May I?, CR-7) | `draw stock` |
| 1 | `take_discard` | take the top discard (CR-5, SP-4) | `take discard` |
| 2 | `buy` | buy the top discard before the normal draw, paying the kitty (PR-6) | `buy` |
| 3 | `claim` | buy the top discard out of turn, paying the kitty (PR-6) | `claim` |
| 4 | `pass` | decline to claim (CR-7) | `pass` |
| 5-368 | `meld` | lay one contract meld: a set by rank and size, a run by suit and span (CR-3, CR-5) | `meld set Ax2` |
| 369-1408 | `lay_off` | lay off a natural card on table meld i: id = first + 52*i + card (CR-10) | `lay off AC on 0` |
| 1409-1488 | `lay_off_wild_low` | lay off a wild card (PR-5) at the low end of run i, standing for the card there; its lay_off id puts it on a set or the high end | `lay off 2C low on 0` |
| 1489-1508 | `lay_off_joker` | lay off a joker on meld i: on a set, or at the high end of a run (CR-10) | `lay off JK on 0` |
| 1509-1528 | `lay_off_joker_low` | lay off a joker at the low end of run i (CR-10) | `lay off JK low on 0` |
| 1529-1581 | `discard` | discard a card by type (CR-5) | `discard AC` |
| | | **total: Discrete(1582)** | |

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
| 294 | `deal` | (15,) | one-hot: deal number |
| 309 | `contract` | (6,) | sets, runs, smallest set / 10, smallest run / 10, whole-hand deal (CR-13), contiguity rule (CR-9) |
| 315 | `turn` | (4,) | contract meld in progress, freed jokers owed (CR-8), may lay off now, turn number / 100 |
| 319 | `obligation` | (53,) | one-hot: dug card still to put on the table (SP-4) |
| 372 | `forbidden` | (53,) | one-hot: card that may not be discarded this turn (SP-4) |
| 425 | `claim` | (5,) | 1 at 0 if the observer is asked to claim; then one-hot of the seat that claimed the previous card of this window |
| 430 | `stock_size` | (1,) | cards in the stock / total cards |
| 431 | `discard_size` | (1,) | cards in the discard pile / total cards |
| 432 | `discard_top` | (53,) | one-hot: the top discard |
| 485 | `discard_top_by` | (5,) | one-hot: who discarded the top card (last: the up-card) |
| 490 | `discard_counts` | (53,) | cards of each type in the discard pile |
| 543 | `claims_left` | (4,) | May I? claims (buys) each seat may still make this deal / the largest limit (SH-5, PR-2) |
| 547 | `kitty` | (5,) | pennies in the kitty, then each seat's net pennies this game, / 10 (PR-6) |
| 552 | `meld_owner` | (20, 4) | one-hot per table meld: its owner |
| 632 | `meld_kind` | (20, 2) | per table meld: set, run (all zero: no meld) |
| 672 | `meld_cards` | (20, 52) | per table meld: cards it holds by the card they stand for |
| 1712 | `meld_jokers` | (20, 52) | per table meld: cards its jokers (wild cards) stand for |
| | | **total: (2752,) float32** | |

Arguments (``rummy_env.make("progressive_rummy", **options)`` or ``progressive_rummy_v1.env(**options)``):
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
<!-- spec:progressive_rummy:end -->

Decisions where the rules leave room:

* A contract meld is one action naming what it is, a set by rank and size or a run by suit and
  span (PR-5: the melder states it); what each wild card stands for follows from it: in a run the
  card of its position, in a set the first suit (C D H S) the set lacks. The engine fills a meld
  with natural cards first and wild cards for the rest, a 2 before a printed joker and a 2 in
  its own place first (there it is a natural), choosing copies so the rest of the contract stays
  possible. The mask never offers a meld the hand cannot finish, and with option
  ``meld_needs_natural`` (every meld holds a natural card, a 2 standing as a 2 counting) it also
  searches every way of keeping 2s natural.
* A 2 laid off on a run names the end (``lay off 2H on 3`` for the high end, ``lay off 2H low on 3``
  for the low end) and stands for the card there (itself, if it is that card); on a set it
  stands for its own rank's card if the set is of 2s, else for the first missing suit.
* Pair (deal 14): a set of exactly two cards of one rank; lay-offs of its rank extend it (PR-4).
  Contract melds hold exactly their minimum (CR-5); lay-offs add more.
* Buying (PR-6) in deals 9-14: ``buy`` lets the player to move buy the top discard before its
  normal draw (then it draws as usual, and may take the new top discard); drawing from the stock
  instead opens a window where the others, in turn order from the next player, may ``claim``
  (buy) it. A buy costs ``claim_price`` (1) penny into the kitty, counts against the deal's limit
  (``claims_per_deal``), and in deals 12-13 also takes the top stock card face down
  (``claim_penalty``). Once a card is bought the one beneath may be bought, never by the same
  player twice in a row (CR-7); the discarder of a card may not buy it back (C-8).
* Scores are penalty points (PR-8; lower is better) and rewards are minus the deal's points, as
  in the rest of the family. The penny settlement (PR-8, C-9: tied players share the payments
  and kitty shares of the places they hold) is in ``get_state()["pennies"]`` (net pennies this
  game, buys included) once the game is over; options ``place_pennies`` and ``kitty_split``.
* As in ``contract_rummy``, a deal ends with no one out (CR-11) when a turn starts, a claim window
  ends or a buy before the draw is made with the stock left empty and at most one discard: nothing
  can be reshuffled (the top discard stays, C-7), so no card can be drawn from the stock, though
  the top discard could be taken.

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

from rummy_env.contract.rules import PROGRESSIVE_RUMMY
from rummy_env.envs.family import ContractEnv, variant_metadata


class raw_env(ContractEnv):
    """Progressive Rummy (RULES section 6, PR-1..8); see the module docstring."""

    metadata = variant_metadata("progressive_rummy_v1")
    preset = PROGRESSIVE_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
