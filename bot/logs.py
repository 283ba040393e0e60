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
from typing import TextIO
from urllib.parse import quote

__all__ = ["RedactingFormatter", "setup_logging"]


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
    logging.getLogger("discord.gateway").setLevel(max(logging.INFO, root.level))
    return handler
