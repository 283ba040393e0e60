"""The relay of DM presses between the processes of a split Discord bot
(bot/discord/relay.py), on its own: stand-in gateway parsers and the in-process notices
of a SQLite database on ``:memory:``. tests/test_discord_frontend.py plays it through the real discord.py and the fake."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.core.buttons import encode_press
from bot.discord.relay import CHANNEL, TAKEN_WAIT, PressRelay
from storage import open_storage
from storage.base import Storage


def dm_press(table_id: str, interaction_id: str = "901") -> dict[str, Any]:
    return {
        "id": interaction_id,
        "type": 3,
        "token": "token-901",
        "data": {"custom_id": encode_press(table_id, 1, 4, "65l"), "component_type": 2},
        "message": {
            "id": "77",
            "content": "Tu turno en la mesa 1",
            "embeds": [{"title": "x" * 500}],
            "attachments": [{"id": "5"}],
            "mentions": [],
            "components": [{"type": 1, "components": [{"custom_id": "b"}]}],
            "flags": 0,
        },
    }


class Process:
    """One process's side: its live tables, its relay and what its gateway dispatched."""

    def __init__(self, notices: Storage, name: str, live: set[str], *, relays: bool):
        self.live = live
        self.dispatched: list[dict[str, Any]] = []
        self.relay = PressRelay(notices, live.__contains__, name, relays=relays)
        self.parsers: dict[str, Any] = {"INTERACTION_CREATE": self.dispatched.append}

    async def install(self) -> Process:
        await self.relay.install(self.parsers)
        return self

    def receive(self, data: dict[str, Any]) -> None:
        """The gateway hands the process an interaction."""
        self.parsers["INTERACTION_CREATE"](data)


@pytest.fixture
async def notices() -> AsyncIterator[Storage]:
    storage = await open_storage(":memory:")
    yield storage
    await storage.close()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_dm_press_of_a_table_played_elsewhere_is_dispatched_only_by_that_process(
    notices: Storage,
) -> None:
    heard: list[str] = []
    await notices.subscribe(CHANNEL, heard.append)
    shard0 = await Process(notices, "p0", set(), relays=True).install()
    shard1 = await Process(notices, "p1", {"t1"}, relays=False).install()
    shard0.receive(dm_press("t1"))
    await settle()
    await shard0.relay.close()
    assert shard0.dispatched == []
    [relayed] = shard1.dispatched
    assert relayed["id"] == "901" and relayed["token"] == "token-901"
    assert relayed["data"] == dm_press("t1")["data"]
    # the message keeps its id and buttons; its text and pictures are not carried
    assert relayed["message"] == {
        "id": "77",
        "content": "",
        "embeds": [],
        "attachments": [],
        "mentions": [],
        "components": [{"type": 1, "components": [{"custom_id": "b"}]}],
        "flags": 0,
    }
    assert [h.split(",")[0] for h in heard] == ['{"kind":"press"', '{"kind": "taken"']


async def test_a_dm_press_nobody_takes_is_dispatched_where_it_arrived_after_the_wait(
    notices: Storage,
) -> None:
    shard0 = await Process(notices, "p0", set(), relays=True).install()
    await Process(notices, "p1", {"another"}, relays=False).install()
    loop = asyncio.get_running_loop()
    started = loop.time()
    shard0.receive(dm_press("gone"))
    await shard0.relay.close()
    assert loop.time() - started >= TAKEN_WAIT
    assert shard0.dispatched == [dm_press("gone")]  # whole: refused here as any gone table


async def test_presses_of_live_tables_server_presses_and_a_process_that_does_not_relay_stay_here(
    notices: Storage,
) -> None:
    heard: list[str] = []
    await notices.subscribe(CHANNEL, heard.append)
    shard0 = await Process(notices, "p0", {"mine"}, relays=True).install()
    whole = await Process(notices, "solo", set(), relays=False).install()
    in_a_server = {**dm_press("elsewhere"), "guild_id": "1200"}
    slash = {"id": "3", "type": 2, "data": {"name": "domino"}}
    forged = {**dm_press("x"), "data": {"custom_id": "not ours", "component_type": 2}}
    for data in (dm_press("mine"), in_a_server, slash, forged):
        shard0.receive(data)
    whole.receive(dm_press("elsewhere"))
    await settle()
    assert shard0.dispatched == [dm_press("mine"), in_a_server, slash, forged]
    assert whole.dispatched == [dm_press("elsewhere")]
    assert heard == []


async def test_malformed_own_and_foreign_notices_change_nothing(notices: Storage) -> None:
    shard1 = await Process(notices, "p1", {"t1"}, relays=False).install()
    for text in (
        "not json",
        '{"kind": "press"}',
        '{"kind": "press", "from": "p1", "table": "t1", "data": {"id": "1"}}',  # its own
        '{"kind": "press", "from": "p0", "table": "t9", "data": {"id": "1"}}',  # not live here
        '{"kind": "press", "from": "p0", "table": "t1", "data": "nope"}',
        '{"kind": "taken", "from": "p0", "id": "nobody waits"}',
    ):
        await notices.publish(CHANNEL, text)
    await settle()
    assert shard1.dispatched == []


async def test_a_friends_invitation_pressed_in_a_dm_goes_to_the_process_of_its_table(
    notices: Storage,
) -> None:
    from bot.core.buttons import FriendAction, encode_friend

    shard0 = await Process(notices, "p0", set(), relays=True).install()
    shard1 = await Process(notices, "p1", {"t1"}, relays=False).install()
    press = dm_press("t1")
    press["data"]["custom_id"] = encode_friend(FriendAction.SIT, "t1.k2m9x3")
    shard0.receive(press)
    accept = dm_press("t1", "902")
    accept["data"]["custom_id"] = encode_friend(FriendAction.ACCEPT, 12)
    shard0.receive(accept)  # a friend request's answer: any process may take it
    await settle()
    await shard0.relay.close()
    assert [d["id"] for d in shard1.dispatched] == ["901"]
    assert [d["id"] for d in shard0.dispatched] == ["902"]
