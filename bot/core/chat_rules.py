"""A chat's rules: the one path by which every front end reads and changes them
(rules.md, "Presets"; design.md, rule 9).

* A chat whose admins never chose plays the default preset (``DOMINO_DEFAULT_PRESET``).
* ``SetChatRules`` with a preset starts from that preset, then applies the options given;
  without a preset the options are merged over the chat's current preset and options.
  The same on every platform.
* A player may choose a preset and options for their own table unless the chat's admins
  fixed the rules; then only the turn timers (:data:`PLAYER_TABLE_OPTIONS`) may change.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.core.commands import ChatRef, SetChatRules
from bot.core.events import ChatRulesChanged, ChatRulesInfo, Refused, Reply
from bot.core.state import Core
from bot.core.vocabulary import RefusalReason
from engine.errors import RulesError
from engine.rules import OptionValue, Rules, find_preset, preset_key

__all__ = ["PLAYER_TABLE_OPTIONS", "ChatRules"]

log = logging.getLogger("bot.core")

PLAYER_TABLE_OPTIONS = frozenset({"turn_seconds", "forced_move_seconds"})
"""Options a player may change for their own table when the chat's admins set rules."""


class ChatRules:
    """Reads, merges, validates and stores chats' rules."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def of_chat(self, chat: ChatRef) -> ChatRulesInfo:
        """The chat's rules (the default preset when its admins never chose)."""
        core = self.core
        stored = await core.storage.get_chat_rules(chat.key)
        default = ChatRulesInfo(chat.key, core.default_preset, {}, core.default_rules, False)
        if stored is None:
            return default
        try:
            rules = stored.rules()
        except RulesError:
            log.error("chat %s has rules that no longer validate; using the default", chat.key)
            return default
        return ChatRulesInfo(chat.key, stored.preset, dict(stored.overrides), rules, True)

    async def for_table(
        self, chat: ChatRef, preset: str | None, overrides: Mapping[str, OptionValue]
    ) -> Rules:
        """The rules of a new table in ``chat`` with a player's choices.

        Raises:
            Refused: RULES_LOCKED (the admins fixed the rules) or BAD_RULES.
        """
        info = await self.of_chat(chat)
        if preset is None and not overrides:
            return info.rules
        if info.set_by_admins:
            if preset is not None and preset_key(preset) != info.preset:
                raise Refused(RefusalReason.RULES_LOCKED, option="preset")
            for name in overrides:
                if name not in PLAYER_TABLE_OPTIONS:
                    raise Refused(RefusalReason.RULES_LOCKED, option=name)
        try:
            if preset is None or info.set_by_admins:
                return Rules.build(**{**info.rules.model_dump(), **overrides})
            return find_preset(preset, **overrides)
        except RulesError as exc:
            raise Refused(RefusalReason.BAD_RULES, option=exc.option, allowed=exc.allowed) from None

    async def set(self, command: SetChatRules) -> Reply:
        """An admin changes the chat's rules; new tables use them.

        Raises:
            Refused: NOT_ADMIN, or BAD_RULES (nothing stored).
        """
        core = self.core
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        current = await self.of_chat(command.chat)
        if command.preset is None:
            preset, overrides = current.preset, {**current.overrides, **command.overrides}
        else:
            preset, overrides = command.preset, dict(command.overrides)
        player_id = await core.player_id(command.player)
        try:
            stored = await core.storage.set_chat_rules(
                command.chat.key, preset, overrides, changed_by=player_id, now=core.clock.now()
            )
        except RulesError as exc:
            raise Refused(RefusalReason.BAD_RULES, option=exc.option, allowed=exc.allowed) from None
        core.outbox.emit_chat(
            ChatRulesChanged(
                table_id="",
                chat=command.chat,
                preset=stored.preset,
                overrides=dict(stored.overrides),
                rules=stored.rules(),
                by=command.player,
            )
        )
        return Reply(preset=stored.preset)
