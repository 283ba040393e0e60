"""Sending without stopping a table: retries, "not modified" as success, newest state first.

Bot API calls go through a real PTB ``Bot`` to the fake server, which injects failures."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Bot
from telegram.error import BadRequest, Forbidden

from bot.telegram.sender import NOT_MODIFIED, Latest, Ordered, is_gone, send
from tests.fake_telegram import NOT_MODIFIED as NOT_MODIFIED_TEXT
from tests.fake_telegram import FakeTelegram

GROUP = -100777


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        server.add_group(GROUP, "G")
        server.add_user(5, "Ana")
        server.add_user(6, "Bea", started=False)
        yield server


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url) as client:
        yield client


async def test_network_errors_and_server_errors_are_retried_until_the_message_goes(
    fake: FakeTelegram, bot: Bot
) -> None:
    fake.fail("sendMessage", network=True)
    fake.fail("sendMessage", status=502, description="Bad Gateway")
    message = await send(lambda: bot.send_message(GROUP, "hola"))
    assert message.text == "hola"
    assert [c.status for c in fake.calls_to("sendMessage")] == [0, 502, 200]


async def test_a_flood_limit_is_waited_out_and_retried(fake: FakeTelegram, bot: Bot) -> None:
    fake.fail(
        "sendMessage", status=429, description="Too Many Requests: retry after 1", retry_after=1
    )
    message = await send(lambda: bot.send_message(GROUP, "hola"))
    calls = fake.calls_to("sendMessage")
    assert message.text == "hola" and [c.status for c in calls] == [429, 200]
    assert calls[1].at - calls[0].at >= 1.0


async def test_message_not_modified_is_success(fake: FakeTelegram, bot: Bot) -> None:
    sent = await send(lambda: bot.send_message(GROUP, "igual"))
    result = await send(
        lambda: bot.edit_message_text("igual", chat_id=GROUP, message_id=sent.message_id)
    )
    assert result is NOT_MODIFIED
    assert fake.calls_to("editMessageText")[0].params
    assert NOT_MODIFIED_TEXT.startswith("Bad Request: message is not modified")


async def test_refusals_are_not_retried(fake: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(Forbidden):
        await send(lambda: bot.send_message(6, "hola"))  # Bea never started the bot
    with pytest.raises(BadRequest) as gone:
        await send(lambda: bot.edit_message_text("x", chat_id=GROUP, message_id=999))
    assert is_gone(gone.value)
    assert len(fake.calls_to("sendMessage")) == 1 and len(fake.calls_to("editMessageText")) == 1


async def test_errors_that_persist_are_raised_after_the_last_attempt(
    fake: FakeTelegram, bot: Bot
) -> None:
    fake.fail("sendMessage", network=True, times=10)
    with pytest.raises(Exception, match="httpx"):
        await send(lambda: bot.send_message(GROUP, "hola"), attempts=2)
    assert len(fake.calls_to("sendMessage")) == 2


async def test_latest_shows_only_the_newest_pending_state_in_order_per_key() -> None:
    shown: list[tuple[str, int]] = []
    gate = asyncio.Event()

    async def show(key: str, state: int) -> None:
        await gate.wait()
        shown.append((key, state))

    latest: Latest[int] = Latest(show)
    for state in range(1, 6):
        latest.put("board", state)
        await asyncio.sleep(0)
    latest.put("other", 1)
    gate.set()
    await latest.idle()
    assert [s for k, s in shown if k == "board"] == [1, 5]  # 2..4 were skipped, never reordered
    assert ("other", 1) in shown
    assert not latest.busy


async def test_a_failing_show_is_logged_and_the_next_state_still_shows(
    caplog: pytest.LogCaptureFixture,
) -> None:
    shown: list[int] = []

    async def show(key: str, state: int) -> None:
        if state == 1:
            raise RuntimeError("boom")
        shown.append(state)

    latest: Latest[int] = Latest(show)
    latest.put("k", 1)
    await latest.idle()
    latest.put("k", 2)
    await latest.idle()
    assert shown == [2]
    assert "could not show" in caplog.text


async def test_ordered_runs_each_chats_jobs_in_order_and_a_slow_chat_holds_up_no_other() -> None:
    done: list[str] = []
    slow = asyncio.Event()
    jobs = Ordered()

    def job(name: str, gate: asyncio.Event | None = None):
        async def run() -> None:
            if gate is not None:
                await gate.wait()
            if name == "boom":
                raise RuntimeError("a failed send")
            done.append(name)

        return run

    jobs.put("group", job("a1", slow))
    jobs.put("group", job("boom"))
    jobs.put("group", job("a2"))
    jobs.put("other", job("b1"))
    await asyncio.sleep(0.01)
    assert done == ["b1"] and jobs.busy  # the slow chat waits alone
    slow.set()
    await jobs.idle()
    assert done == ["b1", "a1", "a2"] and not jobs.busy  # a failure stops nothing
    jobs.put("group", job("late", asyncio.Event()))
    await jobs.close()
    assert not jobs.busy and done == ["b1", "a1", "a2"]


async def test_a_cancelled_wait_for_idle_leaves_the_pending_sends_running() -> None:
    """A stop's flush gives up after its wait; what is being sent must still be there (to
    be logged as unsent, and sent if the server answers before the bot closes)."""
    gate = asyncio.Event()
    shown: list[int] = []
    done: list[str] = []

    async def show(key: str, state: int) -> None:
        await gate.wait()
        shown.append(state)

    async def job() -> None:
        await gate.wait()
        done.append("sent")

    latest: Latest[int] = Latest(show)
    jobs = Ordered()
    latest.put("board", 1)
    jobs.put("group", job)
    for idle in (latest.idle(), jobs.idle()):
        waiter = asyncio.create_task(idle)
        await asyncio.sleep(0)  # it waits on the workers now
        waiter.cancel()  # what a stop's timeout does
        with pytest.raises(asyncio.CancelledError):
            await waiter

    assert latest.unshown() == ["board"] and jobs.unsent() == {"group": 1}
    gate.set()
    await latest.idle()
    await jobs.idle()
    assert shown == [1] and done == ["sent"]


async def test_requests_held_by_a_429_take_their_rate_slots_after_it_one_by_one() -> None:
    from telegram.error import RetryAfter

    from bot.telegram.sender import TelegramLimiter, rate_limiter

    limiter = TelegramLimiter(
        overall_max_rate=2, overall_time_period=0.1, group_max_rate=0, max_retries=1
    )
    await limiter.initialize()
    loop = asyncio.get_running_loop()
    ran: list[float] = []
    refused: list[float] = []

    async def flooded() -> dict[str, bool]:
        if not refused:
            refused.append(loop.time())
            raise RetryAfter(1)  # PTB holds every request for 1.1 s
        return {"ok": True}

    async def held() -> dict[str, bool]:
        ran.append(loop.time())
        return {"ok": True}

    first = loop.create_task(
        limiter.process_request(flooded, (), {}, "sendMessage", {"chat_id": 1}, None)
    )
    await asyncio.sleep(0.2)  # the 429 is being waited out: six more requests come
    others = [
        limiter.process_request(held, (), {}, "sendMessage", {"chat_id": 1}, None) for _ in range(6)
    ]
    await asyncio.gather(first, *others)
    await limiter.shutdown()

    ran.sort()
    assert ran[0] >= refused[0] + 1.1 - 0.01  # none before the 429's retry_after was over
    # two at once (the limit's burst), then one every 0.05 s: spread over 0.2 s, not a burst
    assert ran[-1] - ran[0] >= 0.15
    assert isinstance(rate_limiter(), TelegramLimiter)


async def test_the_bots_limiter_sends_a_players_turn_before_the_boards_that_wait() -> None:
    from bot.telegram.sender import rate_limiter

    limiter = rate_limiter(time_scale=10.0)  # 280 requests a second, bursts of 2.8
    await limiter.initialize()
    sent: list[int] = []

    async def post(chat_id: int) -> dict[str, bool]:
        sent.append(chat_id)
        return {"ok": True}

    def request(chat_id: int) -> Any:
        return limiter.process_request(
            functools.partial(post, chat_id), (), {}, "sendPhoto", {"chat_id": chat_id}, None
        )

    boards = [asyncio.ensure_future(request(-1000 - i)) for i in range(12)]
    await asyncio.sleep(0)
    turn = asyncio.ensure_future(request(42))
    await asyncio.gather(*boards, turn)
    await limiter.shutdown()
    assert len(sent) == 13
    assert sent.index(42) == 2  # after the two boards of the burst, before the ten that wait
