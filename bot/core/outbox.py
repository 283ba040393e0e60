"""Ordered delivery of events to the front ends' ports (design.md, "Shape").

Each table has its own queue, sent by one task at a time, so a table's events arrive in
order and never concurrently; chat-wide events (a rules change) have a queue of their
own. ``emit`` never waits for a send: a slow platform never holds up a table, and a port
that raises is logged while the table carries on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from bot.core.events import Event, Port, Refusal, YourTiles
from bot.core.table import Table

__all__ = ["Outbox"]

log = logging.getLogger("bot.core")

ANY_PLATFORM = "*"
"""Register a port under this platform to receive every event (logging, tests)."""


def platform_of(event: Event) -> str:
    """The platform whose port shows ``event``: the player's for private events."""
    if isinstance(event, (Refusal, YourTiles)):
        return event.to.platform
    return event.chat.platform


class Outbox:
    """The ports by platform and the queues that feed them."""

    def __init__(self) -> None:
        self._ports: dict[str, list[Port]] = {}
        self._chat_events: deque[Event] = deque()
        self._chat_sender: asyncio.Task[None] | None = None
        self._senders: set[asyncio.Task[None]] = set()
        self.may_send: Callable[[Table], Awaitable[bool]] | None = None
        """Asked before each event of a table leaves: False drops what the table has
        queued (its lease is lost; ``bot.core.leases``)."""

    def register(self, platform: str, port: Port) -> None:
        """Send the events of ``platform``'s tables and players to ``port`` (``"*"``: all)."""
        self._ports.setdefault(platform, []).append(port)

    def ports_for(self, platform: str) -> list[Port]:
        return self._ports.get(platform, []) + self._ports.get(ANY_PLATFORM, [])

    def emit(self, table: Table, event: Event) -> None:
        """Queue ``event`` of ``table`` (dropped when no port shows its platform)."""
        if not self.ports_for(platform_of(event)):
            return
        table.outbox.append(event)
        if table.sender is None or table.sender.done():
            table.sender = self._spawn(table.outbox, table)

    def emit_chat(self, event: Event) -> None:
        """Queue an event that belongs to a chat rather than a table."""
        self._chat_events.append(event)
        if self._chat_sender is None or self._chat_sender.done():
            self._chat_sender = self._spawn(self._chat_events)

    @property
    def busy(self) -> bool:
        """Some event is queued or being delivered."""
        return any(not t.done() for t in self._senders)

    async def idle(self) -> None:
        """Wait until every queued event was delivered."""
        while True:
            tasks = [t for t in self._senders if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, queue: deque[Event], table: Table | None = None) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._send(queue, table))
        self._senders.add(task)
        task.add_done_callback(self._senders.discard)
        return task

    async def _send(self, queue: deque[Event], table: Table | None) -> None:
        while queue:
            if table is not None:
                # a table's events leave after its snapshot is saved, and only while
                # this process still holds its lease
                await table.saved.wait()
                if table.dropped or (self.may_send is not None and not await self.may_send(table)):
                    queue.clear()
                    return
            event = queue.popleft()
            for port in self.ports_for(platform_of(event)):
                try:
                    await port.deliver(event)
                except Exception:  # a failed send never stops a table
                    log.exception("port failed to deliver %s", type(event).__name__)
