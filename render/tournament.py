"""Tournament pictures: a knockout's bracket and a Swiss or arena standings (issue 32).

Both are pure: facts in, PNG bytes out, the same bytes for the same facts. Every word is
the caller's (the presentation layer phrases titles, round names, headings, the bye and
no-show marks and the notes in the reader's language); this module only lays them out.
No text is smaller than :data:`render.canvas.MIN_TEXT_SIZE`, so a phone that shows the
picture :data:`render.canvas.PHONE_WIDTH` points wide still reads every name.

**The bracket** (:func:`bracket_png`): 960 pixels wide; the rounds are columns, left to
right, their names over them; each match is a box of two lines (a side's name and its
score) joined to the next round by connector lines, gold along a winner's path. The
winner's line is bold and gold on a lighter green, the loser's muted; a no-show's score
is replaced by the caller's mark in red. When the final has a winner, a card with a
trophy (drawn with shapes, no emoji font) names the champion above the final, and the
final's box is outlined in gold. Up to :data:`MAX_FIRST_ROUND` first-round matches (16
entrants, 4 rounds) are drawn; a bigger field is drawn from its round of 16 on and the
caller's footer says how many earlier rounds are left out. The height grows with the
first round: see :func:`bracket_size` (678 pixels up to 8 entrants, 1126 for 16).

**The standings** (:func:`tournament_standings_png`): the leaderboard's look (its
medals, panels and column fitting, :mod:`render.rows`): place, name (with a flame when
the row is on a streak, in an arena), points, a tiebreak figure and matches played, up to
:data:`MAX_STANDINGS_ROWS` rows; see :func:`tournament_standings_size` for the height.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from PIL import Image, ImageDraw

from render.canvas import (
    BACKGROUND,
    GOLD,
    INK,
    LABEL_SIZE,
    MUTED,
    PANEL,
    PASS_RED,
    WHITE,
    Color,
    draw_text,
    encode_png,
)
from render.rows import (
    HIGHLIGHT_FILL,
    column_width,
    draw_cell,
    draw_rank,
    fitting_size,
    row_panel,
)
from render.text import clean_name, text_width, wrap_text
from render.typeset import sentence, text_top

__all__ = [
    "MAX_FIRST_ROUND",
    "MAX_STANDINGS_ROWS",
    "WIDTH",
    "BracketFacts",
    "BracketMatch",
    "StandingsColumns",
    "TournamentRow",
    "TournamentStandingsFacts",
    "bracket_image",
    "bracket_png",
    "bracket_size",
    "champion",
    "standings_columns",
    "tournament_standings_image",
    "tournament_standings_png",
    "tournament_standings_size",
]

WIDTH: Final = 960
MAX_FIRST_ROUND: Final = 8
"""The most first-round matches a bracket draws: 16 entrants, 4 rounds."""
MAX_STANDINGS_ROWS: Final = 20

LINE: Final[Color] = (58, 118, 88)  # a connector nobody has walked yet
FLAME: Final[Color] = (255, 132, 36)

_LEFT: Final = 20
_RIGHT: Final = 940
_TITLE_SIZE: Final = 34
_TITLE_Y: Final = 12
_SUBTITLE_Y: Final = 60
_FOOTER_LINE: Final = 32  # a footer line's step
_SCALE: Final = 4  # shapes (trophy, flame) are drawn this many times larger, then scaled down

# The bracket, in pixels.
_ROUND_NAMES_Y: Final = 106
_BRACKET_Y: Final = 146
_SLOT: Final = 112  # the height a first-round match takes, box and gap
_MIN_SLOTS: Final = 4  # so a small bracket still has room for the champion's card
_BOX_H: Final = 88  # two lines of 44
_BRACKET_LEFT: Final = 12  # the boxes go nearer the edges than the title: names need room
_BRACKET_RIGHT: Final = 948
_GAP: Final = 16  # between two rounds' columns, where the connectors run
_MAX_BOX_W: Final = 444
_PAD: Final = 8  # inside a box, at each end of a line
_SIDE_SIZE: Final = 28  # a name that does not fit is drawn at MIN_TEXT_SIZE, then cut
_SCORE_SIZE: Final = 28
_SCORE_GAP: Final = 8  # between a name and its score
_CONNECTOR: Final = 3  # a connector's width
_BRACKET_FOOTER: Final = 84  # below the bracket: two footer lines and a margin
_CARD_GAP: Final = 18  # between the champion's card and the final
_TROPHY: Final = (44, 48)  # width, height
_CHAMPION_SIZE: Final = 30
_EMPTY_DASH: Final = 36  # the dash drawn on a line nobody has reached yet

# The standings, in pixels.
_HEADER_Y: Final = 106
_ROWS_Y: Final = 144
_ROW_STEP: Final = 52
_ROW_HEIGHT: Final = 46
_MIN_ROWS: Final = 8  # a short list keeps the picture's proportions
_STANDINGS_FOOTER: Final = 112  # a streak legend, two footer lines and a margin
_RANK_CENTER: Final = _LEFT + 38
_RANK_W: Final = 76
_RANK_SIZE: Final = 28
_MEDAL_RADIUS: Final = 20
_NAME_X: Final = _LEFT + 84
_NAME_SIZE: Final = 30
_POINTS_SIZE: Final = 30
_FIGURE_SIZE: Final = 28
_COLUMN_GAP: Final = 26
_ROW_PAD: Final = 16  # inside a row, at its right end
_MAX_POINTS_W: Final = 200
_MAX_TIEBREAK_W: Final = 200
_MAX_PLAYED_W: Final = 170
_MIN_NAME_W: Final = 240
_FLAME: Final = (26, 34)  # width, height
_FLAME_GAP: Final = 10


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match (or series) of a knockout round, as it stands."""

    sides: tuple[str | None, str | None]
    """The upper and the lower line's name, any Unicode (shortened with "…"); ``None``
    for a bye (the match has a winner: the other side went through without playing) or a
    line nobody has reached yet."""
    scores: tuple[int | None, int | None] = (None, None)
    """Each side's score (points, or matches won in a best-of-N series), ``None`` when
    not played."""
    winner: int | None = None
    """0 the upper side won, 1 the lower, ``None`` not decided (or, with ``no_show``,
    nobody came: a double loss)."""
    no_show: bool = False
    """The loser did not come (both sides when there is no winner): its score is replaced
    by :attr:`BracketFacts.no_show_text`."""


