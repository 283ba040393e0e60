"""Message catalogs: Spanish by default, English on request, every message translated."""

from __future__ import annotations

import ast
import string
from pathlib import Path

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


CATALOGS = sorted(LOCALES_DIR.glob("*/LC_MESSAGES/*.po"))
_FIELDS = string.Formatter()


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in _FIELDS.parse(text) if field}


def _raw_message_ids(path: Path) -> list[tuple[str, str]]:
    """Every (msgctxt, msgid) as written in the file, duplicates included (Babel's
    reader keeps only the last of two equal ids, so it cannot see them)."""
    ids: list[tuple[str, str]] = []
    context, current, field = "", None, None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("msgctxt "):
            context, field = ast.literal_eval(line[8:]), "msgctxt"
        elif line.startswith("msgid "):
            current, field = ast.literal_eval(line[6:]), "msgid"
        elif line.startswith('"') and field in ("msgid", "msgctxt"):
            if field == "msgid":
                current = (current or "") + ast.literal_eval(line)
            else:
                context += ast.literal_eval(line)
        elif line.startswith("msgid_plural") or line.startswith("msgstr"):
            if field == "msgid" and current:
                ids.append((context, current))
            context, current, field = "", None, "msgstr"
    return ids


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_catalog_passes_the_msgfmt_check_in_babel(path: Path) -> None:
    """What ``msgfmt -c`` checks, with Babel (CI has no gettext tools): the file parses,
    no message id twice, every message translated with the placeholders of its id, and
    plural messages with as many forms as the header's ``nplurals``."""
    with path.open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    ids = _raw_message_ids(path)
    assert [key for key in ids if ids.count(key) > 1] == []
    assert [(message.id, errors) for message, errors in catalog.check()] == []
    assert catalog.plural_forms == "nplurals=2; plural=(n != 1);"
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple), message.id
            assert len(message.string) == catalog.num_plurals, message.id
            wanted = _placeholders(message.id[0]) | _placeholders(message.id[1])
            for form in message.string:
                assert form, message.id
                assert _placeholders(form) == wanted, message.id
        else:
            assert message.string, message.id
            assert _placeholders(message.string) == _placeholders(message.id), message.id


def test_the_catalog_check_catches_a_duplicate_message_id(tmp_path: Path) -> None:
    bad = tmp_path / "core.po"
    bad.write_text(
        'msgid ""\nmsgstr ""\n\nmsgid "— Hand {number} — you open."\nmsgstr "a"\n\n'
        'msgid "— Hand {number} — "\n"you open."\nmsgstr "b"\n',
        encoding="utf-8",
    )
    assert _raw_message_ids(bad) == [("", "— Hand {number} — you open.")] * 2


def test_plural_forms_in_both_languages_come_from_the_catalogs() -> None:
    """Issue 13, item 24: "1 asientos libres" reads "1 asiento libre"."""
    es, en = translator("es"), translator("en")
    assert es.ngettext("{n} free seat", "{n} free seats", 1) == "1 asiento libre"
    assert es.ngettext("{n} free seat", "{n} free seats", 3) == "3 asientos libres"
    assert es.ngettext("{n} free seat", "{n} free seats", 0) == "0 asientos libres"
    assert en.ngettext("{n} free seat", "{n} free seats", 1) == "1 free seat"
    assert en.ngettext("{n} free seat", "{n} free seats", 2) == "2 free seats"
    discord = translator("es", "discord", "core")
    assert discord.ngettext("{n} match", "{n} matches", 1) == "1 partida"
    assert discord.ngettext("{n} match", "{n} matches", 12) == "12 partidas"
    assert es.ngettext("Not in {x}", "Not in {x}s", 1, x="a") == "Not in a"
    assert es.ngettext("Not in {x}", "Not in {x}s", 2, x="a") == "Not in as"


def test_refusals_are_phrased_with_their_parameters():
    text = refusal_text("emote_too_soon", {"wait_seconds": 3}, "es")
    assert text == "Espera 3 s antes de la próxima frase."
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
    assert refusal_text("not_away", {}, "es") == "Ya estás en tu asiento."
    assert refusal_text("not_away", {}, "en") == "You are at your seat already."


def test_an_unknown_phrase_is_answered_with_the_phrase_names_of_the_players_language():
    """Issue 13, item 28: an English player was listed the Spanish names."""
    from bot.present.i18n import refusal_text

    params = {"emotes": "buena, gracias, rapido, ups, jaja, pensando, capicua, hola"}
    english = refusal_text("unknown_emote", params, "en")
    assert english == (
        "Unknown phrase. Phrases: nice, thanks, hurry, oops, haha, thinking, capicua, hello."
    )
    spanish = refusal_text("unknown_emote", params, "es")
    assert "buena, gracias, rapido, ups, jaja, pensando, capicua, hola" in spanish


def test_names_with_right_to_left_letters_or_direction_controls_are_isolated_others_kept() -> None:
    from bot.present.i18n import isolate, translator

    assert isolate("שרה") == "\u2068שרה\u2069"
    assert isolate("Ana\u202e") == "\u2068Ana\u202e\u2069"  # an override ends inside
    assert isolate("Ana 😀 2") == "Ana 😀 2"
    _ = translator("es")
    assert _("{name}: {emote}", name="محمد", emote="Hola") == "\u2068محمد\u2069: Hola"
    assert _("{n} {name}", n="محمد", name="Ana") == "محمد Ana"  # only the name parameters


def test_how_long_ago_is_said_with_its_direction_in_each_language() -> None:
    from bot.present.i18n import time_ago_text

    assert time_ago_text(300, "es") == "hace 5 minutos"
    assert time_ago_text(3 * 3600, "en") == "3 hours ago"
    assert time_ago_text(-5, "es") == "hace 1 segundo"  # a clock that went back: now
