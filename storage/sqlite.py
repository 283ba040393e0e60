"""The SQLite storage (aiosqlite): one writer connection, one transaction per operation.

Following Datasette's write path (``execute_write_fn``): a single connection, living on
aiosqlite's own thread, does every read and write, and each business operation is one
plain function run whole on that thread inside one ``BEGIN IMMEDIATE`` transaction. The
thread runs one function at a time, in order, so operations never interleave; an
operation is entirely written or entirely absent, even if the process is killed at any
instant, and a cancelled caller cannot leave a transaction half done (the function
still runs to its end; idempotency keys make the retry safe).

The database runs in WAL mode with ``synchronous=NORMAL`` (a killed process loses
nothing committed; a power cut may lose the last commits but never corrupts), with
foreign keys on. Migrations (:mod:`storage.migrations`) run on open.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.base import (
    ACTIVE_SECONDS,
    DEFAULT_STAKE,
    LANGUAGES,
    TREND_SECONDS,
    ChatRules,
    Fence,
    FencedOut,
    InsufficientFunds,
    LedgerEntry,
    MatchClosedError,
    MatchSettlement,
    NotInMatchError,
    OpenEscrow,
    PairRow,
    Player,
    PlayerRecord,
    PlayerResult,
    PlayerStats,
    RankRow,
    Rating,
    RatingPoint,
    RebuildReport,
    Rival,
    Storage,
    StorageError,
    StoredMatch,
    TablesClaim,
    UnknownMatchError,
    UnknownPlayerError,
    check_now,
    check_stake_arguments,
    normalize_language,
    top_up_amount,
)
from storage.common import (
    Plan,
    canonical_chat_rules,
    check_chat_language,
    check_chat_move,
    check_notifications,
    check_platform_ids,
    check_results,
    display_name_or,
    escrow_account,
    plan_forfeit,
    plan_opening,
    plan_refund,
    plan_settlement,
    plan_stake,
    plan_top_up,
    player_account,
    to_json,
)
from storage.migrations import MIGRATIONS, Migration, not_applied
from storage.ratings import (
    ALL_CHATS,
    ALL_TIME,
    DEFAULT_PERIOD,
    PROVISIONAL_MATCHES,
    MatchFacts,
    RatingBook,
    RatingState,
    Scope,
    SeasonPeriod,
    compare_ratings,
    display_rating,
    due_finals,
    facts_of,
    pair_order,
    rating_changes,
    rating_of,
    season_key,
    streak_of,
)

__all__ = ["SqliteStorage", "apply_migrations", "pending_migrations"]

T = TypeVar("T")

RATINGS_MIGRATION = "0007_ratings_and_seasons"
"""Applying it rates the matches already stored (``SqliteStorage.open``)."""
Db = sqlite3.Connection

_POST_ENTRY = (
    "INSERT INTO entries (transaction_id, account_id, amount)"
    " SELECT ?, id, ? FROM accounts WHERE key = ?"
)


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


def _post(db: Db, plan: Plan, at: float) -> None:
    """Write one planned ledger transaction; the trigger on ``entries`` moves the balances."""
    entries = [(account, amount) for account, amount in plan.entries if amount != 0]
    if sum(amount for _, amount in entries) != 0:
        raise AssertionError(f"unbalanced transaction {plan.key}")
    tx_id = db.execute(
        "INSERT INTO transactions (key, kind, match_id, created_at) VALUES (?, ?, ?, ?)",
        (plan.key, plan.kind, plan.match_id, at),
    ).lastrowid
    if entries:
        written = db.executemany(
            _POST_ENTRY, [(tx_id, amount, account) for account, amount in entries]
        ).rowcount
        if written != len(entries):
            raise AssertionError(f"transaction {plan.key} names a missing account")


def _player_row(db: Db, player_id: int) -> tuple[Any, ...]:
    """(id, display_name, language, last_top_up, balance) of a player."""
    row = db.execute(
        "SELECT p.id, p.display_name, p.language, p.last_top_up, a.balance"
        " FROM players p JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id = ?",
        (player_id,),
    ).fetchone()
    if row is None:
        raise UnknownPlayerError(player_id)
    return cast(tuple[Any, ...], row)


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


def _paid(db: Db, match_id: str, status: str) -> dict[int, int]:
    rows = db.execute(
        "SELECT player_id, paid FROM escrow_holders WHERE match_id = ? AND status = ?"
        " ORDER BY position",
        (match_id, status),
    ).fetchall()
    return {int(pid): int(paid) for pid, paid in rows}


def _settle(
    db: Db,
    match_id: str,
    escrow: tuple[int, str, dict[int, str]],
    winners: Sequence[int],
    now: float,
) -> tuple[dict[int, int], bool]:
    """Settle the escrow (rules.md, "The house"): (payouts, whether it was written now).

    Already settled: the first settlement's payouts, nothing written.

    Raises:
        MatchClosedError: the escrow was refunded.
    """
    stake, state, holders = escrow
    if state == "settled":
        return _paid(db, match_id, "paid"), False
    if state == "refunded":
        raise MatchClosedError(match_id, state)
    plan = plan_settlement(match_id, stake, holders, winners)
    _post(db, plan, now)
    _close_escrow(db, match_id, "settled", plan.statuses, plan.amounts, now)
    return dict(plan.amounts), True


def _result_rows(
    match_id: str, chat: str, now: float, results: Sequence[PlayerResult]
) -> list[tuple[Any, ...]]:
    return [
        (
            match_id,
            r.player_id,
            chat,
            now,
            r.team,
            int(bool(r.won_match)),
            r.hands_won,
            r.dominoes,
            r.trancas_won,
            r.capicuas,
        )
        for r in results
    ]


def _check_players(db: Db, player_ids: Sequence[int]) -> None:
    """Raise UnknownPlayerError for the first id that names no player."""
    if not player_ids:
        return
    marks = ",".join("?" * len(player_ids))
    known = {
        int(pid)
        for (pid,) in db.execute(f"SELECT id FROM players WHERE id IN ({marks})", player_ids)
    }
    for pid in player_ids:
        if pid not in known:
            raise UnknownPlayerError(pid)


def _record(
    db: Db,
    match_id: str,
    chat: str,
    now: float,
    record: Mapping[str, Any],
    record_json: str,
    results: Sequence[PlayerResult],
    *,
    players_checked: bool = False,
) -> bool:
    """Store a match record, its results, statistics, seats and ratings (docs/ratings.md);
    False when already stored.

    ``rows`` come from :func:`_result_rows`; ``players_checked`` when the caller has
    already run :func:`_check_players` on them in this transaction.

    Raises:
        UnknownPlayerError: a result names an unknown player.
    """
    rows = _result_rows(match_id, chat, now, results)
    if db.execute("SELECT 1 FROM matches WHERE match_id = ?", (match_id,)).fetchone():
        return False
    if not players_checked:
        _check_players(db, [int(row[1]) for row in rows])
    db.execute(
        "INSERT INTO matches (match_id, chat, finished_at, record) VALUES (?, ?, ?, ?)",
        (match_id, chat, now, record_json),
    )
    db.executemany(
        "INSERT INTO match_results (match_id, player_id, chat, finished_at, team,"
        " won_match, hands_won, dominoes, trancas_won, capicuas)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.executemany(
        "INSERT INTO player_chat_totals (chat, player_id, matches_played, matches_won,"
        " hands_won, dominoes, trancas_won, capicuas, last_played)"
        " VALUES (?3, ?2, 1, ?6, ?7, ?8, ?9, ?10, ?4)"
        " ON CONFLICT (chat, player_id) DO UPDATE SET"
        " matches_played = matches_played + 1,"
        " matches_won = matches_won + excluded.matches_won,"
        " hands_won = hands_won + excluded.hands_won,"
        " dominoes = dominoes + excluded.dominoes,"
        " trancas_won = trancas_won + excluded.trancas_won,"
        " capicuas = capicuas + excluded.capicuas,"
        " last_played = MAX(last_played, excluded.last_played)",
        rows,
    )
    period = _season_period(db, chat)
    seasons = (season_key(period, now), season_key(DEFAULT_PERIOD, now))
    _write_facts(db, facts_of(match_id, chat, now, record, results, seasons))
    return True


def _season_period(db: Db, chat: str) -> SeasonPeriod:
    row = db.execute("SELECT period FROM chat_seasons WHERE chat = ?", (chat,)).fetchone()
    return DEFAULT_PERIOD if row is None else SeasonPeriod(row[0])


def _rating_row(db: Db, scope: Scope, player_id: int) -> RatingState | None:
    return _rating_rows(db, scope, [player_id]).get(player_id)


def _rating_rows(db: Db, scope: Scope, player_ids: Sequence[int]) -> dict[int, RatingState]:
    """The players' rating rows in one scope (one query)."""
    marks = ",".join("?" * len(player_ids))
    rows = db.execute(
        "SELECT player_id, mu, sigma, matches, wins, updated_at FROM ratings"
        f" WHERE chat = ? AND season = ? AND player_id IN ({marks})",
        (scope.chat, scope.season, *player_ids),
    ).fetchall()
    return {int(row[0]): RatingState(*row[1:]) for row in rows}


