"""The terminal's port (bot/terminal/port.py): events as lines of text, and the board picture."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from storage.memory import MemoryStorage
from tests.test_terminal_loop import run_script


async def test_the_players_own_seat_is_spoken_to_in_the_second_person():
    _, spanish, _ = await run_script("1\n" * 400)
    assert "— Mano 2 — sales tú." in spanish and "sale Tú" not in spanish
    assert "Mano 1: Dominaste; ganamos 10 puntos." in spanish and "Tú dominó" not in spanish
    assert "— Mano 1 — sale Rival izquierdo." in spanish  # others: the third person
    _, english, _ = await run_script("1\n" * 400, language="en")
    assert "— Hand 2 — you open." in english and "You opens" not in english
    assert "Hand 1: You domino; we win 10 points." in english and "You dominoes" not in english
    assert "Hand 7: Right opponent dominoes; they win 12 points." in english


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
    assert names == ["Tú", "Rival derecho", "Compañero", "Rival izquierdo"]
    assert names[1:] == [port.who(seat) for seat in (1, 2, 3)]  # the text's names
    await manager.stop()
