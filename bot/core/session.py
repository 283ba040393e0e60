"""A live match: moves, turns, robots, timers, away and return, resume (rules.md, "The
house").

* A move press names the table, hand number and move number; anything stale, repeated,
  foreign or illegal is refused and changes nothing.
* A human has ``rules.turn_seconds`` to move; then a robot plays that one move for them
  and they keep the seat. After ``missed_turns_limit`` such turns in a row a robot takes
  the seat (a dropped connection looks the same); coming back within ``return_seconds``
  (5 minutes) gives it back with the same tiles, later the stake is forfeited
  (:mod:`bot.core.settlement`), and a seat still away when the match ends is not paid.
  A timed-out turn with a single legal move (a forced pass) is no missed turn.
* Leaving a started match on purpose abandons it at once: the stake is forfeited, a
  robot plays the seat to the end and the seat is closed to its player (no coming back).
  When the last human abandons, the match ends there: recorded as played so far and
  lost by that human's team (:meth:`Settlement.abandoned`).
* ``rules.forced_move_seconds`` plays a single legal move for the player after that delay.
* Determinism: hand ``n`` is dealt from ``Random(f"{seed}:deal:{n}")`` and the robot's
  move ``k`` of hand ``n`` uses ``Random(f"{seed}:robot:{n}:{k}")``, so a resumed table
  ends exactly as an uninterrupted one (:mod:`bot.core.resume`).
"""

from __future__ import annotations

import math
import random

from bot.core.commands import ComeBack, Emote, PlayMove, ShowMyTiles
from bot.core.events import (
    EmoteShown,
    HandEnded,
    HandStarted,
    MatchStarted,
    MovePlayed,
    Refused,
    Reply,
    SeatAbandoned,
    SeatGivenBack,
    SeatTakenByRobot,
    TurnReminder,
    TurnStarted,
)
from bot.core.moderation import Moderation
from bot.core.projection import public, seat_infos, table_changed, your_tiles
from bot.core.settlement import Settlement
from bot.core.state import Core
from bot.core.table import Table
from bot.core.timers import Timers
from bot.core.vocabulary import (
    EMOTES,
    AwayReason,
    CloseReason,
    DeadlineKind,
    MovedBy,
    Phase,
    RefusalReason,
)
from engine.errors import DominoError, IllegalMoveError
from engine.match import Match
from engine.moves import Move
from engine.views import seat_view

__all__ = ["Session"]

_MOVES: dict[Move, Move] = {}
"""One shared object per distinct move: a match keeps hundreds in its history."""

ROBOT_DEADLINES = (DeadlineKind.TURN, DeadlineKind.FORCED, DeadlineKind.ROBOT)


