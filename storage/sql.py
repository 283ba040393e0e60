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
- the larger and the smaller of two values (:attr:`Dialect.greatest`, :attr:`Dialect.least`:
  ``GREATEST``/``LEAST`` and SQLite's ``MAX``/``MIN``) and
  byte-order text sorting (:attr:`Dialect.bytewise`: ``COLLATE "C"`` / SQLite's own);
- a parameter that may be NULL is written ``CAST(? AS TEXT)`` (PostgreSQL must know its
  type; SQLite does the same);
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
    ACTIVE_SECONDS,
    LANGUAGES,
    TREND_SECONDS,
    ChatRules,
    Fence,
    FencedOut,
    LedgerEntry,
    OpenEscrow,
    PairRow,
    Player,
    PlayerRecord,
    PlayerStats,
    RankRow,
    Rating,
    RatingPoint,
    Rival,
    Storage,
    StoredMatch,
    TablesClaim,
    UnknownPlayerError,
    check_now,
)
from storage.common import (
    canonical_chat_rules,
    check_chat_language,
    check_chat_move,
    check_platform_ids,
    player_account,
    to_json,
)
from storage.ratings import (
    ALL_CHATS,
    ALL_TIME,
    DEFAULT_PERIOD,
    PROVISIONAL_MATCHES,
    RatingState,
    SeasonPeriod,
    display_rating,
    due_finals,
    pair_order,
    rating_of,
    streak_of,
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


_LINKED_PLAYER: Final = (
    "SELECT p.id, p.display_name, p.language FROM player_links l"
    " JOIN players p ON p.id = l.player_id WHERE l.platform = ? AND l.platform_user_id = ?"
)


def _player(row: Row) -> Player:
    return Player(int(row[0]), str(row[1]), str(row[2]))


async def _known_player(tx: Tx, player_id: int) -> None:
    """Raise :class:`UnknownPlayerError` unless a player has this id."""
    if await tx.value("SELECT 1 FROM players WHERE id = ?", player_id) is None:
        raise UnknownPlayerError(player_id)


async def season_period(tx: Tx, chat: str) -> SeasonPeriod:
    """The chat's season period (:data:`DEFAULT_PERIOD` when it chose none)."""
    period = await tx.value("SELECT period FROM chat_seasons WHERE chat = ?", chat)
    return DEFAULT_PERIOD if period is None else SeasonPeriod(period)


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


class SqlStorage(Storage):
    """The operations written once (module doc); a database supplies how they run."""

    @abstractmethod
    async def _query(self, op: Op[T], *, snapshot: bool = False) -> T:
        """Run a read ``op``; with ``snapshot``, its statements see one snapshot (on
        PostgreSQL a REPEATABLE READ READ ONLY transaction; SQLite's one connection runs
        one operation at a time)."""

    @abstractmethod
    async def _transact(self, op: Op[T], fence: Fence | None = None) -> T:
        """Run ``op`` in one write transaction, whole or not at all; with ``fence``,
        :func:`check_fence` first in the same transaction."""

    # ------------------------------------------------------------------ players

    async def get_player(self, player_id: int) -> Player | None:
        row = await self._query(
            lambda tx: tx.row(
                "SELECT id, display_name, language FROM players WHERE id = ?", player_id
            )
        )
        return None if row is None else _player(row)

    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        row = await self._query(lambda tx: tx.row(_LINKED_PLAYER, platform, platform_user_id))
        return None if row is None else _player(row)

    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        check_platform_ids(platform, platform_user_id)

        async def write(tx: Tx) -> None:
            await _known_player(tx, player_id)
            linked = await tx.value(
                "SELECT player_id FROM player_links WHERE platform = ? AND platform_user_id = ?",
                platform,
                platform_user_id,
            )
            if linked is not None and linked != player_id:
                raise ValueError(f"{platform} user {platform_user_id} is linked to another player")
            if linked is None:
                await tx.run(
                    "INSERT INTO player_links (platform, platform_user_id, player_id)"
                    " VALUES (?, ?, ?)",
                    platform,
                    platform_user_id,
                    player_id,
                )

        await self._transact(write)

    async def set_player_language(self, player_id: int, language: str) -> None:
        async def write(tx: Tx) -> None:
            await _known_player(tx, player_id)
            if language not in LANGUAGES:
                raise ValueError(
                    f"language must be one of {', '.join(LANGUAGES)} (got {language!r})"
                )
            await tx.run("UPDATE players SET language = ? WHERE id = ?", language, player_id)

        await self._transact(write)

    async def balance(self, player_id: int) -> int:
        async def read(tx: Tx) -> int:
            balance = await tx.value(
                "SELECT balance FROM accounts WHERE key = ?", player_account(player_id)
            )
            if balance is None:
                raise UnknownPlayerError(player_id)
            return int(balance)

        return await self._query(read)

    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        async def read(tx: Tx) -> list[Row]:
            await _known_player(tx, player_id)
            return await tx.rows(
                "SELECT t.kind, e.amount, t.match_id, t.created_at FROM entries e"
                " JOIN transactions t ON t.id = e.transaction_id"
                " WHERE e.account_id = (SELECT id FROM accounts WHERE key = ?)"
                " ORDER BY e.id DESC LIMIT ?",
                player_account(player_id),
                max(limit, 0),
            )

        rows = await self._query(read)
        return [LedgerEntry(str(k), int(a), m, float(t)) for k, a, m, t in rows]

    # ------------------------------------------------------ matches, records, statistics

    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT m.match_id, m.chat, m.finished_at, m.record FROM matches m"
                " WHERE (CAST(?1 AS TEXT) IS NULL OR m.chat = ?1)"
                " AND (CAST(?2 AS BIGINT) IS NULL OR EXISTS (SELECT 1 FROM match_results r"
                " WHERE r.match_id = m.match_id AND r.player_id = ?2))"
                " ORDER BY m.finished_at DESC, m.id DESC LIMIT ?3",
                chat,
                player_id,
                max(limit, 0),
            )
        )
        return [StoredMatch(str(m), str(c), float(f), json.loads(r)) for m, c, f, r in rows]

    async def player_stats(self, player_id: int) -> PlayerStats:
        async def read(tx: Tx) -> Row:
            await _known_player(tx, player_id)
            row = await tx.row(
                "SELECT COALESCE(SUM(matches_played), 0), COALESCE(SUM(matches_won), 0),"
                " COALESCE(SUM(hands_won), 0), COALESCE(SUM(dominoes), 0),"
                " COALESCE(SUM(trancas_won), 0), COALESCE(SUM(capicuas), 0), MAX(last_played)"
                " FROM player_chat_totals WHERE player_id = ?",
                player_id,
            )
            assert row is not None
            return row

        played, won, hands, dominoes, trancas, capicuas, last = await self._query(read)
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
        # trend: what the balance changed by in the last TREND_SECONDS (the opening grant
        # is where a balance starts, not a change)
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT x.player_id, x.display_name, x.balance, x.played,"
                " (SELECT COALESCE(SUM(e.amount), 0) FROM entries e"
                " JOIN transactions tr ON tr.id = e.transaction_id"
                " WHERE e.account_id = x.account_id AND tr.created_at > ?4"
                " AND tr.kind <> 'open')"
                " FROM (SELECT t.player_id, p.display_name, a.balance, a.id AS account_id,"
                " SUM(t.matches_played) AS played"
                " FROM player_chat_totals t JOIN players p ON p.id = t.player_id"
                " JOIN accounts a ON a.key = 'player:' || t.player_id"
                " WHERE (CAST(?1 AS TEXT) IS NULL OR t.chat = ?1)"
                " GROUP BY t.player_id, p.id, a.id HAVING MAX(t.last_played) >= ?2"
                " ORDER BY a.balance DESC, played DESC, t.player_id LIMIT ?3) x"
                " ORDER BY x.balance DESC, x.played DESC, x.player_id",
                chat,
                now - ACTIVE_SECONDS,
                max(limit, 0),
                now - TREND_SECONDS,
            )
        )
        return [RankRow(int(p), str(n), int(b), int(c), int(moved)) for p, n, b, c, moved in rows]

    # --------------------------------------------------------------- ratings and seasons

    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)
        before = (
            "(SELECT h.{0} FROM rating_history h WHERE h.player_id = r.player_id"
            " AND h.at <= ?4 ORDER BY h.seq DESC LIMIT 1)"
        )
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches,"
                f" {before.format('mu')}, {before.format('sigma')}"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.chat = ?1 AND r.season = ?2"
                " AND (CAST(?3 AS TEXT) IS NULL OR r.player_id IN"
                " (SELECT player_id FROM player_chat_totals WHERE chat = ?3))"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?5",
                ALL_CHATS,
                ALL_TIME,
                chat,
                now - TREND_SECONDS,
                max(limit, 0),
            )
        )
        return _rank_rows(
            [
                (pid, name, mu, sigma, matches, None if was is None else display_rating(was, sd))
                for pid, name, mu, sigma, matches, was, sd in rows
            ]
        )

    async def season_standings(self, chat: str, season: str, *, limit: int = 10) -> list[RankRow]:
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches, NULL"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.chat = ? AND r.season = ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?",
                chat,
                season,
                max(limit, 0),
            )
        )
        return _rank_rows(rows)

    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        def read(tx: Tx) -> Coroutine[Any, Any, list[Row]]:
            least, greatest = tx.dialect.least, tx.dialect.greatest
            return tx.rows(
                "SELECT x.lo, x.hi, pa.display_name, pb.display_name, x.n, x.won FROM"
                f" (SELECT {least}(a.player_id, b.player_id) AS lo,"
                f" {greatest}(a.player_id, b.player_id) AS hi, COUNT(*) AS n, SUM(a.won) AS won"
                " FROM match_seats a"
                " JOIN match_seats b ON b.match_id = a.match_id AND b.seat = a.seat + 2"
                " WHERE (CAST(?1 AS TEXT) IS NULL OR a.chat = ?1)"
                " AND a.player_id IS NOT NULL AND b.player_id IS NOT NULL"
                " GROUP BY 1, 2 HAVING COUNT(*) >= ?2) x"
                " JOIN players pa ON pa.id = x.lo JOIN players pb ON pb.id = x.hi",
                chat,
                min_matches,
            )

        rows = await self._query(read)
        pairs = [
            PairRow((int(a), int(b)), (str(name_a), str(name_b)), int(n), int(won))
            for a, b, name_a, name_b, n, won in rows
        ]
        pairs.sort(key=pair_order)
        return pairs[: max(limit, 0)]

    async def player_rating(
        self, player_id: int, *, chat: str = ALL_CHATS, season: str = ALL_TIME
    ) -> Rating | None:
        async def read(tx: Tx) -> Row | None:
            await _known_player(tx, player_id)
            return await tx.row(
                "SELECT mu, sigma, matches, wins, updated_at FROM ratings"
                " WHERE chat = ? AND season = ? AND player_id = ?",
                chat,
                season,
                player_id,
            )

        row = await self._query(read)
        if row is None:
            return None
        state = RatingState(float(row[0]), float(row[1]), int(row[2]), int(row[3]), float(row[4]))
        return rating_of(player_id, state)

    async def rating_history(self, player_id: int, *, limit: int = 50) -> list[RatingPoint]:
        async def read(tx: Tx) -> list[Row]:
            await _known_player(tx, player_id)
            return await tx.rows(
                "SELECT match_id, at, mu, sigma FROM rating_history WHERE player_id = ?"
                " ORDER BY seq DESC LIMIT ?",
                player_id,
                max(limit, 0),
            )

        rows = await self._query(read)
        return [
            RatingPoint(str(m), float(at), display_rating(mu, sigma), float(mu), float(sigma))
            for m, at, mu, sigma in reversed(rows)
        ]

    async def player_record(self, player_id: int) -> PlayerRecord:
        async def read(tx: Tx) -> PlayerRecord:
            await _known_player(tx, player_id)
            rivals = []
            for where in ("o.seat % 2 = m.seat % 2", "o.seat % 2 <> m.seat % 2"):
                rows = await tx.rows(
                    "SELECT o.player_id, p.display_name, COUNT(*) AS n, SUM(m.won)"
                    " FROM match_seats m JOIN match_seats o ON o.match_id = m.match_id"
                    " AND o.seat <> m.seat JOIN players p ON p.id = o.player_id"
                    f" WHERE m.player_id = ? AND {where}"
                    " GROUP BY o.player_id, p.id ORDER BY n DESC, o.player_id",
                    player_id,
                )
                rivals.append(tuple(Rival(int(p), str(n), int(c), int(w)) for p, n, c, w in rows))
            results = await tx.rows(
                "SELECT s.won FROM match_seats s JOIN matches m ON m.match_id = s.match_id"
                " WHERE s.player_id = ? ORDER BY m.id DESC LIMIT 1000",
                player_id,
            )
            totals = await tx.row(
                "SELECT COALESCE(SUM(points), 0), COALESCE(SUM(hands), 0) FROM match_seats"
                " WHERE player_id = ?",
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

        return await self._query(read, snapshot=True)

    async def season_period(self, chat: str) -> SeasonPeriod:
        return await self._query(lambda tx: season_period(tx, chat))

    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        period = SeasonPeriod(period)
        await self._transact(
            lambda tx: tx.run(
                "INSERT INTO chat_seasons (chat, period, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET period = excluded.period,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                chat,
                period.value,
                changed_by,
                now,
            )
        )

    async def seasons(self, chat: str) -> list[str]:
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT season, MAX(updated_at) AS last FROM ratings WHERE chat = ? AND"
                " season <> '' GROUP BY season ORDER BY last DESC, season DESC",
                chat,
            )
        )
        return [str(season) for season, _ in rows]

    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        check_now(now)
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT DISTINCT r.chat, r.season FROM ratings r WHERE r.season <> ''"
                " AND NOT EXISTS (SELECT 1 FROM season_finals f WHERE f.chat = r.chat"
                " AND f.season = r.season)"
            )
        )
        return due_finals([(str(c), str(s)) for c, s in rows], now)

    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        check_now(now)
        added = await self._transact(
            lambda tx: tx.run(
                "INSERT INTO season_finals (chat, season, announced_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                chat,
                season,
                now,
            )
        )
        return added > 0

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
