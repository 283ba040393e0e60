"""Injected time: the manual clock fires timers in order, only when advanced."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.clock import ManualClock, SystemClock


async def test_timers_fire_in_deadline_order_only_when_time_reaches_them():
    clock = ManualClock(start=100.0)
    fired: list[tuple[str, float]] = []

    def note(name: str):
        async def callback() -> None:
            fired.append((name, clock.now()))

        return callback

    clock.call_at(130.0, note("b"))
    clock.call_at(110.0, note("a"))
    clock.call_at(130.0, note("c"))
    await clock.advance(9)
    assert fired == []
    await clock.advance(25)
    assert fired == [("a", 110.0), ("b", 130.0), ("c", 130.0)]
    assert clock.now() == 134.0


async def test_a_cancelled_timer_never_fires_and_a_timer_armed_while_advancing_can():
    clock = ManualClock(start=0.0)
    fired: list[str] = []

    async def later() -> None:
        fired.append("later")

    async def first() -> None:
        fired.append("first")
        clock.call_at(clock.now() + 5, later)

    timer = clock.call_at(1.0, first)
    cancelled = clock.call_at(2.0, later)
    cancelled.cancel()
    await clock.advance(10)
    assert fired == ["first", "later"]
    assert timer.when == 1.0
    assert clock.pending == 0


async def test_run_until_stops_when_done_and_fails_when_nothing_is_left():
    clock = ManualClock(start=0.0)
    box: list[int] = []

    async def tick() -> None:
        box.append(1)
        if len(box) < 3:
            clock.call_at(clock.now() + 60, tick)

    clock.call_at(60, tick)
    await clock.run_until(lambda: len(box) == 2)
    assert clock.now() == 120
    await clock.advance(60)
    with pytest.raises(TimeoutError):
        await clock.run_until(lambda: len(box) == 99)


async def test_the_system_clock_runs_a_callback_on_the_event_loop():
    clock = SystemClock()
    done = asyncio.Event()

    async def callback() -> None:
        done.set()

    clock.call_at(clock.now(), callback)
    await asyncio.wait_for(done.wait(), 2)
    assert done.is_set()
