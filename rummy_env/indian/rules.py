"""Rules of Indian Rummy / Paplu (RULES section 8, IR-1..12) as frozen, validated data.

One :class:`IndianRules` object holds every rule the engine reads; the variant is the preset
:data:`INDIAN_RUMMY`, and a house rule is an override by field name through
:meth:`IndianRules.with_overrides`, which validates the result and raises
:class:`~rummy_env.errors.RuleConfigError` naming the field and its allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy_env.rules_base import DeckRules, is_int

_DECKS = tuple((n, 2, 2) for n in range(2, 7)) + tuple((n, 3, 3) for n in range(7, 11))


@dataclass(frozen=True)
class IndianRules(DeckRules):
    """Every rule of Indian Rummy that the engine reads.

    Field (type, meaning, RULES id):

    ==================================  =====================================================
    ``name``                            preset name
    ``min_players/max_players``         supported player counts (IR-1: 2-10)
    ``decks``                           ``(players, packs, jokers)`` for each supported count
                                        (IR-1: 2 packs + 2 jokers to 6 players, 3 + 3 from 7)
    ``hand_size``                       cards dealt to each player (IR-1: 13); a declaration
                                        needs ``hand_size`` cards in melds (IR-6)
    ``num_deals``                       deals of a game; settlements carry (IR-12: 1)
    ``sets_of_four``                    sets of 3 or 4 cards instead of exactly 3 (IR-3 option)
    ``tanala``                          three identical cards (3 packs) form a tanala that
                                        counts as a pure run (IR-4)
    ``aces_wild_when_joker_indicator``  a printed joker as indicator makes every ace wild as
                                        well (IR-2 option)
    ``hand_rummy``                      a dealt hand that is already valid may be declared on
                                        the first turn instead of drawing (IR-10)
    ``hand_rummy_double``               after a hand rummy, players who have had a turn pay
                                        double (IR-10; False: no doubling)
    ``early_declaration_half``          a declaration after drawing on the declarer's first
                                        turn: players yet to have a turn pay half (IR-10)
    ``double_stakes_on_joker_indicator``  every payment of a deal is doubled when its indicator
                                        is a printed joker (IR-11 option)
    ``first_pack_cost``                 owed by a player who packs on their first turn (IR-7)
    ``later_pack_cost``                 owed by a player who packs later (IR-7)
    ==================================  =====================================================
    """

    name: str = "indian_rummy"
    min_players: int = 2
    max_players: int = 10
    decks: tuple[tuple[int, int, int], ...] = _DECKS
    hand_size: int = 13
    num_deals: int = 1
    sets_of_four: bool = False
    tanala: bool = True
    aces_wild_when_joker_indicator: bool = False
    hand_rummy: bool = True
    hand_rummy_double: bool = True
    early_declaration_half: bool = True
    double_stakes_on_joker_indicator: bool = False
    first_pack_cost: int | float = 10
    later_pack_cost: int | float = 40

    def __post_init__(self) -> None:
        self._validate()

    # ----------------------------------------------------------------- derived values
    def describe_deals(self) -> str:
        """One line for the docs: how many deals a game has and what each is."""
        return (f"{self.num_deals}: {self.hand_size} cards each, settlements carried across "
                f"deals (IR-12)")

    # ----------------------------------------------------------------- validation
    def _validate(self) -> None:
        bad = self._bad
        self._require_player_range()
        if not is_int(self.hand_size) or not 6 <= self.hand_size <= 13:
            raise bad("hand_size", "an int in 6..13 (two runs of 3 at least, IR-6)")
        self._require_decks()
        for n, packs, jok in self.decks:
            # The hands, the indicator, the first discard and one stock card at least.
            if 52 * packs + jok < n * self.hand_size + 3:
                raise bad("decks", f"enough cards for {n} hands of {self.hand_size}, the "
                                   f"indicator, the first discard and a stock")
        if not is_int(self.num_deals) or self.num_deals < 1:
            raise bad("num_deals", "an int >= 1")
        self._require_bools("sets_of_four", "tanala", "aces_wild_when_joker_indicator",
                            "hand_rummy", "hand_rummy_double", "early_declaration_half",
                            "double_stakes_on_joker_indicator")
        for name in ("first_pack_cost", "later_pack_cost"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v < 1e9:
                raise bad(name, "a finite number >= 0")



#: RULES section 8: Indian Rummy / Paplu (IR-1..12).
INDIAN_RUMMY = IndianRules()

PRESETS: dict[str, IndianRules] = {INDIAN_RUMMY.name: INDIAN_RUMMY}
