"""Reading the terminal's input (bot/terminal/reader.py): one line per request from a
daemon thread, and waiting that a stop event cuts short."""

from __future__ import annotations

import asyncio
import io

from bot.terminal.reader import LineReader, until


async def test_lines_are_read_one_per_request_and_the_end_is_an_empty_line():
    reader = LineReader(io.StringIO("1\ne hola\n"), asyncio.get_running_loop())
    assert await reader.readline() == "1\n"
    assert await reader.readline() == "e hola\n"
    assert await reader.readline() == ""
    assert reader.thread is not None and reader.thread.daemon
    reader.thread.join(timeout=5)
    assert not reader.thread.is_alive()  # the thread ends with the input


async def test_until_gives_the_result_or_none_once_stopped():
    stop = asyncio.Event()

    async def answer() -> int:
        return 42

    assert await until(answer(), stop) == 42
    never = asyncio.Event()
    waiting = asyncio.ensure_future(until(never.wait(), stop))
    await asyncio.sleep(0)
    stop.set()
    assert await asyncio.wait_for(waiting, timeout=5) is None
    assert await until(answer(), stop) is None  # already stopped: not even started
