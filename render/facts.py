"""What the table manager tells the renderer beyond the engine's view.

The engine's views know seats only by number; the names, robots, timers and the
language of the picture come from here. Both classes are frozen and hashable.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import Rules

__all__ = ["SeatFacts", "TableFacts", "check_facts"]


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
        seats: the table's 2, 3 or 4 seats, by seat number (rules.md, "Seats",
            "Formats"); in partnership play seats 0 and 2 are one partnership, 1 and 3
            the other.
        seconds_left: seconds the seat to move has left, or None to show no timer.
        table_label: a short label for the table (shown small in a corner), may be "".
        language: ``"es"`` (default) or ``"en"``; anything else falls back to Spanish.
        boneyard: how many tiles are left in the boneyard (pozo), shown on the board as
            "Pozo: 12" ("Boneyard: 12"); None (default) for a deal with no boneyard,
            which shows nothing (the partnership double-six game deals all 28 tiles).
        partnership: two partnerships (True) or each player for themselves (False);
            None (default) means partnership play at four seats, individual play at
            two or three (rules.md, "Formats").

    Raises:
        ValueError: ``boneyard`` is negative; fewer than 2 or more than 4 seats;
            partnership play at other than 4 seats.
    """

    seats: tuple[SeatFacts, ...]
    seconds_left: int | None = None
    table_label: str = ""
    language: str = "es"
    boneyard: int | None = None
    partnership: bool | None = None

    def __post_init__(self) -> None:
        if self.boneyard is not None and self.boneyard < 0:
            raise ValueError(f"a boneyard holds no fewer than 0 tiles, not {self.boneyard}")
        if not 2 <= len(self.seats) <= 4:
            raise ValueError(f"a table has 2 to 4 seats, not {len(self.seats)}")
        if self.partnership and len(self.seats) != 4:
            raise ValueError(f"partnership play needs 4 seats, not {len(self.seats)}")

    @property
    def players(self) -> int:
        """How many seats the table has (2..4)."""
        return len(self.seats)

    @property
    def is_partnership(self) -> bool:
        """Two partnerships play (given, or four seats when not given)."""
        return self.players == 4 if self.partnership is None else self.partnership

    @property
    def sides(self) -> int:
        """How many sides score: 2 partnerships, or one per player (rules.md, "Formats")."""
        return 2 if self.is_partnership else self.players

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for: its partnership (``seat % 2``) or itself."""
        return seat & 1 if self.is_partnership else seat


def check_facts(facts: TableFacts, rules: Rules) -> None:
    """The facts describe a table of these rules: as many seats, and partnership play
    or not, as the rules say (a picture drawn otherwise would misplace seats).

    Raises:
        ValueError: they do not.
    """
    if facts.players != rules.players or facts.is_partnership != rules.partnership:
        given = "partnership" if facts.is_partnership else "individual"
        wanted = "partnership" if rules.partnership else "individual"
        raise ValueError(
            f"the facts give {facts.players} seats ({given}), the rules {rules.players} ({wanted})"
        )
