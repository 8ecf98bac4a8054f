"""Game records (rummy_env/records.py): a recorded episode replays exactly on every variant.

The replay's positions are compared with positions saved while the game was played (not only
with the record's own hashes); the record round-trips through its JSON file; resets without a
seed, scenarios and rule overrides replay too; a record that does not match fails loudly.
"""

from __future__ import annotations

import json

import pytest

import rummy_env
from rummy_env.bots import make_bot, seat_view
from rummy_env.contract.rules import Contract
from rummy_env.records import GameRecord, RecordGame, ReplayError, check_replay, load_record, replay


def _play(env, bots=None, limit: int = 5000) -> list[dict]:
    """Play the episode with greedy bots; returns the position after every action."""
    bots = bots or [make_bot("greedy", i) for i in range(env.num_players)]
    states = []
    for agent in env.agent_iter(limit):
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        env.step(bots[env.agent_name_mapping[agent]].act(seat_view(env, agent)))
        states.append(env.get_state())
    return states


@pytest.mark.parametrize("variant", rummy_env.VARIANTS)
def test_a_recorded_deal_replays_exactly(variant: str, tmp_path) -> None:
    env = RecordGame(rummy_env.make(variant, max_turns=150))
    env.reset(seed=11)
    start = env.get_state()
    states = _play(env)
    rec = env.record
    assert rec.complete and rec.steps == len(states) and rec.variant == variant
    assert rec.seed == 11 and rec.start == start
    path = rec.save(tmp_path / "game.json")
    back = load_record(path)
    assert back == rec
    seen = []
    for k, at in replay(back):
        if k:
            seen.append(at.get_state())
    assert seen == states
    final = check_replay(back)
    assert final.get_state() == states[-1]
    totals = {a: sum(r[1][i] for r in rec.rewards) for i, a in enumerate(env.possible_agents)}
    assert [totals[a] for a in env.possible_agents] == pytest.approx(rec.returns)


def test_a_whole_game_and_a_reset_without_seed_replay() -> None:
    env = RecordGame(rummy_env.make("gin_rummy", episode="game", max_turns=400))
    env.reset(seed=4)
    _play(env)
    first = env.record
    assert first.complete and first.rewards
    env.reset()  # continues the env's generator: the record keeps its state
    states = _play(env)
    second = env.record
    assert second.seed is None and second.rng_state is not None
    assert check_replay(first).get_state() != check_replay(second).get_state()
    assert check_replay(second).get_state() == states[-1]
    fresh = RecordGame(rummy_env.make("gin_rummy"))
    fresh.reset()  # a first reset without a seed: a seed is drawn and recorded
    assert isinstance(fresh.record.seed, int)


def test_scenarios_and_rule_overrides_replay(tmp_path) -> None:
    rules = {"contracts": (Contract(sets=(3,)),) * 7, "whole_hand_deals": (),
             "joker_points": 25}
    base = rummy_env.make("contract_rummy", num_players=3, **rules)
    base.reset(seed=2)
    _play(base, limit=30)
    scenario = base.get_state()
    scenario.pop("zones")
    env = RecordGame(rummy_env.make("contract_rummy", num_players=3, **rules))
    env.reset(seed=9, options={"scenario": scenario})
    states = _play(env)
    rec = env.record
    assert rec.options["joker_points"] == 25 and rec.options["whole_hand_deals"] == []
    assert rec.options["contracts"][0]["sets"] == [3]
    assert rec.reset_options["scenario"]["hands"] == scenario["hands"]
    back = load_record(rec.save(tmp_path / "s.json"))
    assert check_replay(back).get_state() == states[-1]


def test_directory_mode_writes_every_finished_episode(tmp_path) -> None:
    env = RecordGame(rummy_env.make("gin_rummy"), directory=tmp_path, digests=False,
                     players=["greedy", "random"])
    for seed in (1, 2):
        env.reset(seed=seed)
        _play(env, [make_bot("greedy", 0), make_bot("random", 1)])
    files = sorted(tmp_path.glob("game_*.json"))
    assert [f.name for f in files] == ["game_00000.json", "game_00001.json"]
    rec = load_record(files[1])
    assert rec.digests is None and rec.end and rec.players == ["greedy", "random"]
    check_replay(rec)


def test_a_record_that_does_not_match_fails(tmp_path) -> None:
    env = RecordGame(rummy_env.make("indian_rummy"))
    env.reset(seed=3)
    _play(env)
    rec = env.record
    data = json.loads(rec.to_json())
    other = GameRecord.from_dict(dict(data, seed=4))  # another deal
    with pytest.raises(ReplayError, match="starting position"):
        check_replay(other)
    swapped = GameRecord.from_dict(dict(data, actions=data["actions"][:3] + data["actions"][4:]
                                        + [data["actions"][3]]))
    with pytest.raises(ReplayError):
        check_replay(swapped)
    with pytest.raises(ReplayError, match="v0"):
        check_replay(GameRecord.from_dict(dict(data, env_id="indian_rummy_v0")))
    with pytest.raises(ReplayError, match="format"):
        GameRecord.from_dict({"format": "something else"})
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ReplayError, match="not JSON"):
        load_record(bad)


