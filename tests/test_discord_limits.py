"""Discord's rate limits in the fake (tests/fake_discord.py, ``DiscordLimits``): the real
headers and 429s, discord.py's own limiter working against them, and a whole match of
four humans played with them on."""

from __future__ import annotations

import aiohttp

from storage.base import Storage
from tests.fake_discord import DiscordLimits, FakeDiscord, Harness, Request, play_until_closed


async def test_a_channel_bucket_gives_five_messages_then_429_with_discords_headers(
    fake: FakeDiscord,
) -> None:
    fake.limits = DiscordLimits()
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    url = f"{fake.api_base_url}/channels/{channel}/messages"
    async with aiohttp.ClientSession() as session:
        answers = []
        for i in range(6):
            async with session.post(url, json={"content": f"m{i}"}) as response:
                answers.append((response.status, dict(response.headers), await response.json()))
        async with session.get(url) as listing:  # reading is not in that bucket
            assert listing.status == 200
    statuses = [status for status, _, _ in answers]
    assert statuses == [200] * 5 + [429]
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert "X-RateLimit-Bucket" in first and "X-RateLimit-Reset" in first
    _status, headers, body = answers[5]
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Remaining"] == "0" and "Retry-After" in headers
    assert len(fake.messages_in(channel)) == 5  # the refused one was not posted


async def test_the_global_limit_answers_429_global(fake: FakeDiscord) -> None:
    fake.limits = DiscordLimits(global_per_second=3)
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(4):
            async with session.get(f"{fake.api_base_url}/users/@me") as response:
                statuses.append(response.status)
                last = (dict(response.headers), await response.json())
    assert statuses == [200, 200, 200, 429]
    assert last[1]["global"] is True and last[0]["X-RateLimit-Global"] == "true"


async def test_four_humans_finish_a_match_with_the_limits_on(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    # Time 10 times faster for the limits: 5 messages per 0.5 s per channel.
    fake.limits = DiscordLimits(time_scale=10.0)
    guild = fake.add_guild("Club")
    people = [fake.add_user(name) for name in ("Ana", "Beto", "Caro", "Dani")]
    people[0].permissions |= 1 << 5
    harness = await Harness(fake, memory_storage).start()
    try:
        config = await fake.slash(
            people[0], guild, "domino-config", options={"reglas": "venezolano", "meta": 50}
        )
        await fake.replied(config)
        for person in people:
            await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in people}
        )
        assert {p.user.id for p in presses} == {p.id for p in people}
        channel = fake.channel_of(guild)
        assert any("ganan la partida" in m.content for m in fake.messages_in(channel))
    finally:
        await harness.stop()


async def test_a_429_is_waited_out_and_retried_by_discord_py(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    # discord.py keeps to the route buckets it learns from the headers, but it cannot
    # foresee the global limit: a low one refuses the burst of a table's start, each 429
    # is slept off (retry_after) and the same request sent again. Time runs 10 times
    # faster for the limits (one request per 0.1 s), so the waits are short.
    fake.limits = DiscordLimits(global_per_second=1, time_scale=10.0)
    guild = fake.add_guild("Club")
    ana = fake.add_user("Ana")
    harness = await Harness(fake, memory_storage).start()
    try:
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
        await harness.idle()
        channel = fake.channel_of(guild)
        board = await fake.wait_until(
            lambda: next((m for m in fake.messages_in(channel) if m.embeds), None), timeout=30
        )
        robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
        await fake.answered(await fake.click(ana, board, robots))
        tiles = await fake.wait_until(
            lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m, timeout=30
        )
        assert tiles.custom_ids()
        refused = [r for r in fake.requests if r.status == 429]
        assert refused, "no request met the limits"
        assert fake.limits.refused_global >= 1  # the global limit, which discord.py cannot foresee

        def retried(request: Request) -> bool:
            later = fake.requests[fake.requests.index(request) + 1 :]
            return any(
                r.status == 200 and r.method == request.method and r.path == request.path
                for r in later
            )

        assert await fake.wait_until(lambda: all(retried(r) for r in refused), timeout=30)
    finally:
        await harness.stop()