def _check_fence(db: Db, fence: Fence) -> None:
    """Raise :class:`FencedOut` unless ``fence`` is its scope's current claim."""
    row = db.execute(
        "SELECT 1 FROM table_claims WHERE platform = ? AND owner = ? AND fence = ?",
        (fence.scope, fence.owner, fence.token),
    ).fetchone()
    if row is None:
        raise FencedOut(fence)


def _write_facts(db: Db, facts: MatchFacts) -> None:
    """Write a match's seats, seasons and rating changes (docs/ratings.md)."""
    db.execute(
        "INSERT INTO match_seasons (match_id, chat_season, global_season, rated)"
        " VALUES (?, ?, ?, ?)",
        (facts.match_id, *facts.seasons, int(facts.rated)),
    )
    db.executemany(
        "INSERT INTO match_seats (match_id, seat, player_id, robot, won, points, hands,"
        " moves, robot_moves, chat, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                facts.match_id,
                s.seat,
                s.player_id,
                s.robot,
                int(s.team == facts.winner_team),
                facts.score[s.team],
                facts.hands,
                s.moves,
                s.robot_moves,
                facts.chat,
                facts.finished_at,
            )
            for s in facts.seats
        ],
    )
    changes = rating_changes(facts, lambda scope, ids: _rating_rows(db, scope, ids))
    db.executemany(
        "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (chat, season, player_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
        " updated_at = excluded.updated_at",
        [
            (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins, st.updated_at)
            for scope, pid, st in changes
        ],
    )
    # the all-time row's match count numbers the player's rating history (1, 2, ...)
    db.executemany(
        "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (pid, st.matches, facts.match_id, facts.finished_at, st.mu, st.sigma)
            for scope, pid, st in changes
            if scope.chat == ALL_CHATS and scope.season == ALL_TIME
        ],
    )


def _rank_rows(rows: Sequence[Sequence[Any]]) -> list[RankRow]:
    """Rating list rows (player id, name, mu, sigma, matches, trend display or None)."""
    out = []
    for pid, name, mu, sigma, matches, before in rows:
        shown = display_rating(mu, sigma)
        out.append(
            RankRow(
                int(pid),
                str(name),
                shown,
                int(matches),
                None if before is None else shown - int(before),
                int(matches) < PROVISIONAL_MATCHES,
            )
        )
    return out


