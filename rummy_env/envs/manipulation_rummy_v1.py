"""Manipulation Rummy (RULES section 7, MR-1..10).

Two to five players, 10 cards each from one pack and a joker (2 players) or two packs and two
jokers (3-5). No discard pile: a turn is a draw, then a meld that may rearrange the whole table
as long as every table card ends in a valid group or sequence and at least one hand card is
added; a player who does not meld draws again, and again, and after the third card may not meld
(MR-2, MR-4). Jokers state the card they stand for and are freed only by that real card (MR-5).
A hand worth 5 or less may knock at the end of a turn; emptying the hand goes out (MR-7). The
lowest hand wins the deal and scores the differences (MR-8); the game runs to 150 (MR-10).

<!-- spec:manipulation_rummy:begin -->
| | manipulation_rummy (at 4 players) |
|---|---|
| Import | `from rummy_env import manipulation_rummy_v1` or `rummy_env.make("manipulation_rummy")` |
| Actions | `Discrete(212)` |
| Observation | `Dict(observation: Box(242,) float32, action_mask: Box(212,) int8)` |
| State | `Box(507,)` |
| Players | 2-5 (agents `player_0` ... `player_4`) |
| Deals | until a player reaches 150 (MR-10), at most 50; 10 cards each |

Action ids (one fixed layout; a meld is a sequence of single steps, and the mask
offers a step only when the turn can still end with a valid table, MR-4/MR-5):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0-51 | `play` | play a natural card from hand to the table (one step of a meld, MR-4) | `play AC` |
| 52-103 | `joker` | play a joker as the stated card: the freed one if one waits, else one from hand (MR-5) | `joker as AC` |
| 104-155 | `free_hand` | replace the joker standing for this card by the real card from hand (MR-5) | `free joker AC from hand` |
| 156-207 | `free_table` | replace the joker standing for this card by the real card on the table (MR-5) | `free joker AC from table` |
| 208 | `finish` | end the meld: the table is valid, a hand card was added (MR-4); the turn ends | `finish meld` |
| 209 | `decline` | do not meld now: draw the next card (MR-2); in the extra turns of MR-9, end the turn | `decline meld` |
| 210 | `knock` | knock: the deal ends and is scored (MR-7, MR-8) | `knock` |
| 211 | `no_knock` | do not knock; the turn passes | `no knock` |
| | | **total: Discrete(212)** | |

Observation pieces (egocentric: seat rows start with the observer):

| offset | piece | shape | meaning |
|---|---|---|---|
| 0 | `hand` | (53,) | cards of each type in the observer's hand |
| 53 | `table` | (52,) | cards on the table by the card they are or stand for |
| 105 | `table_jokers` | (52,) | jokers on the table by the card they stand for (MR-5) |
| 157 | `locked` | (52,) | of those, jokers played this turn (kept to the turn's end) |
| 209 | `hand_size` | (4,) | cards in each seat's hand / 20 |
| 213 | `points` | (4,) | game totals / game target (MR-10) |
| 217 | `deals_won` | (4,) | deals each seat has won / 10 (MR-10) |
| 221 | `to_move` | (4,) | one-hot: whose turn it is |
| 225 | `dealer` | (4,) | one-hot: the dealer |
| 229 | `phase` | (4,) | one-hot: meld, knock, deal_over, game_over |
| 233 | `turn` | (9,) | draws this turn / 3, meld in progress, hand card added (MR-4), freed jokers pending (MR-5), extra turns (MR-9), extra turns left / players, stock / total cards, own hand value / 100, may knock (MR-7) |
| | | **total: (242,) float32** | |

Arguments (``rummy_env.make("manipulation_rummy", **options)`` or ``manipulation_rummy_v1.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal
episode, or ``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``,
``illegal_action`` (``"penalize"``, default; ``"raise"``), ``illegal_reward``, ``reward_scale``,
and every rule field of ``ManipulationRules`` by name: ``min_players``, ``max_players``,
``decks``, ``hand_size``, ``knock_limit``, ``joker_value``, ``knock_bonus``, ``go_out_bonus``,
``game_target``, ``target_bonus``, ``deal_won_bonus``, ``num_deals``.

Rewards: when a deal ends each agent gets the points it scored in the deal (MR-8: the
winner's differences and bonuses, 0 for the others; on the game's last deal the MR-10
bonuses too) times ``reward_scale`` (default 0.01): higher is better. ``infos[agent]``
holds ``score`` in the package's lower-is-better convention (minus the game total),
``place`` (1 = highest total) and ``deals_played``.
<!-- spec:manipulation_rummy:end -->

Decisions where the rules leave room:

* A meld is a sequence of single steps (play a natural card; play a joker as a stated card;
  free a joker with its real card from hand or from the table; finish). The table is kept as
  a multiset of card types, jokers by the card they stand for: any arrangement of it is as
  good as another, since MR-4 lets a player rearrange everything; ``render`` and
  ``get_state`` show one valid arrangement found by the solver. The mask offers a step only
  when the turn can still end with a valid table that holds at least one hand card (exact,
  ``rummy_env.manipulation.solver``), and ``finish meld`` only when it does now and no freed
  joker waits (MR-4, MR-5). ``decline meld`` is offered only before the first step.
* Frees come first: ``play`` and ``joker as`` are offered when the turn can end validly
  without freeing another joker; a free is offered when the turn can end validly after it
  (further frees allowed). Steps commute, so every table a turn could end with stays reachable
  (free the jokers it needs first) and no offered step is a dead end; this keeps the mask
  exact and cheap (the solver need not place every freeable joker for every candidate card).
* A joker played (or played again) this turn keeps its meaning until the turn ends: it cannot
  be freed again on the same turn. Freeing it would only undo the step, so no table is lost,
  and every turn is finite. A freed joker waiting to be played again is what ``joker as``
  plays first; the hand's jokers after it.
* Freeing a joker "from the table" needs a natural copy of its card on the table at that
  moment; the real card moves into the joker's place, so the table loses one copy of that card.
  A joker may be played again with the same meaning it had.
* Draws are not actions: the engine draws at the start of the turn and after each decline.
  A draw the stock cannot supply is skipped (MR-2). Knocking is offered at the end of every
  turn, melded or not, whenever the hand is worth ``knock_limit`` or less and not empty.
* MR-9: the player who takes the last stock card finishes their turn; then every player,
  starting with the next seat and ending with that player, has one more turn without a draw
  (one meld, or ``decline meld`` to pass; knocking allowed); then the hands are counted.
* Going out counts as ending the deal like a knock with a hand of 0: the player who went out
  wins alone (nobody else holds 0) and scores the differences plus 25, never the 10.
* When nobody knocked (MR-9), every player tied for the lowest hand wins the deal, also when
  all tie and each scores 0; every deal won, such ones included, counts for MR-10's 25 per
  deal won.
* Scores: points won, higher is better. ``scores`` in ``infos`` and in the engine are minus
  the points (the package's lower-is-better convention); the reward is the deal's points.
  Every deal score is >= 0 (only winners score).
* MR-10: the game's final deal includes the bonuses (100 to each player at or over the target,
  25 per deal won to the others) in its reward. A game that never reaches the target ends
  after ``num_deals`` deals (default 50) without those bonuses, so an ``episode="game"`` is
  finite; ``deal`` numbers the deal of a one-deal episode (every deal is played the same way).
* ``max_turns`` (default 300 per deal) truncates the episode; the stock empties within about
  ``stock / players`` rounds, so the cap only matters for custom rules.

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

from rummy_env.envs.family import ManipulationEnv, variant_metadata
from rummy_env.manipulation.rules import MANIPULATION_RUMMY


class raw_env(ManipulationEnv):
    """Manipulation Rummy (RULES section 7, MR-1..10); see the module docstring."""

    metadata = variant_metadata("manipulation_rummy_v1")
    preset = MANIPULATION_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
