"""Gin Rummy (RULES section 9, GR-1..9).

Two players, one 52-card pack, 10 cards each (GR-1, GR-2). The first upcard is offered to the
non-dealer, then to the dealer (GR-3). A turn is a draw (stock or top discard) and a discard,
never the card just taken from the pile (GR-4). A player whose deadwood after discarding is at
most the knock card may knock: they discard, then lay their melds one per action (GR-5); with no
deadwood it is gin. The defender then lays its melds and lays cards off on the knocker's melds,
one per action, except against gin (GR-6). The lower deadwood scores the difference, an undercut
or a gin scores a bonus (GR-7); a hand whose drawer leaves two stock cards and does not knock is
dead (GR-8). One hand is a game by default; options give a knock card, Oklahoma, the bonuses
and a game to 100 (GR-9).

<!-- spec:gin_rummy:begin -->
| | gin_rummy (at 2 players) |
|---|---|
| Import | `from rummy_env import gin_rummy_v1` or `rummy_env.make("gin_rummy")` |
| Actions | `Discrete(569)` |
| Observation | `Dict(observation: Box(812,) float32, action_mask: Box(569,) int8)` |
| State | `Box(968,)` |
| Players | 2-2 (agents `player_0` ... `player_1`) |
| Deals | 1: 10 cards each; one hand is the game (GR-9; option `game_to=100`) |

Action ids (one fixed layout for two players and one pack):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (GR-4) | `draw stock` |
| 1 | `take_discard` | take the top discard, or the first upcard (GR-3, GR-4) | `take discard` |
| 2 | `pass` | pass the first upcard (GR-3) | `pass` |
| 3-54 | `discard` | discard a card by type, ending the turn (GR-4) | `discard AC` |
| 55-106 | `knock` | discard a card by type and knock: deadwood within the knock limit, gin at 0 (GR-5) | `knock discarding AC` |
| 107-411 | `meld` | lay a meld (cards listed by suit then rank): the knocker after knocking (GR-5), the defender after that (GR-6) | `meld AC AD AH` |
| 412-567 | `lay_off` | the defender lays a card off on the knocker's meld 0, 1 or 2 (GR-6) | `lay off AC on 0` |
| 568 | `done` | finish laying melds: the cards left are deadwood (GR-5, GR-6) | `done` |
| | | **total: Discrete(569)** | |

Observation pieces (egocentric: seat rows start with the observer):

| offset | piece | shape | meaning |
|---|---|---|---|
| 0 | `hand` | (52,) | the observer's cards |
| 52 | `known` | (2, 52) | cards each seat took face up from the discard pile and still holds (public) |
| 156 | `discard_top` | (52,) | one-hot: the top discard (the upcard at the start, GR-2) |
| 208 | `discard_pile` | (52,) | cards in the discard pile |
| 260 | `taken` | (52,) | one-hot: the card the player to move took from the discard pile this turn, which it may not discard (GR-4) |
| 312 | `melds` | (2, 52) | cards each seat laid in its own melds (GR-5, GR-6) |
| 416 | `slots` | (3, 52) | the knocker's melds in the order laid, with the cards laid off on them: the targets of `lay off ... on k` (GR-6) |
| 572 | `laid_off` | (52,) | cards the defender laid off (GR-6) |
| 624 | `shown` | (2, 52) | cards each seat laid down face up as deadwood: the knocker's once it is done laying melds (GR-5), the defender's when the hand is scored (GR-7) |
| 728 | `upcard` | (52,) | one-hot: the first upcard of the hand (GR-2; Oklahoma, GR-9) |
| 780 | `phase` | (7,) | one-hot: first_upcard, draw, play, knock, defend, deal_over, game_over |
| 787 | `to_move` | (2,) | one-hot: who acts (or acted last) |
| 789 | `dealer` | (2,) | one-hot: the dealer |
| 791 | `knocker` | (2,) | one-hot: who knocked (zero before a knock) |
| 793 | `gin` | (1,) | 1 if the knock is gin (GR-5) |
| 794 | `knock_limit` | (11,) | one-hot: the most deadwood a knock may have, 0 (gin only) to 10 (GR-5, GR-9) |
| 805 | `upcard_refused` | (1,) | 1 if both passed the first upcard: the stock only (GR-3) |
| 806 | `counts` | (2,) | cards in the stock and in the discard pile, each / 31 |
| 808 | `points` | (2,) | points each seat has scored over the game / 100 (GR-7, GR-9) |
| 810 | `turn` | (2,) | turn number / 100, hands played / hands of the game |
| | | **total: (812,) float32** | |

Arguments (``rummy_env.make("gin_rummy", **options)`` or ``gin_rummy_v1.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal
episode, or ``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``,
``illegal_action`` (``"penalize"``, default; ``"raise"``), ``illegal_reward``, ``reward_scale``,
and every rule field of ``GinRules`` by name: ``min_players``, ``max_players``, ``knock_card``,
``oklahoma``, ``gin_bonus``, ``undercut_bonus``, ``game_to``, ``max_deals``, ``wall``.

Rewards: when a hand ends, the seat that scores gets the hand's points (GR-7: the
deadwood difference, plus the gin or undercut bonus) times ``reward_scale`` (default
0.01) and the other seat minus that; a dead hand (GR-8) gives 0. ``infos[agent]``
always holds ``score`` (net points given away over the game: negative is a net win),
``place`` and ``deals_played``.
<!-- spec:gin_rummy:end -->

Decisions where the rules leave room:

* Knocking is one action, ``knock discarding <card>``: the mask offers it exactly for the cards
  whose discard leaves deadwood within the knock limit (GR-5). A knock whose 10 cards have no
  deadwood in their best arrangement is gin; the knocker must then meld every card. There is
  no "big gin" (RULES has none): a player whose 11 cards all meld still discards one to knock,
  and scores ordinary gin.
* After a knock the knocker lays its melds one per action and ends with ``done``; its deadwood
  is the cards left. The mask offers only melds after which the cards left can still be
  arranged within the limit, and ``done`` only when the cards left are within it, so the
  knocker can always finish and may choose among arrangements (e.g. a set of four or a set of
  three and a run) but never exceed the limit.
* The defender lays its own melds and lays cards off on the knocker's melds in any order, one
  per action, then ``done``; its deadwood is the cards left, so cards it could have melded but
  kept count against it. A lay-off names the knocker's meld (``lay off 6S on 0``), since a card
  can extend two melds (a set and a run, or two runs). Lay-offs extend melds, so a card can go
  on a card laid off before. Against gin the defender lays melds only (GR-6).
* Melds in actions are every set of 3 or 4 and every run of 3 to 10 cards (a 10-card hand holds
  no longer run); a long run can be laid whole or in pieces.
* First upcard (GR-3): ``take discard`` takes it, ``pass`` passes; after both pass the
  non-dealer's only action is ``draw stock``. The card taken may not be discarded that turn.
* The wall (GR-8): after a discard without a knock that leaves ``wall`` (2) or fewer stock cards
  the hand is dead and scores nothing; the player who drew down to the wall may still knock.
* Undercut (GR-7): ties go to the defender, who scores the difference (0) plus the bonus.
* Oklahoma (GR-9): the knock limit is the first upcard's value (faces 10); an ace allows only
  gin. The limit is in the observation (``knock_limit``).
* A game to ``game_to`` points (GR-9, option; default 0: one hand is the game): hands are dealt
  by turns (C-5), a dead hand's too (the other seat deals the next), and the game ends after the hand that brings a player's points to ``game_to`` (or
  after ``max_deals`` hands); no box or game bonuses. ``episode="game"`` plays it all,
  ``episode="deal"`` one hand.
* Scores are net points given away (negative: net winnings), the package's "lower is better"
  convention; the reward is zero-sum (the scorer gets the points, the other seat minus them).
* ``max_turns`` (default 300 per hand) truncates the episode: taking the top discard does not
  use up the stock, so two players could otherwise trade discards for ever (OpenSpiel caps gin
  games for the same reason).
* The cards a seat took face up from the discard pile and still holds are public and observed
  (``known``), as in the other families.

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

from rummy_env.envs.family import GinEnv, variant_metadata
from rummy_env.gin.rules import GIN_RUMMY


class raw_env(GinEnv):
    """Gin Rummy (RULES section 9, GR-1..9); see the module docstring."""

    metadata = variant_metadata("gin_rummy_v1")
    preset = GIN_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
