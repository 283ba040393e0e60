"""The table manager: the one owner of every live table (design.md, "Shape" and rule 3).

Front ends hand it commands (:mod:`bot.core.commands`) with :meth:`TableManager.handle`
and receive events (:mod:`bot.core.events`) through the :class:`~bot.core.events.Port`
they registered. Each command type has one handler in a type-keyed table, which also
declares whether it runs under the lobby lock (it changes which tables exist or who sits
where). A button press is decoded once (:mod:`bot.core.buttons`) into the command it
stands for and goes through the same table.

The rules live in the parts: :mod:`~bot.core.lobby` (seating), :mod:`~bot.core.session`
(a live match: moves, turns, robots, timers, away and return, resume),
:mod:`~bot.core.settlement` (money), :mod:`~bot.core.chat_rules` (a chat's rules) and
:mod:`~bot.core.projection` (what each seat may see).

After every change a table is snapshotted (``storage.save_table``); :meth:`start`
reloads the snapshots (of the platforms asked for) and re-arms the stored deadlines, so
a crash followed by a restart ends exactly as an uninterrupted run with the same inputs.
A front end may keep small JSON notes with a live table (:meth:`set_front_end_note`);
they are saved in the snapshot and the core never reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import json
import logging
import random
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from typing import Protocol, TypeVar

from bot.core.analysis import AnalysisReply, Analyst
from bot.core.buttons import ForgedPress, Press, decode_press
from bot.core.chat_rules import ChatRules
from bot.core.clock import Clock, SystemClock
from bot.core.commands import (
    ChatRef,
    CloseTable,
    ComeBack,
    Command,
    Emote,
    FillWithRobots,
    InvitePartner,
    Leave,
    OpenTable,
    PlayerRef,
    PlayMove,
    PlayNow,
    PressButton,
    Rematch,
    SetChatRules,
    ShowMyTiles,
    SitAt,
)
from bot.core.events import ChatRulesInfo, Port, Refusal, Refused, Reply, TableChanged
from bot.core.leases import Leases
from bot.core.lobby import Lobby
from bot.core.ownership import LeaseTimes, OwnerId, new_owner_id
from bot.core.projection import table_changed
from bot.core.resume import Resume
from bot.core.session import Session
from bot.core.settlement import Settlement
from bot.core.standings import Profile, Standings, StandingsBook
from bot.core.state import Core, HouseTimes
from bot.core.table import Table
from bot.core.timers import Pacer, Timers
from bot.core.vocabulary import CloseReason, DeadlineKind, PressKind, Ranking, RefusalReason
from engine.match import Match
from engine.robots import DEFAULT_LEVEL, LEVELS, Robot, make_robot
from engine.rules import PRESETS, Rules, find_preset, preset_key
from storage.base import FencedOut, Storage, StoredMatch
from storage.ratings import SeasonPeriod

__all__ = ["Manager", "TableManager"]

log = logging.getLogger("bot.core")

C = TypeVar("C")
Handler = Callable[[C], Awaitable[Reply]]
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]


class Manager(Protocol):
    """The table manager as front ends see it."""

    async def handle(self, command: Command) -> Reply: ...
    def register(self, platform: str, port: Port) -> None: ...
    async def balance(self, player: PlayerRef) -> int: ...
    async def chat_rules(self, chat: ChatRef) -> ChatRulesInfo: ...
    async def standings(
        self,
        ranking: Ranking,
        chat: ChatRef | None,
        *,
        asker: PlayerRef | None = None,
        season: str | None = None,
        limit: int = 10,
    ) -> Standings: ...
    async def profile(self, player: PlayerRef | int, chat: ChatRef | None) -> Profile: ...
    async def seasons(self, chat: ChatRef | None) -> list[str]: ...
    async def analyze(
        self, player: PlayerRef, chat: ChatRef | None = None, table_id: str | None = None
    ) -> AnalysisReply | Refusal: ...
    def start_analysis(
        self, player: PlayerRef, chat: ChatRef | None = None, table_id: str | None = None
    ) -> asyncio.Future[AnalysisReply] | Refusal: ...
    async def current_season(self, chat: ChatRef | None) -> str: ...
    async def set_season_period(
        self, chat: ChatRef, period: SeasonPeriod, player: PlayerRef
    ) -> None: ...
    async def history(
        self, *, player: PlayerRef | None = None, chat: ChatRef | None = None, limit: int = 20
    ) -> list[StoredMatch]: ...
    async def player_id(self, player: PlayerRef) -> int: ...
    async def turn_notifications(self, player: PlayerRef) -> str: ...
    async def note_username(self, player: PlayerRef, username: str | None) -> bool: ...
    async def player_by_username(self, platform: str, username: str) -> PlayerRef | None: ...
    async def set_turn_notifications(self, player: PlayerRef, notifications: str) -> None: ...
    def table_state(self, table_id: str) -> TableChanged | None: ...
    def tables_of(self, player: PlayerRef) -> list[str]: ...
    def front_end_note(self, table_id: str, key: str) -> JsonValue: ...
    async def set_front_end_note(self, table_id: str, key: str, value: JsonValue) -> bool: ...
    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> list[str]: ...
    async def chat_unreachable(
        self, platform: str, chat_id: str, channel_id: str | None = None
    ) -> list[str]: ...
    async def idle(self) -> None: ...


class TableManager:
    """Owns every live table; applies commands, runs timers and robots, emits events.

    Args:
        storage: the storage port (players, wallet, records, snapshots).
        clock: time (``bot.core.clock``); the system clock by default.
        seed: seeds table ids and table seeds (None: unpredictable). Same seed, same clock
            and same commands give the same tables, deals and robot moves.
        ports: ``{platform: Port}`` to register at once (``"*"`` gets every event).
        robot_delay, countdown_seconds, fill_seconds, return_seconds, hand_pause,
            missed_turns_limit, stuck_seconds, emote_seconds, robot_level: see
            :class:`~bot.core.state.HouseTimes` (seconds).
        robot_factory: builds a robot for a level (``engine.robots.make_robot``).
        default_preset: the rules of a chat whose admins never chose (rules.md, "Presets").
        time_slice: seconds of timer work (robot moves) per event-loop iteration before
            the rest waits for the next one, so the loop stays responsive.
        owner: this process's claim id for the platforms it hosts (see
            :mod:`bot.core.ownership`); a fresh one by default.
        lease_times: the leases' heartbeat, takeover and standby seconds
            (:class:`~bot.core.ownership.LeaseTimes`; 5, 20 and 5 by default).
        analysis_executor: where "¿Qué debí jugar?" searches run (default: one worker
            process, started on first use; tests pass a thread pool).

    Raises:
        ValueError: an unknown robot level or preset.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        seed: int | str | None = None,
        ports: Mapping[str, Port] | None = None,
        robot_delay: float = 1.5,
        countdown_seconds: float = 5.0,
        fill_seconds: float = 120.0,
        return_seconds: float = 300.0,
        hand_pause: float = 4.0,
        missed_turns_limit: int = 3,
        stuck_seconds: float = 600.0,
        emote_seconds: float = 5.0,
        robot_level: str = DEFAULT_LEVEL,
        robot_factory: Callable[[str], Robot] = make_robot,
        time_slice: float = 0.005,
        default_preset: str = "venezolano",
        owner: OwnerId | None = None,
        analysis_executor: Executor | None = None,
        lease_times: LeaseTimes | None = None,
    ) -> None:
        if robot_level not in LEVELS:
            raise ValueError(f"unknown robot level {robot_level!r} (levels: {', '.join(LEVELS)})")
        clock = clock or SystemClock()
        # table ids must differ across restarts; table seeds (deals, robots) follow ``seed``
        ids = random.Random(
            f"{seed}:{clock.now()}" if seed is not None else random.SystemRandom().random()
        )
        self._core = core = Core(
            storage=storage,
            clock=clock,
            times=HouseTimes(
                robot_delay=robot_delay,
                countdown_seconds=countdown_seconds,
                fill_seconds=fill_seconds,
                return_seconds=return_seconds,
                hand_pause=hand_pause,
                missed_turns_limit=missed_turns_limit,
                stuck_seconds=stuck_seconds,
                emote_seconds=emote_seconds,
                robot_level=robot_level,
            ),
            default_preset=preset_key(default_preset),
            default_rules=find_preset(default_preset),
            robot_factory=robot_factory,
            ids=ids,
            seeds=random.Random(seed) if seed is not None else ids,
        )
        self._pacer = Pacer(time_slice)
        self._timers = timers = Timers(clock, self._pacer, on_fenced_out=self._fenced_out)
        self._leases = Leases(
            core,
            timers,
            owner or new_owner_id(),
            lease_times or LeaseTimes(),
            on_beat=self.announce_season_finals,
        )
        core.outbox.may_send = self._leases.held
        self._settlement = settlement = Settlement(core, timers)
        self._session = session = Session(core, timers, settlement)
        self._rules = ChatRules(core)
        self._standings = StandingsBook(core)
        self._analyst = Analyst(core, analysis_executor)
        self._lobby = lobby = Lobby(core, timers, session, settlement, self._rules)
        self._resume = Resume(core, timers, session)
        timers.install(
            {
                DeadlineKind.FILL: lobby.fill_on_time,
                DeadlineKind.START: session.start_match,
                DeadlineKind.NEXT_HAND: session.next_hand,
                DeadlineKind.TURN: session.turn_timed_out,
                DeadlineKind.FORCED: session.forced_move,
                DeadlineKind.ROBOT: session.auto_move,
            },
            away=session.away_expired,
        )
        # command type -> (handler, runs under the lobby lock)
        self._handlers: dict[type, tuple[Handler[object], bool]] = {}
        self._on(PlayNow, lobby.play_now, lobby=True)
        self._on(OpenTable, lobby.open_table, lobby=True)
        self._on(SitAt, lobby.sit_at, lobby=True)
        self._on(Rematch, lobby.rematch, lobby=True)
        self._on(Leave, lobby.leave, lobby=True)
        self._on(InvitePartner, lobby.invite)
        self._on(FillWithRobots, lobby.fill_now)
        self._on(PlayMove, session.play_move)
        self._on(ComeBack, session.come_back)
        self._on(Emote, session.emote)
        self._on(ShowMyTiles, session.show_tiles)
        self._on(SetChatRules, self._rules.set)
        self._on(CloseTable, lobby.close_table, lobby=True)
        self._on(PressButton, self._press)
        for platform, port in (ports or {}).items():
            self.register(platform, port)

    def _on(self, kind: type[C], handler: Handler[C], *, lobby: bool = False) -> None:
        self._handlers[kind] = (handler, lobby)  # type: ignore[assignment]

    # ------------------------------------------------------------------ settings

    @property
    def storage(self) -> Storage:
        return self._core.storage

    @property
    def clock(self) -> Clock:
        return self._core.clock

    @property
    def times(self) -> HouseTimes:
        """The house's timings (seconds) and robot level."""
        return self._core.times

    @property
    def robot_level(self) -> str:
        return self._core.times.robot_level

    @property
    def default_preset(self) -> str:
        return self._core.default_preset

    @property
    def default_rules(self) -> Rules:
        return self._core.default_rules

    @property
    def matches_finished(self) -> int:
        return self._core.matches_finished

    # ------------------------------------------------------------------ lifecycle

    def register(self, platform: str, port: Port) -> None:
        """Send the events of ``platform``'s tables (and players) to ``port``.

        ``platform`` ``"*"`` receives every event (logging, tests).
        """
        self._core.outbox.register(platform, port)

    def partition(self, platform: str, scope_of: Callable[[ChatRef], str]) -> None:
        """Split ``platform``'s tables into lease scopes: ``scope_of(chat)`` names the
        scope of a chat's tables (a Discord shard: ``"discord:3"``). Without a partition
        a platform is one scope, named as the platform. Call before :meth:`start`."""
        self._core.partitions[platform] = scope_of

    def scope_of(self, chat: ChatRef) -> str:
        """The lease scope of ``chat``'s tables (see :meth:`partition`)."""
        return self._core.scope_of(chat)

    @property
    def owner(self) -> str:
        """This process's claim id (``host:pid:token``)."""
        return str(self._leases.owner)

    @property
    def leases(self) -> Leases:
        """This process's leases (:mod:`bot.core.leases`)."""
        return self._leases

    @property
    def scopes(self) -> list[str]:
        """The scopes this process holds the lease of, sorted."""
        return sorted(self._core.fences)

    async def start(self, platforms: Collection[str] | None = None) -> None:
        """Reload the unfinished tables from storage and re-arm their timers.

        Snapshots that no longer load are logged and dropped. Finished matches whose
        settlement was interrupted are settled now (settlement is idempotent).

        Args:
            platforms: restore only the tables of these scopes (a platform,
                ``ChatRef.platform``, or a part of one, see :meth:`partition`), e.g.
                those whose front end started: a table of a platform that is down
                would play on with robots and timers while its humans cannot see it, so
                its snapshot stays untouched in storage for a later start. Each is
                claimed for this process first (:meth:`claim`; renewed while it runs,
                released by :meth:`stop`). None: every table, unclaimed (tools and
                tests). Calling ``start`` again restores the tables not yet live.

        Escrows are reconciled with the tables: stakes taken just before a crash for a
        table saved in its countdown start its match now; an open escrow that no stored
        table owns is refunded (the bot's own faults never cost a player).

        Raises:
            TablesHeldElsewhere: another live process runs one of ``platforms`` on this
                database; nothing was restored or claimed.
        """
        core = self._core
        if platforms is not None:
            await self.claim(platforms)
        # escrows before tables: a table is saved before its stakes are taken and
        # deleted after they are paid out, so every escrow open now has a snapshot in
        # what is read next, even if another process is opening tables meanwhile
        escrows = {e.match_id: e for e in await core.storage.open_escrows()}
        restored: list[Table] = []
        stored = await core.storage.load_tables()
        for data in stored:
            try:
                table = Table.from_snapshot(data)
            except (KeyError, TypeError, ValueError) as exc:
                log.error("dropping table snapshot %r: %s", data.get("table_id"), exc)
                continue
            if table.id in core.tables and not core.stopped:
                continue  # already live (e.g. restored by an earlier start)
            if platforms is not None and core.scope_of(table.chat) not in platforms:
                log.info(
                    "table %s of %s left in storage: not hosted here",
                    table.id,
                    core.scope_of(table.chat),
                )
                continue
            core.tables[table.id] = table
            restored.append(table)
        core.stopped = False
        for table in restored:
            async with table.lock:
                await self._resume.resume(table, escrows.pop(table.id, None))
        await self._resume.refund_orphans(
            [e for e in escrows.values() if e.match_id not in core.tables],
            {str(data.get("table_id")) for data in stored},
        )

    async def stop(self) -> None:
        """Stop every table at once, then snapshot each with its deadlines and send what
        is queued.

        First no timer fires any more (robots stop moving) and no command is taken
        (refusal ``shutting_down``); then each table is saved as it is, deadlines
        included, so the next :meth:`start` re-arms them, shifted by the time the bot
        was down. Bounded by the saves, not by the tables' play. The leases are released
        last, so a standby process takes over at once.
        """
        core = self._core
        core.stopped = True
        self._analyst.close()
        tables = list(core.tables.values())
        for table in tables:
            self._timers.freeze(table)
        self._pacer.release_all()  # timer work waiting for its slot now sees the stop
        for table in tables:
            async with table.lock:
                if not table.closed:
                    with contextlib.suppress(FencedOut):  # taken over: its owner saves it
                        await core.save(table)
        await self._leases.release_all()
        await self.idle()

    @property
    def tables_dropped(self) -> int:
        """How many tables stopped here unsaved because their lease was lost (their new
        owner plays them); 0 means every table this process ran was saved."""
        return self._core.dropped

    # ------------------------------------------------------------------ claims

    async def claim(self, scopes: Collection[str]) -> None:
        """Take the leases of ``scopes`` for this process, all or none, renewed from
        then on (:meth:`bot.core.leases.Leases.claim`).

        Raises:
            TablesHeldElsewhere: another live process holds one of them; nothing
                claimed.
        """
        await self._leases.claim(scopes)

    async def release(self, scopes: Collection[str]) -> None:
        """Give the leases of ``scopes`` back (a front end that could not start); their
        live tables, if any, stop here unsaved."""
        await self._leases.release(scopes)

    async def lost(self) -> str:
        """Wait until this process loses a scope it held (another process took it over,
        or no renewal held for the takeover time); returns the scope. Its tables stopped
        here already, unsaved, and nothing more is sent for them: the front end serving
        it must stop too."""
        return await self._leases.lost()

    def _fenced_out(self, exc: FencedOut) -> None:
        """A write was refused: another process holds the scope now."""
        self._leases.fenced_out(exc)

    async def chat_unreachable(
        self, platform: str, chat_id: str, channel_id: str | None = None
    ) -> list[str]:
        """The bot can no longer use a chat (removed from it, the channel deleted, rights
        lost): close its live tables, refunding every held stake (nobody abandoned).

        Args:
            platform, chat_id: the chat (``ChatRef.platform``, ``ChatRef.chat_id``).
            channel_id: only the tables whose board is in this channel or thread; None:
                every table of the chat.

        Returns:
            The ids of the tables closed now (each with ``TableClosed`` reason
            ``unreachable``, carrying its humans so a front end can tell them privately);
            empty when there were none, e.g. on a repeated call.
        """
        core = self._core
        closed: list[str] = []
        async with core.lobby:
            for table in list(core.tables.values()):
                chat = table.chat
                if chat.platform != platform or chat.chat_id != chat_id:
                    continue
                if channel_id is not None and channel_id not in (chat.channel_id, chat.thread_id):
                    continue
                async with table.lock:
                    if table.closed:
                        continue
                    await self._settlement.close(table, CloseReason.UNREACHABLE)
                closed.append(table.id)
        if closed:
            log.warning(
                "%s chat %s%s unreachable: closed %s, stakes refunded",
                platform,
                chat_id,
                f" channel {channel_id}" if channel_id else "",
                ", ".join(closed),
            )
        return closed

    async def idle(self) -> None:
        """Wait until every queued event was delivered to the ports."""
        await self._core.outbox.idle()

    @property
    def busy(self) -> bool:
        """Some event is queued or being delivered to a port (see :meth:`idle`)."""
        return self._core.outbox.busy

    # ------------------------------------------------------------------ commands

    async def handle(self, command: Command) -> Reply:
        """Apply one command; returns at once (events go out through the ports).

        Never raises for bad input: a refused command returns ``Reply(refusal=...)`` and
        changes nothing.

        Raises:
            TypeError: ``command`` is not a command.
        """
        try:
            if self._core.stopped:
                raise Refused(RefusalReason.SHUTTING_DOWN)
            return await self._dispatch(command)
        except Refused as refused:
            return Reply(refusal=refused.refusal(command.player), table_id=refused.table_id)
        except FencedOut as exc:  # the table moved to another process: press again
            self._fenced_out(exc)
            refusal = Refused(RefusalReason.SHUTTING_DOWN).refusal(command.player)
            return Reply(refusal=refusal)

    async def _localized(self, command: Command) -> Command:
        """``command`` with its chat speaking the chat's language (one precedence rule:
        :meth:`ChatRules.localized`), so the tables and events it makes carry it."""
        chat = command.chat
        if chat is None:
            return command
        localized = await self._rules.localized(chat)
        return command if localized is chat else dataclasses.replace(command, chat=localized)

    async def _dispatch(self, command: Command) -> Reply:
        entry = self._handlers.get(type(command))
        if entry is None:
            raise TypeError(f"not a command: {command!r}")
        self._core.rename(command.player)  # who renamed themselves shows the new name
        handler, in_lobby = entry
        command = await self._localized(command)
        if in_lobby:
            async with self._core.lobby:
                return await handler(command)
        return await handler(command)

    async def _press(self, command: PressButton) -> Reply:
        """A raw button payload: decoded once into the command it stands for."""
        try:
            press = decode_press(command.payload)
        except ForgedPress:
            raise Refused(RefusalReason.FORGED) from None
        core, player = self._core, command.player
        known = core.tables.get(press.table_id) or core.ended.get(press.table_id)
        chat = command.chat or (known.chat if known is not None else None)
        table_id = press.table_id
        if press.kind is PressKind.MOVE:
            return await self._dispatch(
                PlayMove(player, table_id, press.hand_number, press.move_number, press.code, chat)
            )
        if chat is None:
            raise Refused(RefusalReason.TABLE_GONE, table_id)
        return await self._dispatch(_command_of(press, player, chat))

    # ------------------------------------------------------------------ queries

    def tables(self) -> list[str]:
        """Ids of the live tables."""
        return list(self._core.tables)

    def table_state(self, table_id: str) -> TableChanged | None:
        """The table's current public state (what the last ``TableChanged`` said)."""
        table = self._core.tables.get(table_id)
        return table_changed(table, self._core.clock.now()) if table is not None else None

    def front_end_note(self, table_id: str, key: str) -> JsonValue:
        """The note a front end keeps with live table ``table_id`` under ``key`` (see
        :meth:`set_front_end_note`), or None (no such note, or no such live table)."""
        table = self._core.tables.get(table_id)
        if table is None:
            return None
        note: JsonValue = copy.deepcopy(table.notes.get(key))
        return note

    async def set_front_end_note(self, table_id: str, key: str, value: JsonValue) -> bool:
        """Keep ``value`` with live table ``table_id`` under ``key``, for a front end.

        Notes are the front ends' own (the core never reads them; e.g. Telegram keeps
        where the table's board message is): platform-neutral, saved in the table's
        snapshot at once, so they survive a restart, and gone with the table. Use
        platform-prefixed keys (``"telegram.board"``). Setting the value a note already
        has writes nothing; ``None`` removes the note.

        Returns:
            False when there is no such live table (nothing kept), else True.

        Raises:
            TypeError: ``value`` is not JSON; nothing is kept.
        """
        try:
            kept = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"a front-end note must be a JSON value: {exc}") from None
        core = self._core
        table = core.tables.get(table_id)
        if table is None or table.closed:
            return False
        async with table.lock:
            if table.closed:
                return False
            if table.notes.get(key) == kept:
                return True
            if kept is None:
                table.notes.pop(key, None)
            else:
                table.notes[key] = kept
            if not core.stopped:
                await core.save(table)
        return True

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> list[str]:
        """Follow a chat that the platform gave a new id (a Telegram group upgraded to a
        supergroup): its live tables, its closed ones (for a rematch), its rules, history
        and rankings move to ``new_chat_id``, tables and storage in one transaction.

        Moving again (the platform tells twice) finds nothing left and changes nothing.

        Returns:
            The ids of the live tables moved.

        Raises:
            ValueError: an empty id, or the same id twice; nothing moves.
        """
        if not old_chat_id or not new_chat_id or old_chat_id == new_chat_id:
            raise ValueError(f"cannot move chat {old_chat_id!r} to {new_chat_id!r}")
        core = self._core
        old = ChatRef(platform, old_chat_id)
        async with core.lobby, contextlib.AsyncExitStack() as held:
            moving = sorted(
                (t for t in core.tables.values() if not t.closed and t.chat.key == old.key),
                key=lambda t: t.id,
            )
            for table in moving:  # always in the same order: no two moves wait on each other
                await held.enter_async_context(table.lock)
            moving = [t for t in moving if not t.closed]
            before = {t.id: (t.chat, t.saved_at) for t in moving}
            now = core.clock.now()
            for table in moving:
                table.chat = replace(table.chat, chat_id=new_chat_id)
                table.saved_at = now
            try:
                snapshots = {t.id: t.snapshot() for t in moving}
                new = replace(old, chat_id=new_chat_id)
                await core.storage.move_chat(old.key, new.key, tables=snapshots, now=now)
            except BaseException:  # nothing moved in storage: nothing moves here either
                for table in moving:
                    table.chat, table.saved_at = before[table.id]
                raise
            for ended in core.ended.values():
                if ended.chat.key == old.key:
                    ended.chat = replace(ended.chat, chat_id=new_chat_id)
        if moving:
            log.info(
                "%s chat %s became %s: tables %s moved",
                platform,
                old_chat_id,
                new_chat_id,
                ", ".join(t.id for t in moving),
            )
        return [t.id for t in moving]

    def match_of(self, table_id: str) -> Match | None:
        """The match at a table (tests, tools), also the final one of a recently closed
        table; None before it starts or when long gone."""
        table = self._core.tables.get(table_id)
        if table is not None:
            return table.match
        ended = self._core.ended.get(table_id)
        return ended.match if ended is not None else None

    def tables_of(self, player: PlayerRef) -> list[str]:
        """Ids of the live tables where ``player`` holds a seat."""
        return [t.id for t in self._core.tables.values() if t.seat_of(player.key) is not None]

    async def player_id(self, player: PlayerRef) -> int:
        """The storage id of ``player`` (their account is opened on first sight)."""
        return await self._core.player_id(player)

    async def note_username(self, player: PlayerRef, username: str | None) -> bool:
        """Remember ``player``'s platform username (Telegram's ``@name``) if they are a
        player already (nobody's account is opened for it); False when they are not."""
        return await self._core.storage.set_username(player.platform, player.user_id, username)

    async def player_by_username(self, platform: str, username: str) -> PlayerRef | None:
        """The player of ``platform`` who last wrote with ``username`` (``"@ana"``), as
        they were last seen; None when nobody known has it."""
        found = await self._core.storage.find_by_username(platform, username)
        if found is None:
            return None
        user_id, stored = found
        return PlayerRef(platform, user_id, stored.display_name, stored.language)

    async def turn_notifications(self, player: PlayerRef) -> str:
        """Whether ``player`` is notified on each own turn: ``"turn"`` (the default) or
        ``"none"`` (``storage.base.NOTIFICATIONS``; issue 27). Front ends honour it."""
        return await self._core.storage.player_notifications(await self.player_id(player))

    async def set_turn_notifications(self, player: PlayerRef, notifications: str) -> None:
        """Set ``player``'s turn notifications.

        Raises:
            ValueError: not one of ``storage.base.NOTIFICATIONS``.
        """
        await self._core.storage.set_player_notifications(
            await self.player_id(player), notifications
        )

    async def balance(self, player: PlayerRef) -> int:
        """The player's balance in dollars (rules.md, "The house")."""
        return await self._core.storage.balance(await self.player_id(player))

    async def chat_rules(self, chat: ChatRef) -> ChatRulesInfo:
        """The chat's rules (the default preset when its admins never chose)."""
        return await self._rules.of_chat(chat)

    async def standings(
        self,
        ranking: Ranking,
        chat: ChatRef | None,
        *,
        asker: PlayerRef | None = None,
        season: str | None = None,
        limit: int = 10,
    ) -> Standings:
        """A top list of ``chat``'s players (everyone's when None): rating, the current
        season (or ``season``), balance or pairs (docs/ratings.md)."""
        return await self._standings.standings(
            ranking, chat, asker=asker, season=season, limit=limit
        )

    async def profile(self, player: PlayerRef | int, chat: ChatRef | None) -> Profile:
        """A player's profile (a PlayerRef, or a storage player id); the season shown is
        ``chat``'s current one (the global season when None).

        Raises:
            storage.base.UnknownPlayerError: an unknown player id.
        """
        player_id = player if isinstance(player, int) else await self.player_id(player)
        return await self._standings.profile(player_id, chat)

    async def seasons(self, chat: ChatRef | None) -> list[str]:
        """The seasons played in ``chat`` (everyone's when None), newest first."""
        return await self._standings.seasons(chat)

    async def current_season(self, chat: ChatRef | None) -> str:
        """The season a match finished now counts in, in ``chat`` (the global when None)."""
        return await self._standings.current_season(chat)

    async def analyze(
        self, player: PlayerRef, chat: ChatRef | None = None, table_id: str | None = None
    ) -> AnalysisReply | Refusal:
        """'¿Qué debí jugar?': the maestro's analysis of ``player``'s decisions in their
        last finished hand at their table (docs, issue 15); a refusal (no table, no
        finished hand yet...) changes nothing. The search runs off the event loop."""
        started = self.start_analysis(player, chat, table_id)
        if isinstance(started, Refusal):
            return started
        return await started

    def start_analysis(
        self, player: PlayerRef, chat: ChatRef | None = None, table_id: str | None = None
    ) -> asyncio.Future[AnalysisReply] | Refusal:
        """:meth:`analyze` in two steps, for a front end that answers a press at once: the
        refusal, found without waiting, or the search under way off the event loop (await
        the future for the analysis; cancel it if nobody will read it)."""
        try:
            return self._analyst.start(player, chat, table_id)
        except Refused as exc:
            return exc.refusal(player)

    async def set_season_period(
        self, chat: ChatRef, period: SeasonPeriod, player: PlayerRef
    ) -> None:
        """Change how long ``chat``'s seasons last (the front end checked the admin)."""
        await self._standings.set_season_period(chat, period, player)

    async def announce_season_finals(self) -> int:
        """Send the final standings of every ended season of this process's chats
        (also done with each claim heartbeat); returns how many were sent."""
        return await self._standings.announce_season_finals(set(self._core.fences))

    async def history(
        self, *, player: PlayerRef | None = None, chat: ChatRef | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        """Finished matches (records.md records), newest first."""
        player_id = await self.player_id(player) if player is not None else None
        return await self._core.storage.match_records(
            player_id=player_id, chat=chat.key if chat else None, limit=limit
        )

    # ------------------------------------------------------------------ tools

    async def open_robot_table(
        self,
        chat: ChatRef,
        rules: Rules | None = None,
        *,
        levels: Sequence[str] | None = None,
        start: bool = True,
    ) -> str:
        """Open a table of four robots (simulations, benchmarks, tests); returns its id.

        With ``start`` the countdown is skipped and the first hand is dealt at once.

        Raises:
            ValueError: an unknown robot level.
        """
        chosen = list(levels) if levels else [self.robot_level] * 4
        return await self._lobby.open_robot_table(
            chat, rules or PRESETS["venezolano"], chosen, start=start
        )


def _command_of(press: Press, player: PlayerRef, chat: ChatRef) -> Command:
    """The command a (non-move) table button stands for."""
    table_id = press.table_id
    match press.kind:
        case PressKind.SIT:
            return SitAt(player, chat, table_id, int(press.code) if press.code else None)
        case PressKind.ROBOTS:
            return FillWithRobots(player, chat, table_id)
        case PressKind.EMOTE:
            return Emote(player, press.code, chat, table_id)
        case PressKind.TILES:
            return ShowMyTiles(player, chat, table_id)
        case PressKind.BACK:
            return ComeBack(player, chat, table_id)
        case PressKind.LEAVE:
            return Leave(player, chat, table_id)
        case _:
            return Rematch(player, chat, table_id)
