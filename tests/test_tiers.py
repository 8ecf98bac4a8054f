"""The test tiers lose nothing (issue 21, point 4; tests/conftest.py, CONTRIBUTING.md).

``python -m pytest`` is the quick tier: it leaves out the tests marked ``slow``. The README's
test command is what ``.ci/run`` runs, and it must run everything: the tests it collects are
exactly those of every test file under tests/, each named explicitly and collected with no
``addopts`` and the slow tests kept (so a file that does not match pytest's name pattern, an
``-m`` or ``--ignore`` slipped into the configuration, or a command without ``--run-slow`` is
caught). The opt-in deep fuzz tests are collected too (they skip unless ``-m fuzz``).
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _readme_test_command() -> str:
    """The command under ``# Tests (what CI runs)`` in the README's first code block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^# Tests \(what CI runs\)\n(.+)$", text, re.M)
    assert m, "README.md lost its '# Tests (what CI runs)' line and the command under it"
    return m.group(1).strip()


def _pytest_args(command: str) -> list[str]:
    """The arguments of the command's ``python -m pytest`` (the last step of the line)."""
    step = command.split("&&")[-1].strip()
    words = shlex.split(step)
    assert words[:3] == ["python", "-m", "pytest"], step
    args = words[3:]
    # pytest-xdist's worker count changes who runs a test, not which tests run.
    out, skip = [], False
    for w in args:
        if skip:
            skip = False
        elif w in ("-n", "--numprocesses", "--dist"):  # each takes the next word
            skip = True
        elif not re.match(r"(-n\d+|--numprocesses=.*|--dist=.*)$", w):
            out.append(w)
    return out


def test_ci_runs_the_readmes_test_command_with_the_slow_tests() -> None:
    command = _readme_test_command()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in [line.strip() for line in ci], ".ci/run must run the README's command"
    assert "--run-slow" in _pytest_args(command), "the README's (CI's) command runs everything"
    words = shlex.split(command.split("&&")[-1])
    if any(re.match(r"(-n|--numprocesses)", w) for w in words):
        # in parallel, the Ray tests must keep to one worker (tests/conftest.py)
        assert "loadgroup" in " ".join(words), "-n without --dist loadgroup"


def test_the_tests_that_start_ray_are_one_xdist_group() -> None:
    from tests.conftest import _ray_tests_share_one_worker

    class Item:
        def __init__(self, fixtures: list[str]) -> None:
            self.fixturenames = fixtures
            self.marks: list[pytest.MarkDecorator] = []

        def add_marker(self, mark: pytest.MarkDecorator) -> None:
            self.marks.append(mark)

    ray, other = Item(["tmp_path", "ray_sandbox"]), Item(["tmp_path"])
    _ray_tests_share_one_worker([ray, other])  # type: ignore[list-item]
    assert [(m.name, m.args) for m in ray.marks] == [("xdist_group", ("ray",))]
    assert other.marks == []


def _collect(args: list[str]) -> tuple[set[str], str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "RUMMY_SLOW", "RUMMY_FUZZ", "PYTEST_ADDOPTS")}
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ids = {line.strip() for line in proc.stdout.splitlines() if "::" in line}
    return ids, proc.stdout


def _every_test_file() -> list[str]:
    files = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        if re.search(r"^\s*(async\s+)?def test_|^class Test", p.read_text(encoding="utf-8"),
                     re.M):
            files.append(str(p.relative_to(ROOT)))
    return files


@pytest.mark.slow
def test_the_ci_command_collects_every_test() -> None:
    everything, _ = _collect(["-o", "addopts=", "--run-slow", *_every_test_file()])
    ci, out = _collect(_pytest_args(_readme_test_command()))
    assert "deselected" not in out, out[-500:]
    assert not everything - ci, f"tests CI would not run: {sorted(everything - ci)[:20]}"
    assert not ci - everything, sorted(ci - everything)[:20]
    # The quick tier leaves out the slow tests and only them.
    quick, _ = _collect([])
    slow, _ = _collect(["-m", "slow"])
    assert slow and quick == everything - slow
    assert len(everything) > 1500  # the suite had 1,734 tests when the tiers came in
