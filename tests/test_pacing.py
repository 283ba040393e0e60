"""bot.pacing: request slots at a steady rate, urgent requests first."""

from __future__ import annotations

import asyncio

from bot.pacing import Slots, is_urgent, mark_urgent


async def test_slots_serve_waiting_private_requests_before_group_requests_at_the_rate() -> None:
    slots = Slots(per_second=50, burst=1)  # a slot every 20 ms
    loop = asyncio.get_running_loop()
    order: list[str] = []
    times: list[float] = []

    async def request(name: str, *, urgent: bool) -> None:
        await slots.take(urgent=urgent)
        order.append(name)
        times.append(loop.time())

    await request("first", urgent=False)  # the burst: at once
    boards = [loop.create_task(request(f"board{i}", urgent=False)) for i in range(3)]
    await asyncio.sleep(0)
    turns = [loop.create_task(request(f"turn{i}", urgent=True)) for i in range(2)]
    await asyncio.gather(*boards, *turns)

    assert order == ["first", "turn0", "turn1", "board0", "board1", "board2"]
    assert times[-1] - times[0] >= 5 * 0.02 - 0.005  # never faster than the rate
    assert slots.waiting == 0


async def test_a_slot_given_to_a_cancelled_request_goes_to_the_next() -> None:
    slots = Slots(per_second=20, burst=1)
    await slots.take(urgent=True)
    gone = asyncio.get_running_loop().create_task(slots.take(urgent=True))
    waiting = asyncio.get_running_loop().create_task(slots.take(urgent=False))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(waiting, 0.2)  # the next slot, 50 ms on, is the board's
    assert gone.cancelled() and slots.waiting == 0


async def test_a_task_marked_urgent_leaves_its_caller_and_other_tasks_unmarked() -> None:
    seen: dict[str, bool] = {}

    async def tiles_worker() -> None:
        mark_urgent()
        seen["worker"] = is_urgent()
        inner = asyncio.get_running_loop().create_task(started_by_worker())
        await inner

    async def started_by_worker() -> None:
        seen["started by it"] = is_urgent()

    async def board_worker() -> None:
        await asyncio.sleep(0)
        seen["board"] = is_urgent()

    await asyncio.gather(tiles_worker(), board_worker())

    assert seen == {"worker": True, "started by it": True, "board": False}
    assert is_urgent() is False
