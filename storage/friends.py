"""Friends (issue 33): friend requests, friendships, when a player was last seen, and a
player's platform links (where the bot may write to them).

A friend request goes from one player to another and waits until it is answered
(accepted: both are friends; declined: it is gone). Two players who ask each other are
friends at once. A friendship is kept as two rows, one each way, so a player's friends
are one indexed read; it ends when either removes the other. Player ids are the
platform-neutral ints of :class:`~storage.wallets.PlayersAndWallets`: a friend is a
player, whatever platform they play on.

"Last seen" is the latest time a player was noted present (:meth:`Friends.note_seen`):
the core keeps each player's last command in memory and writes it with each friends
command, for the humans of a table when it closes, and when it stops; it never goes
back in time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from storage.shapes import check_now
from storage.sql import SqlBase, Tx, known_player

__all__ = ["Friend", "FriendRequest", "Friends", "RequestOutcome"]


class RequestOutcome(StrEnum):
    """What :meth:`Friends.ask_friend` did."""

    SENT = "sent"  # a new request waits for the other player's answer
    ACCEPTED = "accepted"  # the other player had asked first: both are friends now
    ALREADY_FRIENDS = "already_friends"  # nothing changed
    ALREADY_ASKED = "already_asked"  # this request was waiting already: nothing changed


@dataclass(frozen=True, slots=True)
class Friend:
    """One of a player's friends.

    Attributes:
        player_id: the friend's player id.
        display_name: their name as last seen.
        since: when the friendship began (epoch seconds).
        seen_at: when they were last noted present (epoch seconds), None if never.
    """

    player_id: int
    display_name: str
    since: float
    seen_at: float | None


@dataclass(frozen=True, slots=True)
class FriendRequest:
    """A friend request waiting for its answer: who asked, their name, when (epoch
    seconds)."""

    from_id: int
    display_name: str
    created_at: float


_ARE_FRIENDS: Final = "SELECT 1 FROM friendships WHERE player_id = ? AND friend_id = ?"
_ASKED: Final = "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?"
_BEFRIEND: Final = (
    "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)"
    " ON CONFLICT (player_id, friend_id) DO NOTHING"
)
_FORGET_REQUEST: Final = "DELETE FROM friend_requests WHERE from_id = ? AND to_id = ?"
_FRIENDS: Final = (
    "SELECT p.id, p.display_name, f.since, s.seen_at FROM friendships f"
    " JOIN players p ON p.id = f.friend_id"
    " LEFT JOIN player_seen s ON s.player_id = f.friend_id"
    " WHERE f.player_id = ? ORDER BY p.id"
)
_REQUESTS: Final = (
    "SELECT r.from_id, p.display_name, r.created_at FROM friend_requests r"
    " JOIN players p ON p.id = r.from_id WHERE r.to_id = ? ORDER BY r.created_at, r.from_id"
)
_SEEN: Final = (
    "INSERT INTO player_seen (player_id, seen_at) SELECT id, ? FROM players WHERE id = ?"
    " ON CONFLICT (player_id) DO UPDATE SET seen_at = excluded.seen_at"
    " WHERE player_seen.seen_at < excluded.seen_at"
)


def _check_pair(player_id: int, other_id: int) -> None:
    for value in (player_id, other_id):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"a player id is an int (got {value!r})")
    if player_id == other_id:
        raise ValueError("a player cannot be their own friend")


async def _pair(tx: Tx, player_id: int, other_id: int) -> None:
    """Both players known, their rows locked in id order (PostgreSQL; SQLite's
    transaction holds the whole database).

    Raises:
        UnknownPlayerError: either is no player.
    """
    for pid in sorted((player_id, other_id)):
        await known_player(tx, pid)
    await tx.lock_players(sorted((player_id, other_id)))


async def _befriend(tx: Tx, player_id: int, other_id: int, now: float) -> None:
    await tx.run(_BEFRIEND, player_id, other_id, now)
    await tx.run(_BEFRIEND, other_id, player_id, now)
    await tx.run(_FORGET_REQUEST, player_id, other_id)
    await tx.run(_FORGET_REQUEST, other_id, player_id)


class Friends(SqlBase):
    """Friend requests, friendships, last seen and platform links (issue 33)."""

    async def ask_friend(self, player_id: int, friend_id: int, *, now: float) -> RequestOutcome:
        """``player_id`` asks ``friend_id`` to be friends.

        Returns:
            :attr:`RequestOutcome.SENT` (the request waits), :attr:`~RequestOutcome.ACCEPTED`
            (``friend_id`` had asked ``player_id``: both are friends now and that request
            is gone), :attr:`~RequestOutcome.ALREADY_FRIENDS` or
            :attr:`~RequestOutcome.ALREADY_ASKED` (nothing written).

        Raises:
            ValueError: the same player twice, or an id that is not an int.
            UnknownPlayerError: either is no player. Nothing is written when any is raised.
        """
        check_now(now)
        _check_pair(player_id, friend_id)

        async def write(tx: Tx) -> RequestOutcome:
            await _pair(tx, player_id, friend_id)
            if await tx.value(_ARE_FRIENDS, player_id, friend_id) is not None:
                return RequestOutcome.ALREADY_FRIENDS
            if await tx.value(_ASKED, friend_id, player_id) is not None:
                await _befriend(tx, player_id, friend_id, now)
                return RequestOutcome.ACCEPTED
            if await tx.value(_ASKED, player_id, friend_id) is not None:
                return RequestOutcome.ALREADY_ASKED
            await tx.run(
                "INSERT INTO friend_requests (from_id, to_id, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (from_id, to_id) DO NOTHING",
                player_id,
                friend_id,
                now,
            )
            return RequestOutcome.SENT

        return await self._transact(write)

    async def answer_friend(
        self, player_id: int, from_id: int, *, accept: bool, now: float
    ) -> bool:
        """``player_id`` answers the request ``from_id`` sent them: accepted, both are
        friends; declined, the request is gone (``from_id`` may ask again).

        Returns:
            False when no such request waits (answered already, or never sent): nothing
            is written.

        Raises:
            ValueError: the same player twice, or an id that is not an int.
            UnknownPlayerError: either is no player.
        """
        check_now(now)
        _check_pair(player_id, from_id)

        async def write(tx: Tx) -> bool:
            await _pair(tx, player_id, from_id)
            if await tx.value(_ASKED, from_id, player_id) is None:
                return False
            if accept:
                await _befriend(tx, player_id, from_id, now)
            else:
                await tx.run(_FORGET_REQUEST, from_id, player_id)
            return True

        return await self._transact(write)

    async def remove_friend(self, player_id: int, friend_id: int) -> bool:
        """End the friendship of the two players (either may), both ways.

        Returns:
            False when they were not friends (nothing written).

        Raises:
            ValueError: the same player twice, or an id that is not an int.
            UnknownPlayerError: either is no player.
        """
        _check_pair(player_id, friend_id)

        async def write(tx: Tx) -> bool:
            await _pair(tx, player_id, friend_id)
            removed = await tx.run(
                "DELETE FROM friendships WHERE (player_id = ? AND friend_id = ?)"
                " OR (player_id = ? AND friend_id = ?)",
                player_id,
                friend_id,
                friend_id,
                player_id,
            )
            return removed > 0

        return await self._transact(write)

    async def are_friends(self, player_id: int, friend_id: int) -> bool:
        """Whether the two players are friends (False for the same player twice)."""
        if player_id == friend_id:
            return False
        found = await self._query(lambda tx: tx.value(_ARE_FRIENDS, player_id, friend_id))
        return found is not None

    async def friends_of(self, player_id: int) -> list[Friend]:
        """The player's friends, by player id (the core orders them for people).

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> list[Friend]:
            await known_player(tx, player_id)
            return [
                Friend(int(pid), str(name), float(since), None if seen is None else float(seen))
                for pid, name, since, seen in await tx.rows(_FRIENDS, player_id)
            ]

        return await self._query(read)

    async def friend_requests_to(self, player_id: int) -> list[FriendRequest]:
        """The requests waiting for the player's answer, oldest first.

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> list[FriendRequest]:
            await known_player(tx, player_id)
            return [
                FriendRequest(int(pid), str(name), float(at))
                for pid, name, at in await tx.rows(_REQUESTS, player_id)
            ]

        return await self._query(read)

    async def note_seen(self, seen: Mapping[int, float]) -> None:
        """Note when players were present (player id -> epoch seconds: their "last
        seen"), in one transaction; an earlier time than the one kept, or an id that is
        no player, is ignored.

        Raises:
            ValueError: a time that is not a finite number.
        """
        for at in seen.values():
            check_now(at)
        rows = sorted(seen.items())
        if not rows:
            return

        async def write(tx: Tx) -> None:
            for pid, at in rows:
                await tx.run(_SEEN, at, pid)

        await self._transact(write)

    async def platform_links(self, player_id: int) -> list[tuple[str, str]]:
        """Where the player plays: ``(platform, platform user id)`` pairs, by platform
        then id (empty for no such player)."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT platform, platform_user_id FROM player_links WHERE player_id = ?"
                " ORDER BY platform"
                + tx.dialect.bytewise
                + ", platform_user_id"
                + tx.dialect.bytewise,
                player_id,
            )
        )
        return [(str(platform), str(user_id)) for platform, user_id in rows]
