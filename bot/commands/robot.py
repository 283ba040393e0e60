"""``domino robot --level L [--seed N]``: a robot speaking robot-protocol.md.

Reads one JSON request per line on standard input and writes one JSON answer per line on
standard output (flushed at once) until the end of input; bad requests get an
``{"error": ...}`` line and the robot keeps serving.
"""

from __future__ import annotations

import argparse
import io
import sys

from engine.robots import DEFAULT_LEVEL, LEVELS, make_robot
from engine.robots.protocol import serve

__all__ = ["HELP", "add_arguments", "run"]

HELP = "a robot speaking the robot protocol on stdin/stdout"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=LEVELS, help="robot level")
    parser.add_argument("--seed", type=int, default=None, help="same seed, same answers")


def run(args: argparse.Namespace) -> int:
    robot = make_robot(args.level)
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    try:
        serve(robot, lines, sys.stdout, seed=args.seed)
    except KeyboardInterrupt:
        return 0
    return 0
