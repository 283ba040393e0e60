"""A group's own life: the bot added to it or removed, and its upgrade to a supergroup.

* **Added to a group**: the bot greets it once with how to start.
* **Removed** (left or kicked, ``my_chat_member``; or a request answered 403 "bot was
  kicked", see :meth:`bot.telegram.shared.Shared.lost`): the group's tables close once,
  every stake refunded (``Manager.chat_unreachable``), and the players are told privately
  (:mod:`bot.telegram.port`).

* **Upgrade to a supergroup**: Telegram gives the group a new id and says so twice (a
  ``migrate_to_chat_id`` message in the old group, a ``migrate_from_chat_id`` one in the
  new supergroup), and answers any later request to the old id with ``ChatMigrated``.
  Whichever comes first, the chat is followed once: the core moves its tables, rules,
  history and rankings (``Manager.move_chat``) and each board is posted again in the
  supergroup (the old group's messages can no longer be edited).
"""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

import bot.core as p
from bot.telegram.drawing import Drawing
from bot.telegram.shared import PLATFORM, Shared

__all__ = ["Chats"]

log = logging.getLogger(__name__)


class Chats:
    """Handles the updates about a group itself (PTB handlers :meth:`on_migrate`,
    :meth:`on_my_member`)."""

    def __init__(self, shared: Shared, drawing: Drawing) -> None:
        self.s = shared
        self.drawing = drawing
        shared.on_migrated = self.follow

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (either of the two notices Telegram sends)."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id is not None:
            await self.follow(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id is not None:
            if message.chat.title:
                self.s.titles[message.chat.id] = message.chat.title
            await self.follow(message.migrate_from_chat_id, message.chat.id)

    async def on_my_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot's own membership of a group changed: added (greet) or removed (close)."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return  # a private chat blocked or unblocked: hands handle that
        s, chat = self.s, change.chat
        if chat.title:
            s.titles[chat.id] = chat.title
        was = change.old_chat_member.status
        now = change.new_chat_member.status
        outside = (ChatMember.LEFT, ChatMember.BANNED)
        if now in outside:
            if chat.id in s.migrated:
                return  # the old group of a supergroup the tables followed
            await s.lose(chat.id)
        elif was in outside:
            s.gone.discard(chat.id)
            if chat.id in s.migrated.values():
                return  # the same group, upgraded: it knows the bot already
            _ = s.t(s.language)
            s.group_text(
                p.ChatRef(PLATFORM, str(chat.id), language=s.language),
                _(
                    "Hello! I host dominoes for four, in partnerships. Send /jugar to sit at "
                    "a table: robots fill the empty seats, and your tiles come to a private "
                    "chat with me. /ayuda explains the rest."
                ),
            )

    async def follow(self, old: int, new: int) -> None:
        """Follow group ``old``, now supergroup ``new``: its tables, rules and history
        move (once; being told again changes nothing) and its boards are posted anew."""
        s = self.s
        s.migrated[old] = new
        title = s.titles.get(old)
        if title is not None:
            s.titles.setdefault(new, title)
        try:
            moved = await s.manager.move_chat(PLATFORM, str(old), str(new))
        except Exception:  # the next request to the old id tells again: it is retried then
            log.warning("could not move chat %s to %s", old, new, exc_info=True)
            return
        for table_id, board in list(s.boards.items()):
            if board.chat_id == old:
                board.chat_id = new
                board.message_id = None  # the old group's messages cannot be edited
                board.picture = None
                self.drawing.board(table_id)
        if moved:
            log.info("group %s became supergroup %s; tables %s follow it", old, new, moved)
