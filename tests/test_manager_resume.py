"""Snapshots and restarts: a crash mid-hand ends exactly like an uninterrupted run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import RecordingPort, run_table
from test_manager import BETO, CHAT, my_tiles, seat_with_robots
from test_manager_timers import miss_out

from bot.core import (
    ChatRef,
    ComeBack,
    FillWithRobots,
    Leave,
    MatchEnded,
    OpenTable,
    PlayerRef,
    PlayNow,
    PressButton,
    RobotSeat,
    TableManager,
    TurnReminder,
    TurnStarted,
    YourTiles,
)
from bot.core.clock import ManualClock
from bot.core.table import Table
from storage.sqlite import SqliteStorage

ANA = PlayerRef("test", "1", "Ana")
START = 1_800_000_000.0


def build(storage, clock, port) -> TableManager:
    manager = TableManager(
        storage, clock=clock, seed=42, robot_delay=1.0, hand_pause=3.0, robot_level="aprendiz"
    )
    manager.register("*", port)
    return manager


def middle_of_hand(manager: TableManager, table_id: str, hand: int, moves: int):
    def reached() -> bool:
        match = manager.match_of(table_id)
        return (
            match is not None
            and match.hand_number == hand
            and len(match.hand.history) >= moves
            and not match.hand.is_over
        )

    return reached


async def play_through(storage_factory, crash_at=None, seat=None):
    """One match of Ana and three robots (or the table ``seat(manager, clock)`` opens);
    ``crash_at(manager, table_id)`` says when to drop the manager on the floor (no
    stop()) and start a new one on the same storage."""
    storage = await storage_factory()
    clock = ManualClock(START)
    port = RecordingPort()
    manager = build(storage, clock, port)
    await manager.start()
    table_id = await (seat or seat_with_robots)(manager, clock)
    crashed = False
    if crash_at is not None:
        await run_table(manager, clock, table_id, [ANA], until=lambda: crash_at(manager, table_id))
        assert table_id in manager.tables(), "the match ended before the crash point"
        # the crash: the old manager and its timers vanish without stop()
        storage = await storage_factory(reopen=storage)
        clock = ManualClock(clock.now())
        port = RecordingPort()
        manager = build(storage, clock, port)
        await manager.start()
        assert manager.tables() == [table_id]
        crashed = True
    await run_table(manager, clock, table_id, [ANA])
    await manager.idle()
    ended = port.last(MatchEnded, table_id=table_id)
    balance = await manager.balance(ANA)
    problems = await storage.check_ledger()
    await storage.close()
    return ended, balance, problems, crashed, clock.now()


def sqlite_factory(path: Path):
    async def factory(reopen=None):
        if reopen is not None:
            await reopen.close()  # the process died; the file stays
        return await SqliteStorage.open(path)

    return factory


@pytest.mark.parametrize(("hand", "moves"), [(1, 5), (2, 0), (2, 11)])
async def test_a_crash_mid_hand_and_a_restart_end_like_an_uninterrupted_match(
    tmp_path, hand, moves
):
    plain = await play_through(sqlite_factory(tmp_path / "plain.db"))
    resumed = await play_through(
        sqlite_factory(tmp_path / "crash.db"),
        crash_at=lambda m, t: middle_of_hand(m, t, hand, moves)(),
    )
    ended_a, balance_a, problems_a, _, time_a = plain
    ended_b, balance_b, problems_b, crashed, time_b = resumed
    assert crashed
    assert ended_b.record == ended_a.record
    assert ended_b.score == ended_a.score
    assert (balance_b, ended_b.payouts) == (balance_a, ended_a.payouts)
    assert time_b == time_a  # even the timers fired at the same moments
    assert problems_a == problems_b == []


async def one_against_one(manager: TableManager, clock: ManualClock) -> str:
    """Ana against a robot, drawing from the boneyard (the ``uno-contra-uno`` format)."""
    robot = RobotSeat("aprendiz")
    reply = await manager.handle(
        OpenTable(ANA, CHAT, preset="uno-contra-uno", right=robot, formats=True)
    )
    assert reply.table_id is not None
    return reply.table_id


@pytest.mark.parametrize(("hand", "moves"), [(1, 7), (2, 3)])
async def test_a_crash_mid_hand_of_a_format_and_a_restart_end_like_an_uninterrupted_match(
    tmp_path, hand, moves
):
    plain = await play_through(sqlite_factory(tmp_path / "plain.db"), seat=one_against_one)
    resumed = await play_through(
        sqlite_factory(tmp_path / "crash.db"),
        crash_at=lambda m, t: middle_of_hand(m, t, hand, moves)(),
        seat=one_against_one,
    )
    ended_a, balance_a, problems_a, _, time_a = plain
    ended_b, balance_b, problems_b, crashed, time_b = resumed
    assert crashed
    assert len(ended_b.seats) == 2
    assert any(m.startswith("draw ") for h in ended_b.record["hands"] for m in h["moves"])
    assert ended_b.record == ended_a.record
    assert (balance_b, ended_b.payouts) == (balance_a, ended_a.payouts)
    assert time_b == time_a
    assert problems_a == problems_b == []


async def test_a_restart_during_the_countdown_and_between_hands_carries_on(
    memory_storage, recorder
):
    clock = ManualClock(START)
    manager = build(memory_storage, clock, recorder)
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    await clock.advance(120)  # filled with robots: the countdown runs
    assert manager.table_state(table_id).phase == "countdown"
    await manager.stop()
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    await clock.advance(manager.times.countdown_seconds)
    assert manager.table_state(table_id).phase == "playing"
    # run to the end of the first hand, then restart in the pause before the next deal
    await run_table(
        manager, clock, table_id, [ANA], until=lambda: manager.match_of(table_id).hand.is_over
    )
    await manager.stop()
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    state = manager.table_state(table_id)
    assert state.phase == "playing" and state.hand_number == 1
    await clock.advance(3.0)
    assert manager.match_of(table_id).hand_number == 2
    await run_table(manager, clock, table_id, [ANA])
    await manager.idle()
    assert recorder.last(MatchEnded, table_id=table_id).record["hands"]


async def test_a_snapshot_rebuilds_the_same_table(make_manager, clock, memory_storage):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await clock.advance(0)
    [data] = await memory_storage.load_tables()
    table = Table.from_snapshot(data)
    live = manager.match_of(table_id)
    assert table.id == table_id
    assert table.match is not None and table.match.hands[-1].history == live.hands[-1].history
    assert table.match.score == live.score
    assert table.seats[0].player == ANA and table.seats[1].robot_level == "aprendiz"
    assert table.stakes == {await manager.player_id(ANA): 10}
    assert Table.from_snapshot(table.snapshot()).snapshot() == table.snapshot()
    with pytest.raises(ValueError):
        Table.from_snapshot({**data, "version": 99})


async def test_a_snapshot_that_no_longer_loads_is_dropped_not_fatal(
    memory_storage, clock, recorder
):
    await memory_storage.save_table("broken", {"version": 1, "table_id": "broken"}, now=START)
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    assert manager.tables() == []


async def test_front_end_notes_survive_a_snapshot_and_a_restart(memory_storage, clock, recorder):
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    reply = await manager.handle(PlayNow(ANA, CHAT))  # a waiting table: no move yet
    assert reply.ok
    (table_id,) = manager.tables()
    board = {"chat_id": -1001, "message_id": 42}
    assert await manager.set_front_end_note(table_id, "telegram.board", board)
    board["message_id"] = 7  # the manager kept a copy, not the caller's object
    assert manager.front_end_note(table_id, "telegram.board") == {
        "chat_id": -1001,
        "message_id": 42,
    }
    # Saved at once: a crash now (no stop()) still finds the note in the snapshot.
    [data] = await memory_storage.load_tables()
    assert data["notes"] == {"telegram.board": {"chat_id": -1001, "message_id": 42}}
    again = build(memory_storage, clock, recorder)
    await again.start()
    assert again.front_end_note(table_id, "telegram.board") == {"chat_id": -1001, "message_id": 42}
    assert again.front_end_note(table_id, "discord.board") is None
    # None removes a note; the next snapshot no longer has it.
    assert await again.set_front_end_note(table_id, "telegram.board", None)
    [data] = await memory_storage.load_tables()
    assert data["notes"] == {}


async def test_a_snapshot_from_before_notes_still_loads_with_no_notes(
    memory_storage, clock, recorder
):
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    await manager.handle(PlayNow(ANA, CHAT))
    (table_id,) = manager.tables()
    [data] = await memory_storage.load_tables()
    del data["notes"]
    await memory_storage.save_table(table_id, data, now=START)
    again = build(memory_storage, clock, recorder)
    await again.start()
    assert again.tables() == [table_id]
    assert again.front_end_note(table_id, "telegram.board") is None
    assert await again.set_front_end_note(table_id, "telegram.board", {"message_id": 1})
    assert again.front_end_note(table_id, "telegram.board") == {"message_id": 1}


async def test_a_note_that_is_not_json_or_for_no_table_is_refused_and_changes_nothing(
    memory_storage, clock, recorder
):
    manager = build(memory_storage, clock, recorder)
    await manager.start()
    await manager.handle(PlayNow(ANA, CHAT))
    (table_id,) = manager.tables()
    with pytest.raises(TypeError, match="JSON"):
        await manager.set_front_end_note(table_id, "x", {"when": object()})
    with pytest.raises(TypeError, match="JSON"):
        await manager.set_front_end_note(table_id, "x", float("nan"))
    assert manager.front_end_note(table_id, "x") is None
    assert await manager.set_front_end_note("no-such-table", "x", 1) is False
    assert manager.front_end_note("no-such-table", "x") is None


async def test_setting_a_note_to_the_value_it_has_writes_nothing(clock, recorder):
    class CountingStorage(SqliteStorage):
        saves = 0

        async def save_table(self, table_id, snapshot, *, now, fence=None):
            CountingStorage.saves += 1
            await super().save_table(table_id, snapshot, now=now, fence=fence)

    storage = await CountingStorage.open(":memory:")
    try:
        manager = build(storage, clock, recorder)
        await manager.start()
        await manager.handle(PlayNow(ANA, CHAT))
        (table_id,) = manager.tables()
        await manager.set_front_end_note(table_id, "k", [1, 2])
        saves = CountingStorage.saves
        await manager.set_front_end_note(table_id, "k", [1, 2])
        assert CountingStorage.saves == saves
        await manager.set_front_end_note(table_id, "k", [1, 3])
        assert CountingStorage.saves == saves + 1
    finally:
        await storage.close()


async def crash_and_restart(storage, clock, seat_to_move: Callable[[int], bool]):
    """Ana and three robots play until ``seat_to_move(turn)``; the manager then vanishes
    without stop() and a new one starts on the same storage with a fresh port."""
    manager = build(storage, clock, RecordingPort())
    await manager.start()
    table_id = await seat_with_robots(manager, clock)

    def reached() -> bool:
        state = manager.table_state(table_id)
        return state.turn is not None and seat_to_move(state.turn)

    await run_table(manager, clock, table_id, [ANA], until=reached)
    deadline = manager.table_state(table_id).deadline
    turn = manager.table_state(table_id).turn
    port = RecordingPort()
    again = build(storage, ManualClock(clock.now()), port)
    await again.start()
    await again.idle()
    return again, port, table_id, turn, deadline


async def test_a_restart_after_a_crash_sends_the_player_to_move_their_tiles_and_turn(
    memory_storage, clock
):
    manager, port, table_id, turn, deadline = await crash_and_restart(
        memory_storage, clock, lambda seat: seat == 0
    )
    tiles = port.last(YourTiles, table_id=table_id)
    assert tiles.to == ANA and tiles.seat == turn == 0
    assert tiles.is_your_turn and tiles.moves and tiles.deadline == deadline
    started = port.last(TurnStarted, table_id=table_id)
    assert (started.seat, started.player, started.deadline) == (0, ANA, deadline)
    # the buttons sent again are good: pressing one plays the move
    pressed = await manager.handle(PressButton(ANA, tiles.moves[0].payload))
    assert pressed.ok, pressed.refusal
    assert manager.match_of(table_id).hand.history[-1][0] == 0


async def test_a_restart_after_a_crash_sends_the_waiting_player_their_tiles(memory_storage, clock):
    _, port, table_id, turn, deadline = await crash_and_restart(
        memory_storage, clock, lambda seat: seat != 0
    )
    tiles = port.last(YourTiles, table_id=table_id)
    assert tiles.to == ANA and tiles.seat == 0
    assert not tiles.is_your_turn and tiles.moves == ()
    started = port.last(TurnStarted, table_id=table_id)
    assert (started.seat, started.player, started.deadline) == (turn, None, deadline)


async def test_start_restores_only_the_tables_of_the_platforms_asked_for(memory_storage, clock):
    here = ChatRef("here", "group-1")
    there = ChatRef("there", "group-2")
    manager = build(memory_storage, clock, RecordingPort())
    await manager.start()
    kept = await manager.open_robot_table(here)
    left = await manager.open_robot_table(there)
    await manager.stop()
    [stored] = [s for s in await memory_storage.load_tables() if s["table_id"] == left]

    port = RecordingPort()
    again = build(memory_storage, clock, port)
    await again.start(platforms={"here"})
    assert again.tables() == [kept]
    # the other platform's table is not played on: nothing of it happens, even in time
    await clock.advance(600)
    await again.idle()
    assert all(e.table_id != left for e in port.events if hasattr(e, "table_id"))
    assert left not in again.tables()
    [still] = [s for s in await memory_storage.load_tables() if s["table_id"] == left]
    assert still == stored
    # a later start for that platform picks it up where it was
    await again.start(platforms={"there"})
    assert left in again.tables()
    assert len(again.match_of(left).hand.history) == len(
        Table.from_snapshot(stored).match.hand.history
    )


async def reach_anas_turn(storage, clock):
    """Ana and three robots play until it is Ana's turn; returns the manager, the table,
    the turn's deadline and when the turn began (the table's last snapshot)."""
    manager = build(storage, clock, RecordingPort())
    await manager.start()
    table_id = await seat_with_robots(manager, clock)

    def anas_turn() -> bool:
        return manager.table_state(table_id).turn == 0

    await run_table(manager, clock, table_id, [ANA], until=anas_turn)
    return manager, table_id, manager.table_state(table_id).deadline, clock.now()


async def test_time_the_bot_was_down_after_a_crash_never_runs_a_players_turn(memory_storage, clock):
    manager, table_id, deadline, turn_began = await reach_anas_turn(memory_storage, clock)
    await clock.advance(20)  # Ana thinks; then the bot crashes and is down for 10 minutes
    moves_before = len(manager.match_of(table_id).hand.history)
    restarted = ManualClock(clock.now() + 600)
    again = build(memory_storage, restarted, RecordingPort())
    await again.start()
    state = again.table_state(table_id)
    assert state.turn == 0
    assert state.deadline == restarted.now() + (deadline - turn_began)
    await restarted.advance(deadline - turn_began - 1)
    assert again.table_state(table_id).turn == 0  # no timeout was played for her
    assert len(again.match_of(table_id).hand.history) == moves_before
    tiles = await my_tiles(again, ANA, table_id)
    assert (await again.handle(PressButton(ANA, tiles.moves[0].payload))).ok


async def test_a_graceful_stop_keeps_the_turn_deadline_for_the_restart(memory_storage, clock):
    manager, table_id, deadline, _ = await reach_anas_turn(memory_storage, clock)
    await clock.advance(30)
    left = deadline - clock.now()
    await manager.stop()
    restarted = ManualClock(clock.now() + 100)
    again = build(memory_storage, restarted, RecordingPort())
    await again.start()
    assert again.table_state(table_id).turn == 0
    assert again.table_state(table_id).deadline == restarted.now() + left


async def test_stopping_takes_no_more_commands_and_no_table_plays_on(memory_storage, clock):
    manager, table_id, _, _ = await reach_anas_turn(memory_storage, clock)
    moves = len(manager.match_of(table_id).hand.history)
    await manager.stop()
    refused = await manager.handle(PlayNow(PlayerRef("test", "9", "Zoe"), CHAT))
    assert refused.refusal is not None and refused.refusal.reason == "shutting_down"
    await clock.advance(3600)
    assert len(manager.match_of(table_id).hand.history) == moves
    assert manager.table_state(table_id).turn == 0


async def test_the_five_minutes_to_come_back_do_not_run_while_the_bot_is_down(
    memory_storage, clock
):
    manager = build(memory_storage, clock, RecordingPort())
    await manager.start()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    assert (await manager.handle(PlayNow(BETO, CHAT))).table_id == table_id
    assert (await manager.handle(FillWithRobots(ANA, CHAT))).ok
    await clock.advance(manager.times.countdown_seconds)
    ana = next(s.seat for s in manager.table_state(table_id).seats if s.player == ANA)
    await miss_out(manager, clock, table_id, ANA, ana)  # her connection is lost
    back_by = manager.table_state(table_id).seats[ana].back_by
    left_at = clock.now()
    # the bot crashes at once and is down for an hour
    restarted = ManualClock(clock.now() + 3600)
    again = build(memory_storage, restarted, RecordingPort())
    await again.start()
    assert again.table_state(table_id).seats[ana].back_by == restarted.now() + (back_by - left_at)
    assert (await again.handle(ComeBack(ANA, CHAT))).ok


class CrashAfterStakes(SqliteStorage):
    """A storage whose process 'dies' right after the stakes are taken: from then on no
    table snapshot reaches it (the save that would record the start is lost)."""

    dead = False

    async def stake(self, *args, **kwargs):
        await super().stake(*args, **kwargs)
        self.dead = True

    async def save_table(self, *args, **kwargs):
        if not self.dead:
            await super().save_table(*args, **kwargs)


async def test_stakes_taken_just_before_a_crash_start_the_match_on_restart_and_nothing_is_stranded(
    clock,
):
    storage = await CrashAfterStakes.open(":memory:")
    try:
        first = build(storage, clock, RecordingPort())
        await first.start()
        reply = await first.handle(PlayNow(ANA, CHAT))
        await first.handle(PlayNow(BETO, CHAT))
        await first.handle(FillWithRobots(ANA, CHAT))
        await clock.advance(first.times.countdown_seconds)
        assert storage.dead and await first.balance(ANA) == 990
        [saved] = await storage.load_tables()
        assert saved["phase"] == "countdown"  # the save of the start never landed
        # the restart: the table comes back in its countdown, with its stakes in escrow
        storage.dead = False
        port = RecordingPort()
        again = build(storage, ManualClock(clock.now() + 60), port)
        await again.start()
        assert again.table_state(reply.table_id).phase == "playing"
        assert [e.match_id for e in await storage.open_escrows()] == [reply.table_id]
        # leaving now is a started match's leave (a robot plays), never a free exit
        assert (await again.handle(Leave(BETO, CHAT))).ok
        assert await again.balance(BETO) == 990
        assert await again.balance(ANA) == 990
        assert await storage.check_ledger() == []
    finally:
        await storage.close()


async def test_an_open_escrow_no_table_owns_is_refunded_at_start(memory_storage, clock):
    ana = await memory_storage.ensure_player("test", "1", "Ana", now=START)
    beto = await memory_storage.ensure_player("test", "2", "Beto", now=START)
    await memory_storage.stake("lost-table", [ana.id, beto.id], 10, now=START)
    await memory_storage.stake("robots-only", [], 10, now=START)
    # a table of a platform not hosted by this process keeps its escrow
    elsewhere = build(memory_storage, clock, RecordingPort())
    kept = await seat_with_robots(elsewhere, clock, BETO, ChatRef("there", "g"))
    await elsewhere.stop()
    assert await memory_storage.balance(beto.id) == 980
    manager = build(memory_storage, clock, RecordingPort())
    await manager.start(platforms={"here"})
    assert [e.match_id for e in await memory_storage.open_escrows()] == [kept]
    assert await memory_storage.balance(ana.id) == 1000
    assert await memory_storage.balance(beto.id) == 990
    assert await memory_storage.check_ledger() == []


async def test_a_table_of_robots_only_opens_no_escrow(memory_storage, clock):
    manager = build(memory_storage, clock, RecordingPort())
    await manager.start()
    table_id = await manager.open_robot_table(ChatRef("here", "g"))
    await clock.advance(manager.times.countdown_seconds)
    assert manager.match_of(table_id) is not None
    assert await memory_storage.open_escrows() == []
    await run_table(manager, clock, table_id)
    assert await memory_storage.open_escrows() == []
    assert await memory_storage.check_ledger() == []


async def test_a_slow_table_survives_a_restart_mid_hand_with_its_deadline_and_its_reminder(
    memory_storage, clock
):
    slow = 12 * 3600
    manager = build(memory_storage, clock, RecordingPort())
    await manager.start()
    robot = RobotSeat()
    reply = await manager.handle(
        OpenTable(
            ANA, CHAT, overrides={"turn_seconds": slow}, right=robot, across=robot, left=robot
        )
    )
    table_id = reply.table_id
    await clock.advance(manager.times.countdown_seconds)

    def anas_turn() -> bool:
        return manager.table_state(table_id).turn == 0

    await run_table(manager, clock, table_id, [ANA], until=anas_turn)
    deadline = manager.table_state(table_id).deadline
    assert deadline is not None
    await clock.advance(3600)  # an hour into Ana's 12 hours: the bot stops, back a minute later
    await manager.stop()
    restarted = ManualClock(clock.now() + 60)
    recorder = RecordingPort()
    again = build(memory_storage, restarted, recorder)
    await again.start()
    state = again.table_state(table_id)
    assert state is not None and state.turn == 0
    assert state.deadline == deadline + 60  # kept, the bot's minute down not counted
    await restarted.advance(slow / 2 - 3600 - 1)
    assert recorder.of(TurnReminder) == []
    await restarted.advance(1)
    await again.idle()
    (reminded,) = recorder.of(TurnReminder)
    assert (reminded.player, reminded.deadline, reminded.seconds) == (ANA, deadline + 60, slow // 2)
    tiles = await my_tiles(again, ANA, table_id)
    assert (await again.handle(PressButton(ANA, tiles.moves[0].payload))).ok
