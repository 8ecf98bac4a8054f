"""Observations made of named pieces in one flat float32 buffer (numpy only).

A family declares an :class:`ObsLayout`: an ordered list of ``(name, shape, meaning)``. The layout
gives each piece's slice, a dict of reshaped views into a buffer, and the generated spec table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    meaning: str
    start: int

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size


class ObsLayout:
    """Named pieces of a flat observation vector."""

    def __init__(self, pieces: Sequence[tuple[str, tuple[int, ...], str]]) -> None:
        self.pieces: dict[str, Piece] = {}
        start = 0
        for name, shape, meaning in pieces:
            if name in self.pieces:
                raise ValueError(f"observation piece {name!r} declared twice")
            p = Piece(name, tuple(shape), meaning, start)
            self.pieces[name] = p
            start = p.stop
        self.size = start
        self.slices = {name: slice(p.start, p.stop) for name, p in self.pieces.items()}

    def bounds(self, spec: dict[str, tuple[object, object]]) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` float32 arrays of the whole vector from each piece's ``(low, high)``
        (scalars, or arrays of the piece's shape). Every piece must be given: a new piece
        declares its range or the spaces cannot be built."""
        missing = [n for n in self.pieces if n not in spec]
        extra = [n for n in spec if n not in self.pieces]
        if missing or extra:
            raise AssertionError(f"observation bounds: missing {missing}, unknown {extra}")
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for name, p in self.pieces.items():
            lo, hi = spec[name]
            low[p.start:p.stop] = np.broadcast_to(np.asarray(lo, np.float64), p.shape).ravel()
            high[p.start:p.stop] = np.broadcast_to(np.asarray(hi, np.float64), p.shape).ravel()
        if not (np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()):
            raise AssertionError("observation bounds must be finite with low <= high")
        # A feature that is constant under these rules (a deal kind no deal has, one contract
        # size) would get low == high; tools that rescale by the bounds divide by high - low
        # (SuperSuit's normalize_obs gives NaN there), so such a feature gets a unit width.
        flat = high <= low
        high[flat] = low[flat] + 1.0
        return low, high

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Reshaped views of ``buf`` by piece name (writes go to ``buf``)."""
        return {n: buf[p.start:p.stop].reshape(p.shape) for n, p in self.pieces.items()}

    def table(self) -> str:
        rows = ["| offset | piece | shape | meaning |", "|---|---|---|---|"]
        for p in self.pieces.values():
            rows.append(f"| {p.start} | `{p.name}` | {p.shape} | {p.meaning} |")
        rows.append(f"| | | **total: ({self.size},) float32** | |")
        return "\n".join(rows)
