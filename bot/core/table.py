"""A live table's state as the manager keeps it, and its snapshot (design.md, rule 6).

Only the core (:mod:`bot.core`) changes a :class:`Table`, under the table's lock.
A snapshot is a JSON object: the match record so far (records.md, via
``engine.records.record_of``), the seats, the stakes held and the armed deadlines, so a
restarted manager carries on exactly where the table was. It also keeps the front ends'
notes (``"notes"``: key -> JSON value, e.g. where a chat's board message is); a snapshot
written before notes existed loads with none.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from bot.core.clock import Timer
from bot.core.commands import ChatRef, PlayerRef
from bot.core.events import Event
from bot.core.vocabulary import DeadlineKind, Phase
from engine.hand import HandState
from engine.match import Match
from engine.moves import Side
from engine.records import match_from_record, record_of
from engine.rules import Rules
from engine.views import PublicView

__all__ = ["SNAPSHOT_VERSION", "Seat", "Table"]

SNAPSHOT_VERSION = 1


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
        invite, invite_until: the friend's invitation that keeps it, and when it lets
            the seat go (epoch seconds; a restart keeps both: docs/friends.md).
        forfeited: the human abandoned (stake forfeited); the robot keeps the seat.
        left: they abandoned on purpose (the leave command), not by running out of time
            to come back; either way the seat is closed to them for the match.
        moves: moves made from this seat in the match (tiles and passes).
        robot_moves: of those, made by a robot for the human (away, timed out, gone);
            a seat a robot played most of counts so in the ratings (docs/ratings.md).
    """

    player: PlayerRef | None = None
    player_id: int | None = None
    robot_level: str | None = None
    away: bool = False
    back_by: float | None = None
    missed: int = 0
    reserved_for: PlayerRef | None = None
    invite: str | None = None
    invite_until: float | None = None
    forfeited: bool = False
    left: bool = False
    moves: int = 0
    robot_moves: int = 0

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

    def release(self) -> None:
        """Keep the seat for nobody any more (taken, filled, or its invitation over)."""
        self.reserved_for = None
        self.invite = None
        self.invite_until = None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": _player_json(self.player),
            "player_id": self.player_id,
            "robot_level": self.robot_level,
            "away": self.away,
            "back_by": self.back_by,
            "missed": self.missed,
            "reserved_for": _player_json(self.reserved_for),
            "invite": self.invite,
            "invite_until": self.invite_until,
            "forfeited": self.forfeited,
            "left": self.left,
            "moves": self.moves,
            "robot_moves": self.robot_moves,
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
            invite=data.get("invite"),
            invite_until=data.get("invite_until"),
            forfeited=bool(data.get("forfeited")),
            left=bool(data.get("left")),
            moves=int(data.get("moves", 0)),
            robot_moves=int(data.get("robot_moves", 0)),
        )


def _set_event() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event


