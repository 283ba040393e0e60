"""Friends, where they are, and inviting them to my table (issue 33; docs/friends.md).

:class:`FriendService` applies the friends commands: a request (the other player is told
privately, with buttons to accept or decline), its answer, removing a friend, and an
invitation: a seat of my waiting table kept for a friend for a while
(``HouseTimes.invite_seconds``, then released), with a private button that seats them. It reads where each friend is
now (``/amigos``): at a table of this process, at a slow table, or when last seen.

Friendships and requests live in storage (:class:`storage.friends.Friends`), by player id,
so a friend is the same person on every platform they linked. An invitation lives in
its seat, in the table's snapshot (its id and when it ends): a restart takes it back
(:meth:`FriendService.restore`), its button still seats the friend, and its seat is let
go when its time is up, the bot's downtime added. The core never phrases: what a player is told
travels as :class:`~bot.core.events.FriendUpdate` events and refusals.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.core.buttons import ForgedPress, FriendAction, decode_friend
from bot.core.clock import Timer
from bot.core.commands import (
    AnswerFriend,
    AskFriend,
    ChatRef,
    FriendPress,
    InviteFriend,
    PlayerRef,
    RemoveFriend,
    SitAt,
)
from bot.core.events import FriendInfo, FriendsView, FriendUpdate, Refused, Reply
from bot.core.lobby import Lobby
from bot.core.projection import table_changed
from bot.core.state import Core
from bot.core.table import Table
from bot.core.vocabulary import CloseReason, FriendNews, Phase, Presence, RefusalReason
from storage.base import RequestOutcome

__all__ = ["FriendService", "Invitation"]

log = logging.getLogger(__name__)

_INVITE_CODE_LENGTH = 6
_INVITE_ALPHABET = "0123456789abcdefghijkmnpqrstuvwxyz"
_EXPIRED_KEPT = 1_000
"""Invitations remembered after they expired, so a late press says so (the newest)."""


@dataclass(slots=True)
class Invitation:
    """A seat kept for a friend.

    Attributes:
        id: what its button names; table_id, seat: the seat kept.
        friend: who may take it (their reference on the table's platform).
        expires_at: when the seat is released (epoch seconds).
    """

    id: str
    table_id: str
    seat: int
    friend: PlayerRef
    expires_at: float
    timer: Timer | None = None


class FriendService:
    """Friends commands and reads (see the module doc).

    Args:
        core: the shared state (storage, clock, tables, outbox; ``times.invite_seconds``:
            how long an invitation keeps its seat).
        lobby: seats an invited friend who takes their seat.
    """

    def __init__(self, core: Core, lobby: Lobby) -> None:
        self.core = core
        self.lobby = lobby
        self.invitations: dict[str, Invitation] = {}
        self.expired: OrderedDict[str, tuple[str, str]] = OrderedDict()  # id -> friend's key
        self._tasks: set[asyncio.Task[None]] = set()
        core.closed_hooks.append(self._table_closed)

    # ------------------------------------------------------------------ requests

    async def ask(self, command: AskFriend) -> Reply:
        """Ask a player to be friends (:class:`~bot.core.commands.AskFriend`)."""
        core = self.core
        me = await core.player_id(command.player)
        friend_id, friend = await self._known(command.friend, me)
        now = core.clock.now()
        outcome = await core.storage.ask_friend(me, friend_id, now=now)
        await self.flush()
        name = friend.display_name
        if outcome is RequestOutcome.ALREADY_FRIENDS:
            raise Refused(RefusalReason.ALREADY_FRIENDS, name=name)
        if outcome is RequestOutcome.ALREADY_ASKED:
            raise Refused(RefusalReason.FRIEND_REQUEST_WAITS, name=name)
        news = FriendNews.REQUESTED if outcome is RequestOutcome.SENT else FriendNews.ACCEPTED
        self._tell(friend, news, command.player.display_name, me)
        return Reply(label=name, friend=news)

    async def answer(self, command: AnswerFriend) -> Reply:
        """Accept or decline a request (:class:`~bot.core.commands.AnswerFriend`)."""
        core = self.core
        me = await core.player_id(command.player)
        if command.friend is not None:
            from_id, _ = await self._known(command.friend, me)
        elif command.friend_id is not None:
            from_id = command.friend_id
        else:
            raise Refused(RefusalReason.FORGED)
        asker = await core.storage.get_player(from_id)
        if asker is None or from_id == me:
            raise Refused(RefusalReason.FORGED)
        now = core.clock.now()
        if not await core.storage.answer_friend(me, from_id, accept=command.accept, now=now):
            raise Refused(RefusalReason.NO_FRIEND_REQUEST, name=asker.display_name)
        await self.flush()
        if not command.accept:
            return Reply(label=asker.display_name)
        to = await self._reference(from_id, command.player.platform, anywhere=True)
        if to is not None:
            self._tell(to, FriendNews.ACCEPTED, command.player.display_name, me)
        return Reply(label=asker.display_name, friend=FriendNews.ACCEPTED)

    async def remove(self, command: RemoveFriend) -> Reply:
        """End a friendship (:class:`~bot.core.commands.RemoveFriend`)."""
        core = self.core
        me = await core.player_id(command.player)
        friend_id, friend = await self._known(command.friend, me)
        if not await core.storage.remove_friend(me, friend_id):
            raise Refused(RefusalReason.NOT_FRIENDS, name=friend.display_name)
        return Reply(label=friend.display_name)

    async def press(self, command: FriendPress) -> Reply:
        """A friends button (lobby lock held: taking an invitation seats its friend)."""
        try:
            pressed = decode_friend(command.payload)
            if pressed.action is FriendAction.SIT:
                return await self._take(command.player, pressed.arg)
            asker = pressed.player_id
        except ForgedPress:
            raise Refused(RefusalReason.FORGED) from None
        accept = pressed.action is FriendAction.ACCEPT
        return await self.answer(
            AnswerFriend(command.player, accept, friend_id=asker, chat=command.chat)
        )

    # ------------------------------------------------------------------ invitations

    async def invite(self, command: InviteFriend) -> Reply:
        """Keep a seat of my waiting table for a friend (lobby lock held;
        :class:`~bot.core.commands.InviteFriend`)."""
        core = self.core
        me = await core.player_id(command.player)
        friend_id, friend = await self._known(command.friend, me)
        name = friend.display_name
        if not await core.storage.are_friends(me, friend_id):
            raise Refused(RefusalReason.NOT_FRIENDS, name=name)
        table = core.table_for(command.player, command.chat, None)
        to = await self._reference(friend_id, table.chat.platform)
        if to is None:
            raise Refused(RefusalReason.FRIEND_ELSEWHERE, name=name)
        async with table.lock:
            mine = core.seat_at(table, command.player)
            if table.phase not in (Phase.WAITING, Phase.COUNTDOWN):
                raise Refused(RefusalReason.ALREADY_STARTED, table.id)
            if table.seat_of(to.key) is not None:
                raise Refused(RefusalReason.FRIEND_AT_TABLE, table.id, name=name)
            if table.reserved_seat_for(to.key) is not None:
                raise Refused(RefusalReason.INVITE_WAITS, table.id, name=name)
            seat = self._free_seat(table, mine)
            now = core.clock.now()
            invitation = Invitation(
                id=self._new_id(table.id),
                table_id=table.id,
                seat=seat,
                friend=to,
                expires_at=now + self.core.times.invite_seconds,
            )
            kept = table.seats[seat]
            kept.reserved_for = to
            kept.invite, kept.invite_until = invitation.id, invitation.expires_at
            core.emit(table, table_changed(table, now))
            await core.save(table)
        self._keep(invitation)
        await self.flush()
        core.outbox.emit_chat(
            FriendUpdate(
                table_id=table.id,
                chat=table.chat,
                to=to,
                news=FriendNews.INVITED,
                friend=command.player.display_name,
                friend_id=me,
                invite=invitation.id,
                label=table.label,
                seconds=math.ceil(self.core.times.invite_seconds),
            )
        )
        return Reply(table_id=table.id, label=name, seat=seat, friend=FriendNews.INVITED)

    def _keep(self, invitation: Invitation) -> None:
        """Remember ``invitation`` and let its seat go when its time is up."""
        invitation.timer = self.core.clock.call_at(
            invitation.expires_at, lambda: self._expire(invitation.id)
        )
        self.invitations[invitation.id] = invitation

    def restore(self) -> None:
        """Take back the invitations of the tables restored from storage (each seat
        keeps its invitation's id and end: a restart keeps an invitation valid until
        its time, shifted by the bot's downtime as every deadline)."""
        for table in self.core.tables.values():
            for index, seat in enumerate(table.seats):
                friend, invite, until = seat.reserved_for, seat.invite, seat.invite_until
                if friend is None or invite is None or until is None:
                    continue
                if invite not in self.invitations and seat.is_open and not table.closed:
                    self._keep(Invitation(invite, table.id, index, friend, until))

    async def _take(self, player: PlayerRef, invite_id: str) -> Reply:
        """The invited friend takes the seat kept for them (lobby lock held)."""
        invitation = self.invitations.get(invite_id)
        if invitation is None:
            expired_for = self.expired.get(invite_id)
            if expired_for is None:
                raise Refused(RefusalReason.INVITE_GONE)
            if expired_for != player.key:
                raise Refused(RefusalReason.INVITE_NOT_YOURS)
            raise Refused(
                RefusalReason.INVITE_EXPIRED, seconds=math.ceil(self.core.times.invite_seconds)
            )
        if invitation.friend.key != player.key:
            raise Refused(RefusalReason.INVITE_NOT_YOURS)
        table = self.core.live(invitation.table_id)
        reply = await self.lobby.sit_at(SitAt(player, table.chat, table.id, invitation.seat))
        self._forget(invitation)
        return reply

    async def _expire(self, invite_id: str) -> None:
        """An invitation's time is up: its seat is free again, if nobody took it."""
        invitation = self.invitations.get(invite_id)
        if invitation is None:
            return
        self._forget(invitation, expired=True)
        table = self.core.tables.get(invitation.table_id)
        if table is None:
            return
        async with table.lock:
            seat = table.seats[invitation.seat]
            held = seat.reserved_for
            if (
                table.closed
                or not seat.is_open
                or held is None
                or held.key != invitation.friend.key
            ):
                return
            seat.release()
            self.core.emit(table, table_changed(table, self.core.clock.now()))
            await self.core.save(table)

    # ------------------------------------------------------------------ reads

    async def friends(self, player: PlayerRef) -> FriendsView:
        """``player``'s friends and where each is now, and who waits for their answer
        (:class:`~bot.core.events.FriendsView`)."""
        core = self.core
        me = await core.player_id(player)
        now = core.clock.now()
        await self.flush()
        stored = await core.storage.friends_of(me)
        waiting = await core.storage.friend_requests_to(me)
        where = self._where(core.tables.values())
        away = {f.player_id for f in stored} - set(where)
        if away:  # at a table another process on this database runs?
            where |= {k: v for k, v in self._where(await self._elsewhere()).items() if k in away}
        infos = []
        for friend in stored:
            table = where.get(friend.player_id)
            if table is not None:
                presence = Presence.SLOW_TABLE if table.rules.is_slow else Presence.TABLE
                infos.append(
                    FriendInfo(
                        friend.player_id,
                        friend.display_name,
                        presence,
                        table.chat,
                        table.id,
                        table.label,
                        friend.seen_at,
                    )
                )
            else:
                presence = Presence.NEVER if friend.seen_at is None else Presence.SEEN
                infos.append(
                    FriendInfo(
                        friend.player_id, friend.display_name, presence, seen_at=friend.seen_at
                    )
                )
        order = {Presence.TABLE: 0, Presence.SLOW_TABLE: 1, Presence.SEEN: 2, Presence.NEVER: 3}
        infos.sort(key=lambda f: (order[f.presence], -(f.seen_at or 0.0), f.name.casefold()))
        return FriendsView(tuple(infos), tuple(r.display_name for r in waiting), now)

    async def _elsewhere(self) -> list[Table]:
        """The live tables of the scopes another process holds the lease of, as their
        snapshots in storage have them (saved at every change): none when this process
        runs every scope with a lease."""
        core = self.core
        mine = {fence.owner for fence in core.fences.values()}
        others = {c.platform for c in await core.storage.tables_claims() if c.owner not in mine}
        if not others:
            return []
        tables = []
        for data in await core.storage.load_tables():
            if data.get("table_id") in core.tables:
                continue
            try:
                table = Table.from_snapshot(data)
            except (KeyError, TypeError, ValueError):
                continue  # its owner logs and drops it
            if core.scope_of(table.chat) in others and not table.closed:
                tables.append(table)
        return tables

    def _where(self, tables: Iterable[Table]) -> dict[int, Table]:
        """Each seated human's table (player id -> table): a live-paced one before a
        slow one."""
        found: dict[int, Table] = {}
        for table in tables:
            for seat in table.seats:
                pid = seat.player_id
                if pid is None or not seat.seated:
                    continue
                held = found.get(pid)
                if held is None or (held.rules.is_slow and not table.rules.is_slow):
                    found[pid] = table
        return found

    # ------------------------------------------------------------------ helpers

    async def _known(self, friend: PlayerRef, me: int) -> tuple[int, PlayerRef]:
        """The storage id of the player a command names, and their reference with their
        stored name and language (a private message speaks the reader's language).

        Raises:
            Refused: FRIEND_SELF, FRIEND_UNKNOWN (never played here).
        """
        stored = await self.core.storage.find_player(friend.platform, friend.user_id)
        if stored is None:
            raise Refused(RefusalReason.FRIEND_UNKNOWN, name=friend.display_name)
        if stored.id == me:
            raise Refused(RefusalReason.FRIEND_SELF)
        named = replace(friend, display_name=friend.display_name or stored.display_name)
        return stored.id, replace(named, language=stored.language)

    async def _reference(
        self, player_id: int, platform: str, *, anywhere: bool = False
    ) -> PlayerRef | None:
        """The player as ``platform`` knows them (a friend who plays there); with
        ``anywhere``, else as another platform they linked knows them (where they can be
        told); None when there is none."""
        storage = self.core.storage
        links = await storage.platform_links(player_id)
        here = [link for link in links if link[0] == platform]
        found = here or (links if anywhere else [])
        stored = await storage.get_player(player_id)
        if not found or stored is None:
            return None
        where, user_id = found[0]
        return PlayerRef(where, user_id, stored.display_name, stored.language)

    def _free_seat(self, table: Table, mine: int) -> int:
        """The seat to keep for a friend: across from me in partnership play when it is
        free, else the first free one.

        Raises:
            Refused: TABLE_FULL.
        """
        free = [i for i, s in enumerate(table.seats) if s.is_open and s.reserved_for is None]
        if not free:
            raise Refused(RefusalReason.TABLE_FULL, table.id)
        across = (mine + 2) % len(table.seats)
        if table.rules.partnership and across in free:
            return across
        return free[0]

    def _new_id(self, table_id: str) -> str:
        """An invitation's id: its table's and a random code (``<table>.<code>``)."""
        ids = self.core.ids
        while True:
            code = "".join(ids.choice(_INVITE_ALPHABET) for _ in range(_INVITE_CODE_LENGTH))
            found = f"{table_id}.{code}"
            if found not in self.invitations and found not in self.expired:
                return found

    def _forget(self, invitation: Invitation, *, expired: bool = False) -> None:
        self.invitations.pop(invitation.id, None)
        if invitation.timer is not None:
            invitation.timer.cancel()
        if expired:
            self.expired[invitation.id] = invitation.friend.key
            while len(self.expired) > _EXPIRED_KEPT:
                self.expired.popitem(last=False)

    def _tell(self, to: PlayerRef, news: FriendNews, friend: str, friend_id: int) -> None:
        """Tell ``to`` privately, on their platform."""
        self.core.outbox.emit_chat(
            FriendUpdate(
                table_id="",
                chat=ChatRef(to.platform, "", language=to.language),
                to=to,
                news=news,
                friend=friend,
                friend_id=friend_id,
            )
        )

    def _table_closed(self, table: Table, reason: CloseReason, winner: int | None) -> None:
        """A table closed (hook of the settlement): its humans were seen now, and what
        this process saw is written; a seat an invitation kept is gone with it."""
        for invitation in [i for i in self.invitations.values() if i.table_id == table.id]:
            self._forget(invitation, expired=True)
        now = self.core.clock.now()
        for seat in table.seats:
            if seat.player_id is not None:
                self.core.seen[seat.player_id] = now
        task = asyncio.create_task(self._flush_quietly())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Write the "last seen" this process noted (:meth:`Core.saw`) to storage."""
        seen = self.core.seen
        if not seen:
            return
        taken = dict(seen)
        seen.clear()
        try:
            await self.core.storage.note_seen(taken)
        except BaseException:
            for pid, at in taken.items():  # kept for the next write
                seen[pid] = max(at, seen.get(pid, at))
            raise

    async def _flush_quietly(self) -> None:
        try:
            await self.flush()
        except Exception:  # last seen is a nicety: a failed write never stops a table
            log.warning("could not note players seen", exc_info=True)

    async def idle(self) -> None:
        """Wait for the last-seen writes started by closing tables."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        """Cancel the invitations' timers (the process stops; their seats stay kept)."""
        for invitation in list(self.invitations.values()):
            if invitation.timer is not None:
                invitation.timer.cancel()
        self.invitations.clear()

    async def flush_on_stop(self) -> None:
        """The last "last seen" writes as the process stops (a failure is logged: the
        storage may be gone)."""
        await self.idle()
        await self._flush_quietly()
