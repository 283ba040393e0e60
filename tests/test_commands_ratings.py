from __future__ import annotations

import asyncio
import io
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.terminal import play
from storage import open_storage, redact_dsn
from storage.base import PlayerResult, Rating, RatingPoint, Storage
from storage.ratings import ALL_CHATS, ALL_TIME, ROBOT_SKILLS, SeasonPeriod
from tests.postgres_server import PostgresServer

JANUARY_2026 = 1_767_225_600.0  # 2026-01-01 00:00 UTC
HOUR = 3600.0
CHATS = ("telegram:-100", "telegram:-200", "discord:7", "discord:8")


async def simulate_matches(storage: Storage, matches: int, *, seed: int) -> int:
    """Finish ``matches`` simulated matches as the bot does (stake, then ``finish_match``
    with a record carrying seats, score and winner): 1 to 4 humans of a pool of 24, robots
    of every rated level (a few of a level that is not rated), some humans a robot played
    for most of the match, four chats (one weekly, one quarterly) over about four months.
    Returns how many of them are rated."""
    rng = random.Random(seed)
    players = [
        (await storage.ensure_player("telegram", str(n), f"Jugador {n}", now=JANUARY_2026)).id
        for n in range(24)
    ]
    await storage.set_season_period(
        CHATS[1], SeasonPeriod.WEEKLY, changed_by=players[0], now=JANUARY_2026
    )
    await storage.set_season_period(
        CHATS[2], SeasonPeriod.QUARTERLY, changed_by=players[0], now=JANUARY_2026
    )
    levels = sorted(ROBOT_SKILLS)
    now = JANUARY_2026
    rated = 0
    for n in range(matches):
        now += rng.uniform(0.5, 5.0) * HOUR
        humans = rng.sample(players, rng.randint(1, 4))
        unrated = rng.random() < 0.03 and len(humans) < 4
        robots: list[str] = [
            "externo" if unrated and i == 0 else rng.choice(levels) for i in range(4 - len(humans))
        ]
        seats: list[int | str] = [*humans, *robots]
        rng.shuffle(seats)
        winner = rng.randint(0, 1)
        score = [0, 0]
        score[winner] = rng.randint(100, 160)
        score[1 - winner] = rng.randint(0, 99)
        match_id = f"m{n}"
        seat_rows: list[dict[str, Any]] = []
        for seat in seats:
            moves = rng.randint(10, 40)
            if isinstance(seat, int):
                robot_moves = rng.randint(moves // 2 + 1, moves) if rng.random() < 0.1 else 0
                seat_rows.append({"player": seat, "moves": moves, "robot_moves": robot_moves})
            else:
                seat_rows.append({"robot": seat, "moves": moves})
        record = {
            "rules": "venezolano",
            "hands": [{"moves": []} for _ in range(rng.randint(2, 9))],
            "seats": seat_rows,
            "score": score,
            "winner_team": winner,
        }
        results = [
            PlayerResult(pid, i % 2, i % 2 == winner, hands_won=rng.randint(0, 5))
            for i, pid in enumerate(seats)
            if isinstance(pid, int)
        ]
        if n % 10 == 0:  # a staked match now and then; money does not move ratings
            await storage.stake(match_id, humans, 10, now=now)
        await storage.finish_match(
            match_id,
            rng.choice(CHATS),
            winners=[r.player_id for r in results if r.won_match],
            record=record,
            results=results,
            now=now,
        )
        rated += not unrated
    return rated


async def make_database(path: Path | str, matches: int, *, seed: int = 14) -> int:
    storage = await open_storage(path)
    try:
        return await simulate_matches(storage, matches, seed=seed)
    finally:
        await storage.close()


async def every_rating(path: Path) -> tuple[dict[Any, Rating | None], dict[int, list[RatingPoint]]]:
    """Every player's rating in every scope that exists, and their whole rating history."""
    storage = await open_storage(path)
    try:
        players = [r.player_id for r in await storage.top_by_balance(None, now=0.0, limit=100)]
        scopes = [(ALL_CHATS, ALL_TIME)] + [
            (chat, season) for chat in (ALL_CHATS, *CHATS) for season in await storage.seasons(chat)
        ]
        ratings = {
            (chat, season, p): await storage.player_rating(p, chat=chat, season=season)
            for chat, season in scopes
            for p in players
        }
        history = {p: await storage.rating_history(p, limit=10_000) for p in players}
        return ratings, history
    finally:
        await storage.close()


def test_checking_a_thousand_simulated_matches_finds_no_difference_and_rebuilding_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "domino.db"
    rated = asyncio.run(make_database(db, 1000))
    assert 900 < rated < 1000
    before = asyncio.run(every_rating(db))
    assert len(before[0]) > 24 * 20 and sum(r is not None for r in before[0].values()) > 400
    assert len(before[1]) == 24 and all(before[1].values())

    assert main(["ratings", "--check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"replayed 1,000 matches: {rated:,} rated," in out
    assert "differences: 0 " in out

    assert main(["ratings", "--rebuild", "--db", str(db)]) == 0
    assert "differences: 0 " in capsys.readouterr().out
    assert asyncio.run(every_rating(db)) == before


def test_a_tampered_rating_fails_the_check_by_name_and_rebuilding_fixes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "domino.db"
    asyncio.run(make_database(db, 60, seed=3))
    ratings, history = asyncio.run(every_rating(db))
    with sqlite3.connect(db) as conn:
        player, mu = conn.execute(
            "SELECT player_id, mu FROM ratings WHERE chat = '*' AND season = ''"
            " ORDER BY player_id LIMIT 1"
        ).fetchone()
        conn.execute(
            "UPDATE ratings SET mu = mu + 1 WHERE chat = '*' AND season = '' AND player_id = ?",
            (player,),
        )
        conn.execute("DELETE FROM rating_history WHERE player_id = ? AND seq = 1", (player,))
    conn.close()

    assert main(["ratings", "--check", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "differences: 2 (nothing written;" in out
    assert f"  player {player}, * all time: stored mu {mu + 1!r} sigma" in out
    assert f"  player {player}: rating history differs" in out
    assert asyncio.run(every_rating(db)) != (ratings, history)

    assert main(["ratings", "--rebuild", "--db", str(db)]) == 0
    assert "differences: 2, fixed" in capsys.readouterr().out
    assert asyncio.run(every_rating(db)) == (ratings, history)
    assert main(["ratings", "--check", "--db", str(db)]) == 0
    assert "differences: 0 " in capsys.readouterr().out


@pytest.mark.parametrize("action", ["--check", "--rebuild"])
def test_a_database_that_does_not_exist_is_refused_and_not_created(
    action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    assert main(["ratings", action, "--db", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"domino ratings: no database at {missing} (DOMINO_DB or --db)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_database_comes_from_domino_db_without_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "bot.db"))
    assert main(["ratings", "--check"]) == 2
    assert f"no database at {tmp_path / 'bot.db'}" in capsys.readouterr().err
    asyncio.run(make_database(tmp_path / "bot.db", 5))
    assert main(["ratings", "--check"]) == 0
    assert f"database: {tmp_path / 'bot.db'}\nreplayed 5 matches:" in capsys.readouterr().out


def test_a_file_that_is_not_a_database_is_refused_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database, just some text that is long enough\n" * 20)
    for action in ("--check", "--rebuild"):
        assert main(["ratings", action, "--db", str(text)]) == 2
        assert f"domino ratings: cannot open {text}: file is not a database" in (
            capsys.readouterr().err
        )


def test_checking_a_database_of_an_older_version_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE schema_migrations (name TEXT, checksum TEXT, applied_at REAL)")
    conn.close()
    content = db.read_bytes()
    assert main(["ratings", "--check", "--db", str(db)]) == 2
    assert "is not migrated to this version (missing 0001_" in capsys.readouterr().err
    assert db.read_bytes() == content


def test_ratings_needs_one_of_rebuild_or_check(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["ratings"], ["ratings", "--check", "--rebuild"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    assert "--rebuild" in capsys.readouterr().err


def test_one_match_is_counted_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "one.db"
    rated = asyncio.run(make_database(db, 1))
    assert main(["ratings", "--check", "--db", str(db)]) == 0
    assert f"replayed 1 match: {rated} rated," in capsys.readouterr().out


def test_a_match_left_with_q_is_rated_as_lost_and_checking_or_rebuilding_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 follow-up: the only human leaving a started ``domino play`` match ends
    it, stored as abandoned and rated as a loss; replaying the records gives the same."""
    db = tmp_path / "left.db"

    async def leave_a_match() -> int:
        storage = await open_storage(db)
        try:
            code = await play(storage, stdin=io.StringIO("1\nq\n"), stdout=io.StringIO(), seed=5)
            assert code == 0
            (stored,) = await storage.match_records()
            assert stored.record["abandoned_by"] == 0
            (player,) = {s["player"] for s in stored.record["seats"] if "player" in s}
            return player
        finally:
            await storage.close()

    player = asyncio.run(leave_a_match())
    before = asyncio.run(every_rating(db))
    rating = before[0][(ALL_CHATS, ALL_TIME, player)]
    assert rating is not None
    assert (rating.matches, rating.wins) == (1, 0)
    assert rating.display < 1000  # a new player shows 1,000: the loss counted
    assert len(before[1][player]) == 1

    assert main(["ratings", "--check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "replayed 1 match: 1 rated," in out
    assert "differences: 0 " in out
    assert main(["ratings", "--rebuild", "--db", str(db)]) == 0
    assert "differences: 0 " in capsys.readouterr().out
    assert asyncio.run(every_rating(db)) == before


def test_a_postgresql_database_is_checked_from_domino_db(
    postgres_server: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dsn = asyncio.run(postgres_server.create_database())
    try:
        asyncio.run(make_database(dsn, 20))
        monkeypatch.setenv("DOMINO_DB", dsn)
        assert main(["ratings", "--check"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"database: {redact_dsn(dsn)}\nreplayed 20 matches:")
        assert "differences: 0 " in out
    finally:
        asyncio.run(postgres_server.drop_database(dsn))


def test_an_unreachable_postgresql_database_is_refused_without_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql://domino:secret@127.0.0.1:9/domino"
    assert main(["ratings", "--check", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "domino ratings: cannot open postgresql://domino:***@127.0.0.1:9/domino: "
    )
    assert "secret" not in err
