"""Which way of writing the SQL once is fast enough (issue 28): a prototype of the
stake + finish cycle, the same statements written three ways, on SQLite and PostgreSQL.

The prototype keeps the cycle's shape (bench/storage.py, ``--path finish``): a stake is
one transaction that checks the lease fence, reads and locks the humans' balances, writes
a ledger transaction with its entries, moves the balances and opens an escrow with its
holders; a finish checks the fence, reads and locks the escrow, writes the settlement
(transaction, entries, balances), closes the escrow, stores the match record, its
results and the chat totals, and reads the balances after. Matches run from 50
concurrent tables; SQLite has one writer connection, PostgreSQL 8.

The three ways:

- ``sqlalchemy``: SQLAlchemy Core 2 (``create_async_engine``, ``sqlite+aiosqlite`` and
  ``postgresql+asyncpg``), ``text()`` statements (the lightest Core path: no Table
  compilation), one ``engine.begin()`` per operation.
- ``aiosql``: aiosql's query file loaded for the ``aiosqlite`` and ``asyncpg`` adapters
  (the same SQL text; aiosql turns ``:name`` into ``$n`` for asyncpg).
- ``thin``: the operation written once as an ``async`` function over a small cursor
  (:class:`Tx`); on PostgreSQL it awaits asyncpg, on SQLite the same coroutine is driven
  to its end on aiosqlite's thread without ever suspending (one thread hop per
  operation, as storage/sqlite.py does today).

Run (the libraries are not the project's dependencies; install them beside it):
``pip install 'sqlalchemy[asyncio]>=2' aiosql`` then
``python bench/storage_libraries.py --db postgresql://user@host/database [--matches 2000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE accounts (id {serial}, key TEXT UNIQUE NOT NULL, balance BIGINT NOT NULL);
CREATE TABLE transactions (id {serial}, key TEXT UNIQUE NOT NULL, kind TEXT NOT NULL,
  match_id TEXT, created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE entries (transaction_id BIGINT NOT NULL, account_id BIGINT NOT NULL,
  amount BIGINT NOT NULL);
CREATE TABLE escrows (match_id TEXT PRIMARY KEY, stake BIGINT NOT NULL, state TEXT NOT NULL);
CREATE TABLE escrow_holders (match_id TEXT NOT NULL, player_id BIGINT NOT NULL,
  position INTEGER NOT NULL, status TEXT NOT NULL, paid BIGINT NOT NULL,
  PRIMARY KEY (match_id, player_id));
CREATE TABLE table_claims (platform TEXT PRIMARY KEY, owner TEXT NOT NULL, fence BIGINT NOT NULL);
CREATE TABLE matches (match_id TEXT PRIMARY KEY, chat TEXT NOT NULL,
  finished_at DOUBLE PRECISION NOT NULL, record TEXT NOT NULL);
CREATE TABLE match_results (match_id TEXT NOT NULL, player_id BIGINT NOT NULL,
  chat TEXT NOT NULL, team INTEGER NOT NULL, won INTEGER NOT NULL,
  PRIMARY KEY (match_id, player_id));
CREATE TABLE totals (chat TEXT NOT NULL, player_id BIGINT NOT NULL, played INTEGER NOT NULL,
  won INTEGER NOT NULL, PRIMARY KEY (chat, player_id))
"""

SERIAL = {"sqlite": "INTEGER PRIMARY KEY", "postgres": "BIGSERIAL PRIMARY KEY"}
LOCK = {"sqlite": "", "postgres": " FOR UPDATE"}

