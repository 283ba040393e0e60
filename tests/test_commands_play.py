"""``domino play`` from the command line (bot/commands/play.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_domino_play_runs_from_the_command_line_with_a_database(tmp_path: Path):
    db = tmp_path / "play.db"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--seed",
            "3",
            "--level",
            "aprendiz",
            "--db",
            str(db),
        ],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Tu saldo: $" in result.stdout
    assert "partida" in result.stdout
    # the wallet persists in the database: a second run starts from the new balance
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--level",
            "aprendiz",
            "--db",
            str(db),
            "--lang",
            "en",
        ],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    first_balance = int(result.stdout.rstrip().rsplit("$", 1)[1].rstrip("."))
    # q hands the seat to a robot that plays the second match out (leaving never cancels
    # a started match): it starts from the first run's balance and moves one stake
    change = 10 if "We won the match" in again.stdout else -10
    assert again.stdout.rstrip().endswith(f"Your balance: ${first_balance + change}.")


def test_an_unknown_preset_is_a_clear_error(tmp_path: Path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--preset",
            "nope",
            "--db",
            str(tmp_path / "x.db"),
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "unknown preset 'nope'" in result.stderr


def _claim_terminal(db: Path, owner: str, heartbeat_at: float) -> None:
    import asyncio

    from storage.sqlite import SqliteStorage

    async def claim() -> None:
        storage = await SqliteStorage.open(db)
        assert await storage.claim_tables("terminal", owner, now=heartbeat_at, replacing=None)
        await storage.close()

    asyncio.run(claim())


def test_a_second_domino_play_on_one_database_is_refused_and_touches_nothing(tmp_path: Path):
    import time

    db = tmp_path / "busy.db"
    _claim_terminal(db, "another-host:4242:abc", time.time())
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(db)],
        input="1\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"Otra partida de domino play está usando esta base de datos ({db}). "
        "Ciérrala primero o usa otra con --db."
    )


def test_domino_play_takes_over_the_claim_of_a_process_that_is_gone(tmp_path: Path):
    import socket
    import time

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    db = tmp_path / "crashed.db"
    _claim_terminal(db, f"{socket.gethostname()}:{int(dead.stdout)}:old", time.time())
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(db), "--lang", "en"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Your balance: $" in result.stdout
