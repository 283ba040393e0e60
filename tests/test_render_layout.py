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
    doubles = 0
    for i, box in enumerate(layout.tiles):
        if box.placement.tile.is_double and 0 < i < len(layout.tiles) - 1:
            doubles += 1
            # The tile it follows touches the middle of its long side.
            before = layout.tiles[i - 1].rect
            along, lo, hi = _contact(before, box.rect)
            long_side = box.rect.height if box.vertical else box.rect.width
            assert along == (not box.vertical) and hi - lo == layout.short
            start = box.rect.y0 if box.vertical else box.rect.x0
            assert (lo + hi) // 2 - start == long_side // 2
    assert doubles == 2


def _contact(a: Rect, b: Rect) -> tuple[bool, int, int]:
    """The edge two touching rectangles share: (True when it runs along x, from, to)."""
    if a.x1 == b.x0 or b.x1 == a.x0:
        return False, max(a.y0, b.y0), min(a.y1, b.y1)
    if a.y1 == b.y0 or b.y1 == a.y0:
        return True, max(a.x0, b.x0), min(a.x1, b.x1)
    return False, 0, 0


def _half(box: TileBox, pips: int, short: int) -> Rect:
    """The part of ``box`` showing ``pips`` (a double shows them on the whole tile)."""
    r = box.rect
    if box.placement.tile.is_double:
        return r
    top_or_left = box.first == pips
    if box.vertical:
        return (
            Rect(r.x0, r.y0, r.x1, r.y0 + short)
            if top_or_left
            else Rect(r.x0, r.y1 - short, r.x1, r.y1)
        )
    return (
        Rect(r.x0, r.y0, r.x0 + short, r.y1)
        if top_or_left
        else Rect(r.x1 - short, r.y0, r.x1, r.y1)
    )


def _touching_length(half: Rect, along_x: bool, lo: int, hi: int, edge: int) -> int:
    """How much of the shared edge (at ``edge``, from ``lo`` to ``hi``) borders ``half``."""
    if along_x:
        on_edge = edge in (half.y0, half.y1)
        return max(0, min(hi, half.x1) - max(lo, half.x0)) if on_edge else 0
    on_edge = edge in (half.x0, half.x1)
    return max(0, min(hi, half.y1) - max(lo, half.y0)) if on_edge else 0


def _random_legal_lines(count: int, seed: int) -> list[tuple[Placement, ...]]:
    """``count`` legal lines of 1 to 28 tiles: stretches of random chains of all 28 tiles
    (one chain for every 20 lines), each opened at a random tile and grown at random on
    both ends, as :func:`render.samples.line_view` grows them (without building views)."""
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        if n % 20 == 0:
            chain = chain_of_all_tiles(rng)
        length = rng.randint(1, 28)
        start = rng.randrange(0, 29 - length)
        stretch = chain[start : start + length]
        opener = rng.randrange(length)
        order = [0] * length
        left, right, k = opener - 1, opener + 1, 1
        while left >= 0 or right < length:
            if left >= 0 and (right >= length or rng.random() < 0.5):
                order[left], left = k, left - 1
            else:
                order[right], right = k, right + 1
            k += 1
        lines.append(
            tuple(Placement(t, a, b, order[i] % 4, order[i]) for i, (a, b, t) in enumerate(stretch))
        )
    return lines


def test_in_10000_random_lines_neighbours_touch_edge_to_edge_on_matching_halves_and_rows_stay_apart() -> (
    None
):
    """Issue 13, item 26: a double sat on the wrong tile, rows touched, doubles stacked."""
    for line in _random_legal_lines(10_000, 26):
        layout = layout_line(line, TABLE_AREA)
        s = layout.short
        boxes = layout.tiles
        rects = [b.rect for b in boxes]
        for a, b in itertools.pairwise(boxes):
            pips = a.placement.right
            along_x, lo, hi = _contact(a.rect, b.rect)
            edge = (
                (a.rect.y1 if a.rect.y1 == b.rect.y0 else a.rect.y0)
                if along_x
                else (a.rect.x1 if a.rect.x1 == b.rect.x0 else a.rect.x0)
            )
            # Each of the two shares at least half a tile's width of edge with the other's
            # matching half: a corner-to-corner touch or a gap fails.
            for box in (a, b):
                assert _touching_length(_half(box, pips, s), along_x, lo, hi, edge) >= s // 2, (
                    a,
                    b,
                )
            assert not a.rect.overlaps(b.rect)
        # Tiles that are not neighbours in the line keep a quarter of a tile's width apart
        # (so rows never touch and no double stands on another row's tile).
        q = s // 4
        corners = [(r.x0, r.y0, r.x1, r.y1) for r in rects]
        for i, (ax0, ay0, ax1, ay1) in enumerate(corners):
            for bx0, by0, bx1, by1 in corners[i + 2 :]:
                assert bx0 - ax1 >= q or ax0 - bx1 >= q or by0 - ay1 >= q or ay0 - by1 >= q, (
                    boxes[i],
                    (bx0, by0, bx1, by1),
                )
        assert all(r.inside(layout.area) for r in rects)


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
