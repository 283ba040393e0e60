"""The Telegram adapter's sentences: board captions, hand captions, results, help.

Every sentence comes from the ``telegram`` message catalog (Spanish by default, English),
phrased from values the table manager computed (scores, points, payouts): nothing here
decides a rule, a score or an amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core import HandEnded, MatchEnded, SeatInfo, TableChanged, YourTiles
from bot.present.i18n import N_, Translator, translator
from engine.hand import Termination
from engine.moves import Move
from engine.rules import OPTION_VALUES, Rules

__all__ = [
    "board_caption",
    "hand_caption",
    "hand_ended_text",
    "help_text",
    "match_ended_caption",
    "move_text",
    "rules_text",
    "team_names",
]

CAPTION_LIMIT = 1024  # Telegram's caption length

OPTION_LABELS: dict[str, str] = {
    "target": N_("Match to"),
    "counting": N_("Counting"),
    "first_starter": N_("First hand opens"),
    "next_starter": N_("Next hands open"),
    "blocked_winner": N_("Tranca won by"),
    "redeal_doubles": N_("Redeal with doubles"),
    "capicua_bonus": N_("Capicúa bonus"),
    "turn_seconds": N_("Seconds per turn"),
    "forced_move_seconds": N_("Forced move after"),
    "stake": N_("Stake ($)"),
}
"""The rule options' names for people (rules.md, "The options")."""

VALUE_LABELS: dict[str, str] = {
    "opponents": N_("opponents"),
    "all": N_("all"),
    "double_six": N_("double six"),
    "random": N_("random"),
    "draw": N_("draw"),
    "rotate": N_("rotate"),
    "winner": N_("winner"),
    "team": N_("team"),
    "individual": N_("individual"),
}


def option_label(option: str, language: str) -> str:
    return _t(language)(OPTION_LABELS.get(option, option))


def value_label(value: Any, language: str) -> str:
    if value is None:
        return _t(language)("none")
    if isinstance(value, str) and value in VALUE_LABELS:
        return _t(language)(VALUE_LABELS[value])
    return str(value)


def _t(language: str) -> Translator:
    return translator(language, "telegram")


def seat_name(seats: Sequence[SeatInfo], seat: int, language: str) -> str:
    name = seats[seat].name
    return name if name else _t(language)("free seat")


def team_names(seats: Sequence[SeatInfo], team: int, language: str) -> str:
    """``"Ana y Luis"``: the two seats of partnership ``team`` (seats team and team+2)."""
    return _t(language)(
        "{first} and {second}",
        first=seat_name(seats, team, language),
        second=seat_name(seats, team + 2, language),
    )


def move_text(move: Move, language: str) -> str:
    """``"6-4"`` or ``"pass"`` in ``language``."""
    return _t(language)("passed") if move.tile is None else str(move.tile)


TEAM_MARKS = ("🔵", "🔴")
"""The partnerships' colours, as the board picture draws them (seats 0 and 2 blue)."""


def _score_line(seats: Sequence[SeatInfo], score: tuple[int, int], language: str) -> str:
    return _t(language)(
        "{team0}: {score0} – {team1}: {score1}",
        team0=f"{TEAM_MARKS[0]} {team_names(seats, 0, language)}",
        score0=score[0],
        team1=f"{TEAM_MARKS[1]} {team_names(seats, 1, language)}",
        score1=score[1],
    )


def board_caption(event: TableChanged, language: str, *, emote: str | None = None) -> str:
    """The board's caption: table, phase, whose turn and time left, score, last move."""
    _ = _t(language)
    seats = event.seats
    lines: list[str] = []
    if event.phase == "waiting":
        free = sum(1 for s in seats if s.is_open)
        lines.append(_("Table {label} · waiting for players", label=event.label))
        names = [s.name for s in seats if not s.is_open]
        if names:
            lines.append(_("Seated: {names}", names=", ".join(names)))
        lines.append(_("Free seats: {free}", free=free))
        if event.seconds_left is not None:
            lines.append(_("Robots fill the table in {seconds} s", seconds=event.seconds_left))
        lines.append(_("Press a seat button or send /jugar."))
    elif event.phase == "countdown":
        lines.append(_("Table {label} · starting", label=event.label))
        lines.append(
            _(
                "{team0} against {team1}",
                team0=team_names(seats, 0, language),
                team1=team_names(seats, 1, language),
            )
        )
        if event.seconds_left is not None:
            lines.append(_("The match starts in {seconds} s", seconds=event.seconds_left))
    else:
        view = event.view
        header = _("Table {label}", label=event.label)
        if event.hand_number:
            header += " · " + _("Hand {hand}", hand=event.hand_number)
        header += " · " + _("to {target}", target=event.rules.target)
        lines.append(header)
        score = view.match_score if view is not None else (0, 0)
        lines.append(_score_line(seats, score, language))
        if event.phase == "ended":
            lines.append(_("The match is over."))
        elif event.turn is not None and (view is None or view.outcome is None):
            if event.seconds_left is not None:
                lines.append(
                    _(
                        "Turn: {name} ({seconds} s)",
                        name=seat_name(seats, event.turn, language),
                        seconds=event.seconds_left,
                    )
                )
            else:
                lines.append(_("Turn: {name}", name=seat_name(seats, event.turn, language)))
        if view is not None and view.last_move is not None:
            seat, move = view.last_move
            lines.append(
                _(
                    "Last: {name} {move}",
                    name=seat_name(seats, seat, language),
                    move=move_text(move, language),
                )
            )
    if emote:
        lines.append("💬 " + emote)
    return "\n".join(lines)[:CAPTION_LIMIT]


