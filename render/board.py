"""The group's picture of the table (design.md, "What it is").

Size: 960 x 960 pixels. A square fills a phone's screen width in both Telegram and
Discord (each shows a chat picture about 330-420 points wide, so 960 pixels stay sharp
on 2x-3x screens), stays under Telegram's 1280-pixel photo limit (no rescaling), and
keeps the PNG small (about 40-90 KB). Tiles are 40 x 80 pixels when the line fits, so
a tile's dots are still distinct at a third of the size; longer lines use smaller tiles.

Seats sit around the table in playing order, counter-clockwise (rules.md, "Order"):
seat 0 at the bottom, 1 on the right, 2 at the top, 3 on the left, so partners face
each other and share a colour (blue: seats 0 and 2, red: 1 and 3).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from engine.hand import Termination
from engine.moves import Side
from engine.views import PublicView
from render.canvas import (
    BACKGROUND,
    GOLD,
    INK,
    MUTED,
    PANEL,
    PASS_RED,
    SHADOW,
    TABLE,
    TABLE_EDGE,
    TEAM_COLORS,
    TEAM_DARK,
    WHITE,
    Color,
    draw_text,
    encode_png,
    pill,
)
from render.facts import TableFacts
from render.layout import LineLayout, Rect, layout_line
from render.sprites import FACE, HIGHLIGHT, back_sprite, tile_sprite
from render.strings import team_name, text
from render.text import clean_name, fit_text, font, text_width, wrap_text

__all__ = [
    "BOARD_SIZE",
    "TABLE_AREA",
    "board_image",
    "board_layout",
    "board_png",
    "score_text",
    "seat_name",
]

BOARD_SIZE: Final = (960, 960)
TABLE_AREA: Final = Rect(158, 140, 802, 820)
"""Where the line's tiles may go (the seats' panels and corner notes sit outside)."""

# Seat panels: seat -> box. Seat 0 bottom, 1 right, 2 top, 3 left.
_PANELS: Final[dict[int, tuple[int, int, int, int]]] = {
    0: (300, 830, 660, 950),
    1: (812, 350, 948, 610),
    2: (300, 10, 660, 130),
    3: (12, 350, 148, 610),
}
_NAME_SIZE: Final = 24
_SIDE_NAME_SIZE: Final = 19


def seat_name(facts: TableFacts, seat: int) -> str:
    """The seat's display name, cleaned (see :func:`render.text.clean_name`)."""
    return clean_name(facts.seats[seat].name, text(facts.language, "seat", n=seat + 1))


def score_text(view: PublicView, team: int) -> str:
    """rules.md score notation for ``team``: during a hand the running total; once the
    hand is over, the hand's points, then the running total (``"+24 → 34"``: never read
    as a tied score, as "37 – 37" was after a first hand)."""
    outcome = view.outcome
    if outcome is None:
        return str(view.score[team])
    won = outcome.points if outcome.winner_team == team else 0
    return f"+{won} → {view.match_score[team]}"


def board_layout(view: PublicView) -> LineLayout:
    """Where the board picture draws each tile of ``view.line`` (for tests and tools)."""
    return layout_line(view.line, TABLE_AREA)


@lru_cache(maxsize=4)
def _background() -> Image.Image:
    image = Image.new("RGB", BOARD_SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    a = TABLE_AREA
    draw.rounded_rectangle(
        (a.x0 - 8, a.y0 - 8, a.x1 + 8, a.y1 + 8), radius=28, fill=TABLE, outline=TABLE_EDGE, width=4
    )
    return image


def _pass_counts(view: PublicView) -> tuple[list[int], list[bool]]:
    counts = [0, 0, 0, 0]
    last_was_pass = [False, False, False, False]
    for seat, move in view.history:
        if move.tile is None:
            counts[seat] += 1
            last_was_pass[seat] = True
        else:
            last_was_pass[seat] = False
    return counts, last_was_pass


def _draw_backs(image: Image.Image, x: int, y: int, count: int, per_row: int, team: int) -> int:
    """Tile backs for ``count`` tiles; returns the x after the first row."""
    sprite = back_sprite(14, TEAM_DARK[team])
    count = max(0, min(count, 7))
    for i in range(count):
        row, col = divmod(i, per_row)
        image.paste(sprite, (x + col * 18, y + row * 32), sprite)
    return x + min(count, per_row) * 18


def _chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    label: str,
    fill: Color,
    color: Color,
    *,
    outline: Color | None = None,
    align_right: bool = False,
) -> int:
    """A rounded label 28 pixels tall; ``x`` is its left (or right) edge. Returns its width."""
    w = int(text_width(label, 17, True)) + 20
    left = x - w if align_right else x
    pill(draw, (left, y, left + w, y + 28), fill, outline=outline, width=2)
    draw_text(image, left + 10, y + 4, label, 17, bold=True, color=color)
    return w


