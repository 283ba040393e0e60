"""The terminal's input loop (bot/terminal/loop.py): a scripted match from piped input, to
the end; typed commands; the end of the input, Ctrl-C and a closed stdout."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.present.i18n import translator
from bot.terminal import play
from bot.terminal.text import help_text
from storage import open_storage
from storage.base import Storage
from tests.terminal_pty import TerminalProcess, worker


async def run_script(
    script: str, seed: int = 7, *, storage: Storage | None = None, **options
) -> tuple[int, str]:
    """``domino play`` fed ``script``: (exit code, everything printed), on ``storage``
    (default: a new SQLite ``:memory:`` database, closed at the end)."""
    own = storage is None
    if storage is None:
        storage = await open_storage(":memory:")
    out = io.StringIO()
    try:
        code = await play(
            storage, stdin=io.StringIO(script), stdout=out, seed=seed, level="aprendiz", **options
        )
    finally:
        if own:
            await storage.close()
    return code, out.getvalue()


def answers_from(text: str, prompt: str) -> list[list[str]]:
    """Each line typed from ``prompt`` on, with the lines printed after it (a script's
    lines are echoed as "> 1")."""
    return [answer.split("\n") for answer in text[text.index(prompt) :].split("\n> ")[1:]]


async def test_a_scripted_match_from_piped_input_plays_to_the_end(memory_storage):
    storage = memory_storage
    code, text = await run_script("1\n" * 400, storage=storage)
    assert code == 0
    assert "Mesa 1: tú y un robot de compañero contra dos robots." in text
    assert "Empieza la partida" in text and "Apuesta: $10." in text
    assert "— Mano 1 —" in text
    assert "Te toca (45 s): 1) " in text  # the playable tiles, numbered, and the timer
    assert "Tus fichas: [" in text
    assert "Marcador (nosotros – ellos):" in text
    won = "¡Ganamos la partida" in text
    assert won or "Ellos ganaron la partida" in text
    assert text.rstrip().endswith(f"Tu saldo: ${1010 if won else 990}.")
    # the money as the results picture says it, net of the stake (issue 27, item 10)
    assert f"\nResultado neto (apuesta $10): Tú {'+$10' if won else '−$10'}\n" in text
    assert await storage.load_tables() == []
    assert len(await storage.match_records()) == 1
    # every line was read at the player's turn: no press was ever out of date
    assert "ya no vale" not in text and "No es tu turno" not in text


async def test_the_same_seed_gives_the_same_match():
    first = await run_script("1\n" * 400)
    second = await run_script("1\n" * 400)
    assert first[1] == second[1]
    _, other = await run_script("1\n" * 400, seed=8)
    assert other != first[1]  # another seed, other deals


async def test_emotes_help_and_bad_numbers_are_answered_without_moving():
    code, text = await run_script("e hola\ne hola\ne bravo\n99\n?\nt\n1\nq\n", language="en")
    assert code == 0
    assert "  You: “Hello, table”" in text  # English quotes in English
    assert "Wait 5 s before the next phrase." in text
    assert "Unknown phrase." in text
    assert "Choose a number from 1 to" in text
    assert "Type the number of a move" in text
    assert text.count("Your tiles: [") >= 2
    assert "You play [" in text
    # q leaves the started match: the stake is forfeited and said (issue 27, items 2, 10)
    assert text.rstrip().endswith(
        "You left table 1: your stake ($10) is forfeited, and with no player left the match "
        "ends.\nYour balance: $990."
    )


async def test_a_move_typed_as_on_telegram_is_played_and_a_line_with_more_changes_nothing():
    # seed 7: the first turn offers 1) 6-2 and 2) 6-5; the player holds no 4-4
    script = "²\n1 more\nq now\n4-4\n9-9\n5 6\n"
    code, text = await run_script(script, language="en")
    assert code == 0
    first_turn = text[text.index("Your turn (45 s): 1) 6-2  2) 6-5") :]
    answers = first_turn.split("\n> ")[1:]
    help_line = help_text(translator("en"), "en", 300.0)
    assert [a.split("\n")[1] for a in answers[:5]] == [
        help_line,  # "²" is no number
        help_line,  # a number with more after it
        help_line,  # q with more after it does not leave
        "  ! That move is not allowed now.",  # a tile not held
        help_line,  # no tile has a 9
    ]
    assert "A robot plays for you now." not in text
    assert answers[5].startswith("5 6\n  You play [6|5] on the right.")  # in either order


async def test_a_number_past_the_moves_is_read_as_the_tile_it_names_as_on_telegram():
    # seed 11: you open hand 1 with the 6-6, your only move
    _code, text = await run_script("66\n", seed=11)
    answers = answers_from(text, "Te toca (45 s): 1) 6-6\n")
    assert answers[0][:2] == ["66", "  Juegas [6|6]."]
    # seed 7: the first turn offers 1) 6-2 and 2) 6-5; the player holds no 2-1
    _code, text = await run_script("21\n65\n", language="en")
    answers = answers_from(text, "Your turn (45 s): 1) 6-2  2) 6-5\n")
    assert answers[0][:2] == ["21", "  ! That move is not allowed now."]
    assert answers[1][:2] == ["65", "  You play [6|5] on the right."]


async def test_a_line_of_thousands_of_digits_gets_the_help_and_changes_nothing():
    # seed 7: the first turn offers 1) 6-2 and 2) 6-5
    code, text = await run_script("1" * 5000 + "\n2\n", language="en")
    assert code == 0
    answers = answers_from(text, "Your turn (45 s): 1) 6-2  2) 6-5\n")
    assert answers[0][1] == help_text(translator("en"), "en", 300.0)
    assert answers[1][:2] == ["2", "  You play [6|5] on the right."]


async def test_a_number_within_the_moves_is_the_moves_number_though_it_names_a_tile_too():
    from types import SimpleNamespace

    from bot.core import ChatRef, PlayerRef, PressButton, Reply
    from bot.terminal.loop import _command
    from bot.terminal.port import TerminalPort

    pressed: list[PressButton] = []

    class Manager:
        async def handle(self, command: PressButton) -> Reply:
            pressed.append(command)
            return Reply()

        async def idle(self) -> None:
            return None

    me = PlayerRef("terminal", "local", "You", "en")
    port = TerminalPort(me, io.StringIO())
    # twelve moves on screen: 12 is the twelfth, not the 2-1
    port.prompt = SimpleNamespace(  # type: ignore[assignment]
        moves=tuple(SimpleNamespace(payload=f"move {n}") for n in range(1, 13))
    )
    chat = ChatRef("terminal", "local", language="en")
    await _command(Manager(), port, chat, "t1", "12", translator("en"))  # type: ignore[arg-type]
    assert [command.payload for command in pressed] == ["move 12"]


async def test_a_number_past_the_only_move_is_told_to_type_1():
    # seed 11: you open hand 1 with the 6-6, your only move
    _code, spanish = await run_script("7\n", seed=11)
    assert answers_from(spanish, "Te toca (45 s): 1) 6-6\n")[0][:2] == ["7", "  ! Escribe 1."]
    _code, english = await run_script("7\n", seed=11, language="en")
    assert answers_from(english, "Your turn (45 s): 1) 6-6\n")[0][:2] == ["7", "  ! Type 1."]
    # seed 7: the first turn offers two moves
    _code, text = await run_script("9\n", language="en")
    answers = answers_from(text, "Your turn (45 s): 1) 6-2  2) 6-5\n")
    assert answers[0][:2] == ["9", "  ! Choose a number from 1 to 2."]


async def test_emote_names_are_listed_in_the_players_language_and_both_are_understood():
    _, english = await run_script("e hello\nq\n", language="en")
    assert "(nice, thanks, hurry, oops, haha, thinking, capicua, hello)" in english
    assert "  You: “Hello, table”" in english
    _, spanish = await run_script("e Rápido\nq\n")
    assert "(buena, gracias, rapido, ups, jaja, pensando, capicua, hola)" in spanish
    assert "  Tú: «Rápido»" in spanish


async def test_the_end_of_the_input_leaves_the_table_cleanly_and_forfeits_the_stake(
    memory_storage,
):
    storage = memory_storage
    code, text = await run_script("1\n1\n", storage=storage)
    assert code == 0
    assert "Fin de la entrada: dejas la mesa." in text
    assert text.rstrip().endswith("Tu saldo: $990.")
    assert await storage.load_tables() == []


async def played_as(script: str, **options) -> tuple[str, str]:
    """(the terminal player's name as stored, the text) after ``script`` on a new database."""
    storage = await open_storage(":memory:")
    try:
        _code, text = await run_script(script, storage=storage, **options)
        player = await storage.find_player("terminal", "local")
    finally:
        await storage.close()
    assert player is not None
    return player.display_name, text


async def test_the_player_is_called_tu_unless_named_and_the_robots_level_is_said():
    name, text = await played_as("q\n")
    assert name == "Tú"
    assert "Nivel de los robots: Aprendiz." in text
    name, english = await played_as("q\n", language="en")
    assert name == "You"
    assert "Robots' level: Apprentice." in english
    name, _ = await played_as("q\n", name="Ana")
    assert name == "Ana"


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


def _read_until_the_match_starts(process: subprocess.Popen[bytes]) -> None:
    """Read the output up to the match's start (the stakes are taken then)."""
    assert process.stdout is not None
    for _ in range(20):
        if process.stdout.readline().startswith(b"Empieza la partida"):
            return
    raise AssertionError("the match never started")


def _balance(tmp_path: Path) -> str:
    """The terminal player's balance as `domino play` says it, read from the database
    (playing again to see it would leave another started match)."""
    import asyncio

    from storage import open_storage

    async def read() -> int:
        storage = await open_storage(tmp_path / "d.db")
        try:
            player = await storage.find_player("terminal", "local")
            assert player is not None
            return await storage.balance(player.id)
        finally:
            await storage.close()

    return f"Tu saldo: ${asyncio.run(read())}."


def test_ctrl_c_leaves_the_table_at_once_with_the_goodbye_and_no_traceback(tmp_path: Path):
    import signal
    import time

    process = _play_process(tmp_path)
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith(b"Mesa ")
    _read_until_the_match_starts(process)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)  # stdin stays open: nobody presses Enter
    process.wait(timeout=15)  # communicate() would close stdin: it must stay open
    out, err = process.stdout.read(), process.stderr.read() if process.stderr else b""
    if process.stdin is not None:
        process.stdin.close()
    assert process.returncode == 130
    assert b"Traceback" not in err and b"Error" not in err, err
    assert "Interrumpido: dejas la mesa." in out.decode()
    assert "Tu saldo: $990." in out.decode()  # leaving a started match forfeits the stake
    assert _balance(tmp_path) == "Tu saldo: $990."


