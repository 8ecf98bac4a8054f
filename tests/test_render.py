"""Pictures of the table (rummy_env/render): render_mode="rgb_array" on every variant.

Shape, dtype and a fixed size per env; the picture changes as play goes on; PettingZoo's
render_test; Gymnasium's RecordVideo on SingleSeatEnv; a seat's picture does not depend on the
cards it cannot see (and does on its own hand); the view from above shows every hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test

import rummy_env
from rummy_env.bots import make_bot, seat_view
from rummy_env.render import FRAME_SHAPE, table_view

VARIANTS = rummy_env.VARIANTS


def _play(env, steps: int, seed: int = 0) -> None:
    """``steps`` greedy moves (fewer if the episode ends)."""
    bot = make_bot("greedy", seed)
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        env.step(bot.act(seat_view(env, agent)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_rgb_array_frames_have_a_fixed_shape_and_change_with_play(variant: str) -> None:
    env = rummy_env.make(variant, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.shape == FRAME_SHAPE
    _play(env, 12)
    later = env.render()
    assert later.shape == FRAME_SHAPE and later.dtype == np.uint8
    assert not np.array_equal(first, later), "the picture must follow the game"
    # the picture is not a blank: several colours (felt, cards, text)
    packed = later[..., 0].astype(np.int32) << 16 | later[..., 1].astype(np.int32) << 8
    assert len(np.unique(packed | later[..., 2])) > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_render_test(variant: str, capsys) -> None:
    render_test(lambda **kw: rummy_env.make(variant, **kw))
    assert "phase:" in capsys.readouterr().out  # human mode prints the table


def test_frame_size_is_the_same_at_every_player_count() -> None:
    for n in (2, 10):
        env = rummy_env.make("indian_rummy", num_players=n, render_mode="rgb_array")
        env.reset(seed=0)
        assert env.render().shape == FRAME_SHAPE
        assert env.render_rgb(reveal=True).shape == FRAME_SHAPE


def test_record_video_on_single_seat_env(tmp_path) -> None:
    """Gymnasium's RecordVideo records the learner's games (needs moviepy, the video extra)."""
    pytest.importorskip("moviepy")
    import gymnasium as gym

    from rummy_env.wrappers import SingleSeatEnv

    env = SingleSeatEnv("gin_rummy", opponents="greedy", seed=0, render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda e: True,
                                   disable_logger=True)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        done = term or trunc
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


@pytest.mark.parametrize("variant", ["contract_rummy", "indian_rummy", "manipulation_rummy",
                                     "gin_rummy", "may_i"])
def test_a_seats_picture_does_not_depend_on_hidden_cards(variant: str) -> None:
    env = rummy_env.make(variant)
    env.reset(seed=3)
    _play(env, 6)
    other = rummy_env.make(variant)
    state = env.get_state()
    viewer = 0
    # the cards seat 0 cannot see dealt anew, consistently with what it knows (rummy_env.worlds)
    other.reset(seed=1, options={"scenario": env.sample_world("player_0", 5)})
    hidden_changed = any(sorted(a) != sorted(b) for q, (a, b) in enumerate(
        zip(state["hands"], other.get_state()["hands"])) if q != viewer)
    assert hidden_changed, "the test must move hidden cards"
    assert table_view(env.state_obj, env.family, viewer) == table_view(
        other.state_obj, other.family, viewer)
    np.testing.assert_array_equal(env.render_rgb(viewer), other.render_rgb(viewer))
    # ... while what is hidden from the seat shows from above
    assert not np.array_equal(env.render_rgb(reveal=True), other.render_rgb(reveal=True))


def test_a_seats_own_hand_and_the_view_from_above_show() -> None:
    env = rummy_env.make("contract_rummy")
    env.reset(seed=2)
    view = table_view(env.state_obj, "contract", 1)
    assert view.seats[1].cards is not None and view.hand_seat == 1
    assert all(p.cards is None for p in view.seats if p.seat != 1)
    above = table_view(env.state_obj, "contract", reveal=True)
    assert above.reveal and all(p.cards is not None for p in above.seats)
    assert not np.array_equal(env.render_rgb(0), env.render_rgb(1))


def test_wild_cards_on_the_table_show_what_they_stand_for() -> None:
    """A joker in a contract meld carries the natural it stands for (drawn in its corner)."""
    env = rummy_env.make("contract_rummy")
    env.reset(seed=1)
    _play(env, 200)
    st = env.state_obj
    view = table_view(st, "contract", 0)
    jokers = [(c, s) for m in view.melds for c, s in zip(m.cards, m.stands) if c == 52]
    on_table = sum(m.cards.count(52) for m in st.table)
    assert len(jokers) == on_table
    assert all(s is not None and 0 <= s < 52 for _, s in jokers)


def test_family_extras_appear_in_the_view() -> None:
    ind = rummy_env.make("indian_rummy")
    ind.reset(seed=0)
    v = table_view(ind.state_obj, "indian", 0)
    assert ("indicator", ind.state_obj.indicator) in v.extras and "wild" in v.title
    gin = rummy_env.make("gin_rummy")
    gin.reset(seed=0)
    v = table_view(gin.state_obj, "gin", 0)
    assert any(label.startswith("knock with") or label == "gin only" for label, _ in v.extras)
    assert v.hand_note.startswith("deadwood")
    # a May I? window names the seat asked
    may = rummy_env.make("may_i")
    may.reset(seed=0)
    for _ in range(400):
        if may.state_obj.phase == "claim":
            break
        _play(may, 1)
    assert may.state_obj.phase == "claim"
    banner = table_view(may.state_obj, "contract", 0).banner
    assert banner and "May I?" in banner and f"player_{may.state_obj.claim_queue[0]}" in banner


def test_importing_the_package_loads_no_pillow() -> None:
    import subprocess
    import sys

    code = ("import sys, rummy_env; e = rummy_env.make('gin_rummy', render_mode='rgb_array'); "
            "e.reset(seed=0); print('PIL' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_rendering_before_reset_is_a_clear_error() -> None:
    env = rummy_env.make("gin_rummy", render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        env.render()