def _draw_seat(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts, seat: int
) -> None:
    lang = facts.language
    x0, y0, x1, y1 = _PANELS[seat]
    team = seat & 1
    to_move = view.outcome is None and view.turn == seat
    draw.rounded_rectangle(
        (x0, y0, x1, y1),
        radius=16,
        fill=PANEL,
        outline=GOLD if to_move else TEAM_COLORS[team],
        width=5 if to_move else 3,
    )
    # The partnership's colour as a stripe on the left edge.
    draw.rounded_rectangle((x0 + 9, y0 + 12, x0 + 15, y1 - 12), radius=3, fill=TEAM_COLORS[team])
    name = seat_name(facts, seat)
    info = facts.seats[seat]
    tags = [text(lang, "robot")] if info.is_robot else []
    if info.away:
        tags.append(text(lang, "away"))
    counts, last_pass = _pass_counts(view)
    lacking = sorted(view.numbers_lacking()[seat])
    tiles = view.tile_counts[seat]
    inner = x0 + 24
    right = x1 - 12
    side = seat in (1, 3)
    turn_label = text(lang, "to_move")
    if facts.seconds_left is not None:
        with_seconds = turn_label + " · " + text(lang, "seconds", n=max(0, facts.seconds_left))
        if text_width(with_seconds, 17, True) + 20 <= right - inner:
            turn_label = with_seconds
    pass_label = ""
    if counts[seat]:
        n = counts[seat]
        pass_label = text(lang, "passed") if n == 1 else text(lang, "passed_n", n=n)
    pass_fill, pass_color = (PASS_RED, WHITE) if last_pass[seat] else (PANEL, MUTED)
    lacks = text(lang, "lacks", nums=", ".join(str(n) for n in lacking)) if lacking else ""
    if not side:
        draw_text(
            image, inner, y0 + 10, name, _NAME_SIZE, bold=True, max_width=right - inner, ltr=False
        )
        after = _draw_backs(image, inner, y0 + 46, tiles, 7, team)
        draw_text(image, after + 6, y0 + 49, str(tiles), 20, bold=True, color=MUTED)
        if tags:
            draw_text(image, right, y0 + 51, " · ".join(tags), 16, color=MUTED, anchor="r")
        row = y0 + 82
        limit = right
        if to_move:
            limit -= _chip(image, draw, right, row, turn_label, GOLD, INK, align_right=True) + 8
        x = inner
        if pass_label:
            x += _chip(image, draw, x, row, pass_label, pass_fill, pass_color, outline=PASS_RED) + 8
        if lacks and limit - x > 30:
            draw_text(image, x, row + 4, lacks, 17, color=MUTED, max_width=limit - x)
        return
    lines = wrap_text(name, _SIDE_NAME_SIZE, True, right - inner, 2)
    y = y0 + 10
    for line in lines:
        draw_text(image, inner, y, line, _SIDE_NAME_SIZE, bold=True, ltr=False)
        y += 24
    if tags:
        draw_text(image, inner, y + 2, " · ".join(tags), 15, color=MUTED, max_width=right - inner)
        y += 22
    after = _draw_backs(image, inner, y + 10, tiles, 4, team)
    draw_text(image, after + 6, y + 13, str(tiles), 20, bold=True, color=MUTED)
    y += 10 + 32 * max(1, (tiles + 3) // 4) + 6
    if pass_label:
        _chip(image, draw, inner, y, pass_label, pass_fill, pass_color, outline=PASS_RED)
        y += 34
    if lacks:
        draw_text(image, inner, y, lacks, 17, color=MUTED, max_width=right - inner)
    if to_move:
        _chip(image, draw, inner, y1 - 40, turn_label, GOLD, INK)


def _draw_corners(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    lang = facts.language
    # Top left: hand number, target, table label.
    draw_text(image, 20, 14, text(lang, "hand", n=view.hand_number), 28, bold=True)
    draw_text(image, 20, 52, text(lang, "target", n=view.rules.target), 19, color=MUTED)
    if facts.table_label:
        draw_text(
            image,
            20,
            80,
            clean_name(facts.table_label, ""),
            17,
            color=MUTED,
            max_width=270,
            ltr=False,
        )
    # Top right: the score, one row per partnership.
    for team in (0, 1):
        y = 16 + team * 52
        draw.ellipse((684, y + 8, 704, y + 28), fill=TEAM_COLORS[team])
        draw_text(image, 714, y + 4, team_name(lang, team), 22, bold=True, max_width=100)
        draw_text(image, 944, y, score_text(view, team), 28, bold=True, anchor="r")
    # Bottom left: the last move.
    last = view.last_move
    if last is not None:
        seat, move = last
        draw_text(image, 20, 846, text(lang, "last_move"), 17, color=MUTED)
        if move.tile is None:
            name = fit_text(seat_name(facts, seat), 22, True, 200)
            line = text(lang, "passed_move", name=name)
        else:
            name = fit_text(seat_name(facts, seat), 22, True, 180)
            line = text(lang, "played", name=name, tile=str(move.tile))
        draw_text(image, 20, 872, line, 22, bold=True, max_width=270)
    # Bottom right: whose turn, or the hand's end.
    if view.outcome is not None:
        draw_text(image, 944, 846, text(lang, "hand_over"), 17, color=MUTED, anchor="r")
        how = "domino_end" if view.outcome.end is Termination.DOMINO else "blocked"
        draw_text(image, 944, 870, text(lang, how), 30, bold=True, anchor="r", color=GOLD)
    else:
        draw_text(image, 944, 846, text(lang, "to_move"), 17, color=MUTED, anchor="r")
        name = seat_name(facts, view.turn)
        draw_text(image, 944, 872, name, 22, bold=True, anchor="r", max_width=270, ltr=False)
        if facts.seconds_left is not None:
            draw_text(
                image,
                944,
                904,
                text(lang, "seconds", n=max(0, facts.seconds_left)),
                26,
                bold=True,
                anchor="r",
                color=GOLD,
            )


def _draw_line(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    if not view.line:
        lang = facts.language
        name = fit_text(seat_name(facts, view.starter), 26, True, 360)
        if view.opening_tile is not None:
            message = text(lang, "opening_with", name=name, tile=str(view.opening_tile))
        else:
            message = text(lang, "waiting_opening", name=name)
        a = TABLE_AREA
        draw_text(
            image,
            (a.x0 + a.x1) // 2,
            (a.y0 + a.y1) // 2 - 16,
            message,
            26,
            bold=True,
            anchor="m",
            max_width=a.width - 40,
        )
        return
    layout = board_layout(view)
    last_order = max(p.order for p in view.line)
    s = layout.short
    # Soft shadows first, so no shadow falls on a neighbouring tile.
    for box in layout.tiles:
        r = box.rect
        draw.rounded_rectangle((r.x0 + 2, r.y0 + 3, r.x1 + 1, r.y1 + 2), radius=s // 5, fill=SHADOW)
    for box in layout.tiles:
        r = box.rect
        look = FACE
        if box.placement.order == last_order:
            look = HIGHLIGHT
            draw.rounded_rectangle(
                (r.x0 - 4, r.y0 - 4, r.x1 + 3, r.y1 + 3), radius=s // 4 + 3, fill=GOLD
            )
        sprite = tile_sprite(s, box.first, box.second, box.vertical, look)
        image.paste(sprite, (r.x0, r.y0), sprite)
    # The open ends: the number each end shows, where the next tile would go, tagged
    # left/right as the move buttons name them.
    radius = s * 9 // 20
    digit = max(12, s * 22 // 40)
    ascent = font(digit, True).getmetrics()[0]
    for end in layout.ends:
        disc = (end.x - radius, end.y - radius, end.x + radius, end.y + radius)
        draw.ellipse(disc, fill=WHITE, outline=GOLD, width=3)
        top = end.y - (ascent * 3) // 5 - 1
        draw_text(image, end.x, top, str(end.number), digit, bold=True, color=INK, anchor="m")
    for label, r in end_tags(layout, facts.language):
        pill(draw, (r.x0, r.y0, r.x1 - 1, r.y1 - 1), PANEL)
        draw_text(image, (r.x0 + r.x1) // 2, r.y0 + 1, label, _TAG_SIZE, bold=True, anchor="m")


_TAG_SIZE: Final = 14


def end_tags(layout: LineLayout, language: str) -> list[tuple[str, Rect]]:
    """The "izq."/"der." tag of each open end and where it goes.

    The snake can bring the left end to the right of the picture, so each end's mark
    says which end it is, in the words of the move buttons. A tag sits above, below,
    left or right of its mark, the first place that covers no tile, no mark and no
    other tag and stays on the table.
    """
    placed: list[tuple[str, Rect]] = []
    radius = layout.short * 9 // 20
    area = Rect(layout.area.x0 - 6, layout.area.y0 - 6, layout.area.x1 + 6, layout.area.y1 + 6)
    marks = [Rect(e.x - radius, e.y - radius, e.x + radius, e.y + radius) for e in layout.ends]
    for end in layout.ends:
        label = text(language, "left" if end.side is Side.LEFT else "right")
        w = int(text_width(label, _TAG_SIZE, True)) + 12
        h = 20
        x, y, r = end.x, end.y, radius
        above = (y - r - h - 3, y - r - 3)
        below = (y + r + 3, y + r + 3 + h)
        beside = (y - h // 2, y - h // 2 + h)
        candidates = [
            Rect(x - w // 2, above[0], x - w // 2 + w, above[1]),
            Rect(x - w // 2, below[0], x - w // 2 + w, below[1]),
            Rect(x - r - 4 - w, beside[0], x - r - 4, beside[1]),
            Rect(x + r + 4, beside[0], x + r + 4 + w, beside[1]),
        ]
        # a tight corner of the snake: the diagonals, then a step further out
        for top, bottom in (above, below):
            candidates.append(Rect(x - r - w, top, x - r, bottom))
            candidates.append(Rect(x + r, top, x + r + w, bottom))
        for step in (h, 2 * h):
            candidates.append(Rect(x - w // 2, above[0] - step, x - w // 2 + w, above[1] - step))
            candidates.append(Rect(x - w // 2, below[0] + step, x - w // 2 + w, below[1] + step))
        for rect in candidates:
            if not rect.inside(area):
                continue
            if any(rect.overlaps(b.rect) for b in layout.tiles):
                continue
            if any(rect.overlaps(m) for m in marks) or any(rect.overlaps(t) for _, t in placed):
                continue
            placed.append((label, rect))
            break
    return placed


def board_image(view: PublicView, facts: TableFacts) -> Image.Image:
    """The board as a Pillow image (RGB, :data:`BOARD_SIZE`)."""
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    for seat in range(4):
        _draw_seat(image, draw, view, facts, seat)
    _draw_corners(image, draw, view, facts)
    _draw_line(image, draw, view, facts)
    return image


def board_png(view: PublicView, facts: TableFacts) -> bytes:
    """The group's picture of the table as PNG bytes (960 x 960).

    Takes only the public view, so no hand can ever be drawn for the group (design.md,
    rule 2). Same view and facts, same bytes.

    Raises:
        TypeError: ``view`` is not a view (e.g. a Match or HandState).
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"board_png draws a PublicView, not {type(view).__name__}")
    return encode_png(board_image(view, facts))
