"""Storage: players, the wallet ledger, rankings, chat presets and table snapshots.

``open_storage(path)`` opens the SQLite database the bot uses; ``MemoryStorage`` keeps the
same behaviour in memory for tests. The interface is :class:`storage.base.Storage`.
"""

from __future__ import annotations

import os
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
from storage.memory import MemoryStorage

__all__ = [
    "DEFAULT_DB_PATH",
    "ChatRules",
    "InsufficientFunds",
    "LedgerEntry",
    "MatchClosedError",
    "MatchSettlement",
    "MemoryStorage",
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
    "default_db_path",
    "open_storage",
]

DEFAULT_DB_PATH = "domino.db"
"""The database file when ``DOMINO_DB`` is not set (in the working directory)."""


def default_db_path() -> Path:
    """The database path: the ``DOMINO_DB`` environment variable, else ``domino.db``."""
    return Path(os.environ.get("DOMINO_DB") or DEFAULT_DB_PATH)


async def open_storage(path: str | os.PathLike[str] | None = None) -> Storage:
    """Open (creating and migrating as needed) the SQLite database at ``path``.

    ``path`` None means :func:`default_db_path`; ``":memory:"`` is a private in-memory
    SQLite database.

    Raises:
        SchemaError: the database was written by a newer schema.
    """
    from storage.sqlite import SqliteStorage

    return await SqliteStorage.open(default_db_path() if path is None else path)
