"""What the Telegram front end's parts share: the bot, the core, who can be reached, where
each table's messages are, and the small sending helpers every part uses.

:class:`Shared` is held by reference by the command handlers (:mod:`bot.telegram.handlers`),
the button handlers (:mod:`bot.telegram.callbacks`), the drawing workers
(:mod:`bot.telegram.drawing`) and the event port (:mod:`bot.telegram.port`); none of them
decides a rule, a score or an amount.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, cast

from telegram import Bot, ChatMember, InlineKeyboardMarkup, MaybeInaccessibleMessage, Message, User
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application

import bot.core as p
from bot.present.i18n import Translator, language_of, translator
from bot.telegram.keyboards import link_keyboard
from bot.telegram.links import JoinLink, deep_link, encode_start
from bot.telegram.sender import Ordered, send

__all__ = ["BOARD_NOTE", "PLATFORM", "Board", "Hand", "Shared", "Stats"]

log = logging.getLogger(__name__)

PLATFORM = "telegram"

BOARD_NOTE = "telegram.board"
"""The table manager's front-end note holding the board message (``chat_id``,
``message_id``), so a table resumed after a restart edits the same message."""

TelegramApp = Application[Any, Any, Any, Any, Any, Any]


@dataclass
class Board:
    """One table's board message in its group."""

    chat_id: int
    thread_id: int | None
    language: str
    label: str = ""
    event: p.TableChanged | None = None
    message_id: int | None = None
    picture: tuple[object, ...] | None = None  # what the photo on the message shows
    caption: str | None = None
    markup: dict[str, object] | None = None
    emote: tuple[str, float] | None = None
    closed: str | None = None  # TableClosed's reason once the table is gone
    noted: tuple[int, int] | None = None  # (chat id, message id) kept in the manager's note


@dataclass
class Hand:
    """One player's private hand message for one table."""

    message_id: int | None = None
    shown: tuple[object, ...] | None = None  # (hand number, tiles, buttons) on the message
    warned: bool = False  # the group was told the player cannot be reached


@dataclass
class Stats:
    """Counters for the benchmark and the logs."""

    board_sends: int = 0
    board_edits: int = 0
    hand_sends: int = 0
    failures: int = 0
    render_seconds: float = 0.0
    answered: list[float] = field(default_factory=list)


