"""A chat's own life on its platform (issue 20 and 27): the chat given a new id, the
chat the bot can no longer use. Both are chores (:class:`~bot.core.commands.Chore`) the
front ends send when their platform tells them."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from bot.core.commands import ChatRef, ChatUnreachable, MoveChat
from bot.core.settlement import Settlement
from bot.core.state import Core
from bot.core.vocabulary import CloseReason

__all__ = ["ChatLife"]

log = logging.getLogger("bot.core")


class ChatLife:
    """Follows a chat that moved, closes the tables of one that became unreachable."""

    def __init__(self, core: Core, settlement: Settlement) -> None:
        self._core = core
        self._settlement = settlement

    async def move(self, chore: MoveChat) -> list[str]:
        """Follow a chat that the platform gave a new id (a Telegram group upgraded to a
        supergroup): its live tables, its closed ones (for a rematch), its rules, history
        and rankings move to ``new_chat_id``, tables and storage in one transaction.

        Moving again (the platform tells twice) finds nothing left and changes nothing.

        Returns:
            The ids of the live tables moved.

        Raises:
            ValueError: an empty id, or the same id twice; nothing moves.
        """
        platform, old_chat_id, new_chat_id = chore.platform, chore.old_chat_id, chore.new_chat_id
        if not old_chat_id or not new_chat_id or old_chat_id == new_chat_id:
            raise ValueError(f"cannot move chat {old_chat_id!r} to {new_chat_id!r}")
        core = self._core
        old = ChatRef(platform, old_chat_id)
        async with core.lobby, contextlib.AsyncExitStack() as held:
            moving = sorted(
                (t for t in core.tables.values() if not t.closed and t.chat.key == old.key),
                key=lambda t: t.id,
            )
            for table in moving:  # always in the same order: no two moves wait on each other
                await held.enter_async_context(table.lock)
            moving = [t for t in moving if not t.closed]
            before = {t.id: (t.chat, t.saved_at) for t in moving}
            now = core.clock.now()
            for table in moving:
                table.chat = replace(table.chat, chat_id=new_chat_id)
                table.saved_at = now
            try:
                snapshots = {t.id: t.snapshot() for t in moving}
                new = replace(old, chat_id=new_chat_id)
                await core.storage.move_chat(old.key, new.key, tables=snapshots, now=now)
            except BaseException:  # nothing moved in storage: nothing moves here either
                for table in moving:
                    table.chat, table.saved_at = before[table.id]
                raise
            for ended in core.ended.values():
                if ended.chat.key == old.key:
                    ended.chat = replace(ended.chat, chat_id=new_chat_id)
        if moving:
            log.info(
                "%s chat %s became %s: tables %s moved",
                platform,
                old_chat_id,
                new_chat_id,
                ", ".join(t.id for t in moving),
            )
        return [t.id for t in moving]

    async def unreachable(self, chore: ChatUnreachable) -> list[str]:
        """The bot can no longer use a chat (removed from it, the channel deleted, rights
        lost): close its live tables, refunding every held stake (nobody abandoned).

        ``chore.channel_id``: only the tables whose board is in this channel or thread;
        None: every table of the chat.

        Returns:
            The ids of the tables closed now (each with ``TableClosed`` reason
            ``unreachable``, carrying its humans so a front end can tell them privately);
            empty when there were none, e.g. on a repeated call.
        """
        core = self._core
        platform, chat_id, channel_id = chore.platform, chore.chat_id, chore.channel_id
        closed: list[str] = []
        async with core.lobby:
            for table in list(core.tables.values()):
                chat = table.chat
                if chat.platform != platform or chat.chat_id != chat_id:
                    continue
                if channel_id is not None and channel_id not in (chat.channel_id, chat.thread_id):
                    continue
                async with table.lock:
                    if table.closed:
                        continue
                    await self._settlement.close(table, CloseReason.UNREACHABLE)
                closed.append(table.id)
        if closed:
            log.warning(
                "%s chat %s%s unreachable: closed %s, stakes refunded",
                platform,
                chat_id,
                f" channel {channel_id}" if channel_id else "",
                ", ".join(closed),
            )
        return closed
