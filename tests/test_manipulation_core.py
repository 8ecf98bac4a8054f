"""The compiled core of the Manipulation Rummy solver against the pure-Python reference and
brute force, for every question the solver answers (MR-3, MR-4, MR-5).

* **Recorded masks**: 9,097 distinct meld positions from seeded random 4-player play
  (``tests/data/manipulation_masks.npz``, written by ``benchmarks/manipulation_masks.py
  record`` with the pure-Python solver's answers): the step options, ``can_complete`` and
  ``is_valid_table`` of every one, in both of the core's layouts (aces kept for the ace high
  in the keys and in the values), and ``arrange`` on the valid tables (the same arrangement
  as the Python programme's); the answering path (compiled, or Python under
  ``RUMMY_ENV_PURE_PYTHON=1``) against the recording; and the core against an independent
  reference, the plain programme run once per candidate step
  (``tests/test_manipulation_solver_recorded.py``), where that reference is fast enough.
* **Random small tables** (2,400): ``is_valid_table`` against a recursive partition search,
  ``arrange`` valid, exact and the Python programme's.
* **Random small positions** (2,000): the step options and ``can_complete`` against the
  Python solver, and on 250 of them against a brute-force search over every sequence of
  single steps (``tests/test_manipulation_solver.py``).
* **Seeded random play**: every meld position of whole deals, the core against the Python
  solver live, for every question.

The core's tests are skipped when it does not answer (``RUMMY_ENV_PURE_PYTHON=1``: CI's second
run, which checks the Python path against the recording).
"""

from __future__ import annotations

import os
import random
import sys

import numpy as np
import pytest

import rummy_env
from rummy_env.manipulation import solver

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "benchmarks"))
import manipulation_masks  # noqa: E402
import test_manipulation_solver as small  # noqa: E402
from test_manipulation_solver_recorded import _reference  # noqa: E402

COMPILED = solver.compiled_active()
needs_core = pytest.mark.skipif(not COMPILED, reason="the compiled core does not answer "
                                "(RUMMY_ENV_PURE_PYTHON=1 or numba missing)")


@pytest.fixture(scope="module")
def recorded() -> tuple[list[solver.Query], np.ndarray]:
    return manipulation_masks.load()


def _core():
    from rummy_env.manipulation import _core

    return _core


def _core_answers(q: solver.Query, policy: int) -> tuple[int, ...]:
    """The core's answers to ``q`` as the recording's columns."""
    core = _core()
    arrays = solver._arrays(q)
    play, joker, fh, ft, fin = core.step_options(*arrays, q.pending, q.added, policy)
    return (int(play), int(joker), int(fh), int(ft), int(fin),
            int(core.can_complete(*arrays, q.pending, q.added, policy)),
            int(core.valid_table(arrays[0], policy)))


def _public_answers(q: solver.Query) -> tuple[int, ...]:
    bits = manipulation_masks.mask_bits
    o = solver.step_options.__wrapped__(q)
    return (bits(o.play), bits(o.joker), bits(o.free_hand), bits(o.free_table), int(o.finish),
            int(solver.can_complete.__wrapped__(q)),
            int(solver.is_valid_table.__wrapped__(q.table)))


def test_recording_holds_what_play_produces(recorded) -> None:
    qs, answers = recorded
    assert len(qs) >= 9000
    with_joker = sum(manipulation_masks.joker_to_place(q) for q in qs)
    with_free = sum(bool(sum(q.freeable)) for q in qs)
    big = sum(sum(q.table) >= 60 for q in qs)
    assert with_joker > 300 and with_free > 3000 and big > 500, (with_joker, with_free, big)
    assert answers[:, 3].any() and answers[:, 1].any() and not answers[:, 6].all()


def test_answering_path_matches_the_recording(recorded) -> None:
    """Whichever path answers (the core, or the Python solver under RUMMY_ENV_PURE_PYTHON=1:
    every fourth mask there, to keep CI's second run short) gives the recorded answers, through
    ``step_options`` and through the state's ``step_options_counts``."""
    qs, answers = recorded
    step = 1 if COMPILED else 4
    bits = manipulation_masks.mask_bits
    for i in range(0, len(qs), step):
        q = qs[i]
        assert _public_answers(q) == tuple(answers[i]), (i, q)
        # The state's entry (the query as the bytes of its counts) answers the same.
        o = solver.step_options_counts.__wrapped__(
            bytes(q.table + q.naturals + q.freeable + q.hand), q.pending, q.added)
        assert (bits(o.play), bits(o.joker), bits(o.free_hand), bits(o.free_table),
                int(o.finish)) == tuple(answers[i][:5]), (i, q)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("policy", [0, 1])
