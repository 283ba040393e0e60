"""Pacing a bot's requests under a platform's global limit, players' private messages first.

:class:`Slots` gives requests slots at a steady rate, a token bucket with a small burst,
and serves the waiting urgent ones before the others. A player's private message (their
turn, an answer) is what they wait for; a group's board is edited with whatever is newest
when its turn comes, so a board that waits merges more moves into one edit and costs
fewer requests (docs/capacity.md). Telegram's rate limiter
(:class:`bot.telegram.sender.TelegramLimiter`) and Discord's pacer
(:mod:`bot.discord.pacer`) are built on it.

:func:`mark_urgent` marks the current task's requests urgent (a player's tiles worker);
:func:`is_urgent` tells a pacer so.
"""

from __future__ import annotations

import asyncio
from collections import deque
from contextvars import ContextVar

__all__ = ["BOARD_SPACING", "PRIVATE_GAP", "Slots", "is_urgent", "mark_urgent"]

BOARD_SPACING = 5.0
"""The fewest seconds between two edits of a board on Telegram, by default
(``DOMINO_TELEGRAM_BOARD_SPACING``). Telegram allows 20 messages a minute per group (3 s
apart); 5 s makes players at human pace (a move every 2–6 s) share an
edit about one move in six, which keeps a move under 2 requests while the board's p95
stays under 6 s (docs/capacity.md). Moves made meanwhile are merged into the next edit
(the board shows the newest state), and a board idle for 5 s shows a move at once, so
a group's board costs at most that pace whatever the speed of play."""


PRIVATE_GAP = 1.0
"""The fewest seconds between two requests in one private chat on Telegram, by default
(``DOMINO_TELEGRAM_PRIVATE_GAP``): a turn message, then the next when the three others
pass at once; an answer to a move that could not be played.
Telegram allows about one message a second per private chat, and a 429 there would stop
every request of the bot for its retry_after (PTB's AIORateLimiter holds them all). A
hand's newer state waiting for its slot replaces the older one (only the newest is
shown)."""


_URGENT: ContextVar[bool] = ContextVar("urgent", default=False)


def mark_urgent() -> None:
    """The requests made from now on in the current task (and the tasks it starts) are a
    player's private messages: they go first when requests wait for a slot."""
    _URGENT.set(True)


def is_urgent() -> bool:
    """Whether the current task's requests were marked urgent (:func:`mark_urgent`)."""
    return _URGENT.get()


class Slots:
    """Request slots at ``per_second`` (a token bucket holding up to ``burst``), given to
    the waiting urgent requests before the others, each kind in arrival order."""

    def __init__(self, per_second: float, burst: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self._tokens = burst
        self._at: float | None = None
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),  # urgent
            deque(),  # the others
        )
        self._timer: asyncio.TimerHandle | None = None

    def _refill(self, now: float) -> None:
        if self._at is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.per_second)
        self._at = now

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot."""
        return sum(not f.done() for queue in self._waiting for f in queue)

    async def take(self, *, urgent: bool) -> None:
        """Wait for a slot and take it."""
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        if self._tokens >= 1 and not self.waiting:
            self._tokens -= 1
            return
        future: asyncio.Future[None] = loop.create_future()
        self._waiting[0 if urgent else 1].append(future)
        self._arm(loop)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._tokens += 1  # given, but its request was cancelled: the next takes it
                self._arm(loop)
            raise

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None:
            wait = max(0.0, (1 - self._tokens) / self.per_second)
            self._timer = loop.call_later(wait, self._release)

    def _release(self) -> None:
        self._timer = None
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        while self._tokens >= 1:
            future = self._next()
            if future is None:
                return
            self._tokens -= 1
            future.set_result(None)
        if self.waiting:
            self._arm(loop)

    def _next(self) -> asyncio.Future[None] | None:
        for queue in self._waiting:
            while queue:
                future = queue.popleft()
                if not future.done():
                    return future
        return None