# The cycle's statements, once, with :name parameters (SQLAlchemy's text() and aiosql
# both read them; the thin layer turns them into ? or $n).
FENCE = "SELECT fence FROM table_claims WHERE platform = :platform"
BALANCES = "SELECT id, key, balance FROM accounts WHERE key IN ({keys}) ORDER BY id{lock}"
NEW_TX = (
    "INSERT INTO transactions (key, kind, match_id, created_at)"
    " VALUES (:key, :kind, :match_id, :at) RETURNING id"
)
ENTRY = "INSERT INTO entries (transaction_id, account_id, amount) VALUES (:tx, :account, :amount)"
MOVE = "UPDATE accounts SET balance = balance + :amount WHERE id = :account"
ESCROW = "INSERT INTO escrows (match_id, stake, state) VALUES (:match_id, :stake, 'open')"
HOLDER = (
    "INSERT INTO escrow_holders (match_id, player_id, position, status, paid)"
    " VALUES (:match_id, :player_id, :position, 'held', :stake)"
)
FIND_ESCROW = "SELECT stake, state FROM escrows WHERE match_id = :match_id{lock}"
HOLDERS = "SELECT player_id FROM escrow_holders WHERE match_id = :match_id ORDER BY position"
CLOSE = "UPDATE escrows SET state = 'settled' WHERE match_id = :match_id"
PAY = (
    "UPDATE escrow_holders SET status = :status, paid = :paid"
    " WHERE match_id = :match_id AND player_id = :player_id"
)
MATCH = (
    "INSERT INTO matches (match_id, chat, finished_at, record)"
    " VALUES (:match_id, :chat, :at, :record)"
)
RESULT = (
    "INSERT INTO match_results (match_id, player_id, chat, team, won)"
    " VALUES (:match_id, :player_id, :chat, :team, :won)"
)
TOTAL = (
    "INSERT INTO totals (chat, player_id, played, won) VALUES (:chat, :player_id, 1, :won)"
    " ON CONFLICT (chat, player_id) DO UPDATE SET played = totals.played + 1,"
    " won = totals.won + excluded.won"
)


