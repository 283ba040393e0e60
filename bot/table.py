"""A live table's state as the manager keeps it, and its snapshot (design.md, rule 6).

Only :class:`bot.manager.TableManager` changes a :class:`Table`, under the table's lock.
A snapshot is a JSON object: the match record so far (records.md, via
``engine.records.record_of``), the seats, the stakes held and the armed deadlines, so a
restarted manager carries on exactly where the table was.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from bot.clock import Timer
from bot.protocol import ChatRef, PlayerRef
from engine.hand import HandState
from engine.match import Match
from engine.records import match_from_record, record_of
from engine.rules import Rules

__all__ = ["SNAPSHOT_VERSION", "DeadlineKind", "Seat", "Table"]

SNAPSHOT_VERSION = 1

DeadlineKind = Literal["fill", "start", "turn", "forced", "robot", "next_hand"]
"""What the table's main timer does when it fires: fill empty seats with robots; start
the match after the countdown; a turn ran out (a robot plays that move); play the only
legal move; a robot's move; deal the next hand."""

Phase = Literal["waiting", "countdown", "playing", "ended"]


@dataclass(slots=True)
class Seat:
    """One seat.

    Attributes:
        player: the human holding the seat (also while away), or None.
        player_id: their storage id.
        robot_level: the level of a robot seat (None for a human's or an open seat).
        away: a robot plays for the human until ``back_by``.
        back_by: deadline (epoch seconds) to come back.
        missed: consecutive turns the human let run out.
        reserved_for: an open seat held for an invited player.
        forfeited: the human abandoned (stake forfeited); the robot keeps the seat.
    """

    player: PlayerRef | None = None
    player_id: int | None = None
    robot_level: str | None = None
    away: bool = False
    back_by: float | None = None
    missed: int = 0
    reserved_for: PlayerRef | None = None
    forfeited: bool = False

    @property
    def is_open(self) -> bool:
        """Nobody sits here (it may be reserved)."""
        return self.player is None and self.robot_level is None

    @property
    def present(self) -> bool:
        """A human sits here and plays it themself."""
        return self.player is not None and not self.away

    @property
    def seated(self) -> bool:
        """A human holds this seat (playing, or away but entitled to come back)."""
        return self.player is not None and not self.forfeited

    @property
    def robot_plays(self) -> bool:
        return self.player is None or self.away

    def to_json(self) -> dict[str, Any]:
        return {
            "player": asdict(self.player) if self.player else None,
            "player_id": self.player_id,
            "robot_level": self.robot_level,
            "away": self.away,
            "back_by": self.back_by,
            "missed": self.missed,
            "reserved_for": asdict(self.reserved_for) if self.reserved_for else None,
            "forfeited": self.forfeited,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        player = data.get("player")
        reserved = data.get("reserved_for")
        return cls(
            player=PlayerRef(**player) if player else None,
            player_id=data.get("player_id"),
            robot_level=data.get("robot_level"),
            away=bool(data.get("away")),
            back_by=data.get("back_by"),
            missed=int(data.get("missed", 0)),
            reserved_for=PlayerRef(**reserved) if reserved else None,
            forfeited=bool(data.get("forfeited")),
        )


@dataclass(eq=False)
class Table:
    """A live table (one match). See :mod:`bot.manager` for how it moves."""

    id: str
    label: str
    chat: ChatRef
    rules: Rules
    seed: int
    created_at: float
    robot_level: str
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    phase: Phase = "waiting"
    match: Match | None = None
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    stakes: dict[int, int] = field(default_factory=dict)
    closed: bool = False
    # not saved: runtime machinery
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    token: int = 0
    timer: Timer | None = None
    away_timers: dict[int, Timer] = field(default_factory=dict)
    outbox: deque[Any] = field(default_factory=deque)
    sender: asyncio.Task[None] | None = None
    # records.md entries of the finished hands, written once (a snapshot after every move
    # would otherwise rewrite the whole match each time)
    _hand_records: list[dict[str, Any]] = field(default_factory=list)
    _rules_spec: Any = None

    @property
    def hand_number(self) -> int:
        return self.match.hand_number if self.match is not None else 0

    @property
    def move_number(self) -> int:
        """The number the next move of the current hand will have (from 1)."""
        return len(self.match.hand.history) + 1 if self.match is not None else 0

    def seat_of(self, key: tuple[str, str]) -> int | None:
        """The seat a human holds here (away included, abandoned excluded), or None."""
        for index, seat in enumerate(self.seats):
            if seat.seated and seat.player is not None and seat.player.key == key:
                return index
        return None

    def reserved_seat_for(self, key: tuple[str, str]) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.is_open and seat.reserved_for is not None and seat.reserved_for.key == key:
                return index
        return None

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s.is_open)

    def humans(self) -> list[int]:
        """Seats held by humans (away included, abandoned excluded)."""
        return [i for i, s in enumerate(self.seats) if s.seated]

    def present_humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.present]

    def snapshot(self) -> dict[str, Any]:
        """The JSON object saved with ``storage.save_table``."""
        return {
            "version": SNAPSHOT_VERSION,
            "table_id": self.id,
            "label": self.label,
            "chat": asdict(self.chat),
            "rules": self.rules.model_dump(),
            "seed": self.seed,
            "created_at": self.created_at,
            "robot_level": self.robot_level,
            "seats": [s.to_json() for s in self.seats],
            "phase": self.phase,
            "record": self.record() if self.match is not None else None,
            "deadline": self.deadline,
            "deadline_kind": self.deadline_kind,
            "stakes": {str(k): v for k, v in self.stakes.items()},
        }

    def record(self) -> dict[str, Any]:
        """The match so far as a records.md record (same as ``record_of(self.match)``)."""
        match = self.match
        assert match is not None
        if self._rules_spec is None:
            self._rules_spec = match.rules.to_spec()
        finished = match.hands[:-1]
        if len(self._hand_records) > len(finished):
            self._hand_records.clear()
        for hand in finished[len(self._hand_records) :]:
            self._hand_records.append(_hand_record(match, hand))
        return {
            "rules": self._rules_spec,
            "hands": [*self._hand_records, _hand_record(match, match.hand)],
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Table:
        """Rebuild a table from :meth:`snapshot` (timers are re-armed by the manager).

        Raises:
            ValueError: an unknown snapshot version or a record that does not replay.
        """
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"unknown table snapshot version {data.get('version')!r}")
        record = data.get("record")
        table = cls(
            id=data["table_id"],
            label=data["label"],
            chat=ChatRef(**data["chat"]),
            rules=Rules.build(**data["rules"]),
            seed=int(data["seed"]),
            created_at=float(data["created_at"]),
            robot_level=data["robot_level"],
            seats=[Seat.from_json(s) for s in data["seats"]],
            phase=data["phase"],
            match=match_from_record(record) if record else None,
            deadline=data.get("deadline"),
            deadline_kind=data.get("deadline_kind"),
            stakes={int(k): int(v) for k, v in data.get("stakes", {}).items()},
        )
        if table.match is not None and table.match.rules != table.rules:
            # the record carries the scoring rules; the table's timers and stake too
            table.match = Match(table.rules, table.match.hands, table.match.score)
        return table


def _hand_record(match: Match, hand: HandState) -> dict[str, Any]:
    hands: dict[str, Any] = record_of(Match(match.rules, (hand,), (0, 0)))["hands"][0]
    return hands
