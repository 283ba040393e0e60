from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import SUBCOMMANDS, main

RECORD = Path(__file__).parent / "records" / "records_md_example.json"


def test_domino_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert name in out


def test_domino_without_a_command_prints_help_and_fails_as_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "replay" in captured.err


def test_an_unknown_command_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["fly"])
    assert info.value.code == 2


def test_every_subcommand_reads_the_env_file_so_backup_copies_the_bots_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DOMINO_DB", raising=False)
    (tmp_path / "data").mkdir()
    (tmp_path / ".env").write_text("DOMINO_DB=data/bot.db\n", encoding="utf-8")
    asyncio.run(_create_database(tmp_path / "data" / "bot.db"))  # as `domino run` does
    assert main(["doctor"]) == 0
    assert "data/bot.db opened and migrated" in capsys.readouterr().out
    assert main(["backup", "copy.db"]) == 0
    assert "data/bot.db" in capsys.readouterr().out
    assert not (tmp_path / "domino.db").exists()


async def _create_database(path: Path) -> None:
    from storage import open_storage

    await (await open_storage(path)).close()


def test_a_closed_output_pipe_ends_a_command_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "replay", str(RECORD)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the command writes
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_a_path_that_cannot_be_used_gets_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "afile"
    taken.write_text("mine\n")
    assert main(["render-demo", "--out", str(taken)]) == 1
    assert capsys.readouterr().err == f"domino render-demo: [Errno 17] File exists: '{taken}'\n"
    assert taken.read_text() == "mine\n"
