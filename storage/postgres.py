"""The PostgreSQL storage (asyncpg): the same behaviour as SQLite, shared by processes.

``await PostgresStorage.open("postgresql://user@host/db")`` connects, applies the
PostgreSQL migrations (:mod:`storage.postgres_migrations`) in one transaction under an
advisory lock (several processes may open the same database at once) and returns the
storage. Every business operation is one transaction written from the same plans
(:mod:`storage.common`) and the same pure rating rules (:mod:`storage.ratings`) as SQLite,
so both give the same answers, errors, orderings and floats (design.md, "storage"); the
contract tests run against SQLite and PostgreSQL.

The operations are written once, for SQLite and PostgreSQL, in :mod:`storage.sql`
(PostgreSQL's own statements, the ledger write and the locks, are its ``PostgresTx``);
this module is how they run here: the connections, the transactions and their retries,
the migrations and notices.

Concurrency. Transactions run at READ COMMITTED with explicit row locks, taken always in
one order so that writers queue instead of deadlocking:

1. advisory locks: the ratings lock (shared by every match record, exclusive for
   ``rebuild_ratings``), then the chat's lock (shared by a record in that chat,
   exclusive for ``move_chat``);
2. the match's ``escrows`` row (``SELECT ... FOR UPDATE``): settle, refund, forfeit and
   finish of one match run one after the other;
3. the players' ``accounts`` rows, by id (``FOR UPDATE``): a stake reads the balances
   it checks under that lock; a match record reads and writes its humans' ratings under
   it, so ratings move in the order the matches are stored;
4. the house account last: every transaction that pays or takes house money writes its
   ledger entries as its last statement, so the house's row (which every settlement
   moves) is held only for that statement and the commit.

An operation that loses a race anyway (two processes creating the same player, escrow or
match record at once: a unique violation) or that PostgreSQL aborts (a deadlock, a
serialization failure) is rolled back and run again from the start, a few times; the
retry sees the winner's row and answers as if it had come second. Reads that need
several statements run in one REPEATABLE READ READ ONLY snapshot.

Within one process, operations run on a small set of connections (one by default, so a
process's calls run in the order they were made, as with SQLite's single writer);
several processes, or ``open(..., connections=n)``, write at once. A caller cancelled
mid-operation does not cancel it: the operation runs to its end (as in SQLite) and the
idempotency keys make the caller's retry safe.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

import asyncpg

from storage import redact_dsn
from storage.base import (
    Fence,
    StorageError,
    check_notice,
)
from storage.migrations import Migration, not_applied
from storage.postgres_migrations import POSTGRES_MIGRATIONS
from storage.sql import (
    Op,
    PostgresTx,
    SqlStorage,
    TryAgain,
    check_fence,
)

if TYPE_CHECKING:
    Conn: TypeAlias = asyncpg.Connection[asyncpg.Record]
else:
    Conn = asyncpg.Connection

__all__ = [
    "MAX_ATTEMPTS",
    "SESSION_SETTINGS",
    "PostgresStorage",
    "apply_migrations",
    "pending_migrations",
    "redact_dsn",
]

T = TypeVar("T")

LOCK_SPACE: Final = 0x444F4D49
"""First key of this storage's advisory locks (``pg_advisory_xact_lock(int, int)``)."""
CHAT_LOCK_SPACE: Final = 0x444F4D4A
"""First key of the chats' advisory locks (the second is ``hashtext(chat)``)."""
MIGRATIONS_LOCK: Final = 0
RATINGS_LOCK: Final = 1

MAX_ATTEMPTS: Final = 30
"""Runs of one operation that loses races (see the module's docstring) before giving up."""

SESSION_SETTINGS: Final = {"idle_in_transaction_session_timeout": "10s"}
"""Every connection's settings: a transaction left idle 10 s (its process frozen or
partitioned mid-write) is ended by the server, so its row locks (a lease's, a wallet's)
never block the other processes, nor a standby's takeover, for longer than that."""

_RETRY: Final = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.UniqueViolationError,
)


# ------------------------------------------------------------------ migrations


