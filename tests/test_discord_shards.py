"""Discord's shard of a server and the shards a process serves (bot/discord_shards.py)."""

from __future__ import annotations

import pytest

from bot.discord_shards import DM_SHARD, served_shards, shard_of

# A server id (a snowflake of 2016); its time part, id >> 22, is 46977624770.
SERVER = 197038439483310086


def test_the_shard_of_a_server_is_the_time_part_of_its_id_modulo_the_count() -> None:
    assert [shard_of(SERVER, count) for count in (1, 2, 3, 7)] == [0, 0, 2, 6]


def test_ids_that_differ_only_in_their_low_22_bits_share_a_shard() -> None:
    base = 5 << 22
    assert [shard_of(base + low, 4) for low in (0, 1, (1 << 22) - 1)] == [1, 1, 1]
    assert shard_of(base + (1 << 22), 4) == 2


def test_every_server_is_on_shard_0_of_a_single_shard() -> None:
    assert {shard_of(guild, 1) for guild in (0, 1 << 22, SERVER)} == {0}


@pytest.mark.parametrize(("guild", "count"), [(1 << 22, 0), (1 << 22, -2), (-1, 2)])
def test_a_count_below_one_or_a_negative_id_is_refused(guild: int, count: int) -> None:
    with pytest.raises(ValueError):
        shard_of(guild, count)


def test_direct_messages_come_through_shard_0() -> None:
    assert DM_SHARD == 0


def test_given_shard_ids_are_served_in_increasing_order() -> None:
    assert served_shards([3, 1], 4) == (1, 3)


def test_without_ids_every_shard_of_the_count_is_served() -> None:
    assert served_shards(None, 3) == (0, 1, 2)


def test_without_a_count_the_process_serves_the_whole_bot_named_by_shard_0() -> None:
    assert served_shards(None, None) == (0,)


@pytest.mark.parametrize(
    ("ids", "count", "message"),
    [
        ([0], None, "needs DISCORD_SHARD_COUNT"),
        ([], 2, "lists no shard id"),
        ([0, 0], 2, "a shard id is given twice in 0,0"),
        ([0, 2, -1], 2, "shard ids go from 0 to 1 (DISCORD_SHARD_COUNT=2), not 2,-1"),
    ],
)
def test_ids_without_a_count_empty_repeated_or_outside_it_are_refused(
    ids: list[int], count: int | None, message: str
) -> None:
    with pytest.raises(ValueError) as info:
        served_shards(ids, count)
    assert str(info.value).startswith(message)
