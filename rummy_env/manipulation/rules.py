"""Rules of Manipulation Rummy (RULES section 7, MR-1..10) as frozen, validated data.

One :class:`ManipulationRules` object holds every rule the engine reads; the variant is the
preset :data:`MANIPULATION_RUMMY`, and a house rule is an override by field name through
:meth:`ManipulationRules.with_overrides`, which validates the result and raises
:class:`~rummy_env.errors.RuleConfigError` naming the field and its allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy_env.rules_base import DeckRules, is_int

_DECKS = ((2, 1, 1), (3, 2, 2), (4, 2, 2), (5, 2, 2))


@dataclass(frozen=True)
class ManipulationRules(DeckRules):
    """Every rule of Manipulation Rummy that the engine reads.

    Field (meaning, RULES id):

    =======================  ==========================================================
    ``name``                 preset name
    ``min_players``          supported player counts (MR-1: 2-5)
    ``max_players``
    ``decks``                ``(players, packs, jokers)`` per supported count (MR-1: one
                             pack + 1 joker for 2 players, two packs + 2 jokers for 3-5;
                             at most 2 jokers, so a table type holds at most 4 cards)
    ``hand_size``            cards dealt to each player (MR-1: 10)
    ``knock_limit``          a hand worth this much or less may knock (MR-7: 5)
    ``joker_value``          value of a joker in hand (MR-6: 25)
    ``knock_bonus``          extra score of a deal winner other than the knocker (MR-8: 10)
    ``go_out_bonus``         extra score for emptying the hand (MR-8: 25)
    ``game_target``          the game ends when a player reaches this (MR-10: 150)
    ``target_bonus``         extra score of each player who reached it (MR-10: 100)
    ``deal_won_bonus``       extra score of every other player per deal won (MR-10: 25)
    ``num_deals``            cap on the deals of a game, so an ``episode="game"`` is
                             finite **[decision]**: the game ends at the target or after
                             this many deals, whichever comes first
    =======================  ==========================================================
    """

    name: str = "manipulation_rummy"
    min_players: int = 2
    max_players: int = 5
    decks: tuple[tuple[int, int, int], ...] = _DECKS
    hand_size: int = 10
    knock_limit: int = 5
    joker_value: int = 25
    knock_bonus: int = 10
    go_out_bonus: int = 25
    game_target: int = 150
    target_bonus: int = 100
    deal_won_bonus: int = 25
    num_deals: int = 50

    def __post_init__(self) -> None:
        self._validate()

    def describe_deals(self) -> str:
        """One line for the docs: how a game runs."""
        return (f"until a player reaches {self.game_target} (MR-10), at most {self.num_deals}; "
                f"{self.hand_size} cards each")

    def _validate(self) -> None:
        bad = self._bad
        self._require_player_range()
        if not is_int(self.hand_size) or not 1 <= self.hand_size <= 20:
            raise bad("hand_size", "an int in 1..20")
        self._require_decks(packs=(1, 2), jokers=(0, 2),
                            allowed="one (players, packs 1..2, jokers 0..2) per supported player "
                                    "count (the solver assumes at most 4 cards of a type)")
        for n, packs, jok in self.decks:
            if 52 * packs + jok < n * self.hand_size + 1:
                raise bad("decks", f"enough cards for {n} hands of {self.hand_size} and a stock")
        for name in ("knock_limit", "joker_value", "knock_bonus", "go_out_bonus",
                     "target_bonus", "deal_won_bonus"):
            if not is_int(getattr(self, name)) or getattr(self, name) < 0:
                raise bad(name, "an int >= 0")
        if not is_int(self.game_target) or self.game_target < 1:
            raise bad("game_target", "an int >= 1")
        if not is_int(self.num_deals) or self.num_deals < 1:
            raise bad("num_deals", "an int >= 1")


#: RULES section 7: Manipulation Rummy (MR-1..10).
MANIPULATION_RUMMY = ManipulationRules()

PRESETS: dict[str, ManipulationRules] = {MANIPULATION_RUMMY.name: MANIPULATION_RUMMY}
