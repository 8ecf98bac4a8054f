"""Tests of the Indian Rummy arrangement solver (RULES IR-3, IR-4, IR-6, IR-9).

Two parts: scripted hands with exact payments, each citing its rule; and agreement with an
independent brute force (below) on thousands of random and meld-built hands. The brute force
shares no code with the solver: it lists every sub-multiset of the hand that some explicit wild
assignment makes a valid meld, then searches every partition of the hand into such melds and
dead cards by recursion over the first remaining card, evaluating IR-9 literally.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from rummy_env.cards import parse_cards
from rummy_env.indian.solver import (
    Arrangement,
    best_arrangement,
    can_declare,
    card_value,
    declare_discards,
    discard_bits,
    is_wild,
)

JK = 52


# =========================================================================== brute force
def bf_wild(t, wr):
    return t == JK or (bool(wr) and t % 13 + 1 == wr)


def bf_value(t, wr):
    if bf_wild(t, wr):
        return 0
    r = t % 13 + 1
    return 10 if r == 1 or r >= 10 else r


def bf_positions(t):
    """Run positions of a natural (an ace is low 1 or high 14)."""
    r = t % 13 + 1
    return (1, 14) if r == 1 else (r,)


def bf_meld(meld, wr, four, tan):
    """(valid, is_run, is_pure, labels) of a multiset of card types, by explicit assignment of
    each card to the card it states."""
    n = len(meld)
    labels = set()
    if tan and n == 3 and meld[0] == meld[1] == meld[2] and meld[0] != JK:
        labels.add("tanala")
    fixed = [t for t in meld if not bf_wild(t, wr)]
    if n == 3 or (four and n == 4):
        for rank in range(1, 14):
            # wild cards state the suits the naturals lack (n <= 4 suits always suffice)
            same_rank = all(t % 13 + 1 == rank for t in fixed)
            if same_rank and len({t // 13 for t in fixed}) == len(fixed):
                labels.add("set")
                break
    suits = {t // 13 for t in fixed}
    if 3 <= n <= 14 and len(suits) <= 1:
        if fixed:  # spans holding the first natural
            los = sorted({lo for p in bf_positions(fixed[0])
                          for lo in range(max(1, p - n + 1), min(p, 15 - n) + 1)})
        else:
            los = range(1, 16 - n)
        for suit in (suits or range(4)):
            for lo in los:
                span = range(lo, lo + n)
                # impure (or pure) run: every non-wild card at its own place, wild cards at
                # the places left over
                choices = [[p for p in bf_positions(t) if p in span] for t in fixed]
                if any(not c for c in choices):
                    continue
                if any(len(set(a)) == len(a) for a in itertools.product(*choices)):
                    labels.add("run")
                    # pure: every card (wild-rank naturals too) at its own place, no joker
                    if JK not in meld and all(t // 13 == suit for t in meld):
                        allc = [[p for p in bf_positions(t) if p in span] for t in meld]
                        if all(allc) and any(len(set(a)) == len(a)
                                             for a in itertools.product(*allc)):
                            labels.add("pure_run")
    is_pure = bool(labels & {"pure_run", "tanala"})
    is_run = bool(labels & {"pure_run", "run", "tanala"})
    return bool(labels), is_run, is_pure, labels


def bf_sub_multisets(items, wr):
    """Sub-multisets holding at most one copy of each non-wild natural (two of an ace: the
    full run) and any number of the wild cards; three identical cards come as their own group."""
    c = Counter(items)
    keys = sorted(c)
    if len(keys) == 1:
        yield tuple(items)
        return

    def most(k):
        if bf_wild(k, wr):
            return c[k]
        return min(c[k], 2 if k % 13 == 0 else 1)

    for combo in itertools.product(*[range(most(k) + 1) for k in keys]):
        yield tuple(itertools.chain.from_iterable([k] * m for k, m in zip(keys, combo)))


def bf_candidates(hand, wr, four, tan):
    """Every valid meld (sorted tuple) inside the hand -> (is_run, is_pure)."""
    wilds = [t for t in hand if bf_wild(t, wr)]
    groups = []
    for s in range(4):
        groups.append([t for t in hand if not bf_wild(t, wr) and t // 13 == s] + wilds)
    for r in range(1, 14):
        groups.append([t for t in hand if not bf_wild(t, wr) and t % 13 + 1 == r] + wilds)
    out = {}
    seen = set()
    for t, k in Counter(hand).items():
        if k >= 3:
            groups.append([t, t, t])
    for g in groups:
        for sub in bf_sub_multisets(g, wr):
            if len(sub) < 3 or sub in seen:
                continue
            seen.add(sub)
            ok, is_run, is_pure, _ = bf_meld(sub, wr, four, tan)
            if ok:
                out[sub] = (is_run, is_pure)
    return out


# A multiset of card types as one integer: 3 bits per type (a count 0..3 and a guard bit), so
# "meld inside rem" and "rem less meld" are single integer operations.
_GUARD = sum(4 << (3 * t) for t in range(53))


def _count_vec(hand):
    return sum(1 << (3 * t) for t in hand)


def _partition_search(cands, wr, allow_dead, memo):
    """Search over the partitions of a hand into candidate melds and (if ``allow_dead``) dead
    cards, by recursion over the first (lowest) remaining card. Returns go(rem) for a packed
    multiset ``rem``: {(has pure, runs capped at 2, has dead): least value of dead cards}."""
    # the meld of the first remaining card has it as its lowest card
    by_card = {}
    for m, (is_run, is_pure) in cands.items():
        by_card.setdefault(min(m), []).append((_count_vec(m), is_run, is_pure))

    def go(rem):
        r = memo.get(rem)
        if r is not None:
            return r
        if not rem:
            return {(False, 0, False): 0}
        c = ((rem & -rem).bit_length() - 1) // 3
        res = {}
        if allow_dead:
            cv = bf_value(c, wr)
            for (p, n, d), v in go(rem - (1 << (3 * c))).items():
                k = (p, n, True)
                if v + cv < res.get(k, 10 ** 9):
                    res[k] = v + cv
        g = rem | _GUARD
        for mv, is_run, is_pure in by_card.get(c, ()):
            if (g - mv) & _GUARD != _GUARD:
                continue  # not inside rem
            for (p, n, d), v in go(rem - mv).items():
                k = (p or is_pure, min(2, n + is_run), d)
                if v < res.get(k, 10 ** 9):
                    res[k] = v
        memo[rem] = res
        return res

    return go


def bf_solve(hand, wr, packs=2, four=False, tanala=True):
    """(points, first_life, second_life, can_declare) by brute force (IR-6, IR-9)."""
    tan = tanala and packs >= 3
    hand = tuple(sorted(hand))
    cands = bf_candidates(hand, wr, four, tan)
    go = _partition_search(cands, wr, True, {})
    total = sum(bf_value(t, wr) for t in hand)
    res = go(_count_vec(hand))
    second = [v for (p, n, d), v in res.items() if p and n >= 2]
    pc = min(second) if second else None
    pure_vals = [sum(bf_value(t, wr) for t in m) for m, (r, p) in cands.items() if p]
    pb = total - max(pure_vals) if pure_vals else None
    points = min(x for x in (total, pb, pc) if x is not None)
    second_life = pc is not None and pc == points
    first_life = second_life or (pb is not None and pb == points)
    can_declare = (True, 2, False) in res
    return points, first_life, second_life, can_declare


def bf_declare_discards(hand14, wr, packs=2, four=False, tanala=True):
    """IR-6 by brute force: the types t such that hand14 less t splits into valid melds with
    >= 2 runs, >= 1 pure (the melds of any 13 of the cards are melds of the 14)."""
    tan = tanala and packs >= 3
    cands = bf_candidates(tuple(sorted(hand14)), wr, four, tan)
    go = _partition_search(cands, wr, False, {})
    full = _count_vec(hand14)
    return [t for t in sorted(set(hand14)) if (True, 2, False) in go(full - (1 << (3 * t)))]


def bf_can_declare(hand, wr, packs=2, four=False, tanala=True):
    tan = tanala and packs >= 3
    cands = bf_candidates(tuple(sorted(hand)), wr, four, tan)
    return (True, 2, False) in _partition_search(cands, wr, False, {})(_count_vec(hand))


# =========================================================================== hand generators
def deck_counts(packs):
    c = Counter({t: packs for t in range(52)})
    c[JK] = packs
    return c


def random_hand(rng, packs, size=13):
    deck = list(deck_counts(packs).elements())
    return rng.sample(deck, size)


def meld_built_hand(rng, packs, wr, size=13, perturb=None):
    """A hand made of random melds (often a valid declaration), then perturbed."""
    avail = deck_counts(packs)
    hand = []
    max_wilds = rng.choice([1, 2, 2, 3, 3, 4])

    def take(t):
        if avail[t] > 0:
            avail[t] -= 1
            hand.append(t)
            return True
        return False

    def take_wild():
        if sum(1 for t in hand if bf_wild(t, wr)) >= max_wilds:
            return False
        opts = [JK] + ([s * 13 + wr - 1 for s in range(4)] if wr else [])
        rng.shuffle(opts)
        for t in opts:
            if take(t):
                return True
        return False

    kinds = ["pure", "pure", "run", "set", "set"]
    if packs >= 3:
        kinds.append("tanala")
    first = True
    while len(hand) < size:
        k = "pure" if first else rng.choice(kinds)
        first = False
        if k in ("pure", "run"):
            s = rng.randrange(4)
            ln = rng.choice([3, 3, 3, 4, 4, 5])
            lo = rng.randint(1, 15 - ln)
            for p in range(lo, lo + ln):
                t = s * 13 + (p - 1) % 13
                if k == "run" and rng.random() < 0.3:
                    take_wild()
                else:
                    take(t)
            if k == "run" and rng.random() < 0.3:
                take_wild()
        elif k == "set":
            r = rng.randint(1, 13)
            suits = rng.sample(range(4), rng.choice([2, 3, 3, 4]))
            for s in suits:
                take(s * 13 + r - 1)
            if len(suits) == 2 or rng.random() < 0.2:
                take_wild()
        else:
            t = rng.randrange(52)
            for _ in range(3):
                take(t)
    hand = hand[:size]
    n_perturb = rng.choice([0, 0, 1, 1, 2, 3]) if perturb is None else perturb
    for _ in range(n_perturb):
        i = rng.randrange(len(hand))
        avail[hand[i]] += 1
        pool = list(avail.elements())
        t = rng.choice(pool)
        avail[t] -= 1
        hand[i] = t
    return hand


def random_params(rng):
    packs = rng.choice([2, 3])
    wr = rng.choice([None, None] + list(range(1, 14)))
    four = rng.random() < 0.4
    tanala = rng.random() < 0.8
    return packs, wr, four, tanala


def check_arrangement(a: Arrangement, hand, wr, packs, four, tanala):
    """The arrangement is a real one: valid melds of the right kinds, cards conserved, points
    = counted cards, lives as claimed."""
    tan = tanala and packs >= 3
    assert len(a.melds) == len(a.kinds)
    assert Counter(hand) == Counter(itertools.chain(a.deadwood, *a.melds))
    assert a.points == sum(card_value(t, wr) for t in a.deadwood)
    for m, k in zip(a.melds, a.kinds):
        ok, is_run, is_pure, labels = bf_meld(tuple(sorted(m)), wr, four, tan)
        assert k in labels, (m, k, labels)
    runs = sum(1 for k in a.kinds if k != "set")
    pure = any(k in ("pure_run", "tanala") for k in a.kinds)
    assert a.first_life == pure
    assert a.second_life == (pure and runs >= 2)
    if not a.second_life:
        assert len(a.melds) <= 1
    if a.can_declare:
        assert a.deadwood == () and a.second_life


def H(text):
    return parse_cards(text)


def pts(text, wr, **kw):
    return best_arrangement(H(text), wr, **kw).points


# =========================================================================== basics
def test_ir2_ir9_is_wild_and_card_value():
    """IR-2: jokers and the wild rank are wild; IR-9: values wild 0, A K Q J 10 = 10, else face."""
    assert is_wild(JK, None) and is_wild(JK, 5)
    assert is_wild(H("5C")[0], 5) and is_wild(H("5S")[0], 5)
    assert not is_wild(H("5C")[0], None) and not is_wild(H("5C")[0], 0)
    assert not is_wild(H("6C")[0], 5)
    assert is_wild(H("AD")[0], 1)  # aces-wild option: the caller passes wild_rank=1
    vals = {c: card_value(H(c)[0], 5) for c in "AS KS QS JS 10S 9S 2S 5S".split()}
    assert vals == {"AS": 10, "KS": 10, "QS": 10, "JS": 10, "10S": 10, "9S": 9, "2S": 2, "5S": 0}
    assert card_value(JK, None) == 0 and card_value(H("5S")[0], None) == 5


def test_ir2_wild_rank_zero_means_none():
    """IR-2: a joker indicator leaves no wild rank; 0 (the engine's spelling) is None."""
    hand = H("10H JH QH KH 7S 8S 8D 4C 4D 4S 4S 2D 2D")
    assert best_arrangement(hand, 0) == best_arrangement(hand, None)


def test_c1_ir1_bad_input_raises():
    """C-1: types 0..52; IR-1: no more copies of a type than packs; IR-2: wild rank 1..13."""
    with pytest.raises(ValueError):
        best_arrangement([53], None)
    with pytest.raises(ValueError):
        best_arrangement(H("5C 5C 5C"), None, packs=2)
    with pytest.raises(ValueError):
        best_arrangement(H("5C"), 14)


# =========================================================================== IR-9 payment
def test_ir9_worked_example_first_life_pays_43():
    """IR-9 (5s wild): a first life only; the 4s set still counts."""
    a = best_arrangement(H("10H JH QH KH 7S 8S 8D 4C 4D 4S 4S 2D 2D"), 5)
    assert a.points == 43
    assert a.first_life and not a.second_life and not a.can_declare
    assert a.melds == (tuple(H("10H JH QH KH")),) and a.kinds == ("pure_run",)


def test_ir9_worked_example_with_wild_pays_8():
    """IR-9: a wild card (5C) in place of 8D makes 7S 8S 5C a second run: only 4S 2D 2D count."""
    a = best_arrangement(H("10H JH QH KH 7S 8S 5C 4C 4D 4S 4S 2D 2D"), 5)
    assert a.points == 8
    assert sorted(a.deadwood) == sorted(H("4S 2D 2D"))
    assert a.first_life and a.second_life and not a.can_declare
    assert sorted(a.kinds) == ["pure_run", "run", "set"]
    # a printed joker does the same
    assert pts("10H JH QH KH 7S 8S JK 4C 4D 4S 4S 2D 2D", 5) == 8


def test_ir9_no_pure_run_counts_every_card():
    """IR-9: without a pure run, impure runs and sets do not help: every card counts."""
    text = "4C JK 6C 9D 9S 9H KH KS KC 2D 3S 7H 8D"
    a = best_arrangement(H(text), None)
    assert a.points == 4 + 6 + 27 + 30 + 2 + 3 + 7 + 8
    assert not a.first_life and not a.second_life and a.melds == ()


def test_ir9_first_life_only_counts_the_rest():
    """IR-9: a pure run but no second run: that run is not counted, the sets still are."""
    a = best_arrangement(H("4C 5C 6C 9D 9S 9H KH KS KC 2D 3S 7H 8D"), None)
    assert a.points == 27 + 30 + 2 + 3 + 7 + 8
    assert a.first_life and not a.second_life


def test_ir9_second_life_counts_no_set_or_run():
    """IR-9: a second run (here the impure 8D 9D JK) frees the sets as well: of
    4C 5C 6C | 8D 9D JK | KH KS KC only 2D 3S 9S 9H count (the 9s set lost its 9D)."""
    a = best_arrangement(H("4C 5C 6C 9D 9S 9H KH KS KC 2D 3S JK 8D"), None)
    assert a.first_life and a.second_life
    assert a.points == 2 + 3 + 9 + 9
    assert sorted(a.deadwood) == sorted(H("2D 3S 9S 9H"))
    # with a first life only (7H instead of JK) the K set counts: 92 - 15
    assert pts("4C 5C 6C 9D 9S 9H KH KS KC 2D 3S 7H 8D", None) == 77


def test_ir9_the_best_pure_run_is_chosen():
    """IR-9: arranged to pay the least: QD KD AD and AD 2D 3D share the one AD; with one life
    the pure run worth most (30) is kept."""
    a = best_arrangement(H("QD KD AD 2D 3D 5C 7C 9S JS 4H 6H 8H 10C"), None)
    assert a.melds == (tuple(H("QD KD AD")),) and not a.second_life
    assert a.points == 2 + 3 + 5 + 7 + 9 + 10 + 4 + 6 + 8 + 10


def test_ir9_two_pure_runs_are_a_second_life():
    """IR-9: a second pure run is a second life (here with a second ace)."""
    a = best_arrangement(H("QS KS AS AS 2S 3S 7H 9C JD 4H 6C 8D 10H"), None)
    assert a.second_life and a.kinds == ("pure_run", "pure_run")
    assert a.points == 7 + 9 + 10 + 4 + 6 + 8 + 10


# =========================================================================== IR-3 melds
def test_ir3_set_suits_must_differ():
    """IR-3: 5H 5C 5D is a set, 7H 7C 7C is not."""
    base = "2C 3C 4C 8D 9D 10D "
    assert pts(base + "5H 5C 5D KS QH 2S 3H", None) == 10 + 10 + 2 + 3
    assert pts(base + "7H 7C 7C KS QH 2S 3H", None) == 21 + 10 + 10 + 2 + 3


def test_ir3_sets_of_four_option():
    """IR-3 option: 5H 5C 5D 5S is a set only with sets of four (else one 5 is left over)."""
    text = "7C 8C 9C JD QD KD 5H 5C 5D 5S 2S 3H 10S"
    assert pts(text, None) == 5 + 2 + 3 + 10
    assert pts(text, None, sets_of_four=True) == 2 + 3 + 10
    a = best_arrangement(H(text), None, sets_of_four=True)
    assert sorted(a.kinds) == ["pure_run", "pure_run", "set"]
    assert sorted(H("5H 5C 5D 5S")) in [sorted(m) for m in a.melds]


def test_ir3_ace_high_or_low_not_round_the_corner():
    """IR-3 / C-3: A 2 3 and Q K A are pure runs, K A 2 is not a run."""
    assert best_arrangement(H("AS 2S 3S 5D 7H 9C JD 4H 6C 8D 10H QC KH"), None).first_life
    assert best_arrangement(H("QS KS AS 5D 7H 9C JD 4H 6C 8D 10H 2C 3H"), None).first_life
    a = best_arrangement(H("KS AS 2S 5D 7H 9C JD 4H 6C 8D 10H QC 3H"), None)
    assert not a.first_life and a.points == 10 + 10 + 2 + 5 + 7 + 9 + 10 + 4 + 6 + 8 + 10 + 10 + 3


def test_ir3_only_full_run_holds_both_aces():
    """C-3: only the full 14-card run holds both aces, so QS KS AS 2S 3S with one ace is one
    pure run (QS KS AS, worth more than AS 2S 3S); a second AS makes two."""
    a = best_arrangement(H("QS KS AS 2S 3S 5D 7H 9C JD 4H 6C 8D 10H"), None)
    assert a.first_life and not a.second_life and a.points == 94 - 30
    b = best_arrangement(H("QS KS AS AS 2S 3S 7H 9C JD 4H 6C 8D 10H"), None)
    assert b.second_life and b.points == 7 + 9 + 10 + 4 + 6 + 8 + 10


def test_ir3_three_wild_cards_alone_are_an_impure_run():
    """IR-3 [decision]: three or more wild cards alone form an impure run (the solver shows
    wild cards left over from a second life or declaration that way)."""
    # can_declare is defined for any number of cards: 4C 5C 6C | JK JK JK declares, and only
    # because the three jokers are a run (4C JK JK + 5C 6C JK has no pure run)
    a = best_arrangement(H("4C 5C 6C JK JK JK"), None, packs=3)
    assert a.can_declare and a.kinds == ("pure_run", "run") and a.melds[1] == (JK, JK, JK)
    assert not best_arrangement(H("4C 5C 6C JK JK"), None).can_declare
    assert bf_solve(H("4C 5C 6C JK JK JK"), None, 3)[3]


def test_ir3_melds_never_share_a_card():
    """IR-3: 4C 5C 6C and 6C 6D 6H cannot both use the one 6C: with the second life from
    9S 10S JS, 6D 6H count."""
    a = best_arrangement(H("4C 5C 6C 6D 6H 9S 10S JS 2H 3S QD KH 8H"), None)
    assert a.second_life
    assert a.points == 6 + 6 + 2 + 3 + 10 + 10 + 8


# =========================================================================== IR-4 pure runs
def test_ir4_wild_rank_card_standing_for_itself_is_natural():
    """IR-4: 8H in 7H 8H 9H with 8s wild: the run is pure."""
    a = best_arrangement(H("7H 8H 9H 2C 4D 6S 10C QD AS 3H 5C JS KD"), 8)
    assert a.first_life and a.kinds == ("pure_run",)
    assert a.points == 2 + 4 + 6 + 10 + 10 + 10 + 3 + 5 + 10 + 10


def test_ir4_wild_card_as_substitute_is_impure():
    """IR-4: 7H JK 9H and 7H 8C 9H (8s wild) are impure runs: no first life."""
    for text in ("7H JK 9H 2C 4D 6S 10C QD AS 3H 5C JS KD",
                 "7H 8C 9H 2C 4D 6S 10C QD AS 3H 5C JS KD"):
        a = best_arrangement(H(text), 8)
        assert not a.first_life and a.points == 7 + 9 + 2 + 4 + 6 + 10 + 10 + 10 + 3 + 5 + 10 + 10


def test_ir4_wild_rank_card_both_natural_and_wild():
    """IR-4: with 5s wild, 5H is natural in the pure run 4H 5H 6H while 5D is a wild card
    (here the ace of QC KC 5D): a second life, 2C 7D 9S 10S 3S 8H JD count."""
    a = best_arrangement(H("4H 5H 6H 9S 10S 5D 2C 7D KC QC 3S 8H JD"), 5)
    assert a.second_life and a.points == 2 + 7 + 9 + 10 + 3 + 8 + 10
    assert tuple(H("4H 5H 6H")) in a.melds and tuple(H("QC KC 5D")) in a.melds


def test_ir4_tanala_is_a_pure_run_with_three_packs():
    """IR-4: with 3 packs, 10C 10C 10C is a tanala: a first life, and a run of a second life."""
    text = "10C 10C 10C 2D 4S 6H 8C QD AS 3H 5C JS KD"
    a = best_arrangement(H(text), None, packs=3)
    assert a.first_life and not a.second_life and a.kinds == ("tanala",)
    assert a.points == 2 + 4 + 6 + 8 + 10 + 10 + 3 + 5 + 10 + 10
    b = best_arrangement(H("10C 10C 10C 2D 3D 4D 8C QD AS 3H 5C JS KD"), None, packs=3)
    assert b.second_life and b.points == 8 + 10 + 10 + 3 + 5 + 10 + 10


def test_ir4_tanala_option_off():
    """IR-4 option: with tanala=False three identical cards are no meld at all."""
    text = "10C 10C 10C 2D 4S 6H 8C QD AS 3H 5C JS KD"
    a = best_arrangement(H(text), None, packs=3, tanala=False)
    assert not a.first_life and a.points == 30 + 2 + 4 + 6 + 8 + 10 + 10 + 3 + 5 + 10 + 10


def test_ir4_two_tanalas_are_two_runs():
    """IR-4: a tanala counts as a pure run everywhere, so two tanalas are a second life."""
    a = best_arrangement(H("10C 10C 10C 4D 4D 4D 7D 7S 7C 9S 9H 2H QS"), None, packs=3)
    assert a.second_life and a.points == 9 + 9 + 2 + 10


def test_ir4_three_printed_jokers_are_not_a_tanala():
    """IR-4 [decision]: JK JK JK is an impure run, not a tanala (no first life)."""
    a = best_arrangement(H("JK JK JK 2D 4S 6H 8C QD AS 3H 5C JS KD"), None, packs=3)
    assert not a.first_life
    # with a pure run the jokers fill QD KD JK and JS JK JK AS: 8C 3H 5C count
    b = best_arrangement(H("JK JK JK 2D 3D 4D 8C QD AS 3H 5C JS KD"), None, packs=3)
    assert b.second_life and b.points == 8 + 3 + 5


# =========================================================================== IR-6 declaring
def test_ir6_valid_declaration():
    """IR-6: 13 cards in melds, two runs, one pure."""
    a = best_arrangement(H("AH 2H 3H 4C 5C 6C 7C 7D 7S JK 9D 9S 9H"), None)
    assert a.can_declare and a.points == 0 and a.deadwood == ()
    assert len(a.melds) == 4 and sum(len(m) for m in a.melds) == 13


def test_ir6_declaration_needs_a_pure_run():
    """IR-6: two impure runs and sets, no pure run: not a declaration, and all cards count."""
    a = best_arrangement(H("AH JK 3H 4C 5C JK 7D 7S 7C 9D 9S 9H KD"), None)
    assert not a.can_declare and not a.first_life
    assert a.points == 10 + 3 + 4 + 5 + 21 + 27 + 10


def test_ir6_declaration_needs_two_runs():
    """IR-6: one pure run and three sets is not a declaration, though every card is melded;
    IR-9: with a first life only the sets count."""
    a = best_arrangement(H("AH 2H 3H 4H 5C 5D 5S 7D 7S 7C 9D 9S 9H"), None)
    assert not a.can_declare and a.first_life and not a.second_life
    assert a.points == 15 + 21 + 27


def test_ir6_leftover_wild_must_fit_a_meld():
    """IR-6: two tanalas and two sets of three leave a joker with no meld to join."""
    text = "10C 10C 10C 4D 4D 4D 7D 7S 7C 9S 9H JK JK"
    a = best_arrangement(H(text), None, packs=3)
    assert a.points == 0 and not a.can_declare and a.deadwood == (JK,)
    b = best_arrangement(H(text), None, packs=3, sets_of_four=True)
    assert b.can_declare


def test_ir6_wild_absorbed_by_a_run():
    """IR-6: a wild card with no other use joins a run (AH 2H 3H stays the pure one)."""
    a = best_arrangement(H("AH 2H 3H 4C 5C 6C 7C 7D 7S 8D 8S 8H JK"), None)
    assert a.can_declare


def test_ir6_declare_discards():
    """IR-6: which 14th card can go so that the other 13 declare."""
    assert declare_discards(H("AH 2H 3H 4C 5C 6C 7C 7D 7S JK 9D 9S 9H QS"), None) == H("QS")
    # AH 2H 3H | 4C 5C 6C 7C 8C | 7D 7S 7H | 9D 9S 9H: only an end of the club run can go
    assert declare_discards(H("AH 2H 3H 4C 5C 6C 7C 8C 7D 7S 7H 9D 9S 9H"), None) == H("4C 8C")
    # no pure run: nothing declares
    assert declare_discards(H("2C 5D 8H JS KC 3D 6H 9S QC AH 4S 7C 10D JK"), None) == []
    # tanala (3 packs) as the pure run: 10C 10C 10C | 4D 5D 6D JK | 7s | 9s and QS to go
    hand = H("10C 10C 10C 4D 5D 6D JK 7D 7S 7C 9S 9H 9D QS")
    assert declare_discards(hand, None, packs=3) == H("QS")
    assert declare_discards(hand, None, packs=3, tanala=False) == []
    assert bf_declare_discards(hand, None, 3) == H("QS")
    # two copies of 9H: either may go, one entry
    hand = H("AH 2H 3H 4C 5C 6C 7C 7D 7S 7H 9D 9S 9H 9H")
    assert declare_discards(hand, None) == H("9H")


# =========================================================================== brute force agreement
def _compare(hand, packs, wr, four, tanala):
    a = best_arrangement(hand, wr, packs, sets_of_four=four, tanala=tanala)
    check_arrangement(a, hand, wr, packs, four, tanala)
    got = (a.points, a.first_life, a.second_life, a.can_declare)
    want = bf_solve(hand, wr, packs, four, tanala)
    assert got == want, (sorted(hand), wr, packs, four, tanala, a)
    return a


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_ir3_ir4_ir6_ir9_random_hands_match_brute_force(seed):
    """IR-3, IR-4, IR-6, IR-9: 500 hands per seed (2,500 in all), half dealt at random, half
    built from random melds and perturbed; 2 and 3 packs, random wild rank (or none), both set
    options, tanalas on and off."""
    rng = random.Random(1000 + seed)
    seen = Counter()
    for i in range(500):
        packs, wr, four, tanala = random_params(rng)
        if i % 2:
            hand = random_hand(rng, packs)
        else:
            hand = meld_built_hand(rng, packs, wr)
        a = _compare(hand, packs, wr, four, tanala)
        seen["declare"] += a.can_declare
        seen["second"] += a.second_life
        seen["first only"] += a.first_life and not a.second_life
        seen["none"] += not a.first_life
        seen["tanala"] += "tanala" in a.kinds
        seen["set of four"] += any(len(m) == 4 and k == "set" for m, k in zip(a.melds, a.kinds))
        seen["3+ wild"] += sum(is_wild(t, wr) for t in hand) >= 3
    # the generators reach every branch
    assert seen["declare"] >= 40 and seen["second"] >= 150, seen
    assert seen["first only"] >= 25 and seen["none"] >= 50, seen
    assert seen["tanala"] >= 5 and seen["3+ wild"] >= 30, seen


@pytest.mark.parametrize("size", [4, 7, 10, 14])
def test_ir9_other_hand_sizes_match_brute_force(size):
    """The solver takes any number of cards (can_declare: all of them in melds)."""
    rng = random.Random(3000 + size)
    for i in range(60):
        packs, wr, four, tanala = random_params(rng)
        if i % 2:
            hand = random_hand(rng, packs, size)
        else:
            hand = meld_built_hand(rng, packs, wr, size=size)
        _compare(hand, packs, wr, four, tanala)


@pytest.mark.parametrize("seed", range(4))
def test_ir6_declare_discards_match_brute_force(seed):
    """IR-6: declare_discards on 14-card hands (100 per seed, 400 in all) built from random
    melds, perturbed, plus one random card, against the brute force."""
    rng = random.Random(2000 + seed)
    n_yes = n_multi = 0
    for i in range(100):
        packs, wr, four, tanala = random_params(rng)
        hand = meld_built_hand(rng, packs, wr, size=13, perturb=rng.choice([0, 0, 0, 1, 1, 2]))
        avail = deck_counts(packs)
        avail.subtract(hand)
        hand.append(rng.choice(list(avail.elements())))
        rng.shuffle(hand)
        got = declare_discards(hand, wr, packs, sets_of_four=four, tanala=tanala)
        want = bf_declare_discards(hand, wr, packs, four, tanala)
        assert got == want, (sorted(hand), wr, packs, four, tanala)
        n_yes += bool(got)
        n_multi += len(got) >= 2
    assert n_yes >= 30 and n_multi >= 10, (n_yes, n_multi)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_ir6_declare_discards_search_matches_can_declare_per_discard(seed):
    """IR-6: declare_discards answers every discard with one search over the 14 cards
    (``discard_bits``); on 1,500 hands per seed (6,000 in all: half built from melds and
    perturbed, half dealt at random; 2 and 3 packs, wild ranks, both set options, tanalas on
    and off) it equals can_declare asked about each 13 left by one discard."""
    rng = random.Random(4000 + seed)
    n_yes = n_multi = n_three = 0
    for i in range(1500):
        packs, wr, four, tanala = random_params(rng)
        if i % 2:
            hand = random_hand(rng, packs, 14)
        else:
            hand = meld_built_hand(rng, packs, wr, size=13,
                                   perturb=rng.choice([0, 0, 0, 1, 1, 2]))
            avail = deck_counts(packs)
            avail.subtract(hand)
            hand.append(rng.choice(list(avail.elements())))
        want = []
        for t in sorted(set(hand)):
            rest = list(hand)
            rest.remove(t)
            if can_declare(rest, wr, packs, sets_of_four=four, tanala=tanala):
                want.append(t)
        got = declare_discards(hand, wr, packs, sets_of_four=four, tanala=tanala)
        assert got == want, (sorted(hand), wr, packs, four, tanala)
        bits = discard_bits(hand, wr, packs, sets_of_four=four, tanala=tanala)
        assert bits == sum(1 << t for t in want)
        n_yes += bool(got)
        n_multi += len(got) >= 2
        n_three += bool(got) and packs == 3
    assert n_yes >= 300 and n_multi >= 150 and n_three >= 100, (n_yes, n_multi, n_three)
