from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.text import (
    ELLIPSIS,
    PLACEHOLDER,
    clean_name,
    clusters,
    covered,
    emoji_font,
    fit_text,
    font,
    runs,
    text_sprite,
    text_width,
    wrap_text,
)


def test_names_keep_accents_and_emoji_but_lose_control_characters() -> None:
    assert clean_name("  José\tÑúñez \n") == "José Ñúñez"
    assert clean_name("Ana\u202e evil\u0007") == "Ana evil"
    assert clean_name("Ana ❤️ 😀") == "Ana ❤️ 😀"  # glyphs the shipped font has
    assert clean_name("e\u0301") == "é"  # NFC


def test_characters_neither_font_has_become_one_placeholder_per_run() -> None:
    assert clean_name("李小龍 🎲") == f"{PLACEHOLDER} 🎲"
    assert clean_name("Ana 李小龍") == f"Ana {PLACEHOLDER}"
    assert covered("ñ") and covered("م") and covered("ש") and not covered("🎲")


FLAG_VE = "\U0001f1fb\U0001f1ea"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
THUMB_MEDIUM = "\U0001f44d\U0001f3fd"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"
WOMAN_CODER_MEDIUM = "\U0001f469\U0001f3fd\u200d\U0001f4bb"
PHOENIX = "\U0001f426\u200d\U0001f525"
KEYCAP_ONE = "1\ufe0f\u20e3"
EMOJI_CLUSTERS = (
    FLAG_VE,
    SCOTLAND,
    THUMB_MEDIUM,
    FAMILY,
    RAINBOW_FLAG,
    WOMAN_CODER_MEDIUM,
    PHOENIX,
    KEYCAP_ONE,
    "\U0001f98a",
    "\u2764\ufe0f",
)


def _ink(text: str) -> bytes:
    """The alpha channel of ``text`` drawn in white at 40 pixels."""
    return text_sprite(text, 40, True, (255, 255, 255, 255)).getchannel("A").tobytes()


@pytest.mark.parametrize("cluster", EMOJI_CLUSTERS)
def test_flags_skin_tones_and_zwj_sequences_are_drawn_with_an_emoji_glyph_not_a_box(
    cluster: str,
) -> None:
    """Issue 13, item 25: names with emoji were drawn as "□"."""
    name = f"Ana {cluster} Luz"
    assert clean_name(name) == name
    assert clusters(name) == ["A", "n", "a", " ", cluster, " ", "L", "u", "z"]
    assert runs(name) == ((False, "Ana "), (True, cluster), (False, " Luz"))
    # One glyph of Noto Emoji, with ink, unlike the font's missing-glyph box and unlike
    # the placeholder; a joined sequence, a skin tone or a flag is one glyph wide.
    face = emoji_font(40)
    assert face.getlength(cluster) == face.getlength("\U0001f98a")
    drawn = _ink(cluster)
    assert any(drawn)
    assert drawn != _ink("\U000f0000") and drawn != _ink(PLACEHOLDER)


def test_emoji_only_names_are_drawn_and_told_apart() -> None:
    drawn = {cluster: _ink(clean_name(cluster)) for cluster in EMOJI_CLUSTERS}
    assert all(any(ink) for ink in drawn.values())
    assert len(set(drawn.values())) == len(EMOJI_CLUSTERS)
    assert all(clean_name(cluster) == cluster for cluster in EMOJI_CLUSTERS)


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
    name += (FLAG_VE + THUMB_MEDIUM) * 5
    for width in range(20, 600, 7):
        short = fit_text(name, 20, False, width)
        body = short.removesuffix(ELLIPSIS)
        assert name.startswith(body)
        if len(body) < len(name):
            following = name[len(body)]
            assert following not in ("\u0301", "\u200d", "\ufe0f")
            assert not body.endswith("\u200d")
        assert clusters(body) == clusters(name)[: len(clusters(body))]


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


def test_fonts_are_the_shipped_dejavu_faces_and_noto_emoji() -> None:
    assert font(20).getname()[0] == "DejaVu Sans"
    assert font(20, True).getname() == ("DejaVu Sans", "Bold")
    assert emoji_font(20).getname()[0] == "Noto Emoji"


@pytest.mark.parametrize("name", ["Ana", "محمد", "שׁלום", "😀🤖", ""])
def test_text_sprites_are_cached_and_as_tall_as_the_font(name: str) -> None:
    sprite = text_sprite(name, 22, True, (255, 255, 255, 255))
    assert sprite is text_sprite(name, 22, True, (255, 255, 255, 255))
    ascent, descent = font(22, True).getmetrics()
    assert sprite.height == ascent + descent
