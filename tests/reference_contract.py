"""An independent, brute-force reference for the legal actions of the contract-family engine.

Used by ``test_masks_bruteforce.py`` to check the engine's masks. It deliberately shares no code
with the engine's search (``rummy_env/contract/melds.py``: ``contract_options``, ``allocate``,
``layoff_natural_pos``, ``joker_layoff_stand`` ...). It reads only the rules' fields, the
state's public attributes and the card helpers of ``rummy_env.cards``; everything else is
brute force over physical cards and a plain validity check of a meld given its cards and what
each joker stands for.

Rules encoded (RULES.md ids):

* C-3 / CR-4 / SP-3 meld validity: :func:`valid_set`, :func:`valid_run`.
* CR-3 / CR-5 / SP-3 / MI-2 / CR-9 / CR-13 / SP-4 contract completions: :func:`contract_shapes`.
* SH-1 with SH-4 (``whole_hand_layoffs``): a final-deal completion that leaves cards is legal
  if they can all be laid off on the same turn, and after it only such lay-offs are:
  :func:`can_empty`, :func:`contract_shapes`, :func:`reference_play`.
* CR-10 lay-offs, CR-8 joker swaps: :func:`single_layoffs`, :func:`single_swaps`.
* SP-4 "can this card reach the table this turn": :func:`can_place`.
* SH-2 distinct-rank books, SH-3 one joker per meld, SH-6 announcements and Shanghai calls,
  TP-3 no going out by discarding: :func:`contract_shapes`, :func:`can_end_turn`,
  :func:`reference_play`, :func:`reference_legal`.
* The whole legal set of the acting seat: :func:`reference_legal`.

Engine conventions the reference follows (documented in the variant docstrings and the
action-tuple brief): a joker laid off on a set stands for the first suit (C D H S) the set
lacks, or clubs when it holds all four; a natural card's lay-off action always has
``low=False`` (an ace that fits both ends of a 2..K run is one action); a joker lay-off on a run
names its end (``low=True`` for the low end); a swap is offered only when a joker lay-off is
possible afterwards; a freed joker (``jokers_owed``) or a dig obligation blocks the discard and
every lay-off must keep it placeable.
"""

from __future__ import annotations

from itertools import combinations, product

from rummy_env.cards import JOKER, card, rank_of, suit_of

# A reference meld: (kind, key, lo, cards, stands); runs list cards low to high from ``lo``;
# sets have lo = 0. ``stands`` gives the natural type each card stands for.


def pos_type(suit: int, pos: int) -> int:
    """Natural type at run position ``pos`` (1 = low ace, 2..13, 14 = high ace)."""
    return suit * 13 + (pos - 1) % 13


# ============================================================================ validity
def is_wild(rules, c: int) -> bool:
    """A joker, or a card of a wild rank (PR-5: every 2)."""
    return c == JOKER or (c < 52 and rank_of(c) in rules.wild_ranks)


def min_set_size(rules) -> int:
    """3, or 2 where some contract asks for a pair (PR-4)."""
    return min([3] + [k for c in rules.contracts for k in c.sets])


def _naturals_ok(rules, cards, stands) -> bool:
    """CR-4: a natural card (one standing for itself) in every meld, unless PR-5 lifts it."""
    return not rules.meld_needs_natural or any(c == s for c, s in zip(cards, stands))


def valid_set(rules, rank: int, cards, stands) -> bool:
    """C-2, CR-4, SP-3, C-4: a set of one rank, 3+ cards, at least one natural, at most
    ``set_max`` cards, distinct suits (the stated suit of a joker counting) where required."""
    n = len(cards)
    if n < min_set_size(rules) or len(stands) != n:
        return False
    for c, s in zip(cards, stands):
        if not 0 <= s < 52 or rank_of(s) != rank:
            return False
        if c != s and not is_wild(rules, c):
            return False
    if not _naturals_ok(rules, cards, stands):
        return False
    if rules.set_max is not None and n > rules.set_max:
        return False
    if rules.set_distinct_suits and len({suit_of(s) for s in stands}) != n:
        return False
    return _jokers_ok(rules, cards)


