"""The SQLite storage (aiosqlite): one writer connection, writes committed in groups.

Following Datasette's write path (``execute_write_fn``): a single connection, living on
aiosqlite's own thread, does every read and write, and each business operation is one
plain function run whole on that thread inside a ``BEGIN IMMEDIATE`` transaction. The
thread runs one function at a time, in the order they were called, so operations never
interleave; an operation is entirely written or entirely absent, even if the process is
killed at any instant, and a cancelled caller cannot leave a transaction half done (the
function still runs to its end; idempotency keys make the retry safe).

Group commit: the writes called while the thread is busy run together at its next turn,
in one transaction, each in its own savepoint (one that raises is undone alone), with one
commit; each caller hears back only after that commit (:func:`_run_batch`). A commit
(its WAL frames written) costs more than the statements of a match, so under load this is
what lets one connection keep up (bench/storage.py, docs/capacity.md).

The operations themselves are written once, for SQLite and PostgreSQL, in
:mod:`storage.sql`; this module is how they run here (:meth:`SqliteStorage._query`,
:meth:`SqliteStorage._transact`: the operation's coroutine driven whole on the
connection's thread), the connection's settings and the migrations.

The database runs in WAL mode with ``synchronous=NORMAL`` (a killed process loses
nothing committed; a power cut may lose the last commits but never corrupts), with
foreign keys on. Migrations (:mod:`storage.migrations`) run on open.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import aiosqlite

from storage.base import (
    Fence,
    Storage,
    StorageError,
    UnknownMatchError,
)
from storage.migrations import MIGRATIONS, Migration, not_applied
from storage.sql import Op, SqliteTx, check_fence, drive

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


@dataclass(frozen=True)
class _Call(Generic[T]):
    """A call queued for the connection's thread (:meth:`SqliteStorage._submit`)."""

    fn: Callable[[Db], T]
    write: bool
    fence: Fence | None
    done: asyncio.Future[T]


def _run_batch(db: Db, batch: Sequence[_Call[Any]]) -> list[tuple[bool, Any]]:
    """Run queued calls in order on the connection's thread: (True, what it returned) or
    (False, what it raised) for each.

    Group commit: consecutive writes share one ``BEGIN IMMEDIATE`` transaction, each in
    its own savepoint (a write that raises is rolled back to it, alone, and the next one
    goes on), and one ``COMMIT`` at the end of the run of writes; a read (or any call
    that is not a write) runs after that commit, outside any transaction. A write counts
    as done only once its commit succeeded: a commit that fails, or an error after which
    SQLite rolled the whole transaction back itself (disk full, I/O error), fails every
    write of that transaction with that error, nothing of them written. A commit costs
    far more than a statement (the WAL's frames written; bench/storage.py), so the
    writes queued while one batch runs are committed together in the next.

    Raises:
        BaseException: a call raised something that is not an ``Exception``
            (``KeyboardInterrupt``): the open transaction is rolled back first.
    """
    out: list[tuple[bool, Any]] = [(False, None)] * len(batch)
    group: list[int] = []  # the writes of the open transaction, done but not committed

    def fail_group(exc: Exception) -> None:
        for i in group:
            out[i] = (False, exc)
        group.clear()

    def commit() -> None:
        if db.in_transaction:
            try:
                db.execute("COMMIT")
            except Exception as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                fail_group(exc)
        group.clear()

    try:
        for i, call in enumerate(batch):
            if not call.write:
                commit()
                try:
                    out[i] = (True, call.fn(db))
                except Exception as exc:
                    out[i] = (False, exc)
                continue
            try:
                if not db.in_transaction:
                    db.execute("BEGIN IMMEDIATE")
                db.execute("SAVEPOINT write")
            except Exception as exc:  # the database is locked by another process
                out[i] = (False, exc)
                continue
            try:
                if call.fence is not None:
                    drive(check_fence(SqliteTx(db), call.fence))
                result = call.fn(db)
            except Exception as exc:
                out[i] = (False, exc)
                if db.in_transaction:
                    db.execute("ROLLBACK TO write")
                    db.execute("RELEASE write")
                else:  # SQLite rolled back the whole transaction: the group's writes too
                    fail_group(exc)
                continue
            db.execute("RELEASE write")
            out[i] = (True, result)
            group.append(i)
        commit()
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return out


