"""The example scripts in examples/ run as shown in the README (with tiny budgets)."""

from __future__ import annotations

import pathlib
import runpy

import pytest

import rummy_env

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _example(name: str) -> dict:
    return runpy.run_path(str(ROOT / "examples" / name))


def test_pettingzoo_registry_example_plays_every_variant(capsys):
    """Every variant is reachable through pettingzoo.make("aec", "rummy_env/<name>-v1") (with
    env arguments passed through) and plays with random legal actions until the episode ends:
    a full deal for two variants, a few turns (truncation) for every variant."""
    main = _example("pettingzoo_registry.py")["main"]
    main(variants=("contract_rummy", "indian_rummy"))
    main(max_turns=3)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["contract_rummy", "indian_rummy",
                                                   *rummy_env.VARIANTS]
    assert "'deals_played': 1" in lines[0] and "'deals_played': 1" in lines[1]


@pytest.mark.slow
def test_sb3_maskable_ppo_example_trains_and_plays(capsys):
    """examples/sb3_maskable_ppo.py with a tiny budget: MaskablePPO learns through the public
    SingleSeatEnv (action_masks()), then plays deals with masked predictions (an illegal
    action would raise IllegalActionError)."""
    pytest.importorskip("sb3_contrib")
    win_rate = _example("sb3_maskable_ppo.py")["main"](timesteps=256, deals=2)
    assert 0.0 <= win_rate <= 1.0
    assert "contract_rummy: 2 deals vs 3 random bots: win rate" in capsys.readouterr().out


def test_readme_pipeline_snippets_are_the_tested_examples():
    """The README's "Use with your pipeline" snippets are these files, verbatim."""
    readme = (ROOT / "README.md").read_text()
    if "## Use with your pipeline" not in readme:
        pytest.skip("the README has no 'Use with your pipeline' section yet")
    for name in ("pettingzoo_registry.py", "sb3_maskable_ppo.py", "rllib_masked_ppo.py",
                 "tianshou_episodes.py", "torchrl_episodes.py"):
        text = (ROOT / "examples" / name).read_text().rstrip("\n")
        assert f"```python\n{text}\n```" in readme, f"README snippet differs from examples/{name}"
