"""The table manager: the one owner of every live table (design.md, "Shape" and rule 3).

Front ends hand it commands (:mod:`bot.protocol`) and receive events through their
:class:`~bot.protocol.Port`. It implements the house rules of rules.md ("The house"):

* **Lobby**: play now seats a player at the open table of the place with the fewest free
  seats, or opens one; a table can be built with chosen players and robots; a seat can
  be reserved for an invited partner. An incomplete table fills with robots after
  ``fill_seconds`` (about 2 minutes) or at once on request; a full table starts after a
  ``countdown_seconds`` countdown.
* **Money**: at the start every human's stake goes to the match's escrow in one storage
  transaction (``storage.stake``; the due top-up first); a human who cannot pay is told
  and unseated. Winners are paid twice the stake at the end (``storage.settle``); a
  player who abandons forfeits the stake; a table left without humans ends and refunds.
* **Timers**: a human has ``rules.turn_seconds`` to move; then a robot plays that one
  move for them and they keep the seat. After ``missed_turns_limit`` such turns in a row,
  or when they leave, a robot takes the seat; coming back within ``return_seconds``
  (5 minutes) gives it back with the same tiles. ``rules.forced_move_seconds`` plays a
  single legal move for the player after that delay.
* **One at a time**: every command and timer of a table runs under the table's lock.
  A move press names the table, hand number and move number; anything stale, repeated,
  foreign or forged is refused with a reason code and changes nothing.
* **Determinism and resume**: time comes from the injected clock, randomness from seeds:
  each table has a seed, hand ``n`` is dealt from ``Random(f"{seed}:deal:{n}")`` and the
  robot's move ``k`` of hand ``n`` uses ``Random(f"{seed}:robot:{n}:{k}")``. After every
  change the table is snapshotted (``storage.save_table``); :meth:`TableManager.start`
  reloads the snapshots (of the platforms asked for) and re-arms the stored deadlines,
  so a crash followed by a restart ends exactly as an uninterrupted run with the same
  inputs; it sends each human their tiles and the turn again, since a crash may have
  lost the buttons the front ends were showing.
* **Front-end notes**: a front end may keep small JSON notes with a live table
  (:meth:`TableManager.set_front_end_note`, e.g. where its board message is); they are
  saved in the snapshot, so they survive a restart, and the manager never reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import json
import logging
import math
import random
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot.clock import Clock, SystemClock
from bot.i18n import refusal_text, translator
from bot.protocol import (
    EMOTES,
    ChatRef,
    ChatRulesChanged,
    ChatRulesInfo,
    ComeBack,
    Command,
    Emote,
    EmoteShown,
    Event,
    FillWithRobots,
    ForgedPress,
    HandEnded,
    HandStarted,
    InvitePartner,
    Leave,
    MatchEnded,
    MatchStarted,
    MoveChoice,
    MovePlayed,
    OpenTable,
    PlayerRef,
    PlayerSeated,
    PlayerUnseated,
    PlayMove,
    PlayNow,
    Port,
    PressButton,
    Refusal,
    Rematch,
    Reply,
    RobotSeat,
    SeatGivenBack,
    SeatInfo,
    SeatTakenByRobot,
    SetChatRules,
    ShowMyTiles,
    SitAt,
    TableChanged,
    TableClosed,
    TurnStarted,
    YourTiles,
    decode_press,
    encode_press,
)
from bot.table import DeadlineKind, Seat, Table
from engine.errors import DominoError, RulesError
from engine.hand import Termination, team_of
from engine.match import Match
from engine.moves import Move
from engine.records import record_of
from engine.robots import DEFAULT_LEVEL, LEVELS, Robot, make_robot
from engine.rules import PRESETS, Rules, find_preset
from engine.views import PublicView, SeatView, public_view, seat_view
from storage.base import (
    InsufficientFunds,
    MatchClosedError,
    NotInMatchError,
    PlayerResult,
    RankRow,
    Storage,
    StoredMatch,
    UnknownMatchError,
)

__all__ = ["TableManager", "tune_gc_for_serving"]

log = logging.getLogger(__name__)

KEPT_MATCHES = 50
"""Closed tables whose final match :meth:`TableManager.match_of` still returns (a finished
match holds thousands of objects; keeping every one would slow the garbage collector)."""

PLAYER_TABLE_OPTIONS = frozenset({"turn_seconds", "forced_move_seconds"})
"""Options a player may change for their own table when the chat's admins set rules."""

_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


class _Refuse(Exception):
    def __init__(self, code: str, table_id: str | None = None, /, **params: Any) -> None:
        super().__init__(code)
        self.reason = code
        self.table_id = table_id
        self.params = params


