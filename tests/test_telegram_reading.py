"""Reading updates (bot/telegram/reading.py): an update python-telegram-bot cannot parse
is skipped and logged once, and the bot keeps answering the updates after it; the real
PTB against the fake Bot API server."""

from __future__ import annotations

import logging

import pytest

from bot.telegram.reading import readable_updates
from tests.fake_telegram import TelegramWorld

GROUP = -1001000


async def test_an_unreadable_update_is_logged_once_and_the_next_one_is_answered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.telegram.reading")
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        bad = world.fake.unreadable_member_update(group, ana)
        answer = await world.reply_to(world.fake.private_chat(ana), ana, "/saldo")
        await world.settle()

        assert "$" in answer.params["text"]
        skipped = [r.getMessage() for r in caplog.records if r.name == "bot.telegram.reading"]
        assert len(skipped) == 1
        assert skipped[0].startswith(f"skipped Telegram update {bad} (my_chat_member)")
        # PTB's own "Something went wrong processing the data" was never logged.
        assert world.errors == []
        polls = world.fake.calls_to("getUpdates")
        assert len(polls) < 10  # not fetched again and again


def test_an_update_without_an_id_is_dropped_and_a_readable_one_kept() -> None:
    good = {"update_id": 5}
    assert readable_updates([{"my_chat_member": {}}, good]) == [good]
    assert readable_updates([{"update_id": 6, "message": {"chat": {"id": 1}}}]) == [
        {"update_id": 6}
    ]
    assert readable_updates(None) is None
