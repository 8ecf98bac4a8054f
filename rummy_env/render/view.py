"""What a picture of the table shows, as plain data: :class:`TableView`, built per family.

The drawing code (:mod:`rummy_env.render.draw`) never reads a game state: it draws a
:class:`TableView`, and :func:`table_view` is the one place that decides what a seat may see.
A seat's view holds its own hand face up and, for every other seat, only the number of cards
(and what the family makes public: melds on the table, the discard top, packs, scores); the
stock is a count. ``reveal=True`` (the "view from above" of a replay) puts every hand face up
and is marked as such on the picture. Keeping the decision here, in pure Python, lets a test
check that permuting the hidden cards leaves a seat's view (and so its picture) unchanged.

The family extras come from each engine's public state: the contract of the deal and claim
windows (May I?, buying, Shanghai calls) for the contract family, the indicator and wild rank
for Indian Rummy, the knock limit, upcard and knock for Gin Rummy, the shared table (one valid
arrangement, jokers with the card they stand for) for Manipulation Rummy.

:func:`hand_summary` is the one-line assessment of a seat's own hand (points if caught now,
deadwood, best arrangement), used under the hand in the picture and by the terminal player's
hints (``examples/play.py``); it reads that seat's hand and public data only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummy_env.cards import JOKER, NUM_NATURAL, counts_to_list, sort_key

#: The rules families a view can be built for (``env.family``).
FAMILIES = ("contract", "gin", "indian", "manipulation")


@dataclass(frozen=True)
class SeatPanel:
    """One seat as the view shows it."""

    seat: int
    hand_size: int
    #: The hand face up (sorted by suit, then rank), or None: shown as backs.
    cards: tuple[int, ...] | None
    score: str  # "score 15", "paid -112", "points 40" (the family's own wording)
    notes: tuple[str, ...]  # "melded", "packed (owes 20)", "knocked" ...
    acting: bool
    dealer: bool

    @property
    def name(self) -> str:
        return f"player_{self.seat}"


@dataclass(frozen=True)
class MeldPicture:
    """A meld on the table: physical cards in order, and what each wild card stands for."""

    owner: int | None  # None: a shared table (Manipulation Rummy)
    kind: str
    cards: tuple[int, ...]
    stands: tuple[int | None, ...]  # per card: the natural a wild card stands for, else None


@dataclass(frozen=True)
class TableView:
    """Everything a picture of the table shows (see the module docstring)."""

    family: str
    title: str
    status: str
    viewer: int | None  # the seat whose view this is; None with ``reveal``
    reveal: bool  # every hand face up (view from above)
    seats: tuple[SeatPanel, ...]
    melds: tuple[MeldPicture, ...]
    table_label: str
    stock: int
    discard_top: int | None
    discard_size: int | None  # None: the family has no discard pile
    #: Extra cards or facts by the piles: ``(label, card type or None)``.
    extras: tuple[tuple[str, int | None], ...]
    banner: str | None  # a claim window, a knock, the end of the deal
    wild: frozenset[int]  # card types that are wild in a hand
    hand_seat: int | None  # whose hand the bottom row shows face up
    hand_note: str  # hand_summary of that seat

    @property
    def hand(self) -> tuple[int, ...]:
        if self.hand_seat is None:
            return ()
        return self.seats[self.hand_seat].cards or ()


def _sorted(types: list[int]) -> tuple[int, ...]:
    return tuple(sorted(types, key=sort_key))


def _viewer_and_hand(st: Any, viewer: int | None, reveal: bool) -> tuple[int | None, int | None]:
    """The view's seat and whose hand the bottom row shows (the viewer; from above: the seat
    to act, else seat 0)."""
    if reveal:
        cur = st.current_player
        return None, cur if cur >= 0 else 0
    if viewer is None or not 0 <= viewer < st.n:
        raise ValueError(f"viewer={viewer!r} is not a seat (0..{st.n - 1}); pass reveal=True "
                         "for the view from above")
    return viewer, viewer


def _status(st: Any, extra: str = "") -> str:
    cur = st.current_player
    acting = f"player_{cur}" if cur >= 0 else "nobody"
    return (f"phase: {st.phase}   to act: {acting}   dealer: player_{st.dealer}   "
            f"turn {st.turn_number}" + (f"   {extra}" if extra else ""))


def _phase_over(st: Any) -> bool:
    return bool(st.is_deal_over)


# --------------------------------------------------------------------------- contract family
def _contract(st: Any, viewer: int | None, reveal: bool) -> TableView:
    from rummy_env.contract.state import CALL, CLAIM, DRAW

    r = st.rules
    view_seat, hand_seat = _viewer_and_hand(st, viewer, reveal)
    contract = r.contracts[st.deal - 1].describe()
    whole = "  (whole hand)" if st.deal in r.whole_hand_deals else ""
    title = f"{r.name}   deal {st.deal}/{r.num_deals}   contract: {contract}{whole}"
    cur = st.current_player
    seats = []
    for s in range(st.n):
        shown = reveal or s == view_seat
        notes = ["melded"] if st.melded[s] else []
        if r.claim_price or r.claims_per_deal is not None:
            notes.append(f"claims {st.claims_used[s]}")
        if r.claim_price:
            notes.append(f"pennies {st.pennies[s]:+g}")
        seats.append(SeatPanel(s, st.hand_size(s),
                               _sorted(counts_to_list(st.hands[s])) if shown else None,
                               f"score {st.scores[s]}", tuple(notes), s == cur, s == st.dealer))
    melds = tuple(
        MeldPicture(m.owner, m.kind, tuple(m.cards),
                    tuple(None if c == s else s for c, s in zip(m.cards, m.stands)))
        for m in st.table)
    top = st.discard[-1] if st.discard else None
    banner = None
    label = "buy" if r.claim_price else "May I?"
    if st.phase == CLAIM and st.claim_queue:
        banner = f"{label} window on the discard: asking player_{st.claim_queue[0]}"
    elif st.phase == CALL and st.claim_queue:
        banner = f"Shanghai window on the discard: asking player_{st.claim_queue[0]}"
    elif st.announced and st.phase == DRAW:
        banner = "the top discard was announced: Shanghai (no take, no claim)"
    if _phase_over(st):
        banner = "deal over: " + ", ".join(f"player_{s} {st.last_deal_delta[s]:+d}"
                                           for s in range(st.n))
        if st.went_out >= 0:
            banner += f"   (player_{st.went_out} went out)"
    extras: list[tuple[str, int | None]] = []
    if r.claim_price:
        extras.append((f"kitty {st.kitty}", None))
    if st.jokers_owed:
        extras.append((f"freed jokers to lay off: {st.jokers_owed}", None))
    wild = frozenset(t for t in range(NUM_NATURAL + 1) if r.is_wild(t))
    return TableView("contract", title, _status(st), view_seat, reveal, tuple(seats), melds,
                     "table", len(st.stock), top, len(st.discard), tuple(extras), banner, wild,
                     hand_seat, hand_summary(st, "contract", hand_seat))


# --------------------------------------------------------------------------- gin
def _gin(st: Any, viewer: int | None, reveal: bool) -> TableView:
    from rummy_env.gin.melds import card_list

    r = st.rules
    view_seat, hand_seat = _viewer_and_hand(st, viewer, reveal)
    over = _phase_over(st)
    head = f"{r.name}   hand {st.deal}"
    if r.game_to:
        head += f"   game to {r.game_to}: points {st.points[0]}-{st.points[1]}"
    cur = st.current_player
    seats = []
    for s in (0, 1):
        shown = reveal or s == view_seat or over  # the hands are shown when a hand ends
        notes = []
        if s == st.knocker:
            notes.append("went gin" if st.gin else "knocked")
        seats.append(SeatPanel(s, st.hand_size(s), _sorted(card_list(st.hands[s])) if shown
                               else None, f"score {-st.scores[s]:+d}", tuple(notes), s == cur,
                               s == st.dealer))
    melds = []
    for s in (0, 1):
        for m in (st.slots if s == st.knocker else st.melds[s]):
            cards = tuple(card_list(m))
            melds.append(MeldPicture(s, "meld", cards, (None,) * len(cards)))
    if st.laid_off:
        cards = tuple(card_list(st.laid_off))
        melds.append(MeldPicture(1 - st.knocker if st.knocker >= 0 else None, "laid off", cards,
                                 (None,) * len(cards)))
    limit = "gin only" if st.knock_limit == 0 else f"knock with {st.knock_limit} or less"
    extras: list[tuple[str, int | None]] = [("first upcard", st.upcard), (limit, None)]
    if st.taken >= 0:
        extras.append(("taken this turn", st.taken))
    banner = None
    if st.knocker >= 0 and not over:
        banner = f"player_{st.knocker} {'went gin' if st.gin else 'knocked'}: laying out"
    if over:
        if st.result == "dead":
            banner = "hand over: dead, the stock reached the wall; no score"
        else:
            banner = (f"hand over: player_{st.winner} scores {-st.last_deal_delta[st.winner]} "
                      f"({st.result}; deadwood {st.deadwood[0]} and {st.deadwood[1]})")
    top = st.discard[-1] if st.discard else None
    return TableView("gin", head, _status(st), view_seat, reveal, tuple(seats), tuple(melds),
                     "melds", len(st.stock), top, len(st.discard), tuple(extras), banner,
                     frozenset(), hand_seat, hand_summary(st, "gin", hand_seat))


# --------------------------------------------------------------------------- Indian Rummy
def _indian(st: Any, viewer: int | None, reveal: bool) -> TableView:
    r = st.rules
    view_seat, hand_seat = _viewer_and_hand(st, viewer, reveal)
    title = f"{r.name}   deal {st.deal}/{r.num_deals}   wild: {st.wild_text()}"
    if st.stake != 1:
        title += f"   stakes x{st.stake}"
    cur = st.current_player
    seats = []
    for s in range(st.n):
        shown = reveal or s == view_seat
        notes = (f"packed (owes {st.owed[s]:g})",) if st.packed[s] else ()
        seats.append(SeatPanel(s, st.hand_size(s),
                               _sorted(counts_to_list(st.hands[s])) if shown else None,
                               f"paid {st.scores[s]:g}", notes, s == cur, s == st.dealer))
    extras: list[tuple[str, int | None]] = [("indicator", st.indicator)]
    if st.out_of_play:
        extras.append((f"out of play: {len(st.out_of_play)}", None))
    if st.taken >= 0:
        extras.append(("taken this turn", st.taken))
    banner = None
    if _phase_over(st):
        if st.result == "void":
            banner = "deal over: void, the stock ran out; nothing paid"
        else:
            banner = ("deal over: " + ", ".join(f"player_{s} {st.last_deal_delta[s]:+g}"
                                                for s in range(st.n))
                      + f"   (player_{st.winner} won: {st.result})")
    wild = frozenset(t for t in range(NUM_NATURAL + 1) if st.wild[t])
    top = st.discard[-1] if st.discard else None
    return TableView("indian", title, _status(st), view_seat, reveal, tuple(seats), (),
                     "no melds on the table (a hand is declared whole)",
                     len(st.stock), top, len(st.discard), tuple(extras), banner, wild,
                     hand_seat, hand_summary(st, "indian", hand_seat))


# --------------------------------------------------------------------------- Manipulation
def _manipulation(st: Any, viewer: int | None, reveal: bool) -> TableView:
    from rummy_env.manipulation import solver

    r = st.rules
    view_seat, hand_seat = _viewer_and_hand(st, viewer, reveal)
    title = f"{r.name}   deal {st.deal}   game to {r.game_target}"
    cur = st.current_player
    seats = []
    for s in range(st.n):
        shown = reveal or s == view_seat
        seats.append(SeatPanel(s, st.hand_size(s),
                               _sorted(counts_to_list(st.hands[s])) if shown else None,
                               f"points {st.points[s]}", (f"deals won {st.deals_won[s]}",),
                               s == cur, s == st.dealer))
    eff = st.table_counts()
    jokers = list(st.table_jok)
    arranged = solver.arrange(eff) if sum(eff) else []
    groups = ([("being rearranged", counts_to_list(eff))] if arranged is None
              else [(kind, list(ts)) for kind, ts in arranged])
    melds = []
    for kind, types in groups:
        cards: list[int] = []
        stands: list[int | None] = []
        for t in types:
            if jokers[t]:  # one joker on the table stands for t: show it as the joker
                jokers[t] -= 1
                cards.append(JOKER)
                stands.append(t)
            else:
                cards.append(t)
                stands.append(None)
        melds.append(MeldPicture(None, kind, tuple(cards), tuple(stands)))
    extras: list[tuple[str, int | None]] = [(f"draws this turn: {st.draws}", None)]
    if st.pending:
        extras.append((f"freed jokers to play again: {st.pending}", None))
    banner = "the stock is out: extra turns without a draw" if st.final_round else None
    if _phase_over(st):
        banner = (f"deal over ({st.result}): " + ", ".join(
            f"player_{s} {st.last_deal_points[s]:+d}" for s in range(st.n)))
    label = (f"table ({sum(eff) + st.pending} cards, " + (
        "being rearranged this turn)" if arranged is None else "one valid arrangement)"))
    return TableView("manipulation", title, _status(st), view_seat, reveal, tuple(seats),
                     tuple(melds), label, len(st.stock), None, None, tuple(extras), banner,
                     frozenset({JOKER}), hand_seat, hand_summary(st, "manipulation", hand_seat))


_BUILDERS = {"contract": _contract, "gin": _gin, "indian": _indian,
             "manipulation": _manipulation}


def table_view(state: Any, family: str, viewer: int | None = None,
               reveal: bool = False) -> TableView:
    """The view of ``state`` (a game state of ``family``) from seat ``viewer``, or from above
    (every hand face up) with ``reveal=True``; ValueError for an unknown family or seat."""
    build = _BUILDERS.get(family)
    if build is None:
        raise ValueError(f"no table view for the {family!r} family; allowed: "
                         + ", ".join(FAMILIES))
    return build(state, viewer, reveal)


# --------------------------------------------------------------------------- hand summary
def hand_points(state: Any, family: str, seat: int) -> float | None:
    """The number :func:`hand_summary` leads with, from ``seat``'s own hand: the points it
    would cost if the deal ended now (contract family), its deadwood (Gin Rummy; with 11 cards,
    after the best discard), the points of its least-paying arrangement (Indian Rummy; what a
    packer owes; None while it holds 14 cards), its value (Manipulation Rummy)."""
    st = state
    if family == "contract":
        return float(st.penalty(seat))
    if family == "gin":
        from rummy_env.gin.melds import card_list, deadwood

        hand = st.hands[seat]
        if hand.bit_count() > 10:
            return float(min(deadwood(hand & ~(1 << t)) for t in card_list(hand)))
        return float(deadwood(hand))
    if family == "indian":
        if st.packed[seat]:
            return float(st.owed[seat])
        if st.hand_size(seat) != st.rules.hand_size:
            return None
        return float(st.arrangement(seat).points)
    if family == "manipulation":
        return float(st.hand_value(seat))
    raise ValueError(f"no hand points for the {family!r} family; allowed: " + ", ".join(FAMILIES))


def hand_summary(state: Any, family: str, seat: int | None) -> str:
    """One line about ``seat``'s own hand, from that hand and public data only (see
    :func:`hand_points`), with what the family adds: whether the contract is laid, whether an
    Indian hand can declare and has its pure sequence."""
    if seat is None:
        return ""
    st = state
    pts = hand_points(st, family, seat)
    if family == "contract":
        left = "" if st.melded[seat] else "   contract not laid yet"
        return f"{pts:g} points in hand if the deal ended now{left}"
    if family == "gin":
        more = " after the best discard" if st.hands[seat].bit_count() > 10 else ""
        return f"deadwood {pts:g}{more}"
    if family == "indian":
        if st.packed[seat]:
            return f"packed: owes {pts:g}"
        if pts is None:
            return f"{st.hand_size(seat)} cards: discard (or declare) to arrange"
        a = st.arrangement(seat)
        return (f"best arrangement: {pts:g} points" + ("   can declare" if a.can_declare else "")
                + ("" if a.first_life else "   no pure sequence yet"))
    return f"hand value {pts:g}"


__all__ = ["FAMILIES", "MeldPicture", "SeatPanel", "TableView", "hand_points", "hand_summary",
           "table_view"]
