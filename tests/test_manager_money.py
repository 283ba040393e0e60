"""Stakes, settlement and refunds through the table manager, on a SQLite file."""

from __future__ import annotations

import pytest
from conftest import RecordingPort, run_table
from test_manager import CHAT, OTHER_CHAT

from bot.core import (
    ChatRef,
    CloseReason,
    CloseTable,
    MatchEnded,
    MatchStarted,
    OpenTable,
    PlayerRef,
    PlayNow,
    Refusal,
    RobotSeat,
    SetChatRules,
    TableClosed,
)
from bot.core.vocabulary import Ranking, RefusalReason
from bot.present import replies, texts

ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
CARLA = PlayerRef("test", "3", "Carla")
DIEGO = PlayerRef("test", "4", "Diego")
EVA = PlayerRef("test", "5", "Eva")
FIDEL = PlayerRef("test", "6", "Fidel")


@pytest.fixture
def storage(sqlite_storage):
    """A SQLite file, as the bot keeps its money (tests/test_storage_base.py runs the money
    rules on PostgreSQL as well)."""
    return sqlite_storage


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
    top = await manager.standings(Ranking.BALANCE, CHAT)
    assert {row.player_id for row in top.rows} == set(ids.values())
    rated = await manager.standings(Ranking.RATING, CHAT)
    assert {row.player_id for row in rated.rows} == set(ids.values())


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
    assert replies.refused(told).startswith("Necesitas $1000 para sentarte y tienes $100.")
    assert second.table_id not in manager.tables()  # nobody else was there
    assert await manager.balance(ANA) == 100  # the top-up applied; nothing taken
    # and a new table refuses her at the door
    refused = await manager.handle(PlayNow(ANA, OTHER_CHAT))
    assert refused.refusal.reason == "insufficient_funds"
    assert await storage.check_ledger() == []


async def _started_table(manager, clock, chat=CHAT, players=(ANA, BETO, CARLA)) -> str:
    """The first two players partners, the third against them, a robot at seat 1; the
    match started and the stakes taken."""
    first, partner, rival = players
    table_id = (
        await manager.handle(OpenTable(first, chat, right=RobotSeat(), across=partner, left=rival))
    ).table_id
    await manager.handle(PlayNow(partner, chat))
    await manager.handle(PlayNow(rival, chat))
    await clock.advance(manager.times.countdown_seconds)
    assert manager.match_of(table_id) is not None
    return table_id


async def test_a_chat_the_bot_cannot_reach_closes_its_tables_once_and_refunds_every_stake(
    make_manager, clock, recorder: RecordingPort, storage
):
    manager = make_manager(storage=storage)
    table_id = await _started_table(manager, clock)
    elsewhere = await _started_table(manager, clock, OTHER_CHAT, (DIEGO, EVA, FIDEL))
    for player in (ANA, BETO, CARLA):
        assert await manager.balance(player) == 990
    assert await manager.chat_unreachable("test", "group-1") == [table_id]
    assert await manager.chat_unreachable("test", "group-1") == []
    await manager.idle()
    closed = recorder.of(TableClosed, table_id=table_id)
    assert [c.reason for c in closed] == [CloseReason.UNREACHABLE]
    assert set(closed[0].humans) == {ANA, BETO, CARLA}
    ids = {p: await manager.player_id(p) for p in (ANA, BETO, CARLA)}
    assert dict(closed[0].refunds) == {ids[ANA]: 10, ids[BETO]: 10, ids[CARLA]: 10}
    for player in (ANA, BETO, CARLA):
        assert await manager.balance(player) == 1000
    assert manager.tables() == [elsewhere]
    assert [t["table_id"] for t in await storage.load_tables()] == [elsewhere]
    assert await storage.check_ledger() == []
    assert texts.closed_text(closed[0], "es") == (
        f"La mesa {closed[0].label} se cerró: el bot ya no puede usar su chat. "
        "Nadie pierde: se devolvieron las apuestas."
    )


async def test_an_unreachable_channel_closes_only_the_tables_shown_there(
    make_manager, clock, recorder: RecordingPort, storage
):
    manager = make_manager(storage=storage)
    first = ChatRef("test", "server", channel_id="c1")
    second = ChatRef("test", "server", channel_id="c2")
    gone = await _started_table(manager, clock, first)
    kept = await _started_table(manager, clock, second, (DIEGO, EVA, FIDEL))
    assert await manager.chat_unreachable("test", "server", "c1") == [gone]
    assert manager.tables() == [kept]
    assert await manager.balance(ANA) == 1000
    assert await manager.balance(DIEGO) == 990


async def test_an_admin_closes_a_stuck_table_of_their_chat_and_every_stake_is_refunded(
    make_manager, clock, recorder: RecordingPort, storage
):
    manager = make_manager(storage=storage, stuck_seconds=0)  # every match counts as stuck
    table_id = await _started_table(manager, clock)
    reply = await manager.handle(CloseTable(DIEGO, CHAT, is_admin=True))
    assert (reply.ok, reply.table_id) == (True, table_id)
    await manager.idle()
    closed = recorder.last(TableClosed, table_id=table_id)
    assert closed.reason is CloseReason.BY_ADMIN
    for player in (ANA, BETO, CARLA):
        assert await manager.balance(player) == 1000
    assert manager.tables() == []
    assert await storage.check_ledger() == []
    assert texts.closed_text(closed, "es") == (
        "Un administrador cerró la mesa; se devolvieron las apuestas."
    )


async def test_closing_a_table_is_refused_to_a_player_who_is_not_an_admin(
    make_manager, clock, storage
):
    manager = make_manager(storage=storage)
    table_id = await _started_table(manager, clock)
    reply = await manager.handle(CloseTable(ANA, CHAT, is_admin=False))
    assert reply.refusal is not None and reply.refusal.reason is RefusalReason.NOT_ADMIN
    assert manager.tables() == [table_id]
    assert await manager.balance(ANA) == 990


async def test_closing_with_two_tables_in_one_place_asks_which_and_closes_none(
    make_manager, clock, storage
):
    manager = make_manager(storage=storage, stuck_seconds=0)  # every match counts as stuck
    one = await _started_table(manager, clock, CHAT, (DIEGO, EVA, FIDEL))
    two = await _started_table(manager, clock)
    reply = await manager.handle(CloseTable(ANA, CHAT, is_admin=True))
    assert reply.refusal is not None and reply.refusal.reason is RefusalReason.WHICH_TABLE
    assert sorted(manager.tables()) == sorted([one, two])
    by_id = await manager.handle(CloseTable(DIEGO, CHAT, table_id=two, is_admin=True))
    assert by_id.ok
    assert manager.tables() == [one]
    label = manager.table_state(one).label
    unknown = await manager.handle(CloseTable(ANA, CHAT, label="99", is_admin=True))
    assert unknown.refusal is not None and unknown.refusal.reason is RefusalReason.NO_TABLE
    elsewhere = await manager.handle(CloseTable(ANA, OTHER_CHAT, label=label, is_admin=True))
    assert elsewhere.refusal is not None and elsewhere.refusal.reason is RefusalReason.NO_TABLE
    foreign = await manager.handle(CloseTable(ANA, OTHER_CHAT, table_id=one, is_admin=True))
    assert foreign.refusal is not None and foreign.refusal.reason is RefusalReason.TABLE_GONE
    assert manager.tables() == [one]
    assert (await manager.handle(CloseTable(ANA, CHAT, label=label, is_admin=True))).ok
    assert manager.tables() == []
