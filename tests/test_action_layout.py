"""The generic action layout (rummy_env/codec.py, issue 21, point 3): every variant's fixed
``Discrete(N)`` is named blocks numbered one after another, and an id, its block and its index
within the block, its typed action and its text all map to each other."""

from __future__ import annotations

import numpy as np
import pytest

import rummy_env
from rummy_env.errors import IllegalActionError

CASES = [(v, n) for v in rummy_env.VARIANTS
         for n in sorted({rummy_env.make(v).rules.min_players,
                          rummy_env.make(v).rules.max_players})]


@pytest.mark.parametrize("name,players", CASES)
def test_blocks_number_the_whole_space(name: str, players: int) -> None:
    layout = rummy_env.make(name, num_players=players).layout
    starts = [r.start for r in layout.ranges]
    assert starts[0] == 0 and layout.ranges[-1].stop == layout.n
    assert all(a.stop == b.start for a, b in zip(layout.ranges, layout.ranges[1:]))
    assert all(r.size > 0 for r in layout.ranges)
    assert len({r.name for r in layout.ranges}) == len(layout.ranges)
    for r in layout.ranges:
        assert layout.block(r.name) is r
        for index, action in enumerate(r.actions):
            i = layout.id_of(r.name, index)
            assert i == r.start + index
            assert layout.locate(i) == (r.name, index)
            assert layout.range_of(i) is r
            assert layout.decode(i) == action and layout.encode(action) == i
            assert layout.from_string(layout.to_string(i)) == i
    # the docs table has one row per block, in id order
    rows = layout.table().splitlines()[2:-1]
    assert [row.split(" | ")[1] for row in rows] == [f"`{r.name}`" for r in layout.ranges]


def test_block_lookups_refuse_what_is_not_there() -> None:
    layout = rummy_env.make("contract_rummy").layout  # no digging: no dig block
    with pytest.raises(IllegalActionError, match="no action block 'dig'.*discard"):
        layout.block("dig")
    size = layout.block("discard").size
    assert layout.id_of("discard", np.int64(size - 1)) == layout.n - 1
    for bad in (size, -1, True, 1.0, "0"):
        with pytest.raises(IllegalActionError, match="outside action block 'discard'"):
            layout.id_of("discard", bad)
    for bad in (-1, layout.n, True, 2.0):
        with pytest.raises(IllegalActionError):
            layout.locate(bad)