class TableManager:
    """Owns every live table; applies commands, runs timers and robots, emits events.

    Args:
        storage: the storage port (players, wallet, records, snapshots).
        clock: time (``bot.clock``); the system clock by default.
        seed: seeds table ids and table seeds (None: unpredictable). Same seed, same clock
            and same commands give the same tables, deals and robot moves.
        ports: ``{platform: Port}`` to register at once (``"*"`` gets every event).
        robot_delay: seconds a robot waits before its move (0 in tests and benchmarks).
        countdown_seconds: the countdown before a full table starts.
        fill_seconds: an incomplete table is filled with robots after this many seconds.
        return_seconds: a player who left or dropped may come back within this time.
        hand_pause: seconds between a hand's end and the next deal.
        missed_turns_limit: consecutive timed-out turns after which a robot takes over.
        emote_seconds: at most one emote per player in this many seconds.
        robot_level: the level of robots filling seats and standing in for players.
        robot_factory: builds a robot for a level (``engine.robots.make_robot``).
        default_preset: the rules of a chat whose admins never chose (rules.md, "Presets").
        time_slice: seconds of timer work (robot moves) per event-loop iteration before
            the rest waits for the next one, so the loop stays responsive.
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
        emote_seconds: float = 5.0,
        robot_level: str = DEFAULT_LEVEL,
        robot_factory: Callable[[str], Robot] = make_robot,
        time_slice: float = 0.005,
        default_preset: str = "venezolano",
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        # table ids must differ across restarts; table seeds (deals, robots) follow ``seed``
        self._rng = random.Random(
            f"{seed}:{self.clock.now()}" if seed is not None else random.SystemRandom().random()
        )
        self._seeds = random.Random(seed) if seed is not None else self._rng
        self._ports: dict[str, list[Port]] = {}
        for platform, port in (ports or {}).items():
            self.register(platform, port)
        self.robot_delay = robot_delay
        self.countdown_seconds = countdown_seconds
        self.fill_seconds = fill_seconds
        self.return_seconds = return_seconds
        self.hand_pause = hand_pause
        self.missed_turns_limit = missed_turns_limit
        self.emote_seconds = emote_seconds
        if robot_level not in LEVELS:
            raise ValueError(f"unknown robot level {robot_level!r} (levels: {', '.join(LEVELS)})")
        self.robot_level = robot_level
        self._robot_factory = robot_factory
        self._robots: dict[str, Robot] = {}
        self._tables: dict[str, Table] = {}
        self._ended: OrderedDict[str, _Ended] = OrderedDict()
        self._kept_matches: deque[str] = deque()
        self._player_ids: dict[tuple[str, str], int] = {}
        self._last_emote: dict[tuple[str, str], float] = {}
        self._lobby = asyncio.Lock()
        self._outbox: deque[Event] = deque()
        self._sender: asyncio.Task[None] | None = None
        self._senders: set[asyncio.Task[None]] = set()
        self._started = False
        self._stopped = False  # stop() ran: storage may be closed, notes stay in memory
        self._pacer = _Pacer(time_slice)
        self.default_rules = find_preset(default_preset)
        self.default_preset = find_preset_name(default_preset)
        self.matches_finished = 0

    # ------------------------------------------------------------------ lifecycle

    def register(self, platform: str, port: Port) -> None:
        """Send the events of ``platform``'s tables (and players) to ``port``.

        ``platform`` ``"*"`` receives every event (logging, tests).
        """
        self._ports.setdefault(platform, []).append(port)

    async def start(self, platforms: Collection[str] | None = None) -> None:
        """Reload the unfinished tables from storage and re-arm their timers.

        Snapshots that no longer load are logged and dropped. Finished matches whose
        settlement was interrupted are settled now (settlement is idempotent).

        Args:
            platforms: restore only the tables of these platforms (``ChatRef.platform``),
                e.g. those whose front end started: a table of a platform that is down
                would play on with robots and timers while its humans cannot see it, so
                its snapshot stays untouched in storage for a later start. None: every
                table. Calling ``start`` again restores the tables not yet live.
        """
        restored: list[Table] = []
        for data in await self.storage.load_tables():
            try:
                table = Table.from_snapshot(data)
            except (KeyError, TypeError, ValueError) as exc:
                log.error("dropping table snapshot %r: %s", data.get("table_id"), exc)
                continue
            if table.id in self._tables and not self._stopped:
                continue  # already live (e.g. restored by an earlier start)
            if platforms is not None and table.chat.platform not in platforms:
                log.info(
                    "table %s of %s left in storage: that platform is not hosted",
                    table.id,
                    table.chat.platform,
                )
                continue
            self._tables[table.id] = table
            restored.append(table)
        self._started = True
        self._stopped = False
        for table in restored:
            async with table.lock:
                await self._resume(table)

    async def stop(self) -> None:
        """Snapshot every live table, disarm every timer and send what is queued."""
        self._stopped = True
        for table in list(self._tables.values()):
            async with table.lock:
                self._disarm(table)
                for timer in table.away_timers.values():
                    timer.cancel()
                table.away_timers.clear()
                if not table.closed:
                    await self._save(table)
        self._pacer.release_all()
        await self.idle()

    async def idle(self) -> None:
        """Wait until every queued event was delivered to the ports."""
        while True:
            tasks = [t for t in self._senders if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ queries

    def tables(self) -> list[str]:
        """Ids of the live tables."""
        return list(self._tables)

    def table_state(self, table_id: str) -> TableChanged | None:
        """The table's current public state (what the last :class:`TableChanged` said)."""
        table = self._tables.get(table_id)
        return self._table_changed(table) if table is not None else None

    def front_end_note(self, table_id: str, key: str) -> Any:
        """The note a front end keeps with live table ``table_id`` under ``key`` (see
        :meth:`set_front_end_note`), or None (no such note, or no such live table)."""
        table = self._tables.get(table_id)
        if table is None:
            return None
        return copy.deepcopy(table.notes.get(key))

    async def set_front_end_note(self, table_id: str, key: str, value: Any) -> bool:
        """Keep ``value`` with live table ``table_id`` under ``key``, for a front end.

        Notes are the front ends' own (the manager never reads them; e.g. Telegram keeps
        where the table's board message is): platform-neutral, saved in the table's
        snapshot at once, so they survive a restart, and gone with the table. Use
        platform-prefixed keys (``"telegram.board"``). Setting the value a note already
        has writes nothing; ``None`` removes the note.

        Args:
            table_id: a live table's id.
            key: the note's name.
            value: any JSON value (str, int, float, bool, None, lists and string-keyed
                dicts of them); a copy is kept.

        Returns:
            False when there is no such live table (nothing kept), else True.

        Raises:
            TypeError: ``value`` is not JSON; nothing is kept.
        """
        try:
            kept = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"a front-end note must be a JSON value: {exc}") from None
        table = self._tables.get(table_id)
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
            if not self._stopped:
                await self._save(table)
        return True

    def match_of(self, table_id: str) -> Match | None:
        """The match at a table (tests, tools), also the final one of a recently closed
        table; None before it starts or when long gone."""
        table = self._tables.get(table_id)
        if table is not None:
            return table.match
        ended = self._ended.get(table_id)
        return ended.match if ended is not None else None

    def tables_of(self, player: PlayerRef) -> list[str]:
        """Ids of the live tables where ``player`` holds a seat."""
        return [t.id for t in self._tables.values() if t.seat_of(player.key) is not None]

    async def player_id(self, player: PlayerRef) -> int:
        """The storage id of ``player`` (their account is opened on first sight)."""
        known = self._player_ids.get(player.key)
        if known is not None:
            return known
        stored = await self.storage.ensure_player(
            player.platform,
            player.user_id,
            player.display_name,
            language=player.language,
            now=self.clock.now(),
        )
        self._player_ids[player.key] = stored.id
        return stored.id

    async def balance(self, player: PlayerRef) -> int:
        """The player's balance in dollars (rules.md, "The house")."""
        return await self.storage.balance(await self.player_id(player))

    async def chat_rules(self, chat: ChatRef) -> ChatRulesInfo:
        """The chat's rules (the default preset when its admins never chose)."""
        stored = await self.storage.get_chat_rules(chat.key)
        default = ChatRulesInfo(chat.key, self.default_preset, {}, self.default_rules, False)
        if stored is None:
            return default
        try:
            rules = stored.rules()
        except RulesError:
            log.error("chat %s has rules that no longer validate; using the default", chat.key)
            return default
        return ChatRulesInfo(chat.key, stored.preset, dict(stored.overrides), rules, True)

    async def top(
        self, chat: ChatRef | None, *, by: Literal["balance", "rating"] = "balance", limit: int = 10
    ) -> list[RankRow]:
        """The top list of a chat (or of everyone when None) by balance or rating."""
        key = chat.key if chat is not None else None
        if by == "rating":
            return await self.storage.top_by_rating(key, limit=limit)
        return await self.storage.top_by_balance(key, now=self.clock.now(), limit=limit)

    async def history(
        self, *, player: PlayerRef | None = None, chat: ChatRef | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        """Finished matches (records.md records), newest first."""
        player_id = await self.player_id(player) if player is not None else None
        return await self.storage.match_records(
            player_id=player_id, chat=chat.key if chat else None, limit=limit
        )

    # ------------------------------------------------------------------ commands

    async def handle(self, command: Command) -> Reply:
        """Apply one command; returns at once (events go out through the ports).

        Never raises for bad input: a refused command returns ``Reply(refusal=...)`` and
        changes nothing.
        """
        try:
            return await self._dispatch(command)
        except _Refuse as refuse:
            return Reply(refusal=self._refusal(command.player, refuse), table_id=refuse.table_id)

    async def _dispatch(self, command: Command) -> Reply:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise TypeError(f"not a command: {command!r}")
        name, in_lobby = handler
        method = getattr(self, name)
        if in_lobby:
            # seating commands change which tables exist or who sits where: one at a time
            async with self._lobby:
                return await method(command)  # type: ignore[no-any-return]
        return await method(command)  # type: ignore[no-any-return]

    def _refusal(self, player: PlayerRef, refuse: _Refuse) -> Refusal:
        return Refusal(
            to=player,
            reason=refuse.reason,
            params=refuse.params,
            text=refusal_text(refuse.reason, refuse.params, player.language),
            table_id=refuse.table_id,
        )

    # --- lobby

    def _my_table_here(self, player: PlayerRef, chat: ChatRef) -> Table | None:
        for table in self._tables.values():
            if table.chat.key == chat.key and table.seat_of(player.key) is not None:
                return table
        return None

    def _refuse_if_seated_here(self, player: PlayerRef, chat: ChatRef) -> None:
        table = self._my_table_here(player, chat)
        if table is not None:
            raise _Refuse("already_seated", table.id, label=table.label)

    async def _play_now(self, command: PlayNow) -> Reply:
        player, chat = command.player, command.chat
        self._refuse_if_seated_here(player, chat)
        candidates = [
            t
            for t in self._tables.values()
            if t.chat.place == chat.place
            and t.phase == "waiting"
            and t.chat.platform == player.platform
            and (
                t.reserved_seat_for(player.key) is not None
                or any(s.is_open and s.reserved_for is None for s in t.seats)
            )
        ]
        if candidates:
            reserved = [t for t in candidates if t.reserved_seat_for(player.key) is not None]
            pool = reserved or candidates
            table = min(pool, key=lambda t: (t.free_seats(), t.created_at, t.label))
            return await self._seat_player(table, player, None)
        info = await self.chat_rules(chat)
        table = self._new_table(chat, info.rules)
        reply = await self._seat_player(table, player, 0, new_table=True)
        return reply

    async def _open_table(self, command: OpenTable) -> Reply:
        player, chat = command.player, command.chat
        self._refuse_if_seated_here(player, chat)
        rules = await self._table_rules(chat, command.preset, dict(command.overrides))
        choices = {1: command.right, 2: command.across, 3: command.left}
        for choice in choices.values():
            if isinstance(choice, RobotSeat) and choice.level not in (None, *LEVELS):
                raise _Refuse("unknown_level", levels=", ".join(LEVELS))
            if isinstance(choice, PlayerRef) and choice.key == player.key:
                raise _Refuse("bad_seat")
        keys = [c.key for c in choices.values() if isinstance(c, PlayerRef)]
        if len(set(keys)) != len(keys):
            raise _Refuse("bad_seat")
        table = self._new_table(chat, rules)
        for index, choice in choices.items():
            if isinstance(choice, RobotSeat):
                table.seats[index].robot_level = choice.level or self.robot_level
            elif isinstance(choice, PlayerRef):
                table.seats[index].reserved_for = choice
        return await self._seat_player(table, player, 0, new_table=True)

    async def _table_rules(
        self, chat: ChatRef, preset: str | None, overrides: dict[str, Any]
    ) -> Rules:
        info = await self.chat_rules(chat)
        if preset is None and not overrides:
            return info.rules
        if info.set_by_admins:
            if preset is not None and find_preset_name(preset) != info.preset:
                raise _Refuse("rules_locked", option="preset")
            for name in overrides:
                if name not in PLAYER_TABLE_OPTIONS:
                    raise _Refuse("rules_locked", option=name)
        try:
            if preset is None or info.set_by_admins:
                return Rules.build(**{**info.rules.model_dump(), **overrides})
            return find_preset(preset, **overrides)
        except RulesError as exc:
            raise _Refuse("bad_rules", option=exc.option, allowed=exc.allowed) from None

    async def _sit_at(self, command: SitAt) -> Reply:
        table = self._live(command.table_id)
        if table.chat.platform != command.player.platform:
            raise _Refuse("wrong_platform", table.id)
        self._refuse_if_seated_here(command.player, table.chat)
        if table.phase not in ("waiting", "countdown"):
            raise _Refuse("already_started", table.id)
        if command.seat is not None and not 0 <= command.seat <= 3:
            raise _Refuse("bad_seat", table.id)
        return await self._seat_player(table, command.player, command.seat)

    async def _rematch(self, command: Rematch) -> Reply:
        old = self._ended.get(command.table_id)
        if old is not None and not old.started:
            old = None  # closed before its match started: nothing to play again
        if old is None:
            if command.table_id in self._tables:
                raise _Refuse("not_ended", command.table_id)
            raise _Refuse("table_gone", command.table_id)
        my_seat = next(
            (
                i
                for i, s in enumerate(old.seats)
                if s.player is not None and s.player.key == command.player.key
            ),
            None,
        )
        if my_seat is None:
            raise _Refuse("not_seated", old.id)
        chat = replace(old.chat, language=command.chat.language)
        self._refuse_if_seated_here(command.player, chat)
        table = self._new_table(chat, old.rules)
        for index, seat in enumerate(old.seats):
            if index == my_seat:
                continue
            if seat.player is not None:
                table.seats[index].reserved_for = seat.player
            else:
                table.seats[index].robot_level = seat.robot_level or self.robot_level
        return await self._seat_player(table, command.player, my_seat, new_table=True)

    def _new_table(self, chat: ChatRef, rules: Rules) -> Table:
        while True:
            table_id = "".join(self._rng.choice(_ID_ALPHABET) for _ in range(8))
            if table_id not in self._tables and table_id not in self._ended:
                break
        used = {t.label for t in self._tables.values() if t.chat.place == chat.place}
        number = 1
        while str(number) in used:
            number += 1
        return Table(
            id=table_id,
            label=str(number),
            chat=chat,
            rules=rules,
            seed=self._seeds.getrandbits(48),
            created_at=self.clock.now(),
            robot_level=self.robot_level,
        )

    async def _seat_player(
        self, table: Table, player: PlayerRef, seat: int | None, *, new_table: bool = False
    ) -> Reply:
        """Seat ``player`` (lobby lock held): checks the seat and the money first."""
        reserved = table.reserved_seat_for(player.key)
        if seat is None:
            if reserved is not None:
                seat = reserved
            else:
                free = [
                    i for i, s in enumerate(table.seats) if s.is_open and s.reserved_for is None
                ]
                if not free:
                    raise _Refuse("table_full", table.id)
                seat = free[0]
        target = table.seats[seat]
        if not target.is_open:
            raise _Refuse("seat_taken", table.id)
        if target.reserved_for is not None and target.reserved_for.key != player.key:
            raise _Refuse("seat_reserved", table.id)
        player_id = await self.player_id(player)
        await self._check_funds(player_id, table.rules.stake, table.id)
        async with table.lock:
            if table.closed or not target.is_open or table.phase not in ("waiting", "countdown"):
                raise _Refuse("seat_taken", table.id)
            target.player = player
            target.player_id = player_id
            target.reserved_for = None
            if new_table:
                self._tables[table.id] = table
                self._arm(table, table.created_at + self.fill_seconds, "fill")
            self._emit(
                table, PlayerSeated(table_id=table.id, chat=table.chat, seat=seat, player=player)
            )
            self._maybe_countdown(table)
            self._emit(table, self._table_changed(table))
            await self._save(table)
        _ = translator(player.language)
        return Reply(
            table_id=table.id,
            seat=seat,
            text=_("You sit at table {label}, seat {seat}.", label=table.label, seat=seat + 1),
        )

    async def _check_funds(self, player_id: int, stake: int, table_id: str) -> None:
        if stake <= 0:
            return
        balance = await self.storage.balance(player_id)
        if balance < stake:
            balance += await self.storage.top_up(player_id, now=self.clock.now(), stake=stake)
        if balance < stake:
            raise _Refuse("insufficient_funds", table_id, balance=balance, stake=stake)

    def _maybe_countdown(self, table: Table) -> None:
        full = all(not s.is_open for s in table.seats)
        if table.phase == "waiting" and full:
            table.phase = "countdown"
            self._arm(table, self.clock.now() + self.countdown_seconds, "start")
        elif table.phase == "countdown" and not full:
            table.phase = "waiting"
            self._arm(table, max(self.clock.now(), table.created_at + self.fill_seconds), "fill")

    async def _invite(self, command: InvitePartner) -> Reply:
        table = self._table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            if table.phase != "waiting":
                raise _Refuse("already_started", table.id)
            across = table.seats[(seat + 2) % 4]
            if not across.is_open:
                raise _Refuse("seat_taken", table.id)
            if command.partner.key == command.player.key:
                raise _Refuse("bad_seat", table.id)
            across.reserved_for = command.partner
            self._emit(table, self._table_changed(table))
            await self._save(table)
        return Reply(table_id=table.id, seat=seat)

    async def _fill_now(self, command: FillWithRobots) -> Reply:
        if command.level is not None and command.level not in LEVELS:
            raise _Refuse("unknown_level", levels=", ".join(LEVELS))
        table = self._table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            if table.phase != "waiting":
                raise _Refuse("already_started", table.id)
            self._fill(table, command.level)
            await self._save(table)
        return Reply(table_id=table.id, seat=seat)

    def _fill(self, table: Table, level: str | None = None) -> None:
        for seat in table.seats:
            if seat.is_open:
                seat.robot_level = level or table.robot_level
                seat.reserved_for = None
        self._maybe_countdown(table)
        self._emit(table, self._table_changed(table))

    # --- in play

    async def _press(self, command: PressButton) -> Reply:
        try:
            press = decode_press(command.payload)
        except ForgedPress:
            raise _Refuse("forged") from None
        player = command.player
        table = self._tables.get(press.table_id) or self._ended.get(press.table_id)
        chat = command.chat or (table.chat if table is not None else None)
        if press.kind == "move":
            return await self._play_move(
                PlayMove(
                    player, press.table_id, press.hand_number, press.move_number, press.code, chat
                )
            )
        if chat is None:
            raise _Refuse("table_gone", press.table_id)
        if press.kind == "sit":
            seat = int(press.code) if press.code else None
            async with self._lobby:
                return await self._sit_at(SitAt(player, chat, press.table_id, seat))
        if press.kind == "robots":
            return await self._fill_now(FillWithRobots(player, chat, press.table_id))
        if press.kind == "emote":
            return await self._emote(Emote(player, press.code, chat, press.table_id))
        if press.kind == "tiles":
            return await self._show_tiles(ShowMyTiles(player, chat, press.table_id))
        if press.kind == "back":
            return await self._come_back(ComeBack(player, chat, press.table_id))
        if press.kind == "leave":
            return await self._leave(Leave(player, chat, press.table_id))
        async with self._lobby:
            return await self._rematch(Rematch(player, chat, press.table_id))

    async def _play_move(self, command: PlayMove) -> Reply:
        table = self._tables.get(command.table_id)
        if table is None:
            raise _Refuse("table_gone", command.table_id)
        try:
            move = Move.from_code(command.code)
        except DominoError:
            raise _Refuse("forged", table.id) from None
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            if table.seats[seat].away:
                raise _Refuse("robot_playing", table.id)
            match = table.match
            if table.phase != "playing" or match is None:
                raise _Refuse("not_started", table.id)
            if (
                command.hand_number != table.hand_number
                or command.move_number != table.move_number
                or match.hand.is_over
            ):
                raise _Refuse("stale", table.id)
            if match.hand.turn != seat:
                raise _Refuse("not_your_turn", table.id)
            try:
                move = match.hand.resolve(move, seat)
            except DominoError as exc:
                raise _Refuse("illegal_move", table.id, reason=getattr(exc, "reason", "")) from None
            table.seats[seat].missed = 0
            await self._play(table, seat, move, "player")
        return Reply(table_id=table.id, seat=seat)

    async def _leave(self, command: Leave) -> Reply:
        table = self._table_for(command.player, command.chat, command.table_id)
        async with self._lobby, table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            now = self.clock.now()
            state = table.seats[seat]
            if table.phase in ("waiting", "countdown"):
                player = state.player
                assert player is not None
                table.seats[seat] = Seat()
                self._emit(
                    table,
                    PlayerUnseated(table_id=table.id, chat=table.chat, seat=seat, player=player),
                )
                if not table.humans():
                    await self._close(table, "empty")
                else:
                    self._maybe_countdown(table)
                    self._emit(table, self._table_changed(table))
                    await self._save(table)
            elif state.away:
                # leaving again while away: abandon for good now
                await self._abandon(table, seat)
            else:
                others = [i for i in table.present_humans() if i != seat]
                if not others:
                    await self._close(table, "no_humans")
                else:
                    self._go_away(table, seat, "left", now)
                    await self._after_away(table, seat)
        _ = translator(command.player.language)
        return Reply(
            table_id=table.id, seat=seat, text=_("You left table {label}.", label=table.label)
        )

    async def _come_back(self, command: ComeBack) -> Reply:
        table = self._table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                if any(
                    s.player is not None and s.player.key == command.player.key for s in table.seats
                ):
                    raise _Refuse("too_late", table.id)
                raise _Refuse("not_seated", table.id)
            state = table.seats[seat]
            if not state.away:
                raise _Refuse("not_away", table.id)
            if state.back_by is not None and self.clock.now() > state.back_by:
                raise _Refuse("too_late", table.id)
            state.away = False
            state.back_by = None
            state.missed = 0
            state.player = command.player
            timer = table.away_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            self._emit(
                table,
                SeatGivenBack(table_id=table.id, chat=table.chat, seat=seat, player=command.player),
            )
            match = table.match
            if match is not None and not match.hand.is_over:
                if match.hand.turn == seat:
                    self._begin_turn(table, send_tiles=True)
                else:
                    self._emit(table, self._your_tiles(table, seat))
            self._emit(table, self._table_changed(table))
            await self._save(table)
        return Reply(table_id=table.id, seat=seat)

    async def _emote(self, command: Emote) -> Reply:
        if command.name not in EMOTES:
            raise _Refuse("unknown_emote", emotes=", ".join(EMOTES))
        table = self._table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            now = self.clock.now()
            last = self._last_emote.get(command.player.key)
            if last is not None and now - last < self.emote_seconds:
                wait = max(1, math.ceil(self.emote_seconds - (now - last)))
                raise _Refuse("emote_too_soon", table.id, wait_seconds=wait)
            self._last_emote[command.player.key] = now
            self._emit(
                table,
                EmoteShown(
                    table_id=table.id,
                    chat=table.chat,
                    seat=seat,
                    player=command.player,
                    name=command.name,
                ),
            )
        return Reply(table_id=table.id, seat=seat)

    async def _show_tiles(self, command: ShowMyTiles) -> Reply:
        table = self._table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            self._check_live(table)
            seat = table.seat_of(command.player.key)
            if seat is None:
                raise _Refuse("not_seated", table.id)
            if table.match is None:
                raise _Refuse("not_started", table.id)
            tiles = self._your_tiles(table, seat, to=command.player)
        return Reply(table_id=table.id, seat=seat, events=(tiles,))

    async def _set_chat_rules(self, command: SetChatRules) -> Reply:
        if not command.is_admin:
            raise _Refuse("not_admin")
        player_id = await self.player_id(command.player)
        try:
            stored = await self.storage.set_chat_rules(
                command.chat.key,
                command.preset,
                dict(command.overrides),
                changed_by=player_id,
                now=self.clock.now(),
            )
        except RulesError as exc:
            raise _Refuse("bad_rules", option=exc.option, allowed=exc.allowed) from None
        event = ChatRulesChanged(
            table_id="",
            chat=command.chat,
            preset=stored.preset,
            overrides=dict(stored.overrides),
            rules=stored.rules(),
            by=command.player,
        )
        self._outbox.append(event)
        self._kick_manager_outbox()
        _ = translator(command.player.language)
        return Reply(text=_("Rules changed: {preset}.", preset=stored.preset))

    def _table_for(self, player: PlayerRef, chat: ChatRef | None, table_id: str | None) -> Table:
        """The table a command means: by id, else the player's table in this chat, else
        the player's only table."""
        if table_id is not None:
            table = self._tables.get(table_id)
            if table is None:
                raise _Refuse("table_gone", table_id)
            return table
        if chat is not None:
            table = self._my_table_here(player, chat)
            if table is not None:
                return table
        mine = [t for t in self._tables.values() if t.seat_of(player.key) is not None]
        if len(mine) == 1 and chat is None:
            return mine[0]
        raise _Refuse("no_table")

    def _live(self, table_id: str) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise _Refuse("table_gone", table_id)
        return table

    @staticmethod
    def _check_live(table: Table) -> None:
        if table.closed:
            raise _Refuse("table_gone", table.id)

    # ------------------------------------------------------------------ the game

    def _robot(self, level: str) -> Robot:
        robot = self._robots.get(level)
        if robot is None:
            robot = self._robots[level] = self._robot_factory(level)
        return robot

    def _robot_move(self, table: Table, seat: int) -> Move:
        match = table.match
        assert match is not None
        state = table.seats[seat]
        level = (
            state.robot_level if state.player is None and state.robot_level else table.robot_level
        )
        rng = random.Random(f"{table.seed}:robot:{table.hand_number}:{table.move_number}")
        return self._robot(level).choose(seat_view(match, seat), rng)

    async def _play(self, table: Table, seat: int, move: Move, by: str) -> None:
        """Apply a legal move (table lock held), tell everyone, arm what comes next."""
        match = table.match
        assert match is not None
        number = table.move_number
        # one shared object per distinct move: a match keeps hundreds in its history
        move = _MOVES.setdefault(move, move)
        table.match = match = match.apply(move, seat)
        self._emit(
            table,
            MovePlayed(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                move=move,
                by=by,  # type: ignore[arg-type]
                hand_number=match.hand_number,
                move_number=number,
                view=self._public(table),
            ),
        )
        if table.seats[seat].present and not match.hand.is_over:
            self._emit(table, self._your_tiles(table, seat))
        await self._after_move(table)

    async def _after_move(self, table: Table) -> None:
        match = table.match
        assert match is not None
        if match.hand.is_over:
            outcome = match.hand.outcome
            assert outcome is not None
            points = [0, 0]
            if outcome.winner_team is not None:
                points[outcome.winner_team] = outcome.points
            self._emit(
                table,
                HandEnded(
                    table_id=table.id,
                    chat=table.chat,
                    hand_number=match.hand_number,
                    outcome=outcome,
                    hand_points=(points[0], points[1]),
                    score=match.score,
                    view=self._public(table),
                ),
            )
            if match.is_over:
                await self._finish(table)
                return
            self._arm(table, self.clock.now() + self.hand_pause, "next_hand")
        else:
            self._begin_turn(table, send_tiles=True)
        self._emit(table, self._table_changed(table))
        await self._save(table)

    def _begin_turn(self, table: Table, *, send_tiles: bool) -> None:
        """Arm the timer of the seat to move and announce the turn."""
        match = table.match
        assert match is not None
        seat = match.hand.turn
        state = table.seats[seat]
        now = self.clock.now()
        rules = table.rules
        if state.robot_plays:
            deadline = now + self.robot_delay
            self._arm(table, deadline, "robot")
        elif rules.forced_move_seconds is not None and len(match.hand.legal_moves()) == 1:
            deadline = now + rules.forced_move_seconds
            self._arm(table, deadline, "forced")
        else:
            deadline = now + rules.turn_seconds
            self._arm(table, deadline, "turn")
        self._emit(
            table,
            TurnStarted(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                player=state.player if state.present else None,
                deadline=deadline,
                seconds=max(0, round(deadline - now)),
                hand_number=table.hand_number,
                move_number=table.move_number,
            ),
        )
        if send_tiles and state.present:
            self._emit(table, self._your_tiles(table, seat))

    async def _on_timer(self, table: Table, token: int) -> None:
        await self._pacer.turn()
        started = time.perf_counter()
        try:
            await self._timer_work(table, token)
        finally:
            self._pacer.done(time.perf_counter() - started)

    async def _timer_work(self, table: Table, token: int) -> None:
        async with table.lock:
            if table.closed or table.token != token or table.deadline_kind is None:
                return
            kind = table.deadline_kind
            table.deadline = None
            table.deadline_kind = None
            table.timer = None
            if kind == "fill":
                self._fill(table)
                await self._save(table)
            elif kind == "start":
                await self._start_match(table)
            elif kind == "next_hand":
                await self._next_hand(table)
            else:
                await self._auto_move(table, kind)

    async def _auto_move(self, table: Table, kind: DeadlineKind) -> None:
        match = table.match
        if match is None or match.hand.is_over:
            return
        seat = match.hand.turn
        state = table.seats[seat]
        if kind == "forced" and state.present:
            legal = match.hand.legal_moves()
            await self._play(table, seat, legal[0], "forced")
            return
        move = self._robot_move(table, seat)
        if kind == "turn" and state.present:
            state.missed += 1
            if state.missed >= self.missed_turns_limit:
                self._go_away(table, seat, "missed_turns", self.clock.now())
            await self._play(table, seat, move, "timeout")
            return
        await self._play(table, seat, move, "robot")

    def _go_away(
        self, table: Table, seat: int, reason: Literal["left", "missed_turns"], now: float
    ) -> None:
        state = table.seats[seat]
        player = state.player
        assert player is not None
        state.away = True
        state.back_by = now + self.return_seconds
        self._arm_away(table, seat)
        self._emit(
            table,
            SeatTakenByRobot(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                player=player,
                reason=reason,
                back_by=state.back_by,
            ),
        )

    async def _after_away(self, table: Table, seat: int) -> None:
        match = table.match
        if match is not None and not match.hand.is_over and match.hand.turn == seat:
            self._begin_turn(table, send_tiles=False)
        self._emit(table, self._table_changed(table))
        await self._save(table)

    def _arm_away(self, table: Table, seat: int) -> None:
        old = table.away_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        back_by = table.seats[seat].back_by
        if back_by is None:
            return

        async def expired() -> None:
            await self._on_away_expired(table, seat)

        table.away_timers[seat] = self.clock.call_at(back_by, expired)

    async def _on_away_expired(self, table: Table, seat: int) -> None:
        async with table.lock:
            state = table.seats[seat]
            if table.closed or not state.away or state.forfeited:
                return
            if state.back_by is not None and self.clock.now() < state.back_by:
                return
            table.away_timers.pop(seat, None)
            await self._abandon(table, seat)

    async def _abandon(self, table: Table, seat: int) -> None:
        """The human at ``seat`` abandoned (table lock held): forfeit, or end the table
        when no other human plays on."""
        others = [i for i in table.present_humans() if i != seat]
        if not others:
            await self._close(table, "no_humans")
            return
        state = table.seats[seat]
        if state.player_id is not None:
            with contextlib.suppress(UnknownMatchError, NotInMatchError, MatchClosedError):
                await self.storage.forfeit(table.id, state.player_id, now=self.clock.now())
        state.forfeited = True
        state.away = True
        state.back_by = None
        timer = table.away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._emit(table, self._table_changed(table))
        await self._save(table)

    async def _start_match(self, table: Table) -> None:
        humans = table.humans()
        ids = [table.seats[i].player_id for i in humans]
        player_ids = [pid for pid in ids if pid is not None]
        stake = table.rules.stake
        try:
            await self.storage.stake(table.id, player_ids, stake, now=self.clock.now())
        except InsufficientFunds as exc:
            for index in humans:
                state = table.seats[index]
                if state.player_id in exc.player_ids and state.player is not None:
                    player = state.player
                    # the refill they are due still applies (rules.md, "The house")
                    await self.storage.top_up(state.player_id, now=self.clock.now(), stake=stake)
                    balance = await self.storage.balance(state.player_id)
                    table.seats[index] = Seat()
                    refuse = _Refuse("insufficient_funds", table.id, balance=balance, stake=stake)
                    self._emit(table, self._refusal(player, refuse))
                    self._emit(
                        table,
                        PlayerUnseated(
                            table_id=table.id, chat=table.chat, seat=index, player=player
                        ),
                    )
            if not table.humans():
                await self._close(table, "empty")
                return
            table.phase = "waiting"
            self._arm(table, self.clock.now() + self.fill_seconds, "fill")
            self._emit(table, self._table_changed(table))
            await self._save(table)
            return
        table.stakes = {pid: stake for pid in player_ids}
        table.phase = "playing"
        rng = random.Random(f"{table.seed}:deal:1")
        table.match = Match.new(table.rules, rng)
        self._emit(
            table,
            MatchStarted(
                table_id=table.id,
                chat=table.chat,
                seats=self._seat_infos(table),
                rules=table.rules,
                stakes=dict(table.stakes),
            ),
        )
        self._deal_announce(table)
        self._emit(table, self._table_changed(table))
        await self._save(table)

    async def _next_hand(self, table: Table) -> None:
        match = table.match
        assert match is not None
        rng = random.Random(f"{table.seed}:deal:{match.hand_number + 1}")
        table.match = match.next_hand(rng)
        self._deal_announce(table)
        self._emit(table, self._table_changed(table))
        await self._save(table)

    def _deal_announce(self, table: Table) -> None:
        match = table.match
        assert match is not None
        self._emit(
            table,
            HandStarted(
                table_id=table.id,
                chat=table.chat,
                hand_number=match.hand_number,
                starter=match.hand.starter,
                view=self._public(table),
            ),
        )
        turn = match.hand.turn
        for index in table.present_humans():
            if index != turn:
                self._emit(table, self._your_tiles(table, index))
        self._begin_turn(table, send_tiles=True)

    async def _finish(self, table: Table) -> None:
        """Settle and record a finished match, then close the table (lock held).

        Idempotent: a restart after a crash in here settles and records again, which
        storage ignores (rules.md, "The house"; design.md, rule 5).
        """
        match = table.match
        assert match is not None and match.winner_team is not None
        now = self.clock.now()
        winner_team = match.winner_team
        self._disarm(table)
        winners = [
            i for i in table.humans() if team_of(i) == winner_team and table.seats[i].player_id
        ]
        winner_ids = [table.seats[i].player_id for i in winners]
        payouts_by_player: dict[int, int] = {}
        if table.stakes:
            try:
                payouts_by_player = await self.storage.settle(
                    table.id, [pid for pid in winner_ids if pid is not None], now=now
                )
            except (UnknownMatchError, MatchClosedError) as exc:
                log.error("table %s: settlement failed: %s", table.id, exc)
        record = record_of(match)
        results = self._results(table, match)
        if results:
            await self.storage.record_match(table.id, table.chat.key, record, results, now=now)
        balances: dict[int, int] = {}
        for index, state in enumerate(table.seats):
            if state.player is not None and state.player_id is not None:
                balances[state.player_id] = await self.storage.balance(state.player_id)
            del index
        payouts = {
            i: payouts_by_player.get(table.seats[i].player_id or -1, 0)
            for i in range(4)
            if table.seats[i].player_id in payouts_by_player
        }
        table.phase = "ended"
        self._emit(
            table,
            MatchEnded(
                table_id=table.id,
                chat=table.chat,
                winner_team=winner_team,
                score=match.score,
                winners=tuple(p for i in winners if (p := table.seats[i].player) is not None),
                payouts=payouts,
                payouts_by_player=payouts_by_player,
                balances=balances,
                record=record,
                view=self._public(table),
                seats=self._seat_infos(table),
            ),
        )
        self.matches_finished += 1
        await self._close(table, "finished")

    @staticmethod
    def _results(table: Table, match: Match) -> list[PlayerResult]:
        results = []
        outcomes = match.outcomes
        for index, state in enumerate(table.seats):
            if state.player is None or state.player_id is None:
                continue
            team = team_of(index)
            results.append(
                PlayerResult(
                    player_id=state.player_id,
                    team=team,
                    won_match=match.winner_team == team,
                    hands_won=sum(1 for o in outcomes if o.winner_team == team),
                    dominoes=sum(
                        1
                        for o in outcomes
                        if o.end is Termination.DOMINO and o.winner_seat == index
                    ),
                    trancas_won=sum(
                        1
                        for o in outcomes
                        if o.end is Termination.BLOCKED and o.winner_team == team
                    ),
                    capicuas=sum(1 for o in outcomes if o.capicua and o.winner_seat == index),
                )
            )
        return results

    async def _close(self, table: Table, reason: Literal["finished", "no_humans", "empty"]) -> None:
        """Close a table (lock held): refund a cancelled match, drop its snapshot."""
        refunds: dict[int, int] = {}
        if reason == "no_humans" and table.stakes:
            try:
                refunds = await self.storage.refund(table.id, now=self.clock.now())
            except (UnknownMatchError, MatchClosedError) as exc:
                log.error("table %s: refund failed: %s", table.id, exc)
        self._disarm(table)
        for timer in table.away_timers.values():
            timer.cancel()
        table.away_timers.clear()
        table.closed = True
        table.phase = "ended"
        self._emit(
            table, TableClosed(table_id=table.id, chat=table.chat, reason=reason, refunds=refunds)
        )
        self._tables.pop(table.id, None)
        # only what a rematch needs: a finished match's state would keep thousands of
        # objects alive per table for the garbage collector to walk
        self._ended[table.id] = _Ended(
            id=table.id,
            chat=table.chat,
            rules=table.rules,
            seats=[replace(s) for s in table.seats],
            started=table.match is not None,
            match=table.match,
        )
        self._kept_matches.append(table.id)
        while len(self._kept_matches) > KEPT_MATCHES:
            gone = self._ended.get(self._kept_matches.popleft())
            if gone is not None:
                gone.match = None
        while len(self._ended) > 2000:
            self._ended.popitem(last=False)
        await self.storage.delete_table(table.id)

    # ------------------------------------------------------------------ timers

    def _arm(self, table: Table, when: float, kind: DeadlineKind) -> None:
        self._disarm(table)
        table.token += 1
        token = table.token
        table.deadline = when
        table.deadline_kind = kind

        async def fire() -> None:
            await self._on_timer(table, token)

        table.timer = self.clock.call_at(when, fire)

    @staticmethod
    def _disarm(table: Table) -> None:
        table.token += 1  # a timer already fired and waiting for its turn does nothing
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None
        table.deadline_kind = None

    async def _resume(self, table: Table) -> None:
        """Re-arm a reloaded table's timers from its stored deadlines (lock held)."""
        match = table.match
        if match is not None and match.is_over:
            await self._finish(table)
            return
        for index, state in enumerate(table.seats):
            if state.away and not state.forfeited and state.back_by is not None:
                self._arm_away(table, index)
        kind, deadline = table.deadline_kind, table.deadline
        if kind is not None and deadline is not None:
            self._arm(table, deadline, kind)
            self._redeliver(table)
        elif table.phase == "waiting":
            self._arm(table, table.created_at + self.fill_seconds, "fill")
        elif table.phase == "countdown":
            self._arm(table, self.clock.now() + self.countdown_seconds, "start")
        elif match is not None and match.hand.is_over:
            self._arm(table, self.clock.now() + self.hand_pause, "next_hand")
        elif match is not None:
            self._begin_turn(table, send_tiles=True)
            for index in table.present_humans():
                if index != match.hand.turn:
                    self._emit(table, self._your_tiles(table, index))
        self._emit(table, self._table_changed(table))

    def _redeliver(self, table: Table) -> None:
        """Send a resumed table's private hands and its turn again (lock held).

        A crash may have lost what the front ends were showing (a turn's buttons), so
        every human at the table gets their :class:`YourTiles` again, and the seat to move
        its :class:`TurnStarted` with the restored deadline (front ends redraw; a repeated
        YourTiles replaces the hand message). Nothing changes at the table.
        """
        match = table.match
        kind, deadline = table.deadline_kind, table.deadline
        if match is None or match.hand.is_over or deadline is None:
            return
        if kind not in ("turn", "forced", "robot"):
            return
        turn = match.hand.turn
        for index in table.present_humans():
            if index != turn:
                self._emit(table, self._your_tiles(table, index))
        state = table.seats[turn]
        self._emit(
            table,
            TurnStarted(
                table_id=table.id,
                chat=table.chat,
                seat=turn,
                player=state.player if state.present else None,
                deadline=deadline,
                seconds=max(0, round(deadline - self.clock.now())),
                hand_number=table.hand_number,
                move_number=table.move_number,
            ),
        )
        if state.present:
            self._emit(table, self._your_tiles(table, turn))

    # ------------------------------------------------------------------ events

    def _seat_infos(self, table: Table) -> tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]:
        infos = []
        for index, s in enumerate(table.seats):
            if s.player is not None:
                infos.append(
                    SeatInfo(
                        seat=index,
                        name=s.player.display_name,
                        player=s.player,
                        player_id=s.player_id,
                        is_robot=s.away,
                        robot_level=table.robot_level if s.away else None,
                        away=s.away,
                        back_by=s.back_by,
                    )
                )
            elif s.robot_level is not None:
                infos.append(
                    SeatInfo(
                        seat=index,
                        name=ROBOT_NAMES[index],
                        is_robot=True,
                        robot_level=s.robot_level,
                    )
                )
            else:
                infos.append(SeatInfo(seat=index, reserved_for=s.reserved_for))
        return (infos[0], infos[1], infos[2], infos[3])

    @staticmethod
    def _public(table: Table) -> PublicView:
        """The public view of the table's match, built once per position."""
        match = table.match
        assert match is not None
        cached = table.view_cache
        if cached is not None and cached[0] is match:
            return cached[1]
        view = public_view(match)
        table.view_cache = (match, view)
        return view

    def _table_changed(self, table: Table) -> TableChanged:
        match = table.match
        deadline = table.deadline
        now = self.clock.now()
        return TableChanged(
            table_id=table.id,
            chat=table.chat,
            label=table.label,
            phase=table.phase,
            rules=table.rules,
            seats=self._seat_infos(table),
            view=self._public(table) if match is not None else None,
            hand_number=table.hand_number,
            move_number=table.move_number,
            deadline=deadline,
            seconds_left=max(0, math.ceil(deadline - now)) if deadline is not None else None,
            turn=match.hand.turn if match is not None and not match.hand.is_over else None,
        )

    def _your_tiles(self, table: Table, seat: int, *, to: PlayerRef | None = None) -> YourTiles:
        match = table.match
        assert match is not None
        state = table.seats[seat]
        player = to or state.player
        assert player is not None
        view = seat_view(match, seat)
        hand, number = table.hand_number, table.move_number
        moves = view.legal_moves() if state.present else []
        labels = _move_labels(view, moves, player.language)
        choices = tuple(
            MoveChoice(
                move=m,
                code=m.code(),
                label=label,
                payload=encode_press(table.id, hand, number, m.code()),
            )
            for m, label in zip(moves, labels, strict=True)
        )
        mine = view.is_my_turn and state.present
        return YourTiles(
            table_id=table.id,
            chat=table.chat,
            to=player,
            seat=seat,
            view=view,
            moves=choices,
            hand_number=hand,
            move_number=number,
            is_your_turn=mine,
            deadline=table.deadline if mine else None,
            seats=self._seat_infos(table),
            label=table.label,
        )

    def _ports_for(self, platform: str) -> list[Port]:
        return self._ports.get(platform, []) + self._ports.get("*", [])

    def _emit(self, table: Table, event: Event) -> None:
        platform = (
            event.to.platform if isinstance(event, (Refusal, YourTiles)) else table.chat.platform
        )
        if not self._ports_for(platform):
            return
        table.outbox.append(event)
        if table.sender is None or table.sender.done():
            table.sender = asyncio.get_running_loop().create_task(self._send(table.outbox))
            self._senders.add(table.sender)
            table.sender.add_done_callback(self._senders.discard)

    def _kick_manager_outbox(self) -> None:
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send(self._outbox))
            self._senders.add(self._sender)
            self._sender.add_done_callback(self._senders.discard)

    async def _send(self, outbox: deque[Event]) -> None:
        while outbox:
            event = outbox.popleft()
            platform = (
                event.to.platform
                if isinstance(event, (Refusal, YourTiles))
                else event.chat.platform
            )
            for port in self._ports_for(platform):
                try:
                    await port.deliver(event)
                except Exception:  # a failed send never stops a table
                    log.exception("port failed to deliver %s", type(event).__name__)

    async def _save(self, table: Table) -> None:
        if table.closed:
            return
        await self.storage.save_table(table.id, table.snapshot(), now=self.clock.now())

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
        """
        table = self._new_table(chat, rules or PRESETS["venezolano"])
        chosen = list(levels) if levels else [self.robot_level] * 4
        for index, level in enumerate(chosen):
            if level not in LEVELS:
                raise ValueError(f"unknown robot level {level!r}")
            table.seats[index].robot_level = level
        self._tables[table.id] = table
        async with table.lock:
            if start:
                await self._start_match(table)
            else:
                self._maybe_countdown(table)
                self._emit(table, self._table_changed(table))
                await self._save(table)
        return table.id


@dataclass(slots=True)
class _Ended:
    """What is kept of a closed table: enough to refuse late presses and to rematch (and
    the final match of the most recent ones, for :meth:`TableManager.match_of`)."""

    id: str
    chat: ChatRef
    rules: Rules
    seats: list[Seat]
    started: bool
    match: Match | None = None


_HANDLERS: dict[type, tuple[str, bool]] = {
    # command type: (TableManager method, taken under the lobby lock)
    PlayMove: ("_play_move", False),
    PressButton: ("_press", False),
    PlayNow: ("_play_now", True),
    OpenTable: ("_open_table", True),
    SitAt: ("_sit_at", True),
    Rematch: ("_rematch", True),
    InvitePartner: ("_invite", False),
    FillWithRobots: ("_fill_now", False),
    Leave: ("_leave", False),
    ComeBack: ("_come_back", False),
    Emote: ("_emote", False),
    ShowMyTiles: ("_show_tiles", False),
    SetChatRules: ("_set_chat_rules", False),
}
"""How :meth:`TableManager.handle` applies each command."""


def tune_gc_for_serving() -> None:
    """Tune the garbage collector for a long-running bot process (call once, after start-up).

    Every move replaces a table's immutable state, so many objects live a few hundred
    milliseconds: long enough to reach the oldest generation, whose full collections walk
    every live object (about 200 per table) and pause the event loop for a long time with
    many tables. Freezing the start-up objects and collecting the older generations less
    often keeps those pauses rare (``bench/tables.py --tune-gc`` shows the difference).
    """
    gc.collect()
    gc.set_threshold(700, 50, 100)
    gc.freeze()


class _Pacer:
    """Keeps timer work to about ``budget`` seconds per event-loop iteration.

    Timers of many tables fall due together (robots with zero think time); asyncio would
    run them all in one iteration and starve everything else (a button press, a network
    read). Past the budget, timer callbacks wait in a FIFO (without spinning); each later
    iteration releases about a budget's worth of them, estimated from the average cost
    of one piece of work. Commands from players never wait here.
    """

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.average = 0.0002
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._iteration_start: float | None = None
        self._armed = False

    async def turn(self) -> None:
        now = time.perf_counter()
        if self._iteration_start is None:
            self._iteration_start = now
            self._arm()
        if not self._waiters and now - self._iteration_start < self.budget:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(future)
        self._arm()
        await future

    def release_all(self) -> None:
        """Let every waiting callback go (at shutdown: their timers are disarmed)."""
        while self._waiters:
            future = self._waiters.popleft()
            if not future.done():
                future.set_result(None)

    def done(self, seconds: float) -> None:
        self.average += (seconds - self.average) * 0.05

    def _arm(self) -> None:
        if not self._armed:
            self._armed = True
            asyncio.get_running_loop().call_soon(self._next_iteration)

    def _next_iteration(self) -> None:
        self._armed = False
        self._iteration_start = None
        if not self._waiters:
            return
        # the released callbacks run in the coming iteration: that iteration's budget
        self._iteration_start = time.perf_counter()
        count = max(1, int(self.budget / max(self.average, 1e-6)))
        while self._waiters and count > 0:
            future = self._waiters.popleft()
            if not future.done():
                future.set_result(None)
                count -= 1
        self._arm()


_MOVES: dict[Move, Move] = {}
ROBOT_NAMES = ("Robot Tuerca", "Robot Chispa", "Robot Turbo", "Robot Bit")
"""A robot's name by seat: distinct at a table, so "dominó de Robot Chispa" says which
robot; the level is shown apart (the seat's robot tag), so the name fits a seat panel."""


def find_preset_name(name: str) -> str:
    """A preset's canonical name (``"Español"`` -> ``"espanol"``); the input if unknown."""
    return name.strip().lower().replace("ñ", "n")


def _move_labels(view: SeatView, moves: Iterable[Move], language: str) -> list[str]:
    """Button labels, the same as ``render.move_labels`` (what the hand picture shows)."""
    moves = list(moves)
    try:
        from render import move_labels

        labelled = dict(move_labels(view, language))
        return [labelled.get(m) or _label(m, language) for m in moves]
    except Exception:  # a drawing helper must never break the table
        log.exception("render.move_labels failed")
        return [_label(m, language) for m in moves]


def _label(move: Move, language: str) -> str:
    _ = translator(language)
    if move.tile is None:
        return _("Pass")
    tile = f"[{move.tile.high}|{move.tile.low}]"
    if move.side is None:
        return tile
    return (
        _("{tile} left", tile=tile) if move.side.value == "left" else _("{tile} right", tile=tile)
    )
