"""The play phase's legal moves in the contract family, and the searches behind them.

What a player may do after drawing (the module docstring of :mod:`rummy_env.contract.state`
tables the phases): contract melds (through :func:`rummy_env.contract.contract_search.
contract_options`, over PR-5's hand views), lay-offs (CR-10), joker swaps (CR-8) and discards,
each offered only where the turn can still end (a freed joker laid off, TP-3's last card, an
SP-4 dig obligation met, SH-1's whole hand laid off). The searches over lay-off and swap
sequences are memoised per call.

These are functions of the state; :class:`~rummy_env.contract.state.ContractState` binds the
ones it calls as methods (``_legal_play``, ``_can_empty``, ...), so its callers are unchanged,
and the functions here call one another directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from rummy_env.cards import JOKER, NUM_TYPES, rank_of, suit_of
from rummy_env.contract.actions import (
    ANNOUNCE,
    DISCARD,
    Action,
    LayOff,
    Swap,
    lay_offs_on,
    meld,
    swaps_on,
)
from rummy_env.contract.melds import (
    Shape,
    TableMeld,
    allocate,
    apply_layoff,
    combo_fills,
    contract_options,
    joker_layoff_stand,
    layoff_natural_pos,
    whole_hand_refuted,
)

if TYPE_CHECKING:
    from rummy_env.contract.contract_search import ContractContext
    from rummy_env.contract.state import ContractState

#: The joker room of a set with no size limit: more than any hand holds.
_UNBOUNDED = 1 << 20


def _owed_after(owed: int, a: LayOff | Swap) -> int:
    """Freed jokers still to lay off after lay-off or swap ``a`` (CR-8): a swap frees one, a
    joker laid off while some are owed settles one."""
    return owed + (a.kind == "swap") - (a.card == JOKER and owed > 0)


def can_layoff_now(state: ContractState, seat: int) -> bool:
    return state.melded[seat] and (
        state.rules.layoff_same_turn
        or state.melded_turn[seat] < state.turn_number
        or emptying_turn(state, seat)
    )


def emptying_turn(state: ContractState, seat: int) -> bool:
    """SH-1: ``seat`` met a whole-hand deal's contract on this turn with cards left, which
    it must now lay off, every one, with no discard."""
    return (
        state.melded[seat]
        and state.melded_turn[seat] == state.turn_number
        and state.contract_ctx().layoffs
    )


def can_swap_now(state: ContractState, seat: int) -> bool:
    return (
        state.rules.joker_swap
        and state.melded[seat]
        and state.melded_turn[seat] < state.turn_number
    )


def contract_reqs(state: ContractState) -> list[tuple[str, int]]:
    """The contract melds still to lay this deal, as ``(kind, minimum size)``."""
    if state.contract_left is not None:
        return state.contract_left
    c = state.rules.contracts[state.deal - 1]
    return [("set", s) for s in c.sets] + [("run", s) for s in c.runs]


def contract_opts(
    state: ContractState,
    hand: Sequence[int],
    must_cover: int = -1,
    any_one: bool = False,
) -> dict[Shape, tuple[Shape, ...]]:
    """The contract meld options of ``hand`` (:func:`contract_options`, over the hand views
    of PR-5's wild 2s), recording the view each shape is filled from (``_views``).
    ``any_one``: only whether there is one (SP-4's dig test): the search stops at its first
    completion and ``_views`` is left as it was."""
    ctx = state.contract_ctx()
    reqs = contract_reqs(
        state,
    )
    # TP-3 (no going out by discarding): a completion must leave one card that lays off
    one_left = (
        None
        if state.rules.go_out_by_discard
        else partial(one_left_after_contract, state, hand, whole_hand=ctx.whole_hand)
    )
    finish = None
    if ctx.layoffs:
        # SH-1 (``final_layoffs``: no wild ranks or digs, so the hand is physical cards).
        # With no meld on the table (the usual final deal: a meld there ends it) every
        # card must end in the three runs, so CR-13's cheap refusals still decide most hands.
        if not state.table and whole_hand_refuted(hand, reqs):
            if not any_one:
                state._views, state._fills = {}, {}
            return {}
        fills: dict[tuple[Shape, ...], list[tuple[list[int], list[int]]]] = {}
        finish = partial(empties_after_contract, state, hand, fills, {})
        one_left = None  # an emptied hand leaves no card alone (TP-3)
    if not state.rules.wild_ranks:
        opts = contract_options(
            hand,
            reqs,
            ctx,
            state.contract_laid,
            must_cover,
            one_left,
            any_one=any_one,
            finish=finish,
        )
        if not any_one:
            state._views = {}
            state._fills = fills if finish is not None else {}
        return opts
    return _wild_view_opts(state, hand, reqs, ctx, must_cover, one_left, any_one)


def _wild_view_opts(
    state: ContractState,
    hand: Sequence[int],
    reqs: list[tuple[str, int]],
    ctx: ContractContext,
    must_cover: int,
    one_left: Callable[[tuple[Shape, ...]], bool] | None,
    any_one: bool,
) -> dict[Shape, tuple[Shape, ...]]:
    """:func:`contract_opts` with wild ranks (PR-5): the options over every hand view, each
    shape from the first view that fills it (recorded in ``_views`` unless ``any_one``)."""
    # A wild 2 is searched as a joker; where melds need a natural, a 2 may also be kept as a
    # natural of its own slot, so every such split of the 2s is searched.
    out: dict[Shape, tuple[Shape, ...]] = {}
    views: dict[Shape, list[int]] = {}
    for view in hand_views(state, hand):
        for sh, combo in contract_options(
            view, reqs, ctx, state.contract_laid, must_cover, one_left, any_one=any_one
        ).items():
            if sh not in out:
                out[sh], views[sh] = combo, view
        if any_one and out:
            return out
    if not any_one:
        state._views = views
    return out


def hand_views(state: ContractState, hand: Sequence[int]) -> list[list[int]]:
    """The hand as the contract search sees it: wild-rank cards (PR-5) counted as jokers.
    Where melds need a natural, also every split keeping some of them as naturals."""
    wild = [t for t in range(52) if hand[t] and state.rules.is_wild(t)]
    if not wild:
        return [list(hand)]
    splits: list[list[int]] = [[]]
    if state.rules.meld_needs_natural:
        for t in wild:
            splits = [x + [k] for x in splits for k in range(hand[t] + 1)]
    else:
        splits = [[0] * len(wild)]
    views = []
    for keep in splits:
        v = list(hand)
        for t, k in zip(wild, keep):
            v[JOKER] += v[t] - k
            v[t] = k
        views.append(v)
    return views


def physical(
    state: ContractState,
    hand: Sequence[int],
    view: Sequence[int],
    cards: list[int],
    stands: Sequence[int],
) -> list[int]:
    """The physical cards of a meld filled from a hand view: each joker slot gets a wild
    card the view counted as a joker; a wild 2 goes first to its own slot (a natural
    there), then to any slot, before a printed joker."""
    pool = {t: hand[t] - view[t] for t in range(52) if hand[t] > view[t]}
    out = list(cards)
    for i, (c, st) in enumerate(zip(cards, stands)):
        if c == JOKER and pool.get(st, 0) > 0:
            pool[st] -= 1
            out[i] = st
    for i, c in enumerate(out):
        if c == JOKER:
            spare = [t for t, k in sorted(pool.items()) if k > 0]
            if spare:
                pool[spare[0]] -= 1
                out[i] = spare[0]
    return out


def one_left_after_contract(
    state: ContractState, hand: Sequence[int], combo: tuple[Shape, ...], whole_hand: bool
) -> bool:
    """TP-3: can the completion ``combo`` be filled so that the one card it leaves in hand
    can then be laid off (on the table or on the new melds)?"""
    if not (state.rules.layoff_same_turn or whole_hand):
        return False
    for t in range(NUM_TYPES):
        if not hand[t]:
            continue
        rest = list(hand)
        rest[t] -= 1
        fill = allocate(list(combo), rest, state.rules, whole_hand=True)
        if fill is None:
            continue
        table = list(state.table)
        for sh, (cards, stands) in zip(combo, fill):
            if sh[0] == "set":
                table.append(TableMeld(-1, "set", sh[1], 0, 0, cards, stands))
            else:
                table.append(TableMeld(-1, "run", sh[1], sh[2], sh[3], cards, stands))
        one = [0] * NUM_TYPES
        one[t] = 1
        if layoffs(state, one, table):
            return True
    return False


def empties_after_contract(
    state: ContractState,
    hand: Sequence[int],
    fills: dict[tuple[Shape, ...], list[tuple[list[int], list[int]]]],
    memo: dict[tuple, bool],
    combo: tuple[Shape, ...],
) -> bool:
    """SH-1 with SH-4: can the runs ``combo`` be filled from ``hand`` so that every card
    they leave is then laid off this turn (on the table or the new runs), emptying the
    hand? The first fill that does is kept in ``fills`` for the meld to use."""
    for fill in combo_fills(combo, hand, state.rules):
        rest = list(hand)
        table = [m.copy() for m in state.table]
        for sh, (cards, stands) in zip(combo, fill):
            for c in cards:
                rest[c] -= 1
            table.append(TableMeld(-1, "run", sh[1], sh[2], sh[3], cards, stands))
        if can_empty(state, rest, table, memo):
            fills[combo] = fill
            return True
    return False


def can_empty(
    state: ContractState, hand: list[int], table: list[TableMeld], memo: dict[tuple, bool]
) -> bool:
    """Can every card of ``hand`` be laid off on ``table``, one after another (SH-1's
    meld turn: lay-offs only, CR-10, within SH-3's joker limit)? A search over lay-off
    orders, memoised on the position; cheap refusals first: a natural with no meld of its
    suit (a run) or rank (a set) on the table, or more jokers than the table has room for,
    can never be laid off."""
    if not any(hand):
        return True
    key = (tuple(hand), tuple((m.lo, m.hi, tuple(m.cards)) for m in table))
    got = memo.get(key)
    if got is not None:
        return got
    memo[key] = False
    run_suits = {m.key for m in table if m.kind == "run"}
    set_ranks = {m.key for m in table if m.kind == "set"}
    ok = all(suit_of(t) in run_suits or rank_of(t) in set_ranks for t in range(52) if hand[t])
    if ok and hand[JOKER] and joker_room(state, table) < hand[JOKER]:
        ok = False
    if ok:
        tried = set()
        for a in layoffs(state, hand, table):
            h2, tb2 = list(hand), [m.copy() for m in table]
            apply_place(state, h2, tb2, a)
            k2 = (tuple(h2), tuple((m.lo, m.hi, tuple(m.cards)) for m in tb2))
            if k2 in tried:
                continue
            tried.add(k2)
            if can_empty(state, h2, tb2, memo):
                memo[key] = True
                return True
    return False


def joker_room(state: ContractState, table: Sequence[TableMeld]) -> int:
    """How many jokers can be laid off on ``table``, one after another: per meld, the
    open run positions or set places, capped by the per-meld joker limit (SH-3). Each
    joker lay-off uses one unit, so this decides whether owed jokers can all be placed."""
    rules = state.rules
    lim = rules.max_jokers_per_meld
    lowest = 1 if rules.aces_low else 2
    room = 0
    for m in table:
        if m.kind == "run":
            r = (m.lo - lowest) + (14 - m.hi)
        elif rules.set_distinct_suits:
            r = 4 - len(m.cards)
        elif rules.set_max is not None:
            r = rules.set_max - len(m.cards)
        else:
            r = _UNBOUNDED
        if rules.set_max is not None and m.kind == "set":
            r = min(r, rules.set_max - len(m.cards))
        if lim is not None:
            r = min(r, lim - m.cards.count(JOKER))
        room += max(0, r)
    return room


def layoffs_of(state: ContractState, t: int) -> list[LayOff]:
    """Every lay-off of one card of type ``t`` onto the table (SH-6: where a discard fits)."""
    one = [0] * NUM_TYPES
    one[t] = 1
    return layoffs(state, one, state.table)


def can_end_turn(
    state: ContractState,
    hand: list[int],
    table: list[TableMeld],
    owed: int,
    seat: int,
    seen: dict[tuple, bool],
) -> bool:
    """TP-3: from this hand and table, with ``owed`` freed jokers still to lay off, can the
    player end the turn: discard (two cards or more, nothing owed) or lay off and swap down
    to an empty hand? A search over lay-offs and swaps, memoised; it ends because every
    move takes a card from the hand or turns a table joker into a natural."""
    size = sum(hand)
    if size == 0 or (owed == 0 and size >= 2):
        return True
    if joker_room(state, table) < owed:
        return False
    key = (tuple(hand), tuple(tuple(m.cards) for m in table), owed)
    if key in seen:
        return seen[key]
    seen[key] = False
    moves: list[LayOff | Swap] = list(layoffs(state, hand, table))
    if can_swap_now(state, seat):
        moves += swaps(state, hand, table)
    for a in moves:
        h2, tb2 = list(hand), [m.copy() for m in table]
        apply_place(state, h2, tb2, a)
        owed2 = _owed_after(owed, a)
        if can_end_turn(state, h2, tb2, owed2, seat, seen):
            seen[key] = True
            return True
    return False


def layoffs(state: ContractState, hand: Sequence[int], table: Sequence[TableMeld]) -> list[LayOff]:
    """Every single lay-off from ``hand`` onto ``table`` (CR-10)."""
    rules = state.rules
    out: list[LayOff] = []
    present = [t for t in range(52) if hand[t]]
    if rules.wild_ranks:
        wilds = [t for t in present if rules.is_wild(t)]
        present = [t for t in present if not rules.is_wild(t)]
        for mi, m in enumerate(table):
            # PR-5: a wild 2 goes on a set, or on either end of a run (standing for the
            # card there, itself if it is that card); ``low`` names the run's end.
            high, low = lay_offs_on(mi), lay_offs_on(mi, True)
            for t in wilds:
                if m.kind == "set":
                    if joker_layoff_stand(rules, m, 1) is not None:
                        out.append(high[t])
                    continue
                if joker_layoff_stand(rules, m, 0) is not None:
                    out.append(low[t])
                if joker_layoff_stand(rules, m, 1) is not None:
                    out.append(high[t])
    for mi, m in enumerate(table):
        high = lay_offs_on(mi)
        if m.kind == "set":
            for t in present:
                if rank_of(t) == m.key and layoff_natural_pos(rules, m, t) is not None:
                    out.append(high[t])
            if hand[JOKER] and joker_layoff_stand(rules, m, 1) is not None:
                out.append(high[JOKER])
        else:
            for t in present:
                if suit_of(t) == m.key and layoff_natural_pos(rules, m, t) is not None:
                    out.append(high[t])
            if hand[JOKER]:
                if joker_layoff_stand(rules, m, 0) is not None:
                    out.append(lay_offs_on(mi, True)[JOKER])
                if joker_layoff_stand(rules, m, 1) is not None:
                    out.append(high[JOKER])
    return out


def swaps(state: ContractState, hand: Sequence[int], table: Sequence[TableMeld]) -> list[Swap]:
    out: list[Swap] = []
    for mi, m in enumerate(table):
        if m.kind != "run":
            continue  # CR-8: jokers in sets are dead
        seen = set()
        for c, s in zip(m.cards, m.stands):
            if c == JOKER and hand[s] and s not in seen:
                seen.add(s)
                out.append(swaps_on(mi)[s])
    return out


def can_place(
    state: ContractState, hand: Sequence[int], t: int, table: Sequence[TableMeld], owed: int = 0
) -> bool:
    """Can a card of type ``t`` reach the table this turn from ``hand`` (which holds it),
    with ``owed`` freed jokers still to lay off, through lay-offs and swaps the play mask
    offers (each keeps the turn able to end, :func:`turn_can_end`)? (SP-4 obligations.)
    Only moves that can matter are tried: lay-offs on runs of ``t``'s suit and joker
    swaps. The search ends: every move takes a card from the hand or turns a table joker
    into a natural."""
    return place_search(state, list(hand), t, [m.copy() for m in table], owed, set())


def place_search(
    state: ContractState,
    hand: list[int],
    t: int,
    table: list[TableMeld],
    owed: int,
    seen: set[tuple],
) -> bool:
    key = (tuple(hand), tuple(tuple(m.cards) for m in table), owed)
    if key in seen:
        return False
    seen.add(key)
    seat = state.to_move
    acts: list[LayOff | Swap] = list(layoffs(state, hand, table))
    if can_swap_now(state, seat):
        acts += swaps(state, hand, table)
    # the moves that place ``t`` first, then the others that may open a way for it
    for a in sorted(acts, key=lambda a: a.card != t):
        if a.card != t and a.kind == "lay_off":
            m = table[a.meld]
            if m.kind != "run" or m.key != suit_of(t) or t == JOKER:
                continue
        h2 = list(hand)
        tb2 = [m.copy() for m in table]
        apply_place(state, h2, tb2, a)
        owed2 = _owed_after(owed, a)
        if not turn_can_end(state, h2, tb2, owed2, seat):
            continue  # a step the mask does not offer (a dead end)
        if a.card == t or place_search(state, h2, t, tb2, owed2, seen):
            return True
    return False


def turn_can_end(
    state: ContractState, hand: list[int], table: list[TableMeld], owed: int, seat: int
) -> bool:
    """After a lay-off or swap, with ``owed`` freed jokers to lay off: can the player still
    end the turn? The jokers need room on the table (CR-8, within SH-3's per-meld limit),
    and where a player may not go out by discarding (TP-3) a card left alone must be able
    to follow (:func:`can_end_turn`); otherwise a discard ends the turn."""
    strict = not state.rules.go_out_by_discard
    if owed == 0 and not (strict and sum(hand) == 1):
        return True
    if joker_room(state, table) < owed:
        return False
    return not strict or can_end_turn(state, hand, table, owed, seat, {})


def apply_place(state: ContractState, hand: list[int], table: list[TableMeld], a: LayOff | Swap,
                ) -> int:
    """Apply a lay-off or swap to a hand and table; returns the card placed."""
    rules = state.rules
    if a.kind == "lay_off":
        t, low = a.card, a.low
        m = table[a.meld]
        if t != JOKER and rules.is_wild(t):
            if m.kind == "set":
                stand = t if rank_of(t) == m.key else joker_layoff_stand(rules, m, 1)
                pos = 0
            else:
                stand = joker_layoff_stand(rules, m, 0 if low else 1)
                pos = m.lo - 1 if low else m.hi + 1
            assert stand is not None
        elif t == JOKER:
            stand = joker_layoff_stand(rules, m, 0 if low else 1)
            assert stand is not None
            pos = 0 if m.kind == "set" else (m.lo - 1 if low else m.hi + 1)
        else:
            p = layoff_natural_pos(rules, m, t)
            assert p is not None
            pos, stand = p, t
        apply_layoff(m, t, stand, pos)
        hand[t] -= 1
        return t
    t = a.card
    m = table[a.meld]
    for i, (c, s) in enumerate(zip(m.cards, m.stands)):
        if c == JOKER and s == t:
            m.cards[i] = t
            break
    hand[t] -= 1
    hand[JOKER] += 1
    return t


def legal_play(state: ContractState) -> list[Action]:
    """The legal moves of the play phase: contract melds, then lay-offs and swaps, then
    discards (each kept only where the turn can still end: no dead ends)."""
    seat = state.to_move
    hand = state.hands[seat]
    out: list[Action] = []
    if state.contract_left is not None or not state.melded[seat]:
        opts = contract_opts(state, hand, state.obligation)
        state._opts = opts
        out.extend(meld(sh) for sh in opts)
        if state.contract_left is not None:
            return out  # a contract once started must be finished this turn
    if emptying_turn(state, seat):
        out.extend(_emptying_layoffs(state, hand))
        return out
    if can_layoff_now(state, seat):
        out.extend(_placements(state, hand, seat))
    if (
        state.jokers_owed == 0
        and state.obligation < 0
        and (state.rules.go_out_by_discard or sum(hand) >= 2)
    ):
        out.extend(_discards(state, hand))
    return out


def _emptying_layoffs(state: ContractState, hand: list[int]) -> list[LayOff]:
    """SH-1: after the final deal's contract, only lay-offs that keep the whole hand layable
    this turn; no discard (and no swap: the contract was met this turn, CR-8)."""
    out: list[LayOff] = []
    memo: dict[tuple, bool] = {}
    for a in layoffs(state, hand, state.table):
        h2, tb2 = list(hand), [m.copy() for m in state.table]
        apply_place(state, h2, tb2, a)
        if can_empty(state, h2, tb2, memo):
            out.append(a)
    return out


def _placements(state: ContractState, hand: list[int], seat: int) -> list[LayOff | Swap]:
    """The lay-offs and swaps of a player who may lay off now, each kept only if it keeps an
    SP-4 obligation placeable and the turn able to end."""
    cands: list[LayOff | Swap] = list(layoffs(state, hand, state.table))
    if can_swap_now(state, seat):
        # A swap is legal only if the freed joker (and any still owed) can then be
        # laid off (CR-8, SH-3); the owed filter below checks that for every step.
        cands += swaps(state, hand, state.table)
    if state.obligation >= 0:
        cands = _keep_obligation(state, hand, cands)
    # No dead ends: after every step the player must still be able to end the turn
    # (:func:`turn_can_end`: freed jokers laid off, TP-3's last card).
    owed0 = state.jokers_owed
    strict = not state.rules.go_out_by_discard
    size = sum(hand)
    kept = []
    for a in cands:
        owed = _owed_after(owed0, a)
        left = size - (a.kind == "lay_off")
        if owed == 0 and not (strict and left == 1):
            kept.append(a)  # nothing owed, a discard can follow: no copy needed
            continue
        h2, tb2 = list(hand), [m.copy() for m in state.table]
        apply_place(state, h2, tb2, a)
        if turn_can_end(state, h2, tb2, owed, seat):
            kept.append(a)
    return kept


def _keep_obligation(state: ContractState, hand: list[int], cands: list[LayOff | Swap],
                     ) -> list[LayOff | Swap]:
    """SP-4: of ``cands``, the moves that place the dug card, or after which it can still
    reach the table this turn (:func:`can_place`)."""
    owed0 = state.jokers_owed
    kept = []
    for a in cands:
        if a.card == state.obligation:
            kept.append(a)
            continue
        h2, tb2 = list(hand), [m.copy() for m in state.table]
        apply_place(state, h2, tb2, a)
        owed = _owed_after(owed0, a)
        if can_place(state, h2, state.obligation, tb2, owed):
            kept.append(a)
    return kept


def _discards(state: ContractState, hand: list[int]) -> list[Action]:
    """The discards (never the card just taken, SP-4, unless nothing else is left) and the
    announcements of SH-6a."""
    present = [t for t in range(NUM_TYPES) if hand[t]]
    allowed = [t for t in present if t != state.forbidden] or present
    out: list[Action] = [DISCARD[t] for t in allowed]
    if state.rules.shanghai and sum(hand) >= 2:
        # SH-6a: a discard that fits a table meld may be announced.
        # (each type's lay-offs do not depend on the rest of the hand: one pass)
        fits = {a.card for a in layoffs(state, hand, state.table)}
        out.extend(ANNOUNCE[t] for t in allowed if t in fits)
    return out
