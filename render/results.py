"""Summary pictures: the end of a hand and the end of a match.

Size: 960 x 522 pixels, the board's width so both pictures sit alike in a chat, and
tall enough for a title, a row per seat (2 to 4) and the score in large type on a
phone; no text is smaller than :data:`render.canvas.MIN_TEXT_SIZE`. The score is the
two partnerships' or, in individual play, each player's (rules.md, "Formats").
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
    SIDE_COLORS,
    WHITE,
    Color,
    draw_text,
    encode_png,
)
from render.facts import TableFacts, check_facts
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


def side_name(facts: TableFacts, side: int) -> str:
    """A side as the pictures name it: a partnership's colour ("Azul"), or in individual
    play the player's name."""
    if facts.is_partnership:
        return team_name(facts.language, side)
    return seat_name(facts, side)


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
    if not facts.is_partnership:
        return title, text(
            lang, "blocked_alone", name=seat_name(facts, team), n=outcome.pips_left[team]
        )
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
    """One row per seat (name, side colour, a value on the right); the winning side's
    rows outlined. Fewer than four rows (and their header) stand in the middle of the
    four rows' band."""
    y += (4 - facts.players) * 26
    draw_text(image, 940, y - 34, header, LABEL_SIZE, color=MUTED, anchor="r", max_width=900)
    for seat in range(facts.players):
        side = facts.side_of(seat)
        top = y + seat * 52
        outline = SIDE_COLORS[side] if winners == side else None
        draw.rounded_rectangle(
            (20, top, 940, top + 44), radius=12, fill=PANEL, outline=outline, width=3
        )
        draw.rounded_rectangle((30, top + 9, 36, top + 35), radius=3, fill=SIDE_COLORS[side])
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
    """The two partnerships' scores in rules.md notation (hand points – running total);
    in individual play, one card per player."""
    lang = facts.language
    if not facts.is_partnership:
        _player_cards(image, draw, view, facts, y)
        return
    for team in (0, 1):
        x0 = 20 + team * 470
        draw.rounded_rectangle(
            (x0, y, x0 + 450, y + 96), radius=16, fill=PANEL, outline=SIDE_COLORS[team], width=3
        )
        draw.ellipse((x0 + 16, y + 18, x0 + 36, y + 38), fill=SIDE_COLORS[team])
        draw_text(image, x0 + 46, y + 11, team_name(lang, team), LABEL_SIZE, bold=True)
        score = score_text(view, team)
        draw_text(
            image, x0 + 434, y + 10, text(lang, "hand_total"), LABEL_SIZE, color=MUTED, anchor="r"
        )
        score_w = draw_text(image, x0 + 434, y + 44, score, 38, bold=True, color=GOLD, anchor="r")
        partners = f"{seat_name(facts, team)} · {seat_name(facts, team + 2)}"
        room = 434 - 16 - score_w - 16
        draw_text(image, x0 + 16, y + 54, partners, LABEL_SIZE, color=MUTED, max_width=room)


def _player_cards(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, facts: TableFacts, y: int
) -> None:
    """Each player's score card in individual play: colour, name, and the score in
    rules.md notation (:func:`render.board.score_text`), side by side across the width."""
    n = facts.players
    gap = 20
    width = (920 - (n - 1) * gap) // n
    size = 38 if n < 4 else 32
    for seat in range(n):
        x0 = 20 + seat * (width + gap)
        color = SIDE_COLORS[seat]
        draw.rounded_rectangle(
            (x0, y, x0 + width, y + 96), radius=16, fill=PANEL, outline=color, width=3
        )
        draw.ellipse((x0 + 16, y + 18, x0 + 36, y + 38), fill=color)
        name = seat_name(facts, seat)
        draw_text(
            image, x0 + 46, y + 11, name, LABEL_SIZE, bold=True, max_width=width - 62, ltr=False
        )
        score = score_text(view, seat)
        draw_text(image, x0 + width - 16, y + 44, score, size, bold=True, color=GOLD, anchor="r")


def hand_result_image(view: PublicView, facts: TableFacts) -> Image.Image:
    """The hand's summary as a Pillow image (RGB, :data:`RESULT_SIZE`).

    Raises:
        TypeError: ``view`` is not a view.
        ValueError: the hand is not over (``view.outcome`` is None), or the facts'
            seats or partnership do not match the view's rules.
    """
    if not isinstance(view, PublicView):
        raise TypeError(f"hand_result_png draws a PublicView, not {type(view).__name__}")
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the hand is not over")
    check_facts(facts, view.rules)
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
        points = text(lang, "hand_points", team=side_name(facts, team), n=outcome.points)
        draw_text(image, 20, 118, points, 28, bold=True, color=SIDE_COLORS[team], max_width=920)
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
    check_facts(facts, view.rules)
    lang = facts.language
    winners = view.match_score.index(max(view.match_score))
    image = _background().copy()
    draw = ImageDraw.Draw(image)
    draw_text(image, 20, 8, text(lang, "target", n=view.rules.target), LABEL_SIZE, color=MUTED)
    draw_text(image, 20, 40, text(lang, "match_over"), 34, bold=True, color=GOLD)
    if facts.is_partnership:
        names = text(lang, "winners", a=seat_name(facts, winners), b=seat_name(facts, winners + 2))
    else:
        names = text(lang, "winner", name=seat_name(facts, winners))
    draw_text(image, 20, 90, names, 28, bold=True, color=SIDE_COLORS[winners], max_width=920)
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
    for seat in range(facts.players):
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
