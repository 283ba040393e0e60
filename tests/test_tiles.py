from __future__ import annotations

import random

import pytest

from engine.errors import InvalidMoveError
from engine.tiles import (
    ALL_TILES,
    DOUBLES,
    NINE_TILES,
    NUMBER_MASKS,
    PIPS,
    Tile,
    TileSet,
    mask_of,
    pips_of_any_mask,
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


def test_the_double_nine_set_has_55_tiles_and_begins_with_the_double_six_set() -> None:
    assert len(NINE_TILES) == 55
    assert NINE_TILES[:28] == ALL_TILES
    assert [t.index for t in NINE_TILES] == list(range(55))
    assert TileSet.DOUBLE_NINE.tiles == NINE_TILES and TileSet.DOUBLE_SIX.tiles == ALL_TILES
    assert [str(d) for d in TileSet.DOUBLE_NINE.doubles][-3:] == ["7-7", "8-8", "9-9"]
    assert [bin(m).count("1") for m in TileSet.DOUBLE_NINE.number_masks] == [10] * 10
    assert sum(t.pips for t in NINE_TILES) == 495


def test_a_double_nine_tile_is_read_only_in_the_double_nine_set() -> None:
    assert Tile.parse("9-7", TileSet.DOUBLE_NINE) is Tile(7, 9)
    assert Tile.parse("6-4", TileSet.DOUBLE_NINE) is Tile(6, 4)
    with pytest.raises(InvalidMoveError, match="unknown tile '7-1'"):
        Tile.parse("7-1", TileSet.DOUBLE_SIX)
    with pytest.raises(InvalidMoveError, match="unknown tile"):
        Tile(10, 1)


def test_the_pips_of_any_mask_count_every_tile_of_either_set() -> None:
    rng = random.Random(4)
    for _ in range(200):
        tiles = rng.sample(NINE_TILES, rng.randrange(56))
        assert pips_of_any_mask(mask_of(tiles)) == sum(t.pips for t in tiles)
        assert tiles_of(mask_of(tiles)) == tuple(sorted(tiles))
