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

:class:`SqlStorage` holds the operations written this way; both storages inherit them.
"""

from __future__ import annotations

import json
import re
import sqlite3
from abc import abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

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
    username_key,
)
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

__all__ = [
    "INSERT_HISTORY",
    "INSERT_SEASON",
    "INSERT_SEAT",
    "POSTGRES",
    "SQLITE",
    "UPSERT_RATING",
    "Dialect",
    "Op",
    "SqlStorage",
    "SqliteTx",
    "TryAgain",
    "Tx",
    "check_fence",
    "drive",
    "season_period",
    "seat_rows",
    "write_facts",
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
        entries = _entries(plan)
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


def _entries(plan: Plan) -> list[tuple[str, int]]:
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


def _marks(count: int) -> str:
    """``count`` parameters, for ``IN (...)``."""
    return ", ".join("?" * count)


async def _player_row(tx: Tx, player_id: int, *, lock: bool = False) -> Row:
    """(id, display_name, language, last_top_up, balance) of a player; ``lock`` locks
    the account to the commit.

    Raises:
        UnknownPlayerError: no such player.
    """
    row = await tx.row(
        "SELECT p.id, p.display_name, p.language, p.last_top_up, a.balance"
        " FROM players p JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id = ?"
        + (tx.dialect.lock_of("a") if lock else ""),
        player_id,
    )
    if row is None:
        raise UnknownPlayerError(player_id)
    return row


Escrow = tuple[int, str, dict[int, str]]
"""(stake, state, holders in seat order: player id -> status) of a match's escrow."""


async def _find_escrow(tx: Tx, match_id: str, *, lock: bool = False) -> Escrow | None:
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


async def _escrow(tx: Tx, match_id: str) -> Escrow:
    """Like :func:`_find_escrow` (locked).

    Raises:
        UnknownMatchError: the match has no escrow.
    """
    found = await _find_escrow(tx, match_id, lock=True)
    if found is None:
        raise UnknownMatchError(match_id)
    return found


