"""This process's table leases: claimed, renewed by a heartbeat, lost (see
:mod:`bot.core.ownership` for the scheme; issue 13, 17 and 28).

:class:`Leases` is the one place that talks to ``Storage.claim_tables`` and its kin for a
running core (wired by :mod:`bot.core.bootstrap`). It keeps :attr:`Core.fences` (the scopes
held and the fencing token each write carries), renews them every
``LeaseTimes.heartbeat`` seconds and decides when a lease is lost:

- another process took the scope (a renewal or a fenced write says so), or
- no renewal succeeded for ``LeaseTimes.takeover`` seconds (a database outage, a
  process stopped by SIGSTOP): a standby may hold it by now, so it counts as lost.

A renewal that fails for any other reason (the database is unreachable) is retried at
the next beat, until one of the two happens. A lost scope's tables stop here at once,
unsaved, and nothing queued for them is delivered any more (their new owner plays and
shows them); :meth:`Leases.lost` tells the front end serving it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection

from bot.core.clock import Timer
from bot.core.ownership import LeaseTimes, OwnerId, TablesHeldElsewhere, owner_is_gone
from bot.core.state import Core
from bot.core.table import Table
from bot.core.timers import Timers
from storage.base import Fence, FencedOut

__all__ = ["Leases"]

log = logging.getLogger("bot.core")


class Leases:
    """The leases of one process on its storage.

    Args:
        core: the shared state (its ``fences``, ``tables``, clock and storage).
        timers: to freeze the tables of a lost scope.
        owner: this process's claim id.
        times: heartbeat, takeover and standby seconds.
        on_beat: awaited after each successful renewal (the season finals); its errors
            are logged and never stop the heartbeat.
    """

    def __init__(
        self,
        core: Core,
        timers: Timers,
        owner: OwnerId,
        times: LeaseTimes,
        on_beat: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self._core = core
        self._timers = timers
        self.owner = owner
        self.times = times
        self._on_beat = on_beat
        self._heartbeat: Timer | None = None
        self._renewed_at: float | None = None  # clock time of the last renewal that held
        self._renewing: asyncio.Task[None] | None = None
        self._lost: asyncio.Queue[str] = asyncio.Queue()
        self._lost_scopes: set[str] = set()
        self.healthy = True
        """False while the last renewal failed (the database is unreachable)."""

    async def claim(self, scopes: Collection[str]) -> None:
        """Take the leases of ``scopes``, all or none: free ones, ours already, and those
        whose holder stopped renewing (``times.takeover``) or is known gone.

        Raises:
            TablesHeldElsewhere: another live process holds one of them; nothing
                claimed.
        """
        core = self._core
        storage, now, me = core.storage, core.clock.now(), str(self.owner)
        stale = self.times.takeover
        taken: list[Fence] = []
        for scope in sorted(set(scopes) - set(core.fences)):
            claim = await storage.tables_claim(scope)
            replacing = None if claim is None else claim.owner
            free = (
                claim is None
                or claim.owner == me
                or now - claim.heartbeat_at > stale
                or owner_is_gone(claim.owner, self.owner)
            )
            token = (
                await storage.claim_tables(scope, me, now=now, replacing=replacing)
                if free
                else None
            )
            if token is None:
                for done in taken:
                    await storage.release_tables(done.scope, me)
                claim = await storage.tables_claim(scope) or claim
                assert claim is not None
                raise TablesHeldElsewhere(scope, claim.owner, now - claim.heartbeat_at, stale)
            if claim is not None and claim.owner != me:
                log.info(
                    "took over the %s tables from %s (gone), fence %d", scope, claim.owner, token
                )
            taken.append(Fence(scope, me, token))
        core.fences.update((fence.scope, fence) for fence in taken)
        if taken:
            self._renewed_at = now
            self.healthy = True
            if core.clock.now() - now > self.times.heartbeat:
                await self._refresh(taken)
        if core.fences and self._heartbeat is None:
            self._arm()

    async def _refresh(self, taken: Collection[Fence]) -> None:
        """Move the heartbeat of leases just taken to now: their claim waited (a frozen
        holder's row lock lasts until the server ends its transaction), so the heartbeat
        written at the claim's start is already old and would soon read as expired."""
        core = self._core
        fresh = core.clock.now()
        for fence in taken:
            if not await core.storage.renew_tables_claim(fence.scope, str(self.owner), now=fresh):
                return  # taken from us meanwhile: the next beat drops it
        self._renewed_at = fresh

    async def release(self, scopes: Collection[str]) -> None:
        """Give the leases of ``scopes`` back; their live tables stop here unsaved."""
        for scope in sorted(set(scopes) & set(self._core.fences)):
            self.drop(scope)
            await self._core.storage.release_tables(scope, str(self.owner))

    async def release_all(self) -> None:
        """Stop the heartbeat and give every lease back (a clean stop, tables saved)."""
        self.cancel()
        core = self._core
        for scope in sorted(core.fences):
            await core.storage.release_tables(scope, str(self.owner))
        core.fences.clear()

    def cancel(self) -> None:
        """Stop the heartbeat."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None

    async def lost(self) -> str:
        """Wait until this process loses a scope it held; returns the scope. Its tables
        stopped here already, unsaved: the front end serving it must stop too."""
        return await self._lost.get()

    def _arm(self) -> None:
        clock = self._core.clock
        self._heartbeat = clock.call_at(clock.now() + self.times.heartbeat, self._beat)

    async def _beat(self) -> None:
        self._heartbeat = None
        if self._core.stopped or not self._core.fences:
            return
        await self.renew()
        if self._core.fences and self._heartbeat is None and not self._core.stopped:
            self._arm()
            if self.healthy and self._on_beat is not None:
                try:
                    await self._on_beat()
                except Exception:  # a season's end must never stop the heartbeat
                    log.exception("the heartbeat's follow-up failed")

    async def renew(self) -> None:
        """Renew every lease held now (one renewal at a time: a caller arriving during
        one waits for it). A scope another process took is dropped; when the database
        cannot be reached the leases stay held until ``times.takeover`` seconds passed
        since the last renewal that held, then every one is dropped."""
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.ensure_future(self._renew())
        await asyncio.shield(self._renewing)

    async def _renew(self) -> None:
        core = self._core
        started = core.clock.now()
        if self._expired(started):  # woke up (SIGSTOP) or stalled past the lease
            self._expire(started)
            return
        try:
            for scope in sorted(core.fences):
                if not await core.storage.renew_tables_claim(
                    scope, str(self.owner), now=core.clock.now()
                ):
                    self.lose(scope, "another process took over")
        except FencedOut as exc:
            self.fenced_out(exc)
        except Exception as exc:  # the database is unreachable: try again at the next beat
            self.healthy = False
            log.warning("could not renew the table leases (%s); retrying", exc)
            now = core.clock.now()
            if self._expired(now):
                self._expire(now)
            return
        self.healthy = True
        self._renewed_at = started

    def _expired(self, now: float) -> bool:
        return self._renewed_at is not None and now - self._renewed_at > self.times.takeover

    def _expire(self, now: float) -> None:
        assert self._renewed_at is not None
        age = now - self._renewed_at
        for scope in sorted(self._core.fences):
            self.lose(scope, f"no renewal for {age:.0f} s; another process may hold it")

    async def held(self, table: Table) -> bool:
        """Whether this process may still show ``table``: its scope is not leased here
        (tools, tests), or :meth:`holds` it."""
        core = self._core
        scope = core.scope_of(table.chat)
        if scope not in core.fences:
            return not table.dropped
        return await self.holds(scope) and not table.dropped

    async def holds(self, scope: str) -> bool:
        """Whether this process still holds the lease of ``scope``, renewing it first
        when no renewal held within two heartbeats (a process woken after SIGSTOP checks
        before it sends or polls anything). False for a scope never claimed here."""
        core = self._core
        if scope not in core.fences:
            return False
        renewed = self._renewed_at
        if renewed is None or core.clock.now() - renewed > 2 * self.times.heartbeat:
            await self.renew()
        return scope in core.fences

    async def may_poll(self, scope: str) -> bool:
        """Whether this process may read ``scope``'s platform updates (a Telegram
        poll): not once its lease was lost (checked with :meth:`holds` while held); yes
        before it was claimed or after it was released cleanly (the last poll of a
        stop marks what was handled as read)."""
        if scope in self._lost_scopes:
            return False
        if scope in self._core.fences:
            return await self.holds(scope)
        return True

    def fenced_out(self, exc: FencedOut) -> None:
        """A write was refused: another process holds the scope now."""
        if self._core.fences.get(exc.fence.scope) == exc.fence:
            self.lose(exc.fence.scope, "another process took over")

    def lose(self, scope: str, why: str) -> None:
        """Drop ``scope`` (its tables stop unsaved) and tell :meth:`lost`."""
        count = self.drop(scope)
        self._lost_scopes.add(scope)
        log.error("lost the %s lease (%s); %d tables stop here unsaved", scope, why, count)
        self._lost.put_nowait(scope)

    def drop(self, scope: str) -> int:
        """Stop ``scope``'s live tables here, unsaved, with nothing more sent for them,
        and forget its lease; returns how many."""
        core = self._core
        core.fences.pop(scope, None)
        gone = [t for t in core.tables.values() if core.scope_of(t.chat) == scope]
        for table in gone:
            self._timers.freeze(table)
            table.closed = True
            table.dropped = True
            table.outbox.clear()
            core.tables.pop(table.id, None)
        core.dropped += len(gone)
        return len(gone)
