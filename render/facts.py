"""What the table manager tells the renderer beyond the engine's view.

The engine's views know seats only by number; the names, robots, timers and the
language of the picture come from here. Both classes are frozen and hashable.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatFacts", "TableFacts"]


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat as the table shows it.

    Attributes:
        name: the player's display name, any Unicode (long names are shortened with an
            ellipsis to fit; control characters are dropped).
        is_robot: a robot plays this seat.
        away: the player dropped out and a robot plays for them meanwhile.
        is_open: nobody sits here yet (a waiting table); ``name``, when not empty, is
            the player the seat is held for (an invitation or a rematch).
        is_you: the picture is for this seat's player alone (the terminal): their turn
            reads "Te toca", not "Le toca".
    """

    name: str
    is_robot: bool = False
    away: bool = False
    is_open: bool = False
    is_you: bool = False


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The table around a hand.

    Attributes:
        seats: the four seats, by seat number (seats 0 and 2 are one partnership,
            1 and 3 the other; rules.md, "Seats").
        seconds_left: seconds the seat to move has left, or None to show no timer.
        table_label: a short label for the table (shown small in a corner), may be "".
        language: ``"es"`` (default) or ``"en"``; anything else falls back to Spanish.
        boneyard: how many tiles are left in the boneyard (pozo), shown on the board as
            "Pozo: 12" ("Boneyard: 12"); None (default) for a deal with no boneyard,
            which shows nothing (the partnership double-six game deals all 28 tiles).

    Raises:
        ValueError: ``boneyard`` is negative.
    """

    seats: tuple[SeatFacts, SeatFacts, SeatFacts, SeatFacts]
    seconds_left: int | None = None
    table_label: str = ""
    language: str = "es"
    boneyard: int | None = None

    def __post_init__(self) -> None:
        if self.boneyard is not None and self.boneyard < 0:
            raise ValueError(f"a boneyard holds no fewer than 0 tiles, not {self.boneyard}")