@dataclass(eq=False)
class Table:
    """A live table (one match). See :mod:`bot.core` for how it moves."""

    id: str
    label: str
    chat: ChatRef
    rules: Rules
    seed: int
    created_at: float
    robot_level: str
    # one per player (``rules.players``: 2, 3 or 4); :meth:`for_rules` sizes it
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    phase: Phase = Phase.WAITING
    match: Match | None = None
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    stakes: dict[int, int] = field(default_factory=dict)
    closed: bool = False
    dropped: bool = False  # its lease was lost: stopped here unsaved, nothing more sent
    notes: dict[str, Any] = field(default_factory=dict)  # front ends' notes (JSON values)
    # a challenge (reto): seat 1 is kept for the challenged player until they answer
    challenge: bool = False
    # a slow table's reminder of the turn at half its time (epoch seconds), or None
    remind_at: float | None = None
    # a tournament's table: {"id": tournament id, "sides": [entrant key of each side]};
    # every seat kept for its player, no robot fills it (docs/tournaments.md)
    tournament: dict[str, Any] | None = None
    # when the snapshot was taken (epoch seconds): a restart shifts the deadlines by the
    # time since, so the bot's own downtime never runs a player's clock (design.md, 10)
    saved_at: float | None = None
    # not saved: when the match last moved (its start, a move, or this process resuming
    # it), epoch seconds; an admin may close a live match only when it is stuck
    moved_at: float | None = None
    # not saved: runtime machinery
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    token: int = 0
    timer: Timer | None = None
    reminder: Timer | None = None
    away_timers: dict[int, Timer] = field(default_factory=dict)
    outbox: deque[Event] = field(default_factory=deque)
    sender: asyncio.Task[None] | None = None
    saved: asyncio.Event = field(default_factory=_set_event)  # clear while a save runs
    # records.md entries of the finished hands, written once (a snapshot after every move
    # would otherwise rewrite the whole match each time)
    _hand_records: list[dict[str, Any]] = field(default_factory=list)
    _rules_spec: Any = None
    _rules_json: dict[str, Any] | None = None
    _current: _HandWriter | None = None
    view_cache: tuple[Match, PublicView] | None = None

    @classmethod
    def for_rules(cls, rules: Rules, **fields: Any) -> Table:
        """A new table with one open seat per player of ``rules`` (2, 3 or 4)."""
        return cls(rules=rules, seats=[Seat() for _ in range(rules.players)], **fields)

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

    def _rules_dump(self) -> dict[str, Any]:
        if self._rules_json is None:
            self._rules_json = self.rules.model_dump()
        return dict(self._rules_json)

    def snapshot(self) -> dict[str, Any]:
        """The JSON object saved with ``storage.save_table``."""
        return (
            {
                "version": SNAPSHOT_VERSION,
                "table_id": self.id,
                "label": self.label,
                "chat": _chat_json(self.chat),
                "rules": self._rules_dump(),
                "seed": self.seed,
                "created_at": self.created_at,
                "robot_level": self.robot_level,
                "seats": [s.to_json() for s in self.seats],
                "phase": Phase(self.phase).value,
                "record": self.record() if self.match is not None else None,
                "deadline": self.deadline,
                "deadline_kind": DeadlineKind(self.deadline_kind).value
                if self.deadline_kind
                else None,
                "stakes": {str(k): v for k, v in self.stakes.items()},
                "notes": dict(self.notes),
                "saved_at": self.saved_at,
            }
            | ({"challenge": True} if self.challenge else {})
            | ({"remind_at": self.remind_at} if self.remind_at is not None else {})
            | ({"tournament": dict(self.tournament)} if self.tournament is not None else {})
        )

    def record(self) -> dict[str, Any]:
        """The match so far as a records.md record (same as ``record_of(self.match)``).

        Finished hands are written once; the current hand's moves are appended as they
        come, so a snapshot after every move costs the same late in a match as early.
        """
        match = self.match
        assert match is not None
        if self._rules_spec is None:
            self._rules_spec = match.rules.to_spec()
        finished = match.hands[:-1]
        if len(self._hand_records) > len(finished):
            self._hand_records.clear()
        for hand in finished[len(self._hand_records) :]:
            self._hand_records.append(_hand_record(match, hand))
        return {"rules": self._rules_spec, "hands": [*self._hand_records, self._current_hand()]}

    def _current_hand(self) -> dict[str, Any]:
        match = self.match
        assert match is not None
        hand = match.hand
        current = self._current
        if (
            current is None
            or current.number != match.hand_number
            or len(current.moves) > len(hand.history)
            or current.state.deal != hand.deal
        ):
            current = self._current = _HandWriter(match.hand_number, hand)
        current.catch_up(hand)
        if hand.boneyard:  # in draw order, as engine.records.record_of writes it
            return {
                "deal": current.deal,
                "boneyard": [str(t) for t in hand.boneyard],
                "starter": hand.starter,
                "moves": list(current.moves),
            }
        return {"deal": current.deal, "starter": hand.starter, "moves": list(current.moves)}

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
            rules=Rules.build_any(**data["rules"]),  # a table of a format too
            seed=int(data["seed"]),
            created_at=float(data["created_at"]),
            robot_level=data["robot_level"],
            seats=[Seat.from_json(s) for s in data["seats"]],
            phase=Phase(data["phase"]),
            match=match_from_record(record) if record else None,
            deadline=data.get("deadline"),
            deadline_kind=DeadlineKind(kind) if (kind := data.get("deadline_kind")) else None,
            stakes={int(k): int(v) for k, v in data.get("stakes", {}).items()},
            notes=_notes(data.get("notes")),
            challenge=data.get("challenge") is True,
            remind_at=float(remind) if (remind := data.get("remind_at")) is not None else None,
            tournament=dict(tag) if isinstance(tag := data.get("tournament"), dict) else None,
            saved_at=float(saved) if (saved := data.get("saved_at")) is not None else None,
        )
        if table.match is not None and table.match.rules != table.rules:
            # the record carries the scoring rules; the table's timers and stake too
            table.match = Match(table.rules, table.match.hands, table.match.score)
        return table


def _notes(data: Any) -> dict[str, Any]:
    """The snapshot's front-end notes (none in a snapshot older than notes)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("table snapshot notes must be an object")
    return {str(k): v for k, v in data.items()}


def _hand_record(match: Match, hand: HandState) -> dict[str, Any]:
    zero = (0,) * match.rules.sides
    hands: dict[str, Any] = record_of(Match(match.rules, (hand,), zero))["hands"][0]
    return hands


class _HandWriter:
    """The records.md ``moves`` of one hand, extended move by move (the same notation as
    ``engine.records.record_of``: a side only where it is needed)."""

    __slots__ = ("deal", "drawn", "ends", "moves", "number", "state")

    def __init__(self, number: int, hand: HandState) -> None:
        self.number = number
        self.state = hand
        self.deal = [[str(t) for t in tiles] for tiles in hand.deal]
        self.moves: list[str] = []
        self.ends: tuple[int, int] | None = None
        self.drawn = 0

    def catch_up(self, hand: HandState) -> None:
        self.state = hand
        for _seat, move in hand.history[len(self.moves) :]:
            tile = move.tile
            if move.draw:  # the private record names the tile drawn (records.md)
                self.moves.append(f"draw {hand.boneyard[self.drawn]}")
                self.drawn += 1
                continue
            if tile is None:
                self.moves.append("pass")
                continue
            if self.ends is None:
                self.moves.append(str(tile))
                self.ends = (tile.high, tile.low)
                continue
            left, right = self.ends
            both = tile.has(left) and tile.has(right)
            needs_side = (both and left != right) or (left == right and move.side is Side.LEFT)
            self.moves.append(move.text(with_side=needs_side))
            if move.side is Side.LEFT:
                self.ends = (tile.other(left), right)
            else:
                self.ends = (left, tile.other(right))


def _player_json(player: PlayerRef | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "platform": player.platform,
        "user_id": player.user_id,
        "display_name": player.display_name,
        "language": player.language,
    }


def _chat_json(chat: ChatRef) -> dict[str, Any]:
    return {
        "platform": chat.platform,
        "chat_id": chat.chat_id,
        "channel_id": chat.channel_id,
        "thread_id": chat.thread_id,
        "language": chat.language,
    }
