"""The leaderboard picture: a ranked table of players or pairs (issue 14, "Leaderboards").

Size: 960 x 880 pixels, the width of every other picture; the height holds a title, a
subtitle, the column headers, :data:`MAX_ROWS` rows and a two-line footer, so a list
of three rows and a list of ten look alike in a chat. No text is smaller than
:data:`render.canvas.MIN_TEXT_SIZE`.

Every word is the caller's (the presentation layer phrases and formats the title, the
headers, the values, the trends and the notes in the reader's language); this module
only lays them out. Columns, left to right: the rank (a gold, silver or bronze medal
for 1-3), the name (any Unicode, shortened with "…"), the list's value (muted with a
"?" when provisional), the matches, and the trend (a green ▲ or a red ▼ before it).
The value, matches and trend columns are as wide as their widest text, so the name
gets whatever is left. The row of the player who asked is outlined in gold.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from PIL import Image, ImageDraw

from render.canvas import (
    BACKGROUND,
    GOLD,
    LABEL_SIZE,
    MUTED,
    PANEL,
    PASS_RED,
    WHITE,
    Color,
    draw_text,
    encode_png,
)
from render.rows import GREEN, MEDALS, column_width, draw_cell, draw_rank, row_panel
from render.text import clean_name, text_width, wrap_text
from render.typeset import sentence, text_top

__all__ = [
    "GREEN",
    "MAX_ROWS",
    "MEDALS",
    "STANDINGS_SIZE",
    "Columns",
    "StandingRow",
    "StandingsFacts",
    "standings_columns",
    "standings_image",
    "standings_png",
]

STANDINGS_SIZE: Final = (960, 880)
MAX_ROWS: Final = 10

_LEFT: Final = 20
_RIGHT: Final = 940
_TITLE_SIZE: Final = 34
_NAME_SIZE: Final = 30
_VALUE_SIZE: Final = 30
_MATCHES_SIZE: Final = 28
_TREND_SIZE: Final = 28
_RANK_SIZE: Final = 28
_HEADER_Y: Final = 106
_ROWS_Y: Final = 144
_ROW_STEP: Final = 64
_ROW_HEIGHT: Final = 56
_FOOTER_Y: Final = _ROWS_Y + MAX_ROWS * _ROW_STEP + 6
_GAP: Final = 26  # between two columns
_PAD: Final = 16  # inside a row, at its right end
_RANK_CENTER: Final = _LEFT + 38
_RANK_W: Final = 76  # the widest rank: four digits
_MEDAL_RADIUS: Final = 22
_NAME_X: Final = _LEFT + 84
_ARROW: Final = 18  # the trend triangle's width
_ARROW_GAP: Final = 8
_MARK: Final = "?"  # after a provisional value  # between the triangle and the trend's text
_MAX_VALUE_W: Final = 260
_MAX_MATCHES_W: Final = 170
_MAX_TREND_W: Final = 240
_MIN_NAME_W: Final = 240


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a leaderboard, every text already phrased and formatted."""

    rank: int
    """1-based position in the list."""
    name: str
    """Display name, any Unicode (pairs read "Ana & Luis"); shortened with "…"."""
    value: str
    """The list's measure, formatted: "1.532", "$1.250", "64 %"."""
    matches: int
    """Matches in the list's scope."""
    trend: str = ""
    """The change, formatted ("+12", "−8"), or "" for none or a newcomer."""
    trend_sign: int = 0
    """+1 up (a green ▲), -1 down (a red ▼), 0 flat or none (muted)."""
    provisional: bool = False
    """The value is drawn muted with a "?" after it."""
    highlight: bool = False
    """The player who asked: the row is outlined in gold."""


@dataclass(frozen=True, slots=True)
class StandingsFacts:
    """A whole leaderboard, phrased by the caller."""

    title: str
    """"Ranking · este grupo", "Temporada diciembre 2026 · final"."""
    subtitle: str
    """"Rating · 42 jugadores", or ""."""
    headers: tuple[str, str, str, str]
    """Column headers: name, value, matches, trend ("Jugador", "Rating", "Partidas",
    "Tendencia")."""
    rows: tuple[StandingRow, ...]
    """0 to :data:`MAX_ROWS` rows, drawn in the given order."""
    empty_text: str = ""
    """Said in the middle when there are no rows ("Aún no hay partidas puntuadas")."""
    footer: str = ""
    """A small note at the bottom ("? = provisional (menos de 10 partidas)")."""


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    return Image.new("RGB", STANDINGS_SIZE, BACKGROUND)


