"""benchmarks/compare.py keeps working (no speed assertion): a short run with whatever
reference packages are installed, and the skip path when they are not."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "compare.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_compare", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_compare_runs_briefly_with_the_installed_references():
    out = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.3", "--repeats", "1"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "rummy_env gin_rummy, AEC" in text and "PettingZoo gin_rummy_v4" in text
    mod = _load()
    for name, label in (("open_spiel", "OpenSpiel gin_rummy"), ("rlcard", "RLCard gin-rummy")):
        if mod.available(name):
            assert label in text
        else:
            assert f"skipped {name}" in text


def test_a_missing_reference_is_skipped_and_ours_still_runs(monkeypatch, capsys):
    mod = _load()
    monkeypatch.setattr(mod, "available", lambda name: False)
    assert mod.main(["--seconds", "0.2", "--repeats", "1"]) == 0
    text = capsys.readouterr().out
    assert "skipped open_spiel" in text and "skipped rlcard" in text
    assert "rummy_env gin_rummy, AEC" in text and "OpenSpiel gin_rummy (" not in text
