"""Answering an interaction: who and where it comes from, ephemeral answers, refusals,
and what follows a seat or a tiles request (shared by the commands and the presses).

Every handler answers (or defers) the interaction first, before any storage, manager or
drawing work, so Discord's 3 seconds are never at risk; refusals are ephemeral and change
nothing. No rule, score or money is decided here: the manager decides and phrases.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord

from bot.core import ChatRef, Command, Manager, PlayerRef, PressKind, Reply, YourTiles
from bot.discord.buttons import tiles_view
from bot.discord.i18n import chat_language, player_language, texts
from bot.discord.messages import PLATFORM, place_name, refusal_content
from bot.discord.port import DiscordPort
from bot.discord.tiles import DM_CLOSED
from bot.present.replies import (
    ModerationCommand,
    confirmation,
    moderation_done,
    seated_text,
)

__all__ = ["PLATFORM", "Replies", "chat_of", "player_of"]

log = logging.getLogger(__name__)


def player_of(interaction: discord.Interaction[Any]) -> PlayerRef:
    """The member as the manager knows players."""
    user = interaction.user
    return PlayerRef(PLATFORM, str(user.id), user.display_name, player_language(interaction))


def member_ref(member: discord.abc.User, language: str | None = None) -> PlayerRef:
    """Another member (a command's target) as the manager knows players; ``language``:
    the one they are addressed in (None: ``PlayerRef``'s default; the core reads a
    friend's stored one)."""
    ref = PlayerRef(PLATFORM, str(member.id), member.display_name)
    return ref if language is None else dataclasses.replace(ref, language=language)


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef | None:
    """The server and channel (None in a DM)."""
    if interaction.guild_id is None:
        return None
    channel_id = interaction.channel_id
    return ChatRef(
        PLATFORM,
        str(interaction.guild_id),
        channel_id=str(channel_id) if channel_id is not None else None,
        language=chat_language(interaction),
    )


class Replies:
    """The answers every handler shares.

    Args:
        manager: the table manager.
        port: the Discord port (DM state, tiles messages, board labels).
    """

    def __init__(self, manager: Manager, port: DiscordPort) -> None:
        self.manager = manager
        self.port = port

    async def ask(self, command: Command) -> Reply:
        return await self.manager.handle(command)

    async def begin(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[PlayerRef, ChatRef] | None:
        """Defer ephemerally and return who and where; outside a server, say so and
        return None (the preamble of every server command)."""
        await self.defer_ephemeral(interaction)
        chat = chat_of(interaction)
        if chat is None:
            await self.answer(
                interaction, texts(player_language(interaction))("Use this in a server.")
            )
            return None
        return player_of(interaction), chat

    async def refuse(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """Tell the actor, ephemerally, why nothing happened."""
        refusal = reply.refusal
        assert refusal is not None
        await self.answer(interaction, refusal_content(refusal, player_language(interaction)))

    async def answer(
        self, interaction: discord.Interaction[Any], content: str, **kwargs: Any
    ) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)

    async def confirm(
        self, interaction: discord.Interaction[Any], done: type[Command] | PressKind, reply: Reply
    ) -> None:
        """The accepted command's sentence, ephemerally (nothing when nothing needs
        saying)."""
        language = player_language(interaction)
        content = confirmation(done, reply, language)
        if content:
            await self.answer(interaction, content)

    async def moderate(
        self, interaction: discord.Interaction[Any], command: ModerationCommand
    ) -> None:
        """Apply a mute, a report or an admin's action: its refusal, or its sentence
        (issue 33), ephemerally."""
        reply = await self.ask(command)
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        await self.answer(interaction, moderation_done(command, player_language(interaction)))

    async def defer_ephemeral(self, interaction: discord.Interaction[Any]) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def after_seating(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """The seat taken (or why not), and whether the tiles can come by DM."""
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        _ = texts(player_language(interaction))
        table_id = reply.table_id or ""
        state = self.manager.table_state(table_id) if table_id else None
        label = state.label if state is not None else self.port.label_of(table_id)
        lines = [seated_text(reply, player_language(interaction))]
        view: discord.ui.View | None = None
        if await self.can_dm(interaction, label, table_id):
            lines.append(_("Your tiles will come by direct message."))
        else:
            lines.append(
                _(
                    "I cannot send you direct messages (they are closed for this server). "
                    "Use the button below, or the board's “My tiles”, to see your tiles here."
                )
            )
            if table_id:
                view = tiles_view(table_id, player_language(interaction))
        await self.answer(interaction, "\n".join(lines), **({"view": view} if view else {}))

    async def can_dm(
        self, interaction: discord.Interaction[Any], label: str, table_id: str = ""
    ) -> bool:
        """Whether the member accepts DMs from the bot (a short DM is the test; it
        becomes their first tiles of ``table_id``, edited in place)."""
        user_id = str(interaction.user.id)
        _ = texts(player_language(interaction))
        chat = chat_of(interaction)
        place = place_name(self.port.client, chat) if chat is not None else ""
        try:
            sent = await interaction.user.send(
                _(
                    "You sit at table {label} ({place}). Your tiles will come here.",
                    label=label,
                    place=place,
                )
            )
        except discord.Forbidden as exc:
            # 50007 is the usual answer (DMs closed); any refusal means the same here.
            if exc.code != DM_CLOSED:
                log.info("DM to %s refused with code %s", user_id, exc.code)
            self.port.dms_closed.add(user_id)
            return False
        self.port.dms_closed.discard(user_id)
        if table_id:
            self.port.desk.seated(table_id, user_id, sent)
        return True

    async def show_tiles(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """The member's tiles and move buttons, in the (deferred) ephemeral answer."""
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        tiles = next((e for e in reply.events if isinstance(e, YourTiles)), None)
        if tiles is None:
            await self.answer(interaction, texts(player_language(interaction))("Done."))
            return
        content, file, view = await self.port.desk.tiles_message(tiles)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
        self.port.desk.remember_ephemeral(tiles.table_id, tiles.to.user_id, interaction)
