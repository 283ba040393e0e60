"""The terminal's port (bot/terminal/port.py): events as lines of text, and the board picture."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

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
    from bot.core import ChatRef, ManualClock, PlayerRef, SeatGivenBack, SeatTakenByRobot
    from bot.terminal import TerminalPort

    me = PlayerRef("terminal", "local", "Ana")
    out = io.StringIO()
    port = TerminalPort(me, out, clock=ManualClock(0.0))
    chat = ChatRef("terminal", "local")
    await port.deliver(
        SeatTakenByRobot(
            table_id="t",
            chat=chat,
            seat=0,
            player=me,
            reason="missed_turns",
            back_by=300.0,
            seconds=300,
        )
    )
    assert port.away and port.my_turn.is_set()
    assert (
        "Ahora juega un robot por ti. Escribe b antes de 5 min para volver a tu asiento"
        in out.getvalue()
    )  # the time to come back as the seat's deadline says (the house's setting)
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
    names = [seat.name for seat in port.narration.board_facts(state).seats]
    assert names == ["Tú", "Rival der.", "Compañero", "Rival izq."]
    assert [port.who(seat) for seat in (1, 2, 3)] == [
        "Rival derecho",
        "Compañero",
        "Rival izquierdo",
    ]  # the text's names, whole
    await manager.stop()


# ---------------------------------------------------------------- formats (rules.md, "Formats")


def _format_port(preset: str, language: str = "es", **overrides):  # type: ignore[no-untyped-def]
    """A terminal port at seat 0 of a table of ``preset`` whose other seats are robots
    (the seats as a TableChanged names them), and what it prints."""
    from bot.core import ChatRef, PlayerRef, SeatInfo
    from bot.terminal import TerminalPort
    from engine.rules import find_any_preset

    rules = find_any_preset(preset, **overrides)
    me = PlayerRef("terminal", "local", "Tú", language)
    out = io.StringIO()
    port = TerminalPort(me, out)
    narration = port.narration
    narration.rules = rules
    narration.names = ["Tú", *(f"Robot {i}" for i in range(1, rules.players))]
    narration.robots = [False, *([True] * (rules.players - 1))]
    seats = tuple(
        SeatInfo(seat=i, name=narration.names[i], is_robot=i > 0) for i in range(rules.players)
    )
    return port, out, rules, seats, ChatRef("terminal", "local", language=language)


async def test_another_seats_draws_in_a_row_are_said_once_counted_before_its_move():
    import random

    from bot.core import MovedBy, MovePlayed
    from engine.match import Match
    from engine.views import public_view

    port, out, rules, _seats, chat = _format_port("uno-contra-uno")
    match = Match.new(rules, random.Random(4))
    expected = []  # the robot's runs of draws: (how many, the boneyard's count after)
    run = 0
    number = 0
    while not match.hand.is_over:
        seat, move = match.hand.turn, match.hand.legal_moves()[0]
        match = match.apply(move, seat)
        view = public_view(match)
        number += 1
        if seat == 1 and move.draw:
            run += 1
            left = view.boneyard_count
        elif seat == 1 and run:
            expected.append((run, left))
            run = 0
        await port.deliver(
            MovePlayed(
                table_id="t",
                chat=chat,
                seat=seat,
                move=move,
                by=MovedBy.ROBOT,
                hand_number=1,
                move_number=number,
                view=view,
            )
        )
    said = re.findall(
        r"  El rival roba (\d+) fichas? \(quedan? (\d+) en el pozo\)\.\n  El rival", out.getvalue()
    )
    assert [(int(n), int(left)) for n, left in said] == expected
    assert any(n > 1 for n, _left in expected)  # a run of several draws, said once


def my_turn(port: Any, view: Any, chat: Any, seats: Any, drawn: Any, *, move_number: int) -> Any:
    """Seat 0's turn in hand 1 at ``move_number``: its tiles, moves and the tile it drew."""
    from bot.core import MoveChoice, YourTiles, encode_press

    moves = tuple(
        MoveChoice(m, m.code(), encode_press("t", 1, move_number, m.code()))
        for m in view.legal_moves()
    )
    return YourTiles(
        table_id="t",
        chat=chat,
        to=port.me,
        seat=0,
        view=view,
        moves=moves,
        hand_number=1,
        move_number=move_number,
        is_your_turn=True,
        deadline=None,
        seats=seats,
        drawn=drawn,
    )


async def test_your_draw_is_said_with_its_tile_and_your_turn_goes_on_without_repeating_the_table():
    import random

    from engine.match import Match
    from engine.moves import DRAW
    from engine.views import seat_view

    port, out, rules, seats, chat = _format_port("uno-contra-uno")
    match = Match.new(rules, random.Random(3))
    while match.hand.legal_moves() != [DRAW] or match.hand.turn != 0:
        match = match.apply(match.hand.legal_moves()[0])
    match = match.apply(DRAW, 0)
    view = seat_view(match, 0)
    drawn = match.hand.drawn_tiles(0)[-1]
    await port.deliver(my_turn(port, view, chat, seats, drawn, move_number=9))
    lines = out.getvalue().split("\n")
    assert lines[0] == f"  Robas [{drawn.high}|{drawn.low}]."
    assert lines[1].startswith("Te toca: 1) ")
    assert "Marcador" not in out.getvalue() and port.prompt is not None


