"""Reading the terminal's input: a daemon thread reads ``stdin`` (one line per request, or
every line as it is typed), and :func:`until` waits for something unless a stop event
comes first."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable
from typing import TextIO, TypeVar

__all__ = ["LineReader", "until"]

T = TypeVar("T")


async def until(awaitable: Awaitable[T], *stops: asyncio.Event) -> T | None:
    """``awaitable``'s result, or None as soon as one of ``stops`` is set (it is cancelled
    then)."""
    if any(stop.is_set() for stop in stops):
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        return None
    task: asyncio.Future[T] = asyncio.ensure_future(awaitable)
    stoppers: list[asyncio.Future[object]] = [asyncio.ensure_future(stop.wait()) for stop in stops]
    waited: list[asyncio.Future[object]] = [task, *stoppers]  # type: ignore[list-item]
    try:
        await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for stopper in stoppers:
            stopper.cancel()
    if task.done() and not task.cancelled():
        return task.result()
    task.cancel()
    return None


class LineReader:
    """Reads ``stdin`` line by line in a daemon thread.

    A blocking ``readline`` in the event loop's default executor would keep the program
    from ending until Enter is pressed; a daemon thread does not.

    Args:
        stdin: the input.
        loop: the event loop the lines are handed to.
        ahead: read every line as soon as it comes (a person typing: each line is answered
            when typed, never kept for a later prompt); else one line per
            :meth:`readline` (a script: its lines wait in the pipe until asked for).
    """

    def __init__(
        self, stdin: TextIO, loop: asyncio.AbstractEventLoop, *, ahead: bool = False
    ) -> None:
        self.stdin = stdin
        self.loop = loop
        self.ahead = ahead
        self.wanted = threading.Semaphore(0)
        self.lines: asyncio.Queue[str] = asyncio.Queue()
        self.thread: threading.Thread | None = None
        self.pending = 0

    def start(self) -> None:
        """Start the reading thread (:meth:`readline` starts it too)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="stdin", daemon=True)
            self.thread.start()

    async def readline(self) -> str:
        """The next line, ``""`` at the end of the input."""
        self.start()
        if self.pending == 0 and not self.ahead:
            self.pending += 1
            self.wanted.release()
        line = await self.lines.get()
        if not self.ahead:
            self.pending -= 1
        return line

    def _run(self) -> None:
        while True:
            if not self.ahead:
                self.wanted.acquire()
            try:
                line = self.stdin.readline()
            except (OSError, ValueError):
                line = ""
            try:
                self.loop.call_soon_threadsafe(self.lines.put_nowait, line)
            except RuntimeError:  # the loop is closed: the program is ending
                return
            if line == "":
                return