def test_core_matches_the_recording_in_both_layouts(recorded, policy) -> None:
    qs, answers = recorded
    for i, q in enumerate(qs):
        assert _core_answers(q, policy) == tuple(answers[i]), (i, policy, q)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("policy", [0, 1])
def test_core_sweep_kept_between_masks_answers_the_same(recorded, policy) -> None:
    """``step_options_kept`` (the sweep starting from the last one's forward layers and memo,
    as the solver asks it) on the recorded masks in their order of play, so that most follow
    a card played from hand: the recorded answers, and the same as a sweep from scratch."""
    qs, answers = recorded
    core = _core()
    keep = core.keep_new()
    reused = 0
    for i, q in enumerate(qs):
        arrays = solver._arrays(q)
        got = core.step_options_kept(*arrays, q.pending, q.added, policy, keep)
        assert tuple(int(x) for x in got) == tuple(answers[i][:5]), (i, policy, q)
        if i and sum(q.table) + sum(q.hand) == sum(qs[i - 1].table) + sum(qs[i - 1].hand):
            reused += 1
    assert reused > 2000, reused
    # Positions met out of order (another env's masks between) answer the same too.
    rng = random.Random(policy)
    for i in rng.sample(range(len(qs)), 1500):
        q = qs[i]
        got = core.step_options_kept(*solver._arrays(q), q.pending, q.added, policy, keep)
        assert tuple(int(x) for x in got) == tuple(answers[i][:5]), (i, policy, q)


@needs_core
def test_core_arranges_recorded_tables_as_python_does(recorded) -> None:
    qs, answers = recorded
    core = _core()
    seen = set()
    for q, row in zip(qs, answers):
        if q.table in seen:
            continue
        seen.add(q.table)
        ok, choices = core.arrange_choices(np.array(q.table, np.int64))
        assert bool(ok) == bool(row[6])
        if ok:
            assert solver.melds_from_choices(choices.tolist()) == solver.py_arrange(q.table)
    assert len(seen) > 3000


@pytest.mark.slow
@needs_core
def test_core_matches_plain_runs_on_recorded_masks(recorded) -> None:
    """The independent reference: one plain run of the programme per candidate step (frees
    as choices of the run), on the recorded masks where it takes well under a second."""
    qs, _ = recorded
    checked = with_joker = 0
    for i, q in enumerate(qs):
        size = sum(q.table)
        wilds = q.pending + q.hand[52] + sum(q.freeable)
        if (q.pending + q.hand[52] and size > 20) or (wilds and size > 40) or size > 60:
            continue
        if i % 6:
            continue  # a sixth of them: the reference is slow
        core = _core()
        play, joker, fh, ft, fin = core.step_options(*solver._arrays(q), q.pending, q.added, 1)
        bits = solver._bits
        got = solver.StepOptions(bits(play), bits(joker), bits(fh), bits(ft), bool(fin))
        assert got == _reference(q), q
        checked += 1
        with_joker += manipulation_masks.joker_to_place(q)
    assert checked > 500 and with_joker > 20, (checked, with_joker)


@needs_core
@pytest.mark.parametrize("policy", [0, 1])
def test_core_valid_table_and_arrange_on_random_small_tables(policy) -> None:
    core = _core()
    rng = random.Random(2027 + policy)
    seen = {True: 0, False: 0}
    for i in range(2400):
        tab = small._random_table(rng, 1 + i % 3)
        want = small.bf_valid(tab)
        assert bool(core.valid_table(np.array(tab, np.int64), policy)) is want, tab
        seen[want] += 1
        ok, choices = core.arrange_choices(np.array(tab, np.int64))
        assert bool(ok) is want
        if want:
            melds = solver.melds_from_choices(choices.tolist())
            assert melds == solver.py_arrange(tab)
            assert all(solver.meld_is_valid(k, m) for k, m in melds)
            used = [0] * 52
            for _, m in melds:
                for t in m:
                    used[t] += 1
            assert tuple(used) == tab
    assert seen[True] > 500 and seen[False] > 500


