"""Copy a SQLite database into an empty PostgreSQL database (``domino migrate --to``).

Everything is copied as it is, ids included: players and their platform links, the
ledger (accounts, transactions and entries: each balance is rebuilt by the entries'
trigger, entry by entry in the original order, so the copy's balances are the ledger's
own sums), escrows and their holders, finished matches, results, statistics totals,
chat rules, settings and season lengths, table snapshots and claims, seats, seasons,
ratings and rating history (the floats exactly), tournaments and their places, friends,
friend requests and last seen. The copy
is one PostgreSQL transaction: it is whole or absent. A target holding any data is
refused.

After the copy the target's ledger is checked (:meth:`storage.base.Storage.check_ledger`),
every account's balance is compared with the source's, and every table's row count.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import asyncpg

from storage import redact_dsn
from storage.base import Storage
from storage.postgres import LOCK_SPACE, PostgresStorage
from storage.sqlite import SqliteStorage

__all__ = ["TABLES", "CopyError", "CopyReport", "copy_sqlite_to_postgres"]

MIGRATE_LOCK: Final = 2
"""Second key of the advisory lock one copy holds (two copies never interleave)."""

TABLES: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    # (table, columns) in the order the foreign keys need; accounts without the house
    (
        "players",
        (
            "id",
            "display_name",
            "language",
            "created_at",
            "last_top_up",
            "notifications",
            "merged_into",
        ),
    ),
    ("player_links", ("platform", "platform_user_id", "player_id", "username")),
    ("accounts", ("id", "key", "kind", "player_id", "match_id")),
    ("transactions", ("id", "key", "kind", "match_id", "created_at")),
    ("entries", ("id", "transaction_id", "account_id", "amount")),
    ("escrows", ("match_id", "account_id", "stake", "state", "created_at", "closed_at")),
    ("escrow_holders", ("match_id", "player_id", "position", "status", "paid")),
    ("matches", ("id", "match_id", "chat", "finished_at", "record")),
    (
        "match_results",
        (
            "match_id",
            "player_id",
            "chat",
            "finished_at",
            "team",
            "won_match",
            "hands_won",
            "dominoes",
            "trancas_won",
            "capicuas",
        ),
    ),
    (
        "player_chat_totals",
        (
            "chat",
            "player_id",
            "matches_played",
            "matches_won",
            "hands_won",
            "dominoes",
            "trancas_won",
            "capicuas",
            "last_played",
        ),
    ),
    ("chat_rules", ("chat", "preset", "overrides", "changed_by", "changed_at")),
    ("chat_settings", ("chat", "language", "changed_by", "changed_at")),
    ("table_snapshots", ("table_id", "snapshot", "saved_at")),
    ("table_claims", ("platform", "owner", "heartbeat_at", "fence")),
    (
        "match_seats",
        (
            "match_id",
            "seat",
            "player_id",
            "robot",
            "won",
            "points",
            "hands",
            "moves",
            "robot_moves",
            "chat",
            "finished_at",
            "side",
        ),
    ),
    ("match_seasons", ("match_id", "chat_season", "global_season", "rated", "format")),
    (
        "ratings",
        (
            "chat",
            "season",
            "player_id",
            "mu",
            "sigma",
            "matches",
            "wins",
            "updated_at",
            "format",
        ),
    ),
    ("rating_history", ("player_id", "seq", "match_id", "at", "mu", "sigma", "format")),
    ("chat_seasons", ("chat", "period", "changed_by", "changed_at")),
    ("season_finals", ("chat", "season", "announced_at")),
    (
        "tournaments",
        (
            "tournament_id",
            "chat",
            "snapshot",
            "state",
            "created_at",
            "saved_at",
            "name",
            "entrants",
            "closed_at",
        ),
    ),
    ("tournament_places", ("tournament_id", "player_id", "place")),
    ("friend_requests", ("from_id", "to_id", "created_at")),
    ("friendships", ("player_id", "friend_id", "since")),
    ("player_seen", ("player_id", "seen_at")),
    ("mutes", ("player_id", "muted_id", "created_at")),
    (
        "reports",
        (
            "id",
            "chat",
            "reporter_id",
            "reported_id",
            "reason",
            "match_id",
            "state",
            "created_at",
            "closed_at",
            "closed_by",
        ),
    ),
    ("bans", ("chat", "player_id", "banned_by", "banned_at")),
    ("moderation_log", ("id", "chat", "admin_id", "action", "player_id", "report_id", "at")),
    ("report_channels", ("chat", "channel_id")),
    (
        "link_codes",
        ("code", "platform", "platform_user_id", "created_at", "expires_at", "used_at"),
    ),
)
"""Every table copied, with its columns (the same names in both schemas)."""

_FLOATS: Final = frozenset(
    {
        "created_at", "last_top_up", "closed_at", "finished_at", "last_played", "changed_at",
        "saved_at", "heartbeat_at", "mu", "sigma", "updated_at", "at", "announced_at",
        "since", "seen_at",
        "banned_at",
        "expires_at", "used_at",
    }
)  # fmt: skip
"""Columns that are doubles: a value SQLite kept as an integer becomes a float."""

_IDENTITY: Final = (
    "players", "accounts", "transactions", "entries", "matches", "reports", "moderation_log"
)  # fmt: skip


class CopyError(Exception):
    """The copy was refused or did not check out; the message says why."""


@dataclass(frozen=True)
class CopyReport:
    """What was copied.

    Attributes:
        rows: table -> rows copied (accounts without the house).
        balances: accounts whose balance was compared (all of them, the house included).
        target: the target's URL, its password hidden.
    """

    rows: dict[str, int]
    balances: int
    target: str


def _read_source(path: Path) -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, int]]:
    """Every table's rows and every account's balance, from one read snapshot."""
    # Read only, but not opened read-only: a read-only connection to a WAL database leaves
    # its -wal and -shm files behind when it closes; the last connection able to write
    # removes them.
    db = sqlite3.connect(path)
    try:
        db.execute("BEGIN")  # one snapshot for every table
        house = db.execute("SELECT id FROM accounts WHERE key = 'house'").fetchone()
        if house is None or house[0] != 1:
            raise CopyError("the source's house account is not account 1")
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table, columns in TABLES:
            where = " WHERE key <> 'house'" if table == "accounts" else ""
            order = " ORDER BY id" if "id" in columns else ""
            floats = [i for i, c in enumerate(columns) if c in _FLOATS]
            found = []
            for row in db.execute(f"SELECT {', '.join(columns)} FROM {table}{where}{order}"):
                if floats:
                    row = tuple(
                        float(v) if i in floats and v is not None else v for i, v in enumerate(row)
                    )
                found.append(tuple(row))
            rows[table] = found
        balances = {str(k): int(b) for k, b in db.execute("SELECT key, balance FROM accounts")}
        db.execute("COMMIT")
    finally:
        db.close()
    return rows, balances


async def _target_holds_data(conn: asyncpg.Connection[asyncpg.Record]) -> list[str]:
    held = []
    for table, _ in TABLES:
        where = " WHERE key <> 'house'" if table == "accounts" else ""
        if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table}{where})"):
            held.append(table)
    return held


async def _ledger_problems(storage: Storage) -> list[str]:
    """``storage.check_ledger()``, then the storage closed."""
    try:
        return await storage.check_ledger()
    finally:
        await storage.close()


async def copy_sqlite_to_postgres(source: str | Path, dsn: str) -> CopyReport:
    """Copy the SQLite database at ``source`` into the PostgreSQL database at ``dsn``.

    The source is opened (and migrated) first, and its ledger must be whole; the target
    is migrated and must hold no data. Stop the bot before copying: writes made to the
    source meanwhile are not copied.

    Raises:
        CopyError: the source is missing or its ledger is broken, the target holds data,
            or the copy does not check out (nothing is left in the target then, except
            when the final check itself fails: the message says so).
    """
    path = Path(source)
    if not path.is_file():
        raise CopyError(f"no SQLite database at {path}")
    shown = redact_dsn(dsn)
    problems = await _ledger_problems(await SqliteStorage.open(path))  # migrates it
    if problems:
        raise CopyError(f"the source's ledger is not whole: {'; '.join(problems[:5])}")
    rows, balances = _read_source(path)

    target = await PostgresStorage.open(dsn)  # creates the schema in an empty database
    await target.close()
    conn = await asyncpg.connect(dsn)
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, MIGRATE_LOCK)
            held = await _target_holds_data(conn)
            if held:
                raise CopyError(
                    f"{shown} already holds data (in {', '.join(held)}): copy only into an"
                    " empty database"
                )
            for table, columns in TABLES:
                if rows[table]:
                    await conn.copy_records_to_table(table, records=rows[table], columns=columns)
            for table in _IDENTITY:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
                )
            await _compare(conn, rows, balances)
    finally:
        await conn.close()

    problems = await _ledger_problems(await PostgresStorage.open(dsn))
    if problems:
        raise CopyError(f"the copy in {shown} does not check out: {'; '.join(problems[:5])}")
    return CopyReport({t: len(r) for t, r in rows.items()}, len(balances), shown)


async def _compare(
    conn: asyncpg.Connection[asyncpg.Record],
    rows: dict[str, list[tuple[Any, ...]]],
    balances: dict[str, int],
) -> None:
    """Every table's count and every account's balance as in the source (in the copy's
    own transaction: a difference undoes the copy)."""
    for table, _ in TABLES:
        where = " WHERE key <> 'house'" if table == "accounts" else ""
        count = await conn.fetchval(f"SELECT COUNT(*) FROM {table}{where}")
        if count != len(rows[table]):
            raise CopyError(f"{table}: {count} rows copied, {len(rows[table])} in the source")
    copied = {str(k): int(b) for k, b in await conn.fetch("SELECT key, balance FROM accounts")}
    differ = _differences(balances, copied)
    if differ:
        raise CopyError(f"balances differ after the copy: {', '.join(differ[:10])}")


def _differences(source: dict[str, int], copied: dict[str, int]) -> Sequence[str]:
    return [
        f"{key} {source.get(key)} -> {copied.get(key)}"
        for key in sorted(set(source) | set(copied))
        if source.get(key) != copied.get(key)
    ]
