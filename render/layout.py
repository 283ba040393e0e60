"""Where each tile of the line goes: a snake that turns at the table's edges.

The opening tile sits in the middle of the table. Tiles played on the right end run
to the right, turn down at the edge and come back the other way, row after row; tiles
played on the left end run to the left and turn up (the same path turned half a turn).
A non-double lies along the line (``2 * short`` long), a double stands across it
(rules.md, "The line").

So that the path reads at a glance (issue 13, item 26): every tile touches the tile
before it edge to edge, on the halves that match (no gap, never only at a corner); a
row ends in a corner tile standing upright with its matching half beside the row, and
the line goes down a short column (a double lies across it) until the next row is at
least ``2 * short + short // 4`` away, centre to centre; a double that fills a row
turns the corner itself, and a row never starts with a double. So tiles of different
rows (and any two tiles that are not neighbours) stay a quarter of a tile apart.

:func:`layout_line` is pure geometry (no pixels), so tests check that tiles never
overlap, never leave the table, touch their neighbours on the matching halves and that
each played tile appears once. When the line does not fit at the preferred tile size it
is laid again with smaller tiles.
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


_Local = tuple[int, int, int, int]  # (u0, v0, u1, v1): u along the first row, v across


def _arm(
    tiles: Sequence[Placement], short: int, start: int, lo: int, hi: int, right_arm: bool
) -> tuple[list[tuple[_Local, bool, int, int, Placement]], tuple[int, int]]:
    """Lay one arm of the line outward from the opener, in the arm's own frame.

    The frame's ``u`` runs along the opener's row, away from the opener (rows alternate
    direction), ``v`` runs from that row to the next (rows go toward larger ``v``); the
    opener's row is at ``v = 0`` and the arm starts at ``u = start``. Rows stay inside
    ``lo <= u <= hi``. Returns, outward in play order, each tile's box, whether its long
    side runs along ``v``, the pips on its low-``u``/low-``v`` half and on the other half,
    and its placement; then the centre of the spot the next tile would take.

    How it reads (issue 13, item 26): every tile touches the one before it with the
    matching halves, edge to edge; a row ends with a corner that goes on to the next row
    through a short column; rows sit at least ``2 * short + short // 4`` apart (centre to
    centre), so a double of one row never touches a tile of the next; a double stands
    across a row, lies across a column, and never starts a row (it stays in the column
    and the row starts from its side).
    """
    s, h = short, short // 2
    reserve = s + h  # a corner column, with a double lying across it, at a row's end
    pitch = 2 * s + s // 4
    out: list[tuple[_Local, bool, int, int, Placement]] = []
    in_row, d, axis, cursor = True, 1, 0, start  # a row: direction, centre v, leading u
    column_u, column_v, row_from = 0, 0, 0  # a column: centre u, leading v, its row's v
    side_u = 0  # the u where a row would start from the column's last tile
    for p in tiles:
        # The half touching the previous tile, and the outer (open) half.
        touch, outer = (p.left, p.right) if right_arm else (p.right, p.left)
        double = p.tile.is_double
        if not in_row and not double and column_v - h >= row_from + pitch:
            in_row, d, axis, cursor = True, -d, column_v - h, side_u
        if in_row:
            length = s if double else 2 * s
            room = cursor + length <= hi - reserve if d > 0 else cursor - length >= lo + reserve
            u0 = cursor if d > 0 else cursor - length
            if room or double:
                if double:  # stands across the row; at the row's end it is the corner
                    out.append(((u0, axis - s, u0 + s, axis + s), True, touch, touch, p))
                else:
                    first, second = (touch, outer) if d > 0 else (outer, touch)
                    out.append(((u0, axis - h, u0 + 2 * s, axis + h), False, first, second, p))
                cursor += d * length
                # A double that leaves no room for the next tile turns the corner itself.
                full = cursor + 2 * s > hi - reserve if d > 0 else cursor - 2 * s < lo + reserve
                if double and full:
                    in_row, row_from = False, axis
                    column_u, column_v = u0 + h, axis + s
                    side_u = u0 + s if d < 0 else u0
                continue
            # The corner: upright at the row's end, its touching half beside the row.
            u0 = cursor if d > 0 else cursor - s
            out.append(((u0, axis - h, u0 + s, axis + h + s), True, touch, outer, p))
            in_row, row_from = False, axis
            column_u, column_v = u0 + h, axis + h + s
            side_u = u0 + s if d < 0 else u0
            continue
        # In a column: a tile goes on down; a double lies across it.
        if double:
            box = (column_u - s, column_v, column_u + s, column_v + s)
            out.append((box, False, touch, touch, p))
            column_v += s
        else:
            box = (column_u - h, column_v, column_u + h, column_v + 2 * s)
            out.append((box, True, touch, outer, p))
            column_v += 2 * s
        side_u = box[2] if d < 0 else box[0]
    if in_row:
        return out, (cursor + d * h, axis)
    if column_v - h >= row_from + pitch:
        return out, (side_u - d * h, column_v - h)
    return out, (column_u, column_v + h)


def _lay(line: Sequence[Placement], area: Rect, short: int) -> LineLayout:
    """The line at tile size ``short``, rows around ``y = 0`` (centred afterwards)."""
    s = short
    cx = (area.x0 + area.x1) // 2
    k = next(i for i, p in enumerate(line) if p.order == 0)
    opener = line[k]
    if opener.tile.is_double:
        rect = Rect(cx - s // 2, -s, cx - s // 2 + s, s)
        center = TileBox(opener, rect, True, opener.left, opener.right)
    else:
        rect = Rect(cx - s, -s // 2, cx + s, s // 2)
        center = TileBox(opener, rect, False, opener.left, opener.right)
    # The right arm's frame is the picture's; the left arm's is the picture turned half
    # a turn about (cx, 0), so one routine lays both and the two arms mirror each other.
    right, right_end = _arm(line[k + 1 :], s, rect.x1, area.x0, area.x1, True)
    left, left_end = _arm(
        line[:k][::-1], s, 2 * cx - rect.x0, 2 * cx - area.x1, 2 * cx - area.x0, False
    )
    right_boxes = [TileBox(p, Rect(*box), vertical, a, b) for box, vertical, a, b, p in right]
    left_boxes = [
        TileBox(p, Rect(2 * cx - u1, -v1, 2 * cx - u0, -v0), vertical, b, a)
        for (u0, v0, u1, v1), vertical, a, b, p in left
    ]
    ends = (
        EndMark(Side.LEFT, line[0].left, 2 * cx - left_end[0], -left_end[1]),
        EndMark(Side.RIGHT, line[-1].right, right_end[0], right_end[1]),
    )
    return _centred(LineLayout((*left_boxes[::-1], center, *right_boxes), ends, s, area))


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
            return layout
    raise ValueError(f"a line of {len(line)} tiles does not fit in {area}")