@dataclass(frozen=True, slots=True)
class BracketFacts:
    """A knockout bracket, phrased by the caller.

    ``rounds`` runs from the first round drawn to the final, every match of every round
    present (a later round's lines are ``None`` until someone reaches them): the first
    round drawn has 1, 2, 4 or 8 matches (:data:`MAX_FIRST_ROUND`) and each next round half
    as many, up to the final's one. Match ``k`` of a round is fed by matches ``2k`` and
    ``2k + 1`` of the round before.
    """

    title: str
    """"Torneo del viernes · Eliminatoria"."""
    round_names: tuple[str, ...]
    """One per round, left to right: ("Cuartos", "Semifinal", "Final")."""
    rounds: tuple[tuple[BracketMatch, ...], ...]
    """The matches of each round, top to bottom."""
    subtitle: str = ""
    """A line under the title ("16 parejas · al mejor de 3"), or ""."""
    footer: str = ""
    """A small note at the bottom, up to two lines ("3 rondas anteriores no se muestran")."""
    bye_text: str = ""
    """Drawn muted on a bye's empty line ("pase directo"); "" draws nothing there."""
    no_show_text: str = ""
    """Drawn in red in a no-show's score place; keep it short ("N.P.", "no vino")."""
    champion_text: str = ""
    """Over the champion's name on its card ("Campeón", "Campeones"); "" for none."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One line of a Swiss or arena standings, the figures already formatted."""

    place: int
    """1-based place (tied entrants may share one)."""
    name: str
    """Display name, any Unicode (pairs read "Ana & Luis"); shortened with "…"."""
    points: str
    """The standings' points, formatted: "3", "12"."""
    tiebreak: str
    """The figure that breaks ties, formatted: a points difference "+124" or "−30"."""
    played: int
    """Matches played so far."""
    streak: bool = False
    """On a winning streak (an arena's "en racha"): a flame after the name."""