def _jokers_ok(rules, cards) -> bool:
    """SH-3: at most ``max_jokers_per_meld`` jokers in a meld."""
    lim = rules.max_jokers_per_meld
    return lim is None or sum(1 for c in cards if c == JOKER) <= lim


def valid_run(rules, suit: int, lo: int, cards, stands) -> bool:
    """C-2, C-3, CR-4, SP-3: consecutive positions of one suit inside 1..14 (1 only when aces
    are low), each card the natural of its position or a joker standing for it, at least one
    natural; the only run holding both aces is the full 14-card run."""
    n = len(cards)
    if n < 3 or len(stands) != n:
        return False
    hi = lo + n - 1
    lowest = 1 if rules.aces_low else 2
    if lo < lowest or hi > 14:
        return False
    if lo == 1 and hi == 14 and n != 14:  # (automatic for a span, kept for clarity)
        return False
    for i, (c, s) in enumerate(zip(cards, stands)):
        if s != pos_type(suit, lo + i):
            return False
        if c != s and not is_wild(rules, c):
            return False
    if not _naturals_ok(rules, cards, stands):
        return False
    return _jokers_ok(rules, cards)


def valid_meld(rules, m) -> bool:
    kind, key, lo, cards, stands = m
    if kind == "set":
        return valid_set(rules, key, cards, stands)
    return valid_run(rules, key, lo, cards, stands)


def table_of(state):
    """The state's table as reference melds (from public TableMeld attributes)."""
    out = []
    for m in state.table:
        lo = m.lo if m.kind == "run" else 0
        out.append((m.kind, m.key, lo, tuple(m.cards), tuple(m.stands)))
    return tuple(out)


# ============================================================================ contract
def _contiguous(a, b) -> bool:
    """CR-9: two runs (shapes) of one suit that would join into one longer run."""
    return a[1] == b[1] and (a[3] + 1 == b[2] or b[3] + 1 == a[2])


def _set_candidates(rules, hand, rank: int, minimum: int, exact: bool):
    """Every (shape, usage) of a set of ``rank`` from ``hand``: brute force over how many
    naturals of each suit and how many jokers it takes; jokers stand for missing suits."""
    out = []
    nat_types = [card(rank, s) for s in range(4)]
    per_suit_max = [hand[t] for t in nat_types]
    if rules.set_distinct_suits:
        per_suit_max = [min(1, k) for k in per_suit_max]
    for ks in product(*[range(k + 1) for k in per_suit_max]):
        nat = sum(ks)
        if nat == 0 and rules.meld_needs_natural:
            continue
        for j in range(hand[JOKER] + 1):
            size = nat + j
            if size < minimum or (exact and size != minimum):
                continue
            cards, stands = [], []
            for s, k in enumerate(ks):
                cards += [nat_types[s]] * k
                stands += [nat_types[s]] * k
            held = {s for s, k in enumerate(ks) if k}
            free = [s for s in range(4) if s not in held]
            for i in range(j):
                cards.append(JOKER)
                stands.append(card(rank, free[i] if i < len(free) else 0))
            if not valid_set(rules, rank, cards, stands):
                continue
            usage = {}
            for c in cards:
                usage[c] = usage.get(c, 0) + 1
            out.append((("set", rank, size), tuple(sorted(usage.items()))))
    return out


def _run_candidates(rules, hand, minimum: int, exact: bool, whole_left: int | None):
    """Every (shape, usage) of a run from ``hand``: each span of each suit, each choice of
    positions filled by jokers (the rest by their naturals)."""
    out = []
    jokers = hand[JOKER]
    lowest = 1 if rules.aces_low else 2
    for suit in range(4):
        for lo in range(lowest, 15):
            for hi in range(lo + minimum - 1, 15):
                n = hi - lo + 1
                if exact and n != minimum:
                    break
                if whole_left is not None and n != whole_left:
                    continue
                positions = list(range(lo, hi + 1))
                for jk in range(0, min(jokers, n) + 1):
                    for jpos in combinations(positions, jk):
                        js = set(jpos)
                        cards = [JOKER if p in js else pos_type(suit, p) for p in positions]
                        need = {}
                        for c in cards:
                            need[c] = need.get(c, 0) + 1
                        if any(hand[c] < k for c, k in need.items()):
                            continue
                        stands = [pos_type(suit, p) for p in positions]
                        if not valid_run(rules, suit, lo, cards, stands):
                            continue
                        out.append((("run", suit, lo, hi), tuple(sorted(need.items()))))
    return out


