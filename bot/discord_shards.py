"""Which Discord shard a server belongs to, and which shards a process serves.

Discord splits a bot's servers between gateway connections (shards): a server's events,
its slash commands and its button presses come through shard ``(guild_id >> 22) %
shard_count``; direct messages, and so the presses on tiles sent by DM, come through
shard 0 only (https://discord.com/developers/docs/events/gateway#sharding). Several
``domino run`` processes split the shards with ``DISCORD_SHARD_IDS`` and
``DISCORD_SHARD_COUNT``.

Pure, and outside the ``bot.discord`` package (like ``bot.discord_http``), so the settings
and the core can use it without importing discord.py or a front end.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["DM_SHARD", "served_shards", "shard_of"]

DM_SHARD = 0
"""The shard through which Discord sends direct messages and their interactions."""

_TIMESTAMP_SHIFT = 22
"""A snowflake's low 22 bits are worker, process and increment; the rest is its time."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that carries the server ``guild_id`` among ``shard_count`` shards.

    Discord's formula ``(guild_id >> 22) % shard_count``, the same as discord.py's.

    Raises:
        ValueError: ``shard_count`` is below 1 or ``guild_id`` is negative.
    """
    if shard_count < 1:
        raise ValueError(f"the shard count must be at least 1, not {shard_count}")
    if guild_id < 0:
        raise ValueError(f"a guild id is never negative ({guild_id})")
    return (guild_id >> _TIMESTAMP_SHIFT) % shard_count


def served_shards(shard_ids: Sequence[int] | None, shard_count: int | None) -> tuple[int, ...]:
    """The shards a process connects, in increasing order.

    Args:
        shard_ids: ``DISCORD_SHARD_IDS``, or None for every shard.
        shard_count: ``DISCORD_SHARD_COUNT``, or None to let Discord choose.

    Returns:
        ``shard_ids`` when given; else every shard of ``shard_count``; else ``(0,)``:
        without a count discord.py asks the gateway how many shards to open and opens
        them all, so the process alone serves the whole bot, named by its shard 0.

    Raises:
        ValueError: an empty list of ids, ids without a count, an id outside ``0 .. shard_count - 1``, or an
            id given twice (discord.py would open that shard twice); the message names
            the settings.
    """
    if shard_ids is None:
        return tuple(range(shard_count)) if shard_count is not None else (DM_SHARD,)
    if not shard_ids:
        raise ValueError("lists no shard id")
    if shard_count is None:
        raise ValueError(
            "needs DISCORD_SHARD_COUNT, the number of shards of the whole bot "
            "(e.g. DISCORD_SHARD_COUNT=2 with DISCORD_SHARD_IDS=0 here and 1 elsewhere)"
        )
    if len(set(shard_ids)) != len(shard_ids):
        raise ValueError(f"a shard id is given twice in {','.join(map(str, shard_ids))}")
    outside = [i for i in shard_ids if not 0 <= i < shard_count]
    if outside:
        raise ValueError(
            f"shard ids go from 0 to {shard_count - 1} (DISCORD_SHARD_COUNT={shard_count}), "
            f"not {','.join(map(str, outside))}"
        )
    return tuple(sorted(shard_ids))
