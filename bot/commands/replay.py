"""``domino replay FILE|-``: check a match record and print its score (records.md).

Exit 0 with one JSON object on standard output for a valid record (private: replayed in
full; public: checked as far as the public facts allow); exit 2 with one line on
standard error naming the hand, the move and the reason for an invalid one.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import RecordError
from engine.match import Match
from engine.records import check_record, replay

HELP = "check and score a match record (docs/records.md)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")


def _read(name: str) -> bytes | None:
    """A record file's bytes (``-``: standard input); None after printing why not."""
    try:
        if name == "-":
            return sys.stdin.buffer.read()
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        print(f"record: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return None


def read_match(name: str) -> Match | None:
    """The match a private record file (``-``: standard input) describes; None after
    printing why it cannot be read or replayed (the caller exits 2)."""
    data = _read(name)
    if data is None:
        return None
    try:
        return replay(data)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    data = _read(args.file)
    if data is None:
        return 2
    try:
        summary = check_record(data)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0
