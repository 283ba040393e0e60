from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import Placement
from engine.moves import Side
from render.board import TABLE_AREA
from render.layout import TILE_SIZES, LineLayout, Rect, TileBox, layout_line
from render.samples import chain_of_all_tiles, line_view


def _line(length: int, seed: int) -> tuple[Placement, ...]:
    """A legal line of ``length`` tiles (a stretch of a 28-tile chain), random opener."""
    rng = random.Random(seed)
    chain = chain_of_all_tiles(rng)
    start = rng.randrange(0, 29 - length)
    return line_view(chain[start : start + length], rng.randrange(length), rng).line


def _meeting_half(box: TileBox, pips: int) -> tuple[float, float]:
    """Where ``box`` meets its neighbour on the side showing ``pips``."""
    if box.placement.tile.is_double:
        r = box.rect
        return ((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2)
    for x, y, p in box.halves():
        if p == pips:
            return (x, y)
    raise AssertionError(f"{box} shows no {pips}")


def _check(layout: LineLayout, line: tuple[Placement, ...]) -> None:
    area = layout.area
    # Every played tile appears exactly once, in line order.
    assert [b.placement for b in layout.tiles] == list(line)
    # Never off the table, never on top of each other.
    for box in layout.tiles:
        assert box.rect.inside(area), box
        assert box.rect.width in (layout.short, 2 * layout.short)
        assert box.rect.height in (layout.short, 2 * layout.short)
    for a, b in itertools.combinations(layout.tiles, 2):
        assert not a.rect.overlaps(b.rect), (a, b)
    # Each tile shows its own two numbers.
    for box in layout.tiles:
        p = box.placement
        assert sorted((box.first, box.second)) == sorted((p.left, p.right))
    # Neighbours touch with matching halves (the snake is connected).
    s = layout.short
    for left, right in itertools.pairwise(layout.tiles):
        shared = left.placement.right
        assert right.placement.left == shared
        ax, ay = _meeting_half(left, shared)
        bx, by = _meeting_half(right, shared)
        assert math.dist((ax, ay), (bx, by)) <= 1.6 * s, (left, right)
    # The open ends are marked inside the table, next to the end tiles.
    assert [(e.side, e.number) for e in layout.ends] == [
        (Side.LEFT, line[0].left),
        (Side.RIGHT, line[-1].right),
    ]
    r = s // 2
    for end in layout.ends:
        assert area.x0 <= end.x - r and end.x + r <= area.x1
        assert area.y0 <= end.y - r and end.y + r <= area.y1
        mark = Rect(end.x - r + 2, end.y - r + 2, end.x + r - 2, end.y + r - 2)
        assert not any(mark.overlaps(b.rect) for b in layout.tiles), end
    for end, box in ((layout.ends[0], layout.tiles[0]), (layout.ends[1], layout.tiles[-1])):
        x, y = _meeting_half(box, end.number)
        assert math.dist((x, y), (end.x, end.y)) <= 1.6 * s


@pytest.mark.parametrize("length", range(1, 29))
def test_every_line_length_fits_the_table_without_overlaps(length: int) -> None:
    for seed in range(6):
        line = _line(length, seed * 100 + length)
        _check(layout_line(line, TABLE_AREA), line)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=28), st.integers(min_value=0, max_value=10**6))
def test_random_lines_fit_the_table_without_overlaps(length: int, seed: int) -> None:
    line = _line(length, seed)
    _check(layout_line(line, TABLE_AREA), line)


def test_a_full_line_opened_at_either_end_still_fits() -> None:
    rng = random.Random(1)
    chain = chain_of_all_tiles(rng)
    for opener in (0, 27):
        line = line_view(chain, opener, rng).line
        layout = layout_line(line, TABLE_AREA)
        _check(layout, line)
        assert layout.short in TILE_SIZES


def test_short_lines_use_the_largest_tiles_and_sit_in_the_middle_of_the_table() -> None:
    for length in (1, 5, 14, 25):
        layout = layout_line(_line(length, length), TABLE_AREA)
        if length < 25:
            assert layout.short == TILE_SIZES[0]
        r = layout.short // 2
        x0 = min([b.rect.x0 for b in layout.tiles] + [e.x - r for e in layout.ends])
        x1 = max([b.rect.x1 for b in layout.tiles] + [e.x + r for e in layout.ends])
        y0 = min([b.rect.y0 for b in layout.tiles] + [e.y - r for e in layout.ends])
        y1 = max([b.rect.y1 for b in layout.tiles] + [e.y + r for e in layout.ends])
        assert abs((x0 - TABLE_AREA.x0) - (TABLE_AREA.x1 - x1)) <= 1
        assert abs((y0 - TABLE_AREA.y0) - (TABLE_AREA.y1 - y1)) <= 1


def test_a_tile_keeps_its_place_relative_to_the_opener_as_the_line_grows() -> None:
    rng = random.Random(3)
    chain = chain_of_all_tiles(rng)
    line = line_view(chain[:10], 4, rng).line
    before = layout_line(line[2:8], TABLE_AREA)
    after = layout_line(line[1:9], TABLE_AREA)

    def offsets(layout: LineLayout) -> dict[Placement, tuple[int, int]]:
        opener = next(b for b in layout.tiles if b.placement.order == 0).rect
        return {b.placement: (b.rect.x0 - opener.x0, b.rect.y0 - opener.y0) for b in layout.tiles}

    old, new = offsets(before), offsets(after)
    assert all(new[p] == old[p] for p in old)


def test_doubles_stand_across_the_line_and_others_lie_along_it() -> None:
    line = _line(12, 9)
    layout = layout_line(line, TABLE_AREA)
    rows = [b for b in layout.tiles if b.rect.height == layout.short]  # horizontal tiles
    assert rows, "a 12-tile line has tiles lying along a row"
    for box in layout.tiles:
        if box.placement.tile.is_double:
            assert box.vertical and box.rect.height == 2 * layout.short


def test_an_empty_line_has_no_tiles_and_no_end_marks() -> None:
    layout = layout_line((), TABLE_AREA)
    assert layout.tiles == () and layout.ends == ()


def test_a_line_that_cannot_fit_is_refused_clearly() -> None:
    line = _line(28, 4)
    with pytest.raises(ValueError, match="does not fit"):
        layout_line(line, Rect(0, 0, 200, 200), sizes=(20,))


def test_the_layout_turns_rows_at_the_table_edges() -> None:
    line = _line(28, 5)
    layout = layout_line(line, TABLE_AREA)
    rows = {(b.rect.y0 + b.rect.y1) // 2 for b in layout.tiles if not b.vertical}
    assert len(rows) >= 3  # the line snakes over several rows
