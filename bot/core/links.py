"""One player on both platforms (issue 33; docs/players.md): the link commands.

A player asks one platform for a short code (:class:`~bot.core.commands.GiveLinkCode`)
and gives it on the other (:class:`~bot.core.commands.AcceptLinkCode`): storage merges
the two players in one transaction (``storage.links``: the wallet moved whole by a
ledger transaction, history and ratings made one). :class:`~bot.core.commands.Unlink`
takes an identity out again. The core adds what storage cannot see: neither identity
may sit at a live table of this process (the stakes held are storage's check). After a
change the identities' cached player ids are dropped in every process on the database
(a :data:`~bot.core.state.PLAYERS_CHANNEL` notice), so the next command finds the player
they are now; stakes and fees read the ids afresh whatever a notice did.
"""

from __future__ import annotations

import random
from typing import Final

from bot.core.commands import AcceptLinkCode, GiveLinkCode, PlayerRef, Unlink
from bot.core.events import LinkInfo, Refused, Reply
from bot.core.state import PLAYERS_CHANNEL, Core
from bot.core.vocabulary import RefusalReason
from storage.base import (
    LINK_CODE_ALPHABET,
    LINK_CODE_LENGTH,
    LINK_CODE_SECONDS,
    LINKABLE_PLATFORMS,
    LinkRefused,
)

__all__ = ["Linking"]

_TRIES: Final = 5
"""Codes drawn before giving up on a free one (a clash is one in a billion)."""


def _refused(exc: LinkRefused) -> Refused:
    """Storage's refusal as the core's (the reason's value with ``link_`` before it)."""
    params = {"platform": exc.platform} if exc.platform else {}
    return Refused(RefusalReason(f"link_{exc.reason.value}"), None, **params)


def _other(platform: str) -> str:
    """The linkable platform that is not ``platform``."""
    return next(p for p in LINKABLE_PLATFORMS if p != platform)


class Linking:
    """The link commands' handlers (run under the lobby lock: nobody is seated meanwhile).

    Args:
        core: the shared state (storage, clock, live tables, cached player ids).
        codes: draws the codes (unpredictable by default; tests seed it).
    """

    def __init__(self, core: Core, codes: random.Random | None = None) -> None:
        self.core = core
        self.codes = codes or random.SystemRandom()

    def _check_linkable(self, player: PlayerRef) -> None:
        if player.platform not in LINKABLE_PLATFORMS:
            raise Refused(RefusalReason.LINK_NOT_LINKABLE, platform=player.platform)

    def _check_not_seated(self, *keys: tuple[str, str]) -> None:
        for table in self.core.tables.values():
            for seat in table.seats:
                if seat.player is not None and seat.player.key in keys:
                    raise Refused(RefusalReason.LINK_SEATED)

    async def _changed(self, *keys: tuple[str, str]) -> None:
        """Drop the identities' cached ids here and tell the other processes on the
        database to drop theirs (a notice; the ids are read again before money moves in
        any case)."""
        for key in keys:
            self.core.player_ids.pop(key, None)
        await self.core.storage.publish(PLAYERS_CHANNEL, " ".join(f"{p}:{u}" for p, u in keys))

    async def give_code(self, command: GiveLinkCode) -> Reply:
        """A fresh code for the player's identity (their earlier unused one stops
        working)."""
        player = command.player
        self._check_linkable(player)
        await self.core.player_id(player)
        now = self.core.clock.now()
        for _ in range(_TRIES):
            code = "".join(self.codes.choice(LINK_CODE_ALPHABET) for _ in range(LINK_CODE_LENGTH))
            if await self.core.storage.issue_link_code(
                player.platform, player.user_id, code, now=now
            ):
                return Reply(
                    link=LinkInfo(
                        code=code,
                        minutes=LINK_CODE_SECONDS // 60,
                        platform=_other(player.platform),
                    )
                )
        raise Refused(RefusalReason.SHUTTING_DOWN)  # never seen: five clashes in a row

    async def accept_code(self, command: AcceptLinkCode) -> Reply:
        """The two identities become one player (storage's merge)."""
        player, storage = command.player, self.core.storage
        self._check_linkable(player)
        await self.core.player_id(player)
        owner = await storage.link_code_owner(command.code)
        self._check_not_seated(player.key, *(() if owner is None else (owner,)))
        try:
            merge = await storage.redeem_link_code(
                command.code, player.platform, player.user_id, now=self.core.clock.now()
            )
        except LinkRefused as exc:
            raise _refused(exc) from None
        await self._changed(player.key, *(() if owner is None else (owner,)))
        return Reply(link=LinkInfo(platform=merge.platform, balance=merge.balance))

    async def unlink(self, command: Unlink) -> Reply:
        """The player's identity here leaves for a fresh player at 0 dollars."""
        player, storage = command.player, self.core.storage
        self._check_linkable(player)
        self._check_not_seated(player.key)
        try:
            fresh = await storage.unlink(
                player.platform, player.user_id, player.display_name, now=self.core.clock.now()
            )
        except LinkRefused as exc:
            raise _refused(exc) from None
        await self._changed(player.key)
        self.core.player_ids[player.key] = fresh
        return Reply(
            link=LinkInfo(platform=_other(player.platform), balance=await storage.balance(fresh))
        )
