"""The PostgreSQL storage (asyncpg): the same behaviour as SQLite, shared by processes.

``await PostgresStorage.open("postgresql://user@host/db")`` connects, applies the
PostgreSQL migrations (:mod:`storage.postgres_migrations`) in one transaction under an
advisory lock (several processes may open the same database at once) and returns the
storage. Every business operation is one transaction written from the same plans
(:mod:`storage.common`) and the same pure rating rules (:mod:`storage.ratings`) as SQLite,
so both give the same answers, errors, orderings and floats (design.md, "storage"); the
contract tests run against memory, SQLite and PostgreSQL.

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
import json
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

import asyncpg

from storage import redact_dsn
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
    check_notice,
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
    to_json,
)
from storage.migrations import Migration, not_applied
from storage.postgres_migrations import POSTGRES_MIGRATIONS
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


class _TryAgain(Exception):
    """Raised inside an operation that saw a concurrent writer: run it again."""


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


def _count(status: str) -> int:
    """Rows a command touched, from its status (``"INSERT 0 3"``, ``"UPDATE 1"``)."""
    return int(status.rsplit(" ", 1)[-1])


async def _lock_players(conn: Conn, player_ids: Sequence[int]) -> None:
    """Lock players' accounts by id (step 3 of the module's lock order)."""
    if player_ids:
        await conn.execute(
            "SELECT 1 FROM accounts WHERE player_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE",
            list(player_ids),
        )


async def _lock_chat(conn: Conn, chat: str) -> None:
    """Shared ratings and chat locks (step 1): a match record in ``chat``."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock_shared($1, $2),"
        " pg_advisory_xact_lock_shared($3, hashtext($4))",
        LOCK_SPACE,
        RATINGS_LOCK,
        CHAT_LOCK_SPACE,
        chat,
    )


_POST: Final = (
    " t AS (INSERT INTO transactions (key, kind, match_id, created_at)"
    " VALUES ($1, $2, $3, $4) RETURNING id)"
    " INSERT INTO entries (transaction_id, account_id, amount)"
    " SELECT t.id, a.id, x.amount FROM t"
    " CROSS JOIN unnest($5::text[], $6::bigint[]) WITH ORDINALITY AS x (key, amount, n)"
)
_POST_ACCOUNTS: Final = " JOIN accounts a ON a.key = x.key ORDER BY x.n"
_CLOSE_ESCROW: Final = (
    "WITH closed_holders AS (UPDATE escrow_holders h SET status = c.status, paid = c.paid"
    " FROM unnest($7::bigint[], $8::text[], $9::bigint[]) AS c (pid, status, paid)"
    " WHERE h.match_id = $3 AND h.player_id = c.pid),"
    " closed_escrow AS (UPDATE escrows SET state = $10, closed_at = $4 WHERE match_id = $3),"
)
_OPEN_ESCROW: Final = (
    "WITH new_account AS (INSERT INTO accounts (key, kind, match_id)"
    " VALUES ($9, 'escrow', $3) RETURNING id, key),"
    " new_escrow AS (INSERT INTO escrows (match_id, account_id, stake, created_at)"
    " SELECT $3, id, $7, $4 FROM new_account RETURNING match_id),"
    " new_holders AS (INSERT INTO escrow_holders (match_id, player_id, position)"
    " SELECT m.match_id, h.pid, h.n - 1 FROM new_escrow m"
    " CROSS JOIN unnest($8::bigint[]) WITH ORDINALITY AS h (pid, n)),"
)
_OPEN_ACCOUNTS: Final = (
    " JOIN (SELECT id, key FROM accounts WHERE key = ANY($5::text[])"
    " UNION ALL SELECT id, key FROM new_account) a ON a.key = x.key ORDER BY x.n"
)


async def _post(
    conn: Conn,
    plan: Plan,
    at: float,
    *,
    close: str | None = None,
    open_stake: int | None = None,
) -> None:
    """Write one planned ledger transaction; the trigger on ``entries`` moves the balances.

    One statement, which may also do what goes with the money: ``close`` (``"settled"``
    or ``"refunded"``) closes the plan's escrow with its holders' statuses;
    ``open_stake`` opens the plan's escrow (its account, row and holders, the plan's
    players in order) at that stake.

    The caller holds the locks of every player account the plan names (and the escrow's
    row lock for its escrow account): the trigger's update of the house's row is then the
    only lock taken here, the last one (the module's lock order). Callers post as their
    last statement, so the house's row is held for this statement and the commit only.
    """
    entries = [(account, amount) for account, amount in plan.entries if amount != 0]
    if sum(amount for _, amount in entries) != 0:
        raise AssertionError(f"unbalanced transaction {plan.key}")
    keys = [account for account, _ in entries]
    args: list[Any] = [plan.key, plan.kind, plan.match_id, at, keys, [a for _, a in entries]]
    if close is not None:
        sql = _CLOSE_ESCROW + _POST + _POST_ACCOUNTS
        args += [
            list(plan.statuses),
            list(plan.statuses.values()),
            [plan.amounts.get(pid, 0) for pid in plan.statuses],
            close,
        ]
    elif open_stake is not None:
        assert plan.match_id is not None
        sql = _OPEN_ESCROW + _POST + _OPEN_ACCOUNTS
        args += [open_stake, list(plan.statuses), escrow_account(plan.match_id)]
    else:
        sql = "WITH" + _POST + _POST_ACCOUNTS
    status = await conn.execute(sql, *args)
    if _count(status) != len(entries):
        raise AssertionError(f"transaction {plan.key} names a missing account")


async def _player_row(conn: Conn, player_id: int, *, lock: bool = False) -> asyncpg.Record:
    """(id, display_name, language, last_top_up, balance) of a player."""
    row = await conn.fetchrow(
        "SELECT p.id, p.display_name, p.language, p.last_top_up, a.balance"
        " FROM players p JOIN accounts a ON a.player_id = p.id WHERE p.id = $1"
        + (" FOR UPDATE OF a" if lock else ""),
        player_id,
    )
    if row is None:
        raise UnknownPlayerError(player_id)
    return row


