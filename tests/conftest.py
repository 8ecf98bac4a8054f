"""Shared test setup: the two tiers, the working directory, Stable-Baselines3's log folder.

The tiers (CONTRIBUTING.md, "Run the tests"): tests marked ``slow`` (soaks, brute-force mask
checks, long random-play loops, training and RLlib smoke runs, compile-heavy solver checks) are
deselected by default, so that ``python -m pytest`` is the quick tier (a few minutes).
``--run-slow`` (or ``RUMMY_SLOW=1``, or any ``-m`` expression that names ``slow``) keeps them,
and a slow test named by its node id (``pytest tests/test_envs.py::test_random_play_soak``)
always runs. The README's test command, which ``.ci/run`` runs as written, passes
``--run-slow`` and runs everything; tests/test_tiers.py checks that it collects every test.
Under ``CI=true`` (CI's environment) every pytest run keeps them too, so that .ci/run's other
runs (the pure-Python solver tests, the lowest PettingZoo) lose nothing either. The deep
``fuzz`` tests are opt-in on top of that (``pytest -m fuzz tests/test_fuzz.py``).
"""

from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: What the quick tier's closing line says about the tests it left out.
RUN_SLOW_HINT = "python -m pytest --run-slow (what CI runs) or RUMMY_SLOW=1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the tests marked slow (the whole suite, as CI does); "
                          "RUMMY_SLOW=1 does the same")


def run_slow(config: pytest.Config) -> bool:
    """Whether this session keeps the ``slow`` tests."""
    return (config.getoption("--run-slow") or os.environ.get("RUMMY_SLOW") == "1"
            or os.environ.get("CI", "").lower() in ("true", "1")
            or os.environ.get("RUMMY_FUZZ") == "1"  # the deep fuzz lengthens slow tests too
            or "slow" in (config.getoption("markexpr") or ""))


def _named(config: pytest.Config) -> list[tuple[pathlib.Path, str]]:
    """The tests named on the command line by node id (``tests/x.py::test_y[z]``)."""
    named = []
    for arg in config.args:
        path, sep, rest = arg.partition("::")
        if sep:
            named.append((pathlib.Path(config.invocation_params.dir, path).resolve(), rest))
    return named


def _ray_tests_share_one_worker(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (the README's ``-n auto --dist loadgroup``), every test that starts
    Ray (it takes the ``ray_sandbox`` fixture) goes to one worker: Ray keeps the address of
    "the current cluster" in one file for the whole machine (``/tmp/ray/ray_current_cluster``),
    and two workers starting and shutting down clusters at once broke each other (seen:
    ``FileNotFoundError`` on that file in a two-node test). Without xdist the mark does nothing."""
    for item in items:
        if "ray_sandbox" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("ray"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _ray_tests_share_one_worker(items)
    if run_slow(config):
        return
    named = _named(config)

    def left_out(item: pytest.Item) -> bool:
        """Slow, and not named by its node id (a test asked for by name always runs)."""
        if item.get_closest_marker("slow") is None:
            return False
        name = item.nodeid.partition("::")[2]
        return not any(item.path == p and name.startswith(rest) for p, rest in named)

    slow = [item for item in items if left_out(item)]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not left_out(item)]
        config.stash[_SLOW_LEFT_OUT] = len(slow)


_SLOW_LEFT_OUT = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    n = config.stash.get(_SLOW_LEFT_OUT, 0)
    if n:
        terminalreporter.write_line(
            f"quick tier: {n} slow tests deselected; {RUN_SLOW_HINT} runs them too")


@pytest.fixture(autouse=True)
def _in_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts in the checkout's root, wherever pytest was started from (``cd /tmp &&
    python -m pytest /work/main/tests/...``): configs/, runs/ and subprocesses' ``-m training``
    resolve as they do from the root. A test that moves elsewhere (``monkeypatch.chdir``) is
    moved back after it."""
    monkeypatch.chdir(ROOT)


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_test_folder(tmp_path_factory: pytest.TempPathFactory):
    """Stable-Baselines3 makes an empty ``SB3-<time>`` folder in the system temp directory for
    every model that logs nowhere else; point it at pytest's own temporary folder (subprocesses
    inherit the variable), so a test run leaves nothing behind in /tmp."""
    old = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))
    yield
    if old is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = old


@pytest.fixture
def ray_sandbox(monkeypatch: pytest.MonkeyPatch):
    """Ray's files away from $HOME and the shared temp dir (short path: Ray's sockets live
    there and AF_UNIX paths are limited to ~107 bytes); yields the temp dir for
    ``ray.init(_temp_dir=...)`` and shuts Ray down afterwards."""
    import shutil
    import tempfile

    pytest.importorskip("ray.rllib")
    home = tempfile.mkdtemp(prefix="rayhome-")
    temp = tempfile.mkdtemp(prefix="ray-")
    monkeypatch.setenv("HOME", home)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    # Ray writes "the current cluster" to $RAY_TMPDIR/ray/ray_current_cluster (/tmp/ray/... by
    # default) whatever temp dir a node is given, and ray.cluster_utils.Cluster does not make
    # the folder: a two-node test that ran before any ray.init on a fresh machine failed on it.
    # Kept in the sandbox, it is this test's own and always exists.
    monkeypatch.setenv("RAY_TMPDIR", temp)
    os.makedirs(os.path.join(temp, "ray"), exist_ok=True)
    yield temp
    import ray

    if ray.is_initialized():
        ray.shutdown()
    shutil.rmtree(home, ignore_errors=True)
    shutil.rmtree(temp, ignore_errors=True)
