"""Turn timers, forced moves, robots taking over and players coming back."""

from __future__ import annotations

from conftest import RecordingPort, run_table
from test_manager import CHAT, seat_with_robots, wait_for_turn

from bot.core import (
    ComeBack,
    FillWithRobots,
    Leave,
    MatchEnded,
    MovePlayed,
    OpenTable,
    PlayerRef,
    PlayNow,
    PressButton,
    RobotSeat,
    SeatGivenBack,
    SeatTakenByRobot,
    ShowMyTiles,
    TableClosed,
    TurnReminder,
    YourTiles,
)
from engine.rules import find_preset

ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")


async def wait_for_a_choice(manager, clock, table_id, player=ANA, seat=0) -> None:
    """Advance to ``player``'s next turn with more than one legal move; their forced
    turns (a single legal move) run out meanwhile, which never counts as a missed turn."""
    while True:
        await wait_for_turn(manager, clock, table_id, seat)
        tiles = (await manager.handle(ShowMyTiles(player, None, table_id))).events[0]
        if len(tiles.moves) > 1:
            return
        await clock.advance(45)


async def miss_out(manager, clock, table_id, player=ANA, seat=0) -> None:
    """``player`` misses turns (as with a lost connection) until a robot takes the seat."""
    while not manager.table_state(table_id).seats[seat].away:
        await wait_for_a_choice(manager, clock, table_id, player, seat)
        await clock.advance(45)
        await manager.idle()


