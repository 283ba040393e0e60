"""The terminal table: a scripted match from piped input, to the end."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.terminal import play, tile_text
from engine.tiles import Tile
from storage.memory import MemoryStorage


async def run_script(script: str, **options) -> tuple[int, str, MemoryStorage]:
    storage = MemoryStorage()
    out = io.StringIO()
    code = await play(
        storage, stdin=io.StringIO(script), stdout=out, seed=7, level="aprendiz", **options
    )
    return code, out.getvalue(), storage


async def test_a_scripted_match_from_piped_input_plays_to_the_end():
    code, text, storage = await run_script("1\n" * 400)
    assert code == 0
    assert "Mesa 1: tú y un robot de compañero contra dos robots." in text
    assert "Empieza la partida" in text and "Apuesta: $10." in text
    assert "— Mano 1 —" in text
    assert "Te toca (45 s): 1) " in text  # the playable tiles, numbered, and the timer
    assert "Tus fichas: [" in text
    assert "Tanteo (nosotros – ellos):" in text
    won = "¡Ganamos la partida" in text
    assert won or "Ellos ganaron la partida" in text
    assert text.rstrip().endswith(f"Tu saldo: ${1010 if won else 990}.")
    assert await storage.load_tables() == []
    assert len(await storage.match_records()) == 1
    # every line was read at the player's turn: no press was ever out of date
    assert "ya no vale" not in text and "No es tu turno" not in text


async def test_the_same_seed_gives_the_same_match():
    first = await run_script("1\n" * 400)
    second = await run_script("1\n" * 400)
    assert first[1] == second[1]
    out = io.StringIO()
    await play(
        MemoryStorage(), stdin=io.StringIO("1\n" * 400), stdout=out, seed=8, level="aprendiz"
    )
    assert out.getvalue() != first[1]  # another seed, other deals


async def test_emotes_help_and_bad_numbers_are_answered_without_moving():
    code, text, _ = await run_script("e hola\ne hola\ne bravo\n99\n?\nt\n1\nq\n", language="en")
    assert code == 0
    assert "  You: “Hello, table”" in text  # English quotes in English
    assert "Wait 5 s before the next emote." in text
    assert "Unknown emote." in text
    assert "Choose a number from 1 to" in text
    assert "Type the number of a move" in text
    assert text.count("Your tiles: [") >= 2
    assert "You play [" in text
    assert "The table closed; stakes were refunded." in text
    assert text.rstrip().endswith("Your balance: $1000.")


async def test_the_players_own_seat_is_spoken_to_in_the_second_person():
    _, spanish, _ = await run_script("1\n" * 400)
    assert "— Mano 2 — sales tú." in spanish and "sale Tú" not in spanish
    assert "Mano 1: Dominaste; ganamos 10 tantos." in spanish and "Tú dominó" not in spanish
    assert "— Mano 1 — sale Rival izq." in spanish  # others: the third person
    _, english, _ = await run_script("1\n" * 400, language="en")
    assert "— Hand 2 — you open." in english and "You opens" not in english
    assert "Hand 1: You domino; we win 10 points." in english and "You dominoes" not in english
    assert "Hand 7: Right rival dominoes; they win 12 points." in english


async def test_emote_names_are_listed_in_the_players_language_and_both_are_understood():
    _, english, _ = await run_script("e hello\nq\n", language="en")
    assert "(nice, thanks, hurry, oops, haha, thinking, capicua, hello)" in english
    assert "  You: “Hello, table”" in english
    _, spanish, _ = await run_script("e Rápido\nq\n")
    assert "(buena, gracias, rapido, ups, jaja, pensando, capicua, hola)" in spanish
    assert "  Tú: «Rápido»" in spanish


async def test_the_end_of_the_input_leaves_the_table_cleanly_and_refunds():
    code, text, storage = await run_script("1\n1\n")
    assert code == 0
    assert "Fin de la entrada: dejas la mesa." in text
    assert text.rstrip().endswith("Tu saldo: $1000.")
    assert await storage.load_tables() == []


async def test_the_board_picture_is_kept_on_disk(tmp_path: Path):
    board = tmp_path / "board.png"
    code, _text, _ = await run_script("1\n1\n1\nq\n", board_png=board)
    assert code == 0
    data = board.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")


async def test_the_board_picture_on_disk_shows_the_last_tile_of_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import render

    drawn = []
    real = render.board_png

    def recording(view, facts):  # type: ignore[no-untyped-def]
        drawn.append((view, facts))
        return real(view, facts)

    monkeypatch.setattr(render, "board_png", recording)
    code, _text, _ = await run_script("1\n" * 400, board_png=tmp_path / "board.png")
    assert code == 0
    last_view, last_facts = drawn[-1]
    assert last_view.outcome is not None  # the hand's final line, not the move before
    assert last_facts.seconds_left is None


def test_tiles_are_drawn_as_text():
    assert tile_text(Tile(4, 6)) == "[6|4]"


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
    first_balance = result.stdout.rstrip().rsplit("$", 1)[1]
    assert again.stdout.rstrip().endswith(f"Your balance: ${first_balance}")


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


async def test_when_a_robot_takes_the_seat_the_terminal_keeps_reading_so_b_can_bring_you_back():
    from bot.core import ChatRef, PlayerRef, SeatGivenBack, SeatTakenByRobot
    from bot.terminal import TerminalPort

    me = PlayerRef("terminal", "local", "Ana")
    out = io.StringIO()
    port = TerminalPort(me, out)
    chat = ChatRef("terminal", "local")
    await port.deliver(
        SeatTakenByRobot(
            table_id="t", chat=chat, seat=0, player=me, reason="missed_turns", back_by=300.0
        )
    )
    assert port.away and port.my_turn.is_set()
    assert "Ahora juega un robot por ti. Escribe b para volver a tu asiento." in out.getvalue()
    await port.deliver(SeatGivenBack(table_id="t", chat=chat, seat=0, player=me))
    assert not port.away and not port.my_turn.is_set()
    assert "Vuelves a tu asiento." in out.getvalue()


def _play_process(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "--seed",
            "1",
            "--db",
            str(tmp_path / "d.db"),
            *args,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _balance(tmp_path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--seed", "1", "--db", str(tmp_path / "d.db")],
        input=b"q\n",
        capture_output=True,
        timeout=60,
    )
    return done.stdout.decode().strip().splitlines()[-1]


def test_ctrl_c_leaves_the_table_at_once_with_the_goodbye_and_no_traceback(tmp_path: Path):
    import signal
    import time

    process = _play_process(tmp_path)
    assert process.stdout is not None
    first = process.stdout.readline()  # the table is open and waits for our move
    assert first.startswith(b"Mesa ")
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)  # stdin stays open: nobody presses Enter
    process.wait(timeout=15)  # communicate() would close stdin: it must stay open
    out, err = process.stdout.read(), process.stderr.read() if process.stderr else b""
    if process.stdin is not None:
        process.stdin.close()
    assert process.returncode == 130
    assert b"Traceback" not in err and b"Error" not in err, err
    assert "Interrumpido: dejas la mesa." in out.decode()
    assert "Tu saldo: $1000." in out.decode()  # the stake came back
    assert _balance(tmp_path) == "Tu saldo: $1000."


def test_a_closed_stdout_leaves_the_table_quietly_and_moves_no_money(tmp_path: Path):
    process = _play_process(tmp_path)
    assert process.stdout is not None and process.stdin is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    process.stdin.write(b"q\n")
    process.stdin.close()
    err = process.stderr.read() if process.stderr is not None else b""
    process.wait(timeout=15)
    assert process.returncode in (141, 0), err
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err
    assert _balance(tmp_path) == "Tu saldo: $1000."


async def test_the_player_is_called_tu_unless_named_and_the_robots_level_is_said():
    _code, text, storage = await run_script("q\n")
    player = await storage.find_player("terminal", "local")
    assert player is not None and player.display_name == "Tú"
    assert "Nivel de los robots: Aprendiz." in text
    _, english, storage = await run_script("q\n", language="en")
    player = await storage.find_player("terminal", "local")
    assert player is not None and player.display_name == "You"
    assert "Robots' level: Apprentice." in english
    _, _, storage = await run_script("q\n", name="Ana")
    player = await storage.find_player("terminal", "local")
    assert player is not None and player.display_name == "Ana"


async def test_the_board_picture_names_the_robots_as_the_text_does():
    from bot.core import ChatRef, OpenTable, PlayerRef, RobotSeat, TableManager
    from bot.terminal import TerminalPort

    me = PlayerRef("terminal", "local", "Tú", "es")
    chat = ChatRef("terminal", "local", language="es")
    manager = TableManager(MemoryStorage(), seed=1, robot_delay=0.0, countdown_seconds=0.0)
    port = TerminalPort(me, io.StringIO())
    manager.register("terminal", port)
    await manager.start()
    robot = RobotSeat("experto")
    reply = await manager.handle(OpenTable(me, chat, right=robot, across=robot, left=robot))
    state = manager.table_state(reply.table_id or "")
    assert state is not None
    await port.deliver(state)
    names = [seat.name for seat in port.board_facts(state).seats]
    assert names == ["Tú", "Rival der.", "Compañero", "Rival izq."]
    assert names[1:] == [port.who(seat) for seat in (1, 2, 3)]  # the text's names
    await manager.stop()
