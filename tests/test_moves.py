from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidMoveError
from engine.moves import PASS, Move, Side
from engine.tiles import ALL_TILES, Tile

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
