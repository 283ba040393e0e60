"""The group's picture of the table (design.md, "What it is").

Size: 960 x 960 pixels. A square fills a phone's screen width in both Telegram and
Discord (each shows a chat picture about 330-420 points wide, so 960 pixels stay sharp
on 2x-3x screens), stays under Telegram's 1280-pixel photo limit (no rescaling), and
keeps the PNG small (about 40-90 KB). Tiles are 48 x 96 pixels when the line fits, so
a tile's dots are still distinct at a third of the size; longer lines use smaller tiles.
No text is smaller than :data:`render.canvas.MIN_TEXT_SIZE` (27 pixels, 11 at a phone's
400), so the side panels are wide enough for a name, a tag or a chip at that size.

Seats sit around the table in playing order, counter-clockwise (rules.md, "Order"):
at four seats, seat 0 at the bottom, 1 on the right, 2 at the top, 3 on the left, so
partners face each other and share a colour (blue: seats 0 and 2, red: 1 and 3); at two
seats the players face each other (0 at the bottom, 1 at the top); at three, 0 at the
bottom, 1 on the right, 2 on the left (:data:`PLACES`). In individual play each seat
has its own colour (:data:`render.canvas.SIDE_COLORS`) and the top right corner lists
each player's score instead of the two partnerships'.
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
    LABEL_SIZE,
    MIN_TEXT_SIZE,
    MUTED,
    PANEL,
    PASS_RED,
    SHADOW,
    SIDE_COLORS,
    SIDE_DARK,
    TABLE,
    TABLE_EDGE,
    TEAM_COLORS,
    WHITE,
    Color,
    draw_text,
    encode_png,
    pill,
)
from render.facts import TableFacts, check_facts
from render.layout import LineLayout, Rect, layout_line
from render.sprites import FACE, HIGHLIGHT, back_sprite, tile_sprite
from render.strings import team_name, text
from render.text import clean_name, fit_text, font, text_width, wrap_text

__all__ = [
    "BOARD_SIZE",
    "BONEYARD_WIDTH",
    "PLACES",
    "SEAT_PANELS",
    "TABLE_AREA",
    "board_image",
    "board_layout",
    "board_png",
    "end_radius",
    "passed_last_turn",
    "score_text",
    "seat_name",
    "seat_panels",
]

BOARD_SIZE: Final = (960, 960)
TABLE_AREA: Final = Rect(206, 146, 754, 814)
"""Where the line's tiles may go (the seats' panels and corner notes sit outside)."""

Box = tuple[int, int, int, int]

# The panel at each place around the table. The side panels are wide enough for a
# name, a tag or a chip in text of at least MIN_TEXT_SIZE (27 px).
_PLACE_BOXES: Final[dict[str, Box]] = {
    "bottom": (250, 828, 710, 952),
    "right": (772, 250, 954, 710),
    "top": (250, 8, 710, 132),
    "left": (6, 250, 188, 710),
}
PLACES: Final[dict[int, tuple[str, ...]]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}
"""Where each seat sits, by the number of seats: counter-clockwise from the bottom
(rules.md, "Order"); two players face each other."""


def seat_panels(players: int) -> dict[int, Box]:
    """Each seat's panel box ``(x0, y0, x1, y1)`` at a table of ``players`` seats (2..4)."""
    return {seat: _PLACE_BOXES[place] for seat, place in enumerate(PLACES[players])}


SEAT_PANELS: Final[dict[int, Box]] = seat_panels(4)
"""The four seats' panels: seat 0 bottom, 1 right, 2 top, 3 left."""
_NAME_SIZE: Final = 28
_SIDE_NAME_SIZE: Final = 28
_CHIP_HEIGHT: Final = 36
_LINE: Final = 32  # the step from one line of LABEL_SIZE text to the next
SCORE_SIZE: Final = 30  # the score's text size (pixels) beside the partnership's name
SCORE_NAME_WIDTH: Final = 110  # the widest a partnership's name is drawn there (pixels)
BONEYARD_WIDTH: Final = TABLE_AREA.x0 - 8 - 18 - 8
"""The widest a line of the boneyard's label is drawn, left of the table's frame (172)."""