class SqliteStorage(Storage):
    """The storage port on one SQLite database file (WAL mode, one writer connection).

    Open it with ``await SqliteStorage.open(path)``; close it with ``await close()``.

    Attributes:
        path: the database path (or ``":memory:"``).
        applied_migrations: names of the migrations applied when it was opened.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._closed = False
        self._queue: list[_Call[Any]] = []
        self._flusher: asyncio.Future[None] | None = None
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
            current = {m.name for m in MIGRATIONS} <= {m.name for m in migrations}
            if RATINGS_MIGRATION in storage.applied_migrations and current:
                # matches stored before ratings existed are rated now, in order (by this
                # code, so only on the schema it writes: a test's older schema is not)
                await storage.rebuild_ratings()
        except BaseException:
            await conn.close()
            raise
        return storage

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._flusher is not None:  # what was queued before still runs
                await asyncio.shield(self._flusher)
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

    def _submit(self, fn: Callable[[Db], T], *, write: bool, fence: Fence | None) -> Awaitable[T]:
        """Queue ``fn`` for the connection's thread; what it returns or raises, once done.

        Calls run in the order they were queued. Writes queued one after another share
        one hop to the thread and one commit (:func:`_run_batch`)."""
        if self._closed:
            raise StorageError("the storage is closed")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if self.path == ":memory:":  # see open(): run whole on this thread, now
            ((ok, value),) = _run_batch(self._conn._conn, [_Call(fn, write, fence, done)])
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)
            return done
        self._queue.append(_Call(fn, write, fence, done))
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush())
        return done

    async def _flush(self) -> None:
        """Run what is queued, batch after batch, until the queue is empty: what is
        queued while a batch runs on the thread makes the next batch."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    hop = cast(Callable[..., Any], self._conn._execute)
                    outcomes = await hop(_run_batch, self._conn._conn, batch)
                except BaseException as exc:  # the connection is gone, or the loop stops
                    for call in batch:
                        if call.done.done():
                            continue
                        if isinstance(exc, asyncio.CancelledError):
                            call.done.cancel()
                        else:
                            call.done.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for call, (ok, value) in zip(batch, outcomes, strict=True):
                    if call.done.done():  # its caller went away (the call still ran)
                        continue
                    if ok:
                        call.done.set_result(value)
                    else:
                        call.done.set_exception(value)
        finally:
            self._flusher = None

    async def _run(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(connection)`` on the connection's own thread, alone, outside any
        transaction, after every call queued before it."""
        return await self._submit(fn, write=False, fence=None)

    async def _write(self, fn: Callable[[Db], T], fence: Fence | None = None) -> T:
        """Run ``fn`` inside one ``BEGIN IMMEDIATE`` transaction, whole or not at all: an
        exception undoes its writes (it runs in a savepoint of a transaction it may share
        with the writes queued beside it, :func:`_run_batch`) and is raised here.
        Returns once its writes are committed.

        With ``fence``, the scope's claim is checked first in the same transaction
        (:class:`FencedOut` when stale, nothing written)."""
        return await self._submit(fn, write=True, fence=fence)

    async def _query(self, op: Op[T], *, snapshot: bool = False) -> T:
        return await self._run(lambda db: drive(op(SqliteTx(db))))

    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        return await self._write(lambda db: drive(op(SqliteTx(db))), fence)

    # ------------------------------------------------------------------ players

    # ------------------------------------------------------------------- wallet

    # ------------------------------------------------------- statistics, history
