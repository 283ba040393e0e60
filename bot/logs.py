"""Logging: one line per event, tokens never written.

:func:`setup_logging` configures the root logger with a formatter that prints
``time level logger: message`` and a filter that replaces every secret (the bot tokens)
with ``***`` in the final text — libraries log request URLs, and a Telegram URL holds the
token. Private tiles never reach a log: the core logs moves only after they are public.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import Any, TextIO
from urllib.parse import quote

__all__ = ["EventLog", "RedactingFormatter", "describe_event", "setup_logging"]


class RedactingFormatter(logging.Formatter):
    """A formatter that removes given secrets from the formatted line (the message, its
    arguments and any traceback), also where a secret appears URL-encoded (a Telegram
    token's ``:`` becomes ``%3A`` in some logged URLs)."""

    def __init__(self, secrets: Iterable[str], fmt: str | None = None) -> None:
        super().__init__(fmt or "%(asctime)s %(levelname)s %(name)s: %(message)s")
        forms = set()
        for secret in secrets:
            if secret:
                forms |= {secret, quote(secret, safe=""), quote(secret)}
        self._secrets = sorted(forms, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


def setup_logging(
    level: str = "INFO", secrets: Iterable[str] = (), stream: TextIO | None = None
) -> logging.Handler:
    """Send every log line to ``stream`` (stderr) at ``level``, secrets redacted.

    Returns the handler (tests remove it again).
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_domino", False):
            root.removeHandler(old)
    handler._domino = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # httpx logs every request URL at INFO; the Telegram URL carries the token.
    logging.getLogger("httpx").setLevel(max(logging.WARNING, root.level))
    # At DEBUG the platform libraries dump whole requests, and a player's private message
    # carries their move buttons (their playable tiles): INFO at most for them.
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
    voice = logging.getLogger("discord.client")
    if not any(isinstance(f, NoVoiceWarning) for f in voice.filters):
        voice.addFilter(NoVoiceWarning())
    return handler


class NoVoiceWarning(logging.Filter):
    """Drops discord.py's warnings that voice is not supported (PyNaCl, davey): the bot
    never joins a voice channel, so an admin has nothing to do about them."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


QUIET_LIBRARIES = ("telegram", "discord", "httpcore", "aiosqlite")
"""Loggers kept at INFO or above whatever the level: their DEBUG lines hold payloads."""


_FIELDS = (
    "player",
    "to",
    "by",
    "phase",
    "hand_number",
    "move_number",
    "seat",
    "turn",
    "reason",
    "score",
)


def describe_event(event: Any) -> str:
    """One log line for a table manager event: its kind, table, chat and the players it
    names (platform and id), the public facts (phase, hand and move numbers, seat, a
    move once played, score). Never a tile of anyone's hand: a hand shown to a player
    is logged as "YourTiles" with only who received it."""
    parts = [type(event).__name__]
    table_id = getattr(event, "table_id", None)
    if table_id:
        parts.append(f"table={table_id}")
    chat = getattr(event, "chat", None)
    if chat is not None and hasattr(chat, "key"):
        parts.append(f"chat={chat.key}")
    for name in _FIELDS:
        value: Any = getattr(event, name, None)
        if hasattr(value, "platform") and hasattr(value, "user_id"):  # a player
            parts.append(f"{name}={value.platform}:{value.user_id}")
        elif isinstance(value, (str, int, float, tuple)) and not isinstance(value, bool):
            parts.append(f"{name}={value}")
    move = getattr(event, "move", None)
    if move is not None and hasattr(move, "text"):
        parts.append(f"move={move.text()}")  # public: it is on the line now
    return " ".join(parts)


class EventLog:
    """A :class:`bot.core.Port` for every platform (``manager.register("*", ...)``)
    that writes one INFO line per event to the ``domino.events`` logger."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.log = logger or logging.getLogger("domino.events")

    async def deliver(self, event: Any) -> None:
        if self.log.isEnabledFor(logging.INFO):
            self.log.info("%s", describe_event(event))
