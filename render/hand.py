"""One player's picture of their own tiles, and the labels of their move buttons.

Size: 960 x 380 pixels for up to seven tiles, a wide strip that sits above the buttons
in a private chat and fills a phone's width; tiles stand upright at 64 x 128 pixels
(seven in a row), so they stay readable at a third of the size, and no text is smaller
than :data:`render.canvas.MIN_TEXT_SIZE`. A hand that grew by drawing from the boneyard
(a one-against-one hand can reach 21 tiles) wraps into rows of at most seven tiles of
the same size, as even as they come (8 tiles: two rows of four; 21: three of seven),
and the picture grows :data:`ROW_PITCH` pixels taller per extra row (:func:`hand_size`;
21 tiles: 960 x 892, under Telegram's 1280). Tiles are sorted (high half first); when
it is the player's turn the tiles that fit are lifted and ringed in gold, with the same
label under them as on their buttons (:func:`move_labels`), and the rest are dimmed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from engine.moves import Move, Side
from engine.tiles import Tile
from engine.views import SeatView
from render.canvas import (
    BACKGROUND,
    GOLD,
    INK,
    LABEL_SIZE,
    MUTED,
    SIDE_COLORS,
    WHITE,
    draw_text,
    encode_png,
    pill,
)
from render.facts import TableFacts, check_facts
from render.sprites import DIM, FACE, tile_sprite
from render.strings import text
from render.text import clean_name, fit_text, text_width

__all__ = [
    "HAND_SIZE",
    "PER_ROW",
    "ROW_PITCH",
    "TILE_SHORT",
    "hand_image",
    "hand_png",
    "hand_size",
    "move_labels",
    "tile_boxes",
]

HAND_SIZE: Final = (960, 380)
"""The picture's size for a hand of up to :data:`PER_ROW` tiles (one row)."""
TILE_SHORT: Final = 64
"""The short side of the hand's tiles, in pixels (a tile is twice as tall)."""
_PITCH: Final = 130
_TOP: Final = 124
_LIFT: Final = 14
_LABEL_HEIGHT: Final = 36
PER_ROW: Final = 7
"""The most tiles in one row of the hand picture."""
ROW_PITCH: Final = _LIFT + 2 * TILE_SHORT + 10 + 2 * (_LABEL_HEIGHT + 6) + 20
"""From one row of tiles to the next, in pixels (256): a lifted tile, two labels under
it, and 20 pixels between the second label and the gold ring of a lifted tile below."""


def move_labels(view: SeatView, language: str = "es") -> list[tuple[Move, str]]:
    """Each legal move of the seat with its button label, in the engine's move order.

    A tile is labelled ``"6-4"``; a tile that fits both ends differently gets two
    buttons, ``"6-4 izq."`` and ``"6-4 der."`` (English: ``"6-4 left"``/``"6-4 right"``);
    a pass is ``"Paso"`` (``"Pass"``), a draw from the boneyard ``"Robar"`` (``"Draw"``). Empty when it is not the seat's turn. The hand
    picture shows the same labels under the tiles.
    """
    moves = view.legal_moves()
    sides: dict[Tile, int] = {}
    for move in moves:
        if move.tile is not None:
            sides[move.tile] = sides.get(move.tile, 0) + 1
    labels: list[tuple[Move, str]] = []
    for move in moves:
        if move.draw:
            labels.append((move, text(language, "draw")))
        elif move.tile is None:
            labels.append((move, text(language, "pass")))
        elif sides[move.tile] > 1 and move.side is not None:
            key = "left" if move.side is Side.LEFT else "right"
            labels.append((move, f"{move.tile} {text(language, key)}"))
        else:
            labels.append((move, str(move.tile)))
    return labels


