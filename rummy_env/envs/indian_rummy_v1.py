"""Indian Rummy / Paplu (RULES section 8, IR-1..12).

Two to ten players, 13 cards each from two packs and two jokers (three and three from seven
players). An indicator card is turned up: its rank and the printed jokers are wild (IR-2). A turn
is a draw (stock or top discard) and a discard; nothing is ever laid on the table (IR-5). A player
whose 13 cards, with the 14th drawn, form valid melds with at least two runs, one of them pure,
discards the 14th and declares (IR-6) and collects from every other player the value of their
unmatched cards, arranged to pay the least (IR-9); a player may instead pack at the start of a
turn for a fixed cost (IR-7). One deal is a game by default (IR-12).

<!-- spec:indian_rummy:begin -->
| | indian_rummy (at 4 players) |
|---|---|
| Import | `from rummy_env import indian_rummy_v1` or `rummy_env.make("indian_rummy")` |
| Actions | `Discrete(110)` |
| Observation | `Dict(observation: Box(574,) float32, action_mask: Box(110,) int8)` |
| State | `Box(892,)` |
| Players | 2-10 (agents `player_0` ... `player_9`) |
| Deals | 1: 13 cards each, settlements carried across deals (IR-12) |

Action ids (one fixed layout; cards by type, so the size does not grow with the packs):

| ids | name | meaning | first id reads |
|---|---|---|---|
| 0 | `draw_stock` | draw the top stock card (IR-5) | `draw stock` |
| 1 | `take_discard` | take the top discard (IR-5) | `take discard` |
| 2 | `pack` | pack (drop) instead of drawing: owe 10 on the first turn, 40 later (IR-7) | `pack` |
| 3 | `hand_rummy` | declare the dealt hand on the first turn, before drawing (IR-10) | `hand rummy` |
| 4-56 | `discard` | discard a card by type, ending the turn (IR-5) | `discard AC` |
| 57-109 | `declare` | discard the 14th card by type and declare: the 13 left are valid (IR-6) | `declare discarding AC` |
| | | **total: Discrete(110)** | |

Observation pieces (egocentric: seat rows start with the observer):

| offset | piece | shape | meaning |
|---|---|---|---|
| 0 | `hand` | (53,) | cards of each type in the observer's hand |
| 53 | `known` | (4, 53) | cards each seat took face up from the discard pile and still holds (public) |
| 265 | `indicator` | (53,) | one-hot: the indicator card (IR-2) |
| 318 | `wild` | (53,) | 1 for each wild card type: the indicator's rank and the printed joker (IR-2) |
| 371 | `taken` | (53,) | one-hot: the card the player to move took from the discard pile this turn, which may not be discarded (IR-5) |
| 424 | `discard_top` | (53,) | one-hot: the top discard |
| 477 | `discard_counts` | (53,) | cards of each type in the discard pile |
| 530 | `discard_top_by` | (5,) | one-hot: who discarded the top card (last: the first discard) |
| 535 | `hand_size` | (4,) | cards in each seat's hand / 14 |
| 539 | `packed` | (4,) | 1 if the seat has packed (IR-7) |
| 543 | `owed` | (4,) | pack cost the seat owes / 100 (IR-7) |
| 547 | `had_turn` | (4,) | 1 if the seat has had a turn this deal, a draw or a pack (IR-10) |
| 551 | `to_move` | (4,) | one-hot: whose turn it is |
| 555 | `dealer` | (4,) | one-hot: the dealer |
| 559 | `scores` | (4,) | net points each seat has paid over the game / 100 |
| 563 | `phase` | (4,) | one-hot: draw, play, deal_over, game_over |
| 567 | `counts` | (3,) | cards in the stock, in the discard pile and out of play (IR-7), each / total cards |
| 570 | `turn` | (4,) | turn number / 100, the player to move is on its first turn (IR-10), stakes multiplier (IR-11), deals played / deals of the game (IR-12) |
| | | **total: (574,) float32** | |

Arguments (``rummy_env.make("indian_rummy", **options)`` or ``indian_rummy_v1.env(**options)``):
``num_players``, ``episode`` (``"deal"`` or ``"game"``), ``deal`` (deal of a one-deal
episode, or ``"random"``), ``render_mode`` (``"ansi"``, ``"human"``), ``max_turns``,
``illegal_action`` (``"penalize"``, default; ``"raise"``), ``illegal_reward``, ``reward_scale``,
and every rule field of ``IndianRules`` by name: ``min_players``, ``max_players``, ``decks``,
``hand_size``, ``num_deals``, ``sets_of_four``, ``tanala``, ``aces_wild_when_joker_indicator``,
``hand_rummy``, ``hand_rummy_double``, ``early_declaration_half``,
``double_stakes_on_joker_indicator``, ``first_pack_cost``, ``later_pack_cost``.

Rewards: when a deal ends each agent gets its settlement (IR-9: the winner collects what
the others pay; zero-sum, and zero for a void deal, IR-8) times ``reward_scale`` (default
0.01); ``infos[agent]`` always holds ``score`` (net points paid over the game: negative
is a net win), ``place`` and ``deals_played``.
<!-- spec:indian_rummy:end -->

Decisions where the rules leave room:

* The declaration is one action, ``declare discarding <card>``: the 14th card is discarded and
  the engine arranges the 13 (``rummy_env.indian.solver``). The mask offers it exactly for the
  cards whose discard leaves a valid hand (IR-6), and ``hand rummy`` exactly when the dealt 13
  are valid on the player's first turn, before drawing (IR-10).
* The indicator is the first card of the shuffled deck, then the hands are dealt, then the top
  stock card starts the discard pile (IR-2). A printed-joker indicator leaves only the jokers
  wild (option ``aces_wild_when_joker_indicator``: the aces as well).
* A card taken from the discard pile may not be discarded on that turn, and since copies are
  identical (C-1) neither may another copy of its type; this holds for the discard that goes
  with a declaration too (IR-5).
* Packing counts as having had a turn (IR-10). A first-turn packer's 13 cards go, shuffled, to
  the bottom of the stock; a later packer's leave play face down, so observations encode only
  their count (IR-7). When all but one have packed, the last player collects the pack costs.
* Early declaration (IR-10): a declaration on the declarer's first turn, after drawing; each
  player yet to have a turn pays half its points, halves kept (scores are floats). After a hand
  rummy (declared instead of drawing: nothing is discarded) the players who have had a turn pay
  double (option ``hand_rummy_double``). Neither rule halves or doubles a pack cost; option
  ``early_declaration_half=False`` turns the halving off.
* IR-11's doubled stakes (option ``double_stakes_on_joker_indicator``) double every payment of
  the deal, pack costs included.
* A void deal (IR-8: the last stock card drawn and no declaration) pays nothing and still counts
  as one of the game's ``num_deals``; the stock is never reshuffled. The only ``deal`` values are
  ``1..num_deals`` (every deal is played the same way) and ``"random"``.
* Scores are net points paid over the game (negative: net winnings), the package's "lower is
  better" convention, so standings and the single-agent wrappers read them as for the other
  variants; the reward is the settlement.
* ``max_turns`` (default 300 per deal) truncates the episode: taking the top discard does not
  use up the stock, so two players could otherwise trade discards for ever.
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

from rummy_env.envs.family import IndianEnv, variant_metadata
from rummy_env.indian.rules import INDIAN_RUMMY


class raw_env(IndianEnv):
    """Indian Rummy / Paplu (RULES section 8, IR-1..12); see the module docstring."""

    metadata = variant_metadata("indian_rummy_v1")
    preset = INDIAN_RUMMY


def env(**options: object) -> raw_env:
    """The environment, with PettingZoo's guarantees built in (see ``rummy_env.envs.base``)."""
    return raw_env(**options)  # type: ignore[arg-type]
