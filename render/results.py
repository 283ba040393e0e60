"""Summary pictures: the end of a hand and the end of a match.

Size: 960 x 522 pixels, the board's width so both pictures sit alike in a chat, and
tall enough for a title, a row per seat and the score in large type on a phone; no text
is smaller than :data:`render.canvas.MIN_TEXT_SIZE`.
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
    LABEL_SIZE,
    MUTED,
    PANEL,
    PASS_RED,
    TEAM_COLORS,
    WHITE,
    Color,
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

RESULT_SIZE: Final = (960, 522)
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
        last = view.last_move
        how = text(lang, "last_tile", tile=str(last[1].tile)) if last and last[1].tile else ""
        if outcome.capicua:
            bonus = view.rules.capicua_bonus
            capicua = text(lang, "capicua", n=bonus) if bonus else text(lang, "capicua_plain")
            how = f"{capicua} · {how}" if how else capicua
        return title, how
    title = text(lang, "blocked")
    if outcome.winner_team is None:
        return title, text(lang, "blocked_tie")
    team = outcome.winner_team
    if view.rules.blocked_winner == "team":
        totals = outcome.team_pips
        return title, text(
            lang, "blocked_team", team=team_name(lang, team), a=totals[team], b=totals[1 - team]
        )
    seat = outcome.winner_seat
    assert seat is not None  # a won tranca always names its winner (engine/hand.py)
    return title, text(
        lang,
        "blocked_individual",
        team=team_name(lang, team),
        name=seat_name(facts, seat),
        n=outcome.pips_left[seat],
    )


def _seat_rows(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    facts: TableFacts,
    y: int,
    values: list[tuple[str, Color]],
    header: str,
    winners: int | None,
) -> None:
    """One row per seat (name, team colour, a value on the right); winners outlined."""
    draw_text(image, 940, y - 34, header, LABEL_SIZE, color=MUTED, anchor="r", max_width=900)
    for seat in range(4):
        team = seat & 1
        top = y + seat * 52
        outline = TEAM_COLORS[team] if winners == team else None
        draw.rounded_rectangle(
            (20, top, 940, top + 44), radius=12, fill=PANEL, outline=outline, width=3
        )
        draw.rounded_rectangle((30, top + 9, 36, top + 35), radius=3, fill=TEAM_COLORS[team])
        draw_text(
            image,
            50,
            top + 5,
            seat_name(facts, seat),
            LABEL_SIZE,
            bold=True,
            max_width=700,
            ltr=False,
        )
        value, color = values[seat]
        draw_text(image, 920, top + 4, value, 28, bold=True, color=color, anchor="r")


def _score_cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts, y: int
) -> None:
    """The two partnerships' scores in rules.md notation (hand points – running total)."""
    lang = facts.language
    for team in (0, 1):
        x0 = 20 + team * 470
        draw.rounded_rectangle(
            (x0, y, x0 + 450, y + 96), radius=16, fill=PANEL, outline=TEAM_COLORS[team], width=3
        )
        draw.ellipse((x0 + 16, y + 18, x0 + 36, y + 38), fill=TEAM_COLORS[team])
        draw_text(image, x0 + 46, y + 11, team_name(lang, team), LABEL_SIZE, bold=True)
        score = score_text(view, team)
        draw_text(
            image, x0 + 434, y + 10, text(lang, "hand_total"), LABEL_SIZE, color=MUTED, anchor="r"
        )
        score_w = draw_text(image, x0 + 434, y + 44, score, 38, bold=True, color=GOLD, anchor="r")
        partners = f"{seat_name(facts, team)} · {seat_name(facts, team + 2)}"
        room = 434 - 16 - score_w - 16
        draw_text(image, x0 + 16, y + 54, partners, LABEL_SIZE, color=MUTED, max_width=room)


