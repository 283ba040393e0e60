"""Ratings and seasons: the top lists by rating and by pair, a player's rating and its
history, a chat's seasons and their finals, and the ratings rebuilt from the records.
(The rating arithmetic itself is :mod:`storage.ratings`.)"""

from __future__ import annotations

import json
from collections.abc import Coroutine, Sequence
from typing import Any, Final

from storage.ratings import (
    ALL_CHATS,
    ALL_TIME,
    CLASSIC,
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
from storage.shapes import (
    TREND_SECONDS,
    PairRow,
    PlayerRecord,
    PlayerResult,
    RankRow,
    Rating,
    RatingPoint,
    RebuildReport,
    Rival,
    check_now,
)
from storage.sql import (
    Row,
    SqlBase,
    Tx,
    known_player,
    placeholders,
    player_rows,
)

__all__ = [
    "INSERT_HISTORY",
    "INSERT_SEASON",
    "INSERT_SEAT",
    "UPSERT_RATING",
    "RatingsAndSeasons",
    "seat_rows",
    "write_facts",
]


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


_HISTORY: Final = (
    "SELECT match_id, at, mu, sigma FROM rating_history WHERE player_id = ? AND format = ?"
    " ORDER BY seq DESC LIMIT ?"
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
            s.team,
        )
        for s in facts.seats
    ]


INSERT_SEASON: Final = (
    "INSERT INTO match_seasons (match_id, chat_season, global_season, rated, format)"
    " VALUES (?, ?, ?, ?, ?)"
)


INSERT_SEAT: Final = (
    "INSERT INTO match_seats (match_id, seat, player_id, robot, won, points, hands,"
    " moves, robot_moves, chat, finished_at, side) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


UPSERT_RATING: Final = (
    "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins, updated_at,"
    " format) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (format, chat, season, player_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
    " updated_at = excluded.updated_at"
)


INSERT_HISTORY: Final = (
    "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma, format)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


async def write_facts(tx: Tx, facts: MatchFacts) -> None:
    """Write a match's seats, seasons and rating changes (docs/ratings.md; on PostgreSQL
    the humans' rows are locked)."""
    await tx.write(INSERT_SEASON, facts.match_id, *facts.seasons, int(facts.rated), facts.format)
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
            f" WHERE player_id IN ({placeholders(len(humans))}) AND chat IN ({placeholders(len(chats))})"
            f" AND season IN ({placeholders(len(seasons))}) AND format = ?",
            *humans,
            *chats,
            *seasons,
            facts.format,
        ):
            scope = Scope(str(row[0]), str(row[1]), facts.format)
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
            (
                scope.chat,
                scope.season,
                pid,
                st.mu,
                st.sigma,
                st.matches,
                st.wins,
                st.updated_at,
                scope.format,
            )
            for scope, pid, st in changes
        ],
    )
    # the all-time row's match count numbers the player's rating history in the format
    # (1, 2, ...)
    await tx.many(
        INSERT_HISTORY,
        [
            (pid, st.matches, facts.match_id, facts.finished_at, st.mu, st.sigma, scope.format)
            for scope, pid, st in changes
            if scope.chat == ALL_CHATS and scope.season == ALL_TIME
        ],
    )


