"""``domino backup DEST [--db PATH]``: a safe copy of the database while the bot runs.

The same as ``python -m storage.backup`` (SQLite's online backup, checked before it
reports success); see the README's "Data and backups".
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "copy the database safely while the bot runs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dest", type=Path, help="file (or folder) to write the copy to")
    parser.add_argument(
        "--db", default=None, help="database to copy (default: $DOMINO_DB or domino.db)"
    )


def run(args: argparse.Namespace) -> int:
    from storage.backup import main

    argv = [str(args.dest)] + (["--db", args.db] if args.db is not None else [])
    return main(argv)
