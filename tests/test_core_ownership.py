"""One process at a time runs a scope's tables on a database: leases with fencing tokens
(bot.core.ownership and the table manager's claims; issue 13, item 4; issue 17)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import RecordingPort
from test_manager import my_tiles, seat_with_robots, wait_for_turn

from bot.core import ChatRef, PlayerRef, PlayMove, TableManager
from bot.core.clock import ManualClock
from bot.core.ownership import (
    CLAIM_STALE_SECONDS,
    HEARTBEAT_SECONDS,
    OwnerId,
    TablesHeldElsewhere,
    new_owner_id,
    owner_is_gone,
    process_space,
)
from storage.base import TablesClaim

HERE = ChatRef("here", "group-1")
ANA = PlayerRef("here", "1", "Ana")


def build(storage, clock, owner: OwnerId) -> TableManager:
    manager = TableManager(
        storage, clock=clock, seed=3, robot_delay=1.0, robot_level="aprendiz", owner=owner
    )
    manager.register("*", RecordingPort())
    return manager


ONE = OwnerId("host-a", 101, "one", "boot1.41")
TWO = OwnerId("host-b", 202, "two", "boot2.42")


def test_an_owner_id_reads_back_as_it_was_written():
    assert str(ONE) == "host-a:boot1.41:101:one"
    assert OwnerId.parse(str(ONE)) == ONE
    assert OwnerId.parse("no pid here") is None
    assert OwnerId.parse("host-a:101:one") is None  # an id of an older version


def test_two_containers_with_the_same_instance_name_and_pid_1_never_judge_each_other_gone():
    # compose.yaml reused on a second machine: both are "bot-1", both PID 1; only the
    # process space (kernel boot and PID namespace) and the token tell them apart
    first = OwnerId("bot-1", 1, "a1b2c3", "boot1.4026532001")
    second = OwnerId("bot-1", 1, "d4e5f6", "boot2.4026532001")
    same_machine_other_container = OwnerId("bot-1", 1, "0a0b0c", "boot1.4026532002")
    assert str(first) != str(second)
    assert not owner_is_gone(str(first), second)
    assert not owner_is_gone(str(second), first)
    assert not owner_is_gone(str(first), same_machine_other_container)
    # an earlier life in this very PID namespace (PID reused by us) is gone
    assert owner_is_gone("bot-1:boot1.4026532001:1:old", first)


def test_a_new_owner_id_names_the_process_space_and_a_fresh_token():
    one, two = new_owner_id("bot-1"), new_owner_id("bot-1")
    assert (one.host, one.pid, one.space) == ("bot-1", os.getpid(), process_space())
    assert one.token != two.token
    assert OwnerId.parse(str(one)) == one


def test_a_claim_of_this_host_whose_process_is_gone_is_known_gone():
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(done.stdout)
    space = process_space()
    me = OwnerId("this-host", os.getpid(), "me", space)
    assert owner_is_gone(f"this-host:{space}:{dead_pid}:old", me)
    assert owner_is_gone(f"this-host:{space}:{os.getpid()}:earlier-life", me)
    assert not owner_is_gone(f"this-host:{space}:{os.getppid()}:parent", me)
    assert not owner_is_gone(f"this-host:elsewhere.1:{dead_pid}:old", me)
    assert not owner_is_gone(str(me), me)


async def test_a_second_process_is_refused_a_platform_another_runs_and_restores_nothing(
    memory_storage, clock
):
    first = build(memory_storage, clock, ONE)
    await first.start(platforms={"here"})
    table_id = await seat_with_robots(first, clock, ANA, HERE)
    second = build(memory_storage, clock, TWO)
    with pytest.raises(TablesHeldElsewhere) as refused:
        await second.start(platforms={"here", "there"})
    assert (refused.value.platform, refused.value.owner) == ("here", str(ONE))
    assert "another process (host-a:boot1.41:101:one) runs the here tables" in str(refused.value)
    assert second.tables() == []
    assert await memory_storage.tables_claim("there") is None  # all or none
    assert first.tables() == [table_id]


async def test_after_a_graceful_stop_another_process_takes_the_tables_at_once(
    memory_storage, clock
):
    first = build(memory_storage, clock, ONE)
    await first.start(platforms={"here"})
    table_id = await seat_with_robots(first, clock, ANA, HERE)
    await first.stop()
    assert await memory_storage.tables_claim("here") is None
    second = build(memory_storage, clock, TWO)
    await second.start(platforms={"here"})
    assert second.tables() == [table_id]


async def test_a_silent_claim_is_taken_over_and_its_old_owner_stops_playing_unsaved(
    memory_storage,
):
    clock = ManualClock()
    first = build(memory_storage, clock, ONE)
    await first.start(platforms={"here"})
    table_id = await seat_with_robots(first, clock, ANA, HERE)
    # the first process hangs: its heartbeat stops (its clock no longer moves)
    later = ManualClock(clock.now() + CLAIM_STALE_SECONDS + 1)
    second = build(memory_storage, later, TWO)
    await second.start(platforms={"here"})
    assert second.tables() == [table_id]
    claim = await memory_storage.tables_claim("here")
    assert claim is not None and claim.owner == str(TWO)
    # the first wakes up: its next heartbeat (at most HEARTBEAT_SECONDS later) finds
    # the claim taken and drops the table; from then on it neither moves nor saves it
    await clock.advance(HEARTBEAT_SECONDS)
    assert first.tables() == []
    [dropped] = [s for s in await memory_storage.load_tables() if s["table_id"] == table_id]
    await clock.advance(600)
    [stored] = [s for s in await memory_storage.load_tables() if s["table_id"] == table_id]
    assert stored == dropped
    assert first.match_of(table_id) is None


async def test_a_running_process_keeps_its_claim_fresh(memory_storage, clock):
    manager = build(memory_storage, clock, ONE)
    await manager.start(platforms={"here"})
    start = clock.now()
    await clock.advance(HEARTBEAT_SECONDS * 3)
    claim = await memory_storage.tables_claim("here")
    assert claim is not None and claim.heartbeat_at == start + HEARTBEAT_SECONDS * 3
    second = build(memory_storage, ManualClock(clock.now() + 5), TWO)
    with pytest.raises(TablesHeldElsewhere):
        await second.start(platforms={"here"})


async def test_a_stalled_owners_first_write_after_a_takeover_stops_its_tables_unsaved(
    memory_storage,
):
    clock = ManualClock()
    first = build(memory_storage, clock, ONE)
    await first.start(platforms={"here"})
    table_id = await seat_with_robots(first, clock, ANA, HERE)
    later = ManualClock(clock.now() + CLAIM_STALE_SECONDS + 1)
    second = build(memory_storage, later, TWO)
    await second.start(platforms={"here"})
    [taken] = [s for s in await memory_storage.load_tables() if s["table_id"] == table_id]
    # the first wakes before its heartbeat: a robot's move is its next write, refused
    # by the fence; the table stops there and the process learns it lost the scope
    await clock.advance(1.0)
    assert first.tables() == []
    assert first.scopes == []
    assert await first.lost() == "here"
    [stored] = [s for s in await memory_storage.load_tables() if s["table_id"] == table_id]
    assert stored == taken
    assert await memory_storage.tables_claim("here") == TablesClaim(
        "here", str(TWO), later.now(), 2
    )
    assert second.scopes == ["here"]


async def test_a_press_on_a_table_taken_over_is_answered_with_a_restart_and_changes_nothing(
    memory_storage,
):
    clock = ManualClock()
    first = TableManager(
        memory_storage, clock=clock, seed=3, robot_delay=1000.0, robot_level="aprendiz", owner=ONE
    )
    first.register("*", RecordingPort())
    await first.start(platforms={"here"})
    table_id = await seat_with_robots(first, clock, ANA, HERE)
    await wait_for_turn(first, clock, table_id, 0)
    tiles = await my_tiles(first, ANA, table_id)
    second = build(memory_storage, ManualClock(clock.now() + CLAIM_STALE_SECONDS + 1), TWO)
    await second.start(platforms={"here"})
    [taken] = [s for s in await memory_storage.load_tables() if s["table_id"] == table_id]
    balance = await memory_storage.balance(await first.player_id(ANA))
    reply = await first.handle(
        PlayMove(ANA, table_id, tiles.hand_number, tiles.move_number, tiles.moves[0].code)
    )
    assert reply.refusal is not None and reply.refusal.reason == "shutting_down"
    assert first.tables() == []
    assert await memory_storage.load_tables() == [taken]
    assert await memory_storage.balance(await first.player_id(ANA)) == balance
    assert second.tables() == [table_id]


async def test_a_partitioned_platform_restores_only_the_tables_of_the_scopes_claimed(
    memory_storage, clock
):
    def shard(chat: ChatRef) -> str:
        return f"here:{int(chat.chat_id) % 2}"

    first = build(memory_storage, clock, ONE)
    first.partition("here", shard)
    await first.start(platforms={"here:0", "here:1"})
    even = await seat_with_robots(first, clock, ANA, ChatRef("here", "10"))
    odd = await seat_with_robots(
        first, clock, PlayerRef("here", "2", "Beto"), ChatRef("here", "11")
    )
    await first.stop()
    second = build(memory_storage, clock, TWO)
    second.partition("here", shard)
    await second.start(platforms={"here:1"})
    assert second.tables() == [odd]
    assert second.scope_of(ChatRef("here", "10")) == "here:0"
    assert await memory_storage.tables_claim("here:0") is None
    third = build(memory_storage, clock, OwnerId("host-c", 303, "three"))
    third.partition("here", shard)
    with pytest.raises(TablesHeldElsewhere):
        await third.start(platforms={"here:0", "here:1"})
    await third.start(platforms={"here:0"})
    assert third.tables() == [even]
    # the fences went up by one with each new owner (three for here:0: the third's
    # all-or-none attempt held it for a moment before here:1 was refused)
    claims = [await memory_storage.tables_claim(s) for s in ("here:0", "here:1")]
    assert [(c.owner, c.fence) for c in claims if c] == [(third.owner, 3), (str(TWO), 2)]


async def test_a_standby_claim_fails_until_the_holder_stops_then_succeeds(memory_storage, clock):
    first = build(memory_storage, clock, ONE)
    await first.claim({"here"})
    second = build(memory_storage, clock, TWO)
    with pytest.raises(TablesHeldElsewhere):
        await second.claim({"here"})
    assert second.scopes == []
    await first.stop()
    await second.claim({"here"})
    assert second.scopes == ["here"]
    assert (await memory_storage.tables_claim("here")).fence == 2
    await second.release({"here"})
    assert second.scopes == [] and await memory_storage.tables_claim("here") is None


async def test_a_platform_is_polled_before_its_claim_and_after_a_clean_release_never_once_lost(
    memory_storage,
):
    clock = ManualClock()
    first = build(memory_storage, clock, ONE)
    assert await first.leases.may_poll("here") is True  # not claimed yet: nothing to lose
    await first.start(platforms={"here"})
    assert await first.leases.may_poll("here") is True
    await first.stop()
    assert await first.leases.may_poll("here") is True  # the stop's last poll marks read
    again = build(memory_storage, clock, ONE)
    await again.start(platforms={"here"})
    # frozen past the lease: another process takes it; woken, the first asks before
    # polling, and the check renews, finds the lease taken and refuses the poll
    later = ManualClock(clock.now() + CLAIM_STALE_SECONDS + 1)
    second = build(memory_storage, later, TWO)
    await second.start(platforms={"here"})
    clock._now = later.now()  # the first's clock, after SIGCONT
    assert await again.leases.may_poll("here") is False
    assert again.scopes == []
    assert await again.leases.may_poll("here") is False
