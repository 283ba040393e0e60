"""``/amigo`` and ``/amigos`` (issue 33; docs/friends.md): friend requests, answers,
removing a friend, inviting one to my table, and the list of friends with where each
plays now; and the friends buttons (accept, decline, take my seat).

The player a command names is found as ``/perfil`` finds one: a mention, the author of
the message answered, or an @username of a player the bot has seen. Whom the bot cannot
write to privately is not sent a request or an invitation (they would never see its
buttons): the author is told so and nothing changes. The core decides everything else.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from telegram import CallbackQuery, Message, MessageEntity
from telegram.error import TelegramError

import bot.core as p
from bot.present.i18n import translator
from bot.present.replies import friend_done_text, refused
from bot.present.screens import friends_text
from bot.telegram.commands import FRIEND_ACTIONS, command_word
from bot.telegram.sender import send
from bot.telegram.shared import PLATFORM, Shared

if TYPE_CHECKING:
    from bot.telegram.handlers import Said

__all__ = ["Friends"]

log = logging.getLogger(__name__)

Lookup = Callable[[str], Awaitable[p.PlayerRef | None]]
"""An @username to the player who wrote with it (``Commands._by_username``)."""

Answer = Callable[[str | None, bool], Awaitable[None]]
"""How a button press is answered: a text (an alert when True)."""


class Friends:
    """The friends commands and buttons of the Telegram front end.

    Args:
        shared: the front end's shared state.
        by_username: finds a player by @username.
    """

    def __init__(self, shared: Shared, by_username: Lookup) -> None:
        self.s = shared
        self.by_username = by_username

    async def friend(self, said: Said) -> None:
        """``/amigo @ana`` (or answering her message): a friend request;
        ``/amigo aceptar|rechazar|quitar|invitar @ana``: answer her request, end the
        friendship, keep her a seat at my table."""
        s = self.s
        _ = s.t(said.language)
        args = said.args
        action = FRIEND_ACTIONS.get(args[0].lower()) if args else None
        words = args[1:] if action is not None else args
        target, unknown = await self._target(said.message, words)
        if unknown is not None:
            text = _(
                "I do not know {name} yet. Answer one of their messages with {command}.",
                name=unknown,
                command=command_word("friend", said.language),
            )
            await s.reply(said.message, text)
            return
        if target is None:
            await s.reply(said.message, usage_text(said.language))
            return
        action = action or "ask"
        me = said.by
        if (
            action in ("ask", "invite")
            and target.key != me.key
            and not await s.can_reach(int(target.user_id))
        ):
            text = _(
                "I cannot write to {name} privately yet: they must open a private chat with "
                "me and press Start first.",
                name=target.display_name,
            )
            await s.reply(said.message, text)
            return
        command: p.Command
        match action:
            case "accept" | "decline":
                command = p.AnswerFriend(me, action == "accept", friend=target, chat=said.chat)
            case "remove":
                command = p.RemoveFriend(me, target, said.chat)
            case "invite":
                command = p.InviteFriend(me, target, said.chat)
            case _:
                command = p.AskFriend(me, target, said.chat)
        reply = await s.manager.handle(command)
        if reply.refusal is not None:
            await s.reply(said.message, refused(reply.refusal, said.language))
            return
        seconds = s.manager.times.invite_seconds
        text = friend_done_text(type(command), reply, said.language, invite_seconds=seconds)
        await s.reply(said.message, text)

    async def friends(self, said: Said) -> None:
        """``/amigos``: my friends, where each plays now, and who waits for my answer."""
        s = self.s
        view = await s.manager.friends(said.by)
        places: dict[str, str] = {}
        for friend in view.friends:
            if friend.chat is not None and friend.chat.platform == PLATFORM and friend.table_id:
                places[friend.table_id] = await s.title(s.chat_id(friend.chat)) or "Telegram"
        ask = command_word("friend", said.language) + " @…"
        await s.reply(said.message, friends_text(view, places, said.language, ask=ask))

    async def on_press(
        self, query: CallbackQuery, player: p.PlayerRef, chat: p.ChatRef | None, answer: Answer
    ) -> None:
        """A friends button: answered (an alert when refused), and once it did what it
        says its buttons go, so it is not pressed again."""
        s = self.s
        reply = await s.manager.handle(p.FriendPress(player, query.data or "", chat))
        if reply.refusal is not None:
            await answer(refused(reply.refusal, player.language), True)
            return
        await answer(friend_done_text(p.FriendPress, reply, player.language), False)
        message = query.message
        if isinstance(message, Message):
            try:
                await send(lambda: message.edit_reply_markup(reply_markup=None))
            except TelegramError:
                log.info("could not take the buttons off a friends message", exc_info=True)

    async def _target(
        self, message: Message, words: Sequence[str]
    ) -> tuple[p.PlayerRef | None, str | None]:
        """The player a friends command names, or (None, the name not known)."""
        s = self.s
        for entity in message.entities:
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                if not entity.user.is_bot:
                    return s.player(entity.user), None
            elif entity.type == MessageEntity.MENTION:
                name = message.parse_entity(entity)
                known = await self.by_username(name)
                return (known, None) if known is not None else (None, name)
        for word in words:
            if word.startswith("@") and len(word) > 1:
                known = await self.by_username(word)
                return (known, None) if known is not None else (None, word)
        replied = message.reply_to_message
        if replied is not None and replied.from_user and not replied.from_user.is_bot:
            s.seen(replied.from_user)
            return s.player(replied.from_user), None
        return None, None


def usage_text(language: str) -> str:
    """How ``/amigo`` is used (the ``telegram`` catalog: the commands are this front
    end's own words)."""
    _ = translator(language, "telegram")
    return _(
        "Name the player: /amigo @name, or answer one of their messages with /amigo. Then "
        "/amigo aceptar, rechazar, quitar or invitar @name; /amigos lists your friends."
    )
