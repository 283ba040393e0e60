"""Labels shared by every front end: seat and partnership names, moves, the score line,
the rule options and their values, and a chat's rule set (one option a line).

Every label comes from the ``core`` message catalog; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.events import SeatInfo
from bot.present.i18n import N_, translator
from engine.moves import Move
from engine.rules import OPTION_VALUES, Rules

__all__ = [
    "OPTION_LABELS",
    "TEAM_MARKS",
    "VALUE_LABELS",
    "move_text",
    "option_label",
    "rules_text",
    "score_line",
    "seat_name",
    "team_names",
    "value_label",
]

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
    return translator(language)(OPTION_LABELS.get(option, option))


def value_label(value: Any, language: str) -> str:
    if value is None:
        return translator(language)("none")
    if isinstance(value, str) and value in VALUE_LABELS:
        return translator(language)(VALUE_LABELS[value])
    return str(value)


def seat_name(seats: Sequence[SeatInfo], seat: int, language: str) -> str:
    name = seats[seat].name
    return name if name else translator(language)("free seat")


def team_names(seats: Sequence[SeatInfo], team: int, language: str) -> str:
    """``"Ana y Luis"``: the two seats of partnership ``team`` (seats team and team+2)."""
    return translator(language)(
        "{first} and {second}",
        first=seat_name(seats, team, language),
        second=seat_name(seats, team + 2, language),
    )


def move_text(move: Move, language: str) -> str:
    """``"6-4"`` or ``"pass"`` in ``language``."""
    return translator(language)("passed") if move.tile is None else str(move.tile)


TEAM_MARKS = ("🔵", "🔴")
"""The partnerships' colours, as the board picture draws them (seats 0 and 2 blue)."""


def score_line(seats: Sequence[SeatInfo], score: tuple[int, int], language: str) -> str:
    return translator(language)(
        "{team0}: {score0} – {team1}: {score1}",
        team0=f"{TEAM_MARKS[0]} {team_names(seats, 0, language)}",
        score0=score[0],
        team1=f"{TEAM_MARKS[1]} {team_names(seats, 1, language)}",
        score1=score[1],
    )


def rules_text(
    rules: Rules, preset: str | None, overrides: Mapping[str, Any], language: str
) -> str:
    """The chat's rule set, one option a line."""
    _ = translator(language)
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
