"""Who is at the other end of a web page (issue 16): a Telegram Mini App user, the holder
of a personal seat link, or a spectator.

* Telegram Mini App: the page sends ``Telegram.WebApp.initData``; it is validated with
  ``telegram-webapp-auth`` (HMAC-SHA-256 keyed by the bot token, as Telegram documents)
  and must be at most :data:`INIT_DATA_MAX_AGE` seconds old by the injected clock.
* Seat links: a signed, expiring token (``itsdangerous``) naming a player and a table,
  sent privately (a Discord DM or ephemeral message, a Telegram private chat); valid for
  :data:`SEAT_LINK_MAX_AGE` seconds.
* Spectator links: a signed token naming a table (public, no expiry: a finished table
  shows nothing), so table ids cannot be guessed into links.

No hand-rolled cryptography; tokens and initData never reach a log line (the server's
access log drops query strings).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from telegram_webapp_auth.auth import TelegramAuthenticator, generate_secret_key
from telegram_webapp_auth.errors import InvalidInitDataError

from bot.core import PlayerRef
from bot.present.i18n import language_of

__all__ = [
    "INIT_DATA_MAX_AGE",
    "SEAT_LINK_MAX_AGE",
    "AuthError",
    "AuthFailure",
    "SeatPass",
    "WebAuth",
    "link_secret",
]

INIT_DATA_MAX_AGE: Final = 24 * 60 * 60.0
"""Seconds a Mini App's initData stays valid (Telegram re-signs it at each opening)."""

SEAT_LINK_MAX_AGE: Final = 12 * 60 * 60.0
"""Seconds a personal seat link stays valid (a match rarely lasts an hour)."""


class AuthFailure(StrEnum):
    """Why a page was refused (the page shows a sentence for each)."""

    MALFORMED = "malformed"
    FORGED = "forged"
    EXPIRED = "expired"


class AuthError(Exception):
    """The credentials were refused; nothing is revealed about why beyond ``failure``."""

    def __init__(self, failure: AuthFailure) -> None:
        self.failure = failure
        super().__init__(failure.value)


@dataclass(frozen=True, slots=True)
class SeatPass:
    """Who a page belongs to: ``player`` (None for a spectator) and the table it opens
    (None: the player's current table)."""

    player: PlayerRef | None
    table_id: str | None


def link_secret(*tokens: str | None, configured: str | None = None) -> bytes:
    """The key that signs links: ``DOMINO_WEB_SECRET`` when set, else derived from the
    bot tokens (stable across restarts, so links survive them)."""
    if configured:
        return configured.encode()
    material = "\n".join(t for t in tokens if t)
    if not material:
        raise ValueError("a web secret needs DOMINO_WEB_SECRET or a bot token")
    return hmac.digest(b"domino-web-links", material.encode(), hashlib.sha256)


def _serializer(secret: bytes, salt: str, clock: Callable[[], float]) -> URLSafeTimedSerializer:
    """itsdangerous with the injected clock (its signer's ``get_timestamp`` hook)."""

    class ClockSigner(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(clock())

    return URLSafeTimedSerializer(secret, salt=salt, signer=ClockSigner)


class WebAuth:
    """Validates and signs what a page presents.

    Args:
        telegram_token: the bot token (Mini App initData), or None when Telegram is off.
        secret: the link signing key (:func:`link_secret`).
        clock: epoch seconds now.
    """

    def __init__(
        self, *, telegram_token: str | None, secret: bytes, clock: Callable[[], float]
    ) -> None:
        self._clock = clock
        self._telegram = (
            TelegramAuthenticator(generate_secret_key(telegram_token)) if telegram_token else None
        )
        self._seats = _serializer(secret, "domino-seat", clock)
        self._watch = _serializer(secret, "domino-watch", clock)

    # ----------------------------------------------------------------- Telegram

    def telegram(self, init_data: str) -> SeatPass:
        """The Mini App's user (and the table its ``start_param`` names).

        Raises:
            AuthError: FORGED (bad hash, or Telegram is off), EXPIRED (older than
                :data:`INIT_DATA_MAX_AGE`), MALFORMED (no user).
        """
        if self._telegram is None or not isinstance(init_data, str) or not init_data:
            raise AuthError(AuthFailure.FORGED)
        try:
            data = self._telegram.validate(init_data, expr_in=None)
        except InvalidInitDataError:
            raise AuthError(AuthFailure.FORGED) from None
        except (ValueError, TypeError):
            raise AuthError(AuthFailure.MALFORMED) from None
        age = self._clock() - float(data.auth_date)
        if age > INIT_DATA_MAX_AGE:
            raise AuthError(AuthFailure.EXPIRED)
        user = data.user
        if user is None:
            raise AuthError(AuthFailure.MALFORMED)
        name = " ".join(p for p in (user.first_name, user.last_name) if p) or str(user.id)
        player = PlayerRef("telegram", str(user.id), name, language_of(user.language_code))
        return SeatPass(player, data.start_param or None)

    # ---------------------------------------------------------------- seat links

    def seat_link(self, player: PlayerRef, table_id: str) -> str:
        """A token opening ``table_id`` as ``player`` for :data:`SEAT_LINK_MAX_AGE`."""
        payload = [player.platform, player.user_id, player.display_name, player.language, table_id]
        return str(self._seats.dumps(payload))

    def seat(self, token: str) -> SeatPass:
        """The player and table of a seat link.

        Raises:
            AuthError: FORGED, EXPIRED or MALFORMED.
        """
        payload = self._load(self._seats, token, SEAT_LINK_MAX_AGE)
        if not (isinstance(payload, list) and len(payload) == 5):
            raise AuthError(AuthFailure.MALFORMED)
        if not all(isinstance(part, str) for part in payload):
            raise AuthError(AuthFailure.MALFORMED)
        platform, user_id, name, language, table_id = payload
        return SeatPass(PlayerRef(platform, user_id, name, language_of(language)), table_id)

    # ----------------------------------------------------------- spectator links

    def watch_link(self, table_id: str) -> str:
        """A public token showing ``table_id`` to anyone (the public view only)."""
        return str(self._watch.dumps(table_id))

    def watch(self, token: str) -> SeatPass:
        """The table of a spectator link.

        Raises:
            AuthError: FORGED or MALFORMED.
        """
        table_id = self._load(self._watch, token, None)
        if not isinstance(table_id, str) or not table_id:
            raise AuthError(AuthFailure.MALFORMED)
        return SeatPass(None, table_id)

    @staticmethod
    def _load(serializer: URLSafeTimedSerializer, token: str, max_age: float | None) -> Any:
        if not isinstance(token, str) or not token or len(token) > 1000:
            raise AuthError(AuthFailure.MALFORMED)
        try:
            if max_age is None:
                return serializer.loads(token)
            return serializer.loads(token, max_age=int(max_age))
        except SignatureExpired:
            raise AuthError(AuthFailure.EXPIRED) from None
        except BadSignature:
            raise AuthError(AuthFailure.FORGED) from None
