"""The table manager's dispatch (bot.core.bus): one handler per command type, the lobby
lock, button presses decoded into the commands they stand for."""

from __future__ import annotations

import asyncio
from typing import get_args

import pytest
from core_parts import ANA, BETO, CHAT

from bot.core import (
    AcceptLinkCode,
    Challenge,
    CloseTable,
    ComeBack,
    Command,
    DeclineChallenge,
    Emote,
    FillWithRobots,
    FriendPress,
    GiveLinkCode,
    InviteFriend,
    Leave,
    OpenTable,
    PlayMove,
    PlayNow,
    PressButton,
    PressKind,
    Rematch,
    ShowMyTiles,
    SitAt,
    Unlink,
    encode_action,
    encode_press,
)
from bot.core.vocabulary import RefusalReason
from storage import open_storage
from storage.sqlite import SqliteStorage

SEATING = {
    PlayNow,
    OpenTable,
    SitAt,
    Rematch,
    Leave,
    CloseTable,
    Challenge,
    DeclineChallenge,
    InviteFriend,  # keeps a seat for a friend
    FriendPress,  # an invitation's button seats its friend
    GiveLinkCode,  # linking is refused while seated: no seat may change meanwhile
    AcceptLinkCode,
    Unlink,
}


class YieldingStorage(SqliteStorage):
    """A storage that lets other tasks run before it opens an account, as a database
    another process also writes to would."""

    async def ensure_player(self, *args, **kwargs):
        await asyncio.sleep(0)
        return await super().ensure_player(*args, **kwargs)


@pytest.fixture
async def yielding_storage():
    storage = await YieldingStorage.open(":memory:")
    yield storage
    await storage.close()


@pytest.fixture
async def other_storage():
    """A second database, apart from ``memory_storage``."""
    storage = await open_storage(":memory:")
    yield storage
    await storage.close()


def test_every_command_type_has_exactly_one_handler(make_manager):
    manager = make_manager()
    commands = get_args(Command)
    assert len(commands) == len(set(commands)) == 35
    assert set(manager.wiring.bus.handlers) == set(commands)


def test_the_commands_that_seat_or_unseat_run_under_the_lobby_lock(make_manager):
    manager = make_manager()
    assert {kind for kind, (_, lobby) in manager.wiring.bus.handlers.items() if lobby} == SEATING


async def test_two_concurrent_play_nows_in_one_place_end_at_one_table(
    make_manager, yielding_storage
):
    manager = make_manager(storage=yielding_storage)
    first, second = await asyncio.gather(
        manager.handle(PlayNow(ANA, CHAT)), manager.handle(PlayNow(BETO, CHAT))
    )
    assert first.ok and second.ok
    assert first.table_id == second.table_id
    assert manager.tables() == [first.table_id]
    assert {first.seat, second.seat} == {0, 1}


async def test_an_object_that_is_not_a_command_raises_type_error(make_manager):
    manager = make_manager()
    with pytest.raises(TypeError):
        await manager.handle("play now")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        await manager.handle(ANA)  # type: ignore[arg-type]


@pytest.mark.parametrize("payload", ["", "dm1:z:abc:", "dm1:m:abc:1:1:6x", "dm9:l:abc:"])
async def test_a_forged_payload_is_refused_forged_to_the_presser(make_manager, payload):
    manager = make_manager()
    reply = await manager.handle(PressButton(ANA, payload, CHAT))
    assert reply.refusal is not None
    assert (reply.refusal.reason, reply.refusal.to) == (RefusalReason.FORGED, ANA)
    assert manager.tables() == []


async def test_a_press_for_an_unknown_table_without_a_chat_is_refused_table_gone(make_manager):
    manager = make_manager()
    reply = await manager.handle(PressButton(ANA, encode_action("leave", "nosuch")))
    assert reply.refusal is not None
    assert (reply.refusal.reason, reply.refusal.table_id) == (RefusalReason.TABLE_GONE, "nosuch")


def pair(kind: PressKind, table_id: str):
    """The payload of a ``kind`` button at ``table_id`` and the command it stands for."""
    return {
        PressKind.MOVE: (
            encode_press(table_id, 1, 1, "64"),
            PlayMove(ANA, table_id, 1, 1, "64", CHAT),
        ),
        PressKind.SIT: (encode_action("sit", table_id, 2), SitAt(BETO, CHAT, table_id, 2)),
        PressKind.ROBOTS: (encode_action("robots", table_id), FillWithRobots(ANA, CHAT, table_id)),
        PressKind.EMOTE: (
            encode_action("emote", table_id, "hola"),
            Emote(ANA, "hola", CHAT, table_id),
        ),
        PressKind.TILES: (encode_action("tiles", table_id), ShowMyTiles(ANA, CHAT, table_id)),
        PressKind.BACK: (encode_action("back", table_id), ComeBack(ANA, CHAT, table_id)),
        PressKind.LEAVE: (encode_action("leave", table_id), Leave(ANA, CHAT, table_id)),
        PressKind.AGAIN: (encode_action("again", table_id), Rematch(ANA, CHAT, table_id)),
        PressKind.DECLINE: (
            encode_action("decline", table_id),
            DeclineChallenge(BETO, CHAT, table_id),
        ),
    }[kind]


@pytest.mark.parametrize("kind", list(PressKind))
async def test_a_press_has_the_same_result_as_the_command_it_stands_for(
    make_manager, other_storage, kind
):
    pressed = make_manager()
    commanded = make_manager(storage=other_storage)
    table_id = (await pressed.handle(PlayNow(ANA, CHAT))).table_id
    assert (await commanded.handle(PlayNow(ANA, CHAT))).table_id == table_id
    payload, command = pair(kind, table_id)
    player = command.player
    by_press = await pressed.handle(PressButton(player, payload, CHAT))
    by_command = await commanded.handle(command)
    assert by_press == by_command
    assert pressed.table_state(table_id) == commanded.table_state(table_id)
    assert pressed.tables() == commanded.tables()
