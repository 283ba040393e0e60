"""Seating (rules.md, "The house"): play now, open a table, sit, invite a partner, fill
with robots, the countdown, rematch, and leaving.

* Play now seats a player at the open table of the place with the fewest free seats (a
  seat reserved for them first), or opens one.
* An incomplete table fills with robots after ``fill_seconds`` (about 2 minutes) or at
  once on request; a full table starts after a ``countdown_seconds`` countdown.
* Leaving before the start is free; leaving a started match is abandoning it: the stake
  is forfeited at once, a robot plays the seat to the end (also when nobody else is
  left; then the table ends, unpaid) and the seat is closed to its player (see
  :mod:`bot.core.session`; the 5-minute return is for missed turns).
* An admin closes a table of their chat: one still seating at any time; a started match
  only when it is stuck (nothing moved for ``stuck_seconds``) and never one they play in
  or left.

Commands that change which tables exist or who sits where run under the lobby lock
(declared in :mod:`bot.core.bootstrap`), one at a time.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from bot.core.chat_rules import ChatRules
from bot.core.commands import (
    Challenge,
    ChatRef,
    CloseTable,
    DeclineChallenge,
    FillWithRobots,
    InvitePartner,
    Leave,
    OpenRobotTable,
    OpenTable,
    PlayerRef,
    PlayNow,
    Rematch,
    RobotSeat,
    SitAt,
)
from bot.core.events import PlayerSeated, PlayerUnseated, Refused, Reply, SeatKept
from bot.core.projection import table_changed
from bot.core.session import Session
from bot.core.settlement import Settlement
from bot.core.state import Core
from bot.core.table import Seat, Table
from bot.core.timers import Timers
from bot.core.vocabulary import AwayReason, CloseReason, DeadlineKind, Phase, RefusalReason
from engine.robots import LEVELS
from engine.rules import PRESETS, Rules

__all__ = ["Lobby"]

_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_ID_LENGTH = 8
SEATING_PHASES = (Phase.WAITING, Phase.COUNTDOWN)


class Lobby:
    """Who sits where before a match, and leaving a table."""

    def __init__(
        self,
        core: Core,
        timers: Timers,
        session: Session,
        settlement: Settlement,
        rules: ChatRules,
    ) -> None:
        self.core = core
        self.timers = timers
        self.session = session
        self.settlement = settlement
        self.rules = rules

    # ------------------------------------------------------------------ commands

    async def play_now(self, command: PlayNow) -> Reply:
        """Seat me at the best open table of this place, or open one."""
        core = self.core
        player, chat = command.player, command.chat
        rules = await self.rules.for_format(chat, command.format)
        self._refuse_if_seated_here(player, chat, slow=rules.is_slow)
        waiting = [
            t
            for t in core.tables.values()
            if t.chat.place == chat.place
            and t.phase is Phase.WAITING
            and t.chat.platform == player.platform
        ]
        # a seat kept for me (an invitation, a rematch) first, whatever its format
        reserved = [t for t in waiting if t.reserved_seat_for(player.key) is not None]
        pool = reserved or [
            t
            for t in waiting
            if t.rules.format_key == rules.format_key
            and t.rules.is_slow == rules.is_slow
            and any(s.is_open and s.reserved_for is None for s in t.seats)
        ]
        if pool:
            table = min(pool, key=lambda t: (t.free_seats(), t.created_at, t.label))
            return await self._seat_player(table, player, None)
        table = self.new_table(chat, rules)
        return await self._seat_player(table, player, 0, new_table=True)

    async def open_table(self, command: OpenTable) -> Reply:
        """Open a table with chosen rules, robots and reserved seats; I sit at seat 0."""
        player, chat = command.player, command.chat
        rules = await self.rules.for_table(
            chat, command.preset, dict(command.overrides), formats=command.formats
        )
        self._refuse_if_seated_here(player, chat, slow=rules.is_slow)
        choices = {1: command.right, 2: command.across, 3: command.left}
        for index, choice in list(choices.items()):
            if index >= rules.players:  # a format of fewer seats: only the first ones
                del choices[index]
                free = [i for i in range(1, rules.players) if choices.get(i) is None]
                if isinstance(choice, PlayerRef):  # an invited player takes a free one
                    if not free:
                        raise Refused(RefusalReason.BAD_SEAT)
                    choices[free[0]] = choice
        for choice in choices.values():
            if isinstance(choice, RobotSeat) and choice.level not in (None, *LEVELS):
                raise Refused(RefusalReason.UNKNOWN_LEVEL, levels=", ".join(LEVELS))
            if isinstance(choice, PlayerRef) and choice.key == player.key:
                raise Refused(RefusalReason.BAD_SEAT)
        keys = [c.key for c in choices.values() if isinstance(c, PlayerRef)]
        if len(set(keys)) != len(keys):
            raise Refused(RefusalReason.BAD_SEAT)
        table = self.new_table(chat, rules)
        for index, choice in choices.items():
            if isinstance(choice, RobotSeat):
                table.seats[index].robot_level = choice.level or self.core.times.robot_level
            elif isinstance(choice, PlayerRef):
                table.seats[index].reserved_for = choice
        return await self._seat_player(table, player, 0, new_table=True)

    async def sit_at(self, command: SitAt) -> Reply:
        """Take a seat (or any free one) at a table that has not started."""
        table = self.core.live(command.table_id)
        if table.chat.platform != command.player.platform:
            raise Refused(RefusalReason.WRONG_PLATFORM, table.id)
        self._refuse_if_seated_here(command.player, table.chat, slow=table.rules.is_slow)
        if table.phase not in SEATING_PHASES:
            raise Refused(RefusalReason.ALREADY_STARTED, table.id)
        if command.seat is not None and not 0 <= command.seat < len(table.seats):
            raise Refused(RefusalReason.BAD_SEAT, table.id)
        return await self._seat_player(table, command.player, command.seat)

    async def rematch(self, command: Rematch) -> Reply:
        """A new table with the same seats as an ended one: robots again, the other
        humans' seats reserved for them."""
        core = self.core
        old = core.ended.get(command.table_id)
        if old is not None and not old.started:
            old = None  # closed before its match started: nothing to play again
        if old is None:
            if command.table_id in core.tables:
                raise Refused(RefusalReason.NOT_ENDED, command.table_id)
            raise Refused(RefusalReason.TABLE_GONE, command.table_id)
        my_seat = next(
            (
                i
                for i, s in enumerate(old.seats)
                if s.player is not None and s.player.key == command.player.key
            ),
            None,
        )
        if my_seat is None:
            raise Refused(RefusalReason.NOT_SEATED, old.id)
        chat = replace(old.chat, language=command.chat.language)
        self._refuse_if_seated_here(command.player, chat, slow=old.rules.is_slow)
        table = self.new_table(chat, old.rules)
        for index, seat in enumerate(old.seats):
            if index == my_seat:
                continue
            if seat.player is not None:
                table.seats[index].reserved_for = seat.player
            else:
                table.seats[index].robot_level = seat.robot_level or core.times.robot_level
        return await self._seat_player(table, command.player, my_seat, new_table=True)

    async def invite(self, command: InvitePartner) -> Reply:
        """Reserve the seat across from me for my partner."""
        core = self.core
        table = core.table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            seat = core.seat_at(table, command.player)
            if table.phase is not Phase.WAITING:
                raise Refused(RefusalReason.ALREADY_STARTED, table.id)
            if not table.rules.partnership:  # each for themselves: nobody is a partner
                raise Refused(RefusalReason.BAD_SEAT, table.id)
            across = table.seats[(seat + 2) % 4]
            if not across.is_open:
                raise Refused(RefusalReason.SEAT_TAKEN, table.id)
            if command.partner.key == command.player.key:
                raise Refused(RefusalReason.BAD_SEAT, table.id)
            across.reserved_for = command.partner
            core.emit(table, table_changed(table, core.clock.now()))
            await core.save(table)
        return Reply(table_id=table.id, label=table.label, seat=seat)

    async def fill_now(self, command: FillWithRobots) -> Reply:
        """Fill my waiting table's free seats with robots now."""
        core = self.core
        if command.level is not None and command.level not in LEVELS:
            raise Refused(RefusalReason.UNKNOWN_LEVEL, levels=", ".join(LEVELS))
        table = core.table_for(command.player, command.chat, command.table_id)
        if command.table_id is None and table.chat.place != command.chat.place:
            raise Refused(RefusalReason.NO_TABLE)  # their table is in another channel
        async with table.lock:
            seat = core.seat_at(table, command.player)
            if table.phase is not Phase.WAITING:
                raise Refused(RefusalReason.ALREADY_STARTED, table.id)
            if _challenge_waits(table) or table.tournament is not None:
                # the seats are kept for the challenged player, or the tournament's
                raise Refused(RefusalReason.CHALLENGE_WAITS, table.id)
            self._fill(table, command.level)
            await core.save(table)
        return Reply(table_id=table.id, label=table.label, seat=seat)

    async def challenge(self, command: Challenge) -> Reply:
        """Challenge a player to one against one (see :class:`Challenge`)."""
        player, chat = command.player, command.chat
        rules = await self.rules.for_format(chat, "uno-contra-uno")
        self._refuse_if_seated_here(player, chat, slow=rules.is_slow)
        if command.opponent.key == player.key:
            raise Refused(RefusalReason.BAD_SEAT)
        table = self.new_table(chat, rules)
        table.challenge = True
        table.seats[1].reserved_for = command.opponent
        return await self._seat_player(table, player, 0, new_table=True)

    async def decline(self, command: DeclineChallenge) -> Reply:
        """The challenged player says no: the challenge's table closes, nothing paid."""
        core = self.core
        table = core.tables.get(command.table_id)
        if table is None:
            raise Refused(RefusalReason.TABLE_GONE, command.table_id)
        async with table.lock:
            if table.closed or not _challenge_waits(table):
                raise Refused(RefusalReason.ALREADY_STARTED, table.id)
            if table.reserved_seat_for(command.player.key) is None:
                raise Refused(RefusalReason.NOT_CHALLENGED, table.id)
            await self.settlement.close(table, CloseReason.DECLINED)
        return Reply(table_id=table.id, label=table.label)

    async def leave(self, command: Leave) -> Reply:
        """Leave my table: free before the start; during a match it abandons it (stake
        forfeited now, said in ``Reply.forfeited``; a robot plays my seat to the end)."""
        core = self.core
        table = core.table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            seat = core.seat_at(table, command.player)
            state = table.seats[seat]
            if table.phase in SEATING_PHASES:
                player = state.player
                assert player is not None
                # a tournament's seat stays kept for its player (the no-show rule decides)
                kept = player if table.tournament is not None else None
                table.seats[seat] = Seat(reserved_for=kept)
                core.emit(
                    table,
                    PlayerUnseated(table_id=table.id, chat=table.chat, seat=seat, player=player),
                )
                if not table.humans() and table.tournament is None:
                    await self.settlement.close(table, CloseReason.EMPTY)
                else:
                    self._maybe_countdown(table)
                    core.emit(table, table_changed(table, core.clock.now()))
                    await core.save(table)
            else:
                # leaving on purpose abandons the match: the stake is forfeited now and
                # the match plays on whoever is left, robots included (rules.md, "The
                # house"): leaving never cancels it, nor can it pay
                forfeited = await self.session.abandon(table, seat, AwayReason.LEFT)
                return Reply(
                    table_id=table.id,
                    label=table.label,
                    seat=seat,
                    forfeited=forfeited,
                    match_ended=table.closed,
                )
        return Reply(table_id=table.id, label=table.label, seat=seat)

    async def close_table(self, command: CloseTable) -> Reply:
        """An admin closes a table of their chat now; every held stake is refunded.

        A table still seating closes at once. A started match closes only when it is
        stuck (nothing moved for ``HouseTimes.stuck_seconds``), and never for an admin
        who plays in it or left it (rules.md, "The house").

        Raises:
            Refused: NOT_ADMIN, TABLE_GONE, NO_TABLE, WHICH_TABLE; ADMIN_PLAYS (params
                label) or NOT_STUCK (params label, minutes) for a live match.
        """
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        core = self.core
        if command.table_id is not None:
            table = core.tables.get(command.table_id)
            if table is None or table.chat.key != command.chat.key:
                raise Refused(RefusalReason.TABLE_GONE, command.table_id)
        elif command.label is not None:
            named = [
                t
                for t in core.tables.values()
                if t.chat.key == command.chat.key and t.label == command.label.strip()
            ]
            if not named:
                raise Refused(RefusalReason.NO_TABLE)
            table = named[0]
        else:
            place = command.chat.place
            here = [t for t in core.tables.values() if t.chat.place == place]
            if not here:
                raise Refused(RefusalReason.NO_TABLE)
            if len(here) > 1:
                labels = sorted(t.label for t in here)
                raise Refused(RefusalReason.WHICH_TABLE, labels=", ".join(labels))
            table = here[0]
        async with table.lock:
            if table.closed:
                raise Refused(RefusalReason.TABLE_GONE, table.id)
            if table.phase not in SEATING_PHASES:
                self._refuse_closing_a_live_match(table, command.player)
            await self.settlement.close(table, CloseReason.BY_ADMIN)
        return Reply(table_id=table.id, label=table.label)

    def _refuse_closing_a_live_match(self, table: Table, admin: PlayerRef) -> None:
        """An admin may call off a started match only when it is stuck, and not one of
        their own: closing refunds every stake, so a losing player could undo a loss."""
        if any(s.player is not None and s.player.key == admin.key for s in table.seats):
            raise Refused(RefusalReason.ADMIN_PLAYS, table.id, label=table.label)
        core = self.core
        stuck = core.times.stuck_seconds
        moved_at = table.moved_at if table.moved_at is not None else core.clock.now()
        if core.clock.now() - moved_at < stuck:
            seconds = math.ceil(stuck)
            raise Refused(RefusalReason.NOT_STUCK, table.id, label=table.label, seconds=seconds)

    # ------------------------------------------------------------------ timers

    async def fill_on_time(self, table: Table) -> None:
        """The fill deadline passed: robots take the free seats; a challenge nobody
        answered closes instead (``EXPIRED``: nothing was staked), and a tournament's
        table with a seat still empty (``NO_SHOW``: its tournament scores it)."""
        if _challenge_waits(table):
            await self.settlement.close(table, CloseReason.EXPIRED)
            return
        if table.tournament is not None:
            await self.settlement.close(table, CloseReason.NO_SHOW)
            return
        self._fill(table)
        await self.core.save(table)

    # ------------------------------------------------------------------ building tables

    def new_table(self, chat: ChatRef, rules: Rules) -> Table:
        """A new empty table in ``chat`` (not live until someone sits), numbered with
        the lowest number free among the chat's live tables: a Discord server's channels
        or a Telegram group's topics share one count, so no two live tables of a chat
        have the same number (a label names one table in the chat, issue 27)."""
        core = self.core
        while True:
            table_id = "".join(core.ids.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))
            if table_id not in core.tables and table_id not in core.ended:
                break
        used = {t.label for t in core.tables.values() if t.chat.key == chat.key}
        number = 1
        while str(number) in used:
            number += 1
        return Table.for_rules(
            rules,
            id=table_id,
            label=str(number),
            chat=chat,
            seed=core.seeds.getrandbits(48),
            created_at=core.clock.now(),
            robot_level=core.times.robot_level,
        )

    async def open_tournament_table(
        self,
        chat: ChatRef,
        rules: Rules,
        players: list[PlayerRef | None],
        tag: dict[str, Any],
        wait_seconds: float,
    ) -> Table:
        """A tournament's table (lobby lock held): every seat kept for its player
        (``players``, one per seat, ``None`` for a robot), live at once, closing as a
        no-show (:data:`CloseReason.NO_SHOW`) if a kept seat is still empty
        ``wait_seconds`` after it opened (docs/tournaments.md, "No-shows"). A table
        played privately (``tag["private"]``) tells each of its players where to sit
        (:class:`SeatKept`)."""
        core = self.core
        table = self.new_table(chat, rules)
        table.tournament = tag
        for seat, player in zip(table.seats, players, strict=True):
            if player is None:
                seat.robot_level = table.robot_level
            else:
                seat.reserved_for = player
        core.tables[table.id] = table
        async with table.lock:
            self.timers.arm(table, core.clock.now() + wait_seconds, DeadlineKind.FILL)
            core.emit(table, table_changed(table, core.clock.now()))
            if tag.get("private"):
                for index, player in enumerate(players):
                    if player is None:
                        continue
                    side = rules.side_of(index)
                    others = tuple(
                        p.display_name
                        for i, p in enumerate(players)
                        if p is not None and rules.side_of(i) != side
                    )
                    partners = tuple(
                        p.display_name
                        for i, p in enumerate(players)
                        if p is not None and i != index and rules.side_of(i) == side
                    )
                    kept = SeatKept(
                        table_id=table.id,
                        chat=chat,
                        to=player,
                        seat=index,
                        label=table.label,
                        tournament=str(tag.get("name", "")),
                        opponents=others,
                        wait_seconds=wait_seconds,
                        partners=partners,
                    )
                    core.emit(table, kept)
            await core.save(table)
        return table

    async def open_robot_table(self, chore: OpenRobotTable) -> str:
        """A table of robots only, one per player of its rules (simulations, benchmarks,
        tests); with ``start`` the countdown is skipped and the first hand dealt at once.

        Raises:
            ValueError: an unknown robot level.
        """
        rules = chore.rules or PRESETS["venezolano"]
        levels = list(chore.levels) if chore.levels else [self.core.times.robot_level] * 4
        table = self.new_table(chore.chat, rules)
        levels = levels[: rules.players]
        start = chore.start
        for index, level in enumerate(levels):
            if level not in LEVELS:
                raise ValueError(f"unknown robot level {level!r}")
            table.seats[index].robot_level = level
        self.core.tables[table.id] = table
        async with table.lock:
            if start:
                await self.session.start_match(table)
            else:
                self._maybe_countdown(table)
                self.core.emit(table, table_changed(table, self.core.clock.now()))
                await self.core.save(table)
        return table.id

    # ------------------------------------------------------------------ helpers

    def _refuse_if_seated_here(
        self, player: PlayerRef, chat: ChatRef, *, slow: bool = False
    ) -> None:
        """One live table at a time per chat (rules.md, "The house"), and any number of
        slow ones (``slow``: the table to sit at is slow; rules.md, "Slow tables"); the
        refusal says where that table is when it is not where the player asked (another
        channel or topic)."""
        if slow:
            return
        table = self.core.my_table_here(player, chat, slow=False)
        if table is None:
            return
        where: dict[str, str | int] = {}
        if table.chat.place != chat.place:
            where["elsewhere"] = 1
            if table.chat.channel_id is not None:
                where["channel_id"] = table.chat.channel_id
            if table.chat.thread_id is not None:
                where["thread_id"] = table.chat.thread_id
        raise Refused(RefusalReason.ALREADY_SEATED, table.id, label=table.label, **where)

    async def _seat_player(
        self, table: Table, player: PlayerRef, seat: int | None, *, new_table: bool = False
    ) -> Reply:
        """Seat ``player`` (lobby lock held): checks the seat and the money first."""
        core = self.core
        reserved = table.reserved_seat_for(player.key)
        if seat is None:
            if reserved is not None:
                seat = reserved
            else:
                free = [
                    i for i, s in enumerate(table.seats) if s.is_open and s.reserved_for is None
                ]
                if not free:
                    raise Refused(RefusalReason.TABLE_FULL, table.id)
                seat = free[0]
        target = table.seats[seat]
        if not target.is_open:
            raise Refused(RefusalReason.SEAT_TAKEN, table.id)
        if target.reserved_for is not None and target.reserved_for.key != player.key:
            raise Refused(RefusalReason.SEAT_RESERVED, table.id)
        player_id = await core.player_id(player, fresh=True)  # money: linked elsewhere?
        await self.session.moderation.refuse_if_banned(table.chat, player_id)
        await self.settlement.check_funds(player_id, table.rules.stake, table.id)
        async with table.lock:
            if table.closed or not target.is_open or table.phase not in SEATING_PHASES:
                raise Refused(RefusalReason.SEAT_TAKEN, table.id)
            target.player = player
            target.player_id = player_id
            target.release()
            if new_table:
                core.tables[table.id] = table
                self.timers.arm(
                    table, table.created_at + core.times.fill_seconds, DeadlineKind.FILL
                )
            core.emit(
                table, PlayerSeated(table_id=table.id, chat=table.chat, seat=seat, player=player)
            )
            self._maybe_countdown(table)
            core.emit(table, table_changed(table, core.clock.now()))
            await core.save(table)
        return Reply(table_id=table.id, label=table.label, seat=seat)

    def _maybe_countdown(self, table: Table) -> None:
        core = self.core
        full = all(not s.is_open for s in table.seats)
        if table.phase is Phase.WAITING and full:
            table.phase = Phase.COUNTDOWN
            self.timers.arm(
                table, core.clock.now() + core.times.countdown_seconds, DeadlineKind.START
            )
        elif table.phase is Phase.COUNTDOWN and not full:
            table.phase = Phase.WAITING
            fill_at = max(core.clock.now(), table.created_at + core.times.fill_seconds)
            self.timers.arm(table, fill_at, DeadlineKind.FILL)

    def _fill(self, table: Table, level: str | None = None) -> None:
        for seat in table.seats:
            if seat.is_open:
                seat.robot_level = level or table.robot_level
                seat.release()
        self._maybe_countdown(table)
        self.core.emit(table, table_changed(table, self.core.clock.now()))


def _challenge_waits(table: Table) -> bool:
    """A challenge (reto) whose kept seat its player has not taken yet."""
    return (
        table.challenge
        and table.phase is Phase.WAITING
        and any(s.is_open and s.reserved_for is not None for s in table.seats)
    )
