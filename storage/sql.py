"""The storage's SQL written once, for SQLite and PostgreSQL (issue 28).

An operation is an ``async`` function of a :class:`Tx`, the few things it asks of a
connection inside its transaction: :meth:`Tx.rows`, :meth:`Tx.row`, :meth:`Tx.value`,
:meth:`Tx.run` and :meth:`Tx.many`. Its SQL is written once, in SQLite's spelling of
parameters (``?`` in order, or ``?1``, ``?2`` by number); everything the two databases
spell differently is named in :class:`Dialect` and in the two ``Tx`` classes
(:class:`SqliteTx` here, :class:`storage.postgres.PostgresTx`), and nowhere else:

- parameters: ``?``/``?N`` stay for SQLite and become ``$N`` for PostgreSQL
  (:meth:`Dialect.sql`, cached);
- row locks: ``FOR UPDATE`` and ``FOR SHARE`` (:attr:`Dialect.for_update`,
  :attr:`Dialect.for_share`) are empty on SQLite, whose single writer's
  ``BEGIN IMMEDIATE`` already holds the whole database;
- the larger and the smaller of two values (:attr:`Dialect.greatest`, :attr:`Dialect.least`:
  ``GREATEST``/``LEAST`` and SQLite's ``MAX``/``MIN``) and
  byte-order text sorting (:attr:`Dialect.bytewise`: ``COLLATE "C"`` / SQLite's own);
- a parameter that may be NULL is written ``CAST(? AS TEXT)`` (PostgreSQL must know its
  type; SQLite does the same);
- the number of rows a statement changed (``cursor.rowcount`` / asyncpg's status);
- locks (:meth:`Tx.lock_chat`, :meth:`Tx.lock_chats`, :meth:`Tx.lock_ratings`,
  :meth:`Tx.lock_players`): PostgreSQL's advisory and row locks, taken in its one
  order (``storage/postgres.py``); none on SQLite;
- the ledger write (:meth:`Tx.post`): one statement on PostgreSQL, a few on SQLite;
- the database's own integrity checks (:meth:`Tx.integrity`);
- a race lost to another process (:class:`TryAgain`): PostgreSQL runs the operation
  again; SQLite, one writer, never loses one.

How an operation runs is the database's own: :class:`storage.sqlite.SqliteStorage` drives
the coroutine to its end on aiosqlite's thread without it ever suspending (one thread hop
per operation, as before: :func:`drive`); :class:`storage.postgres.PostgresStorage`
awaits asyncpg on a connection of its pool, in a transaction retried when it loses a
race. Why not SQLAlchemy Core or aiosql: measured in bench/storage_libraries.py
(docs/architecture.md, "Storage").

:class:`SqlBase` is what the roles' operations stand on (:meth:`SqlBase._query`,
:meth:`SqlBase._transact`); the roles, one module each (:mod:`storage.wallets`,
:mod:`storage.matches`, :mod:`storage.seasons`, :mod:`storage.chats`,
:mod:`storage.tables`, :mod:`storage.tournaments`), are combined into
:class:`storage.base.Storage`, which both storages subclass. What several roles share (an escrow's lookup and settlement, the
inserts of a match's seats, seasons and ratings) is here.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from storage.common import (
    Plan,
    escrow_account,
    plan_settlement,
)
from storage.shapes import (
    Fence,
    FencedOut,
    MatchClosedError,
    UnknownPlayerError,
)

__all__ = [
    "LEDGER_TABLES",
    "POSTGRES",
    "SAVE_TABLE",
    "SQLITE",
    "Dialect",
    "Escrow",
    "Op",
    "Row",
    "SqlBase",
    "SqliteTx",
    "TryAgain",
    "Tx",
    "add_totals",
    "check_fence",
    "drive",
    "find_escrow",
    "known_player",
    "ledger_entries",
    "paid_in",
    "placeholders",
    "player_rows",
    "settle_escrow",
]

T = TypeVar("T")

Row = Sequence[Any]


class TryAgain(Exception):
    """Raised inside an operation that saw a concurrent writer: run it again
    (PostgreSQL; SQLite's one writer never sees one)."""


_PARAMETER = re.compile(r"'(?:[^']|'')*'|\?(\d*)")


@dataclass(frozen=True)
class Dialect:
    """What SQLite and PostgreSQL spell differently in this storage's SQL.

    Attributes:
        name: ``"sqlite"`` or ``"postgres"``.
        for_update: the clause that locks the rows read for writing (empty on SQLite).
        for_share: the clause that locks them against writers (empty on SQLite).
        greatest: the function of the larger of two values.
        least: the function of the smaller of two values.
        bytewise: the clause that sorts text in byte order (empty on SQLite, whose
            default is byte order).
        numbered: whether parameters are written ``$N`` (PostgreSQL) instead of ``?N``.
    """

    name: str
    for_update: str
    for_share: str
    greatest: str
    least: str
    bytewise: str
    numbered: bool
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def lock_of(self, alias: str) -> str:
        """The clause that locks the rows of ``alias`` read for writing (empty on SQLite)."""
        return f"{self.for_update} OF {alias}" if self.for_update else ""

    def sql(self, text: str) -> str:
        """``text`` (parameters ``?`` or ``?N``, SQLite's spelling) in this dialect."""
        found = self._cache.get(text)
        if found is None:
            found = self._cache[text] = self._translate(text)
        return found

    def _translate(self, text: str) -> str:
        if not self.numbered:
            return text
        counter = iter(range(1, 1_000))

        def mark(m: re.Match[str]) -> str:
            if m.group(0).startswith("'"):
                return m.group(0)  # a string literal: left alone
            return f"${m.group(1) or next(counter)}"

        return _PARAMETER.sub(mark, text)


SQLITE: Final = Dialect("sqlite", "", "", "MAX", "MIN", "", numbered=False)
POSTGRES: Final = Dialect(
    "postgres", " FOR UPDATE", " FOR SHARE", "GREATEST", "LEAST", ' COLLATE "C"', numbered=True
)


class Tx:
    """A connection inside one transaction, as an operation sees it."""

    dialect: Dialect

    @abstractmethod
    async def rows(self, sql: str, *args: Any) -> list[Row]:
        """Every row ``sql`` returns."""

    async def row(self, sql: str, *args: Any) -> Row | None:
        """The first row ``sql`` returns, or None."""
        found = await self.rows(sql, *args)
        return found[0] if found else None

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None when there is no row."""
        found = await self.row(sql, *args)
        return None if found is None else found[0]

    @abstractmethod
    async def run(self, sql: str, *args: Any) -> int:
        """Run a statement that returns no rows; how many rows it changed."""

    @abstractmethod
    async def many(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row (nothing when there is none).
        PostgreSQL may hold it and send it with the next statement (:class:`storage.postgres.PostgresTx`):
        it must not need the rows written before it in the same operation by a write
        that is also held."""

    async def write(self, sql: str, *args: Any) -> None:
        """Run a statement whose outcome is not read, maybe later: before the next
        statement that reads, as :meth:`many`."""
        await self.run(sql, *args)

    async def flush(self) -> None:
        """Send the writes held (:meth:`write`, :meth:`many`); the storage calls it
        before the commit. Nothing on SQLite, which holds none."""

    async def lock_chats(self, chats: Sequence[str]) -> None:
        """Hold the chats' locks to the commit: exclusively, with the ratings lock
        shared (``move_chat`` against a concurrent record or rebuild). Nothing on
        SQLite, where the transaction already holds the whole database."""

    @abstractmethod
    async def integrity(self) -> list[str]:
        """What the database's own checks find wrong (SQLite: ``quick_check`` and
        ``foreign_key_check``; PostgreSQL: constraints not validated, ledger triggers
        disabled, the ledger's indexes when amcheck is installed); empty when sound."""

    async def lock_ratings(self) -> None:
        """Hold the ratings lock exclusively to the commit (a rebuild: no match is
        recorded, nor a chat moved, meanwhile); nothing on SQLite."""

    async def lock_chat(self, chat: str) -> None:
        """Hold the ratings lock and the chat's lock, shared, to the commit (a match
        record in ``chat``, against a chat move or a rebuild); nothing on SQLite."""

    async def lock_players(self, player_ids: Sequence[int]) -> None:
        """Lock the players' accounts to the commit, by id (PostgreSQL's lock order,
        ``storage/postgres.py``); nothing on SQLite."""

    @abstractmethod
    async def post(
        self, plan: Plan, at: float, *, close: str | None = None, open_stake: int | None = None
    ) -> None:
        """Write one planned ledger transaction (the trigger on ``entries`` moves the
        balances), with what goes with the money: ``close`` (``"settled"`` or
        ``"refunded"``) closes the plan's escrow with its holders' statuses and amounts;
        ``open_stake`` opens the plan's escrow (its account, row and holders, the plan's
        players in order) at that stake.

        The one write each database spells its own way: PostgreSQL does it all in one
        statement (the house's row, which every settlement moves, is then held for that
        statement and the commit only); SQLite in a few, all on its own thread.

        Raises:
            AssertionError: the plan does not sum to zero, or names a missing account.
        """


class SqliteTx(Tx):
    """A ``sqlite3`` connection inside ``BEGIN IMMEDIATE``; every call returns at once,
    so an operation's coroutine never suspends (:func:`drive`)."""

    dialect = SQLITE

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def rows(self, sql: str, *args: Any) -> list[Row]:
        return self.db.execute(sql, args).fetchall()

    async def run(self, sql: str, *args: Any) -> int:
        return self.db.execute(sql, args).rowcount

    async def many(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        self.db.executemany(sql, args)

    async def integrity(self) -> list[str]:
        problems = [
            f"quick_check: {result}"
            for (result,) in self.db.execute("PRAGMA quick_check").fetchall()
            if result != "ok"
        ]
        for row in self.db.execute("PRAGMA foreign_key_check").fetchall():
            problems.append(f"foreign key broken: {tuple(row)}")
        return problems

    async def post(
        self, plan: Plan, at: float, *, close: str | None = None, open_stake: int | None = None
    ) -> None:
        db = self.db
        if open_stake is not None:
            assert plan.match_id is not None
            account_id = db.execute(
                "INSERT INTO accounts (key, kind, match_id) VALUES (?, 'escrow', ?)",
                (escrow_account(plan.match_id), plan.match_id),
            ).lastrowid
            db.execute(
                "INSERT INTO escrows (match_id, account_id, stake, created_at) VALUES (?, ?, ?, ?)",
                (plan.match_id, account_id, open_stake, at),
            )
            db.executemany(
                "INSERT INTO escrow_holders (match_id, player_id, position) VALUES (?, ?, ?)",
                [(plan.match_id, pid, i) for i, pid in enumerate(plan.statuses)],
            )
        entries = ledger_entries(plan)
        tx_id = db.execute(
            "INSERT INTO transactions (key, kind, match_id, created_at) VALUES (?, ?, ?, ?)",
            (plan.key, plan.kind, plan.match_id, at),
        ).lastrowid
        if entries:
            written = db.executemany(
                "INSERT INTO entries (transaction_id, account_id, amount)"
                " SELECT ?, id, ? FROM accounts WHERE key = ?",
                [(tx_id, amount, account) for account, amount in entries],
            ).rowcount
            if written != len(entries):
                raise AssertionError(f"transaction {plan.key} names a missing account")
        if close is not None:
            db.executemany(
                "UPDATE escrow_holders SET status = ?, paid = ? WHERE match_id = ?"
                " AND player_id = ?",
                [
                    (status, plan.amounts.get(pid, 0), plan.match_id, pid)
                    for pid, status in plan.statuses.items()
                ],
            )
            db.execute(
                "UPDATE escrows SET state = ?, closed_at = ? WHERE match_id = ?",
                (close, at, plan.match_id),
            )


def ledger_entries(plan: Plan) -> list[tuple[str, int]]:
    """The plan's entries that move money (account key, amount).

    Raises:
        AssertionError: they do not sum to zero.
    """
    entries = [(account, amount) for account, amount in plan.entries if amount != 0]
    if sum(amount for _, amount in entries) != 0:
        raise AssertionError(f"unbalanced transaction {plan.key}")
    return entries


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run an operation on :class:`SqliteTx` to its end, here and now (on the database
    connection's thread).

    Raises:
        RuntimeError: the operation suspended (it awaited something other than its Tx).
    """
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a SQLite operation awaited something other than its connection")


Op = Callable[[Tx], Coroutine[Any, Any, T]]


async def check_fence(tx: Tx, fence: Fence) -> None:
    """Raise :class:`FencedOut` unless ``fence`` is its scope's current claim; on
    PostgreSQL the claim is share-locked to the commit, so no takeover lands between the
    check and the write."""
    held = await tx.value(
        "SELECT 1 FROM table_claims WHERE platform = ? AND owner = ? AND fence = ?"
        + tx.dialect.for_share,
        fence.scope,
        fence.owner,
        fence.token,
    )
    if held is None:
        raise FencedOut(fence)


SAVE_TABLE: Final = (
    "INSERT INTO table_snapshots (table_id, snapshot, saved_at) VALUES (?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot,"
    " saved_at = excluded.saved_at"
)


async def known_player(tx: Tx, player_id: int) -> None:
    """Raise :class:`UnknownPlayerError` unless a player has this id."""
    if await tx.value("SELECT 1 FROM players WHERE id = ?", player_id) is None:
        raise UnknownPlayerError(player_id)


async def player_rows(tx: Tx, player_id: int, sql: str, *args: Any) -> list[Row]:
    """The rows of ``sql`` (a query of one player's, e.g. a history), once
    :func:`known_player` has found the player."""
    await known_player(tx, player_id)
    return await tx.rows(sql, *args)


def placeholders(count: int) -> str:
    """``count`` parameters, for ``IN (...)``."""
    return ", ".join("?" * count)


Escrow = tuple[int, str, dict[int, str]]
"""(stake, state, holders in seat order: player id -> status) of a match's escrow."""


async def find_escrow(tx: Tx, match_id: str, *, lock: bool = False) -> Escrow | None:
    """The match's escrow, None when it has none; ``lock`` locks its row to the commit
    (step 2 of PostgreSQL's lock order)."""
    rows = await tx.rows(
        "SELECT e.stake, e.state, h.player_id, h.status FROM escrows e"
        " LEFT JOIN escrow_holders h ON h.match_id = e.match_id WHERE e.match_id = ?"
        " ORDER BY h.position" + (tx.dialect.lock_of("e") if lock else ""),
        match_id,
    )
    if not rows:
        return None
    holders = {int(r[2]): str(r[3]) for r in rows if r[2] is not None}
    return int(rows[0][0]), str(rows[0][1]), holders


async def paid_in(tx: Tx, match_id: str, status: str) -> dict[int, int]:
    """What each holder of ``status`` was paid, in seat order."""
    rows = await tx.rows(
        "SELECT player_id, paid FROM escrow_holders WHERE match_id = ? AND status = ?"
        " ORDER BY position",
        match_id,
        status,
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def settle_escrow(
    tx: Tx, match_id: str, found: Escrow, winners: Sequence[int], now: float, share: int = 2
) -> tuple[dict[int, int], bool]:
    """Settle the escrow (rules.md, "The house"): (payouts, whether it was written now).

    Already settled: the first settlement's payouts, nothing written.

    Raises:
        MatchClosedError: the escrow was refunded.
    """
    stake, state, holders = found
    if state == "settled":
        return await paid_in(tx, match_id, "paid"), False
    if state == "refunded":
        raise MatchClosedError(match_id, state)
    plan = plan_settlement(match_id, stake, holders, winners, share)
    await tx.post(plan, now, close="settled")
    return dict(plan.amounts), True


def add_totals(tx: Tx) -> str:
    """The clause that adds a row of ``player_chat_totals`` (alias ``t``) to the one it
    meets: counts summed, the later ``last_played`` kept."""
    return (
        " ON CONFLICT (chat, player_id) DO UPDATE SET"
        " matches_played = t.matches_played + excluded.matches_played,"
        " matches_won = t.matches_won + excluded.matches_won,"
        " hands_won = t.hands_won + excluded.hands_won,"
        " dominoes = t.dominoes + excluded.dominoes,"
        " trancas_won = t.trancas_won + excluded.trancas_won,"
        " capicuas = t.capicuas + excluded.capicuas,"
        f" last_played = {tx.dialect.greatest}(t.last_played, excluded.last_played)"
    )


LEDGER_TABLES: Final = ("accounts", "transactions", "entries", "escrows", "escrow_holders")


class SqlBase(ABC):
    """What every role's operations ask of the storage: a read and a write transaction
    (:meth:`_query`, :meth:`_transact`). The database supplies them
    (:class:`storage.sqlite.SqliteStorage`, :class:`storage.postgres.PostgresStorage`);
    the roles (:mod:`storage.wallets`, :mod:`storage.matches`, :mod:`storage.seasons`,
    :mod:`storage.chats`, :mod:`storage.tables`, :mod:`storage.tournaments`) are written
    over it and combined into :class:`storage.base.Storage`."""

    @abstractmethod
    async def _query(self, op: Op[T], *, snapshot: bool = False) -> T:
        """Run a read ``op``; with ``snapshot``, its statements see one snapshot (on
        PostgreSQL a REPEATABLE READ READ ONLY transaction; SQLite's one connection runs
        one operation at a time)."""

    @abstractmethod
    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        """Run ``op`` in one write transaction, whole or not at all; with ``fence``,
        :func:`check_fence` first in the same transaction."""
