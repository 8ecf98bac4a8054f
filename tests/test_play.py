"""examples/play.py driven through its standard input: hints, mistyped moves, opponents of
every kind make_bot takes (names, per-seat lists, a checkpoint), and --record files that
replay exactly."""

from __future__ import annotations

import io
import pathlib
import runpy

import pytest

from rummy_env.records import check_replay, load_record

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def play_main():
    return runpy.run_path(str(ROOT / "examples" / "play.py"))["main"]


def _run(play_main, monkeypatch, capsys, argv: list[str], typed: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = play_main(argv)
    return code, capsys.readouterr().out


def test_a_short_game_with_hints_mistakes_and_a_record(play_main, monkeypatch, capsys,
                                                        tmp_path) -> None:
    rec = tmp_path / "game.json"
    typed = "h\ndiscard QX\n99\nhelp\n?\n" + "0\n" * 400
    code, out = _run(play_main, monkeypatch, capsys,
                     ["--variant", "gin_rummy", "--opponents", "greedy", "--seed", "1",
                      "--max-turns", "8", "--record", str(rec)], typed)
    assert code == 0
    assert "deadwood" in out and "greedy would play:" in out  # the hint
    assert "'discard QX' is not a move" in out  # a mistyped card
    assert "there is no move 99: choose a number from 0 to" in out
    assert "h, hint" in out  # help
    assert "rewards (points, higher is better)" in out  # the game ended
    record = load_record(rec)
    assert record.complete and record.players == ["human", "greedy"]
    assert record.variant == "gin_rummy" and record.seed == 1
    check_replay(record)


def test_quitting_keeps_a_replayable_record_and_opponents_per_seat(play_main, monkeypatch,
                                                                   capsys, tmp_path) -> None:
    rec = tmp_path / "part.json"
    code, out = _run(play_main, monkeypatch, capsys,
                     ["--variant", "may_i", "--players", "3", "--seat", "1", "--opponents",
                      "greedy,x,random", "--record", str(rec)], "0\n0\nq\n")
    assert code == 0 and "bye" in out and "unfinished" in out
    record = load_record(rec)
    assert not record.complete and record.players == ["greedy", "human", "random"]
    assert 1 in record.seats
    check_replay(record)


def test_a_trained_checkpoint_sits_at_the_table(play_main, monkeypatch, capsys) -> None:
    ckpt = ROOT / "checkpoints" / "gin_rummy.npz"
    if not ckpt.is_file():
        pytest.skip("no gin_rummy checkpoint")
    code, out = _run(play_main, monkeypatch, capsys,
                     ["--variant", "gin_rummy", "--opponents", str(ckpt), "--max-turns", "4"],
                     "0\n" * 200)
    assert code == 0 and "rewards" in out


def test_unknown_opponents_and_seats_are_clear_errors(play_main, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert play_main(["--opponents", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "--opponents" in err and "unknown bot 'nobody'" in err and "greedy" in err
    assert play_main(["--seat", "9"]) == 2
    assert "--seat: choose 0..3" in capsys.readouterr().err
