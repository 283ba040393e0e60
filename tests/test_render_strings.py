from __future__ import annotations

import pytest

from render.strings import LANGUAGES, STRINGS, team_name, text


def test_spanish_and_english_have_the_same_texts() -> None:
    assert set(STRINGS) == set(LANGUAGES) == {"es", "en"}
    assert STRINGS["es"].keys() == STRINGS["en"].keys()


def test_every_text_formats_with_its_placeholders() -> None:
    params = {
        "n": 3,
        "name": "Ana",
        "tile": "6-4",
        "side": "izq.",
        "nums": "1, 2",
        "team": "Azul",
        "a": 10,
        "b": 12,
        "total": 4,
    }
    for language in LANGUAGES:
        for key in STRINGS[language]:
            assert text(language, key, **params)


def test_unknown_languages_fall_back_to_spanish() -> None:
    assert text("fr", "pass") == "Paso"
    assert text("en", "pass") == "Pass"
    assert team_name("es", 0) == "Azul" and team_name("en", 1) == "Red"


def test_an_unknown_text_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        text("es", "no-such-text")
