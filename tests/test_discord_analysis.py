"""'¿Qué debí jugar?' on Discord (bot/discord/analysis.py), through the real discord.py and
the fake Discord."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from tests.fake_discord import FakeDiscord, Harness, play_until_closed, seat_and_fill

COMING = "Tu análisis ya viene en camino: llega en unos segundos."


class GatedExecutor(ThreadPoolExecutor):
    """One thread; each search waits for :attr:`gate` and is counted."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = threading.Event()
        self.searches = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.searches += 1

        def gated() -> Any:
            self.gate.wait(timeout=30)
            return fn(*args, **kwargs)

        return super().submit(gated)


async def test_five_fast_presses_start_one_search_and_each_gets_one_private_answer(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    ana.permissions |= 1 << 5  # she manages the server: a short match
    guild = next(iter(fake.guilds))
    await fake.replied(
        await fake.slash(ana, guild, "domino-config", options={"reglas": "venezolano", "meta": 50})
    )
    await seat_and_fill(fake, harness, ana)
    await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    executor = GatedExecutor()
    harness.manager.wiring.analyst._executor = executor  # the search waits until the presses are in
    channel = fake.channel_of(guild)
    result = next(
        m for m in reversed(fake.messages_in(channel))
        if any(i.startswith("dma:") for i in m.custom_ids())
    )  # fmt: skip
    (custom_id,) = result.custom_ids()
    presses = []
    for _ in range(5):
        press = await fake.click(ana, result, custom_id)
        await fake.answered(press)
        presses.append(press)
    repeats = [(await fake.replied(p))[0] for p in presses[1:]]
    assert [(m.content, m.ephemeral) for m in repeats] == [(COMING, True)] * 4
    executor.gate.set()
    (analysis,) = await fake.replied(presses[0], timeout=30)
    assert analysis.ephemeral and analysis.content.startswith("Mano ")
    # Once done, a press gets the same analysis again, without a new search.
    again = await fake.replied(await fake.click(ana, result, custom_id), timeout=30)
    assert [(m.content, m.ephemeral) for m in again] == [(analysis.content, True)]
    assert executor.searches == 1
    # one answer each (the deferred "thinking…" response itself says nothing)
    assert [len([m for m in p.replies() if m.content]) for p in presses] == [1] * 5
    await asyncio.to_thread(executor.shutdown)
