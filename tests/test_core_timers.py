"""A table's timers (bot.core.timers): one main deadline that replaces the last, one
"come back by" deadline per away seat, run from the manual clock."""

from __future__ import annotations

import asyncio

import pytest
from core_parts import CHAT

from bot.core.clock import ManualClock
from bot.core.table import Table
from bot.core.timers import Pacer, Timers
from bot.core.vocabulary import DeadlineKind
from engine.rules import find_preset

START = 1_800_000_000.0


class Calls:
    """Handlers that write down what fired, and what the table said at that moment."""

    def __init__(self) -> None:
        self.fired: list[tuple[DeadlineKind, float, object, object]] = []
        self.away: list[tuple[str, int, float]] = []

    def handlers(self, clock: ManualClock):
        def handler(kind: DeadlineKind):
            async def run(table: Table) -> None:
                self.fired.append((kind, clock.now(), table.deadline, table.deadline_kind))

            return run

        return {kind: handler(kind) for kind in DeadlineKind}

    def on_away(self, clock: ManualClock):
        async def run(table: Table, seat: int) -> None:
            self.away.append((table.id, seat, clock.now()))

        return run


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def calls() -> Calls:
    return Calls()


@pytest.fixture
def timers(clock, calls) -> Timers:
    timers = Timers(clock, Pacer(0.005))
    timers.install(calls.handlers(clock), away=calls.on_away(clock))
    return timers


def new_table() -> Table:
    return Table(
        id="abc",
        label="1",
        chat=CHAT,
        rules=find_preset("venezolano"),
        seed=1,
        created_at=START,
        robot_level="aprendiz",
    )


def test_every_deadline_kind_needs_a_handler(clock, calls):
    handlers = calls.handlers(clock)
    del handlers[DeadlineKind.NEXT_HAND]
    with pytest.raises(ValueError, match="next_hand"):
        Timers(clock, Pacer(0.005)).install(handlers, away=calls.on_away(clock))


async def test_a_deadline_fires_its_kinds_handler_once_with_the_deadline_cleared(
    timers, clock, calls
):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.TURN)
    assert (table.deadline, table.deadline_kind) == (START + 10, DeadlineKind.TURN)
    await clock.advance(9.9)
    assert calls.fired == []
    await clock.advance(100)
    assert calls.fired == [(DeadlineKind.TURN, START + 10, None, None)]
    assert (table.deadline, table.deadline_kind, table.timer) == (None, None, None)


async def test_arming_replaces_the_tables_main_deadline(timers, clock, calls):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.FILL)
    timers.arm(table, START + 20, DeadlineKind.START)
    await clock.advance(30)
    assert calls.fired == [(DeadlineKind.START, START + 20, None, None)]


async def test_a_disarmed_deadline_never_fires(timers, clock, calls):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.ROBOT)
    timers.disarm(table)
    assert (table.deadline, table.deadline_kind, table.timer) == (None, None, None)
    await clock.advance(30)
    assert calls.fired == []
    assert clock.pending == 0


async def test_a_closed_tables_deadline_does_nothing(timers, clock, calls):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.NEXT_HAND)
    table.closed = True
    await clock.advance(30)
    assert calls.fired == []


async def test_a_deadline_replaced_while_its_timer_waits_for_the_lock_does_nothing(
    timers, clock, calls
):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.TURN)
    await table.lock.acquire()
    advancing = asyncio.create_task(clock.advance(10))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not advancing.done()  # the timer fired and waits for the table
    timers.arm(table, START + 50, DeadlineKind.FILL)
    table.lock.release()
    await advancing
    assert calls.fired == []
    await clock.advance(40)
    assert calls.fired == [(DeadlineKind.FILL, START + 50, None, None)]


async def test_an_away_seat_expires_at_its_back_by(timers, clock, calls):
    table = new_table()
    table.seats[1].back_by = START + 300
    timers.arm_away(table, 1)
    assert set(table.away_timers) == {1}
    await clock.advance(299)
    assert calls.away == []
    await clock.advance(1)
    assert calls.away == [("abc", 1, START + 300)]


async def test_a_seat_without_back_by_arms_no_away_timer(timers, clock):
    table = new_table()
    timers.arm_away(table, 2)
    assert table.away_timers == {}
    assert clock.pending == 0


async def test_disarm_all_cancels_the_main_and_every_away_timer(timers, clock, calls):
    table = new_table()
    timers.arm(table, START + 10, DeadlineKind.TURN)
    for seat in (0, 2):
        table.seats[seat].back_by = START + 300
        timers.arm_away(table, seat)
    timers.disarm_all(table)
    assert (table.deadline, table.away_timers) == (None, {})
    await clock.advance(600)
    assert (calls.fired, calls.away) == ([], [])


async def test_timer_work_past_the_budget_waits_and_is_released_in_order():
    pacer = Pacer(0.0)
    order: list[int] = []

    async def work(number: int) -> None:
        await pacer.turn()
        order.append(number)
        pacer.done(0.0)

    await asyncio.wait_for(asyncio.gather(*(work(n) for n in range(3))), timeout=5)
    assert order == [0, 1, 2]