def test_a_closed_stdout_leaves_the_table_quietly_and_forfeits_like_any_leaving(tmp_path: Path):
    process = _play_process(tmp_path)
    assert process.stdout is not None and process.stdin is not None
    _read_until_the_match_starts(process)
    process.stdout.close()  # like `| head`
    process.stdin.write(b"q\n")
    process.stdin.close()
    err = process.stderr.read() if process.stderr is not None else b""
    process.wait(timeout=15)
    assert process.returncode in (141, 0), err
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err
    assert _balance(tmp_path) == "Tu saldo: $990."


async def test_domino_play_never_touches_the_bots_live_tables_in_the_same_database(
    memory_storage,
):
    from bot.core import ChatRef, FillWithRobots, ManualClock, PlayerRef, PlayNow, TableManager

    storage = memory_storage
    clock = ManualClock(1_800_000_000.0)
    bot = TableManager(storage, clock=clock, seed=3, robot_delay=0.0)
    ana, group = PlayerRef("telegram", "5", "Ana"), ChatRef("telegram", "-100")
    table_id = (await bot.handle(PlayNow(ana, group))).table_id
    assert (await bot.handle(FillWithRobots(ana, group))).ok
    await clock.advance(bot.times.countdown_seconds)  # the match starts: $10 in escrow
    before = {t["table_id"]: t for t in await storage.load_tables()}
    ana_id = await bot.player_id(ana)
    balance = await storage.balance(ana_id)
    # the bot crashes; someone plays in the terminal on the same database
    code = await play(storage, stdin=io.StringIO("1\n" * 400), stdout=io.StringIO(), seed=7)
    assert code == 0
    after = {t["table_id"]: t for t in await storage.load_tables()}
    assert after[table_id] == before[table_id]  # untouched: still the bot's to resume
    assert await storage.balance(ana_id) == balance
    assert await storage.check_ledger() == []


