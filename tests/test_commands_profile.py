"""``domino profile`` (bot/commands/profile.py): the terminal player's profile and the top
lists, as the caption text and a picture written to a file (issue 14)."""

from __future__ import annotations

import asyncio
import io
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.terminal import play
from storage import open_storage

PICTURES = Path("/tmp/dc-pics")
MATCHES = 3


async def record_matches(db: Path) -> None:
    """Three matches of ``domino play`` (you always press the first move) on ``db``."""
    for seed in range(1, MATCHES + 1):
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
