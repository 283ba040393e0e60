"""The message bus: every write to the core goes through it as a command (issue 28).

Two kinds of command (:mod:`bot.core.commands`):

- a player's command (:data:`~bot.core.commands.Command`): applied by
  :meth:`MessageBus.handle`, which answers with a :class:`~bot.core.events.Reply` and
  never raises for bad input. Each command type has one handler in a type-keyed table,
  which also declares whether it runs under the lobby lock (it changes which tables
  exist or who sits where). A button press is decoded once (:mod:`bot.core.buttons`)
  into the command it stands for and goes through the same table.
- a chore (:class:`~bot.core.commands.Chore`): a write that is no player's move at a
  table (a front end's note, a chat that moved or became unreachable, a player's or a
  chat's setting, a season's finals, a robot table), run by :meth:`MessageBus.run`, which returns what its handler returns.

The handlers are the parts' own methods, given to the bus by :mod:`bot.core.bootstrap`
(cosmicpython's ``messagebus.py`` is the model). Reads never come here: they are the
queries of :mod:`bot.core.views`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from bot.core.buttons import ForgedPress, Press, decode_press
from bot.core.chat_rules import ChatRules
from bot.core.commands import (
    ChatRef,
    Chore,
    ComeBack,
    Command,
    DeclineChallenge,
    Emote,
    FillWithRobots,
    Leave,
    PlayerRef,
    PlayMove,
    PressButton,
    Rematch,
    ShowMyTiles,
    SitAt,
)
from bot.core.events import Refused, Reply
from bot.core.state import Core
from bot.core.vocabulary import PressKind, RefusalReason
from storage.base import FencedOut

__all__ = ["MessageBus"]

C = TypeVar("C")
R = TypeVar("R")
Handler = Callable[[C], Awaitable[Reply]]


class MessageBus:
    """Applies commands and runs chores through their handlers.

    Args:
        core: the shared state (the lobby lock, ``stopped``, the player names).
        rules: a chat's rules, for the language each command's chat speaks.
        on_fenced_out: told when a write was refused because another process holds the
            table's scope now (the leases drop it).
    """

    def __init__(
        self, core: Core, rules: ChatRules, on_fenced_out: Callable[[FencedOut], None]
    ) -> None:
        self._core = core
        self._rules = rules
        self._on_fenced_out = on_fenced_out
        self.handlers: dict[type, tuple[Handler[Any], bool]] = {}
        """command type -> (handler, runs under the lobby lock)"""
        self.chores: dict[type, Callable[[Any], Awaitable[Any]]] = {}
        """chore type -> handler"""

    def on(self, kind: type[C], handler: Handler[C], *, lobby: bool = False) -> None:
        """Have ``handler`` apply the commands of type ``kind`` (under the lobby lock
        when ``lobby``)."""
        self.handlers[kind] = (handler, lobby)

    def on_chore(self, kind: type[Chore[R]], handler: Callable[[Any], Awaitable[R]]) -> None:
        """Have ``handler`` run the chores of type ``kind``."""
        self.chores[kind] = handler

    async def handle(self, command: Command) -> Reply:
        """Apply one command; returns at once (events go out through the ports).

        Never raises for bad input: a refused command returns ``Reply(refusal=...)`` and
        changes nothing.

        Raises:
            TypeError: ``command`` is not a command.
        """
        try:
            if self._core.stopped:
                raise Refused(RefusalReason.SHUTTING_DOWN)
            return await self._dispatch(command)
        except Refused as refused:
            return Reply(refusal=refused.refusal(command.player), table_id=refused.table_id)
        except FencedOut as exc:  # the table moved to another process: press again
            self._on_fenced_out(exc)
            refusal = Refused(RefusalReason.SHUTTING_DOWN).refusal(command.player)
            return Reply(refusal=refusal)

    async def run(self, chore: Chore[R]) -> R:
        """Run one chore; returns what its handler returns (see each chore).

        Raises:
            TypeError: ``chore`` is not a chore; what its handler raises.
        """
        handler = self.chores.get(type(chore))
        if handler is None:
            raise TypeError(f"not a chore: {chore!r}")
        return cast(R, await handler(chore))

    async def _localized(self, command: Command) -> Command:
        """``command`` with its chat speaking the chat's language (one precedence rule:
        :meth:`ChatRules.localized`), so the tables and events it makes carry it."""
        chat = command.chat
        if chat is None:
            return command
        localized = await self._rules.localized(chat)
        return command if localized is chat else dataclasses.replace(command, chat=localized)

    async def _dispatch(self, command: Command) -> Reply:
        entry = self.handlers.get(type(command))
        if entry is None:
            raise TypeError(f"not a command: {command!r}")
        self._core.rename(command.player)  # who renamed themselves shows the new name
        self._core.saw(command.player)  # their friends' "last seen"
        handler, in_lobby = entry
        command = await self._localized(command)
        if in_lobby:
            async with self._core.lobby:
                return await handler(command)
        return await handler(command)

    async def press(self, command: PressButton) -> Reply:
        """A raw button payload: decoded once into the command it stands for."""
        try:
            press = decode_press(command.payload)
        except ForgedPress:
            raise Refused(RefusalReason.FORGED) from None
        core, player = self._core, command.player
        known = core.tables.get(press.table_id) or core.ended.get(press.table_id)
        chat = command.chat or (known.chat if known is not None else None)
        table_id = press.table_id
        if press.kind is PressKind.MOVE:
            return await self._dispatch(
                PlayMove(player, table_id, press.hand_number, press.move_number, press.code, chat)
            )
        if chat is None:
            raise Refused(RefusalReason.TABLE_GONE, table_id)
        return await self._dispatch(_command_of(press, player, chat))


def _command_of(press: Press, player: PlayerRef, chat: ChatRef) -> Command:
    """The command a (non-move) table button stands for."""
    table_id = press.table_id
    match press.kind:
        case PressKind.SIT:
            return SitAt(player, chat, table_id, int(press.code) if press.code else None)
        case PressKind.ROBOTS:
            return FillWithRobots(player, chat, table_id)
        case PressKind.EMOTE:
            return Emote(player, press.code, chat, table_id)
        case PressKind.TILES:
            return ShowMyTiles(player, chat, table_id)
        case PressKind.BACK:
            return ComeBack(player, chat, table_id)
        case PressKind.LEAVE:
            return Leave(player, chat, table_id)
        case PressKind.DECLINE:
            return DeclineChallenge(player, chat, table_id)
        case _:
            return Rematch(player, chat, table_id)
