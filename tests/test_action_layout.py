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


def test_texts_built_at_first_use_still_refuse_a_shared_text() -> None:
    """The texts and their parse are built lazily (a cheaper ``make``): a layout whose two
    ids share a text still raises, at the first parse, naming the problem."""
    from rummy_env.codec import ActionLayout

    layout = ActionLayout([("a", [1, 2], "two ids, one text")], lambda a: "same")
    assert layout.n == 2 and layout.to_string(1) == "same"
    with pytest.raises(ValueError, match="share a text"):
        layout.from_string("same")


def test_envs_of_one_configuration_share_no_space_object() -> None:
    """Spaces of equal bounds are built once per process and copied (``base._float_box``):
    each env's boxes are equal to a fresh env's but its own, with its own generator."""
    a, b = rummy_env.make("gin_rummy"), rummy_env.make("gin_rummy")
    for get in (lambda e: e.observation_space("player_0")["observation"],
                lambda e: e.state_space):
        sa, sb = get(a), get(b)
        assert sa == sb and sa is not sb and sa.low is not sb.low
        sa.seed(3)
        first = sa.sample()
        sb.seed(4)
        sb.sample()
        sa.seed(3)
        assert np.array_equal(sa.sample(), first)
        sa.low[0] = -7.0  # a user editing one env's bounds leaves the next env's alone
        assert get(rummy_env.make("gin_rummy")).low[0] != -7.0
