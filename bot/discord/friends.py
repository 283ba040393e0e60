"""``/domino-amigo``: friends (issue 33; docs/friends.md).

Members send a friend request (``agregar``), answer one (``aceptar``, ``rechazar``, or
the buttons of the DM that brings it), end a friendship (``quitar``), keep a friend a
seat at their waiting table (``invitar``: the friend's DM carries a button that seats
them) and list their friends with where each plays now (``lista``). Every answer is
ephemeral. A member the bot knows cannot receive its DMs is not sent a request or an
invitation (they would never see its buttons). The core decides everything else; what
the DMs say comes from :func:`bot.present.screens.screens` through the port.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import (
    AnswerFriend,
    AskFriend,
    Command,
    FriendPress,
    InviteFriend,
    Manager,
    RemoveFriend,
)
from bot.discord.i18n import command_name, player_language, text, texts
from bot.discord.messages import PLATFORM, place_name
from bot.discord.replies import Replies, chat_of, member_ref, player_of
from bot.present.replies import friend_done_text
from bot.present.screens import friends_text

__all__ = ["FriendCog"]

log = logging.getLogger(__name__)


class FriendCog(
    commands.GroupCog,
    group_name=command_name("domino-amigo", "domino-friend"),
    group_description=text("Friends: add, accept, remove, invite, list"),
):
    """The ``/domino-amigo`` commands and the friends buttons.

    Args:
        manager: the table manager (its friends service).
        replies: the shared answers (and the port's DM state).
    """

    def __init__(self, manager: Manager, replies: Replies) -> None:
        super().__init__()
        self.manager = manager
        self.replies = replies

    async def _send(
        self,
        interaction: discord.Interaction[Any],
        command: Command,
        member: discord.User | discord.Member | None = None,
    ) -> None:
        """Hand ``command`` to the core and answer the member, ephemerally. ``member``:
        the one who will be written to (a request, an invitation), checked first."""
        replies = self.replies
        await replies.defer_ephemeral(interaction)
        language = player_language(interaction)
        _ = texts(language)
        if member is not None and member.bot:
            await replies.answer(interaction, _("Bots cannot be friends: name a member."))
            return
        if (
            member is not None
            and member.id != interaction.user.id
            and str(member.id) in replies.port.dms_closed
        ):
            content = _(
                "I cannot send {name} direct messages (they are closed for this server), so "
                "they would never see it.",
                name=member.display_name,
            )
            await replies.answer(interaction, content)
            return
        reply = await replies.ask(command)
        if not reply.ok:
            await replies.refuse(interaction, reply)
            return
        seconds = self.manager.times.invite_seconds
        content = friend_done_text(type(command), reply, language, invite_seconds=seconds)
        await replies.answer(interaction, content)

    async def on_press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        """A friends button (in a DM): accept, decline, or take an invitation's seat;
        once done, the buttons leave the message so it is not pressed again."""
        replies = self.replies
        await replies.defer_ephemeral(interaction)
        reply = await replies.ask(
            FriendPress(player_of(interaction), payload, chat_of(interaction))
        )
        if not reply.ok:
            await replies.refuse(interaction, reply)
            return
        content = friend_done_text(FriendPress, reply, player_language(interaction))
        await replies.answer(interaction, content)
        message = interaction.message
        if message is not None:
            try:
                await message.edit(view=None)
            except discord.HTTPException:
                log.info("could not take the buttons off a friends DM", exc_info=True)

    @app_commands.command(
        name=command_name("agregar", "add"), description=text("Send a member a friend request")
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member"))
    async def agregar(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member
    ) -> None:
        command = AskFriend(player_of(interaction), member_ref(member), chat_of(interaction))
        await self._send(interaction, command, member)

    @app_commands.command(
        name=command_name("aceptar", "accept"), description=text("Accept a friend request")
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member"))
    async def aceptar(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member
    ) -> None:
        me, chat = player_of(interaction), chat_of(interaction)
        await self._send(interaction, AnswerFriend(me, True, friend=member_ref(member), chat=chat))

    @app_commands.command(
        name=command_name("rechazar", "decline"), description=text("Decline a friend request")
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member"))
    async def rechazar(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member
    ) -> None:
        me, chat = player_of(interaction), chat_of(interaction)
        command = AnswerFriend(me, False, friend=member_ref(member), chat=chat)
        await self._send(interaction, command)

    @app_commands.command(
        name=command_name("quitar", "remove"), description=text("Remove a friend")
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member"))
    async def quitar(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member
    ) -> None:
        command = RemoveFriend(player_of(interaction), member_ref(member), chat_of(interaction))
        await self._send(interaction, command)

    @app_commands.command(
        name=command_name("invitar", "invite"),
        description=text("Keep a friend a seat at your waiting table"),
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member"))
    async def invitar(
        self, interaction: discord.Interaction[Any], member: discord.User | discord.Member
    ) -> None:
        command = InviteFriend(player_of(interaction), member_ref(member), chat_of(interaction))
        await self._send(interaction, command, member)

    @app_commands.command(
        name=command_name("lista", "list"),
        description=text("Your friends and where they play"),
    )
    async def lista(self, interaction: discord.Interaction[Any]) -> None:
        await self.replies.defer_ephemeral(interaction)
        view = await self.manager.friends(player_of(interaction))
        places = {
            friend.table_id: place_name(interaction.client, friend.chat)
            for friend in view.friends
            if friend.chat is not None and friend.chat.platform == PLATFORM and friend.table_id
        }
        language = player_language(interaction)
        _ = texts(language)
        ask = f"`/{_('domino-friend')} {_('add')}`"
        await self.replies.answer(interaction, friends_text(view, places, language, ask=ask))
