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
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from telegram import (
    Bot,
    ChatMember,
    InlineKeyboardMarkup,
    MaybeInaccessibleMessage,
    Message,
    MessageEntity,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    User,
)
from telegram.constants import ChatType
from telegram.error import ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application

import bot.core as p
from bot.present.i18n import Translator, language_of, translator
from bot.present.live import TableLinks
from bot.telegram.keyboards import link_keyboard
from bot.telegram.links import JoinLink, deep_link, encode_start
from bot.telegram.sender import Ordered, is_chat_gone, send

__all__ = [
    "ANONYMOUS_ADMIN_ID",
    "BOARD_NOTE",
    "HAND_NOTE",
    "PLATFORM",
    "Board",
    "Hand",
    "Shared",
    "Stats",
]

log = logging.getLogger(__name__)

PLATFORM = "telegram"

BOARD_NOTE = "telegram.board"
"""The table manager's front-end note holding the board message (``chat_id``,
``message_id``) and the group's title (``title``), so a table resumed after a restart
edits the same message and names its group in private messages."""

HAND_NOTE = "telegram.hand.{user_id}"
"""The front-end note holding which turn a player's last private turn message was for
(``[hand number, move number]``; -1 for tiles they asked for between turns), so after a
restart the same turn is not sent twice."""

ANONYMOUS_ADMIN_ID = 1087968824
"""The user Telegram names as the author of an anonymous administrator's messages
(@GroupAnonymousBot, first name "Group")."""

USERNAMES_KEPT = 50_000
"""Users remembered by @username (the newest seen), so ``/perfil @name`` finds them: the
Bot API cannot look a user up by username."""

TelegramApp = Application[Any, Any, Any, Any, Any, Any]
T = TypeVar("T")


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
    noted: tuple[int, int, str, bool] | None = None  # (chat id, message id, title, text)
    text: bool = False  # shown as a text message: the bot may not send photos there
    hidden: bool = False  # a table played privately: nothing is drawn in the group


