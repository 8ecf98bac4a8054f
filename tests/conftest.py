"""Shared test setup."""

from __future__ import annotations

import os

import pytest


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
