"""A table's timers: its one main deadline (fill, start, turn, forced, robot, next hand)
and one "come back by" deadline per away seat, run from the injected clock.

A fired timer takes the table's lock and checks its token, so a timer disarmed while it
waited does nothing. Timer work is paced (:class:`Pacer`) so many robot tables falling
due together never starve a player's button press.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping

from bot.core.clock import Clock
from bot.core.table import Table
from bot.core.vocabulary import DeadlineKind
from storage.base import FencedOut

__all__ = ["Pacer", "Timers"]

DeadlineHandler = Callable[[Table], Awaitable[None]]
AwayHandler = Callable[[Table, int], Awaitable[None]]


class Timers:
    """Arms and disarms tables' timers; runs the handler of each kind when one fires."""

    def __init__(
        self,
        clock: Clock,
        pacer: Pacer,
        *,
        on_fenced_out: Callable[[FencedOut], None] | None = None,
    ) -> None:
        self.clock = clock
        self.pacer = pacer
        self._on_fenced_out = on_fenced_out
        self._handlers: Mapping[DeadlineKind, DeadlineHandler] = {}
        self._on_away_expired: AwayHandler | None = None
        self._on_remind: DeadlineHandler | None = None

    def install(
        self,
        handlers: Mapping[DeadlineKind, DeadlineHandler],
        away: AwayHandler,
        remind: DeadlineHandler | None = None,
    ) -> None:
        """Say what each kind of deadline does (once, when the core is built); ``remind``
        what a slow table's reminder does (:meth:`arm_reminder`)."""
        self._on_remind = remind
        missing = set(DeadlineKind) - set(handlers)
        if missing:
            raise ValueError(f"no handler for deadlines {sorted(missing)}")
        self._handlers = dict(handlers)
        self._on_away_expired = away

    def arm(self, table: Table, when: float, kind: DeadlineKind) -> None:
        """Replace the table's main deadline with ``kind`` at ``when`` (epoch seconds)."""
        self.disarm(table)
        table.token += 1
        token = table.token
        table.deadline = when
        table.deadline_kind = kind

        async def fire() -> None:
            await self._fire(table, token)

        table.timer = self.clock.call_at(when, fire)

    @staticmethod
    def disarm(table: Table) -> None:
        """Cancel the table's main deadline (and the reminder of its turn)."""
        table.token += 1  # a timer already fired and waiting for its turn does nothing
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None
        table.deadline_kind = None
        if table.reminder is not None:
            table.reminder.cancel()
            table.reminder = None
        table.remind_at = None

    def arm_reminder(self, table: Table, when: float) -> None:
        """A slow table's reminder of the turn under way at ``when`` (epoch seconds);
        the next :meth:`arm` or :meth:`disarm` cancels it."""
        if table.reminder is not None:
            table.reminder.cancel()
        table.remind_at = when
        token = table.token
        handler = self._on_remind

        async def remind() -> None:
            table.reminder = None
            if handler is None or table.closed or table.token != token:
                return
            table.remind_at = None
            try:
                await handler(table)
            except FencedOut as exc:
                self._fenced(exc)

        table.reminder = self.clock.call_at(when, remind)

    def arm_away(self, table: Table, seat: int) -> None:
        """Arm seat ``seat``'s "come back by" deadline (its ``back_by``), if it has one."""
        self.disarm_away(table, seat)
        back_by = table.seats[seat].back_by
        handler = self._on_away_expired
        if back_by is None or handler is None:
            return

        async def expired() -> None:
            try:
                await handler(table, seat)
            except FencedOut as exc:
                self._fenced(exc)

        table.away_timers[seat] = self.clock.call_at(back_by, expired)

    @staticmethod
    def disarm_away(table: Table, seat: int) -> None:
        timer = table.away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def disarm_all(self, table: Table) -> None:
        """Cancel every timer of the table."""
        self.disarm(table)
        self.freeze(table)

    @staticmethod
    def freeze(table: Table) -> None:
        """Cancel every timer of the table but keep its deadlines (a graceful stop saves
        them; the next start re-arms them, shifted by the time the bot was down)."""
        table.token += 1
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.reminder is not None:
            table.reminder.cancel()
            table.reminder = None
        for timer in table.away_timers.values():
            timer.cancel()
        table.away_timers.clear()

    async def _fire(self, table: Table, token: int) -> None:
        await self.pacer.turn()
        started = time.perf_counter()
        try:
            async with table.lock:
                if table.closed or table.token != token or table.deadline_kind is None:
                    return
                kind = table.deadline_kind
                table.deadline = None
                table.deadline_kind = None
                table.timer = None
                await self._handlers[kind](table)
        except FencedOut as exc:
            self._fenced(exc)
        finally:
            self.pacer.done(time.perf_counter() - started)

    def _fenced(self, exc: FencedOut) -> None:
        """A timer's write was refused: its table's scope belongs to another process."""
        if self._on_fenced_out is None:
            raise exc
        self._on_fenced_out(exc)


class Pacer:
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
