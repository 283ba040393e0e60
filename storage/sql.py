"""The storage's SQL written once, for SQLite and PostgreSQL (issue 28).

An operation is an ``async`` function of a :class:`Tx`, the few things it asks of a
connection inside its transaction: :meth:`Tx.rows`, :meth:`Tx.row`, :meth:`Tx.value`,
:meth:`Tx.run` and :meth:`Tx.many`. Its SQL is written once, in SQLite's spelling of
parameters (``?`` in order, or ``?1``, ``?2`` by number); everything the two databases
spell differently is named in :class:`Dialect` and in the two ``Tx`` classes, and nowhere
else:

- parameters: ``?``/``?N`` stay for SQLite and become ``$N`` for PostgreSQL
  (:meth:`Dialect.sql`, cached);
- row locks: ``FOR UPDATE`` and ``FOR SHARE`` (:attr:`Dialect.for_update`,
  :attr:`Dialect.for_share`) are empty on SQLite, whose single writer's
  ``BEGIN IMMEDIATE`` already holds the whole database;
- the larger of two values (:attr:`Dialect.greatest`: ``GREATEST`` / ``MAX``) and
  byte-order text sorting (:attr:`Dialect.bytewise`: ``COLLATE "C"`` / SQLite's own);
- the number of rows a statement changed (``cursor.rowcount`` / asyncpg's status);
- advisory locks (:meth:`Tx.lock_chats`): PostgreSQL's, none on SQLite;
- a race lost to another process (:class:`TryAgain`): PostgreSQL runs the operation
  again; SQLite, one writer, never loses one.

How an operation runs is the database's own: :class:`storage.sqlite.SqliteStorage` drives
the coroutine to its end on aiosqlite's thread without it ever suspending (one thread hop
per operation, as before: :func:`drive`); :class:`storage.postgres.PostgresStorage`
awaits asyncpg on a connection of its pool, in a transaction retried when it loses a
race. Why not SQLAlchemy Core or aiosql: measured in bench/storage_libraries.py
(docs/architecture.md, "Storage").

:class:`SqlStorage` holds the operations written this way; both storages inherit them.
"""

from __future__ import annotations

import json
import re
import sqlite3
from abc import abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from storage.base import (
    ChatRules,
    Fence,
    FencedOut,
    OpenEscrow,
    Storage,
    TablesClaim,
    check_now,
)
from storage.common import (
    canonical_chat_rules,
    check_chat_language,
    check_chat_move,
    to_json,
)

if TYPE_CHECKING:
    import asyncpg

