"""Run the Manipulation Rummy solver in each of its ways of answering (test helper).

The pure-Python sweep keeps the aces kept for the ace high in its keys on positions of fewer
than ``solver._HI_IN_VALUES`` cards and in its values from there on; the compiled core
(``rummy_env.manipulation._core``) keeps them in the keys (``CORE_POLICY`` 0) or in the values
while they fit (1, its default) (``rummy_env.manipulation.solver``). The brute-force tests use
small positions, the recorded ones mid-size ones, so each would test one layout only:
:func:`in_both_layouts` answers a question in every layout of both implementations (the
compiled ones only when the core answers: not under ``RUMMY_ENV_PURE_PYTHON=1``), checks that
the answers agree and returns the answer.
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
    for fn in (solver.step_options, solver.can_complete, solver.is_valid_table,
               solver.py_step_options, solver.py_can_complete, solver.py_is_valid_table):
        fn.cache_clear()


def in_both_layouts(question: Callable[[], T]) -> T:
    """``question()`` (which asks the public solver functions) answered by the Python solver
    with the aces kept in the keys and in the values, and by the compiled core in both of its
    layouts when it answers: the same everywhere."""
    saved = solver._HI_IN_VALUES, solver.CORE_POLICY
    compiled = solver.compiled_active()
    answers = []
    try:
        solver.use_compiled(False)
        for threshold in LAYOUTS.values():
            solver._HI_IN_VALUES = threshold
            clear_caches()
            answers.append(question())
        if compiled:
            solver.use_compiled(True)
            for policy in (0, 1):
                solver.CORE_POLICY = policy
                clear_caches()
                answers.append(question())
    finally:
        solver._HI_IN_VALUES, solver.CORE_POLICY = saved
        solver.use_compiled(True if compiled else None)
        clear_caches()
    assert all(a == answers[0] for a in answers), answers
    return answers[0]
