"""The Indian Rummy declaration filters never reject a hand that declares (RULES IR-6).

``solver.wilds_suffice`` (the least number of wild cards over every partition of the naturals
into runs, sets and tanalas) proves "no" for the solver before its search and prunes the
search's set choices; ``state.could_declare`` is the engine's filter, ``wilds_suffice`` its
last test. Both are necessary conditions only, so the answers must not change: each is checked
against the solver's searches with the bound switched off, on thousands of random and
near-declarable 13- and 14-card hands (2 and 3 packs, wild ranks and none, both set options,
tanalas on and off), and the pruned searches must give the unpruned answers.
"""

from __future__ import annotations

import os
import random
import sys

import pytest

from rummy_env.cards import parse_cards
from rummy_env.indian import solver
from rummy_env.indian.solver import can_declare, discard_bits, wilds_suffice
from rummy_env.indian.state import could_declare

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_indian_solver import (  # noqa: E402
    deck_counts, meld_built_hand, random_hand, random_params,
)


def counts(hand):
    cnt = bytearray(53)
    for t in hand:
        cnt[t] += 1
    return cnt


def unbounded(cnt, wr, tan, four, drop):
    """The solver's answer with the wild-card bound off (no root check, no pruning): the
    discard bits of a 14-card hand (``drop``), or whether a 13-card hand declares."""
    cnt = list(cnt)
    with pytest.MonkeyPatch.context() as mp:
        # the searches look the bound up in their own modules (rummy_env/indian/solver/)
        mp.setattr(solver.declare, "_fill_need", lambda *args: 0)
        mp.setattr(solver.discards, "_fill_need", lambda *args: 0)
        if drop:
            return solver._search_discards(cnt, wr, tan, four) if solver._has_pure(cnt, tan) else 0
        return solver._search_declare(cnt, wr, tan, four) is not None


def test_ir6_worked_example_cards_competing_for_partners():
    """IR-6, wild rank 7 (7H the only wild card): priced card by card the hand needs one wild
    card (3C sits in the set of 3s, 8S in a set of two 8s, AD and KD share one as Q K A), but
    3C's set takes 3H and 3S from the runs 2H 3H 4H and 3S 4S 5S, 8S's takes 8H from 8H 9H
    10H: whatever card goes, the naturals left need three wild cards at least."""
    hand = parse_cards("3C AD KD 2H 3H 4H 7H 8H 9H 10H 3S 4S 5S 8S")
    cnt = counts(hand)
    assert not wilds_suffice(cnt, 7, False, False, True)
    assert not could_declare(cnt, 7, True, 1)
    assert discard_bits(hand, 7) == 0
    assert unbounded(cnt, 7, False, False, True) == 0
    # a second wild card is still not enough; with two more the 3s and 8s find their sets
    assert not wilds_suffice(counts(hand + parse_cards("JK")), 7, False, False, True)
    more = hand + parse_cards("JK JK")
    assert wilds_suffice(counts(more), 7, False, False, True)
    assert discard_bits(more, 7) == unbounded(counts(more), 7, False, False, True) != 0


def test_ir6_worked_example_hand_rummy_needs_two_wild_cards():
    """IR-6 (and IR-10's hand rummy, 13 cards): no wild rank, one printed joker. AS has one
    partner, 2S, which the set 2D 2H 2S needs too: the set and AS 2S JK cannot both be made,
    so two wild cards are needed and the dealt hand cannot declare."""
    hand = parse_cards("9C 10C JC QC KC 2D 2H 3H 4H 5H AS 2S JK")
    cnt = counts(hand)
    assert not wilds_suffice(cnt, 0, False, False, False)
    assert not could_declare(cnt, 0, True, 0)
    assert not can_declare(hand, None)
    assert not unbounded(cnt, 0, False, False, False)
    # a 3S for the joker: AS 2S 3S, 2D 2H and the joker, 3H 4H 5H and the clubs
    fixed = parse_cards("9C 10C JC QC KC 2D 2H 3H 4H 5H AS 2S 3S JK")
    assert discard_bits(fixed, None) == unbounded(counts(fixed), 0, False, False, True) != 0


def _hand(rng, packs, wr, size):
    """A random or near-declarable hand: half dealt at random, half built from melds and
    perturbed (plus one more card for 14)."""
    if rng.random() < 0.5:
        return random_hand(rng, packs, size)
    hand = meld_built_hand(rng, packs, wr, size=13, perturb=rng.choice([0, 0, 0, 1, 1, 2]))
    if size == 14:
        avail = deck_counts(packs)
        avail.subtract(hand)
        hand.append(rng.choice(list(avail.elements())))
    return hand


@pytest.mark.parametrize("seed", range(4))
def test_ir6_filters_never_reject_a_declaration(seed):
    """IR-6: on 1,000 hands per seed (4,000 in all), 14 cards (one to discard) or 13 (a hand
    rummy), wherever the unbounded solver finds a declaration, ``wilds_suffice`` and
    ``could_declare`` let the hand through; and the solver's answers with the bound
    (``discard_bits``, ``can_declare``) are the unbounded ones."""
    rng = random.Random(5000 + seed)
    n_yes = n_no = n_rejected = 0
    for i in range(1000):
        packs, wr, four, tanala = random_params(rng)
        wr = wr or 0
        tan = tanala and packs >= 3
        size = 14 if i % 3 else 13
        drop = size == 14
        hand = _hand(rng, packs, wr, size)
        cnt = counts(hand)
        want = unbounded(cnt, wr, tan, four, drop)
        if drop:
            assert discard_bits(hand, wr, packs, sets_of_four=four, tanala=tanala) == want
        else:
            assert can_declare(hand, wr, packs, sets_of_four=four, tanala=tanala) == want
        ok = wilds_suffice(cnt, wr, tan, four, drop)
        if want:
            n_yes += 1
            assert ok, (sorted(hand), wr, packs, four, tanala)
            # the engine passes the tanala rule as it is, whatever the packs
            assert could_declare(cnt, wr, tanala, int(drop)), (sorted(hand), wr, packs, four)
            assert could_declare(cnt, wr, tan, int(drop)), (sorted(hand), wr, packs, four)
        else:
            n_no += 1
            n_rejected += not ok
    # both answers are common, and the bound settles most of the hands that do not declare
    assert n_yes >= 200 and n_no >= 400, (n_yes, n_no)
    assert n_rejected >= 0.9 * n_no, (n_rejected, n_no)


def test_ir6_filter_counts_a_wild_card_as_the_discard():
    """IR-6: a 14-card hand that declares when a printed joker goes (3 packs, no wild rank):
    AH 2H 3H, 5C 6C JK 8C 9C 10C, 7D 7S 7H and a joker left over to join a run. Its naturals
    need one of the three jokers, so the bound passes it, with a natural or a joker out."""
    hand = parse_cards("AH 2H 3H 5C 6C 8C 9C 10C 7D 7S 7H JK JK JK")
    cnt = counts(hand)
    assert wilds_suffice(cnt, 0, False, False, True)
    assert could_declare(cnt, 0, True, 1)
    bits = discard_bits(hand, None, 3)
    assert bits == unbounded(cnt, 0, False, False, True)
    assert bits >> 52 & 1
