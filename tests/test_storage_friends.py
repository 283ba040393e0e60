"""Friends in storage (storage/friends.py, issue 33): requests, friendships, last seen and
platform links, run against SQLite and PostgreSQL.

Every test takes the ``store`` fixture, parametrized over ``SqliteStorage`` and
``PostgresStorage`` (a real server, tests/postgres_server.py; skipped with the reason when
none can be had), as tests/test_storage_tournaments.py does; the ledger is checked after
each.
"""

from __future__ import annotations

import pytest

from storage.base import (
    Friend,
    FriendRequest,
    RequestOutcome,
    Storage,
    UnknownPlayerError,
)

NOW = 1_800_000_000.0


async def _players(store: Storage, *names: str) -> list[int]:
    ids = []
    for index, name in enumerate(names):
        player = await store.ensure_player("telegram", str(100 + index), name, now=NOW)
        ids.append(player.id)
    return ids


async def test_a_request_waits_until_it_is_accepted_and_then_both_are_friends(
    store: Storage,
) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    assert await store.ask_friend(ana, beto, now=NOW) is RequestOutcome.SENT
    assert await store.friend_requests_to(beto) == [FriendRequest(ana, "Ana", NOW)]
    assert await store.friend_requests_to(ana) == []
    assert await store.are_friends(ana, beto) is False
    assert await store.answer_friend(beto, ana, accept=True, now=NOW + 5) is True
    assert await store.are_friends(ana, beto) is True
    assert await store.are_friends(beto, ana) is True
    assert await store.friends_of(ana) == [Friend(beto, "Beto", NOW + 5, None)]
    assert await store.friends_of(beto) == [Friend(ana, "Ana", NOW + 5, None)]
    assert await store.friend_requests_to(beto) == []


async def test_a_declined_request_is_gone_and_may_be_sent_again(store: Storage) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    await store.ask_friend(ana, beto, now=NOW)
    assert await store.answer_friend(beto, ana, accept=False, now=NOW + 1) is True
    assert await store.friend_requests_to(beto) == []
    assert await store.friends_of(beto) == []
    assert await store.ask_friend(ana, beto, now=NOW + 2) is RequestOutcome.SENT


async def test_answering_a_request_that_does_not_wait_writes_nothing(store: Storage) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    assert await store.answer_friend(beto, ana, accept=True, now=NOW) is False
    await store.ask_friend(ana, beto, now=NOW)
    # only the one asked answers: Ana cannot accept her own request
    assert await store.answer_friend(ana, beto, accept=True, now=NOW) is False
    assert await store.are_friends(ana, beto) is False


async def test_asking_twice_or_asking_a_friend_changes_nothing(store: Storage) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    await store.ask_friend(ana, beto, now=NOW)
    assert await store.ask_friend(ana, beto, now=NOW + 1) is RequestOutcome.ALREADY_ASKED
    assert await store.friend_requests_to(beto) == [FriendRequest(ana, "Ana", NOW)]
    await store.answer_friend(beto, ana, accept=True, now=NOW + 2)
    assert await store.ask_friend(beto, ana, now=NOW + 3) is RequestOutcome.ALREADY_FRIENDS
    assert await store.friend_requests_to(ana) == []


async def test_two_players_who_ask_each_other_are_friends_at_once(store: Storage) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    await store.ask_friend(ana, beto, now=NOW)
    assert await store.ask_friend(beto, ana, now=NOW + 1) is RequestOutcome.ACCEPTED
    assert await store.friends_of(ana) == [Friend(beto, "Beto", NOW + 1, None)]
    assert await store.friend_requests_to(beto) == []
    assert await store.friend_requests_to(ana) == []


async def test_either_friend_removes_the_friendship_both_ways(store: Storage) -> None:
    ana, beto, carla = await _players(store, "Ana", "Beto", "Carla")
    for other in (beto, carla):
        await store.ask_friend(ana, other, now=NOW)
        await store.answer_friend(other, ana, accept=True, now=NOW)
    assert await store.remove_friend(beto, ana) is True
    assert await store.friends_of(ana) == [Friend(carla, "Carla", NOW, None)]
    assert await store.friends_of(beto) == []
    assert await store.remove_friend(beto, ana) is False


async def test_a_player_cannot_befriend_themself_or_an_unknown_player(store: Storage) -> None:
    (ana,) = await _players(store, "Ana")
    with pytest.raises(ValueError, match="own friend"):
        await store.ask_friend(ana, ana, now=NOW)
    with pytest.raises(UnknownPlayerError):
        await store.ask_friend(ana, ana + 999, now=NOW)
    with pytest.raises(UnknownPlayerError):
        await store.friends_of(ana + 999)
    assert await store.are_friends(ana, ana) is False


async def test_last_seen_only_moves_forward_and_ignores_unknown_players(store: Storage) -> None:
    ana, beto = await _players(store, "Ana", "Beto")
    await store.ask_friend(ana, beto, now=NOW)
    await store.answer_friend(beto, ana, accept=True, now=NOW)
    await store.note_seen({beto: NOW + 60, beto + 999: NOW + 60, ana: NOW + 10})
    await store.note_seen({beto: NOW + 30})
    assert await store.friends_of(ana) == [Friend(beto, "Beto", NOW, NOW + 60)]
    assert await store.friends_of(beto) == [Friend(ana, "Ana", NOW, NOW + 10)]
    await store.note_seen({beto: NOW + 90})
    assert await store.friends_of(ana) == [Friend(beto, "Beto", NOW, NOW + 90)]
    await store.note_seen({})


async def test_a_players_platform_links_say_where_the_bot_may_write_to_them(
    store: Storage,
) -> None:
    (ana,) = await _players(store, "Ana")
    await store.link_player(ana, "discord", "555")
    assert await store.platform_links(ana) == [("discord", "555"), ("telegram", "100")]
    assert await store.platform_links(ana + 999) == []
