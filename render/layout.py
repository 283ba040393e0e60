"""Where each tile of the line goes: a snake that turns at the table's edges.

The opening tile sits in the middle of the table. Tiles played on the right end run
to the right, turn down at the edge and come back the other way, row after row; tiles
played on the left end run to the left and turn up. A non-double lies along the line
(``2 * short`` long), a double stands across it (rules.md, "The line"). The tile that
turns a corner stands upright with its matching half touching the row it leaves.

:func:`layout_line` is pure geometry (no pixels), so tests check that tiles never
overlap, never leave the table and each played tile appears once. When the line does
not fit at the preferred tile size it is laid again with smaller tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.hand import Placement
from engine.moves import Side

__all__ = ["TILE_SIZES", "EndMark", "LineLayout", "Rect", "TileBox", "fits", "layout_line"]

TILE_SIZES: Final = (48, 44, 40, 34, 28, 24, 20)
"""Short sides tried in order, in pixels (a tile is twice as long)."""


@dataclass(frozen=True, slots=True)
class Rect:
    """A pixel rectangle, ``x0 <= x < x1`` and ``y0 <= y < y1``."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def inside(self, other: Rect) -> bool:
        return (
            other.x0 <= self.x0
            and self.x1 <= other.x1
            and other.y0 <= self.y0
            and self.y1 <= other.y1
        )


@dataclass(frozen=True, slots=True)
class TileBox:
    """One tile of the line on the picture.

    Attributes:
        placement: the engine's placement (tile, pips toward each end, seat, order).
        rect: where it is drawn.
        vertical: the long side runs top to bottom.
        first: pips drawn on the top (vertical) or left (horizontal) half.
        second: pips drawn on the bottom or right half.
    """

    placement: Placement
    rect: Rect
    vertical: bool
    first: int
    second: int

    def halves(self) -> tuple[tuple[float, float, int], tuple[float, float, int]]:
        """Centre and pips of each half: ``((x, y, first), (x, y, second))``."""
        r = self.rect
        if self.vertical:
            cx = (r.x0 + r.x1) / 2
            q = r.height / 4
            return (cx, r.y0 + q, self.first), (cx, r.y1 - q, self.second)
        cy = (r.y0 + r.y1) / 2
        q = r.width / 4
        return (r.x0 + q, cy, self.first), (r.x1 - q, cy, self.second)


@dataclass(frozen=True, slots=True)
class EndMark:
    """Where an open end's number is marked: the spot the next tile would take."""

    side: Side
    number: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class LineLayout:
    """The whole line laid out: tiles in line order (left end first) and the two ends."""

    tiles: tuple[TileBox, ...]
    ends: tuple[EndMark, ...]
    short: int
    area: Rect