def _arrow_room(row: StandingRow, trend: str) -> int:
    """The pixels a row's trend arrow takes (with the gap before its text)."""
    if not row.trend_sign:
        return 0
    return _ARROW + (_ARROW_GAP if trend else 0)


def _triangle(draw: ImageDraw.ImageDraw, right: int, center: int, up: bool, color: Color) -> None:
    """A solid triangle ▲ (or ▼) :data:`_ARROW` pixels wide ending at ``right``."""
    half = _ARROW // 2
    left = right - _ARROW
    if up:
        points = [
            (left, center + half - 2),
            (right, center + half - 2),
            (left + half, center - half),
        ]
    else:
        points = [
            (left, center - half + 2),
            (right, center - half + 2),
            (left + half, center + half),
        ]
    draw.polygon(points, fill=color)


class Columns(NamedTuple):
    """Where a leaderboard's columns go, in pixels: the name's left edge and width, and
    the right edge and width of the value (with its "?" slot), matches and trend."""

    name_x: int
    name_width: int
    value_right: int
    value_width: int
    mark_width: int
    matches_right: int
    matches_width: int
    trend_right: int
    trend_width: int


def standings_columns(facts: StandingsFacts) -> Columns:
    """The columns for ``facts``: value, matches and trend as wide as their widest text
    or header (capped), the name gets the rest (at least :data:`_MIN_NAME_W`: very wide
    numbers give up their share and are drawn smaller or cut instead)."""
    rows = facts.rows
    headers = [sentence(h) for h in facts.headers]
    values = [sentence(r.value) for r in rows]
    matches = [str(r.matches) for r in rows]
    trends = [sentence(r.trend) for r in rows]
    provisional = any(r.provisional for r in rows)
    mark_w = int(text_width(_MARK, _VALUE_SIZE, True)) + 4 if provisional else 0
    arrows = [_arrow_room(r, t) for r, t in zip(rows, trends, strict=True)]
    trend_w = column_width(headers[3], trends, _TREND_SIZE, True, _MAX_TREND_W, arrows)
    matches_w = column_width(headers[2], matches, _MATCHES_SIZE, False, _MAX_MATCHES_W)
    value_w = column_width(headers[1], values, _VALUE_SIZE, True, _MAX_VALUE_W) + mark_w
    room = _RIGHT - _PAD - _NAME_X - _MIN_NAME_W - 3 * _GAP
    total = trend_w + matches_w + value_w
    if total > room:  # huge numbers: every column gives up its share, the name keeps its own
        trend_w, matches_w, value_w = (w * room // total for w in (trend_w, matches_w, value_w))
    trend_right = _RIGHT - _PAD
    matches_right = trend_right - trend_w - _GAP
    value_right = matches_right - matches_w - _GAP
    name_w = value_right - value_w - _GAP - _NAME_X
    return Columns(
        _NAME_X,
        name_w,
        value_right,
        value_w,
        mark_w,
        matches_right,
        matches_w,
        trend_right,
        trend_w,
    )


def standings_image(facts: StandingsFacts) -> Image.Image:
    """The leaderboard as a Pillow image (RGB, :data:`STANDINGS_SIZE`).

    Raises:
        TypeError: ``facts`` is not a :class:`StandingsFacts`.
        ValueError: more than :data:`MAX_ROWS` rows.
    """
    if not isinstance(facts, StandingsFacts):
        raise TypeError(f"standings_png draws StandingsFacts, not {type(facts).__name__}")
    if len(facts.rows) > MAX_ROWS:
        raise ValueError(f"a leaderboard shows at most {MAX_ROWS} rows, not {len(facts.rows)}")
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    width = _RIGHT - _LEFT
    title = sentence(facts.title)
    draw_text(image, _LEFT, 12, title, _TITLE_SIZE, bold=True, color=GOLD, max_width=width)
    subtitle = sentence(facts.subtitle)
    if subtitle:
        draw_text(image, _LEFT, 60, subtitle, LABEL_SIZE, color=MUTED, max_width=width)

    rows = facts.rows
    headers = [sentence(h) for h in facts.headers]
    values = [sentence(r.value) for r in rows]
    matches = [str(r.matches) for r in rows]
    trends = [sentence(r.trend) for r in rows]
    cols = standings_columns(facts)
    name_w, mark_w = cols.name_width, cols.mark_width
    value_right, value_w = cols.value_right, cols.value_width
    matches_right, matches_w = cols.matches_right, cols.matches_width
    trend_right, trend_w = cols.trend_right, cols.trend_width
    mark = _MARK

    # Column headers, over their columns (the name's over the names, the rest right-aligned).
    y = _HEADER_Y
    draw_text(image, _NAME_X, y, headers[0], LABEL_SIZE, color=MUTED, max_width=name_w)
    draw_text(
        image, value_right, y, headers[1], LABEL_SIZE, color=MUTED, anchor="r", max_width=value_w
    )
    draw_text(
        image,
        matches_right,
        y,
        headers[2],
        LABEL_SIZE,
        color=MUTED,
        anchor="r",
        max_width=matches_w,
    )
    draw_text(
        image, trend_right, y, headers[3], LABEL_SIZE, color=MUTED, anchor="r", max_width=trend_w
    )

    if not rows:
        empty = sentence(facts.empty_text)
        lines = wrap_text(empty, 30, True, width - 80, 3) if empty else []
        top = _ROWS_Y + (MAX_ROWS * _ROW_STEP - len(lines) * 40) // 2
        draw.rounded_rectangle(
            (_LEFT, _ROWS_Y, _RIGHT, _ROWS_Y + MAX_ROWS * _ROW_STEP - _ROW_STEP + _ROW_HEIGHT),
            radius=18,
            fill=PANEL,
        )
        for i, line in enumerate(lines):
            draw_text(image, 480, top + i * 40, line, 30, bold=True, color=MUTED, anchor="m")

    for i, row in enumerate(rows):
        top = _ROWS_Y + i * _ROW_STEP
        center = top + _ROW_HEIGHT // 2
        row_panel(draw, (_LEFT, top, _RIGHT, top + _ROW_HEIGHT), highlight=row.highlight)
        draw_rank(
            image,
            draw,
            row.rank,
            (_RANK_CENTER, center),
            size=_RANK_SIZE,
            width=_RANK_W,
            radius=_MEDAL_RADIUS,
        )
        name = clean_name(row.name)
        draw_text(
            image,
            _NAME_X,
            text_top(center, _NAME_SIZE, True),
            name,
            _NAME_SIZE,
            bold=True,
            max_width=name_w,
            ltr=False,
        )
        value_color = MUTED if row.provisional else WHITE
        value_top = text_top(center, _VALUE_SIZE, True)
        if row.provisional:
            draw_text(
                image, value_right, value_top, mark, _VALUE_SIZE, bold=True, color=GOLD, anchor="r"
            )
        draw_cell(
            image,
            value_right - mark_w,
            center,
            values[i],
            _VALUE_SIZE,
            bold=True,
            color=value_color,
            width=value_w - mark_w,
        )
        draw_cell(
            image,
            matches_right,
            center,
            matches[i],
            _MATCHES_SIZE,
            bold=False,
            color=WHITE,
            width=matches_w,
        )
        _trend(image, draw, row, trends[i], trend_right, trend_w, center)

    footer = sentence(facts.footer)
    for i, line in enumerate(wrap_text(footer, LABEL_SIZE, False, width, 2) if footer else []):
        draw_text(image, _LEFT, _FOOTER_Y + i * 32, line, LABEL_SIZE, color=MUTED)
    return image


def _trend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    row: StandingRow,
    trend: str,
    right: int,
    width: int,
    center: int,
) -> None:
    """The change since the last list: a green ▲ or red ▼ and its text, right-aligned."""
    color: Color = GREEN if row.trend_sign > 0 else PASS_RED if row.trend_sign < 0 else MUTED
    room = width - _arrow_room(row, trend)
    drawn = 0
    if trend:
        drawn = draw_cell(
            image, right, center, trend, _TREND_SIZE, bold=True, color=color, width=room
        )
    if row.trend_sign:
        arrow_right = right - drawn - (_ARROW_GAP if drawn else 0)
        _triangle(draw, arrow_right, center, row.trend_sign > 0, color)


def standings_png(facts: StandingsFacts) -> bytes:
    """The leaderboard picture as PNG bytes (960 x 880); same facts, same bytes.

    Raises:
        TypeError: ``facts`` is not a :class:`StandingsFacts`.
        ValueError: more than :data:`MAX_ROWS` rows.
    """
    image = standings_image(facts)
    assert image.size == STANDINGS_SIZE
    return encode_png(image)
