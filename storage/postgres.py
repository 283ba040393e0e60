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
import functools
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar, cast

import asyncpg

from storage import redact_dsn
from storage.base import (
    Fence,
    Storage,
    StorageError,
    check_notice,
)
from storage.common import Plan, escrow_account
from storage.migrations import Migration, not_applied
from storage.postgres_migrations import POSTGRES_MIGRATIONS
from storage.sql import (
    LEDGER_TABLES,
    POSTGRES,
    Op,
    Row,
    TryAgain,
    Tx,
    check_fence,
    ledger_entries,
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


_INSERT = re.compile(r"INSERT INTO (\w+)( AS \w+)? \(([^)]*)\) VALUES \(([^)]*)\)(.*)", re.DOTALL)
_CONFLICT = re.compile(r"ON CONFLICT \(([^)]*)\) DO UPDATE")

_COLUMN_TYPES: dict[str, dict[str, str]] = {}
"""table -> column -> its PostgreSQL type (``PostgresTx.many``; read once per process)."""


@dataclass(frozen=True)
class _InsertShape:
    """An ``INSERT ... VALUES (...)`` statement of ``Tx.many``, taken apart.

    Attributes:
        table, alias: the target (``alias`` with its leading `` AS``, or empty).
        columns: the target columns, in order.
        values: each column's value: ``?`` (the row's next parameter) or a constant.
        rest: what follows the values (``ON CONFLICT ...``).
        conflict: the columns of ``ON CONFLICT (...) DO UPDATE``, empty without one.
    """

    table: str
    alias: str
    columns: tuple[str, ...]
    values: tuple[str, ...]
    rest: str
    conflict: tuple[str, ...]

    def unnest(self, types: Mapping[str, str]) -> str:
        """The statement inserting every row at once: one array parameter per ``?``
        column (``unnest``, in the rows' order)."""
        arrays: list[str] = []
        select: list[str] = []
        for column, value in zip(self.columns, self.values, strict=True):
            if value == "?":
                arrays.append(f"${len(arrays) + 1}::{types[column]}[]")
                select.append(f"u.c{len(arrays)}")
            else:
                select.append(value)
        names = ", ".join(f"c{n}" for n in range(1, len(arrays) + 1))
        return (
            f"INSERT INTO {self.table}{self.alias} ({', '.join(self.columns)})"
            f" SELECT {', '.join(select)} FROM unnest({', '.join(arrays)})"
            f" WITH ORDINALITY AS u ({names}, n) ORDER BY u.n{self.rest}"
        )


_SHAPES: dict[str, _InsertShape | None] = {}


def _insert_shape(sql: str) -> _InsertShape | None:
    """``sql`` taken apart when it is a one-row ``INSERT ... VALUES`` of plain ``?``
    parameters and constants (None otherwise: run row by row); cached."""
    if sql in _SHAPES:
        return _SHAPES[sql]
    shape = None
    m = _INSERT.fullmatch(sql)
    if m is not None:
        columns = tuple(c.strip() for c in m.group(3).split(","))
        values = tuple(v.strip() for v in m.group(4).split(","))
        conflict = _CONFLICT.search(m.group(5))
        if len(columns) == len(values) and all(
            v == "?" or re.fullmatch(r"-?\d+|'[^']*'", v) for v in values
        ):
            shape = _InsertShape(
                m.group(1),
                m.group(2) or "",
                columns,
                values,
                m.group(5),
                tuple(c.strip() for c in conflict.group(1).split(",")) if conflict else (),
            )
    _SHAPES[sql] = shape
    return shape


def _repeats_a_conflict(shape: _InsertShape, rows: Sequence[Sequence[Any]]) -> bool:
    """Whether two rows meet the same ``ON CONFLICT ... DO UPDATE`` key: one statement
    may not update a row twice, so such rows go one by one (the later one wins, as in
    SQLite)."""
    if not shape.conflict:
        return False
    marks = [c for c, v in zip(shape.columns, shape.values, strict=True) if v == "?"]
    at = [marks.index(c) for c in shape.conflict if c in marks]
    keys = {tuple(row[i] for i in at) for row in rows}
    return len(keys) < len(rows)


_DOLLAR = re.compile(r"\$(\d+)")


@functools.lru_cache(maxsize=256)
def _shift_parameters(sql: str, by: int) -> str:
    """``sql`` (PostgreSQL's ``$N`` parameters) with every ``$N`` made ``$(N + by)``."""
    return _DOLLAR.sub(lambda m: f"${int(m.group(1)) + by}", sql) if by else sql


def _with_parts(held: Sequence[tuple[str, Sequence[Any]]]) -> tuple[str, list[Any]]:
    """Held writes as the parts of one ``WITH`` (``w1 AS (...), w2 AS (...)``) and
    their parameters, numbered one after another."""
    parts: list[str] = []
    args: list[Any] = []
    for n, (sql, values) in enumerate(held, start=1):
        parts.append(f"w{n} AS ({_shift_parameters(sql, len(args))})")
        args.extend(values)
    return ", ".join(parts), args


# PostgreSQL's ledger write, one statement (PostgresTx.post)
_PG_POST: Final = (
    " t AS (INSERT INTO transactions (key, kind, match_id, created_at)"
    " VALUES ($1, $2, $3, $4) RETURNING id)"
    " INSERT INTO entries (transaction_id, account_id, amount)"
    " SELECT t.id, a.id, x.amount FROM t"
    " CROSS JOIN unnest($5::text[], $6::bigint[]) WITH ORDINALITY AS x (key, amount, n)"
)
_PG_POST_ACCOUNTS: Final = " JOIN accounts a ON a.key = x.key ORDER BY x.n"
_PG_CLOSE_ESCROW: Final = (
    "WITH closed_holders AS (UPDATE escrow_holders h SET status = c.status, paid = c.paid"
    " FROM unnest($7::bigint[], $8::text[], $9::bigint[]) AS c (pid, status, paid)"
    " WHERE h.match_id = $3 AND h.player_id = c.pid),"
    " closed_escrow AS (UPDATE escrows SET state = $10, closed_at = $4 WHERE match_id = $3),"
)
_PG_OPEN_ESCROW: Final = (
    "WITH new_account AS (INSERT INTO accounts (key, kind, match_id)"
    " VALUES ($9, 'escrow', $3) RETURNING id, key),"
    " new_escrow AS (INSERT INTO escrows (match_id, account_id, stake, created_at)"
    " SELECT $3, id, $7, $4 FROM new_account RETURNING match_id),"
    " new_holders AS (INSERT INTO escrow_holders (match_id, player_id, position)"
    " SELECT m.match_id, h.pid, h.n - 1 FROM new_escrow m"
    " CROSS JOIN unnest($8::bigint[]) WITH ORDINALITY AS h (pid, n)),"
)
_PG_OPEN_ACCOUNTS: Final = (
    " JOIN (SELECT id, key FROM accounts WHERE key = ANY($5::text[])"
    " UNION ALL SELECT id, key FROM new_account) a ON a.key = x.key ORDER BY x.n"
)


_UNCHECKED_REFERENCES: Final = (
    ("match_results", "match_id", "matches", "match_id"),
    ("match_results", "player_id", "players", "id"),
    ("player_chat_totals", "player_id", "players", "id"),
    ("match_seats", "match_id", "matches", "match_id"),
    ("match_seats", "player_id", "players", "id"),
    ("match_seasons", "match_id", "matches", "match_id"),
    ("ratings", "player_id", "players", "id"),
    ("rating_history", "player_id", "players", "id"),
)
"""(table, column, parent, key): the references whose foreign keys migration 0006 dropped,
checked by :meth:`PostgresTx.integrity` instead."""


class PostgresTx(Tx):
    """An asyncpg connection inside a transaction.

    Writes whose outcome the operation does not read (:meth:`many`, :meth:`write`) are
    held and sent together, as the data-modifying ``WITH`` parts of one statement, just
    before the next statement that reads (or with the ledger write, :meth:`post`, or by
    :meth:`flush` before the commit): one round trip for what was several. They all see
    the transaction as it was before that statement, so only writes that do not read
    each other's rows are held (inserts of a match's record, results, statistics, seats,
    ratings; an update of a player's row)."""

    dialect = POSTGRES

    def __init__(self, conn: asyncpg.Connection[asyncpg.Record]) -> None:
        self.conn = conn
        self._held: list[tuple[str, Sequence[Any]]] = []

    async def flush(self) -> None:
        if not self._held:
            return
        held, self._held = self._held, []
        if len(held) == 1:
            await self.conn.execute(held[0][0], *held[0][1])
            return
        parts, args = _with_parts(held)
        await self.conn.execute(f"WITH {parts} SELECT 1", *args)

    async def rows(self, sql: str, *args: Any) -> list[Row]:
        await self.flush()
        return cast(list[Row], await self.conn.fetch(POSTGRES.sql(sql), *args))

    async def row(self, sql: str, *args: Any) -> Row | None:
        await self.flush()
        return cast(Row | None, await self.conn.fetchrow(POSTGRES.sql(sql), *args))

    async def value(self, sql: str, *args: Any) -> Any:
        await self.flush()
        return await self.conn.fetchval(POSTGRES.sql(sql), *args)

    async def run(self, sql: str, *args: Any) -> int:
        await self.flush()
        status = await self.conn.execute(POSTGRES.sql(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def write(self, sql: str, *args: Any) -> None:
        self._held.append((POSTGRES.sql(sql), args))

    async def many(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        rows = list(args)
        if not rows:
            return
        shape = _insert_shape(sql)
        if shape is None or _repeats_a_conflict(shape, rows):
            await self.flush()
            await self.conn.executemany(POSTGRES.sql(sql), rows)
            return
        types = _COLUMN_TYPES.get(shape.table)
        if types is None:
            types = _COLUMN_TYPES[shape.table] = {
                str(name): str(kind)
                for name, kind in await self.conn.fetch(
                    "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
                    " WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped",
                    shape.table,
                )
            }
        self._held.append((shape.unnest(types), list(zip(*rows, strict=True))))

    async def integrity(self) -> list[str]:
        import asyncpg

        await self.flush()
        problems: list[str] = []
        # PostgreSQL's own guards, in place of SQLite's quick_check and foreign_key_check:
        # every constraint validated, every ledger trigger enabled, the ledger's indexes
        # sound (amcheck, when an administrator installed it).
        for (name,) in await self.conn.fetch(
            "SELECT conrelid::regclass::text || '.' || conname FROM pg_constraint"
            " WHERE NOT convalidated AND connamespace = current_schema()::regnamespace"
        ):
            problems.append(f"constraint not validated: {name}")
        for (name,) in await self.conn.fetch(
            "SELECT tgrelid::regclass::text || '.' || tgname FROM pg_trigger"
            " WHERE NOT tgisinternal AND tgenabled = 'D'"
            " AND tgrelid = ANY(ARRAY['accounts', 'entries', 'transactions']::regclass[])"
        ):
            problems.append(f"ledger trigger disabled: {name}")
        # the history's references to players and matches, kept by the code since
        # migration 0006 dropped their foreign keys (storage/postgres_migrations.py)
        for table, column, parent, key in _UNCHECKED_REFERENCES:
            for (value,) in await self.conn.fetch(
                f"SELECT DISTINCT c.{column} FROM {table} c WHERE c.{column} IS NOT NULL"
                f" AND NOT EXISTS (SELECT 1 FROM {parent} p WHERE p.{key} = c.{column})"
                f" ORDER BY 1"
            ):
                problems.append(f"foreign key broken: {table}.{column} = {value!r}")
        if await self.conn.fetchval("SELECT 1 FROM pg_extension WHERE extname = 'amcheck'"):
            for (index,) in await self.conn.fetch(
                "SELECT i.indexrelid::regclass::text FROM pg_index i"
                " WHERE i.indrelid = ANY($1::text[]::regclass[])",
                list(LEDGER_TABLES),
            ):
                try:
                    async with self.conn.transaction():
                        await self.conn.execute("SELECT bt_index_check($1::regclass)", index)
                except asyncpg.PostgresError as exc:
                    problems.append(f"index {index}: {exc}")
        return problems

    async def lock_ratings(self) -> None:

        await self.flush()

        await self.conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, RATINGS_LOCK)

    async def lock_chat(self, chat: str) -> None:

        await self.flush()

        await self.conn.execute(
            "SELECT pg_advisory_xact_lock_shared($1, $2),"
            " pg_advisory_xact_lock_shared($3, hashtext($4))",
            LOCK_SPACE,
            RATINGS_LOCK,
            CHAT_LOCK_SPACE,
            chat,
        )

    async def lock_players(self, player_ids: Sequence[int]) -> None:
        if player_ids:
            await self.flush()
            await self.conn.execute(
                "SELECT 1 FROM accounts WHERE player_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE",
                list(player_ids),
            )

    async def post(
        self, plan: Plan, at: float, *, close: str | None = None, open_stake: int | None = None
    ) -> None:
        entries = ledger_entries(plan)
        keys = [account for account, _ in entries]
        args: list[Any] = [plan.key, plan.kind, plan.match_id, at, keys, [a for _, a in entries]]
        if close is not None:
            sql = _PG_CLOSE_ESCROW + _PG_POST + _PG_POST_ACCOUNTS
            args += [
                list(plan.statuses),
                list(plan.statuses.values()),
                [plan.amounts.get(pid, 0) for pid in plan.statuses],
                close,
            ]
        elif open_stake is not None:
            assert plan.match_id is not None
            sql = _PG_OPEN_ESCROW + _PG_POST + _PG_OPEN_ACCOUNTS
            args += [open_stake, list(plan.statuses), escrow_account(plan.match_id)]
        else:
            sql = "WITH" + _PG_POST + _PG_POST_ACCOUNTS
        if self._held:  # the held writes go as the first parts of its WITH
            parts, held_args = _with_parts(self._held)
            self._held = []
            sql = f"WITH {parts}," + _shift_parameters(sql.removeprefix("WITH"), len(held_args))
            args = held_args + args
        status = await self.conn.execute(sql, *args)
        if int(status.rsplit(" ", 1)[-1]) != len(entries):
            raise AssertionError(f"transaction {plan.key} names a missing account")

    async def lock_chats(self, chats: Sequence[str]) -> None:

        await self.flush()

        await self.conn.execute(
            "SELECT pg_advisory_xact_lock_shared($1, $2)", LOCK_SPACE, RATINGS_LOCK
        )
        await self.conn.execute(
            "SELECT pg_advisory_xact_lock($1, h) FROM"
            " (SELECT DISTINCT hashtext(c) AS h FROM unnest($2::text[]) AS c) x ORDER BY h",
            CHAT_LOCK_SPACE,
            list(chats),
        )


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


class PostgresStorage(Storage):
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
