"""The Telegram front end: python-telegram-bot in, table-manager commands out, events back.

:class:`TelegramFrontEnd` is thin (design.md, "Adapters are thin"): a command, a button
press or a deep link becomes one :mod:`bot.core` command with a platform-neutral
:class:`~bot.core.PlayerRef`; each manager event becomes a message, a picture or an
edit. No rule, score or money is decided here.

* **The board**: one photo message per table in its group (and forum topic), with a
  caption and inline buttons, edited in place (editMessageMedia when the picture changes,
  editMessageCaption otherwise). Only the newest state is drawn when the game runs faster
  than Telegram lets a group be edited (:class:`bot.telegram.sender.Latest`). Until the
  match starts the photo is the waiting table (``render.waiting_png``: seats, rules,
  when the robots fill or the match starts). Where the message is is kept as a note
  with the table (``TableManager.set_front_end_note``), so after a restart a resumed
  table keeps editing the same message.
* **The tiles**: a private photo with one button per legal move, sent anew when it is
  the player's turn (so Telegram notifies them) and edited otherwise.
* **Private chat first**: a player the bot cannot write to privately is never seated;
  they get a deep link that opens the private chat and finishes seating them.
* **Callback data is untrusted**: the core decodes and checks every table press; every
  callback is answered (a short alert for a refusal) before any slow work.
* **Flood limits and failures**: PTB's :class:`~telegram.ext.AIORateLimiter`; flood
  waits and network errors retried (:func:`bot.telegram.sender.send`); a failed send is
  logged and never stops a table.

Runs inside an existing event loop (``await start()`` / ``await stop()``), so one
process can also host Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, cast

from telegram import (
    Bot,
    CallbackQuery,
    ChatMember,
    InputMediaPhoto,
    Message,
    MessageEntity,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import ChatMigrated, Conflict, Forbidden, InvalidToken, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    filters,
)

import bot.core as p
from bot.present.facts import board_facts, hand_facts, table_facts
from bot.present.i18n import emote_label, language_of, translator
from bot.present.labels import rules_text
from bot.present.screens import (
    board_caption,
    hand_caption,
    hand_ended_text,
    match_ended_caption,
)
from bot.present.texts import confirmation, refused
from bot.telegram.commands import COMMANDS, bot_commands, read_table_args
from bot.telegram.keyboards import (
    MENU_CHOICES,
    back_keyboard,
    board_keyboard,
    config_keyboard,
    hand_keyboard,
    link_keyboard,
    next_choice,
    rematch_keyboard,
)
from bot.telegram.links import (
    JoinLink,
    decode_config,
    decode_start,
    deep_link,
    encode_start,
)
from bot.telegram.sender import NOT_MODIFIED, Latest, Ordered, is_gone, send
from bot.telegram.texts import help_text
from engine.rules import PRESET_NAMES, Rules, find_preset

__all__ = ["ALLOWED_UPDATES", "BOARD_NOTE", "PLATFORM", "TelegramFrontEnd"]

BOARD_NOTE = "telegram.board"
"""The table manager's front-end note holding the board message (``chat_id``,
``message_id``), so a table resumed after a restart edits the same message."""

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ALLOWED_UPDATES = ("message", "callback_query")
"""The only updates the bot asks Telegram for (getUpdates ``allowed_updates``)."""

EMOTE_SECONDS = 8.0
"""How long an emote stays in the board's caption (seconds of the manager's clock)."""

ALERT_LIMIT = 200  # answerCallbackQuery text length

Context = ContextTypes.DEFAULT_TYPE


@dataclass
class _Board:
    """One table's board message in its group."""

    chat_id: int
    thread_id: int | None
    language: str
    label: str = ""
    event: p.TableChanged | None = None
    message_id: int | None = None
    picture: Any = None  # what the photo on the message shows (view, facts)
    caption: str | None = None
    markup: Any = None
    emote: tuple[str, float] | None = None
    closed: str | None = None  # TableClosed's reason once the table is gone
    noted: tuple[int, int] | None = None  # (chat id, message id) kept in the manager's note


@dataclass
class _Hand:
    """One player's private hand message for one table."""

    message_id: int | None = None
    shown: Any = None
    warned: bool = False  # the group was told the player cannot be reached


@dataclass
class _Stats:
    """Counters for the benchmark and the logs."""

    board_sends: int = 0
    board_edits: int = 0
    hand_sends: int = 0
    failures: int = 0
    render_seconds: float = 0.0
    answered: list[float] = field(default_factory=list)


