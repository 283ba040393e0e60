"""``domino profile`` (bot/commands/profile.py): the terminal player's profile and the top
lists, as the caption text and a picture written to a file (issue 14); looking writes
nothing (no upgrade, no rename)."""

from __future__ import annotations

import asyncio
import io
import shutil
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

import pytest

from bot.cli import main
from bot.terminal import play
from storage import open_storage

PICTURES = Path("/tmp/dc-pics")
MATCHES = 3
OLD_DB = Path(__file__).with_name("fixtures") / "old_main_tables.db"
"""A database an older bot wrote (its first 4 migrations; tests/fixtures/make_old_db.py)."""


async def record_matches(db: Path, seeds: Iterable[int] = range(1, MATCHES + 1)) -> None:
    """Matches of ``domino play`` (you always press the first move) on ``db``, one per
    seed (each of seeds 1 to 3 is lost)."""
    for seed in seeds:
        storage = await open_storage(db)
        try:
            code = await play(
                storage,
                stdin=io.StringIO("1\n" * 400),
                stdout=io.StringIO(),
                seed=seed,
                level="aprendiz",
            )
            assert code == 0
        finally:
            await storage.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("profile") / "domino.db"
    asyncio.run(record_matches(db))
    return db


@pytest.fixture(scope="module")
def one_lost(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new player's database after one lost match."""
    db = tmp_path_factory.mktemp("one-lost") / "domino.db"
    asyncio.run(record_matches(db, [1]))
    return db


def stored_names(db: Path) -> list[str]:
    with closing(sqlite3.connect(db)) as conn:
        return [name for (name,) in conn.execute("SELECT display_name FROM players ORDER BY id")]


def test_profile_prints_the_local_players_profile_and_writes_its_picture(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "perfil.png"
    assert main(["profile", "--db", str(played), "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Tú — ")
    assert lines[0].endswith(" (provisional)")
    assert lines[1].startswith(f"Partidas: {MATCHES} · Ganadas: ")
    assert lines[-1] == str(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    PICTURES.mkdir(parents=True, exist_ok=True)
    shutil.copy(out, PICTURES / "terminal-profile.png")


def test_profile_in_english_says_matches(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "profile.png"
    assert main(["profile", "--db", str(played), "--out", str(out), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("You — ")
    assert lines[1].startswith(f"Matches: {MATCHES} · Won: ")


def test_profile_top_prints_the_season_list_with_the_local_player_and_writes_its_picture(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "top.png"
    assert main(["profile", "--db", str(played), "--top", "temporada", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Temporada ") and lines[0].endswith(" · todos")
    assert lines[1].startswith("1. Tú — ")
    assert lines[1].endswith(f"? · {MATCHES} partidas")
    assert lines[-1] == str(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shutil.copy(out, PICTURES / "terminal-top.png")


def test_profile_top_without_a_list_is_the_rating_list(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "top.png"
    assert main(["profile", "--db", str(played), "--top", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Rating · todos"
    assert lines[1].startswith("1. Tú — ")


def test_profile_writes_to_the_current_folder_by_default(
    played: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["profile", "--db", str(played)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "domino-profile.png"
    assert (tmp_path / "domino-profile.png").is_file()


def test_an_unknown_list_is_refused_with_exit_code_2(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["profile", "--db", str(played), "--top", "dinero"])
    assert exited.value.code == 2
    assert "invalid choice: 'dinero'" in capsys.readouterr().err


def test_a_folder_without_a_database_gets_a_clear_answer_and_no_new_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DOMINO_DB", raising=False)
    assert main(["profile"]) == 2
    assert capsys.readouterr().err == (
        "domino profile: no database at domino.db (DOMINO_DB or --db); `domino play` creates it\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("top", [[], ["--top"], ["--top", "saldo"]])
def test_an_older_database_is_refused_unchanged_until_run_or_play_upgrades_it(
    top: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old" / "old.db"
    old.parent.mkdir()
    shutil.copyfile(OLD_DB, old)
    assert main(["profile", "--db", str(old), "--out", str(tmp_path / "p.png"), *top]) == 2
    assert capsys.readouterr().err == (
        f"domino profile: the database at {old} needs an upgrade: start `domino run` or "
        "`domino play` once\n"
    )
    assert {f.name: f.read_bytes() for f in old.parent.iterdir()} == {"old.db": OLD_DB.read_bytes()}
    assert not (tmp_path / "p.png").exists()


def test_a_file_that_is_not_a_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not SQLite at all " * 100)
    assert main(["profile", "--db", str(junk)]) == 2
    assert capsys.readouterr().err == (
        f"domino profile: cannot open {junk}: file is not a database\n"
    )


def test_a_name_given_is_only_shown_and_the_stored_player_keeps_theirs(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = played.read_bytes()
    out = tmp_path / "perfil.png"
    assert main(["profile", "--db", str(played), "--name", "Pedro", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("Pedro — ")
    assert stored_names(played) == ["Tú"]
    assert played.read_bytes() == written
    assert main(["profile", "--db", str(played), "--name", "Otro", "--top", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1. Otro — ")
    assert main(["profile", "--db", str(played), "--top", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1. Tú — ")
    assert stored_names(played) == ["Tú"]
    assert played.read_bytes() == written


def test_the_balance_list_shows_a_new_players_real_change_not_the_opening_grant(
    one_lost: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "top.png"
    assert main(["profile", "--db", str(one_lost), "--top", "saldo", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Saldo · todos",
        "1. Tú — $990 · 1 partida (−$10)",
        str(out),
    ]


def test_a_database_without_the_terminal_player_gets_no_profile_and_no_new_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bot.db"
    asyncio.run(_bot_database(db))
    written = db.read_bytes()
    assert main(["profile", "--db", str(db), "--out", str(tmp_path / "p.png")]) == 2
    assert capsys.readouterr().err == (
        f"domino profile: no terminal player in {db} yet; `domino play` makes yours\n"
    )
    assert main(["profile", "--db", str(db), "--top", "--out", str(tmp_path / "t.png")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Rating · todos"
    assert stored_names(db) == ["Ana"]
    assert db.read_bytes() == written


async def _bot_database(db: Path) -> None:
    """A database of this version where only a Telegram player was ever seen."""
    storage = await open_storage(db)
    try:
        await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
    finally:
        await storage.close()


async def _linked_pair(db: Path) -> None:
    """Ana on Telegram (user 1, @ana) and on Discord (user 9), linked into one player."""
    storage = await open_storage(db)
    try:
        await storage.ensure_player("telegram", "1", "Ana", now=1.0)
        await storage.set_username("telegram", "1", "ana")
        await storage.ensure_player("discord", "9", "Ana D", now=2.0)
        assert await storage.issue_link_code("telegram", "1", "ABC234", now=10.0)
        await storage.redeem_link_code("ABC234", "discord", "9", now=20.0)
    finally:
        await storage.close()


def test_profile_of_a_linked_player_names_both_accounts_from_either_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "domino.db"
    asyncio.run(_linked_pair(db))
    for who in ("telegram:1", "discord:9"):
        out = tmp_path / "perfil.png"
        assert main(["profile", "--db", str(db), "--out", str(out), "--player", who]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith("Ana — ")
        assert "Cuentas: Discord · Telegram @ana" in lines
    assert main(["profile", "--db", str(db), "--player", "telegram:404"]) == 2
    assert capsys.readouterr().err == f"domino profile: nobody is telegram:404 in {db}\n"
    assert main(["profile", "--db", str(db), "--player", "telegram"]) == 2
    assert "--player is PLATFORM:ID" in capsys.readouterr().err
