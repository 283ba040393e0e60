"""Sending to Telegram without ever stopping a table: retries, "not modified", coalescing.

* :func:`send` runs one Bot API call, retries it after a flood limit (``RetryAfter``, when
  the rate limiter has not already absorbed it) and after network errors and time-outs,
  with a short back-off, and treats "message is not modified" as success.
* :class:`Latest` keeps only the newest state of something shown (a board, a hand) and
  one worker per key that shows it: when the game moves faster than Telegram lets the bot
  edit a group (about 20 messages a minute), the board skips straight to the newest state
  instead of queueing every move.
* :class:`Ordered` runs jobs (group messages) one after another per key (a chat) in a
  worker of its own, so a group's flood limit delays only that group's messages, never a
  player's private hand or the table's other events.
* :func:`rate_limiter` is the bot's rate limiter (:class:`TelegramLimiter`): PTB's
  ``AIORateLimiter`` whose overall limit serves players' private chats first.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Generic, TypeVar

from telegram._utils.types import JSONDict
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import AIORateLimiter

from bot.pacing import Slots

__all__ = [
    "GROUP_PER_MINUTE",
    "NOT_MODIFIED",
    "OVERALL_PER_SECOND",
    "OVERALL_SLICE",
    "Latest",
    "Ordered",
    "TelegramLimiter",
    "is_chat_gone",
    "is_gone",
    "is_not_modified",
    "is_photo_refused",
    "rate_limiter",
    "send",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

NOT_MODIFIED: Any = object()
"""Returned by :func:`send` when Telegram said the message is already like that."""

OVERALL_PER_SECOND = 28.0
"""Requests a second the bot allows itself in all chats together: Telegram's "about 30",
less a margin, because a 429 makes PTB's limiter hold every request of the bot for its
``retry_after`` (a second or more)."""

OVERALL_SLICE = 0.1
"""Seconds over which :data:`OVERALL_PER_SECOND` is counted: bursts of at most 2.8
requests, not 28 at once, so that requests reaching Telegram a little bunched never add
up to a second's worth over the limit (docs/capacity.md: with PTB's default, bursts of 30
met 311 429s at 104 tables)."""

GROUP_PER_MINUTE = 20.0
"""Messages a minute per group (Telegram's limit)."""


class TelegramLimiter(AIORateLimiter):
    """PTB's ``AIORateLimiter`` (its per-group limit and its retries after a 429) with the
    bot's overall limit in :class:`Slots`: private chats' requests go first when requests
    wait, and a 429's ``retry_after`` is waited out before a slot is taken, not after (PTB
    takes the slot first, so every request held by a 429 leaves at once when it is over, a
    burst that meets the next 429: docs/capacity.md). Overrides PTB 22's ``_run_request``.

    Args:
        overall_max_rate, overall_time_period: requests per period, all chats together
            (also the largest burst).
        group_max_rate, group_time_period: requests per period in one group (0: no limit).
        max_retries: retries of a request refused with a 429.
    """

    def __init__(
        self,
        *,
        overall_max_rate: float,
        overall_time_period: float,
        group_max_rate: float = GROUP_PER_MINUTE,
        group_time_period: float = 60.0,
        max_retries: int = 0,
    ) -> None:
        super().__init__(
            overall_max_rate=0,  # PTB's own overall limit off: the slots below are it
            group_max_rate=group_max_rate,
            group_time_period=group_time_period,
            max_retries=max_retries,
        )
        self.slots = Slots(overall_max_rate / overall_time_period, overall_max_rate)

    async def _run_request(
        self,
        chat: bool,
        group: str | int | bool,
        allow_paid_broadcast: bool,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
    ) -> bool | JSONDict | list[JSONDict]:
        async def slotted(*a: Any, **k: Any) -> bool | JSONDict | list[JSONDict]:
            if chat:  # a request to a chat: it counts towards the overall limit
                await self.slots.take(urgent=group is False)
                await self._retry_after_event.wait()  # a 429 came meanwhile
            return await callback(*a, **k)

        await self._retry_after_event.wait()
        return await super()._run_request(chat, group, allow_paid_broadcast, slotted, args, kwargs)


def rate_limiter(time_scale: float = 1.0) -> AIORateLimiter:
    """The bot's rate limiter (:class:`TelegramLimiter`: :data:`OVERALL_PER_SECOND` in
    slices of :data:`OVERALL_SLICE`, :data:`GROUP_PER_MINUTE` per group, 3 retries after a
    429); ``time_scale`` > 1 runs every period that many times faster (a benchmark's
    compressed time)."""
    return TelegramLimiter(
        overall_max_rate=OVERALL_PER_SECOND * OVERALL_SLICE,
        overall_time_period=OVERALL_SLICE / time_scale,
        group_max_rate=GROUP_PER_MINUTE,
        group_time_period=60.0 / time_scale,
        max_retries=3,
    )


ATTEMPTS = 4
BACKOFF = 0.25  # seconds, doubled each attempt
MAX_RETRY_AFTER = 60.0


def is_not_modified(error: Exception) -> bool:
    return isinstance(error, BadRequest) and "not modified" in error.message.lower()


def _says(error: Exception, *parts: str) -> bool:
    """A Bad Request whose description holds one of ``parts`` (case ignored)."""
    if not isinstance(error, BadRequest):
        return False
    text = error.message.lower()
    return any(part in text for part in parts)


def is_gone(error: Exception) -> bool:
    """The message to edit no longer exists (deleted, too old, or not editable)."""
    return _says(
        error,
        "message to edit not found",
        "message can't be edited",
        "message to delete not found",
    )


def is_chat_gone(error: Exception) -> bool:
    """A group the bot can no longer use: removed or banned from it, the group deleted,
    or no right to write there at all."""
    return isinstance(error, Forbidden) or _says(
        error,
        "chat not found",
        "group chat was deactivated",
        "not enough rights to send text messages",
    )


def is_photo_refused(error: Exception) -> bool:
    """The bot may not send photos in that chat (an admin took the right away)."""
    return _says(error, "not enough rights to send photos")


def _seconds(value: Any) -> float:
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


async def send(call: Callable[[], Awaitable[T]], *, attempts: int = ATTEMPTS) -> T:
    """Run ``call()`` (one Bot API request), retrying flood limits and network errors.

    Returns:
        The call's result, or :data:`NOT_MODIFIED` when Telegram answered "message is
        not modified" (the message already shows that: success).

    Raises:
        Forbidden: the bot may not write there (e.g. a user who never started it).
        BadRequest: a request Telegram refuses (retrying would not help).
        NetworkError, RetryAfter: still failing after ``attempts`` tries.
    """
    delay = BACKOFF
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except BadRequest as error:  # a subclass of NetworkError: check it first
            if is_not_modified(error):
                return NOT_MODIFIED  # type: ignore[no-any-return]
            raise
        except Forbidden:
            raise
        except RetryAfter as error:
            if attempt == attempts:
                raise
            wait = min(_seconds(error.retry_after), MAX_RETRY_AFTER)
            log.info("flood limit: retrying in %.1f s", wait)
            await asyncio.sleep(wait + 0.05)
        except NetworkError as error:  # includes TimedOut
            if attempt == attempts:
                raise
            log.info("network error (%s): retrying in %.2f s", error, delay)
            await asyncio.sleep(delay)
            delay *= 2
    raise AssertionError("unreachable")  # pragma: no cover


class Latest(Generic[T]):
    """The newest pending state per key, shown by one worker task per key.

    ``put(key, state)`` replaces any state not yet shown for ``key`` and starts a worker
    if none runs; the worker calls ``show(key, state)`` until nothing is pending. States of
    one key are shown in order, never two at once; a failure is logged and the next state
    is still shown.
    """

    def __init__(self, show: Callable[[Any, T], Awaitable[None]]) -> None:
        self._show = show
        self._pending: dict[Any, T] = {}
        self._workers: dict[Any, asyncio.Task[None]] = {}

    def put(self, key: Any, state: T) -> None:
        self._pending[key] = state
        if key not in self._workers:
            self._workers[key] = asyncio.get_running_loop().create_task(self._work(key))

    async def _work(self, key: Any) -> None:
        try:
            while key in self._pending:
                state = self._pending.pop(key)
                try:
                    await self._show(key, state)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not show %r", key)
        finally:
            self._workers.pop(key, None)

    def pending(self, key: Any) -> bool:
        """Whether a newer state of ``key`` waits (the one being shown is outdated)."""
        return key in self._pending

    def unshown(self) -> list[Any]:
        """The keys whose newest state is not shown yet (waiting, or being shown)."""
        return list(self._workers)

    @property
    def busy(self) -> bool:
        return bool(self._workers)

    async def idle(self) -> None:
        """Wait until every pending state has been shown. Cancelling the wait (a stop's
        timeout) leaves the workers running."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))  # gather would cancel them

    async def close(self) -> None:
        """Drop pending states and cancel the workers."""
        self._pending.clear()
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)


class Ordered:
    """Jobs run in order per key, by one worker task per key (keys run side by side).

    ``put(key, job)`` queues ``job`` (a coroutine function without arguments) behind the
    key's earlier jobs and starts a worker if none runs; it never waits. A failed job is
    logged and the next one still runs.
    """

    def __init__(self) -> None:
        self._queues: dict[Any, deque[Callable[[], Awaitable[Any]]]] = {}
        self._workers: dict[Any, asyncio.Task[None]] = {}

    def put(self, key: Any, job: Callable[[], Awaitable[Any]]) -> None:
        self._queues.setdefault(key, deque()).append(job)
        if key not in self._workers:
            self._workers[key] = asyncio.get_running_loop().create_task(self._work(key))

    async def _work(self, key: Any) -> None:
        try:
            queue = self._queues.get(key, deque())
            while queue:
                job = queue.popleft()
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not send to %r", key)
        finally:
            self._workers.pop(key, None)
            if not self._queues.get(key):
                self._queues.pop(key, None)

    def unsent(self) -> dict[Any, int]:
        """The jobs not done yet per key (queued, plus the one running)."""
        return {key: len(self._queues.get(key, ())) + 1 for key in self._workers}

    @property
    def busy(self) -> bool:
        return bool(self._workers)

    async def idle(self) -> None:
        """Wait until every queued job has run. Cancelling the wait (a stop's timeout)
        leaves the workers running."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))  # gather would cancel them

    async def close(self) -> None:
        """Drop queued jobs and cancel the workers."""
        self._queues.clear()
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._workers.clear()  # a worker cancelled before it ran never removed itself
