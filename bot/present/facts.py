"""Picture data: the one place that turns the core's seats into ``render`` facts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.events import SeatInfo, TableChanged, YourTiles
from bot.present.i18n import translator
from render import SeatFacts, TableFacts

__all__ = ["board_facts", "hand_facts", "seat_facts", "table_facts"]


def seat_facts(seat: SeatInfo, *, show_reserved: bool = True) -> SeatFacts:
    """A seat for the renderer: an open seat is ``is_open``, named after the player it
    is held for (if any, and when ``show_reserved``)."""
    if seat.is_open:
        held = seat.reserved_for.display_name if seat.reserved_for and show_reserved else ""
        return SeatFacts(name=held, is_open=True)
    return SeatFacts(name=seat.name, is_robot=seat.is_robot, away=seat.away)


def table_facts(
    seats: Sequence[SeatInfo],
    label: str,
    language: str,
    *,
    seconds_left: int | None = None,
) -> TableFacts:
    """The ``render.TableFacts`` of a table (``label`` its number, e.g. ``"3"``; the
    picture says "Mesa 3" in ``language``)."""
    facts = [seat_facts(s) for s in seats]
    return TableFacts(
        seats=(facts[0], facts[1], facts[2], facts[3]),
        seconds_left=seconds_left,
        table_label=translator(language)("Table {label}", label=label) if label else "",
        language=language,
    )


def board_facts(event: TableChanged, language: str | None = None) -> TableFacts:
    """The facts of a board picture (with the seconds left to the table's timer), in
    ``language`` or the chat's."""
    return table_facts(
        event.seats, event.label, language or event.chat.language, seconds_left=event.seconds_left
    )


def hand_facts(event: YourTiles, seconds_left: int | None = None) -> TableFacts:
    """The facts of a player's hand picture, in the player's language."""
    return table_facts(event.seats, event.label, event.to.language, seconds_left=seconds_left)
