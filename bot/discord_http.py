"""Pointing discord.py at a REST and gateway proxy (``DISCORD_API_BASE_URL``,
``DISCORD_GATEWAY_URL``), as large bots do to share rate limits, and tests do to reach a
local fake. discord.py names Discord in two places: the REST base
``discord.http.Route.BASE`` and the gateway ``DiscordWebSocket.DEFAULT_GATEWAY``.
"""

from __future__ import annotations

__all__ = ["point_discord_at"]

_ORIGINAL: dict[str, object] = {}


def point_discord_at(api_base_url: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST calls to ``api_base_url`` (e.g.
    ``http://proxy:8080/api/v10``) and its gateway connection to ``gateway_url`` (e.g.
    ``ws://proxy:8081/``); None keeps Discord's own."""
    import discord.gateway
    import discord.http
    import yarl

    _ORIGINAL.setdefault("base", discord.http.Route.BASE)
    _ORIGINAL.setdefault("gateway", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base_url.rstrip("/") if api_base_url else str(_ORIGINAL["base"])
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
        yarl.URL(gateway_url) if gateway_url else _ORIGINAL["gateway"]  # type: ignore[assignment]
    )
