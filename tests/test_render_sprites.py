from __future__ import annotations

import pytest
from PIL import Image

from render.canvas import PHONE_WIDTH
from render.hand import TILE_SHORT
from render.layout import TILE_SIZES
from render.sprites import DIM, FACE, HIGHLIGHT, PIP_SPOTS, back_sprite, tile_sprite


def _dots(image: Image.Image) -> int:
    """Dark blobs in an RGBA tile half (4-connected components of dark pixels)."""
    w, h = image.size
    px = image.load()
    assert px is not None
    dark = {
        (x, y)
        for x in range(w)
        for y in range(h)
        if px[x, y][3] > 200 and sum(px[x, y][:3]) < 200  # type: ignore[index]
    }
    blobs = 0
    while dark:
        blobs += 1
        stack = [dark.pop()]
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in dark:
                    dark.remove(n)
                    stack.append(n)
    return blobs


@pytest.mark.parametrize("top", range(7))
@pytest.mark.parametrize("bottom", range(7))
def test_each_half_shows_its_number_of_dots(top: int, bottom: int) -> None:
    s = 48
    sprite = tile_sprite(s, top, bottom, True)
    assert sprite.size == (s, 2 * s)
    assert _dots(sprite.crop((0, 0, s, s - 3))) == top
    assert _dots(sprite.crop((0, s + 3, s, 2 * s))) == bottom


def test_a_horizontal_tile_is_the_vertical_one_turned_with_the_top_half_on_the_left() -> None:
    s = 40
    flat = tile_sprite(s, 5, 1, False)
    assert flat.size == (2 * s, s)
    assert _dots(flat.crop((0, 0, s - 3, s))) == 5
    assert _dots(flat.crop((s + 3, 0, 2 * s, s))) == 1


def test_tiles_have_rounded_transparent_corners_and_a_white_face() -> None:
    sprite = tile_sprite(48, 0, 0, True)
    assert sprite.getpixel((0, 0))[3] == 0  # type: ignore[index]
    face = sprite.getpixel((24, 24))
    assert isinstance(face, tuple) and min(face[:3]) > 230


def test_sprites_are_drawn_once_and_reused() -> None:
    assert tile_sprite(44, 6, 3, False) is tile_sprite(44, 6, 3, False)
    assert back_sprite(14, (1, 2, 3)) is back_sprite(14, (1, 2, 3))


def test_the_three_looks_differ() -> None:
    faces = {
        tile_sprite(48, 2, 2, True, look).getpixel((10, 40)) for look in (FACE, HIGHLIGHT, DIM)
    }
    assert len(faces) == 3


def test_pip_patterns_have_as_many_spots_as_the_number() -> None:
    assert sorted(PIP_SPOTS) == list(range(10))
    for n, spots in PIP_SPOTS.items():
        assert len(spots) == n == len(set(spots))


def test_double_nine_numbers_use_the_real_sets_patterns_not_digits() -> None:
    """7 is the 6 plus the centre, 9 three rows of three, 8 the 9 without its centre."""
    grid = {(col, row) for col in range(3) for row in range(3)}
    assert set(PIP_SPOTS[9]) == grid
    assert set(PIP_SPOTS[8]) == grid - {(1, 1)}
    assert set(PIP_SPOTS[7]) == set(PIP_SPOTS[6]) | {(1, 1)}


SIZES = (TILE_SHORT, *TILE_SIZES)  # the hand's tiles and every size the board tries


@pytest.mark.parametrize("short", SIZES)
@pytest.mark.parametrize("number", range(10))
def test_every_number_from_0_to_9_shows_its_dots_at_every_size_pictures_draw(
    short: int, number: int
) -> None:
    s = short
    other = 9 - number
    upright = tile_sprite(s, number, other, True)
    assert _dots(upright.crop((0, 0, s, s - 3))) == number
    assert _dots(upright.crop((0, s + 3, s, 2 * s))) == other
    flat = tile_sprite(s, number, other, False)
    assert _dots(flat.crop((0, 0, s - 3, s))) == number
    assert _dots(flat.crop((s + 3, 0, 2 * s, s))) == other


@pytest.mark.parametrize("short", [s for s in SIZES if s >= 28])
def test_every_number_can_still_be_counted_on_a_400_pixel_wide_phone(short: int) -> None:
    """Shrunk as a phone shows a 960-pixel picture, a 9's dots stay apart (tiles from
    28 pixels up; the board uses smaller ones only for lines too long for those)."""
    small = round(short * PHONE_WIDTH / 960)
    for number in range(10):
        sprite = tile_sprite(short, number, number, True, HIGHLIGHT)
        phone = sprite.resize((small, 2 * small), Image.Resampling.LANCZOS)
        assert _dots(phone.crop((0, 0, small, small - 1))) == number, number


def test_a_tile_back_is_tall_and_coloured() -> None:
    back = back_sprite(14, (28, 62, 120))
    assert back.size == (14, 28)
    assert back.getpixel((7, 14))[:3] == (28, 62, 120)  # type: ignore[index]
