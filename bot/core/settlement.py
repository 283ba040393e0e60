"""Money at a table: the funds check, the stakes, forfeits, the finish and cancellation
(rules.md, "The house"; design.md, rule 5). Every money rule of the core is here; the
ledger itself (escrow, payouts, idempotency) is the storage's.

* Sitting down needs the stake (the due top-up first); the countdown's end takes every
  human's stake into the match's escrow in one storage transaction.
* A human who abandons a started match forfeits their stake at that moment (leaving on
  purpose, or not coming back within the 5 minutes); whoever is left plays on for the
  pot, robots included. A table where every human abandoned ends, unpaid, and its
  match is recorded as played so far, lost by the team of the last human who
  abandoned it (rules.md, "The house"; ratings.md).
* The winners are paid :func:`winner_share` stakes when the match ends: twice the stake
  with partners, the stake times the seats in individual play (rules.md, "Money in the
  formats"); robots are never paid (the house pays their part of the pot), nor is a
  seat a robot still plays for its human when the match ends (their stake is forfeited
  then: only a player who came back before the end is paid).
* Only a cancelled match refunds (the bot's own fault, never a player's leaving).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from bot.core.events import MatchEnded, PlayerUnseated, Refused, TableClosed
from bot.core.projection import public, seat_infos
from bot.core.state import Core
from bot.core.table import Seat, Table
from bot.core.timers import Timers
from bot.core.vocabulary import REFUNDING_CLOSES, CloseReason, Phase, RefusalReason
from engine.hand import Termination
from engine.match import Match
from engine.records import record_of
from engine.rules import Rules
from storage.base import (
    InsufficientFunds,
    MatchClosedError,
    NotInMatchError,
    PlayerResult,
    UnknownMatchError,
)

__all__ = ["Settlement", "abandoned_winner", "winner_share"]

log = logging.getLogger("bot.core")


class Settlement:
    """The money rules of the core, applied to live tables (their lock held)."""

    def __init__(self, core: Core, timers: Timers) -> None:
        self.core = core
        self.timers = timers

    async def check_funds(self, player_id: int, stake: int, table_id: str) -> None:
        """Make sure a player can pay ``stake`` dollars (topping them up if due).

        Raises:
            Refused: INSUFFICIENT_FUNDS (params balance, stake).
        """
        if stake <= 0:
            return
        storage, now = self.core.storage, self.core.clock.now()
        balance = await storage.balance(player_id)
        if balance < stake:
            balance += await storage.top_up(player_id, now=now, stake=stake)
        if balance < stake:
            raise Refused(RefusalReason.INSUFFICIENT_FUNDS, table_id, balance=balance, stake=stake)

    async def take_stakes(self, table: Table) -> bool:
        """Take every human's stake into the match's escrow, all or none.

        Humans who cannot pay are told and unseated (their due top-up still applies);
        False then, and nothing was taken.
        """
        core = self.core
        humans = table.humans()
        for index in humans:  # linked or unlinked in another process since they sat?
            state = table.seats[index]
            if state.player is not None:
                state.player_id = await core.player_id(state.player, fresh=True)
        player_ids = [pid for i in humans if (pid := table.seats[i].player_id) is not None]
        stake = table.rules.stake
        if not player_ids:
            table.stakes = {}
            return True  # robots never pay: no escrow to leave open (issue 13, item 8)
        try:
            await core.storage.stake(
                table.id, player_ids, stake, now=core.clock.now(), fence=core.fence(table)
            )
        except InsufficientFunds as exc:
            for index in humans:
                state = table.seats[index]
                if state.player_id in exc.player_ids and state.player is not None:
                    player = state.player
                    await core.storage.top_up(state.player_id, now=core.clock.now(), stake=stake)
                    balance = await core.storage.balance(state.player_id)
                    table.seats[index] = Seat()
                    refused = Refused(
                        RefusalReason.INSUFFICIENT_FUNDS, table.id, balance=balance, stake=stake
                    )
                    core.emit(table, refused.refusal(player))
                    core.emit(
                        table,
                        PlayerUnseated(
                            table_id=table.id, chat=table.chat, seat=index, player=player
                        ),
                    )
            return False
        table.stakes = {pid: stake for pid in player_ids}
        return True

    async def forfeit(self, table: Table, seat: int) -> int:
        """The human at ``seat`` abandoned: their stake goes to the house at once (the
        storage's ``forfeit``: escrow -> house, one ledger transaction) and the seat is
        never paid nor refunded. Returns the dollars forfeited (0 without a stake)."""
        state = table.seats[seat]
        stake = table.stakes.get(state.player_id, 0) if state.player_id is not None else 0
        if state.player_id is not None:
            with contextlib.suppress(UnknownMatchError, NotInMatchError, MatchClosedError):
                await self.core.storage.forfeit(
                    table.id,
                    state.player_id,
                    now=self.core.clock.now(),
                    fence=self.core.fence(table),
                )
        state.forfeited = True
        state.away = True
        state.back_by = None
        self.timers.disarm_away(table, seat)
        return stake

    async def finish(self, table: Table) -> None:
        """Settle and record a finished match, then close the table.

        Idempotent: a restart after a crash in here settles and records again, which
        storage ignores (rules.md, "The house"; design.md, rule 5).
        """
        core = self.core
        match = table.match
        assert match is not None and match.winner_team is not None
        now = core.clock.now()
        winner_team = match.winner_team
        self.timers.disarm(table)
        for index, state in enumerate(table.seats):
            if state.seated and state.away:
                # a robot still plays for them: only a player back before the end is paid
                await self.forfeit(table, index)
        rules = table.rules
        winners = [
            i
            for i in table.humans()
            if rules.side_of(i) == winner_team and table.seats[i].player_id
        ]
        winner_ids = [pid for i in winners if (pid := table.seats[i].player_id) is not None]
        record = record_of(
            match,
            seats=[seat_record(state, table.robot_level) for state in table.seats],
            score=list(match.score),
            winner_team=winner_team,
        )
        try:
            settled = await core.storage.finish_match(
                table.id,
                table.chat.key,
                winners=winner_ids,
                record=record,
                results=player_results(table, match),
                now=now,
                fence=core.fence(table),
                share=winner_share(rules),
            )
            payouts_by_player, balances = settled.payouts, settled.balances
        except MatchClosedError as exc:
            log.error("table %s: settlement failed: %s", table.id, exc)
            payouts_by_player, balances = {}, {}
        payouts = {
            i: payouts_by_player.get(table.seats[i].player_id or -1, 0)
            for i in range(len(table.seats))
            if table.seats[i].player_id in payouts_by_player
        }
        table.phase = Phase.ENDED
        core.emit(
            table,
            MatchEnded(
                table_id=table.id,
                chat=table.chat,
                winner_team=winner_team,
                score=match.score,
                winners=tuple(p for i in winners if (p := table.seats[i].player) is not None),
                payouts=payouts,
                payouts_by_player=payouts_by_player,
                balances=balances,
                record=record,
                view=public(table),
                seats=seat_infos(table),
            ),
        )
        core.matches_finished += 1
        await self.close(table, CloseReason.FINISHED, winner_team)

    async def abandoned(self, table: Table, seat: int) -> None:
        """The last human, at ``seat``, abandoned a started match: record it and close
        the table (rules.md, "The house").

        The match ends there, nobody is paid (every stake was forfeited): it is stored
        as played so far (an unfinished record with ``abandoned_by``, records.md, "What
        the bot adds") and counts as lost by ``seat``'s team, in the statistics and the
        ratings of every human who sat in it (:func:`abandoned_winner` names the
        winning side the record needs). The escrow closes unpaid in the same
        storage transaction (``finish_match`` with no winners); idempotent like
        :meth:`finish`.
        """
        core = self.core
        match = table.match
        winner_team: int | None = None
        if match is not None and not match.is_over:
            winner_team = abandoned_winner(match, seat)
            record = record_of(
                match,
                seats=[seat_record(state, table.robot_level) for state in table.seats],
                score=list(match.score),
                winner_team=winner_team,
                abandoned_by=seat,
            )
            try:
                await core.storage.finish_match(
                    table.id,
                    table.chat.key,
                    winners=[],
                    record=record,
                    results=player_results(table, match, winner_team),
                    now=core.clock.now(),
                    fence=core.fence(table),
                )
            except MatchClosedError as exc:
                log.error("table %s: recording the abandoned match failed: %s", table.id, exc)
        await self.close(table, CloseReason.NO_HUMANS, winner_team)

    async def close(self, table: Table, reason: CloseReason, winner: int | None = None) -> None:
        """Close a table: refund a called-off match (:data:`REFUNDING_CLOSES`), drop its
        snapshot, remember it, and tell :attr:`Core.closed_hooks` (``winner``: the side
        that won the match, when it ended with one)."""
        core = self.core
        refunds: dict[int, int] = {}
        if reason in REFUNDING_CLOSES and table.stakes:
            try:
                refunds = await core.storage.refund(
                    table.id, now=core.clock.now(), fence=core.fence(table)
                )
            except (UnknownMatchError, MatchClosedError) as exc:
                log.error("table %s: refund failed: %s", table.id, exc)
        elif reason is CloseReason.NO_HUMANS and table.stakes:
            # every human abandoned: their stakes were forfeited; the pot closes unpaid
            try:
                await core.storage.settle(
                    table.id, [], now=core.clock.now(), fence=core.fence(table)
                )
            except (UnknownMatchError, MatchClosedError) as exc:
                log.error("table %s: closing the pot failed: %s", table.id, exc)
        self.timers.disarm_all(table)
        table.closed = True
        table.phase = Phase.ENDED
        core.emit(
            table,
            TableClosed(
                table_id=table.id,
                chat=table.chat,
                reason=reason,
                refunds=refunds,
                humans=tuple(p for s in table.seats if (p := s.player) is not None),
                label=table.label,
                tournament=table.tournament is not None,
            ),
        )
        core.forget(table)
        for hook in core.closed_hooks:
            hook(table, reason, winner)
        await core.storage.delete_table(table.id, fence=core.fence(table))


def winner_share(rules: Rules) -> int:
    """How many stakes each paid winner receives (rules.md, "The house" and "Money in
    the formats"): 2 with partners (the pot of a table of four humans shared by the two
    winners), ``rules.players`` in individual play (a pot of one stake per seat). The
    house pays the part of the pot robots would have staked."""
    return 2 if rules.partnership else rules.players


def abandoned_winner(match: Match, seat: int) -> int:
    """The side a match every human abandoned is recorded as won by, the last human
    having left from ``seat`` (rules.md, "The house"): the other partnership; in
    individual play the other seat with the most points (the lowest seat among
    equals)."""
    rules = match.rules
    mine = rules.side_of(seat)
    if rules.partnership:
        return 1 - mine
    others = [side for side in range(rules.sides) if side != mine]
    return max(others, key=lambda side: (match.score[side], -side))


def seat_record(state: Seat, robot_level: str) -> dict[str, Any]:
    """A seat as the finished match's record keeps it (records.md, "What the bot adds"):
    the human's player id or the robot's level, and who made its moves."""
    if state.player is not None and state.player_id is not None:
        return {"player": state.player_id, "moves": state.moves, "robot_moves": state.robot_moves}
    return {"robot": state.robot_level or robot_level, "moves": state.moves}


def player_results(
    table: Table, match: Match, winner_team: int | None = None
) -> list[PlayerResult]:
    """Each seated human's statistics of a finished match (for the storage's record);
    ``winner_team`` is the match's winner (default: the finished match's), given for a
    match every human abandoned (:meth:`Settlement.abandoned`)."""
    results = []
    outcomes = match.outcomes
    winner = match.winner_team if winner_team is None else winner_team
    for index, state in enumerate(table.seats):
        if state.player is None or state.player_id is None:
            continue
        team = match.rules.side_of(index)  # a partnership, or the seat in individual play
        results.append(
            PlayerResult(
                player_id=state.player_id,
                team=team,
                won_match=winner == team,
                hands_won=sum(1 for o in outcomes if o.winner_team == team),
                dominoes=sum(
                    1 for o in outcomes if o.end is Termination.DOMINO and o.winner_seat == index
                ),
                trancas_won=sum(
                    1 for o in outcomes if o.end is Termination.BLOCKED and o.winner_team == team
                ),
                capicuas=sum(1 for o in outcomes if o.capicua and o.winner_seat == index),
            )
        )
    return results
