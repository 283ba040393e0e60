"""``domino play`` as a person meets it: a real process on a pseudo-terminal.

:class:`TerminalProcess` starts a process whose stdin and stdout are a pseudo-terminal of a
given width, types lines into it and reads what it prints. Run as a program, this module
is ``domino play``'s loop (:func:`bot.terminal.play`, interactive, wrapped at the
terminal's width) on a SQLite ``:memory:`` database with a clock the test moves: each line written
to the control descriptor is a number of seconds to advance it, so a turn runs out only
when the test says so; once the clock has moved (every timer that fell due has run), the
program writes one line to the acknowledgement descriptor, so the test types its next
line at a known table time.

    python -m tests.terminal_pty --control FD --ack FD --seed 11 [--lang en] [--preset P]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIT_SECONDS = 60.0
"""How long (real time) to wait for an expected text before failing."""


class TerminalProcess:
    """A process on a pseudo-terminal ``columns`` wide (stdin and stdout), driven by hand.

    Args:
        args: the program and its arguments (run from the repository's top).
        columns: the terminal's width.
        clock: pass a control pipe to the program (``--control FD``) for :meth:`advance`.
    """

    def __init__(self, args: list[str], *, columns: int = 80, clock: bool = False) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env["PYTHONPATH"] = str(ROOT)
        self.control: int | None = None
        self.ack: int | None = None
        passed: tuple[int, ...] = ()
        if clock:
            control_read, self.control = os.pipe()
            self.ack, ack_write = os.pipe()
            args = [*args, "--control", str(control_read), "--ack", str(ack_write)]
            passed = (control_read, ack_write)
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=self.errors,
            pass_fds=passed,
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        for fd in passed:
            os.close(fd)
        self.output = ""
        self.mark = 0
        self.error_text = ""  # the program's stderr, once closed

    def type(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, line.encode() + b"\n")

    def advance(self, seconds: float) -> None:
        """Move the program's clock on by ``seconds`` and wait until it has (its timers
        fired), so what is typed next reaches the table at a known time."""
        assert self.control is not None and self.ack is not None
        os.write(self.control, f"{seconds}\n".encode())
        ready, _, _ = select.select([self.ack], [], [], WAIT_SECONDS)
        if not ready or os.read(self.ack, 1) != b"\n":
            raise AssertionError(f"the clock never moved {seconds} s; printed:\n{self.output}")

    def read_until(self, text: str) -> str:
        """What the program printed from the last mark up to and including ``text``
        (line ends as ``\\n``); the mark moves past it."""
        deadline = time.monotonic() + WAIT_SECONDS
        while text not in self.output[self.mark :]:
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"never printed {text!r}; printed:\n{self.output}")
        end = self.output.index(text, self.mark) + len(text)
        chunk, self.mark = self.output[self.mark : end], end
        return chunk

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program ended and closed the terminal
            return False
        self.output += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return bool(data)

    def read_until_any(self, texts: list[str], step: Callable[[], None]) -> str:
        """Which of ``texts`` the program prints first from the last mark (the mark moves
        past it), calling ``step`` (e.g. moving the clock) whenever nothing is waiting."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            found = [
                (self.output.index(t, self.mark), t) for t in texts if t in self.output[self.mark :]
            ]
            if found:
                at, text = min(found)
                self.mark = at + len(text)
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"never printed any of {texts!r}; printed:\n{self.output}")
            if not self._read(0.05):
                step()

    def lines(self) -> list[str]:
        """Every line printed so far."""
        return self.output.split("\n")

    def close(self) -> None:
        """End the program and free the terminal."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        os.close(self.master)
        if self.control is not None:
            os.close(self.control)
        if self.ack is not None:
            os.close(self.ack)
        self.errors.seek(0)
        self.error_text = self.errors.read().decode("utf-8", errors="replace")
        self.errors.close()


def worker(
    seed: int, *, language: str = "es", level: str = "experto", preset: str | None = None
) -> list[str]:
    """The command line of a terminal match on a clock the test moves (see the module);
    ``preset`` a table or format preset (``uno-contra-uno``)."""
    return [
        sys.executable,
        "-m",
        "tests.terminal_pty",
        "--seed",
        str(seed),
        "--lang",
        language,
        "--level",
        level,
        *(["--preset", preset] if preset is not None else []),
    ]


async def _main(arguments: argparse.Namespace) -> int:
    from bot.core.clock import ManualClock
    from bot.terminal import play, terminal_width
    from storage import open_storage

    clock = ManualClock()
    loop = asyncio.get_running_loop()
    steps: asyncio.Queue[float] = asyncio.Queue()

    def read_control() -> None:
        with os.fdopen(arguments.control, "rb", buffering=0) as control:
            for line in control:
                loop.call_soon_threadsafe(steps.put_nowait, float(line))

    threading.Thread(target=read_control, daemon=True).start()

    async def move_time() -> None:
        with os.fdopen(arguments.ack, "wb", buffering=0) as ack:
            while True:
                await clock.advance(await steps.get())
                ack.write(b"\n")

    storage = await open_storage(":memory:")
    mover = asyncio.ensure_future(move_time())
    try:
        return await play(
            storage,
            stdin=sys.stdin,
            stdout=sys.stdout,
            seed=arguments.seed,
            level=arguments.level,
            preset=arguments.preset,
            language=arguments.lang,
            interactive=True,
            clock=clock,
            width=terminal_width,
        )
    finally:
        mover.cancel()
        await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--control", type=int, required=True)
    parser.add_argument("--ack", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--lang", default="es")
    parser.add_argument("--level", default="experto")
    parser.add_argument("--preset", default=None)
    sys.exit(asyncio.run(_main(parser.parse_args())))