async def _paid(tx: Tx, match_id: str, status: str) -> dict[int, int]:
    """What each holder of ``status`` was paid, in seat order."""
    rows = await tx.rows(
        "SELECT player_id, paid FROM escrow_holders WHERE match_id = ? AND status = ?"
        " ORDER BY position",
        match_id,
        status,
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def _settle(
    tx: Tx, match_id: str, found: Escrow, winners: Sequence[int], now: float
) -> tuple[dict[int, int], bool]:
    """Settle the escrow (rules.md, "The house"): (payouts, whether it was written now).

    Already settled: the first settlement's payouts, nothing written.

    Raises:
        MatchClosedError: the escrow was refunded.
    """
    stake, state, holders = found
    if state == "settled":
        return await _paid(tx, match_id, "paid"), False
    if state == "refunded":
        raise MatchClosedError(match_id, state)
    plan = plan_settlement(match_id, stake, holders, winners)
    await tx.post(plan, now, close="settled")
    return dict(plan.amounts), True


async def _check_players(tx: Tx, player_ids: Sequence[int]) -> None:
    """Raise UnknownPlayerError for the first id that names no player."""
    if not player_ids:
        return
    known = {
        int(r[0])
        for r in await tx.rows(
            f"SELECT id FROM players WHERE id IN ({_marks(len(player_ids))})", *player_ids
        )
    }
    for pid in player_ids:
        if pid not in known:
            raise UnknownPlayerError(pid)


async def _lock_balances(tx: Tx, player_ids: Sequence[int]) -> dict[int, int]:
    """player id -> balance of those of ``player_ids`` that have an account (an unknown
    player is left out), their accounts locked to the commit by id (step 3 of
    PostgreSQL's lock order, as :meth:`Tx.lock_players`; nothing to lock on SQLite): one
    statement for the lock and the read."""
    if not player_ids:
        return {}
    rows = await tx.rows(
        "SELECT player_id, balance FROM accounts"
        f" WHERE key IN ({_marks(len(player_ids))}) ORDER BY id" + tx.dialect.for_update,
        *(player_account(pid) for pid in player_ids),
    )
    return {int(pid): int(balance) for pid, balance in rows}


async def _record(
    tx: Tx,
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
    False when already stored. On PostgreSQL the caller holds the chat lock and the
    players' locks.

    Raises:
        UnknownPlayerError: a result names an unknown player.
    """
    stored, chosen = await tx.row(
        "SELECT (SELECT 1 FROM matches WHERE match_id = ?),"
        " (SELECT period FROM chat_seasons WHERE chat = ?)",
        match_id,
        chat,
    ) or (None, None)
    if stored:
        return False
    if not players_checked:
        await _check_players(tx, [r.player_id for r in results])
    await tx.write(
        "INSERT INTO matches (match_id, chat, finished_at, record) VALUES (?, ?, ?, ?)",
        match_id,
        chat,
        now,
        record_json,
    )
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
    await tx.many(
        "INSERT INTO match_results (match_id, player_id, chat, finished_at, team,"
        " won_match, hands_won, dominoes, trancas_won, capicuas)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    await tx.many(
        "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played,"
        " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
        " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)" + _add_totals(tx),
        [(chat, row[1], *row[5:], now) for row in rows],
    )
    period = DEFAULT_PERIOD if chosen is None else SeasonPeriod(chosen)  # as season_period
    seasons = (season_key(period, now), season_key(DEFAULT_PERIOD, now))
    await write_facts(tx, facts_of(match_id, chat, now, record, results, seasons))
    return True


def _add_totals(tx: Tx) -> str:
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


def seat_rows(facts: MatchFacts) -> list[tuple[Any, ...]]:
    """The ``match_seats`` rows of a match (``INSERT_SEAT``'s parameters)."""
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


INSERT_SEASON: Final = (
    "INSERT INTO match_seasons (match_id, chat_season, global_season, rated) VALUES (?, ?, ?, ?)"
)
INSERT_SEAT: Final = (
    "INSERT INTO match_seats (match_id, seat, player_id, robot, won, points, hands,"
    " moves, robot_moves, chat, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_RATING: Final = (
    "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (chat, season, player_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
    " updated_at = excluded.updated_at"
)
INSERT_HISTORY: Final = (
    "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma) VALUES (?, ?, ?, ?, ?, ?)"
)


async def write_facts(tx: Tx, facts: MatchFacts) -> None:
    """Write a match's seats, seasons and rating changes (docs/ratings.md; on PostgreSQL
    the humans' rows are locked)."""
    await tx.write(INSERT_SEASON, facts.match_id, *facts.seasons, int(facts.rated))
    await tx.many(INSERT_SEAT, seat_rows(facts))
    if not facts.rated:
        return
    humans = [s.player_id for s in facts.seats if s.player_id is not None]
    scopes = facts.scopes()
    found: dict[tuple[Scope, int], RatingState] = {}
    chats = sorted({s.chat for s in scopes})
    seasons = sorted({s.season for s in scopes})
    if humans:
        for row in await tx.rows(
            "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at FROM ratings"
            f" WHERE player_id IN ({_marks(len(humans))}) AND chat IN ({_marks(len(chats))})"
            f" AND season IN ({_marks(len(seasons))})",
            *humans,
            *chats,
            *seasons,
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
    await tx.many(
        UPSERT_RATING,
        [
            (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins, st.updated_at)
            for scope, pid, st in changes
        ],
    )
    # the all-time row's match count numbers the player's rating history (1, 2, ...)
    await tx.many(
        INSERT_HISTORY,
        [
            (pid, st.matches, facts.match_id, facts.finished_at, st.mu, st.sigma)
            for scope, pid, st in changes
            if scope.chat == ALL_CHATS and scope.season == ALL_TIME
        ],
    )


_OPERATION_CHECKS: Final[tuple[tuple[str, str], ...]] = (
    (
        "player without its opening",
        "SELECT CAST(p.id AS TEXT) FROM players p WHERE NOT EXISTS (SELECT 1 FROM transactions t"
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


async def _ledger_problems(tx: Tx) -> list[str]:
    """The ledger's invariants (``Storage.check_ledger``): the database's own checks
    (:meth:`Tx.integrity`), then every transaction sums to zero, each balance equals
    its entries, nothing but the house is negative, escrows hold exactly their stakes,
    and each operation left all its rows (``_OPERATION_CHECKS``)."""
    problems = await tx.integrity()
    for key, total in await tx.rows(
        "SELECT t.key, SUM(e.amount) FROM entries e JOIN transactions t"
        " ON t.id = e.transaction_id GROUP BY t.id HAVING SUM(e.amount) <> 0"
    ):
        problems.append(f"transaction {key} sums to {int(total)}")
    total = await tx.value("SELECT COALESCE(SUM(amount), 0) FROM entries")
    if total:
        problems.append(f"all entries sum to {int(total)}")
    for key, balance, summed in await tx.rows(
        "SELECT a.key, a.balance, COALESCE(s.total, 0) FROM accounts a LEFT JOIN"
        " (SELECT account_id, SUM(amount) AS total FROM entries GROUP BY account_id) s"
        " ON s.account_id = a.id WHERE a.balance <> COALESCE(s.total, 0)"
    ):
        problems.append(f"{key} balance {balance} != entries {int(summed)}")
    for key, balance in await tx.rows(
        "SELECT key, balance FROM accounts WHERE kind <> 'house' AND balance < 0"
    ):
        problems.append(f"{key} balance {balance} is negative")
    for match_id, balance, expected in await tx.rows(
        "SELECT * FROM (SELECT e.match_id, a.balance, CASE WHEN e.state = 'open' THEN"
        " e.stake * (SELECT COUNT(*) FROM escrow_holders h WHERE h.match_id = e.match_id"
        " AND h.status = 'held') ELSE 0 END AS expected"
        " FROM escrows e JOIN accounts a ON a.id = e.account_id) x"
        " WHERE balance <> expected"
    ):
        problems.append(f"escrow {match_id} holds {balance}, expected {int(expected)}")
    for what, sql in _OPERATION_CHECKS:
        for (ref,) in await tx.rows(sql):
            problems.append(f"{what}: {ref}")
    return problems


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

        async def write(tx: Tx) -> Player:
            row = await tx.row(_LINKED_PLAYER, platform, platform_user_id)
            if row is not None:
                if row[1] != name:
                    await tx.run("UPDATE players SET display_name = ? WHERE id = ?", name, row[0])
                return Player(int(row[0]), name, str(row[2]))
            lang = normalize_language(language)
            player_id = int(
                await tx.value(
                    "INSERT INTO players (display_name, language, created_at) VALUES (?, ?, ?)"
                    " RETURNING id",
                    name,
                    lang,
                    now,
                )
            )
            await tx.run(
                "INSERT INTO player_links (platform, platform_user_id, player_id) VALUES (?, ?, ?)",
                platform,
                platform_user_id,
                player_id,
            )
            await tx.run(
                "INSERT INTO accounts (key, kind, player_id) VALUES (?, 'player', ?)",
                player_account(player_id),
                player_id,
            )
            await tx.post(plan_opening(player_id), now)
            return Player(player_id, name, lang)

        return await self._transact(write)

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

    async def set_username(
        self, platform: str, platform_user_id: str, username: str | None
    ) -> bool:
        check_platform_ids(platform, platform_user_id)
        key = username_key(username)

        async def write(tx: Tx) -> bool:
            if key is not None:  # one user per username: whoever held it before loses it
                await tx.run(
                    "UPDATE player_links SET username = NULL WHERE platform = ? AND username = ?"
                    " AND platform_user_id <> ?",
                    platform,
                    key,
                    platform_user_id,
                )
            await tx.run(
                "UPDATE player_links SET username = ? WHERE platform = ? AND platform_user_id = ?",
                key,
                platform,
                platform_user_id,
            )
            linked = await tx.value(
                "SELECT 1 FROM player_links WHERE platform = ? AND platform_user_id = ?",
                platform,
                platform_user_id,
            )
            return linked is not None

        return await self._transact(write)

    async def find_by_username(self, platform: str, username: str) -> tuple[str, Player] | None:
        key = username_key(username)
        if key is None:
            return None
        row = await self._query(
            lambda tx: tx.row(
                "SELECT p.id, p.display_name, p.language, l.platform_user_id FROM player_links l"
                " JOIN players p ON p.id = l.player_id WHERE l.platform = ? AND l.username = ?",
                platform,
                key,
            )
        )
        return None if row is None else (str(row[3]), _player(row))

    async def set_player_language(self, player_id: int, language: str) -> None:
        async def write(tx: Tx) -> None:
            await _known_player(tx, player_id)
            if language not in LANGUAGES:
                raise ValueError(
                    f"language must be one of {', '.join(LANGUAGES)} (got {language!r})"
                )
            await tx.run("UPDATE players SET language = ? WHERE id = ?", language, player_id)

        await self._transact(write)

    async def player_notifications(self, player_id: int) -> str:
        async def read(tx: Tx) -> str:
            await _known_player(tx, player_id)
            return str(await tx.value("SELECT notifications FROM players WHERE id = ?", player_id))

        return await self._query(read)

    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        async def write(tx: Tx) -> None:
            await _known_player(tx, player_id)
            check_notifications(notifications)
            await tx.run(
                "UPDATE players SET notifications = ? WHERE id = ?", notifications, player_id
            )

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

    # ------------------------------------------------------------------- wallet

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

        async def write(tx: Tx) -> None:
            # The players' locks first (a concurrent stake of the same match then finds
            # its escrow below, and the balances read are the ones this stake spends).
            found: dict[int, tuple[int, float | None]] = {}
            staked = False
            if ids:
                for pid, last, balance, exists in await tx.rows(
                    "SELECT p.id, p.last_top_up, a.balance,"
                    " EXISTS (SELECT 1 FROM escrows WHERE match_id = ?) FROM players p"
                    f" JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id IN ({_marks(len(ids))})"
                    " ORDER BY a.id" + tx.dialect.lock_of("a"),
                    match_id,
                    *ids,
                ):
                    found[int(pid)] = (int(balance), last)
                    staked = staked or bool(exists)
            if not found:
                staked = await _find_escrow(tx, match_id) is not None
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
                # on PostgreSQL the check above ran on the snapshot taken before the
                # players' locks were granted: a stake of this match that committed
                # meanwhile shows now
                if await _find_escrow(tx, match_id) is not None:
                    return
                for pid in ids:
                    if pid not in found:
                        raise UnknownPlayerError(pid)
                raise InsufficientFunds(short)
            for pid, added in top_ups.items():
                await tx.post(plan_top_up(pid, added, match_id=match_id, now=now), now)
                await tx.write("UPDATE players SET last_top_up = ? WHERE id = ?", now, pid)
            await tx.post(plan_stake(match_id, stake, ids), now, open_stake=stake)

        await self._transact(write, fence)

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

        async def write(tx: Tx) -> dict[int, int]:
            found = await _escrow(tx, match_id)
            await tx.lock_players(list(found[2]))
            return (await _settle(tx, match_id, found, winners, now))[0]

        return await self._transact(write, fence)

    async def refund(
        self, match_id: str, *, now: float, fence: Fence | None = None
    ) -> dict[int, int]:
        check_now(now)

        async def write(tx: Tx) -> dict[int, int]:
            stake, state, holders = await _escrow(tx, match_id)
            if state == "refunded":
                return await _paid(tx, match_id, "refunded")
            if state == "settled":
                raise MatchClosedError(match_id, state)
            await tx.lock_players(list(holders))
            plan = plan_refund(match_id, stake, holders)
            await tx.post(plan, now, close="refunded")
            return dict(plan.amounts)

        return await self._transact(write, fence)

    async def forfeit(
        self, match_id: str, player_id: int, *, now: float, fence: Fence | None = None
    ) -> None:
        check_now(now)

        async def write(tx: Tx) -> None:
            stake, state, holders = await _escrow(tx, match_id)
            status = holders.get(player_id)
            if status is None:
                raise NotInMatchError(match_id, player_id)
            if status == "forfeited":
                return
            if state != "open":
                raise MatchClosedError(match_id, state)
            plan = plan_forfeit(match_id, stake, player_id)
            await tx.run(
                "UPDATE escrow_holders SET status = ? WHERE match_id = ? AND player_id = ?",
                plan.statuses[player_id],
                match_id,
                player_id,
            )
            await tx.post(plan, now)

        await self._transact(write, fence)

    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        check_now(now)

        async def write(tx: Tx) -> int:
            row = await _player_row(tx, player_id, lock=True)
            added = top_up_amount(int(row[4]), stake, row[3], now)
            if added:
                await tx.run("UPDATE players SET last_top_up = ? WHERE id = ?", now, player_id)
                await tx.post(plan_top_up(player_id, added, match_id=None, now=now), now)
            return added

        return await self._transact(write)

    async def check_ledger(self) -> list[str]:
        return await self._query(_ledger_problems, snapshot=True)

    # ------------------------------------------------------ matches, records, statistics

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

        async def write(tx: Tx) -> None:
            await tx.lock_chat(chat)
            await tx.lock_players([r.player_id for r in results])
            await _record(tx, match_id, chat, now, record, record_json, results)

        await self._transact(write)

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

        async def write(tx: Tx) -> MatchSettlement:
            await tx.lock_chat(chat)
            found = await _find_escrow(tx, match_id, lock=True)
            holders = [] if found is None else list(found[2])
            ids = list(dict.fromkeys([*holders, *(r.player_id for r in results)]))
            # read under the players' locks: after the settlement they are these plus
            # the payouts (the record is written first, the money last: Tx.post)
            balances = await _lock_balances(tx, ids)
            for r in results:
                if r.player_id not in balances:
                    raise UnknownPlayerError(r.player_id)
            if found is not None and found[1] == "refunded":
                raise MatchClosedError(match_id, found[1])
            after = {pid: balances[pid] for pid in ids}
            recorded = False
            if found is not None or results:
                recorded = await _record(
                    tx, match_id, chat, now, record, record_json, results, players_checked=True
                )
            payouts: dict[int, int] = {}
            settled = False
            if found is not None:
                payouts, settled = await _settle(tx, match_id, found, winner_ids, now)
                if settled:
                    for pid, amount in payouts.items():
                        after[pid] += amount
            already = not settled and not recorded
            if already and found is None:
                already = bool(await tx.value("SELECT 1 FROM matches WHERE match_id = ?", match_id))
            return MatchSettlement(payouts, after, already)

        return await self._transact(write, fence)

    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        async def rebuild(tx: Tx) -> RebuildReport:
            # exclusive: no match is recorded (nor chat moved) while the tables are rebuilt
            await tx.lock_ratings()
            matches = await tx.rows(
                "SELECT m.match_id, m.chat, m.finished_at, m.record, s.chat_season,"
                " s.global_season FROM matches m"
                " LEFT JOIN match_seasons s ON s.match_id = m.match_id ORDER BY m.id"
            )
            results: dict[str, list[PlayerResult]] = {}
            for row in await tx.rows(
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
                        periods[chat] = await season_period(tx, chat)
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
                for c, s, p, mu, sigma, n, w, u in await tx.rows(
                    "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at"
                    " FROM ratings"
                )
            }
            history: dict[int, list[tuple[str, float, float, float]]] = {}
            for p, m, at, mu, sigma in await tx.rows(
                "SELECT player_id, match_id, at, mu, sigma FROM rating_history"
                " ORDER BY player_id, seq"
            ):
                history.setdefault(int(p), []).append((str(m), float(at), float(mu), float(sigma)))
            report = compare_ratings(book, stored, history, all_facts)
            if write:
                # the book holds exactly what replaying each match's writes would leave
                for table in ("ratings", "rating_history", "match_seats", "match_seasons"):
                    await tx.run(f"DELETE FROM {table}")
                await tx.many(
                    INSERT_SEASON,
                    [(f.match_id, *f.seasons, int(f.rated)) for f in all_facts],
                )
                await tx.many(INSERT_SEAT, [row for f in all_facts for row in seat_rows(f)])
                await tx.many(
                    UPSERT_RATING,
                    [
                        (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins,
                         st.updated_at)
                        for scope, table in book.tables.items()
                        for pid, st in table.items()
                    ],
                )  # fmt: skip
                await tx.many(
                    INSERT_HISTORY,
                    [
                        (pid, seq, m, at, mu, sigma)
                        for pid, points in book.history.items()
                        for seq, (m, at, mu, sigma) in enumerate(points, start=1)
                    ],
                )
            return report

        return await self._transact(rebuild)

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
                + _add_totals(tx),
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
