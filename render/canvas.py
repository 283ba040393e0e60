"""Drawing helpers shared by the pictures: colours, text placement, PNG encoding."""

from __future__ import annotations

import io
from typing import Final, Literal

from PIL import Image, ImageDraw

from render.text import fit_text, text_sprite

__all__ = [
    "BACKGROUND",
    "GOLD",
    "INK",
    "LABEL_SIZE",
    "MIN_TEXT_SIZE",
    "MUTED",
    "PANEL",
    "PHONE_WIDTH",
    "SHADOW",
    "SIDE_COLORS",
    "SIDE_DARK",
    "TABLE",
    "TEAM_COLORS",
    "TEAM_DARK",
    "WHITE",
    "Color",
    "draw_text",
    "encode_png",
    "pill",
    "rgba",
]

Color = tuple[int, int, int]

BACKGROUND: Final[Color] = (18, 78, 52)
TABLE: Final[Color] = (26, 104, 68)
TABLE_EDGE: Final[Color] = (14, 62, 41)
SHADOW: Final[Color] = (16, 70, 45)
PANEL: Final[Color] = (12, 48, 33)
WHITE: Final[Color] = (246, 246, 240)
MUTED: Final[Color] = (168, 198, 180)
INK: Final[Color] = (28, 28, 32)
GOLD: Final[Color] = (255, 200, 40)
PASS_RED: Final[Color] = (214, 64, 52)
TEAM_COLORS: Final[tuple[Color, Color]] = ((70, 140, 250), (240, 96, 72))
TEAM_DARK: Final[tuple[Color, Color]] = ((28, 62, 120), (118, 40, 30))
SIDE_COLORS: Final[tuple[Color, Color, Color, Color]] = (
    *TEAM_COLORS,
    (184, 118, 240),
    (40, 196, 184),
)
"""A colour per side: the two partnerships' (blue, red), then, in individual play,
seats 2 and 3 (violet, teal): no side wears gold, the colour of the turn."""
SIDE_DARK: Final[tuple[Color, Color, Color, Color]] = (*TEAM_DARK, (84, 46, 120), (16, 92, 86))
"""The tile backs' colour per side (as :data:`SIDE_COLORS`)."""

MIN_TEXT_SIZE: Final = 27
"""The smallest text any picture draws, in pixels (the font size, DejaVu's em).

Every picture is 960 pixels wide and a phone shows it about :data:`PHONE_WIDTH` (400)
pixels wide, so text shrinks to 400/960 of its size: 27 pixels become 11.25, the
smallest size a phone's own interface uses for a label (issue 13, item 27). Labels,
chips, tags and notes are drawn at this size; names and numbers larger.
"""
PHONE_WIDTH: Final = 400
"""About how wide a phone shows a chat picture, in points (Telegram and Discord)."""
LABEL_SIZE: Final = MIN_TEXT_SIZE

Anchor = Literal["l", "m", "r"]


def rgba(color: Color, alpha: int = 255) -> tuple[int, int, int, int]:
    return (color[0], color[1], color[2], alpha)


def draw_text(
    image: Image.Image,
    x: int,
    y: int,
    text: str,
    size: int,
    *,
    bold: bool = False,
    color: Color = WHITE,
    anchor: Anchor = "l",
    max_width: int | None = None,
    ltr: bool = True,
) -> int:
    """Paste ``text`` with its top at ``y``; ``x`` is its left, middle or right.

    The text is shortened with "…" to ``max_width`` pixels when given. Returns the
    drawn width in pixels. ``ltr`` sets a left-to-right sentence (Spanish or English
    text with a name inside); a bare name keeps its own direction.
    """
    if max_width is not None:
        text = fit_text(text, size, bold, max_width)
    sprite = text_sprite(text, size, bold, rgba(color), ltr)
    w = sprite.width
    left = x if anchor == "l" else (x - w // 2 if anchor == "m" else x - w)
    image.paste(sprite, (max(0, left), max(0, y)), sprite)
    return w


def pill(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    fill: Color,
    outline: Color | None = None,
    width: int = 1,
) -> None:
    """A rounded box (radius half its height)."""
    radius = (box[3] - box[1]) // 2
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def encode_png(image: Image.Image) -> bytes:
    """The picture as PNG bytes: 256 colours, fast zlib level; same image, same bytes.

    Our pictures hold a few flat colours and their anti-aliased edges, so a 256-colour
    palette (fast octree, no dithering) looks the same, and the PNG is a third of the
    RGB one's size and encodes in half the time (bench/render.py).
    """
    buffer = io.BytesIO()
    if image.mode != "RGB":
        image = image.convert("RGB")
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
