from __future__ import annotations

import asyncio
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
