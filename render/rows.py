"""Rows of a ranked list: medals, right-aligned cells and column widths.

Shared by the leaderboard (:mod:`render.standings`) and the tournament standings
(:mod:`render.tournament`), so both lists wear the same medals and fit their numbers
the same way.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from render.canvas import GOLD, INK, LABEL_SIZE, MIN_TEXT_SIZE, MUTED, PANEL, Color, draw_text
from render.text import fit_text, text_width
from render.typeset import text_top

__all__ = [
    "BRONZE",
    "GREEN",
    "HIGHLIGHT_FILL",
    "MEDALS",
    "SILVER",
    "column_width",
    "draw_cell",
    "draw_rank",
    "fitting_size",
    "row_panel",
]

GREEN: Final[Color] = (96, 214, 120)  # the results picture's "+$10" green
SILVER: Final[Color] = (206, 212, 218)
BRONZE: Final[Color] = (214, 142, 84)
MEDALS: Final[tuple[Color, Color, Color]] = (GOLD, SILVER, BRONZE)
HIGHLIGHT_FILL: Final[Color] = (34, 96, 66)
_ROW_RADIUS: Final = 14


def fitting_size(text: str, size: int, bold: bool, width: int) -> int:
    """``size`` when ``text`` fits ``width`` pixels at it, else the smallest size (a
    long number is better smaller than cut)."""
    return size if text_width(text, size, bold) <= width else MIN_TEXT_SIZE


def column_width(
    header: str, cells: list[str], size: int, bold: bool, cap: int, extra: list[int] | None = None
) -> int:
    """As wide as the header (at :data:`render.canvas.LABEL_SIZE`) or the widest cell
    (plus its ``extra`` pixels), at most ``cap``, in pixels."""
    extra = extra or [0] * len(cells)
    widths = [text_width(header, LABEL_SIZE)] + [
        text_width(c, size, bold) + e for c, e in zip(cells, extra, strict=True)
    ]
    return min(cap, int(max(widths)) + 2)


def draw_cell(
    image: Image.Image,
    right: int,
    center: int,
    text: str,
    size: int,
    *,
    bold: bool,
    color: Color,
    width: int,
) -> int:
    """A right-aligned cell centred on ``center``: smaller when too wide, then cut with
    "…"; returns its drawn width in pixels."""
    size = fitting_size(text, size, bold, width)
    top = text_top(center, size, bold)
    return draw_text(
        image, right, top, text, size, bold=bold, color=color, anchor="r", max_width=max(1, width)
    )


def draw_rank(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    rank: int,
    center: tuple[int, int],
    *,
    size: int,
    width: int,
    radius: int,
) -> None:
    """The position centred on ``center`` (x, y): a medal ``radius`` pixels round (gold,
    silver, bronze) for 1-3, a plain muted number after; a number wider than ``width``
    pixels is drawn smaller, then cut."""
    x, y = center
    label = str(rank)
    size = fitting_size(label, size, True, width)
    label = fit_text(label, size, True, width)
    top = text_top(y, size, True)
    if 1 <= rank <= 3:
        draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=MEDALS[rank - 1],
            outline=INK,
            width=2,
        )
        draw_text(image, x, top, label, size, bold=True, color=INK, anchor="m")
    else:
        draw_text(image, x, top, label, size, bold=True, color=MUTED, anchor="m")


def row_panel(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], *, highlight: bool = False
) -> None:
    """A row's rounded panel; a highlighted row (the player who asked) is outlined in
    gold over a lighter green."""
    if highlight:
        draw.rounded_rectangle(box, radius=_ROW_RADIUS, fill=HIGHLIGHT_FILL, outline=GOLD, width=3)
    else:
        draw.rounded_rectangle(box, radius=_ROW_RADIUS, fill=PANEL)