class RatingsAndSeasons(SqlBase):
    """Team ratings, their history, seasons and their finals (docs/ratings.md)."""

    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        """Replay every stored match in the order it was stored and recompute the seats,
        ratings, seasons and rating history from the records (``domino ratings
        --rebuild``); compare with what is stored and, when ``write``, replace it in one
        transaction. Money and statistics are not touched.
        """

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
                (Scope(str(c), str(s), str(f)), int(p)): RatingState(
                    float(mu), float(sigma), int(n), int(w), float(u)
                )
                for c, s, p, mu, sigma, n, w, u, f in await tx.rows(
                    "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at,"
                    " format FROM ratings"
                )
            }
            history: dict[tuple[str, int], list[tuple[str, float, float, float]]] = {}
            for p, f, m, at, mu, sigma in await tx.rows(
                "SELECT player_id, format, match_id, at, mu, sigma FROM rating_history"
                " ORDER BY player_id, format, seq"
            ):
                history.setdefault((str(f), int(p)), []).append(
                    (str(m), float(at), float(mu), float(sigma))
                )
            report = compare_ratings(book, stored, history, all_facts)
            if write:
                # the book holds exactly what replaying each match's writes would leave
                for table in ("ratings", "rating_history", "match_seats", "match_seasons"):
                    await tx.run(f"DELETE FROM {table}")
                await tx.many(
                    INSERT_SEASON,
                    [(f.match_id, *f.seasons, int(f.rated), f.format) for f in all_facts],
                )
                await tx.many(INSERT_SEAT, [row for f in all_facts for row in seat_rows(f)])
                await tx.many(
                    UPSERT_RATING,
                    [
                        (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins,
                         st.updated_at, scope.format)
                        for scope, table in book.tables.items()
                        for pid, st in table.items()
                    ],
                )  # fmt: skip
                await tx.many(
                    INSERT_HISTORY,
                    [
                        (pid, seq, m, at, mu, sigma, fmt)
                        for (fmt, pid), points in book.history.items()
                        for seq, (m, at, mu, sigma) in enumerate(points, start=1)
                    ],
                )
            return report

        return await self._transact(rebuild)

    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10, format: str = CLASSIC
    ) -> list[RankRow]:
        """The best players by all-time rating in a rating format (docs/ratings.md,
        "Formats": ``storage.ratings.rating_format``; today's game by default).

        In a chat (``chat`` given), the players who finished a match there; everyone
        rated when None. Ordered by the conservative estimate (mu - 3 sigma), then rated
        matches, then player id. ``value`` is the shown rating; ``trend`` its change since
        :data:`TREND_SECONDS` before ``now`` (None for a player rated only since).
        """
        check_now(now)
        before = (
            "(SELECT h.{0} FROM rating_history h WHERE h.player_id = r.player_id"
            " AND h.format = ?6 AND h.at <= ?4 ORDER BY h.seq DESC LIMIT 1)"
        )
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches,"
                f" {before.format('mu')}, {before.format('sigma')}"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.format = ?6 AND r.chat = ?1 AND r.season = ?2"
                " AND (CAST(?3 AS TEXT) IS NULL OR r.player_id IN"
                " (SELECT player_id FROM player_chat_totals WHERE chat = ?3))"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?5",
                ALL_CHATS,
                ALL_TIME,
                chat,
                now - TREND_SECONDS,
                max(limit, 0),
                format,
            )
        )
        return _rank_rows(
            [
                (pid, name, mu, sigma, matches, None if was is None else display_rating(was, sd))
                for pid, name, mu, sigma, matches, was, sd in rows
            ]
        )

    async def season_standings(
        self, chat: str, season: str, *, limit: int = 10, format: str = CLASSIC
    ) -> list[RankRow]:
        """A season's table: ``chat`` (a chat key, or ``storage.ratings.ALL_CHATS`` for
        the global season), ``season`` (a season key such as ``"2026-12"``) and the
        rating format (today's game by default).

        Ordered like :meth:`top_by_rating`; ``value`` is the season rating, ``matches``
        the season's rated matches, ``trend`` None.
        """
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT r.player_id, p.display_name, r.mu, r.sigma, r.matches, NULL"
                " FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE r.format = ? AND r.chat = ? AND r.season = ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.player_id LIMIT ?",
                format,
                chat,
                season,
                max(limit, 0),
            )
        )
        return _rank_rows(rows)

    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        """Pairs of humans who finished at least ``min_matches`` matches as partners (in
        ``chat``, or anywhere when None), ordered by the Bayesian win rate
        (:func:`bayesian_rating`), then matches, then ids."""

        def read(tx: Tx) -> Coroutine[Any, Any, list[Row]]:
            least, greatest = tx.dialect.least, tx.dialect.greatest
            return tx.rows(
                "SELECT x.lo, x.hi, pa.display_name, pb.display_name, x.n, x.won FROM"
                f" (SELECT {least}(a.player_id, b.player_id) AS lo,"
                f" {greatest}(a.player_id, b.player_id) AS hi, COUNT(*) AS n, SUM(a.won) AS won"
                " FROM match_seats a"
                " JOIN match_seats b ON b.match_id = a.match_id AND b.side = a.side"
                " AND b.seat > a.seat"
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
        self,
        player_id: int,
        *,
        chat: str = ALL_CHATS,
        season: str = ALL_TIME,
        format: str = CLASSIC,
    ) -> Rating | None:
        """The player's rating in a scope (all-time global in today's game by default),
        None when unrated there.

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> Row | None:
            await known_player(tx, player_id)
            return await tx.row(
                "SELECT mu, sigma, matches, wins, updated_at FROM ratings"
                " WHERE format = ? AND chat = ? AND season = ? AND player_id = ?",
                format,
                chat,
                season,
                player_id,
            )

        row = await self._query(read)
        if row is None:
            return None
        state = RatingState(float(row[0]), float(row[1]), int(row[2]), int(row[3]), float(row[4]))
        return rating_of(player_id, state)

    async def rating_history(
        self, player_id: int, *, limit: int = 50, format: str = CLASSIC
    ) -> list[RatingPoint]:
        """The player's all-time rating in a rating format (today's game by default)
        after each of their last ``limit`` rated matches there, oldest first.

        Raises:
            UnknownPlayerError: no such player.
        """
        most = max(limit, 0)
        rows = await self._query(
            lambda tx: player_rows(tx, player_id, _HISTORY, player_id, format, most)
        )
        return [
            RatingPoint(str(m), float(at), display_rating(mu, sigma), float(mu), float(sigma))
            for m, at, mu, sigma in reversed(rows)
        ]

    async def player_record(self, player_id: int) -> PlayerRecord:
        """Partners, opponents, current streak and points per hand (issue 14).

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> PlayerRecord:
            await known_player(tx, player_id)
            rivals = []
            for where in ("o.side = m.side", "o.side <> m.side"):
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
        """How long the chat's seasons last (``storage.ratings.DEFAULT_PERIOD`` unless
        an admin changed it)."""
        return await self._query(lambda tx: season_period(tx, chat))

    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        """Change the chat's season length; matches from now on count in the season of
        the new length that holds them (docs/ratings.md, "Seasons")."""
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

    async def seasons(self, chat: str, *, format: str = CLASSIC) -> list[str]:
        """The seasons with rated matches in ``chat`` (or ``ALL_CHATS``) in a rating
        format (today's game by default), newest first."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT season, MAX(updated_at) AS last FROM ratings WHERE format = ?"
                " AND chat = ? AND season <> '' GROUP BY season ORDER BY last DESC, season DESC",
                format,
                chat,
            )
        )
        return [str(season) for season, _ in rows]

    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        """(chat, season) pairs of chat seasons that ended before ``now``, had rated
        matches of today's game and whose final standings were not yet announced (oldest
        first; the other formats' seasons are announced with their lists, issue 30)."""
        check_now(now)
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT DISTINCT r.chat, r.season FROM ratings r WHERE r.season <> ''"
                f" AND r.format = '{CLASSIC}'"
                " AND NOT EXISTS (SELECT 1 FROM season_finals f WHERE f.chat = r.chat"
                " AND f.season = r.season)"
            )
        )
        return due_finals([(str(c), str(s)) for c, s in rows], now)

    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        """Note that a season's final standings were announced; False when already noted."""
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