def hand_result_image(view: PublicView, facts: TableFacts) -> Image.Image:
    """The hand's summary as a Pillow image (RGB, :data:`RESULT_SIZE`).

    Raises:
        TypeError: ``view`` is not a view.
        ValueError: the hand is not over (``view.outcome`` is None).
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"hand_result_png draws a PublicView, not {type(view).__name__}")
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the hand is not over")
    lang = facts.language
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    title, how = _how(view, facts)
    draw_text(image, 20, 8, text(lang, "hand", n=view.hand_number), LABEL_SIZE, color=MUTED)
    draw_text(image, 20, 40, title, 34, bold=True, color=GOLD, max_width=920)
    if how:
        draw_text(image, 20, 84, how, LABEL_SIZE, bold=True, max_width=920)
    if outcome.winner_team is not None:  # a tied tranca already says nobody scores
        team = outcome.winner_team
        points = text(lang, "hand_points", team=team_name(lang, team), n=outcome.points)
        draw_text(image, 20, 118, points, 28, bold=True, color=TEAM_COLORS[team])
    values = [(str(p), WHITE) for p in outcome.pips_left]
    _seat_rows(image, draw, facts, 196, values, text(lang, "pips_left"), outcome.winner_team)
    _score_cards(image, draw, view, facts, 412)
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
        TypeError: ``view`` is not a view.
        ValueError: the hand is not over.
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"match_result_png draws a PublicView, not {type(view).__name__}")
    if view.outcome is None:
        raise ValueError("the hand is not over")
    lang = facts.language
    a, b = view.match_score
    winners = 0 if a > b else 1
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    draw_text(image, 20, 8, text(lang, "target", n=view.rules.target), LABEL_SIZE, color=MUTED)
    draw_text(image, 20, 40, text(lang, "match_over"), 34, bold=True, color=GOLD)
    names = text(lang, "winners", a=seat_name(facts, winners), b=seat_name(facts, winners + 2))
    draw_text(image, 20, 90, names, 28, bold=True, color=TEAM_COLORS[winners], max_width=920)
    stake = view.rules.stake
    values = money_lines(facts, stake, payouts)
    stake_text = text(lang, "stake_net", n=stake) if stake else text(lang, "no_stake")
    _seat_rows(image, draw, facts, 196, values, stake_text, winners)
    _score_cards(image, draw, view, facts, 412)
    return image


def net_dollars(stake: int, paid: int) -> str:
    """A human's result of a match, net of the stake paid: ``"+$10"`` (paid twice a $10
    stake), ``"−$10"`` (paid nothing), ``"$0"``. The one way a match's money is said,
    in the results picture and in every caption beside it (issue 27, item 10)."""
    net = paid - stake
    if net > 0:
        return f"+${net}"
    if net < 0:
        return f"−${-net}"
    return "$0"


def money_lines(
    facts: TableFacts, stake: int, payouts: Mapping[int, int]
) -> list[tuple[str, Color]]:
    """What each seat won or lost, net of the stake it paid, with its colour: a winner
    paid twice a $10 stake shows "+$10", a seat paid nothing "−$10", a robot "—". A
    human's seat a robot played at the end (``away``: they abandoned, or were not back
    in time) paid its stake too and shows what it lost."""
    values: list[tuple[str, Color]] = []
    for seat in range(4):
        facts_seat = facts.seats[seat]
        if (facts_seat.is_robot and not facts_seat.away) or stake == 0:
            values.append(("—", MUTED))
            continue
        paid = payouts.get(seat, 0)
        color = _GREEN if paid > stake else PASS_RED if paid < stake else MUTED
        values.append((net_dollars(stake, paid), color))
    return values


def match_result_png(view: PublicView, facts: TableFacts, payouts: Mapping[int, int]) -> bytes:
    """The match's end: the winners, the final score and the dollars moved, as PNG.

    Args:
        view: the public view of the last hand (over).
        facts: seat names and language.
        payouts: dollars paid to each seat (seat -> dollars, from the storage's
            settlement). Each human is shown net of the stake (a winner paid $20 on a
            $10 stake: "+$10"; a seat paid nothing: "−$10"), and the picture says so;
            robots never pay (rules.md, "The house").

    Raises:
        ValueError: the hand is not over.
    """
    return encode_png(match_result_image(view, facts, payouts))
