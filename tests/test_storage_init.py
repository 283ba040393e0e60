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


def test_the_database_a_command_means_is_its_own_then_domino_db_then_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "postgresql://bot:secret@db:5432/domino"
    monkeypatch.setenv("DOMINO_DB", url)
    assert storage.db_target() == url  # a URL stays whole (a Path would fold its //)
    assert storage.db_target(Path("/data/x.db")) == "/data/x.db"
    assert storage.db_target("") == url
    monkeypatch.delenv("DOMINO_DB")
    assert storage.db_target() == "domino.db"


async def test_open_storage_without_a_path_opens_domino_db(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "from-env.db"))
    opened = await storage.open_storage()
    assert isinstance(opened, SqliteStorage)
    assert opened.path == str(tmp_path / "from-env.db")
    await opened.close()
    assert (tmp_path / "from-env.db").exists()
