"""Run the Manipulation Rummy solver in both of its value layouts (test helper).

The solver's sweep keeps the aces kept for the ace high in its keys on positions of fewer than
``solver._HI_IN_VALUES`` cards and in its values from there on
(``rummy_env.manipulation.solver``). The brute-force tests use small positions, the recorded
ones mid-size ones, so each would test one layout only: :func:`in_both_layouts` answers a
question in each, checks that the answers agree and returns the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rummy_env.manipulation import solver

T = TypeVar("T")

#: Thresholds that put every position in one layout: aces kept in the keys, in the values.
LAYOUTS = {"keys": 10**9, "values": 0}


def clear_caches() -> None:
    """Forget every memoised answer (they do not record the layout that gave them)."""
    solver.step_options.cache_clear()
    solver.can_complete.cache_clear()
    solver.is_valid_table.cache_clear()


def in_both_layouts(question: Callable[[], T]) -> T:
    """``question()`` answered with the aces kept in the keys and in the values: the same."""
    saved = solver._HI_IN_VALUES
    answers = []
    try:
        for threshold in LAYOUTS.values():
            solver._HI_IN_VALUES = threshold
            clear_caches()
            answers.append(question())
    finally:
        solver._HI_IN_VALUES = saved
        clear_caches()
    assert answers[0] == answers[1], answers
    return answers[0]