def test_the_recorder_passes_everything_else_through() -> None:
    env = RecordGame(rummy_env.make("may_i"))
    env.reset(seed=0)
    assert env.legal_action_strings() == env.unwrapped.legal_action_strings()
    assert env.state_obj is env.unwrapped.state_obj
    with pytest.raises(rummy_env.IllegalActionError):
        env.step(10**6)  # refused by the env: nothing recorded
    assert env.record.steps == 0


# --------------------------------------------------------------------------- examples/replay.py
def _replay_main():
    import pathlib
    import runpy

    root = pathlib.Path(__file__).resolve().parents[1]
    return runpy.run_path(str(root / "examples" / "replay.py"))


def _gin_record(tmp_path):
    env = RecordGame(rummy_env.make("gin_rummy"), players=["greedy", "random"])
    env.reset(seed=7)
    _play(env, [make_bot("greedy", 0), make_bot("random", 1)])
    return env.record, env.record.save(tmp_path / "gin.json")


def test_replay_tool_writes_a_gif_from_above_and_from_a_seat(tmp_path, capsys) -> None:
    from PIL import Image

    record, path = _gin_record(tmp_path)
    main = _replay_main()["main"]
    assert main([str(path), "--out", str(tmp_path / "above.gif"), "--scale", "0.25"]) == 0
    assert main([str(path), "--out", str(tmp_path / "seat.gif"), "--seat", "1", "--scale",
                 "0.25", "--every", "2"]) == 0
    above, seat = Image.open(tmp_path / "above.gif"), Image.open(tmp_path / "seat.gif")
    assert above.n_frames == record.steps + 1  # before every move, and the end
    assert seat.n_frames == record.steps // 2 + 1 + (record.steps % 2 == 1)
    assert above.size == (320, 180)
    out = capsys.readouterr().out
    assert "from above (every hand)" in out and "player_1" in out
    assert main([str(path)]) == 0  # the moves as text
    assert "move 1/" in capsys.readouterr().out


def test_replay_tool_writes_mp4_and_the_score_plot(tmp_path) -> None:
    record, path = _gin_record(tmp_path)
    main = _replay_main()["main"]
    try:
        import imageio_ffmpeg  # noqa: F401
    except ImportError:
        pytest.importorskip("moviepy")
    assert main([str(path), "--out", str(tmp_path / "g.mp4"), "--scale", "0.25"]) == 0
    assert (tmp_path / "g.mp4").stat().st_size > 1000
    pytest.importorskip("matplotlib")
    assert main([str(path), "--plot", str(tmp_path / "scores.png")]) == 0
    assert (tmp_path / "scores.png").stat().st_size > 5000


def test_score_series_follows_the_deals(tmp_path) -> None:
    env = RecordGame(rummy_env.make("contract_rummy", num_players=3, episode="game"))
    env.reset(seed=4)
    _play(env)
    data = _replay_main()["score_series"](env.record)
    assert data["totals"].shape == data["hands"].shape == (env.record.steps + 1, 3)
    final = env.state_obj
    assert final.deals_played > 1 and len(data["deal_ends"]) == final.deals_played
    assert list(data["totals"][-1]) == [-float(s) for s in final.scores]


def test_replay_tool_errors_are_clear(tmp_path, capsys) -> None:
    _, path = _gin_record(tmp_path)
    main = _replay_main()["main"]
    assert main([str(path), "--seat", "5"]) == 2
    assert "--seat 5" in capsys.readouterr().err
    assert main([str(path), "--out", str(tmp_path / "x.avi")]) == 2
    assert "unknown animation format" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 2


def test_evaluate_record_saves_every_evaluated_deal(tmp_path) -> None:
    """training/evaluate.py --record DIR: one replayable record per deal, who sat where, and
    the same numbers as without recording."""
    from training.evaluate import evaluate, main

    plain = evaluate("gin_rummy", ["greedy", "random"], 4, seed=2, duplicate=True)
    rec = evaluate("gin_rummy", ["greedy", "random"], 4, seed=2, duplicate=True,
                   record_dir=tmp_path / "deals")
    assert rec["records"] == str(tmp_path / "deals")
    for key in ("results", "paired", "truncated"):
        assert rec[key] == plain[key]
    files = sorted((tmp_path / "deals").glob("deal_*.json"))
    assert [f.name for f in files] == [f"deal_{k:05d}.json" for k in range(4)]
    records = [load_record(f) for f in files]
    assert records[0].players == ["0:greedy", "1:random"]
    assert records[1].players == ["1:random", "0:greedy"]  # the duplicate rotation
    assert records[0].seed == records[1].seed and records[1].meta["rotation"] == 1
    for r in records:
        check_replay(r)
    assert main(["--variant", "gin_rummy", "--seats", "greedy,random", "--deals", "2",
                 "--record", str(tmp_path / "cli")]) == 0
    assert len(list((tmp_path / "cli").glob("deal_*.json"))) == 2
