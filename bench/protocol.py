"""A robot played through ``domino robot`` (robot-protocol.md), for timing and strength.

:class:`ProtocolRobot` sends each decision's seat view as one protocol request to a
``domino robot --level LEVEL --seed N`` child process and plays the move it answers, so
the duplicate-deal harness (:func:`bot.commands.simulate.run_duplicates`) measures a robot
exactly as an outside tournament would. Each answer is timed twice: wall time around the
request (pipe, JSON, reading the request, thinking), and the child's CPU time for it
(``/proc/PID/schedstat``, nanoseconds; the time other programs take does not count).

Importing registers ``LEVEL@protocol`` for every level of :data:`engine.robots.LEVELS`.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from typing import Final

from engine.moves import Move, Side
from engine.robots import LEVELS
from engine.robots.base import Robot, legal_or_raise, register_level
from engine.views import SeatView

__all__ = ["SUFFIX", "ProtocolRobot", "request_of"]

SUFFIX: Final[str] = "@protocol"
ROOT: Final[str] = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))


def request_of(view: SeatView) -> dict[str, object]:
    """The protocol request for ``view`` (robot-protocol.md, "Request"): its rules, seat,
    tiles, opener, the hand's moves as in a record (passes written out, sides as the
    engine draws the line) and the match score."""
    moves: list[str] = []
    for k, (_seat, move) in enumerate(view.history):
        if move.tile is None:
            moves.append("pass")
        elif k == 0:
            moves.append(str(move.tile))  # high half first: the engine's orientation
        else:
            assert move.side is not None
            moves.append(f"{move.tile} {move.side.value}")
    return {
        "rules": view.rules.to_spec(),
        "seat": view.seat,
        "hand": [str(t) for t in view.tiles],
        "starter": view.starter,
        "moves": moves,
        "score": list(view.score),
    }


def _cpu_ns(pid: int) -> int:
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])


class ProtocolRobot(Robot):
    """A robot living in a ``domino robot`` child process (started on first use).

    Args:
        level: the level the child plays.
        seed: the child's ``--seed``.

    Attributes:
        wall: seconds per answer, wall clock.
        cpu: seconds of the child's CPU per answer.
        choice: per answer, whether the seat had more than one legal move.
        first: per answer, whether it was the seat's first decision of the hand.
    """

    def __init__(self, level: str, seed: int = 1) -> None:
        self.level = level + SUFFIX
        self.inner = level
        self.seed = seed
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.choice: list[bool] = []
        self.first: list[bool] = []
        self._child: subprocess.Popen[str] | None = None

    def _process(self) -> subprocess.Popen[str]:
        if self._child is None:
            env = {**os.environ, "PYTHONPATH": ROOT}
            self._child = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "robot", "--level", self.inner,
                 "--seed", str(self.seed)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
                env=env,
                cwd=ROOT,
            )  # fmt: skip
            # one request answered with an error: the child has finished starting up, so
            # its start-up time is not counted in the first decision
            assert self._child.stdin is not None and self._child.stdout is not None
            self._child.stdin.write("{}\n")
            self._child.stdin.flush()
            self._child.stdout.readline()
        return self._child

    def close(self) -> None:
        """End the child process (it stops at the end of its input)."""
        if self._child is not None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            self._child.wait(timeout=30)
            self._child = None

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = legal_or_raise(view)
        child = self._process()
        assert child.stdin is not None and child.stdout is not None
        line = json.dumps(request_of(view)) + "\n"
        cpu0 = _cpu_ns(child.pid)
        start = time.perf_counter()
        child.stdin.write(line)
        child.stdin.flush()
        reply = json.loads(child.stdout.readline())
        self.wall.append(time.perf_counter() - start)
        self.cpu.append((_cpu_ns(child.pid) - cpu0) / 1e9)
        self.choice.append(len(moves) > 1)
        self.first.append(all(seat != view.seat for seat, _move in view.history))
        if "move" not in reply:
            raise RuntimeError(f"domino robot answered {reply} to {line}")
        return _move_of(reply["move"], moves)


def _move_of(text: str, moves: list[Move]) -> Move:
    """The legal move an answer names (``pass``, ``6-4`` or ``6-4 left``)."""
    if text == "pass":
        return next(m for m in moves if m.tile is None)
    tile_text, _, side_text = text.partition(" ")
    found = [m for m in moves if m.tile is not None and str(m.tile) == tile_text]
    if side_text:
        side = Side(side_text)
        found = [m for m in found if m.side is side]
    if not found:
        raise RuntimeError(f"domino robot answered an illegal move {text!r}")
    return found[0]


for _level in LEVELS:
    register_level(_level + SUFFIX, lambda level=_level: ProtocolRobot(level))