def _fits(hand, usage) -> bool:
    return all(hand[c] >= k for c, k in usage)


def contract_shapes(state, hand, must_cover: int = -1) -> set:
    """Shapes that occur in at least one full completion of the remaining contract from
    ``hand`` (53 counts). Brute force: choose, requirement by requirement, a candidate meld
    (a shape and the physical cards it uses) from the cards left, in a canonical order among
    equal requirements, and keep the shapes of every choice that completes the whole contract
    (CR-3 exact sizes or MI-2/SP-3 larger melds, CR-9 contiguity, SP-3 distinct run suits,
    CR-13 whole hand, SP-4 obligation covered)."""
    rules = state.rules
    deal = state.deal
    contract = rules.contracts[deal - 1]
    whole = deal in rules.whole_hand_deals
    contig = deal in rules.contiguity_deals
    exact = rules.exact_contract_sizes and not whole
    if state.contract_left is not None:
        reqs = [tuple(r) for r in state.contract_left]
        laid = [tuple(s) for s in state.contract_laid]
    else:
        reqs = [("set", s) for s in contract.sets] + [("run", s) for s in contract.runs]
        laid = []
    reqs.sort()
    if not reqs:
        return set()
    hand = list(hand)
    # Every candidate meld of each requirement from the full hand; a deeper level keeps those
    # that still fit the cards left (a meld from fewer cards is a meld from more).
    cands = {}
    for req in set(reqs):
        kind, minimum = req
        if kind == "set":
            lst = []
            for rank in range(1, 14):
                lst += _set_candidates(rules, hand, rank, minimum, exact)
        else:
            lst = _run_candidates(rules, hand, minimum, exact, None)
        cands[req] = sorted(set(lst))

    def ok_pair(a, b) -> bool:
        if rules.sets_distinct_ranks and a[0] == "set" == b[0] and a[1] == b[1]:
            return False  # SH-2
        if a[0] != "run" or b[0] != "run":
            return True
        if contig and _contiguous(a, b):
            return False
        if rules.contract_runs_distinct and a[1] == b[1]:
            return False
        return True

    memo = {}
    END = ("end",)

    def rec(i, chosen, prev_key, covered):
        """Shapes of levels >= i over every completion of this prefix (END if i == last+1)."""
        if i == len(reqs):
            if whole and sum(hand) != 0 and not (
                    emptying and can_empty(rules, tuple(hand), table_of(state)
                                           + _new_melds(chosen_keys), empty_memo)):
                return frozenset()  # CR-13; SH-1: unless the rest is laid off this turn
            if must_cover >= 0 and not covered:
                return frozenset()
            if strict and sum(hand) == 1 and not _leftover_layable(hand, chosen_keys):
                return frozenset()  # TP-3: one card left must then be laid off
            return frozenset([END])
        runs_key = tuple(sorted(s for s in chosen if s[0] == "run"))
        sets_key = tuple(sorted(s[1] for s in chosen if s[0] == "set"))
        mkey = (i, tuple(hand), runs_key, sets_key, prev_key if reqs[i - 1] == reqs[i] else None,
                covered, tuple(chosen_keys) if strict or emptying else None)
        if mkey in memo:
            return memo[mkey]
        acc = set()
        last = i == len(reqs) - 1
        for key in cands[reqs[i]]:
            shape, usage = key
            if i > 0 and reqs[i - 1] == reqs[i] and key < prev_key:
                continue
            if last and shape in acc:
                continue
            if not _fits(hand, usage):
                continue
            if any(not ok_pair(shape, o) for o in chosen):
                continue
            for c, k in usage:
                hand[c] -= k
            cov = covered or any(c == must_cover for c, _ in usage)
            chosen.append(shape)
            chosen_keys.append(key)
            sub = rec(i + 1, chosen, key, cov)
            chosen_keys.pop()
            chosen.pop()
            for c, k in usage:
                hand[c] += k
            if sub:
                acc.add(shape)
                acc |= sub
        res = frozenset(acc)
        memo[mkey] = res
        return res

    strict = not rules.go_out_by_discard
    # (not with wild ranks or digging: those keep CR-13's whole-hand runs, ContractRules)
    emptying = whole and rules.whole_hand_layoffs and not rules.wild_ranks and not rules.dig
    empty_memo = {}  # can_empty's positions, shared by every completion (the key is the table)
    chosen_keys = []

    def _leftover_layable(h, keys) -> bool:
        if not (rules.layoff_same_turn or whole):
            return False
        return bool(single_layoffs(rules, tuple(h), table_of(state) + _new_melds(keys)))

    def _new_melds(keys):
        """The chosen contract melds as reference table melds (runs: each natural of the
        usage at its own position, jokers at the others)."""
        new = []
        for (shape, usage) in keys:
            cards = [c for c, k in usage for _ in range(k)]
            if shape[0] == "set":
                nat = [c for c in cards if c != JOKER]
                stands = list(nat)
                for _ in range(len(cards) - len(nat)):
                    stands.append(_set_joker_stand(shape[1], stands))
                new.append(("set", shape[1], 0, tuple(nat) + (JOKER,) * (len(cards) - len(nat)),
                            tuple(stands)))
            else:
                _, suit, lo, hi = shape
                natural = {c for c in cards if c != JOKER}
                run_cards = tuple(pos_type(suit, p) if pos_type(suit, p) in natural else JOKER
                                  for p in range(lo, hi + 1))
                new.append(("run", suit, lo, run_cards,
                            tuple(pos_type(suit, p) for p in range(lo, hi + 1))))
        return tuple(new)

    res = rec(0, list(laid), None, False)
    return {s for s in res if s != END}


