"""Mute, report and moderation (issue 33; docs/moderation.md): who muted whom, players'
reports and a chat's bans, every admin action in a log, the channel a Discord server's
reports go to, and the staked results the chip-dumping flags are computed from.

Muting belongs to the player (it holds on every table, on every chat); reports, bans and
the log belong to a chat (its key, ``"<platform>:<chat id>"``). A report is ``"open"``
until an admin dismisses it (``"dismissed"``) or bans its player (``"banned"``: every open
report about that player in the chat closes with the ban). Nothing here decides who may
moderate: the core checks the admin before calling.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from storage.shapes import check_now
from storage.sql import Row, SqlBase, Tx, known_player, placeholders

__all__ = [
    "DuplicateReportError",
    "ModerationEntry",
    "ModerationLog",
    "Report",
    "ReportClosedError",
    "StakedResult",
    "UnknownReportError",
]

OPEN: Final = "open"
DISMISSED: Final = "dismissed"
BANNED: Final = "banned"

DISMISS: Final = "dismiss"
BAN: Final = "ban"
UNBAN: Final = "unban"

_REPORT_COLUMNS: Final = (
    "id, chat, reporter_id, reported_id, reason, match_id, state, created_at, closed_at, closed_by"
)


class DuplicateReportError(ValueError):
    """The reporter already has an open report about that player in the chat."""

    def __init__(self, report_id: int) -> None:
        super().__init__(f"an open report exists already: {report_id}")
        self.report_id = report_id


class UnknownReportError(LookupError):
    """No report has that id (in that chat)."""

    def __init__(self, report_id: int) -> None:
        super().__init__(f"unknown report {report_id}")
        self.report_id = report_id


class ReportClosedError(ValueError):
    """The report was dismissed or its player banned already (a stale button)."""

    def __init__(self, report_id: int, state: str) -> None:
        super().__init__(f"report {report_id} is {state}")
        self.report_id = report_id
        self.state = state


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report about another in a chat.

    Attributes:
        id: the report's number (per database, growing).
        chat: the chat key; reporter_id, reported_id: player ids.
        reason: the reason's word (the core's ``ReportReason``).
        match_id: the match (its record's id, a live table's id while it runs) they
            shared, None when they shared none.
        state: ``"open"``, ``"dismissed"`` or ``"banned"``.
        created_at, closed_at: epoch seconds (closed_at None while open).
        closed_by: the admin who closed it.
    """

    id: int
    chat: str
    reporter_id: int
    reported_id: int
    reason: str
    match_id: str | None
    state: str
    created_at: float
    closed_at: float | None = None
    closed_by: int | None = None


@dataclass(frozen=True, slots=True)
class ModerationEntry:
    """One admin action of a chat's log: ``action`` is ``"dismiss"``, ``"ban"`` or
    ``"unban"``, about ``player_id`` (and ``report_id`` when it closed a report)."""

    id: int
    chat: str
    admin_id: int
    action: str
    player_id: int
    report_id: int | None
    at: float


@dataclass(frozen=True, slots=True)
class StakedResult:
    """One player's side and result in a settled, staked match of a chat (the material of
    the chip-dumping flags): ``stake`` dollars each, ``team`` the side, ``won`` its result."""

    match_id: str
    player_id: int
    team: int
    won: bool
    stake: int


def _report(row: Row) -> Report:
    return Report(
        int(row[0]),
        str(row[1]),
        int(row[2]),
        int(row[3]),
        str(row[4]),
        None if row[5] is None else str(row[5]),
        str(row[6]),
        float(row[7]),
        None if row[8] is None else float(row[8]),
        None if row[9] is None else int(row[9]),
    )


def _check_pair(player_id: int, other_id: int) -> None:
    if player_id == other_id:
        raise ValueError("a player cannot mute or report themself")


async def _log(
    tx: Tx, chat: str, admin_id: int, action: str, player_id: int, report_id: int | None, now: float
) -> None:
    await tx.run(
        "INSERT INTO moderation_log (chat, admin_id, action, player_id, report_id, at)"
        " VALUES (?, ?, ?, ?, CAST(? AS BIGINT), ?)",
        chat,
        admin_id,
        action,
        player_id,
        report_id,
        now,
    )


async def _open_report(tx: Tx, report_id: int, chat: str | None) -> Report:
    row = await tx.row(
        f"SELECT {_REPORT_COLUMNS} FROM reports WHERE id = ?" + tx.dialect.for_update, report_id
    )
    if row is None or (chat is not None and row[1] != chat):
        raise UnknownReportError(report_id)
    report = _report(row)
    if report.state != OPEN:
        raise ReportClosedError(report_id, report.state)
    return report