class Shared:
    """The front end's shared state and sending helpers.

    Args:
        application: PTB's application (its ``bot`` sends everything).
        manager: the core, as front ends see it.
        clock: the manager's clock (None: the event loop's time).
        language: the language of group messages.
    """

    def __init__(
        self,
        application: TelegramApp,
        manager: p.Manager,
        clock: p.Clock | None,
        language: str,
    ) -> None:
        self.application = application
        self.manager = manager
        self.clock = clock
        self.language = language
        self.boards: dict[str, Board] = {}
        self.hands: dict[tuple[str, str], Hand] = {}
        self.reachable: set[int] = set()
        self.titles: dict[int, str] = {}
        self.migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self.tasks: set[asyncio.Task[None]] = set()
        self.group_jobs = Ordered()  # group messages, one ordered worker per chat
        self.stats = Stats()

    @property
    def bot(self) -> Bot:
        return cast(Bot, self.application.bot)

    def now(self) -> float:
        if self.clock is not None:
            return float(self.clock.now())
        return asyncio.get_running_loop().time()

    def t(self, language: str) -> Translator:
        """The ``telegram`` catalog (the front end's own chrome) in ``language``."""
        return translator(language, "telegram")

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.failures += 1
            log.error("telegram send failed", exc_info=task.exception())

    # ------------------------------------------------------------------ references
    def player(self, user: User) -> p.PlayerRef:
        return p.PlayerRef(PLATFORM, str(user.id), user.full_name, language_of(user.language_code))

    def chat_ref(self, message: MaybeInaccessibleMessage) -> p.ChatRef | None:
        """The group (and forum topic) a message belongs to; None for a private chat."""
        chat = message.chat
        if chat.type == ChatType.PRIVATE:
            return None
        if chat.title:
            self.titles[chat.id] = chat.title
        topic = isinstance(message, Message) and message.is_topic_message
        thread = message.message_thread_id if isinstance(message, Message) and topic else None
        return p.ChatRef(
            PLATFORM,
            str(chat.id),
            thread_id=str(thread) if thread else None,
            language=self.language,
        )

    def chat_id(self, chat: p.ChatRef) -> int:
        """The Telegram id of a group (its supergroup's, once it migrated)."""
        return self.migrated.get(int(chat.chat_id), int(chat.chat_id))

    # ------------------------------------------------------------------ sending
    async def reply(
        self,
        message: Message,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        quote: bool = True,
    ) -> Message | None:
        try:
            return await send(lambda: message.reply_text(text, reply_markup=markup, do_quote=quote))
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not reply in chat %s", message.chat.id, exc_info=True)
            return None

    def group_text(
        self, chat: p.ChatRef, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> None:
        """Queue a message to a group: sent by the chat's own worker, in order, so its flood
        limit never holds up a player's private messages or the table's events."""
        self.to_group(chat, lambda: self._send_group_text(chat, text, markup))

    def to_group(self, chat: p.ChatRef, job: Callable[[], Awaitable[None]]) -> None:
        self.group_jobs.put(self.chat_id(chat), job)

    async def _send_group_text(
        self, chat: p.ChatRef, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> None:
        chat_id = self.chat_id(chat)
        try:
            await send(
                lambda: self.bot.send_message(
                    chat_id,
                    text,
                    reply_markup=markup,
                    message_thread_id=int(chat.thread_id) if chat.thread_id else None,
                )
            )
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not write to chat %s", chat.chat_id, exc_info=True)

    async def private_text(
        self, user_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> bool:
        try:
            await send(lambda: self.bot.send_message(user_id, text, reply_markup=markup))
        except Forbidden:
            self.reachable.discard(user_id)
            return False
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not write to user %s", user_id, exc_info=True)
            return False
        self.reachable.add(user_id)
        return True

    async def can_reach(self, user_id: int) -> bool:
        """Whether the bot may write to the user privately (they started it).

        Probed with a "typing" chat action, which shows nothing lasting, and remembered.
        """
        if user_id in self.reachable:
            return True
        try:
            await send(lambda: self.bot.send_chat_action(user_id, "typing"))
        except Forbidden:
            return False
        except TelegramError:
            log.warning("could not probe user %s", user_id, exc_info=True)
            return False
        self.reachable.add(user_id)
        return True

    def link(self, link: JoinLink) -> str:
        return deep_link(self.bot.username, encode_start(link))

    def unreachable_text(self, name: str, language: str) -> str:
        """The group is told (in ``language``, the group's) a player must open the
        private chat before being seated."""
        return self.t(language)(
            "{name}, I cannot write to you privately yet. Open our private chat and press "
            "Start: you will be seated and your tiles will come there.",
            name=name,
        )

    async def send_link(self, message: Message, user: User, link: JoinLink, language: str) -> None:
        """The deep link, in the group (``language``: the group's)."""
        await self.reply(
            message,
            self.unreachable_text(user.full_name, language),
            link_keyboard(self.link(link), language),
        )

    # ------------------------------------------------------------------ membership
    async def is_admin(self, message: Message, user: User) -> bool:
        """Whether ``user`` administers the group of ``message`` (asked of the Bot API)."""
        chat = message.chat
        if message.sender_chat is not None and message.sender_chat.id == chat.id:
            return True  # an anonymous administrator writes as the group itself
        try:
            member = await send(lambda: self.bot.get_chat_member(chat.id, user.id))
        except TelegramError:
            log.warning("could not check admin rights in %s", chat.id, exc_info=True)
            return False
        return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user belongs to the group a deep link names (links are untrusted)."""
        try:
            member = await send(lambda: self.bot.get_chat_member(chat_id, user_id))
        except TelegramError:
            return False
        return member.status not in (ChatMember.LEFT, ChatMember.BANNED)
