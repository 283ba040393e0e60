"""Manager events to Discord: the board message of each table, tiles by DM, results.

:class:`DiscordPort` implements :class:`bot.core.Port`. The manager calls
:meth:`DiscordPort.deliver` one event at a time per table; the slow parts (drawing a PNG,
a REST call) are queued per table (board) and per player (tiles) and coalesced, so a
burst of robot moves becomes one edit with the latest state and the table never waits for
Discord. Pictures are drawn in a worker thread so the event loop keeps answering
interactions within Discord's 3 seconds.

- **Board**: one channel message per table (picture attachment: the waiting table
  until the match starts, then the board; a short embed: whose
  turn, time left as a live Discord timestamp, score; buttons), edited in place. Where
  it is is kept as a note with the table (``TableManager.set_front_end_note``), so a
  table resumed after a restart keeps editing it (a snapshot from before notes finds
  it in the channel's recent history, or through a press on it).
- **Tiles**: by DM, or ephemerally when DMs are closed: :class:`bot.discord.tiles.TilesDesk`
  (``port.desk``).
- **Results**: hand and match results as short channel messages with their pictures.
- **Seasons**: a server's season ended (``SeasonEnded``): its final standings picture and
  podium, once, where this process last showed a board, else the server's system
  channel, else its first text channel the bot may post pictures in.
- **A channel the bot can no longer use** (deleted: 10003; no access: 50001, e.g. after
  the bot was removed from the server; a right taken away: 50013) closes its tables once
  through the manager (``chat_unreachable``: stakes refunded, nobody abandoned); the
  players are told by DM. Removal from a server (GUILD_DELETE) does the same for every
  table there. The manager logs the one line; nothing is retried or drawn there again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core import (
    ChatRef,
    CloseReason,
    Event,
    HandEnded,
    Manager,
    MatchEnded,
    Notifications,
    PlayerRef,
    Ranking,
    ReportFiled,
    SeasonEnded,
    Standings,
    TableChanged,
    TableClosed,
    ended_board,
)
from bot.discord.analysis import analysis_view
from bot.discord.buttons import (
    board_view,
    friend_view,
    join_view,
    kept_seat_view,
    report_view,
    tournament_link_view,
)
from bot.discord.i18n import help_command, texts
from bot.discord.messages import (
    PLATFORM,
    board_embed,
    place_name,
    refusal_content,
)
from bot.discord.tiles import DM_CLOSED, TilesDesk, with_view
from bot.present.facts import board_facts
from bot.present.live import TableLinks
from bot.present.screens import (
    Action,
    BoardScreen,
    ClosedScreen,
    EmoteScreen,
    FriendScreen,
    Notice,
    Reader,
    RefusalScreen,
    ReportScreen,
    ResultScreen,
    Screen,
    SeasonScreen,
    TilesScreen,
    TournamentScreen,
    chat_of,
    names_place,
    screens,
)
from bot.present.standings import standings_facts
from render import TableFacts, tournament_png

__all__ = ["BOARD_FILE", "DM_CLOSED", "DiscordPort"]

log = logging.getLogger(__name__)

UNREACHABLE_CODES = frozenset({10003, 50001, 50013})
"""Discord's codes for a channel the bot can no longer use: Unknown Channel (deleted),
Missing Access (no longer in the server, or cannot view it), Missing Permissions (Send
Messages or Attach Files taken away)."""

UNKNOWN_MESSAGE = 10008
"""The board message was deleted (its channel is fine: a new board is posted)."""

HISTORY_LOOKUP = 30
"""How many recent channel messages to search for a resumed table's board."""

BOARD_FILE = "mesa.png"
SEASON_FILE = "temporada.png"
TOURNAMENT_FILE = "torneo.png"
DISCORD_TEXT_LIMIT = 2000
"""The longest message content Discord takes."""


