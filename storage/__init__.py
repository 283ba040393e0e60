"""Storage: players, the wallet ledger, rankings, chat presets and table snapshots.

``open_storage(path)`` opens the database the bot uses: a SQLite file (the default), or a
PostgreSQL database when given a ``postgresql://`` / ``postgres://`` URL (several
processes or machines sharing one database); ``":memory:"`` is a private SQLite database
in memory (what the tests use). The interface is :class:`storage.base.Storage`.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from storage.base import (
    ChatRules,
    InsufficientFunds,
    LedgerEntry,
    MatchClosedError,
    MatchSettlement,
    NotInMatchError,
    Player,
    PlayerResult,
    PlayerStats,
    RankRow,
    SchemaError,
    Storage,
    StorageError,
    StoredMatch,
    UnknownMatchError,
    UnknownPlayerError,
)

__all__ = [
    "DEFAULT_DB_PATH",
    "ChatRules",
    "InsufficientFunds",
    "LedgerEntry",
    "MatchClosedError",
    "MatchSettlement",
    "NotInMatchError",
    "Player",
    "PlayerResult",
    "PlayerStats",
    "RankRow",
    "SchemaError",
    "Storage",
    "StorageError",
    "StoredMatch",
    "UnknownMatchError",
    "UnknownPlayerError",
    "db_target",
    "default_db_path",
    "is_postgres_url",
    "open_storage",
    "pending_migrations",
    "redact_dsn",
]

DEFAULT_DB_PATH = "domino.db"
"""The database file when ``DOMINO_DB`` is not set (in the working directory)."""


def default_db_path() -> Path:
    """The database path: the ``DOMINO_DB`` environment variable, else ``domino.db``."""
    return Path(db_target())


def db_target(path: str | os.PathLike[str] | None = None) -> str:
    """The database a command means: ``path``, else the ``DOMINO_DB`` environment
    variable, else ``domino.db``; a SQLite path or a ``postgresql://`` URL, kept a string
    (a ``Path`` would fold the URL's ``//``)."""
    given = os.fspath(path) if path is not None else ""
    return given or os.environ.get("DOMINO_DB") or DEFAULT_DB_PATH


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` is a PostgreSQL URL (``postgresql://…`` or ``postgres://…``)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact_dsn(target: str | os.PathLike[str]) -> str:
    """A database path or URL as shown in logs and messages: a URL's password hidden."""
    return re.sub(r"^(\w+://[^:/@]*):[^@/]*@", r"\1:***@", os.fspath(target))


async def open_storage(path: str | os.PathLike[str] | None = None) -> Storage:
    """Open (creating and migrating as needed) the database at ``path``.

    ``path`` None means the ``DOMINO_DB`` environment variable, else ``domino.db``. A
    ``postgresql://`` or ``postgres://`` URL opens :class:`storage.postgres.PostgresStorage`
    on that database (which must exist; its tables are created); anything else is a
    SQLite file, ``":memory:"`` a private in-memory SQLite database.

    Raises:
        SchemaError: the database was written by a newer schema.
    """
    target = db_target(path)
    if is_postgres_url(target):
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(str(target))
    from storage.sqlite import SqliteStorage

    return await SqliteStorage.open(target)


async def pending_migrations(path: str | os.PathLike[str] | None = None) -> list[str]:
    """The names of the migrations :func:`open_storage` would apply to the database at
    ``path`` (same default), found without writing anything (``:memory:``, new at every
    opening, has none).

    Raises:
        SchemaError: a newer version's database (opening refuses it too).
        sqlite3.Error, OSError, asyncpg.PostgresError: it cannot be read.
    """
    target = db_target(path)
    if is_postgres_url(target):
        from storage.postgres import pending_migrations as pending_in_postgres

        return await pending_in_postgres(str(target))
    if os.fspath(target) == ":memory:":
        return []
    from storage.sqlite import pending_migrations as pending_in_sqlite

    return await asyncio.to_thread(pending_in_sqlite, target)
