"""Button presses: answered at once, then handed to the manager as they came.

:class:`Presses` is what :func:`bot.discord.buttons.press_item` binds the persistent
button item to, and what the bot calls for a press of a button no longer on its message.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core import ForgedPress, PressButton, RefusalReason, decode_press
from bot.discord.buttons import custom_ids
from bot.discord.i18n import player_language
from bot.discord.replies import Replies, chat_of, player_of
from bot.present.i18n import refusal_text

__all__ = ["Presses"]

_SEATING_KINDS = {"sit", "again"}


class Presses:
    """Every button press of one bot, through ``replies`` (its manager and port)."""

    def __init__(self, replies: Replies) -> None:
        self.replies = replies
        self.port = replies.port

    async def on_press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        """A button: answered at once, then handed to the manager as it came."""
        replies = self.replies
        try:
            press = decode_press(payload)
        except ForgedPress:
            await self.refuse_unknown(interaction)
            return
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        user_id = str(interaction.user.id)
        if press.kind == "tiles":
            await replies.defer_ephemeral(interaction)
        elif (
            press.kind == "move"
            and message is not None
            and (ephemeral or interaction.guild_id is None)
            and payload in custom_ids(message)
        ):
            # Acknowledge by taking the buttons off the tiles message at once: no second
            # press of it, and no later edit needed; the next turn brings new buttons.
            # Only a move button really on a tiles message (a DM or an ephemeral
            # answer) does so: a forged one pressed on the board must leave it as it is.
            await interaction.response.edit_message(view=None)
            self.port.desk.buttons_removed(press.table_id, user_id, message.id)
        else:
            await interaction.response.defer()  # a silent "got it"; the board shows the rest
        chat = chat_of(interaction)
        if (
            message is not None
            and message.embeds  # a board (a ping or a result is no board to adopt)
            and chat is not None
            and not ephemeral
            and press.kind != "again"
        ):
            self.port.adopt_board(press.table_id, chat, message.id)
        if press.kind == "move" and ephemeral and user_id in self.port.dms_closed:
            self.port.desk.remember_ephemeral(press.table_id, user_id, interaction)
        reply = await replies.ask(PressButton(player_of(interaction), payload, chat))
        if press.kind == "tiles":
            await replies.show_tiles(interaction, reply)
        elif press.kind in _SEATING_KINDS and chat is not None:
            await replies.after_seating(interaction, reply)
        elif not reply.ok:
            await replies.refuse(interaction, reply)
        else:
            await replies.confirm(interaction, press.kind, reply)

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """A component whose custom id this bot did not make: refused ephemerally,
        nothing changes."""
        language = player_language(interaction)
        await self.replies.answer(interaction, refusal_text(RefusalReason.FORGED, {}, language))