class Tx:
    """What an operation needs of a connection inside its transaction (all three ways)."""

    async def rows(self, sql: str, **params: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def many(self, sql: str, params: list[dict[str, Any]]) -> None:
        raise NotImplementedError


async def stake(tx: Tx, dialect: str, match_id: str, humans: list[int], amount: int) -> bool:
    """The stake's statements; False when a human cannot pay."""
    (fence,) = (await tx.rows(FENCE, platform="bench"))[0]
    assert fence == 1
    keys = [f"player:{p}" for p in humans]
    rows = await tx.rows(_in(BALANCES, keys, dialect), **_keys(keys))
    if any(int(r[2]) < amount for r in rows):
        return False
    by_key = {str(r[1]): int(r[0]) for r in rows}
    escrow = await tx.rows(
        "INSERT INTO accounts (key, balance) VALUES (:key, 0) RETURNING id",
        key=f"escrow:{match_id}",
    )
    moves = [(by_key[k], -amount) for k in keys] + [(int(escrow[0][0]), amount * len(keys))]
    await _post(tx, f"stake:{match_id}", "stake", match_id, moves)
    await tx.many(ESCROW, [{"match_id": match_id, "stake": amount}])
    await tx.many(
        HOLDER,
        [
            {"match_id": match_id, "player_id": p, "position": n, "stake": amount}
            for n, p in enumerate(humans)
        ],
    )
    return True


async def finish(
    tx: Tx, dialect: str, match_id: str, winners: list[int], record: str
) -> dict[int, int]:
    """The finish's statements; the humans' balances after."""
    (fence,) = (await tx.rows(FENCE, platform="bench"))[0]
    assert fence == 1
    stake_, state = (await tx.rows(FIND_ESCROW.format(lock=LOCK[dialect]), match_id=match_id))[0]
    assert state == "open"
    holders = [int(r[0]) for r in await tx.rows(HOLDERS, match_id=match_id)]
    pot = int(stake_) * len(holders)
    payees = [p for p in holders if p in winners] or holders
    share = pot // len(payees)
    keys = [f"player:{p}" for p in holders]
    rows = await tx.rows(_in(BALANCES, [*keys, f"escrow:{match_id}"], dialect),
                         **_keys([*keys, f"escrow:{match_id}"]))  # fmt: skip
    by_key = {str(r[1]): int(r[0]) for r in rows}
    moves = [(by_key[f"player:{p}"], share) for p in payees]
    moves.append((by_key[f"escrow:{match_id}"], -share * len(payees)))
    await _post(tx, f"settle:{match_id}", "settle", match_id, moves)
    await tx.many(CLOSE, [{"match_id": match_id}])
    await tx.many(
        PAY,
        [
            {"match_id": match_id, "player_id": p, "status": "paid", "paid": share}
            if p in payees
            else {"match_id": match_id, "player_id": p, "status": "lost", "paid": 0}
            for p in holders
        ],
    )
    await tx.many(MATCH, [{"match_id": match_id, "chat": "bench:1", "at": 1.0, "record": record}])
    results = [
        {"match_id": match_id, "player_id": p, "chat": "bench:1", "team": n % 2,
         "won": int(p in payees)}
        for n, p in enumerate(holders)
    ]  # fmt: skip
    await tx.many(RESULT, results)
    await tx.many(TOTAL, [{"chat": r["chat"], "player_id": r["player_id"], "won": r["won"]}
                          for r in results])  # fmt: skip
    after = await tx.rows(_in(BALANCES, keys, dialect).replace("{lock}", ""), **_keys(keys))
    return {int(str(r[1]).split(":")[1]): int(r[2]) for r in after}


async def _post(tx: Tx, key: str, kind: str, match_id: str, moves: list[tuple[int, int]]) -> None:
    (tx_id,) = (await tx.rows(NEW_TX, key=key, kind=kind, match_id=match_id, at=1.0))[0]
    await tx.many(ENTRY, [{"tx": tx_id, "account": a, "amount": m} for a, m in moves])
    await tx.many(MOVE, [{"account": a, "amount": m} for a, m in sorted(moves)])


def _in(sql: str, keys: list[str], dialect: str) -> str:
    return sql.replace("{keys}", ", ".join(f":k{n}" for n in range(len(keys)))).replace(
        "{lock}", LOCK[dialect]
    )


def _keys(keys: list[str]) -> dict[str, Any]:
    return {f"k{n}": k for n, k in enumerate(keys)}


# ---------------------------------------------------------------------- the thin layer

_NAMED = re.compile(r"(?<!:):([a-z_][a-z0-9_]*)")


def _positional(sql: str, dialect: str) -> tuple[str, list[str]]:
    """``:name`` parameters as ``?`` (SQLite) or ``$n`` (PostgreSQL), and their order."""
    names: list[str] = []

    def mark(m: re.Match[str]) -> str:
        if m.group(1) not in names:
            names.append(m.group(1))
        return "?" if dialect == "sqlite" else f"${names.index(m.group(1)) + 1}"

    if dialect == "sqlite":
        names_seq: list[str] = []

        def qmark(m: re.Match[str]) -> str:
            names_seq.append(m.group(1))
            return "?"

        return _NAMED.sub(qmark, sql), names_seq
    return _NAMED.sub(mark, sql), names


_CACHE: dict[tuple[str, str], tuple[str, list[str]]] = {}


def _compiled(sql: str, dialect: str) -> tuple[str, list[str]]:
    found = _CACHE.get((sql, dialect))
    if found is None:
        found = _CACHE[(sql, dialect)] = _positional(sql, dialect)
    return found


class SqliteTx(Tx):
    """Statements run at once on the sqlite3 connection: the coroutine never suspends."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def rows(self, sql: str, **params: Any) -> list[Sequence[Any]]:
        text, names = _compiled(sql, "sqlite")
        return self.db.execute(text, [params[n] for n in names]).fetchall()

    async def many(self, sql: str, params: list[dict[str, Any]]) -> None:
        text, names = _compiled(sql, "sqlite")
        self.db.executemany(text, [[p[n] for n in names] for p in params])


class PostgresTx(Tx):
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def rows(self, sql: str, **params: Any) -> list[Sequence[Any]]:
        text, names = _compiled(sql, "postgres")
        return list(await self.conn.fetch(text, *[params[n] for n in names]))

    async def many(self, sql: str, params: list[dict[str, Any]]) -> None:
        text, names = _compiled(sql, "postgres")
        await self.conn.executemany(text, [[p[n] for n in names] for p in params])


def drive(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never suspends to its end, here (on the database's thread)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a SQLite operation suspended")


Op = Callable[[Tx, str], Awaitable[Any]]


class Runner:
    dialect: str

    async def write(self, op: Op) -> Any:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class ThinSqlite(Runner):
    dialect = "sqlite"

    async def open(self, path: Path) -> ThinSqlite:
        import aiosqlite

        self.conn = await aiosqlite.connect(path, isolation_level=None)
        await self.conn.execute("PRAGMA journal_mode = WAL")
        await self.conn.execute("PRAGMA synchronous = NORMAL")
        return self

    async def write(self, op: Op) -> Any:
        def run() -> Any:
            db = self.conn._conn
            db.execute("BEGIN IMMEDIATE")
            try:
                result = drive(op(SqliteTx(db), "sqlite"))  # type: ignore[arg-type]
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

        return await self.conn._execute(run)

    async def close(self) -> None:
        await self.conn.close()


class ThinPostgres(Runner):
    dialect = "postgres"

    async def open(self, dsn: str) -> ThinPostgres:
        import asyncpg

        self.pool = await asyncpg.create_pool(dsn, min_size=8, max_size=8)
        return self

    async def write(self, op: Op) -> Any:
        async with self.pool.acquire() as conn, conn.transaction():
            return await op(PostgresTx(conn), "postgres")

    async def close(self) -> None:
        await self.pool.close()


# ---------------------------------------------------------------------- SQLAlchemy Core


class AlchemyTx(Tx):
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def rows(self, sql: str, **params: Any) -> list[Sequence[Any]]:
        from sqlalchemy import text

        return list((await self.conn.execute(_text(sql, text), params)).all())

    async def many(self, sql: str, params: list[dict[str, Any]]) -> None:
        from sqlalchemy import text

        await self.conn.execute(_text(sql, text), params)


_TEXTS: dict[str, Any] = {}


def _text(sql: str, text: Any) -> Any:
    found = _TEXTS.get(sql)
    if found is None:
        found = _TEXTS[sql] = text(sql)
    return found


class Alchemy(Runner):
    async def open(self, url: str, dialect: str) -> Alchemy:
        from sqlalchemy.ext.asyncio import create_async_engine
        from sqlalchemy.pool import StaticPool

        self.dialect = dialect
        if dialect == "sqlite":
            self.engine = create_async_engine(url, poolclass=StaticPool)
            self.lock: asyncio.Lock | None = asyncio.Lock()  # one writer, as today
        else:
            self.engine = create_async_engine(url, pool_size=8, max_overflow=0)
            self.lock = None
        return self

    async def write(self, op: Op) -> Any:
        if self.lock is not None:
            async with self.lock, self.engine.begin() as conn:
                return await op(AlchemyTx(conn), self.dialect)
        async with self.engine.begin() as conn:
            return await op(AlchemyTx(conn), self.dialect)

    async def close(self) -> None:
        await self.engine.dispose()


# ---------------------------------------------------------------------- aiosql


class AiosqlTx(Tx):
    """aiosql's adapter run on one statement at a time (its ``select``/``insert_update_delete_many``)."""

    def __init__(self, adapter: Any, conn: Any) -> None:
        self.adapter = adapter
        self.conn = conn

    async def rows(self, sql: str, **params: Any) -> list[Sequence[Any]]:
        q = _aiosql_sql(self.adapter, sql)
        return [r async for r in self.adapter.select(self.conn, sql, q, params, None)]

    async def many(self, sql: str, params: list[dict[str, Any]]) -> None:
        q = _aiosql_sql(self.adapter, sql)
        await self.adapter.insert_update_delete_many(self.conn, sql, q, params)


_AIOSQL: dict[tuple[int, str], str] = {}


def _aiosql_sql(adapter: Any, sql: str) -> str:
    key = (id(adapter), sql)
    found = _AIOSQL.get(key)
    if found is None:
        found = _AIOSQL[key] = adapter.process_sql(sql, "", sql)
    return found


class Aiosql(Runner):
    async def open(self, target: str, dialect: str) -> Aiosql:
        from aiosql.adapters.aiosqlite import AioSQLiteAdapter
        from aiosql.adapters.asyncpg import AsyncPGAdapter

        self.dialect = dialect
        if dialect == "sqlite":
            import aiosqlite

            self.adapter: Any = AioSQLiteAdapter()
            self.conn = await aiosqlite.connect(target, isolation_level=None)
            await self.conn.execute("PRAGMA journal_mode = WAL")
            await self.conn.execute("PRAGMA synchronous = NORMAL")
            self.lock = asyncio.Lock()
        else:
            import asyncpg

            self.adapter = AsyncPGAdapter()
            self.pool = await asyncpg.create_pool(target, min_size=8, max_size=8)
        return self

    async def write(self, op: Op) -> Any:
        if self.dialect == "sqlite":
            async with self.lock:
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    result = await op(AiosqlTx(self.adapter, self.conn), "sqlite")
                except BaseException:
                    await self.conn.execute("ROLLBACK")
                    raise
                await self.conn.execute("COMMIT")
                return result
        async with self.pool.acquire() as conn, conn.transaction():
            return await op(AiosqlTx(self.adapter, conn), "postgres")

    async def close(self) -> None:
        if self.dialect == "sqlite":
            await self.conn.close()
        else:
            await self.pool.close()


# ---------------------------------------------------------------------- the run


async def _schema(dialect: str, target: str, players: int) -> None:
    statements = SCHEMA.format(serial=SERIAL[dialect]).split(";")
    if dialect == "sqlite":
        db = sqlite3.connect(target)
        for s in statements:
            db.execute(s)
        db.executemany(
            "INSERT INTO accounts (key, balance) VALUES (?, ?)",
            [(f"player:{p}", 10**9) for p in range(players)],
        )
        db.execute("INSERT INTO table_claims VALUES ('bench', 'bench', 1)")
        db.commit()
        db.close()
        return
    import asyncpg

    conn = await asyncpg.connect(target)
    try:
        await conn.execute(
            "DROP TABLE IF EXISTS accounts, transactions, entries, escrows, escrow_holders,"
            " table_claims, matches, match_results, totals"
        )
        for s in statements:
            await conn.execute(s)
        await conn.executemany(
            "INSERT INTO accounts (key, balance) VALUES ($1, $2)",
            [(f"player:{p}", 10**9) for p in range(players)],
        )
        await conn.execute("INSERT INTO table_claims VALUES ('bench', 'bench', 1)")
    finally:
        await conn.close()


async def _cycles(runner: Runner, matches: int, tables: int, players: int, seed: int) -> float:
    rng = random.Random(seed)
    record = "{" + '"hands": []' * 1 + "}" + " " * 2000  # a record's size, roughly
    per = [matches // tables + (1 if t < matches % tables else 0) for t in range(tables)]

    async def table(t: int, r: random.Random) -> None:
        for n in range(per[t]):
            humans = r.sample(range(players), r.choice((2, 3, 4, 4, 4)))
            match_id = f"t{t}-m{n}"
            ok = await runner.write(
                lambda tx, d, m=match_id, h=humans: stake(tx, d, m, h, 10)  # type: ignore[misc]
            )
            assert ok
            winners = humans[::2]
            await runner.write(
                lambda tx, d, m=match_id, w=winners: finish(tx, d, m, w, record)  # type: ignore[misc]
            )

    start = time.perf_counter()
    await asyncio.gather(*(table(t, random.Random(rng.random())) for t in range(tables)))
    return matches / (time.perf_counter() - start)


async def measure(way: str, dialect: str, dsn: str, folder: Path, args: Any) -> float:
    if dialect == "sqlite":
        target = str(folder / f"{way}.db")
    else:
        target = dsn
    await _schema(dialect, target, args.players)
    runner: Runner
    if way == "thin":
        runner = await (
            ThinSqlite().open(Path(target)) if dialect == "sqlite" else ThinPostgres().open(dsn)
        )
    elif way == "sqlalchemy":
        url = (
            f"sqlite+aiosqlite:///{target}"
            if dialect == "sqlite"
            else dsn.replace("postgresql://", "postgresql+asyncpg://", 1)
        )
        runner = await Alchemy().open(url, dialect)
    else:
        runner = await Aiosql().open(target, dialect)
    try:
        return await _cycles(runner, args.matches, args.tables, args.players, args.seed)
    finally:
        await runner.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", required=True, help="a postgresql:// URL (tables are replaced)")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2, help="each way measured this often")
    parser.add_argument("--ways", default="thin,sqlalchemy,aiosql")
    args = parser.parse_args(argv)
    ways = args.ways.split(",")
    figures: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for dialect in ("sqlite", "postgres"):
                for way in ways[round_ % len(ways) :] + ways[: round_ % len(ways)]:
                    folder = Path(tmp) / f"r{round_}"
                    folder.mkdir(exist_ok=True)
                    rate = asyncio.run(measure(way, dialect, args.db, folder, args))
                    figures.setdefault((way, dialect), []).append(rate)
                    print(f"  {way:>10} {dialect:>8}: {rate:7,.0f} stake + finish cycles/s",
                          flush=True)  # fmt: skip
    print("best of each (stake + finish cycles a second):")
    for (way, dialect), rates in sorted(figures.items()):
        print(f"  {way:>10} {dialect:>8}: {max(rates):7,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
