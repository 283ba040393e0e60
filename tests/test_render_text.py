from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.text import (
    ELLIPSIS,
    PLACEHOLDER,
    clean_name,
    covered,
    fit_text,
    font,
    text_sprite,
    text_width,
    wrap_text,
)


def test_names_keep_accents_and_emoji_but_lose_control_characters() -> None:
    assert clean_name("  José\tÑúñez \n") == "José Ñúñez"
    assert clean_name("Ana\u202e evil\u0007") == "Ana evil"
    assert clean_name("Ana ❤️ 😀") == "Ana ❤️ 😀"  # glyphs the shipped font has
    assert clean_name("e\u0301") == "é"  # NFC


def test_characters_the_font_lacks_become_one_placeholder_per_run() -> None:
    assert clean_name("Pedro 🎲🔥") == f"Pedro {PLACEHOLDER}"
    assert clean_name("👨\u200d👩\u200d👧 family") == f"{PLACEHOLDER} family"
    assert clean_name("李小龍") == PLACEHOLDER
    assert clean_name("👍🏽 ok") == f"{PLACEHOLDER} ok"
    assert covered("ñ") and covered("م") and covered("ש") and not covered("🎲")


def test_an_empty_or_invisible_name_gets_the_fallback() -> None:
    assert clean_name("", "Asiento 1") == "Asiento 1"
    assert clean_name("\u200b\u2066\n", "Asiento 2") == "Asiento 2"


def test_a_name_that_fits_is_left_alone() -> None:
    assert fit_text("María", 24, True, 300) == "María"


def test_a_long_name_is_cut_with_an_ellipsis_to_the_width() -> None:
    name = "Maximiliano Alejandro de la Santísima Trinidad Pérez"
    short = fit_text(name, 24, True, 200)
    assert short.endswith(ELLIPSIS)
    assert name.startswith(short[:-1])
    assert text_width(short, 24, True) <= 200


def test_cutting_never_leaves_a_dangling_accent_or_joiner() -> None:
    name = "e\u0301" * 20 + "👨\u200d👩\u200d👧" * 10 + "x\ufe0f" * 10
    for width in range(20, 600, 7):
        short = fit_text(name, 20, False, width)
        body = short.removesuffix(ELLIPSIS)
        assert name.startswith(body)
        if len(body) < len(name):
            following = name[len(body)]
            assert following not in ("\u0301", "\u200d", "\ufe0f")
            assert not body.endswith("\u200d")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80), st.integers(min_value=30, max_value=400))
def test_any_text_fits_its_box(name: str, width: int) -> None:
    short = fit_text(clean_name(name), 18, True, width)
    assert text_width(short, 18, True) <= width or len(short) <= 2


def test_wrapping_breaks_at_spaces_and_ends_with_an_ellipsis_when_cut() -> None:
    lines = wrap_text("Ana Sofía de los Ángeles Martínez", 19, True, 100, 2)
    assert len(lines) == 2
    assert lines[0] == "Ana Sofía" or text_width(lines[0], 19, True) <= 100
    assert lines[-1].endswith(ELLIPSIS)
    assert all(text_width(line, 19, True) <= 100 for line in lines)


def test_a_short_name_wraps_to_one_line() -> None:
    assert wrap_text("Ana", 19, True, 100, 2) == ["Ana"]


def test_a_single_long_word_is_cut_inside_the_word() -> None:
    lines = wrap_text("Supercalifragilisticoespialidoso", 19, True, 100, 2)
    assert len(lines) == 2 and lines[1].endswith(ELLIPSIS)


def test_fonts_are_the_shipped_dejavu_faces() -> None:
    assert font(20).getname()[0] == "DejaVu Sans"
    assert font(20, True).getname() == ("DejaVu Sans", "Bold")


@pytest.mark.parametrize("name", ["Ana", "محمد", "שׁלום", "😀🤖", ""])
def test_text_sprites_are_cached_and_as_tall_as_the_font(name: str) -> None:
    sprite = text_sprite(name, 22, True, (255, 255, 255, 255))
    assert sprite is text_sprite(name, 22, True, (255, 255, 255, 255))
    ascent, descent = font(22, True).getmetrics()
    assert sprite.height == ascent + descent
