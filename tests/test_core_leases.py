"""This process's leases through faults, on a real PostgreSQL whose outage is a real stop
and start of its server (bot.core.leases; issue 28, "Leases through faults")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from conftest import RecordingPort
from test_manager import seat_with_robots

from bot.core import ChatRef, PlayerRef, PlayNow, TableManager
from bot.core.clock import ManualClock
from bot.core.events import TableChanged
from bot.core.ownership import LeaseTimes, OwnerId
from tests.postgres_server import PostgresServer, pg_ctl

HERE = ChatRef("here", "group-1")
ANA = PlayerRef("here", "1", "Ana")
TIMES = LeaseTimes(heartbeat=1.0, takeover=4.0, standby=0.5)
ONE = OwnerId("bot-1", 1, "one", "boot1.1")
TWO = OwnerId("bot-1", 1, "two", "boot2.1")


@pytest.fixture
async def dsn(own_server: PostgresServer) -> AsyncIterator[str]:
    dsn = await own_server.create_database()
    yield dsn
    await own_server.drop_database(dsn)


async def manager_on(
    dsn: str, clock: ManualClock, owner: OwnerId
) -> tuple[TableManager, RecordingPort]:
    from storage.postgres import PostgresStorage

    storage = await PostgresStorage.open(dsn)
    port = RecordingPort()
    manager = TableManager(
        storage, clock=clock, seed=3, robot_delay=1.0, robot_level="aprendiz", owner=owner,
        lease_times=TIMES,
    )  # fmt: skip
    manager.register("*", port)
    return manager, port


async def a_table_waiting_for_players(manager: TableManager) -> str:
    """A table Ana opened, waiting for players (no timer of its own is due for minutes:
    only the lease's heartbeat runs)."""
    reply = await manager.handle(PlayNow(ANA, HERE))
    assert reply.ok and reply.table_id is not None
    return reply.table_id


async def test_a_renewal_missed_in_an_outage_is_retried_and_the_lease_is_kept(
    own_server: PostgresServer, dsn: str
) -> None:
    clock = ManualClock()
    manager, _ = await manager_on(dsn, clock, ONE)
    try:
        await manager.start(platforms={"here"})
        table_id = await a_table_waiting_for_players(manager)
        pg_ctl(own_server, "stop")
        try:
            await clock.advance(TIMES.heartbeat)  # the renewal fails: retried next beat
            assert manager.leases.healthy is False
            assert manager.scopes == ["here"]
        finally:
            pg_ctl(own_server, "start")
        # the first beat after the start may meet the connection the stop closed; the
        # storage connects again and a later beat renews, well within the takeover time
        await clock.advance(2 * TIMES.heartbeat)
        assert manager.leases.healthy is True
        assert manager.scopes == ["here"]
        assert manager.tables() == [table_id]
        claim = await manager.storage.tables_claim("here")
        assert claim is not None
        assert (claim.owner, claim.heartbeat_at) == (str(ONE), clock.now())
    finally:
        await manager.stop()
        await manager.storage.close()


async def test_an_outage_longer_than_the_takeover_time_stops_the_tables_and_sends_nothing(
    own_server: PostgresServer, dsn: str
) -> None:
    clock = ManualClock()
    manager, port = await manager_on(dsn, clock, ONE)
    try:
        await manager.start(platforms={"here"})
        table_id = await a_table_waiting_for_players(manager)
        await manager.idle()
        pg_ctl(own_server, "stop")
        try:
            sent = len(port.events)
            # beats at 1, 2, 3, 4 s fail; the one after the takeover time gives up
            await clock.advance(TIMES.takeover + TIMES.heartbeat)
            await manager.idle()
        finally:
            pg_ctl(own_server, "start")
        assert await manager.lost() == "here"
        assert manager.scopes == []
        assert manager.tables() == []
        assert manager.tables_dropped == 1
        # nothing more left the process: no robot move, no board, after the outage began
        assert port.events[sent:] == []
        await clock.advance(10.0)
        await manager.idle()
        assert port.events[sent:] == []
        # another process (same name, same PID 1, another container) takes it over
        second, _ = await manager_on(dsn, ManualClock(clock.now()), TWO)
        try:
            await second.start(platforms={"here"})
            assert second.tables() == [table_id]
        finally:
            await second.stop()
            await second.storage.close()
    finally:
        await manager.stop()
        await manager.storage.close()


async def test_a_process_woken_after_its_lease_was_taken_sends_nothing(
    own_server: PostgresServer, dsn: str
) -> None:
    clock = ManualClock()
    manager, port = await manager_on(dsn, clock, ONE)
    try:
        await manager.start(platforms={"here"})
        table_id = await seat_with_robots(manager, clock, ANA, HERE)
        await manager.idle()
        sent = len(port.events)
        # SIGSTOP: its clock jumps past the lease while another process takes it over
        later = ManualClock(clock.now() + TIMES.takeover + 1)
        second, _ = await manager_on(dsn, later, TWO)
        await second.start(platforms={"here"})
        assert second.tables() == [table_id]
        # woken: a robot's move is due and its board would be sent; the lease is
        # checked first and nothing leaves
        await clock.advance(TIMES.takeover + 1)
        await manager.idle()
        assert manager.tables() == []
        assert [e for e in port.events[sent:] if isinstance(e, TableChanged)] == []
        assert port.events[sent:] == []
        await second.stop()
        await second.storage.close()
    finally:
        await manager.stop()
        await manager.storage.close()


async def test_a_takeover_that_waited_on_a_frozen_holders_row_lock_keeps_its_lease(
    own_server: PostgresServer, dsn: str
) -> None:
    import asyncpg

    clock = ManualClock()
    first, _ = await manager_on(dsn, clock, ONE)
    await first.start(platforms={"here"})
    table_id = await a_table_waiting_for_players(first)
    # the first process froze inside a transaction that holds its lease's row
    frozen = await asyncpg.connect(dsn)
    transaction = frozen.transaction()
    await transaction.start()
    await frozen.execute("SELECT * FROM table_claims WHERE platform = 'here' FOR UPDATE")
    later = ManualClock(clock.now() + TIMES.takeover + 1)
    second, _ = await manager_on(dsn, later, TWO)
    try:
        starting = asyncio.ensure_future(second.start(platforms={"here"}))
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        for _ in range(500):
            if await frozen.fetchval(waiting) == 1:
                break
            await asyncio.sleep(0.01)
        assert await frozen.fetchval(waiting) == 1
        # the server ends the frozen transaction only after a while (its idle timeout):
        # the claim took longer than the lease
        await later.advance(TIMES.takeover + 1)
        await transaction.rollback()
        await starting
        assert second.tables() == [table_id]
        claim = await second.storage.tables_claim("here")
        assert claim is not None
        assert (claim.owner, claim.heartbeat_at) == (str(TWO), later.now())
        # its next beat renews: the lease is kept, not dropped as expired
        await later.advance(TIMES.heartbeat)
        assert second.scopes == ["here"]
        assert second.tables() == [table_id]
        assert second.leases.healthy is True
    finally:
        await frozen.close()
        await second.stop()
        await second.storage.close()
        await first.stop()
        await first.storage.close()
