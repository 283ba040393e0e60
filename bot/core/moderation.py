"""Mute, report and moderation (issue 33; docs/moderation.md).

:class:`Moderation` applies the commands: a player mutes another (their emotes no
longer reach them on any table: :meth:`Moderation.muted_at` is the one check, read by
the session when an emote is shown), reports another to the chat's admins (the report
keeps the match they shared, and a :class:`~bot.core.events.ReportFiled` event tells the
admins), and the chat's admins dismiss a report, ban a player from the chat's tables
(refused a seat from then on: :meth:`Moderation.refuse_if_banned`, read by the lobby; a
banned player at a live table is replaced by a robot at the end of the hand, by the
session) or lift a ban; every admin action is logged in storage. :meth:`Moderation.desk`
is what the admins read: the open reports with the analysis of the reported player's
moves, the chip-dumping flags (:func:`chip_dumping_flags`), who is banned, the log.

Nothing here punishes by itself: a flag is a line on the admins' list.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.analysis import Analyst
from bot.core.commands import (
    BanPlayer,
    ChatRef,
    DismissReport,
    Mute,
    PlayerRef,
    ReportPlayer,
    SetReportChannel,
    UnbanPlayer,
)
from bot.core.events import (
    AccuracyFlag,
    CollusionFlag,
    ModerationDesk,
    ModerationEntryInfo,
    Refused,
    Reply,
    ReportFiled,
    ReportInfo,
)
from bot.core.state import Core
from bot.core.table import Table
from bot.core.vocabulary import ModerationAction, RefusalReason, ReportReason
from storage.base import (
    DuplicateReportError,
    Report,
    ReportClosedError,
    StakedResult,
    UnknownReportError,
)

__all__ = [
    "ACCURACY_RECENT",
    "FLAG_ACCURACY_DROP",
    "FLAG_ACCURACY_MATCHES",
    "FLAG_LEAST_MATCHES",
    "FLAG_ONE_WAY_SHARE",
    "AccuracyDrop",
    "ChipFlow",
    "Moderation",
    "accuracy_drop_flags",
    "chip_dumping_flags",
]

FLAG_LEAST_MATCHES = 5
"""Staked matches two accounts must have played against each other before the money
between them is judged (fewer is luck; docs/moderation.md, "Flags")."""

FLAG_ONE_WAY_SHARE = 0.8
"""The share of those matches one of them must have lost to the other for the pair to
be flagged: four in five, or more."""

FLAG_ACCURACY_MATCHES = 3
"""Matches a player must have played against one opponent, and without them, before
their accuracy against that opponent is compared with their usual one."""

FLAG_ACCURACY_DROP = 0.25
"""How far below their usual accuracy (the share of choices within a point of the
maestro's best) a player's accuracy against one opponent must fall to be flagged: a
quarter of their choices."""

ACCURACY_RECENT = 12
"""The chat's last settled staked matches whose moves the desk analyses for the
accuracy flags (each is a search, kept once done)."""

SHARED_MATCHES_LOOKED_AT = 20
"""How many of the reporter's last matches in the chat are searched for one shared with
the reported player."""

ANALYSED_REPORTS = 3
"""The desk analyses the moves of the oldest open reports only (each is a search)."""


@dataclass(frozen=True, slots=True)
class ChipFlow:
    """Money flowing one way between two player ids: ``loser`` lost ``lost`` of their
    ``matches`` staked matches against ``winner``, ``dollars`` in stakes."""

    loser: int
    winner: int
    matches: int
    lost: int
    dollars: int


def chip_dumping_flags(results: Sequence[StakedResult]) -> list[ChipFlow]:
    """The pairs of accounts where money keeps flowing one way (docs/moderation.md,
    "Flags"): two players on opposite sides of at least :data:`FLAG_LEAST_MATCHES`
    settled, staked matches, where one lost at least :data:`FLAG_ONE_WAY_SHARE` of them
    to the other. Partners (the same side) are not opponents. Sorted by the dollars that
    flowed, most first, then by ids."""
    by_match: dict[str, list[StakedResult]] = defaultdict(list)
    for result in results:
        by_match[result.match_id].append(result)
    played: dict[tuple[int, int], int] = defaultdict(int)  # (low id, high id) -> matches
    lost: dict[tuple[int, int], int] = defaultdict(int)  # (loser, winner) -> matches
    dollars: dict[tuple[int, int], int] = defaultdict(int)
    for seated in by_match.values():
        for a in seated:
            for b in seated:
                if a.player_id >= b.player_id or a.team == b.team:
                    continue
                played[(a.player_id, b.player_id)] += 1
                if a.won != b.won:
                    down, up = (b, a) if a.won else (a, b)
                    lost[(down.player_id, up.player_id)] += 1
                    dollars[(down.player_id, up.player_id)] += down.stake
    flags = []
    for (loser, winner), count in lost.items():
        matches = played[(min(loser, winner), max(loser, winner))]
        if matches >= FLAG_LEAST_MATCHES and count >= FLAG_ONE_WAY_SHARE * matches:
            flags.append(ChipFlow(loser, winner, matches, count, dollars[(loser, winner)]))
    flags.sort(key=lambda f: (-f.dollars, f.loser, f.winner))
    return flags


@dataclass(frozen=True, slots=True)
class AccuracyDrop:
    """``player`` matched the maestro far worse against ``opponent`` than usual: in
    ``matches`` matches against them, ``against`` of their choices (0..1), ``usual`` in
    their other matches."""

    player: int
    opponent: int
    matches: int
    against: float
    usual: float


def accuracy_drop_flags(
    results: Sequence[StakedResult], accuracy: Mapping[tuple[str, int], float]
) -> list[AccuracyDrop]:
    """The players whose moves match the maestro's far worse against one opponent than
    in their other matches (docs/moderation.md, "Flags"): at least
    :data:`FLAG_ACCURACY_MATCHES` analysed matches against them and as many without,
    and a mean accuracy against them at least :data:`FLAG_ACCURACY_DROP` below the
    other. ``accuracy`` is (match id, player id) -> accuracy, for the matches analysed;
    sorted by the drop, largest first, then by ids."""
    by_match: dict[str, list[StakedResult]] = defaultdict(list)
    for result in results:
        by_match[result.match_id].append(result)
    played: dict[int, set[str]] = defaultdict(set)  # player -> analysed matches
    against: dict[tuple[int, int], set[str]] = defaultdict(set)  # (player, opponent) -> matches
    for match_id, seated in by_match.items():
        for a in seated:
            if (match_id, a.player_id) not in accuracy:
                continue
            played[a.player_id].add(match_id)
            for b in seated:
                if b.team != a.team:
                    against[(a.player_id, b.player_id)].add(match_id)
    flags = []
    for (player, opponent), shared in against.items():
        others = played[player] - shared
        if len(shared) < FLAG_ACCURACY_MATCHES or len(others) < FLAG_ACCURACY_MATCHES:
            continue
        low = sum(accuracy[(m, player)] for m in shared) / len(shared)
        usual = sum(accuracy[(m, player)] for m in others) / len(others)
        if low <= usual - FLAG_ACCURACY_DROP:
            flags.append(AccuracyDrop(player, opponent, len(shared), low, usual))
    flags.sort(key=lambda f: (f.against - f.usual, f.player, f.opponent))
    return flags


def _reason(word: str) -> ReportReason:
    try:
        return ReportReason(word)
    except ValueError:
        reasons = ", ".join(r.value for r in ReportReason)
        raise Refused(RefusalReason.UNKNOWN_REASON, reasons=reasons) from None


def _seat_of(record: dict[str, Any], player_id: int) -> int | None:
    for seat, data in enumerate(record.get("seats") or ()):
        if isinstance(data, dict) and data.get("player") == player_id:
            return seat
    return None


class Moderation:
    """The mute, report and moderation commands and the admins' desk.

    Args:
        core: the core's shared state (storage, clock, the live tables, the outbox).
        analyst: runs the analysis of a reported player's moves off the event loop.
    """

    def __init__(self, core: Core, analyst: Analyst) -> None:
        self.core = core
        self.analyst = analyst
        self._accuracy: dict[tuple[str, int], float | None] = {}  # finished matches: kept
        self._records: dict[str, dict[str, Any]] = {}

    # ------------------------------------------------------------------ mute
    async def mute(self, command: Mute) -> Reply:
        """Mute or unmute ``command.target`` (private: only the reply says it)."""
        if command.player.key == command.target.key:
            raise Refused(RefusalReason.SELF_REPORT)
        me = await self.core.player_id(command.player)
        them = await self.core.player_id(command.target)
        now = self.core.clock.now()
        if command.mute:
            await self.core.storage.mute(me, them, now=now)
        else:
            await self.core.storage.unmute(me, them)
        return Reply()

    async def muted_at(self, table: Table, author: PlayerRef) -> frozenset[tuple[str, str]]:
        """The keys of the players seated at ``table`` who muted ``author`` (the one
        check of a mute: :class:`~bot.core.events.EmoteShown` carries it)."""
        seated = {
            s.player_id: s.player
            for s in table.seats
            if s.player is not None and s.player_id is not None and s.player.key != author.key
        }
        if not seated:
            return frozenset()
        them = await self.core.player_id(author)
        muting = await self.core.storage.muted_by(list(seated), them)
        return frozenset(seated[pid].key for pid in muting if seated[pid] is not None)

    # ------------------------------------------------------------------ report
    async def report(self, command: ReportPlayer) -> Reply:
        """File a report and tell the chat's admins (:class:`ReportFiled`)."""
        if command.player.key == command.target.key:
            raise Refused(RefusalReason.SELF_REPORT)
        reason = _reason(command.reason)
        core, chat = self.core, command.chat
        me = await core.player_id(command.player)
        them = await core.player_id(command.target)
        match_id = await self._shared_match(chat, command.player, command.target, me, them)
        try:
            report = await core.storage.file_report(
                chat.key, me, them, reason.value, match_id, now=core.clock.now()
            )
        except DuplicateReportError:
            raise Refused(
                RefusalReason.ALREADY_REPORTED, name=command.target.display_name
            ) from None
        info = ReportInfo(
            report.id,
            command.player.display_name,
            command.target.display_name,
            reason,
            match_id,
            report.created_at,
        )
        channel = await core.storage.report_channel(chat.key)
        core.outbox.emit_chat(ReportFiled(table_id="", chat=chat, report=info, channel_id=channel))
        return Reply()

    async def _shared_match(
        self, chat: ChatRef, me: PlayerRef, them: PlayerRef, my_id: int, their_id: int
    ) -> str | None:
        """The match the two share: a live table of the chat where both sit, else the
        last finished match of the chat both played (its record's id), else None."""
        for table in self.core.tables.values():
            if table.chat.key != chat.key:
                continue
            keys = {s.player.key for s in table.seats if s.player is not None}
            if me.key in keys and them.key in keys:
                return table.id
        stored = await self.core.storage.match_records(
            player_id=my_id, chat=chat.key, limit=SHARED_MATCHES_LOOKED_AT
        )
        for match in stored:
            if _seat_of(dict(match.record), their_id) is not None:
                return match.match_id
        return None

    # ------------------------------------------------------------------ the admins
    @staticmethod
    def _admin(is_admin: bool) -> None:
        if not is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)

    async def dismiss(self, command: DismissReport) -> Reply:
        """An admin dismisses an open report (logged)."""
        self._admin(command.is_admin)
        admin = await self.core.player_id(command.player)
        try:
            await self.core.storage.dismiss_report(
                command.chat.key, command.report_id, admin, now=self.core.clock.now()
            )
        except UnknownReportError:
            raise Refused(RefusalReason.UNKNOWN_REPORT, number=command.report_id) from None
        except ReportClosedError:
            raise Refused(RefusalReason.REPORT_CLOSED, number=command.report_id) from None
        return Reply()

    async def ban(self, command: BanPlayer) -> Reply:
        """An admin bans a player from the chat's tables (logged; their open reports
        close). At a live table they play on to the end of the hand."""
        self._admin(command.is_admin)
        admin = await self.core.player_id(command.player)
        if command.target is not None:
            target = await self.core.player_id(command.target)
        elif command.report_id is not None:
            target = (await self._report_here(command.chat, command.report_id)).reported_id
        else:
            raise Refused(RefusalReason.UNKNOWN_PLAYER)
        await self._ban(command.chat, target, admin, command.report_id)
        return Reply()

    async def _ban(self, chat: ChatRef, target: int, admin: int, report_id: int | None) -> None:
        try:
            await self.core.storage.ban(
                chat.key, target, admin, now=self.core.clock.now(), report_id=report_id
            )
        except UnknownReportError:
            raise Refused(RefusalReason.UNKNOWN_REPORT, number=report_id or 0) from None
        except ReportClosedError:
            raise Refused(RefusalReason.REPORT_CLOSED, number=report_id or 0) from None

    async def unban(self, command: UnbanPlayer) -> Reply:
        """An admin lifts a ban (logged)."""
        self._admin(command.is_admin)
        admin = await self.core.player_id(command.player)
        target = await self.core.player_id(command.target)
        if not await self.core.storage.unban(
            command.chat.key, target, admin, now=self.core.clock.now()
        ):
            raise Refused(RefusalReason.NOT_BANNED, name=command.target.display_name)
        return Reply()

    async def _report_here(self, chat: ChatRef, report_id: int) -> Report:
        report = await self.core.storage.get_report(report_id)
        if report is None or report.chat != chat.key:
            raise Refused(RefusalReason.UNKNOWN_REPORT, number=report_id)
        if report.state != "open":
            raise Refused(RefusalReason.REPORT_CLOSED, number=report_id)
        return report

    async def set_channel(self, command: SetReportChannel) -> Reply:
        """An admin chooses where the chat's reports are posted."""
        self._admin(command.is_admin)
        await self.core.storage.set_report_channel(command.chat.key, command.channel_id)
        return Reply()

    # ------------------------------------------------------------------ bans at tables
    async def refuse_if_banned(self, chat: ChatRef, player_id: int) -> None:
        """Refuse a seat at ``chat``'s tables to a banned player (``banned``)."""
        if await self.core.storage.banned_among(chat.key, [player_id]):
            raise Refused(RefusalReason.BANNED)

    async def banned_seats(self, table: Table) -> list[int]:
        """The seats of ``table`` whose humans are banned from its chat (and still play)."""
        seats = {s.player_id: i for i, s in enumerate(table.seats) if s.seated}
        ids = [pid for pid in seats if pid is not None]
        banned = await self.core.storage.banned_among(table.chat.key, ids)
        return sorted(seats[pid] for pid in banned)

    # ------------------------------------------------------------------ the desk
    async def desk(self, chat: ChatRef, *, analyse: bool = True) -> ModerationDesk:
        """What the chat's admins read: open reports (the oldest
        :data:`ANALYSED_REPORTS` with the analysis of the reported player's moves in
        the match they name), chip-dumping flags, who is banned, the last actions."""
        storage = self.core.storage
        names: dict[int, str] = {}

        async def name(player_id: int) -> str:
            if player_id not in names:
                player = await storage.get_player(player_id)
                names[player_id] = player.display_name if player else str(player_id)
            return names[player_id]

        reports = []
        for index, report in enumerate(await storage.open_reports(chat.key)):
            accuracy = None
            if analyse and index < ANALYSED_REPORTS and report.match_id is not None:
                accuracy = await self._accuracy_of(report.match_id, report.reported_id)
            reports.append(
                ReportInfo(
                    report.id,
                    await name(report.reporter_id),
                    await name(report.reported_id),
                    ReportReason(report.reason),
                    report.match_id,
                    report.created_at,
                    accuracy,
                )
            )
        staked = await storage.staked_results(chat.key)
        flags = [
            CollusionFlag(await name(f.loser), await name(f.winner), f.matches, f.lost, f.dollars)
            for f in chip_dumping_flags(staked)
        ]
        drops = []
        if analyse:
            for drop in accuracy_drop_flags(staked, await self._recent_accuracy(staked)):
                drops.append(
                    AccuracyFlag(
                        await name(drop.player),
                        await name(drop.opponent),
                        drop.matches,
                        drop.against,
                        drop.usual,
                    )
                )
        banned = [await name(pid) for pid in await storage.banned_players(chat.key)]
        log = [
            ModerationEntryInfo(
                await name(e.admin_id),
                ModerationAction(e.action),
                await name(e.player_id),
                e.report_id,
                e.at,
            )
            for e in await storage.moderation_log(chat.key)
        ]
        return ModerationDesk(tuple(reports), tuple(flags), tuple(banned), tuple(log), tuple(drops))

    async def _recent_accuracy(
        self, staked: Sequence[StakedResult]
    ) -> dict[tuple[str, int], float]:
        """Each human's accuracy in the chat's last :data:`ACCURACY_RECENT` settled
        staked matches (those with a record and a real choice)."""
        recent = list(dict.fromkeys(r.match_id for r in reversed(staked)))[:ACCURACY_RECENT]
        wanted = set(recent)
        out: dict[tuple[str, int], float] = {}
        for result in staked:
            if result.match_id not in wanted:
                continue
            accuracy = await self._accuracy_of(result.match_id, result.player_id)
            if accuracy is not None:
                out[(result.match_id, result.player_id)] = accuracy
        return out

    async def _accuracy_of(self, match_id: str, player_id: int) -> float | None:
        """The share of the player's real choices in the match within a point of the
        maestro's best (``engine.robots.analysis``); None without a record or a choice."""
        key = (match_id, player_id)
        if key in self._accuracy:
            return self._accuracy[key]
        record = self._records.get(match_id)
        if record is None:
            record = await self.core.storage.get_match_record(match_id)
            if record is None:
                return None
            self._records[match_id] = record
        seat = _seat_of(record, player_id)
        if seat is None:
            return None
        accuracy = await self.analyst.match_accuracy(record, seat)
        self._accuracy[key] = accuracy
        return accuracy
