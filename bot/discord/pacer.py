"""The bot's own pace under Discord's global rate limit, players' DMs first.

Discord allows a bot 50 requests a second over every route together (interaction
callbacks and follow-ups excepted) and answers more with 429s; after 10,000 invalid
requests (429s included) in 10 minutes it blocks the bot's IP address for a while.
discord.py only learns the global limit from a 429 and then sleeps it off. The pacer
takes a :class:`bot.pacing.Slots` slot before each request that the limit counts,
through discord.py's ``http_trace`` (an aiohttp ``TraceConfig`` whose request start is
awaited before the request leaves, retries included), so the bot stays under the limit
and a player's tiles DM (a task marked with :func:`bot.pacing.mark_urgent`) goes before
the boards waiting with it (docs/capacity.md).
"""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord.http

from bot.pacing import Slots, is_urgent

__all__ = ["EXEMPT", "GLOBAL_PER_SECOND", "GLOBAL_SLICE", "GlobalPacer", "is_paced"]

GLOBAL_PER_SECOND = 45.0
"""Requests a second the bot allows itself on the routes Discord's global limit counts:
its 50, less a margin for requests that reach Discord a little bunched."""

GLOBAL_SLICE = 0.1
"""Seconds over which :data:`GLOBAL_PER_SECOND` is counted: bursts of at most 4.5
requests, so that no second holds more than 49.5 (a bucket refilled at 45 a second
holding 4.5)."""

EXEMPT = ("interactions", "webhooks")
"""The first part of the REST paths Discord's global limit does not count: interaction
callbacks and their follow-ups (``/webhooks/{application}/{token}``)."""


def is_paced(url: str, base: str | None = None) -> bool:
    """Whether a request to ``url`` counts towards the global limit: a REST call under
    ``base`` (discord.py's ``Route.BASE`` by default, which a proxy may have moved) but
    not an interaction's; the gateway and the CDN are not REST calls."""
    base = (base if base is not None else discord.http.Route.BASE).rstrip("/") + "/"
    if not url.startswith(base):
        return False
    first = url[len(base) :].split("/", 1)[0].split("?", 1)[0]
    return first not in EXEMPT


class GlobalPacer(aiohttp.TraceConfig):
    """discord.py's ``http_trace``: each request the global limit counts waits for a slot
    of ``per_second`` (bursts of a :data:`GLOBAL_SLICE`'s worth, at least one); requests
    from a task marked urgent first. ``time_scale`` > 1 runs time that many times faster
    (a benchmark's compressed time, against a fake whose limits are scaled alike).

    Attributes:
        slots: the :class:`Slots` (requests a second, waiting requests).

    Raises:
        ValueError: ``per_second`` or ``time_scale`` not above zero.
    """

    def __init__(self, per_second: float = GLOBAL_PER_SECOND, *, time_scale: float = 1.0) -> None:
        if per_second <= 0 or time_scale <= 0:
            raise ValueError("the pace and the time scale must be above zero")
        super().__init__()
        burst = max(1.0, per_second * GLOBAL_SLICE)
        self.slots = Slots(per_second * time_scale, burst)
        self.on_request_start.append(self._take)

    async def _take(
        self,
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if is_paced(str(params.url)):
            await self.slots.take(urgent=is_urgent())
