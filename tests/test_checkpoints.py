"""The committed trained policies (checkpoints/, listed in checkpoints/manifest.json): each is
under 5 MB, loads as a bot by its path, sees only its seat's view and plays a whole deal of its
variant against greedy bots. No learning result is asserted here (the README has those)."""

from __future__ import annotations

import json
import pathlib

import pytest

import rummy_env
from rummy_env.bots import make_bot, play_episode
from rummy_env.bots.policy import PolicyBot

ROOT = pathlib.Path(__file__).resolve().parents[1]
MANIFEST = json.loads((ROOT / "checkpoints" / "manifest.json").read_text())


def test_manifest_lists_files_that_exist_and_only_known_variants():
    assert MANIFEST, "checkpoints/manifest.json lists no policy"
    for variant, entry in MANIFEST.items():
        assert variant in rummy_env.VARIANTS
        path = ROOT / entry["file"]
        assert path.is_file(), path
        assert path.stat().st_size < 5 * 2**20, f"{path} is over 5 MB"
    listed = {ROOT / e["file"] for e in MANIFEST.values()}
    assert set((ROOT / "checkpoints").glob("*.npz")) == listed, "unlisted policy files"


@pytest.mark.parametrize("variant", sorted(MANIFEST))
def test_checkpoint_loads_as_a_bot_and_plays_a_deal(variant):
    entry = MANIFEST[variant]
    bot = make_bot(str(ROOT / entry["file"]), seed=0)
    assert isinstance(bot, PolicyBot)
    assert bot.meta["variant"] == variant
    n = int(bot.meta["num_players"])
    assert n == entry["players"]
    env = rummy_env.make(variant, num_players=n, episode="deal",
                         **bot.meta.get("env_options", {}))
    totals = play_episode(env, [bot] + [make_bot("greedy", s) for s in range(n - 1)], seed=3)
    assert set(totals) == set(env.possible_agents)
    assert not env.agents  # the deal was played to its end
