"""Languages on Discord (bot/discord/i18n.py): the slash-command translator and the
``discord`` catalogs."""

from __future__ import annotations

import re
from pathlib import Path

import discord
from babel.messages.pofile import read_po
from discord import app_commands

from bot.discord.i18n import DominoTranslator, command_name, text, texts
from storage.base import Storage
from tests.fake_discord import FakeDiscord, Harness

LOCALES = Path(__file__).resolve().parent.parent / "bot" / "locales"


def catalog(language: str) -> dict[str, str]:
    with (LOCALES / language / "LC_MESSAGES" / "discord.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


def context(location: app_commands.TranslationContextLocation) -> app_commands.TranslationContext:
    return app_commands.TranslationContext(location, None)  # type: ignore[arg-type]


async def test_english_clients_see_english_names_and_spanish_clients_the_spanish_ones() -> None:
    translator = DominoTranslator()
    name = command_name("jugar", "play")
    where = context(app_commands.TranslationContextLocation.command_name)
    assert await translator.translate(name, discord.Locale.american_english, where) == "play"
    assert await translator.translate(name, discord.Locale.british_english, where) == "play"
    assert await translator.translate(name, discord.Locale.spain_spanish, where) == "jugar"
    assert await translator.translate(name, discord.Locale.latin_american_spanish, where) == "jugar"
    # Other locales fall back to the Spanish default Discord already has.
    assert await translator.translate(name, discord.Locale.french, where) is None


async def test_descriptions_default_to_spanish_and_translate_to_english() -> None:
    description = text("Sit at a table now")
    assert description.message == "Sentarte a una mesa ya"
    where = context(app_commands.TranslationContextLocation.command_description)
    english = await DominoTranslator().translate(
        description, discord.Locale.american_english, where
    )
    assert english == "Sit at a table now"


def test_both_catalogs_hold_the_same_messages_with_the_same_placeholders() -> None:
    spanish, english = catalog("es"), catalog("en")
    assert set(spanish) == set(english)
    for msgid, translated in spanish.items():
        assert translated, f"no Spanish for {msgid!r}"
        # A plural message (a tuple: singular and plural) keeps its placeholders in each form.
        wanted = set(
            re.findall(r"{(\w+)}", " ".join(msgid if isinstance(msgid, tuple) else [msgid]))
        )
        for form in translated if isinstance(translated, tuple) else [translated]:
            assert form and set(re.findall(r"{(\w+)}", form)) == wanted, msgid


def test_command_and_option_names_are_valid_discord_names_in_both_languages() -> None:
    spanish = catalog("es")
    english = catalog("en")
    folder = Path(__file__).resolve().parent.parent / "bot" / "discord"
    source = "".join((folder / name).read_text() for name in ("cog.py", "config.py"))
    names = re.findall(r'command_name\("([^"]+)", "([^"]+)"\)', source)
    assert len(names) > 20
    for default, msgid in names:
        for value in (default, spanish[msgid], english[msgid]):
            assert re.fullmatch(r"[a-zñ0-9_-]{1,32}", value), value
        assert spanish[msgid] == default  # the Spanish name is the command's identity


def test_a_missing_language_falls_back_to_spanish() -> None:
    assert texts("pt")("My tiles") == "Mis fichas"
    assert texts("en")("My tiles") == "My tiles"


async def test_synced_commands_carry_their_english_localizations(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.add_guild("Club")
    harness = await Harness(fake, memory_storage).start()
    try:
        domino = next(c for c in fake.commands[None] if c["name"] == "domino")
        jugar = next(o for o in domino["options"] if o["name"] == "jugar")
        assert jugar["name_localizations"]["en-US"] == "play"
        assert jugar["description"] == "Sentarte a una mesa ya"
        assert jugar["description_localizations"]["en-US"] == "Sit at a table now"
        mesa = next(o for o in domino["options"] if o["name"] == "mesa")
        across = next(o for o in mesa["options"] if o["name"] == "enfrente")
        assert across["name_localizations"]["en-GB"] == "across"
        level = next(o for o in mesa["options"] if o["name"] == "nivel")
        beginner = next(c for c in level["choices"] if c["value"] == "novato")
        assert beginner["name"] == "Novato"
        assert beginner["name_localizations"]["en-US"] == "Beginner"
    finally:
        await harness.stop()


async def test_a_label_only_in_the_core_catalog_is_translated_from_there() -> None:
    # Robot levels live once, in bot.present (the ``core`` catalog), not in ``discord``.
    assert "Expert" not in catalog("es")
    name = text("Expert")
    assert name.message == "Experto"
    where = context(app_commands.TranslationContextLocation.choice_name)
    translator = DominoTranslator()
    assert await translator.translate(name, discord.Locale.spain_spanish, where) == "Experto"
    assert await translator.translate(name, discord.Locale.american_english, where) == "Expert"