def _arm(
    tiles: Sequence[Placement],
    area: Rect,
    short: int,
    gap: int,
    start_x: int,
    center_y: int,
    direction: int,
    turn: int,
    right_arm: bool,
) -> tuple[list[TileBox], tuple[int, int]]:
    """Lay one arm of the line outward from the opening tile.

    ``direction`` is +1 (rightward) or -1; ``turn`` is +1 (rows go down) or -1 (up).
    Returns the boxes in play order outward and the centre of the half where the next
    tile would touch this end.
    """
    s, long = short, 2 * short
    x, yc, d = start_x, center_y, direction
    boxes: list[TileBox] = []
    corner: Rect | None = None
    for p in tiles:
        # The half touching the previous tile, and the outer (open) half.
        touch, outer = (p.left, p.right) if right_arm else (p.right, p.left)
        double = p.tile.is_double
        length = s if double else long
        if corner is not None and double:
            # A double right after a corner stands beside it, not under it.
            x = corner.x0 - gap if d < 0 else corner.x1 + gap
        fits = (x + length <= area.x1 - s - gap) if d > 0 else (x - length >= area.x0 + s + gap)
        if fits:
            x0 = x if d > 0 else x - length
            if double:
                boxes.append(TileBox(p, Rect(x0, yc - s, x0 + s, yc + s), True, touch, outer))
            else:
                rect = Rect(x0, yc - s // 2, x0 + long, yc - s // 2 + s)
                first, second = (touch, outer) if d > 0 else (outer, touch)
                boxes.append(TileBox(p, rect, False, first, second))
            x += d * (length + gap)
            corner = None
            continue
        # Turn: the tile stands upright at the row's end, then the next row runs back.
        cx0 = x if d > 0 else x - s
        if turn > 0:
            rect = Rect(cx0, yc - s // 2, cx0 + s, yc - s // 2 + long)
            first, second = touch, outer
        else:
            rect = Rect(cx0, yc - s // 2 + s - long, cx0 + s, yc - s // 2 + s)
            first, second = outer, touch
        boxes.append(TileBox(p, rect, True, first, second))
        yc += turn * (long + gap)
        d = -d
        x = rect.x1 if d < 0 else rect.x0
        corner = rect
    return boxes, (x + d * s // 2, yc)


def _lay(line: Sequence[Placement], area: Rect, short: int) -> LineLayout:
    s = short
    gap = max(2, s // 12)
    cx = (area.x0 + area.x1) // 2
    cy = (area.y0 + area.y1) // 2
    k = next(i for i, p in enumerate(line) if p.order == 0)
    opener = line[k]
    if opener.tile.is_double:
        rect = Rect(cx - s // 2, cy - s, cx - s // 2 + s, cy + s)
        center = TileBox(opener, rect, True, opener.left, opener.right)
    else:
        rect = Rect(cx - s, cy - s // 2, cx + s, cy - s // 2 + s)
        center = TileBox(opener, rect, False, opener.left, opener.right)
    right, right_end = _arm(line[k + 1 :], area, s, gap, rect.x1 + gap, cy, 1, 1, True)
    left, left_end = _arm(line[:k][::-1], area, s, gap, rect.x0 - gap, cy, -1, -1, False)
    ends = (
        EndMark(Side.LEFT, line[0].left, left_end[0], left_end[1]),
        EndMark(Side.RIGHT, line[-1].right, right_end[0], right_end[1]),
    )
    return LineLayout((*left[::-1], center, *right), ends, s, area)


def fits(layout: LineLayout) -> bool:
    """True when every tile and end mark lies inside the layout's area."""
    area = layout.area
    r = layout.short // 2
    if not all(box.rect.inside(area) for box in layout.tiles):
        return False
    return all(
        area.x0 <= e.x - r and e.x + r <= area.x1 and area.y0 <= e.y - r and e.y + r <= area.y1
        for e in layout.ends
    )


def _centred(layout: LineLayout) -> LineLayout:
    """The same layout moved so the tiles and end marks sit in the middle of the area."""
    r = layout.short // 2
    xs = [b.rect.x0 for b in layout.tiles] + [e.x - r for e in layout.ends]
    xe = [b.rect.x1 for b in layout.tiles] + [e.x + r for e in layout.ends]
    ys = [b.rect.y0 for b in layout.tiles] + [e.y - r for e in layout.ends]
    ye = [b.rect.y1 for b in layout.tiles] + [e.y + r for e in layout.ends]
    area = layout.area
    dx = (area.x0 + area.x1 - min(xs) - max(xe)) // 2
    dy = (area.y0 + area.y1 - min(ys) - max(ye)) // 2
    if dx == 0 and dy == 0:
        return layout
    tiles = tuple(
        TileBox(
            b.placement,
            Rect(b.rect.x0 + dx, b.rect.y0 + dy, b.rect.x1 + dx, b.rect.y1 + dy),
            b.vertical,
            b.first,
            b.second,
        )
        for b in layout.tiles
    )
    ends = tuple(EndMark(e.side, e.number, e.x + dx, e.y + dy) for e in layout.ends)
    return LineLayout(tiles, ends, layout.short, area)


def layout_line(
    line: Sequence[Placement], area: Rect, sizes: Sequence[int] = TILE_SIZES
) -> LineLayout:
    """Lay ``line`` (left to right, as :attr:`PublicView.line`) out inside ``area``.

    Tries the short sides in ``sizes`` (pixels, even numbers) from the largest and keeps
    the first that fits, then centres the whole line (tiles and end marks) in the
    area. An empty line gives an empty layout.

    Raises:
        ValueError: the line does not fit even with the smallest tiles (the area is too
            small; never for a 28-tile line on the board's table area).
    """
    if not line:
        return LineLayout((), (), sizes[0], area)
    for short in sizes:
        layout = _lay(line, area, short)
        if fits(layout):
            return _centred(layout)
    raise ValueError(f"a line of {len(line)} tiles does not fit in {area}")
