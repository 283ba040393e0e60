"""The SQLite storage (aiosqlite): one writer connection, one transaction per operation.

Following Datasette's write path (``execute_write_fn``): a single connection, living on
aiosqlite's own thread, does every read and write, and each business operation is one
plain function run whole on that thread inside one ``BEGIN IMMEDIATE`` transaction. The
thread runs one function at a time, in order, so operations never interleave; an
operation is entirely written or entirely absent, even if the process is killed at any
instant, and a cancelled caller cannot leave a transaction half done (the function
still runs to its end; idempotency keys make the retry safe).

The operations themselves are written once, for SQLite and PostgreSQL, in
:mod:`storage.sql`; this module is how they run here (:meth:`SqliteStorage._query`,
:meth:`SqliteStorage._transact`: the operation's coroutine driven whole on the
connection's thread), the connection's settings and the migrations.

The database runs in WAL mode with ``synchronous=NORMAL`` (a killed process loses
nothing committed; a power cut may lose the last commits but never corrupts), with
foreign keys on. Migrations (:mod:`storage.migrations`) run on open.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.base import (
    Fence,
    StorageError,
    UnknownMatchError,
)
from storage.migrations import MIGRATIONS, Migration, not_applied
from storage.sql import Op, SqliteTx, SqlStorage, check_fence, drive

__all__ = ["SqliteStorage", "apply_migrations", "pending_migrations"]

T = TypeVar("T")

RATINGS_MIGRATION = "0007_ratings_and_seasons"
"""Applying it rates the matches already stored (``SqliteStorage.open``)."""
Db = sqlite3.Connection


def apply_migrations(
    db: Db,
    migrations: Sequence[Migration] = MIGRATIONS,
    *,
    clock: Callable[[], float] = time.time,
) -> list[str]:
    """Bring the schema up to date; returns the names of the migrations applied now.

    ``db`` is a ``sqlite3`` connection in autocommit mode (``isolation_level=None``).
    Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with its
    row in ``schema_migrations`` (name, checksum, applied_at in epoch seconds).

    Raises:
        SchemaError: the database holds a migration not in ``migrations`` (a newer
            version wrote it), or a released migration whose statements changed.
    """
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    applied = dict(db.execute("SELECT name, checksum FROM schema_migrations").fetchall())
    done: list[str] = []
    for migration in not_applied(applied, migrations):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in migration.statements:
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
                (migration.name, migration.checksum, clock()),
            )
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        done.append(migration.name)
    return done


def pending_migrations(
    path: str | os.PathLike[str], migrations: Sequence[Migration] = MIGRATIONS
) -> list[str]:
    """The names of the migrations :meth:`SqliteStorage.open` would apply to the database
    at ``path``, in order, found without writing: the file is opened read-only (a
    database without tables yet needs them all).

    Raises:
        SchemaError: as :func:`apply_migrations` (a newer version's database, or an
            edited released migration).
        sqlite3.Error: there is no database at ``path`` that can be read.
    """
    db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        kept = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchone()
        applied = (
            dict(db.execute("SELECT name, checksum FROM schema_migrations").fetchall())
            if kept
            else {}
        )
    finally:
        db.close()
    return [m.name for m in not_applied(applied, migrations)]


PAGE_SIZE = 1024
"""Bytes per page of a new database. A commit writes every page it touched to the WAL;
the ledger's rows are small and scattered, so small pages mean less to write."""

WAL_AUTOCHECKPOINT = 10_000
"""WAL pages (about 10 MB) between two checkpoints. A checkpoint syncs the files, the
slow part of a write; rarer checkpoints keep commits fast (bench/storage.py)."""


def _configure(db: Db) -> None:
    # page_size only takes effect on a new, empty database (before WAL mode is set).
    db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    db.execute("PRAGMA journal_mode = WAL")
    # NORMAL in WAL mode: a commit is not synced, so a power cut may lose the last
    # commits, but the database is never corrupted and a killed process loses nothing.
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT}")
    db.execute("PRAGMA journal_size_limit = 33554432")  # truncate the WAL back to 32 MB
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")


def _escrow(db: Db, match_id: str) -> tuple[int, str, dict[int, str]]:
    """(stake, state, holders in seat order: player id -> status) of a match's escrow."""
    found = _find_escrow(db, match_id)
    if found is None:
        raise UnknownMatchError(match_id)
    return found


