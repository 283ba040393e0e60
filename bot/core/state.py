"""The core's shared state: the live tables, the closed ones, the clock, storage and
outbox, and the house's timings. Every part of the core (lobby, session, settlement)
works on one :class:`Core`; only the bootstrap (:mod:`bot.core.bootstrap`) builds it."""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from bot.core.clock import Clock
from bot.core.commands import ChatRef, PlayerRef
from bot.core.events import Event, Refused
from bot.core.outbox import Outbox
from bot.core.table import Seat, Table
from bot.core.vocabulary import CloseReason, RefusalReason
from engine.match import Match
from engine.robots import Robot
from engine.rules import Rules
from storage.base import Fence, FencedOut, Storage

__all__ = ["KEPT_MATCHES", "PLAYERS_CHANNEL", "Core", "Ended", "HouseTimes"]

PLAYERS_CHANNEL = "domino_players"
"""The storage's notices naming identities whose player changed (a link or an unlink):
every process on the database drops their cached ids (:meth:`Core.forget_players`)."""

KEPT_MATCHES = 50
"""Closed tables whose final match ``TableManager.match_of`` still returns (a finished
match holds thousands of objects; keeping every one would slow the garbage collector)."""

KEPT_ENDED = 2000
"""Closed tables remembered at all (to refuse late presses and offer a rematch)."""


@dataclass(frozen=True, slots=True)
class HouseTimes:
    """The house's timings and robots (rules.md, "The house"). Seconds throughout.

    Attributes:
        robot_delay: a robot waits this long before its move (0 in tests and benchmarks).
        countdown_seconds: the countdown before a full table starts.
        fill_seconds: an incomplete table is filled with robots after this long.
        return_seconds: a player who left or dropped may come back within this time.
        hand_pause: between a hand's end and the next deal.
        missed_turns_limit: consecutive timed-out turns after which a robot takes over
            (a turn with a single legal move, e.g. a forced pass, is not counted).
        stuck_seconds: a started match where nothing moved for this long is stuck: only
            then may one of the chat's admins close it (10 minutes; a healthy match
            moves at least every ``turn_seconds``, 120 s at most).
        emote_seconds: at most one emote per player in this time.
        robot_level: the level of robots filling seats and standing in for players.
        invite_seconds: a seat kept for an invited friend is free again after this
            long (2 minutes; docs/friends.md).
    """

    robot_delay: float = 1.5
    countdown_seconds: float = 5.0
    fill_seconds: float = 120.0
    return_seconds: float = 300.0
    hand_pause: float = 4.0
    missed_turns_limit: int = 3
    stuck_seconds: float = 600.0
    emote_seconds: float = 5.0
    robot_level: str = "experto"
    invite_seconds: float = 120.0


@dataclass(slots=True)
class Ended:
    """What is kept of a closed table: enough to refuse late presses and to rematch (and
    the final match of the most recent ones)."""

    id: str
    chat: ChatRef
    rules: Rules
    seats: list[Seat]
    started: bool
    match: Match | None = None


