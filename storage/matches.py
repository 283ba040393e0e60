"""Matches and records: a finished match settled and recorded in one transaction, the
records, a player's statistics and the balance top list."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.common import (
    check_results,
    player_account,
    to_json,
)
from storage.ratings import (
    DEFAULT_PERIOD,
    SeasonPeriod,
    facts_of,
    record_rules,
    season_key,
)
from storage.seasons import write_facts
from storage.shapes import (
    ACTIVE_SECONDS,
    TREND_SECONDS,
    Fence,
    MatchClosedError,
    MatchSettlement,
    PlayerResult,
    PlayerStats,
    RankRow,
    StoredMatch,
    UnknownPlayerError,
    check_now,
)
from storage.sql import (
    Row,
    SqlBase,
    Tx,
    add_totals,
    find_escrow,
    known_player,
    placeholders,
    settle_escrow,
)

__all__ = ["MatchesAndRecords"]


async def _check_players(tx: Tx, player_ids: Sequence[int]) -> None:
    """Raise UnknownPlayerError for the first id that names no player."""
    if not player_ids:
        return
    known = {
        int(r[0])
        for r in await tx.rows(
            f"SELECT id FROM players WHERE id IN ({placeholders(len(player_ids))})", *player_ids
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
        f" WHERE key IN ({placeholders(len(player_ids))}) ORDER BY id" + tx.dialect.for_update,
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
        " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)" + add_totals(tx),
        [(chat, row[1], *row[5:], now) for row in rows],
    )
    period = DEFAULT_PERIOD if chosen is None else SeasonPeriod(chosen)  # as season_period
    seasons = (season_key(period, now), season_key(DEFAULT_PERIOD, now))
    await write_facts(tx, facts_of(match_id, chat, now, record, results, seasons))
    return True


class MatchesAndRecords(SqlBase):
    """Finished matches: the one-transaction finish, records, results and statistics (docs/records.md)."""

    async def record_match(
        self,
        match_id: str,
        chat: str,
        record: dict[str, Any],
        results: Sequence[PlayerResult],
        *,
        now: float,
    ) -> None:
        """Store a finished match's record and each human's result (idempotent per id).

        ``record`` is the records.md JSON object; ``now`` is the finish time. Written
        the same way as by :meth:`finish_match`, which also settles the escrow.

        Raises:
            UnknownPlayerError: a result names an unknown player; nothing is written.
            ValueError: a player appears twice, a team is not a side of the record's
                format (``Rules.sides``), or a count is
                negative.
            TypeError: the record is not JSON-serialisable.
        """
        check_now(now)
        check_results(match_id, chat, results, record_rules(record).sides)
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
        share: int = 2,
    ) -> MatchSettlement:
        """Finish a match in one transaction: settle, pay, record, count (rules.md, "The house").

        All of it is written, or nothing (one ``BEGIN IMMEDIATE`` in SQLite):

        - the escrow, if the match has one, is settled exactly as :meth:`settle` does
          (same plan, same ledger transaction keyed ``"settle:<match id>"``): each id of
          ``winners`` still holding a stake receives ``share`` times the stake
          (dollars; 2 with partners, the seats in individual play: rules.md, "Money in
          the formats"; a ``share`` below 1 raises ValueError), from the escrow and
          then the house; losers' stakes go to the house; forfeited players,
          robots and strangers receive nothing. A match without an escrow (never
          staked) moves no money.
        - the match record (``record``, the records.md JSON object) and each human's
          result and statistics are stored as :meth:`record_match` does, with ``now``
          (epoch seconds) as the finish time; ``chat`` is the chat key.

        When ``results`` is empty and the match has no escrow, nothing is written.

        Idempotent per ``match_id``: a part already done (escrow settled, record
        stored, by an earlier call or by :meth:`settle` / :meth:`record_match`) is not
        done again, so a retry after a crash finishes what is missing; when everything
        was done before, nothing is written and ``already_finished`` is True, with the
        first settlement's payouts.

        Returns:
            a :class:`MatchSettlement`: the payouts, the balances after the operation
            (every player of ``results`` and every escrow holder) and whether the match
            was already finished.

        Raises:
            MatchClosedError: the match's escrow was refunded (a cancelled match).
            UnknownPlayerError: a result names an unknown player.
            ValueError: empty match id or chat, a player with two results, a team not a
                side of the record's format, a negative count, or ``now`` not finite.
            TypeError: the record is not JSON-serialisable.
            In every case nothing is written.
        """
        check_now(now)
        check_results(match_id, chat, results, record_rules(record).sides)
        record_json = to_json(record)
        winner_ids = list(winners)
        if isinstance(share, bool) or not isinstance(share, int) or share < 1:
            raise ValueError(f"share must be a whole number of stakes >= 1 (got {share!r})")

        async def write(tx: Tx) -> MatchSettlement:
            await tx.lock_chat(chat)
            found = await find_escrow(tx, match_id, lock=True)
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
                payouts, settled = await settle_escrow(tx, match_id, found, winner_ids, now, share)
                if settled:
                    for pid, amount in payouts.items():
                        after[pid] += amount
            already = not settled and not recorded
            if already and found is None:
                already = bool(await tx.value("SELECT 1 FROM matches WHERE match_id = ?", match_id))
            return MatchSettlement(payouts, after, already)

        return await self._transact(write, fence)

    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        """Finished matches, newest first, filtered by player and/or chat.

        Pass a large ``limit`` to export them all.
        """
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

    async def match_record(self, match_id: str) -> StoredMatch | None:
        """The finished match ``match_id``'s record, or None when no finished match has
        that id."""
        row = await self._query(
            lambda tx: tx.row(
                "SELECT match_id, chat, finished_at, record FROM matches WHERE match_id = ?",
                match_id,
            )
        )
        if row is None:
            return None
        m, c, f, r = row
        return StoredMatch(str(m), str(c), float(f), json.loads(r))

    async def player_stats(self, player_id: int) -> PlayerStats:
        """The player's totals (zeros for a player without recorded matches).

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> Row:
            await known_player(tx, player_id)
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
        """The richest active players (rules.md, "The house": the top 10).

        Active means a match finished within :data:`ACTIVE_SECONDS` before ``now`` (in
        ``chat`` when given, anywhere when None). Ordered by balance, then by matches
        played in the scope, then by player id. ``value`` is the balance in dollars;
        ``trend`` what the balance changed by since :data:`TREND_SECONDS` before ``now``,
        the :data:`OPENING_BALANCE` a new player starts with not counted as a change (a
        player new this week who lost one match shows -10).
        """
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
