"""The Telegram front end: python-telegram-bot in, table-manager commands out, events back.

:class:`TelegramFrontEnd` is thin (design.md, "Adapters are thin"): a command, a button
press or a deep link becomes one :mod:`bot.core` command with a platform-neutral
:class:`~bot.core.PlayerRef`; each manager event becomes a message, a picture or an
edit. No rule, score or money is decided here. Its parts, sharing one
:class:`~bot.telegram.shared.Shared`:

* :mod:`bot.telegram.handlers`: the slash commands.
* :mod:`bot.telegram.callbacks`: button presses and the admins' /config menu.
* :mod:`bot.telegram.moves`: moves sent as private messages (a turn keyboard's button).
* :mod:`bot.telegram.reading`: getUpdates that skips an update PTB cannot parse.
* :mod:`bot.telegram.chats`: a group's own life (the bot added or removed, the group
  upgraded to a supergroup).
* :mod:`bot.telegram.port`: the core's events as messages.
* :mod:`bot.telegram.drawing`: the board (one photo per table in its group, edited in
  place, newest state first) and each player's private tiles.

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
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Bot, User
from telegram.error import Conflict, InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

import bot.core as p
from bot.pacing import BOARD_SPACING, PRIVATE_GAP
from bot.present.i18n import language_of
from bot.present.live import TableLinks
from bot.telegram.callbacks import Callbacks
from bot.telegram.chats import Chats
from bot.telegram.commands import COMMANDS, bot_commands
from bot.telegram.drawing import Drawing
from bot.telegram.handlers import Commands
from bot.telegram.moves import Moves
from bot.telegram.port import TelegramPort
from bot.telegram.reading import ReadingBot
from bot.telegram.sender import rate_limiter as default_rate_limiter
from bot.telegram.sender import send
from bot.telegram.shared import BOARD_NOTE, PLATFORM, Board, Hand, Shared, Stats
from storage.base import Storage

__all__ = ["ALLOWED_UPDATES", "BOARD_NOTE", "PLATFORM", "TelegramFrontEnd"]

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
"""The only updates the bot asks Telegram for (getUpdates ``allowed_updates``)."""

STOP_WAIT = 3.0
"""Seconds :meth:`TelegramFrontEnd.stop` waits at most for what is unsent (the default of
``DOMINO_STOP_WAIT_SECONDS``)."""


class TelegramFrontEnd:
    """Hosts tables in Telegram groups (a :class:`bot.core.Port` for ``"telegram"``).

    Args:
        token: the bot token from BotFather (``TELEGRAM_TOKEN``).
        manager: the core (:class:`bot.core.Manager`, e.g. a ``TableManager``); the front
            end registers itself as its ``"telegram"`` port (do not register it again).
        storage: the :class:`storage.base.Storage` (kept for tools; balances, rankings,
            rules and records are read through the manager).
        base_url: a self-hosted Bot API server (``TELEGRAM_API_BASE_URL``), e.g.
            ``"http://localhost:8081/bot"``; None for api.telegram.org.
        base_file_url: its file URL (``TELEGRAM_FILE_BASE_URL``).
        clock: the manager's clock (``now()`` in epoch seconds); by default the
            manager's ``clock`` attribute.
        rate_limiter: PTB's rate limiter; by default :func:`bot.telegram.sender.rate_limiter`
            (Telegram's flood limits: about 30 messages a second, 20 a minute per group).
        language: the language of group messages (``"es"`` or ``"en"``).
        poll_timeout: seconds of each getUpdates long poll.
        board_spacing: the fewest seconds between two edits of a group's board; the
            moves made meanwhile are shown by one edit (0: every move as it comes).
        private_gap: seconds between two requests made at once in one private chat
            (Telegram's one message a second there; 0: none).
        before_poll: asked before each getUpdates (``domino run``: whether this process
            still holds the Telegram lease); False reads nothing.
        stop_wait: seconds :meth:`stop` waits at most for what is still unsent
            (``DOMINO_STOP_WAIT_SECONDS``).
    """

    def __init__(
        self,
        token: str,
        manager: p.Manager,
        storage: Storage,
        *,
        base_url: str | None = None,
        base_file_url: str | None = None,
        clock: p.Clock | None = None,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        language: str = "es",
        poll_timeout: int = 10,
        links: TableLinks | None = None,
        webapp: str | None = None,
        board_spacing: float = BOARD_SPACING,
        private_gap: float = PRIVATE_GAP,
        before_poll: Callable[[], Awaitable[bool]] | None = None,
        stop_wait: float = STOP_WAIT,
    ) -> None:
        self.manager = manager
        self.stop_wait = stop_wait
        self._stop_by: float | None = None  # loop time: the stop's waits end (first hurry)
        self.storage = storage
        self.clock: p.Clock | None = clock if clock is not None else getattr(manager, "clock", None)
        self.language = language_of(language)
        self.poll_timeout = poll_timeout
        # PTB's own bot, except that an update it cannot parse is skipped, not fetched
        # again for ever (bot.telegram.reading); the requests as PTB's builder makes them.
        reader = ReadingBot(
            token,
            base_url=base_url or "https://api.telegram.org/bot",
            base_file_url=base_file_url or "https://api.telegram.org/file/bot",
            request=HTTPXRequest(connection_pool_size=256),
            get_updates_request=(
                HTTPXRequest(connection_pool_size=1)
                if before_poll is None
                else _GatedRequest(before_poll)
            ),
            rate_limiter=rate_limiter if rate_limiter is not None else default_rate_limiter(),
        )
        builder = Application.builder().bot(reader).concurrent_updates(64)
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.shared = Shared(
            self.application, manager, self.clock, self.language, links=links, webapp=webapp
        )
        self.drawing = Drawing(self.shared, board_spacing=board_spacing, private_gap=private_gap)
        self.port = TelegramPort(self.shared, self.drawing)
        self.commands = Commands(self.shared, self.drawing)
        self.callbacks = Callbacks(self.shared, self.drawing)
        self.moves = Moves(self.shared, self.drawing)
        self.chats = Chats(self.shared, self.drawing)
        self._ready = asyncio.Event()  # set once the bot is connected: deliver() waits
        self._closed = False
        self._gone = asyncio.Event()  # set when the bot stops for good (wait_closed)
        self._install_handlers()
        # Registered at once, so events of tables the manager resumes on start are kept
        # (shown once this front end has started), whichever is started first.
        manager.register(PLATFORM, self)

    # ------------------------------------------------------------------ shared state
    @property
    def bot(self) -> Bot:
        return self.shared.bot

    @property
    def stats(self) -> Stats:
        return self.shared.stats

    @property
    def _boards(self) -> dict[str, Board]:
        return self.shared.boards

    @property
    def _hands(self) -> dict[tuple[str, str], Hand]:
        return self.shared.hands

    def _player(self, user: User) -> p.PlayerRef:
        return self.shared.player(user)

    # ------------------------------------------------------------------ lifecycle
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

    async def stop(self, *, flush_seconds: float | None = None) -> None:
        """Stop polling, show pending boards at once and finish sending (at most
        ``flush_seconds``, by default what is left of the front end's ``stop_wait``
        counted from the first :meth:`hurry`, so a flush before this and this wait no
        longer than the setting together; what is still unsent then is logged), and close
        the connection. Events delivered afterwards are
        dropped (the tables are snapshotted by the manager and redrawn after a restart).
        Safe to call after a failed :meth:`start`."""
        self._closed = True
        self._gone.set()
        self._ready.set()  # release deliveries waiting for a start that will not come
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        self.hurry()
        assert self._stop_by is not None
        left = max(0.0, self._stop_by - asyncio.get_running_loop().time())
        wait = left if flush_seconds is None else flush_seconds
        try:
            await asyncio.wait_for(self.idle(), wait)
        except TimeoutError:
            log.warning("stopping after %g s with %s still unsent", wait, self.unsent())
        await self.drawing.close()
        await self.shared.group_jobs.close()
        tasks = self.shared.tasks
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.application.shutdown()
        await self.bot.shutdown()  # closes the connections even after a failed start
        self.drawing.shutdown()

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

    def hurry(self) -> None:
        """The bot is about to stop: boards are shown at once, not spaced (what is held is
        sent in the shortest time Telegram allows). The first call starts the stop's
        ``stop_wait`` seconds (see :meth:`stop`)."""
        if self._stop_by is None:
            self._stop_by = asyncio.get_running_loop().time() + self.stop_wait
        self.drawing.hurry()

    def unsent(self) -> str:
        """What is not sent yet, for the log: which chats, how many, which kind, e.g.
        ``"2 board(s) (chats -100123, -100456); 1 player's tiles (users 1001); 3 group
        message(s) (-100123: 3)"``; ``"nothing"`` when all is sent."""
        shared, parts = self.shared, []
        tables = self.drawing.boards.unshown()
        if tables:
            chats = sorted({b.chat_id for t in tables if (b := shared.boards.get(t)) is not None})
            parts.append(f"{len(tables)} board(s) (chats {', '.join(map(str, chats))})")
        hands = self.drawing.hands.unshown()
        if hands:
            users = sorted({str(user) for user, _table in hands})
            parts.append(f"{len(hands)} player's tiles (users {', '.join(users)})")
        groups = shared.group_jobs.unsent()
        if groups:
            each = ", ".join(f"{chat}: {n}" for chat, n in sorted(groups.items()))
            parts.append(f"{sum(groups.values())} group message(s) ({each})")
        if shared.tasks:
            parts.append(f"{len(shared.tasks)} other send(s) (answers, private messages)")
        return "; ".join(parts) or "nothing"

    async def idle(self) -> None:
        """Wait until every board, hand and message scheduled so far has been sent."""
        shared = self.shared
        while self.drawing.busy or shared.group_jobs.busy or shared.tasks:
            await self.drawing.idle()
            await shared.group_jobs.idle()
            if shared.tasks:
                await asyncio.wait(list(shared.tasks))  # a timeout must not cancel them

    async def _set_commands(self) -> None:
        try:
            await send(lambda: self.bot.set_my_commands(bot_commands("es")))
            await send(lambda: self.bot.set_my_commands(bot_commands("en"), language_code="en"))
        except TelegramError:
            log.exception("could not set the command menus")

    def _install_handlers(self) -> None:
        app = self.application
        not_edited = ~filters.UpdateType.EDITED
        for spec in COMMANDS:
            handler = self.commands.handler(spec.key)
            app.add_handler(CommandHandler(list(spec.names), handler, filters=not_edited))
        # Any other command in a private chat: the help (a group's are for other bots too).
        private_command = filters.ChatType.PRIVATE & filters.COMMAND & not_edited
        app.add_handler(MessageHandler(private_command, self.commands.unknown))
        app.add_handler(CallbackQueryHandler(self.callbacks.on_callback))
        private_text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND & not_edited
        app.add_handler(MessageHandler(private_text, self.moves.on_text))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.chats.on_migrate))
        app.add_handler(
            ChatMemberHandler(self.chats.on_my_member, ChatMemberHandler.MY_CHAT_MEMBER)
        )
        app.add_error_handler(self._on_error)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error handling a Telegram update", exc_info=context.error)

    # ------------------------------------------------------------------ events (Port)
    async def deliver(self, event: p.Event) -> None:
        """Show a manager event (:class:`bot.core.Port`, see :mod:`bot.telegram.port`).
        Events that come before :meth:`connect` wait for it."""
        if not self._ready.is_set():
            await self._ready.wait()
        if self._closed:
            return
        await self.port.deliver(event)


class _GatedRequest(HTTPXRequest):
    """The getUpdates connection of a process that holds the Telegram lease: each poll
    asks ``gate`` (``bot.core.leases``: renewed if due) before it is sent and again when
    its answer comes, and a process that lost the lease reads no update: they stay for the
    process that holds it (Telegram confirms updates only by the next poll's offset). The
    second ask is for a poll in flight while the process was stopped (SIGSTOP, a frozen
    VM): woken after a standby took over, it must not answer what it fetched."""

    def __init__(self, gate: Callable[[], Awaitable[bool]]) -> None:
        super().__init__(connection_pool_size=1)
        self._gate = gate

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        if not await self._gate():
            raise NetworkError("the Telegram lease is lost: not polling")
        answer = await super().do_request(*args, **kwargs)
        if not await self._gate():
            raise NetworkError("the Telegram lease was lost during the poll: its updates are left")
        return answer
