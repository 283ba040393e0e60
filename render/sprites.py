"""Tile pictures drawn once and reused: faces per pip pair, orientation and look.

A face is drawn at 4x and scaled down (smooth dots and corners), then cached, so a board
only pastes ready sprites (the renderer's hot path). Dots follow the usual domino
patterns (:data:`PIP_SPOTS`), 0 to 9 for the double-six and double-nine sets; a
horizontal tile is the vertical one turned a quarter turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

__all__ = ["DIM", "FACE", "HIGHLIGHT", "PIP_SPOTS", "TILE_LOOKS", "back_sprite", "tile_sprite"]

FACE: Final = "face"
HIGHLIGHT: Final = "highlight"
DIM: Final = "dim"

_SCALE: Final = 4

PIP_SPOTS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
}
"""Where the dots of 0..9 sit in a half, as (column, row) on a 3x3 grid.

0 to 6 are the double-six set's patterns (6: two columns of three, along the tile's
long side). 7 to 9 are the patterns printed on the usual double-nine sets: 9 fills
the grid, three rows of three; 8 is the 9 without its centre dot (a ring of eight);
7 is the 6 with a centre dot. So every number is drawn as dots, never as a digit, and
7, 8 and 9 read as the 6 grown by one, two and three dots. All numbers use the same dot
(0.095 of the half's width, 0.26 apart): a 9 counts right at every tile size the
pictures use from 28 pixels up, shrunk to a phone's 400-pixel width.
"""

TILE_LOOKS: Final[
    dict[str, tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]]
] = {
    # face, edge, dots
    FACE: ((250, 248, 240), (120, 116, 108), (20, 20, 24)),
    HIGHLIGHT: ((255, 236, 150), (190, 140, 20), (20, 20, 24)),
    DIM: ((178, 178, 172), (110, 110, 104), (95, 95, 98)),
}


@lru_cache(maxsize=2048)
def _vertical(short: int, top: int, bottom: int, look: str) -> Image.Image:
    s = short * _SCALE
    w, h = s, 2 * s
    face, edge, dots = TILE_LOOKS[look]
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = int(s * 0.2)
    border = max(_SCALE, int(s * 0.045))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=edge)
    draw.rounded_rectangle(
        (border, border, w - 1 - border, h - 1 - border), radius=radius - border, fill=face
    )
    # The dividing bar and the brass pin.
    bar = max(_SCALE, int(s * 0.035))
    inset = int(s * 0.14)
    draw.rectangle((inset, s - bar, w - 1 - inset, s + bar), fill=edge)
    pin = int(s * 0.06)
    draw.ellipse((w // 2 - pin, s - pin, w // 2 + pin, s + pin), fill=(176, 141, 60))
    dot = s * 0.095
    for half, value in ((0, top), (1, bottom)):
        y0 = half * s
        for col, row in PIP_SPOTS[value]:
            cx = s * (0.24 + 0.26 * col)
            cy = y0 + s * (0.24 + 0.26 * row)
            draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=dots)
    return image.resize((short, 2 * short), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4096)
def tile_sprite(
    short: int, first: int, second: int, vertical: bool, look: str = FACE
) -> Image.Image:
    """A tile ``short`` pixels across and ``2 * short`` long, as an RGBA image.

    Args:
        short: the tile's short side in pixels.
        first: pips on the top half (vertical) or the left half (horizontal), 0..9.
        second: pips on the bottom (vertical) or right (horizontal) half, 0..9.
        vertical: the long side runs top to bottom.
        look: :data:`FACE`, :data:`HIGHLIGHT` (the last tile played) or :data:`DIM`
            (a tile that cannot be played now).
    """
    base = _vertical(short, first, second, look)
    if vertical:
        return base
    # A quarter turn counter-clockwise puts the top half on the left.
    return base.transpose(Image.Transpose.ROTATE_90)


@lru_cache(maxsize=64)
def back_sprite(short: int, color: tuple[int, int, int], vertical: bool = True) -> Image.Image:
    """The back of a tile (for the tiles a seat still holds), ``short`` x ``2 * short``."""
    s = short * _SCALE
    w, h = s, 2 * s
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = int(s * 0.22)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=(235, 232, 220))
    edge = max(_SCALE, int(s * 0.09))
    draw.rounded_rectangle(
        (edge, edge, w - 1 - edge, h - 1 - edge), radius=max(1, radius - edge), fill=color
    )
    image = image.resize((short, 2 * short), Image.Resampling.LANCZOS)
    return image if vertical else image.transpose(Image.Transpose.ROTATE_90)
