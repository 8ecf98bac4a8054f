"""The committed trained policies (checkpoints/, listed in checkpoints/manifest.json): each is
under 5 MB, loads as a bot by its path, sees only its seat's view and plays a whole deal of its
variant against greedy bots. No learning result is asserted here (the README has those)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import rummy_env
from rummy_env.bots import make_bot, play_episode, seat_view
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


@pytest.mark.parametrize("variant", sorted(MANIFEST))
def test_legal_logits_equal_the_full_forward_pass_on_real_observations(variant):
    """PolicyBot.act's shortcut (nonzero input rows, legal output columns only) gives the
    full network's logits of the legal actions, on the observations of a real deal."""
    bot = make_bot(str(ROOT / MANIFEST[variant]["file"]), seed=0)
    n = int(bot.meta["num_players"])
    env = rummy_env.make(variant, num_players=n, episode="deal",
                         **bot.meta.get("env_options", {}))
    env.reset(seed=5)
    checked = 0
    for agent in env.agent_iter(max_iter=40):
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        view = seat_view(env, agent)
        x = bot.input_of(view)
        legal = list(view.legal_actions)
        np.testing.assert_allclose(bot.legal_logits(x, legal), bot.logits(x)[legal],
                                   rtol=1e-4, atol=1e-4)
        checked += 1
        env.step(int(legal[0]))
    assert checked > 10
