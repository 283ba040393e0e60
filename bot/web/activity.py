"""The web table as a Discord Activity (issue 31): Discord's OAuth2 on the server's side.

Inside Discord the page runs in an iframe at ``https://<client id>.discordsays.com``; the
Embedded App SDK (``bot/web/activity/src/activity.js``, bundled into
``static/activity.js``) asks the Discord client to **authorize** the application (a
code), the page posts the code to ``/.proxy/api/token`` and this module **exchanges** it
with Discord for an access token (only the server holds the client secret); the page
**authenticates** the SDK with it and says hello with it. Who the page belongs to is then
asked of Discord itself (``GET /users/@me`` with that token), never taken from the page.

Discord's documented endpoints (discord.com/developers/docs/topics/oauth2):
``POST {api}/oauth2/token`` (form: ``client_id``, ``client_secret``, ``grant_type=
authorization_code``, ``code``) and ``GET {api}/users/@me`` (``Authorization: Bearer``).
``api`` is ``https://discord.com/api/v10`` unless ``DISCORD_API_BASE_URL`` points
elsewhere (the tests' fake Discord).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

import aiohttp

from bot.core import PlayerRef
from bot.present.i18n import language_of
from bot.web.auth import AuthError, AuthFailure

__all__ = ["DISCORD_API", "IDENTITY_SECONDS", "DiscordActivity"]

log = logging.getLogger("bot.web.activity")

DISCORD_API: Final = "https://discord.com/api/v10"
"""Discord's REST API, where the OAuth2 endpoints live."""

IDENTITY_SECONDS: Final = 600.0
"""How long an access token's owner, once asked of Discord, is trusted without asking
again (a page reconnecting says hello with the same token)."""

_TIMEOUT: Final = aiohttp.ClientTimeout(total=10.0)


class DiscordActivity:
    """Discord's OAuth2 for the Activity: code -> access token -> player.

    Args:
        client_id: the application's id (the Developer Portal's "Application ID").
        client_secret: its OAuth2 client secret.
        api_base: Discord's REST API (:data:`DISCORD_API`).
        clock: epoch seconds now (how long an identity is kept).
    """

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        *,
        api_base: str | None = None,
        clock: Callable[[], float],
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self.api_base = (api_base or DISCORD_API).rstrip("/")
        self._clock = clock
        self._known: dict[str, tuple[float, PlayerRef]] = {}
        self._session: aiohttp.ClientSession | None = None

    @property
    def origin(self) -> str:
        """The origin Discord serves the Activity's iframe from (its pages may connect)."""
        return f"https://{self.client_id}.discordsays.com"

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=_TIMEOUT)
        return self._session

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _ask(self, method: str, path: str, **options: Any) -> tuple[int, Any]:
        """One request to Discord's API: its status and JSON body.

        Raises:
            AuthError: ``forged`` when Discord cannot be reached or answers no JSON.
        """
        try:
            async with self._client().request(method, self.api_base + path, **options) as answer:
                return answer.status, await answer.json(content_type=None)
        except (TimeoutError, aiohttp.ClientError, ValueError):
            log.warning("Discord's %s %s failed", method, path, exc_info=True)
            raise AuthError(AuthFailure.FORGED) from None

    async def exchange(self, code: str) -> str:
        """The access token for an authorization ``code`` the SDK's authorize gave.

        Raises:
            AuthError: ``malformed`` for a code that is no string of a sane length,
                ``forged`` when Discord refuses it (used, expired or made up).
        """
        if not code or len(code) > 200 or not code.isascii():
            raise AuthError(AuthFailure.MALFORMED)
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        status, body = await self._ask("POST", "/oauth2/token", data=form)
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str):
            raise AuthError(AuthFailure.FORGED)
        return token

    async def player(self, access_token: str) -> PlayerRef:
        """The Discord member an access token belongs to, as the Discord front end names
        players (``discord``, their id, their display name, their language).

        Raises:
            AuthError: ``malformed`` for no token, ``forged`` when Discord refuses it.
        """
        if not access_token or len(access_token) > 200 or not access_token.isascii():
            raise AuthError(AuthFailure.MALFORMED)
        now = self._clock()
        known = self._known.get(access_token)
        if known is not None and known[0] > now:
            return known[1]
        headers = {"Authorization": f"Bearer {access_token}"}
        status, body = await self._ask("GET", "/users/@me", headers=headers)
        if status != 200 or not isinstance(body, dict) or not isinstance(body.get("id"), str):
            raise AuthError(AuthFailure.FORGED)
        name = body.get("global_name") or body.get("username") or body["id"]
        player = PlayerRef("discord", body["id"], str(name), language_of(body.get("locale")))
        if len(self._known) > 10_000:  # forget the expired ones now and then
            self._known = {t: k for t, k in self._known.items() if k[0] > now}
        self._known[access_token] = (now + IDENTITY_SECONDS, player)
        return player
