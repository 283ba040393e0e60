from __future__ import annotations

import random

import pytest

from engine.errors import InvalidMoveError
from engine.tiles import (
    ALL_TILES,
    DOUBLES,
    NUMBER_MASKS,
    PIPS,
    Tile,
    mask_of,
    pips_of_mask,
    tiles_of,
)


def test_the_double_six_set_has_28_distinct_tiles_and_7_doubles() -> None:
    assert len(ALL_TILES) == 28
    assert len(set(ALL_TILES)) == 28
    assert len(DOUBLES) == 7
    assert [t.index for t in ALL_TILES] == list(range(28))


def test_a_tile_is_the_same_in_either_order_and_written_high_first() -> None:
    assert Tile(4, 6) is Tile(6, 4)
    assert str(Tile(4, 6)) == "6-4"
    assert Tile.parse("4-6") is Tile(6, 4)
    assert Tile.parse(" 6 - 4 ") is Tile(6, 4)


def test_a_tile_is_worth_the_sum_of_its_halves() -> None:
    assert Tile(6, 4).pips == 10
    assert Tile(0, 0).pips == 0
    assert sum(t.pips for t in ALL_TILES) == 168


@pytest.mark.parametrize("text", ["7-1", "6", "6-4-1", "a-b", "", "-1-2", "66"])
def test_unknown_tiles_are_refused_with_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="unknown tile"):
        Tile.parse(text)


def test_tiles_are_ordered_by_high_then_low_half() -> None:
    assert sorted([Tile(6, 6), Tile(0, 0), Tile(5, 1), Tile(5, 0)]) == [
        Tile(0, 0),
        Tile(5, 0),
        Tile(5, 1),
        Tile(6, 6),
    ]


def test_each_number_shows_on_seven_tiles() -> None:
    for number in range(7):
        assert NUMBER_MASKS[number].bit_count() == 7
        assert all(t.has(number) for t in tiles_of(NUMBER_MASKS[number]))


def test_masks_and_tiles_convert_both_ways() -> None:
    tiles = (Tile(0, 0), Tile(3, 2), Tile(6, 6))
    assert tiles_of(mask_of(tiles)) == tiles


def test_the_other_half_of_a_tile() -> None:
    assert Tile(6, 4).other(6) == 4
    assert Tile(6, 4).other(4) == 6
    assert Tile(3, 3).other(3) == 3


def test_tiles_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Tile(1, 0).high = 5  # type: ignore[misc]


def test_pips_of_a_mask_is_the_sum_of_its_tiles() -> None:
    assert tuple(t.pips for t in ALL_TILES) == PIPS
    rng = random.Random(0)
    for _ in range(200):
        tiles = rng.sample(ALL_TILES, rng.randrange(29))
        assert pips_of_mask(mask_of(tiles)) == sum(t.pips for t in tiles)