async def apply_migrations(
    conn: Conn,
    migrations: Sequence[Migration] = POSTGRES_MIGRATIONS,
    *,
    clock: Callable[[], float] = time.time,
) -> list[str]:
    """Bring the schema up to date; returns the names of the migrations applied now.

    One transaction holding an advisory lock: a second process opening the database at
    the same time waits, then finds the migrations applied. Each applied migration gets
    a row in ``schema_migrations`` (name, checksum, applied_at in epoch seconds).

    Raises:
        SchemaError: the database holds a migration not in ``migrations`` (a newer
            version wrote it), or a released migration whose statements changed.
    """
    done: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, MIGRATIONS_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY,"
            " checksum TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        applied = {
            str(r[0]): str(r[1])
            for r in await conn.fetch("SELECT name, checksum FROM schema_migrations")
        }
        for migration in not_applied(applied, migrations):
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES ($1, $2, $3)",
                migration.name,
                migration.checksum,
                clock(),
            )
            done.append(migration.name)
    return done


async def pending_migrations(
    dsn: str, migrations: Sequence[Migration] = POSTGRES_MIGRATIONS
) -> list[str]:
    """The names of the migrations :meth:`PostgresStorage.open` would apply to the
    database at ``dsn``, in order, found without writing (one read-only transaction; a
    database without tables yet needs them all).

    Raises:
        SchemaError: as :func:`apply_migrations` (a newer version's database, or an
            edited released migration).
        OSError, asyncpg.PostgresError: the server cannot be reached or refuses.
    """
    conn = await asyncpg.connect(dsn, server_settings=SESSION_SETTINGS)
    try:
        async with conn.transaction(readonly=True):
            kept = await conn.fetchval("SELECT to_regclass('schema_migrations')")
            rows = await conn.fetch("SELECT name, checksum FROM schema_migrations") if kept else []
    finally:
        await conn.close()
    return [m.name for m in not_applied({str(r[0]): str(r[1]) for r in rows}, migrations)]


# --------------------------------------------------------------------- helpers


def _fenced(fn: Callable[[Conn], Awaitable[T]], fence: Fence) -> Callable[[Conn], Awaitable[T]]:
    """``fn`` preceded by the check of ``fence`` in its transaction."""

    async def checked(conn: Conn) -> T:
        await check_fence(PostgresTx(conn), fence)
        return await fn(conn)

    return checked


async def _whole(op: Op[T], conn: Conn) -> T:
    """``op`` on ``conn``, the writes it held sent before it returns (before the commit:
    :class:`PostgresTx`)."""
    tx = PostgresTx(conn)
    result = await op(tx)
    await tx.flush()
    return result


# --------------------------------------------------------------- the ledger check

# -------------------------------------------------------------------- storage


