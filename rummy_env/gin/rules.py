"""Rules of Gin Rummy (RULES section 9, GR-1..9) as frozen, validated data.

One :class:`GinRules` object holds every rule the engine reads; the variant is the preset
:data:`GIN_RUMMY`, and a house rule is an override by field name through
:meth:`GinRules.with_overrides`, which validates the result and raises
:class:`~rummy_env.errors.RuleConfigError` naming the field and its allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy_env.rules_base import RulesBase, is_int


@dataclass(frozen=True)
class GinRules(RulesBase):
    """Every rule of Gin Rummy that the engine reads.

    Field (type, meaning, RULES id):

    ====================  =============================================================
    ``name``              preset name
    ``min_players``       2 (GR-1: two players only; kept so the shared env reads it)
    ``max_players``       2
    ``knock_card``        the most deadwood a player may knock with (GR-5, GR-9: 1-10)
    ``oklahoma``          the knock limit of a hand is the value of its first upcard
                          instead; an ace upcard allows only gin (GR-9)
    ``gin_bonus``         points a gin scores on top of the defender's deadwood (GR-7: 25)
    ``undercut_bonus``    points an undercut scores on top of the difference (GR-7: 25)
    ``game_to``           0: a game is one hand (GR-9 default); N > 0: hands are played
                          until a player's points reach N (a game to 100)
    ``max_deals``         the most hands of a game to ``game_to`` (dead hands score
                          nothing, so a game could otherwise last for ever)
    ``wall``              stock cards left at which a hand whose drawer does not knock is
                          dead (GR-8: 2)
    ====================  =============================================================
    """

    name: str = "gin_rummy"
    min_players: int = 2
    max_players: int = 2
    knock_card: int = 10
    oklahoma: bool = False
    gin_bonus: int = 25
    undercut_bonus: int = 25
    game_to: int = 0
    max_deals: int = 100
    wall: int = 2

    def __post_init__(self) -> None:
        self._validate()

    # ----------------------------------------------------------------- derived values
    @property
    def num_deals(self) -> int:
        """The most deals of a game: 1 for a one-hand game, else ``max_deals``."""
        return 1 if self.game_to == 0 else self.max_deals

    def describe_deals(self) -> str:
        """One line for the docs: what a game is."""
        if self.game_to == 0:
            return "1: 10 cards each; one hand is the game (GR-9; option `game_to=100`)"
        return (f"up to {self.max_deals}: 10 cards each, hands until a player has "
                f"{self.game_to} points (GR-9)")

    def knock_limit_for(self, upcard: int) -> int:
        """The most deadwood a knock may have in a hand whose first upcard is ``upcard``
        (GR-9: the knock card, or with Oklahoma the upcard's value; an ace allows only gin)."""
        if not self.oklahoma:
            return self.knock_card
        rank = upcard % 13 + 1
        return 0 if rank == 1 else min(rank, 10)

    # ----------------------------------------------------------------- validation
    def _validate(self) -> None:
        bad = self._bad
        if self.min_players != 2 or not is_int(self.min_players):
            raise bad("min_players", "2 (Gin Rummy is a two-player game, GR-1)")
        if self.max_players != 2 or not is_int(self.max_players):
            raise bad("max_players", "2 (Gin Rummy is a two-player game, GR-1)")
        if not is_int(self.knock_card) or not 1 <= self.knock_card <= 10:
            raise bad("knock_card", "an int in 1..10 (GR-9)")
        self._require_bools("oklahoma")
        for name in ("gin_bonus", "undercut_bonus"):
            v = getattr(self, name)
            if not is_int(v) or not 0 <= v <= 1000:
                raise bad(name, "an int in 0..1000")
        if not is_int(self.game_to) or not 0 <= self.game_to <= 10000:
            raise bad("game_to", "0 (one hand is the game) or an int in 1..10000 (a game to N)")
        if not is_int(self.max_deals) or not 1 <= self.max_deals <= 10000:
            raise bad("max_deals", "an int in 1..10000")
        # The stock holds 31 cards after the deal; a wall of 31 or more would end every hand
        # at the first discard.
        if not is_int(self.wall) or not 0 <= self.wall <= 30:
            raise bad("wall", "an int in 0..30 (GR-8: 2)")


#: RULES section 9: Gin Rummy (GR-1..9), one hand per game, knock card 10.
GIN_RUMMY = GinRules()

PRESETS: dict[str, GinRules] = {GIN_RUMMY.name: GIN_RUMMY}