@dataclass
class Hand:
    """What one player was last sent privately for one table."""

    shown: tuple[int, int] | None = None  # (hand number, move number: -1 between turns)
    warned: bool = False  # the group was told the player cannot be reached
    noted: tuple[int, int] | None = None  # ``shown`` as kept in the manager's note


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
        links: the web table, when it runs (Mini App buttons and spectator links).
        webapp: the Mini App's short name (``TELEGRAM_WEBAPP``), for group boards.
    """

    def __init__(
        self,
        application: TelegramApp,
        manager: p.Manager,
        clock: p.Clock | None,
        language: str,
        links: TableLinks | None = None,
        webapp: str | None = None,
    ) -> None:
        self.application = application
        self.links = links
        self.webapp = webapp
        self.manager = manager
        self.clock = clock
        self.language = language
        self.boards: dict[str, Board] = {}
        self.hands: dict[tuple[str, str], Hand] = {}
        self.reachable: set[int] = set()
        self.titles: dict[int, str] = {}
        self.migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self.no_photos: set[int] = set()  # groups whose admins were told photos are refused
        self.gone: set[int] = set()  # groups the bot can no longer use (removed from them)
        self.usernames: dict[str, User] = {}  # lower-case @username -> the user, newest last
        self.stored_usernames: dict[int, str] = {}  # user -> username stored with their player
        # players whose client keeps a turn keyboard (a one-time keyboard is only hidden
        # by a press: it can be opened again until a ReplyKeyboardRemove)
        self.keyboards: set[int] = set()
        # a group's /top list (chat, message) -> who asked for it: only they switch it in
        # place, anyone else gets the list they switch to for themselves
        self.lists_asked: dict[tuple[int, int], int] = {}
        # player -> why their last table is no more for them ("ended", "left"), newest last
        self.farewells: dict[int, str] = {}
        # follows a group that became a supergroup (set by bot.telegram.chats)
        self.on_migrated: Callable[[int, int], Awaitable[None]] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.group_jobs = Ordered()  # group messages, one ordered worker per chat
        self.stats = Stats()

    @property
    def bot(self) -> Bot:
        return cast(Bot, self.application.bot)

    def mini_app_url(self, table_id: str) -> str | None:
        """The group board's link opening the Mini App at ``table_id`` (Telegram's
        direct link: the signed ``start_param`` names the table), or None."""
        if self.links is None or self.webapp is None or not self.bot.username:
            return None
        return f"https://t.me/{self.bot.username}/{self.webapp}?startapp={table_id}"

    def web_app_url(self, table_id: str) -> str | None:
        """The page a private chat's ``web_app`` button opens for ``table_id``, or None."""
        if self.links is None:
            return None
        return f"{self.links.public_url}/?t={table_id}"

    def watch_url(self, table_id: str) -> str | None:
        """The table's public spectator link, or None without the web table."""
        return None if self.links is None else self.links.watch_url(table_id)

    def tournament_url(self, tournament_id: str) -> str | None:
        """A tournament's public page, or None without the web table."""
        return None if self.links is None else self.links.tournament_url(tournament_id)

    def record_url(self, match_id: str) -> str | None:
        """A finished match's record page, or None without the web table."""
        return None if self.links is None else self.links.record_url(match_id)

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

    def seen(self, user: User | None) -> None:
        """Remember ``user`` by @username (the :data:`USERNAMES_KEPT` newest)."""
        if user is None or not user.username or user.is_bot:
            return
        key = user.username.lower()
        self.usernames.pop(key, None)
        self.usernames[key] = user
        if len(self.usernames) > USERNAMES_KEPT:
            del self.usernames[next(iter(self.usernames))]

    def remember(self, user: User | None) -> None:
        """Store ``user``'s @username with their player (once per change in this process),
        so ``/perfil @name`` finds them after a restart; a user who is no player yet is
        tried again on their next command."""
        if user is None or not user.username or user.is_bot:
            return
        key = user.username.lower()
        if self.stored_usernames.get(user.id) != key:
            self.spawn(self._store_username(user, key))

    async def _store_username(self, user: User, key: str) -> None:
        try:
            stored = await self.manager.note_username(self.player(user), key)
        except Exception:
            log.warning("could not store the username of %s", user.id, exc_info=True)
            return
        if stored:
            self.stored_usernames.pop(user.id, None)
            self.stored_usernames[user.id] = key
            if len(self.stored_usernames) > USERNAMES_KEPT:
                del self.stored_usernames[next(iter(self.stored_usernames))]

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
            str(self.migrated.get(chat.id, chat.id)),  # a press on an old group's board
            thread_id=str(thread) if thread else None,
            language=self.language,
        )

    async def title(self, chat_id: int) -> str:
        """The group's title: as last seen, else asked of Telegram once (getChat); ""
        when it cannot be known."""
        known = self.titles.get(chat_id)
        if known is not None:
            return known
        try:
            chat = await send(lambda: self.bot.get_chat(chat_id))
        except TelegramError:
            log.info("could not read the title of chat %s", chat_id)
            return ""
        self.titles[chat_id] = chat.title or ""
        return self.titles[chat_id]

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
        self,
        chat: p.ChatRef,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        entities: Sequence[MessageEntity] | None = None,
    ) -> None:
        """Queue a message to a group: sent by the chat's own worker, in order, so its flood
        limit never holds up a player's private messages or the table's events.
        ``entities``: Telegram's entities of ``text`` (a mention that notifies)."""
        if self.chat_id(chat) in self.gone:
            return
        self.to_group(chat, lambda: self._send_group_text(chat, text, markup, entities))

    def to_group(self, chat: p.ChatRef, job: Callable[[], Awaitable[None]]) -> None:
        self.group_jobs.put(self.chat_id(chat), job)

    async def to_chat(self, chat: p.ChatRef, call: Callable[[int], Awaitable[T]]) -> T:
        """Run ``call(chat id)`` (one request to a group) with :func:`send`; a group that
        became a supergroup meanwhile is followed and the request made again there."""
        chat_id = self.chat_id(chat)
        try:
            return await send(lambda: call(chat_id))
        except ChatMigrated as error:
            new_id = error.new_chat_id
            await self.migrate(chat_id, new_id)
        return await send(lambda: call(new_id))

    async def lose(self, chat_id: int) -> None:
        """The bot can no longer use group ``chat_id`` (removed from it): its tables close
        once, stakes refunded (the core logs it), and nothing more is sent there."""
        if chat_id in self.gone:
            return
        self.gone.add(chat_id)
        await self._close_tables(chat_id)

    async def _close_tables(self, chat_id: int) -> None:
        try:
            await self.manager.chat_unreachable(PLATFORM, str(chat_id))
        except Exception:
            log.warning("could not close the tables of chat %s", chat_id, exc_info=True)

    def lost(self, chat_id: int, error: TelegramError) -> bool:
        """Whether ``error``, answered to a request to group ``chat_id``, means the bot can
        no longer use it; if so nothing more is sent there and its tables are closed
        (once, in the background)."""
        if not is_chat_gone(error):
            return False
        if chat_id not in self.gone:
            self.gone.add(chat_id)
            self.spawn(self._close_tables(chat_id))
        return True

    async def migrate(self, old: int, new: int) -> None:
        """Group ``old`` is supergroup ``new`` now (Telegram refused a request to it)."""
        self.migrated[old] = new
        if self.on_migrated is not None:
            await self.on_migrated(old, new)

    async def _send_group_text(
        self,
        chat: p.ChatRef,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        entities: Sequence[MessageEntity] | None = None,
    ) -> None:
        thread = int(chat.thread_id) if chat.thread_id else None
        try:
            await self.to_chat(
                chat,
                lambda chat_id: self.bot.send_message(
                    chat_id, text, reply_markup=markup, message_thread_id=thread, entities=entities
                ),
            )
        except TelegramError as error:
            if self.lost(self.chat_id(chat), error):
                return
            self.stats.failures += 1
            log.warning("could not write to chat %s", chat.chat_id, exc_info=True)

    async def private_text(
        self,
        user_id: int,
        text: str,
        markup: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | None = None,
        *,
        silent: bool = False,
    ) -> bool:
        """Send ``text`` to a player's private chat (``silent``: without a notification);
        False when it could not be (they blocked the bot, or Telegram failed: logged)."""
        try:
            await send(
                lambda: self.bot.send_message(
                    user_id, text, reply_markup=markup, disable_notification=silent or None
                )
            )
        except Forbidden:
            self.reachable.discard(user_id)
            return False
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not write to user %s", user_id, exc_info=True)
            return False
        self.reachable.add(user_id)
        if isinstance(markup, ReplyKeyboardRemove):
            self.keyboards.discard(user_id)
        elif isinstance(markup, ReplyKeyboardMarkup):
            self.keyboards.add(user_id)
        return True

    def list_asked(self, chat_id: int, message_id: int, user_id: int) -> None:
        """Remember who asked for the /top list ``message_id`` in a group (the
        :data:`USERNAMES_KEPT` newest)."""
        self.lists_asked[(chat_id, message_id)] = user_id
        if len(self.lists_asked) > USERNAMES_KEPT:
            del self.lists_asked[next(iter(self.lists_asked))]

    async def no_turn_coming(self, player: p.PlayerRef, why: str, label: str) -> None:
        """``player`` has no turn coming at table ``label`` (``why``: ``"ended"``, the
        table is over; ``"left"``, they got up): their turn keyboard, if their client
        keeps one and no other table of theirs is live, is removed with one silent line
        saying why; a press of it later is answered the same way (:meth:`farewell`)."""
        if player.platform != PLATFORM:
            return
        user_id = int(player.user_id)
        self.farewells.pop(user_id, None)
        self.farewells[user_id] = why
        if len(self.farewells) > USERNAMES_KEPT:
            del self.farewells[next(iter(self.farewells))]
        if user_id not in self.keyboards:
            return
        self.keyboards.discard(user_id)  # at most one removal, even if this one fails
        text = self.farewell(user_id, player.language, label)
        await self.private_text(user_id, text, ReplyKeyboardRemove(), silent=True)

    def farewell(self, user_id: int, language: str, label: str = "") -> str:
        """Why a player has no move to make (their table ended, or they left it), for a
        turn keyboard pressed after its table."""
        _ = self.t(language)
        why = self.farewells.get(user_id)
        if why == "left":
            if label:
                return _("You left table {label}: no move of yours waits there.", label=label)
            return _("You left your table: no move of yours waits.")
        if why == "ended":
            if label:
                return _("Table {label} has ended: no move waits there.", label=label)
            return _("Your table has ended: no move waits.")
        return _("You have no table now: no move waits.")

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

    async def is_admin_of(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers group ``chat_id`` now (a report's button is
        pressed in a private chat: its payload names the group, untrusted)."""
        try:
            member = await send(lambda: self.bot.get_chat_member(chat_id, user_id))
        except TelegramError:
            return False
        return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user belongs to the group a deep link names (links are untrusted)."""
        try:
            member = await send(lambda: self.bot.get_chat_member(chat_id, user_id))
        except TelegramError:
            return False
        return member.status not in (ChatMember.LEFT, ChatMember.BANNED)