def seat_name(facts: TableFacts, seat: int) -> str:
    """The seat's display name, cleaned (see :func:`render.text.clean_name`)."""
    return clean_name(facts.seats[seat].name, text(facts.language, "seat", n=seat + 1))


def score_text(view: PublicView, team: int) -> str:
    """rules.md score notation for side ``team`` (a partnership, or a seat in individual
    play): during a hand the running total; once the hand is over, the hand's points,
    then the running total (``"+24 → 34"``: never read as a tied score, as "37 – 37"
    was after a first hand). In individual play a player who scored nothing in the
    hand shows only the total: of three or four, one scores."""
    outcome = view.outcome
    if outcome is None:
        return str(view.score[team])
    won = outcome.points if outcome.winner_team == team else 0
    if not won and not view.rules.partnership:
        return str(view.match_score[team])
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


def _draw_backs(image: Image.Image, x: int, y: int, count: int, per_row: int, side: int) -> int:
    """Tile backs for ``count`` tiles (at most 7 are drawn; the number beside them says
    how many); returns the x after the first row."""
    sprite = back_sprite(14, SIDE_DARK[side])
    count = max(0, min(count, 7))
    for i in range(count):
        row, col = divmod(i, per_row)
        image.paste(sprite, (x + col * 18, y + row * 32), sprite)
    return x + min(count, per_row) * 18


def _chip_width(label: str) -> int:
    return int(text_width(label, LABEL_SIZE, True)) + 24


def _chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    label: str,
    fill: Color,
    color: Color,
    *,
    align_right: bool = False,
) -> int:
    """A rounded label :data:`_CHIP_HEIGHT` pixels tall; ``x`` is its left (or right) edge.
    Returns its width."""
    w = _chip_width(label)
    left = x - w if align_right else x
    pill(draw, (left, y, left + w, y + _CHIP_HEIGHT), fill)
    draw_text(image, left + 12, y + 2, label, LABEL_SIZE, bold=True, color=color)
    return w


def passed_last_turn(view: PublicView) -> list[bool]:
    """For each seat: its latest turn in this hand was a pass.

    The board marks such a seat with one red chip that says so ("Pasó"); a seat that
    passed earlier and has played since shows only what it lacks ("sin 2, 3"), so the
    picture has no second, look-alike pass state that would need a legend (issue 13,
    item 27). A draw from the boneyard is no pass.
    """
    passed = [False] * len(view.tile_counts)
    for seat, move in view.history:
        passed[seat] = move.tile is None and not move.draw
    return passed


def _draw_seat(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts, seat: int
) -> None:
    lang = facts.language
    x0, y0, x1, y1 = seat_panels(facts.players)[seat]
    side = facts.side_of(seat)
    to_move = view.outcome is None and view.turn == seat
    draw.rounded_rectangle(
        (x0, y0, x1, y1),
        radius=16,
        fill=PANEL,
        outline=GOLD if to_move else SIDE_COLORS[side],
        width=5 if to_move else 3,
    )
    # The side's colour (its partnership's, or its own) as a stripe on the left edge.
    draw.rounded_rectangle((x0 + 9, y0 + 12, x0 + 15, y1 - 12), radius=3, fill=SIDE_COLORS[side])
    name = seat_name(facts, seat)
    info = facts.seats[seat]
    tags = [text(lang, "robot")] if info.is_robot else []
    if info.away:
        tags.append(text(lang, "away"))
    lacking = sorted(view.numbers_lacking()[seat])
    tiles = view.tile_counts[seat]
    passed = passed_last_turn(view)[seat]
    lacks = text(lang, "lacks", nums=", ".join(str(n) for n in lacking)) if lacking else ""
    if PLACES[facts.players][seat] in ("left", "right"):
        _draw_side_seat(image, draw, facts, seat, name, tags, tiles, lacks, passed, to_move)
        return
    inner, right = x0 + 24, x1 - 12
    # Name, with the tags on its right; tiles left and what the seat lacks; the chips.
    tag_text = " · ".join(tags)
    name_room = right - inner
    if tag_text:
        tag_w = draw_text(image, right, y0 + 9, tag_text, LABEL_SIZE, color=MUTED, anchor="r")
        name_room -= tag_w + 14
    draw_text(image, inner, y0 + 6, name, _NAME_SIZE, bold=True, max_width=name_room, ltr=False)
    after = _draw_backs(image, inner, y0 + 46, tiles, 7, side)
    count_w = draw_text(image, after + 8, y0 + 44, str(tiles), LABEL_SIZE, bold=True, color=MUTED)
    if lacks:
        room = right - (after + 8 + count_w + 16)
        draw_text(image, right, y0 + 44, lacks, LABEL_SIZE, color=MUTED, anchor="r", max_width=room)
    row = y0 + 80
    if passed:
        _chip(image, draw, inner, row, text(lang, "passed"), PASS_RED, WHITE)
    if to_move:
        label = text(lang, "your_turn" if facts.seats[seat].is_you else "to_move")
        if facts.seconds_left is not None:
            timed = label + " · " + text(lang, "seconds", n=max(0, facts.seconds_left))
            taken = _chip_width(text(lang, "passed")) + 12 if passed else 0
            if _chip_width(timed) <= right - inner - taken:
                label = timed
        _chip(image, draw, right, row, label, GOLD, INK, align_right=True)