class Session:
    """Plays the matches of live tables (each method runs with the table's lock held,
    except the command handlers, which take it)."""

    def __init__(
        self, core: Core, timers: Timers, settlement: Settlement, moderation: Moderation
    ) -> None:
        self.core = core
        self.timers = timers
        self.settlement = settlement
        self.moderation = moderation

    # ------------------------------------------------------------------ commands

    async def play_move(self, command: PlayMove) -> Reply:
        """A human's move press: checked against table, hand, move number and turn."""
        table = self.core.live(command.table_id)
        try:
            move = Move.from_code(command.code, table.rules.tile_set)
        except DominoError:
            raise Refused(RefusalReason.FORGED, table.id) from None
        async with table.lock:
            seat = self.core.seat_at(table, command.player)
            if table.seats[seat].away:
                raise Refused(RefusalReason.ROBOT_PLAYING, table.id)
            match = table.match
            if table.phase is not Phase.PLAYING or match is None:
                raise Refused(RefusalReason.NOT_STARTED, table.id)
            if (
                command.hand_number != table.hand_number
                or command.move_number != table.move_number
                or match.hand.is_over
            ):
                raise Refused(RefusalReason.STALE, table.id)
            if match.hand.turn != seat:
                raise Refused(RefusalReason.NOT_YOUR_TURN, table.id)
            try:
                move = match.hand.resolve(move, seat)
            except IllegalMoveError as exc:
                raise Refused(RefusalReason.ILLEGAL_MOVE, table.id, reason=exc.reason) from None
            except DominoError:
                raise Refused(RefusalReason.ILLEGAL_MOVE, table.id) from None
            table.seats[seat].missed = 0
            await self.play(table, seat, move, MovedBy.PLAYER)
        return Reply(table_id=table.id, label=table.label, seat=seat)

    def _back_seconds(self) -> int:
        """The time to come back (the house's ``return_seconds``), in whole seconds."""
        return round(self.core.times.return_seconds)

    async def come_back(self, command: ComeBack) -> Reply:
        """Take my seat back from the robot within ``return_seconds``, same tiles.

        A seat its player left on purpose is closed to them (``left_match``, with the
        stake forfeited); one whose 5 minutes ran out is refused ``too_late``.
        """
        core = self.core
        try:
            table = core.table_for(command.player, command.chat, command.table_id)
        except Refused as refused:
            abandoned = self._abandoned_table(command)
            if refused.reason is not RefusalReason.NO_TABLE or abandoned is None:
                raise
            table = abandoned
        async with table.lock:
            if table.closed:
                raise Refused(RefusalReason.TABLE_GONE, table.id)
            seat = table.seat_of(command.player.key)
            if seat is None:
                held = [
                    s
                    for s in table.seats
                    if s.player is not None and s.player.key == command.player.key
                ]
                if held and held[0].left:
                    stake = table.stakes.get(held[0].player_id or -1, 0)
                    raise Refused(RefusalReason.LEFT_MATCH, table.id, stake=stake)
                if held:
                    raise Refused(RefusalReason.TOO_LATE, table.id, seconds=self._back_seconds())
                raise Refused(RefusalReason.NOT_SEATED, table.id)
            state = table.seats[seat]
            if not state.away:
                raise Refused(RefusalReason.NOT_AWAY, table.id)
            if state.back_by is not None and core.clock.now() > state.back_by:
                raise Refused(RefusalReason.TOO_LATE, table.id, seconds=self._back_seconds())
            state.away = False
            state.back_by = None
            state.missed = 0
            state.player = command.player
            self.timers.disarm_away(table, seat)
            core.emit(
                table,
                SeatGivenBack(table_id=table.id, chat=table.chat, seat=seat, player=command.player),
            )
            match = table.match
            if match is not None and not match.hand.is_over:
                if match.hand.turn == seat:
                    self.begin_turn(table, send_tiles=True)
                else:
                    core.emit(table, your_tiles(table, seat))
            core.emit(table, table_changed(table, core.clock.now()))
            await core.save(table)
        return Reply(table_id=table.id, label=table.label, seat=seat)

    def _abandoned_table(self, command: ComeBack) -> Table | None:
        """The live table of this chat (or the only one) whose seat the player abandoned."""
        key = command.player.key
        mine = [
            t
            for t in self.core.tables.values()
            if (command.chat is None or t.chat.key == command.chat.key)
            and any(s.forfeited and s.player is not None and s.player.key == key for s in t.seats)
        ]
        return mine[0] if len(mine) == 1 else None

    async def emote(self, command: Emote) -> Reply:
        """Show an emote at my table, at most one every ``emote_seconds`` per player."""
        core = self.core
        if command.name not in EMOTES:
            raise Refused(RefusalReason.UNKNOWN_EMOTE, emotes=", ".join(EMOTES))
        table = core.table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            seat = core.seat_at(table, command.player)
            now = core.clock.now()
            last = core.last_emote.get(command.player.key)
            wait = core.times.emote_seconds
            if last is not None and now - last < wait:
                seconds = max(1, math.ceil(wait - (now - last)))
                raise Refused(RefusalReason.EMOTE_TOO_SOON, table.id, wait_seconds=seconds)
            core.last_emote[command.player.key] = now
            muted_by = await self.moderation.muted_at(table, command.player)
            core.emit(
                table,
                EmoteShown(
                    table_id=table.id,
                    chat=table.chat,
                    seat=seat,
                    player=command.player,
                    name=command.name,
                    muted_by=muted_by,
                ),
            )
        return Reply(table_id=table.id, label=table.label, seat=seat)

    async def show_tiles(self, command: ShowMyTiles) -> Reply:
        """My tiles again, in the reply only."""
        table = self.core.table_for(command.player, command.chat, command.table_id)
        async with table.lock:
            seat = self.core.seat_at(table, command.player)
            if table.match is None:
                raise Refused(RefusalReason.NOT_STARTED, table.id)
            tiles = your_tiles(table, seat, to=command.player)
        return Reply(table_id=table.id, label=table.label, seat=seat, events=(tiles,))

    # ------------------------------------------------------------------ the game

    async def start_match(self, table: Table) -> None:
        """The countdown ended: take the stakes and deal the first hand."""
        core = self.core
        if not await self.settlement.take_stakes(table):
            if not table.humans():
                await self.settlement.close(table, CloseReason.EMPTY)
                return
            table.phase = Phase.WAITING
            self.timers.arm(table, core.clock.now() + core.times.fill_seconds, DeadlineKind.FILL)
            core.emit(table, table_changed(table, core.clock.now()))
            await core.save(table)
            return
        table.phase = Phase.PLAYING
        table.moved_at = core.clock.now()
        table.match = Match.new(table.rules, random.Random(f"{table.seed}:deal:1"))
        core.emit(
            table,
            MatchStarted(
                table_id=table.id,
                chat=table.chat,
                seats=seat_infos(table),
                rules=table.rules,
                stakes=dict(table.stakes),
            ),
        )
        self._deal_announce(table)
        core.emit(table, table_changed(table, core.clock.now()))
        await core.save(table)

    async def next_hand(self, table: Table) -> None:
        """Deal the next hand; a player the chat's admins banned meanwhile leaves first,
        their stake forfeited and a robot in their seat (issue 33; docs/moderation.md)."""
        for seat in await self.moderation.banned_seats(table):
            await self.abandon(table, seat, AwayReason.BANNED)
            if table.closed:  # they were the last human: the match ended there
                return
        match = table.match
        assert match is not None
        rng = random.Random(f"{table.seed}:deal:{match.hand_number + 1}")
        table.match = match.next_hand(rng)
        self._deal_announce(table)
        self.core.emit(table, table_changed(table, self.core.clock.now()))
        await self.core.save(table)

    def _deal_announce(self, table: Table) -> None:
        match = table.match
        assert match is not None
        self.core.emit(
            table,
            HandStarted(
                table_id=table.id,
                chat=table.chat,
                hand_number=match.hand_number,
                starter=match.hand.starter,
                view=public(table),
            ),
        )
        self.send_hands_but_the_turns(table)
        self.begin_turn(table, send_tiles=True)

    async def play(self, table: Table, seat: int, move: Move, by: MovedBy) -> None:
        """Apply a legal move, tell everyone, arm what comes next."""
        core = self.core
        match = table.match
        assert match is not None
        number = table.move_number
        move = _MOVES.setdefault(move, move)
        table.match = match = match.apply(move, seat)
        table.moved_at = core.clock.now()
        state = table.seats[seat]
        state.moves += 1
        if state.player is not None and by in (MovedBy.ROBOT, MovedBy.TIMEOUT):
            state.robot_moves += 1
        core.emit(
            table,
            MovePlayed(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                move=move,
                by=by,
                hand_number=match.hand_number,
                move_number=number,
                view=public(table),
            ),
        )
        if table.seats[seat].present and not match.hand.is_over and not move.draw:
            # after a draw the turn stays with the seat: its tiles come with the turn
            core.emit(table, your_tiles(table, seat))
        if match.hand.is_over:
            outcome = match.hand.outcome
            assert outcome is not None
            points = [0] * table.rules.sides
            if outcome.winner_team is not None:
                points[outcome.winner_team] = outcome.points
            core.emit(
                table,
                HandEnded(
                    table_id=table.id,
                    chat=table.chat,
                    hand_number=match.hand_number,
                    outcome=outcome,
                    hand_points=tuple(points),  # type: ignore[arg-type]  # one per side
                    score=match.score,
                    view=public(table),
                    hands=tuple(match.hand.tiles(s) for s in range(match.hand.players)),
                ),
            )
            if match.is_over:
                await self.settlement.finish(table)
                return
            self.timers.arm(table, core.clock.now() + core.times.hand_pause, DeadlineKind.NEXT_HAND)
        else:
            self.begin_turn(table, send_tiles=True, after_draw=move.draw)
        core.emit(table, table_changed(table, core.clock.now()))
        await core.save(table)

    def begin_turn(self, table: Table, *, send_tiles: bool, after_draw: bool = False) -> None:
        """Arm the timer of the seat to move and announce the turn (``after_draw``: the
        seat drew and moves again; its tiles name the tile drawn)."""
        core = self.core
        match = table.match
        assert match is not None
        seat = match.hand.turn
        state = table.seats[seat]
        now = core.clock.now()
        rules = table.rules
        if state.robot_plays:
            deadline, kind = now + core.times.robot_delay, DeadlineKind.ROBOT
        elif rules.forced_move_seconds is not None and len(match.hand.legal_moves()) == 1:
            deadline, kind = now + rules.forced_move_seconds, DeadlineKind.FORCED
        else:
            deadline, kind = now + rules.turn_seconds, DeadlineKind.TURN
        self.timers.arm(table, deadline, kind)
        if kind is DeadlineKind.TURN and rules.is_slow and state.present:
            # a slow table reminds the player when half the time is gone
            self.timers.arm_reminder(table, now + rules.turn_seconds / 2)
        self.announce_turn(table, deadline)
        if send_tiles and state.present:
            core.emit(table, your_tiles(table, seat, after_draw=after_draw))

    async def remind(self, table: Table) -> None:
        """A slow table's turn is half gone: its player is reminded (``TurnReminder``)."""
        async with table.lock:
            match, deadline = table.match, table.deadline
            if table.closed or match is None or match.hand.is_over or deadline is None:
                return
            seat = match.hand.turn
            state = table.seats[seat]
            if not state.present or state.player is None:
                return
            now = self.core.clock.now()
            self.core.emit(
                table,
                TurnReminder(
                    table_id=table.id,
                    chat=table.chat,
                    label=table.label,
                    seat=seat,
                    player=state.player,
                    deadline=deadline,
                    seconds=max(0, round(deadline - now)),
                ),
            )
            await self.core.save(table)

    def announce_turn(self, table: Table, deadline: float) -> None:
        match = table.match
        assert match is not None
        seat = match.hand.turn
        state = table.seats[seat]
        self.core.emit(
            table,
            TurnStarted(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                player=state.player if state.present else None,
                deadline=deadline,
                seconds=max(0, round(deadline - self.core.clock.now())),
                hand_number=table.hand_number,
                move_number=table.move_number,
            ),
        )

    async def auto_move(self, table: Table) -> None:
        """A robot moves: its own seat, a human's only legal move, or a timed-out turn
        (the deadline kind was cleared by the timer; the seat tells which)."""
        await self._auto_move(table, DeadlineKind.ROBOT)

    async def turn_timed_out(self, table: Table) -> None:
        await self._auto_move(table, DeadlineKind.TURN)

    async def forced_move(self, table: Table) -> None:
        await self._auto_move(table, DeadlineKind.FORCED)

    async def _auto_move(self, table: Table, kind: DeadlineKind) -> None:
        match = table.match
        if match is None or match.hand.is_over:
            return
        seat = match.hand.turn
        state = table.seats[seat]
        if kind is DeadlineKind.FORCED and state.present:
            await self.play(table, seat, match.hand.legal_moves()[0], MovedBy.FORCED)
            return
        move = self._robot_move(table, seat)
        if kind is DeadlineKind.TURN and state.present:
            if len(match.hand.legal_moves()) > 1:
                # a forced move (a pass when no tile fits) asks no choice of the player:
                # it neither counts as a missed turn nor clears the count
                state.missed += 1
            # a slow table never takes a player out for missed turns (rules.md)
            if state.missed >= self.core.times.missed_turns_limit and not table.rules.is_slow:
                self.go_away(table, seat, AwayReason.MISSED_TURNS)
            await self.play(table, seat, move, MovedBy.TIMEOUT)
            return
        await self.play(table, seat, move, MovedBy.ROBOT)

    def _robot_move(self, table: Table, seat: int) -> Move:
        match = table.match
        assert match is not None
        state = table.seats[seat]
        level = (
            state.robot_level if state.player is None and state.robot_level else table.robot_level
        )
        rng = random.Random(f"{table.seed}:robot:{table.hand_number}:{table.move_number}")
        return self.core.robot(level).choose(seat_view(match, seat), rng)

    # ------------------------------------------------------------------ away and back

    def go_away(self, table: Table, seat: int, reason: AwayReason) -> None:
        """A robot plays for the human at ``seat`` until they come back (or time runs out)."""
        core = self.core
        state = table.seats[seat]
        player = state.player
        assert player is not None
        state.away = True
        state.back_by = core.clock.now() + core.times.return_seconds
        self.timers.arm_away(table, seat)
        core.emit(
            table,
            SeatTakenByRobot(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                player=player,
                reason=reason,
                back_by=state.back_by,
                seconds=round(core.times.return_seconds),
            ),
        )

    async def after_away(self, table: Table, seat: int) -> None:
        """Hand the turn to the robot if it was the away seat's."""
        match = table.match
        if match is not None and not match.hand.is_over and match.hand.turn == seat:
            self.begin_turn(table, send_tiles=False)
        self.core.emit(table, table_changed(table, self.core.clock.now()))
        await self.core.save(table)

    async def away_expired(self, table: Table, seat: int) -> None:
        """Seat ``seat``'s time to come back ran out: the human abandoned."""
        async with table.lock:
            state = table.seats[seat]
            if table.closed or not state.away or state.forfeited:
                return
            if state.back_by is not None and self.core.clock.now() < state.back_by:
                return
            table.away_timers.pop(seat, None)
            await self.abandon(table, seat, AwayReason.MISSED_TURNS)

    async def abandon(self, table: Table, seat: int, reason: AwayReason) -> int:
        """The human at ``seat`` abandoned (``reason``: left on purpose, or not back
        within the 5 minutes): their stake is forfeited now and the seat is closed to
        them; when no human is left entitled to the pot, the table ends, nobody is
        paid and the match counts as lost by this seat's team. Returns the dollars
        forfeited."""
        core = self.core
        state = table.seats[seat]
        player = state.player
        assert player is not None
        was_away = state.away
        stake = await self.settlement.forfeit(table, seat)
        state.left = reason is AwayReason.LEFT
        last = not table.humans()
        core.emit(
            table,
            SeatAbandoned(
                table_id=table.id,
                chat=table.chat,
                seat=seat,
                player=player,
                reason=reason,
                stake=stake,
                last=last,
            ),
        )
        if last:  # the match ends, lost by this seat's team (rules.md, "The house")
            await self.settlement.abandoned(table, seat)
            return stake
        if not was_away:
            await self.after_away(table, seat)  # the robot takes the turn if it was theirs
            return stake
        core.emit(table, table_changed(table, core.clock.now()))
        await core.save(table)
        return stake

    # ------------------------------------------------------------------ hands

    def send_hands_but_the_turns(self, table: Table) -> None:
        """Send each present human their tiles, except the seat to move (whose tiles
        come with its turn)."""
        match = table.match
        assert match is not None
        for index in table.present_humans():
            if index != match.hand.turn:
                self.core.emit(table, your_tiles(table, index))
