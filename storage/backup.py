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

from storage import db_target, is_postgres_url, redact_dsn

__all__ = [
    "BackupError",
    "add_arguments",
    "backup_database",
    "copy_path",
    "is_sqlite_file",
    "main",
    "names_folder",
]


class BackupError(Exception):
    """The backup could not be made or the copy is not whole."""


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a file that starts as a SQLite database does."""
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def names_folder(dest: str | os.PathLike[str]) -> bool:
    """Whether ``dest`` is written as a folder: it ends in a path separator (``backups/``),
    whether or not that folder exists yet."""
    separators = tuple(sep for sep in (os.sep, os.altsep) if sep)
    return os.fspath(dest).endswith(separators)


def copy_path(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Path:
    """Where a backup of ``source`` to ``dest`` goes: ``dest``, or in it under the
    source's name when it is a folder (one that exists, or a name ending in a path
    separator: ``backups/`` is a folder, made if missing, never a file named
    ``backups``)."""
    dest_path = Path(dest)  # a Path drops the trailing separator: look at ``dest`` first
    if names_folder(dest) or dest_path.is_dir():
        return dest_path / Path(source).name
    return dest_path


def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Path:
    """Copy the database at ``source`` to ``dest`` while it is in use.

    ``dest`` may be a folder (the copy keeps the source's name there; a name ending in a
    path separator is a folder, made if missing) or a file: a missing one, or an earlier
    copy, which is replaced. Missing folders on the way are made, as ``mkdir -p`` does.
    Nothing is left behind when it fails.

    Returns:
        the path of the copy.

    Raises:
        BackupError: ``source`` does not exist, ``dest`` is the source or a file that is
            not a database, a file stands where ``dest`` needs a folder, or the copy fails
            its check.
    """
    source_path, dest_path = Path(source), copy_path(source, dest)
    if not source_path.is_file():
        raise BackupError(f"no database at {source_path}")
    if dest_path.resolve() == source_path.resolve():
        raise BackupError("the backup must go to another file")
    if dest_path.is_dir() or (dest_path.exists() and not is_sqlite_file(dest_path)):
        raise BackupError(f"{dest_path} is there and is not a database: choose another name")
    for folder in dest_path.parents:  # the deepest one there must be a folder
        if folder.exists():
            if not folder.is_dir():
                raise BackupError(f"{folder} is a file, not a folder: choose another name")
            break
    dest_path.parent.mkdir(parents=True, exist_ok=True)
    partial = dest_path.with_name(dest_path.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
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
            raise BackupError(f"the copy failed its check: {check}")
        partial.replace(dest_path)
    finally:
        partial.unlink(missing_ok=True)
    return dest_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (``DEST``, ``--db``), for ``domino backup`` too. ``DEST``
    stays a string: a trailing separator (``backups/``) says it is a folder."""
    parser.add_argument(
        "dest", help="file or folder to write the copy to (DIR/: a folder, made if missing)"
    )
    parser.add_argument(
        "--db", default=None, help="database to copy (default: $DOMINO_DB or domino.db)"
    )


def main(argv: list[str] | None = None) -> int:
    """Command line: back up the bot's database (``DOMINO_DB``, default ``domino.db``)."""
    parser = argparse.ArgumentParser(
        prog="python -m storage.backup",
        description="Copy the bot's database safely while the bot runs.",
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    source = db_target(args.db)
    if is_postgres_url(source):
        print(
            f"backup failed: {redact_dsn(source)} is a PostgreSQL database; this command"
            " copies SQLite files: back PostgreSQL up with pg_dump",
            file=sys.stderr,
        )
        return 1
    dest: str = args.dest
    replaced = copy_path(source, dest).exists()
    try:
        copy = backup_database(source, dest)
    except (BackupError, sqlite3.Error, OSError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    size = copy.stat().st_size
    older = "; the older copy there was replaced" if replaced else ""
    print(f"backed up {source} to {copy} ({size:,} bytes, check ok{older})")
    return 0