def contract_shapes_any_view(state, hand, must_cover: int = -1) -> set:
    """PR-5: wild-rank cards (2s) in hand may serve as wild cards (searched as jokers) or, each
    copy separately, as naturals: the union over every such split of the hand."""
    rules = state.rules
    wild = [t for t in range(52) if hand[t] and rank_of(t) in rules.wild_ranks]
    if not wild:
        return contract_shapes(state, hand, must_cover)
    out = set()
    for keep in product(*[range(hand[t] + 1) for t in wild]):
        v = list(hand)
        for t, k in zip(wild, keep):
            v[JOKER] += v[t] - k
            v[t] = k
        out |= contract_shapes(state, v, must_cover)
    return out


def contract_completable(state, hand, must_cover: int = -1) -> bool:
    return bool(contract_shapes(state, hand, must_cover))


# ============================================================================ lay-offs
def _set_joker_stand(key: int, stands) -> int:
    held = {suit_of(s) for s in stands}
    for s in range(4):
        if s not in held:
            return card(key, s)
    return card(key, 0)


def single_layoffs(rules, hand, table):
    """Every lay-off (CR-10) of one card from ``hand`` on ``table``, as a list of
    ``(action, [(new_hand, new_table), ...])`` (a natural ace fitting both ends of a 2..K run
    is one action with two outcomes)."""
    out = []
    present = [t for t in range(52) if hand[t] and not is_wild(rules, t)]
    wild2 = [t for t in range(52) if hand[t] and is_wild(rules, t)]
    for mi, m in enumerate(table):
        kind, key, lo, cards, stands = m
        results_for = {}
        for t in wild2:
            # PR-5: a wild 2 on a set (itself if the set is of 2s), or at a named run end.
            if kind == "set":
                st = t if rank_of(t) == key else _set_joker_stand(key, stands)
                nm = (kind, key, 0, cards + (t,), stands + (st,))
                if valid_meld(rules, nm):
                    results_for[("lay_off", t, mi, False)] = (t, [nm])
            else:
                hi = lo + len(cards) - 1
                nm = (kind, key, lo - 1, (t,) + cards, (pos_type(key, lo - 1),) + stands)
                if lo - 1 >= 1 and valid_meld(rules, nm):
                    results_for[("lay_off", t, mi, True)] = (t, [nm])
                nm = (kind, key, lo, cards + (t,), stands + (pos_type(key, hi + 1),))
                if hi + 1 <= 14 and valid_meld(rules, nm):
                    results_for[("lay_off", t, mi, False)] = (t, [nm])
        for t in present:
            res = []
            if kind == "set":
                nm = (kind, key, 0, cards + (t,), stands + (t,))
                if valid_meld(rules, nm):
                    res.append(nm)
            else:
                hi = lo + len(cards) - 1
                if lo - 1 >= 1:
                    nm = (kind, key, lo - 1, (t,) + cards, (t,) + stands)
                    if valid_meld(rules, nm):
                        res.append(nm)
                if hi + 1 <= 14:
                    nm = (kind, key, lo, cards + (t,), stands + (t,))
                    if valid_meld(rules, nm):
                        res.append(nm)
            if res:
                results_for[("lay_off", t, mi, False)] = (t, res)
        if hand[JOKER]:
            if kind == "set":
                s = _set_joker_stand(key, stands)
                nm = (kind, key, 0, cards + (JOKER,), stands + (s,))
                if valid_meld(rules, nm):
                    results_for[("lay_off", JOKER, mi, False)] = (JOKER, [nm])
            else:
                hi = lo + len(cards) - 1
                if lo - 1 >= 1:
                    nm = (kind, key, lo - 1, (JOKER,) + cards, (pos_type(key, lo - 1),) + stands)
                    if valid_meld(rules, nm):
                        results_for[("lay_off", JOKER, mi, True)] = (JOKER, [nm])
                if hi + 1 <= 14:
                    nm = (kind, key, lo, cards + (JOKER,), stands + (pos_type(key, hi + 1),))
                    if valid_meld(rules, nm):
                        results_for[("lay_off", JOKER, mi, False)] = (JOKER, [nm])
        for a, (t, res) in results_for.items():
            h2 = list(hand)
            h2[t] -= 1
            h2 = tuple(h2)
            outs = [(h2, table[:mi] + (nm,) + table[mi + 1:]) for nm in res]
            out.append((a, outs))
    return out


