"""Summary pictures: the end of a hand and the end of a match.

Size: 960 x 600 pixels, the board's width so both pictures sit alike in a chat, and
tall enough for a title, a row per seat and the score in large type on a phone.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from engine.hand import Termination
from engine.views import PublicView
from render.board import score_text, seat_name
from render.canvas import (
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PASS_RED,
    TEAM_COLORS,
    WHITE,
    draw_text,
    encode_png,
)
from render.facts import TableFacts
from render.strings import team_name, text

__all__ = [
    "RESULT_SIZE",
    "hand_result_image",
    "hand_result_png",
    "match_result_image",
    "match_result_png",
]

RESULT_SIZE: Final = (960, 600)
_GREEN: Final = (96, 214, 120)


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    return Image.new("RGB", RESULT_SIZE, BACKGROUND)


def _how(view: PublicView, facts: TableFacts) -> tuple[str, str]:
    """Title and the line saying how the hand was decided."""
    lang = facts.language
    outcome = view.outcome
    assert outcome is not None
    if outcome.end is Termination.DOMINO:
        title = text(lang, "domino_by", name=seat_name(facts, outcome.last_seat))
        if outcome.capicua:
            bonus = view.rules.capicua_bonus
            return title, text(lang, "capicua", n=bonus) if bonus else text(lang, "capicua_plain")
        return title, ""
    title = text(lang, "blocked")
    if outcome.winner_team is None:
        return title, text(lang, "blocked_tie")
    pips = outcome.pips_left
    team = outcome.winner_team
    if view.rules.blocked_winner == "team":
        mine = pips[team] + pips[team + 2]
        theirs = pips[1 - team] + pips[3 - team]
        return title, text(lang, "blocked_team", team=team_name(lang, team), a=mine, b=theirs)
    low = min(pips)
    seat = outcome.winner_seat if outcome.winner_seat is not None else pips.index(low)
    return title, text(
        lang,
        "blocked_individual",
        team=team_name(lang, team),
        name=seat_name(facts, seat),
        n=pips[seat],
    )


def _seat_rows(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    facts: TableFacts,
    y: int,
    values: list[tuple[str, tuple[int, int, int]]],
    header: str,
    winners: int | None,
) -> None:
    draw_text(image, 940, y - 30, header, 17, color=MUTED, anchor="r")
    for seat in range(4):
        team = seat & 1
        top = y + seat * 54
        fill = PANEL
        draw.rounded_rectangle(
            (20, top, 940, top + 46),
            radius=12,
            fill=fill,
            outline=TEAM_COLORS[team] if winners == team else None,
            width=3,
        )
        draw.rounded_rectangle((30, top + 10, 36, top + 36), radius=3, fill=TEAM_COLORS[team])
        draw_text(image, 50, top + 10, seat_name(facts, seat), 22, bold=True, max_width=640)
        value, color = values[seat]
        draw_text(image, 920, top + 8, value, 24, bold=True, color=color, anchor="r")


def _score_block(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts, y: int
) -> None:
    lang = facts.language
    draw_text(image, 20, y, text(lang, "score"), 17, color=MUTED)
    x = 20
    for team in (0, 1):
        draw.ellipse((x, y + 34, x + 22, y + 56), fill=TEAM_COLORS[team])
        x += 32
        x += draw_text(image, x, y + 28, team_name(lang, team), 26, bold=True) + 14
        x += draw_text(image, x, y + 26, score_text(view, team), 30, bold=True, color=GOLD) + 48


def hand_result_image(view: PublicView, facts: TableFacts) -> Image.Image:
    """The hand's summary as a Pillow image (RGB, :data:`RESULT_SIZE`).

    Raises:
        ValueError: the hand is not over (``view.outcome`` is None).
    """
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the hand is not over")
    lang = facts.language
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    title, how = _how(view, facts)
    draw_text(image, 20, 16, text(lang, "hand", n=view.hand_number), 19, color=MUTED)
    draw_text(image, 20, 42, title, 34, bold=True, color=GOLD, max_width=920)
    if how:
        draw_text(image, 20, 90, how, 22, bold=True, max_width=920)
    if outcome.winner_team is None:
        points = text(lang, "no_points")
    else:
        points = text(
            lang, "hand_points", team=team_name(lang, outcome.winner_team), n=outcome.points
        )
    draw_text(image, 940, 16, text(lang, "points"), 17, color=MUTED, anchor="r")
    _ = points
    values = [(str(p), WHITE) for p in outcome.pips_left]
    _seat_rows(image, draw, facts, 170, values, text(lang, "pips_left"), outcome.winner_team)
    draw_text(
        image,
        20,
        140,
        points,
        24,
        bold=True,
        color=TEAM_COLORS[outcome.winner_team] if outcome.winner_team is not None else MUTED,
    )
    _score_block(image, draw, view, facts, 400)
    return image


def hand_result_png(view: PublicView, facts: TableFacts) -> bytes:
    """How the hand ended, pips left per seat, points and the new score, as PNG bytes.

    Score notation per rules.md ("The house"): the hand's points, then the running
    total. Raises ValueError when the hand is not over.
    """
    return encode_png(hand_result_image(view, facts))


def match_result_image(
    view: PublicView, facts: TableFacts, payouts: Mapping[int, int]
) -> Image.Image:
    """The match's summary as a Pillow image (RGB, :data:`RESULT_SIZE`).

    Raises:
        ValueError: the hand is not over.
    """
    if view.outcome is None:
        raise ValueError("the hand is not over")
    lang = facts.language
    a, b = view.match_score
    winners = 0 if a > b else 1
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    draw_text(image, 20, 16, text(lang, "target", n=view.rules.target), 19, color=MUTED)
    draw_text(image, 20, 42, text(lang, "match_over"), 34, bold=True, color=GOLD)
    names = text(lang, "winners", a=seat_name(facts, winners), b=seat_name(facts, winners + 2))
    draw_text(image, 20, 92, names, 26, bold=True, color=TEAM_COLORS[winners], max_width=920)
    stake = view.rules.stake
    values: list[tuple[str, tuple[int, int, int]]] = []
    for seat in range(4):
        if seat in payouts:
            amount = payouts[seat]
            values.append(
                (
                    f"+${amount}" if amount >= 0 else f"−${-amount}",
                    _GREEN if amount > 0 else PASS_RED,
                )
            )
        elif facts.seats[seat].is_robot or stake == 0:
            values.append(("—", MUTED))
        elif seat & 1 == winners:
            values.append(("+$0", MUTED))
        else:
            values.append((f"−${stake}", PASS_RED))
    stake_text = text(lang, "stake", n=stake) if stake else text(lang, "no_stake")
    _seat_rows(image, draw, facts, 170, values, stake_text, winners)
    _score_block(image, draw, view, facts, 400)
    return image


def match_result_png(view: PublicView, facts: TableFacts, payouts: Mapping[int, int]) -> bytes:
    """The match's end: the winners, the final score and the dollars moved, as PNG.

    Args:
        view: the public view of the last hand (over).
        facts: seat names and language.
        payouts: dollars paid to each seat (seat -> dollars, from the storage's
            settlement); a human seat on the losing side without an entry is shown
            losing the stake; robots never pay (rules.md, "The house").

    Raises:
        ValueError: the hand is not over.
    """
    return encode_png(match_result_image(view, facts, payouts))
