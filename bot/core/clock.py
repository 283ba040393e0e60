"""Injected time for the table manager: the system clock, and a manual clock for tests.

The manager never reads ``time.time()`` nor sleeps: it asks its clock for ``now()`` (epoch
seconds) and arms timers with ``call_at(when, callback)``. :class:`SystemClock` runs them
on the event loop; :class:`ManualClock` runs them only when a test calls
:meth:`ManualClock.advance`, in deadline order, awaiting each callback to the end, so a
test moves minutes of table time in microseconds and sees every effect.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock", "Timer"]

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Timer(Protocol):
    """An armed timer."""

    @property
    def when(self) -> float: ...

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Time as the manager sees it."""

    def now(self) -> float:
        """Epoch seconds."""
        ...

    def call_at(self, when: float, callback: Callback) -> Timer:
        """Run ``await callback()`` at ``when`` (epoch seconds; at once if past)."""
        ...


class _Timer:
    __slots__ = ("cancelled", "handle", "when")

    def __init__(self, when: float) -> None:
        self.when = when
        self.cancelled = False
        self.handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class SystemClock:
    """The real clock: ``time.time()`` and the running loop's ``call_later``.

    Callbacks run as tasks; their exceptions are logged, never lost silently.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callback) -> _Timer:
        timer = _Timer(when)
        delay = max(0.0, when - time.time())
        timer.handle = asyncio.get_running_loop().call_later(delay, self._fire, timer, callback)
        return timer

    def _fire(self, timer: _Timer, callback: Callback) -> None:
        # drop the timer -> handle -> timer loop at once, so a fired timer (and whatever
        # its callback holds: a whole table) is freed by reference counting, not by a
        # slow full garbage collection
        timer.handle = None
        if timer.cancelled:
            return
        task = asyncio.get_running_loop().create_task(_guarded(callback))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _guarded(callback: Callback) -> None:
    try:
        await callback()
    except Exception:  # a timer must never kill the loop; the table logs and carries on
        log.exception("timer callback failed")


class ManualClock:
    """A clock that moves only when told (tests, benchmarks, scripted terminal runs).

    Args:
        start: the initial time (epoch seconds).

    Timers fire inside :meth:`advance`, in deadline order (ties in arming order); a timer
    armed while advancing fires in the same call if it falls due.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._heap: list[tuple[float, int, _Timer, Callback]] = []
        self._seq = itertools.count()
        self.errors: list[BaseException] = []

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> _Timer:
        timer = _Timer(when)
        heapq.heappush(self._heap, (when, next(self._seq), timer, callback))
        return timer

    @property
    def pending(self) -> int:
        """How many armed (not cancelled) timers wait."""
        return sum(1 for _, _, t, _ in self._heap if not t.cancelled)

    def next_deadline(self) -> float | None:
        """The earliest armed deadline, or None."""
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time forward by ``seconds``, firing every timer that falls due.

        Exceptions raised by callbacks are re-raised (after the time has moved) so a test
        sees them.
        """
        target = self._now + seconds
        while True:
            when = self.next_deadline()
            if when is None or when > target:
                break
            _, _, _timer, callback = heapq.heappop(self._heap)
            self._now = max(self._now, when)
            await callback()
            await asyncio.sleep(0)
        self._now = max(self._now, target)
        await asyncio.sleep(0)

    async def run_until(
        self, done: Callable[[], bool], *, limit: float = 86_400.0, step: float | None = None
    ) -> None:
        """Advance from deadline to deadline until ``done()`` or ``limit`` seconds passed.

        Raises:
            TimeoutError: ``limit`` reached (or no timer left) before ``done()``.
        """
        end = self._now + limit
        while not done():
            when = self.next_deadline()
            if when is None or when > end:
                raise TimeoutError("nothing left to happen")
            await self.advance(max(0.0, when - self._now) if step is None else step)
