"""``domino play`` from the command line (bot/commands/play.py)."""

from __future__ import annotations

import os
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
    # q leaves the started second match (leaving never cancels it): the only human
    # leaving ends it, lost; it started from the first run's balance and costs one stake
    assert "We won the match" not in again.stdout
    assert again.stdout.rstrip().endswith(f"Your balance: ${first_balance - 10}.")


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
    # the refusal names every preset domino play takes, the format presets among them
    assert "uno-contra-uno, individual, cubano" in result.stderr


def test_a_format_preset_is_played_in_the_terminal(tmp_path: Path):
    result = subprocess.run(
        [
            *(sys.executable, "-m", "bot.cli", "play", "--preset", "uno-contra-uno"),
            *("--seed", "3", "--level", "aprendiz", "--db", str(tmp_path / "x.db")),
        ],
        input="1\n" * 600,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Mesa 1: tú contra un robot, uno contra uno.\n")
    assert "\n  Robas [" in result.stdout
    assert result.stdout.rstrip().endswith(("Tu saldo: $1010.", "Tu saldo: $990."))


def test_a_database_path_that_is_a_folder_is_one_clear_line(tmp_path: Path):
    (tmp_path / "dd").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(tmp_path / "dd")],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == (
        f"domino play: cannot open {tmp_path / 'dd'}: unable to open database file\n"
    )
    assert result.stdout == ""
    assert list((tmp_path / "dd").iterdir()) == []


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

    from bot.core.ownership import OwnerId, process_space

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    db = tmp_path / "crashed.db"
    gone = OwnerId(socket.gethostname(), int(dead.stdout), "old", process_space())
    _claim_terminal(db, str(gone), time.time())
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(db), "--lang", "en"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Your balance: $" in result.stdout


def test_domino_play_wraps_its_lines_at_the_width_of_the_terminal_it_runs_in(tmp_path: Path):
    import signal

    from tests.terminal_pty import TerminalProcess

    command = [sys.executable, "-m", "bot.cli", "play", "--seed", "11"]
    terminal = TerminalProcess([*command, "--db", str(tmp_path / "d.db")], columns=60)
    try:
        shown = terminal.read_until("Te toca (45 s): 1) 6-6\n")
        terminal.process.send_signal(signal.SIGINT)
        assert terminal.process.wait(timeout=30) == 130
    finally:
        terminal.close()
    assert [line for line in shown.split("\n") if len(line) > 60] == []
    assert shown.startswith(
        "Mesa 1: tú y un robot de compañero contra dos robots.\n"
        "Nivel de los robots: Experto.\n"
        "Escribe el número de una jugada, o la jugada (6-4, 6-4 izq.,\n"
        "  paso); e NOMBRE para una frase (buena, gracias, rapido,\n"
        "  ups, jaja, pensando, capicua, hola); t para ver tus\n"
        "  fichas; a para ver qué debiste jugar en tu última mano; b\n"
        "  para recuperar tu asiento del robot que lo tomó por turnos\n"
        "  perdidos (antes de 5 min); q para levantarte de la partida\n"
        "  del todo (si ya empezó, pierdes tu apuesta).\n"
    )
    assert (
        "\nFichas que quedan: Rival derecho: 7, Compañero: 7,\n"
        "                   Rival izquierdo: 7\n" in shown
    )


def test_a_match_whose_domino_play_was_killed_goes_on_at_the_next_start_and_costs_one_stake(
    tmp_path: Path,
):
    import signal

    from tests.terminal_pty import TerminalProcess

    db = tmp_path / "killed.db"
    command = [sys.executable, "-m", "bot.cli", "play", "--seed", "5", "--db", str(db)]
    terminal = TerminalProcess(command, columns=80)
    try:
        terminal.read_until("Te toca (45 s): ")
        terminal.read_until("\n")
        terminal.type("1")
        terminal.read_until("Te toca (45 s): ")
        terminal.process.send_signal(signal.SIGKILL)  # a crash, or the window closed hard
        terminal.process.wait(timeout=30)
    finally:
        terminal.close()
    again = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(db)],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    assert again.stderr == ""
    assert again.stdout.startswith("Mesa 1: sigue tu partida a medias.\n")
    assert "tú y un robot de compañero contra dos robots" not in again.stdout  # no new table
    assert "Fichas que quedan: Rival derecho: " in again.stdout  # the seats have their names
    assert " (derecha)" not in again.stdout
    # the killed match was played on (then left with q, which ends it): one stake
    assert again.stdout.rstrip().endswith(
        "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y, sin nadie más en la\n"
        "  mesa, la partida termina.\nTu saldo: $990."
    )


def test_leaving_a_match_with_q_counts_it_as_a_lost_match_in_domino_profile(tmp_path: Path):
    """Issue 27 follow-up: the only human leaving a started match with ``q`` ends it; it
    is recorded as lost (leaving never protects a rating), so ``domino profile`` on the
    same database shows one match played and none won."""
    from tests.terminal_pty import TerminalProcess

    db = tmp_path / "left.db"
    command = [sys.executable, "-m", "bot.cli", "play", "--seed", "5", "--db", str(db)]
    terminal = TerminalProcess(command, columns=80)
    try:
        terminal.read_until("Te toca (45 s): ")
        terminal.read_until("\n")
        terminal.type("1")
        terminal.read_until("Te toca (45 s): ")
        terminal.type("q")
        terminal.read_until("Tu saldo: $990.")
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()
    profile = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "profile",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "perfil.png"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert profile.returncode == 0, profile.stderr
    lines = profile.stdout.splitlines()
    assert lines[0].startswith("Tú — ") and lines[0].endswith(" (provisional)")
    assert int(lines[0].removeprefix("Tú — ").split()[0]) < 1000  # a new player shows 1,000
    assert lines[1].startswith("Partidas: 1 · Ganadas: 0 (0\u00a0%) · ")
    assert " · Racha: 1 perdida · Saldo: $990" in lines[1]


def test_web_with_a_format_serves_its_page_beside_the_terminal(tmp_path: Path):
    """Every format draws on the page (a double-nine partnership here); the link is
    printed where no browser can open, and the match starts in the terminal."""
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--web", "--preset", "cubano",
         "--db", str(tmp_path / "play.db")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "Doble nueve: 10 fichas cada uno."
    link = lines[lines.index("La mesa en tu navegador:") + 1]
    assert link.startswith("  http://127.0.0.1:") and "/?s=" in link
    assert "Te levantaste de la mesa 1: pierdes tu apuesta ($10)" in result.stdout
