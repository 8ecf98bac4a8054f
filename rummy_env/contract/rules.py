"""Rules of the contract family (RULES sections 1-6) as frozen, validated data.

One :class:`ContractRules` object holds every rule the engine reads; each variant is a named
preset (module constants below), and a house rule is an override by field name through
:func:`ContractRules.with_overrides`, which validates the result and raises
:class:`~rummy_env.errors.RuleConfigError` naming the field and its allowed values.

The engine never branches on a variant's name: a variant differs only by these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rummy_env.rules_base import DeckRules


@dataclass(frozen=True)
class Contract:
    """The first meld a deal requires (CR-3): minimum sizes of its sets and of its runs."""

    sets: tuple[int, ...] = ()
    runs: tuple[int, ...] = ()

    @property
    def num_melds(self) -> int:
        return len(self.sets) + len(self.runs)

    @property
    def min_cards(self) -> int:
        return sum(self.sets) + sum(self.runs)

    def describe(self) -> str:
        parts = []
        for kind, sizes in (("set", self.sets), ("run", self.runs)):
            for size in sorted(set(sizes)):
                k = sizes.count(size)
                parts.append(f"{k} {kind}{'s' if k > 1 else ''} of {size}")
        return " + ".join(parts)


def _c(sets: int = 0, runs: int = 0, set_size: int = 3, run_size: int = 4) -> Contract:
    return Contract(sets=(set_size,) * sets, runs=(run_size,) * runs)


#: CR-3: the seven contracts of Contract Rummy with CR-4's minimum sizes (sets 3, runs 4).
CR_CONTRACTS = (_c(2, 0), _c(1, 1), _c(0, 2), _c(3, 0), _c(2, 1), _c(1, 2), _c(0, 3))
#: SP-3: the same contracts with runs of 3 or more.
SP_CONTRACTS = tuple(_c(len(c.sets), len(c.runs), 3, 3) for c in CR_CONTRACTS)


@dataclass(frozen=True)
class ContractRules(DeckRules):
    """Every rule of a contract-family game that the engine reads.

    Field (type, meaning, RULES id):

    ============================  ===========================================================
    ``name``                      preset name
    ``min_players/max_players``   supported player counts (CR-1)
    ``decks``                     ``(players, packs, jokers)`` for each supported count
                                  (CR-1, SP-1, MI-1)
    ``jokers``                    False removes every joker (CR-1 option)
    ``hand_sizes``                cards dealt in each deal (CR-2, SP-2); its length is the
                                  number of deals
    ``contracts``                 the contract of each deal (CR-3)
    ``exact_contract_sizes``      contract melds hold exactly their minimum (CR-5) or may be
                                  larger (SP-3, MI-2)
    ``whole_hand_deals``          deals (1-based) played as the final three-runs deal (CR-13)
    ``whole_hand_layoffs``        in those deals the contract runs need not hold the whole
                                  hand: the rest is laid off on the same turn, which must
                                  empty the hand, with no discard (SH-1 with SH-4); False:
                                  the three runs are the whole hand (CR-13). Not combined
                                  with ``wild_ranks`` or ``dig`` (see ``final_layoffs``)
    ``aces_low``                  aces high or low (C-3); False is "ace high only"
    ``set_max``                   largest set (SP-3: 4); None for no limit
    ``set_distinct_suits``        no two cards of one suit in a set, a joker's stated suit
                                  counting (SP-3)
    ``contract_runs_distinct``    runs of one contract must be of different suits (SP-3)
    ``contiguity_deals``          deals whose contract may not hold two contiguous runs of one
                                  suit (CR-9)
    ``layoff_same_turn``          lay-offs allowed on the turn of the contract meld (SP-5);
                                  otherwise only from the next turn (CR-5)
    ``joker_swap``                a joker in a run can be swapped for its natural card (CR-8,
                                  MI-3)
    ``may_i``                     May I? claims when the player to move draws from the stock
                                  (CR-7, SP-5)
    ``claim_penalty``             stock cards a claimant takes with the discard (CR-7: 1);
                                  an int, or one int per deal (PR-6: "take 2" in deals 12-13)
    ``claims_per_deal``           claims each player may make in a deal; None for no limit;
                                  or one int per deal (PR-2's buys per deal, 0: no buying)
    ``buy_before_draw``           the player to move may buy the top discard before its normal
                                  draw (PR-6), within the same limits
    ``claim_price``               pennies a claim (a buy) pays into the kitty (PR-6: 1)
    ``place_pennies``             after the last deal, place k pays k-1 times this to the winner
                                  (PR-8: 2); 0 for no settlement
    ``kitty_split``               shares of the kitty by place, best first (PR-8: all to the
                                  winner; option 2/3 and 1/3)
    ``wild_ranks``                ranks whose cards are wild besides the jokers (PR-5: 2s)
    ``meld_needs_natural``        every meld holds a natural card (CR-4; a wild-rank card
                                  standing for itself counts); PR-5 lifts it
    ``dig``                       draw one or more cards from any depth of the discard pile
                                  (SP-4)
    ``no_discard_taken``          the top discard taken may not be discarded on that turn
                                  (SP-4)
    ``joker_points``              penalty of a joker in hand (CR-12: 15, MI-6: 25, SH-7: 50)
    ``rank_points``               penalty of a natural card in hand by rank, A..K (CR-12:
                                  A 15, 2-9 face value, 10-K 10; SH-7: 2-7 5, 8-K 10, A 20)
    ``sets_distinct_ranks``       a player's contract may not hold two sets of one rank (SH-2)
    ``max_jokers_per_meld``       most jokers a table meld may hold, lay-offs and swaps
                                  included (SH-3: 1); None for no limit
    ``shanghai``                  Shanghai announcements and calls on discards that fit a
                                  table meld (SH-6)
    ``go_out_by_discard``         a player may go out by discarding the last card (TP-3:
                                  False: the last card must be melded or laid off)
    ``cut_probability``           chance that the cut before a deal is exact (LV-1); 0 for no
                                  cut
    ``cut_bonus``                 points taken off the cutter's score on an exact cut (LV-1)
    ============================  ===========================================================
    """

    name: str = "contract_rummy"
    min_players: int = 3
    max_players: int = 5
    decks: tuple[tuple[int, int, int], ...] = ((3, 2, 2), (4, 2, 3), (5, 2, 4))
    jokers: bool = True
    hand_sizes: tuple[int, ...] = (10, 10, 10, 12, 12, 12, 12)
    contracts: tuple[Contract, ...] = CR_CONTRACTS
    exact_contract_sizes: bool = True
    whole_hand_deals: tuple[int, ...] = (7,)
    whole_hand_layoffs: bool = False
    aces_low: bool = True
    set_max: int | None = None
    set_distinct_suits: bool = False
    contract_runs_distinct: bool = False
    contiguity_deals: tuple[int, ...] = (3, 6, 7)
    layoff_same_turn: bool = False
    joker_swap: bool = True
    may_i: bool = True
    claim_penalty: int | tuple[int, ...] = 1
    claims_per_deal: int | tuple[int, ...] | None = None
    buy_before_draw: bool = False
    claim_price: int = 0
    place_pennies: int = 0
    kitty_split: tuple[float, ...] = (1.0,)
    wild_ranks: tuple[int, ...] = ()
    meld_needs_natural: bool = True
    dig: bool = False
    no_discard_taken: bool = False
    joker_points: int = 15
    rank_points: tuple[int, ...] = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    sets_distinct_ranks: bool = False
    max_jokers_per_meld: int | None = None
    shanghai: bool = False
    go_out_by_discard: bool = True
    cut_probability: float = 0.0
    cut_bonus: int = 50
    card_points: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._validate()
        pts = [self.rank_points[t % 13] for t in range(52)]
        pts.append(self.joker_points)
        object.__setattr__(self, "card_points", tuple(pts))

    # ----------------------------------------------------------------- derived values
    @property
    def num_deals(self) -> int:
        return len(self.contracts)

    @property
    def min_set(self) -> int:
        """Smallest meld of one rank on the table: 2 where a contract holds a pair (PR-4)."""
        return min([3] + [s for c in self.contracts for s in c.sets])

    @property
    def final_layoffs(self) -> bool:
        """Whether the final three-runs deals follow SH-1's same-turn lay-offs: the field
        ``whole_hand_layoffs``, except with wild ranks (PR-5) or digging (SP-4), where they keep
        CR-13's whole-hand runs: the lay-off search of that turn reads the hand as physical
        cards, without PR-5's wild-card views or SP-4's dug-card obligation, and no RULES
        variant combines them with SH-1."""
        return self.whole_hand_layoffs and not self.wild_ranks and not self.dig

    def claim_limit(self, deal: int) -> int | None:
        """Claims (buys) each player may make in ``deal`` (1-based); None for no limit."""
        lim = self.claims_per_deal
        return lim[deal - 1] if isinstance(lim, tuple) else lim

    def claim_penalty_in(self, deal: int) -> int:
        """Stock cards a claimant (buyer) takes with the discard in ``deal``."""
        pen = self.claim_penalty
        return pen[deal - 1] if isinstance(pen, tuple) else pen

    def is_wild(self, t: int) -> bool:
        """A joker, or a card of a wild rank (PR-5)."""
        return t == 52 or (t < 52 and t % 13 + 1 in self.wild_ranks)

    def deck_for(self, num_players: int) -> tuple[int, int]:
        """``(packs, jokers)`` for a player count (CR-1, SP-1, MI-1); no jokers when
        ``jokers`` is False."""
        packs, jok = super().deck_for(num_players)
        return packs, (jok if self.jokers else 0)

    # ----------------------------------------------------------------- validation
    def _validate(self) -> None:
        """RuleConfigError for the first field that is not allowed; the fields are checked in
        this order, so that of several bad fields the same one is named."""
        if not (isinstance(self.min_players, int) and 2 <= self.min_players <= self.max_players):
            raise self._bad("min_players", "an int >= 2 and <= max_players")
        self._require_decks()
        self._require_bools("jokers")
        self._validate_deals()
        self._require_bools("exact_contract_sizes", "aces_low", "set_distinct_suits",
                            "contract_runs_distinct", "layoff_same_turn", "joker_swap", "may_i",
                            "dig", "no_discard_taken", "sets_distinct_ranks", "shanghai",
                            "go_out_by_discard", "buy_before_draw", "meld_needs_natural",
                            "whole_hand_layoffs")
        self._validate_claims()
        self._validate_wilds_and_points()

    def _validate_deals(self) -> None:
        """The per-deal fields: hand sizes, contracts, the deal-number tuples, ``set_max``."""
        bad = self._bad
        if len(self.hand_sizes) != len(self.contracts) or not self.contracts:
            raise bad("hand_sizes", f"one positive int per deal ({len(self.contracts)} deals)")
        if any(not isinstance(h, int) or h < 1 for h in self.hand_sizes):
            raise bad("hand_sizes", "positive ints")
        for c in self.contracts:
            if not isinstance(c, Contract) or c.num_melds == 0:
                raise bad("contracts", "Contract objects with at least one meld")
            if any(s < 2 for s in c.sets) or any(r < 3 for r in c.runs):
                raise bad("contracts", "sets of at least 2 cards (2: a pair, PR-4) and runs "
                                       "of at least 3")
        for name in ("whole_hand_deals", "contiguity_deals"):
            v = getattr(self, name)
            if not isinstance(v, tuple) or any(
                not isinstance(d, int) or not 1 <= d <= len(self.contracts) for d in v
            ):
                raise bad(name, f"a tuple of deal numbers in 1..{len(self.contracts)}")
        for d in self.whole_hand_deals:
            if self.contracts[d - 1].sets:
                raise bad("whole_hand_deals", "deals whose contract is runs only (CR-13)")
        if self.set_max is not None and (not isinstance(self.set_max, int) or self.set_max < 3):
            raise bad("set_max", "None or an int >= 3")

    def _validate_claims(self) -> None:
        """Claims and money: the penalty and limit (an int, or one per deal), the prices and
        the kitty's split."""
        bad = self._bad
        nd = len(self.contracts)
        pen = self.claim_penalty
        if not (isinstance(pen, int) and 0 <= pen <= 5) and not (
            isinstance(pen, tuple) and len(pen) == nd
            and all(isinstance(x, int) and 0 <= x <= 5 for x in pen)
        ):
            raise bad("claim_penalty", f"an int in 0..5, or {nd} of them (one per deal)")
        lim = self.claims_per_deal
        if lim is not None and not (isinstance(lim, int) and lim >= 0) and not (
            isinstance(lim, tuple) and len(lim) == nd
            and all(isinstance(x, int) and x >= 0 for x in lim)
        ):
            raise bad("claims_per_deal", f"None, an int >= 0, or {nd} of them (one per deal)")
        for name in ("claim_price", "place_pennies"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 0:
                raise bad(name, "an int >= 0")
        ks = self.kitty_split
        if (not isinstance(ks, tuple) or not ks or any(not isinstance(x, (int, float)) or x < 0
                                                         for x in ks)
                or abs(sum(ks) - 1.0) > 1e-9):
            raise bad("kitty_split", "a tuple of shares >= 0 that sum to 1, best place first")

    def _validate_wilds_and_points(self) -> None:
        """Wild ranks, digging against May I?, card points, jokers per meld, the cut."""
        bad = self._bad
        if not isinstance(self.wild_ranks, tuple) or any(
            not isinstance(r, int) or not 1 <= r <= 13 for r in self.wild_ranks
        ):
            raise bad("wild_ranks", "a tuple of ranks in 1..13")
        if self.may_i and self.dig:
            raise bad("dig", "False when may_i is True (SP-5 replaces May I? by digging)")
        for name in ("joker_points", "cut_bonus"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 0:
                raise bad(name, "an int >= 0")
        if (not isinstance(self.rank_points, tuple) or len(self.rank_points) != 13
                or any(not isinstance(x, int) or x < 0 for x in self.rank_points)):
            raise bad("rank_points", "a tuple of 13 ints >= 0 (A, 2, ..., K)")
        if self.max_jokers_per_meld is not None and (
            not isinstance(self.max_jokers_per_meld, int) or self.max_jokers_per_meld < 1
        ):
            raise bad("max_jokers_per_meld", "None or an int >= 1")
        if (not isinstance(self.cut_probability, (int, float))
                or not 0.0 <= self.cut_probability <= 1.0):
            raise bad("cut_probability", "a number in [0, 1]")


#: RULES section 1: Contract Rummy (CR-1..13).
CONTRACT_RUMMY = ContractRules()

#: RULES section 2: Contract Rummy, single-pack rules (SP-1..5).
CONTRACT_RUMMY_SINGLE_PACK = ContractRules(
    name="contract_rummy_single_pack",
    decks=((3, 1, 1), (4, 1, 1), (5, 2, 2)),
    hand_sizes=(10, 10, 10, 10, 12, 12, 12),
    contracts=SP_CONTRACTS,
    exact_contract_sizes=False,
    set_max=4,
    set_distinct_suits=True,
    contract_runs_distinct=True,
    layoff_same_turn=True,
    may_i=False,
    dig=True,
    no_discard_taken=True,
)

#: RULES section 3: Liverpool Rummy = Contract Rummy plus the cut bonus (LV-1).
LIVERPOOL_RUMMY = ContractRules(name="liverpool_rummy", cut_probability=0.1)

#: RULES section 4: May I? (MI-1..6).
MAY_I = ContractRules(
    name="may_i",
    decks=((3, 2, 4), (4, 2, 4), (5, 3, 6)),
    exact_contract_sizes=False,
    joker_swap=False,
    contiguity_deals=(),
    whole_hand_deals=(),
    joker_points=25,
)

#: SH-7: penalty points by rank, A..K (A 20, 2-7 5, 8-K 10).
SH_RANK_POINTS = (20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)

#: RULES section 5: Shanghai Rummy (SH-1..7).
SHANGHAI_RUMMY = ContractRules(
    name="shanghai_rummy",
    decks=((3, 2, 4), (4, 2, 4), (5, 2, 4)),
    hand_sizes=(11,) * 7,
    exact_contract_sizes=False,
    aces_low=False,
    contiguity_deals=tuple(range(1, 8)),
    sets_distinct_ranks=True,
    max_jokers_per_meld=1,
    layoff_same_turn=True,
    whole_hand_layoffs=True,  # SH-1: deal 7's hand is emptied by the meld and same-turn lay-offs
    claim_penalty=2,
    claims_per_deal=2,
    shanghai=True,
    joker_points=50,
    rank_points=SH_RANK_POINTS,
)

#: RULES section 5, TP-1..6: Tahelia Powe's version of Shanghai (SH-1..7 unless changed).
SHANGHAI_TAHELIA_POWE = replace(
    SHANGHAI_RUMMY,
    name="shanghai_tahelia_powe",
    hand_sizes=(10,) * 8,
    contracts=CR_CONTRACTS[:6] + (_c(4, 0), _c(0, 3)),
    whole_hand_deals=(8,),
    contiguity_deals=tuple(range(1, 9)),
    contract_runs_distinct=True,
    go_out_by_discard=False,
    shanghai=False,
)

#: RULES section 5, DK: Deb Kolsov's ten contracts (sets and runs of at least N cards).
DK_CONTRACTS = (
    Contract(sets=(3, 3)), Contract(sets=(3,), runs=(4,)), Contract(runs=(4, 4)),
    Contract(sets=(3, 3, 3)), Contract(sets=(3,), runs=(7,)), Contract(sets=(3, 3), runs=(5,)),
    Contract(sets=(4, 4, 4)), Contract(sets=(3,), runs=(10,)), Contract(sets=(3, 3, 3), runs=(5,)),
    Contract(runs=(5, 5, 5)),
)
SHANGHAI_DEB_KOLSOV = replace(
    SHANGHAI_RUMMY,
    name="shanghai_deb_kolsov",
    hand_sizes=(11,) * 10,
    contracts=DK_CONTRACTS,
    whole_hand_deals=(),
    contiguity_deals=tuple(range(1, 11)),
)

#: RULES section 6, PR-2: the fifteen contracts (pair: a set of two, deal 14).
PR_CONTRACTS = (
    Contract(sets=(3, 3)), Contract(sets=(3,), runs=(4,)), Contract(sets=(4, 4)),
    Contract(runs=(4, 4)), Contract(sets=(3, 3), runs=(4,)), Contract(sets=(4,), runs=(5,)),
    Contract(sets=(5, 5)), Contract(runs=(5, 5)), Contract(sets=(3, 3, 3, 3)),
    Contract(runs=(4, 4, 4)), Contract(sets=(4, 4, 4)), Contract(runs=(3, 3, 3, 3, 3)),
    Contract(sets=(3, 3, 3, 3, 3)), Contract(sets=(5, 2), runs=(5,)),
    Contract(sets=(3, 3), runs=(5,)),
)
#: RULES section 6: Progressive Rummy (PR-1..8).
PROGRESSIVE_RUMMY = ContractRules(
    name="progressive_rummy",
    decks=((3, 2, 4), (4, 2, 4), (5, 2, 4)),
    hand_sizes=(11,) * 15,
    contracts=PR_CONTRACTS,
    whole_hand_deals=(),
    contiguity_deals=(),
    joker_swap=False,
    layoff_same_turn=True,
    claims_per_deal=(0,) * 8 + (1, 1, 1, 2, 2, 1) + (0,),
    claim_penalty=(0,) * 11 + (1, 1) + (0, 0),
    buy_before_draw=True,
    claim_price=1,
    place_pennies=2,
    wild_ranks=(2,),
    meld_needs_natural=False,
    joker_points=20,
    rank_points=(15, 20, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10),
)

PRESETS: dict[str, ContractRules] = {
    r.name: r for r in (CONTRACT_RUMMY, CONTRACT_RUMMY_SINGLE_PACK, LIVERPOOL_RUMMY, MAY_I,
                        SHANGHAI_RUMMY, SHANGHAI_TAHELIA_POWE, SHANGHAI_DEB_KOLSOV,
                        PROGRESSIVE_RUMMY)
}
