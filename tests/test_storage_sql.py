"""The SQL written once (storage/sql.py): what the dialects name, and how an operation
runs on SQLite. The operations themselves are the contract suite's
(tests/test_storage_base.py, on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage.base import Fence, FencedOut
from storage.common import plan_opening
from storage.postgres import _insert_shape
from storage.sql import POSTGRES, SQLITE, SqliteTx, Tx, check_fence, drive
from storage.sqlite import SqliteStorage


def test_postgres_numbers_the_parameters_in_order() -> None:
    assert (
        POSTGRES.sql("SELECT 1 FROM t WHERE a = ? AND b = ?")
        == "SELECT 1 FROM t WHERE a = $1 AND b = $2"
    )


def test_postgres_keeps_the_numbers_of_numbered_parameters() -> None:
    assert POSTGRES.sql("UPDATE t SET c = ?2 WHERE c = ?1") == "UPDATE t SET c = $2 WHERE c = $1"


def test_a_question_mark_inside_a_string_literal_is_left_alone() -> None:
    assert (
        POSTGRES.sql("SELECT 'why?', 'it''s?' FROM t WHERE a = ?")
        == "SELECT 'why?', 'it''s?' FROM t WHERE a = $1"
    )


def test_sqlite_keeps_the_sql_as_written() -> None:
    text = "SELECT 1 FROM t WHERE a = ?1 AND b = ?2"
    assert SQLITE.sql(text) is text


def test_row_locks_are_postgres_only() -> None:
    assert (POSTGRES.lock_of("a"), SQLITE.lock_of("a")) == (" FOR UPDATE OF a", "")
    assert (POSTGRES.for_share, SQLITE.for_share) == (" FOR SHARE", "")


def test_drive_returns_what_an_operation_that_never_suspends_returns() -> None:
    db = sqlite3.connect(":memory:")

    async def op(tx: Tx) -> int:
        await tx.run("CREATE TABLE t (a INTEGER)")
        await tx.many("INSERT INTO t (a) VALUES (?)", [(1,), (2,), (3,)])
        return int(await tx.value("SELECT SUM(a) FROM t"))

    assert drive(op(SqliteTx(db))) == 6


def test_drive_refuses_an_operation_that_awaits_something_else() -> None:
    async def op() -> None:
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="awaited something other than its connection"):
        drive(op())


def test_a_sqlite_post_that_names_a_missing_account_is_refused() -> None:
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE TABLE transactions (id INTEGER PRIMARY KEY, key, kind, match_id, created_at)"
    )
    db.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, key)")
    db.execute("CREATE TABLE entries (transaction_id, account_id, amount)")
    db.execute("INSERT INTO accounts (key) VALUES ('house')")
    with pytest.raises(AssertionError, match="names a missing account"):
        drive(SqliteTx(db).post(plan_opening(7), 0.0))


async def test_a_stale_fence_is_refused_and_the_current_one_passes(tmp_path: Path) -> None:
    store = await SqliteStorage.open(tmp_path / "domino.db")
    try:
        first = await store.claim_tables("telegram", "a", now=0.0, replacing=None)
        second = await store.claim_tables("telegram", "b", now=1.0, replacing="a")
        assert (first, second) == (1, 2)
        stale = Fence("telegram", "a", 1)
        with pytest.raises(FencedOut):
            await store._query(lambda tx: check_fence(tx, stale))
        await store._query(lambda tx: check_fence(tx, Fence("telegram", "b", 2)))
    finally:
        await store.close()


def test_a_batch_insert_becomes_one_unnest_statement_on_postgresql() -> None:
    shape = _insert_shape(
        "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played, last_played)"
        " VALUES (?, ?, 1, ?) ON CONFLICT (chat, player_id) DO UPDATE SET"
        " matches_played = t.matches_played + excluded.matches_played"
    )
    assert shape is not None
    types = {"chat": "text", "player_id": "bigint", "last_played": "double precision"}
    assert shape.unnest(types) == (
        "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played, last_played)"
        " SELECT u.c1, u.c2, 1, u.c3 FROM unnest($1::text[], $2::bigint[],"
        " $3::double precision[]) WITH ORDINALITY AS u (c1, c2, c3, n) ORDER BY u.n"
        " ON CONFLICT (chat, player_id) DO UPDATE SET"
        " matches_played = t.matches_played + excluded.matches_played"
    )
    assert shape.conflict == ("chat", "player_id")


def test_a_statement_that_is_not_a_plain_insert_runs_row_by_row_on_postgresql() -> None:
    assert _insert_shape("UPDATE escrow_holders SET status = ? WHERE match_id = ?") is None
    assert _insert_shape("INSERT INTO t (a, b) VALUES (?1, ?2)") is None
    assert _insert_shape("INSERT INTO t (a, b) VALUES (?, lower(?))") is None
