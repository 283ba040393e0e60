"""Schema migrations (storage/migrations.py, applied by storage.sqlite.apply_migrations).

Migrations are forward-only and append-only: an empty database gets them all; a database
of any earlier version (a prefix of the list, which is what an older bot applied) is
upgraded with its data intact; a database from a newer version, or one whose released
migration was edited, is refused. ``pending_migrations`` tells what opening would apply
without writing.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from storage.base import PlayerResult, PlayerStats, SchemaError
from storage.migrations import MIGRATIONS, Migration
from storage.ratings import DEFAULT_PERIOD, RatingBook, display_rating, facts_of, season_key
from storage.seasons import seat_rows
from storage.sqlite import SqliteStorage, apply_migrations, pending_migrations

RELEASED = {
    "0001_players_and_wallet": "56c1996b81bc9499a56919c7b5b010a3b5d18ae176424afb3b1aff0a11e0e8d7",
    "0002_match_history_and_statistics": "6856d42933f48730571a8cdcb939883b37bd43d0c637a28e323bd7998363a209",
    "0003_chat_rules_and_table_snapshots": "dca79308b257b8094cf3b6a4df694959dfaf9f986d95342b0d97fb7a1c1d2d45",
    "0004_player_chat_totals": "d5e8ed6c97cf592ac00ca87be2712afcb06e5634070b166ce3318580c53910ec",
}
"""A copy of the released migration list: names in order and their checksums."""


FORMATS = [m.name for m in MIGRATIONS].index("0011_rating_formats")
"""How many migrations came before ratings had formats."""


OldMatch = tuple[str, str, float, dict[str, object], list[PlayerResult]]
"""(match id, chat, finished at, record, results) of a match an older bot stored."""


def write_old_matches(path: Path, matches: list[OldMatch], *, ratings: bool = True) -> None:
    """What a bot with ratings but without formats (0007..0010) wrote for these matches,
    in order: the match, its results, its per-chat totals (from 0004) and, with
    ``ratings``, its seats, seasons, ratings and rating history (by the rating rules, the
    same for today's game)."""
    book = RatingBook()
    with sqlite3.connect(path) as db:
        totals = (
            db.execute("SELECT 1 FROM sqlite_master WHERE name = 'player_chat_totals'").fetchone()
            is not None
        )
        for match_id, chat, at, record, results in matches:
            db.execute(
                "INSERT INTO matches (match_id, chat, finished_at, record) VALUES (?, ?, ?, ?)",
                (match_id, chat, at, json.dumps(record)),
            )
            db.executemany(
                "INSERT INTO match_results (match_id, player_id, chat, finished_at, team,"
                " won_match, hands_won, dominoes, trancas_won, capicuas)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        r.player_id,
                        chat,
                        at,
                        r.team,
                        int(r.won_match),
                        r.hands_won,
                        r.dominoes,
                        r.trancas_won,
                        r.capicuas,
                    )
                    for r in results
                ],
            )
            if totals:  # 0004 keeps per-chat totals beside the results
                db.executemany(
                    "INSERT INTO player_chat_totals (chat, player_id, matches_played,"
                    " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
                    " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat, player_id) DO UPDATE"
                    " SET matches_played = matches_played + 1,"
                    " matches_won = matches_won + excluded.matches_won,"
                    " hands_won = hands_won + excluded.hands_won,"
                    " dominoes = dominoes + excluded.dominoes,"
                    " trancas_won = trancas_won + excluded.trancas_won,"
                    " capicuas = capicuas + excluded.capicuas,"
                    " last_played = max(last_played, excluded.last_played)",
                    [
                        (
                            chat,
                            r.player_id,
                            int(r.won_match),
                            r.hands_won,
                            r.dominoes,
                            r.trancas_won,
                            r.capicuas,
                            at,
                        )
                        for r in results
                    ],
                )
            if not ratings:
                continue
            seasons = (season_key(DEFAULT_PERIOD, at),) * 2
            facts = facts_of(match_id, chat, at, record, results, seasons)
            book.apply(facts)
            db.execute(
                "INSERT INTO match_seasons (match_id, chat_season, global_season, rated)"
                " VALUES (?, ?, ?, ?)",
                (match_id, *facts.seasons, int(facts.rated)),
            )
            db.executemany(
                "INSERT INTO match_seats (match_id, seat, player_id, robot, won, points, hands,"
                " moves, robot_moves, chat, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [row[:-1] for row in seat_rows(facts)],
            )
        if not ratings:
            return
        db.executemany(
            "INSERT INTO ratings (chat, season, player_id, mu, sigma, matches, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (scope.chat, scope.season, pid, st.mu, st.sigma, st.matches, st.wins, st.updated_at)
                for scope, table in book.tables.items()
                for pid, st in table.items()
            ],
        )
        db.executemany(
            "INSERT INTO rating_history (player_id, seq, match_id, at, mu, sigma)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (pid, seq, m, t, mu, sigma)
                for (_, pid), points in book.history.items()
                for seq, (m, t, mu, sigma) in enumerate(points, start=1)
            ],
        )


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def applied(path: Path) -> list[tuple[str, float]]:
    with sqlite3.connect(path) as db:
        return list(db.execute("SELECT name, applied_at FROM schema_migrations ORDER BY name"))


