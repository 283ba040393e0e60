"""A player's profile picture: name, rating, statistics and the rating's history.

Size: 960 pixels wide, the width of every other picture; :func:`profile_size` gives the
height, which grows with the rows of statistics (two to a row, at most
:data:`MAX_STATS`) and the notes under the chart (at most :data:`MAX_NOTES`). No text
is smaller than :data:`render.canvas.MIN_TEXT_SIZE`.

Every word is the caller's: the presentation layer phrases the headline, the labels and
values, the chart's caption and the notes in the reader's language; this module lays
them out. The only text it writes itself is the chart's numbers (lowest, highest and
last rating), grouped with :attr:`ProfileFacts.thousands` ("1.532" in Spanish).

The chart is a small line chart of ``history`` (oldest first, 2 to 200 points): a light
grid, the lowest and highest value on the left, the line in gold over a faint fill, and
the last value marked with a dot and a gold label on the right. It is drawn at three
times the size and scaled down, so the line is smooth; flat histories sit in the middle
and a single huge jump still fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from render.canvas import (
    BACKGROUND,
    GOLD,
    INK,
    LABEL_SIZE,
    MUTED,
    PANEL,
    Color,
    draw_text,
    encode_png,
    pill,
)
from render.text import clean_name, clusters, text_width, wrap_text
from render.typeset import fit_keeping_tail, sentence, text_top

__all__ = [
    "MAX_HISTORY",
    "MAX_NOTES",
    "MAX_STATS",
    "ProfileFacts",
    "chart_points",
    "format_number",
    "profile_image",
    "profile_png",
    "profile_size",
]

WIDTH: Final = 960
MAX_STATS: Final = 10
MAX_NOTES: Final = 4
MAX_HISTORY: Final = 200

_LEFT: Final = 20
_RIGHT: Final = 940
_NAME_SIZE: Final = 42
_HEADLINE_SIZE: Final = 30
_STAT_VALUE_SIZE: Final = 34
_AVATAR: Final = 88
_STATS_Y: Final = 132
_STAT_W: Final = 450
_STAT_H: Final = 92
_STAT_STEP: Final = 104
_CHART_H: Final = 320
_NOTE_H: Final = 56
_NOTE_STEP: Final = 64
_SCALE: Final = 3  # the chart is drawn this many times larger, then scaled down

GRID: Final[Color] = (34, 84, 60)
FILL: Final[Color] = (52, 74, 38)  # a faint gold over the panel, under the line
_MINUS: Final = "\u2212"


@dataclass(frozen=True, slots=True)
class ProfileFacts:
    """Everything a profile shows, phrased by the caller."""

    name: str
    """The player's name, any Unicode (drawn large; shortened with "…")."""
    headline: str
    """"1.532 · #3 en este grupo" or "1.032 (provisional)"."""
    stats: tuple[tuple[str, str], ...]
    """(label, value) pairs, up to :data:`MAX_STATS`, two to a row: ("Partidas", "48"),
    ("Ganadas", "27 (56 %)"), ("Capicúas", "2"), ("Racha", "3 ganadas")."""
    history: tuple[int, ...]
    """The displayed rating after each rated match, oldest first (at most
    :data:`MAX_HISTORY`: only the last ones are drawn); fewer than two points draw
    ``history_empty`` instead."""
    history_label: str
    """The chart's caption: "Rating en las últimas 40 partidas"."""
    history_empty: str = ""
    """Said in the chart's place when there is no line: "Aún no hay partidas puntuadas"."""
    notes: tuple[tuple[str, str], ...] = ()
    """(label, value) lines under the chart, up to :data:`MAX_NOTES`: ("Mejor pareja",
    "Luis · 7-2"), ("Rival más frecuente", "Ana · 3-5")."""
    provisional: bool = False
    """The rating is provisional: the headline and the chart's last value are muted."""
    thousands: str = "."
    """The thousands separator of the chart's numbers ("." Spanish, "," English, "" none)."""


def format_number(n: int, thousands: str = ".") -> str:
    """``n`` with its thousands grouped by ``thousands`` and a true minus: "1.532",
    "−40"."""
    digits = f"{abs(n):,}".replace(",", thousands)
    return f"{_MINUS}{digits}" if n < 0 else digits


def profile_size(facts: ProfileFacts) -> tuple[int, int]:
    """The picture's size for ``facts``: 960 wide, as tall as its rows need."""
    stat_rows = (min(len(facts.stats), MAX_STATS) + 1) // 2
    notes = min(len(facts.notes), MAX_NOTES)
    return WIDTH, _chart_top(stat_rows) + _CHART_H + 16 + notes * _NOTE_STEP + 12


def _chart_top(stat_rows: int) -> int:
    """Where the chart's caption goes (the panel starts 40 pixels lower)."""
    return _STATS_Y + stat_rows * _STAT_STEP + 8


@lru_cache(maxsize=8)
def _background(size: tuple[int, int]) -> Image.Image:
    return Image.new("RGB", size, BACKGROUND)


