from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from storage import open_storage


def test_backup_copies_a_database_in_use_with_its_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "domino.db"

    async def scenario() -> None:
        storage = await open_storage(db)
        try:
            player = await storage.ensure_player("telegram", "42", "Ana", now=0.0)
            # the bot keeps the database open while the backup runs
            assert main(["backup", str(tmp_path / "copy.db"), "--db", str(db)]) == 0
            assert await storage.balance(player.id) == 1000
        finally:
            await storage.close()

    asyncio.run(scenario())
    assert "check ok" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "copy.db") as copy:
        (count,) = copy.execute("SELECT COUNT(*) FROM players").fetchone()
    assert count == 1


def test_backup_of_a_missing_database_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "no database at" in capsys.readouterr().err


def _database(path: Path) -> Path:
    async def make() -> None:
        storage = await open_storage(path)
        try:
            await storage.ensure_player("telegram", "42", "Ana", now=0.0)
        finally:
            await storage.close()

    asyncio.run(make())
    return path


def test_a_destination_ending_in_a_separator_is_a_folder_made_if_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _database(tmp_path / "domino.db")
    folder = tmp_path / "copies" / "today"
    assert main(["backup", f"{folder}{os.sep}", "--db", str(db)]) == 0
    assert folder.is_dir()  # never a file named "today"
    with sqlite3.connect(folder / "domino.db") as copy:
        (count,) = copy.execute("SELECT COUNT(*) FROM players").fetchone()
    assert count == 1
    out = capsys.readouterr().out
    assert out.startswith(f"backed up {db} to {folder / 'domino.db'} (")
    assert out.endswith(" bytes, check ok)\n")


def test_a_folder_destination_where_a_file_stands_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _database(tmp_path / "domino.db")
    (tmp_path / "notes").write_text("mine")
    assert main(["backup", f"{tmp_path / 'notes'}{os.sep}", "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"backup failed: {tmp_path / 'notes'} is a file, not a folder: choose another name\n"
    )
    assert (tmp_path / "notes").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["domino.db", "notes"]
