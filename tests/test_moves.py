from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidMoveError
from engine.moves import DRAW, PASS, Move, Side
from engine.tiles import ALL_TILES, Tile, TileSet

moves = st.one_of(
    st.just(PASS),
    st.builds(Move, st.sampled_from(ALL_TILES), st.sampled_from([None, Side.LEFT, Side.RIGHT])),
)


@given(moves)
def test_every_move_code_round_trips(move: Move) -> None:
    assert Move.from_code(move.code()) == move
    assert len(move.code()) <= 3


@given(moves)
def test_every_move_text_round_trips(move: Move) -> None:
    assert Move.parse(move.text()) == move


def test_a_button_payload_with_table_hand_and_move_fits_telegram_and_discord() -> None:
    payload = f"m:{'z' * 12}:{99}:{150}:{Move(Tile(6, 5), Side.LEFT).code()}"
    assert len(payload.encode()) <= 64


@pytest.mark.parametrize("code", ["", "7", "77", "64x", "6-4", "pp", "p4", None, "64lr"])
def test_a_forged_code_is_refused(code: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_code(code)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["Pass", "6-4 up", "6-4  left", "6-4 left extra", "", "8-1"])
def test_unreadable_move_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_text_notation_follows_the_records_format() -> None:
    assert Move(Tile(4, 2), Side.RIGHT).text() == "4-2 right"
    assert Move(Tile(4, 2), Side.RIGHT).text(with_side=False) == "4-2"
    assert PASS.text() == "pass" and PASS.is_pass


def test_a_draw_is_written_draw_and_coded_d() -> None:
    assert (DRAW.text(), DRAW.code(), str(DRAW)) == ("draw", "d", "draw")
    assert Move.parse("draw") is DRAW and Move.from_code("d") is DRAW
    assert DRAW.is_draw and not DRAW.is_pass and DRAW.tile is None
    assert PASS.is_pass and not PASS.is_draw and DRAW != PASS


def test_a_double_nine_move_is_read_only_in_the_double_nine_set() -> None:
    assert Move.from_code("97r", TileSet.DOUBLE_NINE) == Move(Tile(9, 7), Side.RIGHT)
    assert Move.parse("9-7 left", TileSet.DOUBLE_NINE) == Move(Tile(9, 7), Side.LEFT)
    assert Move(Tile(9, 7), Side.RIGHT).code() == "97r"
    with pytest.raises(InvalidMoveError):
        Move.from_code("97r")
    with pytest.raises(InvalidMoveError):
        Move.parse("9-7")


def test_ends_after_a_tile_open_high_on_the_left_and_follow_the_side_played() -> None:
    from engine.moves import Side, ends_after
    from engine.tiles import Tile

    assert ends_after(None, Tile.parse("2-6"), None) == (6, 2)
    assert ends_after((6, 2), Tile.parse("6-4"), Side.LEFT) == (4, 2)
    assert ends_after((6, 2), Tile.parse("2-1"), Side.RIGHT) == (6, 1)
    assert ends_after((6, 2), Tile.parse("2-1"), None) == (6, 1)
