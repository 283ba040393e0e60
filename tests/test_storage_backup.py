"""Online backups (storage/backup.py): a whole copy taken while the bot keeps writing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.backup import BackupError, backup_database, main
from storage.sqlite import SqliteStorage


async def test_a_backup_taken_during_writes_is_whole_and_includes_the_wal(tmp_path: Path) -> None:
    live = await SqliteStorage.open(tmp_path / "domino.db")
    ids = [(await live.ensure_player("telegram", str(i), f"P{i}", now=0.0)).id for i in range(4)]

    async def keep_writing() -> None:
        for n in range(200):
            await live.stake(f"m{n}", ids, 10, now=float(n))
            await live.settle(f"m{n}", ids[n % 2 :: 2], now=float(n))

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(0.01)
    copy_path = await asyncio.to_thread(
        backup_database, tmp_path / "domino.db", tmp_path / "copy.db"
    )
    await writer
    assert copy_path == tmp_path / "copy.db"
    assert not (tmp_path / "copy.db-wal").exists()
    copy = await SqliteStorage.open(tmp_path / "copy.db")
    assert await copy.check_ledger() == []
    # The players were committed only to the WAL file so far; the copy has them.
    assert [await copy.get_player(p) for p in ids] == [await live.get_player(p) for p in ids]
    await copy.close()
    assert await live.check_ledger() == []
    await live.close()


async def test_the_command_backs_up_domino_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "bot.db"))
    live = await SqliteStorage.open(tmp_path / "bot.db")
    player = await live.ensure_player("discord", "1", "Ana", now=0.0)
    dest = tmp_path / "backups" / "b.db"
    assert await asyncio.to_thread(main, [str(dest)]) == 0
    size = dest.stat().st_size
    assert capsys.readouterr().out == (
        f"backed up {tmp_path / 'bot.db'} to {dest} ({size:,} bytes, check ok)\n"
    )
    copy = await SqliteStorage.open(dest)
    assert await copy.find_player("discord", "1") == player
    await copy.close()
    # a second backup onto the same file replaces it, and says so
    assert await asyncio.to_thread(main, [str(dest)]) == 0
    assert capsys.readouterr().out == (
        f"backed up {tmp_path / 'bot.db'} to {dest} ({size:,} bytes, check ok;"
        " the older copy there was replaced)\n"
    )
    await live.close()


def test_a_missing_database_is_a_clear_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "b.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "b.db").exists()
    with pytest.raises(BackupError):
        backup_database(tmp_path / "none.db", tmp_path / "b.db")


async def test_a_backup_onto_the_database_itself_is_refused(tmp_path: Path) -> None:
    await (await SqliteStorage.open(tmp_path / "d.db")).close()
    with pytest.raises(BackupError, match="another file"):
        backup_database(tmp_path / "d.db", tmp_path / "d.db")


def test_a_postgresql_database_is_not_copied_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DOMINO_DB", "postgresql://bot:secret@db/domino")
    assert main([str(tmp_path / "copy.db")]) == 1
    err = capsys.readouterr().err
    assert "pg_dump" in err and "secret" not in err
    assert not (tmp_path / "copy.db").exists()


def test_a_postgresql_database_named_by_db_is_not_copied_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "copy.db"), "--db", "postgresql://u:secret@h/db"]) == 1
    assert capsys.readouterr().err == (
        "backup failed: postgresql://u:***@h/db is a PostgreSQL database; this command copies"
        " SQLite files: back PostgreSQL up with pg_dump\n"
    )
    assert list(tmp_path.iterdir()) == []


async def test_a_backup_into_a_folder_keeps_the_databases_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await (await SqliteStorage.open(tmp_path / "domino.db")).close()
    (tmp_path / "backups").mkdir()
    assert (
        await asyncio.to_thread(
            main, [str(tmp_path / "backups"), "--db", str(tmp_path / "domino.db")]
        )
        == 0
    )
    copy = tmp_path / "backups" / "domino.db"
    assert capsys.readouterr().out == (
        f"backed up {tmp_path / 'domino.db'} to {copy} ({copy.stat().st_size:,} bytes, check ok)\n"
    )
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == ["domino.db"]


async def test_a_file_that_is_not_a_database_is_never_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await (await SqliteStorage.open(tmp_path / "domino.db")).close()
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    assert await asyncio.to_thread(main, [str(notes), "--db", str(tmp_path / "domino.db")]) == 1
    assert capsys.readouterr().err == (
        f"backup failed: {notes} is there and is not a database: choose another name\n"
    )
    assert notes.read_text() == "hello\n"
    assert not (tmp_path / "notes.txt.partial").exists()


def test_a_source_that_is_not_a_database_fails_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("not a database, just some text that is long enough\n" * 20)
    assert main([str(tmp_path / "o1.db"), "--db", str(plain)]) == 1
    assert capsys.readouterr().err == "backup failed: file is not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]
