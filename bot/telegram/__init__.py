"""The Telegram front end (python-telegram-bot): see :mod:`bot.telegram.frontend`.

``TelegramFrontEnd(token, manager, storage, base_url=None, base_file_url=None)`` with
``await start()`` / ``await stop()`` inside a running event loop.
"""

from __future__ import annotations

from bot.telegram.frontend import ALLOWED_UPDATES, PLATFORM, TelegramFrontEnd

__all__ = ["ALLOWED_UPDATES", "PLATFORM", "TelegramFrontEnd"]
