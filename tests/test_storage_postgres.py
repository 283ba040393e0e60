"""The PostgreSQL storage (storage/postgres.py): what only a shared database server has.

Behaviour shared with SQLite is tested in tests/test_storage_base.py (the contract suite,
random scripts included); here: several processes opening and writing one database at
once (the ledger stays whole, every dollar accounted for, ratings as a replay computes
them), the guards the schema itself puts on the ledger, migrations, and ``open_storage``
choosing PostgreSQL for a URL. The server comes from tests/postgres_server.py (skipped
with the reason when none can be had; a failure in CI).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import storage
from storage.base import OPENING_BALANCE, PlayerResult, SchemaError
from storage.migrations import Migration
from storage.postgres import PostgresStorage, pending_migrations, redact_dsn
from storage.postgres_migrations import POSTGRES_MIGRATIONS
from storage.seasons import UPSERT_RATING
from storage.sql import Tx
from tests import postgres_server as helper
from tests.postgres_server import PostgresServer
from tests.postgres_worker import PLAYERS, STAKE, shared_match

WORKER = Path(__file__).with_name("postgres_worker.py")
ROOT = Path(__file__).resolve().parents[1]

WORKERS = 4
MATCHES = 200


@pytest.fixture
async def bare_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A new database with no tables at all (nothing migrated yet)."""
    dsn = await postgres_server.create_database(migrated=False)
    yield dsn
    await postgres_server.drop_database(dsn)


async def run_worker(dsn: str, worker: int, matches: int) -> dict[str, Any]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        dsn,
        str(worker),
        str(matches),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()[-3000:]
    result: dict[str, Any] = json.loads(out)
    return result