class ModerationLog(SqlBase):
    """Mutes, reports, bans and the admins' log (issue 33)."""

    # ------------------------------------------------------------------ mutes
    async def mute(self, player_id: int, muted_id: int, *, now: float) -> bool:
        """``player_id`` mutes ``muted_id`` everywhere; True when it is new.

        Raises:
            ValueError: a player muting themself. UnknownPlayerError: an unknown id.
        """
        check_now(now)
        _check_pair(player_id, muted_id)

        async def write(tx: Tx) -> bool:
            await known_player(tx, player_id)
            await known_player(tx, muted_id)
            done = await tx.run(
                "INSERT INTO mutes (player_id, muted_id, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player_id, muted_id) DO NOTHING",
                player_id,
                muted_id,
                now,
            )
            return done > 0

        return await self._transact(write)

    async def unmute(self, player_id: int, muted_id: int) -> bool:
        """``player_id`` hears ``muted_id`` again; True when they had muted them."""

        async def write(tx: Tx) -> bool:
            done = await tx.run(
                "DELETE FROM mutes WHERE player_id = ? AND muted_id = ?", player_id, muted_id
            )
            return done > 0

        return await self._transact(write)

    async def muted_by(self, player_ids: Sequence[int], muted_id: int) -> list[int]:
        """Which of ``player_ids`` muted ``muted_id``, in increasing order."""
        ids = sorted(set(player_ids))
        if not ids:
            return []
        rows = await self._query(
            lambda tx: tx.rows(
                f"SELECT player_id FROM mutes WHERE muted_id = ? AND player_id IN"
                f" ({placeholders(len(ids))}) ORDER BY player_id",
                muted_id,
                *ids,
            )
        )
        return [int(r[0]) for r in rows]

    async def muted_players(self, player_id: int) -> list[int]:
        """Whom ``player_id`` muted, oldest first."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT muted_id FROM mutes WHERE player_id = ? ORDER BY created_at, muted_id",
                player_id,
            )
        )
        return [int(r[0]) for r in rows]

    # ------------------------------------------------------------------ reports
    async def file_report(
        self,
        chat: str,
        reporter_id: int,
        reported_id: int,
        reason: str,
        match_id: str | None,
        *,
        now: float,
    ) -> Report:
        """Store a report of ``reporter_id`` about ``reported_id`` in ``chat``.

        Raises:
            DuplicateReportError: the reporter's open report about them exists already.
            ValueError: reporting themself, an empty chat or reason.
            UnknownPlayerError: an unknown id. Nothing is written when any is raised.
        """
        check_now(now)
        _check_pair(reporter_id, reported_id)
        if not chat or not reason:
            raise ValueError("a report needs a chat and a reason")

        async def write(tx: Tx) -> Report:
            await known_player(tx, reporter_id)
            await known_player(tx, reported_id)
            await tx.lock_chat(chat)
            existing = await tx.value(
                "SELECT id FROM reports WHERE chat = ? AND reporter_id = ? AND reported_id = ?"
                " AND state = 'open'",
                chat,
                reporter_id,
                reported_id,
            )
            if existing is not None:
                raise DuplicateReportError(int(existing))
            row = await tx.row(
                "INSERT INTO reports (chat, reporter_id, reported_id, reason, match_id,"
                " created_at) VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?)"
                f" RETURNING {_REPORT_COLUMNS}",
                chat,
                reporter_id,
                reported_id,
                reason,
                match_id,
                now,
            )
            assert row is not None
            return _report(row)

        return await self._transact(write)

    async def get_report(self, report_id: int) -> Report | None:
        """The report with that id, whatever its state."""
        row = await self._query(
            lambda tx: tx.row(f"SELECT {_REPORT_COLUMNS} FROM reports WHERE id = ?", report_id)
        )
        return None if row is None else _report(row)

    async def open_reports(self, chat: str) -> list[Report]:
        """The chat's open reports, oldest first."""
        rows = await self._query(
            lambda tx: tx.rows(
                f"SELECT {_REPORT_COLUMNS} FROM reports WHERE chat = ? AND state = 'open'"
                " ORDER BY id",
                chat,
            )
        )
        return [_report(r) for r in rows]

    async def dismiss_report(
        self, chat: str, report_id: int, admin_id: int, *, now: float
    ) -> Report:
        """An admin of ``chat`` dismisses an open report (logged).

        Raises:
            UnknownReportError: no such report in the chat.
            ReportClosedError: it is closed already. Nothing is written then.
        """
        check_now(now)

        async def write(tx: Tx) -> Report:
            await known_player(tx, admin_id)
            report = await _open_report(tx, report_id, chat)
            await tx.run(
                "UPDATE reports SET state = 'dismissed', closed_at = ?, closed_by = ? WHERE id = ?",
                now,
                admin_id,
                report_id,
            )
            await _log(tx, chat, admin_id, DISMISS, report.reported_id, report_id, now)
            return Report(
                report.id,
                report.chat,
                report.reporter_id,
                report.reported_id,
                report.reason,
                report.match_id,
                DISMISSED,
                report.created_at,
                now,
                admin_id,
            )

        return await self._transact(write)

    # ------------------------------------------------------------------ bans
    async def ban(
        self,
        chat: str,
        player_id: int,
        admin_id: int,
        *,
        now: float,
        report_id: int | None = None,
    ) -> bool:
        """Ban ``player_id`` from the tables of ``chat``; every open report about them
        there closes as ``"banned"``; logged. True when the ban is new.

        Raises:
            UnknownReportError: ``report_id`` names no report of the chat.
            ReportClosedError: ``report_id`` is closed already (a stale button).
            UnknownPlayerError: an unknown id. Nothing is written when any is raised.
        """
        check_now(now)

        async def write(tx: Tx) -> bool:
            await known_player(tx, player_id)
            await known_player(tx, admin_id)
            if report_id is not None:
                report = await _open_report(tx, report_id, chat)
                if report.reported_id != player_id:
                    raise UnknownReportError(report_id)
            new = await tx.run(
                "INSERT INTO bans (chat, player_id, banned_by, banned_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat, player_id) DO NOTHING",
                chat,
                player_id,
                admin_id,
                now,
            )
            await tx.run(
                "UPDATE reports SET state = 'banned', closed_at = ?, closed_by = ?"
                " WHERE chat = ? AND reported_id = ? AND state = 'open'",
                now,
                admin_id,
                chat,
                player_id,
            )
            await _log(tx, chat, admin_id, BAN, player_id, report_id, now)
            return new > 0

        return await self._transact(write)

    async def unban(self, chat: str, player_id: int, admin_id: int, *, now: float) -> bool:
        """Lift ``player_id``'s ban from ``chat`` (logged when there was one); True when
        they were banned."""
        check_now(now)

        async def write(tx: Tx) -> bool:
            await known_player(tx, admin_id)
            done = await tx.run(
                "DELETE FROM bans WHERE chat = ? AND player_id = ?", chat, player_id
            )
            if done:
                await _log(tx, chat, admin_id, UNBAN, player_id, None, now)
            return done > 0

        return await self._transact(write)

    async def banned_among(self, chat: str, player_ids: Sequence[int]) -> set[int]:
        """Which of ``player_ids`` are banned from ``chat``'s tables."""
        ids = sorted(set(player_ids))
        if not ids:
            return set()
        rows = await self._query(
            lambda tx: tx.rows(
                f"SELECT player_id FROM bans WHERE chat = ? AND player_id IN"
                f" ({placeholders(len(ids))})",
                chat,
                *ids,
            )
        )
        return {int(r[0]) for r in rows}

    async def banned_players(self, chat: str) -> list[int]:
        """Everyone banned from ``chat``, in the order they were banned."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT player_id FROM bans WHERE chat = ? ORDER BY banned_at, player_id", chat
            )
        )
        return [int(r[0]) for r in rows]

    async def moderation_log(self, chat: str, *, limit: int = 20) -> list[ModerationEntry]:
        """The chat's last ``limit`` admin actions, the newest first."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT id, chat, admin_id, action, player_id, report_id, at"
                " FROM moderation_log WHERE chat = ? ORDER BY id DESC LIMIT ?",
                chat,
                limit,
            )
        )
        return [
            ModerationEntry(
                int(r[0]),
                str(r[1]),
                int(r[2]),
                str(r[3]),
                int(r[4]),
                None if r[5] is None else int(r[5]),
                float(r[6]),
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ the report channel
    async def set_report_channel(self, chat: str, channel_id: str | None) -> None:
        """Where ``chat``'s reports are posted (a Discord channel id); None: nowhere (the
        admins' private messages)."""

        async def write(tx: Tx) -> None:
            if channel_id is None:
                await tx.run("DELETE FROM report_channels WHERE chat = ?", chat)
                return
            await tx.run(
                "INSERT INTO report_channels (chat, channel_id) VALUES (?, ?)"
                " ON CONFLICT (chat) DO UPDATE SET channel_id = excluded.channel_id",
                chat,
                channel_id,
            )

        await self._transact(write)

    async def report_channel(self, chat: str) -> str | None:
        """The channel ``chat``'s reports go to, None when its admins chose none."""
        value = await self._query(
            lambda tx: tx.value("SELECT channel_id FROM report_channels WHERE chat = ?", chat)
        )
        return None if value is None else str(value)

    async def get_match_record(self, match_id: str) -> dict[str, Any] | None:
        """The finished match's record (records.md JSON), None when none is stored."""
        text = await self._query(
            lambda tx: tx.value("SELECT record FROM matches WHERE match_id = ?", match_id)
        )
        return None if text is None else dict(json.loads(text))

    # ------------------------------------------------------------------ money between players
    async def staked_results(self, chat: str) -> list[StakedResult]:
        """Every human's side and result in the chat's settled matches with a stake, in
        the order they finished (the chip-dumping flags' material)."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT r.match_id, r.player_id, r.team, r.won_match, e.stake"
                " FROM match_results r JOIN escrows e ON e.match_id = r.match_id"
                " WHERE r.chat = ? AND e.stake > 0 AND e.state = 'settled'"
                " ORDER BY r.finished_at, r.match_id, r.player_id",
                chat,
            )
        )
        return [StakedResult(str(r[0]), int(r[1]), int(r[2]), bool(r[3]), int(r[4])) for r in rows]