# ---------------------------------------------------------------- a person at a terminal
# `domino play`'s loop on a pseudo-terminal, its clock moved by the test (tests/terminal_pty.py).
# Seed 11: you open hand 1 with the 6-6 (your only move); at your second turn you may play
# the 1-0 or the 4-1.


def _at_the_first_turn() -> TerminalProcess:
    terminal = TerminalProcess(worker(11), clock=True)
    terminal.advance(1)  # the countdown
    terminal.read_until("Te toca (45 s): 1) 6-6\n")
    return terminal


def test_after_a_turn_times_out_the_next_number_is_read_against_the_prompt_on_screen():
    terminal = _at_the_first_turn()
    try:
        terminal.advance(45)  # nobody types: a robot plays the 6-6
        timed_out = terminal.read_until("robot)\n")
        assert timed_out == "  Juegas [6|6]. (se acabó el tiempo: jugó un robot)\n"
        terminal.advance(3)  # the three robots
        terminal.read_until("Te toca (45 s): 1) 1-0  2) 4-1\n")
        terminal.type("2")
        assert terminal.read_until("derecha.\n") == "2\n  Juegas [4|1] a la derecha.\n"
    finally:
        terminal.close()
    assert terminal.error_text == ""


def test_a_line_typed_when_it_is_not_your_turn_is_answered_at_once_and_never_played_later():
    terminal = _at_the_first_turn()
    try:
        terminal.advance(45)
        terminal.read_until("robot)\n")
        terminal.type("1")  # while the robots think (their clock stands still)
        assert terminal.read_until("toca.\n") == "1\n  ! No te toca.\n"
        terminal.advance(3)
        terminal.read_until("Te toca (45 s): 1) 1-0  2) 4-1\n")
        terminal.type("t")  # answered next: the 1 above was not kept for this prompt
        tiles = terminal.read_until("[6|4]\n")
        assert tiles == "t\nTus fichas: [1|0] [2|0] [3|0] [4|1] [4|2] [6|4]\n"
        terminal.type("1")
        assert terminal.read_until("derecha.\n") == "1\n  Juegas [1|0] a la derecha.\n"
    finally:
        terminal.close()
    assert terminal.error_text == ""


