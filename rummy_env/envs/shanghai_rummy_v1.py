"""Shanghai Rummy (RULES section 5, SH-1..7).

Contract Rummy with two packs and four jokers, 11 cards in every deal (SH-1), runs of four or
more with aces high only, no two books of one rank and no contiguous same-suit runs in a first
meld (SH-2), at most one joker per meld (SH-3), lay-offs from the meld turn on (SH-4), May I?
twice per deal with two penalty cards (SH-5), Shanghai announcements and calls (SH-6) and SH-7's
card values. Deal 7 is the final three-runs deal (CR-13).

<!-- spec:shanghai_rummy:begin -->
| | shanghai_rummy (at 4 players) |
|---|---|
| Import | `from rummy_env import shanghai_rummy_v1` or `rummy_env.make("shanghai_rummy")` |
| Actions | `Discrete(1756)` |
| Observation | `Dict(observation: Box(1861,) float32, action_mask: Box(1756,) int8)` |
| State | `Box(2126,)` |
| Players | 3-5 (agents `player_0` ... `player_4`) |
| Deals | 7: 1: 2 sets of 3; 2: 1 set of 3 + 1 run of 4; 3: 2 runs of 4; 4: 3 sets of 3; 5: 2 sets of 3 + 1 run of 4; 6: 1 set of 3 + 2 runs of 4; 7: 3 runs of 4 |

Action ids (table melds are numbered in the order they were laid; their count, and so
the size of the lay-off and swap ranges, grows with the players):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (CR-5; opens May I?, CR-7) | `draw stock` |
| 1 | `take_discard` | take the top discard (CR-5, SP-4) | `take discard` |
| 2 | `claim` | claim the top discard out of turn (CR-7) | `claim` |
| 3 | `pass` | decline to claim (CR-7) or to call Shanghai (SH-6) | `pass` |
| 4-15 | `call` | call Shanghai on the top discard and lay it off on meld i: on a set, at the fitting end of a run, a joker at the high end (SH-6b) | `call shanghai on 0` |
| 16-27 | `call_joker_low` | call Shanghai on a joker discard and lay it off at the low end of run i (SH-6b) | `call shanghai on 0 low` |
| 28-377 | `meld` | lay one contract meld: a set by rank and size, a run by suit and span (CR-3, CR-5) | `meld set Ax3` |
| 378-1001 | `lay_off` | lay off a natural card on table meld i: id = first + 52*i + card (CR-10) | `lay off AC on 0` |
| 1002-1013 | `lay_off_joker` | lay off a joker on meld i: on a set, or at the high end of a run (CR-10) | `lay off JK on 0` |
| 1014-1025 | `lay_off_joker_low` | lay off a joker at the low end of run i (CR-10) | `lay off JK low on 0` |
| 1026-1649 | `swap` | put the natural card in place of the joker standing for it in run i (CR-8) | `swap AC for joker on 0` |
| 1650-1702 | `discard` | discard a card by type (CR-5) | `discard AC` |
| 1703-1755 | `announce` | discard a card that fits a table meld, announcing Shanghai: no one may take or claim it (SH-6a) | `discard AC announcing shanghai` |
| | | **total: Discrete(1756)** | |

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
| 289 | `phase` | (6,) | one-hot: draw, claim, play, deal_over, game_over, call |
| 295 | `deal` | (7,) | one-hot: deal number |
| 302 | `contract` | (6,) | sets, runs, smallest set / 10, smallest run / 10, whole-hand deal (CR-13), contiguity rule (CR-9) |
| 308 | `turn` | (4,) | contract meld in progress, freed jokers owed (CR-8), may lay off now, turn number / 100 |
| 312 | `obligation` | (53,) | one-hot: dug card still to put on the table (SP-4) |
| 365 | `forbidden` | (53,) | one-hot: card that may not be discarded this turn (SP-4) |
| 418 | `claim` | (5,) | 1 at 0 if the observer is asked to claim (or, SH-6, to call); then one-hot of the seat that claimed the previous card of this window |
| 423 | `stock_size` | (1,) | cards in the stock / total cards |
| 424 | `discard_size` | (1,) | cards in the discard pile / total cards |
| 425 | `discard_top` | (53,) | one-hot: the top discard |
| 478 | `discard_top_by` | (5,) | one-hot: who discarded the top card (last: the up-card) |
| 483 | `discard_counts` | (53,) | cards of each type in the discard pile |
| 536 | `claims_left` | (4,) | May I? claims (buys) each seat may still make this deal / the largest limit (SH-5, PR-2) |
| 540 | `announced` | (1,) | 1 if the top discard was announced: no take, no claim (SH-6a) |
| 541 | `meld_owner` | (12, 4) | one-hot per table meld: its owner |
| 589 | `meld_kind` | (12, 2) | per table meld: set, run (all zero: no meld) |
| 613 | `meld_cards` | (12, 52) | per table meld: cards it holds by the card they stand for |
| 1237 | `meld_jokers` | (12, 52) | per table meld: cards its jokers (wild cards) stand for |
| | | **total: (1861,) float32** | |

Arguments (``rummy_env.make("shanghai_rummy", **options)`` or ``shanghai_rummy_v1.env(**options)``):
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
<!-- spec:shanghai_rummy:end -->

Decisions where the rules leave room:

* Deal 7, the final three-runs deal (CR-13), follows SH-1 with SH-4's same-turn
  lay-offs: the three runs need not hold the whole hand; a run is offered when every
  card the contract leaves can then be laid off on that turn (on the new runs or any
  meld on the table), and after the contract only such lay-offs are legal, no discard,
  until the hand is empty and the deal ends. The engine fills the runs as in a
  completion that empties the hand (where a joker sits decides what can follow). Rule
  field ``whole_hand_layoffs`` (False: CR-13's whole-hand runs, as Contract Rummy); with a
  ``wild_ranks`` or ``dig`` override the final deal keeps CR-13's runs too (that lay-off
  search reads no wild-card views or dig obligations: ``ContractRules.final_layoffs``).
* Contract melds name their size (``meld set 7x4``, ``meld run H 5-9``); the engine fills them
  with natural cards first and at most one joker per meld (SH-3), choosing copies so that the
  rest of the contract stays possible. The mask never offers a meld the hand cannot finish.
* SH-2's "no two books of one rank" and "no contiguous runs of one suit" bind a player's
  contract meld (its first meld); later lay-offs may make runs contiguous.
* SH-3's limit counts every joker on a meld: a joker laid off or freed by a swap (CR-8) goes only
  where the meld holds none; a swap is offered only when every freed joker can then be laid off.
* SH-5: May I? opens only when the player to move draws from the stock (declining the discard
  is how the player to move exercises its priority); claims at most twice per deal, each with the
  top two stock cards, never twice in a row in one window (CR-7); a claim needs the two penalty
  cards to be drawable.
* SH-6: announcing is its own action, ``discard 7H announcing shanghai``, offered for discards
  that fit a table meld (and not for the last card, which goes out). An unannounced discard that
  fits opens a window before the next player draws: each other player in turn from the next one
  (melded or not) may ``call shanghai on <meld>`` (a joker also names the end, ``low``) or pass.
  The caller's card for the discarder is drawn at random with the seeded generator; a caller left
  with no card has gone out. Then the next player's turn starts on the new top discard; an
  announced card can be neither taken nor claimed.
* Which face-up cards a caller still holds after the random draw is uncertain, so the public
  ``known`` counts of the caller drop by one for every type.
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
* v1 (also): the final three-runs deal offers every contract meld SH-1 allows: shorter
  runs whose rest is laid off on the same turn (before, only runs holding the whole
  hand were offered, and nothing could be laid off on other melds).
"""

from __future__ import annotations

from rummy_env.contract.rules import SHANGHAI_RUMMY
from rummy_env.envs.family import ContractEnv, variant_metadata


class raw_env(ContractEnv):
    """Shanghai Rummy (RULES section 5, SH-1..7); see the module docstring."""

    metadata = variant_metadata("shanghai_rummy_v1")
    preset = SHANGHAI_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
