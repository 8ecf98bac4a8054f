"""The contract search's shortcuts (``rummy_env.contract.contract_search``).

The joker lower bound refutes hands before the search and prunes inside it, so it must never
exceed what a completion really needs; where the bound is exact, a combination whose melds each
surely get a natural skips the fill. ``contract_options`` with and without each shortcut must
give the same shapes on every preset's contracts (CR-3, CR-4, CR-5, SP-4, SH-2, PR-5), and the
bound must not exceed the jokers of any hand that has a completion. The independent brute-force reference
(``tests/test_masks_bruteforce.py``) checks the masks that the search builds.
"""

from __future__ import annotations

import random

import pytest

from rummy_env.cards import JOKER
from rummy_env.contract import contract_search
from rummy_env.contract.melds import ContractContext, contract_options, joker_lower_bound
from rummy_env.contract.rules import PRESETS


def _random_hand(rng: random.Random, size: int, jokers: int) -> list[int]:
    counts = [0] * 53
    for _ in range(size):
        t = rng.randrange(52)
        while counts[t] >= 2:  # two packs at most
            t = rng.randrange(52)
        counts[t] += 1
    counts[JOKER] = jokers
    return counts


def _hand_near_contract(rng: random.Random, reqs: list[tuple[str, int]], extra: int,
                        jokers: int) -> list[int]:
    """A hand built around the contract's melds (so completions exist often), with a few
    cards knocked out and random extras: the bound's close calls."""
    counts = [0] * 53
    for kind, m in reqs:
        if kind == "set":
            r = rng.randrange(13)
            for _ in range(m):
                counts[r + 13 * rng.randrange(4)] += 1
        else:
            s, lo = rng.randrange(4), rng.randrange(13 - m + 1)
            for p in range(lo, lo + m):
                counts[s * 13 + p] += 1
    for _ in range(rng.randrange(3)):  # knock out up to two cards
        held = [t for t in range(52) if counts[t]]
        counts[rng.choice(held)] -= 1
    for _ in range(extra):
        counts[rng.randrange(52)] += 1
    counts[JOKER] = jokers
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_shortcuts_never_change_the_contract_options(variant, monkeypatch):
    """The joker bound, the fill shortcuts and ``any_one`` never change what the search finds."""
    rules = PRESETS[variant]
    rng = random.Random(f"bound-{variant}")
    checked = found = 0
    for deal, contract in enumerate(rules.contracts, start=1):
        reqs = [("set", s) for s in contract.sets] + [("run", s) for s in contract.runs]
        ctx = ContractContext(rules=rules, contract=contract,
                              whole_hand=deal in rules.whole_hand_deals,
                              contiguity=deal in rules.contiguity_deals)
        for i in range(60):
            jokers = rng.choice([0, 0, 1, 2, 3])
            if i % 2:
                hand = _hand_near_contract(rng, reqs, rng.randrange(5), jokers)
            else:
                hand = _random_hand(rng, rules.hand_sizes[deal - 1] + rng.randrange(6), jokers)
            must_cover = rng.choice([-1, -1, rng.randrange(53)])
            with_bound = contract_options(hand, reqs, ctx, (), must_cover)
            without = contract_options(hand, reqs, ctx, (), must_cover, bound=False)
            assert with_bound.keys() == without.keys(), (variant, deal, hand, must_cover)
            with monkeypatch.context() as m:  # every combination goes through allocate()
                m.setattr(contract_search, "_own_naturals", lambda *args: False)
                filled = contract_options(hand, reqs, ctx, (), must_cover)
            assert filled.keys() == without.keys(), (variant, deal, hand, must_cover)
            # SP-4's yes/no question stops at the first completion: the same answer, and
            # one of the full search's completions
            one = contract_options(hand, reqs, ctx, (), must_cover, any_one=True)
            assert bool(one) == bool(without), (variant, deal, hand, must_cover)
            assert all(sh in without for sh in one)
            if without:
                found += 1
                assert joker_lower_bound(hand, reqs, rules.aces_low) <= hand[JOKER]
            checked += 1
    assert found >= checked // 10  # the positions include many completions, not only refusals


def test_bound_examples():
    # Two sets of 3: 7C 7D 7H and 9C 9D leave one card short: one joker.
    hand = [0] * 53
    for t in (6, 19, 32, 8, 21):
        hand[t] += 1
    assert joker_lower_bound(hand, [("set", 3), ("set", 3)]) == 1
    # A run of 4 from 4C 5C 7C lacks 6C: one. Two runs: the second takes the next best window
    # (3C-6C lacks two; the bound lets windows share naturals), so at least 1 + 2.
    hand = [0] * 53
    for t in (3, 4, 6):
        hand[t] += 1
    assert joker_lower_bound(hand, [("run", 4)]) == 1
    assert joker_lower_bound(hand, [("run", 4), ("run", 4)]) == 1 + 2
    # Aces: A 2 3 of hearts make the low end of a run of 4 with one joker, only if aces are low.
    hand = [0] * 53
    for t in (26, 27, 28):
        hand[t] += 1
    assert joker_lower_bound(hand, [("run", 4)], aces_low=True) == 1
    assert joker_lower_bound(hand, [("run", 4)], aces_low=False) == 2