def single_swaps(rules, hand, table):
    """Every joker swap (CR-8): a natural in hand replaces a joker standing for it in a RUN
    (jokers in sets are dead). Returns ``(action, new_hand, new_table)``."""
    out = []
    for mi, m in enumerate(table):
        kind, key, lo, cards, stands = m
        if kind != "run":
            continue
        seen = set()
        for i, (c, s) in enumerate(zip(cards, stands)):
            if c == JOKER and hand[s] and s not in seen:
                seen.add(s)
                nc = cards[:i] + (s,) + cards[i + 1:]
                nm = (kind, key, lo, nc, stands)
                assert valid_meld(rules, nm)
                h2 = list(hand)
                h2[s] -= 1
                h2[JOKER] += 1
                out.append((("swap", s, mi), tuple(h2), table[:mi] + (nm,) + table[mi + 1:]))
    return out


def can_empty(rules, hand, table, memo=None) -> bool:
    """SH-1: can every card of ``hand`` be laid off on ``table``, one after another?
    Exhaustive search over lay-offs (no swaps: the contract was met this turn, CR-8)."""
    memo = {} if memo is None else memo
    if sum(hand) == 0:
        return True
    key = (tuple(hand), table)
    if key not in memo:
        memo[key] = False
        memo[key] = any(can_empty(rules, h2, tb2, memo)
                        for _, outs in single_layoffs(rules, tuple(hand), table)
                        for h2, tb2 in outs)
    return memo[key]


def joker_layoff_possible(rules, hand, table) -> bool:
    return any(a[1] == JOKER for a, _ in single_layoffs(rules, hand, table))


def can_lay_jokers(rules, table, k: int) -> bool:
    """CR-8 / SH-3: can ``k`` freed jokers be laid off one after another on ``table``?"""
    if k <= 0:
        return True
    hand = tuple([0] * 52 + [1])
    for a, outs in single_layoffs(rules, hand, table):
        for _, tb2 in outs:
            if can_lay_jokers(rules, tb2, k - 1):
                return True
    return False