class TelegramFrontEnd:
    """Hosts tables in Telegram groups (a :class:`bot.core.Port` for ``"telegram"``).

    Args:
        token: the bot token from BotFather (``TELEGRAM_TOKEN``).
        manager: the :class:`bot.core.TableManager`; the front end registers itself
            as its ``"telegram"`` port (do not register it again).
        storage: the :class:`storage.base.Storage` (kept for tools; balances, rankings,
            rules and records are read through the manager).
        base_url: a self-hosted Bot API server (``TELEGRAM_API_BASE_URL``), e.g.
            ``"http://localhost:8081/bot"``; None for api.telegram.org.
        base_file_url: its file URL (``TELEGRAM_FILE_BASE_URL``).
        clock: the manager's clock (``now()`` in epoch seconds); by default the
            manager's ``clock`` attribute.
        rate_limiter: PTB's rate limiter; by default ``AIORateLimiter(max_retries=3)``
            (Telegram's flood limits: 30 messages a second, 20 a minute per group).
        language: the language of group messages (``"es"`` or ``"en"``).
        poll_timeout: seconds of each getUpdates long poll.
    """

    def __init__(
        self,
        token: str,
        manager: Any,
        storage: Any,
        *,
        base_url: str | None = None,
        base_file_url: str | None = None,
        clock: Any = None,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        language: str = "es",
        poll_timeout: int = 10,
    ) -> None:
        self.manager = manager
        self.storage = storage
        self.clock = clock if clock is not None else getattr(manager, "clock", None)
        self.language = language_of(language)
        self.poll_timeout = poll_timeout
        builder = (
            Application.builder()
            .token(token)
            .rate_limiter(
                rate_limiter if rate_limiter is not None else AIORateLimiter(max_retries=3)
            )
            .concurrent_updates(64)
        )
        if base_url:
            builder = builder.base_url(base_url)
        if base_file_url:
            builder = builder.base_file_url(base_file_url)
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self._boards: dict[str, _Board] = {}
        self._hands: dict[tuple[str, str], _Hand] = {}
        self._reachable: set[int] = set()
        self._titles: dict[int, str] = {}
        self._migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self._tasks: set[asyncio.Task[Any]] = set()
        self._board_worker: Latest[None] = Latest(self._show_board)
        self._hand_worker: Latest[tuple[p.YourTiles | None, bool]] = Latest(self._show_hand)
        self._group_jobs = Ordered()  # group messages, one ordered worker per chat
        self._render_pool = ThreadPoolExecutor(1, thread_name_prefix="telegram-render")
        self.stats = _Stats()
        self._ready = asyncio.Event()  # set once the bot is connected: deliver() waits
        self._closed = False
        self._gone = asyncio.Event()  # set when the bot stops for good (wait_closed)
        self._install_handlers()
        # Registered at once, so events of tables the manager resumes on start are kept
        # (shown once this front end has started), whichever is started first.
        manager.register(PLATFORM, self)

    # ------------------------------------------------------------------ lifecycle
    @property
    def bot(self) -> Bot:
        return cast(Bot, self.application.bot)

    def _now(self) -> float:
        if self.clock is not None:
            return float(self.clock.now())
        return asyncio.get_running_loop().time()

    async def start(self) -> None:
        """Connect (getMe), set the command menus and start long polling; returns once
        polling runs. (The front end registered itself with the manager when built.)"""
        await self.connect()
        await self.poll()

    async def connect(self) -> None:
        """Connect (getMe: a refused token raises ``InvalidToken`` here) and set the
        command menus; events are sent from now on. No update is read until :meth:`poll`
        (``domino run`` restores the tables in between)."""
        await self.application.initialize()
        self._ready.set()
        await self._set_commands()

    async def poll(self) -> None:
        """Start long polling (after :meth:`connect`); returns once polling runs."""
        await self.application.start()
        assert self.application.updater is not None
        await self.application.updater.start_polling(
            poll_interval=0.0,
            timeout=self.poll_timeout,
            allowed_updates=list(ALLOWED_UPDATES),
            error_callback=self._polling_error,
        )
        log.info("Telegram bot @%s polling", self.bot.username)

    async def stop(self, *, flush_seconds: float = 5.0) -> None:
        """Stop polling, finish showing pending boards (at most ``flush_seconds``), and
        close the connection. Events delivered afterwards are dropped (the tables are
        snapshotted by the manager and redrawn after a restart). Safe to call after a
        failed :meth:`start`."""
        self._closed = True
        self._gone.set()
        self._ready.set()  # release deliveries waiting for a start that will not come
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        try:
            await asyncio.wait_for(self.idle(), flush_seconds)
        except TimeoutError:
            log.warning("stopping with board updates still pending")
        await self._board_worker.close()
        await self._hand_worker.close()
        await self._group_jobs.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.application.shutdown()
        await self.bot.shutdown()  # closes the connections even after a failed start
        self._render_pool.shutdown(wait=False)

    async def wait_closed(self) -> None:
        """Return when the bot can no longer work (its token was revoked) or was stopped."""
        await self._gone.wait()

    def _polling_error(self, error: TelegramError) -> None:
        """getUpdates failed; PTB retries by itself. A revoked token ends the bot."""
        if isinstance(error, InvalidToken):
            log.error("Telegram refused the token while polling; get a new one from @BotFather")
            self._gone.set()
        elif isinstance(error, Conflict):
            log.error("another process is polling with this bot's token; stop it (%s)", error)
        else:
            log.warning("getUpdates failed (%s); retrying", error)

    async def idle(self) -> None:
        """Wait until every board, hand and message scheduled so far has been sent."""
        while (
            self._board_worker.busy
            or self._hand_worker.busy
            or self._group_jobs.busy
            or self._tasks
        ):
            await self._board_worker.idle()
            await self._hand_worker.idle()
            await self._group_jobs.idle()
            if self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _set_commands(self) -> None:
        try:
            await send(lambda: self.bot.set_my_commands(bot_commands("es")))
            await send(lambda: self.bot.set_my_commands(bot_commands("en"), language_code="en"))
        except TelegramError:
            log.exception("could not set the command menus")

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.failures += 1
            log.error("telegram send failed", exc_info=task.exception())

    # ------------------------------------------------------------------ handlers
    def _install_handlers(self) -> None:
        app = self.application
        not_edited = ~filters.UpdateType.EDITED
        for spec in COMMANDS:
            app.add_handler(
                CommandHandler(
                    list(spec.names), getattr(self, f"_cmd_{spec.key}"), filters=not_edited
                )
            )
        app.add_handler(CallbackQueryHandler(self._on_callback))
        app.add_error_handler(self._on_error)

    async def _on_error(self, update: object, context: Context) -> None:
        log.error("error handling a Telegram update", exc_info=context.error)

    # ------------------------------------------------------------------ references
    def _player(self, user: User) -> p.PlayerRef:
        return p.PlayerRef(PLATFORM, str(user.id), user.full_name, language_of(user.language_code))

    def _chat_ref(self, message: Message | Any) -> p.ChatRef | None:
        """The group (and forum topic) a message belongs to; None for a private chat."""
        chat = message.chat
        if chat.type == ChatType.PRIVATE:
            return None
        if chat.title:
            self._titles[chat.id] = chat.title
        thread = message.message_thread_id if getattr(message, "is_topic_message", False) else None
        return p.ChatRef(
            PLATFORM,
            str(chat.id),
            thread_id=str(thread) if thread else None,
            language=self.language,
        )

    def _t(self, language: str) -> Callable[..., str]:
        return translator(language, "telegram")

    async def _reply(
        self, message: Message, text: str, markup: Any = None, *, quote: bool = True
    ) -> Message | None:
        try:
            return await send(lambda: message.reply_text(text, reply_markup=markup, do_quote=quote))
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not reply in chat %s", message.chat.id, exc_info=True)
            return None

    def _group_text(self, chat: p.ChatRef, text: str, markup: Any = None) -> None:
        """Queue a message to a group: sent by the chat's own worker, in order, so its flood
        limit never holds up a player's private messages or the table's events."""
        self._to_group(chat, lambda: self._send_group_text(chat, text, markup))

    def _to_group(self, chat: p.ChatRef, job: Callable[[], Any]) -> None:
        key = self._migrated.get(int(chat.chat_id), int(chat.chat_id))
        self._group_jobs.put(key, job)

    async def _send_group_text(self, chat: p.ChatRef, text: str, markup: Any = None) -> None:
        chat_id = self._migrated.get(int(chat.chat_id), int(chat.chat_id))
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

    async def _private_text(self, user_id: int, text: str, markup: Any = None) -> bool:
        try:
            await send(lambda: self.bot.send_message(user_id, text, reply_markup=markup))
        except Forbidden:
            self._reachable.discard(user_id)
            return False
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not write to user %s", user_id, exc_info=True)
            return False
        self._reachable.add(user_id)
        return True

    async def _can_reach(self, user_id: int) -> bool:
        """Whether the bot may write to the user privately (they started it).

        Probed with a "typing" chat action, which shows nothing lasting, and remembered.
        """
        if user_id in self._reachable:
            return True
        try:
            await send(lambda: self.bot.send_chat_action(user_id, "typing"))
        except Forbidden:
            return False
        except TelegramError:
            log.warning("could not probe user %s", user_id, exc_info=True)
            return False
        self._reachable.add(user_id)
        return True

    def _link(self, link: JoinLink) -> str:
        return deep_link(self.bot.username, encode_start(link))

    async def _send_link(self, message: Message, user: User, link: JoinLink) -> None:
        _ = self._t(self.language)
        await self._reply(
            message,
            _(
                "{name}, I cannot write to you privately yet. Open our private chat and press "
                "Start: you will be seated and your tiles will come there.",
                name=user.full_name,
            ),
            link_keyboard(self._link(link), self.language),
        )

    # ------------------------------------------------------------------ reply to commands
    async def _answer_reply(
        self, message: Message, reply: p.Reply, language: str, text: str = ""
    ) -> None:
        """Show a command's reply: a refusal or ``text`` (the confirmation); private
        tiles privately."""
        if reply.refusal is not None:
            await self._reply(message, refused(reply.refusal, language))
        elif text:
            await self._reply(message, text)
        self._private_events(reply)

    def _private_events(self, reply: p.Reply) -> None:
        for event in reply.events:
            if isinstance(event, p.YourTiles):
                self._hand_worker.put((event.to.user_id, event.table_id), (event, True))

    def _group_only(self, message: Message, language: str) -> bool:
        if message.chat.type == ChatType.PRIVATE:
            self._spawn(
                self._reply(
                    message, self._t(language)("Use this command in a group where I am a member.")
                )
            )
            return False
        return True

    # ------------------------------------------------------------------ commands
    async def _cmd_play(self, update: Update, context: Context) -> None:
        """/jugar, /play: sit at the open table with the fewest free seats, or open one."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        if not self._group_only(message, player.language):
            return
        chat = self._chat_ref(message)
        assert chat is not None
        if not await self._can_reach(user.id):
            thread = int(chat.thread_id) if chat.thread_id else None
            await self._send_link(message, user, JoinLink(message.chat.id, thread))
            return
        reply = await self.manager.handle(p.PlayNow(player, chat))
        lang = player.language
        await self._answer_reply(message, reply, lang, confirmation(p.PlayNow, reply, lang))

    async def _cmd_table(self, update: Update, context: Context) -> None:
        """/mesa, /table: open a table with a preset, options and chosen seats."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        _ = self._t(player.language)
        if not self._group_only(message, player.language):
            return
        chat = self._chat_ref(message)
        assert chat is not None
        args = read_table_args(list(context.args or []))
        if args.errors:
            await self._reply(
                message,
                _(
                    "I do not understand: {words}. Example: /mesa internacional meta=200 "
                    "derecha=robot enfrente=robot:maestro",
                    words=", ".join(args.errors),
                ),
            )
            return
        seats: dict[str, p.PlayerRef | p.RobotSeat | None] = {
            position: p.RobotSeat(level or None) for position, level in args.seats.items()
        }
        for invited in self._invited_users(message, user):
            position = next((x for x in ("across", "right", "left") if x not in seats), None)
            if position is None:
                break
            seats[position] = self._player(invited)
        if not await self._can_reach(user.id):
            thread = int(chat.thread_id) if chat.thread_id else None
            await self._send_link(message, user, JoinLink(message.chat.id, thread))
            return
        reply = await self.manager.handle(
            p.OpenTable(
                player,
                chat,
                preset=args.preset,
                overrides=args.overrides,
                right=seats.get("right"),
                across=seats.get("across"),
                left=seats.get("left"),
            )
        )
        lang = player.language
        await self._answer_reply(message, reply, lang, confirmation(p.OpenTable, reply, lang))

    def _invited_users(self, message: Message, user: User) -> list[User]:
        """People named in a /mesa: the author of the message replied to, then users
        mentioned by name (text mentions carry the user; @usernames cannot be resolved)."""
        out: list[User] = []
        replied = message.reply_to_message
        if replied is not None and replied.from_user is not None:
            out.append(replied.from_user)
        for entity in message.entities:
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                out.append(entity.user)
        seen: set[int] = {user.id}
        unique = []
        for invited in out:
            if invited.is_bot or invited.id in seen:
                continue
            seen.add(invited.id)
            unique.append(invited)
        return unique

    async def _cmd_robots(self, update: Update, context: Context) -> None:
        """/robots [level]: fill the free seats of my waiting table with robots now."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        if not self._group_only(message, player.language):
            return
        chat = self._chat_ref(message)
        assert chat is not None
        level = context.args[0].lower() if context.args else None
        reply = await self.manager.handle(p.FillWithRobots(player, chat, level=level))
        await self._answer_reply(message, reply, player.language)

    async def _cmd_leave(self, update: Update, context: Context) -> None:
        """/salir, /leave: leave my table here (a robot takes the seat during a match)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        reply = await self.manager.handle(p.Leave(player, self._chat_ref(message)))
        lang = player.language
        await self._answer_reply(message, reply, lang, confirmation(p.Leave, reply, lang))

    async def _cmd_tiles(self, update: Update, context: Context) -> None:
        """/fichas, /tiles: my tiles again, privately."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        reply = await self.manager.handle(p.ShowMyTiles(player, self._chat_ref(message)))
        text = ""
        if message.chat.type != ChatType.PRIVATE:
            text = self._t(player.language)("Your tiles are in our private chat.")
        await self._answer_reply(message, reply, player.language, text)

    async def _cmd_back(self, update: Update, context: Context) -> None:
        """/volver, /back: take my seat back from the robot."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        reply = await self.manager.handle(p.ComeBack(player, self._chat_ref(message)))
        await self._answer_reply(message, reply, player.language)

    async def _cmd_balance(self, update: Update, context: Context) -> None:
        """/saldo, /balance: my balance in virtual dollars."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        language = language_of(user.language_code)
        balance = await self.manager.balance(self._player(user))
        await self._reply(
            message,
            self._t(language)(
                "{name}, your balance: ${balance}", name=user.full_name, balance=balance
            ),
        )

    async def _cmd_top(self, update: Update, context: Context) -> None:
        """/top: the ten active players with the highest balance (this group's, or all)."""
        message = update.effective_message
        if message is None:
            return
        user = update.effective_user
        language = language_of(user.language_code if user else None)
        _ = self._t(language)
        chat = self._chat_ref(message)
        rows = await self.manager.top(chat, limit=10)
        if not rows:
            await self._reply(message, _("Nobody has finished a match here yet."))
            return
        lines = [_("Top 10 by balance:")]
        for number, row in enumerate(rows, 1):
            lines.append(f"{number}. {row.display_name} — ${row.value}")
        await self._reply(message, "\n".join(lines))

    async def _chat_rules(self, chat: p.ChatRef) -> tuple[str, dict[str, Any], Rules, bool]:
        info = await self.manager.chat_rules(chat)
        return info.preset, dict(info.overrides), info.rules, info.set_by_admins

    async def _cmd_rules(self, update: Update, context: Context) -> None:
        """/reglas, /rules: this chat's rule set."""
        message, user = update.effective_message, update.effective_user
        if message is None:
            return
        language = language_of(user.language_code if user else None)
        _ = self._t(language)
        chat = self._chat_ref(message)
        if chat is None:
            preset, rules, _set = "venezolano", find_preset("venezolano"), False
            overrides: dict[str, Any] = {}
        else:
            preset, overrides, rules, _set = await self._chat_rules(chat)
        text = rules_text(rules, preset, overrides, language)
        if chat is not None and not _set:
            text += "\n" + _("The admins have not chosen rules: these are the defaults (/config).")
        await self._reply(message, text)

    async def _is_admin(self, message: Message, user: User) -> bool:
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

    async def _cmd_config(self, update: Update, context: Context) -> None:
        """/config: admins choose the chat's preset and single options (menu or words)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        _ = self._t(player.language)
        if not self._group_only(message, player.language):
            return
        chat = self._chat_ref(message)
        assert chat is not None
        if not await self._is_admin(message, user):
            await self._reply(message, _("Only this group's administrators can use /config."))
            return
        preset, overrides, rules, _set = await self._chat_rules(chat)
        if context.args:
            args = read_table_args(list(context.args), seats=False)
            if args.errors:
                await self._reply(
                    message,
                    _(
                        "I do not understand: {words}. Example: /config dominicano meta=150",
                        words=", ".join(args.errors),
                    ),
                )
                return
            new_preset = args.preset or preset
            new_overrides = args.overrides if args.preset else {**overrides, **args.overrides}
            reply = await self.manager.handle(
                p.SetChatRules(player, chat, new_preset, new_overrides, is_admin=True)
            )
            if reply.refusal is not None:
                await self._reply(message, refused(reply.refusal, player.language))
                return
            preset, overrides, rules, _set = await self._chat_rules(chat)
            await self._reply(message, rules_text(rules, preset, overrides, self.language))
            return
        await self._reply(
            message,
            _("Rules of this group (press to change):")
            + "\n"
            + rules_text(rules, preset, overrides, self.language),
            config_keyboard(rules, preset, overrides, self.language),
        )

    async def _cmd_history(self, update: Update, context: Context) -> None:
        """/historial, /history: the last match record (records.md) as a JSON document:
        this group's last match in a group, my last match in private."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        language = language_of(user.language_code)
        _ = self._t(language)
        chat = self._chat_ref(message)
        if chat is not None:
            records = await self.manager.history(chat=chat, limit=1)
        else:
            records = await self.manager.history(player=self._player(user), limit=1)
        if not records:
            await self._reply(message, _("No finished match yet."))
            return
        last = records[0]
        data = json.dumps(last.record, ensure_ascii=False, indent=2).encode()
        try:
            await send(
                lambda: message.reply_document(
                    data,
                    filename=f"partida-{last.match_id}.json",
                    caption=_("Match record {match} (JSON).", match=last.match_id),
                )
            )
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not send the record", exc_info=True)

    async def _cmd_help(self, update: Update, context: Context) -> None:
        """/ayuda, /help: how to play."""
        message, user = update.effective_message, update.effective_user
        if message is None:
            return
        await self._reply(message, help_text(language_of(user.language_code if user else None)))

    async def _cmd_start(self, update: Update, context: Context) -> None:
        """/start [payload]: the private chat works now; a deep link finishes seating."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        player = self._player(user)
        _ = self._t(player.language)
        if message.chat.type != ChatType.PRIVATE:
            await self._reply(message, help_text(player.language))
            return
        self._reachable.add(user.id)
        payload = context.args[0] if context.args else None
        if payload is None:
            await self._reply(
                message,
                _("Hello! Your tiles will come here. Send /jugar in a group to sit at a table."),
                quote=False,
            )
            return
        link = decode_start(payload)
        if link is None or not await self._is_member(link.chat_id, user.id):
            await self._reply(message, _("That link is not valid (any more)."), quote=False)
            return
        chat = p.ChatRef(
            PLATFORM,
            str(link.chat_id),
            thread_id=str(link.thread_id) if link.thread_id else None,
            language=self.language,
        )
        command: p.Command
        if link.table_id is None:
            command = p.PlayNow(player, chat)
        else:
            command = p.SitAt(player, chat, link.table_id, link.seat)
        reply = await self.manager.handle(command)
        if reply.refusal is None:
            group = self._titles.get(link.chat_id, "")
            text = _("You are seated in {group}. Your tiles will come here.", group=group)
            if not group:
                text = _("You are seated. Your tiles will come here.")
            text = confirmation(type(command), reply, player.language) + "\n" + text
            await self._answer_reply(message, reply, player.language, text)
            return
        await self._answer_reply(message, reply, player.language)

    async def _is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user belongs to the group a deep link names (links are untrusted)."""
        try:
            member = await send(lambda: self.bot.get_chat_member(chat_id, user_id))
        except TelegramError:
            return False
        return member.status not in (ChatMember.LEFT, ChatMember.BANNED)

    # ------------------------------------------------------------------ callbacks
    async def _answer(
        self,
        query: CallbackQuery,
        text: str | None = None,
        *,
        alert: bool = False,
        url: str | None = None,
    ) -> None:
        try:
            await send(
                lambda: query.answer(
                    text=text[:ALERT_LIMIT] if text else None, show_alert=alert, url=url
                )
            )
        except TelegramError:
            log.warning("could not answer callback %s", query.id, exc_info=True)

    async def _on_callback(self, update: Update, context: Context) -> None:
        """A button press: answered at once (an alert when refused), then shown."""
        query = update.callback_query
        if query is None:
            return
        user = query.from_user
        player = self._player(user)
        message = query.message
        chat = self._chat_ref(message) if message is not None else None
        config = decode_config(query.data)
        if config is not None:
            await self._on_config(query, player, chat, config)
            return
        data = query.data or ""
        try:
            press = p.decode_press(data)
        except p.ForgedPress:
            press = None  # the core refuses it with its own words
        if (
            press is not None
            and press.kind == "sit"
            and chat is not None
            and not await self._can_reach(user.id)
        ):
            seat = int(press.code) if press.code else None
            thread = int(chat.thread_id) if chat.thread_id else None
            url = self._link(JoinLink(int(chat.chat_id), thread, press.table_id, seat))
            await self._answer(query, url=url)
            return
        reply = await self.manager.handle(p.PressButton(player, data, chat))
        if reply.refusal is not None:
            await self._answer(query, refused(reply.refusal, player.language), alert=True)
        else:
            done = confirmation(press.kind, reply, player.language) if press else ""
            await self._answer(query, done or None)
        self._private_events(reply)

    async def _on_config(
        self, query: CallbackQuery, player: p.PlayerRef, chat: p.ChatRef | None, press: Any
    ) -> None:
        _ = self._t(player.language)
        message = query.message
        if chat is None or not isinstance(message, Message):
            await self._answer(query, _("This menu works in groups only."), alert=True)
            return
        if not await self._is_admin(message, query.from_user):
            await self._answer(
                query, _("Only this group's administrators can change its rules."), alert=True
            )
            return
        if press.action == "close":
            await self._answer(query)
            try:
                await send(lambda: message.edit_reply_markup(reply_markup=None))
            except TelegramError:
                log.warning("could not close the menu", exc_info=True)
            return
        preset, overrides, rules, _set = await self._chat_rules(chat)
        if press.action == "preset":
            if press.name not in PRESET_NAMES:
                await self._answer(query, _("That button is not valid."), alert=True)
                return
            preset, overrides = press.name, {}
        else:
            if press.name not in MENU_CHOICES:
                await self._answer(query, _("That button is not valid."), alert=True)
                return
            overrides = {
                **overrides,
                press.name: next_choice(press.name, getattr(rules, press.name)),
            }
        reply = await self.manager.handle(
            p.SetChatRules(player, chat, preset, overrides, is_admin=True)
        )
        if reply.refusal is not None:
            await self._answer(query, refused(reply.refusal, player.language), alert=True)
            return
        await self._answer(query, _("Saved."))
        preset, overrides, rules, _set = await self._chat_rules(chat)
        text = (
            _("Rules of this group (press to change):")
            + "\n"
            + rules_text(rules, preset, overrides, self.language)
        )
        try:
            await send(
                lambda: message.edit_text(
                    text, reply_markup=config_keyboard(rules, preset, overrides, self.language)
                )
            )
        except TelegramError:
            log.warning("could not update the menu", exc_info=True)

    # ------------------------------------------------------------------ events (Port)
    async def deliver(self, event: p.Event) -> None:
        """Show a manager event (:class:`bot.core.Port`). Boards and hands are drawn by
        background workers (newest state first); group messages are queued to their chat's
        worker (in order per chat, never awaited here: a group's flood limit must not hold
        up the table's next events, such as a player's private turn). Events that come
        before :meth:`connect` wait for it."""
        if not self._ready.is_set():
            await self._ready.wait()
        if self._closed:
            return
        board: _Board | None
        if isinstance(event, p.TableChanged):
            board = self._board_for(event.table_id, event.chat)
            board.event = event
            board.label = event.label
            self._board_worker.put(event.table_id, None)
        elif isinstance(event, p.YourTiles):
            self._hand_worker.put((event.to.user_id, event.table_id), (event, False))
        elif isinstance(event, p.EmoteShown):
            board = self._boards.get(event.table_id)
            if board is not None and board.event is not None:
                label = emote_label(event.name, board.language)
                board.emote = (f"{event.player.display_name}: {label}", self._now() + EMOTE_SECONDS)
                self._board_worker.put(event.table_id, None)
        elif isinstance(event, p.HandEnded):
            self._clear_buttons(event.table_id)
            board = self._boards.get(event.table_id)
            seats = board.event.seats if board and board.event else ()
            if len(seats) == 4:
                text = hand_ended_text(event, seats, board.label if board else "", self.language)
                self._group_text(event.chat, text)
        elif isinstance(event, p.MatchEnded):
            self._clear_buttons(event.table_id)
            board = self._boards.get(event.table_id)
            if board is not None and board.event is not None:
                # The final position, as the match result says it (the last move ended it).
                board.event = replace(
                    board.event,
                    phase=p.Phase.ENDED,
                    seats=event.seats,
                    view=event.view,
                    turn=None,
                    deadline=None,
                    seconds_left=None,
                )
                self._board_worker.put(event.table_id, None)
            label = board.label if board else event.table_id
            self._to_group(event.chat, functools.partial(self._match_ended, event, label))
        elif isinstance(event, p.SeatTakenByRobot):
            await self._seat_taken(event)
        elif isinstance(event, p.SeatGivenBack):
            _ = self._t(self.language)
            self._group_text(
                event.chat, _("{name} is back at the table.", name=event.player.display_name)
            )
        elif isinstance(event, p.PlayerSeated):
            await self._check_seated(event)
        elif isinstance(event, p.TableClosed):
            self._clear_buttons(event.table_id, forget=True)
            board = self._boards.get(event.table_id)
            if board is not None:
                board.closed = event.reason
                self._board_worker.put(event.table_id, None)
            if event.reason == "no_humans":
                _ = self._t(self.language)
                label = board.label if board else ""
                self._group_text(
                    event.chat,
                    _("Table {label} closed: no players left. Stakes refunded.", label=label),
                )
        elif isinstance(event, p.ChatRulesChanged):
            _ = self._t(self.language)
            self._group_text(
                event.chat,
                _("{name} changed this group's rules.", name=event.by.display_name)
                + "\n"
                + rules_text(event.rules, event.preset, event.overrides, self.language),
            )
        elif isinstance(event, p.Refusal) and event.to.platform == PLATFORM:
            await self._private_text(int(event.to.user_id), refused(event))

    def _clear_buttons(self, table_id: str, *, forget: bool = False) -> None:
        """Take the move buttons off every private hand message of a table (the hand is
        over: a press there could only be refused); ``forget`` the messages when the table
        is gone."""
        for key in list(self._hands):
            if key[1] == table_id:
                self._hand_worker.put(key, (None, forget))

    def _board_for(self, table_id: str, chat: p.ChatRef) -> _Board:
        board = self._boards.get(table_id)
        if board is None:
            board = _Board(
                self._migrated.get(int(chat.chat_id), int(chat.chat_id)),
                int(chat.thread_id) if chat.thread_id else None,
                language_of(chat.language),
            )
            # A table resumed after a restart keeps editing the board message it had.
            note = self.manager.front_end_note(table_id, BOARD_NOTE)
            if isinstance(note, dict):
                chat_id, message_id = note.get("chat_id"), note.get("message_id")
                if isinstance(chat_id, int) and isinstance(message_id, int):
                    board.chat_id, board.message_id = chat_id, message_id
                    board.noted = (chat_id, message_id)
            self._boards[table_id] = board
        return board

    async def _note_board(self, table_id: str, board: _Board) -> None:
        """Keep where the board message is with the table (it survives a restart)."""
        if board.message_id is None or (board.chat_id, board.message_id) == board.noted:
            return
        where = (board.chat_id, board.message_id)
        try:
            await self.manager.set_front_end_note(
                table_id, BOARD_NOTE, {"chat_id": where[0], "message_id": where[1]}
            )
        except Exception:  # a note not kept only costs a new board after a restart
            log.warning("could not keep the board note of table %s", table_id, exc_info=True)
            return
        board.noted = where

    async def _check_seated(self, event: p.PlayerSeated) -> None:
        """Nobody is dealt in whom the bot cannot reach privately: such a player is
        unseated (before the match) and given the deep link."""
        if event.player.platform != PLATFORM:
            return
        user_id = int(event.player.user_id)
        if await self._can_reach(user_id):
            return
        await self.manager.handle(p.Leave(event.player, event.chat, event.table_id))
        _ = self._t(self.language)
        thread = int(event.chat.thread_id) if event.chat.thread_id else None
        url = self._link(JoinLink(int(event.chat.chat_id), thread, event.table_id, event.seat))
        self._group_text(
            event.chat,
            _(
                "{name}, I cannot write to you privately yet. Open our private chat and press "
                "Start: you will be seated and your tiles will come there.",
                name=event.player.display_name,
            ),
            link_keyboard(url, self.language),
        )

    async def _seat_taken(self, event: p.SeatTakenByRobot) -> None:
        _ = self._t(self.language)
        minutes = max(1, round((event.back_by - self._now()) / 60))
        self._group_text(
            event.chat,
            _(
                "A robot plays for {name} now; they can come back within {minutes} min (/volver).",
                name=event.player.display_name,
                minutes=minutes,
            ),
        )
        if event.player.platform == PLATFORM:
            language = event.player.language
            board = self._boards.get(event.table_id)
            await self._private_text(
                int(event.player.user_id),
                self._t(language)(
                    "A robot plays for you at table {label}. Come back within {minutes} min to keep "
                    "your seat and your stake.",
                    label=board.label if board else event.table_id,
                    minutes=minutes,
                ),
                back_keyboard(event.table_id, language),
            )

    async def _match_ended(self, event: p.MatchEnded, label: str) -> None:
        from render import match_result_png

        caption = match_ended_caption(event, label, self.language)
        facts = table_facts(event.seats, label, self.language)
        png = await self._render(match_result_png, event.view, facts, dict(event.payouts))
        thread = int(event.chat.thread_id) if event.chat.thread_id else None
        try:
            await send(
                lambda: self.bot.send_photo(
                    self._migrated.get(int(event.chat.chat_id), int(event.chat.chat_id)),
                    png,
                    caption=caption,
                    reply_markup=rematch_keyboard(event.table_id, self.language),
                    message_thread_id=thread,
                )
            )
        except TelegramError:
            self.stats.failures += 1
            log.warning("could not send the match result", exc_info=True)

    # ------------------------------------------------------------------ drawing
    async def _render(self, function: Callable[..., bytes], *args: Any) -> bytes:
        loop = asyncio.get_running_loop()
        started = loop.time()
        png = await loop.run_in_executor(self._render_pool, function, *args)
        self.stats.render_seconds += loop.time() - started
        return png

    async def _show_board(self, table_id: str, _state: None) -> None:
        from render import board_png, waiting_png

        board = self._boards.get(table_id)
        if board is None or board.event is None:
            return
        event = board.event
        emote = None
        if board.emote is not None:
            if board.emote[1] >= self._now():
                emote = board.emote[0]
            else:
                board.emote = None
        caption = board_caption(event, board.language, emote=emote)
        closed = board.closed
        markup = None if closed else board_keyboard(event, board.language)
        if closed and event.phase != "ended":
            caption += "\n" + self._t(board.language)("This table is closed.")
        draw: Callable[[], bytes]
        picture: tuple[Any, ...]
        if event.view is None:  # seats still filling, or the countdown: no hand yet
            starting = event.phase == "countdown"
            facts = board_facts(event, board.language)  # with the seconds to the timer
            picture = ("waiting", event.rules, facts, starting)
            draw = functools.partial(waiting_png, event.rules, facts, starting=starting)
        else:
            facts = table_facts(event.seats, event.label, board.language)
            picture = ("board", event.view, facts)
            draw = functools.partial(board_png, event.view, facts)
        markup_key = markup.to_dict() if markup is not None else None
        for _attempt in range(2):
            try:
                if board.message_id is None:
                    png = await self._render(draw)
                    message = await send(
                        lambda png=png: self.bot.send_photo(  # type: ignore[misc]
                            board.chat_id,
                            png,
                            caption=caption,
                            reply_markup=markup,
                            message_thread_id=board.thread_id,
                        )
                    )
                    board.message_id = message.message_id
                    self.stats.board_sends += 1
                elif picture != board.picture:
                    png = await self._render(draw)
                    result = await send(
                        lambda png=png: self.bot.edit_message_media(  # type: ignore[misc]
                            InputMediaPhoto(png, caption=caption),
                            chat_id=board.chat_id,
                            message_id=board.message_id,
                            reply_markup=markup,
                        )
                    )
                    self.stats.board_edits += result is not NOT_MODIFIED
                elif caption != board.caption or markup_key != board.markup:
                    await send(
                        lambda: self.bot.edit_message_caption(
                            chat_id=board.chat_id,
                            message_id=board.message_id,
                            caption=caption,
                            reply_markup=markup,
                        )
                    )
                    self.stats.board_edits += 1
            except ChatMigrated as error:  # the group became a supergroup: new id
                self._migrated[board.chat_id] = error.new_chat_id
                board.chat_id = error.new_chat_id
                board.message_id = None
                continue
            except TelegramError as error:
                if is_gone(error) and board.message_id is not None:
                    board.message_id = None  # someone deleted it: post a new board
                    continue
                self.stats.failures += 1
                raise
            board.picture, board.caption, board.markup = picture, caption, markup_key
            break
        if closed:
            self._boards.pop(table_id, None)
        else:
            await self._note_board(table_id, board)

    async def _show_hand(
        self, key: tuple[str, str], state: tuple[p.YourTiles | None, bool]
    ) -> None:
        from render import hand_png

        event, force = state
        slot = self._hands.setdefault(key, _Hand())
        if event is None:  # the hand ended (``force``: and the table): no more buttons
            if slot.message_id is not None and slot.shown is not None and slot.shown[2]:
                message_id = slot.message_id
                with contextlib.suppress(Forbidden):
                    await send(
                        lambda: self.bot.edit_message_reply_markup(
                            chat_id=int(key[0]), message_id=message_id, reply_markup=None
                        )
                    )
                slot.shown = (*slot.shown[:2], None)
            if force:  # the table is gone
                self._hands.pop(key, None)
            return
        markup = hand_keyboard(event)
        shown = (event.hand_number, event.view.tiles, markup.to_dict() if markup else None)
        if shown == slot.shown and not force and slot.message_id is not None:
            return
        language = event.to.language
        seconds = None
        if event.is_your_turn and event.deadline is not None:
            seconds = max(0, round(event.deadline - self._now()))
        board = self._boards.get(event.table_id)
        group = self._titles.get(board.chat_id, "") if board else ""
        caption = hand_caption(event, language, group=group or "Telegram", seconds_left=seconds)
        png = await self._render(hand_png, event.view, hand_facts(event, seconds))
        user_id = int(event.to.user_id)
        old = slot.message_id
        try:
            if event.is_your_turn or old is None or force:
                message = await send(
                    lambda: self.bot.send_photo(user_id, png, caption=caption, reply_markup=markup)
                )
                slot.message_id = message.message_id
                self.stats.hand_sends += 1
                if old is not None:
                    self._spawn(self._delete(user_id, old))
            else:
                await send(
                    lambda: self.bot.edit_message_media(
                        InputMediaPhoto(png, caption=caption),
                        chat_id=user_id,
                        message_id=old,
                        reply_markup=markup,
                    )
                )
        except Forbidden:
            self._reachable.discard(user_id)
            if not slot.warned and board is not None:
                slot.warned = True
                await self._warn_unreachable(event, board)
            return
        except TelegramError as error:
            if is_gone(error):
                slot.message_id = None
                slot.shown = None
                self._hand_worker.put(key, (event, True))
                return
            self.stats.failures += 1
            raise
        self._reachable.add(user_id)
        slot.shown = shown

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await send(lambda: self.bot.delete_message(chat_id, message_id))
        except TelegramError:
            log.info("could not delete message %s in %s", message_id, chat_id)

    async def _warn_unreachable(self, event: p.YourTiles, board: _Board) -> None:
        _ = self._t(board.language)
        thread = board.thread_id
        url = self._link(JoinLink(board.chat_id, thread))
        chat = p.ChatRef(PLATFORM, str(board.chat_id), thread_id=str(thread) if thread else None)
        self._group_text(
            chat,
            _(
                "{name}, I cannot send you your tiles: open our private chat (a robot plays "
                "for you when your time runs out).",
                name=event.to.display_name,
            ),
            link_keyboard(url, board.language),
        )
