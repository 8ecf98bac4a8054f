"""Watch a recorded game again: an animation (GIF, or MP4), a plot of its scores, or text.

    python examples/replay.py game.json --out game.gif              # from above: every hand
    python examples/replay.py game.json --out game.gif --seat 0     # as player_0 saw it
    python examples/replay.py game.json --out game.mp4 --fps 4      # MP4 (needs a writer)
    python examples/replay.py game.json --plot scores.png           # the score progression
    python examples/replay.py game.json                             # the moves as text

Records come from ``rummy_env.records.RecordGame``, ``examples/play.py --record FILE`` and
``python -m training.evaluate --record DIR``. The replay plays the record again and checks every
position against it (a record of another version of the rules is refused). A frame is drawn
before every move, with the move on its bottom line, and one at the end; ``--every K`` keeps
every K-th, ``--scale`` shrinks them (a GIF of a long game is large). The view from above shows
every hand and says so on each frame; ``--seat N`` shows only what that seat could see.

``--plot`` draws two panels against the move number: each seat's game score (higher is better:
minus the penalty points of the contract family, the settlements of Indian Rummy, the net points
of Gin Rummy, the points of Manipulation Rummy) and the points in each hand (what it would cost
if the deal ended then, the deadwood, the best arrangement's points, the hand's value), with the
end of every deal marked. It needs matplotlib (in the ``train`` extra).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from rummy_env.records import GameRecord, ReplayError, load_record, replay
from rummy_env.render import hand_points, render_rgb


def caption(record: GameRecord, k: int) -> str:
    """The bottom line of frame ``k``: the move about to be played, or the end."""
    n = record.steps
    if k >= n:
        return f"end of the record ({n} moves)" + ("" if record.complete else ", unfinished")
    move = record.texts[k] if record.texts else str(record.actions[k])
    return f"move {k + 1}/{n}: player_{record.seats[k]} plays: {move}"


def frames(record: GameRecord, seat: int | None = None, every: int = 1,
           scale: float = 1.0) -> Iterator[np.ndarray]:
    """The replay's frames: from ``seat``'s view, or from above (``seat=None``)."""
    for k, env in replay(record):
        if k % every and k != record.steps:
            continue
        frame = render_rgb(env, seat, reveal=seat is None, caption=caption(record, k))
        if scale != 1.0:
            from PIL import Image

            img = Image.fromarray(frame)
            w, h = (max(2, int(round(d * scale / 2)) * 2) for d in img.size)  # even sizes
            frame = np.asarray(img.resize((w, h), Image.LANCZOS))
        yield frame


def write_animation(images: Iterator[np.ndarray], out: pathlib.Path, fps: float) -> int:
    """Write the frames to ``out`` (``.gif`` with Pillow; ``.mp4`` with imageio-ffmpeg or
    moviepy, whichever is installed); returns the number of frames."""
    suffix = out.suffix.lower()
    if suffix == ".gif":
        from PIL import Image

        # One palette for every frame (the first frame's, which holds the felt, the cards'
        # colours and the text), without dithering: what does not change between frames stays
        # identical, so the GIF stores only the changed region of each frame.
        pics: list[Any] = []
        for f in images:
            img = Image.fromarray(f)
            if pics:
                pics.append(img.quantize(palette=pics[0], dither=Image.Dither.NONE))
            else:
                pics.append(img.quantize(colors=96, method=Image.Quantize.MEDIANCUT,
                                         dither=Image.Dither.NONE))
        if not pics:
            raise ValueError("no frames to write")
        ms = max(20, int(round(1000 / fps)))
        durations = [ms] * (len(pics) - 1) + [max(ms, 3000)]  # hold the end
        pics[0].save(out, save_all=True, append_images=pics[1:], duration=durations, loop=0,
                     optimize=False)
        return len(pics)
    if suffix == ".mp4":
        frames_list = list(images)
        try:
            import imageio.v2 as imageio

            with imageio.get_writer(out, fps=fps, macro_block_size=1,
                                    ffmpeg_log_level="error") as writer:
                for f in frames_list:
                    writer.append_data(f)
            return len(frames_list)
        except (ImportError, ValueError, RuntimeError):
            pass  # no imageio, or no ffmpeg plugin: try moviepy
        try:
            from moviepy.video.io.ImageSequenceClip import ImageSequenceClip
        except ImportError:
            raise ValueError("writing MP4 needs imageio-ffmpeg or moviepy (pip install "
                             "'rummy-env[video]'); or write a .gif") from None
        ImageSequenceClip(frames_list, fps=fps).write_videofile(str(out), logger=None)
        return len(frames_list)
    raise ValueError(f"unknown animation format {out.suffix!r}; allowed: .gif, .mp4")


def score_series(record: GameRecord) -> dict[str, Any]:
    """Per position of the replay: each seat's game score (higher is better) and hand points,
    and the moves after which a deal ended."""
    totals: list[list[float]] = []
    hands: list[list[float]] = []
    deal_ends: list[int] = []
    played = None
    for k, env in replay(record):
        st, family = env.state_obj, env.family
        totals.append([-float(s) for s in st.scores])
        hands.append([np.nan if (p := hand_points(st, family, s)) is None else p
                      for s in range(env.num_players)])
        if played is not None and st.deals_played != played:
            deal_ends.append(k)
        played = st.deals_played
    return {"totals": np.array(totals), "hands": np.array(hands), "deal_ends": deal_ends}


def plot_scores(record: GameRecord, out: pathlib.Path) -> None:
    """Save the two-panel score progression of ``record`` to ``out`` (PNG, SVG, PDF ...)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--plot needs matplotlib (pip install matplotlib; it is in the "
                         "train extra)") from None
    data = score_series(record)
    totals, hands = data["totals"], data["hands"]
    names = record.players or [f"player_{s}" for s in range(totals.shape[1])]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    x = np.arange(len(totals))
    for s in range(totals.shape[1]):
        label = f"player_{s}" + (f" ({names[s]})" if record.players else "")
        top.step(x, totals[:, s], where="post", label=label)
        bottom.plot(x, hands[:, s], label=label, linewidth=1)
    for ax in (top, bottom):
        for k in data["deal_ends"]:
            ax.axvline(k, color="grey", linewidth=0.6, linestyle=":")
        ax.grid(alpha=0.3)
    top.set_ylabel("game score\n(higher is better)")
    bottom.set_ylabel("points in hand")
    bottom.set_xlabel("move")
    top.legend(loc="best", fontsize=8)
    top.set_title(f"{record.variant}: seed {record.seed}, {record.steps} moves"
                  + (" (dotted: end of a deal)" if data["deal_ends"] else ""))
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def print_moves(record: GameRecord) -> None:
    """The moves as text, then the final table with every hand."""
    final = None
    for k, env in replay(record):
        if k < record.steps:
            print(caption(record, k))
        final = env
    if final is not None:
        print()
        print(final.render_text(None))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", help="a game record (JSON)")
    ap.add_argument("--out", help="animation to write: .gif or .mp4")
    ap.add_argument("--seat", type=int, default=None,
                    help="show only what this seat saw (default: from above, every hand)")
    ap.add_argument("--fps", type=float, default=2.0, help="frames per second (default 2)")
    ap.add_argument("--every", type=int, default=1, help="keep every K-th frame (default 1)")
    ap.add_argument("--scale", type=float, default=1.0, help="frame size factor (default 1)")
    ap.add_argument("--plot", help="write the score progression plot here (.png ...)")
    args = ap.parse_args(argv)
    try:
        record = load_record(args.record)
        n = record.options.get("num_players", 0)
        if args.seat is not None and not 0 <= args.seat < n:
            raise ValueError(f"--seat {args.seat}: the game has seats 0..{n - 1}")
        if args.every < 1 or args.fps <= 0 or not 0 < args.scale <= 4:
            raise ValueError("--every must be >= 1, --fps > 0 and --scale in (0, 4]")
        if args.out:
            out = pathlib.Path(args.out)
            count = write_animation(frames(record, args.seat, args.every, args.scale), out,
                                    args.fps)
            view = "from above (every hand)" if args.seat is None else f"player_{args.seat}"
            print(f"{out}: {count} frames, {view}")
        if args.plot:
            plot_scores(record, pathlib.Path(args.plot))
            print(f"{args.plot}: score progression")
        if not args.out and not args.plot:
            print_moves(record)
    except (OSError, ValueError, ReplayError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