async def _find_escrow(
    conn: Conn, match_id: str, *, lock: bool = False
) -> tuple[int, str, dict[int, str]] | None:
    """(stake, state, holders in seat order: player id -> status) of a match's escrow,
    None when it has none; ``lock`` takes the escrow's row lock (step 2)."""
    rows = await conn.fetch(
        "SELECT e.stake, e.state, h.player_id, h.status FROM escrows e"
        " LEFT JOIN escrow_holders h ON h.match_id = e.match_id WHERE e.match_id = $1"
        " ORDER BY h.position" + (" FOR UPDATE OF e" if lock else ""),
        match_id,
    )
    if not rows:
        return None
    holders = {int(r[2]): str(r[3]) for r in rows if r[2] is not None}
    return int(rows[0][0]), str(rows[0][1]), holders


async def _escrow_exists(conn: Conn, match_id: str) -> bool:
    return bool(await conn.fetchval("SELECT 1 FROM escrows WHERE match_id = $1", match_id))


async def _escrow(conn: Conn, match_id: str) -> tuple[int, str, dict[int, str]]:
    """Like :func:`_find_escrow` (locked).

    Raises:
        UnknownMatchError: the match has no escrow.
    """
    found = await _find_escrow(conn, match_id, lock=True)
    if found is None:
        raise UnknownMatchError(match_id)
    return found


