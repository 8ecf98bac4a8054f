"""Pictures of the table: ``render_mode="rgb_array"`` for every variant, and replay frames.

:func:`render_rgb` draws the table of an environment of this package as one seat sees it (its
hand face up, the other hands as backs with their sizes, the melds on the table grouped by
owner with wild cards marked, the discard top and the pile's size, the stock's size, the
scores, whose turn and the phase, and the family's extras), or from above (``reveal=True``:
every hand face up, marked on the picture), as a ``(HEIGHT, WIDTH, 3)`` uint8 array of a fixed
size. What the picture may show is decided by :func:`~rummy_env.render.view.table_view` (pure
Python); the drawing (:mod:`rummy_env.render.draw`) is the project's own Pillow code, imported
only when a picture is drawn, so importing the package stays cheap.

>>> import rummy_env
>>> env = rummy_env.make("gin_rummy", render_mode="rgb_array")
>>> env.reset(seed=0)
>>> env.render().shape
(720, 1280, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.render.draw import HEIGHT, WIDTH  # numpy only: Pillow loads when a frame is drawn
from rummy_env.render.view import FAMILIES, TableView, hand_points, hand_summary, table_view

#: The shape of every environment's ``rgb_array`` picture (height, width, RGB).
FRAME_SHAPE = (HEIGHT, WIDTH, 3)


def render_rgb(env: Any, viewer: int | None = None, reveal: bool = False,
               caption: str | None = None) -> np.ndarray:
    """The picture of ``env``'s table from seat ``viewer`` (or from above with ``reveal``),
    with an optional ``caption`` on its bottom line (a replay's step)."""
    from rummy_env.render.draw import draw

    return draw(table_view(env.unwrapped.state_obj, env.unwrapped.family, viewer, reveal),
                caption)


def save_png(frame: np.ndarray, path: Any, colors: int | None = None) -> None:
    """Write a frame as PNG; ``colors`` reduces it to a palette of that many (small files)."""
    from PIL import Image

    img = Image.fromarray(frame)
    if colors:
        img = img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT)
    img.save(path, optimize=True)


__all__ = ["FAMILIES", "FRAME_SHAPE", "TableView", "hand_points", "hand_summary", "render_rgb",
           "save_png", "table_view"]