def test_released_migrations_are_never_edited_removed_or_reordered() -> None:
    names = [m.name for m in MIGRATIONS]
    assert names[: len(RELEASED)] == list(RELEASED)
    assert {m.name: m.checksum for m in MIGRATIONS[: len(RELEASED)]} == RELEASED
    assert names == sorted(names)
    assert len(set(names)) == len(names)


async def test_an_empty_database_gets_every_migration_with_its_time(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = await SqliteStorage.open(path, clock=lambda: 1234.5)
    assert store.applied_migrations == [m.name for m in MIGRATIONS]
    await store.close()
    assert applied(path) == [(m.name, 1234.5) for m in MIGRATIONS]
    assert {"players", "accounts", "entries", "matches", "chat_rules", "table_snapshots"} <= tables(
        path
    )


async def test_reopening_an_up_to_date_database_applies_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.db"
    await (await SqliteStorage.open(path, clock=lambda: 1.0)).close()
    again = await SqliteStorage.open(path, clock=lambda: 2.0)
    assert again.applied_migrations == []
    await again.close()
    assert {t for _, t in applied(path)} == {1.0}


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS)))
async def test_an_older_database_is_upgraded_with_its_data(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    old = await SqliteStorage.open(path, migrations=MIGRATIONS[:version], clock=lambda: 1.0)
    # What an older bot wrote: players and the wallet (unchanged since 0001) through the
    # storage; finished matches (0002..0003) as that bot wrote them, in SQL.
    a = await old.ensure_player("telegram", "1", "Ana", now=0.0)
    b = await old.ensure_player("discord", "2", "Bea", now=0.0)
    await old.stake("m1", [a.id, b.id], 10, now=1.0)
    await old.settle("m1", [a.id], now=2.0)
    await old.stake("m2", [a.id, b.id], 10, now=3.0)  # still open while upgrading
    results = [PlayerResult(a.id, 0, True, 4, 2, 1, 1), PlayerResult(b.id, 1, False, 1)]
    if version > FORMATS:  # this code records matches through the storage
        await old.record_match("m1", "telegram:-1", {"hands": []}, results, now=2.0)
    await old.close()
    if 2 <= version <= FORMATS:
        # a bot with ratings (0007) wrote the match's seats and ratings too
        write_old_matches(
            path, [("m1", "telegram:-1", 2.0, {"hands": []}, results)], ratings=version >= 7
        )

    new = await SqliteStorage.open(path, clock=lambda: 9.0)
    assert new.applied_migrations == [m.name for m in MIGRATIONS[version:]]
    assert await new.check_ledger() == []
    assert await new.find_player("discord", "2") == b
    assert [await new.balance(a.id), await new.balance(b.id)] == [1000, 980]
    assert await new.settle("m2", [b.id], now=4.0) == {b.id: 20}
    assert await new.settle("m1", [b.id], now=4.0) == {a.id: 20}
    await new.record_match(
        "m2", "telegram:-1", {"hands": []}, [PlayerResult(b.id, 1, True)], now=4.0
    )
    await new.save_table("t1", {"table_id": "t1"}, now=5.0)
    await new.set_chat_rules("telegram:-1", "internacional", {}, changed_by=a.id, now=5.0)
    if version >= 2:
        # The totals of 0004 were summed from the older results.
        assert await new.player_stats(a.id) == PlayerStats(a.id, 1, 1, 4, 2, 1, 1, 2.0)
        assert await new.player_stats(b.id) == PlayerStats(b.id, 2, 1, 1, 0, 0, 0, 4.0)
        assert [m.match_id for m in await new.match_records(player_id=a.id)] == ["m1"]
        # the match stored before ratings existed was rated when the database upgraded
        rated = await new.player_rating(a.id)
        assert rated is not None and (rated.matches, rated.wins) == (1, 1)
        assert [p.match_id for p in await new.rating_history(a.id)] == ["m1"]
        assert (await new.rebuild_ratings(write=False)).differences == ()
    else:
        assert await new.player_stats(a.id) == PlayerStats(a.id)
    assert await new.check_ledger() == []
    await new.close()
    times = dict(applied(path))
    assert [times[m.name] for m in MIGRATIONS] == [1.0] * version + [9.0] * (
        len(MIGRATIONS) - version
    )


def rating_rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every rating row and rating history row, by key, as stored."""
    with sqlite3.connect(path) as db:
        ratings = db.execute(
            "SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at FROM ratings"
            " ORDER BY chat, season, player_id"
        ).fetchall()
        history = db.execute(
            "SELECT player_id, seq, match_id, at, mu, sigma FROM rating_history"
            " ORDER BY player_id, seq"
        ).fetchall()
    return ratings, history


async def test_rating_formats_keep_every_rating_of_an_older_database_as_todays_game(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    before_formats = [m.name for m in MIGRATIONS].index("0011_rating_formats")
    old = await SqliteStorage.open(path, migrations=MIGRATIONS[:before_formats])
    ids = [(await old.ensure_player("telegram", str(n), f"P{n}", now=0.0)).id for n in range(4)]
    await old.close()
    matches: list[OldMatch] = []
    for n in range(6):
        a, b, c, d = ids[n % 4 :] + ids[: n % 4]
        seats = [{"player": p, "moves": 20, "robot_moves": 0} for p in (a, b, c, d)]
        record = {"rules": "venezolano", "hands": [], "score": [100, 40], "winner_team": 0,
                  "seats": seats}  # fmt: skip
        results = [PlayerResult(a, 0, True), PlayerResult(b, 1, False),
                   PlayerResult(c, 0, True), PlayerResult(d, 1, False)]  # fmt: skip
        matches.append((f"m{n}", "telegram:-1", float(n + 1), record, results))
    write_old_matches(path, matches)
    ratings, history = rating_rows(path)
    assert len(ratings) == 12 and len(history) == 24

    new = await SqliteStorage.open(path)
    assert new.applied_migrations == [m.name for m in MIGRATIONS[before_formats:]]
    assert rating_rows(path) == (ratings, history)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT DISTINCT format FROM ratings").fetchall() == [("",)]
        assert db.execute("SELECT DISTINCT format FROM rating_history").fetchall() == [("",)]
        assert db.execute("SELECT seat, side FROM match_seats WHERE match_id = 'm0'"
                          " ORDER BY seat").fetchall() == [(0, 0), (1, 1), (2, 0), (3, 1)]  # fmt: skip
    top = await new.top_by_rating(None, now=10.0)
    assert sorted((r.player_id, r.matches) for r in top) == [(p, 6) for p in ids]
    assert {r.player_id: r.value for r in top} == {
        pid: display_rating(float(mu), float(sigma))  # type: ignore[arg-type]
        for chat, season, pid, mu, sigma, *_ in ratings
        if (chat, season) == ("*", "")
    }
    assert (await new.rebuild_ratings(write=False)).differences == ()
    assert await new.check_ledger() == []
    await new.close()


async def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    future = (*MIGRATIONS, Migration("9999_from_the_future", ("CREATE TABLE robots_v2 (x)",)))
    await (await SqliteStorage.open(path, migrations=future)).close()
    with pytest.raises(SchemaError, match="9999_from_the_future"):
        await SqliteStorage.open(path)


async def test_an_edited_released_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "edited.db"
    await (await SqliteStorage.open(path)).close()
    first = MIGRATIONS[0]
    edited = (Migration(first.name, (*first.statements, "SELECT 1")), *MIGRATIONS[1:])
    with pytest.raises(SchemaError, match="changed"):
        await SqliteStorage.open(path, migrations=edited)


def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    broken = (
        *MIGRATIONS,
        Migration("0100_broken", ("CREATE TABLE half_done (x)", "INSERT INTO nowhere VALUES (1)")),
    )
    db = sqlite3.connect(path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError):
            apply_migrations(db, broken)
        assert "half_done" not in {
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        assert [r[0] for r in db.execute("SELECT name FROM schema_migrations ORDER BY name")] == [
            m.name for m in MIGRATIONS
        ]
        assert apply_migrations(db, MIGRATIONS) == []
    finally:
        db.close()


@pytest.mark.parametrize("version", range(len(MIGRATIONS) + 1))
async def test_the_pending_migrations_are_found_without_writing(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "db.db"
    await (await SqliteStorage.open(path, migrations=MIGRATIONS[:version])).close()
    written = path.read_bytes()
    assert pending_migrations(path) == [m.name for m in MIGRATIONS[version:]]
    assert path.read_bytes() == written
    # a reader of a WAL database leaves SQLite's companion files, the log empty
    assert path.with_name("db.db-wal").read_bytes() == b""


def test_a_file_without_tables_needs_every_migration_and_stays_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    assert pending_migrations(path) == [m.name for m in MIGRATIONS]
    assert path.read_bytes() == b""


async def test_pending_migrations_refuse_a_newer_or_edited_database_and_a_missing_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "newer.db"
    future = (*MIGRATIONS, Migration("9999_from_the_future", ("CREATE TABLE robots_v2 (x)",)))
    await (await SqliteStorage.open(path, migrations=future)).close()
    with pytest.raises(SchemaError, match="9999_from_the_future"):
        pending_migrations(path)
    first = MIGRATIONS[0]
    edited = (Migration(first.name, (*first.statements, "SELECT 1")), *future[1:])
    with pytest.raises(SchemaError, match="changed"):
        pending_migrations(path, edited)
    with pytest.raises(sqlite3.OperationalError, match="unable to open"):
        pending_migrations(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