async def _paid(conn: Conn, match_id: str, status: str) -> dict[int, int]:
    rows = await conn.fetch(
        "SELECT player_id, paid FROM escrow_holders WHERE match_id = $1 AND status = $2"
        " ORDER BY position",
        match_id,
        status,
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def _settle(
    conn: Conn,
    match_id: str,
    escrow: tuple[int, str, dict[int, str]],
    winners: Sequence[int],
    now: float,
) -> tuple[dict[int, int], bool]:
    """Settle the escrow (rules.md, "The house"): (payouts, whether it was written now).

    Raises:
        MatchClosedError: the escrow was refunded.
    """
    stake, state, holders = escrow
    if state == "settled":
        return await _paid(conn, match_id, "paid"), False
    if state == "refunded":
        raise MatchClosedError(match_id, state)
    plan = plan_settlement(match_id, stake, holders, winners)
    await _post(conn, plan, now, close="settled")
    return dict(plan.amounts), True


async def _check_players(conn: Conn, player_ids: Sequence[int]) -> None:
    """Raise UnknownPlayerError for the first id that names no player."""
    if not player_ids:
        return
    known = {
        int(r[0])
        for r in await conn.fetch(
            "SELECT id FROM players WHERE id = ANY($1::bigint[])", list(player_ids)
        )
    }
    for pid in player_ids:
        if pid not in known:
            raise UnknownPlayerError(pid)


async def _balances(conn: Conn, player_ids: Sequence[int]) -> dict[int, int]:
    """player id -> balance, in the given order.

    Raises:
        UnknownPlayerError: no such player.
    """
    if not player_ids:
        return {}
    found = {
        int(r[0]): int(r[1])
        for r in await conn.fetch(
            "SELECT player_id, balance FROM accounts WHERE player_id = ANY($1::bigint[])",
            list(player_ids),
        )
    }
    balances: dict[int, int] = {}
    for pid in player_ids:
        if pid not in found:
            raise UnknownPlayerError(pid)
        balances[pid] = found[pid]
    return balances


async def _season_period(conn: Conn, chat: str) -> SeasonPeriod:
    period = await conn.fetchval("SELECT period FROM chat_seasons WHERE chat = $1", chat)
    return DEFAULT_PERIOD if period is None else SeasonPeriod(period)


async def _record(
    conn: Conn,
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
    False when already stored. The caller holds the chat lock and the players' locks.

    Raises:
        UnknownPlayerError: a result names an unknown player.
    """
    if await conn.fetchval("SELECT 1 FROM matches WHERE match_id = $1", match_id):
        return False
    if not players_checked:
        await _check_players(conn, [r.player_id for r in results])
    await conn.execute(
        "INSERT INTO matches (match_id, chat, finished_at, record) VALUES ($1, $2, $3, $4)",
        match_id,
        chat,
        now,
        record_json,
    )
    if results:
        rows = [
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
        await conn.executemany(
            "INSERT INTO match_results (match_id, player_id, chat, finished_at, team,"
            " won_match, hands_won, dominoes, trancas_won, capicuas)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            rows,
        )
        await conn.executemany(
            "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played,"
            " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
            " VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8)"
            " ON CONFLICT (chat, player_id) DO UPDATE SET"
            " matches_played = t.matches_played + 1,"
            " matches_won = t.matches_won + excluded.matches_won,"
            " hands_won = t.hands_won + excluded.hands_won,"
            " dominoes = t.dominoes + excluded.dominoes,"
            " trancas_won = t.trancas_won + excluded.trancas_won,"
            " capicuas = t.capicuas + excluded.capicuas,"
            " last_played = GREATEST(t.last_played, excluded.last_played)",
            [(chat, row[1], *row[5:], now) for row in rows],
        )
    period = await _season_period(conn, chat)
    seasons = (season_key(period, now), season_key(DEFAULT_PERIOD, now))
    await _write_facts(conn, facts_of(match_id, chat, now, record, results, seasons))
    return True


def _seat_rows(facts: MatchFacts) -> list[tuple[Any, ...]]:
    return [
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
    ]


_INSERT_SEASON: Final = (
    "INSERT INTO match_seasons (match_id, chat_season, global_season, rated)"
    " VALUES ($1, $2, $3, $4)"
)
_INSERT_SEAT: Final = (
    "INSERT INTO match_seats (match_id, seat, player_id, robot, won, points, hands,"
    " moves, robot_moves, chat, finished_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
)
_UPSERT_RATING: Final = (
    "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (chat, season, player_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
    " updated_at = excluded.updated_at"
)


def _fenced(fn: Callable[[Conn], Awaitable[T]], fence: Fence) -> Callable[[Conn], Awaitable[T]]:
    """``fn`` preceded by the check of ``fence`` in its transaction."""

    async def checked(conn: Conn) -> T:
        held = await conn.fetchval(
            "SELECT 1 FROM table_claims WHERE platform = $1 AND owner = $2 AND fence = $3"
            " FOR SHARE",
            fence.scope,
            fence.owner,
            fence.token,
        )
        if held is None:
            raise FencedOut(fence)
        return await fn(conn)

    return checked


async def _write_facts(conn: Conn, facts: MatchFacts) -> None:
    """Write a match's seats, seasons and rating changes (the humans' rows are locked)."""
    await conn.execute(_INSERT_SEASON, facts.match_id, *facts.seasons, int(facts.rated))
    await conn.executemany(_INSERT_SEAT, _seat_rows(facts))
    if not facts.rated:
        return
    humans = [s.player_id for s in facts.seats if s.player_id is not None]
    scopes = facts.scopes()
    found: dict[tuple[Scope, int], RatingState] = {}
    for row in await conn.fetch(
        "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at FROM ratings"
        " WHERE player_id = ANY($1::bigint[]) AND chat = ANY($2::text[])"
        " AND season = ANY($3::text[])",
        humans,
        [s.chat for s in scopes],
        [s.season for s in scopes],
    ):
        scope = Scope(str(row[0]), str(row[1]))
        if scope in scopes:
            found[(scope, int(row[2]))] = RatingState(
                float(row[3]), float(row[4]), int(row[5]), int(row[6]), float(row[7])
            )
    changes = rating_changes(
        facts,
        lambda scope, ids: {pid: found[(scope, pid)] for pid in ids if (scope, pid) in found},
    )
    await conn.executemany(
        _UPSERT_RATING,
        [
            (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins, st.updated_at)
            for scope, pid, st in changes
        ],
    )
    # the all-time row's match count numbers the player's rating history (1, 2, ...)
    await conn.executemany(
        "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma)"
        " VALUES ($1, $2, $3, $4, $5, $6)",
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
        shown = display_rating(float(mu), float(sigma))
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


# --------------------------------------------------------------- the ledger check

_OPERATION_CHECKS: Final[tuple[tuple[str, str], ...]] = (
    (
        "player without its opening",
        "SELECT p.id::text FROM players p WHERE NOT EXISTS (SELECT 1 FROM transactions t"
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

_LEDGER_TABLES: Final = ("accounts", "transactions", "entries", "escrows", "escrow_holders")


async def _check_ledger(conn: Conn) -> list[str]:
    problems: list[str] = []
    # PostgreSQL's own guards, in place of SQLite's quick_check and foreign_key_check:
    # every constraint validated, every ledger trigger enabled, the ledger's indexes
    # sound (amcheck, when an administrator installed it).
    for (name,) in await conn.fetch(
        "SELECT conrelid::regclass::text || '.' || conname FROM pg_constraint"
        " WHERE NOT convalidated AND connamespace = current_schema()::regnamespace"
    ):
        problems.append(f"constraint not validated: {name}")
    for (name,) in await conn.fetch(
        "SELECT tgrelid::regclass::text || '.' || tgname FROM pg_trigger"
        " WHERE NOT tgisinternal AND tgenabled = 'D'"
        " AND tgrelid = ANY(ARRAY['accounts', 'entries', 'transactions']::regclass[])"
    ):
        problems.append(f"ledger trigger disabled: {name}")
    if await conn.fetchval("SELECT 1 FROM pg_extension WHERE extname = 'amcheck'"):
        for (index,) in await conn.fetch(
            "SELECT i.indexrelid::regclass::text FROM pg_index i"
            " WHERE i.indrelid = ANY($1::text[]::regclass[])",
            list(_LEDGER_TABLES),
        ):
            try:
                async with conn.transaction():
                    await conn.execute("SELECT bt_index_check($1::regclass)", index)
            except asyncpg.PostgresError as exc:
                problems.append(f"index {index}: {exc}")
    for key, total in await conn.fetch(
        "SELECT t.key, SUM(e.amount) FROM entries e JOIN transactions t"
        " ON t.id = e.transaction_id GROUP BY t.id HAVING SUM(e.amount) <> 0"
    ):
        problems.append(f"transaction {key} sums to {int(total)}")
    total = await conn.fetchval("SELECT COALESCE(SUM(amount), 0) FROM entries")
    if total:
        problems.append(f"all entries sum to {int(total)}")
    for key, balance, summed in await conn.fetch(
        "SELECT a.key, a.balance, COALESCE(s.total, 0) FROM accounts a LEFT JOIN"
        " (SELECT account_id, SUM(amount) AS total FROM entries GROUP BY account_id) s"
        " ON s.account_id = a.id WHERE a.balance <> COALESCE(s.total, 0)"
    ):
        problems.append(f"{key} balance {balance} != entries {int(summed)}")
    for key, balance in await conn.fetch(
        "SELECT key, balance FROM accounts WHERE kind <> 'house' AND balance < 0"
    ):
        problems.append(f"{key} balance {balance} is negative")
    for match_id, balance, expected in await conn.fetch(
        "SELECT * FROM (SELECT e.match_id, a.balance, CASE WHEN e.state = 'open' THEN"
        " e.stake * (SELECT COUNT(*) FROM escrow_holders h WHERE h.match_id = e.match_id"
        " AND h.status = 'held') ELSE 0 END AS expected"
        " FROM escrows e JOIN accounts a ON a.id = e.account_id) x"
        " WHERE balance <> expected"
    ):
        problems.append(f"escrow {match_id} holds {balance}, expected {int(expected)}")
    for what, sql in _OPERATION_CHECKS:
        for (ref,) in await conn.fetch(sql):
            problems.append(f"{what}: {ref}")
    return problems


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
            except (*_RETRY, _TryAgain):
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

        async def write(conn: Conn) -> Player:
            row = await conn.fetchrow(
                "SELECT p.id, p.display_name, p.language FROM player_links l"
                " JOIN players p ON p.id = l.player_id"
                " WHERE l.platform = $1 AND l.platform_user_id = $2",
                platform,
                platform_user_id,
            )
            if row is not None:
                if row[1] != name:
                    await conn.execute(
                        "UPDATE players SET display_name = $1 WHERE id = $2", name, row[0]
                    )
                return Player(int(row[0]), name, str(row[2]))
            lang = normalize_language(language)
            player_id = int(
                await conn.fetchval(
                    "WITH p AS (INSERT INTO players (display_name, language, created_at)"
                    " VALUES ($1, $2, $3) RETURNING id),"
                    " l AS (INSERT INTO player_links (platform, platform_user_id, player_id)"
                    " SELECT $4, $5, id FROM p)"
                    " INSERT INTO accounts (key, kind, player_id)"
                    " SELECT 'player:' || id, 'player', id FROM p RETURNING player_id",
                    name,
                    lang,
                    now,
                    platform,
                    platform_user_id,
                )
            )
            await _post(conn, plan_opening(player_id), now)
            return Player(player_id, name, lang)

        return await self._write(write)

    async def get_player(self, player_id: int) -> Player | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT id, display_name, language FROM players WHERE id = $1", player_id
            )
        )
        return None if row is None else Player(int(row[0]), str(row[1]), str(row[2]))

    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT p.id, p.display_name, p.language FROM player_links l"
                " JOIN players p ON p.id = l.player_id"
                " WHERE l.platform = $1 AND l.platform_user_id = $2",
                platform,
                platform_user_id,
            )
        )
        return None if row is None else Player(int(row[0]), str(row[1]), str(row[2]))

    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        check_platform_ids(platform, platform_user_id)

        async def write(conn: Conn) -> None:
            await _player_row(conn, player_id)
            linked = await conn.fetchval(
                "SELECT player_id FROM player_links WHERE platform = $1 AND platform_user_id = $2",
                platform,
                platform_user_id,
            )
            if linked is not None and linked != player_id:
                raise ValueError(f"{platform} user {platform_user_id} is linked to another player")
            if linked is None:
                await conn.execute(
                    "INSERT INTO player_links (platform, platform_user_id, player_id)"
                    " VALUES ($1, $2, $3)",
                    platform,
                    platform_user_id,
                    player_id,
                )

        await self._write(write)

    async def set_player_language(self, player_id: int, language: str) -> None:
        async def write(conn: Conn) -> None:
            await _player_row(conn, player_id)
            if language not in LANGUAGES:
                raise ValueError(
                    f"language must be one of {', '.join(LANGUAGES)} (got {language!r})"
                )
            await conn.execute(
                "UPDATE players SET language = $1 WHERE id = $2", language, player_id
            )

        await self._write(write)

    async def player_notifications(self, player_id: int) -> str:
        async def read(conn: Conn) -> str:
            await _player_row(conn, player_id)
            value = await conn.fetchval(
                "SELECT notifications FROM players WHERE id = $1", player_id
            )
            return str(value)

        return await self._read(read)

    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        async def write(conn: Conn) -> None:
            await _player_row(conn, player_id)
            check_notifications(notifications)
            await conn.execute(
                "UPDATE players SET notifications = $1 WHERE id = $2", notifications, player_id
            )

        await self._write(write)

    # ------------------------------------------------------------------- wallet

    async def balance(self, player_id: int) -> int:
        row = await self._read(lambda conn: _player_row(conn, player_id))
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

        async def write(conn: Conn) -> None:
            # The players' locks first (a concurrent stake of the same match then finds
            # its escrow below, and the balances read are the ones this stake spends).
            found: dict[int, tuple[int, float | None]] = {}
            staked = False
            if ids:
                for pid, last, balance, exists in await conn.fetch(
                    "SELECT p.id, p.last_top_up, a.balance,"
                    " EXISTS (SELECT 1 FROM escrows WHERE match_id = $2) FROM players p"
                    " JOIN accounts a ON a.player_id = p.id WHERE p.id = ANY($1::bigint[])"
                    " ORDER BY a.id FOR UPDATE OF a",
                    ids,
                    match_id,
                ):
                    found[int(pid)] = (int(balance), last)
                    staked = staked or bool(exists)
            if not found:
                staked = bool(await _escrow_exists(conn, match_id))
            if staked:
                return
            top_ups: dict[int, int] = {}
            short: list[int] = []
            for pid in ids:
                if pid not in found:
                    continue  # unknown: raised below
                balance, last = found[pid]
                added = top_up_amount(balance, stake, last, now)
                if balance + added < stake:
                    short.append(pid)
                elif added:
                    top_ups[pid] = added
            if short or len(found) < len(ids):
                # the check above ran on the snapshot taken before the players' locks
                # were granted: a stake of this match that committed meanwhile shows now
                if await _escrow_exists(conn, match_id):
                    return
                for pid in ids:
                    if pid not in found:
                        raise UnknownPlayerError(pid)
                raise InsufficientFunds(short)
            for pid, added in top_ups.items():
                await _post(conn, plan_top_up(pid, added, match_id=match_id, now=now), now)
                await conn.execute("UPDATE players SET last_top_up = $1 WHERE id = $2", now, pid)
            await _post(conn, plan_stake(match_id, stake, ids), now, open_stake=stake)

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

        async def write(conn: Conn) -> dict[int, int]:
            escrow = await _escrow(conn, match_id)
            await _lock_players(conn, list(escrow[2]))
            return (await _settle(conn, match_id, escrow, winners, now))[0]

        return await self._write(write, fence)

    async def refund(
        self, match_id: str, *, now: float, fence: Fence | None = None
    ) -> dict[int, int]:
        check_now(now)

        async def write(conn: Conn) -> dict[int, int]:
            stake, state, holders = await _escrow(conn, match_id)
            if state == "refunded":
                return await _paid(conn, match_id, "refunded")
            if state == "settled":
                raise MatchClosedError(match_id, state)
            await _lock_players(conn, list(holders))
            plan = plan_refund(match_id, stake, holders)
            await _post(conn, plan, now, close="refunded")
            return dict(plan.amounts)

        return await self._write(write, fence)

    async def forfeit(
        self, match_id: str, player_id: int, *, now: float, fence: Fence | None = None
    ) -> None:
        check_now(now)

        async def write(conn: Conn) -> None:
            stake, state, holders = await _escrow(conn, match_id)
            status = holders.get(player_id)
            if status is None:
                raise NotInMatchError(match_id, player_id)
            if status == "forfeited":
                return
            if state != "open":
                raise MatchClosedError(match_id, state)
            plan = plan_forfeit(match_id, stake, player_id)
            await conn.execute(
                "UPDATE escrow_holders SET status = $1 WHERE match_id = $2 AND player_id = $3",
                plan.statuses[player_id],
                match_id,
                player_id,
            )
            await _post(conn, plan, now)

        await self._write(write, fence)

    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        check_now(now)

        async def write(conn: Conn) -> int:
            row = await _player_row(conn, player_id, lock=True)
            added = top_up_amount(int(row[4]), stake, row[3], now)
            if added:
                await conn.execute(
                    "UPDATE players SET last_top_up = $1 WHERE id = $2", now, player_id
                )
                await _post(conn, plan_top_up(player_id, added, match_id=None, now=now), now)
            return added

        return await self._write(write)

    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        async def read(conn: Conn) -> list[asyncpg.Record]:
            await _player_row(conn, player_id)
            return await conn.fetch(
                "SELECT t.kind, e.amount, t.match_id, t.created_at FROM entries e"
                " JOIN transactions t ON t.id = e.transaction_id"
                " WHERE e.account_id = (SELECT id FROM accounts WHERE player_id = $1)"
                " ORDER BY e.id DESC LIMIT $2",
                player_id,
                max(limit, 0),
            )

        rows = await self._read(read)
        return [LedgerEntry(str(k), int(a), m, float(t)) for k, a, m, t in rows]

    async def check_ledger(self) -> list[str]:
        return await self._snapshot(_check_ledger)

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

        async def write(conn: Conn) -> None:
            await _lock_chat(conn, chat)
            await _lock_players(conn, [r.player_id for r in results])
            await _record(conn, match_id, chat, now, record, record_json, results)

        await self._write(write)

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

        async def write(conn: Conn) -> MatchSettlement:
            await _lock_chat(conn, chat)
            await _check_players(conn, [r.player_id for r in results])
            escrow = await _find_escrow(conn, match_id, lock=True)
            if escrow is not None and escrow[1] == "refunded":
                raise MatchClosedError(match_id, escrow[1])
            holders = [] if escrow is None else list(escrow[2])
            ids = list(dict.fromkeys([*holders, *(r.player_id for r in results)]))
            await _lock_players(conn, ids)
            # read under the players' locks: after the settlement they are these plus
            # the payouts (the record is written first, the money last: see _post)
            balances = await _balances(conn, ids)
            recorded = False
            if escrow is not None or results:
                recorded = await _record(
                    conn, match_id, chat, now, record, record_json, results, players_checked=True
                )
            payouts: dict[int, int] = {}
            settled = False
            if escrow is not None:
                payouts, settled = await _settle(conn, match_id, escrow, winner_ids, now)
                if settled:
                    for pid, amount in payouts.items():
                        balances[pid] += amount
            already = not settled and not recorded
            if already and escrow is None:
                already = bool(
                    await conn.fetchval("SELECT 1 FROM matches WHERE match_id = $1", match_id)
                )
            return MatchSettlement(payouts, balances, already)

        return await self._write(write, fence)

    async def player_stats(self, player_id: int) -> PlayerStats:
        async def read(conn: Conn) -> asyncpg.Record:
            await _player_row(conn, player_id)
            row = await conn.fetchrow(
                "SELECT COALESCE(SUM(matches_played), 0), COALESCE(SUM(matches_won), 0),"
                " COALESCE(SUM(hands_won), 0), COALESCE(SUM(dominoes), 0),"
                " COALESCE(SUM(trancas_won), 0), COALESCE(SUM(capicuas), 0), MAX(last_played)"
                " FROM player_chat_totals WHERE player_id = $1",
                player_id,
            )
            assert row is not None
            return row

        played, won, hands, dominoes, trancas, capicuas, last = await self._read(read)
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
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT x.player_id, x.display_name, x.balance, x.played,"
                " (SELECT COALESCE(SUM(e.amount), 0) FROM entries e"
                " JOIN transactions tr ON tr.id = e.transaction_id"
                " WHERE e.account_id = x.account_id AND tr.created_at > $4"
                " AND tr.kind <> 'open')"
                " FROM (SELECT t.player_id, p.display_name, a.balance, a.id AS account_id,"
                " SUM(t.matches_played) AS played"
                " FROM player_chat_totals t JOIN players p ON p.id = t.player_id"
                " JOIN accounts a ON a.player_id = t.player_id"
                " WHERE ($1::text IS NULL OR t.chat = $1)"
                " GROUP BY t.player_id, p.id, a.id HAVING MAX(t.last_played) >= $2"
                " ORDER BY a.balance DESC, played DESC, t.player_id LIMIT $3) x"
                " ORDER BY x.balance DESC, x.played DESC, x.player_id",
                chat,
                now - ACTIVE_SECONDS,
                max(limit, 0),
                now - TREND_SECONDS,
            )
        )
        # trend: what the balance changed by in the last TREND_SECONDS (the opening grant
        # is where a balance starts, not a change)
        return [RankRow(int(p), str(n), int(b), int(c), int(moved)) for p, n, b, c, moved in rows]

    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches,"
                " (SELECT ARRAY[h.mu, h.sigma] FROM rating_history h"
                " WHERE h.player_id = r.player_id AND h.at <= $4 ORDER BY h.seq DESC LIMIT 1)"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.chat = $1 AND r.season = $2"
                " AND ($3::text IS NULL OR r.player_id IN"
                " (SELECT player_id FROM player_chat_totals WHERE chat = $3))"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT $5",
                ALL_CHATS,
                ALL_TIME,
                chat,
                now - TREND_SECONDS,
                max(limit, 0),
            )
        )
        return _rank_rows(
            [
                (
                    pid,
                    name,
                    mu,
                    sigma,
                    matches,
                    None if before is None else display_rating(before[0], before[1]),
                )
                for pid, name, mu, sigma, matches, before in rows
            ]
        )

    async def season_standings(self, chat: str, season: str, *, limit: int = 10) -> list[RankRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches, NULL"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.chat = $1 AND r.season = $2"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT $3",
                chat,
                season,
                max(limit, 0),
            )
        )
        return _rank_rows([tuple(row) for row in rows])

    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT x.lo, x.hi, pa.display_name, pb.display_name, x.n, x.won FROM"
                " (SELECT LEAST(a.player_id, b.player_id) AS lo,"
                " GREATEST(a.player_id, b.player_id) AS hi, COUNT(*) AS n, SUM(a.won) AS won"
                " FROM match_seats a"
                " JOIN match_seats b ON b.match_id = a.match_id AND b.seat = a.seat + 2"
                " WHERE ($1::text IS NULL OR a.chat = $1)"
                " AND a.player_id IS NOT NULL AND b.player_id IS NOT NULL"
                " GROUP BY 1, 2 HAVING COUNT(*) >= $2) x"
                " JOIN players pa ON pa.id = x.lo JOIN players pb ON pb.id = x.hi",
                chat,
                min_matches,
            )
        )
        pairs = [
            PairRow((int(a), int(b)), (str(name_a), str(name_b)), int(n), int(won))
            for a, b, name_a, name_b, n, won in rows
        ]
        pairs.sort(key=pair_order)
        return pairs[: max(limit, 0)]

    async def player_rating(
        self, player_id: int, *, chat: str = ALL_CHATS, season: str = ALL_TIME
    ) -> Rating | None:
        async def read(conn: Conn) -> asyncpg.Record | None:
            await _player_row(conn, player_id)
            return await conn.fetchrow(
                "SELECT mu, sigma, matches, wins, updated_at FROM ratings"
                " WHERE chat = $1 AND season = $2 AND player_id = $3",
                chat,
                season,
                player_id,
            )

        row = await self._read(read)
        if row is None:
            return None
        state = RatingState(float(row[0]), float(row[1]), int(row[2]), int(row[3]), float(row[4]))
        return rating_of(player_id, state)

    async def rating_history(self, player_id: int, *, limit: int = 50) -> list[RatingPoint]:
        async def read(conn: Conn) -> list[asyncpg.Record]:
            await _player_row(conn, player_id)
            return await conn.fetch(
                "SELECT match_id, at, mu, sigma FROM rating_history WHERE player_id = $1"
                " ORDER BY seq DESC LIMIT $2",
                player_id,
                max(limit, 0),
            )

        rows = await self._read(read)
        return [
            RatingPoint(str(m), float(at), display_rating(mu, sigma), float(mu), float(sigma))
            for m, at, mu, sigma in reversed(rows)
        ]

    async def player_record(self, player_id: int) -> PlayerRecord:
        async def read(conn: Conn) -> PlayerRecord:
            await _player_row(conn, player_id)
            rivals = []
            for where in ("o.seat % 2 = m.seat % 2", "o.seat % 2 <> m.seat % 2"):
                rows = await conn.fetch(
                    "SELECT o.player_id, p.display_name, COUNT(*) AS n, SUM(m.won)"
                    " FROM match_seats m JOIN match_seats o ON o.match_id = m.match_id"
                    " AND o.seat <> m.seat JOIN players p ON p.id = o.player_id"
                    f" WHERE m.player_id = $1 AND {where}"
                    " GROUP BY o.player_id, p.id ORDER BY n DESC, o.player_id",
                    player_id,
                )
                rivals.append(tuple(Rival(int(p), str(n), int(c), int(w)) for p, n, c, w in rows))
            results = await conn.fetch(
                "SELECT s.won FROM match_seats s JOIN matches m ON m.match_id = s.match_id"
                " WHERE s.player_id = $1 ORDER BY m.id DESC LIMIT 1000",
                player_id,
            )
            totals = await conn.fetchrow(
                "SELECT COALESCE(SUM(points), 0), COALESCE(SUM(hands), 0) FROM match_seats"
                " WHERE player_id = $1",
                player_id,
            )
            assert totals is not None
            return PlayerRecord(
                rivals[0],
                rivals[1],
                streak_of([bool(w) for (w,) in results]),
                int(totals[0]),
                int(totals[1]),
            )

        return await self._snapshot(read)

    async def season_period(self, chat: str) -> SeasonPeriod:
        return await self._read(lambda conn: _season_period(conn, chat))

    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        period = SeasonPeriod(period)

        async def write(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO chat_seasons (chat, period, changed_by, changed_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (chat) DO UPDATE SET"
                " period = excluded.period, changed_by = excluded.changed_by,"
                " changed_at = excluded.changed_at",
                chat,
                period.value,
                changed_by,
                now,
            )

        await self._write(write)

    async def seasons(self, chat: str) -> list[str]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT season, MAX(updated_at) AS last FROM ratings WHERE chat = $1 AND"
                " season <> '' GROUP BY season ORDER BY last DESC, season DESC",
                chat,
            )
        )
        return [str(season) for season, _ in rows]

    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        check_now(now)
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT DISTINCT r.chat, r.season FROM ratings r WHERE r.season <> ''"
                " AND NOT EXISTS (SELECT 1 FROM season_finals f WHERE f.chat = r.chat"
                " AND f.season = r.season)"
            )
        )
        return due_finals([(str(c), str(s)) for c, s in rows], now)

    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        check_now(now)

        async def write(conn: Conn) -> bool:
            status = await conn.execute(
                "INSERT INTO season_finals (chat, season, announced_at) VALUES ($1, $2, $3)"
                " ON CONFLICT DO NOTHING",
                chat,
                season,
                now,
            )
            return _count(status) > 0

        return await self._write(write)

    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        async def rebuild(conn: Conn) -> RebuildReport:
            # exclusive: no match is recorded (nor chat moved) while the tables are rebuilt
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCK_SPACE, RATINGS_LOCK)
            matches = await conn.fetch(
                "SELECT m.match_id, m.chat, m.finished_at, m.record, s.chat_season,"
                " s.global_season FROM matches m"
                " LEFT JOIN match_seasons s ON s.match_id = m.match_id ORDER BY m.id"
            )
            results: dict[str, list[PlayerResult]] = {}
            for row in await conn.fetch(
                "SELECT match_id, player_id, team, won_match FROM match_results"
            ):
                results.setdefault(row[0], []).append(
                    PlayerResult(int(row[1]), int(row[2]), bool(row[3]))
                )
            book = RatingBook()
            all_facts = []
            periods: dict[str, SeasonPeriod] = {}
            for match_id, chat, at, record_json, chat_season, global_season in matches:
                if chat_season is None:
                    if chat not in periods:
                        periods[chat] = await _season_period(conn, chat)
                    chat_season = season_key(periods[chat], at)
                    global_season = season_key(DEFAULT_PERIOD, at)
                facts = facts_of(
                    match_id,
                    chat,
                    float(at),
                    json.loads(record_json),
                    sorted(results.get(match_id, []), key=lambda r: r.player_id),
                    (chat_season, global_season),
                )
                book.apply(facts)
                all_facts.append(facts)
            stored = {
                (Scope(str(c), str(s)), int(p)): RatingState(
                    float(mu), float(sigma), int(n), int(w), float(u)
                )
                for c, s, p, mu, sigma, n, w, u in await conn.fetch(
                    "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at"
                    " FROM ratings"
                )
            }
            history: dict[int, list[tuple[str, float, float, float]]] = {}
            for p, m, at, mu, sigma in await conn.fetch(
                "SELECT player_id, match_id, at, mu, sigma FROM rating_history"
                " ORDER BY player_id, seq"
            ):
                history.setdefault(int(p), []).append((str(m), float(at), float(mu), float(sigma)))
            report = compare_ratings(book, stored, history, all_facts)
            if write:
                # the book holds exactly what replaying each match's writes would leave
                for table in ("ratings", "rating_history", "match_seats", "match_seasons"):
                    await conn.execute(f"DELETE FROM {table}")
                await conn.executemany(
                    _INSERT_SEASON,
                    [(f.match_id, *f.seasons, int(f.rated)) for f in all_facts],
                )
                await conn.executemany(
                    _INSERT_SEAT, [row for f in all_facts for row in _seat_rows(f)]
                )
                await conn.executemany(
                    _UPSERT_RATING,
                    [
                        (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins,
                         st.updated_at)
                        for scope, table in book.tables.items()
                        for pid, st in table.items()
                    ],
                )  # fmt: skip
                await conn.executemany(
                    "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma)"
                    " VALUES ($1, $2, $3, $4, $5, $6)",
                    [
                        (pid, seq, m, at, mu, sigma)
                        for pid, points in book.history.items()
                        for seq, (m, at, mu, sigma) in enumerate(points, start=1)
                    ],
                )
            return report

        return await self._write(rebuild)

    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT m.match_id, m.chat, m.finished_at, m.record FROM matches m"
                " WHERE ($1::text IS NULL OR m.chat = $1) AND ($2::bigint IS NULL OR EXISTS"
                " (SELECT 1 FROM match_results r WHERE r.match_id = m.match_id"
                " AND r.player_id = $2)) ORDER BY m.finished_at DESC, m.id DESC LIMIT $3",
                chat,
                player_id,
                max(limit, 0),
            )
        )
        return [StoredMatch(str(m), str(c), float(f), json.loads(r)) for m, c, f, r in rows]

    # ------------------------------------------------------------ chat presets

    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT preset, overrides, changed_by, changed_at FROM chat_rules WHERE chat = $1",
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

        async def write(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (chat) DO UPDATE SET"
                " preset = excluded.preset, overrides = excluded.overrides,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                chat,
                name,
                text,
                changed_by,
                now,
            )

        await self._write(write)
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

        async def write(conn: Conn) -> None:
            await conn.execute(
                "SELECT pg_advisory_xact_lock_shared($1, $2)", LOCK_SPACE, RATINGS_LOCK
            )
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1, h) FROM"
                " (SELECT DISTINCT hashtext(c) AS h FROM unnest($2::text[]) AS c) x ORDER BY h",
                CHAT_LOCK_SPACE,
                [old, new],
            )
            # the new chat's own rules are newer than the old chat's: they stay
            await conn.execute(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " SELECT $2, preset, overrides, changed_by, changed_at FROM chat_rules"
                " WHERE chat = $1 ON CONFLICT (chat) DO NOTHING",
                old,
                new,
            )
            await conn.execute("DELETE FROM chat_rules WHERE chat = $1", old)
            await conn.execute(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " SELECT $2, language, changed_by, changed_at FROM chat_settings"
                " WHERE chat = $1 ON CONFLICT (chat) DO NOTHING",
                old,
                new,
            )
            await conn.execute("DELETE FROM chat_settings WHERE chat = $1", old)
            for table in ("matches", "match_results", "match_seats"):
                await conn.execute(f"UPDATE {table} SET chat = $2 WHERE chat = $1", old, new)
            # the new chat's own rows (its period, a season it already played) stay
            for table, same in (
                ("chat_seasons", ""),
                ("season_finals", " AND o.season = t.season"),
                ("ratings", " AND o.season = t.season AND o.player_id = t.player_id"),
            ):
                await conn.execute(
                    f"UPDATE {table} t SET chat = $2 WHERE t.chat = $1 AND NOT EXISTS"
                    f" (SELECT 1 FROM {table} o WHERE o.chat = $2{same})",
                    old,
                    new,
                )
                await conn.execute(f"DELETE FROM {table} WHERE chat = $1", old)
            await conn.execute(
                "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played,"
                " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
                " SELECT $2, player_id, matches_played, matches_won, hands_won, dominoes,"
                " trancas_won, capicuas, last_played FROM player_chat_totals WHERE chat = $1"
                " ON CONFLICT (chat, player_id) DO UPDATE SET"
                " matches_played = t.matches_played + excluded.matches_played,"
                " matches_won = t.matches_won + excluded.matches_won,"
                " hands_won = t.hands_won + excluded.hands_won,"
                " dominoes = t.dominoes + excluded.dominoes,"
                " trancas_won = t.trancas_won + excluded.trancas_won,"
                " capicuas = t.capicuas + excluded.capicuas,"
                " last_played = GREATEST(t.last_played, excluded.last_played)",
                old,
                new,
            )
            await conn.execute("DELETE FROM player_chat_totals WHERE chat = $1", old)
            if snapshots:
                await conn.executemany(_SAVE_TABLE, snapshots)

        await self._write(write)

    async def get_chat_language(self, chat: str) -> str | None:
        language = await self._read(
            lambda conn: conn.fetchval("SELECT language FROM chat_settings WHERE chat = $1", chat)
        )
        return None if language is None else str(language)

    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        check_chat_language(language)

        async def write(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (chat) DO UPDATE SET"
                " language = excluded.language, changed_by = excluded.changed_by,"
                " changed_at = excluded.changed_at",
                chat,
                language,
                changed_by,
                now,
            )

        await self._write(write)

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

        async def write(conn: Conn) -> None:
            await conn.execute(_SAVE_TABLE, table_id, text, now)

        await self._write(write, fence)

    async def load_tables(self) -> list[dict[str, Any]]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT snapshot FROM table_snapshots ORDER BY saved_at, table_id"
            )
        )
        return [json.loads(text) for (text,) in rows]

    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute("DELETE FROM table_snapshots WHERE table_id = $1", table_id)

        await self._write(write, fence)

    async def open_escrows(self) -> list[OpenEscrow]:
        rows = await self._read(
            lambda conn: conn.fetch(
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

    # ----------------------------------------------------------- table claims

    async def tables_claim(self, platform: str) -> TablesClaim | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT owner, heartbeat_at, fence FROM table_claims"
                " WHERE platform = $1 AND owner <> ''",
                platform,
            )
        )
        if row is None:
            return None
        return TablesClaim(platform, str(row[0]), float(row[1]), int(row[2]))

    async def tables_claims(self) -> list[TablesClaim]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT platform, owner, heartbeat_at, fence FROM table_claims"
                " WHERE owner <> '' ORDER BY platform COLLATE \"C\""
            )
        )
        return [TablesClaim(str(p), str(o), float(h), int(f)) for p, o, h, f in rows]

    async def claim_tables(
        self, platform: str, owner: str, *, now: float, replacing: str | None
    ) -> int | None:
        check_now(now)

        async def write(conn: Conn) -> int | None:
            row = await conn.fetchrow(
                "SELECT owner, fence FROM table_claims WHERE platform = $1 FOR UPDATE", platform
            )
            current = None if row is None or not row[0] else str(row[0])
            if current not in (replacing, owner):
                return None
            if row is not None:
                fence = int(row[1]) + (current != owner)
                await conn.execute(
                    "UPDATE table_claims SET owner = $2, heartbeat_at = $3, fence = $4"
                    " WHERE platform = $1",
                    platform,
                    owner,
                    now,
                    fence,
                )
                return fence
            status = await conn.execute(
                "INSERT INTO table_claims (platform, owner, heartbeat_at, fence)"
                " VALUES ($1, $2, $3, 1) ON CONFLICT (platform) DO NOTHING",
                platform,
                owner,
                now,
            )
            if not _count(status):
                raise _TryAgain  # another process claimed it meanwhile: compare again
            return 1

        return await self._write(write)

    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        check_now(now)

        async def write(conn: Conn) -> bool:
            status = await conn.execute(
                "UPDATE table_claims SET heartbeat_at = $1 WHERE platform = $2 AND owner = $3",
                now,
                platform,
                owner,
            )
            return _count(status) > 0

        return await self._write(write)

    async def release_tables(self, platform: str, owner: str) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(
                "UPDATE table_claims SET owner = '', heartbeat_at = 0"
                " WHERE platform = $1 AND owner = $2",
                platform,
                owner,
            )

        await self._write(write)


_SAVE_TABLE: Final = (
    "INSERT INTO table_snapshots (table_id, snapshot, saved_at) VALUES ($1, $2, $3)"
    " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot,"
    " saved_at = excluded.saved_at"
)