__all__ = [
    "POSTGRES",
    "SQLITE",
    "Dialect",
    "PostgresTx",
    "SqlStorage",
    "SqliteTx",
    "TryAgain",
    "Tx",
    "drive",
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
        bytewise: the clause that sorts text in byte order (empty on SQLite, whose
            default is byte order).
        numbered: whether parameters are written ``$N`` (PostgreSQL) instead of ``?N``.
    """

    name: str
    for_update: str
    for_share: str
    greatest: str
    bytewise: str
    numbered: bool
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

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


SQLITE: Final = Dialect("sqlite", "", "", "MAX", "", numbered=False)
POSTGRES: Final = Dialect(
    "postgres", " FOR UPDATE", " FOR SHARE", "GREATEST", ' COLLATE "C"', numbered=True
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
        """Run one statement once per parameter row (nothing when there is none)."""

    async def lock_chats(self, chats: Sequence[str]) -> None:
        """Hold the chats' locks to the commit: exclusively, with the ratings lock
        shared (``move_chat`` against a concurrent record or rebuild). Nothing on
        SQLite, where the transaction already holds the whole database."""


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


class PostgresTx(Tx):
    """An asyncpg connection inside a transaction."""

    dialect = POSTGRES

    def __init__(self, conn: asyncpg.Connection[asyncpg.Record]) -> None:
        self.conn = conn

    async def rows(self, sql: str, *args: Any) -> list[Row]:
        return cast(list[Row], await self.conn.fetch(POSTGRES.sql(sql), *args))

    async def row(self, sql: str, *args: Any) -> Row | None:
        return cast(Row | None, await self.conn.fetchrow(POSTGRES.sql(sql), *args))

    async def value(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(POSTGRES.sql(sql), *args)

    async def run(self, sql: str, *args: Any) -> int:
        status = await self.conn.execute(POSTGRES.sql(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def many(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        rows = list(args)
        if rows:
            await self.conn.executemany(POSTGRES.sql(sql), rows)

    async def lock_chats(self, chats: Sequence[str]) -> None:
        from storage.postgres import CHAT_LOCK_SPACE, LOCK_SPACE, RATINGS_LOCK

        await self.conn.execute(
            "SELECT pg_advisory_xact_lock_shared($1, $2)", LOCK_SPACE, RATINGS_LOCK
        )
        await self.conn.execute(
            "SELECT pg_advisory_xact_lock($1, h) FROM"
            " (SELECT DISTINCT hashtext(c) AS h FROM unnest($2::text[]) AS c) x ORDER BY h",
            CHAT_LOCK_SPACE,
            list(chats),
        )


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


_SAVE_TABLE: Final = (
    "INSERT INTO table_snapshots (table_id, snapshot, saved_at) VALUES (?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot,"
    " saved_at = excluded.saved_at"
)

_CLAIM_COLUMNS: Final = "SELECT platform, owner, heartbeat_at, fence FROM table_claims"


def _claim(row: Row) -> TablesClaim:
    return TablesClaim(str(row[0]), str(row[1]), float(row[2]), int(row[3]))


class SqlStorage(Storage):
    """The operations written once (module doc); a database supplies how they run."""

    @abstractmethod
    async def _query(self, op: Op[T]) -> T:
        """Run a read ``op`` (several statements see one snapshot)."""

    @abstractmethod
    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        """Run ``op`` in one write transaction, whole or not at all; with ``fence``,
        :func:`check_fence` first in the same transaction."""

    # ------------------------------------------------------------ chats and their rules

    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        row = await self._query(
            lambda tx: tx.row(
                "SELECT preset, overrides, changed_by, changed_at FROM chat_rules WHERE chat = ?",
                chat,
            )
        )
        if row is None:
            return None
        preset, overrides, changed_by, changed_at = row
        return ChatRules(chat, str(preset), json.loads(overrides), changed_by, float(changed_at))

    async def set_chat_rules(
        self,
        chat: str,
        preset: str,
        overrides: Mapping[str, object],
        *,
        changed_by: int,
        now: float,
    ) -> ChatRules:
        check_now(now)
        name, clean = canonical_chat_rules(preset, overrides)
        text = to_json(clean)
        await self._transact(
            lambda tx: tx.run(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " preset = excluded.preset, overrides = excluded.overrides,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                chat,
                name,
                text,
                changed_by,
                now,
            )
        )
        return ChatRules(chat, name, json.loads(text), changed_by, float(now))

    async def move_chat(
        self,
        old: str,
        new: str,
        *,
        tables: Mapping[str, dict[str, Any]] | None = None,
        now: float,
    ) -> None:
        check_now(now)
        check_chat_move(old, new)
        snapshots = [(table_id, to_json(s), now) for table_id, s in (tables or {}).items()]

        async def write(tx: Tx) -> None:
            await tx.lock_chats([old, new])
            # the new chat's own rules and language are newer than the old chat's: they stay
            for table, columns in (
                ("chat_rules", "preset, overrides, changed_by, changed_at"),
                ("chat_settings", "language, changed_by, changed_at"),
            ):
                await tx.run(
                    f"INSERT INTO {table} (chat, {columns}) SELECT ?2, {columns} FROM {table}"
                    " WHERE chat = ?1 ON CONFLICT (chat) DO NOTHING",
                    old,
                    new,
                )
                await tx.run(f"DELETE FROM {table} WHERE chat = ?", old)
            for table in ("matches", "match_results", "match_seats"):
                await tx.run(f"UPDATE {table} SET chat = ?2 WHERE chat = ?1", old, new)
            # the new chat's own rows (its period, a season it already played) stay
            for table, same in (
                ("chat_seasons", ""),
                ("season_finals", " AND o.season = {t}.season"),
                ("ratings", " AND o.season = {t}.season AND o.player_id = {t}.player_id"),
            ):
                await tx.run(
                    f"UPDATE {table} SET chat = ?2 WHERE chat = ?1 AND NOT EXISTS"
                    f" (SELECT 1 FROM {table} o WHERE o.chat = ?2{same.format(t=table)})",
                    old,
                    new,
                )
                await tx.run(f"DELETE FROM {table} WHERE chat = ?", old)
            await tx.run(
                "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played,"
                " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
                " SELECT ?2, player_id, matches_played, matches_won, hands_won, dominoes,"
                " trancas_won, capicuas, last_played FROM player_chat_totals WHERE chat = ?1"
                " ON CONFLICT (chat, player_id) DO UPDATE SET"
                " matches_played = t.matches_played + excluded.matches_played,"
                " matches_won = t.matches_won + excluded.matches_won,"
                " hands_won = t.hands_won + excluded.hands_won,"
                " dominoes = t.dominoes + excluded.dominoes,"
                " trancas_won = t.trancas_won + excluded.trancas_won,"
                " capicuas = t.capicuas + excluded.capicuas,"
                f" last_played = {tx.dialect.greatest}(t.last_played, excluded.last_played)",
                old,
                new,
            )
            await tx.run("DELETE FROM player_chat_totals WHERE chat = ?", old)
            await tx.many(_SAVE_TABLE, snapshots)

        await self._transact(write)

    async def get_chat_language(self, chat: str) -> str | None:
        language = await self._query(
            lambda tx: tx.value("SELECT language FROM chat_settings WHERE chat = ?", chat)
        )
        return None if language is None else str(language)

    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        check_chat_language(language)
        await self._transact(
            lambda tx: tx.run(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " language = excluded.language, changed_by = excluded.changed_by,"
                " changed_at = excluded.changed_at",
                chat,
                language,
                changed_by,
                now,
            )
        )

    # ------------------------------------------------------ live tables and their claims

    async def save_table(
        self,
        table_id: str,
        snapshot: dict[str, Any],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        check_now(now)
        text = to_json(snapshot)
        await self._transact(lambda tx: tx.run(_SAVE_TABLE, table_id, text, now), fence)

    async def load_tables(self) -> list[dict[str, Any]]:
        rows = await self._query(
            lambda tx: tx.rows("SELECT snapshot FROM table_snapshots ORDER BY saved_at, table_id")
        )
        return [json.loads(text) for (text,) in rows]

    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        await self._transact(
            lambda tx: tx.run("DELETE FROM table_snapshots WHERE table_id = ?", table_id), fence
        )

    async def open_escrows(self) -> list[OpenEscrow]:
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT e.match_id, e.stake, e.created_at, h.player_id, h.status"
                " FROM escrows e LEFT JOIN escrow_holders h ON h.match_id = e.match_id"
                " WHERE e.state = 'open' ORDER BY e.created_at, e.match_id, h.position"
            )
        )
        found: dict[str, OpenEscrow] = {}
        for match_id, stake, created_at, pid, status in rows:
            escrow = found.get(match_id)
            if escrow is None:
                escrow = found[match_id] = OpenEscrow(
                    str(match_id), int(stake), {}, float(created_at)
                )
            if pid is not None:
                escrow.holders[int(pid)] = str(status)
        return list(found.values())

    async def tables_claim(self, platform: str) -> TablesClaim | None:
        row = await self._query(
            lambda tx: tx.row(_CLAIM_COLUMNS + " WHERE platform = ? AND owner <> ''", platform)
        )
        return None if row is None else _claim(row)

    async def tables_claims(self) -> list[TablesClaim]:
        rows = await self._query(
            lambda tx: tx.rows(
                _CLAIM_COLUMNS + " WHERE owner <> '' ORDER BY platform" + tx.dialect.bytewise
            )
        )
        return [_claim(row) for row in rows]

    async def claim_tables(
        self, platform: str, owner: str, *, now: float, replacing: str | None
    ) -> int | None:
        check_now(now)

        async def write(tx: Tx) -> int | None:
            row = await tx.row(
                "SELECT owner, fence FROM table_claims WHERE platform = ?" + tx.dialect.for_update,
                platform,
            )
            current = None if row is None or not row[0] else str(row[0])
            if current not in (replacing, owner):
                return None
            if row is not None:
                fence = int(row[1]) + (current != owner)
                await tx.run(
                    "UPDATE table_claims SET owner = ?2, heartbeat_at = ?3, fence = ?4"
                    " WHERE platform = ?1",
                    platform,
                    owner,
                    now,
                    fence,
                )
                return fence
            added = await tx.run(
                "INSERT INTO table_claims (platform, owner, heartbeat_at, fence)"
                " VALUES (?, ?, ?, 1) ON CONFLICT (platform) DO NOTHING",
                platform,
                owner,
                now,
            )
            if not added:
                raise TryAgain  # another process claimed it meanwhile: compare again
            return 1

        return await self._transact(write)

    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        check_now(now)
        changed = await self._transact(
            lambda tx: tx.run(
                "UPDATE table_claims SET heartbeat_at = ? WHERE platform = ? AND owner = ?",
                now,
                platform,
                owner,
            )
        )
        return changed > 0

    async def release_tables(self, platform: str, owner: str) -> None:
        await self._transact(
            lambda tx: tx.run(
                "UPDATE table_claims SET owner = '', heartbeat_at = 0"
                " WHERE platform = ? AND owner = ?",
                platform,
                owner,
            )
        )
