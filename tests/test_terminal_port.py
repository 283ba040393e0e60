"""The terminal's port (bot/terminal/port.py): events as lines of text, and the board picture."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from storage.base import Storage
from tests.terminal_pty import TerminalProcess, worker
from tests.test_terminal_loop import run_script


async def test_the_players_own_seat_is_spoken_to_in_the_second_person():
    _, spanish = await run_script("1\n" * 400)
    assert "— Mano 2 — sales tú." in spanish and "sale Tú" not in spanish
    assert "Mano 1: Dominaste; ganamos 10 puntos." in spanish and "Tú dominó" not in spanish
    assert "— Mano 1 — sale el rival izquierdo." in spanish  # others: the third person
    _, english = await run_script("1\n" * 400, language="en")
    assert "— Hand 2 — you open." in english and "You opens" not in english
    assert "Hand 1: You domino; we win 10 points." in english and "You dominoes" not in english
    assert "Hand 7: Right opponent dominoes; they win 12 points." in english


async def test_robots_are_named_with_their_article_in_spanish_sentences_and_alone_in_lists():
    _, spanish = await run_script("1\n" * 400)
    lines = spanish.split("\n")
    assert lines[5:7] == [
        "— Mano 1 — sale el rival izquierdo.",
        "  El rival izquierdo juega [6|6].",
    ]
    assert lines[14:18] == [
        "  Juegas [6|2] a la derecha.",
        "  El rival derecho juega [6|0] a la izquierda.",
        "  El compañero juega [5|0] a la izquierda.",
        "  El rival izquierdo juega [5|1] a la izquierda.",
    ]
    assert lines[21] == "Fichas que quedan: Rival derecho: 6, Compañero: 6, Rival izquierdo: 5"
    assert "\n— Mano 4 — sale el compañero.\n" in spanish
    assert "\nMano 7: El rival derecho dominó; ellos ganan 12 puntos.\n" in spanish
    assert "\nMano 8: El compañero dominó; ganamos 10 puntos.\n" in spanish
    assert "  El rival derecho pasa.\n" in spanish
    assert "Rival derecho juega" not in spanish and "sale Compañero" not in spanish
    _, english = await run_script("1\n" * 400, language="en")
    assert "\n— Hand 4 — Partner opens.\n" in english  # English: the seat's name as it is
    assert "\n  Right opponent passes.\n" in english


async def test_the_board_picture_is_kept_on_disk(tmp_path: Path):
    board = tmp_path / "board.png"
    code, _text = await run_script("1\n1\n1\nq\n", board_png=board)
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
    code, _text = await run_script("1\n" * 400, board_png=tmp_path / "board.png")
    assert code == 0
    last_view, last_facts = drawn[-1]
    assert last_view.outcome is not None  # the hand's final line, not the move before
    assert last_facts.seconds_left is None


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
    assert (
        "Ahora juega un robot por ti. Escribe b antes de 5 minutos para volver a tu"
        in out.getvalue()
    )
    await port.deliver(SeatGivenBack(table_id="t", chat=chat, seat=0, player=me))
    assert not port.away and not port.my_turn.is_set()
    assert "Vuelves a tu asiento." in out.getvalue()


async def test_the_board_picture_names_the_robots_as_the_text_does_shortened_to_fit(
    memory_storage: Storage,
):
    from bot.core import ChatRef, OpenTable, PlayerRef, RobotSeat, TableManager
    from bot.terminal import TerminalPort

    me = PlayerRef("terminal", "local", "Tú", "es")
    chat = ChatRef("terminal", "local", language="es")
    manager = TableManager(memory_storage, seed=1, robot_delay=0.0, countdown_seconds=0.0)
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
    assert [port.who(seat) for seat in (1, 2, 3)] == [
        "Rival derecho",
        "Compañero",
        "Rival izquierdo",
    ]  # the text's names, whole
    await manager.stop()


# ---------------------------------------------------------------- a person at a terminal
# Seed 11 on an 80-column pseudo-terminal (tests/terminal_pty.py), to the second hand's
# first turn: the first move typed, then three missed turns (a robot takes the seat, as
# for a lost connection) and b, then always the first choice.


def _answer(terminal: TerminalProcess, line: str) -> None:
    terminal.type(line)
    terminal.read_until(line + "\n")  # the terminal's echo
    terminal.read_until("\n")  # the answer (the clock stands still: nothing else comes)


@pytest.fixture(scope="module")
def second_hand() -> str:
    """Everything printed up to the second hand's first prompt."""
    terminal = TerminalProcess(worker(11), columns=80, clock=True)
    try:
        terminal.advance(1)  # the countdown
        terminal.read_until("Te toca (45 s): 1) 6-6\n")
        _answer(terminal, "1")
        terminal.advance(3)  # the three robots
        terminal.read_until("Te toca (45 s): 1) 1-0  2) 4-1\n")
        for prompt in ("1) 1-0  2) 2-0  3) 3-0 izq.  4) 3-0 der.", "1) 1-0  2) 2-0"):
            terminal.advance(45)  # a missed turn: a robot plays that one move
            terminal.read_until("(se acabó el tiempo: jugó un robot)\n")
            terminal.advance(3)
            terminal.read_until(f"Te toca (45 s): {prompt}\n")
        terminal.advance(45)  # the third missed turn in a row: a robot takes the seat
        terminal.read_until("(y pierdes tu apuesta).\n")
        terminal.read_until("(se acabó el tiempo: jugó un robot)\n")
        terminal.advance(4)  # three robots, then the robot playing for you
        terminal.read_until("(jugó un robot por ti)\n")
        _answer(terminal, "b")
        terminal.read_until("Te toca (45 s): 1) Paso\n")  # back, and your turn again
        _answer(terminal, "1")
        for prompt in ("1) 6-4", "1) 4-2 izq.  2) 4-2 der."):  # the rest of the hand
            terminal.advance(3)
            terminal.read_until(f"Te toca (45 s): {prompt}\n")
            _answer(terminal, "1")
        terminal.advance(5)  # the pause between hands, then three robots
        terminal.read_until("Te toca (45 s): ")
        terminal.read_until("\n")
    finally:
        terminal.close()
    assert terminal.error_text == ""
    return terminal.output


