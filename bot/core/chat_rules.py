"""A chat's rules: the one path by which every front end reads and changes them
(rules.md, "Presets"; design.md, rule 9).

* A chat whose admins never chose plays the default preset (``DOMINO_DEFAULT_PRESET``).
* ``SetChatRules`` with a preset starts from that preset, then applies the options given;
  without a preset the options are merged over the chat's current preset and options.
  The same on every platform.
* A player may choose a preset and options for their own table unless the chat's admins
  fixed the rules; then only the turn timers (:data:`PLAYER_TABLE_OPTIONS`) may change.
* Options are checked one by one, so a refusal (``bad_rules``) names every bad option.
* A chat's language (design.md, rule 8): group messages speak the language the chat's
  admins chose, else the one the front end gave the chat (its platform's default);
  private messages speak the player's. :meth:`ChatRules.localized` applies it to every
  command's chat, so the tables and their events carry it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.core.commands import ChatRef, SetChatRules
from bot.core.events import ChatRulesChanged, ChatRulesInfo, Refused, Reply
from bot.core.state import Core
from bot.core.vocabulary import RefusalReason
from engine.errors import RulesError
from engine.rules import (
    FORMAT_OPTION_VALUES,
    FORMAT_PRESETS,
    OptionValue,
    Rules,
    find_any_preset,
    find_preset,
    preset_key,
)
from storage.base import LANGUAGES as CHAT_LANGUAGES

__all__ = ["PLAYER_TABLE_OPTIONS", "ChatRules"]

log = logging.getLogger("bot.core")

PLAYER_TABLE_OPTIONS = frozenset({"turn_seconds", "forced_move_seconds"})
"""Options a player may change for their own table when the chat's admins set rules."""


