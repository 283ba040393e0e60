"""Back up the database while the bot runs: ``python -m storage.backup DEST [--db PATH]``.

Uses SQLite's online backup API: the copy is one consistent snapshot (every operation in
it whole, as of one instant) taken while the bot keeps writing, and it includes what
still sits in the WAL file. Copying ``domino.db`` with ``cp`` while the bot runs is not
safe: recent commits live in ``domino.db-wal`` and a copy of the two files is not one
instant. The copy is checked (``PRAGMA quick_check``) before the command reports success.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from storage import default_db_path, is_postgres_url

__all__ = ["BackupError", "backup_database", "main"]


class BackupError(Exception):
    """The backup could not be made or the copy is not whole."""


def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> int:
    """Copy the database at ``source`` to ``dest`` (replaced if present) while it is in use.

    Returns:
        the size of the copy in bytes.

    Raises:
        BackupError: ``source`` does not exist, or the copy fails its check.
    """
    source_path, dest_path = Path(source), Path(dest)
    if not source_path.is_file():
        raise BackupError(f"no database at {source_path}")
    if dest_path.resolve() == source_path.resolve():
        raise BackupError("the backup must go to another file")
    dest_path.parent.mkdir(parents=True, exist_ok=True)
    partial = dest_path.with_name(dest_path.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source_path)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            # A standalone file: leave WAL mode so the copy is one file.
            dst.execute("PRAGMA journal_mode = DELETE")
            (check,) = dst.execute("PRAGMA quick_check").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    if check != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy failed its check: {check}")
    partial.replace(dest_path)
    return dest_path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Command line: back up the bot's database (``DOMINO_DB``, default ``domino.db``)."""
    parser = argparse.ArgumentParser(
        prog="python -m storage.backup",
        description="Copy the bot's database safely while the bot runs.",
    )
    parser.add_argument("dest", type=Path, help="file to write the copy to")
    parser.add_argument(
        "--db", type=Path, default=None, help="database to copy (default: $DOMINO_DB or domino.db)"
    )
    args = parser.parse_args(argv)
    if args.db is None and is_postgres_url(os.environ.get("DOMINO_DB", "")):
        print(
            "backup failed: DOMINO_DB names a PostgreSQL database; this command copies"
            " SQLite files: back PostgreSQL up with pg_dump",
            file=sys.stderr,
        )
        return 1
    source = args.db if args.db is not None else default_db_path()
    replaced = args.dest.exists()
    try:
        size = backup_database(source, args.dest)
    except (BackupError, sqlite3.Error) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    older = "; the older copy there was replaced" if replaced else ""
    print(f"backed up {source} to {args.dest} ({size:,} bytes, check ok{older})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