def _find_escrow(db: Db, match_id: str) -> tuple[int, str, dict[int, str]] | None:
    """Like :func:`_escrow`, None when the match has no escrow."""
    row = db.execute("SELECT stake, state FROM escrows WHERE match_id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    holders = db.execute(
        "SELECT player_id, status FROM escrow_holders WHERE match_id = ? ORDER BY position",
        (match_id,),
    ).fetchall()
    return int(row[0]), str(row[1]), {int(p): str(s) for p, s in holders}


class SqliteStorage(SqlStorage):
    """The storage port on one SQLite database file (WAL mode, one writer connection).

    Open it with ``await SqliteStorage.open(path)``; close it with ``await close()``.

    Attributes:
        path: the database path (or ``":memory:"``).
        applied_migrations: names of the migrations applied when it was opened.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._closed = False
        self.path = path
        self.applied_migrations: list[str] = []

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        clock: Callable[[], float] = time.time,
    ) -> SqliteStorage:
        """Open (and create) the database at ``path`` and apply pending migrations.

        ``":memory:"`` opens a private in-memory database, whose operations run on the
        event loop's thread, each whole before the caller goes on (no disk to wait for:
        a hop to aiosqlite's thread would only add time; tests on a manual clock rely on
        an operation never suspending its caller). ``migrations`` and
        ``clock`` (the applied_at times) are there for tests. Always ``await close()``:
        the connection's thread keeps the process alive until then.

        Raises:
            SchemaError: the database was written by a newer schema.
            sqlite3.Error: ``path`` cannot be a database (a folder, not writable).
        """
        target = os.fspath(path)
        if target != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            # A path that cannot be a database (a folder, no permission) fails here, at
            # once: failing inside aiosqlite's connect leaves its thread to answer a loop
            # that may be closed by then (a traceback at exit).
            sqlite3.connect(target).close()
        inline = target == ":memory:"
        conn = await aiosqlite.connect(target, isolation_level=None, check_same_thread=not inline)
        storage = cls(conn, target)
        try:
            await storage._run(_configure)
            storage.applied_migrations = await storage._run(
                lambda db: apply_migrations(db, migrations, clock=clock)
            )
            if RATINGS_MIGRATION in storage.applied_migrations:
                # matches stored before ratings existed are rated now, in order
                await storage.rebuild_ratings()
        except BaseException:
            await conn.close()
            raise
        return storage

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._conn.close()

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Copy the whole database to ``target`` while it is in use (SQLite's backup API).

        The copy is a consistent snapshot taken between two operations.
        """
        dest = await aiosqlite.connect(os.fspath(target))
        try:
            await self._conn.backup(dest)
        finally:
            await dest.close()

    # ------------------------------------------------------------------ plumbing

    async def _run(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(connection)`` on the connection's own thread, alone."""
        # aiosqlite has no public "run this callable on your thread"; its _execute is
        # the queue every public method uses. One hop per operation instead of one per
        # statement is what makes >1,000 matches/s possible (bench/storage.py).
        if self._closed:
            raise StorageError("the storage is closed")
        conn = self._conn
        if self.path == ":memory:":
            return fn(conn._conn)  # see open()
        run = cast(Callable[..., Any], conn._execute)
        return cast(T, await run(lambda: fn(conn._conn)))

    async def _write(self, fn: Callable[[Db], T], fence: Fence | None = None) -> T:
        """Run ``fn`` inside one ``BEGIN IMMEDIATE`` transaction; an exception rolls back.

        With ``fence``, the scope's claim is checked first in the same transaction
        (:class:`FencedOut` when stale, nothing written)."""

        def transaction(db: Db) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                if fence is not None:
                    drive(check_fence(SqliteTx(db), fence))
                result = fn(db)
            except BaseException:
                if db.in_transaction:  # SQLite may have rolled back already (disk full)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

        return await self._run(transaction)

    async def _query(self, op: Op[T], *, snapshot: bool = False) -> T:
        return await self._run(lambda db: drive(op(SqliteTx(db))))

    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        return await self._write(lambda db: drive(op(SqliteTx(db))), fence)

    # ------------------------------------------------------------------ players

    # ------------------------------------------------------------------- wallet

    # ------------------------------------------------------- statistics, history
