"""``/domino-moderar``: a server's reports, bans and flags for its admins (issue 33;
docs/moderation.md), and the "Descartar" and "Vetar" buttons under a report.

Members who may manage the server list the open reports with the analysis of the
reported player's moves, the chip-dumping flags, who is banned and the last actions
(``ver``), dismiss a report (``descartar``), ban a member from the server's tables
(``vetar``) or lift a ban (``perdonar``), and choose the channel reports are posted in
(``canal``; without one they come to the admins by direct message). Checked when the
command runs, as ``/domino-torneo`` does. Muting and reporting are ``/domino silenciar``
and ``/domino reportar`` (:mod:`bot.discord.cog`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import (
    BanPlayer,
    ChatRef,
    DismissReport,
    Manager,
    ModerationAction,
    ModerationPress,
    SetReportChannel,
    UnbanPlayer,
)
from bot.discord.i18n import command_name, player_language, text, texts
from bot.discord.messages import PLATFORM
from bot.discord.replies import Replies, chat_of, member_ref, player_of
from bot.present.live import TableLinks
from bot.present.replies import ModerationCommand, moderation_desk_text

__all__ = ["ModerationCog", "is_server_admin"]

TEXT_LIMIT = 2000
"""Discord's longest message."""


def is_server_admin(client: discord.Client, guild_id: int, user_id: int) -> bool:
    """Whether the user may manage server ``guild_id`` as far as the bot can see it:
    its owner, or a cached member with Manage Server (a report's button is pressed in a
    DM, outside the server)."""
    guild = client.get_guild(guild_id)
    if guild is None:
        return False
    if guild.owner_id == user_id:
        return True
    member = guild.get_member(user_id)
    return member is not None and member.guild_permissions.manage_guild


@app_commands.guild_only()
class ModerationCog(
    commands.GroupCog,
    group_name=command_name("domino-moderar", "domino-moderate"),
    group_description=text("Reports, bans and flags of this server (Manage Server)"),
):
    """The ``/domino-moderar`` commands and the report buttons.

    Args:
        manager: the table manager (its moderation service).
        replies: the shared answers.
        client: the bot, to find a server's owner and admins for a button pressed in a DM.
        links: the web table when it runs (a report's match links its record's page).
    """

    def __init__(
        self,
        manager: Manager,
        replies: Replies,
        client: discord.Client,
        links: TableLinks | None = None,
    ) -> None:
        super().__init__()
        self.manager = manager
        self.replies = replies
        self.client = client
        self.links = links

    async def _admin_chat(self, interaction: discord.Interaction[Any]) -> ChatRef | None:
        """The server, when the member may manage it; else they are told and None."""
        await self.replies.defer_ephemeral(interaction)
        chat = chat_of(interaction)
        if chat is not None and interaction.permissions.manage_guild:
            return chat
        language = player_language(interaction)
        await self.replies.answer(
            interaction,
            texts(language)("Only this server's administrators (Manage Server) can moderate."),
        )
        return None

    @app_commands.command(
        name=command_name("ver", "show"),
        description=text("Open reports, flags, bans and the last actions"),
    )
    async def ver(self, interaction: discord.Interaction[Any]) -> None:
        chat = await self._admin_chat(interaction)
        if chat is None:
            return
        desk = await self.manager.moderation_desk(chat)
        record_url = self.links.record_url if self.links is not None else None
        text_ = moderation_desk_text(desk, player_language(interaction), record_url)
        await self.replies.answer(interaction, text_[:TEXT_LIMIT])

    @app_commands.command(
        name=command_name("descartar", "dismiss"), description=text("Dismiss a report")
    )
    @app_commands.rename(numero=command_name("numero", "number"))
    @app_commands.describe(numero=text("The report's number"))
    async def descartar(
        self, interaction: discord.Interaction[Any], numero: app_commands.Range[int, 1]
    ) -> None:
        chat = await self._admin_chat(interaction)
        if chat is not None:
            command = DismissReport(player_of(interaction), chat, numero, is_admin=True)
            await self.replies.moderate(interaction, command)

    @app_commands.command(
        name=command_name("vetar", "ban"),
        description=text("Ban a member from this server's tables"),
    )
    @app_commands.rename(
        member=command_name("miembro", "member"), numero=command_name("numero", "number")
    )
    @app_commands.describe(member=text("The member to ban"), numero=text("Or the report's number"))
    async def vetar(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        numero: app_commands.Range[int, 1] | None = None,
    ) -> None:
        chat = await self._admin_chat(interaction)
        if chat is None:
            return
        target = member_ref(member, chat.language) if member is not None else None
        command = BanPlayer(player_of(interaction), chat, target, is_admin=True, report_id=numero)
        await self.replies.moderate(interaction, command)

    @app_commands.command(
        name=command_name("perdonar", "unban"),
        description=text("Lift a member's ban from this server's tables"),
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member to let play again"))
    async def perdonar(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        chat = await self._admin_chat(interaction)
        if chat is not None:
            target = member_ref(member, chat.language)
            await self.replies.moderate(
                interaction, UnbanPlayer(player_of(interaction), chat, target, True)
            )

    @app_commands.command(
        name=command_name("canal", "channel"),
        description=text("Post the reports in this channel (or stop: by direct message)"),
    )
    @app_commands.rename(quitar=command_name("quitar", "stop"))
    @app_commands.describe(quitar=text("Send the reports by direct message again"))
    async def canal(self, interaction: discord.Interaction[Any], quitar: bool = False) -> None:
        chat = await self._admin_chat(interaction)
        if chat is None:
            return
        channel = None if quitar else chat.channel_id
        command = SetReportChannel(player_of(interaction), chat, channel, is_admin=True)
        await self.replies.moderate(interaction, command)

    async def on_press(self, interaction: discord.Interaction[Any], press: ModerationPress) -> None:
        """A report's button, in the reports' channel or an admin's DM: the presser must
        manage the report's server (its id is in the payload, untrusted); the core refuses
        a closed report."""
        await self.replies.defer_ephemeral(interaction)
        language = player_language(interaction)
        guild_id = int(press.chat_id)
        here = interaction.guild_id == guild_id and interaction.permissions.manage_guild
        if not (here or is_server_admin(self.client, guild_id, interaction.user.id)):
            await self.replies.answer(
                interaction,
                texts(language)("Only this server's administrators (Manage Server) can moderate."),
            )
            return
        player = player_of(interaction)
        chat = ChatRef(PLATFORM, press.chat_id)
        command: ModerationCommand
        if press.action is ModerationAction.DISMISS:
            command = DismissReport(player, chat, press.report_id, is_admin=True)
        else:
            command = BanPlayer(player, chat, None, is_admin=True, report_id=press.report_id)
        await self.replies.moderate(interaction, command)
