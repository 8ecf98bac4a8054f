"""Every variant replays its golden playthrough (``tests/golden/<variant>.txt``) line for line:
the same tables, legal actions, observation and mask digests and rewards at every step of a
seeded deal. A difference is a change users see; if it is deliberate, regenerate with
``python tests/golden_playthrough.py VARIANT`` and review the diff (see that module)."""

from __future__ import annotations

import itertools
import pathlib
import sys

import pytest

import rummy_env

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from golden_playthrough import GOLDEN, lines  # noqa: E402


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_golden_playthrough_replays_line_for_line(variant):
    path = GOLDEN / f"{variant}.txt"
    assert path.is_file(), (f"no golden playthrough for {variant}: run "
                            f"python tests/golden_playthrough.py {variant}")
    want = path.read_text().splitlines()
    for n, (got, exp) in enumerate(itertools.zip_longest(lines(variant), want), start=1):
        assert got == exp, (f"{path.name} line {n} differs:\n  recorded: {exp}\n  now:      {got}\n"
                            f"(deliberate? regenerate with python tests/golden_playthrough.py "
                            f"{variant} and review the diff)")
