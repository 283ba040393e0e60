"""How the terminal draws things as text (bot/terminal/text.py)."""

from __future__ import annotations

import io

import pytest

from bot.present.i18n import translator
from bot.terminal import play, tile_text
from bot.terminal.text import choices_text, help_text, line_text, tiles_text
from engine.tiles import Tile
from storage.base import Storage


def test_tiles_are_drawn_as_text():
    assert tile_text(Tile(4, 6)) == "[6|4]"


def test_the_line_is_drawn_left_to_right_with_each_tile_oriented():
    class Placed:
        def __init__(self, left: int, right: int) -> None:
            self.left, self.right = left, right

    class View:
        line = (Placed(4, 6), Placed(6, 6), Placed(6, 1))

    assert line_text(View()) == "[4|6][6|6][6|1]"  # type: ignore[arg-type]
    View.line = ()
    assert line_text(View()) == ""  # type: ignore[arg-type]


def test_tiles_are_listed_one_after_another():
    assert tiles_text((Tile(6, 4), Tile(5, 5), Tile(0, 1))) == "[6|4] [5|5] [1|0]"
    assert tiles_text(()) == ""


def test_the_help_lists_the_emotes_in_the_players_language():
    english = help_text(translator("en"), "en", 300.0)
    assert english.startswith(
        "Type the number of a move, or the move (6-4, 6-4 left, pass); e NAME"
    )
    assert "(nice, thanks, hurry, oops, haha, thinking, capicua, hello)" in english
    spanish = help_text(translator("es"), "es", 300.0)
    assert "(buena, gracias, rapido, ups, jaja, pensando, capicua, hola)" in spanish


def test_the_help_says_what_b_and_q_do_now_in_both_languages():
    """Issue 27: ``b`` takes a seat back from the robot that took it over for missed turns;
    ``q`` leaves the match for good, forfeiting the stake once it started."""
    english = help_text(translator("en"), "en", 300.0)
    assert english.endswith(
        "; b to take your seat back from the robot that took it over for missed turns "
        "(within 5 min); q to leave the match for good (once it has started, your stake "
        "is lost)."
    )
    spanish = help_text(translator("es"), "es", 300.0)
    assert spanish.endswith(
        "; b para recuperar tu asiento del robot que lo tomó por turnos perdidos (antes de 5 "
        "min); q para levantarte de la partida del todo (si ya empezó, pierdes tu apuesta)."
    )


async def test_the_moves_are_numbered_and_labelled_as_the_move_buttons_are(
    memory_storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
):
    from bot.core import YourTiles
    from bot.present.moves import move_buttons
    from bot.terminal import TerminalPort

    seen: list[YourTiles] = []

    class Recording(TerminalPort):
        async def deliver(self, event):  # type: ignore[no-untyped-def]
            if isinstance(event, YourTiles) and event.is_your_turn:
                seen.append(event)
            await super().deliver(event)

    monkeypatch.setattr("bot.terminal.loop.TerminalPort", Recording)
    out = io.StringIO()
    await play(memory_storage, stdin=io.StringIO("1\n" * 400), stdout=out, seed=7)
    assert seen
    for tiles in seen:
        expected = "  ".join(
            f"{i}) {label}" for i, (_c, label) in enumerate(move_buttons(tiles), 1)
        )
        assert choices_text(tiles) == expected
        assert expected.startswith("1) ")
        assert f": {expected}\n" in out.getvalue()