async def test_a_asks_for_the_analysis_of_the_last_finished_hand():
    code, text = await run_script("a\n" + "1\n" * 10 + "a\n" + "1\n" * 400)
    assert code == 0
    # before any hand of yours has ended: the refusal alone, no "Analizando…" before it
    assert answers_from(text, "Te toca (45 s): ")[0] == [
        "a",
        "  ! Aún no ha terminado ninguna mano tuya: pídelo de nuevo al acabar esta.",
    ]
    assert "Escribe a para ver qué debiste jugar en esta mano." in text
    assert text.count("Analizando tu última mano…") == 1  # the second a, after hand 1
    found = [line for line in text.splitlines() if line.startswith("Mano 1: ")]
    assert len(found) >= 1
    assert "precisión" in found[-1] or "no tuviste ninguna elección" in found[-1]
    after = text.splitlines()[text.splitlines().index(found[-1]) + 1 :]
    costly = [line for line in after[:3] if line.startswith("Jugada ")]
    assert all(" costó ~" in line for line in costly)  # one move a line


# Seed 7: the left opponent opens hand 1 with the 6-6; you may play the 6-2 or the 6-5, on
# either end of the line (both show a 6).


def test_with_both_ends_on_one_number_a_tile_is_played_on_the_end_typed():
    for language, typed, played, line in (
        ("es", "6-5 izq.", "  Juegas [6|5] a la izquierda.\n", "[5|6][6|6]"),
        ("en", "6-2 right", "  You play [6|2] on the right.\n", "[6|6][6|2]"),
    ):
        terminal = TerminalProcess(worker(7, language=language), clock=True)
        try:
            terminal.advance(2)  # the countdown, and the opening 6-6
            terminal.read_until("1) 6-2  2) 6-5\n")
            terminal.type(typed)
            assert terminal.read_until(played) == f"{typed}\n{played}"
            terminal.advance(3)  # the three robots
            turn = terminal.read_until("): 1) ")
            assert line in turn  # the line grew on the end named
        finally:
            terminal.close()
        assert terminal.error_text == ""


