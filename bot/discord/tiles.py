"""Each player's tiles on Discord: one notifying DM per own turn, or an ephemeral message.

:class:`TilesDesk` is the tiles half of :class:`bot.discord.port.DiscordPort`. As on
Telegram, a player is notified once per own turn: a new DM naming the server and the
table, with one button per legal move (the previous DM's buttons are taken off).
Everything else is an edit of the player's last tiles DM: a new hand's tiles, a turn
that ran out, the first tiles after sitting down (the "you sit at table N" DM becomes
them, :meth:`TilesDesk.seated`), and after a restart the DM already there (issue 27:
129-132 DMs a match were about 1 + one per own turn). The first DM of a table when
there is no message to edit goes silently (no notification). A member whose DMs are closed (Discord error 50007)
gets their tiles ephemerally instead: the last ephemeral tiles message they opened is
edited while its interaction token lives. When there is none (never opened, or its token
expired: 15 minutes, then "Unknown Webhook"), their turn is a short mention in the
table's channel with a "my tiles" button, deleted once the turn is over. Work is queued
per player and coalesced.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core import ChatRef, PlayerRef, YourTiles
from bot.discord.buttons import custom_ids, moves_view, tiles_view
from bot.discord.messages import PLATFORM, place_name, tiles_content, turn_ping
from bot.pacing import mark_urgent
from bot.present.facts import hand_facts
from bot.present.live import TableLinks

__all__ = ["DM_CLOSED", "HAND_FILE", "TilesDesk", "hand_file", "with_view"]

log = logging.getLogger(__name__)

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user"."""

EPHEMERAL_TOKEN_SECONDS = 14 * 60
"""An interaction token lives 15 minutes; stop editing through it a little before."""

HAND_FILE = "fichas.png"
"""The tiles picture's name starts so; :func:`hand_file` adds the table, hand and tiles."""


def hand_file(event: YourTiles) -> str:
    """The tiles picture's file name: ``fichas-<table>-<hand>-<tiles>.png`` (tiles as
    pips, e.g. ``66-52``), so a restart can tell a DM that already shows these tiles."""
    tiles = "-".join(f"{t.high}{t.low}" for t in event.view.tiles) or "0"
    return f"fichas-{event.table_id}-{event.hand_number}-{tiles}.png"


TILES_LOOKUP = 10
"""How many recent DMs to search for a resumed table's turn message."""


def with_view(view: discord.ui.View | None) -> dict[str, Any]:
    """``view=`` for a send, only when there is one."""
    return {} if view is None else {"view": view}


@dataclass
class _Tiles:
    player: PlayerRef
    table_id: str
    pending: YourTiles | None = None
    message: discord.Message | None = None
    has_buttons: bool = False
    shown: tuple[int, int, bool] | None = None  # (hand, move number, my turn) last shown
    task: asyncio.Task[None] | None = None
    ping: discord.Message | None = None  # "your turn" in the channel (DMs closed)
    resumed: bool = False  # the table came back after a restart: its DMs may be out there


@dataclass
class _Ephemeral:
    interaction: discord.Interaction[Any]
    since: float


