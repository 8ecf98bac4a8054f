"""The Manipulation Rummy action mask on positions from random play, against the plain
programme run once per candidate step (MR-3, MR-4, MR-5).

``step_options`` answers every candidate step from one forward-backward sweep, with the
joker-need pruning of the forward pass (``rummy_env.manipulation.solver``). The reference
here is independent of both: the plain layered programme (``solver._run``, no sweep, no
pruning), run once per candidate with that step's choice forced, and with the frees as
choices of the run for the free steps. Positions come from seeded random 4-player games
(tables of up to about 60 cards), so they hold what play produces: jokers bound on the
table, in hand and freed. Large positions with a joker to place are skipped (the reference
takes seconds each there). The solver answers in both of its value layouts (aces kept for the
ace high in the keys and in the values, ``tests/solver_layouts.py``).
"""

from __future__ import annotations

import os
import sys

from rummy_env.cards import JOKER, NUM_NATURAL
from rummy_env.manipulation import solver

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "benchmarks"))
from manipulation_masks import positions as meld_positions  # noqa: E402
from solver_layouts import in_both_layouts  # noqa: E402


def _reference(q: solver.Query) -> solver.StepOptions:
    """The mask by one plain run of the programme per candidate step."""

    def run(t: int, need: str) -> bool:
        return solver._run(q.table, q.hand, solver._ZERO, q.naturals, q.pending, q.added, t,
                           need)

    def completes(after: solver.Query) -> bool:  # frees allowed, as choices of the run
        return solver._run(after.table, after.hand, after.freeable, after.naturals,
                           after.pending, after.added, -1, "")

    wilds = q.pending + q.hand[JOKER]
    types = range(NUM_NATURAL)
    return solver.StepOptions(
        play=tuple(t for t in types if q.hand[t] and run(t, "a")),
        joker=tuple(t for t in types if wilds and run(t, "x")),
        free_hand=tuple(t for t in types if q.freeable[t] and q.hand[t]
                        and completes(solver.after_free(q, t, True))),
        free_table=tuple(t for t in types if q.freeable[t] and q.naturals[t]
                         and completes(solver.after_free(q, t, False))),
        finish=q.pending == 0 and q.added and solver._run(q.table, solver._ZERO, solver._ZERO,
                                                          solver._ZERO, 0, True, -1, ""),
    )


def test_step_options_match_plain_runs_on_random_play() -> None:
    positions = meld_positions(games=6, seed=31)
    checked = with_joker = with_free = 0
    for q in positions:
        size = sum(q.table)
        wilds = q.pending + q.hand[JOKER] + sum(q.freeable)
        if (q.pending + q.hand[JOKER] and size > 24) or (wilds and size > 45):
            continue  # the reference is too slow there
        got = in_both_layouts(lambda: solver.step_options.__wrapped__(q))
        assert got == _reference(q), q
        checked += 1
        with_joker += bool(q.pending + q.hand[JOKER])
        with_free += bool(sum(q.freeable))
    assert checked > 300 and with_joker > 20 and with_free > 150, (checked, with_joker,
                                                                   with_free)