def hand_caption(
    event: YourTiles, language: str, *, group: str, seconds_left: int | None = None
) -> str:
    """The private hand picture's caption; it names the table and the group."""
    _ = _t(language)
    where = _("Table {label} in {group}", label=event.label, group=group)
    if event.is_your_turn:
        if seconds_left is not None:
            return where + "\n" + _("Your turn! You have {seconds} s.", seconds=seconds_left)
        return where + "\n" + _("Your turn!")
    turn = event.view.turn
    if event.view.outcome is not None:
        return where + "\n" + _("Your tiles (hand {hand}).", hand=event.hand_number)
    return (
        where
        + "\n"
        + _(
            "Your tiles. Now playing: {name}.",
            name=seat_name(event.seats, turn, language),
        )
    )


def hand_ended_text(event: HandEnded, seats: Sequence[SeatInfo], label: str, language: str) -> str:
    """``"Hand 2: domino by Ana. Ana y Luis win 24 points. Score: 24 – 34"``."""
    _ = _t(language)
    outcome = event.outcome
    if outcome.end is Termination.DOMINO:
        closer = outcome.winner_seat if outcome.winner_seat is not None else outcome.last_seat
        how = _("domino by {name}", name=seat_name(seats, closer, language))
        if outcome.capicua:
            how += " " + _("(capicúa!)")
    else:
        how = _("blocked (tranca)")
    if outcome.winner_team is None:
        result = _("Nobody scores.")
    else:
        team = outcome.winner_team
        result = _(
            "{team} win {points} points.",
            team=team_names(seats, team, language),
            points=event.hand_points[team],
        )
    return _(
        "Table {label} · hand {hand}: {how}. {result} Score: {score0} – {score1}",
        label=label,
        hand=event.hand_number,
        how=how,
        result=result,
        score0=event.score[0],
        score1=event.score[1],
    )


def match_ended_caption(event: MatchEnded, label: str, language: str) -> str:
    """Who won, the final score and what each human received."""
    _ = _t(language)
    lines = [
        _(
            "Table {label}: {team} win the match {score0} – {score1}!",
            label=label,
            team=team_names(event.seats, event.winner_team, language),
            score0=event.score[0],
            score1=event.score[1],
        )
    ]
    for seat, amount in sorted(event.payouts.items()):
        if amount:
            lines.append(
                _(
                    "{name} receives ${amount}",
                    name=seat_name(event.seats, seat, language),
                    amount=amount,
                )
            )
    return "\n".join(lines)[:CAPTION_LIMIT]


def rules_text(
    rules: Rules, preset: str | None, overrides: Mapping[str, Any], language: str
) -> str:
    """The chat's rule set, one option a line."""
    _ = _t(language)
    lines = [_("Preset: {preset}", preset=preset or rules.preset_name or "—")]
    values = rules.model_dump()
    for option in OPTION_VALUES:
        mark = " *" if option in overrides else ""
        lines.append(
            f"• {option_label(option, language)}: {value_label(values[option], language)}{mark}"
        )
    if overrides:
        lines.append(_("* changed from the preset"))
    return "\n".join(lines)


def help_text(language: str) -> str:
    _ = _t(language)
    return _(
        "Dominoes for four, two partnerships.\n"
        "/jugar sits you at a table of this group; robots fill the empty seats after 2 minutes "
        "(or at once with /robots).\n"
        "Your tiles come in a private chat with me, with one button per move you can play.\n"
        "/mesa opens a table: a preset, options like meta=200, and seats like "
        "derecha=robot enfrente=robot:maestro (reply to someone's message to invite them as "
        "your partner).\n"
        "/salir leaves; /volver takes your seat back from the robot within 5 minutes.\n"
        "/saldo, /top, /reglas, /historial. Admins choose the rules with /config."
    )