def test_a_move_a_robot_makes_for_you_while_you_are_away_says_the_robot_played(second_hand: str):
    assert (
        "\nTe toca (45 s): 1) 1-0  2) 2-0\n"
        "Ahora juega un robot por ti. Escribe b antes de 5 minutos para volver a tu\n"
        "  asiento; q te levanta de la partida del todo (y pierdes tu apuesta).\n"
        "  Juegas [2|0] a la izquierda. (se acabó el tiempo: jugó un robot)\n"
    ) in second_hand
    assert "\n  Juegas [1|0] a la derecha. (jugó un robot por ti)\n" in second_hand
    assert "\nb\n" in second_hand
    assert "\nVuelves a tu asiento.\n" in second_hand


def test_a_robot_opener_is_named_whole_so_no_line_ends_in_a_double_full_stop(second_hand: str):
    assert "\n— Mano 2 — sale el rival derecho.\n" in second_hand
    assert [line for line in second_hand.split("\n") if ".." in line] == []


TILE = re.compile(r"\[\d\|\d\]")


def test_lines_wrap_at_the_terminal_width_between_tiles_never_inside_one(second_hand: str):
    lines = second_hand.split("\n")
    assert [line for line in lines if len(line) > 80] == []
    assert [line for line in lines if "[" in TILE.sub("", line) or "]" in TILE.sub("", line)] == []
    assert (
        "\nEn la mesa: [1|3][3|3][3|2][2|0][0|4][4|5][5|6][6|6][6|1][1|4][4|3][3|0][0|0]\n"
        "            [0|5][5|3][3|6][6|0][0|1][1|5]\n"
    ) in second_hand
    assert (
        "\nEscribe el número de una jugada, o la jugada (6-4, 6-4 izq., paso); e NOMBRE\n"
        "  para una frase (buena, gracias, rapido, ups, jaja, pensando, capicua, hola); t\n"
        "  para ver tus fichas; a para ver qué debiste jugar en tu última mano; b para\n"
        "  recuperar tu asiento del robot que lo tomó por turnos perdidos (antes de 5\n"
        "  minutos); q para levantarte de la partida del todo (si ya empezó, pierdes tu\n"
        "  apuesta).\n"
    ) in second_hand


def test_the_prompt_shows_the_running_score_and_the_target(second_hand: str):
    assert (
        second_hand.count("\nMarcador (nosotros – ellos): 0 – 0, partida a 100\nEn la mesa: ") == 7
    )
    assert second_hand.endswith(
        "\nMarcador (nosotros – ellos): 10 – 0, partida a 100\n"
        "En la mesa: [0|3][3|2][2|4]\n"
        "Fichas que quedan: Rival derecho: 6, Compañero: 6, Rival izquierdo: 6\n"
        "Tus fichas: [2|2] [4|0] [4|1] [5|4] [6|1] [6|4] [6|5]\n"
        "Te toca (45 s): 1) 4-0 izq.  2) 4-0 der.  3) 4-1  4) 5-4  5) 6-4\n"
    )


async def test_a_is_offered_after_each_hand_but_the_last_when_nothing_more_can_be_typed():
    _, text = await run_script("1\n" * 400)
    hint = "Escribe a para ver qué debiste jugar en esta mano."
    hands = re.findall(r"\n— Mano (\d+) —", text)
    assert len(hands) >= 2
    assert text.count(hint) == len(hands) - 1
    for number in hands[1:]:  # said as the next hand starts
        assert f"\n{hint}\n\n— Mano {number} —" in text
    last = text[text.rindex("\nMano " + hands[-1] + ": ") :]
    assert hint not in last
    assert re.search(r"\n(¡Ganamos la partida|Ellos ganaron la partida) ", last)
