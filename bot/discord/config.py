"""``/domino-config``: the server's rules, for members who may manage the server.

A separate top-level command (not a ``/domino`` subcommand) because Discord applies
``default_member_permissions`` (here Manage Server) to a whole top-level command, never
to one subcommand of a group. The permission is checked again when it runs. Only what
the admin typed is sent; the core merges it (a given preset starts again from that
preset, no preset changes the server's current options).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import CloseTable, Manager, SetChatRules
from bot.discord.cog import preset_choices
from bot.discord.i18n import command_name, option_name, player_language, text, texts
from bot.discord.messages import close_not_admin_text, not_admin_text
from bot.discord.replies import Replies, chat_of, player_of
from bot.present.labels import LANGUAGE_LABELS, VALUE_LABELS, rules_text
from bot.present.replies import confirmation
from bot.present.standings import PERIOD_LABELS, PERIOD_WORDS, period_from_input
from engine.rules import MAX_TURN_SECONDS, OPTION_VALUES, OptionValue

__all__ = ["ConfigCog"]


def _int_choices(option: str) -> list[app_commands.Choice[int]]:
    return [
        app_commands.Choice(name=v.strip(), value=int(v)) for v in OPTION_VALUES[option].split(",")
    ]


def _word_choices(option: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(VALUE_LABELS.get(v.strip(), "never")), value=v.strip())
        for v in OPTION_VALUES[option].split(",")
    ]


def _season_choices() -> list[app_commands.Choice[str]]:
    """The season lengths; the value is the word admins type on every platform."""
    spanish = {period: word for word, period in reversed(PERIOD_WORDS.items())}
    return [
        app_commands.Choice(name=text(label), value=spanish[period])
        for period, label in PERIOD_LABELS.items()
    ]


def _language_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_LABELS.items()]


class ConfigCog(commands.Cog):
    """``/domino-config``.

    Args:
        manager: the table manager (merges and keeps the rules).
        replies: the shared answers.
    """

    def __init__(self, manager: Manager, replies: Replies) -> None:
        self.manager = manager
        self.replies = replies

    @app_commands.command(
        name=command_name("domino-config", "domino-config"),
        description=text("Choose this server's rules (Manage Server)"),
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        preset=option_name("preset"),
        target=option_name("target"),
        counting=option_name("counting"),
        first_starter=option_name("first_starter"),
        next_starter=option_name("next_starter"),
        blocked_winner=option_name("blocked_winner"),
        redeal_doubles=option_name("redeal_doubles"),
        capicua_bonus=option_name("capicua_bonus"),
        turn_seconds=option_name("turn_seconds"),
        forced_move_seconds=option_name("forced_move_seconds"),
        stake=option_name("stake"),
        language=option_name("language"),
        season=command_name("temporada", "season"),
    )
    @app_commands.describe(
        preset=text("Rule preset"),
        target=text("Points to win the match"),
        counting=text("Whose pips a domino counts"),
        first_starter=text("Who opens the first hand"),
        next_starter=text("Who opens the later hands"),
        blocked_winner=text("Who wins a blocked game"),
        redeal_doubles=text("Redeal when a seat gets this many doubles"),
        capicua_bonus=text("Points added to a capicúa"),
        turn_seconds=text("Seconds per turn"),
        forced_move_seconds=text("Seconds before a single legal move is played"),
        stake=text("Dollars each player stakes"),
        language=text("The language of the server's messages"),
        season=text("How long a season of this server's standings lasts"),
    )
    @app_commands.choices(  # type: ignore[misc]
        preset=preset_choices(),
        target=_int_choices("target"),
        counting=_word_choices("counting"),
        first_starter=_word_choices("first_starter"),
        next_starter=_word_choices("next_starter"),
        blocked_winner=_word_choices("blocked_winner"),
        redeal_doubles=_word_choices("redeal_doubles"),
        capicua_bonus=_int_choices("capicua_bonus"),
        language=_language_choices(),
        season=_season_choices(),
    )
    async def domino_config(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        target: int | None = None,
        counting: str | None = None,
        first_starter: str | None = None,
        next_starter: str | None = None,
        blocked_winner: str | None = None,
        redeal_doubles: str | None = None,
        capicua_bonus: int | None = None,
        turn_seconds: app_commands.Range[int, 10, MAX_TURN_SECONDS] | None = None,
        forced_move_seconds: app_commands.Range[int, -1, 10] | None = None,
        stake: app_commands.Range[int, 0, 1000] | None = None,
        language: str | None = None,
        season: str | None = None,
    ) -> None:
        overrides: dict[str, OptionValue] = {
            name: value
            for name, value in {
                "target": target,
                "counting": counting,
                "first_starter": first_starter,
                "next_starter": next_starter,
                "blocked_winner": blocked_winner,
                "redeal_doubles": redeal_doubles,
                "capicua_bonus": capicua_bonus,
                "turn_seconds": turn_seconds,
                "stake": stake,
            }.items()
            if value is not None
        }
        if redeal_doubles is not None and redeal_doubles != "none":
            overrides["redeal_doubles"] = int(redeal_doubles)
        if forced_move_seconds is not None:
            # -1 switches the forced move off (a slash command option cannot be "none").
            overrides["forced_move_seconds"] = (
                None if forced_move_seconds < 0 else forced_move_seconds
            )
        await self.configure(interaction, preset, overrides, language, season)

    async def configure(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None,
        overrides: dict[str, OptionValue],
        language: str | None = None,
        season: str | None = None,
    ) -> None:
        """Only members who may manage the server (checked again here, whatever
        Discord's command permissions say). The season length is the server's standings
        (``manager.set_season_period``), kept apart from its rules."""
        lang = player_language(interaction)
        chat = chat_of(interaction)
        is_admin = bool(interaction.permissions.manage_guild)
        if chat is None or not is_admin:
            # Refused at once: nothing to wait for, nothing written.
            await self.replies.answer(interaction, not_admin_text(lang))
            return
        await self.replies.defer_ephemeral(interaction)
        player = player_of(interaction)
        _ = texts(lang)
        period = period_from_input(season) if season is not None else None
        season_line = ""
        if period is not None:
            await self.manager.set_season_period(chat, period, player)
            season_line = _(
                "Each season in this server is now {period}.", period=_(PERIOD_LABELS[period])
            )
            if preset is None and not overrides and language is None:
                await self.replies.answer(interaction, season_line)
                return
        command = SetChatRules(
            player, chat, preset=preset, overrides=overrides, is_admin=True, language=language
        )
        reply = await self.replies.ask(command)
        if not reply.ok:
            await self.replies.refuse(interaction, reply)
            return
        if preset is None and not overrides:  # the language alone: the channel is told
            await self.replies.answer(interaction, season_line or _("Done."))
            return
        info = await self.manager.chat_rules(chat)
        changed = confirmation(SetChatRules, reply, lang) or texts(lang)(
            "Rules changed. New tables use them."
        )
        listed = rules_text(info.rules, info.preset, info.overrides, lang)
        lines = [changed, listed] + ([season_line] if season_line else [])
        await self.replies.answer(interaction, "\n".join(lines))

    @app_commands.command(
        name=command_name("domino-cerrar", "domino-close"),
        description=text("Close a stuck table in this server now; stakes are refunded"),
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(table=command_name("mesa", "table"))
    @app_commands.describe(table=text("The table's number (the one in this channel if omitted)"))
    async def domino_close(
        self, interaction: discord.Interaction[Any], table: app_commands.Range[int, 1] | None = None
    ) -> None:
        """Only members who may manage the server; the board announces the close."""
        lang = player_language(interaction)
        chat = chat_of(interaction)
        if chat is None or not interaction.permissions.manage_guild:
            await self.replies.answer(interaction, close_not_admin_text(lang))
            return
        await self.replies.defer_ephemeral(interaction)
        command = CloseTable(
            player_of(interaction),
            chat,
            label=None if table is None else str(table),
            is_admin=True,
        )
        reply = await self.replies.ask(command)
        if not reply.ok:
            await self.replies.refuse(interaction, reply)
            return
        await self.replies.answer(interaction, confirmation(CloseTable, reply, lang))
