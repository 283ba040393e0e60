"""The storage package entry points (storage/__init__.py): the database path and opening."""

from __future__ import annotations

from pathlib import Path

import pytest

import storage
from storage.sqlite import SqliteStorage


def test_the_database_path_comes_from_domino_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_DB", "/var/lib/domino/bot.db")
    assert storage.default_db_path() == Path("/var/lib/domino/bot.db")


def test_the_database_defaults_to_domino_db_in_the_working_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DOMINO_DB", raising=False)
    assert storage.default_db_path() == Path("domino.db")
    monkeypatch.setenv("DOMINO_DB", "")
    assert storage.default_db_path() == Path("domino.db")


async def test_open_storage_without_a_path_opens_domino_db(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "from-env.db"))
    opened = await storage.open_storage()
    assert isinstance(opened, SqliteStorage)
    assert opened.path == str(tmp_path / "from-env.db")
    await opened.close()
    assert (tmp_path / "from-env.db").exists()
