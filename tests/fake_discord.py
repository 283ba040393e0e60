"""A small fake Discord (REST + gateway) on 127.0.0.1 for driving the real discord.py.

The fake answers the REST calls the Discord adapter makes (``users/@me``, the OAuth2
application, command sync, interaction callbacks, webhook follow-ups and edits of the
original response, channel messages with attachments and their edits, DM channel creation)
and speaks the gateway protocol over a websocket (HELLO, heartbeat ACK, IDENTIFY → READY +
GUILD_CREATE, RESUME → RESUMED), so a test can send ``INTERACTION_CREATE`` events for slash
commands and button clicks and then look at what the bot did. Like Discord, it shards: a
session gets only the servers of the shard it identified with (``(guild_id >> 22) %
count``) and only their events; direct messages and their interactions go to shard 0. Every REST request is
recorded (:class:`Request`) with the time it arrived, and every message the bot creates is
kept (:class:`FakeMessage`) with its attachments, so tests assert on real payloads.

Point discord.py at it with :meth:`FakeDiscord.patch_discord` (``Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY`` are the two places that name Discord) or pass
:attr:`FakeDiscord.api_base_url` / :attr:`FakeDiscord.gateway_url` to the adapter.

Behaviours worth knowing, learned from the real library:

- JSON responses use the content type exactly ``application/json`` (discord.py compares
  the header verbatim before decoding).
- Interaction payloads carry ``attachment_size_limit``; member payloads carry ``flags``.
- Interaction callbacks arrive with ``with_response=1`` and are answered with the
  interaction/resource body; the created message id is what a component on that message
  is bound to, so clicks reference real message ids (:meth:`FakeDiscord.click`).
- A user listed in :attr:`FakeDiscord.dms_closed` cannot receive DMs: sending to their DM
  channel answers 403 with Discord's error code 50007.
- A user listed in :attr:`FakeDiscord.tokens_expired_for` has interaction tokens past their
  15 minutes: follow-ups and edits through them answer 404 with code 10015.
- :meth:`FakeDiscord.add_guild` with ``shard=(id, count)`` picks a server id on that shard
  (consecutive snowflakes share a shard: the shard comes from the id's time bits).
- A channel the bot can no longer use: deleted (:meth:`FakeDiscord.delete_channel`, 404
  10003), in a server the bot was removed from (:meth:`FakeDiscord.remove_bot_from`:
  GUILD_DELETE, then 403 50001), or with a right taken away
  (:attr:`FakeDiscord.forbidden_channels`, 403 50013 on sends and edits).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

__all__ = [
    "EPHEMERAL",
    "LAUNCH_ACTIVITY",
    "DiscordLimits",
    "FakeDiscord",
    "FakeMessage",
    "FakeUser",
    "Request",
    "board_message",
    "seat_and_fill",
]

Shard = tuple[int, int]
"""A gateway session's shard as IDENTIFY gives it: (shard id, shard count)."""

EPHEMERAL = 1 << 6
# A snowflake's low bits (worker, process, increment) play no part in its shard.
SNOWFLAKE_TIME_SHIFT = 22
# Events whose server is the payload's own id rather than its "guild_id".
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")
MANAGE_GUILD = 1 << 5
# What a plain member may do in a channel (view, send, read history, use commands...).
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31) | (1 << 14) | (1 << 15)
ADMIN_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_GUILD | (1 << 3)
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

# Interaction callback types (Discord's "interaction response types").
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
LAUNCH_ACTIVITY = 12  # open the application's Activity (no message)


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + ".000000+00:00"