def _rows(count: int) -> list[int]:
    """How many tiles each row holds: at most :data:`PER_ROW`, as even as they come,
    the longer rows first."""
    rows = max(1, -(-count // PER_ROW))
    base, extra = divmod(count, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


def hand_size(count: int) -> tuple[int, int]:
    """The hand picture's size for ``count`` tiles: :data:`HAND_SIZE` for up to
    :data:`PER_ROW` tiles, then :data:`ROW_PITCH` pixels taller per extra row."""
    return HAND_SIZE[0], HAND_SIZE[1] + (len(_rows(count)) - 1) * ROW_PITCH


def tile_boxes(count: int) -> list[tuple[int, int]]:
    """Top-left corners of ``count`` upright tiles (no lift), row by row, left to right;
    each row centred in the picture, rows :data:`ROW_PITCH` apart."""
    boxes: list[tuple[int, int]] = []
    for row, length in enumerate(_rows(count)):
        x = (HAND_SIZE[0] - length * _PITCH) // 2 + (_PITCH - TILE_SHORT) // 2
        y = _TOP + row * ROW_PITCH
        boxes.extend((x + i * _PITCH, y) for i in range(length))
    return boxes


@lru_cache(maxsize=4)
def _background(size: tuple[int, int]) -> Image.Image:
    return Image.new("RGB", size, BACKGROUND)


def _sorted_tiles(tiles: tuple[Tile, ...]) -> list[Tile]:
    return sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)


def hand_image(view: SeatView, facts: TableFacts) -> Image.Image:
    """The hand picture as a Pillow image (RGB, :func:`hand_size` of its tile count)."""
    lang = facts.language
    size = hand_size(len(view.tiles))
    image = _background(size).copy()
    draw = ImageDraw.Draw(image)
    seat = view.seat
    # Header: whose tiles (in their side's colour), whose turn, the open ends.
    draw.rounded_rectangle((12, 12, 20, 80), radius=3, fill=SIDE_COLORS[facts.side_of(seat)])
    name = clean_name(facts.seats[seat].name, text(lang, "seat", n=seat + 1))
    draw_text(image, 32, 6, text(lang, "your_tiles"), LABEL_SIZE, color=MUTED)
    draw_text(image, 32, 40, name, 30, bold=True, max_width=400, ltr=False)
    if view.outcome is not None:
        status, status_color = text(lang, "hand_over"), MUTED
    elif view.is_my_turn:
        status = text(lang, "your_turn")
        if facts.seconds_left is not None:
            status += " · " + text(lang, "seconds", n=max(0, facts.seconds_left))
        status_color = GOLD
    else:
        other = fit_text(clean_name(facts.seats[view.turn].name, "?"), LABEL_SIZE, True, 300)
        status, status_color = text(lang, "turn_of", name=other), MUTED
    if view.ends is not None:
        left, right = view.ends
        x = 944
        for label, number in ((text(lang, "right"), right), (text(lang, "left"), left)):
            draw.ellipse((x - 40, 6, x, 46), fill=WHITE, outline=GOLD, width=3)
            draw_text(image, x - 20, 9, str(number), LABEL_SIZE, bold=True, color=INK, anchor="m")
            x -= 48
            x -= draw_text(image, x, 9, label, LABEL_SIZE, color=MUTED, anchor="r") + 16
        draw_text(image, x, 9, text(lang, "ends") + ":", LABEL_SIZE, color=MUTED, anchor="r")
    if view.is_my_turn:
        w = int(text_width(status, LABEL_SIZE, True)) + 28
        pill(draw, (944 - w, 56, 944, 94), GOLD)
        draw_text(image, 944 - w + 14, 59, status, LABEL_SIZE, bold=True, color=INK)
    else:
        draw_text(image, 944, 59, status, LABEL_SIZE, bold=True, color=status_color, anchor="r")

    labels = move_labels(view, lang)
    by_tile: dict[Tile, list[str]] = {}
    for move, label in labels:
        if move.tile is not None:
            by_tile.setdefault(move.tile, []).append(label)
    tiles = _sorted_tiles(view.tiles)
    my_turn = view.is_my_turn
    for tile, (x, top) in zip(tiles, tile_boxes(len(tiles)), strict=True):
        y = top
        playable = tile in by_tile
        look = FACE if (playable or not my_turn) else DIM
        if playable:
            y -= _LIFT
            draw.rounded_rectangle(
                (x - 5, y - 5, x + TILE_SHORT + 4, y + 2 * TILE_SHORT + 4), radius=18, fill=GOLD
            )
        sprite = tile_sprite(TILE_SHORT, tile.high, tile.low, True, look)
        image.paste(sprite, (x, y), sprite)
        cx = x + TILE_SHORT // 2
        for i, label in enumerate(by_tile.get(tile, [])):
            ly = top + 2 * TILE_SHORT + 10 + i * (_LABEL_HEIGHT + 6)
            # Bold when it fits under the tile, else the narrower regular face.
            bold = text_width(label, LABEL_SIZE, True) + 12 <= _PITCH - 2
            w = min(_PITCH - 2, int(text_width(label, LABEL_SIZE, bold)) + 20)
            pill(draw, (cx - w // 2, ly, cx + w // 2, ly + _LABEL_HEIGHT), GOLD)
            draw_text(
                image,
                cx,
                ly + 2,
                label,
                LABEL_SIZE,
                bold=bold,
                color=INK,
                anchor="m",
                max_width=w - 8,
            )
    if not tiles:
        draw_text(
            image,
            HAND_SIZE[0] // 2,
            170,
            text(lang, "no_tiles"),
            30,
            bold=True,
            color=MUTED,
            anchor="m",
        )
    if labels and labels[0][0].tile is None:
        # Nothing fits: say so, and show the one button's label.
        message = text(lang, "must_pass")
        label = labels[0][1]
        m = int(text_width(message, LABEL_SIZE, True))
        w = int(text_width(label, LABEL_SIZE, True)) + 40
        x = (HAND_SIZE[0] - (m + 18 + w)) // 2
        y = size[1] - 70  # under the last row
        draw_text(image, x, y, message, LABEL_SIZE, bold=True, color=WHITE)
        pill(draw, (x + m + 18, y - 6, x + m + 18 + w, y + 34), GOLD)
        draw_text(
            image, x + m + 18 + w // 2, y, label, LABEL_SIZE, bold=True, color=INK, anchor="m"
        )
    return image


def hand_png(view: SeatView, facts: TableFacts) -> bytes:
    """One seat's tiles as PNG bytes (960 x 380; taller for more than seven tiles, see
    :func:`hand_size`), for that player only.

    Takes the seat's own view (its tiles and the public table), never the full hand.
    Same view and facts, same bytes.

    Raises:
        TypeError: ``view`` is not a seat's view (e.g. the public view or a Match).
        ValueError: the facts' seats or partnership do not match the view's rules.
    """
    if not isinstance(view, SeatView):
        raise TypeError(f"hand_png draws a SeatView, not {type(view).__name__}")
    check_facts(facts, view.rules)
    return encode_png(hand_image(view, facts))
