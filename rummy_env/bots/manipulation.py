"""ManipulationGreedyBot: the greedy baseline of Manipulation Rummy (RULES section 7).

It reads only its seat's view (the legal action ids and their typed meaning) and plays the
most cards the solver allows: the mask offers a meld step only when the turn can still end
with a valid table (MR-4, MR-5), so a bot that keeps playing while it can never runs into a
dead end. Its strategy, in order:

* ``knock`` whenever it is offered (MR-7: the hand is worth 5 or less);
* in a meld: play the legal natural card of highest value (MR-6: shed points first), else
  play a joker as the first legal card (a freed joker must be played again, MR-5), else finish
  the meld; before the first step with nothing to play, free a joker if that is offered (it
  may open a meld), else decline (draw the next card, MR-2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummy_env.bots.base import SeatView


def _value(t: int) -> int:
    return min(t % 13 + 1, 10)  # MR-6: A 1, 2-10 face, J Q K 10


class ManipulationGreedyBot:
    """Greedy Manipulation Rummy bot; see the module docstring."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        decode = view.action_layout.decode
        by_kind: dict[str, list[tuple[Any, int]]] = {}
        for a in legal:
            typed = decode(a)
            by_kind.setdefault(typed.kind, []).append((typed, a))
        if "knock" in by_kind:
            return by_kind["knock"][0][1]
        if "no_knock" in by_kind:
            return by_kind["no_knock"][0][1]
        if "play" in by_kind:
            return max(by_kind["play"], key=lambda x: (_value(x[0].card), x[0].card))[1]
        if "joker" in by_kind:
            return by_kind["joker"][0][1]
        if "finish" in by_kind:
            return by_kind["finish"][0][1]
        for kind in ("free_hand", "free_table"):
            if kind in by_kind:
                return by_kind[kind][0][1]
        return by_kind["decline"][0][1]


__all__ = ["ManipulationGreedyBot"]