def _balances(db: Db, player_ids: Sequence[int]) -> dict[int, int]:
    """player id -> balance, in the given order.

    Raises:
        UnknownPlayerError: no such player.
    """
    if not player_ids:
        return {}
    keys = [player_account(pid) for pid in player_ids]
    found = dict(
        db.execute(
            f"SELECT key, balance FROM accounts WHERE key IN ({','.join('?' * len(keys))})", keys
        ).fetchall()
    )
    balances: dict[int, int] = {}
    for pid, key in zip(player_ids, keys, strict=True):
        if key not in found:
            raise UnknownPlayerError(pid)
        balances[pid] = int(found[key])
    return balances


def _close_escrow(
    db: Db,
    match_id: str,
    state: str,
    statuses: Mapping[int, str],
    amounts: Mapping[int, int],
    now: float,
) -> None:
    db.executemany(
        "UPDATE escrow_holders SET status = ?, paid = ? WHERE match_id = ? AND player_id = ?",
        [(status, amounts.get(pid, 0), match_id, pid) for pid, status in statuses.items()],
    )
    db.execute(
        "UPDATE escrows SET state = ?, closed_at = ? WHERE match_id = ?", (state, now, match_id)
    )


_OPERATION_CHECKS: tuple[tuple[str, str], ...] = (
    (
        "player without its opening",
        "SELECT p.id FROM players p WHERE NOT EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'open:' || p.id) OR NOT EXISTS (SELECT 1 FROM accounts a"
        " WHERE a.key = 'player:' || p.id) OR NOT EXISTS (SELECT 1 FROM player_links l"
        " WHERE l.player_id = p.id)",
    ),
    (
        "escrow without its stake transaction",
        "SELECT e.match_id FROM escrows e WHERE NOT EXISTS (SELECT 1 FROM"
        " transactions t WHERE t.key = 'stake:' || e.match_id)",
    ),
    (
        "stake transaction without its escrow",
        "SELECT t.match_id FROM transactions t WHERE t.kind = 'stake' AND NOT EXISTS"
        " (SELECT 1 FROM escrows e WHERE e.match_id = t.match_id)",
    ),
    (
        "settled or refunded state without its transaction (or the reverse)",
        "SELECT e.match_id FROM escrows e WHERE (e.state = 'settled') <> EXISTS"
        " (SELECT 1 FROM transactions t WHERE t.key = 'settle:' || e.match_id)"
        " OR (e.state = 'refunded') <> EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'refund:' || e.match_id)",
    ),
    (
        "statistics totals that disagree with the match results",
        "WITH r AS (SELECT chat, player_id, COUNT(*) AS n, SUM(won_match) AS won,"
        " SUM(hands_won) AS hands, SUM(dominoes) AS dominoes, SUM(trancas_won) AS trancas,"
        " SUM(capicuas) AS capicuas, MAX(finished_at) AS last"
        " FROM match_results GROUP BY chat, player_id)"
        " SELECT t.chat || '/' || t.player_id FROM player_chat_totals t LEFT JOIN r"
        " ON r.chat = t.chat AND r.player_id = t.player_id"
        " WHERE r.player_id IS NULL OR t.matches_played <> r.n OR t.matches_won <> r.won"
        " OR t.hands_won <> r.hands OR t.dominoes <> r.dominoes OR t.trancas_won <> r.trancas"
        " OR t.capicuas <> r.capicuas OR t.last_played <> r.last"
        " UNION ALL SELECT r.chat || '/' || r.player_id FROM r LEFT JOIN player_chat_totals t"
        " ON r.chat = t.chat AND r.player_id = t.player_id WHERE t.player_id IS NULL",
    ),
    (
        "forfeit status without its transaction (or the reverse)",
        "SELECT h.match_id || '/' || h.player_id FROM escrow_holders h"
        " WHERE (h.status = 'forfeited') <> EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'forfeit:' || h.match_id || ':' || h.player_id)",
    ),
)