def can_end_turn(rules, hand, table, owed: int, allow_swap: bool, memo=None) -> bool:
    """Can the player end the turn from here: with no joker owed, discard (two cards or more
    under TP-3, one or more otherwise), or go out by lay-offs and swaps? Exhaustive search."""
    memo = {} if memo is None else memo
    size = sum(hand)
    if size == 0:
        return True
    if owed == 0 and size >= (2 if not rules.go_out_by_discard else 1):
        return True
    key = (tuple(hand), table, owed)
    if key in memo:
        return memo[key]
    memo[key] = False
    moves = [(a, h2, tb2) for a, outs in single_layoffs(rules, hand, table) for h2, tb2 in outs]
    if allow_swap:
        moves += single_swaps(rules, hand, table)
    for a, h2, tb2 in moves:
        owed2 = owed + (a[0] == "swap") - (a[1] == JOKER and owed > 0)
        if can_end_turn(rules, h2, tb2, owed2, allow_swap, memo):
            memo[key] = True
            return True
    return False


def can_place(rules, hand, table, t: int, allow_swap: bool, max_steps: int | None = None,
              owed: int = 0) -> bool:
    """SP-4: can a card of type ``t`` (in ``hand``) reach the table this turn through a
    sequence of lay-offs and joker swaps, each a step the turn can still end after (every
    freed joker layable, CR-8/SH-3, and the turn able to end, TP-3), with ``owed`` freed
    jokers to lay off at the start?

    Exhaustive search with memo over positions, unbounded unless ``max_steps`` (total moves
    including the one placing ``t``). Preparatory moves are restricted, without loss, to those
    that can matter: lay-offs on runs of ``t``'s suit and joker swaps. (Any other lay-off only
    removes a card from hand and fills a set or a run of another suit: it never makes a later
    move possible nor lets ``t`` fit, so deleting it from a successful sequence keeps it
    successful.)"""
    hand = tuple(hand)
    seen = {}

    def moves(h, tb, ow):
        out = []
        for a, outs in single_layoffs(rules, h, tb):
            for (h2, tb2) in outs:
                out.append((a, h2, tb2))
        if allow_swap:
            out += single_swaps(rules, h, tb)
        res = []
        for a, h2, tb2 in out:
            ow2 = ow + (a[0] == "swap") - (a[1] == JOKER and ow > 0)
            if can_lay_jokers(rules, tb2, ow2) and can_end_turn(rules, h2, tb2, ow2, allow_swap):
                res.append((a, h2, tb2, ow2))
        return res

    def rec(h, tb, ow, steps_left):
        key = (h, tb, ow)
        if key in seen and seen[key] >= (steps_left if steps_left is not None else 1 << 30):
            return False
        seen[key] = steps_left if steps_left is not None else 1 << 30
        if steps_left is not None and steps_left <= 0:
            return False
        mv = moves(h, tb, ow)
        if any(a[1] == t for a, _, _, _ in mv):
            return True
        if steps_left is not None and steps_left <= 1:
            return False
        for a, h2, tb2, ow2 in mv:
            if a[0] == "lay_off":
                m = tb[a[2]]
                if t == JOKER or m[0] != "run" or m[1] != suit_of(t):
                    continue
            if rec(h2, tb2, ow2, None if steps_left is None else steps_left - 1):
                return True
        return False

    if not hand[t]:
        return False
    return rec(hand, tuple(table), owed, max_steps)


# ============================================================================ legal set
def may_lay_off(state, seat) -> bool:
    return state.melded[seat] and (
        state.rules.layoff_same_turn or state.melded_turn[seat] < state.turn_number)


def may_swap(state, seat) -> bool:
    return (state.rules.joker_swap and state.melded[seat]
            and state.melded_turn[seat] < state.turn_number)


def may_buy(state, seat) -> bool:
    """PR-6 / CR-7: within the deal's limit, not the card's discarder (C-8), not the buyer of
    the previous card of the window, and the penalty cards can be drawn (C-8)."""
    r = state.rules
    lim = r.claims_per_deal
    lim = lim[state.deal - 1] if isinstance(lim, tuple) else lim
    pen = r.claim_penalty
    pen = pen[state.deal - 1] if isinstance(pen, tuple) else pen
    return (seat != state.discarder[-1] and seat != state.last_claimer
            and (lim is None or state.claims_used[seat] < lim)
            and len(state.stock) + max(0, len(state.discard) - 2) >= pen)


