"""Reading updates without ever going deaf: an update the library cannot parse is skipped.

python-telegram-bot parses a whole getUpdates answer at once (``Update.de_list``); one
update it rejects (a ``my_chat_member`` lacking a field PTB 22 requires, as an older or
newer Bot API server may send) fails the whole batch, the Updater logs it and asks for
the same batch again, for ever: no later update is ever answered (issue 27, item 1).

:class:`ReadingBot` is PTB's ``ExtBot`` that checks each update of a getUpdates answer on
its own: one that does not parse is logged once (its ``update_id`` and its kinds, never
its content) and replaced by a bare ``{"update_id": N}``, which no handler takes, so the
Updater confirms it with the rest and the next getUpdates goes past it. An answer item
without a usable ``update_id`` is dropped (there is nothing to confirm).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram._utils.types import JSONDict
from telegram.ext import ExtBot

__all__ = ["ReadingBot", "readable_updates"]

log = logging.getLogger(__name__)


def readable_updates(result: Any, bot: Any = None) -> Any:
    """The getUpdates ``result`` with every update PTB cannot parse made empty.

    Args:
        result: the decoded ``result`` of getUpdates (a list of update dicts); anything
            else is returned unchanged (PTB reports it as before).
        bot: the bot the updates are parsed for (as PTB does), or None.

    Returns:
        A list of the same length, minus items without an integer ``update_id``: each
        update PTB can read as it came, each other one as ``{"update_id": N}``; each
        replaced or dropped item is logged once, as a warning.
    """
    if not isinstance(result, list):
        return result
    kept: list[Any] = []
    for item in result:
        update_id = item.get("update_id") if isinstance(item, dict) else None
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            log.warning("skipped a Telegram update without an update_id (%s)", type(item).__name__)
            continue
        try:
            Update.de_json(item, bot)
        except Exception as exc:  # any parse failure: PTB raises KeyError, TypeError...
            kinds = sorted(k for k in item if k != "update_id")
            log.warning(
                "skipped Telegram update %d (%s): python-telegram-bot cannot read it (%s: %s)",
                update_id,
                ", ".join(kinds) or "empty",
                type(exc).__name__,
                exc,
            )
            kept.append({"update_id": update_id})
        else:
            kept.append(item)
    return kept


class ReadingBot(ExtBot[Any]):
    """PTB's ``ExtBot`` whose getUpdates skips the updates it cannot parse
    (:func:`readable_updates`); every other request is PTB's own."""

    async def _post(
        self, endpoint: str, data: JSONDict | None = None, *args: Any, **kwargs: Any
    ) -> Any:
        result = await super()._post(endpoint, data, *args, **kwargs)
        if endpoint == "getUpdates":
            return readable_updates(result, self)
        return result