def _initial(name: str) -> str:
    """The first user-perceived character of ``name``, upper case when it has one."""
    parts = clusters(name)
    first = parts[0] if parts else "?"
    upper = first.upper()
    return upper if len(clusters(upper)) == 1 else first


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, facts: ProfileFacts) -> None:
    """A gold disc with the name's initial, the name and the headline beside it."""
    name = clean_name(facts.name)
    top = 18
    draw.ellipse((_LEFT, top, _LEFT + _AVATAR, top + _AVATAR), fill=GOLD)
    draw_text(
        image,
        _LEFT + _AVATAR // 2,
        text_top(top + _AVATAR // 2, 44, True),
        _initial(name),
        44,
        bold=True,
        color=INK,
        anchor="m",
        ltr=False,
    )
    x = _LEFT + _AVATAR + 20
    room = _RIGHT - x
    draw_text(image, x, 14, name, _NAME_SIZE, bold=True, max_width=room, ltr=False)
    headline = sentence(facts.headline)
    color = MUTED if facts.provisional else GOLD
    draw_text(image, x, 70, headline, _HEADLINE_SIZE, bold=True, color=color, max_width=room)


def _stats(
    image: Image.Image, draw: ImageDraw.ImageDraw, stats: tuple[tuple[str, str], ...]
) -> None:
    """Cards two to a row: the label small and muted, the value large under it."""
    for i, (label, value) in enumerate(stats):
        row, col = divmod(i, 2)
        x0 = _LEFT + col * (_STAT_W + 20)
        y0 = _STATS_Y + row * _STAT_STEP
        draw.rounded_rectangle((x0, y0, x0 + _STAT_W, y0 + _STAT_H), radius=16, fill=PANEL)
        room = _STAT_W - 40
        draw_text(image, x0 + 20, y0 + 8, sentence(label), LABEL_SIZE, color=MUTED, max_width=room)
        draw_text(
            image,
            x0 + 20,
            y0 + 42,
            sentence(value),
            _STAT_VALUE_SIZE,
            bold=True,
            max_width=room,
        )


def chart_points(
    history: tuple[int, ...], box: tuple[int, int, int, int]
) -> list[tuple[float, float]]:
    """Where each rating of ``history`` goes in ``box`` (left, top, right, bottom):
    evenly spread from left to right, the lowest value on the bottom edge and the highest
    on the top one; a flat history runs along the middle."""
    left, top, right, bottom = box
    lo, hi = min(history), max(history)
    n = len(history)
    step = (right - left) / (n - 1) if n > 1 else 0.0
    points = []
    for i, v in enumerate(history):
        y = (top + bottom) / 2 if hi == lo else bottom - (v - lo) * (bottom - top) / (hi - lo)
        points.append((left + i * step, y))
    return points


def _plot_box(
    panel: tuple[int, int, int, int], axis_w: int, last_w: int
) -> tuple[int, int, int, int]:
    """The line's area inside the chart panel: room on the left for the axis labels and
    on the right for the last value's label."""
    x0, y0, x1, y1 = panel
    return (x0 + 24 + axis_w + 16, y0 + 34, x1 - 24 - last_w - 18, y1 - 34)


def _chart(image: Image.Image, draw: ImageDraw.ImageDraw, facts: ProfileFacts, top: int) -> None:
    """The caption, then the panel with the line (or the ``history_empty`` text)."""
    caption = sentence(facts.history_label)
    draw_text(image, _LEFT, top, caption, LABEL_SIZE, color=MUTED, max_width=_RIGHT - _LEFT)
    panel = (_LEFT, top + 40, _RIGHT, top + 40 + _CHART_H - 40)
    history = facts.history[-MAX_HISTORY:]
    if len(history) < 2:
        draw.rounded_rectangle(panel, radius=18, fill=PANEL)
        empty = sentence(facts.history_empty)
        lines = wrap_text(empty, 30, True, panel[2] - panel[0] - 80, 2) if empty else []
        mid = (panel[1] + panel[3]) // 2
        y = mid - len(lines) * 40 // 2
        for i, line in enumerate(lines):
            draw_text(image, 480, y + i * 40, line, 30, bold=True, color=MUTED, anchor="m")
        return
    t = facts.thousands
    lo, hi, last = min(history), max(history), history[-1]
    lo_text, hi_text, last_text = (format_number(v, t) for v in (lo, hi, last))
    axis_w = min(
        200, int(max(text_width(lo_text, LABEL_SIZE), text_width(hi_text, LABEL_SIZE))) + 4
    )
    last_w = min(200, int(text_width(last_text, 30, True))) + 28
    box = _plot_box(panel, axis_w, last_w)
    flat = lo == hi
    _line_layer(image, panel, box, history)
    # Axis labels: the highest at the top grid line, the lowest at the bottom one (one
    # label in the middle for a flat line).
    label_right = box[0] - 16
    if flat:
        mid = (box[1] + box[3]) // 2
        draw_text(
            image,
            label_right,
            text_top(mid, LABEL_SIZE),
            lo_text,
            LABEL_SIZE,
            color=MUTED,
            anchor="r",
            max_width=axis_w,
        )
    else:
        for value_text, y in ((hi_text, box[1]), (lo_text, box[3])):
            draw_text(
                image,
                label_right,
                text_top(y, LABEL_SIZE),
                value_text,
                LABEL_SIZE,
                color=MUTED,
                anchor="r",
                max_width=axis_w,
            )
    # The last value: a pill level with the line's end, clamped inside the panel.
    _, end_y = chart_points(history, box)[-1]
    height = 42
    center = round(end_y)
    center = max(panel[1] + 12 + height // 2, min(panel[3] - 12 - height // 2, center))
    x0 = box[2] + 18
    color = MUTED if facts.provisional else GOLD
    pill(draw, (x0, center - height // 2, x0 + last_w, center + height // 2), fill=color)
    draw_text(
        image,
        x0 + last_w // 2,
        text_top(center, 30, True),
        last_text,
        30,
        bold=True,
        color=INK,
        anchor="m",
        max_width=last_w - 20,
    )


def _line_layer(
    image: Image.Image,
    panel: tuple[int, int, int, int],
    box: tuple[int, int, int, int],
    history: tuple[int, ...],
) -> None:
    """The panel, grid, fill, line and end dot, drawn at :data:`_SCALE` times the size
    and scaled down into ``image`` (smooth edges; same input, same pixels)."""
    s = _SCALE
    px0, py0, px1, py1 = panel
    w, h = px1 - px0, py1 - py0
    layer = Image.new("RGB", (w * s, h * s), BACKGROUND)
    draw = ImageDraw.Draw(layer)
    draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=18 * s, fill=PANEL)
    bx0, by0, bx1, by1 = (
        (box[0] - px0) * s,
        (box[1] - py0) * s,
        (box[2] - px0) * s,
        (box[3] - py0) * s,
    )
    for k in range(5):  # a light grid: four bands between the lowest and the highest
        grid_y = by0 + (by1 - by0) * k // 4
        draw.line((bx0, grid_y, bx1, grid_y), fill=GRID, width=2 * s)
    points = chart_points(history, (bx0, by0, bx1, by1))
    draw.polygon([(bx0, by1), *points, (bx1, by1)], fill=FILL)
    draw.line(points, fill=GOLD, width=4 * s, joint="curve")
    for x, y, r in (*points[0], 2 * s), (*points[-1], 2 * s), (*points[-1], 9 * s):
        # round the line's ends, then the dot on the last value
        edge = PANEL if r > 2 * s else None
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=edge, width=3 * s)
    small = layer.resize((w, h), Image.Resampling.BOX)
    image.paste(small, (px0, py0))


def _notes(
    image: Image.Image, draw: ImageDraw.ImageDraw, notes: tuple[tuple[str, str], ...], top: int
) -> None:
    """One row per note: the label muted on the left, the value bold on the right."""
    for i, (label, value) in enumerate(notes):
        y0 = top + i * _NOTE_STEP
        draw.rounded_rectangle((_LEFT, y0, _RIGHT, y0 + _NOTE_H), radius=14, fill=PANEL)
        center = y0 + _NOTE_H // 2
        label = sentence(label)
        value = sentence(value)
        inner = _RIGHT - _LEFT - 40
        label_w = min(int(text_width(label, LABEL_SIZE)) + 2, 380)
        value_room = inner - label_w - 24
        value = fit_keeping_tail(value, 30, True, value_room)
        value_w = draw_text(
            image,
            _RIGHT - 20,
            text_top(center, 30, True),
            value,
            30,
            bold=True,
            anchor="r",
            max_width=value_room,
        )
        draw_text(
            image,
            _LEFT + 20,
            text_top(center, LABEL_SIZE),
            label,
            LABEL_SIZE,
            color=MUTED,
            max_width=inner - value_w - 24,
        )


def profile_image(facts: ProfileFacts) -> Image.Image:
    """The profile as a Pillow image (RGB, :func:`profile_size`).

    Raises:
        TypeError: ``facts`` is not a :class:`ProfileFacts`.
        ValueError: more than :data:`MAX_STATS` statistics or :data:`MAX_NOTES` notes.
    """
    if not isinstance(facts, ProfileFacts):
        raise TypeError(f"profile_png draws ProfileFacts, not {type(facts).__name__}")
    if len(facts.stats) > MAX_STATS:
        raise ValueError(f"a profile shows at most {MAX_STATS} statistics, not {len(facts.stats)}")
    if len(facts.notes) > MAX_NOTES:
        raise ValueError(f"a profile shows at most {MAX_NOTES} notes, not {len(facts.notes)}")
    size = profile_size(facts)
    image = _background(size).copy()
    draw = ImageDraw.Draw(image)
    _header(image, draw, facts)
    _stats(image, draw, facts.stats)
    top = _chart_top((len(facts.stats) + 1) // 2)
    _chart(image, draw, facts, top)
    _notes(image, draw, facts.notes, top + _CHART_H + 16)
    return image


def profile_png(facts: ProfileFacts) -> bytes:
    """The profile picture as PNG bytes (960 wide, :func:`profile_size` tall); same
    facts, same bytes.

    Raises:
        TypeError: ``facts`` is not a :class:`ProfileFacts`.
        ValueError: too many statistics or notes.
    """
    return encode_png(profile_image(facts))
