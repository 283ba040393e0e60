"""Chats and their rules: a chat's preset and options, its language, and a chat moved to a
new id with everything it owns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from storage.common import (
    canonical_chat_rules,
    check_chat_language,
    check_chat_move,
    to_json,
)
from storage.shapes import (
    ChatRules,
    check_now,
)
from storage.sql import (
    SAVE_TABLE,
    SqlBase,
    Tx,
    add_totals,
)

__all__ = ["ChatsAndRules"]


class ChatsAndRules(SqlBase):
    """A chat's presets, its language and its move to a new chat key."""

    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        """The chat's rule preset and overrides, or None when never set."""
        row = await self._query(
            lambda tx: tx.row(
                "SELECT preset, overrides, changed_by, changed_at FROM chat_rules WHERE chat = ?",
                chat,
            )
        )
        if row is None:
            return None
        preset, overrides, changed_by, changed_at = row
        return ChatRules(chat, str(preset), json.loads(overrides), changed_by, float(changed_at))

    async def set_chat_rules(
        self,
        chat: str,
        preset: str,
        overrides: Mapping[str, object],
        *,
        changed_by: int,
        now: float,
    ) -> ChatRules:
        """Set the chat's preset and overrides (rules.md, "Presets"), replacing the old ones.

        Validated with ``engine.rules.find_preset``; the preset is stored under its
        canonical name (``"español"`` -> ``"espanol"``) and the overrides with their
        validated values.

        Raises:
            engine.errors.RulesError: unknown preset, unknown option or bad value;
                nothing is written.
        """
        check_now(now)
        name, clean = canonical_chat_rules(preset, overrides)
        text = to_json(clean)
        await self._transact(
            lambda tx: tx.run(
                "INSERT INTO chat_rules (chat, preset, overrides, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " preset = excluded.preset, overrides = excluded.overrides,"
                " changed_by = excluded.changed_by, changed_at = excluded.changed_at",
                chat,
                name,
                text,
                changed_by,
                now,
            )
        )
        return ChatRules(chat, name, json.loads(text), changed_by, float(now))

    async def move_chat(
        self,
        old: str,
        new: str,
        *,
        tables: Mapping[str, dict[str, Any]] | None = None,
        now: float,
    ) -> None:
        """Move what is kept under chat key ``old`` to ``new``, in one transaction.

        For a chat whose platform gave it a new id (a Telegram group upgraded to a
        supergroup): its rules and its language (unless ``new`` already has its own,
        which are newer and kept; ``old``'s are dropped), its season length, its finished
        matches, their results, seats and season keys, its players' totals (added to any
        ``new`` already has), its season ratings and finals and its tournaments, so
        rankings, seasons and history follow the chat (a live tournament's snapshot is
        the service's to save again). ``tables`` (table id -> snapshot) are saved in the same
        transaction: the moved live tables' snapshots, which name the chat. Moving a
        chat again, or one with nothing kept, changes nothing else.

        Raises:
            ValueError: ``old`` or ``new`` is empty, or they are equal; nothing is written.
            TypeError: a snapshot is not JSON-serialisable; nothing is written.
        """
        check_now(now)
        check_chat_move(old, new)
        snapshots = [(table_id, to_json(s), now) for table_id, s in (tables or {}).items()]

        async def write(tx: Tx) -> None:
            await tx.lock_chats([old, new])
            # the new chat's own rules and language are newer than the old chat's: they stay
            for table, columns in (
                ("chat_rules", "preset, overrides, changed_by, changed_at"),
                ("chat_settings", "language, changed_by, changed_at"),
            ):
                await tx.run(
                    f"INSERT INTO {table} (chat, {columns}) SELECT ?2, {columns} FROM {table}"
                    " WHERE chat = ?1 ON CONFLICT (chat) DO NOTHING",
                    old,
                    new,
                )
                await tx.run(f"DELETE FROM {table} WHERE chat = ?", old)
            for table in ("matches", "match_results", "match_seats", "tournaments"):
                await tx.run(f"UPDATE {table} SET chat = ?2 WHERE chat = ?1", old, new)
            # the new chat's own rows (its period, a season it already played) stay
            for table, same in (
                ("chat_seasons", ""),
                ("season_finals", " AND o.season = {t}.season"),
                (
                    "ratings",
                    " AND o.season = {t}.season AND o.player_id = {t}.player_id"
                    " AND o.format = {t}.format",
                ),
            ):
                await tx.run(
                    f"UPDATE {table} SET chat = ?2 WHERE chat = ?1 AND NOT EXISTS"
                    f" (SELECT 1 FROM {table} o WHERE o.chat = ?2{same.format(t=table)})",
                    old,
                    new,
                )
                await tx.run(f"DELETE FROM {table} WHERE chat = ?", old)
            await tx.run(
                "INSERT INTO player_chat_totals AS t (chat, player_id, matches_played,"
                " matches_won, hands_won, dominoes, trancas_won, capicuas, last_played)"
                " SELECT ?2, player_id, matches_played, matches_won, hands_won, dominoes,"
                " trancas_won, capicuas, last_played FROM player_chat_totals WHERE chat = ?1"
                + add_totals(tx),
                old,
                new,
            )
            await tx.run("DELETE FROM player_chat_totals WHERE chat = ?", old)
            await tx.many(SAVE_TABLE, snapshots)

        await self._transact(write)

    async def get_chat_language(self, chat: str) -> str | None:
        """The language the chat's admins chose for its group messages (``"es"`` or
        ``"en"``), or None when never chosen."""
        language = await self._query(
            lambda tx: tx.value("SELECT language FROM chat_settings WHERE chat = ?", chat)
        )
        return None if language is None else str(language)

    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        """Set the chat's language for group messages, replacing the old one.

        Raises:
            ValueError: ``language`` is not ``"es"`` or ``"en"``; nothing is written.
        """
        check_now(now)
        check_chat_language(language)
        await self._transact(
            lambda tx: tx.run(
                "INSERT INTO chat_settings (chat, language, changed_by, changed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat) DO UPDATE SET"
                " language = excluded.language, changed_by = excluded.changed_by,"
                " changed_at = excluded.changed_at",
                chat,
                language,
                changed_by,
                now,
            )
        )
