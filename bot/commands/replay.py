"""``domino replay FILE|-``: check a match record and print its score (records.md).

Exit 0 with one JSON object on standard output for a valid record; exit 2 with one line
on standard error naming the hand, the move and the reason for an invalid one.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import RecordError
from engine.match import Match
from engine.records import replay, replay_summary

HELP = "check and score a match record (docs/records.md)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")


def read_match(name: str) -> Match | None:
    """The match a record file (``-``: standard input) describes; None after printing
    why it cannot be read or replayed (the caller exits 2)."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        print(f"record: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return None
    try:
        return replay(data)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    match = read_match(args.file)
    if match is None:
        return 2
    json.dump(replay_summary(match), sys.stdout)
    sys.stdout.write("\n")
    return 0
