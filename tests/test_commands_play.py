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