@dataclass
class _Board:
    table_id: str
    chat: ChatRef
    message_id: int | None = None
    latest: TableChanged | None = None  # the last state seen (names for results)
    final: MatchEnded | None = None  # the match's end, for the closed board
    pending: TableChanged | None = None  # not drawn yet
    closed: TableClosed | None = None
    looked_up: bool = False
    noted: int | None = None  # the message id kept in the manager's note
    place: str = ""  # "Server · #channel" when last drawn (said when it is gone)
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


Render = Callable[..., bytes]


def _frozen_clock_off(facts: TableFacts) -> TableFacts:
    """A board picture's facts without the seconds left: the embed counts the turn down
    live (``<t:…:R>``), and a number drawn once would stand still beside it."""
    return dataclasses.replace(facts, seconds_left=None)


BOARD_NOTE = "discord.board"
"""The table manager's front-end note holding the board message (``channel_id``,
``message_id``), so a table resumed after a restart edits the same message."""


class DiscordPort:
    """The Discord front end's :class:`bot.core.Port`.

    Args:
        client: the running bot (REST access, guild names).
        render_board, render_hand, render_hand_result, render_match_result: the
            ``render`` functions (injected so tests and benchmarks may time them).
        render_waiting: the picture of a table before its match starts (default
            ``render.waiting_png``).
        render_standings: the standings picture, for a season's end (default
            ``render.standings_png``).
        notes: the table manager, to keep where each board message is as a front-end
            note (:data:`BOARD_NOTE`) that survives a restart; without it a resumed
            table looks its board up in the channel's recent history.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        render_board: Render,
        render_hand: Render,
        render_hand_result: Render,
        render_match_result: Render,
        render_waiting: Render | None = None,
        render_standings: Render | None = None,
        notes: Manager | None = None,
        links: TableLinks | None = None,
    ) -> None:
        if render_waiting is None:
            from render import waiting_png

            render_waiting = waiting_png
        if render_standings is None:
            from render import standings_png

            render_standings = standings_png
        self._render_standings = render_standings
        # server id -> the channel (or thread) where this process last showed a board:
        # where a season's final standings go
        self.board_channels: dict[str, int] = {}
        self.client = client
        self._render_waiting = render_waiting
        self._notes = notes
        self._render_board = render_board
        self._render_hand = render_hand
        self._render_hand_result = render_hand_result
        self._render_match_result = render_match_result
        self.boards: dict[str, _Board] = {}
        self.links = links
        self.desk = TilesDesk(
            client, render_hand, self._channel, self.unusable, links, self._turn_dms
        )
        self.dms_closed = self.desk.dms_closed  # user ids (the desk's set)
        # (chat key, tournament id, sheet) -> the message kept up to date in place
        self.said: dict[tuple[str, str, str], int] = {}
        self.saying: dict[tuple[str, str, str], asyncio.Lock] = {}
        self._closing = False
        # (server, channel or None for all) being closed now, and the tasks doing it
        self._unreachable: set[tuple[str, str | None]] = set()
        self._closers: set[asyncio.Task[None]] = set()

    async def _turn_dms(self, player: PlayerRef) -> bool:
        """Whether ``player`` wants a notifying DM on each own turn (their setting)."""
        if self._notes is None:
            return True
        return await self._notes.turn_notifications(player) is not Notifications.NONE

    # ------------------------------------------------------------------ port
    async def deliver(self, event: Event) -> None:
        """Show ``event`` on Discord (see the module doc); never raises for a send."""
        if self._closing:
            return
        try:
            await self._deliver(event)
        except discord.HTTPException as exc:
            chat = getattr(event, "chat", None)
            if isinstance(chat, ChatRef) and self.unusable(chat, exc):
                return
            log.exception("Discord refused an update of table %s", getattr(event, "table_id", ""))

    # ------------------------------------------------------------------ unreachable
    def unusable(self, chat: ChatRef, error: discord.HTTPException) -> bool:
        """Whether ``error`` says the bot can no longer use ``chat``'s channel; if so its
        tables are being closed (:meth:`chat_unreachable`) and the error needs no log."""
        if error.code not in UNREACHABLE_CODES:
            return False
        self.chat_unreachable(chat.chat_id, chat.thread_id or chat.channel_id)
        return True

    def chat_unreachable(self, guild_id: str, channel_id: str | None = None) -> None:
        """Close the tables of a server (``channel_id`` None: the bot left it) or of one
        of its channels or threads, once, through the manager (stakes refunded; the
        players are told when their ``TableClosed`` arrives)."""
        if self._notes is None:
            return
        key = (guild_id, channel_id)
        if key in self._unreachable or (guild_id, None) in self._unreachable:
            return  # already being closed: a request still in flight failed too
        self._unreachable.add(key)
        manager = self._notes

        async def close() -> None:
            try:
                await manager.chat_unreachable(PLATFORM, guild_id, channel_id)
            finally:
                self._unreachable.discard(key)

        task = asyncio.create_task(close())
        self._closers.add(task)
        task.add_done_callback(self._closers.discard)

    async def _stop_board(self, event: TableClosed) -> None:
        """A table whose channel cannot be used closed: its board is drawn no more (its
        players are told by DM, :func:`bot.present.screens.screens`)."""
        board = self.boards.pop(event.table_id, None)
        if board is not None and board.task is not None and not board.task.done():
            board.task.cancel()
        await self.desk.table_closed(event.table_id)

    async def _deliver(self, event: Event) -> None:
        chat = chat_of(event)
        board = self.boards.get(event.table_id or "")
        latest = board.latest if board is not None else None
        language = chat.language if chat is not None else ""
        place = ""
        if chat is not None and names_place(event):
            place = board.place if board is not None and board.place else ""
            place = place or place_name(self.client, chat)
        reader = Reader(
            language,
            server=True,
            back=texts(language)("the Come back button"),  # on the board
            label=latest.label if latest is not None else event.table_id or "",
            seats=latest.seats if latest is not None else None,  # None: never drawn here
            place=place,
            private=latest is not None and latest.private,
        )
        for screen in screens(event, reader):
            await self._show(screen)

    async def _show(self, screen: Screen) -> None:
        """One screen as Discord widgets: the board message (edited in place), tiles by
        DM, a channel message with its picture and buttons, a DM."""
        match screen:
            case BoardScreen(event=event, shown=False):  # played privately: kept, not drawn
                self._board(event.table_id, event.chat).latest = event
            case BoardScreen(event=event):
                board = self._board(event.table_id, event.chat)
                board.latest = board.pending = event
                self._kick_board(board)
            case TilesScreen(event=tiles):
                # A table this process has not drawn yet was restored after a restart (a
                # new one shows its board long before the first tiles).
                seen = self.boards.get(tiles.table_id)
                self.desk.deliver(tiles, resumed=seen is None or seen.latest is None)
            case ResultScreen(event=HandEnded() as hand, text=text):
                await self._hand_ended(hand, text)
            case ResultScreen(event=MatchEnded() as ended, text=text):
                await self._match_ended(ended, text)
            case EmoteScreen(event=emote, text=text):
                await self._say(emote.chat, text)
            case Notice(to=None):
                await self._say(screen.chat, screen.text)
            case Notice(to=PlayerRef() as to) if to.platform == PLATFORM:
                sit = Action.SIT in screen.actions
                view = kept_seat_view(screen.table_id, to.language) if sit else None
                await self._tell(to, screen.table_id, screen.text, view)
            case ClosedScreen(event=closed) if closed.reason is CloseReason.UNREACHABLE:
                await self._stop_board(closed)  # nothing more is drawn where it cannot post
            case ClosedScreen(event=closed):
                ended_board = self.boards.get(closed.table_id)
                if ended_board is not None:
                    ended_board.closed = closed
                    self._kick_board(ended_board)
                await self.desk.table_closed(closed.table_id)
            case SeasonScreen(event=season, text=text):
                await self._season_ended(season, text)
            case TournamentScreen(event=update, text=text, actions=actions, picture=facts):
                extra: dict[str, Any] = {}
                if Action.JOIN in actions:
                    extra["view"] = join_view(update.chat.language)
                if facts is not None:
                    png = await self._draw(tournament_png, facts)
                    extra["file"] = discord.File(io.BytesIO(png), TOURNAMENT_FILE)
                    if self.links is not None and "view" not in extra:  # its page's link
                        url = self.links.tournament_url(update.view.id)
                        extra["view"] = tournament_link_view(url, update.chat.language)
                if screen.edit is not None:  # one message kept up to date
                    key = (update.chat.key, update.view.id, screen.edit.value)
                    picture = png if extra.pop("file", None) is not None else None
                    content = text[:DISCORD_TEXT_LIMIT]
                    await self._say_again(key, update.chat, content, picture, extra)
                else:
                    await self._say(update.chat, text[:DISCORD_TEXT_LIMIT], **extra)
            case FriendScreen(event=friend, text=text, actions=actions) if (
                friend.to.platform == PLATFORM
            ):
                await self._dm_friend(friend.to, text, friend_view(friend, actions))
            case ReportScreen(event=filed, text=text):
                await self._tell_admins(filed, text)
            case RefusalScreen(event=refusal) if refusal.to.platform == PLATFORM:
                content = refusal_content(refusal, refusal.to.language)
                await self._tell(refusal.to, refusal.table_id, content)

    async def _tell_admins(self, filed: ReportFiled, text: str) -> None:
        """A report, in the channel the server's admins chose, else by DM to its owner and
        every member the bot sees with Manage Server (issue 33)."""
        chat = filed.chat
        match_id = filed.report.match_id
        record_url = self.links.record_url(match_id) if self.links and match_id else None
        view = report_view(filed.report.id, chat.chat_id, chat.language, record_url)
        if filed.channel_id is not None:
            where = dataclasses.replace(chat, channel_id=filed.channel_id, thread_id=None)
            await self._say(where, text[:DISCORD_TEXT_LIMIT], view=view)
            return
        guild = self.client.get_guild(int(chat.chat_id)) if chat.chat_id.isdigit() else None
        if guild is None:
            return
        admins = {guild.owner_id} | {
            m.id for m in guild.members if m.guild_permissions.manage_guild and not m.bot
        }
        for user_id in sorted(a for a in admins if a is not None):
            if str(user_id) in self.dms_closed:
                continue
            try:
                user = await self.desk.dm_user(str(user_id))
                await user.send(text[:DISCORD_TEXT_LIMIT], view=view)
            except discord.Forbidden:
                self.dms_closed.add(str(user_id))

    async def _dm_friend(
        self, player: PlayerRef, content: str, view: discord.ui.View | None
    ) -> None:
        """Friends' news by DM only (a request or an invitation is nobody else's); a
        member whose DMs are closed is remembered, so the next one is refused at once
        (:mod:`bot.discord.friends`)."""
        try:
            user = await self.desk.dm_user(player.user_id)
            if view is None:
                await user.send(content)
            else:
                await user.send(content, view=view)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            self.dms_closed.add(player.user_id)
            log.info("friends DM to %s refused: DMs closed", player.user_id)

    async def _tell(
        self,
        player: PlayerRef,
        table_id: str | None,
        content: str,
        view: discord.ui.View | None = None,
    ) -> None:
        """A message for one player outside any interaction (with ``view``'s buttons): by
        DM, else in the table's channel with their name."""
        if player.user_id not in self.dms_closed:
            try:
                user = await self.desk.dm_user(player.user_id)
                if view is not None:
                    await user.send(content, view=view)
                else:
                    await user.send(content)
                return
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                self.dms_closed.add(player.user_id)
        board = self.boards.get(table_id or "")
        if board is not None:
            extra = {"view": view} if view is not None else {}
            await self._say(board.chat, f"{player.display_name}: {content}", **extra)

    # ------------------------------------------------------------------ board
    def _board(self, table_id: str, chat: ChatRef) -> _Board:
        board = self.boards.get(table_id)
        if board is None:
            board = self.boards[table_id] = _Board(table_id, chat)
        return board

    def label_of(self, table_id: str) -> str:
        """The table's short label for people (its id until the board was seen)."""
        board = self.boards.get(table_id)
        return board.latest.label if board is not None and board.latest is not None else table_id

    def adopt_board(self, table_id: str, chat: ChatRef, message_id: int) -> None:
        """Remember ``message_id`` as the board of ``table_id`` (a press on an old board
        after a restart tells us where it is)."""
        board = self._board(table_id, chat)
        if board.message_id is None:
            board.message_id = message_id
            board.looked_up = True

    def _kick_board(self, board: _Board) -> None:
        board.wake.set()
        if board.task is None or board.task.done():
            board.task = asyncio.create_task(self._board_worker(board))

    async def _board_worker(self, board: _Board) -> None:
        while board.wake.is_set():
            board.wake.clear()
            try:
                if board.pending is not None:
                    event, board.pending = board.pending, None
                    await self._draw_board(board, event)
                if board.closed is not None and board.pending is None:
                    await self._close_board(board)
                    return
            except discord.HTTPException as exc:
                if not self.unusable(board.chat, exc):
                    log.exception("could not update the board of table %s", board.table_id)
            except Exception:
                log.exception("board of table %s failed", board.table_id)

    def _channel(self, chat: ChatRef) -> discord.abc.Messageable | None:
        if chat.channel_id is None:
            return None
        channel_id = int(chat.thread_id or chat.channel_id)
        return self.client.get_partial_messageable(
            channel_id, guild_id=int(chat.chat_id) if chat.chat_id.isdigit() else None
        )

    async def _draw_board(self, board: _Board, event: TableChanged) -> None:
        channel = self._channel(event.chat)
        if channel is None:
            return
        language = event.chat.language
        facts = board_facts(event, language)
        if event.view is not None:
            png = await self._draw(self._render_board, event.view, _frozen_clock_off(facts))
        else:  # seats still filling, or the countdown: the waiting table
            starting = event.phase == "countdown"
            png = await self._draw(
                functools.partial(self._render_waiting, starting=starting), event.rules, facts
            )
        board.place = place_name(self.client, event.chat)
        where = event.chat.thread_id or event.chat.channel_id
        if where is not None and where.isdigit():
            self.board_channels[event.chat.chat_id] = int(where)
        embed = board_embed(event, language)
        watch = self.links.watch_url(event.table_id) if self.links else None
        activity = self.links.in_discord if self.links else False
        view = board_view(event, language, watch_url=watch, activity=activity)
        files = [discord.File(io.BytesIO(png), BOARD_FILE)]
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        if board.message_id is None and not board.looked_up:
            board.looked_up = True
            board.message_id = self._noted_board(board, channel)
            if board.message_id is None:  # a snapshot from before notes: the history
                board.message_id = await self._find_board(channel, event.table_id)
        if board.message_id is not None:
            message = channel.get_partial_message(board.message_id)  # type: ignore[attr-defined]
            try:
                await message.edit(embed=embed, attachments=files, view=view)
                await self._note_board(board, channel)
                return
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:
                    raise  # the channel itself is gone: no new board there
                board.message_id = None
        sent = await channel.send(embed=embed, files=files, **with_view(view))
        board.message_id = sent.id
        await self._note_board(board, channel)

    def _noted_board(self, board: _Board, channel: discord.abc.Messageable) -> int | None:
        """The board message id the manager's note keeps for this table, if any."""
        if self._notes is None:
            return None
        note = self._notes.front_end_note(board.table_id, BOARD_NOTE)
        if not isinstance(note, dict) or note.get("channel_id") != getattr(channel, "id", None):
            return None
        message_id = note.get("message_id")
        if not isinstance(message_id, int):
            return None
        board.noted = message_id
        return message_id

    async def _note_board(self, board: _Board, channel: discord.abc.Messageable) -> None:
        """Keep where the board message is with the table (it survives a restart)."""
        if self._notes is None or board.message_id is None or board.message_id == board.noted:
            return
        note = {"channel_id": getattr(channel, "id", None), "message_id": board.message_id}
        try:
            await self._notes.set_front_end_note(board.table_id, BOARD_NOTE, note)
        except Exception:  # a note not kept only costs a history lookup after a restart
            log.warning("could not keep the board note of table %s", board.table_id, exc_info=True)
            return
        board.noted = board.message_id

    async def _find_board(self, channel: discord.abc.Messageable, table_id: str) -> int | None:
        me = self.client.user
        marker = f":{table_id}:"
        try:
            async for message in channel.history(limit=HISTORY_LOOKUP):
                if me is not None and message.author.id != me.id:
                    continue
                for row in message.components:
                    for item in getattr(row, "children", []):
                        if marker in (getattr(item, "custom_id", None) or ""):
                            return message.id
        except discord.HTTPException:
            log.info("cannot read the history of channel %s", getattr(channel, "id", "?"))
        return None

    async def _close_board(self, board: _Board) -> None:
        try:
            await self._draw_closed_board(board)
        finally:
            self.boards.pop(board.table_id, None)

    async def _draw_closed_board(self, board: _Board) -> None:
        closed = board.closed
        assert closed is not None
        if board.message_id is None or board.latest is None:
            return
        channel = self._channel(board.chat)
        if channel is None:
            return
        latest, final = board.latest, board.final
        ended = ended_board(latest, final)
        language = board.chat.language
        embed = board_embed(ended, language)
        if closed.reason != "finished":
            embed.description = texts(language)("This table has closed.")
        # A finished match shows its final position (the winning tile is on no earlier
        # picture: no TableChanged follows the last move); a table closed mid-match keeps
        # its last picture, one closed before its match started drops its waiting
        # picture; a finished match offers a rematch.
        extra: dict[str, Any] = {}
        if final is not None:
            png = await self._draw(
                self._render_board, final.view, _frozen_clock_off(board_facts(ended, language))
            )
            extra["attachments"] = [discord.File(io.BytesIO(png), BOARD_FILE)]
            embed.set_image(url=f"attachment://{BOARD_FILE}")
        elif latest.view is not None:
            embed.set_image(url=f"attachment://{BOARD_FILE}")
        else:
            extra["attachments"] = []
        view = board_view(ended, language) if closed.reason == "finished" else None
        message = channel.get_partial_message(board.message_id)  # type: ignore[attr-defined]
        with contextlib.suppress(discord.NotFound):
            await message.edit(embed=embed, view=view, **extra)

    async def _draw(self, render: Render, *args: Any) -> bytes:
        return await asyncio.to_thread(render, *args)

    async def _say(self, chat: ChatRef, content: str, **kwargs: Any) -> discord.Message | None:
        channel = self._channel(chat)
        if channel is None:
            return None
        return await channel.send(
            content, allowed_mentions=discord.AllowedMentions.none(), **kwargs
        )

    async def _say_again(
        self,
        key: tuple[str, str, str],
        chat: ChatRef,
        content: str,
        png: bytes | None,
        extra: dict[str, Any],
    ) -> None:
        """Edit the message said under ``key`` before (its picture replaced by ``png``,
        when it has one), else say it (someone deleted it: anew) and remember it; one
        at a time per key, so two changes at once never post two messages."""
        lock = self.saying.setdefault(key, asyncio.Lock())
        async with lock:
            channel = self._channel(chat)
            message_id = self.said.get(key)
            if channel is not None and message_id is not None:
                message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
                if png is not None:
                    extra = {**extra, "attachments": [self._picture(png)]}
                try:
                    await message.edit(content=content, **extra)
                    return
                except discord.NotFound:
                    extra.pop("attachments", None)
            if png is not None:
                extra = {**extra, "file": self._picture(png)}
            sent = await self._say(chat, content, **extra)
            if sent is not None:
                self.said[key] = sent.id

    @staticmethod
    def _picture(png: bytes) -> discord.File:
        return discord.File(io.BytesIO(png), TOURNAMENT_FILE)

    # ------------------------------------------------------------------ results
    async def _hand_ended(self, event: HandEnded, text: str) -> None:
        language = event.chat.language
        board = self.boards.get(event.table_id)
        if board is None or board.latest is None:
            return  # a table this process never drew (restored mid-hand): no names
        png = await self._draw(
            self._render_hand_result, event.view, board_facts(board.latest, language)
        )
        files = [discord.File(io.BytesIO(png), "mano.png")]
        view = analysis_view(event.table_id, event.hand_number, language)
        await self._say(event.chat, text, files=files, view=view)

    async def _match_ended(self, event: MatchEnded, text: str) -> None:
        language = event.chat.language
        board = self.boards.get(event.table_id)
        if board is not None:
            board.final = event
        facts = (
            board_facts(board.latest, language)
            if board is not None and board.latest is not None
            else None
        )
        files = []
        if facts is not None:
            png = await self._draw(self._render_match_result, event.view, facts, event.payouts)
            files.append(discord.File(io.BytesIO(png), "partida.png"))
        await self._say(event.chat, text, files=files)

    # ------------------------------------------------------------------ seasons
    def season_channels(self, guild_id: str) -> list[int]:
        """Where a server's season news may go, in order: the channel where this process
        last showed a board, the server's system channel, then its text channels (by
        position) where the bot may send messages and attach files."""
        found: list[int] = []
        if guild_id in self.board_channels:
            found.append(self.board_channels[guild_id])
        guild = self.client.get_guild(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            return found
        me = guild.me

        def usable(channel: discord.abc.GuildChannel) -> bool:
            allowed = channel.permissions_for(me)
            return allowed.send_messages and allowed.attach_files

        candidates: list[discord.abc.GuildChannel] = []
        if guild.system_channel is not None:
            candidates.append(guild.system_channel)
        candidates += sorted(guild.text_channels, key=lambda c: (c.position, c.id))
        for channel in candidates:
            if channel.id not in found and me is not None and usable(channel):
                found.append(channel.id)
        return found

    async def _season_ended(self, event: SeasonEnded, content: str) -> None:
        """A season's final standings: the picture and the podium, once, in the first of
        :meth:`season_channels` that takes it (a channel the bot can no longer use is
        treated as everywhere else: its tables close)."""
        chat, language = event.chat, event.chat.language
        guild = self.client.get_guild(int(chat.chat_id)) if chat.chat_id.isdigit() else None
        standings = Standings(Ranking.SEASON, chat, event.season, rows=event.rows, final=True)
        facts = standings_facts(
            standings,
            language,
            chat_title=guild.name if guild else None,
            help_command=help_command(language),
        )
        png = await self._draw(self._render_standings, facts)
        for channel_id in self.season_channels(chat.chat_id):
            where = dataclasses.replace(chat, channel_id=str(channel_id))
            channel = self._channel(where)
            assert channel is not None
            try:
                await channel.send(
                    content,
                    file=discord.File(io.BytesIO(png), SEASON_FILE),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
            except discord.HTTPException as exc:
                if not self.unusable(where, exc):
                    raise
        log.info(
            "season %s of server %s: no channel to post the final standings",
            event.season,
            chat.chat_id,
        )

    # ------------------------------------------------------------------ shutdown
    async def close(self) -> None:
        """Stop the workers (pending edits are dropped; the next run redraws)."""
        self._closing = True
        tasks = [b.task for b in self.boards.values() if b.task] + self.desk.tasks()
        tasks += list(self._closers)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every queued board edit and DM has been sent (tests, benchmarks)."""
        while True:
            tasks = [
                b.task for b in self.boards.values() if b.task and not b.task.done()
            ] + self.desk.tasks()
            tasks += [t for t in self._closers if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