@dataclass
class Request:
    """One REST request the bot made: method, path (without the ``/api/v10`` prefix)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    at: float  # time.perf_counter() when it arrived
    status: int = 0  # the HTTP status answered (0 until answered)


@dataclass
class _Window:
    """A Discord rate-limit bucket: ``limit`` requests per window of ``per`` seconds,
    the window starting with its first request (Discord's X-RateLimit-Reset)."""

    limit: int
    per: float
    remaining: int = 0
    reset: float = 0.0  # time.time() when the window ends

    def roll(self, now: float) -> None:
        if now >= self.reset:
            self.remaining, self.reset = self.limit, now + self.per


@dataclass
class DiscordLimits:
    """Discord's rate limits, enforced by the fake when switched on (``fake.limits =
    DiscordLimits()``; off by default).

    * a **global** limit: ``global_per_second`` requests a second for the bot, every route
      together; interaction callbacks and follow-ups (``/interactions``, ``/webhooks``)
      are exempt, as Discord documents;
    * **per-route buckets**: creating a message in a channel (DMs included) and editing or
      deleting one, ``route_limit`` per ``route_seconds`` per channel each (Discord's
      observed 5 per 5 s).

    Every answer of a bucketed route carries the real headers (``X-RateLimit-Limit``,
    ``-Remaining``, ``-Reset``, ``-Reset-After``, ``-Bucket``), so discord.py's own
    limiter waits before it is refused; over a limit the answer is 429 with
    ``{"message", "retry_after", "global"}``, ``Retry-After``, ``X-RateLimit-Scope``
    (and ``X-RateLimit-Global`` for the global one). ``time_scale`` > 1 compresses time:
    every window is divided by it and the seconds answered are real ones.
    """

    global_per_second: int = 50
    route_limit: int = 5
    route_seconds: float = 5.0
    time_scale: float = 1.0
    refused: int = 0  # requests answered 429 so far
    refused_global: int = 0
    _windows: dict[Any, _Window] = field(default_factory=dict, repr=False)

    def _window(self, key: Any, limit: int, per: float) -> _Window:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(limit, per / self.time_scale)
        return window

    def check(self, method: str, parts: list[str]) -> tuple[int, dict[str, str], Any]:
        """(status, headers, 429 body or None) for a request; counts it when it may go."""
        if parts[:1] in (["interactions"], ["webhooks"]):
            return 200, {}, None
        now = time.time()
        glob = self._window("global", self.global_per_second, 1.0)
        glob.roll(now)
        route: str | None = None
        if parts[:1] == ["channels"] and len(parts) >= 3 and parts[2] == "messages":
            route = "create" if method == "POST" and len(parts) == 3 else "edit"
            if method == "GET":
                route = None
        window = None
        headers: dict[str, str] = {}
        if route is not None:
            window = self._window((route, parts[1]), self.route_limit, self.route_seconds)
            window.roll(now)
            headers = {
                "X-RateLimit-Limit": str(window.limit),
                "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
            }
        if glob.remaining <= 0:
            self.refused += 1
            self.refused_global += 1
            wait = max(0.001, glob.reset - now)
            body = {"message": "You are being rate limited.", "retry_after": wait, "global": True}
            extra = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            return 429, {**extra, "Retry-After": str(wait), "Via": "1.1 google"}, body
        if window is not None and window.remaining <= 0:
            self.refused += 1
            wait = max(0.001, window.reset - now)
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{window.reset:.3f}",
                    "X-RateLimit-Reset-After": f"{wait:.3f}",
                    "X-RateLimit-Scope": "user",
                    "Retry-After": f"{wait:.3f}",
                    "Via": "1.1 google",
                }
            )
            body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
            return 429, headers, body
        glob.remaining -= 1
        if window is not None:
            window.remaining -= 1
            headers.update(
                {
                    "X-RateLimit-Remaining": str(window.remaining),
                    "X-RateLimit-Reset": f"{window.reset:.3f}",
                    "X-RateLimit-Reset-After": f"{max(0.0, window.reset - now):.3f}",
                }
            )
        return 200, headers, None


@dataclass
class FakeUser:
    """A Discord user (and, in a guild, a member with ``permissions``)."""

    id: int
    name: str
    locale: str = "es-ES"
    permissions: int = MEMBER_PERMISSIONS
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def member_payload(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": _iso(1_700_000_000),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "permissions": str(self.permissions),
        }