class TilesDesk:
    """The tiles of every seated member (see the module doc).

    Args:
        client: the running bot (DMs, guild names).
        render_hand: the picture of a hand (``render.hand_png``).
        channel_of: where a table's board is (for the turn mention of a member whose
            DMs are closed); None: no such mention.
        unusable: told when that channel refuses a mention because the bot can no
            longer use it; True when that is what the error says (nothing to log).
        links: the web table, when it runs: each tiles message gets the player's
            personal link (private: a DM, or a message only they see).
        notify: whether a player wants a notifying DM on each own turn (their setting,
            asked on each own turn); False: their turns edit their tiles DM in place,
            silently. Default: everyone does.
    """

    def __init__(
        self,
        client: discord.Client,
        render_hand: Callable[..., bytes],
        channel_of: Callable[[ChatRef], discord.abc.Messageable | None] | None = None,
        unusable: Callable[[ChatRef, discord.HTTPException], bool] | None = None,
        links: TableLinks | None = None,
        notify: Callable[[PlayerRef], Awaitable[bool]] | None = None,
    ) -> None:
        self.client = client
        self.links = links
        self._notify = notify
        self._render_hand = render_hand
        self._channel_of = channel_of
        self._unusable = unusable
        self.tiles: dict[tuple[str, str], _Tiles] = {}  # (table, user id)
        self.dms_closed: set[str] = set()  # user ids
        self.ephemeral: dict[tuple[str, str], _Ephemeral] = {}
        self._dm_channels: dict[str, int] = {}  # user id -> their DM channel's id

    def seated(self, table_id: str, user_id: str, message: discord.Message) -> None:
        """The "you sit at table N" DM just sent to ``user_id``: their first tiles of
        that table are shown by editing it (no second DM before their first turn)."""
        slot = self.tiles.get((table_id, user_id))
        if slot is None:
            player = PlayerRef(PLATFORM, user_id, "")
            slot = self.tiles[(table_id, user_id)] = _Tiles(player, table_id)
        if slot.message is None:
            slot.message, slot.has_buttons = message, False

    def deliver(self, event: YourTiles, *, resumed: bool = False) -> None:
        """Queue ``event`` for its player (the latest state wins). ``resumed``: the table
        was not seen by this process before (restored after a restart), so the player's
        turn DM may already be there (:meth:`_adopt_turn_dm`)."""
        slot = self.tiles.get((event.table_id, event.to.user_id))
        if slot is None:
            slot = self.tiles[(event.table_id, event.to.user_id)] = _Tiles(
                event.to, event.table_id, resumed=resumed
            )
        slot.player = event.to
        slot.pending = event
        if slot.task is None or slot.task.done():
            slot.task = asyncio.create_task(self._tiles_worker(slot))

    async def table_closed(self, table_id: str) -> None:
        """Take the buttons off the table's tiles DMs and forget its players."""
        for key in [k for k in self.tiles if k[0] == table_id]:
            slot = self.tiles.pop(key)
            slot.pending = None
            if slot.task is not None and not slot.task.done():
                # a DM in flight lands first, so its buttons are taken off below and
                # nothing of the table arrives after its closing
                await asyncio.wait({slot.task})
            await self._unping(slot)
            if slot.message is not None and slot.has_buttons:
                with contextlib.suppress(discord.HTTPException):
                    await slot.message.edit(view=None)
        for key in [k for k in self.ephemeral if k[0] == table_id]:
            del self.ephemeral[key]

    def tasks(self) -> list[asyncio.Task[None]]:
        """The workers still running."""
        return [t.task for t in self.tiles.values() if t.task and not t.task.done()]

    def remember_ephemeral(
        self, table_id: str, user_id: str, interaction: discord.Interaction[Any]
    ) -> None:
        """Keep ``interaction`` (whose original response shows the member's tiles
        ephemerally) so the tiles can be refreshed there while its token lives."""
        self.ephemeral[(table_id, user_id)] = _Ephemeral(interaction, time.monotonic())

    async def _tiles_worker(self, slot: _Tiles) -> None:
        mark_urgent()  # a player's tiles go before the boards waiting with them
        while slot.pending is not None:
            event, slot.pending = slot.pending, None
            try:
                await self._show_tiles(slot, event)
            except discord.HTTPException:
                log.exception("could not show the tiles of %s", slot.player.user_id)
            except Exception:
                log.exception("tiles of %s failed", slot.player.user_id)

    async def _show_tiles(self, slot: _Tiles, event: YourTiles) -> None:
        user_id = event.to.user_id
        shown = (event.hand_number, event.move_number, event.is_your_turn)
        new_hand = slot.shown is None or slot.shown[0] != event.hand_number
        if shown == slot.shown:
            return  # the same state again
        refresh = event.is_your_turn or new_hand or slot.has_buttons
        if user_id in self.dms_closed:
            await self._show_tiles_closed_dms(slot, event, refresh=refresh)
            return
        if not (refresh or slot.message is None):
            # Another seat moved: the tiles are unchanged, the last DM stays as it is
            # (its buttons went with the press that played from it).
            slot.shown = shown
            return
        if slot.resumed and slot.message is None:
            slot.resumed = False
            adopted = (
                await self._adopt_turn_dm(slot, event)
                if event.is_your_turn
                else await self._adopt_tiles_dm(slot, event)
            )
            if adopted:
                slot.shown = shown
                return
            if slot.message is None and event.is_your_turn:
                # no turn DM out there: the last tiles DM is the one edited (a player
                # without notifications) or whose place the new turn DM takes
                await self._adopt_tiles_dm(slot, event)
        content, file, view = await self.tiles_message(event)
        notify = event.is_your_turn and bool(event.moves) and await self.notify(event.to)
        try:
            if notify or slot.message is None:
                # One notifying DM per own turn; the first of a table without a message
                # to edit goes silently.
                user = await self.dm_user(user_id)
                message = await user.send(content, file=file, silent=not notify, **with_view(view))
                old, slot.message = slot.message, message
                if old is not None and slot.has_buttons:
                    with contextlib.suppress(discord.HTTPException):
                        await old.edit(view=None)
            else:
                # The same DM, edited: a new hand's tiles, a turn that ran out, a turn
                # of a player who asked for no notifications.
                try:
                    await slot.message.edit(content=content, attachments=[file], view=view)
                except discord.NotFound:  # the player deleted it: a new one, silently
                    user = await self.dm_user(user_id)
                    slot.message = await user.send(
                        content, file=file, silent=True, **with_view(view)
                    )
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED:
                self.dms_closed.add(user_id)
                await self._show_tiles_closed_dms(slot, event, refresh=True)
                return
            raise
        slot.has_buttons = view is not None
        slot.shown = shown

    async def _adopt_turn_dm(self, slot: _Tiles, event: YourTiles) -> bool:
        """After a restart: find the player's last DM with buttons of this table. When it
        holds this very turn's buttons it is kept (its text edited if the deadline moved
        with the bot's downtime) and True is returned: no second "your turn". Otherwise
        it becomes the old message whose buttons the new DM takes off."""
        found = await self._find_tiles_dm(event.to.user_id, event.table_id)
        if found is None:
            return False
        slot.message, slot.has_buttons = found, True
        if custom_ids(found) != {choice.payload for choice in event.moves}:
            return False
        content = tiles_content(event, place_name(self.client, event.chat))
        if found.content != content:
            await found.edit(content=content)
        return True

    async def _adopt_tiles_dm(self, slot: _Tiles, event: YourTiles) -> bool:
        """After a restart, off turn: the player's last tiles DM of this table (its
        picture is named after table, hand and tiles; a turn DM also by its buttons)
        becomes the message edited from now on (no second "your tiles"). True when it
        already shows these very tiles without buttons: nothing to edit."""
        me, name = self.client.user, hand_file(event)
        prefix, marker = f"fichas-{event.table_id}-", f":{event.table_id}:"
        try:
            channel = await self.dm_user(event.to.user_id)
            async for message in channel.history(limit=TILES_LOOKUP):
                if me is None or message.author.id != me.id:
                    continue
                files = [a.filename for a in message.attachments]
                ids = custom_ids(message)
                if any(f.startswith(prefix) for f in files) or any(marker in i for i in ids):
                    slot.message, slot.has_buttons = message, bool(ids)
                    return name in files and not slot.has_buttons
        except discord.HTTPException:
            log.info("cannot read the DMs with %s", event.to.user_id)
        return False

    async def _find_tiles_dm(self, user_id: str, table_id: str) -> discord.Message | None:
        me = self.client.user
        marker = f":{table_id}:"
        try:
            channel = await self.dm_user(user_id)
            async for message in channel.history(limit=TILES_LOOKUP):
                if me is None or message.author.id != me.id:
                    continue
                if any(marker in custom_id for custom_id in custom_ids(message)):
                    return message
        except discord.HTTPException:
            log.info("cannot read the DMs with %s", user_id)
        return None

    async def _show_tiles_closed_dms(
        self, slot: _Tiles, event: YourTiles, *, refresh: bool
    ) -> None:
        """The tiles of a member whose DMs are closed: their live ephemeral message is
        refreshed, and on each of their turns a mention in the channel tells them (a
        refreshed ephemeral message notifies nobody, issue 27); the mention goes once the
        turn is over."""
        shown = refresh and await self._show_tiles_ephemeral(event)
        if shown:
            slot.has_buttons = bool(event.moves)
        if not event.is_your_turn:
            await self._unping(slot)
        else:
            await self._ping(slot, event)
        slot.shown = (event.hand_number, event.move_number, event.is_your_turn)

    async def _ping(self, slot: _Tiles, event: YourTiles) -> None:
        """Tell a member whose DMs are closed, in the table's channel, that it is their
        turn, with a "my tiles" button (their last mention goes)."""
        channel = self._channel_of(event.chat) if self._channel_of is not None else None
        if channel is None:
            return
        await self._unping(slot)
        member = discord.Object(int(event.to.user_id))
        try:
            slot.ping = await channel.send(
                turn_ping(event, f"<@{event.to.user_id}>"),
                view=tiles_view(event.table_id, event.to.language),
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )
        except discord.HTTPException as exc:
            if self._unusable is None or not self._unusable(event.chat, exc):
                raise

    async def _unping(self, slot: _Tiles) -> None:
        ping, slot.ping = slot.ping, None
        if ping is not None:
            with contextlib.suppress(discord.HTTPException):
                await ping.delete()

    async def notify(self, player: PlayerRef) -> bool:
        """Whether ``player`` wants a notifying DM on their turn (True when their setting
        cannot be read: a turn is never missed for that)."""
        if self._notify is None:
            return True
        try:
            return await self._notify(player)
        except Exception:
            log.warning("could not read the notifications of %s", player.user_id, exc_info=True)
            return True

    def buttons_removed(self, table_id: str, user_id: str, message_id: int) -> None:
        """A move press was answered by removing the buttons of its tiles message."""
        slot = self.tiles.get((table_id, user_id))
        if slot is not None and (
            user_id in self.dms_closed or slot.message is None or slot.message.id == message_id
        ):
            slot.has_buttons = False

    async def dm_user(self, user_id: str) -> discord.abc.Messageable:
        """The DM channel with a user: one REST call the first time, then its id is kept
        here (discord.py keeps only the 128 newest DM channels, so past 128 players nearly
        every DM would open its channel again: docs/capacity.md)."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel = await self.client.create_dm(discord.Object(int(user_id)))
            channel_id = self._dm_channels[user_id] = channel.id
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _show_tiles_ephemeral(self, event: YourTiles) -> bool:
        """Refresh the member's ephemeral tiles message; False when there is none alive
        (they press "my tiles" on the board when they want their tiles)."""
        kept = self.ephemeral.get((event.table_id, event.to.user_id))
        if kept is None or time.monotonic() - kept.since > EPHEMERAL_TOKEN_SECONDS:
            return False
        content, file, view = await self.tiles_message(event)
        try:
            await kept.interaction.edit_original_response(
                content=content, attachments=[file], view=view
            )
        except discord.HTTPException:
            self.ephemeral.pop((event.table_id, event.to.user_id), None)
            return False
        return True

    async def tiles_message(
        self, event: YourTiles
    ) -> tuple[str, discord.File, discord.ui.View | None]:
        """A player's tiles as a message: text naming server and table, the picture and
        one button per legal move."""
        content = tiles_content(event, place_name(self.client, event.chat))
        png = await asyncio.to_thread(self._render_hand, event.view, hand_facts(event))
        link = self.links.seat_url(event.to, event.table_id) if self.links else None
        view = moves_view(event, open_url=link)
        return content, discord.File(io.BytesIO(png), hand_file(event)), view