def reference_draw(state, max_steps: int | None = None) -> set:
    rules = state.rules
    seat = state.to_move
    out = set()
    if len(state.stock) + max(0, len(state.discard) - 1) >= 1:
        out.add(("draw_stock",))
    if state.discard and not state.announced:  # SH-6a: an announced discard stays
        out.add(("take_discard",))
        if rules.buy_before_draw and may_buy(state, seat):
            out.add(("buy",))
    if rules.dig:
        for d in range(2, len(state.discard) + 1):
            taken = state.discard[-d:]
            deep = taken[0]
            hand = list(state.hands[seat])
            for t in taken:
                hand[t] += 1
            if not state.melded[seat]:
                ok = contract_completable(state, hand, must_cover=deep)
            elif may_lay_off(state, seat):
                ok = can_place(rules, hand, table_of(state), deep, may_swap(state, seat), max_steps)
            else:
                ok = False
            if ok:
                out.add(("dig", d))
    return out


def reference_play(state, max_steps: int | None = None) -> set:
    rules = state.rules
    seat = state.to_move
    hand = tuple(state.hands[seat])
    out = set()
    if state.contract_left is not None or not state.melded[seat]:
        for sh in contract_shapes_any_view(state, hand, state.obligation):
            out.add(("meld", sh))
        if state.contract_left is not None:
            return out  # a contract once started must be finished (only its melds are legal)
    table = table_of(state)
    if (rules.whole_hand_layoffs and not rules.wild_ranks and not rules.dig
            and state.deal in rules.whole_hand_deals
            and state.melded[seat] and state.melded_turn[seat] == state.turn_number):
        # SH-1: the final deal's contract met this turn: lay-offs that keep the whole hand
        # layable, nothing else (no discard)
        return {a for a, outs in single_layoffs(rules, hand, table)
                if any(can_empty(rules, h2, tb2) for h2, tb2 in outs)}
    if may_lay_off(state, seat):
        cands = {}
        for a, outs in single_layoffs(rules, hand, table):
            cands[a] = outs
        if may_swap(state, seat):
            for a, h2, tb2 in single_swaps(rules, hand, table):
                cands[a] = [(h2, tb2)]
        ob = state.obligation
        for a, outs in cands.items():
            if ob >= 0 and a[1] != ob:
                # SP-4: every step keeps the dug card placeable this turn
                owed = (state.jokers_owed + (a[0] == "swap")
                        - (a[1] == JOKER and state.jokers_owed > 0))
                if not any(can_place(rules, h2, tb2, ob, may_swap(state, seat), max_steps, owed)
                           for h2, tb2 in outs):
                    continue
            # CR-8: every step keeps all freed jokers layable (SH-3 limits where), and the
            # turn must stay able to end (TP-3: no discard of the last card).
            owed = state.jokers_owed + (a[0] == "swap") - (a[1] == JOKER and state.jokers_owed > 0)
            if not any(can_lay_jokers(rules, tb2, owed)
                       and can_end_turn(rules, h2, tb2, owed, may_swap(state, seat))
                       for h2, tb2 in outs):
                continue
            out.add(a)
    can_discard = sum(hand) >= (1 if rules.go_out_by_discard else 2)
    if state.jokers_owed == 0 and state.obligation < 0 and can_discard:
        present = [t for t in range(53) if hand[t]]
        allowed = [t for t in present if t != state.forbidden] or present
        out.update(("discard", t) for t in allowed)
        if rules.shanghai and sum(hand) >= 2:
            for t in allowed:  # SH-6a: a discard that fits a table meld may be announced
                one = [0] * 53
                one[t] = 1
                if single_layoffs(rules, tuple(one), table):
                    out.add(("announce", t))
    return out


def reference_legal(state, max_steps: int | None = None) -> set:
    """The reference's legal action set of the acting seat (a set of action tuples)."""
    if state.phase == "draw":
        return reference_draw(state, max_steps)
    if state.phase == "claim":
        return {("claim",), ("pass",)}
    if state.phase == "call":
        # SH-6b: pass, or lay the top discard off on any meld it fits (a joker names the end)
        one = [0] * 53
        one[state.discard[-1]] = 1
        return {("pass",)} | {("call", a[2], a[3])
                              for a, _ in single_layoffs(state.rules, tuple(one), table_of(state))}
    if state.phase == "play":
        return reference_play(state, max_steps)
    return set()