@dataclass(frozen=True, slots=True)
class TournamentStandingsFacts:
    """A Swiss or arena standings, phrased by the caller."""

    title: str
    """"Torneo del viernes · Suizo"."""
    subtitle: str
    """"Ronda 3 de 5", "Arena · quedan 12 min", or ""."""
    headers: tuple[str, str, str, str]
    """Column headings: name, points, tiebreak, played ("Jugador", "Puntos", "Dif.",
    "Jugadas")."""
    rows: tuple[TournamentRow, ...]
    """1 to :data:`MAX_STANDINGS_ROWS` rows, drawn in the given order."""
    streak_label: str = ""
    """Said beside a flame under the rows when a row is on a streak ("En racha: cada
    victoria vale doble"); "" for no legend."""
    footer: str = ""
    """A small note at the bottom, up to two lines."""


class _Side(NamedTuple):
    """How one line of a match box is drawn."""

    name: str
    name_color: Color
    bold: bool
    score: str
    score_color: Color
    fill: bool  # the winner's lighter green behind the line


@lru_cache(maxsize=4)
def _background(size: tuple[int, int]) -> Image.Image:
    return Image.new("RGB", size, BACKGROUND)


def _check_int(value: object, what: str) -> None:
    # bool is an int in Python; a True must not pass as 1.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} is an int, not {type(value).__name__}")


def _check_text(value: object, what: str) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{what} is a str, not {type(value).__name__}")


def _check_match(match: object, where: str) -> None:
    """Raises TypeError or ValueError when ``match`` is not a drawable match."""
    if not isinstance(match, BracketMatch):
        raise TypeError(f"{where} is a BracketMatch, not {type(match).__name__}")
    if len(match.sides) != 2 or len(match.scores) != 2:
        raise ValueError(f"{where} has two sides and two scores")
    for side, (name, score) in enumerate(zip(match.sides, match.scores, strict=True)):
        if name is not None:
            _check_text(name, f"{where}'s side {side}")
        if score is not None:
            _check_int(score, f"{where}'s score {side}")
            if score < 0:
                raise ValueError(f"{where}'s score {side} is negative: {score}")
            if name is None:
                raise ValueError(f"{where}'s empty side {side} has a score")
    if match.winner is not None:
        _check_int(match.winner, f"{where}'s winner")
        if match.winner not in (0, 1):
            raise ValueError(f"{where}'s winner is 0, 1 or None, not {match.winner}")
        if match.sides[match.winner] is None:
            raise ValueError(f"{where}'s winner is an empty side")
    if match.no_show and None in match.sides:
        raise ValueError(f"{where} is a no-show with an empty side")


def _check_bracket(facts: object) -> BracketFacts:
    """``facts`` when it is a drawable bracket.

    Raises:
        TypeError: not a :class:`BracketFacts`, or a field of the wrong type.
        ValueError: the rounds do not halve down to a final, too many first-round
            matches, round names not one per round, or a match that cannot be.
    """
    if not isinstance(facts, BracketFacts):
        raise TypeError(f"bracket_png draws BracketFacts, not {type(facts).__name__}")
    rounds = facts.rounds
    if not rounds:
        raise ValueError("a bracket has at least one round")
    first = len(rounds[0])
    if first > MAX_FIRST_ROUND or first & (first - 1):
        raise ValueError(
            f"a bracket's first round has 1, 2, 4 or {MAX_FIRST_ROUND} matches, not {first}"
        )
    expected = [first >> r for r in range(first.bit_length())]
    if [len(r) for r in rounds] != expected:
        raise ValueError(
            f"a bracket's rounds have {expected} matches, not {[len(r) for r in rounds]}"
        )
    if len(facts.round_names) != len(rounds):
        raise ValueError(
            f"a bracket of {len(rounds)} rounds has {len(rounds)} round names, "
            f"not {len(facts.round_names)}"
        )
    for r, matches in enumerate(rounds):
        for m, match in enumerate(matches):
            _check_match(match, f"round {r + 1}'s match {m + 1}")
    return facts


def champion(facts: BracketFacts) -> str | None:
    """The final's winner, or ``None`` while the final is undecided."""
    final = facts.rounds[-1][0]
    return None if final.winner is None else final.sides[final.winner]


def bracket_size(facts: BracketFacts) -> tuple[int, int]:
    """The bracket picture's size for ``facts``, in pixels: 960 wide and
    ``230 + 112 * max(4, first-round matches)`` tall (678 up to 8 entrants, 1126 for 16)."""
    return WIDTH, _BRACKET_Y + _area_height(len(facts.rounds[0])) + _BRACKET_FOOTER


