"""The lowest PettingZoo that pyproject declares (issue 16, point 6).

``pettingzoo>=1.25`` is allowed (AgileRL pins ``pettingzoo<1.27``), but PettingZoo's registry
(``pettingzoo.register``, ``pettingzoo.aec_registry``) first shipped in 1.27: ``import rummy_env``
must not need it. The first test takes the registry away from the installed PettingZoo; the
second runs against a real old PettingZoo when ``RUMMY_ENV_OLD_PETTINGZOO`` names a directory it
was installed into (``pip install --no-deps --target DIR pettingzoo==1.25.0``), and is skipped
otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pettingzoo
import pytest

import rummy_env


def test_import_and_make_without_pettingzoo_registry(monkeypatch):
    monkeypatch.delattr(pettingzoo, "register")
    monkeypatch.delattr(pettingzoo, "aec_registry")
    rummy_env._register()  # what `import rummy_env` runs: skips the registry, does not fail
    env = rummy_env.make("gin_rummy")
    env.reset(seed=0)
    env.step(env.legal_actions()[0])


@pytest.mark.skipif(not os.environ.get("RUMMY_ENV_OLD_PETTINGZOO"),
                    reason="set RUMMY_ENV_OLD_PETTINGZOO to a dir holding pettingzoo 1.25/1.26")
def test_old_pettingzoo_imports_and_passes_api_test():
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([os.environ["RUMMY_ENV_OLD_PETTINGZOO"], str(root)])
    code = (
        "import pettingzoo, rummy_env\n"
        "from pettingzoo.test import api_test\n"
        "assert not hasattr(pettingzoo, 'aec_registry'), pettingzoo.__version__\n"
        "for n in ('contract_rummy', 'indian_rummy', 'manipulation_rummy', 'gin_rummy'):\n"
        "    api_test(rummy_env.make(n, max_turns=20), num_cycles=50)\n"
        "print(pettingzoo.__version__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": path},
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1].startswith("1.2")