@dataclass
class FakeMessage:
    """A message the bot created (in a channel, a DM, or as an interaction response)."""

    id: int
    channel_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    files: dict[int, bytes] = field(default_factory=dict)  # attachment id -> bytes
    flags: int = 0
    edits: int = 0
    interaction_token: str | None = None  # set for interaction responses / follow-ups
    guild_id: int | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        """The custom ids of every button on the message, top row first."""
        return [c["custom_id"] for c in self.buttons() if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if item.get("type") == 2:
                    found.append(item)
                walk(item.get("components", []))

        walk(self.components)
        return found

    def labels(self) -> list[str]:
        return [b.get("label") or "" for b in self.buttons()]

    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            if "footer" in embed:
                parts.append(embed["footer"].get("text", ""))
        return "\n".join(p for p in parts if p)

    def file_bytes(self, index: int = 0) -> bytes:
        return self.files[int(self.attachments[index]["id"])]

    def payload(self, author: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "content": self.content,
            "author": author,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": self.attachments,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "flags": self.flags,
            "timestamp": _iso(1_700_000_000),
            "edited_timestamp": _iso(1_700_000_000) if self.edits else None,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class Interaction:
    """An interaction the fake sent, with what the bot answered."""

    id: int
    token: str
    kind: int  # 2 application command, 3 component
    user: FakeUser
    channel_id: int
    sent_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    callback_at: float | None = None
    original: FakeMessage | None = None  # the response message (or the clicked message)
    followups: list[FakeMessage] = field(default_factory=list)
    delivered_to: list[Shard] = field(default_factory=list)  # the sessions that got it

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    def replies(self) -> list[FakeMessage]:
        """The response message (if the bot sent one) and the follow-ups, in order."""
        out: list[FakeMessage] = []
        if self.original is not None and self.original.interaction_token == self.token:
            out.append(self.original)
        return out + self.followups

    def reply_text(self) -> str:
        return "\n".join(m.text() for m in self.replies())


class FakeDiscord:
    """An in-process Discord: REST under ``/api/v10`` and a gateway websocket at ``/gateway``.

    Usage::

        fake = FakeDiscord()
        await fake.start()
        guild = fake.add_guild("Club", channels=["domino"])
        ana = fake.add_user("Ana", guild=guild)
        ... start the bot with fake.api_base_url / fake.gateway_url ...
        inter = await fake.slash(ana, guild, "domino", "jugar")
    """

    def __init__(self) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_001)
        self.application_id = self.next_id()
        self.bot_user = FakeUser(self.application_id, "Domino", bot=True)
        self.owner = FakeUser(self.next_id(), "Owner")
        self.requests: list[Request] = []
        self.messages: dict[int, FakeMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}  # channel id -> payload
        self.users: dict[int, FakeUser] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_users: dict[int, int] = {}  # DM channel id -> user id
        self.dms_closed: set[int] = set()
        # Users whose interaction tokens have expired (over 15 minutes old): follow-ups and
        # edits of their responses answer 404 with Discord's code 10015 "Unknown Webhook".
        self.tokens_expired_for: set[int] = set()
        # Channel -> the 403 code its sends and edits answer (50013: a right taken away).
        self.forbidden_channels: dict[int, int] = {}
        self.left_guilds: set[int] = set()  # the bot was removed: 403 50001 there
        self.valid_token: str | None = None  # None accepts any bot token
        self.limits: DiscordLimits | None = None  # Discord's rate limits, enforced when set
        # called with every answered request (a benchmark's clock: no scanning of requests)
        self.observers: list[Callable[[Request], None]] = []
        self.advertised_gateway: str | None = None  # what GET /gateway/bot answers
        self.recommended_shards = 1  # the shard count GET /gateway/bot recommends
        self.hold_ready = False  # True: IDENTIFY gets no READY (a gateway that hangs)
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None global)
        self.interactions: dict[str, Interaction] = {}  # token -> interaction
        self.identifies: list[dict[str, Any]] = []
        self.gateway_connections = 0
        self._sockets: list[web.WebSocketResponse] = []
        self._shard_of: dict[web.WebSocketResponse, Shard] = {}  # identified or resumed
        self._session_shards: dict[str, Shard] = {}  # session id -> shard, for RESUME
        self._seq = 0
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        # OAuth2 (an Activity's login): the application's secret, the codes a user's
        # authorize gave (each good once) and the access tokens exchanged for them
        self.client_secret = "fake-client-secret"
        self.oauth_codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        self.identity_asks = 0  # GET /users/@me answered

    # ------------------------------------------------------------------ set-up
    def next_id(self) -> int:
        return next(self._ids)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def add_guild(
        self, name: str, *, channels: tuple[str, ...] = ("domino",), shard: Shard | None = None
    ) -> int:
        """A server with text ``channels``; with ``shard=(id, count)``, its id is on that
        shard. Add it before the bot starts (READY lists it), or announce it with
        :meth:`add_bot_to`."""
        guild_id = self.next_id() if shard is None else self._next_id_on(shard)
        channel_payloads = []
        for position, channel_name in enumerate(channels):
            channel_id = self.next_id()
            payload = {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(guild_id),
                "name": channel_name,
                "position": position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
            }
            self.channels[channel_id] = payload
            channel_payloads.append(payload)
        self.guilds[guild_id] = {
            "id": str(guild_id),
            "name": name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "region": "us-east",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "es-ES",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _iso(1_700_000_000),
            "large": False,
            "unavailable": False,
            "member_count": 1,
            "members": [self.bot_user.member_payload()],
            "channels": channel_payloads,
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
        return guild_id

    def _next_id_on(self, shard: Shard) -> int:
        shard_id, count = shard
        candidate = self.next_id()
        while (candidate >> SNOWFLAKE_TIME_SHIFT) % count != shard_id:
            candidate = ((candidate >> SNOWFLAKE_TIME_SHIFT) + 1) << SNOWFLAKE_TIME_SHIFT
        self._ids = itertools.count(candidate + 1)  # later ids stay unique and increasing
        return candidate

    def add_channel(self, guild_id: int, name: str, *, forum: bool = False) -> int:
        """A new text channel (or a forum, ``forum=True``) in ``guild_id``; returns its id.
        Add it before the bot starts (GUILD_CREATE carries the channels)."""
        guild = self.guilds[guild_id]
        channel_id = self.next_id()
        payload: dict[str, Any] = {
            "id": str(channel_id),
            "type": 15 if forum else 0,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(guild["channels"]),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if forum:
            payload.update({"available_tags": [], "default_reaction_emoji": None})
        self.channels[channel_id] = payload
        guild["channels"].append(payload)
        return channel_id

    def add_thread(self, guild_id: int, parent_id: int, name: str) -> int:
        """A public thread (a forum post when ``parent_id`` is a forum) in ``guild_id``;
        returns its id. Add it before the bot starts (GUILD_CREATE lists active threads)."""
        thread_id = self.next_id()
        payload = {
            "id": str(thread_id),
            "type": 11,
            "guild_id": str(guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.owner.id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": _iso(1_700_000_000),
                "locked": False,
            },
        }
        self.channels[thread_id] = payload
        self.guilds[guild_id]["threads"].append(payload)
        return thread_id

    def delete_channel(self, channel_id: int) -> None:
        """The channel is deleted: its messages answer 404 10003 from now on."""
        del self.channels[channel_id]

    async def add_bot_to(self, guild_id: int) -> None:
        """The bot joins a server added after it connected: GUILD_CREATE on its shard."""
        self.left_guilds.discard(guild_id)
        await self.dispatch("GUILD_CREATE", self.guilds[guild_id])

    async def remove_bot_from(self, guild_id: int) -> None:
        """The bot is removed from the server: GUILD_DELETE, then 403 50001 there."""
        self.left_guilds.add(guild_id)
        await self.dispatch("GUILD_DELETE", {"id": str(guild_id)})

    def channel_of(self, guild_id: int, index: int = 0) -> int:
        return int(self.guilds[guild_id]["channels"][index]["id"])

    def add_user(
        self, name: str, *, locale: str = "es-ES", admin: bool = False, dms_closed: bool = False
    ) -> FakeUser:
        user = FakeUser(
            self.next_id(),
            name,
            locale=locale,
            permissions=ADMIN_PERMISSIONS if admin else MEMBER_PERMISSIONS,
        )
        self.users[user.id] = user
        if dms_closed:
            self.dms_closed.add(user.id)
        return user

    def authorize(self, user: FakeUser) -> str:
        """What the Discord client's AUTHORIZE answers after ``user`` consents: a code."""
        code = f"code-{self.next_id()}"
        self.oauth_codes[code] = user.id
        return code

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: an authorization code for an access token, once."""
        form = await request.post()
        code = str(form.get("code", ""))
        if (
            form.get("client_id") != str(self.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code" or code not in self.oauth_codes:
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = f"token-{self.next_id()}"
        self.access_tokens[token] = self.oauth_codes.pop(code)
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": f"refresh-{token}",
                "scope": "identify",
            }
        )

    async def _users_me(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with a Bearer access token: who it belongs to (any other
        goes to the REST routes: discord.py's login asks the same with the bot token)."""
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return await self._rest(request)
        self.identity_asks += 1
        user_id = self.access_tokens.get(auth.removeprefix("Bearer "))
        if user_id is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        user = self.users[user_id]
        return web.json_response({**user.payload(), "locale": user.locale})

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_post("/api/v10/oauth2/token", self._oauth_token)
        app.router.add_get("/api/v10/users/@me", self._users_me)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and default gateway at this fake (restored after)."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    # ------------------------------------------------------------------ waiting
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 5.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every request); return it."""

        async def waiter() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()

        return await asyncio.wait_for(waiter(), timeout)

    async def settle(self, quiet: float = 0.05, *, timeout: float = 10.0) -> None:
        """Wait until no REST request has arrived for ``quiet`` seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            count = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == count:
                return
        raise TimeoutError("the bot kept making requests")

    # ------------------------------------------------------------------ queries
    def requests_to(self, method: str, prefix: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and r.path.startswith(prefix)]

    def messages_in(self, channel_id: int) -> list[FakeMessage]:
        return [self.messages[m] for m in self.channel_messages.get(channel_id, [])]

    def dms_to(self, user: FakeUser) -> list[FakeMessage]:
        channel_id = self.dm_channels.get(user.id)
        return [] if channel_id is None else self.messages_in(channel_id)

    def last_dm(self, user: FakeUser) -> FakeMessage | None:
        dms = self.dms_to(user)
        return dms[-1] if dms else None

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.append(ws)
        self.gateway_connections += 1
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2 and not self.hold_ready:
                    await self._identify(ws, data["d"])
                elif op == 6:
                    shard = self._session_shards.get(data["d"].get("session_id"))
                    if shard is not None:
                        self._shard_of[ws] = shard
                    await self._dispatch_to(ws, "RESUMED", {})
        finally:
            self._sockets.remove(ws)
            self._shard_of.pop(ws, None)
        return ws

    async def _dispatch_to(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        shard_id, count = data.get("shard") or [0, 1]
        shard = (shard_id, count)
        session_id = f"session-{self.next_id()}"
        self._shard_of[ws] = self._session_shards[session_id] = shard
        guilds = [g for gid, g in self.guilds.items() if self._covers(shard, gid)]
        await self._dispatch_to(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
                "session_id": session_id,
                "resume_gateway_url": self.gateway_url,
                "shard": list(shard),
                "application": {"id": str(self.application_id), "flags": 0},
            },
        )
        for guild in guilds:
            await self._dispatch_to(ws, "GUILD_CREATE", guild)

    @staticmethod
    def _covers(shard: Shard, guild_id: int | None) -> bool:
        """Whether ``shard`` carries the events of ``guild_id`` (None: a DM, shard 0)."""
        shard_id, count = shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> SNOWFLAKE_TIME_SHIFT) % count == shard_id

    async def dispatch(self, event: str, data: Any) -> float:
        """Send a gateway event to the sessions whose shard carries its server (the
        payload's ``guild_id``, or its ``id`` for ``GUILD_*`` events; none: shard 0);
        returns the perf_counter send time."""
        sent, _ = await self._deliver(event, data)
        return sent

    async def _deliver(self, event: str, data: Any) -> tuple[float, list[Shard]]:
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        raw_guild = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
        guild_id = None if raw_guild is None else int(raw_guild)
        sent = time.perf_counter()
        shards = []
        for ws, shard in list(self._shard_of.items()):
            if self._covers(shard, guild_id):
                await self._dispatch_to(ws, event, data)
                shards.append(shard)
        return sent, shards

    # ------------------------------------------------------------------ interactions
    def _interaction_base(
        self, kind: int, user: FakeUser, channel_id: int, guild_id: int | None
    ) -> tuple[dict[str, Any], Interaction]:
        interaction_id = self.next_id()
        token = f"token-{interaction_id}"
        data: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "locale": user.locale,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "app_permissions": str(ADMIN_PERMISSIONS | (1 << 17)),
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
            data["guild_locale"] = "es-ES"
            data["channel"] = self.channels[channel_id]
            data["member"] = user.member_payload()
            data["authorizing_integration_owners"] = {"0": str(guild_id)}
            data["context"] = 0
        else:
            data["channel"] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.payload()],
                "last_message_id": None,
                "flags": 0,
            }
            data["user"] = user.payload()
            data["authorizing_integration_owners"] = {"0": str(channel_id)}
            data["context"] = 1
        inter = Interaction(interaction_id, token, kind, user, channel_id, sent_at=0.0)
        self.interactions[token] = inter
        return data, inter

    async def slash(
        self,
        user: FakeUser,
        guild_id: int,
        *path: str,
        options: dict[str, Any] | None = None,
        channel_id: int | None = None,
        stale: bool = False,
    ) -> Interaction:
        """Invoke ``/path[0] path[1] ...`` with ``options`` (name -> value) as ``user``.

        Option types are inferred: bool 5, int 4, str 3 (enough for the adapter's
        commands). With ``stale`` the command need not be one the bot synced (Discord
        still offering an old registration during a deploy). Returns the
        :class:`Interaction` (answers arrive asynchronously: use :meth:`answered` /
        :meth:`wait_until`).
        """
        channel_id = channel_id or self.channel_of(guild_id)
        data, inter = self._interaction_base(2, user, channel_id, guild_id)
        known = self.commands.get(guild_id) or self.commands.get(None) or []
        command = next((c for c in known if c["name"] == path[0]), None)
        if command is None and stale:
            command = {"id": str(self.next_id()), "name": path[0]}
        if command is None:
            raise LookupError(f"/{path[0]} was not synced to the fake")
        if not stale:
            spec = command
            for name in path[1:]:
                spec = next(o for o in spec.get("options", []) if o["name"] == name)
            known_options = {o["name"] for o in spec.get("options", [])}
            unknown = set(options or {}) - known_options
            if unknown:
                raise LookupError(f"/{' '.join(path)} has no option {sorted(unknown)}")
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        opts = []
        for k, v in (options or {}).items():
            if isinstance(v, FakeUser):  # a member option: id plus resolved data
                member = v.member_payload()
                resolved["users"][str(v.id)] = member.pop("user")
                resolved["members"][str(v.id)] = member
                opts.append({"name": k, "type": 6, "value": str(v.id)})
                continue
            kind = 5 if isinstance(v, bool) else 4 if isinstance(v, int) else 3
            opts.append({"name": k, "type": kind, "value": v})
        for name in reversed(path[1:]):
            opts = [{"name": name, "type": 1, "options": opts}]
        data["data"] = {
            "id": command["id"],
            "name": path[0],
            "type": 1,
            "options": opts,
            "guild_id": str(guild_id),
            **({"resolved": resolved} if resolved["users"] else {}),
        }
        inter.sent_at, inter.delivered_to = await self._deliver("INTERACTION_CREATE", data)
        return inter

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> Interaction:
        """Press the button ``custom_id`` on ``message`` as ``user``.

        The id need not be on the message (a forged press is the point of some tests).
        """
        data, inter = self._interaction_base(3, user, message.channel_id, message.guild_id)
        data["message"] = message.payload(self.bot_user.payload())
        data["data"] = {"custom_id": custom_id, "component_type": 2}
        inter.original = message
        inter.sent_at, inter.delivered_to = await self._deliver("INTERACTION_CREATE", data)
        return inter

    async def answered(self, inter: Interaction, *, timeout: float = 5.0) -> Interaction:
        """Wait until the bot has sent the interaction callback."""
        await self.wait_until(lambda: inter.callbacks, timeout=timeout)
        return inter

    async def replied(
        self, inter: Interaction, *, count: int = 1, timeout: float = 5.0
    ) -> list[FakeMessage]:
        """Wait until ``count`` response/follow-up messages exist (a defer alone is none)."""

        def done() -> list[FakeMessage] | None:
            replies = [m for m in inter.replies() if m.content or m.embeds or m.attachments]
            return replies if len(replies) >= count else None

        return await self.wait_until(done, timeout=timeout)

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.path.removeprefix("/api/v10/")
        payload: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append((part.filename or "file", bytes(data)))  # type: ignore[union-attr]
        elif request.can_read_body:
            body = await request.read()
            if body:
                payload = json.loads(body)
        rec = Request(
            request.method, path, dict(request.query), payload, files, time.perf_counter()
        )
        self.requests.append(rec)
        token = request.headers.get("Authorization", "")
        if self.valid_token is not None and token and token != f"Bot {self.valid_token}":
            await self._notify()
            return web.Response(
                status=401,
                body=json.dumps({"code": 0, "message": "401: Unauthorized"}).encode(),
                content_type="application/json",
            )
        headers: dict[str, str] = {}
        if self.limits is not None:
            parts = path.strip("/").split("/")
            verdict, headers, refusal = self.limits.check(request.method, parts)
            if verdict == 429:
                rec.status = 429
                for observer in self.observers:
                    observer(rec)
                await self._notify()
                return web.Response(
                    status=429,
                    body=json.dumps(refusal).encode(),
                    content_type="application/json",
                    headers=headers,
                )
        try:
            status, body_out = self._route(rec)
        except KeyError as exc:
            status, body_out = 404, {"code": 10003, "message": f"Unknown: {exc}"}
        rec.status = status
        for observer in self.observers:
            observer(rec)
        await self._notify()
        if status == 204:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=status,
            body=json.dumps(body_out).encode(),
            content_type="application/json",
            headers=headers,
        )

    def _route(self, req: Request) -> tuple[int, Any]:
        parts = req.path.strip("/").split("/")
        m = req.method
        if parts == ["users", "@me"] and m == "GET":
            return 200, self.bot_user.payload()
        if parts == ["oauth2", "applications", "@me"] and m == "GET":
            return 200, {
                "id": str(self.application_id),
                "name": "Domino",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "summary": "",
                "rpc_origins": [],
            }
        if parts == ["gateway", "bot"] and m == "GET":
            return 200, {
                "url": self.advertised_gateway or self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        if parts[0] == "applications" and m == "PUT" and parts[-1] == "commands":
            guild_id = int(parts[3]) if len(parts) == 5 else None
            stored = []
            for cmd in req.json:
                stored.append(
                    {
                        **cmd,
                        "id": str(self.next_id()),
                        "application_id": str(self.application_id),
                        "version": str(self.next_id()),
                        "type": cmd.get("type", 1),
                        **({"guild_id": str(guild_id)} if guild_id else {}),
                    }
                )
            self.commands[guild_id] = stored
            return 200, stored
        if parts[0] == "applications" and m == "GET" and parts[-1] == "commands":
            guild_id = int(parts[3]) if len(parts) == 5 else None
            return 200, self.commands.get(guild_id, [])
        if parts[0] == "users" and len(parts) == 2 and parts[1] != "@me" and m == "GET":
            user = self.users.get(int(parts[1]))
            if user is None:
                return 404, {"code": 10013, "message": "Unknown User"}
            return 200, user.payload()
        if parts == ["users", "@me", "channels"] and m == "POST":
            return 200, self._dm_channel(int(req.json["recipient_id"]))
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            return self._channel_messages(req, int(parts[1]), parts[3:])
        if parts[0] == "interactions" and parts[-1] == "callback" and m == "POST":
            return self._callback(req, parts[2])
        if parts[0] == "webhooks":
            return self._webhook(req, parts[2], parts[3:])
        return 404, {"code": 0, "message": f"404: Not Found ({m} {req.path})"}

    def _dm_channel(self, user_id: int) -> dict[str, Any]:
        if user_id not in self.dm_channels:
            channel_id = self.next_id()
            self.dm_channels[user_id] = channel_id
            self.dm_users[channel_id] = user_id
            self.channel_messages[channel_id] = []
        channel_id = self.dm_channels[user_id]
        return {
            "id": str(channel_id),
            "type": 1,
            "last_message_id": None,
            "recipients": [self.users[user_id].payload()],
            "flags": 0,
        }

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any] | None,
        files: list[tuple[str, bytes]],
        *,
        token: str | None = None,
    ) -> FakeMessage:
        body = body or {}
        channel = self.channels.get(channel_id)
        message = FakeMessage(
            id=self.next_id(),
            channel_id=channel_id,
            interaction_token=token,
            guild_id=int(channel["guild_id"]) if channel else None,
        )
        self._apply_edit(message, body, files, new=True)
        self.messages[message.id] = message
        if not message.ephemeral:
            self.channel_messages.setdefault(channel_id, []).append(message.id)
        return message

    def _apply_edit(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        new: bool = False,
    ) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = body["components"] or []
        if "flags" in body and body["flags"] is not None and new:
            message.flags = int(body["flags"])
        if "attachments" in body or files:
            kept = []
            # Attachments listed by an existing id are kept; the others describe new files.
            for spec in body.get("attachments", []):
                if str(spec.get("id", "")).isdigit() and int(spec["id"]) in message.files:
                    kept.append(next(a for a in message.attachments if a["id"] == str(spec["id"])))
            new_files = {}
            for index, (filename, data) in enumerate(files):
                attachment_id = self.next_id()
                new_files[attachment_id] = data
                kept.append(
                    {
                        "id": str(attachment_id),
                        "filename": filename,
                        "size": len(data),
                        "url": f"{self.base_url}/attachments/{attachment_id}/{filename}",
                        "proxy_url": f"{self.base_url}/attachments/{attachment_id}/{filename}",
                        "content_type": "image/png" if filename.endswith(".png") else None,
                        "index": index,
                    }
                )
            message.files = {
                int(a["id"]): (message.files.get(int(a["id"])) or new_files[int(a["id"])])
                for a in kept
            }
            message.attachments = kept
        if not new:
            message.edits += 1

    def _channel_messages(self, req: Request, channel_id: int, rest: list[str]) -> tuple[int, Any]:
        if channel_id not in self.channels and channel_id not in self.dm_users:
            return 404, {"code": 10003, "message": "Unknown Channel"}
        guild_id = int(self.channels[channel_id]["guild_id"]) if channel_id in self.channels else 0
        if guild_id in self.left_guilds:
            return 403, {"code": 50001, "message": "Missing Access"}
        code = self.forbidden_channels.get(channel_id)
        if code is not None and req.method in ("POST", "PATCH"):
            return 403, {"code": code, "message": "Missing Permissions"}
        if channel_id in self.dm_users:
            user_id = self.dm_users[channel_id]
            if user_id in self.dms_closed and req.method in ("POST", "PATCH"):
                return 403, {"code": 50007, "message": "Cannot send messages to this user"}
        if req.method == "POST" and not rest:
            message = self._new_message(channel_id, req.json, req.files)
            return 200, message.payload(self.bot_user.payload())
        if req.method == "GET" and not rest:
            limit = int(req.query.get("limit", 50))
            newest = list(reversed(self.channel_messages.get(channel_id, [])))[:limit]
            return 200, [self.messages[m].payload(self.bot_user.payload()) for m in newest]
        message_id = int(rest[0])
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            return 404, {"code": 10008, "message": "Unknown Message"}
        if req.method == "PATCH":
            self._apply_edit(message, req.json or {}, req.files)
            return 200, message.payload(self.bot_user.payload())
        if req.method == "GET":
            return 200, message.payload(self.bot_user.payload())
        if req.method == "DELETE":
            del self.messages[message_id]
            self.channel_messages[channel_id].remove(message_id)
            return 204, None
        return 405, {"code": 0, "message": "Method Not Allowed"}

    def _callback(self, req: Request, token: str) -> tuple[int, Any]:
        inter = self.interactions[token]
        if inter.callbacks:
            return 400, {"code": 40060, "message": "Interaction has already been acknowledged."}
        body = req.json or {}
        inter.callbacks.append(body)
        inter.callback_at = req.at
        kind = body["type"]
        data = body.get("data") or {}
        channel_id = inter.original.channel_id if inter.original else None
        response: dict[str, Any] = {
            "interaction": {"id": str(inter.id), "type": inter.kind},
        }
        message: FakeMessage | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            if channel_id is None:
                channel_id = inter.channel_id
            message = self._new_message(channel_id, data, req.files, token=token)
            if kind == DEFERRED_CHANNEL_MESSAGE:
                response["interaction"]["response_message_loading"] = True
            inter.original = message
        elif kind == UPDATE_MESSAGE and inter.original is not None:
            self._apply_edit(inter.original, data, req.files)
            message = inter.original
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            response["interaction"]["response_message_ephemeral"] = message.ephemeral
            response["resource"] = {
                "type": kind,
                "message": message.payload(self.bot_user.payload()),
            }
        return 200, response

    def _webhook(self, req: Request, token: str, rest: list[str]) -> tuple[int, Any]:
        inter = self.interactions[token]
        if inter.user.id in self.tokens_expired_for:
            return 404, {"code": 10015, "message": "Unknown Webhook"}
        author = self.bot_user.payload()
        if req.method == "POST" and not rest:
            channel_id = inter.original.channel_id if inter.original else inter.channel_id
            message = self._new_message(channel_id, req.json, req.files, token=token)
            inter.followups.append(message)
            return 200, message.payload(author)
        if rest[:1] == ["messages"]:
            target = rest[1]
            message = inter.original if target == "@original" else self.messages.get(int(target))
            if message is None:
                return 404, {"code": 10008, "message": "Unknown Message"}
            if req.method == "PATCH":
                self._apply_edit(message, req.json or {}, req.files)
                return 200, message.payload(author)
            if req.method == "GET":
                return 200, message.payload(author)
            if req.method == "DELETE":
                self.messages.pop(message.id, None)
                return 204, None
        return 404, {"code": 0, "message": "404: Not Found"}


