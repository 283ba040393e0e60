"""The group's picture of a table that has not started yet (design.md, "What it is").

Drawn in place of the board while seats fill (phase ``waiting``) and during the short
countdown once the table is full (``countdown``): the same 960 x 960 green table as
:func:`render.board.board_png`, its 2, 3 or 4 seats in the same places and colours (at
four, seat 0 at the bottom, 1 on the right, 2 at the top, 3 on the left; rules.md,
"Seats"; :data:`render.board.PLACES`), each with its player's name or "libre" (and, in
partnership play, the partnership's name); in the middle the table's rules (rules.md,
"The options", "Presets" and "Formats") and when the robots fill the free seats or the
match starts.
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from engine.rules import FORMAT_PRESETS, PRESETS, TABLE_OPTIONS, Boneyard, Rules, TileSet
from render.board import BOARD_SIZE, PLACES, SEAT_PANELS, TABLE_AREA, _background, seat_panels
from render.canvas import (
    GOLD,
    LABEL_SIZE,
    MUTED,
    PANEL,
    SIDE_COLORS,
    WHITE,
    draw_text,
    encode_png,
)
from render.facts import TableFacts, check_facts
from render.strings import team_name, text
from render.text import clean_name, wrap_text

__all__ = ["preset_label", "rules_lines", "waiting_image", "waiting_png"]

_NAME_SIZE: Final = 28
_SIDE_NAME_SIZE: Final = 28
_RULE_SIZE: Final = LABEL_SIZE
_LINE: Final = 32  # the step from one line of LABEL_SIZE text to the next


def preset_label(rules: Rules, language: str = "es") -> str:
    """The name of the preset the rules follow, for people ("Venezolano", "Cubano").

    Timers and the stake (``TABLE_OPTIONS``) do not change how a hand is scored, so a
    preset with another turn time or stake keeps its name; any other change reads
    "Venezolano, con cambios": the preset the rules differ least from, first in the
    tile set, then in partnership play, then in one against one or more players, then
    in the number of options (a partnership double-six table is never called "Cubano",
    three players each for themselves are "Individual, con cambios").
    """
    presets = {**PRESETS, **FORMAT_PRESETS}

    def distance(name: str) -> tuple[int, ...]:
        preset = presets[name]
        return (
            preset.tile_set is not rules.tile_set,
            preset.partnership != rules.partnership,
            (preset.players == 2) != (rules.players == 2),  # one against one, or not
            len(rules.overrides_from(preset)),
        )

    best = min(presets, key=distance)
    name = text(language, f"preset_{best}")
    if set(rules.overrides_from(presets[best])) <= TABLE_OPTIONS:
        return name
    return text(language, "preset_changed", name=name)


def rules_lines(rules: Rules, language: str = "es") -> list[str]:
    """The rules the waiting picture lists: the format when it is not today's
    partnership double-six game (double-nine; individual play and its number of
    players; drawing from the boneyard or not, when tiles are left undealt), target,
    counting, capicúa bonus (when not 0), turn time and stake (rules.md, "The options",
    "Formats")."""
    lines = []
    if rules.tile_set is TileSet.DOUBLE_NINE:
        lines.append(text(language, "rules_double_nine"))
    if not rules.partnership:
        lines.append(text(language, "rules_individual", n=rules.players))
    if rules.hand_tiles * rules.players < len(rules.tile_set.tiles) and not rules.partnership:
        key = "rules_draw" if rules.boneyard is Boneyard.DRAW else "rules_no_draw"
        lines.append(text(language, key))
    lines += [
        text(language, "target_points", n=rules.target),
        text(language, f"counting_{rules.counting}"),
    ]
    if rules.capicua_bonus:
        lines.append(text(language, "capicua_bonus", n=rules.capicua_bonus))
    lines.append(text(language, "turn_time", n=rules.turn_seconds))
    lines.append(
        text(language, "stake", n=rules.stake) if rules.stake else text(language, "no_stake")
    )
    return lines


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, facts: TableFacts, seat: int) -> None:
    lang = facts.language
    info = facts.seats[seat]
    x0, y0, x1, y1 = seat_panels(facts.players)[seat]
    color_of_side = SIDE_COLORS[facts.side_of(seat)]
    # In partnership play a seat says its partnership's name; alone, nothing more.
    team = [team_name(lang, seat & 1)] if facts.is_partnership else []
    inner, right = x0 + 24, x1 - 12
    side = PLACES[facts.players][seat] in ("left", "right")
    if info.is_open:
        draw.rounded_rectangle((x0, y0, x1, y1), radius=16, fill=PANEL, outline=MUTED, width=2)
        name = text(lang, "free")
        color = MUTED
        held = clean_name(info.name, "")
        note = text(lang, "held_for", name=held) if held else text(lang, "seat", n=seat + 1)
    else:
        draw.rounded_rectangle(
            (x0, y0, x1, y1), radius=16, fill=PANEL, outline=color_of_side, width=3
        )
        name = clean_name(info.name, text(lang, "seat", n=seat + 1))
        color = WHITE
        tags = [text(lang, "robot")] if info.is_robot else []
        if info.away:
            tags.append(text(lang, "away"))
        note = " · ".join(tags) or text(lang, "seated")
    draw.rounded_rectangle(
        (x0 + 9, y0 + 12, x0 + 15, y1 - 12),
        radius=3,
        fill=MUTED if info.is_open else color_of_side,
    )
    if not side:
        draw_text(
            image,
            inner,
            y0 + 6,
            name,
            _NAME_SIZE,
            bold=True,
            color=color,
            max_width=right - inner,
            ltr=info.is_open,
        )
        y = y0 + 44
        for line in team:
            draw_text(image, inner, y, line, LABEL_SIZE, bold=True, color=MUTED)
            y += 36
        draw_text(image, inner, y, note, LABEL_SIZE, color=MUTED, max_width=right - inner)
        return
    inner, right = x0 + 24, x1 - 10
    y = y0 + 12
    for line in wrap_text(name, _SIDE_NAME_SIZE, True, right - inner, 3):
        draw_text(image, inner, y, line, _SIDE_NAME_SIZE, bold=True, color=color, ltr=info.is_open)
        y += 34
    y += 8
    for line in team:
        draw_text(image, inner, y, line, LABEL_SIZE, bold=True, color=MUTED)
        y += _LINE + 4
    for line in wrap_text(note, LABEL_SIZE, False, right - inner, 3):
        draw_text(image, inner, y, line, LABEL_SIZE, color=MUTED)
        y += _LINE


def waiting_image(rules: Rules, facts: TableFacts, *, starting: bool = False) -> Image.Image:
    """The waiting table as a Pillow image (RGB, :data:`render.board.BOARD_SIZE`)."""
    lang = facts.language
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    for seat in range(facts.players):
        _draw_seat(image, draw, facts, seat)
    seated = sum(1 for s in facts.seats if not s.is_open)
    seconds = None if facts.seconds_left is None else max(0, facts.seconds_left)
    # Top left: the table's label ("Mesa 7", phrased by bot/present) and target; top
    # right: how many sit.
    label = clean_name(facts.table_label, "")
    if label:
        draw_text(image, 18, 10, label, 30, bold=True, max_width=SEAT_PANELS[2][0] - 30, ltr=False)
    draw_text(image, 18, 50, text(lang, "target", n=rules.target), LABEL_SIZE, color=MUTED)
    seated_width = 944 - SEAT_PANELS[2][2] - 14
    seated_lines = wrap_text(
        text(lang, "seated_count", n=seated, total=facts.players), LABEL_SIZE, True, seated_width, 2
    )
    for i, line in enumerate(seated_lines):
        draw_text(image, 944, 14 + i * _LINE, line, LABEL_SIZE, bold=True, anchor="r")
    # Middle: what the table waits for, when it changes, then the rules.
    a = TABLE_AREA
    mid = (a.x0 + a.x1) // 2
    width = a.width - 40
    if starting:
        status = text(lang, "starts_soon") if seconds is None else text(lang, "starts", n=seconds)
    elif seconds is None:
        status = text(lang, "robots_later")
    else:
        status = text(lang, "robots_fill", n=seconds)
    title = text(lang, "starting_title" if starting else "waiting_title")
    status_lines = wrap_text(status, 28, True, width, 2)
    box = (a.x0 + 16, 0, a.x1 - 16, 0)
    rule_width = box[2] - box[0] - 36
    rules_text = [
        line
        for rule in rules_lines(rules, lang)
        for line in wrap_text(rule, _RULE_SIZE, False, rule_width, 2)
    ]
    box_height = 100 + 36 * len(rules_text)
    height = 50 + 36 * len(status_lines) + 28 + box_height
    y = (a.y0 + a.y1 - height) // 2
    draw_text(image, mid, y, title, 36, bold=True, anchor="m", max_width=width)
    y += 50
    for line in status_lines:
        draw_text(image, mid, y, line, 28, bold=True, anchor="m", color=GOLD)
        y += 36
    y += 28
    draw.rounded_rectangle((box[0], y, box[2], y + box_height), radius=18, fill=PANEL)
    draw_text(image, mid, y + 16, text(lang, "rules"), LABEL_SIZE, color=MUTED, anchor="m")
    draw_text(image, mid, y + 50, preset_label(rules, lang), 30, bold=True, anchor="m")
    y += 100
    for line in rules_text:
        draw_text(image, mid, y, line, _RULE_SIZE, anchor="m", max_width=rule_width)
        y += 36
    # Bottom right: the countdown, as the board shows a turn's time.
    if seconds is not None:
        key = "starts_in" if starting else "robots_in"
        draw_text(image, 944, 842, text(lang, key), LABEL_SIZE, color=MUTED, anchor="r")
        draw_text(
            image, 944, 878, text(lang, "seconds", n=seconds), 30, bold=True, anchor="r", color=GOLD
        )
    return image


def waiting_png(rules: Rules, facts: TableFacts, *, starting: bool = False) -> bytes:
    """The group's picture of a table before its match starts, as PNG bytes (960 x 960).

    Args:
        rules: the table's rule set (its preset, target, counting, turn time, stake are
            listed; rules.md, "The options").
        facts: the table's seats (``SeatFacts.is_open`` for a free seat, its ``name`` then
            the player it is held for, or ""), the table label, the language, and
            ``seconds_left``: seconds until the robots fill the free seats (or, when
            ``starting``, until the match starts), None when no timer runs.
        starting: the table is full and counting down to the first deal.

    Same arguments, same bytes.

    Raises:
        TypeError: ``rules`` is not a :class:`engine.rules.Rules`.
        ValueError: the facts' seats or partnership do not match the rules.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"waiting_png draws Rules, not {type(rules).__name__}")
    check_facts(facts, rules)
    image = waiting_image(rules, facts, starting=starting)
    assert image.size == BOARD_SIZE
    return encode_png(image)
