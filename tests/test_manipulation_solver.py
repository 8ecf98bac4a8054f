"""The Manipulation Rummy solver against independent brute force (MR-3, MR-4, MR-5).

* ``is_valid_table`` against a recursive partition search on 2,000+ random small tables
  (built from random melds, then perturbed, so both answers are common), and ``arrange``
  returning melds that an independent check accepts and that use the table exactly.
* ``step_options`` (the action mask of a meld in progress) against a brute-force search over
  every sequence of single steps, on 150 random small positions with jokers bound, in hand and
  freed, under the documented step protocol (playing a card or a joker is offered when the
  turn can end without freeing another joker; a free when the turn can end after it).

The solver answers each in both of its value layouts (aces kept for the ace high in the keys
and in the values, ``tests/solver_layouts.py``).
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import sys

import pytest

from rummy_env.manipulation import solver

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from solver_layouts import in_both_layouts  # noqa: E402

JOKER = 52


def _melds_with(t: int, counts: tuple[int, ...]) -> list[list[int]]:
    """Every meld (MR-3) that holds the card ``t`` and fits in ``counts``."""
    s, r0 = divmod(t, 13)
    out = []
    others = [q for q in range(4) if q != s and counts[q * 13 + r0] > 0]
    for k in (2, 3):
        for comb in itertools.combinations(others, k):
            out.append([t] + [q * 13 + r0 for q in comb])
    for pos in ((r0 + 1,) if r0 else (1, 14)):
        for lo in range(1, pos + 1):
            for hi in range(max(pos, lo + 2), 15):
                types = [s * 13 + (p - 1) % 13 for p in range(lo, hi + 1)]
                if all(counts[x] >= types.count(x) for x in set(types)):
                    out.append(types)
    return out


@functools.lru_cache(maxsize=None)
def bf_valid(counts: tuple[int, ...]) -> bool:
    """Brute force: the first card present must be in some meld; try each, recurse."""
    if not any(counts):
        return True
    t = next(i for i, c in enumerate(counts) if c)
    for m in _melds_with(t, counts):
        c = list(counts)
        for x in m:
            c[x] -= 1
        if min(c) >= 0 and bf_valid(tuple(c)):
            return True
    return False


def _random_meld(rng: random.Random) -> list[int]:
    if rng.random() < 0.45:
        r = rng.randrange(13)
        return [s * 13 + r for s in rng.sample(range(4), rng.choice((3, 4)))]
    s = rng.randrange(4)
    lo = rng.randint(1, 12)
    hi = min(14, lo + rng.randint(2, 5))
    return [s * 13 + (p - 1) % 13 for p in range(lo, hi + 1)]


def _random_table(rng: random.Random, melds: int) -> tuple[int, ...]:
    c = [0] * 52
    for _ in range(melds):
        for t in _random_meld(rng):
            c[t] += 1
    # Perturb: drop, add or move a card, often making it invalid.
    for _ in range(rng.choice((0, 0, 1, 2))):
        t = rng.randrange(52)
        if rng.random() < 0.5 and c[t]:
            c[t] -= 1
        else:
            c[t] += 1
    return tuple(min(x, 4) for x in c)


def test_valid_table_agrees_with_brute_force_on_random_tables() -> None:
    rng = random.Random(2026)
    seen = {True: 0, False: 0}
    for i in range(2400):
        tab = _random_table(rng, 1 + i % 3)
        want = bf_valid(tab)
        assert in_both_layouts(lambda: solver.is_valid_table(tab)) is want, tab
        seen[want] += 1
        if want and i % 4 == 0:
            arr = solver.arrange(tab)
            assert arr is not None and all(solver.meld_is_valid(k, m) for k, m in arr)
            used = [0] * 52
            for _, m in arr:
                for t in m:
                    used[t] += 1
            assert tuple(used) == tab
    assert seen[True] > 500 and seen[False] > 500


def test_invalid_examples_are_rejected_by_meld_check() -> None:
    assert not solver.meld_is_valid("group", [4, 4 + 13, 4])  # two 5C
    assert not solver.meld_is_valid("sequence", [12, 0, 1])  # K A 2 round the corner
    assert solver.meld_is_valid("sequence", [11, 12, 0])  # Q K A


# ----------------------------------------------------------------------------- masks




def _key(nat, jok, locked, pending, hand, added):
    return (tuple(nat), tuple(jok), tuple(locked), pending, tuple(hand), added)


def _moves(state, frees: bool):
    nat, jok, locked, pending, hand, added = state
    for t in range(52):
        if hand[t]:
            h = list(hand)
            h[t] -= 1
            n = list(nat)
            n[t] += 1
            yield ("play", t), _key(n, jok, locked, pending, h, True)
    if pending or hand[JOKER]:
        for t in range(52):
            j = list(jok)
            j[t] += 1
            lk = list(locked)
            lk[t] += 1
            h = list(hand)
            if pending:
                yield ("joker", t), _key(nat, j, lk, pending - 1, h, added)
            else:
                h[JOKER] -= 1
                yield ("joker", t), _key(nat, j, lk, pending, h, True)
    if frees:
        for t in range(52):
            if jok[t] - locked[t] > 0:
                j = list(jok)
                j[t] -= 1
                if hand[t]:
                    h = list(hand)
                    h[t] -= 1
                    n = list(nat)
                    n[t] += 1
                    yield ("free_hand", t), _key(n, j, locked, pending + 1, h, True)
                if nat[t]:
                    yield ("free_table", t), _key(nat, j, locked, pending + 1, hand, added)


def _done(state) -> bool:
    nat, jok, _, pending, _, added = state
    return pending == 0 and added and bf_valid(tuple(a + b for a, b in zip(nat, jok)))


@functools.lru_cache(maxsize=None)
def _reach(state, frees: bool) -> bool:
    if _done(state):
        return True
    return any(_reach(nxt, frees) for _, nxt in _moves(state, frees))


def _bf_mask(state) -> set:
    out = set()
    for move, nxt in _moves(state, True):
        if _reach(nxt, move[0].startswith("free")):
            out.add(move)
    if _done(state):
        out.add(("finish",))
    return out


def _solver_mask(state) -> set:
    nat, jok, locked, pending, hand, added = state
    q = solver.Query(tuple(a + b for a, b in zip(nat, jok)), tuple(nat),
                     tuple(a - b for a, b in zip(jok, locked)), tuple(hand), pending, added)
    o = in_both_layouts(lambda: solver.step_options(q))
    out = {("play", t) for t in o.play} | {("joker", t) for t in o.joker}
    out |= {("free_hand", t) for t in o.free_hand} | {("free_table", t) for t in o.free_table}
    if o.finish:
        out.add(("finish",))
    return out


def _random_position(rng: random.Random, joker_odds: tuple[float, float] = (0.3, 0.2)):
    """A small valid table (one or two melds, maybe a joker in it), a few hand cards near it,
    maybe a joker in hand or a freed joker pending (with probabilities ``joker_odds``)."""
    nat = [0] * 52
    jok = [0] * 52
    jokers_left = 2
    for _ in range(rng.choice((0, 1, 1, 2))):
        m = _random_meld(rng)[:4]
        if jokers_left and rng.random() < 0.4:
            i = rng.randrange(len(m))
            jok[m[i]] += 1
            jokers_left -= 1
            m = m[:i] + m[i + 1:]
        for t in m:
            nat[t] += 1
    hand = [0] * 53
    anchor = [t for t in range(52) if nat[t] or jok[t]] or [rng.randrange(52)]
    for _ in range(rng.randint(1, 4)):
        a = rng.choice(anchor)
        s, r0 = divmod(a, 13)
        if rng.random() < 0.5:
            t = rng.randrange(4) * 13 + r0
        else:
            t = s * 13 + (r0 + rng.choice((-2, -1, 1, 2))) % 13
        hand[t] += 1
    pending = 0
    if jokers_left and rng.random() < joker_odds[0]:
        hand[JOKER] += 1
        jokers_left -= 1
    if jokers_left and rng.random() < joker_odds[1]:
        pending = 1
    locked = [0] * 52
    return _key(nat, jok, locked, pending, hand, pending > 0)


@pytest.mark.slow
def test_step_options_agree_with_brute_force_on_small_positions() -> None:
    rng = random.Random(7)
    checked = nonempty = 0
    while checked < 150:
        state = _random_position(rng)
        if sum(state[4]) + sum(state[0]) + sum(state[1]) > 10:
            continue
        want = _bf_mask(state)
        assert _solver_mask(state) == want, state
        # No dead ends: the position can end validly exactly when some step (or finish) is
        # offered, and then every offered step can too.
        q_ok = _reach(state, True)
        assert bool(want) == q_ok
        checked += 1
        nonempty += bool(want)
    assert nonempty > 40


@pytest.mark.slow
def test_step_options_agree_with_brute_force_with_jokers_in_play() -> None:
    """The forward-backward sweep answers every candidate step from one pass: check it on
    positions where jokers are mostly in hand or waiting (the joker steps are candidates at
    every type), with a bound joker often on the table too."""
    rng = random.Random(4242)
    checked = with_joker = nonempty = 0
    while checked < 50:
        state = _random_position(rng, (0.6, 0.5))
        if sum(state[4]) + sum(state[0]) + sum(state[1]) > 8:
            continue
        want = _bf_mask(state)
        assert _solver_mask(state) == want, state
        assert bool(want) == _reach(state, True)
        checked += 1
        with_joker += bool(state[3] or state[4][JOKER])
        nonempty += bool(want)
    assert with_joker > 25 and nonempty > 12


@pytest.mark.parametrize("hand,table,pending,expected", [
    # 7H frees JK=7H; nothing else fits.
    ({"7H": 1}, {"JK=7H": 1, "8H": 1, "9H": 1}, 0,
     {("free_hand", 32)}),
])
def test_step_options_scripted(hand, table, pending, expected) -> None:
    from rummy_env.cards import parse_card

    nat, jok, h = [0] * 52, [0] * 52, [0] * 53
    for c, k in table.items():
        if c.startswith("JK="):
            jok[parse_card(c[3:])] += k
        else:
            nat[parse_card(c)] += k
    for c, k in hand.items():
        h[parse_card(c)] += k
    state = _key(nat, jok, [0] * 52, pending, h, False)
    assert _solver_mask(state) == expected == _bf_mask(state)