def _check_ledger(db: Db) -> list[str]:
    problems: list[str] = []
    for (result,) in db.execute("PRAGMA quick_check").fetchall():
        if result != "ok":
            problems.append(f"quick_check: {result}")
    for row in db.execute("PRAGMA foreign_key_check").fetchall():
        problems.append(f"foreign key broken: {tuple(row)}")
    for key, total in db.execute(
        "SELECT t.key, SUM(e.amount) FROM entries e JOIN transactions t"
        " ON t.id = e.transaction_id GROUP BY t.id HAVING SUM(e.amount) <> 0"
    ):
        problems.append(f"transaction {key} sums to {total}")
    (total,) = db.execute("SELECT COALESCE(SUM(amount), 0) FROM entries").fetchone()
    if total:
        problems.append(f"all entries sum to {total}")
    for key, balance, summed in db.execute(
        "SELECT a.key, a.balance, (SELECT COALESCE(SUM(amount), 0) FROM entries e"
        " WHERE e.account_id = a.id) AS summed FROM accounts a WHERE a.balance <> summed"
    ):
        problems.append(f"{key} balance {balance} != entries {summed}")
    for key, balance in db.execute(
        "SELECT key, balance FROM accounts WHERE kind <> 'house' AND balance < 0"
    ):
        problems.append(f"{key} balance {balance} is negative")
    for match_id, balance, expected in db.execute(
        "SELECT e.match_id, a.balance, CASE WHEN e.state = 'open' THEN e.stake *"
        " (SELECT COUNT(*) FROM escrow_holders h WHERE h.match_id = e.match_id"
        " AND h.status = 'held') ELSE 0 END AS expected"
        " FROM escrows e JOIN accounts a ON a.id = e.account_id WHERE a.balance <> expected"
    ):
        problems.append(f"escrow {match_id} holds {balance}, expected {expected}")
    for what, sql in _OPERATION_CHECKS:
        for (ref,) in db.execute(sql):
            problems.append(f"{what}: {ref}")
    return problems


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

        ``":memory:"`` opens a private in-memory database. ``migrations`` and
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
        conn = await aiosqlite.connect(target, isolation_level=None)
        storage = cls(conn, target)
        try:
            await storage._run(_configure)
            storage.applied_migrations = await storage._run(
                lambda db: apply_migrations(db, migrations, clock=clock)
            )
            if RATINGS_MIGRATION in storage.applied_migrations:
                # matches stored before ratings existed are rated now, in order
                await storage.rebuild_ratings()
        except BaseException:
            await conn.close()
            raise
        return storage

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
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

    async def _run(self, fn: Callable[[Db], T]) -> T:
        """Run ``fn(connection)`` on the connection's own thread, alone."""
        # aiosqlite has no public "run this callable on your thread"; its _execute is
        # the queue every public method uses. One hop per operation instead of one per
        # statement is what makes >1,000 matches/s possible (bench/storage.py).
        if self._closed:
            raise StorageError("the storage is closed")
        conn = self._conn
        run = cast(Callable[..., Any], conn._execute)
        return cast(T, await run(lambda: fn(conn._conn)))

    async def _write(self, fn: Callable[[Db], T], fence: Fence | None = None) -> T:
        """Run ``fn`` inside one ``BEGIN IMMEDIATE`` transaction; an exception rolls back.

        With ``fence``, the scope's claim is checked first in the same transaction
        (:class:`FencedOut` when stale, nothing written)."""

        def transaction(db: Db) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                if fence is not None:
                    _check_fence(db, fence)
                result = fn(db)
            except BaseException:
                if db.in_transaction:  # SQLite may have rolled back already (disk full)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

        return await self._run(transaction)

    # ------------------------------------------------------------------ players

    async def ensure_player(
        self,
        platform: str,
        platform_user_id: str,
        display_name: str,
        *,
        language: str | None = None,
        now: float,
    ) -> Player:
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        name = display_name_or(display_name, platform_user_id)

        def write(db: Db) -> Player:
            row = db.execute(
                "SELECT p.id, p.display_name, p.language FROM player_links l"
                " JOIN players p ON p.id = l.player_id"
                " WHERE l.platform = ? AND l.platform_user_id = ?",
                (platform, platform_user_id),
            ).fetchone()
            if row is not None:
                if row[1] != name:
                    db.execute("UPDATE players SET display_name = ? WHERE id = ?", (name, row[0]))
                return Player(int(row[0]), name, str(row[2]))
            lang = normalize_language(language)
            player_id = db.execute(
                "INSERT INTO players (display_name, language, created_at) VALUES (?, ?, ?)",
                (name, lang, now),
            ).lastrowid
            assert player_id is not None
            db.execute(
                "INSERT INTO player_links (platform, platform_user_id, player_id) VALUES (?, ?, ?)",
                (platform, platform_user_id, player_id),
            )
            db.execute(
                "INSERT INTO accounts (key, kind, player_id) VALUES (?, 'player', ?)",
                (player_account(player_id), player_id),
            )
            _post(db, plan_opening(player_id), now)
            return Player(player_id, name, lang)

        return await self._write(write)

    async def get_player(self, player_id: int) -> Player | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT id, display_name, language FROM players WHERE id = ?", (player_id,)
            ).fetchone()
        )
        return None if row is None else Player(int(row[0]), str(row[1]), str(row[2]))

    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT p.id, p.display_name, p.language FROM player_links l"
                " JOIN players p ON p.id = l.player_id"
                " WHERE l.platform = ? AND l.platform_user_id = ?",
                (platform, platform_user_id),
            ).fetchone()
        )
        return None if row is None else Player(int(row[0]), str(row[1]), str(row[2]))

    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        check_platform_ids(platform, platform_user_id)

        def write(db: Db) -> None:
            _player_row(db, player_id)
            row = db.execute(
                "SELECT player_id FROM player_links WHERE platform = ? AND platform_user_id = ?",
                (platform, platform_user_id),
            ).fetchone()
            if row is not None and row[0] != player_id:
                raise ValueError(f"{platform} user {platform_user_id} is linked to another player")
            if row is None:
                db.execute(
                    "INSERT INTO player_links (platform, platform_user_id, player_id)"
                    " VALUES (?, ?, ?)",
                    (platform, platform_user_id, player_id),
                )

        await self._write(write)

    async def set_player_language(self, player_id: int, language: str) -> None:
        def write(db: Db) -> None:
            _player_row(db, player_id)
            if language not in LANGUAGES:
                raise ValueError(
                    f"language must be one of {', '.join(LANGUAGES)} (got {language!r})"
                )
            db.execute("UPDATE players SET language = ? WHERE id = ?", (language, player_id))

        await self._write(write)

    async def player_notifications(self, player_id: int) -> str:
        def read(db: Db) -> str:
            _player_row(db, player_id)
            row = db.execute(
                "SELECT notifications FROM players WHERE id = ?", (player_id,)
            ).fetchone()
            return str(row[0])

        return await self._run(read)

    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        def write(db: Db) -> None:
            _player_row(db, player_id)
            check_notifications(notifications)
            db.execute(
                "UPDATE players SET notifications = ? WHERE id = ?", (notifications, player_id)
            )

        await self._write(write)

    # ------------------------------------------------------------------- wallet

    async def balance(self, player_id: int) -> int:
        row = await self._run(lambda db: _player_row(db, player_id))
        return int(row[4])

    async def stake(
        self,
        match_id: str,
        player_ids: Sequence[int],
        stake: int,
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        check_stake_arguments(match_id, player_ids, stake)
        check_now(now)
        ids = list(player_ids)

        def write(db: Db) -> None:
            if db.execute("SELECT 1 FROM escrows WHERE match_id = ?", (match_id,)).fetchone():
                return
            found: dict[int, tuple[int, float | None]] = {}
            if ids:
                marks = ",".join("?" * len(ids))
                for pid, last, balance in db.execute(
                    "SELECT p.id, p.last_top_up, a.balance FROM players p"
                    f" JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id IN ({marks})",
                    ids,
                ):
                    found[int(pid)] = (int(balance), last)
            top_ups: dict[int, int] = {}
            short: list[int] = []
            for pid in ids:
                if pid not in found:
                    raise UnknownPlayerError(pid)
                balance, last = found[pid]
                added = top_up_amount(balance, stake, last, now)
                if balance + added < stake:
                    short.append(pid)
                elif added:
                    top_ups[pid] = added
            if short:
                raise InsufficientFunds(short)
            for pid, added in top_ups.items():
                _post(db, plan_top_up(pid, added, match_id=match_id, now=now), now)
                db.execute("UPDATE players SET last_top_up = ? WHERE id = ?", (now, pid))
            account_id = db.execute(
                "INSERT INTO accounts (key, kind, match_id) VALUES (?, 'escrow', ?)",
                (escrow_account(match_id), match_id),
            ).lastrowid
            db.execute(
                "INSERT INTO escrows (match_id, account_id, stake, created_at) VALUES (?, ?, ?, ?)",
                (match_id, account_id, stake, now),
            )
            db.executemany(
                "INSERT INTO escrow_holders (match_id, player_id, position) VALUES (?, ?, ?)",
                [(match_id, pid, i) for i, pid in enumerate(ids)],
            )
            _post(db, plan_stake(match_id, stake, ids), now)

        await self._write(write, fence)

    async def settle(
        self,
        match_id: str,
        winner_ids: Sequence[int],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> dict[int, int]:
        check_now(now)
        winners = list(winner_ids)

        def write(db: Db) -> dict[int, int]:
            return _settle(db, match_id, _escrow(db, match_id), winners, now)[0]

        return await self._write(write, fence)

    async def refund(
        self, match_id: str, *, now: float, fence: Fence | None = None
    ) -> dict[int, int]:
        check_now(now)

        def write(db: Db) -> dict[int, int]:
            stake, state, holders = _escrow(db, match_id)
            if state == "refunded":
                return _paid(db, match_id, "refunded")
            if state == "settled":
                raise MatchClosedError(match_id, state)
            plan = plan_refund(match_id, stake, holders)
            _post(db, plan, now)
            _close_escrow(db, match_id, "refunded", plan.statuses, plan.amounts, now)
            return dict(plan.amounts)

        return await self._write(write, fence)

    async def forfeit(
        self, match_id: str, player_id: int, *, now: float, fence: Fence | None = None
    ) -> None:
        check_now(now)

        def write(db: Db) -> None:
            stake, state, holders = _escrow(db, match_id)
            status = holders.get(player_id)
            if status is None:
                raise NotInMatchError(match_id, player_id)
            if status == "forfeited":
                return
            if state != "open":
                raise MatchClosedError(match_id, state)
            plan = plan_forfeit(match_id, stake, player_id)
            _post(db, plan, now)
            db.executemany(
                "UPDATE escrow_holders SET status = ? WHERE match_id = ? AND player_id = ?",
                [(status, match_id, pid) for pid, status in plan.statuses.items()],
            )

        await self._write(write, fence)

    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        check_now(now)

        def write(db: Db) -> int:
            row = _player_row(db, player_id)
            added = top_up_amount(int(row[4]), stake, row[3], now)
            if added:
                _post(db, plan_top_up(player_id, added, match_id=None, now=now), now)
                db.execute("UPDATE players SET last_top_up = ? WHERE id = ?", (now, player_id))
            return added

        return await self._write(write)

    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        def read(db: Db) -> list[Any]:
            _player_row(db, player_id)
            return db.execute(
                "SELECT t.kind, e.amount, t.match_id, t.created_at FROM entries e"
                " JOIN transactions t ON t.id = e.transaction_id"
                " WHERE e.account_id = (SELECT id FROM accounts WHERE key = ?)"
                " ORDER BY e.id DESC LIMIT ?",
                (player_account(player_id), max(limit, 0)),
            ).fetchall()

        rows = await self._run(read)
        return [LedgerEntry(str(k), int(a), m, float(t)) for k, a, m, t in rows]

    async def check_ledger(self) -> list[str]:
        return await self._run(_check_ledger)

    # ------------------------------------------------------- statistics, history

    async def record_match(
        self,
        match_id: str,
        chat: str,
        record: dict[str, Any],
        results: Sequence[PlayerResult],
        *,
        now: float,
    ) -> None:
        check_now(now)
        check_results(match_id, chat, results)
        record_json = to_json(record)
        await self._write(lambda db: _record(db, match_id, chat, now, record, record_json, results))

    async def finish_match(
        self,
        match_id: str,
        chat: str,
        *,
        winners: Sequence[int],
        record: Mapping[str, Any],
        results: Sequence[PlayerResult],
        now: float,
        fence: Fence | None = None,
    ) -> MatchSettlement:
        check_now(now)
        check_results(match_id, chat, results)
        record_json = to_json(record)
        winner_ids = list(winners)

        def write(db: Db) -> MatchSettlement:
            _check_players(db, [r.player_id for r in results])
            escrow = _find_escrow(db, match_id)
            payouts: dict[int, int] = {}
            settled = recorded = False
            if escrow is not None:
                payouts, settled = _settle(db, match_id, escrow, winner_ids, now)
            if escrow is not None or results:
                recorded = _record(
                    db, match_id, chat, now, record, record_json, results, players_checked=True
                )
            holders = [] if escrow is None else list(escrow[2])
            ids = list(dict.fromkeys([*holders, *(r.player_id for r in results)]))
            already = not settled and not recorded
            if already and escrow is None:
                already = bool(
                    db.execute("SELECT 1 FROM matches WHERE match_id = ?", (match_id,)).fetchone()
                )
            return MatchSettlement(payouts, _balances(db, ids), already)

        return await self._write(write, fence)

    async def player_stats(self, player_id: int) -> PlayerStats:
        def read(db: Db) -> Any:
            _player_row(db, player_id)
            return db.execute(
                "SELECT COALESCE(SUM(matches_played), 0), COALESCE(SUM(matches_won), 0),"
                " COALESCE(SUM(hands_won), 0), COALESCE(SUM(dominoes), 0),"
                " COALESCE(SUM(trancas_won), 0), COALESCE(SUM(capicuas), 0), MAX(last_played)"
                " FROM player_chat_totals WHERE player_id = ?",
                (player_id,),
            ).fetchone()

        played, won, hands, dominoes, trancas, capicuas, last = await self._run(read)
        return PlayerStats(
            player_id,
            int(played),
            int(won),
            int(hands),
            int(dominoes),
            int(trancas),
            int(capicuas),
            None if last is None else float(last),
        )

    async def top_by_balance(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)
        rows = await self._run(
            lambda db: db.execute(
                "SELECT t.player_id, p.display_name, a.balance, SUM(t.matches_played) AS played,"
                " MAX(t.last_played) AS last FROM player_chat_totals t"
                " JOIN players p ON p.id = t.player_id"
                " JOIN accounts a ON a.key = 'player:' || t.player_id"
                " WHERE (?1 IS NULL OR t.chat = ?1)"
                " GROUP BY t.player_id HAVING last >= ?2"
                " ORDER BY a.balance DESC, played DESC, t.player_id LIMIT ?3",
                (chat, now - ACTIVE_SECONDS, max(limit, 0)),
            ).fetchall()
        )
        since = now - TREND_SECONDS

        def trend(db: Db, player_id: int) -> int:
            (moved,) = db.execute(
                "SELECT COALESCE(SUM(e.amount), 0) FROM entries e"
                " JOIN transactions t ON t.id = e.transaction_id"
                " WHERE e.account_id = (SELECT id FROM accounts WHERE key = ?)"
                " AND t.created_at > ? AND t.kind <> 'open'",
                (player_account(player_id), since),
            ).fetchone()
            return int(moved)

        trends = await self._run(lambda db: [trend(db, int(row[0])) for row in rows])
        return [
            RankRow(int(p), str(n), int(b), int(c), moved)
            for (p, n, b, c, _), moved in zip(rows, trends, strict=True)
        ]

    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)

        def read(db: Db) -> list[RankRow]:
            rows = db.execute(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches FROM ratings r"
                " JOIN players p ON p.id = r.player_id WHERE r.chat = ?1 AND r.season = ?2"
                " AND (?3 IS NULL OR r.player_id IN"
                " (SELECT player_id FROM player_chat_totals WHERE chat = ?3))"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?4",
                (ALL_CHATS, ALL_TIME, chat, max(limit, 0)),
            ).fetchall()
            out = []
            for pid, name, mu, sigma, matches in rows:
                before = db.execute(
                    "SELECT mu, sigma FROM rating_history WHERE player_id = ? AND at <= ?"
                    " ORDER BY seq DESC LIMIT 1",
                    (pid, now - TREND_SECONDS),
                ).fetchone()
                shown = None if before is None else display_rating(*before)
                out.append((pid, name, mu, sigma, matches, shown))
            return _rank_rows(out)

        return await self._run(read)

    async def season_standings(self, chat: str, season: str, *, limit: int = 10) -> list[RankRow]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches, NULL"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.chat = ? AND r.season = ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?",
                (chat, season, max(limit, 0)),
            ).fetchall()
        )
        return _rank_rows(rows)

    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT a.player_id, b.player_id, pa.display_name, pb.display_name,"
                " COUNT(*) AS n, SUM(a.won) FROM match_seats a"
                " JOIN match_seats b ON b.match_id = a.match_id AND b.seat = a.seat + 2"
                " JOIN players pa ON pa.id = a.player_id JOIN players pb ON pb.id = b.player_id"
                " WHERE (?1 IS NULL OR a.chat = ?1)"
                " GROUP BY MIN(a.player_id, b.player_id), MAX(a.player_id, b.player_id)"
                " HAVING n >= ?2",
                (chat, min_matches),
            ).fetchall()
        )
        pairs = []
        for a, b, name_a, name_b, n, won in rows:
            if int(a) > int(b):
                a, b, name_a, name_b = b, a, name_b, name_a
            pairs.append(PairRow((int(a), int(b)), (str(name_a), str(name_b)), int(n), int(won)))
        pairs.sort(key=pair_order)
        return pairs[: max(limit, 0)]

    async def player_rating(
        self, player_id: int, *, chat: str = ALL_CHATS, season: str = ALL_TIME
    ) -> Rating | None:
        def read(db: Db) -> RatingState | None:
            _player_row(db, player_id)
            return _rating_row(db, Scope(chat, season), player_id)

        state = await self._run(read)
        return None if state is None else rating_of(player_id, state)

    async def rating_history(self, player_id: int, *, limit: int = 50) -> list[RatingPoint]:
        def read(db: Db) -> list[Any]:
            _player_row(db, player_id)
            return db.execute(
                "SELECT match_id, at, mu, sigma FROM rating_history WHERE player_id = ?"
                " ORDER BY seq DESC LIMIT ?",
                (player_id, max(limit, 0)),
            ).fetchall()

        rows = await self._run(read)
        return [
            RatingPoint(str(m), float(at), display_rating(mu, sigma), float(mu), float(sigma))
            for m, at, mu, sigma in reversed(rows)
        ]

    async def player_record(self, player_id: int) -> PlayerRecord:
        def read(db: Db) -> PlayerRecord:
            _player_row(db, player_id)
            rivals = []
            for where in ("o.seat % 2 = m.seat % 2", "o.seat % 2 <> m.seat % 2"):
                rows = db.execute(
                    "SELECT o.player_id, p.display_name, COUNT(*) AS n, SUM(m.won)"
                    " FROM match_seats m JOIN match_seats o ON o.match_id = m.match_id"
                    " AND o.seat <> m.seat JOIN players p ON p.id = o.player_id"
                    f" WHERE m.player_id = ? AND {where}"
                    " GROUP BY o.player_id ORDER BY n DESC, o.player_id",
                    (player_id,),
                ).fetchall()
                rivals.append(tuple(Rival(int(p), str(n), int(c), int(w)) for p, n, c, w in rows))
            results = db.execute(
                "SELECT s.won FROM match_seats s JOIN matches m ON m.match_id = s.match_id"
                " WHERE s.player_id = ? ORDER BY m.id DESC LIMIT 1000",
                (player_id,),
            ).fetchall()
            points, hands = db.execute(
                "SELECT COALESCE(SUM(points), 0), COALESCE(SUM(hands), 0) FROM match_seats"
                " WHERE player_id = ?",
                (player_id,),
            ).fetchone()
            return PlayerRecord(
                rivals[0], rivals[1], streak_of([bool(w) for (w,) in results]), points, hands
            )

        return await self._run(read)

    async def season_period(self, chat: str) -> SeasonPeriod:
        return await self._run(lambda db: _season_period(db, chat))

    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        period = SeasonPeriod(period)
        await self._write(
            lambda db: db.execute(
                "INSERT INTO chat_seasons (chat, period, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET period = excluded.period,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                (chat, period.value, changed_by, now),
            )
        )

    async def seasons(self, chat: str) -> list[str]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT season, MAX(updated_at) AS last FROM ratings WHERE chat = ? AND"
                " season <> '' GROUP BY season ORDER BY last DESC, season DESC",
                (chat,),
            ).fetchall()
        )
        return [str(season) for season, _ in rows]

    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        check_now(now)
        rows = await self._run(
            lambda db: db.execute(
                "SELECT DISTINCT r.chat, r.season FROM ratings r WHERE r.season <> ''"
                " AND NOT EXISTS (SELECT 1 FROM season_finals f WHERE f.chat = r.chat"
                " AND f.season = r.season)"
            ).fetchall()
        )
        return due_finals([(str(c), str(s)) for c, s in rows], now)

    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        check_now(now)
        cursor = await self._write(
            lambda db: db.execute(
                "INSERT INTO season_finals (chat, season, announced_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (chat, season, now),
            )
        )
        return bool(cursor.rowcount)

    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        def rebuild(db: Db) -> RebuildReport:
            db.execute("BEGIN IMMEDIATE")
            try:
                report = replay(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT" if write else "ROLLBACK")
            return report

        def replay(db: Db) -> RebuildReport:
            matches = db.execute(
                "SELECT m.match_id, m.chat, m.finished_at, m.record, s.chat_season,"
                " s.global_season FROM matches m"
                " LEFT JOIN match_seasons s ON s.match_id = m.match_id ORDER BY m.id"
            ).fetchall()
            results: dict[str, list[PlayerResult]] = {}
            for row in db.execute(
                "SELECT match_id, player_id, team, won_match FROM match_results"
            ).fetchall():
                results.setdefault(row[0], []).append(
                    PlayerResult(int(row[1]), int(row[2]), bool(row[3]))
                )
            book = RatingBook()
            all_facts = []
            for match_id, chat, at, record_json, chat_season, global_season in matches:
                if chat_season is None:
                    chat_season = season_key(_season_period(db, chat), at)
                    global_season = season_key(DEFAULT_PERIOD, at)
                facts = facts_of(
                    match_id,
                    chat,
                    at,
                    json.loads(record_json),
                    sorted(results.get(match_id, []), key=lambda r: r.player_id),
                    (chat_season, global_season),
                )
                book.apply(facts)
                all_facts.append(facts)
            stored = {
                (Scope(c, s), int(p)): RatingState(mu, sigma, n, w, u)
                for c, s, p, mu, sigma, n, w, u in db.execute(
                    "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at"
                    " FROM ratings"
                )
            }
            history: dict[int, list[tuple[str, float, float, float]]] = {}
            for p, m, at, mu, sigma in db.execute(
                "SELECT player_id, match_id, at, mu, sigma FROM rating_history"
                " ORDER BY player_id, seq"
            ):
                history.setdefault(int(p), []).append((str(m), at, mu, sigma))
            report = compare_ratings(book, stored, history, all_facts)
            if write:
                for table in ("ratings", "rating_history", "match_seats", "match_seasons"):
                    db.execute(f"DELETE FROM {table}")
                for facts in all_facts:
                    _write_facts(db, facts)
            return report

        return await self._run(rebuild)

    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT m.match_id, m.chat, m.finished_at, m.record FROM matches m"
                " WHERE (?1 IS NULL OR m.chat = ?1) AND (?2 IS NULL OR EXISTS (SELECT 1"
                " FROM match_results r WHERE r.match_id = m.match_id AND r.player_id = ?2))"
                " ORDER BY m.finished_at DESC, m.id DESC LIMIT ?3",
                (chat, player_id, max(limit, 0)),
            ).fetchall()
        )
        return [StoredMatch(str(m), str(c), float(f), json.loads(r)) for m, c, f, r in rows]

    # ------------------------------------------------------------ chat presets

    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT preset, overrides, changed_by, changed_at FROM chat_rules WHERE chat = ?",
                (chat,),
            ).fetchone()
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
        await self._write(
            lambda db: db.execute(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " preset = excluded.preset, overrides = excluded.overrides,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                (chat, name, text, changed_by, now),
            )
        )
        return ChatRules(chat, name, json.loads(text), changed_by, float(now))

    # ------------------------------------------------------------ chat moves

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

        def write(db: Db) -> None:
            # the new chat's own rules are newer than the old chat's: they stay
            db.execute(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " SELECT ?2, preset, overrides, changed_by, changed_at FROM chat_rules"
                " WHERE chat = ?1 ON CONFLICT (chat) DO NOTHING",
                (old, new),
            )
            db.execute("DELETE FROM chat_rules WHERE chat = ?", (old,))
            db.execute(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " SELECT ?2, language, changed_by, changed_at FROM chat_settings"
                " WHERE chat = ?1 ON CONFLICT (chat) DO NOTHING",
                (old, new),
            )
            db.execute("DELETE FROM chat_settings WHERE chat = ?", (old,))
            db.execute("UPDATE matches SET chat = ?2 WHERE chat = ?1", (old, new))
            db.execute("UPDATE match_results SET chat = ?2 WHERE chat = ?1", (old, new))
            db.execute("UPDATE match_seats SET chat = ?2 WHERE chat = ?1", (old, new))
            for table in ("chat_seasons", "season_finals", "ratings"):
                # the new chat's own rows (its period, a season it already played) stay
                db.execute(f"UPDATE OR IGNORE {table} SET chat = ?2 WHERE chat = ?1", (old, new))
                db.execute(f"DELETE FROM {table} WHERE chat = ?", (old,))
            db.execute(
                "INSERT INTO player_chat_totals (chat, player_id, matches_played, matches_won,"
                " hands_won, dominoes, trancas_won, capicuas, last_played)"
                " SELECT ?2, player_id, matches_played, matches_won, hands_won, dominoes,"
                " trancas_won, capicuas, last_played FROM player_chat_totals WHERE chat = ?1"
                " ON CONFLICT (chat, player_id) DO UPDATE SET"
                " matches_played = matches_played + excluded.matches_played,"
                " matches_won = matches_won + excluded.matches_won,"
                " hands_won = hands_won + excluded.hands_won,"
                " dominoes = dominoes + excluded.dominoes,"
                " trancas_won = trancas_won + excluded.trancas_won,"
                " capicuas = capicuas + excluded.capicuas,"
                " last_played = MAX(last_played, excluded.last_played)",
                (old, new),
            )
            db.execute("DELETE FROM player_chat_totals WHERE chat = ?", (old,))
            db.executemany(
                "INSERT INTO table_snapshots (table_id, snapshot, saved_at) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot,"
                " saved_at = excluded.saved_at",
                snapshots,
            )

        await self._write(write)

    async def get_chat_language(self, chat: str) -> str | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT language FROM chat_settings WHERE chat = ?", (chat,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        check_chat_language(language)
        await self._write(
            lambda db: db.execute(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " language = excluded.language, changed_by = excluded.changed_by,"
                " changed_at = excluded.changed_at",
                (chat, language, changed_by, now),
            )
        )

    # --------------------------------------------------------- table snapshots

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
        await self._write(
            lambda db: db.execute(
                "INSERT INTO table_snapshots (table_id, snapshot, saved_at) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot,"
                " saved_at = excluded.saved_at",
                (table_id, text, now),
            ),
            fence,
        )

    async def load_tables(self) -> list[dict[str, Any]]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT snapshot FROM table_snapshots ORDER BY saved_at, table_id"
            ).fetchall()
        )
        return [json.loads(text) for (text,) in rows]

    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        await self._write(
            lambda db: db.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,)),
            fence,
        )

    async def open_escrows(self) -> list[OpenEscrow]:
        def read(db: Db) -> list[OpenEscrow]:
            found: list[OpenEscrow] = []
            rows = db.execute(
                "SELECT match_id, stake, created_at FROM escrows WHERE state = 'open'"
                " ORDER BY created_at, match_id"
            ).fetchall()
            for match_id, stake, created_at in rows:
                holders = db.execute(
                    "SELECT player_id, status FROM escrow_holders WHERE match_id = ?"
                    " ORDER BY position",
                    (match_id,),
                ).fetchall()
                found.append(
                    OpenEscrow(
                        str(match_id),
                        int(stake),
                        {int(p): str(status) for p, status in holders},
                        float(created_at),
                    )
                )
            return found

        return await self._run(read)

    async def tables_claim(self, platform: str) -> TablesClaim | None:
        row = await self._run(
            lambda db: db.execute(
                "SELECT owner, heartbeat_at, fence FROM table_claims"
                " WHERE platform = ? AND owner <> ''",
                (platform,),
            ).fetchone()
        )
        if row is None:
            return None
        return TablesClaim(platform, str(row[0]), float(row[1]), int(row[2]))

    async def tables_claims(self) -> list[TablesClaim]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT platform, owner, heartbeat_at, fence FROM table_claims"
                " WHERE owner <> '' ORDER BY platform"
            ).fetchall()
        )
        return [TablesClaim(str(p), str(o), float(h), int(f)) for p, o, h, f in rows]

    async def claim_tables(
        self, platform: str, owner: str, *, now: float, replacing: str | None
    ) -> int | None:
        check_now(now)

        def write(db: Db) -> int | None:
            row = db.execute(
                "SELECT owner, fence FROM table_claims WHERE platform = ?", (platform,)
            ).fetchone()
            current = None if row is None or not row[0] else str(row[0])
            if current not in (replacing, owner):
                return None
            fence = 0 if row is None else int(row[1])
            if current != owner:
                fence += 1
            db.execute(
                "INSERT INTO table_claims (platform, owner, heartbeat_at, fence)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (platform) DO UPDATE SET"
                " owner = excluded.owner, heartbeat_at = excluded.heartbeat_at,"
                " fence = excluded.fence",
                (platform, owner, now, fence),
            )
            return fence

        return await self._write(write)

    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        check_now(now)
        changed = await self._write(
            lambda db: (
                db.execute(
                    "UPDATE table_claims SET heartbeat_at = ? WHERE platform = ? AND owner = ?",
                    (now, platform, owner),
                ).rowcount
            )
        )
        return bool(changed)

    async def release_tables(self, platform: str, owner: str) -> None:
        await self._write(
            lambda db: db.execute(
                "UPDATE table_claims SET owner = '', heartbeat_at = 0"
                " WHERE platform = ? AND owner = ?",
                (platform, owner),
            )
        )