async def test_four_processes_writing_at_once_lose_and_create_no_dollar(bare_dsn: str) -> None:
    # Four processes open the unmigrated database at once (the migrations run once,
    # under the advisory lock), create the same players at once, then each stakes and
    # settles 200 matches among them, one in five shared by all (staked and finished by
    # every process at once: paid once).
    outcomes = await asyncio.gather(*(run_worker(bare_dsn, w, MATCHES) for w in range(WORKERS)))
    players = outcomes[0]["players"]
    assert all(o["players"] == players for o in outcomes)
    expected = dict.fromkeys(players, OPENING_BALANCE)
    for outcome in outcomes:
        for pid, change in outcome["delta"].items():
            expected[int(pid)] += change
    shared = sorted({m for o in outcomes for m in o["shared"]})
    for n in range(len(shared)):
        match_id, seats, team, _ = shared_match(n, players)
        assert sum(o["shared"][match_id] for o in outcomes) == 1, match_id  # paid once
        for seat, pid in enumerate(seats):
            if pid:
                expected[pid] += 2 * STAKE - STAKE if seat % 2 == team else -STAKE

    store = await PostgresStorage.open(bare_dsn)
    try:
        assert store.applied_migrations == []
        assert await store.check_ledger() == []
        assert {pid: await store.balance(pid) for pid in players} == expected
        assert await store.open_escrows() == []
        # the house holds exactly what the players lost: no dollar lost or created
        conn = await asyncpg.connect(bare_dsn)
        try:
            assert await conn.fetchval("SELECT SUM(balance) FROM accounts") == 0
            house = await conn.fetchval("SELECT balance FROM accounts WHERE kind = 'house'")
            assert house == -sum(expected.values())
            assert await conn.fetchval("SELECT COUNT(*) FROM players") == PLAYERS
            assert await conn.fetchval("SELECT COUNT(*) FROM schema_migrations") == len(
                POSTGRES_MIGRATIONS
            )
        finally:
            await conn.close()
        # the ratings moved in the order the matches were stored, as a replay gives them
        report = await store.rebuild_ratings(write=False)
        assert report.differences == ()
        assert report.matches == WORKERS * (MATCHES - MATCHES // 5) * 3 // 4 + len(shared)
    finally:
        await store.close()


async def test_the_schema_guards_the_ledger_against_direct_writes(postgres_dsn: str) -> None:
    store = await PostgresStorage.open(postgres_dsn)
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    await store.close()
    conn = await asyncpg.connect(postgres_dsn)
    try:
        for sql in (
            "UPDATE accounts SET balance = balance + 5 WHERE kind = 'player'",
            "UPDATE entries SET amount = amount + 1",
            "DELETE FROM entries",
            "TRUNCATE entries CASCADE",
            "DELETE FROM transactions",
            f"INSERT INTO accounts (key, kind, player_id) VALUES ('player:{a + 1}', 'player', {a})",
        ):
            with pytest.raises(asyncpg.PostgresError):
                await conn.execute(sql)
        # an unbalanced transaction is refused when it commits
        with pytest.raises(asyncpg.PostgresError, match="sums to"):
            async with conn.transaction():
                tx = await conn.fetchval(
                    "INSERT INTO transactions (key, kind, created_at)"
                    " VALUES ('gift', 'top_up', 0) RETURNING id"
                )
                await conn.execute(
                    "INSERT INTO entries (transaction_id, account_id, amount)"
                    " SELECT $1, id, 5 FROM accounts WHERE key = $2",
                    tx,
                    f"player:{a}",
                )
        # a balance cannot go below zero, even through an entry
        with pytest.raises(asyncpg.CheckViolationError):
            async with conn.transaction():
                tx = await conn.fetchval(
                    "INSERT INTO transactions (key, kind, created_at)"
                    " VALUES ('drain', 'stake', 0) RETURNING id"
                )
                await conn.execute(
                    "INSERT INTO entries (transaction_id, account_id, amount)"
                    " SELECT $1, id, CASE kind WHEN 'house' THEN 2000 ELSE -2000 END"
                    " FROM accounts WHERE key IN ('house', $2)",
                    tx,
                    f"player:{a}",
                )
    finally:
        await conn.close()
    store = await PostgresStorage.open(postgres_dsn)
    try:
        assert await store.balance(a) == OPENING_BALANCE
        assert await store.check_ledger() == []
    finally:
        await store.close()


async def test_the_ledger_check_reports_a_disabled_trigger(postgres_dsn: str) -> None:
    store = await PostgresStorage.open(postgres_dsn)
    try:
        await store.ensure_player("telegram", "1", "Ana", now=0.0)
        conn = await asyncpg.connect(postgres_dsn)
        try:
            await conn.execute("ALTER TABLE entries DISABLE TRIGGER entries_post")
        finally:
            await conn.close()
        problems = await store.check_ledger()
        assert "ledger trigger disabled: entries.entries_post" in problems
    finally:
        await store.close()


async def test_the_ledger_check_reports_history_rows_naming_no_player_or_match(
    postgres_dsn: str,
) -> None:
    # migration 0006 dropped these foreign keys; the check reports what they refused
    store = await PostgresStorage.open(postgres_dsn)
    try:
        a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
        conn = await asyncpg.connect(postgres_dsn)
        try:
            await conn.execute(
                "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins,"
                " updated_at) VALUES ('*', 'all', $1, 25, 8, 1, 0, 0)",
                a + 1000,
            )
            await conn.execute(
                "INSERT INTO match_seasons (match_id, chat_season, global_season, rated)"
                " VALUES ('m-gone', 'all', 'all', 0)"
            )
        finally:
            await conn.close()
        problems = await store.check_ledger()
        assert problems == [
            "foreign key broken: match_seasons.match_id = 'm-gone'",
            f"foreign key broken: ratings.player_id = {a + 1000}",
        ]
    finally:
        await store.close()


async def test_one_statement_posting_two_transactions_moves_each_balance_once(
    postgres_dsn: str,
) -> None:
    # the ledger's statement-level trigger (migration 0005) sums each account's entries
    store = await PostgresStorage.open(postgres_dsn)
    try:
        a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
        conn = await asyncpg.connect(postgres_dsn)
        try:
            await conn.execute(
                "WITH t AS (INSERT INTO transactions (key, kind, created_at)"
                " VALUES ('gift-1', 'top_up', 0), ('gift-2', 'top_up', 0) RETURNING id)"
                " INSERT INTO entries (transaction_id, account_id, amount)"
                " SELECT t.id, a.id, CASE a.kind WHEN 'house' THEN -7 ELSE 7 END"
                " FROM t CROSS JOIN accounts a WHERE a.key IN ('house', $1)",
                f"player:{a}",
            )
        finally:
            await conn.close()
        assert await store.balance(a) == OPENING_BALANCE + 14
        assert await store.check_ledger() == []
    finally:
        await store.close()


async def test_migrations_run_once_and_a_newer_database_is_refused(bare_dsn: str) -> None:
    first = await PostgresStorage.open(bare_dsn)
    assert first.applied_migrations == [m.name for m in POSTGRES_MIGRATIONS]
    await first.close()
    again = await PostgresStorage.open(bare_dsn)
    assert again.applied_migrations == []
    await again.close()
    newer = (*POSTGRES_MIGRATIONS, Migration("9999_future", ("CREATE TABLE future (x INT)",)))
    store = await PostgresStorage.open(bare_dsn, migrations=newer)
    assert store.applied_migrations == ["9999_future"]
    await store.close()
    with pytest.raises(SchemaError, match="9999_future"):
        await PostgresStorage.open(bare_dsn)
    changed = (
        Migration(POSTGRES_MIGRATIONS[0].name, ("SELECT 1",)),
        *POSTGRES_MIGRATIONS[1:],
        newer[-1],
    )
    with pytest.raises(SchemaError, match="changed"):
        await PostgresStorage.open(bare_dsn, migrations=changed)


async def test_the_pending_migrations_are_found_without_writing(bare_dsn: str) -> None:
    names = [m.name for m in POSTGRES_MIGRATIONS]
    assert await pending_migrations(bare_dsn) == names
    conn = await asyncpg.connect(bare_dsn)
    try:
        assert await conn.fetchval("SELECT to_regclass('schema_migrations')") is None
        await (await PostgresStorage.open(bare_dsn, migrations=POSTGRES_MIGRATIONS[:1])).close()
        assert await pending_migrations(bare_dsn) == names[1:]
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == 1
        await (await PostgresStorage.open(bare_dsn)).close()
        assert await pending_migrations(bare_dsn) == []
    finally:
        await conn.close()
    future = Migration("9999_future", ("CREATE TABLE future (x INT)",))
    await (await PostgresStorage.open(bare_dsn, migrations=(*POSTGRES_MIGRATIONS, future))).close()
    with pytest.raises(SchemaError, match="9999_future"):
        await pending_migrations(bare_dsn)


async def test_a_failed_migration_leaves_nothing_behind(bare_dsn: str) -> None:
    broken = (*POSTGRES_MIGRATIONS, Migration("0099_broken", ("CREATE TABLE x (", "")))
    with pytest.raises(asyncpg.PostgresError):
        await PostgresStorage.open(bare_dsn, migrations=broken)
    conn = await asyncpg.connect(bare_dsn)
    try:
        assert await conn.fetchval("SELECT to_regclass('players')") is None
    finally:
        await conn.close()


async def test_open_storage_opens_postgresql_for_a_url(
    postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOMINO_DB", postgres_dsn)
    opened = await storage.open_storage()
    try:
        assert isinstance(opened, PostgresStorage)
        player = await opened.ensure_player("discord", "7", "Eva", now=0.0)
        assert await opened.balance(player.id) == OPENING_BALANCE
    finally:
        await opened.close()
    assert storage.is_postgres_url("postgres://u@h/db")
    assert not storage.is_postgres_url("domino.db")
    assert not storage.is_postgres_url(Path("postgresql://x"))


def test_passwords_are_hidden_when_a_dsn_is_shown() -> None:
    assert redact_dsn("postgresql://bot:s3cret@db:5432/domino") == (
        "postgresql://bot:***@db:5432/domino"
    )
    assert redact_dsn("postgresql://bot@db/domino") == "postgresql://bot@db/domino"


async def test_a_cancelled_caller_does_not_cut_an_operation_short(postgres_dsn: str) -> None:
    store = await PostgresStorage.open(postgres_dsn)
    try:
        a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
        b = (await store.ensure_player("telegram", "2", "Bea", now=0.0)).id
        await store.stake("m1", [a, b], 10, now=1.0)
        call = asyncio.ensure_future(
            store.finish_match(
                "m1",
                "telegram:-1",
                winners=[a],
                record={},
                results=[PlayerResult(a, 0, True), PlayerResult(b, 1, False)],
                now=2.0,
            )
        )
        await asyncio.sleep(0)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        settlement = await store.finish_match(
            "m1",
            "telegram:-1",
            winners=[a],
            record={},
            results=[PlayerResult(a, 0, True), PlayerResult(b, 1, False)],
            now=3.0,
        )
        assert settlement.payouts == {a: 20}
        assert [await store.balance(p) for p in (a, b)] == [1010, 990]
        assert await store.check_ledger() == []
    finally:
        await store.close()


def test_without_server_binaries_the_reason_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the postgres_server fixture skips with (or fails with in CI, where
    # DOMINO_REQUIRE_POSTGRES=1 is set by .ci/run).
    monkeypatch.delenv(helper.DSN_ENV, raising=False)
    monkeypatch.setattr("glob.glob", lambda pattern: [])
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(helper.PostgresUnavailable, match="apt-get install postgresql"):
        helper.start_server()
    monkeypatch.setenv(helper.REQUIRE_ENV, "1")
    assert helper.require_postgres()
    monkeypatch.setenv(helper.REQUIRE_ENV, "0")
    assert not helper.require_postgres()


async def test_a_transaction_its_process_left_idle_is_ended_by_the_server_after_10_s(
    postgres_dsn: str,
) -> None:
    """A frozen process (SIGSTOP, a partition) mid-write must not hold the lease's row
    lock, nor a wallet's, for ever: a standby's takeover waits at most that long."""
    store = await PostgresStorage.open(postgres_dsn)
    try:
        setting = await store._read(
            lambda conn: conn.fetchval("SHOW idle_in_transaction_session_timeout")
        )
        assert setting == "10s"
    finally:
        await store.close()


async def test_a_notice_published_by_one_process_reaches_the_others_on_the_database(
    postgres_dsn: str,
) -> None:
    one = await PostgresStorage.open(postgres_dsn)
    two = await PostgresStorage.open(postgres_dsn)
    try:
        heard: asyncio.Queue[str] = asyncio.Queue()
        await two.subscribe("domino_presses", heard.put_nowait)
        await one.publish("domino_presses", "ñandú: 6-6")
        assert await asyncio.wait_for(heard.get(), 5) == "ñandú: 6-6"
    finally:
        await one.close()
        await two.close()


async def test_rows_written_together_are_all_stored_and_a_repeated_conflict_key_keeps_the_last(
    postgres_dsn: str,
) -> None:
    store = await PostgresStorage.open(postgres_dsn)
    try:
        a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
        b = (await store.ensure_player("telegram", "2", "Bea", now=0.0)).id
        rows = [
            ("*", "*", a, 25.0, 8.0, 1, 1, 1.0, ""),
            ("*", "*", b, 24.5, 7.5, 1, 0, 1.0, ""),
        ]
        repeated = [
            ("c:1", "*", a, 20.0, 8.0, 1, 0, 2.0, ""),
            ("c:1", "*", a, 21.0, 7.0, 2, 1, 3.0, ""),
        ]

        async def write(tx: Tx) -> None:
            await tx.many(UPSERT_RATING, rows)
            await tx.many(UPSERT_RATING, repeated)

        await store._transact(write)
        stored = await store._query(
            lambda tx: tx.rows(
                "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at, format"
                " FROM ratings ORDER BY chat, player_id"
            )
        )
    finally:
        await store.close()
    assert [tuple(r) for r in stored] == [rows[0], rows[1], repeated[1]]


async def test_held_writes_are_seen_by_the_next_read_and_committed_with_the_operation(
    postgres_dsn: str,
) -> None:
    store = await PostgresStorage.open(postgres_dsn)
    insert = "INSERT INTO chat_seasons (chat, period, changed_at) VALUES (?, ?, 0)"
    try:

        async def write_then_read(tx: Tx) -> Any:
            await tx.write(insert, "c:1", "weekly")
            await tx.many(insert, [("c:2", "monthly"), ("c:3", "quarterly")])
            return await tx.value("SELECT COUNT(*) FROM chat_seasons")

        async def write_only(tx: Tx) -> None:
            await tx.many(insert, [("c:4", "weekly")])
            await tx.write(insert, "c:5", "monthly")

        async def write_a_bad_row(tx: Tx) -> None:
            await tx.write(insert, "c:6", "weekly")
            await tx.write(insert, "c:7", "yearly")  # refused by the period's CHECK

        seen = await store._transact(write_then_read)
        await store._transact(write_only)
        with pytest.raises(asyncpg.CheckViolationError):
            await store._transact(write_a_bad_row)
        stored = await store._query(
            lambda tx: tx.rows("SELECT chat, period FROM chat_seasons ORDER BY chat")
        )
    finally:
        await store.close()
    assert seen == 3
    assert [tuple(r) for r in stored] == [
        ("c:1", "weekly"),
        ("c:2", "monthly"),
        ("c:3", "quarterly"),
        ("c:4", "weekly"),
        ("c:5", "monthly"),
    ]