def _draw_side_seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    facts: TableFacts,
    seat: int,
    name: str,
    tags: list[str],
    tiles: int,
    lacks: str,
    passed: bool,
    to_move: bool,
) -> None:
    """A seat on the left or right: its lines stacked in a tall, narrow panel."""
    lang = facts.language
    x0, y0, x1, y1 = seat_panels(facts.players)[seat]
    inner, right = x0 + 24, x1 - 10
    width = right - inner
    y = y0 + 12
    for line in wrap_text(name, _SIDE_NAME_SIZE, True, width, 2):
        draw_text(image, inner, y, line, _SIDE_NAME_SIZE, bold=True, ltr=False)
        y += 34
    for tag in tags:
        draw_text(image, inner, y, tag, LABEL_SIZE, color=MUTED, max_width=width)
        y += _LINE
    y += 6
    after = _draw_backs(image, inner, y, tiles, 5, facts.side_of(seat))
    draw_text(image, after + 6, y - 1, str(tiles), LABEL_SIZE, bold=True, color=MUTED)
    y += 32 * max(1, (min(tiles, 7) + 4) // 5) + 6
    for line in wrap_text(lacks, LABEL_SIZE, False, width, 2) if lacks else []:
        draw_text(image, inner, y, line, LABEL_SIZE, color=MUTED)
        y += _LINE
    if passed:
        _chip(image, draw, inner, y + 4, text(lang, "passed"), PASS_RED, WHITE)
    if to_move:
        mine = facts.seats[seat].is_you
        label = text(lang, "your_turn" if mine else "to_move")
        _chip(image, draw, inner, y1 - 14 - _CHIP_HEIGHT, label, GOLD, INK)


def _draw_corners(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    lang = facts.language
    # Top left: hand number, target, table label ("Mesa 7", phrased by bot/present).
    draw_text(image, 18, 10, text(lang, "hand", n=view.hand_number), 30, bold=True)
    draw_text(image, 18, 50, text(lang, "target", n=view.rules.target), LABEL_SIZE, color=MUTED)
    y = 86
    if facts.table_label:
        draw_text(
            image,
            18,
            y,
            clean_name(facts.table_label, ""),
            LABEL_SIZE,
            color=MUTED,
            max_width=SEAT_PANELS[2][0] - 30,
            ltr=False,
        )
        y += 36
    if facts.boneyard is not None:
        # Under them, the tiles left to draw ("Pozo: 12"), beside the table's frame:
        # on two lines when it does not fit on one ("Boneyard:" over "12").
        label = text(lang, "boneyard", n=facts.boneyard)
        for line in wrap_text(label, LABEL_SIZE, True, BONEYARD_WIDTH, 2):
            draw_text(image, 18, y, line, LABEL_SIZE, bold=True)
            y += _LINE
    if facts.is_partnership:
        _draw_team_scores(image, draw, view, facts)
    else:
        _draw_player_scores(image, draw, view, facts)
    _draw_last_move(image, view, facts)
    _draw_turn(image, view, facts)


def _draw_team_scores(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    """Top right: the score, one row per partnership; once a hand is over ("+24 → 134")
    the name and the score may not fit side by side: then the score goes under it."""
    lang = facts.language
    names = [team_name(lang, team) for team in (0, 1)]
    scores = [score_text(view, team) for team in (0, 1)]
    side_by_side = all(
        min(SCORE_NAME_WIDTH, text_width(name, LABEL_SIZE, True))
        + 12
        + text_width(score, SCORE_SIZE, True)
        <= 944 - 752
        for name, score in zip(names, scores, strict=True)
    )
    for team in (0, 1):
        y = 14 + team * 56 if side_by_side else 8 + team * 80
        draw.ellipse((724, y + 9, 744, y + 29), fill=TEAM_COLORS[team])
        draw_text(image, 752, y + 2, names[team], LABEL_SIZE, bold=True, max_width=SCORE_NAME_WIDTH)
        if side_by_side:
            draw_text(image, 944, y, scores[team], SCORE_SIZE, bold=True, anchor="r")
        else:  # at most 944 - 760 wide, clear of the board's frame below
            draw_text(image, 944, y + 34, scores[team], LABEL_SIZE + 2, bold=True, anchor="r")


PLAYER_SCORES: Final = Rect(TABLE_AREA.x1 + 18, 8, 944, SEAT_PANELS[1][1] - 8)
"""Where individual play lists each player's score: right of the table's frame, above
the right seat's panel (a name over its score, one block per player)."""


def _draw_player_scores(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    """Top right, in individual play: each player's colour and name, and under it their
    score (rules.md notation, see :func:`score_text`), in seat order."""
    area = PLAYER_SCORES
    step = min(60, area.height // facts.players)
    for seat in range(facts.players):
        y = area.y0 + seat * step
        draw.ellipse((area.x0, y + 8, area.x0 + 18, y + 26), fill=SIDE_COLORS[seat])
        name = seat_name(facts, seat)
        draw_text(
            image,
            area.x0 + 26,
            y,
            name,
            LABEL_SIZE,
            bold=True,
            max_width=area.x1 - area.x0 - 26,
            ltr=False,
        )
        draw_text(image, area.x1, y + 28, score_text(view, seat), 28, bold=True, anchor="r")


def _draw_last_move(image: Image.Image, view: PublicView, facts: TableFacts) -> None:
    """Bottom left: the last move ("María: 6-4", "María pasó", "María robó")."""
    lang = facts.language
    last = view.last_move
    room = SEAT_PANELS[0][0] - 30
    if last is not None:
        seat, move = last
        draw_text(image, 18, 842, text(lang, "last_move"), LABEL_SIZE, color=MUTED)
        params: dict[str, str] = {}
        if move.draw:
            key = "drew_move"
        elif move.tile is None:
            key = "passed_move"
        else:
            key, params = "played", {"tile": str(move.tile)}
        rest = text_width(text(lang, key, name="", **params), LABEL_SIZE, True)
        name = fit_text(seat_name(facts, seat), LABEL_SIZE, True, room - int(rest) - 2)
        line = text(lang, key, name=name, **params)
        draw_text(image, 18, 878, line, LABEL_SIZE, bold=True, max_width=room)


def _draw_turn(image: Image.Image, view: PublicView, facts: TableFacts) -> None:
    """Bottom right: whose turn (and the seconds left), or the hand's end."""
    lang = facts.language
    room = SEAT_PANELS[0][0] - 30
    if view.outcome is not None:
        draw_text(image, 944, 842, text(lang, "hand_over"), LABEL_SIZE, color=MUTED, anchor="r")
        how = "domino_end" if view.outcome.end is Termination.DOMINO else "blocked"
        draw_text(image, 944, 878, text(lang, how), 30, bold=True, anchor="r", color=GOLD)
    else:
        if facts.seats[view.turn].is_you:  # "Te toca" and no name: it is the reader
            name = text(lang, "your_turn")
        else:
            draw_text(image, 944, 842, text(lang, "to_move"), LABEL_SIZE, color=MUTED, anchor="r")
            name = seat_name(facts, view.turn)
        draw_text(
            image, 944, 876, name, LABEL_SIZE, bold=True, anchor="r", max_width=room, ltr=False
        )
        if facts.seconds_left is not None:
            draw_text(
                image,
                944,
                910,
                text(lang, "seconds", n=max(0, facts.seconds_left)),
                30,
                bold=True,
                anchor="r",
                color=GOLD,
            )


def _draw_line(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts
) -> None:
    if not view.line:
        lang = facts.language
        name = fit_text(seat_name(facts, view.starter), 30, True, 300)
        if view.opening_tile is not None and facts.seats[view.starter].is_you:
            message = text(lang, "you_open_with", tile=str(view.opening_tile))
        elif view.opening_tile is not None:
            message = text(lang, "opening_with", name=name, tile=str(view.opening_tile))
        else:
            message = text(lang, "waiting_opening", name=name)
        a = TABLE_AREA
        draw_text(
            image,
            (a.x0 + a.x1) // 2,
            (a.y0 + a.y1) // 2 - 18,
            message,
            30,
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
    # The last tile's gold ring goes under every tile: its neighbours touch it.
    for box in layout.tiles:
        if box.placement.order == last_order:
            r = box.rect
            draw.rounded_rectangle(
                (r.x0 - 4, r.y0 - 4, r.x1 + 3, r.y1 + 3), radius=s // 4 + 3, fill=GOLD
            )
    for box in layout.tiles:
        r = box.rect
        look = HIGHLIGHT if box.placement.order == last_order else FACE
        sprite = tile_sprite(s, box.first, box.second, box.vertical, look)
        image.paste(sprite, (r.x0, r.y0), sprite)
    # The open ends: the number each end shows, where the next tile would go, tagged
    # left/right as the move buttons name them.
    radius = end_radius(s)
    digit = max(MIN_TEXT_SIZE, s * 22 // 40)
    ascent = font(digit, True).getmetrics()[0]
    for end in layout.ends:
        disc = (end.x - radius, end.y - radius, end.x + radius, end.y + radius)
        draw.ellipse(disc, fill=WHITE, outline=GOLD, width=3)
        top = end.y - (ascent * 3) // 5 - 1
        draw_text(image, end.x, top, str(end.number), digit, bold=True, color=INK, anchor="m")
    for label, r in end_tags(layout, facts.language):
        pill(draw, (r.x0, r.y0, r.x1 - 1, r.y1 - 1), PANEL)
        draw_text(image, (r.x0 + r.x1) // 2, r.y0 + 1, label, _TAG_SIZE, bold=True, anchor="m")


_TAG_SIZE: Final = MIN_TEXT_SIZE


def end_radius(short: int) -> int:
    """The radius of an open end's disc for tiles ``short`` pixels across: big enough for
    its number in :data:`MIN_TEXT_SIZE` text."""
    return max(short * 9 // 20, MIN_TEXT_SIZE // 2 + 2)


def end_tags(layout: LineLayout, language: str) -> list[tuple[str, Rect]]:
    """The "izq."/"der." tag of each open end and where it goes.

    The snake can bring the left end to the right of the picture, so each end's mark
    says which end it is, in the words of the move buttons. A tag sits above, below,
    left or right of its mark, the first place that covers no tile, no mark and no
    other tag and stays on the table.
    """
    placed: list[tuple[str, Rect]] = []
    radius = end_radius(layout.short)
    area = Rect(layout.area.x0 - 6, layout.area.y0 - 6, layout.area.x1 + 6, layout.area.y1 + 6)
    marks = [Rect(e.x - radius, e.y - radius, e.x + radius, e.y + radius) for e in layout.ends]
    for end in layout.ends:
        label = text(language, "left" if end.side is Side.LEFT else "right")
        w = int(text_width(label, _TAG_SIZE, True)) + 16
        h = _TAG_SIZE + 5
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
    for seat in range(facts.players):
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
        ValueError: the facts' seats or partnership do not match the view's rules.
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"board_png draws a PublicView, not {type(view).__name__}")
    check_facts(facts, view.rules)
    return encode_png(board_image(view, facts))