def _area_height(first: int) -> int:
    return max(first, _MIN_SLOTS) * _SLOT


class _Grid(NamedTuple):
    """Where a bracket's boxes go: each column's left edge, the boxes' width, and each
    round's box centres (y)."""

    lefts: tuple[int, ...]
    box_width: int
    centers: tuple[tuple[int, ...], ...]


def _grid(facts: BracketFacts) -> _Grid:
    count = len(facts.rounds)
    box_w = min(_MAX_BOX_W, (_BRACKET_RIGHT - _BRACKET_LEFT - (count - 1) * _GAP) // count)
    total = count * box_w + (count - 1) * _GAP
    left = (WIDTH - total) // 2
    lefts = tuple(left + r * (box_w + _GAP) for r in range(count))
    area = _area_height(len(facts.rounds[0]))
    centers = tuple(
        tuple(_BRACKET_Y + (2 * m + 1) * area // (2 * len(matches)) for m in range(len(matches)))
        for matches in facts.rounds
    )
    return _Grid(lefts, box_w, centers)


def _score_texts(facts: BracketFacts) -> list[str]:
    texts = [str(s) for matches in facts.rounds for m in matches for s in m.scores if s is not None]
    if any(m.no_show for matches in facts.rounds for m in matches):
        texts.append(sentence(facts.no_show_text))
    return texts


def _score_width(facts: BracketFacts, box_w: int) -> int:
    """The score slot's width: the widest score or no-show mark, at most a third of a box."""
    widths = [int(text_width(t, _SCORE_SIZE, True)) + 2 for t in _score_texts(facts) if t]
    return min(box_w // 3, max(widths, default=0))


def _sides(match: BracketMatch, no_show: str, bye: str) -> list[_Side]:
    out = []
    for i, (name, score) in enumerate(zip(match.sides, match.scores, strict=True)):
        absent = match.no_show and match.winner != i
        score_text = no_show if absent else ("" if score is None else str(score))
        if name is None:
            shown = bye if match.winner is not None else ""
            out.append(_Side(shown, MUTED, False, "", MUTED, False))
        elif match.winner == i:
            out.append(_Side(clean_name(name), GOLD, True, score_text, GOLD, True))
        elif match.winner is not None or match.no_show:
            out.append(
                _Side(
                    clean_name(name), MUTED, False, score_text, PASS_RED if absent else MUTED, False
                )
            )
        else:
            out.append(_Side(clean_name(name), WHITE, True, score_text, WHITE, False))
    return out


def _match_box(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    facts: BracketFacts,
    match: BracketMatch,
    box: tuple[int, int, int, int],
    score_w: int,
    *,
    crowned: bool,
) -> None:
    """One match: two lines in a rounded box, the winner's on a lighter green."""
    x0, y0, x1, _ = box
    half = _BOX_H // 2
    draw.rounded_rectangle(box, radius=12, fill=PANEL)
    no_show = sentence(facts.no_show_text)
    bye = sentence(facts.bye_text)
    for i, side in enumerate(_sides(match, no_show, bye)):
        top = y0 + i * half
        center = top + half // 2
        if side.fill:
            corners = (True, True, False, False) if i == 0 else (False, False, True, True)
            draw.rounded_rectangle(
                (x0, top, x1, top + half), radius=12, fill=HIGHLIGHT_FILL, corners=corners
            )
        name_w = x1 - x0 - 2 * _PAD - (score_w + _SCORE_GAP if side.score else 0)
        if side.name:
            size = fitting_size(side.name, _SIDE_SIZE, side.bold, name_w)
            draw_text(
                image,
                x0 + _PAD,
                text_top(center, size, side.bold),
                side.name,
                size,
                bold=side.bold,
                color=side.name_color,
                max_width=name_w,
                ltr=False,
            )
        elif match.winner is None:  # a line nobody has reached yet
            draw.line(
                (x0 + _PAD, center, x0 + _PAD + _EMPTY_DASH, center), fill=LINE, width=_CONNECTOR
            )
        if side.score:
            draw_cell(
                image,
                x1 - _PAD,
                center,
                side.score,
                _SCORE_SIZE,
                bold=True,
                color=side.score_color,
                width=score_w,
            )
    draw.line((x0 + _PAD, y0 + half, x1 - _PAD, y0 + half), fill=BACKGROUND, width=2)
    if crowned:
        draw.rounded_rectangle(box, radius=12, outline=GOLD, width=3)


def _connectors(draw: ImageDraw.ImageDraw, facts: BracketFacts, grid: _Grid) -> None:
    """The lines from each pair of matches to the match they feed: gold from a match
    with a winner (the winner's path), the rest a dim green."""
    for r in range(len(facts.rounds) - 1):
        right = grid.lefts[r] + grid.box_width
        middle = right + _GAP // 2
        following = grid.lefts[r + 1]
        for k, target in enumerate(grid.centers[r + 1]):
            walked = False
            for m in (2 * k, 2 * k + 1):
                y = grid.centers[r][m]
                color = GOLD if facts.rounds[r][m].winner is not None else LINE
                walked = walked or color == GOLD
                draw.line((right, y, middle, y), fill=color, width=_CONNECTOR)
                draw.line((middle, y, middle, target), fill=color, width=_CONNECTOR)
            draw.line(
                (middle, target, following, target),
                fill=GOLD if walked else LINE,
                width=_CONNECTOR,
            )


@lru_cache(maxsize=2)
def _trophy(size: tuple[int, int]) -> Image.Image:
    """A gold cup with two handles on a stem and a base, drawn large and scaled down
    (smooth edges), on a transparent background."""
    w, h = size[0] * _SCALE, size[1] * _SCALE
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    gold = (*GOLD, 255)
    line = max(1, w // 11)
    cup_l, cup_r = w * 22 // 100, w * 78 // 100
    cup_bottom = h * 60 // 100
    # the handles: rings either side of the bowl, their inner halves hidden by it
    draw.ellipse(
        (w * 2 // 100, h * 8 // 100, w * 42 // 100, h * 44 // 100), outline=gold, width=line
    )
    draw.ellipse(
        (w * 58 // 100, h * 8 // 100, w * 98 // 100, h * 44 // 100), outline=gold, width=line
    )
    # the bowl: a flat rim and a half-ellipse below it
    draw.rectangle((cup_l, h * 4 // 100, cup_r, h * 30 // 100), fill=gold)
    draw.pieslice((cup_l, -h * 26 // 100, cup_r, cup_bottom), 0, 180, fill=gold)
    # the stem and the base
    stem = w * 7 // 100
    draw.rectangle((w // 2 - stem, cup_bottom - line, w // 2 + stem, h * 80 // 100), fill=gold)
    draw.rounded_rectangle(
        (w * 24 // 100, h * 80 // 100, w * 76 // 100, h - 1), radius=line, fill=gold
    )
    # a shine on the bowl
    shine = (*INK, 90)
    draw.ellipse((w * 36 // 100, h * 10 // 100, w * 44 // 100, h * 34 // 100), fill=shine)
    return layer.resize(size, Image.Resampling.LANCZOS)


def _champion_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    facts: BracketFacts,
    name: str,
    left: int,
    width: int,
    final_top: int,
) -> None:
    """The champion's card above the final: a trophy, the caller's word and the name in
    gold (on two lines when the column is narrow and there is room)."""
    label = sentence(facts.champion_text)
    room = final_top - _CARD_GAP - _BRACKET_Y
    line_h = _CHAMPION_SIZE + 8
    fixed = 12 + _TROPHY[1] + 8 + (LABEL_SIZE + 8 if label else 0) + 12
    lines = 2 if room >= fixed + 2 * line_h else 1
    names = wrap_text(clean_name(name), _CHAMPION_SIZE, True, width - 2 * _PAD, lines)
    height = fixed + len(names) * line_h
    bottom = final_top - _CARD_GAP
    top = bottom - height
    draw.rounded_rectangle(
        (left, top, left + width, bottom), radius=16, fill=HIGHLIGHT_FILL, outline=GOLD, width=3
    )
    middle = left + width // 2
    draw.line((middle, bottom, middle, final_top), fill=GOLD, width=_CONNECTOR)
    trophy = _trophy(_TROPHY)
    image.paste(trophy, (middle - _TROPHY[0] // 2, top + 12), trophy)
    y = top + 12 + _TROPHY[1] + 8
    if label:
        draw_text(
            image, middle, y, label, LABEL_SIZE, color=MUTED, anchor="m", max_width=width - 2 * _PAD
        )
        y += LABEL_SIZE + 8
    for line in names:
        draw_text(
            image, middle, y, line, _CHAMPION_SIZE, bold=True, color=GOLD, anchor="m", ltr=False
        )
        y += line_h


def _header(image: Image.Image, title: str, subtitle: str) -> None:
    width = _RIGHT - _LEFT
    draw_text(
        image, _LEFT, _TITLE_Y, sentence(title), _TITLE_SIZE, bold=True, color=GOLD, max_width=width
    )
    if sentence(subtitle):
        draw_text(
            image, _LEFT, _SUBTITLE_Y, sentence(subtitle), LABEL_SIZE, color=MUTED, max_width=width
        )


def _footer_lines(image: Image.Image, top: int, footer: str, lines: int) -> None:
    text = sentence(footer)
    for i, line in enumerate(
        wrap_text(text, LABEL_SIZE, False, _RIGHT - _LEFT, lines) if text else []
    ):
        draw_text(image, _LEFT, top + i * _FOOTER_LINE, line, LABEL_SIZE, color=MUTED)


def bracket_image(facts: BracketFacts) -> Image.Image:
    """The bracket as a Pillow image (RGB, :func:`bracket_size`).

    Raises:
        TypeError: ``facts`` is not a :class:`BracketFacts`, or a name, score or winner
            of the wrong type.
        ValueError: rounds that do not halve down to one final, more than
            :data:`MAX_FIRST_ROUND` first-round matches, not one round name per round, a
            negative score, a score or a winner on an empty side, a no-show with an empty
            side.
    """
    facts = _check_bracket(facts)
    size = bracket_size(facts)
    image = _background(size).copy()
    draw = ImageDraw.Draw(image)
    _header(image, facts.title, facts.subtitle)
    grid = _grid(facts)
    box_w = grid.box_width
    for r, name in enumerate(facts.round_names):
        draw_text(
            image,
            grid.lefts[r] + box_w // 2,
            _ROUND_NAMES_Y,
            sentence(name),
            LABEL_SIZE,
            bold=True,
            color=MUTED,
            anchor="m",
            max_width=box_w,
        )
    _connectors(draw, facts, grid)
    score_w = _score_width(facts, box_w)
    winner = champion(facts)
    last = len(facts.rounds) - 1
    for r, matches in enumerate(facts.rounds):
        for m, match in enumerate(matches):
            center = grid.centers[r][m]
            box = (grid.lefts[r], center - _BOX_H // 2, grid.lefts[r] + box_w, center + _BOX_H // 2)
            _match_box(
                image, draw, facts, match, box, score_w, crowned=r == last and winner is not None
            )
    if winner is not None:
        final_top = grid.centers[last][0] - _BOX_H // 2
        _champion_card(image, draw, facts, winner, grid.lefts[last], box_w, final_top)
    _footer_lines(image, _BRACKET_Y + _area_height(len(facts.rounds[0])) + 8, facts.footer, 2)
    return image


def bracket_png(facts: BracketFacts) -> bytes:
    """The bracket picture as PNG bytes (:func:`bracket_size`); same facts, same bytes.

    Raises:
        TypeError: ``facts`` is not a :class:`BracketFacts` (or holds a wrong type).
        ValueError: a bracket that cannot be (see :func:`bracket_image`).
    """
    return encode_png(bracket_image(facts))


# The standings.


def tournament_standings_size(facts: TournamentStandingsFacts) -> tuple[int, int]:
    """The standings picture's size for ``facts``, in pixels: 960 wide and
    ``256 + 52 * max(8, rows)`` tall (672 up to 8 rows, 880 for 12, 1296 for 20)."""
    return WIDTH, _ROWS_Y + max(len(facts.rows), _MIN_ROWS) * _ROW_STEP + _STANDINGS_FOOTER


def _check_standings(facts: object) -> TournamentStandingsFacts:
    """``facts`` when it is a drawable standings.

    Raises:
        TypeError: not a :class:`TournamentStandingsFacts`, or a row of the wrong type.
        ValueError: no rows or more than :data:`MAX_STANDINGS_ROWS`, a place below 1, a
            negative count of matches, not four headings.
    """
    if not isinstance(facts, TournamentStandingsFacts):
        raise TypeError(
            f"tournament_standings_png draws TournamentStandingsFacts, not {type(facts).__name__}"
        )
    if len(facts.headers) != 4:
        raise ValueError(f"a standings has 4 column headings, not {len(facts.headers)}")
    if not 1 <= len(facts.rows) <= MAX_STANDINGS_ROWS:
        raise ValueError(f"a standings shows 1 to {MAX_STANDINGS_ROWS} rows, not {len(facts.rows)}")
    for i, row in enumerate(facts.rows):
        if not isinstance(row, TournamentRow):
            raise TypeError(f"row {i + 1} is a TournamentRow, not {type(row).__name__}")
        _check_int(row.place, f"row {i + 1}'s place")
        _check_int(row.played, f"row {i + 1}'s matches played")
        for field in (row.name, row.points, row.tiebreak):
            _check_text(field, f"row {i + 1}'s texts")
        if row.place < 1:
            raise ValueError(f"row {i + 1}'s place is 1 or more, not {row.place}")
        if row.played < 0:
            raise ValueError(f"row {i + 1}'s matches played is negative: {row.played}")
    return facts


class StandingsColumns(NamedTuple):
    """Where a tournament standings' columns go, in pixels: the name's left edge and
    width, and the right edge and width of the points, tiebreak and played columns."""

    name_x: int
    name_width: int
    points_right: int
    points_width: int
    tiebreak_right: int
    tiebreak_width: int
    played_right: int
    played_width: int


def standings_columns(facts: TournamentStandingsFacts) -> StandingsColumns:
    """The columns for ``facts``: points, tiebreak and played as wide as their widest
    text or heading (capped); the name gets the rest (at least :data:`_MIN_NAME_W`: very
    wide figures give up their share and are drawn smaller or cut instead)."""
    headers = [sentence(h) for h in facts.headers]
    rows = facts.rows
    points_w = column_width(
        headers[1], [sentence(r.points) for r in rows], _POINTS_SIZE, True, _MAX_POINTS_W
    )
    tiebreak_w = column_width(
        headers[2], [sentence(r.tiebreak) for r in rows], _FIGURE_SIZE, False, _MAX_TIEBREAK_W
    )
    played_w = column_width(
        headers[3], [str(r.played) for r in rows], _FIGURE_SIZE, False, _MAX_PLAYED_W
    )
    room = _RIGHT - _ROW_PAD - _NAME_X - _MIN_NAME_W - 3 * _COLUMN_GAP
    total = points_w + tiebreak_w + played_w
    if total > room:  # huge figures: every column gives up its share, the name keeps its own
        points_w, tiebreak_w, played_w = (
            w * room // total for w in (points_w, tiebreak_w, played_w)
        )
    played_right = _RIGHT - _ROW_PAD
    tiebreak_right = played_right - played_w - _COLUMN_GAP
    points_right = tiebreak_right - tiebreak_w - _COLUMN_GAP
    name_w = points_right - points_w - _COLUMN_GAP - _NAME_X
    return StandingsColumns(
        _NAME_X, name_w, points_right, points_w, tiebreak_right, tiebreak_w, played_right, played_w
    )


@lru_cache(maxsize=2)
def _flame(size: tuple[int, int]) -> Image.Image:
    """A flame (an orange drop with a gold heart), drawn large and scaled down, on a
    transparent background."""
    w, h = size[0] * _SCALE, size[1] * _SCALE
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for color, inset in (((*FLAME, 255), 0), ((*GOLD, 255), w * 28 // 100)):
        body = (inset, h * 38 // 100 + inset, w - inset, h - 1 - inset // 3)
        draw.ellipse(body, fill=color)
        middle_y = (body[1] + body[3]) // 2
        tip = (w * 58 // 100, inset * 2)
        draw.polygon([(body[0], middle_y), tip, (body[2], middle_y)], fill=color)
    return layer.resize(size, Image.Resampling.LANCZOS)


def tournament_standings_image(facts: TournamentStandingsFacts) -> Image.Image:
    """The standings as a Pillow image (RGB, :func:`tournament_standings_size`).

    Raises:
        TypeError: ``facts`` is not a :class:`TournamentStandingsFacts`, or a row of the
            wrong type.
        ValueError: no rows or more than :data:`MAX_STANDINGS_ROWS`, a place below 1, a
            negative count of matches.
    """
    facts = _check_standings(facts)
    size = tournament_standings_size(facts)
    image = _background(size).copy()
    draw = ImageDraw.Draw(image)
    _header(image, facts.title, facts.subtitle)
    headers = [sentence(h) for h in facts.headers]
    cols = standings_columns(facts)
    y = _HEADER_Y
    draw_text(image, cols.name_x, y, headers[0], LABEL_SIZE, color=MUTED, max_width=cols.name_width)
    for text, right, width in (
        (headers[1], cols.points_right, cols.points_width),
        (headers[2], cols.tiebreak_right, cols.tiebreak_width),
        (headers[3], cols.played_right, cols.played_width),
    ):
        draw_text(image, right, y, text, LABEL_SIZE, color=MUTED, anchor="r", max_width=width)

    flame = _flame(_FLAME)
    for i, row in enumerate(facts.rows):
        top = _ROWS_Y + i * _ROW_STEP
        center = top + _ROW_HEIGHT // 2
        row_panel(draw, (_LEFT, top, _RIGHT, top + _ROW_HEIGHT))
        draw_rank(
            image,
            draw,
            row.place,
            (_RANK_CENTER, center),
            size=_RANK_SIZE,
            width=_RANK_W,
            radius=_MEDAL_RADIUS,
        )
        name_w = cols.name_width - (_FLAME[0] + _FLAME_GAP if row.streak else 0)
        drawn = draw_text(
            image,
            cols.name_x,
            text_top(center, _NAME_SIZE, True),
            clean_name(row.name),
            _NAME_SIZE,
            bold=True,
            max_width=name_w,
            ltr=False,
        )
        if row.streak:
            image.paste(flame, (cols.name_x + drawn + _FLAME_GAP, center - _FLAME[1] // 2), flame)
        draw_cell(
            image,
            cols.points_right,
            center,
            sentence(row.points),
            _POINTS_SIZE,
            bold=True,
            color=GOLD if row.streak else WHITE,
            width=cols.points_width,
        )
        draw_cell(
            image,
            cols.tiebreak_right,
            center,
            sentence(row.tiebreak),
            _FIGURE_SIZE,
            bold=False,
            color=WHITE,
            width=cols.tiebreak_width,
        )
        draw_cell(
            image,
            cols.played_right,
            center,
            str(row.played),
            _FIGURE_SIZE,
            bold=False,
            color=MUTED,
            width=cols.played_width,
        )

    bottom = _ROWS_Y + max(len(facts.rows), _MIN_ROWS) * _ROW_STEP + 4
    legend = sentence(facts.streak_label)
    if legend and any(r.streak for r in facts.rows):
        image.paste(flame, (_LEFT, bottom + (_FOOTER_LINE - _FLAME[1]) // 2), flame)
        draw_text(
            image,
            _LEFT + _FLAME[0] + _FLAME_GAP,
            bottom,
            legend,
            LABEL_SIZE,
            color=MUTED,
            max_width=_RIGHT - _LEFT - _FLAME[0] - _FLAME_GAP,
        )
        bottom += _FOOTER_LINE
    _footer_lines(image, bottom, facts.footer, 2)
    return image


def tournament_standings_png(facts: TournamentStandingsFacts) -> bytes:
    """The standings picture as PNG bytes (:func:`tournament_standings_size`); same
    facts, same bytes.

    Raises:
        TypeError: ``facts`` is not a :class:`TournamentStandingsFacts` (or holds a
            wrong type).
        ValueError: standings that cannot be drawn (see
            :func:`tournament_standings_image`).
    """
    return encode_png(tournament_standings_image(facts))


def tournament_png(facts: BracketFacts | TournamentStandingsFacts) -> bytes:
    """A tournament's picture as PNG bytes: :func:`bracket_png` for a bracket's facts,
    :func:`tournament_standings_png` for a standings' (the caller need not tell them
    apart)."""
    if isinstance(facts, BracketFacts):
        return bracket_png(facts)
    return tournament_standings_png(facts)