async def test_when_time_runs_out_a_robot_plays_that_one_move_and_the_player_stays(
    make_manager, clock, recorder: RecordingPort
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    before = manager.match_of(table_id)
    await clock.advance(44.9)
    assert manager.match_of(table_id) is before
    await clock.advance(0.1)
    await manager.idle()
    played = [e for e in recorder.of(MovePlayed, table_id=table_id) if e.seat == 0]
    assert played[-1].by == "timeout"
    assert played[-1].move in before.hand.legal_moves()
    state = manager.table_state(table_id)
    assert not state.seats[0].away and not state.seats[0].is_robot
    assert recorder.of(SeatTakenByRobot) == []


async def test_after_several_missed_turns_a_robot_takes_the_seat(make_manager, clock, recorder):
    manager = make_manager(missed_turns_limit=2, robot_delay=1.0)
    table_id = await seat_with_robots(manager, clock)
    for turn in range(2):
        await wait_for_a_choice(manager, clock, table_id)
        if turn == 0:
            await clock.advance(45)
            assert recorder.of(SeatTakenByRobot) == []
    timed_out_at = clock.now() + 45
    await clock.advance(45)
    await manager.idle()
    taken = recorder.last(SeatTakenByRobot, table_id=table_id)
    assert (taken.seat, taken.player, taken.reason) == (0, ANA, "missed_turns")
    assert taken.back_by == timed_out_at + 300
    state = manager.table_state(table_id)
    assert state.seats[0].away and state.seats[0].is_robot
    # the robot now plays the seat at robot speed, not after the turn timer
    await wait_for_turn(manager, clock, table_id, 0)
    assert manager.table_state(table_id).deadline == clock.now() + 1.0
    await clock.advance(1.0)
    await manager.idle()
    last = [e for e in recorder.of(MovePlayed, table_id=table_id) if e.seat == 0][-1]
    assert last.by == "robot"


async def test_the_forced_move_option_plays_a_single_legal_move_after_its_delay(
    make_manager, clock, recorder
):
    manager = make_manager()
    reply = await manager.handle(
        OpenTable(
            ANA,
            CHAT,
            preset="espanol",
            right=RobotSeat(),
            across=RobotSeat(),
            left=RobotSeat(),
        )
    )
    table_id = reply.table_id
    assert manager.table_state(table_id).rules.forced_move_seconds == 3
    await clock.advance(manager.times.countdown_seconds)
    forced_seen = 0
    while table_id in manager.tables() and forced_seen < 2:
        await wait_for_turn(manager, clock, table_id, 0)
        tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
        assert isinstance(tiles, YourTiles)
        if len(tiles.moves) == 1:
            assert tiles.deadline == clock.now() + 3
            before = manager.match_of(table_id)
            await clock.advance(2.9)
            assert manager.match_of(table_id) is before
            number = len(before.hand.history)
            await clock.advance(0.1)
            await manager.idle()
            last = [e for e in recorder.of(MovePlayed, table_id=table_id) if e.seat == 0][-1]
            assert (last.by, last.move, last.move_number) == (
                "forced",
                tiles.moves[0].move,
                number + 1,
            )
            forced_seen += 1
        else:
            assert tiles.deadline == clock.now() + 45
            assert (await manager.handle(PressButton(ANA, tiles.moves[0].payload))).ok
    assert forced_seen >= 1


async def test_coming_back_within_five_minutes_gives_the_seat_back_with_the_same_tiles(
    make_manager, clock, recorder
):
    manager = make_manager(robot_delay=1.0, missed_turns_limit=1)
    long_match = {"target": 500}  # so that it outlasts the four minutes
    table_id = (
        await manager.handle(
            OpenTable(
                ANA, CHAT, overrides=long_match, right=RobotSeat(), across=BETO, left=RobotSeat()
            )
        )
    ).table_id
    assert (await manager.handle(PlayNow(BETO, CHAT))).ok
    await clock.advance(manager.times.countdown_seconds)
    await miss_out(manager, clock, table_id)  # a dropped connection looks like this
    taken = recorder.last(SeatTakenByRobot, table_id=table_id)
    assert (taken.seat, taken.reason, taken.back_by) == (0, "missed_turns", clock.now() + 300)
    refused = await manager.handle(ShowMyTiles(ANA, None, table_id))
    assert refused.ok  # an away player may still look at their tiles
    await clock.advance(240)  # robots (and Beto's timeouts) play on meanwhile
    assert table_id in manager.tables()
    reply = await manager.handle(ComeBack(ANA, CHAT))
    assert reply.ok and reply.seat == 0
    await manager.idle()
    assert recorder.last(SeatGivenBack, table_id=table_id).player == ANA
    state = manager.table_state(table_id)
    assert not state.seats[0].away
    tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
    assert tiles.view.tiles == manager.match_of(table_id).hand.tiles(0)
    assert (await manager.handle(ComeBack(ANA, CHAT))).refusal.reason == "not_away"


async def test_after_five_minutes_the_seat_stays_with_the_robot_and_the_stake_is_forfeited(
    make_manager, clock, recorder
):
    manager = make_manager(robot_delay=2.0, missed_turns_limit=1)
    long_match = {"target": 500}  # so that it outlasts the five minutes
    table_id = (
        await manager.handle(
            OpenTable(
                ANA, CHAT, overrides=long_match, right=RobotSeat(), across=BETO, left=RobotSeat()
            )
        )
    ).table_id
    await manager.handle(PlayNow(BETO, CHAT))
    await clock.advance(manager.times.countdown_seconds)
    while not manager.table_state(table_id).seats[0].away:  # Ana's connection is lost
        state = manager.table_state(table_id)
        if state.turn == 2:
            tiles = (await manager.handle(ShowMyTiles(BETO, None, table_id))).events[0]
            await manager.handle(PressButton(BETO, tiles.moves[0].payload))
            continue
        await clock.advance(1.0)
    # Beto keeps playing his seat so the table lives on
    beto_presses = 0
    end = clock.now() + 301
    while clock.now() < end and table_id in manager.tables():
        state = manager.table_state(table_id)
        if state.phase == "playing" and state.turn == 2:
            tiles = (await manager.handle(ShowMyTiles(BETO, None, table_id))).events[0]
            await manager.handle(PressButton(BETO, tiles.moves[0].payload))
            beto_presses += 1
            continue
        await clock.advance(min(1.0, end - clock.now()))
    late = await manager.handle(ComeBack(ANA, CHAT, table_id))
    assert late.refusal.reason == "too_late"
    await run_table(manager, clock, table_id, [BETO])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    ana = await manager.player_id(ANA)
    beto = await manager.player_id(BETO)
    assert ana not in ended.payouts_by_player
    assert await manager.balance(ANA) == 990  # forfeited, whatever the result
    assert await manager.balance(BETO) == (1010 if ended.winner_team == 0 else 990)
    assert beto_presses > 0 and beto in ended.balances


async def test_a_lone_human_who_leaves_mid_match_cannot_dodge_the_loss_the_table_ends_unpaid(
    make_manager, clock, recorder
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    assert await manager.balance(ANA) == 990
    reply = await manager.handle(Leave(ANA, None, table_id))
    assert (reply.ok, reply.forfeited) == (True, 10)
    await manager.idle()
    closed = recorder.last(TableClosed, table_id=table_id)
    assert (closed.reason, closed.refunds) == ("no_humans", {})  # leaving never refunds
    assert await manager.balance(ANA) == 990
    assert (await manager.handle(ComeBack(ANA, None, table_id))).refusal.reason == "table_gone"
    assert await manager.storage.check_ledger() == []


async def test_leaving_while_the_partner_is_away_keeps_the_partners_right_to_come_back(
    make_manager, clock, recorder
):
    manager = make_manager(missed_turns_limit=1)
    assert (await manager.handle(PlayNow(ANA, CHAT))).ok
    table_id = (await manager.handle(PlayNow(BETO, CHAT))).table_id
    assert (await manager.handle(FillWithRobots(ANA, CHAT))).ok
    await clock.advance(manager.times.countdown_seconds)
    seats = manager.table_state(table_id).seats
    ana, beto = (next(s.seat for s in seats if s.player == p) for p in (ANA, BETO))
    # Beto's connection is lost: a robot takes his seat after a missed turn
    while not manager.table_state(table_id).seats[beto].away:
        if manager.table_state(table_id).turn == ana:
            tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
            await manager.handle(PressButton(ANA, tiles.moves[0].payload))
            continue
        await clock.advance(1.0)
    assert (await manager.handle(Leave(ANA, CHAT))).ok
    await manager.idle()
    assert table_id in manager.tables()
    assert (await manager.handle(ComeBack(BETO, CHAT))).ok
    assert await manager.balance(BETO) == 990 and await manager.balance(ANA) == 990


async def test_a_lone_player_who_stops_answering_forfeits_after_five_minutes_and_nobody_is_paid(
    make_manager, clock, recorder
):
    manager = make_manager(missed_turns_limit=1, robot_delay=2.0)
    rules = find_preset("venezolano", target=500)  # long enough to outlast five minutes
    table_id = (
        await manager.handle(
            OpenTable(
                ANA,
                CHAT,
                overrides={"target": rules.target},
                right=RobotSeat(),
                across=RobotSeat(),
                left=RobotSeat(),
            )
        )
    ).table_id
    await clock.advance(manager.times.countdown_seconds)
    await miss_out(manager, clock, table_id)
    taken = recorder.last(SeatTakenByRobot, table_id=table_id)
    await clock.advance(taken.back_by - clock.now() - 1)
    assert table_id in manager.tables()
    await clock.advance(1)
    await manager.idle()
    closed = recorder.last(TableClosed, table_id=table_id)
    assert closed.reason == "no_humans" and closed.refunds == {}
    assert await manager.balance(ANA) == 990
    assert await manager.storage.check_ledger() == []


async def test_fill_with_robots_is_only_for_players_of_a_waiting_table(make_manager, clock):
    manager = make_manager()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    assert (
        await manager.handle(FillWithRobots(BETO, CHAT, table_id))
    ).refusal.reason == "not_seated"
    assert (await manager.handle(FillWithRobots(ANA, CHAT, level="genio"))).refusal.reason == (
        "unknown_level"
    )
    assert (await manager.handle(FillWithRobots(ANA, CHAT, level="novato"))).ok
    state = manager.table_state(table_id)
    assert [s.robot_level for s in state.seats[1:]] == ["novato"] * 3
    again = await manager.handle(FillWithRobots(ANA, CHAT))
    assert again.refusal.reason == "already_started"


SLOW = 12 * 3600  # seconds a turn at a slow table


async def slow_table(manager, clock, player=ANA, chat=CHAT) -> str:
    """``player`` opens a slow table (12 hours a turn) with robots; the match starts."""
    robot = RobotSeat()
    reply = await manager.handle(
        OpenTable(
            player, chat, overrides={"turn_seconds": SLOW}, right=robot, across=robot, left=robot
        )
    )
    assert reply.ok, reply.refusal
    await clock.advance(manager.times.countdown_seconds)
    assert manager.table_state(reply.table_id).phase == "playing"
    return reply.table_id


async def test_a_slow_turn_is_reminded_at_half_time_and_missed_turns_never_take_the_seat(
    make_manager, clock, recorder
):
    manager = make_manager(missed_turns_limit=2)
    table_id = await slow_table(manager, clock)
    for _missed in range(3):
        await wait_for_a_choice(manager, clock, table_id)
        started = clock.now()
        assert manager.table_state(table_id).deadline == started + SLOW
        reminders = len(recorder.of(TurnReminder, table_id=table_id))
        await clock.advance(SLOW / 2)
        await manager.idle()
        reminded = recorder.of(TurnReminder, table_id=table_id)
        assert len(reminded) == reminders + 1
        assert (reminded[-1].player, reminded[-1].seat) == (ANA, 0)
        assert (reminded[-1].deadline, reminded[-1].seconds) == (started + SLOW, SLOW // 2)
        await clock.advance(SLOW / 2)
        await manager.idle()
        last = [e for e in recorder.of(MovePlayed, table_id=table_id) if e.seat == 0][-1]
        assert last.by == "timeout"
    assert recorder.of(SeatTakenByRobot) == []  # three missed turns, the limit two
    state = manager.table_state(table_id)
    assert not state.seats[0].away and not state.seats[0].is_robot


async def test_a_move_before_half_time_sends_no_reminder(make_manager, clock, recorder):
    manager = make_manager()
    table_id = await slow_table(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
    await clock.advance(60)
    assert (await manager.handle(PressButton(ANA, tiles.moves[0].payload))).ok
    await clock.advance(SLOW / 2)
    await manager.idle()
    reminded = [e for e in recorder.of(TurnReminder, table_id=table_id) if e.seat == 0]
    assert all(e.deadline != tiles.deadline for e in reminded)


async def test_a_player_sits_at_one_live_table_and_any_number_of_slow_tables_in_a_chat(
    make_manager, clock
):
    manager = make_manager()
    live = await seat_with_robots(manager, clock)
    first = await slow_table(manager, clock)
    second = await slow_table(manager, clock)
    assert sorted(manager.tables_of(ANA)) == sorted([live, first, second])
    again = await manager.handle(PlayNow(ANA, CHAT))  # a second live table: refused
    assert again.refusal is not None and again.refusal.reason == "already_seated"
    assert again.refusal.table_id == live
    # commands without a table mean the live one
    left = await manager.handle(Leave(ANA, CHAT))
    assert left.table_id == live
