"""bot.discord.pacer: the bot's own pace under Discord's global limit, through the real
discord.py against the fake Discord (tests/fake_discord.py) with its limits on."""

from __future__ import annotations

import asyncio

import pytest
from discord.http import Route

from bot.core import TableManager
from bot.discord import DiscordFrontEnd
from bot.discord.pacer import GLOBAL_PER_SECOND, GlobalPacer, is_paced
from bot.pacing import mark_urgent
from storage.base import Storage
from tests.fake_discord import DiscordLimits, FakeDiscord, Harness

BASE = "http://127.0.0.1:8080/api/v10"


def test_rest_calls_are_paced_but_not_interactions_their_follow_ups_the_gateway_or_the_cdn() -> (
    None
):
    assert is_paced(f"{BASE}/channels/12/messages", BASE) is True
    assert is_paced(f"{BASE}/users/@me/channels", BASE) is True
    assert is_paced(f"{BASE}/applications/1/commands?with_localizations=true", BASE) is True
    assert is_paced(f"{BASE}/interactions/5/tok/callback", BASE) is False
    assert is_paced(f"{BASE}/webhooks/1/tok/messages/@original", BASE) is False
    assert is_paced("ws://127.0.0.1:8081/?v=10&encoding=json", BASE) is False
    assert is_paced("https://cdn.discordapp.com/avatars/1/a.png", BASE) is False
    assert is_paced("https://discord.com/api/v10/channels/12/messages", BASE) is False


def test_a_pace_of_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="above zero"):
        GlobalPacer(0)
    with pytest.raises(ValueError, match="above zero"):
        GlobalPacer(time_scale=0)


def test_the_pace_comes_in_slices_of_a_tenth_of_a_second_also_in_compressed_time() -> None:
    assert (GlobalPacer().slots.per_second, GlobalPacer().slots.burst) == (45.0, 4.5)
    fast = GlobalPacer(time_scale=10.0)
    assert (fast.slots.per_second, fast.slots.burst) == (450.0, 4.5)
    assert GlobalPacer(5.0).slots.burst == 1.0  # never less than one request


async def test_the_whole_bot_takes_the_whole_pace_and_a_process_its_shards_share(
    memory_storage: Storage,
) -> None:
    storage = memory_storage
    whole = DiscordFrontEnd("fake-token", TableManager(storage), storage, shard_count=4)
    half = DiscordFrontEnd(
        "fake-token", TableManager(storage), storage, shard_count=4, shard_ids=[0, 2]
    )
    pacer = GlobalPacer(9.0)
    given = DiscordFrontEnd("fake-token", TableManager(storage), storage, pacer=pacer)

    assert whole.bot.pacer.slots.per_second == GLOBAL_PER_SECOND == 45.0
    assert half.bot.pacer.slots.per_second == 22.5
    assert given.bot.pacer is pacer
    assert whole.bot.http.http_trace is whole.bot.pacer


async def burst(harness: Harness, requests: int) -> list[object]:
    """``requests`` REST calls at once through the bot's discord.py client."""
    http = harness.front.bot.http
    return await asyncio.gather(
        *(http.request(Route("GET", "/users/@me")) for _ in range(requests))
    )


async def test_a_burst_of_requests_meets_no_global_429_at_the_bots_pace(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.limits = DiscordLimits(time_scale=10.0)  # 500 requests a real second
    harness = await Harness(fake, memory_storage).start(pacer=GlobalPacer(time_scale=10.0))
    try:
        before = len(fake.requests)
        answers = await burst(harness, 300)
        requests = fake.requests[before:]
    finally:
        await harness.stop()

    assert len(answers) == 300
    assert fake.limits.refused_global == 0
    assert [r.status for r in requests] == [200] * 300
    # spread at the pace: 4 at once, then 450 a real second
    times = sorted(r.at for r in requests)
    assert times[-1] - times[0] >= (300 - 4.5) / 450 - 0.01


async def test_without_the_pacer_the_same_burst_meets_the_global_limit(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.limits = DiscordLimits(time_scale=10.0)
    harness = await Harness(fake, memory_storage).start(pacer=GlobalPacer(1e6))
    try:
        await burst(harness, 300)
    finally:
        await harness.stop()

    assert fake.limits.refused_global > 0  # discord.py slept them off and sent them again


async def test_a_players_dm_waiting_for_a_slot_goes_before_the_boards_waiting(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    # a channel each, so that discord.py's route buckets hold none of them back
    channels = [fake.channel_of(fake.add_guild(f"Club {i}")) for i in range(7)]
    harness = await Harness(fake, memory_storage).start(pacer=GlobalPacer(20.0))
    http = harness.front.bot.http

    async def post(content: str, *, urgent: bool) -> None:
        if urgent:
            mark_urgent()  # as the tiles worker does
        channel = channels.pop()
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        await http.request(route, json={"content": content})

    try:
        await asyncio.sleep(0.2)  # the bucket full again after the start's requests
        boards = [asyncio.create_task(post(f"board{i}", urgent=False)) for i in range(5)]
        await asyncio.sleep(0)
        turns = [asyncio.create_task(post(f"turn{i}", urgent=True)) for i in range(2)]
        await asyncio.gather(*boards, *turns)
    finally:
        await harness.stop()

    posted = [r.json["content"] for r in fake.requests if r.method == "POST"]
    posted = [content for content in posted if content.startswith(("board", "turn"))]
    # two at once (the burst: 20 a second in slices of 0.1 s), then the turns first
    assert posted == ["board0", "board1", "turn0", "turn1", "board2", "board3", "board4"]