@dataclass(eq=False)
class Core:
    """Everything the parts of the core share. Tables change only under their lock."""

    storage: Storage
    clock: Clock
    times: HouseTimes
    default_preset: str
    default_rules: Rules
    robot_factory: Callable[[str], Robot]
    ids: random.Random  # table ids: they must differ across restarts
    seeds: random.Random  # table seeds (deals, robots): they follow the manager's seed
    outbox: Outbox = field(default_factory=Outbox)
    tables: dict[str, Table] = field(default_factory=dict)
    ended: OrderedDict[str, Ended] = field(default_factory=OrderedDict)
    kept_matches: deque[str] = field(default_factory=deque)
    player_ids: dict[tuple[str, str], int] = field(default_factory=dict)
    names: dict[tuple[str, str], str] = field(default_factory=dict)  # last seen, by key
    last_emote: dict[tuple[str, str], float] = field(default_factory=dict)
    seen: dict[int, float] = field(default_factory=dict)  # player id -> last command
    robots: dict[str, Robot] = field(default_factory=dict)
    lobby: asyncio.Lock = field(default_factory=asyncio.Lock)
    stopped: bool = False  # stop() ran: storage may be closed, notes stay in memory
    matches_finished: int = 0
    fences: dict[str, Fence] = field(default_factory=dict)  # scope -> this process's lease
    dropped: int = 0  # tables stopped here unsaved because their lease was lost
    partitions: dict[str, Callable[[ChatRef], str]] = field(default_factory=dict)
    # told of every table closed, with its reason and the winning side of a match that
    # ended (None otherwise): the tournaments read their tables' results here
    closed_hooks: list[Callable[[Table, CloseReason, int | None], None]] = field(
        default_factory=list
    )

    def emit(self, table: Table, event: Event) -> None:
        self.outbox.emit(table, event)

    def scope_of(self, chat: ChatRef) -> str:
        """The lease scope a chat's tables belong to: its platform, or the part of it a
        partition names (a Discord shard, ``"discord:3"``; ``bot.core.ownership``)."""
        partition = self.partitions.get(chat.platform)
        return chat.platform if partition is None else partition(chat)

    def fence(self, table: Table) -> Fence | None:
        """The fence ``table``'s writes carry: this process's lease of its scope, or None
        when that scope is not claimed (tools, tests, the terminal)."""
        return self.fences.get(self.scope_of(table.chat))

    async def save(self, table: Table) -> None:
        """Snapshot ``table`` (lock held); a closed table has no snapshot.

        Raises:
            FencedOut: another process took the table's scope over; nothing written.
        """
        if table.closed:
            return
        now = self.clock.now()
        table.saved_at = now
        # what was emitted before this save waits for it (Outbox): a move a player saw
        # answered is never lost to a kill between its save and its events
        table.saved.clear()
        try:
            await self.storage.save_table(
                table.id, table.snapshot(), now=now, fence=self.fence(table)
            )
        except FencedOut:
            table.dropped = True  # another process owns it now: nothing more is sent
            table.outbox.clear()
            raise
        finally:
            table.saved.set()

    async def player_id(self, player: PlayerRef, *, fresh: bool = False) -> int:
        """The storage id of ``player`` (their account is opened on first sight).

        Cached per identity; ``fresh`` reads storage again (before money moves: the
        identity may have been linked or unlinked in another process since)."""
        known = self.player_ids.get(player.key)
        if fresh and known is not None:
            found = await self.storage.find_player(player.platform, player.user_id)
            known = None if found is None else found.id
            if known is not None:
                self.player_ids[player.key] = known
        if known is not None:
            return known
        stored = await self.storage.ensure_player(
            player.platform,
            player.user_id,
            player.display_name,
            language=player.language,
            now=self.clock.now(),
        )
        self.player_ids[player.key] = stored.id
        return stored.id

    def forget_players(self, notice: str) -> None:
        """Drop the cached ids of the identities a :data:`PLAYERS_CHANNEL` notice names
        (``platform:user_id``, space-separated): they were linked or unlinked."""
        for identity in notice.split():
            platform, _, user_id = identity.partition(":")
            self.player_ids.pop((platform, user_id), None)

    def saw(self, player: PlayerRef) -> None:
        """Note that ``player`` (a player already known to this process) did something
        now: their friends' "last seen" (:mod:`bot.core.friends` writes it)."""
        pid = self.player_ids.get(player.key)
        if pid is not None:
            self.seen[pid] = self.clock.now()

    def rename(self, player: PlayerRef) -> None:
        """Take the name a player's latest command carries (they renamed themselves on
        their platform): their seats show it from the table's next change on."""
        name = player.display_name
        if not name or self.names.get(player.key) == name:
            return  # the name this process last saw: no seat shows another (a fast path)
        self.names[player.key] = name
        platform, user_id = player.platform, player.user_id
        for table in self.tables.values():
            for seat in table.seats:
                held = seat.player
                if (
                    held is not None
                    and held.user_id == user_id
                    and held.platform == platform
                    and held.display_name != name
                ):
                    seat.player = replace(held, display_name=name)

    def robot(self, level: str) -> Robot:
        robot = self.robots.get(level)
        if robot is None:
            robot = self.robots[level] = self.robot_factory(level)
        return robot

    # --- finding the table a command means

    def live(self, table_id: str) -> Table:
        """Live table ``table_id``.

        Raises:
            Refused: TABLE_GONE; with ``unknown=1`` when the id is not one of the tables
                remembered either (it never existed, or closed long ago or before a
                restart), so the refusal does not claim it ended.
        """
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.ended:
                raise Refused(RefusalReason.TABLE_GONE, table_id)
            raise Refused(RefusalReason.TABLE_GONE, table_id, unknown=1)
        return table

    def my_table_here(
        self, player: PlayerRef, chat: ChatRef, *, slow: bool | None = None
    ) -> Table | None:
        """The player's table in ``chat``: the live-paced one first (a player sits at one
        of those and any number of slow tables; rules.md, "Slow tables"); with ``slow``
        only a slow (True) or a live-paced (False) one."""
        found = None
        for table in self.tables.values():
            if table.chat.key != chat.key or table.seat_of(player.key) is None:
                continue
            if slow is not None and table.rules.is_slow != slow:
                continue
            if not table.rules.is_slow:
                return table
            found = found or table
        return found

    def table_for(self, player: PlayerRef, chat: ChatRef | None, table_id: str | None) -> Table:
        """The table a command means: by id, else the player's table in this chat, else
        the player's only table.

        Raises:
            Refused: TABLE_GONE (no such live table) or NO_TABLE.
        """
        if table_id is not None:
            return self.live(table_id)
        if chat is not None:
            table = self.my_table_here(player, chat)
            if table is not None:
                return table
        mine = [t for t in self.tables.values() if t.seat_of(player.key) is not None]
        if len(mine) == 1 and chat is None:
            return mine[0]
        raise Refused(RefusalReason.NO_TABLE)

    @staticmethod
    def seat_at(table: Table, player: PlayerRef) -> int:
        """The seat ``player`` holds at live ``table`` (lock held).

        Raises:
            Refused: TABLE_GONE (closed meanwhile) or NOT_SEATED.
        """
        if table.closed:
            raise Refused(RefusalReason.TABLE_GONE, table.id)
        seat = table.seat_of(player.key)
        if seat is None:
            raise Refused(RefusalReason.NOT_SEATED, table.id)
        return seat

    def forget(self, table: Table) -> None:
        """Move a closed table from the live ones to the remembered ones."""
        self.tables.pop(table.id, None)
        # only what a rematch needs: a finished match's state would keep thousands of
        # objects alive per table for the garbage collector to walk
        self.ended[table.id] = Ended(
            id=table.id,
            chat=table.chat,
            rules=table.rules,
            seats=[replace(s) for s in table.seats],
            started=table.match is not None,
            match=table.match,
        )
        self.kept_matches.append(table.id)
        while len(self.kept_matches) > KEPT_MATCHES:
            gone = self.ended.get(self.kept_matches.popleft())
            if gone is not None:
                gone.match = None
        while len(self.ended) > KEPT_ENDED:
            self.ended.popitem(last=False)