def test_the_turns_moves_are_shown_again_after_the_help():
    terminal = TerminalProcess(worker(7), clock=True)
    help_line = help_text(translator("es"), "es", 300.0)
    try:
        terminal.advance(2)  # the countdown, and the opening 6-6
        terminal.read_until("Te toca (45 s): 1) 6-2  2) 6-5\n")
        for typed in ("h", "?", "hmm"):
            terminal.type(typed)
            answer = terminal.read_until("Te toca (45 s): 1) 6-2  2) 6-5\n")
            lines = answer.replace("\n  ", " ").split("\n")  # the help, unwrapped
            assert lines == [typed, help_line, "Te toca (45 s): 1) 6-2  2) 6-5", ""]
        terminal.type("1")
        assert terminal.read_until("derecha.\n") == "1\n  Juegas [6|2] a la derecha.\n"
    finally:
        terminal.close()
    assert terminal.error_text == ""


def test_the_turns_moves_are_shown_again_after_an_analysis():
    terminal = _at_the_first_turn()  # seed 11
    try:
        terminal.type("1")  # the 6-6; then always the first move, to hand 2
        while True:
            terminal.read_until("1\n  ")  # your move ("Juegas …", "Pasas.") is played
            terminal.read_until("\n")
            terminal.advance(10)  # the robots, the hand's end and the next's start
            shown = terminal.read_until("Te toca (")
            prompt = "Te toca (" + terminal.read_until("\n")
            if "— Mano 2 —" in shown:
                break
            terminal.type("1")
        assert prompt == "Te toca (45 s): 1) 4-0 izq.  2) 4-0 der.  3) 4-1  4) 5-4  5) 6-4\n"
        terminal.type("a")  # the last advance went on 4 s past this turn's start
        answer = terminal.read_until("Te toca (41 s): 1) 4-0 izq.  2) 4-0 der.  3) 4-1  ")
        lines = answer.split("\n")
        assert lines[:2] == ["a", "Analizando tu última mano…"]
        assert lines[2].startswith("Mano 1: precisión ")  # the analysis, then the turn
        assert lines[-1] == "Te toca (41 s): 1) 4-0 izq.  2) 4-0 der.  3) 4-1  "
        assert terminal.read_until("\n") == "4) 5-4  5) 6-4\n"
    finally:
        terminal.close()
    assert terminal.error_text == ""


def test_q_leaves_the_match_for_good_at_once_says_the_stake_is_lost_and_ends_the_program():
    terminal = _at_the_first_turn()  # seed 11
    try:
        terminal.type("q")
        said = terminal.read_until("$990.\n").replace("\n  ", " ")
        assert said == (
            "q\nTe levantaste de la mesa 1: pierdes tu apuesta ($10) y, sin nadie más en la "
            "mesa, la partida termina.\nTu saldo: $990.\n"
        )
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()
    assert terminal.error_text == ""