class PostgresStorage(SqlStorage):
    """The storage port on a PostgreSQL database (asyncpg).

    Open it with ``await PostgresStorage.open(dsn)``; close it with ``await close()``.

    Attributes:
        dsn: the database URL, its password hidden.
        applied_migrations: names of the migrations applied when it was opened.
    """

    def __init__(self, connections: Sequence[Conn], dsn: str) -> None:
        self._dsn = dsn
        self.dsn = redact_dsn(dsn)
        self._idle: asyncio.Queue[Conn] = asyncio.Queue()
        for conn in connections:
            self._idle.put_nowait(conn)
        self._all = list(connections)
        self._running: set[asyncio.Task[Any]] = set()
        self._closed = False
        self.applied_migrations: list[str] = []
        self._listener: Conn | None = None  # LISTENs for subscribe(), opened on first use

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        connections: int = 1,
        migrations: Sequence[Migration] = POSTGRES_MIGRATIONS,
        clock: Callable[[], float] = time.time,
    ) -> PostgresStorage:
        """Connect to ``dsn`` (``postgresql://user:password@host:port/database``) and
        apply pending migrations.

        ``connections`` is how many operations of this process may run at once (1 keeps
        them in call order, like SQLite). ``migrations`` and ``clock`` (the applied_at
        times) are there for tests.

        Raises:
            SchemaError: the database was written by a newer schema.
            OSError, asyncpg.PostgresError: the server cannot be reached or refuses.
        """
        if connections < 1:
            raise ValueError("connections must be at least 1")
        opened: list[Conn] = []
        try:
            for _ in range(connections):
                opened.append(await asyncpg.connect(dsn, server_settings=SESSION_SETTINGS))
            applied = await apply_migrations(opened[0], migrations, clock=clock)
        except BaseException:
            for conn in opened:
                conn.terminate()
            raise
        storage = cls(opened, dsn)
        storage.applied_migrations = applied
        return storage

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._listener is not None:
            self._listener.terminate()
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
        for conn in self._all:
            try:
                await asyncio.wait_for(conn.close(), timeout=5)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                conn.terminate()

    # ------------------------------------------------------------------ notices

    async def publish(self, channel: str, message: str) -> None:
        check_notice(message)

        async def notify(conn: Conn) -> None:
            await conn.execute("SELECT pg_notify($1, $2)", channel, message)

        await self._with_connection(notify)

    async def subscribe(self, channel: str, callback: Callable[[str], None]) -> None:
        if self._closed:
            raise StorageError("the storage is closed")
        if self._listener is None:
            self._listener = await asyncpg.connect(self._dsn, server_settings=SESSION_SETTINGS)

        def heard(conn: object, pid: int, name: str, payload: object) -> None:
            callback(str(payload))

        await self._listener.add_listener(channel, heard)

    # ------------------------------------------------------------------ plumbing

    async def _with_connection(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        if self._closed:
            raise StorageError("the storage is closed")
        conn = await self._idle.get()
        try:
            if conn.is_closed():  # the server closed it (a restart): connect again
                fresh = await asyncpg.connect(self._dsn, server_settings=SESSION_SETTINGS)
                self._all[self._all.index(conn)] = fresh
                conn = fresh
            return await fn(conn)
        except asyncio.CancelledError:
            conn.terminate()  # cancelled mid-statement: drop it (the server rolls back)
            raise
        finally:
            self._idle.put_nowait(conn)

    async def _attempts(
        self, fn: Callable[[Conn], Awaitable[T]], isolation: str, readonly: bool
    ) -> T:
        for attempt in range(MAX_ATTEMPTS):

            async def once(conn: Conn) -> T:
                async with conn.transaction(isolation=isolation, readonly=readonly):  # type: ignore[arg-type]
                    return await fn(conn)

            try:
                return await self._with_connection(once)
            except (*_RETRY, TryAgain):
                if attempt == MAX_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2**attempt)))
        raise AssertionError("unreachable")  # pragma: no cover

    async def _write(self, fn: Callable[[Conn], Awaitable[T]], fence: Fence | None = None) -> T:
        """Run ``fn`` in one READ COMMITTED transaction, retried when it loses a race.

        The operation runs to its end even if the caller is cancelled (as in SQLite).
        With ``fence``, the scope's claim is checked first and share-locked to the
        commit, so no takeover lands between the check and the write
        (:class:`FencedOut` when stale, nothing written).
        """
        if self._closed:
            raise StorageError("the storage is closed")
        if fence is not None:
            fn = _fenced(fn, fence)
        task = asyncio.ensure_future(self._attempts(fn, "read_committed", False))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        # a caller that went away does not read the outcome: mark it read
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await asyncio.shield(task)

    async def _snapshot(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run a read of several statements in one REPEATABLE READ READ ONLY snapshot."""
        return await self._attempts(fn, "repeatable_read", True)

    async def _read(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run a read of one statement (or of rows that never change) on a connection."""
        return await self._with_connection(fn)

    async def _query(self, op: Op[T], *, snapshot: bool = False) -> T:
        run = self._snapshot if snapshot else self._read
        return await run(lambda conn: _whole(op, conn))

    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        return await self._write(lambda conn: _whole(op, conn), fence)

    # ------------------------------------------------------------------ players

    # ------------------------------------------------------------------- wallet

    # ------------------------------------------------------- statistics, history
