"""What the front ends keep through the core: a note with a live table (e.g. where
Telegram shows the table's board), a player's turn notifications and platform username
(issue 27). The
writes are chores (:class:`~bot.core.commands.Chore`); reading them back is a query of
:mod:`bot.core.views`."""

from __future__ import annotations

import json

from bot.core.commands import NoteUsername, SetFrontEndNote, SetTurnNotifications
from bot.core.state import Core

__all__ = ["Notes"]


class Notes:
    """Keeps the front ends' notes, the players' turn notifications and usernames."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def set_front_end_note(self, chore: SetFrontEndNote) -> bool:
        """Keep ``value`` with live table ``table_id`` under ``key``, for a front end.

        Notes are the front ends' own (the core never reads them; e.g. Telegram keeps
        where the table's board message is): platform-neutral, saved in the table's
        snapshot at once, so they survive a restart, and gone with the table. Use
        platform-prefixed keys (``"telegram.board"``). Setting the value a note already
        has writes nothing; ``None`` removes the note.

        Returns:
            False when there is no such live table (nothing kept), else True.

        Raises:
            TypeError: ``value`` is not JSON; nothing is kept.
        """
        try:
            kept = json.loads(json.dumps(chore.value, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"a front-end note must be a JSON value: {exc}") from None
        core, key = self._core, chore.key
        table = core.tables.get(chore.table_id)
        if table is None or table.closed:
            return False
        async with table.lock:
            if table.closed:
                return False
            if table.notes.get(key) == kept:
                return True
            if kept is None:
                table.notes.pop(key, None)
            else:
                table.notes[key] = kept
            if not core.stopped:
                await core.save(table)
        return True

    async def set_turn_notifications(self, chore: SetTurnNotifications) -> None:
        """Set ``player``'s turn notifications.

        Raises:
            ValueError: not one of ``storage.base.NOTIFICATIONS``.
        """
        core = self._core
        await core.storage.set_player_notifications(
            await core.player_id(chore.player), chore.notifications
        )

    async def note_username(self, chore: NoteUsername) -> bool:
        """Remember ``player``'s platform username (Telegram's ``@name``) if they are a
        player already (nobody's account is opened for it); False when they are not."""
        player = chore.player
        return await self._core.storage.set_username(
            player.platform, player.user_id, chore.username
        )
