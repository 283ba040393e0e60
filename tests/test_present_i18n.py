"""Message catalogs: Spanish by default, English on request, every message translated."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from bot.core import EMOTES, RefusalReason
from bot.present.i18n import (
    LOCALES_DIR,
    REFUSALS,
    emote_from_input,
    emote_label,
    emote_names,
    language_of,
    level_label,
    refusal_text,
    translator,
)

REFUSAL_REASONS = tuple(RefusalReason)


def test_spanish_is_the_default_and_english_is_available():
    assert translator(None)("Your tiles: {tiles}", tiles="[6|4]") == "Tus fichas: [6|4]"
    assert translator("en")("Your tiles: {tiles}", tiles="[6|4]") == "Your tiles: [6|4]"


@pytest.mark.parametrize(
    ("locale", "language"),
    [("es-419", "es"), ("en_US", "en"), ("EN-gb", "en"), ("pt-BR", "es"), ("", "es"), (None, "es")],
)
def test_a_platform_locale_picks_a_supported_language(locale, language):
    assert language_of(locale) == language


def test_an_unknown_message_falls_back_to_its_id_and_a_missing_parameter_stays_visible():
    _ = translator("es")
    assert _("Not in any catalog {x}", x=1) == "Not in any catalog 1"
    assert _("Your tiles: {tiles}") == "Tus fichas: {tiles}"
    assert _("Your balance: ${balance}.") == "Tu saldo: ${balance}."


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_refusal_reason_has_a_sentence_in_the_catalog(language):
    assert set(REFUSALS) == set(REFUSAL_REASONS)
    path = LOCALES_DIR / language / "LC_MESSAGES" / "core.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for reason in REFUSAL_REASONS:
        message = catalog.get(REFUSALS[reason])
        assert message is not None and message.string, reason


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_core_message_is_translated_and_keeps_its_placeholders(language):
    path = LOCALES_DIR / language / "LC_MESSAGES" / "core.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    import string

    fields = string.Formatter()
    for message in catalog:
        if not message.id:
            continue
        assert message.string, message.id
        wanted = {f for _, f, _, _ in fields.parse(message.id) if f}
        got = {f for _, f, _, _ in fields.parse(message.string) if f}
        assert wanted == got, message.id


def test_refusals_are_phrased_with_their_parameters():
    text = refusal_text("emote_too_soon", {"wait_seconds": 3}, "es")
    assert text == "Espera 3 s antes del próximo gesto."
    assert "3 s" in refusal_text("emote_too_soon", {"wait_seconds": 3}, "en")
    assert refusal_text("no_such_reason", {}, "es") == "Eso no se puede hacer ahora."


def test_emotes_and_robot_levels_have_spanish_labels():
    assert [emote_label(name, "es") for name in EMOTES] == [
        "¡Buena!",
        "Gracias",
        "Rápido",
        "Ups",
        "Jaja",
        "Pensando",
        "¡Capicúa!",
        "Hola",
    ]
    assert emote_label("hola", "en") == "Hello, table"
    assert level_label("experto", "es") == "Robot (Experto)"
    assert level_label("experto", "en") == "Robot (Expert)"


def test_emotes_are_named_in_the_players_language_and_typed_in_either():
    assert emote_names("es")[:3] == ["buena", "gracias", "rapido"]
    assert emote_names("en")[:3] == ["nice", "thanks", "hurry"]
    assert [emote_from_input(n) for n in emote_names("en")] == list(EMOTES)
    assert emote_from_input(" Rápido ") == "rapido" and emote_from_input("HOLA") == "hola"
    assert emote_from_input("bravo") == "bravo"  # unknown: the manager refuses it


def test_the_refusal_for_a_player_already_at_the_seat_reads_naturally():
    assert refusal_text("not_away", {}, "es") == "Ya estás en tu silla."
    assert refusal_text("not_away", {}, "en") == "You are at your seat already."
