"""``domino ratings --rebuild | --check [--db PATH]``: recompute the ratings from the records.

Replays every stored match record in the order it was stored (``Storage.rebuild_ratings``)
and compares the recomputed ratings, seasons and rating history with the stored ones
(docs/ratings.md). ``--check`` only compares and writes nothing; ``--rebuild`` replaces
what is stored with what was recomputed, in one transaction (money and statistics are not
touched).

Exit 0 when nothing differs (or ``--rebuild`` wrote the fix), 1 when ``--check`` found
differences, 2 when the database cannot be used (missing, not a database, written by a
newer version, or, for ``--check``, not yet migrated to this version).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from storage.base import RebuildReport, SchemaError

HELP = "recompute the ratings from the match records (--check compares only)"

SHOWN_DIFFERENCES = 10
"""Differences printed; the rest are counted."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--rebuild",
        action="store_true",
        help="replace the stored ratings by the ones recomputed from the records",
    )
    action.add_argument(
        "--check", action="store_true", help="compare only: report differences, write nothing"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="a SQLite file or a postgresql:// URL (default: $DOMINO_DB or domino.db)",
    )


def run(args: argparse.Namespace) -> int:
    from bot.commands import missing_database, no_database
    from storage import db_target, is_postgres_url, redact_dsn

    target = db_target(args.db)
    check: bool = args.check
    missing = missing_database(target)
    if missing is not None:
        print(f"domino ratings: {no_database(missing)}", file=sys.stderr)
        return 2
    shown = redact_dsn(target)
    if is_postgres_url(target):
        try:
            report = asyncio.run(_rebuild(target, write=not check))
        except Exception as exc:  # asyncpg's errors, a refused connection: all the admin's to see
            print(f"domino ratings: cannot open {shown}: {exc}", file=sys.stderr)
            return 2
        return _print(report, shown, check=check)
    path = Path(target)
    if check:
        pending = _pending_migrations(path)
        if isinstance(pending, str):
            print(f"domino ratings: cannot open {path}: {pending}", file=sys.stderr)
            return 2
        if pending:
            print(
                f"domino ratings: {path} is not migrated to this version (missing "
                f"{', '.join(pending)}); --check writes nothing: `domino ratings --rebuild` "
                "migrates it and rates its matches",
                file=sys.stderr,
            )
            return 2
    try:
        report = asyncio.run(_rebuild(path, write=not check))
    except (sqlite3.Error, SchemaError, OSError) as exc:
        print(f"domino ratings: cannot open {path}: {exc}", file=sys.stderr)
        return 2
    return _print(report, shown, check=check)


def _print(report: RebuildReport, shown: str, *, check: bool) -> int:
    """Print what the replay found; returns the exit code."""
    matches = "match" if report.matches == 1 else "matches"
    rows = "rating row" if report.ratings == 1 else "rating rows"
    print(f"database: {shown}")
    print(
        f"replayed {report.matches:,} {matches}: {report.rated:,} rated, {report.ratings:,} {rows}"
    )
    differences = report.differences
    if not differences:
        print("differences: 0 (the stored ratings are the recomputed ones)")
        return 0
    if check:
        print(
            f"differences: {len(differences):,} (nothing written; `domino ratings --rebuild` "
            "replaces the stored ratings)"
        )
    else:
        print(f"differences: {len(differences):,}, fixed (the recomputed ratings were written)")
    for line in differences[:SHOWN_DIFFERENCES]:
        print(f"  {line}")
    if len(differences) > SHOWN_DIFFERENCES:
        print(f"  ... and {len(differences) - SHOWN_DIFFERENCES:,} more")
    return 1 if check else 0


async def _rebuild(path: Path | str, *, write: bool) -> RebuildReport:
    from storage import open_storage

    storage = await open_storage(path)
    try:
        return await storage.rebuild_ratings(write=write)
    finally:
        await storage.close()


def _pending_migrations(path: Path) -> list[str] | str:
    """The migrations this version would apply to ``path`` on opening (read only), or why
    it cannot be read."""
    from storage.sqlite import pending_migrations

    try:
        return pending_migrations(path)
    except (sqlite3.Error, SchemaError) as exc:
        return str(exc)