# --------------------------------------------------------------------------- harness
# The Discord front end, a table manager and storage wired to a FakeDiscord, as the tests
# and bench/discord.py use them.


class ErrorLog:
    """Collects ERROR log records (a handler exception discord.py or the port logged)."""

    def __init__(self) -> None:
        import logging

        self.records: list[Any] = []
        self._handler = logging.Handler(logging.ERROR)
        self._handler.emit = self.records.append  # type: ignore[method-assign]

    def __enter__(self) -> ErrorLog:
        import logging

        logging.getLogger().addHandler(self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        import logging

        logging.getLogger().removeHandler(self._handler)

    def messages(self) -> list[str]:
        import logging

        fmt = logging.Formatter("%(name)s: %(message)s")
        return [fmt.format(r) for r in self.records]


def eager_clock(start: float = 1_800_000_000.0) -> Any:
    """A ``bot.core.clock.ManualClock`` whose timers already due run at once on the loop.

    With zero robot delay, countdown and pause between hands, robots and deals follow a
    press without the test advancing time; turn timers still wait for ``advance``.
    """
    from bot.core.clock import ManualClock

    class EagerClock(ManualClock):
        def __init__(self) -> None:
            super().__init__(start)
            self._tasks: set[asyncio.Task[None]] = set()

        def call_at(self, when: float, callback: Any) -> Any:
            timer = super().call_at(when, callback)
            if when <= self.now():
                self._tasks.add(asyncio.get_running_loop().create_task(self._fire()))
            return timer

        async def _fire(self) -> None:
            await self.advance(0)

        async def idle(self) -> None:
            while self._tasks:
                done = [t for t in self._tasks if t.done()]
                for t in done:
                    self._tasks.discard(t)
                    t.result()
                if self._tasks:
                    await asyncio.gather(*self._tasks, return_exceptions=True)

    return EagerClock()


class Harness:
    """One bot process: storage + clock + TableManager + DiscordFrontEnd on a fake.

    Args:
        fake: the running FakeDiscord.
        storage: shared between harnesses to simulate a restart on the same database.
        clock: the manager's clock (default: :func:`eager_clock`).
        seed: the manager's seed.
        manager_options: more ``TableManager`` keywords (house times).
    """

    def __init__(
        self,
        fake: FakeDiscord,
        storage: Any,
        *,
        clock: Any = None,
        seed: int = 7,
        **manager_options: Any,
    ) -> None:
        self.fake = fake
        self.storage = storage
        self.clock = clock if clock is not None else eager_clock()
        self.seed = seed
        self.manager_options = manager_options  # the manager's house times, e.g. stuck_seconds
        self.manager: Any = None
        self.front: Any = None

    async def start(self, **front_options: Any) -> Harness:
        from bot.core import TableManager
        from bot.discord import DiscordFrontEnd

        self.manager = TableManager(
            self.storage,
            clock=self.clock,
            seed=self.seed,
            robot_delay=0,
            countdown_seconds=0,
            hand_pause=0,
            robot_level="novato",
            **self.manager_options,
        )
        self.front = DiscordFrontEnd(
            "fake-token",
            self.manager,
            self.storage,
            api_base_url=self.fake.api_base_url,
            gateway_url=self.fake.gateway_url,
            guild_ready_timeout=0.01,
            **front_options,
        )
        await self.front.start()
        await self.manager.start()
        return self

    async def idle(self) -> None:
        """Wait until the manager, the clock's due timers and the port have no work left."""
        for _ in range(50):
            await self.clock.idle()
            await self.manager.idle()
            await self.front.port.idle()
            await asyncio.sleep(0)
            if not self.clock._tasks and not self.manager.busy:
                return

    async def stop(self, *, last: bool = True) -> None:
        """Stop the manager, then the front end; ``last=False`` while another harness on
        the same fake keeps running (discord.py's REST base and gateway are process-wide,
        so only the last one points them back at Discord)."""
        from bot.discord_http import point_discord_at

        if self.manager is not None:
            await self.manager.stop()
            await self.idle()
        if self.front is not None:
            await self.front.stop()
        if last:
            point_discord_at(None, None)


def turn_finder(
    fake: FakeDiscord,
    harness: Harness,
    players: dict[int, Callable[[], FakeMessage | None]],
    clicked: dict[int, tuple[int, tuple[str, ...]]],
) -> Callable[[], Any]:
    """A predicate for :meth:`FakeDiscord.wait_until`: ``"done"`` once the manager has no
    live table, else ``(user, message)`` for a player whose tiles message shows move
    buttons they have not pressed yet, else None."""

    def find() -> Any:
        if not harness.manager.tables():
            return "done"
        for user_id, where in players.items():
            message = where()
            if message is None:
                continue
            ids = tuple(i for i in message.custom_ids() if i.startswith("dm1:m:"))
            if ids and clicked.get(user_id) != (message.id, ids):
                return (fake.users[user_id], message)
        return None

    return find


async def play_until_closed(
    fake: FakeDiscord,
    harness: Harness,
    players: dict[int, Callable[[], FakeMessage | None]],
    *,
    choose: Callable[[list[str]], str] = lambda ids: ids[0],
    limit: int = 500,
) -> list[Interaction]:
    """Press a move button whenever one of ``players`` (user id -> where their tiles are
    shown: their last DM, an ephemeral message) has one, until the table closes.

    Returns the move interactions, in order.
    """
    clicked: dict[int, tuple[int, tuple[str, ...]]] = {}
    find = turn_finder(fake, harness, players, clicked)
    presses: list[Interaction] = []
    for _ in range(limit):
        found = await fake.wait_until(find, timeout=10)
        if found == "done":
            await harness.idle()
            return presses
        user, message = found
        ids = [i for i in message.custom_ids() if i.startswith("dm1:m:")]
        clicked[user.id] = (message.id, tuple(ids))
        inter = await fake.click(user, message, choose(ids))
        presses.append(await fake.answered(inter))
    raise AssertionError(f"the match did not end within {limit} moves")


def board_message(fake: FakeDiscord) -> FakeMessage:
    """The board (the message with an embed) in the first server's channel."""
    channel = fake.channel_of(next(iter(fake.guilds)))
    return next(m for m in fake.messages_in(channel) if m.embeds)


async def seat_and_fill(fake: FakeDiscord, harness: Harness, user: FakeUser) -> FakeMessage:
    """``user`` plays ``/domino jugar`` and presses "robots now": a match starts."""
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(user, guild, "domino", "jugar"))
    await harness.idle()
    board = board_message(fake)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(user, board, robots))
    await harness.idle()
    return board
