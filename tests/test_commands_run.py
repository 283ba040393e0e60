"""``domino run`` from the command line (bot/commands/run.py, bot/app.py ``main_run``):
no token, bad settings, the settings file. Hosting both platforms end to end is in
tests/test_app.py."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import NO_TOKEN_MESSAGE, serve
from bot.commands import run as run_command
from bot.config import load_settings
from bot.logs import QUIET_LIBRARIES
from tests.test_config import NAMES


def domino_run(tmp_path: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot.cli run ARGS`` in ``tmp_path`` with only ``settings`` set."""
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    env.update(settings)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "run", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_any_token_it_explains_in_one_paragraph_and_exits_2(tmp_path: Path) -> None:
    done = domino_run(tmp_path, DOMINO_DB=str(tmp_path / "domino.db"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == NO_TOKEN_MESSAGE.strip()
    for words in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", ".env", "domino doctor", "domino play"):
        assert words in done.stderr
    assert "\n\n" not in done.stderr.strip()  # one paragraph
    assert not (tmp_path / "domino.db").exists()  # nothing was created


def test_empty_tokens_count_as_no_token(tmp_path: Path) -> None:
    done = domino_run(tmp_path, TELEGRAM_TOKEN="", DISCORD_TOKEN=" ")
    assert done.returncode == 2
    assert "no platform to host" in done.stderr


def test_bad_settings_are_each_named_and_nothing_starts(tmp_path: Path) -> None:
    done = domino_run(
        tmp_path, TELEGRAM_TOKEN="1:x", DOMINO_ROBOT_DELAY="99", DOMINO_LOG_LEVEL="chatty"
    )
    assert done.returncode == 2
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 2
    assert any(e.startswith("domino run: setting DOMINO_ROBOT_DELAY: ") for e in errors)
    assert any(e.startswith("domino run: setting DOMINO_LOG_LEVEL: ") for e in errors)
    assert "Traceback" not in done.stderr


def test_settings_are_read_from_dotenv_in_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DOMINO_ROBOT_LEVEL=genio\n", encoding="utf-8")
    done = domino_run(tmp_path)
    assert done.returncode == 2
    assert "domino run: setting DOMINO_ROBOT_LEVEL: " in done.stderr


def test_another_settings_file_can_be_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DOMINO_ROBOT_LEVEL=genio\n", encoding="utf-8")
    (tmp_path / "prod.env").write_text("DOMINO_DEFAULT_PRESET=chino\n", encoding="utf-8")
    done = domino_run(tmp_path, "--env-file", "prod.env")
    assert done.returncode == 2
    assert "DOMINO_DEFAULT_PRESET" in done.stderr
    assert "DOMINO_ROBOT_LEVEL" not in done.stderr  # .env was not read


def test_the_run_command_returns_2_in_process_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser()
    run_command.add_arguments(parser)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    libraries = {n: logging.getLogger(n).level for n in ("httpx", *QUIET_LIBRARIES)}
    try:
        assert run_command.run(parser.parse_args([])) == 2
    finally:  # main_run set up logging for the process: put it back
        for handler in set(root.handlers) - set(handlers):
            root.removeHandler(handler)
        root.setLevel(level)
        for name, value in libraries.items():
            logging.getLogger(name).setLevel(value)
    assert "no platform to host" in capsys.readouterr().err


async def test_serve_without_a_token_returns_2_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "domino.db"))
    stop = asyncio.Event()
    stop.set()
    assert await serve(load_settings(None), stop=stop) == 2
