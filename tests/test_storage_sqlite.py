"""The SQLite storage (storage/sqlite.py): its file, its constraints and crash safety.

Behaviour shared with the memory storage is tested in tests/test_storage_base.py; here is
what only a database has: WAL and foreign keys, CHECK constraints and triggers that guard
the ledger even against code that bypasses the storage, rollback of a failed operation,
persistence across reopening, online backup, and a writer process killed (SIGKILL) at
random points.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import open_storage
from storage.base import OPENING_BALANCE, PlayerResult, StorageError
from storage.sql import SqliteTx
from storage.sqlite import SqliteStorage

WORKER = Path(__file__).with_name("storage_crash_worker.py")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    storage = await SqliteStorage.open(tmp_path / "domino.db")
    yield storage
    await storage.close()


async def pragma(store: SqliteStorage, name: str) -> Any:
    return await store._run(lambda db: db.execute(f"PRAGMA {name}").fetchone()[0])


async def test_the_database_runs_in_wal_mode_with_foreign_keys_on(store: SqliteStorage) -> None:
    assert await pragma(store, "journal_mode") == "wal"
    assert await pragma(store, "foreign_keys") == 1
    assert await pragma(store, "synchronous") == 1  # NORMAL


async def test_everything_is_still_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "domino.db"
    store = await SqliteStorage.open(path)
    a = await store.ensure_player("telegram", "1", "Ana", now=0.0)
    b = await store.ensure_player("telegram", "2", "Bea", now=0.0)
    await store.stake("m1", [a.id, b.id], 10, now=1.0)
    await store.settle("m1", [a.id], now=2.0)
    await store.record_match(
        "m1", "telegram:-1", {"hands": []}, [PlayerResult(a.id, 0, True)], now=2.0
    )
    await store.save_table("t1", {"table_id": "t1"}, now=3.0)
    await store.set_chat_rules("telegram:-1", "dominicano", {}, changed_by=a.id, now=4.0)
    await store.close()
    await store.close()  # closing twice is fine

    again = await SqliteStorage.open(path)
    assert again.applied_migrations == []
    assert await again.find_player("telegram", "1") == a
    assert [await again.balance(a.id), await again.balance(b.id)] == [1010, 990]
    assert [m.match_id for m in await again.match_records(player_id=a.id)] == ["m1"]
    assert await again.load_tables() == [{"table_id": "t1"}]
    assert (await again.get_chat_rules("telegram:-1")).preset == "dominicano"  # type: ignore[union-attr]
    assert await again.settle("m1", [b.id], now=5.0) == {a.id: 20}
    assert await again.check_ledger() == []
    await again.close()


async def test_a_closed_storage_refuses_to_work(tmp_path: Path) -> None:
    store = await SqliteStorage.open(tmp_path / "domino.db")
    await store.close()
    with pytest.raises(StorageError, match="closed"):
        await store.balance(1)


async def test_open_storage_opens_sqlite_at_the_given_path(tmp_path: Path) -> None:
    store = await open_storage(tmp_path / "sub" / "x.db")
    assert isinstance(store, SqliteStorage)
    assert (tmp_path / "sub" / "x.db").exists()
    await store.close()
    memory = await open_storage(":memory:")
    assert (await memory.ensure_player("terminal", "local", "Tú", now=0.0)).id == 1
    await memory.close()


async def test_a_failure_inside_an_operation_rolls_all_of_it_back(
    store: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    b = (await store.ensure_player("telegram", "2", "Bea", now=0.0)).id
    await store.stake("m1", [a, b], 10, now=1.0)

    post = SqliteTx.post

    async def post_then_explode(self: SqliteTx, *args: Any, **kwargs: Any) -> None:
        await post(self, *args, **kwargs)
        raise RuntimeError("disk on fire")

    # The payouts and the closed escrow are written, then the operation fails: the
    # failure undoes them.
    monkeypatch.setattr(SqliteTx, "post", post_then_explode)
    with pytest.raises(RuntimeError):
        await store.settle("m1", [a], now=2.0)
    assert [await store.balance(a), await store.balance(b)] == [990, 990]
    assert await store.check_ledger() == []
    monkeypatch.undo()
    assert await store.settle("m1", [a], now=3.0) == {a: 20}
    assert await store.check_ledger() == []


async def test_a_finish_failing_after_its_payouts_are_written_rolls_them_back(
    store: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    b = (await store.ensure_player("telegram", "2", "Bea", now=0.0)).id
    await store.stake("m1", [a, b], 10, now=1.0)
    results = [PlayerResult(a, 0, True), PlayerResult(b, 1, False)]

    post = SqliteTx.post

    async def post_then_explode(self: SqliteTx, *args: Any, **kwargs: Any) -> None:
        await post(self, *args, **kwargs)
        raise RuntimeError("disk on fire")

    # The record is written first, then the payouts, then the operation fails: one
    # transaction undone, the record with the money.
    monkeypatch.setattr(SqliteTx, "post", post_then_explode)
    with pytest.raises(RuntimeError):
        await store.finish_match("m1", "c:1", winners=[a], record={}, results=results, now=2.0)
    assert [await store.balance(a), await store.balance(b)] == [990, 990]
    assert await store.match_records() == []
    assert await store._run(
        lambda db: db.execute("SELECT state FROM escrows WHERE match_id = 'm1'").fetchall()
    ) == [("open",)]
    assert await store.check_ledger() == []
    monkeypatch.undo()
    settlement = await store.finish_match(
        "m1", "c:1", winners=[a], record={}, results=results, now=3.0
    )
    assert (settlement.payouts, settlement.already_finished) == ({a: 20}, False)
    assert await store.check_ledger() == []


async def test_the_schema_refuses_a_negative_player_balance(store: SqliteStorage) -> None:
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id

    def overdraw(db: sqlite3.Connection) -> None:
        tx = db.execute(
            "INSERT INTO transactions (key, kind, created_at) VALUES ('evil', 'payout', 0)"
        ).lastrowid
        db.execute(
            "INSERT INTO entries (transaction_id, account_id, amount)"
            " SELECT ?, id, ? FROM accounts WHERE key = ?",
            (tx, -OPENING_BALANCE - 1, f"player:{a}"),
        )

    with pytest.raises(sqlite3.IntegrityError):
        await store._write(overdraw)
    assert await store.balance(a) == OPENING_BALANCE
    assert await store.check_ledger() == []


async def test_ledger_entries_can_be_neither_changed_nor_deleted(store: SqliteStorage) -> None:
    await store.ensure_player("telegram", "1", "Ana", now=0.0)
    for sql in ("UPDATE entries SET amount = 5", "DELETE FROM entries"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store._write(lambda db, sql=sql: db.execute(sql))
    assert await store.check_ledger() == []


async def test_an_idempotency_key_cannot_be_written_twice(store: SqliteStorage) -> None:
    await store.ensure_player("telegram", "1", "Ana", now=0.0)
    with pytest.raises(sqlite3.IntegrityError):
        await store._write(
            lambda db: db.execute(
                "INSERT INTO transactions (key, kind, created_at) VALUES ('open:1', 'open', 0)"
            )
        )


async def test_check_ledger_reports_a_balance_that_disagrees_with_its_entries(
    store: SqliteStorage,
) -> None:
    await store.ensure_player("telegram", "1", "Ana", now=0.0)
    await store._write(
        lambda db: db.execute("UPDATE accounts SET balance = 5 WHERE key = 'player:1'")
    )
    problems = await store.check_ledger()
    assert any("player:1 balance 5 != entries 1000" in p for p in problems)


async def test_check_ledger_reports_statistics_that_disagree_with_the_results(
    store: SqliteStorage,
) -> None:
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    await store.record_match("m1", "c:1", {}, [PlayerResult(a, 0, True)], now=1.0)
    assert await store.check_ledger() == []
    await store._write(lambda db: db.execute("UPDATE player_chat_totals SET matches_won = 0"))
    assert await store.check_ledger() == [
        f"statistics totals that disagree with the match results: c:1/{a}"
    ]


async def _names(store: SqliteStorage) -> list[str]:
    return [
        str(r[0])
        for r in await store._run(
            lambda db: db.execute("SELECT display_name FROM players ORDER BY id").fetchall()
        )
    ]


async def test_writes_queued_together_share_one_commit_and_a_failing_one_is_undone_alone(
    store: SqliteStorage,
) -> None:
    statements: list[str] = []
    await store._run(lambda db: db.set_trace_callback(statements.append))

    def insert_then_fail(db: sqlite3.Connection) -> None:
        db.execute("UPDATE players SET display_name = 'Nadie'")
        raise RuntimeError("refused")

    outcomes = await asyncio.gather(
        store.ensure_player("telegram", "1", "Ana", now=0.0),
        store._write(insert_then_fail),
        store.ensure_player("telegram", "2", "Bea", now=0.0),
        return_exceptions=True,
    )
    await store._run(lambda db: db.set_trace_callback(None))

    assert [type(o).__name__ for o in outcomes] == ["Player", "RuntimeError", "Player"]
    assert await _names(store) == ["Ana", "Bea"]
    assert [s for s in statements if s.startswith(("BEGIN", "COMMIT", "ROLLBACK"))] == [
        "BEGIN IMMEDIATE",
        "ROLLBACK TO write",
        "COMMIT",
    ]
    assert await store.check_ledger() == []


async def test_a_read_queued_after_writes_sees_them_and_runs_after_their_commit(
    store: SqliteStorage,
) -> None:
    def names_outside_a_transaction(db: sqlite3.Connection) -> tuple[bool, list[str]]:
        rows = db.execute("SELECT display_name FROM players ORDER BY id").fetchall()
        return db.in_transaction, [str(r[0]) for r in rows]

    ana, read = await asyncio.gather(
        store.ensure_player("telegram", "1", "Ana", now=0.0),
        store._run(names_outside_a_transaction),
    )
    assert (ana.display_name, read) == ("Ana", (False, ["Ana"]))


async def test_a_transaction_sqlite_rolled_back_itself_fails_every_write_it_held(
    store: SqliteStorage,
) -> None:
    def disk_full(db: sqlite3.Connection) -> None:
        db.execute("ROLLBACK")  # as SQLite does itself on SQLITE_FULL
        raise sqlite3.OperationalError("database or disk is full")

    outcomes = await asyncio.gather(
        store.ensure_player("telegram", "1", "Ana", now=0.0),
        store._write(disk_full),
        store.ensure_player("telegram", "2", "Bea", now=0.0),
        return_exceptions=True,
    )
    assert [str(o) for o in outcomes[:2]] == ["database or disk is full"] * 2
    assert type(outcomes[2]).__name__ == "Player"
    assert await _names(store) == ["Bea"]
    assert await store.check_ledger() == []


async def test_closing_waits_for_the_writes_already_queued(tmp_path: Path) -> None:
    store = await SqliteStorage.open(tmp_path / "domino.db")
    queued = asyncio.ensure_future(store.ensure_player("telegram", "1", "Ana", now=0.0))
    await asyncio.sleep(0)  # queued, not yet run
    await store.close()
    assert (await queued).display_name == "Ana"
    reopened = await SqliteStorage.open(tmp_path / "domino.db")
    assert await _names(reopened) == ["Ana"]
    await reopened.close()


async def test_a_backup_taken_while_open_is_a_whole_database(
    store: SqliteStorage, tmp_path: Path
) -> None:
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    await store.stake("m1", [a], 10, now=1.0)
    await store.backup(tmp_path / "copy.db")
    copy = await SqliteStorage.open(tmp_path / "copy.db")
    assert await copy.balance(a) == 990
    assert await copy.refund("m1", now=2.0) == {a: 10}
    assert await copy.check_ledger() == []
    await copy.close()
    assert await store.balance(a) == 990


# ---------------------------------------------------------------- crash test


async def _run_worker(db: Path, seed: int, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Start a writer, let it finish some operations, SIGKILL it; returns its log."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        str(db),
        str(seed),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        # This checkout's packages, not an installed copy found first on sys.path.
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        },
    )
    assert proc.stdout is not None and proc.stderr is not None
    log: list[tuple[str, dict[str, Any]]] = []
    first = await proc.stdout.readline()  # the writer is up and running
    if not first:
        raise AssertionError((await proc.stderr.read()).decode())
    tag, _, payload = first.decode().partition(" ")
    log.append((tag, json.loads(payload)))
    # Kill at a random instant: the writer spends most of its time inside transactions
    # (its log is read meanwhile, so that it never waits on a full pipe).
    reader = asyncio.create_task(proc.stdout.read())
    await asyncio.sleep(rng.uniform(0.02, 0.3))
    proc.kill()
    await proc.wait()
    *lines, _partial = (await reader).decode().split("\n")
    for line in lines:
        tag, _, payload = line.partition(" ")
        log.append((tag, json.loads(payload)))
    assert proc.returncode == -9
    return log


async def _check_after_crash(db: Path, log: list[tuple[str, dict[str, Any]]]) -> None:
    store = await SqliteStorage.open(db)
    try:
        assert await store.check_ledger() == []

        async def rows(sql: str, *args: object) -> list[Any]:
            return await store._run(lambda c: c.execute(sql, args).fetchall())

        # A recorded match has all its results (as many as its record says) or is absent.
        assert (
            await rows(
                "SELECT match_id FROM matches m WHERE json_extract(m.record, '$.results') <>"
                " (SELECT COUNT(*) FROM match_results r WHERE r.match_id = m.match_id)"
            )
            == []
        )
        tables = {t["table_id"]: t for t in await store.load_tables()}
        last_table_op: dict[str, dict[str, Any]] = {}
        in_flight = [op for tag, op in log if tag == "BEGIN"][-1:]
        for tag, op in log:
            if tag != "DONE":
                continue
            kind = op["kind"]
            if kind == "player":
                assert await store.find_player("crash", op["user"]) is not None
            elif kind == "stake" and not op.get("refused"):
                assert await rows("SELECT 1 FROM escrows WHERE match_id = ?", op["match"])
            elif kind in ("settle", "refund"):
                state = "settled" if kind == "settle" else "refunded"
                assert await rows(
                    "SELECT 1 FROM escrows WHERE match_id = ? AND state = ?", op["match"], state
                )
            elif kind == "forfeit" and "player" in op:
                assert await rows(
                    "SELECT 1 FROM escrow_holders WHERE match_id = ? AND player_id = ?"
                    " AND status = 'forfeited'",
                    op["match"],
                    op["player"],
                )
            elif kind == "finish":
                assert await rows(
                    "SELECT 1 FROM escrows WHERE match_id = ? AND state = 'settled'", op["match"]
                )
                [(count,)] = await rows(
                    "SELECT COUNT(*) FROM match_results WHERE match_id = ?", op["match"]
                )
                assert count == op["results"]
            elif kind == "record":
                [(count,)] = await rows(
                    "SELECT COUNT(*) FROM match_results WHERE match_id = ?", op["match"]
                )
                assert count == op["results"]
            elif kind in ("save_table", "delete_table"):
                last_table_op[op["table"]] = op
        for op in in_flight:
            if op["kind"] == "finish":
                # Killed inside finish_match: settled and recorded, or neither.
                settled = await rows(
                    "SELECT 1 FROM escrows WHERE match_id = ? AND state = 'settled'", op["match"]
                )
                recorded = await rows("SELECT 1 FROM matches WHERE match_id = ?", op["match"])
                assert bool(settled) == bool(recorded)
        touched = {op.get("table") for op in in_flight}
        for table, op in last_table_op.items():
            if table in touched:
                continue
            if op["kind"] == "save_table":
                assert tables[table] == {"table_id": table, "n": op["n"]}
            else:
                assert table not in tables
    finally:
        await store.close()


async def test_a_writer_killed_at_random_points_leaves_every_operation_whole(
    tmp_path: Path,
) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(2026)
    finished = 0
    for seed in range(10):
        log = await _run_worker(db, seed, rng)
        finished += sum(tag == "DONE" for tag, _ in log)
        await _check_after_crash(db, log)
    assert finished >= 100
