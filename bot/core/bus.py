"""The table manager: the one owner of every live table (design.md, "Shape" and rule 3).

Front ends hand it commands (:mod:`bot.core.commands`) with :meth:`TableManager.handle`
and receive events (:mod:`bot.core.events`) through the :class:`~bot.core.events.Port`
they registered. Every write is a command: a player's, applied by :meth:`handle`, or a
chore (a front end's note, a chat that moved, a setting), run by :meth:`run` or by the
method of the same name; both go through the message bus (:mod:`bot.core.messagebus`).
Every read is a query of :mod:`bot.core.views`, offered here under its name. The parts
are wired once, by :func:`bot.core.bootstrap.bootstrap`.

The rules live in the parts: :mod:`~bot.core.lobby` (seating), :mod:`~bot.core.session`
(a live match: moves, turns, robots, timers, away and return), :mod:`~bot.core.resume`
(a table reloaded after a restart), :mod:`~bot.core.settlement` (money),
:mod:`~bot.core.chat_rules` (a chat's rules), :mod:`~bot.core.chats` (a chat's own
life), :mod:`~bot.core.leases` (this process's leases) and :mod:`~bot.core.projection`
(what each seat may see).

After every change a table is snapshotted (``storage.save_table``); :meth:`start`
reloads the snapshots (of the platforms asked for) and re-arms the stored deadlines, so
a crash followed by a restart ends exactly as an uninterrupted run with the same inputs.
A front end may keep small JSON notes with a live table (:meth:`set_front_end_note`);
they are saved in the snapshot and the core never reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Executor
from typing import Protocol, TypeVar

from bot.core.analysis import AnalysisReply
from bot.core.bootstrap import Wiring, bootstrap
from bot.core.clock import Clock
from bot.core.commands import (
    AnnounceSeasonFinals,
    ChatRef,
    ChatUnreachable,
    Chore,
    Command,
    JsonValue,
    MoveChat,
    NoteUsername,
    OpenRobotTable,
    PlayerRef,
    SetFrontEndNote,
    SetSeasonPeriod,
    SetTurnNotifications,
)
from bot.core.events import (
    ChatRulesInfo,
    FriendsView,
    ModerationDesk,
    Port,
    RecordView,
    Refusal,
    Reply,
    TableChanged,
    TournamentView,
)
from bot.core.leases import Leases
from bot.core.ownership import LeaseTimes, OwnerId
from bot.core.standings import Profile, Standings
from bot.core.state import PLAYERS_CHANNEL, HouseTimes
from bot.core.vocabulary import Ranking
from engine.robots import DEFAULT_LEVEL, Robot, make_robot
from engine.rules import Rules
from storage.base import FencedOut, Notifications, Storage, StoredMatch
from storage.ratings import SeasonPeriod

__all__ = ["JsonValue", "Manager", "TableManager"]

R = TypeVar("R")


class Manager(Protocol):
    """The table manager as front ends see it."""

    async def handle(self, command: Command) -> Reply: ...
    async def run(self, chore: Chore[R]) -> R: ...
    @property
    def times(self) -> HouseTimes: ...
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
        format: str = "",
    ) -> Standings: ...
    async def profile(
        self, player: PlayerRef | int, chat: ChatRef | None, format: str = ""
    ) -> Profile: ...
    async def seasons(self, chat: ChatRef | None) -> list[str]: ...
    async def analyze(
        self,
        player: PlayerRef,
        chat: ChatRef | None = None,
        table_id: str | None = None,
        hand: int | None = None,
    ) -> AnalysisReply | Refusal: ...
    def start_analysis(
        self,
        player: PlayerRef,
        chat: ChatRef | None = None,
        table_id: str | None = None,
        hand: int | None = None,
    ) -> asyncio.Future[AnalysisReply] | Refusal: ...
    async def current_season(self, chat: ChatRef | None) -> str: ...
    async def set_season_period(
        self, chat: ChatRef, period: SeasonPeriod, player: PlayerRef
    ) -> None: ...
    async def history(
        self, *, player: PlayerRef | None = None, chat: ChatRef | None = None, limit: int = 20
    ) -> list[StoredMatch]: ...
    async def player_id(self, player: PlayerRef) -> int: ...
    async def turn_notifications(self, player: PlayerRef) -> Notifications: ...
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
    def tournament_here(self, chat: ChatRef) -> TournamentView | None: ...
    async def tournament_view(self, tournament_id: str) -> TournamentView | None: ...
    async def record_view(self, match_id: str) -> RecordView | None: ...
    async def friends(self, player: PlayerRef) -> FriendsView: ...
    async def moderation_desk(self, chat: ChatRef, *, analyse: bool = True) -> ModerationDesk: ...


class TableManager:
    """Owns every live table; applies commands, runs timers and robots, emits events.

    Args:
        storage: the storage port (players, wallet, records, snapshots).
        clock: time (``bot.core.clock``); the system clock by default.
        seed: seeds table ids and table seeds (None: unpredictable). Same seed, same clock
            and same commands give the same tables, deals and robot moves.
        ports: ``{platform: Port}`` to register at once (``"*"`` gets every event).
        robot_delay, countdown_seconds, fill_seconds, return_seconds, hand_pause,
            missed_turns_limit, stuck_seconds, emote_seconds, robot_level,
            invite_seconds: see
            :class:`~bot.core.state.HouseTimes` (seconds).
        robot_factory, time_slice, default_preset, owner, lease_times,
            analysis_executor: see :func:`~bot.core.bootstrap.bootstrap`.

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
        invite_seconds: float = 120.0,
        lease_times: LeaseTimes | None = None,
    ) -> None:
        times = HouseTimes(
            robot_delay=robot_delay,
            countdown_seconds=countdown_seconds,
            fill_seconds=fill_seconds,
            return_seconds=return_seconds,
            hand_pause=hand_pause,
            missed_turns_limit=missed_turns_limit,
            stuck_seconds=stuck_seconds,
            emote_seconds=emote_seconds,
            robot_level=robot_level,
            invite_seconds=invite_seconds,
        )
        self.wiring: Wiring = bootstrap(
            storage,
            clock=clock,
            seed=seed,
            times=times,
            robot_factory=robot_factory,
            time_slice=time_slice,
            default_preset=default_preset,
            owner=owner,
            lease_times=lease_times,
            analysis_executor=analysis_executor,
        )
        """The core's parts (:mod:`bot.core.bootstrap`), for tests and tools."""
        self._core = self.wiring.core
        self._bus = self.wiring.bus
        views = self.wiring.views
        self._leases = self.wiring.leases
        self._listening = False  # subscribed to the players notices (at the first start)
        # the queries, as the views answer them (bot.core.views)
        self.tables = views.tables
        self.table_state = views.table_state
        self.tables_of = views.tables_of
        self.front_end_note = views.front_end_note
        self.match_of = views.match_of
        self.player_id = views.player_id
        self.turn_notifications = views.turn_notifications
        self.player_by_username = views.player_by_username
        self.balance = views.balance
        self.chat_rules = views.chat_rules
        self.standings = views.standings
        self.profile = views.profile
        self.seasons = views.seasons
        self.current_season = views.current_season
        self.history = views.history
        self.record_view = views.record_view
        self.analyze = views.analyze
        self.start_analysis = views.start_analysis
        self.tournament_here = self.wiring.tournaments.tournament_here
        self.tournament_view = self.wiring.tournaments.view_of
        self.friends = self.wiring.friends.friends
        self.moderation_desk = self.wiring.moderation.desk
        for platform, port in (ports or {}).items():
            self.register(platform, port)

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
        if not self._listening:  # links made in other processes
            await self._core.storage.subscribe(PLAYERS_CHANNEL, self._core.forget_players)
            self._listening = True
        if platforms is not None:
            await self.claim(platforms)
        await self.wiring.resume.restore(platforms)
        await self.wiring.tournaments.restore(platforms)
        self.wiring.friends.restore()

    async def stop(self) -> None:
        """Stop every table at once, then snapshot each with its deadlines and send what
        is queued.

        First no timer fires any more (robots stop moving) and no command is taken
        (refusal ``shutting_down``); then each table is saved as it is, deadlines
        included, so the next :meth:`start` re-arms them, shifted by the time the bot
        was down. Bounded by the saves, not by the tables' play. The leases are released
        last, so a standby process takes over at once.
        """
        core, wiring = self._core, self.wiring
        core.stopped = True
        wiring.analyst.close()
        wiring.tournaments.stop()
        wiring.friends.stop()
        tables = list(core.tables.values())
        for table in tables:
            wiring.timers.freeze(table)
        wiring.pacer.release_all()  # timer work waiting for its slot now sees the stop
        for table in tables:
            async with table.lock:
                if not table.closed:
                    with contextlib.suppress(FencedOut):  # taken over: its owner saves it
                        await core.save(table)
        await wiring.friends.flush_on_stop()
        await self._leases.release_all()
        await self.idle()

    @property
    def tables_dropped(self) -> int:
        """How many tables stopped here unsaved because their lease was lost (their new
        owner plays them); 0 means every table this process ran was saved."""
        return self._core.dropped

    async def idle(self) -> None:
        """Wait until every queued event was delivered to the ports (and every table's
        result read by its tournament)."""
        await self.wiring.tournaments.idle()
        await self.wiring.friends.idle()
        await self._core.outbox.idle()

    @property
    def busy(self) -> bool:
        """Some event is queued or being delivered to a port (see :meth:`idle`)."""
        return self._core.outbox.busy

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

    # ------------------------------------------------------------------ commands

    async def handle(self, command: Command) -> Reply:
        """Apply one player's command (:meth:`bot.core.messagebus.MessageBus.handle`);
        returns at once (events go out through the ports). Never raises for bad input: a
        refused command returns ``Reply(refusal=...)`` and changes nothing.

        Raises:
            TypeError: ``command`` is not a command.
        """
        return await self._bus.handle(command)

    async def run(self, chore: Chore[R]) -> R:
        """Run one chore (:class:`~bot.core.commands.Chore`); returns its result.

        Raises:
            TypeError: ``chore`` is not a chore; what its handler raises (see each).
        """
        return await self._bus.run(chore)

    async def set_front_end_note(self, table_id: str, key: str, value: JsonValue) -> bool:
        """:class:`~bot.core.commands.SetFrontEndNote` (see
        :meth:`bot.core.notes.Notes.set_front_end_note`): False when there is no such
        live table. Raises TypeError when ``value`` is not JSON (nothing kept)."""
        return await self.run(SetFrontEndNote(table_id, key, value))

    async def note_username(self, player: PlayerRef, username: str | None) -> bool:
        """:class:`~bot.core.commands.NoteUsername`: remember ``player``'s platform
        username (Telegram's ``@name``) if they are a player already (nobody's account is
        opened for it); False when they are not."""
        return await self.run(NoteUsername(player, username))

    async def set_turn_notifications(self, player: PlayerRef, notifications: str) -> None:
        """:class:`~bot.core.commands.SetTurnNotifications`. Raises ValueError when
        ``notifications`` is not one of ``storage.base.NOTIFICATIONS``."""
        await self.run(SetTurnNotifications(player, notifications))

    async def set_season_period(
        self, chat: ChatRef, period: SeasonPeriod, player: PlayerRef
    ) -> None:
        """:class:`~bot.core.commands.SetSeasonPeriod`: how long ``chat``'s seasons last
        (the front end checked the admin)."""
        await self.run(SetSeasonPeriod(chat, period, player))

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> list[str]:
        """:class:`~bot.core.commands.MoveChat` (see :meth:`bot.core.chats.ChatLife.move`):
        the ids of the live tables moved. Raises ValueError for an empty id, or the same
        id twice (nothing moves)."""
        return await self.run(MoveChat(platform, old_chat_id, new_chat_id))

    async def chat_unreachable(
        self, platform: str, chat_id: str, channel_id: str | None = None
    ) -> list[str]:
        """:class:`~bot.core.commands.ChatUnreachable` (see
        :meth:`bot.core.chats.ChatLife.unreachable`): the ids of the tables closed now,
        their stakes refunded."""
        return await self.run(ChatUnreachable(platform, chat_id, channel_id))

    async def announce_season_finals(self) -> int:
        """Send the final standings of every ended season of this process's chats
        (also done with each claim heartbeat); returns how many were sent."""
        return await self.run(AnnounceSeasonFinals())

    # ------------------------------------------------------------------ tools

    async def open_robot_table(
        self,
        chat: ChatRef,
        rules: Rules | None = None,
        *,
        levels: Sequence[str] | None = None,
        start: bool = True,
    ) -> str:
        """Open a table of robots only, one per player of its rules (simulations,
        benchmarks, tests); returns its id.

        With ``start`` the countdown is skipped and the first hand is dealt at once.

        Raises:
            ValueError: an unknown robot level.
        """
        chosen = tuple(levels) if levels else None
        return await self.run(OpenRobotTable(chat, rules, chosen, start))
