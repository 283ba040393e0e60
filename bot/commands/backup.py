"""``domino backup DEST [--db PATH]``: a safe copy of the database while the bot runs.

The same as ``python -m storage.backup`` (SQLite's online backup, checked before it
reports success); see the README's "Data and backups".
"""

from __future__ import annotations

import argparse

HELP = "copy the database safely while the bot runs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from storage.backup import add_arguments as backup_arguments

    backup_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from storage.backup import main

    argv = [args.dest] + (["--db", args.db] if args.db is not None else [])
    return main(argv)
