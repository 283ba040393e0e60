"""``domino doctor`` (bot/commands/doctor.py): one ok/warn/FAIL line per check of the
configuration, the database (opened, migrated, ledger whole; an older schema reported,
never upgraded) and each token against the local fakes; ``--health`` for the container
(database and a fresh heartbeat, no platform contacted)."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.commands import doctor
from bot.discord_http import point_discord_at
from storage.base import tournament_escrow
from storage.migrations import MIGRATIONS, Migration
from storage.postgres_migrations import POSTGRES_MIGRATIONS
from storage.sqlite import SqliteStorage, apply_migrations
from tests.fake_discord import FakeDiscord
from tests.fake_telegram import FakeTelegram
from tests.postgres_server import PostgresServer
from tests.test_app import refusing_discord
from tests.test_config import NAMES

TOKEN = "777000:AAE-doctor-telegram-token"
DISCORD = "MTIz.doctor-discord.token"
OLD_DB = Path(__file__).with_name("fixtures") / "old_main_tables.db"
"""A database an older bot wrote (its first 4 migrations; tests/fixtures/make_old_db.py)."""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A clean environment, a new database of this version's schema in ``tmp_path``;
    discord.py pointed back at Discord afterwards (the doctor points it at the fake)."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "domino.db"))
    with closing(sqlite3.connect(tmp_path / "domino.db", isolation_level=None)) as db:
        apply_migrations(db)  # the bot's database, as `domino run` leaves it
    discord_level = logging.getLogger("discord").level
    yield tmp_path / "domino.db"
    point_discord_at(None, None)
    logging.getLogger("discord").setLevel(discord_level)


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(token=TOKEN)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def discord_fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


async def checkup(
    capsys: pytest.CaptureFixture[str], *, health: bool = False, db: str | None = None
) -> tuple[int, str]:
    """Run the doctor in this event loop (the fakes live here); returns (code, output)."""
    code = await doctor._run(argparse.Namespace(health=health, env_file=None, db=db))
    return code, capsys.readouterr().out


def lines(output: str) -> dict[str, str]:
    """``what`` -> the whole line, for every check line."""
    found = {}
    for line in output.splitlines():
        status, _, rest = line.partition("  ")
        assert status.strip() in ("ok", "warn", "FAIL"), line
        found[rest.strip().split(":")[0]] = line
    return found


async def test_a_fresh_install_is_healthy_and_warns_that_there_is_no_token(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    code, out = await checkup(capsys)
    assert code == 0
    found = lines(out)
    assert found["configuration read"].startswith("ok")
    assert str(environment) in found["configuration read"]
    assert found["database"].startswith("ok") and "opened and migrated" in found["database"]
    assert found["ledger"].startswith("ok")
    assert found["platforms"].startswith("warn") and "domino play" in found["platforms"]


async def test_where_no_database_exists_the_doctor_says_where_it_looked_and_creates_none(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    environment.unlink()
    code, out = await checkup(capsys)
    assert code == 0
    found = lines(out)
    assert found["database"] == (
        f"warn  database: no database at {environment.resolve()} (DOMINO_DB or --db); "
        "`domino run` or `domino play` creates it there"
    )
    assert "ledger" not in found
    assert not environment.exists()
    code, out = await checkup(capsys, health=True)
    assert code == 1 and lines(out)["database"].startswith("FAIL")
    assert not environment.exists()


async def test_db_names_the_database_to_check_instead_of_domino_db(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    other = environment.with_name("other.db")
    code, out = await checkup(capsys, db=str(other))
    assert code == 0
    found = lines(out)
    assert found["configuration read"] == f"ok    configuration read: database {other}"
    assert found["database"].startswith(f"warn  database: no database at {other.resolve()}")
    assert not other.exists()
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    assert parser.parse_args(["--db", "x.db"]).db == "x.db"


async def test_a_bad_setting_fails_naming_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOMINO_ROBOT_LEVEL", "genio")
    code, out = await checkup(capsys)
    assert code == 1
    assert out.startswith("FAIL  setting DOMINO_ROBOT_LEVEL: ")
    assert "novato" in out


async def test_a_database_in_a_missing_folder_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "no" / "such" / "domino.db"))
    code, out = await checkup(capsys)
    assert code == 1
    assert "FAIL  database: folder" in out and "does not exist" in out


async def test_a_file_that_is_not_a_database_fails(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    environment.write_bytes(b"this is not SQLite at all " * 100)
    code, out = await checkup(capsys)
    assert code == 1
    assert "FAIL  database: cannot open" in out


def files_in(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir()) if f.is_file()}


UNCHECKED = (
    "warn  ledger: not checked, nor escrows and tables (this version reads them in its own "
    "schema): run `domino doctor` again after the upgrade; nothing was written"
)


async def test_an_older_database_is_reported_with_its_pending_upgrade_and_left_unwritten(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    old = tmp_path / "old" / "old.db"
    old.parent.mkdir()
    shutil.copyfile(OLD_DB, old)
    code, out = await checkup(capsys, db=str(old))
    assert files_in(old.parent) == {"old.db": OLD_DB.read_bytes()}
    pending = ", ".join(m.name for m in MIGRATIONS[4:])
    assert out.splitlines()[1:3] == [
        f"warn  database: {old}: schema 4, this version upgrades it to {len(MIGRATIONS)} "
        f"when `domino run` or `domino play` starts (pending: {pending})",
        UNCHECKED,
    ]
    assert "escrows" not in lines(out)
    assert code == 0


async def test_a_database_without_tables_is_said_to_be_new_and_stays_empty(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    environment.write_bytes(b"")
    code, out = await checkup(capsys)
    assert environment.read_bytes() == b""
    assert out.splitlines()[1:3] == [
        f"warn  database: {environment} has no tables yet; `domino run` or `domino play` "
        "creates them",
        UNCHECKED,
    ]
    assert code == 0


async def test_a_database_of_the_current_schema_is_opened_and_checked_as_it_is(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    code, out = await checkup(capsys)
    found = lines(out)
    assert found["database"] == f"ok    database: {environment} opened and migrated"
    assert found["ledger"] == "ok    ledger: every balance equals its rows; all sums are zero"
    assert found["escrows"] == "ok    escrows: every open escrow belongs to a live table (0 saved)"
    with closing(sqlite3.connect(environment)) as db:
        names = [name for (name,) in db.execute("SELECT name FROM schema_migrations")]
    assert names == [m.name for m in MIGRATIONS]
    assert code == 0


async def test_a_database_of_a_newer_version_fails_unwritten(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    future = Migration("9999_from_the_future", ("CREATE TABLE robots_v2 (x)",))
    with closing(sqlite3.connect(environment, isolation_level=None)) as db:
        apply_migrations(db, (*MIGRATIONS, future))
    written = environment.read_bytes()
    code, out = await checkup(capsys)
    assert lines(out)["database"] == (
        f"FAIL  database: cannot open {environment}: the database has migrations this "
        "version does not know: 9999_from_the_future (written by a newer version?)"
    )
    assert environment.read_bytes() == written
    assert code == 1


async def test_a_balance_that_does_not_match_its_ledger_rows_fails(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    storage = await SqliteStorage.open(environment)
    player = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    await storage.close()
    with sqlite3.connect(environment) as db:
        db.execute("UPDATE accounts SET balance = balance + 5 WHERE player_id = ?", (player.id,))
    code, out = await checkup(capsys)
    assert code == 1
    ledger = [line for line in out.splitlines() if "ledger" in line]
    assert ledger and all(line.startswith("FAIL") for line in ledger)
    assert any("1005" in line and "1000" in line for line in ledger)


async def test_tokens_the_platforms_accept_are_ok(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    telegram: FakeTelegram,
    discord_fake: FakeDiscord,
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", telegram.base_url)
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)
    monkeypatch.setenv("DISCORD_API_BASE_URL", discord_fake.api_base_url)
    code, out = await checkup(capsys)
    assert code == 0, out
    found = lines(out)
    assert found["telegram"] == "ok    telegram: token accepted: @domino_test_bot"
    assert found["discord"].startswith("ok    discord: token accepted: domino")
    assert [c.method for c in telegram.calls] == ["getMe"]
    assert discord_fake.requests_to("GET", "/users/@me")
    assert TOKEN not in out and DISCORD not in out


async def test_refused_tokens_fail_and_say_where_to_get_new_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, telegram: FakeTelegram
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", "1:an-old-token")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", telegram.base_url)
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)
    async with refusing_discord() as api:
        monkeypatch.setenv("DISCORD_API_BASE_URL", api)
        code, out = await checkup(capsys)
    assert code == 1
    found = lines(out)
    assert found["telegram"].startswith("FAIL") and "@BotFather" in found["telegram"]
    assert found["discord"].startswith("FAIL") and "Developer Portal" in found["discord"]
    assert found["database"].startswith("ok")  # the other checks still ran
    assert "an-old-token" not in out


async def test_unreachable_platforms_fail_with_the_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = "http://127.0.0.1:9"  # the discard port: nothing listens there
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", f"{closed}/bot")
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)
    monkeypatch.setenv("DISCORD_API_BASE_URL", f"{closed}/api/v10")
    code, out = await checkup(capsys)
    assert code == 1
    found = lines(out)
    assert "cannot reach the Bot API" in found["telegram"]
    assert "cannot reach Discord" in found["discord"]
    assert TOKEN not in out and DISCORD not in out


async def test_health_fails_without_a_heartbeat_and_passes_with_a_fresh_one(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    code, out = await checkup(capsys, health=True)
    assert code == 1
    assert "FAIL  heartbeat" in out and "is `domino run` running?" in out

    beat = doctor.heartbeat_path(environment)
    beat.touch()
    code, out = await checkup(capsys, health=True)
    assert code == 0, out
    assert "ok    heartbeat" in out

    stale = time.time() - doctor.HEARTBEAT_MAX_AGE - 60
    os.utime(beat, (stale, stale))
    code, out = await checkup(capsys, health=True)
    assert code == 1
    assert "FAIL  heartbeat: last beat" in out


async def test_health_never_contacts_a_platform(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    environment: Path,
    telegram: FakeTelegram,
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", telegram.base_url)
    doctor.heartbeat_path(environment).touch()
    code, out = await checkup(capsys, health=True)
    assert code == 0, out
    assert telegram.calls == []
    assert "telegram" not in out


def test_the_heartbeat_lives_beside_the_database() -> None:
    assert doctor.heartbeat_path(Path("/data/domino.db")) == Path("/data/domino.db.heartbeat")


def test_the_command_line_health_check_exits_non_zero_without_a_running_bot(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    env["DOMINO_DB"] = str(tmp_path / "domino.db")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "doctor", "--health"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "ok    database" in done.stdout and "FAIL  heartbeat" in done.stdout


async def test_stakes_that_no_live_table_owns_are_reported_not_called_ok(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    storage = await SqliteStorage.open(environment)
    ana = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    beto = await storage.ensure_player("telegram", "1002", "Beto", now=0.0)
    await storage.stake("gone1234", [ana.id, beto.id], 10, now=1.0)
    await storage.save_table(
        "waiting9",
        {"table_id": "waiting9", "chat": {"platform": "telegram"}, "record": None},
        now=2.0,
    )
    await storage.stake("waiting9", [ana.id], 10, now=3.0)
    await storage.close()
    code, out = await checkup(capsys)
    found = lines(out)
    assert found["escrows"] == (
        "warn  escrows: 2 hold stakes that no live table owns: gone1234 ($20, no table), "
        "waiting9 ($10, its table never started); the next `domino run` or `domino play` "
        "refunds them (or starts that match)"
    )
    assert found["ledger"].startswith("ok")
    assert code == 0


async def test_a_database_whose_escrows_all_belong_to_started_tables_is_ok(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    storage = await SqliteStorage.open(environment)
    ana = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    await storage.save_table(
        "playing1",
        {"table_id": "playing1", "chat": {"platform": "telegram"}, "record": {}},
        now=2.0,
    )
    await storage.stake("playing1", [ana.id], 10, now=3.0)
    await storage.close()
    code, out = await checkup(capsys)
    assert code == 0
    assert lines(out)["escrows"] == (
        "ok    escrows: every open escrow belongs to a live table (1 saved)"
    )


async def test_entry_fees_that_no_live_tournament_owns_are_reported_not_called_ok(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    storage = await SqliteStorage.open(environment)
    ana = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    beto = await storage.ensure_player("telegram", "1002", "Beto", now=0.0)
    await storage.stake(tournament_escrow("gone"), [ana.id, beto.id], 10, now=1.0)
    await storage.save_tournament("done", "telegram:-1", {"round": 3}, now=2.0)
    await storage.cancel_tournament("done", now=3.0)
    await storage.stake(tournament_escrow("done"), [ana.id], 10, now=4.0)
    await storage.close()
    code, out = await checkup(capsys)
    found = lines(out)
    assert found["tournaments"] == (
        "warn  tournaments: 2 hold entry fees that no live tournament owns: "
        "tournament:gone ($20, no tournament), tournament:done ($10, its tournament is "
        "over); nothing pays or refunds them on its own"
    )
    assert found["escrows"] == "ok    escrows: every open escrow belongs to a live table (0 saved)"
    assert code == 0


async def test_a_live_tournaments_entry_fees_in_escrow_are_ok_and_not_a_tables(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    storage = await SqliteStorage.open(environment)
    ana = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    await storage.save_tournament("copa", "telegram:-1", {"round": 1}, now=1.0)
    await storage.stake(tournament_escrow("copa"), [ana.id], 10, now=2.0)
    await storage.close()
    code, out = await checkup(capsys)
    found = lines(out)
    assert found["tournaments"] == (
        "ok    tournaments: every open tournament escrow belongs to a live tournament (1 live)"
    )
    assert found["escrows"] == "ok    escrows: every open escrow belongs to a live table (0 saved)"
    assert code == 0


async def test_tables_run_by_a_process_that_is_gone_are_reported_not_called_ok(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    import socket
    import subprocess
    import sys
    import time

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    from bot.core.ownership import process_space

    owner = f"{socket.gethostname()}:{process_space()}:{int(dead.stdout)}:old"
    storage = await SqliteStorage.open(environment)
    await storage.save_table(
        "t1", {"table_id": "t1", "chat": {"platform": "terminal"}, "record": None}, now=1.0
    )
    assert await storage.claim_tables("terminal", owner, now=time.time(), replacing=None)
    await storage.close()
    code, out = await checkup(capsys)
    found = lines(out)
    assert found["tables"].startswith(f"warn  tables: the terminal tables were run by {owner}")
    assert found["tables"].endswith(
        "which is gone (last heartbeat 0 s ago); a standby or the next start takes them over"
    )
    assert code == 0


async def test_every_held_lease_is_shown_with_its_process_one_per_discord_shard(
    capsys: pytest.CaptureFixture[str], environment: Path
) -> None:
    import time

    storage = await SqliteStorage.open(environment)
    for scope, owner in (
        ("discord:1", "bot-1:7:b"),
        ("discord:0", "bot-0:7:a"),
        ("telegram", "bot-0:7:a"),
    ):
        assert await storage.claim_tables(scope, owner, now=time.time(), replacing=None) == 1
    await storage.release_tables("telegram", "bot-0:7:a")
    await storage.close()
    code, out = await checkup(capsys)
    shown = [line for line in out.splitlines() if line.startswith("ok    tables:")]
    assert shown == [
        "ok    tables: discord:0 tables run by bot-0:7:a (0 s ago)",
        "ok    tables: discord:1 tables run by bot-1:7:b (0 s ago)",
    ]
    assert code == 0


@pytest.mark.parametrize(
    ("takeover", "expected"),
    [
        (None, "warn  tables: the telegram tables were run by bot-0:7:a, which is gone"),
        ("60", "ok    tables: telegram tables run by bot-0:7:a (30 s ago)"),
    ],
)
async def test_a_lease_is_called_gone_after_the_takeover_time_domino_run_reads(
    capsys: pytest.CaptureFixture[str],
    environment: Path,
    monkeypatch: pytest.MonkeyPatch,
    takeover: str | None,
    expected: str,
) -> None:
    import time

    if takeover is not None:
        monkeypatch.setenv("DOMINO_LEASE_TAKEOVER_SECONDS", takeover)
    storage = await SqliteStorage.open(environment)
    beat = time.time() - 30  # renewed 30 s ago: past the default 20 s, within 60 s
    assert await storage.claim_tables("telegram", "bot-0:7:a", now=beat, replacing=None) == 1
    await storage.close()
    code, out = await checkup(capsys)
    assert lines(out)["tables"].startswith(expected)
    assert code == 0


async def test_a_postgresql_database_is_opened_and_its_ledger_checked(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    postgres_server: PostgresServer,
) -> None:
    dsn = await postgres_server.create_database()
    # the password is never shown (this server trusts local connections and ignores it)
    shown = dsn.replace("postgresql://postgres@", "postgresql://postgres:***@")
    monkeypatch.setenv("DOMINO_DB", dsn.replace("postgres@", "postgres:s3cret@", 1))
    try:
        code, out = await checkup(capsys)
    finally:
        await postgres_server.drop_database(dsn)
    found = lines(out)
    assert found["database"].startswith("ok") and "(PostgreSQL)" in found["database"]
    assert shown in found["database"] and "s3cret" not in out
    assert found["ledger"].startswith("ok")
    assert code == 0
    assert doctor.heartbeat_path(dsn) == Path("domino.heartbeat")


async def test_an_older_postgresql_database_is_reported_and_not_upgraded(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    postgres_server: PostgresServer,
) -> None:
    import asyncpg

    from storage.postgres import PostgresStorage

    dsn = await postgres_server.create_database(migrated=False)
    try:
        await (await PostgresStorage.open(dsn, migrations=POSTGRES_MIGRATIONS[:1])).close()
        monkeypatch.setenv("DOMINO_DB", dsn)
        code, out = await checkup(capsys)
        conn = await asyncpg.connect(dsn)
        try:
            names = [r[0] for r in await conn.fetch("SELECT name FROM schema_migrations")]
        finally:
            await conn.close()
    finally:
        await postgres_server.drop_database(dsn)
    assert names == [POSTGRES_MIGRATIONS[0].name]
    assert out.splitlines()[1:3] == [
        f"warn  database: {dsn} (PostgreSQL): schema 1, this version upgrades it to "
        f"{len(POSTGRES_MIGRATIONS)} when `domino run` or `domino play` starts "
        f"(pending: {', '.join(m.name for m in POSTGRES_MIGRATIONS[1:])})",
        UNCHECKED,
    ]
    assert code == 0


async def test_without_a_web_address_the_web_table_is_said_to_be_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = await checkup(capsys)
    assert code == 0
    assert "ok    web table: off (DOMINO_WEB_URL not set; chats work without it)" in out


async def test_the_web_settings_are_checked_and_a_taken_port_is_named(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    telegram: FakeTelegram,
) -> None:
    import socket

    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", telegram.base_url)
    monkeypatch.setenv("DOMINO_WEB_URL", "https://mesa.example.com")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("DOMINO_WEB_PORT", str(taken.getsockname()[1]))
        code, out = await checkup(capsys)
    assert code == 0
    web = [line for line in out.splitlines() if "web " in line]
    assert web[0].startswith("warn  web table: cannot listen on 127.0.0.1:")
    assert "is DOMINO_WEB_PORT taken?" in web[0]
    assert web[1] == (
        "ok    web links: signed with a key derived from the tokens (DOMINO_WEB_SECRET)"
    )
    assert web[2].startswith("warn  web table: TELEGRAM_WEBAPP is not set")
    monkeypatch.setenv("TELEGRAM_WEBAPP", "mesa")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("DOMINO_WEB_PORT", str(port))
    code, out = await checkup(capsys)
    web = [line for line in out.splitlines() if "web " in line]
    assert web[0] == f"ok    web table: https://mesa.example.com served from 127.0.0.1:{port}"
    assert not any("TELEGRAM_WEBAPP" in line for line in web)
    assert web[-1] == "ok    web table: not a Discord Activity (DISCORD_CLIENT_ID not set)"
    monkeypatch.setenv("DISCORD_CLIENT_ID", "1234")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cret")
    code, out = await checkup(capsys)
    web = [line for line in out.splitlines() if "web " in line]
    assert web[-2:] == [
        "ok    web table: also a Discord Activity: its URL mapping `/` must point at "
        "mesa.example.com (pages of https://1234.discordsays.com may connect)",
        "warn  web table: a Discord Activity without DISCORD_TOKEN: no Discord tables to "
        "open it on",
    ]
    assert "s3cret" not in out
