"""A small fake Telegram Bot API server on 127.0.0.1, for driving the real PTB against.

The fake records every request (method, decoded parameters, uploaded files) and keeps just
enough state to answer like Telegram does: users (who started the bot or not), groups
(admins, forum topics), every message the bot sent (so edits can answer "message is not
modified" and callback queries can carry the real message), and a queue of updates served
by long polling (``getUpdates``).

Update payloads are built with PTB's own classes (``telegram.Update``, ``Message``,
``CallbackQuery``...) and serialised with ``to_dict()``, so the library parses exactly what
it would get from Telegram: a command carries its ``bot_command`` entity (without it PTB
ignores the command silently); an update PTB cannot parse is queued only on purpose
(``push(..., checked=False)``, :meth:`FakeTelegram.unreadable_member_update`).

Typical use (an async test)::

    async with FakeTelegram() as fake:
        alice = fake.add_user(1001, "Alicia")
        group = fake.add_group(-100500, "Dominó", admins={1001})
        bot = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
        fake.send_command(group, alice, "/jugar")
        call = await fake.wait_for("sendPhoto", lambda c: c.chat_id == group.id)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from telegram import (
    CallbackQuery,
    Chat,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    ChatMemberUpdated,
    Message,
    MessageEntity,
    Update,
    User,
)

__all__ = ["Call", "FakeTelegram", "TelegramFailure", "TelegramLimits", "TelegramWorld"]

# Parameters sent JSON-encoded by PTB (everything else arrives as a plain string).
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "media",
        "commands",
        "scope",
        "allowed_updates",
        "entities",
        "caption_entities",
        "link_preview_options",
        "reply_parameters",
        "show_caption_above_media",
        "disable_notification",
        "protect_content",
        "show_alert",
        "drop_pending_updates",
        "has_spoiler",
        "disable_content_type_detection",
        "allow_sending_without_reply",
    }
)
_INT_FIELDS = frozenset(
    {
        "chat_id",
        "message_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "message_thread_id",
        "cache_time",
        "from_chat_id",
    }
)

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply "
    "markup are exactly the same as a current content and reply markup of the message"
)
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
TEXT_LIMIT = 4096  # characters of a message's text
KICKED = "Forbidden: bot was kicked from the supergroup chat"
ANONYMOUS_ADMIN = 1087968824  # @GroupAnonymousBot, the author of anonymous admins' messages
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)  # a ban "until_date" of 0: for ever


# Methods that put or change a message in a chat: what Telegram's flood limits count.
_MESSAGE_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendMediaGroup",
        "copyMessage",
        "forwardMessage",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        "deleteMessages",
    }
)


class _Bucket:
    """A token bucket: ``capacity`` requests at once, refilled at ``rate`` per second
    (the leaky bucket PTB's AIORateLimiter also uses: N per period, bursts up to N)."""

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.at = now

    def wait(self, now: float) -> float:
        """Seconds until one request fits (0: it fits now)."""
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


@dataclass
class TelegramLimits:
    """Telegram's documented flood limits, enforced by the fake when switched on
    (``FakeTelegram(limits=...)`` or ``fake.limits = ...``; off by default).

    Counted: the requests that send, edit or delete a message (:data:`_MESSAGE_METHODS`);
    answerCallbackQuery, getUpdates and the read-only methods are free, as on Telegram.
    Each limit is a token bucket (``N`` per period, bursts up to ``burst`` or ``N``).
    Over a limit the request is refused with HTTP 429 ``Too Many Requests: retry after N``
    and ``parameters.retry_after`` (whole seconds, at least 1), and changes nothing.

    ``time_scale`` > 1 compresses time (a bench playing at ``time_scale`` times human
    speed): every period is divided by it, and ``retry_after`` is given in real seconds
    (a float) less ``client_pad`` * (1 - 1/time_scale), so that a client adding
    ``client_pad`` to it (PTB's AIORateLimiter adds 0.1 s) waits the scaled time.
    ``clock`` is the buckets' time in seconds (``time.perf_counter`` by default); a test
    that counts refusals gives a frozen one, so a slow machine refills nothing.
    """

    overall_per_second: float = 30.0  # per bot, every chat together
    group_per_minute: float = 20.0  # per group or supergroup
    private_per_second: float = 1.0  # per private chat
    private_burst: float = 1.0
    time_scale: float = 1.0
    client_pad: float = 0.0
    clock: Callable[[], float] = time.perf_counter
    refused: int = 0  # requests answered 429 so far
    refused_by: dict[str, int] = field(default_factory=dict)  # "overall", "group", "private"
    _buckets: dict[Any, _Bucket] = field(default_factory=dict, repr=False)

    def _bucket(self, key: Any, capacity: float, per: float, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(capacity, capacity / per, now)
        return bucket

    def check(self, method: str, chat_id: Any, now: float) -> tuple[int, float] | None:
        """None when the request may go (it is counted), else (the whole seconds Telegram
        would name, the ``retry_after`` to answer)."""
        if method not in _MESSAGE_METHODS or not isinstance(chat_id, int):
            return None
        scale = self.time_scale
        buckets = [self._bucket("overall", self.overall_per_second, 1.0 / scale, now)]
        if chat_id < 0:
            buckets.append(self._bucket(chat_id, self.group_per_minute, 60.0 / scale, now))
        else:
            per = self.private_burst / self.private_per_second / scale
            buckets.append(self._bucket(chat_id, self.private_burst, per, now))
        waits = [b.wait(now) for b in buckets]
        wait = max(waits)
        if wait <= 0:
            for bucket in buckets:
                bucket.take()
            return None
        self.refused += 1
        kind = "overall" if waits[0] == wait else ("group" if chat_id < 0 else "private")
        self.refused_by[kind] = self.refused_by.get(kind, 0) + 1
        seconds = max(1, math.ceil(wait * scale))  # Telegram's whole seconds
        if scale == 1:
            return seconds, seconds
        return seconds, max(0.001, seconds / scale - self.client_pad * (1 - 1 / scale))


@dataclass
class Call:
    """One request the bot made.

    Attributes:
        method: the Bot API method, e.g. ``"sendPhoto"``.
        params: decoded parameters (ints for ids, dicts/lists for JSON fields).
        files: uploaded multipart files, part name -> bytes.
        at: ``time.perf_counter()`` when the request arrived.
        status: the HTTP status answered (200, 400, 403, 429...).
        result: the ``result`` answered on success (a dict for a sent message).
    """

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    at: float
    status: int = 200
    result: Any = None
    filenames: dict[str, str] = field(default_factory=dict)

    @property
    def chat_id(self) -> int | str | None:
        return self.params.get("chat_id")

    @property
    def ok(self) -> bool:
        return self.status == 200

    def markup(self) -> dict[str, Any] | None:
        """The inline keyboard sent (``reply_markup``), or None."""
        markup = self.params.get("reply_markup")
        return markup if isinstance(markup, dict) else None

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button of this call, row by row."""
        markup = self.markup() or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def caption(self) -> str | None:
        """The caption sent (also inside ``media`` for editMessageMedia)."""
        if "caption" in self.params:
            return str(self.params["caption"])
        media = self.params.get("media")
        if isinstance(media, dict) and "caption" in media:
            return str(media["caption"])
        return None


@dataclass
class TelegramFailure:
    """A failure to answer instead of the next matching request (injected by a test)."""

    method: str
    status: int
    description: str
    retry_after: int | None = None
    chat_id: int | None = None
    times: int = 1
    network: bool = False  # close the connection instead of answering
    migrate_to: int | None = None  # the group became the supergroup with this id


@dataclass
class _Stored:
    """A message the bot sent, as the fake keeps it."""

    chat_id: int
    message_id: int
    data: dict[str, Any]
    fingerprint: tuple[Any, ...] = field(default=())


class FakeTelegram:
    """The fake Bot API server (see the module docstring).

    Args:
        token: the bot token the fake accepts (any other gets 401 Unauthorized).
        bot_id: the bot's user id.
        bot_username: the bot's @username (for ``/cmd@username`` and deep links).
        limits: Telegram's flood limits to enforce (:class:`TelegramLimits`); None (the
            default) enforces none.
    """

    def __init__(
        self,
        *,
        token: str = "123456:TEST-token",
        bot_id: int = 123456,
        bot_username: str = "domino_test_bot",
        limits: TelegramLimits | None = None,
    ) -> None:
        self.token = token
        self.limits = limits  # Telegram's flood limits, enforced when set
        # called with every answered request (a benchmark's clock: no scanning of calls)
        self.observers: list[Callable[[Call], None]] = []
        self.bot = User(bot_id, "Dominó", is_bot=True, username=bot_username)
        self.calls: list[Call] = []
        self.users: dict[int, User] = {}
        self.started: set[int] = set()  # users with a working private chat
        self.groups: dict[int, Chat] = {}
        self.admins: dict[int, set[int]] = {}
        self.owners: dict[int, int] = {}
        self.messages: dict[tuple[int, int], _Stored] = {}
        # private chat -> the reply keyboard its client shows now (markup, the message's id)
        self.keyboards: dict[int, tuple[dict[str, Any], int]] = {}
        # private chat -> the reply keyboard its client keeps (a one-time keyboard hidden by
        # a press can be opened again from the text field until a remove_keyboard)
        self.kept_keyboards: dict[int, dict[str, Any]] = {}
        self.files: dict[str, bytes] = {}
        self.failures: list[TelegramFailure] = []
        self.holds: list[tuple[str, int | None, asyncio.Event]] = []
        self.migrated: dict[int, int] = {}  # basic group id -> its supergroup's id
        self.kicked: set[int] = set()  # groups the bot was removed from
        self._updates: list[dict[str, Any]] = []
        self.served: dict[int, float] = {}  # update_id -> perf_counter() when handed out
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, Iterator[int]] = {}
        self._file_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._changed: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self._stopping = False
        self.port = 0

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        """The ``base_url`` for PTB (the token is appended by PTB)."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    async def start(self) -> None:
        """Listen on 127.0.0.1, on a free port."""
        self._changed = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.*}", self._handle_file)
        # handler_cancellation: a pending long poll is cancelled at shutdown.
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Stop serving; pending long polls are released at once."""
        self._stopping = True
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ the world
    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "es",
        started: bool = True,
    ) -> User:
        """A Telegram user; ``started=False`` means they never opened the bot's private chat."""
        user = User(
            user_id,
            first_name,
            is_bot=False,
            username=username,
            language_code=language_code,
        )
        self.users[user_id] = user
        if started:
            self.started.add(user_id)
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        admins: Iterable[int] = (),
        owner: int | None = None,
        is_forum: bool = False,
        supergroup: bool = True,
    ) -> Chat:
        """A supergroup (negative id) with its administrators; ``supergroup=False``: a
        basic group (which :meth:`migrate` can upgrade)."""
        kind = Chat.SUPERGROUP if supergroup else Chat.GROUP
        chat = Chat(chat_id, kind, title=title, is_forum=is_forum or None)
        self.groups[chat_id] = chat
        self.admins[chat_id] = set(admins)
        if owner is not None:
            self.owners[chat_id] = owner
        return chat

    def migrate(self, old_id: int, new_id: int, by: User) -> Chat:
        """Basic group ``old_id`` is upgraded to supergroup ``new_id`` by ``by``.

        As Telegram does: both service messages are queued (``migrate_to_chat_id`` in the
        old group, ``migrate_from_chat_id`` in the new one), the old group's messages stay
        behind, and every later request naming the old id is answered 400 with
        ``migrate_to_chat_id``.
        """
        old = self.groups[old_id]
        new = self.add_group(
            new_id,
            old.title or "",
            admins=self.admins.get(old_id, ()),
            owner=self.owners.get(old_id),
        )
        self.migrated[old_id] = new_id
        for chat, notice in (
            (old, {"migrate_to_chat_id": new_id}),
            (new, {"migrate_from_chat_id": old_id}),
        ):
            message = Message(
                message_id=self._next_message_id(chat.id),
                date=datetime.now(UTC),
                chat=chat,
                from_user=by,
                **notice,  # type: ignore[arg-type]
            )
            self.push(Update(next(self._update_ids), message=message))
        return new

    def anonymous_admin_says(self, chat: Chat, text: str) -> int:
        """An administrator writes ``text`` anonymously: Telegram names the group as the
        sender (``sender_chat``) and @GroupAnonymousBot as the author."""
        author = User(ANONYMOUS_ADMIN, "Group", is_bot=True, username="GroupAnonymousBot")
        update = self.message_update(chat, author, text)
        assert update.message is not None
        data = update.to_dict()
        data["message"]["sender_chat"] = chat.to_dict()
        return self.push(data)

    def add_bot(self, chat: Chat, by: User) -> int:
        """``by`` adds the bot to group ``chat`` (a ``my_chat_member`` update)."""
        self.kicked.discard(chat.id)
        return self._my_member(chat, by, ChatMemberLeft(self.bot), ChatMemberMember(self.bot))

    def kick_bot(self, chat: Chat, by: User) -> int:
        """``by`` removes the bot from group ``chat``: a ``my_chat_member`` update, and
        every later request naming the group is answered 403 "bot was kicked"."""
        self.kicked.add(chat.id)
        return self._my_member(
            chat, by, ChatMemberMember(self.bot), ChatMemberBanned(self.bot, until_date=_NEVER)
        )

    def _my_member(self, chat: Chat, by: User, old: Any, new: Any) -> int:
        change = ChatMemberUpdated(chat, by, datetime.now(UTC), old, new)
        return self.push(Update(next(self._update_ids), my_chat_member=change))

    def unreadable_member_update(self, chat: Chat, by: User) -> int:
        """A ``my_chat_member`` update making the bot an administrator, as a Bot API
        server older than 7.3 sends it: without the story rights PTB 22 requires (PTB
        cannot parse it); returns its update_id."""
        change = ChatMemberUpdated(
            chat, by, datetime.now(UTC), ChatMemberLeft(self.bot), ChatMemberMember(self.bot)
        ).to_dict()
        change["new_chat_member"] = {
            "status": "administrator",
            "user": self.bot.to_dict(),
            "can_be_edited": False,
            "is_anonymous": False,
            "can_manage_chat": True,
            "can_delete_messages": True,
            "can_manage_video_chats": False,
            "can_restrict_members": False,
            "can_promote_members": False,
            "can_change_info": False,
            "can_invite_users": True,
        }
        return self.push(
            {"update_id": next(self._update_ids), "my_chat_member": change}, checked=False
        )

    def private_chat(self, user: User) -> Chat:
        return Chat(user.id, Chat.PRIVATE, first_name=user.first_name, username=user.username)

    def fail(
        self,
        method: str,
        *,
        status: int = 400,
        description: str = "Bad Request: injected failure",
        retry_after: int | None = None,
        chat_id: int | None = None,
        times: int = 1,
        network: bool = False,
        migrate_to: int | None = None,
    ) -> TelegramFailure:
        """Answer the next ``times`` matching requests with an error instead.

        ``status=429`` with ``retry_after`` gives PTB a RetryAfter; ``network=True`` drops
        the connection (PTB raises NetworkError).
        """
        failure = TelegramFailure(
            method, status, description, retry_after, chat_id, times, network, migrate_to
        )
        self.failures.append(failure)
        return failure

    def hold(self, method: str, *, chat_id: int | None = None) -> asyncio.Event:
        """Keep every matching request waiting (recorded in :attr:`calls`, not answered:
        its ``result`` stays None) until the returned event is set: a slow or
        flood-limited chat."""
        gate = asyncio.Event()
        self.holds.append((method, chat_id, gate))
        return gate

    # ------------------------------------------------------------------ updates in
    def _next_message_id(self, chat_id: int) -> int:
        ids = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(ids)

    def push(self, update: Update | dict[str, Any], *, checked: bool = True) -> int:
        """Queue an update for getUpdates; returns its update_id. ``checked=False``
        queues it even if PTB cannot read it (an older or newer Bot API server's)."""
        data = update.to_dict() if isinstance(update, Update) else dict(update)
        if checked:  # PTB can read it back (the bot must skip one it cannot)
            Update.de_json(data, None)
        self._updates.append(data)
        self._schedule_notify()
        return int(data["update_id"])

    def message_update(
        self,
        chat: Chat,
        user: User,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: dict[str, Any] | None = None,
        entities: Iterable[MessageEntity] = (),
    ) -> Update:
        """An update with a text message; a leading ``/command`` gets its entity.

        ``reply_to``: the message it answers (a stored dict, e.g. a message a user
        sent, from :meth:`user_message`); ``entities``: more entities (mentions).
        """
        found = list(entities)
        if text.startswith("/"):
            command = text.split()[0]
            found.insert(0, MessageEntity(MessageEntity.BOT_COMMAND, 0, len(command)))
        replied = Message.de_json(reply_to, None) if reply_to is not None else None
        message = Message(
            reply_to_message=replied,
            message_id=self._next_message_id(chat.id),
            date=datetime.now(UTC),
            chat=chat,
            from_user=user,
            text=text,
            entities=tuple(found) or None,
            message_thread_id=thread_id,
            is_topic_message=True if thread_id is not None else None,
        )
        return Update(next(self._update_ids), message=message)

    def send_text(
        self,
        chat: Chat,
        user: User,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: dict[str, Any] | None = None,
        entities: Iterable[MessageEntity] = (),
    ) -> int:
        """A user writes ``text`` in ``chat`` (a command when it starts with ``/``)."""
        if chat.type == Chat.PRIVATE:
            self.started.add(user.id)
        update = self.message_update(
            chat, user, text, thread_id=thread_id, reply_to=reply_to, entities=entities
        )
        return self.push(update)

    def user_message(self, chat: Chat, user: User, text: str) -> dict[str, Any]:
        """A message ``user`` wrote in ``chat`` earlier (not sent to the bot: what a
        reply answers)."""
        return Message(
            message_id=self._next_message_id(chat.id),
            date=datetime.now(UTC),
            chat=chat,
            from_user=user,
            text=text,
        ).to_dict()

    send_command = send_text

    def keyboard_message(self, user: User) -> dict[str, Any] | None:
        """The bot message that brought the reply keyboard ``user``'s client shows now,
        if any (a one-time keyboard is hidden once pressed)."""
        shown = self.keyboards.get(user.id)
        stored = self.messages.get((user.id, shown[1])) if shown is not None else None
        return stored.data if stored is not None else None

    def keyboard_labels(self, user: User) -> list[str]:
        """The buttons of the reply keyboard ``user`` sees now, row by row."""
        shown = self.keyboards.get(user.id)
        if shown is None:
            return []
        rows = shown[0]["keyboard"]
        return [b["text"] if isinstance(b, dict) else str(b) for row in rows for b in row]

    def press_key(self, user: User, label: str) -> int:
        """``user`` presses the reply-keyboard button ``label`` in their private chat: the
        client sends its text as their message (and hides a one-time keyboard). Returns
        the update id. Fails if no such button is shown."""
        shown = self.keyboards.get(user.id)
        if shown is None or label not in self.keyboard_labels(user):
            raise AssertionError(f"{user.first_name} sees no button {label!r}")
        if shown[0].get("one_time_keyboard"):
            self.keyboards.pop(user.id, None)
        return self.send_text(self.private_chat(user), user, label)

    def kept_labels(self, user: User) -> list[str]:
        """The buttons of the reply keyboard ``user``'s client keeps (shown or hidden by
        a press, not removed), row by row."""
        markup = self.kept_keyboards.get(user.id)
        rows = markup["keyboard"] if markup is not None else []
        return [b["text"] if isinstance(b, dict) else str(b) for row in rows for b in row]

    def press_kept_key(self, user: User, label: str) -> int:
        """``user`` opens the keyboard their client keeps and presses ``label`` (its text
        sent as their message). Fails if no such button is kept."""
        if label not in self.kept_labels(user):
            raise AssertionError(f"{user.first_name} keeps no button {label!r}")
        return self.send_text(self.private_chat(user), user, label)

    def press(self, user: User, message: dict[str, Any] | Message, data: str) -> str:
        return self.press_update(user, message, data)[0]

    def press_update(
        self, user: User, message: dict[str, Any] | Message, data: str
    ) -> tuple[str, int]:
        """``user`` presses a button with callback ``data`` on ``message``.

        ``message`` is a message the bot sent (a stored dict, e.g. ``call.result``) or a
        PTB Message. Returns the callback query id (to find its answerCallbackQuery) and
        the update id.
        """
        if isinstance(message, dict):
            stored = self.messages.get((message["chat"]["id"], message["message_id"]))
            msg = Message.de_json(stored.data if stored else message, None)
        else:
            msg = message
        query_id = f"cq{next(self._callback_ids)}"
        query = CallbackQuery(
            id=query_id,
            from_user=user,
            chat_instance=f"ci{msg.chat.id}",
            message=msg,
            data=data,
        )
        update_id = self.push(Update(next(self._update_ids), callback_query=query))
        return query_id, update_id

    # ------------------------------------------------------------------ looking at calls
    def calls_to(self, method: str, *, chat_id: int | None = None) -> list[Call]:
        return [
            c
            for c in self.calls
            if c.method == method and (chat_id is None or c.chat_id == chat_id)
        ]

    async def wait_for(
        self,
        method: str | tuple[str, ...],
        predicate: Callable[[Call], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = 5.0,
    ) -> Call:
        """The first call of ``method`` (a name, or a tuple of names) from index ``after``
        matching ``predicate``.

        Raises:
            TimeoutError: no such call within ``timeout`` seconds.
        """
        assert self._changed is not None
        deadline = time.monotonic() + timeout

        methods = (method,) if isinstance(method, str) else method

        def find() -> Call | None:
            for call in self.calls[after:]:
                if call.method in methods and (predicate is None or predicate(call)):
                    return call
            return None

        async with self._changed:
            while (found := find()) is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {method} call matched within {timeout} s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
            return found

    async def answer_to(self, query_id: str, *, timeout: float = 5.0) -> Call:
        """The answerCallbackQuery for ``query_id``."""
        return await self.wait_for(
            "answerCallbackQuery",
            lambda c: c.params.get("callback_query_id") == query_id,
            timeout=timeout,
        )

    async def drained(self, *, timeout: float = 5.0) -> None:
        """Wait until the bot has fetched every queued update."""
        assert self._changed is not None
        deadline = time.monotonic() + timeout
        async with self._changed:
            while self._updates:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("updates still queued")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    def message(self, chat_id: int, message_id: int) -> dict[str, Any]:
        """The current state of a message the bot sent (after any edits)."""
        return self.messages[(chat_id, message_id)].data

    def messages_in(self, chat_id: int) -> list[dict[str, Any]]:
        return [s.data for (c, _), s in sorted(self.messages.items()) if c == chat_id]

    # ------------------------------------------------------------------ serving
    async def _notify(self) -> None:
        if self._changed is None:
            return
        async with self._changed:
            self._changed.notify_all()

    def _schedule_notify(self) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._notify())

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            raise web.HTTPNotFound()
        path = request.match_info["path"]
        if path not in self.files:
            raise web.HTTPNotFound()
        return web.Response(body=self.files[path])

    async def _read_params(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[str, bytes], dict[str, str]]:
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        filenames: dict[str, str] = {}
        if request.content_type == "application/json":
            body = await request.json()
            params.update(body if isinstance(body, dict) else {})
        else:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = value.file.read()
                    filenames[key] = value.filename
                else:
                    params[key] = value
        params.update(request.query)
        for key, value in list(params.items()):
            if not isinstance(value, str):
                continue
            if key in _JSON_FIELDS:
                with contextlib.suppress(ValueError):
                    params[key] = json.loads(value)
            elif key in _INT_FIELDS:
                with contextlib.suppress(ValueError):
                    params[key] = int(value)
        return params, files, filenames

    def _take_failure(self, method: str, params: dict[str, Any]) -> TelegramFailure | None:
        for failure in self.failures:
            if failure.method == method and (
                failure.chat_id is None or failure.chat_id == params.get("chat_id")
            ):
                failure.times -= 1
                if failure.times <= 0:
                    self.failures.remove(failure)
                return failure
        return None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        params, files, filenames = await self._read_params(request)
        call = Call(method, params, files, time.perf_counter(), filenames=filenames)
        if request.match_info["token"] != self.token:
            self.calls.append(call)
            await self._notify()
            return self._error(call, 401, "Unauthorized")
        if method != "getUpdates":
            failure = self._take_failure(method, params)
            if failure is not None:
                self.calls.append(call)
                await self._notify()
                if failure.network:
                    call.status = 0
                    assert request.transport is not None
                    request.transport.close()
                    raise ConnectionResetError("injected network failure")
                return self._error(
                    call,
                    failure.status,
                    failure.description,
                    failure.retry_after,
                    failure.migrate_to,
                )
            if params.get("chat_id") in self.kicked:
                self.calls.append(call)
                await self._notify()
                return self._error(call, 403, KICKED)
            if self.limits is not None:
                over = self.limits.check(method, params.get("chat_id"), self.limits.clock())
                if over is not None:
                    self.calls.append(call)
                    await self._notify()
                    seconds, retry = over
                    return self._error(
                        call, 429, f"Too Many Requests: retry after {seconds}", retry_after=retry
                    )
            moved = self.migrated.get(params.get("chat_id"))  # type: ignore[arg-type]
            if moved is not None:
                self.calls.append(call)
                await self._notify()
                return self._error(
                    call,
                    400,
                    "Bad Request: group chat was upgraded to a supergroup chat",
                    migrate_to=moved,
                )
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return self._error(call, 404, f"Not Found: method {method} not faked")
        self.calls.append(call)
        for held, chat_id, gate in self.holds:
            if held == method and chat_id in (None, params.get("chat_id")):
                await self._notify()
                await gate.wait()
        try:
            result = await handler(call)
        except _ApiError as err:
            response = self._error(call, err.status, err.description)
        else:
            call.result = result
            response = web.json_response({"ok": True, "result": result})
            self._observe(call)
        await self._notify()
        return response

    def _observe(self, call: Call) -> None:
        for observer in self.observers:
            observer(call)

    def _error(
        self,
        call: Call,
        status: int,
        description: str,
        retry_after: float | None = None,
        migrate_to: int | None = None,
    ) -> web.Response:
        call.status = status
        self._observe(call)
        body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if retry_after is not None:
            body["parameters"] = {"retry_after": retry_after}
        if migrate_to is not None:
            body["parameters"] = {"migrate_to_chat_id": migrate_to}
        return web.json_response(body, status=status)

    # ------------------------------------------------------------------ helpers
    def _chat(self, chat_id: Any) -> Chat:
        if not isinstance(chat_id, int):
            raise _ApiError(400, "Bad Request: chat not found")
        if chat_id in self.groups:
            return self.groups[chat_id]
        if chat_id in self.users:
            if chat_id not in self.started:
                raise _ApiError(403, CANT_INITIATE)
            return self.private_chat(self.users[chat_id])
        raise _ApiError(400, "Bad Request: chat not found")

    def _store_photo(self, call: Call, media: Any) -> tuple[dict[str, Any], str]:
        """The PhotoSize list for an uploaded (attach:// or multipart) or reused photo."""
        if isinstance(media, bytes):
            data = media
        elif isinstance(media, str) and media.startswith("attach://"):
            data = call.files.get(media[len("attach://") :])
            if data is None:
                raise _ApiError(400, "Bad Request: wrong file attachment")
        elif isinstance(media, str) and media in self.files:
            data = self.files[media]
        elif isinstance(media, str) and media == "":
            raise _ApiError(400, "Bad Request: photo is empty")
        elif media is None:
            raise _ApiError(400, "Bad Request: there is no photo in the request")
        else:
            raise _ApiError(400, "Bad Request: wrong remote file identifier specified")
        if not data.startswith(b"\x89PNG") and not data.startswith(b"\xff\xd8"):
            raise _ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        digest = hashlib.sha1(data).hexdigest()[:16]
        file_id = f"photo-{next(self._file_ids)}-{digest}"
        self.files[file_id] = data
        size = {
            "file_id": file_id,
            "file_unique_id": digest,
            "width": 800,
            "height": 600,
            "file_size": len(data),
        }
        return size, digest

    def _new_message(self, call: Call, chat: Chat, **content: Any) -> dict[str, Any]:
        message_id = self._next_message_id(chat.id)
        data: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat.to_dict(),
            "from": self.bot.to_dict(),
        }
        thread = call.params.get("message_thread_id")
        if thread is not None:
            if chat.type == Chat.PRIVATE or not chat.is_forum:
                raise _ApiError(400, "Bad Request: message thread not found")
            data["message_thread_id"] = thread
            data["is_topic_message"] = True
        data.update({k: v for k, v in content.items() if v is not None})
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict) and "inline_keyboard" in markup:
            data["reply_markup"] = markup  # a Message names only an inline keyboard
        elif isinstance(markup, dict) and "keyboard" in markup:
            self.keyboards[chat.id] = (markup, message_id)
            self.kept_keyboards[chat.id] = markup
        elif isinstance(markup, dict) and markup.get("remove_keyboard"):
            self.keyboards.pop(chat.id, None)
            self.kept_keyboards.pop(chat.id, None)
        stored = _Stored(chat.id, message_id, data)
        stored.fingerprint = self._fingerprint(data)
        self.messages[(chat.id, message_id)] = stored
        return data

    @staticmethod
    def _fingerprint(data: dict[str, Any]) -> tuple[Any, ...]:
        photo = data.get("photo")
        return (
            data.get("text"),
            data.get("caption"),
            photo[-1]["file_unique_id"] if photo else None,
            json.dumps(data.get("reply_markup"), sort_keys=True),
        )

    def _stored(self, call: Call) -> _Stored:
        if "inline_message_id" in call.params:
            raise _ApiError(400, "Bad Request: inline messages are not faked")
        chat = self._chat(call.params.get("chat_id"))
        stored = self.messages.get((chat.id, call.params.get("message_id", -1)))
        if stored is None:
            raise _ApiError(400, "Bad Request: message to edit not found")
        return stored

    def _edit(self, call: Call, stored: _Stored, changes: dict[str, Any]) -> dict[str, Any]:
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict) and "inline_keyboard" not in markup:
            raise _ApiError(400, "Bad Request: inline keyboard expected")  # as Telegram says
        data = dict(stored.data)
        data.update(changes)
        if "reply_markup" in call.params:
            data["reply_markup"] = call.params["reply_markup"]
        else:
            data.pop("reply_markup", None)  # Telegram drops a keyboard not repeated
        fingerprint = self._fingerprint(data)
        if fingerprint == stored.fingerprint:
            raise _ApiError(400, NOT_MODIFIED)
        data["edit_date"] = int(time.time())
        stored.data = data
        stored.fingerprint = fingerprint
        return data

    # ------------------------------------------------------------------ methods
    async def _api_getMe(self, call: Call) -> Any:
        return self.bot.to_dict()

    async def _api_logOut(self, call: Call) -> Any:
        return True

    async def _api_close(self, call: Call) -> Any:
        return True

    async def _api_deleteWebhook(self, call: Call) -> Any:
        if call.params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_getWebhookInfo(self, call: Call) -> Any:
        return {"url": "", "has_custom_certificate": False, "pending_update_count": 0}

    async def _api_setMyCommands(self, call: Call) -> Any:
        if not isinstance(call.params.get("commands"), list):
            raise _ApiError(400, "Bad Request: commands must be a list")
        return True

    async def _api_deleteMyCommands(self, call: Call) -> Any:
        return True

    async def _api_getUpdates(self, call: Call) -> Any:
        assert self._changed is not None
        offset = int(call.params.get("offset") or 0)
        timeout = float(call.params.get("timeout") or 0)
        limit = int(call.params.get("limit") or 100)
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                if offset:
                    self._updates = [u for u in self._updates if u["update_id"] >= offset]
                    self._changed.notify_all()
                ready = self._updates[:limit]
                if ready or self._stopping:
                    now = time.perf_counter()
                    for update in ready:
                        self.served.setdefault(update["update_id"], now)
                    return ready
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    async def _api_sendMessage(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        text = call.params.get("text")
        if not text:
            raise _ApiError(400, "Bad Request: message text is empty")
        if len(text) > TEXT_LIMIT:
            raise _ApiError(400, "Bad Request: message is too long")
        return self._new_message(call, chat, text=text)

    async def _api_sendPhoto(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        size, _ = self._store_photo(call, call.files.get("photo", call.params.get("photo")))
        return self._new_message(call, chat, photo=[size], caption=call.params.get("caption"))

    async def _api_sendDocument(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        document = call.params.get("document")
        part = "document"
        if isinstance(document, str) and document.startswith("attach://"):
            part = document[len("attach://") :]
        data = call.files.get(part)
        if data is None:
            raise _ApiError(400, "Bad Request: there is no document in the request")
        file_id = f"doc-{next(self._file_ids)}"
        self.files[file_id] = data
        doc = {
            "file_id": file_id,
            "file_unique_id": file_id,
            "file_name": call.filenames.get(part, part),
            "file_size": len(data),
        }
        return self._new_message(call, chat, document=doc, caption=call.params.get("caption"))

    async def _api_editMessageMedia(self, call: Call) -> Any:
        stored = self._stored(call)
        media = call.params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise _ApiError(400, "Bad Request: media must be a photo")
        size, _ = self._store_photo(call, media.get("media"))
        return self._edit(call, stored, {"photo": [size], "caption": media.get("caption")})

    async def _api_editMessageCaption(self, call: Call) -> Any:
        stored = self._stored(call)
        if "photo" not in stored.data and "document" not in stored.data:
            raise _ApiError(400, "Bad Request: there is no caption in the message to edit")
        return self._edit(call, stored, {"caption": call.params.get("caption")})

    async def _api_editMessageText(self, call: Call) -> Any:
        stored = self._stored(call)
        if "text" not in stored.data:
            raise _ApiError(400, "Bad Request: there is no text in the message to edit")
        if len(call.params.get("text") or "") > TEXT_LIMIT:
            raise _ApiError(400, "Bad Request: message is too long")
        return self._edit(call, stored, {"text": call.params.get("text")})

    async def _api_editMessageReplyMarkup(self, call: Call) -> Any:
        stored = self._stored(call)
        return self._edit(call, stored, {})

    async def _api_deleteMessage(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        if self.messages.pop((chat.id, call.params.get("message_id", -1)), None) is None:
            raise _ApiError(400, "Bad Request: message to delete not found")
        return True

    async def _api_deleteMessages(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        ids = call.params.get("message_ids")
        if isinstance(ids, str):
            ids = json.loads(ids)
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise _ApiError(400, "Bad Request: message_ids must hold 1 to 100 ids")
        for message_id in ids:  # as Telegram: the ones not found are skipped
            self.messages.pop((chat.id, int(message_id)), None)
        return True

    async def _api_sendChatAction(self, call: Call) -> Any:
        self._chat(call.params.get("chat_id"))
        return True

    async def _api_answerCallbackQuery(self, call: Call) -> Any:
        if not call.params.get("callback_query_id"):
            raise _ApiError(400, "Bad Request: query is too old or query ID is invalid")
        return True

    async def _api_getChat(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        data = chat.to_dict()
        data.update({"accent_color_id": 0, "max_reaction_count": 11})
        return data

    async def _api_getChatMember(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        user = self.users.get(call.params.get("user_id", 0))
        if user is None:
            raise _ApiError(400, "Bad Request: user not found")
        if self.owners.get(chat.id) == user.id:
            return ChatMemberOwner(user, is_anonymous=False).to_dict()
        if user.id in self.admins.get(chat.id, set()):
            return ChatMemberAdministrator(
                user,
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=False,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
            ).to_dict()
        return ChatMemberMember(user).to_dict()

    async def _api_getChatAdministrators(self, call: Call) -> Any:
        chat = self._chat(call.params.get("chat_id"))
        out = []
        for user_id in sorted(self.admins.get(chat.id, set())):
            fake = Call("getChatMember", {"chat_id": chat.id, "user_id": user_id}, {}, 0.0)
            out.append(await self._api_getChatMember(fake))
        return out


class _ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


# ---------------------------------------------------------------------------- test harness


class _ErrorLog(logging.Handler):
    """Collects ERROR records of PTB and of the bot: PTB only logs handler exceptions."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class TelegramWorld:
    """The fake server, a table manager (SQLite on ``:memory:``, manual clock, robots
    without delay) and the real PTB front end, started together.

    Any ERROR logged by PTB or the bot (a handler exception, a failed delivery) fails the
    test at exit unless the test called :meth:`allow_errors`.
    """

    def __init__(
        self,
        *,
        seed: int = 7,
        platforms: Iterable[str] | None = None,
        limits: TelegramLimits | None = None,
        links: Any = None,
        **manager_options: Any,
    ) -> None:
        self.seed = seed
        self.links = links  # the web table's links (bot.present.live.TableLinks), or None
        # Telegram's flood limits on the fake (None: off), and PTB's rate limiter as the
        # bot sets it (bot.telegram.sender.rate_limiter, at the limits' time scale)
        self.limits = limits
        # the platforms the manager claims (as ``domino run`` does: claims are renewed
        # and season finals announced with each heartbeat); None: nothing claimed
        self.platforms = None if platforms is None else list(platforms)
        self.manager_options = {
            "robot_delay": 0.0,
            "countdown_seconds": 0.0,
            "hand_pause": 0.0,
            **manager_options,
        }
        self.fake = FakeTelegram(limits=limits)
        self._errors = _ErrorLog()
        self._allowed_errors = False

    async def __aenter__(self) -> TelegramWorld:

        from bot.core.clock import ManualClock
        from storage import open_storage

        for name in ("telegram", "bot"):
            logging.getLogger(name).addHandler(self._errors)
        await self.fake.start()
        self.clock = ManualClock()
        self.storage = await open_storage(":memory:")
        await self._start_bot()
        return self

    async def _start_bot(self) -> None:
        """Build and start the manager and the front end on this world's storage, clock
        and fake server (what one bot process is)."""
        from bot.core import TableManager
        from bot.telegram import TelegramFrontEnd

        self.manager = TableManager(
            self.storage, clock=self.clock, seed=self.seed, **self.manager_options
        )
        self.front = TelegramFrontEnd(
            self.fake.token,
            self.manager,
            self.storage,
            base_url=self.fake.base_url,
            base_file_url=self.fake.base_file_url,
            rate_limiter=self._rate_limiter(),
            board_spacing=0.0,  # every move on the board at once (tests look at each edit)
            private_gap=0.0 if self.limits is None else 1.0 / self.limits.time_scale,
            poll_timeout=5,
            links=self.links,
        )
        await self.manager.start(self.platforms)
        await self.front.start()

    def _rate_limiter(self) -> Any:
        """PTB's AIORateLimiter as frontend.py sets it: without limits, its own flood
        limits off; with them, the bot's own (``sender.rate_limiter``) at the limits' time
        scale."""
        from telegram.ext import AIORateLimiter

        from bot.telegram.sender import rate_limiter

        if self.limits is None:
            return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
        return rate_limiter(self.limits.time_scale)

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.front.stop()
            await self.manager.stop()
            await self.fake.stop()
        finally:
            await self.storage.close()
            for name in ("telegram", "bot"):
                logging.getLogger(name).removeHandler(self._errors)
        if exc[0] is None and not self._allowed_errors and self._errors.records:
            first = self._errors.records[0]
            raise AssertionError(
                f"{len(self._errors.records)} error(s) logged; first: {first.getMessage()}"
                + (f" ({first.exc_info[1]!r})" if first.exc_info else "")
            )

    async def restart(self, *, crash: bool = False) -> int:
        """Stop the bot and start a new process on the same storage: the front end and
        the manager are built again. ``crash``: the old manager is never stopped (as a
        kill -9; its clock freezes and only its connection is closed). Returns the index
        of the first call the new process makes."""
        from bot.core.clock import ManualClock

        await self.front.stop()
        if crash:
            self.clock = ManualClock(self.clock.now())
        else:
            await self.manager.stop()
        mark = len(self.fake.calls)
        await self._start_bot()
        await self.settle()
        return mark

    def allow_errors(self) -> list[logging.LogRecord]:
        """Errors are expected in this test (injected failures): return them, don't fail."""
        self._allowed_errors = True
        return self._errors.records

    @property
    def errors(self) -> list[logging.LogRecord]:
        return self._errors.records

    async def settle(self) -> None:
        """Wait until the bot has fetched and handled every update and shown every event
        so far. A handler's storage calls run on the database's thread, so a few turns of
        the loop are not enough: PTB's update queue is joined (each update is done when its
        handler returns)."""
        await self.fake.drained()
        for _ in range(3):
            await self.front.application.update_queue.join()
            await self.manager.idle()
            await self.front.idle()
            await asyncio.sleep(0)

    async def command(
        self,
        chat: Chat,
        user: User,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: dict[str, Any] | None = None,
        entities: Iterable[MessageEntity] = (),
    ) -> int:
        """``user`` sends ``text`` in ``chat`` (answering ``reply_to``, with more
        ``entities``); returns the index of the next call so a test can wait for what
        the bot did after it."""
        mark = len(self.fake.calls)
        self.fake.send_text(
            chat, user, text, thread_id=thread_id, reply_to=reply_to, entities=entities
        )
        await self.fake.drained()
        return mark

    async def answering(self, chat: Chat, user: User, text: str, to: User, said: str) -> None:
        """``to`` says ``said`` in ``chat``; ``user`` answers that message with ``text``
        (a command naming its author: ``/mesa`` inviting them, ``/reto``)."""
        self.fake.send_text(chat, to, said)
        await self.fake.drained()
        update = self.fake.message_update(chat, user, text)
        assert update.message is not None
        message = update.message.to_dict()
        message["reply_to_message"] = {
            "message_id": 1,
            "date": message["date"],
            "chat": message["chat"],
            "from": to.to_dict(),
            "text": said,
        }
        self.fake.push({"update_id": update.update_id, "message": message})
        await self.settle()

    async def reply_to(self, chat: Chat, user: User, text: str, *, timeout: float = 5.0) -> Call:
        """Send ``text`` and return the bot's sendMessage answer in ``chat``."""
        mark = await self.command(chat, user, text)
        return await self.fake.wait_for(
            "sendMessage", lambda c: c.chat_id == chat.id, after=mark, timeout=timeout
        )

    async def table_with_robots(self, user: User, group: Chat, command: str = "/jugar") -> str:
        """``user`` opens a table in ``group`` with ``command``, robots fill it, and the
        match starts; returns the table's id (theirs in that group)."""
        await self.command(group, user, command)
        await self.settle()
        await self.command(group, user, "/robots")
        await self.settle()
        mine = self.manager.tables_of(self.front._player(user))
        (table_id,) = [t for t in mine if self.manager.table_state(t).chat.chat_id == str(group.id)]  # type: ignore[union-attr]
        await self.clock.advance(0)
        await self.settle()
        return table_id

    async def until_turn(self, user: User, *, steps: int = 50) -> dict[str, Any]:
        """Let the robots play (at most ``steps`` rounds) until ``user`` is to move;
        returns their private message with the move buttons."""
        for _ in range(steps):
            message = self.turn_message(user)
            if message is not None:
                return message
            await self.clock.advance(0)
            await self.settle()
        raise AssertionError(f"{user.first_name} was never to move")

    def turn_message(self, user: User) -> dict[str, Any] | None:
        """The private turn message of ``user`` whose move keyboard they see now, if any."""
        return self.fake.keyboard_message(user)

    async def four_humans(
        self, group_id: int, title: str, command: str, *, first_id: int, join: str = "/jugar"
    ) -> tuple[str, dict[int, User]]:
        """Four humans (A, B, C, D, user ids from ``first_id``) sit at a table opened with
        ``command`` in a new group, the last three with ``join``; returns the table's id
        and its humans by seat."""
        users = [self.fake.add_user(first_id + i, name) for i, name in enumerate("ABCD")]
        group = self.fake.add_group(group_id, title)
        await self.command(group, users[0], command)
        await self.settle()
        for user in users[1:]:
            await self.command(group, user, join)
            await self.settle()
        (table_id,) = self.manager.tables_of(self.front._player(users[0]))
        state = self.manager.table_state(table_id)
        assert state is not None
        by_id = {str(u.id): u for u in users}
        seats = {i.seat: by_id[i.player.user_id] for i in state.seats if i.player is not None}
        return table_id, seats

    def move_labels(self, user: User) -> list[str]:
        """The move buttons ``user`` sees now (their turn keyboard), row by row."""
        return self.fake.keyboard_labels(user)

    async def play(self, user: User, label: str) -> int:
        """``user`` presses the move button ``label`` (or types it); returns the index of
        the next call, so a test can wait for what the bot did after it."""
        mark = len(self.fake.calls)
        self.fake.press_key(user, label)
        await self.settle()
        return mark

    async def press(self, user: User, message: dict[str, Any], data: str) -> Call:
        """``user`` presses the inline button ``data`` on ``message``; returns the
        answerCallbackQuery."""
        query = self.fake.press(user, message, data)
        return await self.fake.answer_to(query)

    async def play_out(
        self,
        table_id: str,
        humans: dict[int, User],
        *,
        choose: Callable[[list[str]], str] = lambda data: data[0],
        limit: int = 5000,
    ) -> int:
        """Drive the table to its end: every human move through a press of their turn
        keyboard (chosen by ``choose`` among the labels offered), robots through the
        clock. Returns the number of presses. Fails if a human's turn comes without
        buttons to press, or a press is answered (only a move that cannot be played is)."""
        presses = 0
        for _ in range(limit):
            await self.settle()
            state = self.manager.table_state(table_id)
            if state is None:
                return presses
            pressed = False
            for user in humans.values():
                labels = self.move_labels(user)
                if not labels:
                    continue
                mark = await self.play(user, choose(labels))
                answers = [  # a silent line removing a finished table's keyboard aside
                    c
                    for c in self.fake.calls[mark:]
                    if c.method == "sendMessage" and not c.params.get("disable_notification")
                ]
                assert [c for c in answers if c.chat_id == user.id] == [], answers
                presses += 1
                pressed = True
                break
            if pressed:
                continue
            if (
                state.phase == "playing"
                and state.turn in humans
                and state.view is not None
                and state.view.outcome is None
                and not state.seats[state.turn].away
            ):
                raise AssertionError(f"seat {state.turn} has the turn but no buttons")
            when = self.clock.next_deadline()
            if when is None:
                raise AssertionError(f"table {table_id} is stuck in phase {state.phase}")
            await self.clock.advance(max(0.0, when - self.clock.now()))
        raise AssertionError("the match did not end")
