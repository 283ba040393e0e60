"""Stakes, settlement and refunds through the in-memory and the SQLite storage."""

from __future__ import annotations

import pytest
from conftest import RecordingPort, run_table
from test_manager import CHAT, OTHER_CHAT

from bot.core import (
    MatchEnded,
    MatchStarted,
    OpenTable,
    PlayerRef,
    PlayNow,
    Refusal,
    RobotSeat,
    SetChatRules,
)
from bot.present import texts

ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
CARLA = PlayerRef("test", "3", "Carla")


@pytest.fixture(params=["memory", "sqlite"])
def storage(request, memory_storage, sqlite_storage):
    return memory_storage if request.param == "memory" else sqlite_storage


async def test_partners_pay_the_stake_at_the_start_and_winners_get_twice_it(
    make_manager, clock, recorder: RecordingPort, storage
):
    manager = make_manager(storage=storage)
    table_id = (
        await manager.handle(OpenTable(ANA, CHAT, right=RobotSeat(), across=BETO, left=CARLA))
    ).table_id
    await manager.handle(PlayNow(BETO, CHAT))
    await manager.handle(PlayNow(CARLA, CHAT))
    await clock.advance(manager.times.countdown_seconds)
    for player in (ANA, BETO, CARLA):
        assert await manager.balance(player) == 990
    await run_table(manager, clock, table_id, [ANA, BETO, CARLA])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    ids = {p: await manager.player_id(p) for p in (ANA, BETO, CARLA)}
    if ended.winner_team == 0:
        expected = {ANA: 1010, BETO: 1010, CARLA: 990}
        assert ended.payouts == {0: 20, 2: 20}
        assert set(ended.winners) == {ANA, BETO}
    else:
        expected = {ANA: 990, BETO: 990, CARLA: 1010}
        assert ended.payouts == {3: 20}  # the robot at seat 1 is never paid
        assert ended.winners == (CARLA,)
    for player, balance in expected.items():
        assert await manager.balance(player) == balance
        assert ended.balances[ids[player]] == balance
    assert await storage.check_ledger() == []
    stats = await storage.player_stats(ids[ANA])
    assert stats.matches_played == 1 and stats.matches_won == (ended.winner_team == 0)
    top = await manager.top(CHAT)
    assert {row.player_id for row in top} == set(ids.values())


async def test_a_player_who_cannot_pay_is_told_and_not_seated(
    make_manager, clock, recorder, storage
):
    manager = make_manager(storage=storage)
    for chat in (CHAT, OTHER_CHAT):
        await manager.handle(SetChatRules(ANA, chat, "venezolano", {"stake": 1000}, is_admin=True))
    first = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    # Ana can pay $1,000 once: she sits at a second table while the first waits
    second = await manager.handle(PlayNow(ANA, OTHER_CHAT))
    assert second.ok
    await manager.handle(
        OpenTable(BETO, OTHER_CHAT, right=RobotSeat(), across=RobotSeat(), left=RobotSeat())
    )
    await manager.handle(PlayNow(CARLA, CHAT))
    from bot.core import FillWithRobots

    await manager.handle(FillWithRobots(ANA, CHAT, first))
    await clock.advance(manager.times.countdown_seconds)
    assert await manager.balance(ANA) == 0
    await manager.idle()
    assert recorder.last(MatchStarted, table_id=first).stakes == {
        await manager.player_id(ANA): 1000,
        await manager.player_id(CARLA): 1000,
    }
    # the second table starts now: she cannot pay even after the $100 top-up
    await manager.handle(FillWithRobots(ANA, OTHER_CHAT, second.table_id))
    await clock.advance(manager.times.countdown_seconds)
    await manager.idle()
    told = recorder.last(Refusal, to=ANA)
    assert told.reason == "insufficient_funds" and told.table_id == second.table_id
    assert told.params == {"balance": 100, "stake": 1000}
    assert texts.refused(told).startswith("Necesitas $1000 para sentarte y tienes $100.")
    assert second.table_id not in manager.tables()  # nobody else was there
    assert await manager.balance(ANA) == 100  # the top-up applied; nothing taken
    # and a new table refuses her at the door
    refused = await manager.handle(PlayNow(ANA, OTHER_CHAT))
    assert refused.refusal.reason == "insufficient_funds"
    assert await storage.check_ledger() == []
