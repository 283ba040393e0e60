"""Reading the terminal's input: a daemon thread reads ``stdin`` one line per request, and
:func:`until` waits for something unless a stop event comes first."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable
from typing import TextIO, TypeVar

__all__ = ["LineReader", "until"]

T = TypeVar("T")


async def until(awaitable: Awaitable[T], stop: asyncio.Event) -> T | None:
    """``awaitable``'s result, or None as soon as ``stop`` is set (it is cancelled then)."""
    if stop.is_set():
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        return None
    task: asyncio.Future[T] = asyncio.ensure_future(awaitable)
    stopper: asyncio.Future[object] = asyncio.ensure_future(stop.wait())
    waited: list[asyncio.Future[object]] = [task, stopper]  # type: ignore[list-item]
    try:
        await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if task.done() and not task.cancelled():
        return task.result()
    task.cancel()
    return None


class LineReader:
    """Reads ``stdin`` line by line in a daemon thread, one line per request.

    A blocking ``readline`` in the event loop's default executor would keep the program
    from ending until Enter is pressed; a daemon thread does not.
    """

    def __init__(self, stdin: TextIO, loop: asyncio.AbstractEventLoop) -> None:
        self.stdin = stdin
        self.loop = loop
        self.wanted = threading.Semaphore(0)
        self.lines: asyncio.Queue[str] = asyncio.Queue()
        self.thread: threading.Thread | None = None
        self.pending = 0

    async def readline(self) -> str:
        """The next line, ``""`` at the end of the input."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="stdin", daemon=True)
            self.thread.start()
        if self.pending == 0:
            self.pending += 1
            self.wanted.release()
        line = await self.lines.get()
        self.pending -= 1
        return line

    def _run(self) -> None:
        while True:
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
