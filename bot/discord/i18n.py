"""Languages on Discord: locales to catalog languages, and the slash-command translator.

Slash commands have Spanish names in code (``/domino jugar``: that is what Discord routes
by) and carry an English message id in the ``discord`` catalog (``bot/locales/<lang>/
LC_MESSAGES/discord.po``); :class:`DominoTranslator` gives Discord the English names and
descriptions for its English locales and the Spanish ones for its Spanish locales. Labels
:mod:`bot.present` already has (robot levels, rule values) are not copied into the
``discord`` catalog: a message id missing there is read from ``core``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.present.i18n import Translator, language_of, translator
from bot.present.labels import option_word

__all__ = [
    "DOMAIN",
    "GROUP",
    "HELP",
    "DominoTranslator",
    "chat_language",
    "command_name",
    "help_command",
    "option_name",
    "player_language",
    "text",
    "texts",
]

DOMAIN = "discord"

GROUP = ("domino", "domino")
"""The slash command group: (Spanish name, message id), as :func:`command_name` takes."""

HELP = ("ayuda", "help")
"""The help subcommand: (Spanish name, message id)."""

_ES = translator("es", DOMAIN, "core")


def texts(language: str | None) -> Translator:
    """The ``discord`` catalog's ``_(msgid, **params)`` for ``language`` ("es"/"en").

    A message id not in the ``discord`` catalog is looked up in ``core`` (the shared
    phrases and labels of :mod:`bot.present`, e.g. the robot levels and rule values named
    in slash-command choices), so a shared label has one home.
    """
    return translator(language, DOMAIN, "core")


def text(msgid: str) -> app_commands.locale_str:
    """A description or choice label: Spanish by default, localized by message id."""
    return app_commands.locale_str(_ES(msgid), msgid=msgid)


def command_name(spanish: str, msgid: str) -> app_commands.locale_str:
    """A command, option or choice name: ``spanish`` is its identity on Discord (what an
    interaction carries whatever the member's language); ``msgid`` names it elsewhere."""
    return app_commands.locale_str(spanish, msgid=msgid)


def option_name(option: str) -> app_commands.locale_str:
    """A rule option's name as a slash command parameter: the word players type for it
    (:data:`bot.present.labels.OPTION_WORDS`, the one home of those words; Spanish is
    its identity on Discord, English members see theirs)."""
    return app_commands.locale_str(option_word(option, "es"), option=option)


def help_command(language: str | None) -> str:
    """The help command as a member reading ``language`` sees it in Discord's menu:
    ``/domino ayuda`` (Spanish), ``/domino help`` (English)."""
    _ = texts(language)
    return f"/{_(GROUP[1])} {_(HELP[1])}"


def player_language(interaction: discord.Interaction[Any]) -> str:
    """The member's language ("es" unless their Discord client speaks English)."""
    return language_of(str(interaction.locale.value) if interaction.locale else None)


def chat_language(interaction: discord.Interaction[Any]) -> str:
    """The server's language (its preferred locale), Spanish when unknown."""
    locale = interaction.guild_locale
    return language_of(str(locale.value) if locale else None)


class DominoTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands in Discord's es/en locales.

    Discord shows a localized name to members whose client uses that locale; every other
    locale sees the Spanish default.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        option = string.extras.get("option")
        msgid = string.extras.get("msgid")
        code = str(locale.value).lower()
        if not (code.startswith("en") or code.startswith("es")):
            return None
        if option is not None:
            translated = option_word(option, language_of(code))
        elif msgid is None:
            return None
        else:
            translated = texts(code)(msgid)
        if context.location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ):
            # Discord rejects names that are not lower case without spaces.
            translated = translated.strip().lower().replace(" ", "-")
        return translated
