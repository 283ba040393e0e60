"""Presses that reach the wrong process: Discord sends every direct message's events to
shard 0 (issue 17, part 2).

With the shards split between processes (``DISCORD_SHARD_IDS``), a table in a server of
shard 1 is played by the process serving shard 1, but the move buttons of its players'
direct messages are pressed in DMs, whose interactions Discord delivers to the process
of shard 0 only. That process relays such a press, untouched, through the database's
notices (``Storage.publish``: PostgreSQL ``NOTIFY``): the process that has the table
live says it takes it and dispatches the interaction as if its own gateway had received
it, answering through the interaction's token (Discord accepts the answer from any
process). A press nobody takes within :data:`TAKEN_WAIT` seconds (its table ended) is
dispatched where it arrived, and refused there as any press of a gone table. A friend's
invitation (its **Sentarme**, ``dmf:i:<table>.<code>``) names its table too and is
relayed the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.core import ForgedPress, decode_friend, decode_press
from storage.base import NOTICE_BYTES

__all__ = ["CHANNEL", "TAKEN_WAIT", "PressRelay"]

log = logging.getLogger(__name__)

CHANNEL = "domino_discord_presses"
"""The notice channel relayed presses and their acknowledgements travel on."""

TAKEN_WAIT = 1.0
"""Seconds the receiving process waits for the table's process to take a relayed press
before answering it itself (Discord wants an answer within 3 s)."""

COMPONENT = 3
"""Discord's interaction type of a button press."""

_EMPTIED_MESSAGE_KEYS: dict[str, Any] = {
    "content": "",
    "embeds": [],
    "attachments": [],
    "mentions": [],
}
"""What a relayed press's message does not need (its id, buttons and flags stay): keeps
the notice small; emptied, not removed, as discord.py reads a message with them."""


class Notices(Protocol):
    """The part of the storage the relay uses (``storage.base.Storage``)."""

    async def publish(self, channel: str, message: str) -> None: ...

    async def subscribe(self, channel: str, callback: Callable[[str], None]) -> None: ...


class PressRelay:
    """Relays the DM presses of tables this process does not have to the one that does.

    Args:
        notices: the storage's notices (shared by every process on the database).
        is_live: whether a table id is live in this process (``Manager.table_state``).
        me: this process's name in the notices (its lease owner id).
        relays: whether this process relays at all: only one that serves shard 0 but not
            every shard can receive presses of tables played elsewhere.
    """

    def __init__(
        self,
        notices: Notices,
        is_live: Callable[[str], bool],
        me: str,
        *,
        relays: bool,
    ) -> None:
        self.notices = notices
        self.is_live = is_live
        self.me = me
        self.relays = relays
        self._dispatch: Callable[[Any], None] | None = None
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def install(self, parsers: dict[str, Callable[[Any], None]]) -> None:
        """Take over discord.py's ``INTERACTION_CREATE`` parser (``ConnectionState.
        parsers``) and listen to the other processes' relayed presses."""
        self._dispatch = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self.on_interaction
        await self.notices.subscribe(CHANNEL, self.on_notice)

    def on_interaction(self, data: Any) -> None:
        """An interaction from this process's gateway: dispatched here, unless it is a
        DM press of a table not live here, which is relayed first."""
        assert self._dispatch is not None
        table_id = self._relayed_table(data)
        if table_id is None:
            self._dispatch(data)
            return
        task = asyncio.get_running_loop().create_task(self._relay(data, table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _relayed_table(self, data: Any) -> str | None:
        if not self.relays or data.get("type") != COMPONENT or data.get("guild_id"):
            return None
        custom_id = (data.get("data") or {}).get("custom_id")
        if not isinstance(custom_id, str):
            return None
        try:
            table_id: str | None = decode_press(custom_id).table_id
        except ForgedPress:
            try:  # a friend's invitation names the table its seat is kept at
                table_id = decode_friend(custom_id).table_id
            except ForgedPress:
                return None
        if table_id is None:
            return None
        return None if self.is_live(table_id) else table_id

    async def _relay(self, data: Any, table_id: str) -> None:
        assert self._dispatch is not None
        interaction_id = str(data.get("id"))
        taken = self._waiting[interaction_id] = asyncio.get_running_loop().create_future()
        try:
            notice = self._notice(data, table_id)
            if len(notice.encode()) > NOTICE_BYTES:
                log.warning("press %s too large to relay; answered here", interaction_id)
                self._dispatch(data)
                return
            await self.notices.publish(CHANNEL, notice)
            await asyncio.wait_for(taken, TAKEN_WAIT)
        except TimeoutError:
            self._dispatch(data)  # no process has the table: refused here, as gone
        except Exception:
            log.exception("relaying press %s failed; answered here", interaction_id)
            self._dispatch(data)
        finally:
            self._waiting.pop(interaction_id, None)

    def _notice(self, data: Any, table_id: str) -> str:
        relayed = dict(data)
        if isinstance(data.get("message"), dict):
            message = {**data["message"], **_EMPTIED_MESSAGE_KEYS}
            message.pop("referenced_message", None)
            relayed["message"] = message
        notice = {"kind": "press", "from": self.me, "table": table_id, "data": relayed}
        return json.dumps(notice, separators=(",", ":"))

    def on_notice(self, text: str) -> None:
        """A notice of any process: a press this process can take, or the
        acknowledgement of one this process relayed."""
        try:
            notice = json.loads(text)
            kind, sender = notice["kind"], notice["from"]
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed relay notice")
            return
        if kind == "taken":
            waiting = self._waiting.get(str(notice.get("id")))
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return
        if kind != "press" or sender == self.me or self._dispatch is None:
            return
        table_id, data = notice.get("table"), notice.get("data")
        if (
            not isinstance(table_id, str)
            or not isinstance(data, dict)
            or not self.is_live(table_id)
        ):
            return
        ack = json.dumps({"kind": "taken", "from": self.me, "id": str(data.get("id"))})
        task = asyncio.get_running_loop().create_task(self.notices.publish(CHANNEL, ack))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._dispatch(data)

    async def close(self) -> None:
        """Finish the relays under way."""
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
