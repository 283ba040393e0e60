"""Resuming a table reloaded after a restart (design.md, rules 6 and 10).

Its timers are re-armed from the stored deadlines, moved on by the time since the
snapshot was saved (the bot's own downtime never runs a player's clock), and every human
gets their tiles and the turn again, since a crash may have lost the buttons the front
ends were showing. A match that ended just before the crash is settled now (settlement
is idempotent).
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.core.projection import table_changed, your_tiles
from bot.core.session import ROBOT_DEADLINES, Session
from bot.core.state import Core
from bot.core.table import Table
from bot.core.timers import Timers
from bot.core.vocabulary import CloseReason, DeadlineKind, Phase
from storage.base import MatchClosedError, OpenEscrow, UnknownMatchError

log = logging.getLogger("bot.core")

__all__ = ["Resume"]


class Resume:
    """Brings reloaded tables back to life (their lock held)."""

    def __init__(self, core: Core, timers: Timers, session: Session) -> None:
        self.core = core
        self.timers = timers
        self.session = session

    async def restore(self, scopes: Collection[str] | None) -> None:
        """Reload the unfinished tables of ``scopes`` (None: every one) from storage and
        resume each; then refund the open escrows no stored table owns.

        Snapshots that no longer load are logged and dropped; a table already live is
        left as it is. Escrows are read before tables: a table is saved before its
        stakes are taken and deleted after they are paid out, so every escrow open now
        has a snapshot in what is read next, even if another process is opening tables
        meanwhile.
        """
        core = self.core
        escrows = {e.match_id: e for e in await core.storage.open_escrows()}
        restored: list[Table] = []
        stored = await core.storage.load_tables()
        for data in stored:
            try:
                table = Table.from_snapshot(data)
            except (KeyError, TypeError, ValueError) as exc:
                log.error("dropping table snapshot %r: %s", data.get("table_id"), exc)
                continue
            if table.id in core.tables and not core.stopped:
                continue  # already live (e.g. restored by an earlier start)
            if scopes is not None and core.scope_of(table.chat) not in scopes:
                log.info(
                    "table %s of %s left in storage: not hosted here",
                    table.id,
                    core.scope_of(table.chat),
                )
                continue
            core.tables[table.id] = table
            restored.append(table)
        core.stopped = False
        for table in restored:
            async with table.lock:
                await self.resume(table, escrows.pop(table.id, None))
        await self.refund_orphans(
            [e for e in escrows.values() if e.match_id not in core.tables],
            {str(data.get("table_id")) for data in stored},
        )

    async def resume(self, table: Table, escrow: OpenEscrow | None = None) -> None:
        """Re-arm a reloaded table's timers from its stored deadlines and send each human
        their tiles and the turn again (a crash may have lost the buttons shown).

        ``escrow``: the table's open escrow, if any. One for a table saved before its
        match started means the bot stopped between taking the stakes and saving the
        start: the match starts now for the humans who paid (the deal follows the
        table's seed, so it is the one that was due); if they are not the humans seated,
        the stakes are refunded and the table closes (nothing else can reconcile them).
        """
        core = self.core
        times = core.times
        match = table.match
        if match is not None and match.is_over:
            await self.session.settlement.finish(table)
            return
        if escrow is not None and match is None:
            await self._start_paid(table, escrow)
            return
        now = core.clock.now()
        table.moved_at = now  # the bot's downtime never makes a match look stuck
        self._shift_deadlines(table, now)
        for index, state in enumerate(table.seats):
            if state.away and not state.forfeited and state.back_by is not None:
                self.timers.arm_away(table, index)
        kind, deadline = table.deadline_kind, table.deadline
        remind_at = table.remind_at  # arming the turn's deadline clears it: kept here
        if kind is not None and deadline is not None:
            self.timers.arm(table, deadline, kind)
            if remind_at is not None:
                self.timers.arm_reminder(table, remind_at)
            self._redeliver(table)
        elif table.phase is Phase.WAITING:
            self.timers.arm(table, table.created_at + times.fill_seconds, DeadlineKind.FILL)
        elif table.phase is Phase.COUNTDOWN:
            self.timers.arm(table, now + times.countdown_seconds, DeadlineKind.START)
        elif match is not None and match.hand.is_over:
            self.timers.arm(table, now + times.hand_pause, DeadlineKind.NEXT_HAND)
        elif match is not None:
            self.session.begin_turn(table, send_tiles=True)
            self.session.send_hands_but_the_turns(table)
        core.emit(table, table_changed(table, now))

    async def _start_paid(self, table: Table, escrow: OpenEscrow) -> None:
        settlement = self.session.settlement
        paid = {pid for pid, status in escrow.holders.items() if status == "held"}
        seated = {pid for i in table.humans() if (pid := table.seats[i].player_id) is not None}
        if paid == seated and len(paid) == len(escrow.holders):
            log.warning("table %s: stakes were taken before a stop; its match starts now", table.id)
            await self.session.start_match(table)
            return
        log.error(
            "table %s: its escrow (%s) does not match its seats (%s): refunded and closed",
            table.id,
            sorted(escrow.holders),
            sorted(seated),
        )
        table.stakes = {pid: escrow.stake for pid in escrow.holders}
        await settlement.close(table, CloseReason.CANCELLED)

    async def refund_orphans(self, escrows: list[OpenEscrow], stored: set[str]) -> None:
        """Refund the open escrows that no table owns, live or stored (a crash between
        taking stakes and saving a table that then never came back; robot tables of
        older versions). Escrows of tables stored for a platform not hosted here stay."""
        core = self.core
        for escrow in escrows:
            if escrow.match_id in stored:
                continue
            try:
                refunds = await core.storage.refund(escrow.match_id, now=core.clock.now())
            except (UnknownMatchError, MatchClosedError):
                continue  # closed meanwhile by its owner
            log.warning(
                "escrow of %s had no table: refunded %s",
                escrow.match_id,
                ", ".join(f"player {pid} ${amount}" for pid, amount in refunds.items()) or "$0",
            )

    @staticmethod
    def _shift_deadlines(table: Table, now: float) -> None:
        """Move a reloaded table's deadlines by the time since its snapshot was saved:
        the bot's own downtime (a crash or a stop) never runs a turn or the 5-minute
        return (design.md, rule 10). Snapshots older than ``saved_at`` keep theirs."""
        if table.saved_at is None or now <= table.saved_at:
            return
        down = now - table.saved_at
        if table.deadline is not None:
            table.deadline += down
        if table.remind_at is not None:
            table.remind_at += down
        for state in table.seats:
            if state.back_by is not None:
                state.back_by += down
            if state.invite_until is not None:
                state.invite_until += down
        table.saved_at = now

    def _redeliver(self, table: Table) -> None:
        """Send a resumed table's private hands and its turn again; nothing changes."""
        match = table.match
        kind, deadline = table.deadline_kind, table.deadline
        if match is None or match.hand.is_over or deadline is None:
            return
        if kind not in ROBOT_DEADLINES:
            return
        turn = match.hand.turn
        self.session.send_hands_but_the_turns(table)
        self.session.announce_turn(table, deadline)
        if table.seats[turn].present:
            self.core.emit(table, your_tiles(table, turn))
