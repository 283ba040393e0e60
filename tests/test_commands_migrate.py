"""``domino migrate --to postgresql://…`` (bot/commands/migrate.py, storage/to_postgres.py):
a SQLite database with finished matches is copied whole into an empty PostgreSQL database
and answers every question the same there; a target holding data is refused.

Needs a PostgreSQL server (tests/postgres_server.py): skipped with the reason when none
can be had, a failure in CI.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.cli import main
from storage.base import PlayerResult, Storage, TournamentPlace
from storage.postgres import PostgresStorage
from storage.ratings import SeasonPeriod
from storage.sqlite import SqliteStorage
from tests.postgres_server import PostgresServer
from tests.test_storage_base import state

DAY = 24 * 60 * 60.0
NOW = 1_790_000_000.0  # September 2026


@pytest.fixture
def target(postgres_server: PostgresServer) -> Iterator[str]:
    """An empty PostgreSQL database (not even its tables yet)."""
    dsn = asyncio.run(postgres_server.create_database(migrated=False))
    yield dsn
    asyncio.run(postgres_server.drop_database(dsn))


def record(seats: list[int | None], score: tuple[int, int]) -> dict[str, Any]:
    return {
        "seats": [
            {"player": p, "moves": 30, "robot_moves": 0} if p else {"robot": "experto"}
            for p in seats
        ],
        "score": list(score),
        "hands": [{"moves": ["6-6"]}],
    }


async def fill(path: Path) -> None:
    """A database with a few finished matches and one of everything else."""
    store = await SqliteStorage.open(path)
    try:
        ids = [
            (await store.ensure_player("telegram", str(u), f"Jugador {u}", now=NOW)).id
            for u in range(1, 7)
        ]
        await store.link_player(ids[0], "discord", "99")
        await store.set_player_language(ids[1], "en")
        await store.set_username("telegram", "3", "tres")
        await store.set_player_notifications(ids[3], "none")
        for n in range(6):
            seats: list[int | None] = [ids[n % 6], ids[(n + 1) % 6], ids[(n + 2) % 6], None]
            humans = [p for p in seats if p is not None]
            match_id = f"m{n}"
            at = NOW + n * DAY
            await store.stake(match_id, humans, 10 * (n + 1), now=at)
            if n == 2:
                await store.forfeit(match_id, humans[1], now=at)
            team = n % 2
            results = [
                PlayerResult(p, s % 2, s % 2 == team, hands_won=2, dominoes=1, capicuas=n % 2)
                for s, p in enumerate(seats)
                if p is not None
            ]
            await store.finish_match(
                match_id,
                "telegram:-1" if n % 3 else "discord:2",
                winners=[p for s, p in enumerate(seats) if p is not None and s % 2 == team],
                record=record(seats, (100, 40 + n)),
                results=results,
                now=at,
            )
        await store.stake("cancelled", ids[:2], 10, now=NOW)
        await store.refund("cancelled", now=NOW + 1)
        await store.stake("live", ids[2:6], 25, now=NOW + 7 * DAY)  # an open escrow
        await store.top_up(ids[5], now=NOW + 8 * DAY, stake=5000)
        await store.set_chat_rules(
            "telegram:-1", "dominicano", {"target": 150}, changed_by=ids[0], now=NOW
        )
        await store.mute(ids[0], ids[1], now=NOW)
        report = await store.file_report("telegram:-1", ids[0], ids[1], "other", "m1", now=NOW)
        await store.ban("telegram:-1", ids[1], ids[2], now=NOW + 1, report_id=report.id)
        await store.file_report("telegram:-1", ids[3], ids[4], "abusive_name", None, now=NOW + 2)
        await store.set_report_channel("discord:2", "55")
        await store.set_chat_language("discord:2", "en", changed_by=ids[1], now=NOW)
        await store.set_season_period("discord:2", SeasonPeriod.WEEKLY, changed_by=ids[1], now=NOW)
        await store.mark_season_final("telegram:-1", "2026-10", now=NOW)
        await store.save_table("live", {"table_id": "live", "seats": ids[2:6]}, now=NOW)
        await store.claim_tables("telegram", "host-1", now=NOW, replacing=None)
        # a finished tournament with its prizes paid, a live one with its fees in escrow
        await store.save_tournament("copa", "telegram:-1", {"round": 3}, now=NOW)
        await store.stake("tournament:copa", ids[:3], 10, now=NOW)
        await store.pay_prizes("tournament:copa", {ids[0]: 21, ids[1]: 9}, now=NOW + 1)
        await store.finish_tournament(
            "copa", {ids[0]: 1, ids[1]: 2, ids[2]: 3}, name="Copa", entrants=3, now=NOW + 2
        )
        await store.save_tournament("liga", "discord:2", {"round": 1}, now=NOW + 3)
        await store.stake("tournament:liga", ids[3:5], 5, now=NOW + 3)
        assert await store.check_ledger() == []
    finally:
        await store.close()


async def everything(store: Storage) -> dict[str, Any]:
    now = NOW + 10 * DAY
    return {
        **(await state(store, now)),
        "escrows": await store.open_escrows(),
        "claim": await store.tables_claim("telegram"),
        "language": await store.get_chat_language("discord:2"),
        "period": await store.season_period("discord:2"),
        "seasons_chat": await store.seasons("discord:2"),
        "finals": await store.due_season_finals(now + 400 * DAY),
        "standings": await store.season_standings("*", "2026-09"),
        "chat_standings": await store.season_standings("telegram:-1", "2026-09"),
        "linked": await store.find_player("discord", "99"),
        "by_username": await store.find_by_username("telegram", "@tres"),
        "notifications": [await store.player_notifications(i) for i in range(1, 7)],
        "chat_rules": await store.get_chat_rules("telegram:-1"),
        "tournaments": await store.load_tournaments(),
        "finished_tournament": await store.get_tournament("copa"),
        "tournament_escrows": await store.open_tournament_escrows(),
        "places": [await store.player_tournaments(i) for i in range(1, 7)],
    }


def test_a_sqlite_database_is_copied_whole_and_answers_the_same(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "domino.db"
    asyncio.run(fill(source))

    assert main(["migrate", "--from", str(source), "--to", target]) == 0
    out = capsys.readouterr().out
    assert "matches 6" in out and "balances match the source" in out
    # the source is left as it was found: one file, no -wal or -shm beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["domino.db"]

    async def compare() -> None:
        sqlite_store = await SqliteStorage.open(source)
        copy = await PostgresStorage.open(target)
        try:
            assert await everything(copy) == await everything(sqlite_store)
            assert await copy.load_tournaments() == [{"round": 1}]
            assert await copy.player_tournaments(1) == [
                TournamentPlace("copa", "telegram:-1", "Copa", 1, 3, NOW + 2)
            ]
            assert [e.match_id for e in await copy.open_tournament_escrows()] == ["tournament:liga"]
            assert await copy.muted_players(1) == [2]
            assert [r.reporter_id for r in await copy.open_reports("telegram:-1")] == [4]
            assert await copy.banned_players("telegram:-1") == [2]
            assert [e.action for e in await copy.moderation_log("telegram:-1")] == ["ban"]
            assert await copy.report_channel("discord:2") == "55"
            later = await copy.file_report("telegram:-1", 1, 3, "other", None, now=NOW + 3)
            assert later.id == 3  # the copy's ids go on after the copied ones
            assert await copy.check_ledger() == []
            assert (await copy.rebuild_ratings(write=False)).differences == ()
            # the copy goes on where the source stopped: new ids after the copied ones
            new = await copy.ensure_player("telegram", "new", "Nuevo", now=NOW + 11 * DAY)
            assert new.id == 7
            await copy.stake("after", [new.id, 1], 10, now=NOW + 11 * DAY)
            await copy.settle("after", [new.id], now=NOW + 11 * DAY)
            assert await copy.check_ledger() == []
        finally:
            await sqlite_store.close()
            await copy.close()

    asyncio.run(compare())


def test_a_target_holding_data_is_refused_and_left_alone(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "domino.db"
    asyncio.run(fill(source))

    async def put_a_player() -> None:
        store = await PostgresStorage.open(target)
        await store.ensure_player("discord", "1", "Already here", now=0.0)
        await store.close()

    asyncio.run(put_a_player())
    assert main(["migrate", "--from", str(source), "--to", target]) == 1
    assert "already holds data (in players" in capsys.readouterr().err

    async def count_players() -> int:
        conn = await asyncpg.connect(target)
        try:
            return int(await conn.fetchval("SELECT COUNT(*) FROM players"))
        finally:
            await conn.close()

    assert asyncio.run(count_players()) == 1


def test_migrate_wants_a_postgresql_url_and_an_existing_sqlite_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--to", str(tmp_path / "other.db")]) == 2
    assert capsys.readouterr().err == (
        "domino migrate: --to must be a postgresql:// or postgres:// URL\n"
    )
    missing = tmp_path / "missing.db"
    assert main(["migrate", "--from", str(missing), "--to", "postgresql://u@127.0.0.1:9/x"]) == 1
    assert "no SQLite database" in capsys.readouterr().err