def test_a_new_table_of_a_format_says_who_plays_and_how_it_differs_from_todays_game():
    from bot.present.i18n import translator
    from bot.terminal.loop import table_intro
    from engine.rules import find_any_preset, find_preset

    _ = translator("es")
    assert table_intro(_, "1", find_any_preset("uno-contra-uno")) == [
        "Mesa 1: tú contra un robot, uno contra uno.",
        "Si no te sirve ninguna ficha, robas del pozo; cuando se acaba, pasas.",
    ]
    assert table_intro(_, "2", find_any_preset("individual")) == [
        "Mesa 2: tú contra 3 robots, cada uno para sí."
    ]
    assert table_intro(_, "1", find_any_preset("cubano")) == [
        "Mesa 1: tú y un robot de compañero contra dos robots.",
        "Doble nueve: 10 fichas cada uno.",
        "Las otras 15 fichas quedan boca abajo: nadie las roba.",
    ]
    assert table_intro(_, "1", find_preset("venezolano")) == [
        "Mesa 1: tú y un robot de compañero contra dos robots."
    ]
    english = table_intro(translator("en"), "1", find_any_preset("uno-contra-uno"))
    assert english[0] == "Table 1: you against a robot, one against one."


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
        "Ahora juega un robot por ti. Escribe b antes de 5 min para volver a tu asiento;\n"
        "  q te levanta de la partida del todo (y pierdes tu apuesta).\n"
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
        "  min); q para levantarte de la partida del todo (si ya empezó, pierdes tu\n"
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


def test_a_whole_one_against_one_match_typed_by_a_player_shows_each_draw_and_ends_paid():
    """``domino play --preset uno-contra-uno`` on a terminal, a player typing 1 at every
    turn to the match's end: the player's draws named tile by tile, the robot's counted,
    the boneyard's count beside the robot's tiles, and the balance the money left."""
    terminal = TerminalProcess(worker(5, level="aprendiz", preset="uno-contra-uno"), clock=True)
    turns = 0
    try:
        terminal.read_until("Mesa 1: tú contra un robot, uno contra uno.\n")
        while True:
            seen = terminal.read_until_any(
                ["Te toca (45 s): ", "Tu saldo: $"], step=lambda: terminal.advance(1)
            )
            if seen == "Tu saldo: $":
                terminal.read_until(".\n")
                break
            terminal.read_until("\n")
            terminal.type("1")
            terminal.read_until("1\n")  # the terminal's echo
            turns += 1
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()
    assert terminal.error_text == ""
    text = terminal.output
    assert turns > 20
    assert "\nEmpieza la partida, cada uno para sí: el primero que llegue a 100 puntos" in text
    assert "\nNo te sirve ninguna ficha: roba del pozo.\nTe toca (45 s): 1) Robar\n" in text
    drawn = re.findall(r"\n  Robas (\[\d\|\d\])\.\nTe toca \(45 s\): 1\) ", text)
    assert len(drawn) > 3
    assert re.search(r"\n  El rival roba \d+ fichas? \(quedan? \d+ en el pozo\)\.\n", text)
    assert re.search(r"\nFichas que quedan: Rival: \d+, pozo: \d+\n", text)
    won = "\n¡Ganaste la partida!\n" in text
    assert won or "\nEl rival ganó la partida.\n" in text
    assert re.search(r"\nMarcador final: Tú \d+, Rival \d+\n", text)
    assert f"\nResultado neto (apuesta $10): Tú {'+$10' if won else '−$10'}\n" in text
    assert text.rstrip().endswith(f"Tu saldo: ${1010 if won else 990}.")


@pytest.mark.parametrize(
    ("by", "said"),
    [
        ("timeout", "  Robas [{tile}]. (se acabó el tiempo: jugó un robot)"),
        ("robot", "  Robas una ficha. (jugó un robot por ti)"),
    ],
)
async def test_a_draw_made_for_you_says_who_made_it(by, said):
    import random

    from bot.core import MovedBy, MovePlayed
    from engine.match import Match
    from engine.moves import DRAW
    from engine.views import public_view, seat_view

    port, out, rules, seats, chat = _format_port("uno-contra-uno")
    match = Match.new(rules, random.Random(3))
    while match.hand.legal_moves() != [DRAW] or match.hand.turn != 0:
        match = match.apply(match.hand.legal_moves()[0])
    match = match.apply(DRAW, 0)
    drawn = match.hand.drawn_tiles(0)[-1]
    await port.deliver(
        MovePlayed(
            table_id="t",
            chat=chat,
            seat=0,
            move=DRAW,
            by=MovedBy(by),
            hand_number=1,
            move_number=9,
            view=public_view(match),
        )
    )
    if by == "timeout":  # you are at your seat: your tiles come, naming the tile drawn
        view = seat_view(match, 0)
        await port.deliver(my_turn(port, view, chat, seats, drawn, move_number=10))
    first = out.getvalue().split("\n")[0]
    assert first == said.format(tile=f"{drawn.high}|{drawn.low}")
