"""'¿Qué debí jugar?' at a live table (issue 15): the maestro's analysis of the asking
player's decisions in their last finished hand (``engine.robots.analysis``).

Only finished hands are analysed (all tiles are public then, and nothing said can help
anyone in the hand being played); each decision is valued from the player's own view at
that moment. The search runs off the event loop — in a worker process by default, so
tables keep moving — from the match record (plain JSON across the process boundary).

One search per player and hand (issue 27): a press while that search runs is refused
(ANALYSIS_RUNNING: it is on its way); once it is done, a press gets the same analysis
again from the last :data:`KEPT_ANALYSES` kept here, without a new search.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.core.commands import ChatRef, PlayerRef
from bot.core.events import Refused, SeatInfo
from bot.core.projection import ROBOT_NAMES, seat_infos
from bot.core.state import Core
from bot.core.vocabulary import RefusalReason
from engine.match import Match
from engine.records import record_of, replay
from engine.robots.analysis import CLOSE_ENOUGH, HandAnalysis, analyze_hand, analyze_record

__all__ = ["KEPT_ANALYSES", "AnalysisReply", "Analyst", "analyze_in_worker"]

KEPT_ANALYSES = 256
"""How many searches (running or done, one per player and hand) are kept: a repeat
press finds its own among them."""

SearchKey = tuple[tuple[str, str], str, int]  # (player, table, hand index)


@dataclass(frozen=True, slots=True)
class AnalysisReply:
    """The analysis of a player's hand, with the table's seats and label (names)."""

    table_id: str
    label: str
    analysis: HandAnalysis
    seats: tuple[SeatInfo, ...]


def analyze_in_worker(record: dict[str, Any], index: int, seat: int) -> HandAnalysis:
    """The analysis of hand ``index`` for ``seat`` (a worker process runs this)."""
    return analyze_hand(replay(record), index, seat)


def accuracy_in_worker(record: dict[str, Any], seat: int) -> float | None:
    """The share of ``seat``'s real choices over the record's finished hands within
    ``CLOSE_ENOUGH`` of the best (a worker process runs this; issue 33's moderation
    desk); None when the seat had no real choice."""
    hands = analyze_record(record, seats=[seat])
    decisions = [d for h in hands for d in h.decisions]
    if not decisions:
        return None
    return sum(1 for d in decisions if d.cost <= CLOSE_ENOUGH) / len(decisions)


class Analyst:
    """Finds the asking player's last finished hand and has it analysed off the loop.

    Args:
        core: the core's shared state.
        executor: where the search runs; None: a one-worker process pool (spawned on
            first use, so the bot's own start is not slowed).
    """

    def __init__(self, core: Core, executor: Executor | None = None) -> None:
        self.core = core
        self._executor = executor
        self._own: ProcessPoolExecutor | None = None
        self._searches: OrderedDict[SearchKey, asyncio.Future[AnalysisReply]] = OrderedDict()

    def _pool(self) -> Executor:
        if self._executor is not None:
            return self._executor
        if self._own is None:
            context = multiprocessing.get_context("spawn")
            self._own = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self._own

    def close(self) -> None:
        """Stop the worker process, if one was started."""
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None

    async def match_accuracy(self, record: dict[str, Any], seat: int) -> float | None:
        """``seat``'s accuracy over a finished match's record, searched off the loop
        (:func:`accuracy_in_worker`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), accuracy_in_worker, record, seat)

    def start(
        self,
        player: PlayerRef,
        chat: ChatRef | None,
        table_id: str | None,
        hand: int | None = None,
    ) -> asyncio.Future[AnalysisReply]:
        """Find ``player``'s hand number ``hand`` (from 1; None: their last finished one)
        at their table here (``table_id``, else their table in ``chat``, else their only
        one; a table that just ended counts) and start its search off the loop; await the future for the analysis. One search per
        player and hand: when that hand's analysis is already done the future holds it at
        once (no new search). Cancelling the future returned does not stop the search
        (its analysis is kept for the next press).

        Raises:
            Refused: NO_TABLE, TABLE_GONE, NOT_SEATED, NO_FINISHED_HAND (also for a
                ``hand`` not finished there); ANALYSIS_RUNNING while this player's
                search of that hand still runs.
        """
        match, seat, label, seats, found = self._find(player, chat, table_id)
        finished = [i for i, played in enumerate(match.hands) if played.outcome is not None]
        if hand is not None:
            finished = [i for i in finished if i == hand - 1]
        if not finished:
            raise Refused(RefusalReason.NO_FINISHED_HAND, found)
        key: SearchKey = (player.key, found, finished[-1])
        loop = asyncio.get_running_loop()
        kept = self._searches.get(key)
        if kept is not None and not kept.done():
            raise Refused(RefusalReason.ANALYSIS_RUNNING, found)
        if kept is not None and not kept.cancelled() and kept.exception() is None:
            self._searches.move_to_end(key)
            again: asyncio.Future[AnalysisReply] = loop.create_future()
            again.set_result(kept.result())
            return again
        record = record_of(match)
        search = loop.run_in_executor(self._pool(), analyze_in_worker, record, finished[-1], seat)

        async def reply() -> AnalysisReply:
            return AnalysisReply(found, label, await search, seats)

        shared = asyncio.ensure_future(reply())
        shared.add_done_callback(lambda done: self._forget_failed(key, done))
        self._searches[key] = shared
        while len(self._searches) > KEPT_ANALYSES:
            self._searches.popitem(last=False)

        async def wait() -> AnalysisReply:
            return await asyncio.shield(shared)

        return asyncio.ensure_future(wait())

    def _forget_failed(self, key: SearchKey, done: asyncio.Future[AnalysisReply]) -> None:
        """A failed or cancelled search is not kept: the next press starts a new one."""
        failed = done.cancelled() or done.exception() is not None
        if failed and self._searches.get(key) is done:
            del self._searches[key]

    async def analyze(
        self,
        player: PlayerRef,
        chat: ChatRef | None,
        table_id: str | None,
        hand: int | None = None,
    ) -> AnalysisReply:
        """The analysis of ``player``'s decisions in a finished hand (found as
        :meth:`start` finds it).

        Raises:
            Refused: as :meth:`start`.
        """
        return await self.start(player, chat, table_id, hand)

    def _last_ended(self, player: PlayerRef, chat: ChatRef | None) -> str | None:
        """The player's most recently closed table here (its match kept), if any."""
        for table_id in reversed(self.core.ended):
            ended = self.core.ended[table_id]
            if ended.match is None or (chat is not None and ended.chat.key != chat.key):
                continue
            if any(s.player is not None and s.player.key == player.key for s in ended.seats):
                return table_id
        return None

    def _find(
        self, player: PlayerRef, chat: ChatRef | None, table_id: str | None
    ) -> tuple[Match, int, str, tuple[SeatInfo, ...], str]:
        core = self.core
        if table_id is not None and table_id not in core.tables:
            ended = core.ended.get(table_id)
            if ended is None:  # never existed (a forged id), or forgotten: not "it ended"
                raise Refused(RefusalReason.TABLE_GONE, table_id, unknown=1)
            if ended.match is None:
                raise Refused(RefusalReason.TABLE_GONE, table_id)
            seat = next(
                (i for i, s in enumerate(ended.seats) if s.player is not None
                 and s.player.key == player.key),
                None,
            )  # fmt: skip
            if seat is None:
                raise Refused(RefusalReason.NOT_SEATED, table_id)
            names = tuple(
                SeatInfo(seat=i, name=s.player.display_name, player=s.player)
                if s.player is not None
                else SeatInfo(seat=i, name=ROBOT_NAMES[i], is_robot=True)
                for i, s in enumerate(ended.seats)
            )
            return ended.match, seat, "", names, table_id
        try:
            table = core.table_for(player, chat, table_id)
        except Refused as exc:
            if table_id is not None or exc.reason is not RefusalReason.NO_TABLE:
                raise
            last = self._last_ended(player, chat)
            if last is None:
                raise
            return self._find(player, chat, last)
        seat = core.seat_at(table, player)
        if table.match is None:
            raise Refused(RefusalReason.NO_FINISHED_HAND, table.id)
        return table.match, seat, table.label, seat_infos(table), table.id