@pytest.mark.slow
@needs_core
def test_core_step_options_and_can_complete_on_random_small_positions() -> None:
    """2,000 random small positions (a table of one or two melds, perhaps a joker bound in it,
    a few hand cards near it, perhaps a joker in hand or a freed one pending): in both of the
    core's layouts, its mask and ``can_complete`` are the Python solver's on all of them and
    the brute force's (every sequence of single steps searched) on every eighth (the brute
    force takes a tenth of a second each)."""
    core = _core()
    rng = random.Random(99)
    checked = brute = nonempty = with_joker = 0
    while checked < 2000:
        odds = (0.3, 0.2) if checked % 2 else (0.6, 0.5)
        state = small._random_position(rng, odds)
        if sum(state[4]) + sum(state[0]) + sum(state[1]) > 9:
            continue
        nat, jok, locked, pending, hand, added = state
        q = solver.Query(tuple(a + b for a, b in zip(nat, jok)), tuple(nat),
                         tuple(a - b for a, b in zip(jok, locked)), tuple(hand), pending, added)
        want = solver.py_step_options(q)
        want_cc = solver.py_can_complete(q)
        arrays = solver._arrays(q)
        for policy in (0, 1):
            play, joker, fh, ft, fin = core.step_options(*arrays, pending, added, policy)
            bits = solver._bits
            got = solver.StepOptions(bits(play), bits(joker), bits(fh), bits(ft), bool(fin))
            assert got == want, (state, policy)
            assert bool(core.can_complete(*arrays, pending, added, policy)) == want_cc
        if checked % 8 == 0:
            mask = {("play", t) for t in want.play} | {("joker", t) for t in want.joker}
            mask |= {("free_hand", t) for t in want.free_hand}
            mask |= {("free_table", t) for t in want.free_table}
            if want.finish:
                mask.add(("finish",))
            assert mask == small._bf_mask(state), state
            assert want_cc == small._reach(state, True), state
            brute += 1
        checked += 1
        nonempty += bool(want.play or want.joker or want.free_hand or want.free_table)
        with_joker += bool(pending or hand[52])
    assert brute == 250 and nonempty > 600 and with_joker > 600, (nonempty, with_joker)


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("players", [2, 4])
def test_core_matches_python_in_seeded_random_play(players) -> None:
    """Whole seeded deals played with the core's masks: at every meld position the core and
    the Python solver give the same step options, completions, validity and arrangement."""
    rng = np.random.default_rng(players)
    checked = 0
    for game in range(6 if players == 4 else 10):
        env = rummy_env.make("manipulation_rummy", num_players=players)
        env.reset(seed=500 + game)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            st = env.state_obj
            if st.phase == "meld":
                q = st.query()
                assert solver.step_options(q) == solver.py_step_options(q), q
                assert solver.can_complete(q) == solver.py_can_complete(q), q
                assert solver.is_valid_table(q.table) == solver.py_is_valid_table(q.table)
                assert solver.arrange(q.table) == solver.py_arrange(q.table)
                checked += 1
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    assert checked > 300


def test_pure_python_switch() -> None:
    """``RUMMY_ENV_PURE_PYTHON=1`` makes the Python solver answer; ``import rummy_env`` loads
    no numba (nothing is compiled before the first question)."""
    import subprocess

    code = ("import sys, rummy_env\n"
            "assert 'numba' not in sys.modules\n"
            "from rummy_env.manipulation import solver\n"
            "env = rummy_env.make('manipulation_rummy', num_players=2)\n"
            "env.reset(seed=1)\n"
            "print(int(solver.compiled_active()), int('numba' in sys.modules))\n")
    env = dict(os.environ, RUMMY_ENV_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["0", "0"]


@needs_core
def test_joker_alone_proves_frees_by_hand_soundly(recorded) -> None:
    """MR-4/MR-5: ``_core._joker_alone``, the cheap proof a mask takes for a free by a hand
    card before searching, says yes only where the turn after the free can end (the Python
    reference's ``py_can_complete``), and on the recorded masks it settles most of the frees
    the sweep left open while some still need the search (so both paths are exercised)."""
    qs, answers = recorded
    core = _core()
    proved = searched = 0
    for i, q in enumerate(qs):
        play = int(answers[i][0])
        open_frees = [t for t in range(52)
                      if q.freeable[t] and q.hand[t] and not play >> t & 1]
        if q.pending or not open_frees:
            continue
        table = np.array(q.table, np.int64)
        if core._joker_alone(table, 1):
            proved += 1
            for t in open_frees:
                assert solver.py_can_complete(solver.after_free(q, t, True)), (i, t)
        else:
            searched += 1
    assert proved > 100 and searched > 10, (proved, searched)
