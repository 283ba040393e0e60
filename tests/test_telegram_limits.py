"""Telegram's flood limits in the fake (tests/fake_telegram.py, ``TelegramLimits``): what
it refuses and how, and the bot playing a whole match with them on (PTB's AIORateLimiter
absorbs the 429s, as frontend.py configures it: max_retries=3)."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot, User
from telegram.error import RetryAfter

from tests.fake_telegram import FakeTelegram, TelegramLimits, TelegramWorld

GROUP = -1003000


async def test_limits_are_off_by_default() -> None:
    async with FakeTelegram() as fake:
        fake.add_user(1, "Ana")
        bot = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
        async with bot:
            for _ in range(5):
                await bot.send_message(1, "hola")
        assert all(c.ok for c in fake.calls_to("sendMessage"))


async def test_a_private_chat_gets_about_one_message_a_second_then_429() -> None:
    async with FakeTelegram(limits=TelegramLimits()) as fake:
        fake.add_user(1, "Ana")
        fake.add_user(2, "Bea")
        bot = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
        async with bot:
            await bot.send_message(1, "uno")
            with pytest.raises(RetryAfter) as caught:
                await bot.send_message(1, "dos")
            await bot.send_message(2, "otra conversación")  # another chat is not limited
            await bot.answer_callback_query("cq1")  # answers are not counted
        assert caught.value.retry_after == 1
        refused = fake.calls_to("sendMessage")[1]
        assert refused.status == 429 and refused.result is None
        assert fake.messages_in(1)[-1]["text"] == "uno"  # nothing sent
        assert fake.limits is not None and fake.limits.refused == 1


async def test_a_group_gets_20_messages_a_minute_and_the_bot_30_a_second() -> None:
    # The buckets' clock stands still: what is refused does not depend on how fast this
    # machine sends.
    async with FakeTelegram(limits=TelegramLimits(clock=lambda: 0.0)) as fake:
        fake.add_group(GROUP, "Grupo")
        bot = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
        async with bot:
            sent = await asyncio.gather(
                *(bot.send_message(GROUP, f"m{i}") for i in range(21)), return_exceptions=True
            )
        refused = [r for r in sent if isinstance(r, RetryAfter)]
        assert len(refused) == 1 and refused[0].retry_after >= 1
    overall = TelegramLimits(private_per_second=100, private_burst=100, clock=lambda: 0.0)
    async with FakeTelegram(limits=overall) as fake:
        for user_id in range(1, 61):
            fake.add_user(user_id, f"U{user_id}")
        bot = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
        async with bot:
            sent = await asyncio.gather(
                *(bot.send_message(u, "hola") for u in range(1, 61)), return_exceptions=True
            )
        # 60 chats at once: the first 30 go, the others are over the bot's 30 a second
        assert [isinstance(r, RetryAfter) for r in sent].count(True) == 30
        assert fake.limits is not None and fake.limits.refused_by == {"overall": 30}


async def test_the_429_body_is_telegrams() -> None:
    import aiohttp

    async with FakeTelegram(limits=TelegramLimits()) as fake:
        fake.add_user(1, "Ana")
        url = f"{fake.base_url}{fake.token}/sendMessage"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json={"chat_id": 1, "text": "uno"}) as first:
                assert first.status == 200
            async with session.post(url, json={"chat_id": 1, "text": "dos"}) as second:
                assert second.status == 429
                body = await second.json()
        assert body == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }


async def _four_humans(world: TelegramWorld) -> tuple[str, dict[int, User]]:
    return await world.four_humans(GROUP, "Limitado", "/mesa meta=50", first_id=4000)


async def test_four_humans_finish_a_match_with_the_limits_on() -> None:
    # Time runs 20 times faster for the limits (as for PTB's limiter): 600 group
    # messages a minute, 20 a second per private chat.
    limits = TelegramLimits(time_scale=20.0, client_pad=0.1)
    async with TelegramWorld(limits=limits) as world:
        table_id, seats = await _four_humans(world)
        presses = await world.play_out(table_id, seats)  # type: ignore[arg-type]
        await world.settle()
        assert presses >= 14
        assert world.manager.table_state(table_id) is None
        results = [c for c in world.fake.calls_to("sendPhoto", chat_id=GROUP) if c.ok]
        assert "ganan la partida" in (results[-1].caption() or "")
        # each private chat's requests were spaced by the bot (bot.pacing.PRIVATE_GAP): a
        # turn message and the next when the three others pass at once never meet
        # Telegram's one a second there
        private_429s = [c for c in world.fake.calls if c.status == 429 and (c.chat_id or 0) > 0]
        assert private_429s == []


async def test_a_429_from_the_limits_is_retried_by_the_rate_limiter() -> None:
    # A private chat allowed one message every 2 s (at a 20-fold time scale: 0.1 s),
    # twice the bot's own spacing there: the answers to three moves typed at once meet
    # 429s, which PTB's AIORateLimiter retries.
    limits = TelegramLimits(private_per_second=0.5, time_scale=20.0, client_pad=0.1)
    async with TelegramWorld(limits=limits) as world:
        table_id, seats = await _four_humans(world)
        for _step in range(50):
            found = [u for u in seats.values() if world.move_labels(u)]
            if found:
                break
            await world.clock.advance(0)
            await world.settle()
        user = found[0]
        chat = world.fake.private_chat(user)
        for typed in ("6-6 izq.", "6-6 der.", "0-0 izq."):  # sides she cannot play
            world.fake.send_text(chat, user, typed)
        await world.settle()
        answers = [c for c in world.fake.calls_to("sendMessage", chat_id=user.id) if c.ok]
        assert [c.params["text"] for c in answers] == ["Esa jugada no vale ahora."] * 3
        refused = [c for c in world.fake.calls if c.status == 429]
        assert refused, "no request met the limits"
        for call in refused:  # each was sent again and went through
            later = world.fake.calls[world.fake.calls.index(call) + 1 :]
            assert any(
                c.ok and c.method == call.method and c.params == call.params for c in later
            ), call
        assert world.manager.table_state(table_id) is not None