class ChatRules:
    """Reads, merges, validates and stores chats' rules."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._languages: dict[str, str | None] = {}  # chat key -> the admins' choice

    async def chosen_language(self, chat: ChatRef) -> str | None:
        """The language the chat's admins chose, or None (read once, then remembered)."""
        if chat.key not in self._languages:
            self._languages[chat.key] = await self.core.storage.get_chat_language(chat.key)
        return self._languages[chat.key]

    async def localized(self, chat: ChatRef) -> ChatRef:
        """``chat`` speaking the language its admins chose (unchanged when they did not)."""
        chosen = await self.chosen_language(chat)
        if chosen is None or chosen == chat.language:
            return chat
        return replace(chat, language=chosen)

    async def of_chat(self, chat: ChatRef) -> ChatRulesInfo:
        """The chat's rules (the default preset when its admins never chose)."""
        core = self.core
        stored = await core.storage.get_chat_rules(chat.key)
        language = (await self.localized(chat)).language
        default = ChatRulesInfo(
            chat.key, core.default_preset, {}, core.default_rules, False, language
        )
        if stored is None:
            return default
        try:
            rules = stored.rules()
        except RulesError:
            log.error("chat %s has rules that no longer validate; using the default", chat.key)
            return default
        return ChatRulesInfo(chat.key, stored.preset, dict(stored.overrides), rules, True, language)

    async def for_format(self, chat: ChatRef, name: str | None) -> Rules:
        """The rules of a new table of the format ``name`` in ``chat`` (rules.md,
        "Formats at the tables"): None, the chat's rules; a format preset
        (``engine.rules.FORMAT_PRESET_NAMES``) whole, or, where the chat's admins set
        the rules, its format options laid over theirs (their target, stake, scoring
        and timers).

        Raises:
            Refused: BAD_RULES (option ``format``): not a format preset, or a format the
                admins' rules cannot be played in.
        """
        info = await self.of_chat(chat)
        if not name:
            return info.rules
        refused = Refused(
            RefusalReason.BAD_RULES, option="format", allowed=", ".join(FORMAT_PRESETS)
        )
        chosen = FORMAT_PRESETS.get(preset_key(name))
        if chosen is None:
            raise refused
        if not info.set_by_admins:
            return chosen
        layout = {option: getattr(chosen, option) for option in FORMAT_OPTION_VALUES}
        try:
            return Rules.build_any(**{**info.rules.model_dump(), **layout})
        except RulesError:
            raise refused from None

    async def for_table(
        self,
        chat: ChatRef,
        preset: str | None,
        overrides: Mapping[str, OptionValue],
        *,
        formats: bool = False,
    ) -> Rules:
        """The rules of a new table in ``chat`` with a player's choices; with
        ``formats`` (a front end that shows every format) a format preset too
        (``engine.rules.find_any_preset``: ``uno-contra-uno``, ``individual``,
        ``cubano``), else it is refused as an unknown preset naming the table presets.

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
        find = find_any_preset if formats else find_preset
        try:
            base = info.rules if preset is None or info.set_by_admins else find(preset)
        except RulesError as exc:
            raise Refused(RefusalReason.BAD_RULES, option=exc.option, allowed=exc.allowed) from None
        _check_each(base, overrides, formats=formats)
        return _build(base, formats=formats)(**{**base.model_dump(), **overrides})

    async def set(self, command: SetChatRules) -> Reply:
        """An admin changes the chat's rules; new tables use them.

        Raises:
            Refused: NOT_ADMIN, or BAD_RULES (nothing stored).
        """
        core = self.core
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        if command.language is not None and command.language not in CHAT_LANGUAGES:
            raise Refused(
                RefusalReason.BAD_RULES,
                option="language",
                allowed=", ".join(CHAT_LANGUAGES),
                options="language",
            )
        current = await self.of_chat(command.chat)
        try:
            base = current.rules if command.preset is None else find_any_preset(command.preset)
        except RulesError as exc:
            raise Refused(RefusalReason.BAD_RULES, option=exc.option, allowed=exc.allowed) from None
        _check_each(base, command.overrides)
        player_id = await core.player_id(command.player)
        now = core.clock.now()
        preset, overrides, rules = current.preset, dict(current.overrides), current.rules
        rules_changed = command.preset is not None or bool(command.overrides)
        if rules_changed or command.language is None:
            if command.preset is None:
                overrides = {**current.overrides, **command.overrides}
            else:
                preset, overrides = command.preset, dict(command.overrides)
            try:
                stored = await core.storage.set_chat_rules(
                    command.chat.key, preset, overrides, changed_by=player_id, now=now
                )
            except RulesError as exc:
                raise Refused(
                    RefusalReason.BAD_RULES, option=exc.option, allowed=exc.allowed
                ) from None
            preset, overrides, rules = stored.preset, dict(stored.overrides), stored.rules()
        chat = command.chat
        if command.language is not None:
            await core.storage.set_chat_language(
                chat.key, command.language, changed_by=player_id, now=now
            )
            self._languages[chat.key] = command.language
            chat = replace(chat, language=command.language)
            for table in core.tables.values():  # live tables speak it from their next message
                if table.chat.key == chat.key:
                    table.chat = replace(table.chat, language=command.language)
        core.outbox.emit_chat(
            ChatRulesChanged(
                table_id="",
                chat=chat,
                preset=preset,
                overrides=overrides,
                rules=rules,
                by=command.player,
                language=command.language,
                rules_changed=rules_changed or command.language is None,
            )
        )
        return Reply(preset=preset)


def _check_each(
    base: Rules, overrides: Mapping[str, OptionValue], *, formats: bool = False
) -> None:
    """Each option over ``base`` alone, so a refusal names every bad one.

    Raises:
        Refused: BAD_RULES with ``option`` and ``allowed`` of the first bad option and
            ``options``, the names of all of them (space-separated, in the given order).
    """
    bad: list[RulesError] = []
    for name, value in overrides.items():
        try:
            _build(base, formats=formats)(**{**base.model_dump(), name: value})
        except RulesError as exc:
            bad.append(exc)
    if bad:
        raise Refused(
            RefusalReason.BAD_RULES,
            option=bad[0].option or "",
            allowed=bad[0].allowed or "",
            options=" ".join(exc.option or "" for exc in bad),
        )


def _build(base: Rules, *, formats: bool = False) -> Callable[..., Rules]:
    """How to build rules over ``base``: :meth:`Rules.build_any` for a format (its dump
    names a format option: it differs from today's game) or where the format options may
    be chosen (``formats``), else :meth:`Rules.build`."""
    if formats or any(name in FORMAT_OPTION_VALUES for name in base.model_dump()):
        return Rules.build_any
    return Rules.build
