"""Delivery of events to the ports (bot.core.outbox): in order per table, to the right
platform, and never stopped by a failing port."""

from __future__ import annotations

import logging

from conftest import RecordingPort
from core_parts import ANA, BETO, CHAT

from bot.core import ChatRef, ChatRulesChanged, PlayerRef, PlayerSeated, Refusal, RefusalReason
from bot.core.outbox import Outbox
from bot.core.table import Table
from engine.rules import find_preset

DISCORD = ChatRef("discord", "guild-1", channel_id="9")
TELEGRAM_ANA = PlayerRef("telegram", "1", "Ana")


def new_table(chat: ChatRef = CHAT, table_id: str = "abc") -> Table:
    return Table(
        id=table_id,
        label="1",
        chat=chat,
        rules=find_preset("venezolano"),
        seed=1,
        created_at=0.0,
        robot_level="aprendiz",
    )


def seated(table: Table, seat: int, player: PlayerRef = ANA) -> PlayerSeated:
    return PlayerSeated(table_id=table.id, chat=table.chat, seat=seat, player=player)


class FailingPort:
    def __init__(self) -> None:
        self.tries = 0

    async def deliver(self, event) -> None:
        self.tries += 1
        raise RuntimeError("the platform is down")


async def test_a_tables_events_arrive_in_the_order_they_were_emitted():
    outbox, port = Outbox(), RecordingPort()
    outbox.register("test", port)
    table = new_table()
    events = [seated(table, seat) for seat in range(4)]
    for event in events:
        outbox.emit(table, event)
    assert outbox.busy is True
    await outbox.idle()
    assert port.events == events
    assert outbox.busy is False
    assert list(table.outbox) == []


async def test_an_event_no_port_shows_is_dropped_at_once():
    outbox, port = Outbox(), RecordingPort()
    outbox.register("telegram", port)
    table = new_table(DISCORD)
    outbox.emit(table, seated(table, 0))
    assert list(table.outbox) == []
    assert table.sender is None
    await outbox.idle()
    assert port.events == []


async def test_a_private_event_goes_to_the_players_platform_not_the_tables():
    outbox, discord, telegram = Outbox(), RecordingPort(), RecordingPort()
    outbox.register("discord", discord)
    outbox.register("telegram", telegram)
    table = new_table(DISCORD)
    refusal = Refusal(to=TELEGRAM_ANA, reason=RefusalReason.STALE, table_id=table.id)
    public = seated(table, 0, TELEGRAM_ANA)
    outbox.emit(table, refusal)
    outbox.emit(table, public)
    await outbox.idle()
    assert telegram.events == [refusal]
    assert discord.events == [public]


async def test_the_any_platform_port_receives_every_event():
    outbox, everything = Outbox(), RecordingPort()
    outbox.register("*", everything)
    first, second = new_table(CHAT, "t1"), new_table(DISCORD, "t2")
    outbox.emit(first, seated(first, 0))
    outbox.emit(second, seated(second, 1, BETO))
    await outbox.idle()
    assert sorted((e.table_id, e.seat) for e in everything.events) == [("t1", 0), ("t2", 1)]


async def test_a_failing_port_is_logged_and_the_other_ports_and_later_events_carry_on(caplog):
    outbox, failing, port = Outbox(), FailingPort(), RecordingPort()
    outbox.register("test", failing)
    outbox.register("test", port)
    table = new_table()
    events = [seated(table, 0), seated(table, 1, BETO)]
    with caplog.at_level(logging.ERROR, logger="bot.core"):
        for event in events:
            outbox.emit(table, event)
        await outbox.idle()
    assert port.events == events
    assert failing.tries == 2
    assert [r.getMessage() for r in caplog.records] == ["port failed to deliver PlayerSeated"] * 2


async def test_a_chat_event_is_delivered_without_a_table():
    outbox, port = Outbox(), RecordingPort()
    outbox.register("test", port)
    changed = ChatRulesChanged(
        table_id="",
        chat=CHAT,
        preset="venezolano",
        overrides={},
        rules=find_preset("venezolano"),
        by=ANA,
    )
    outbox.emit_chat(changed)
    await outbox.idle()
    assert port.events == [changed]


async def test_a_tables_events_wait_until_its_save_is_done_and_a_lost_one_sends_nothing():
    import asyncio

    outbox, port = Outbox(), RecordingPort()
    outbox.register("*", port)
    table = new_table()
    # a move: its events are queued, then its snapshot is being written
    outbox.emit(table, seated(table, 0))
    table.saved.clear()
    for _ in range(5):
        await asyncio.sleep(0)
    assert port.events == []  # a kill now loses nothing the player was shown
    table.saved.set()
    await outbox.idle()
    assert port.events == [seated(table, 0)]
    # a table whose lease was lost during its save sends nothing more
    outbox.emit(table, seated(table, 1))
    table.saved.clear()
    await asyncio.sleep(0)
    table.dropped = True
    table.saved.set()
    await outbox.idle()
    assert port.events == [seated(table, 0)]


async def test_the_lease_check_is_asked_before_each_event_of_a_table_leaves():
    outbox, port = Outbox(), RecordingPort()
    outbox.register("*", port)
    table = new_table()
    asked: list[str] = []

    async def not_held(t: Table) -> bool:
        asked.append(t.id)
        return False

    outbox.may_send = not_held
    outbox.emit(table, seated(table, 0))
    outbox.emit(table, seated(table, 1))
    await outbox.idle()
    assert (asked, port.events) == (["abc"], [])
