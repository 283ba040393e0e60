"""The message bus (bot.core.messagebus): a chore runs through its one handler and
returns that handler's result; what is not a chore or a command is a TypeError. The
dispatch of the players' commands is tested through the manager in test_core_bus.py."""

from __future__ import annotations

import pytest
from core_parts import ANA, CHAT

from bot.core import ChatUnreachable, MoveChat, PlayNow, SetFrontEndNote


async def test_a_chore_returns_what_its_handler_returns(make_manager) -> None:
    manager = make_manager()
    seated = await manager.handle(PlayNow(ANA, CHAT))
    assert await manager.run(SetFrontEndNote(seated.table_id, "test.board", {"id": 7})) is True
    assert manager.front_end_note(seated.table_id, "test.board") == {"id": 7}
    assert await manager.run(SetFrontEndNote("no-such-table", "test.board", 1)) is False


async def test_a_chat_moved_by_a_chore_takes_its_live_tables_along(make_manager) -> None:
    manager = make_manager()
    seated = await manager.handle(PlayNow(ANA, CHAT))
    moved = await manager.run(MoveChat(CHAT.platform, CHAT.chat_id, "group-2"))
    assert moved == [seated.table_id]
    assert manager.table_state(seated.table_id).chat.chat_id == "group-2"
    assert await manager.run(MoveChat(CHAT.platform, CHAT.chat_id, "group-2")) == []


async def test_a_chore_that_fails_changes_nothing_and_raises_its_handlers_error(
    make_manager,
) -> None:
    manager = make_manager()
    seated = await manager.handle(PlayNow(ANA, CHAT))
    with pytest.raises(ValueError, match="cannot move chat"):
        await manager.run(MoveChat(CHAT.platform, CHAT.chat_id, CHAT.chat_id))
    assert manager.tables_of(ANA) == [seated.table_id]
    assert await manager.run(ChatUnreachable(CHAT.platform, "another-group")) == []
    assert manager.tables_of(ANA) == [seated.table_id]


async def test_a_command_given_as_a_chore_raises_type_error(make_manager) -> None:
    manager = make_manager()
    with pytest.raises(TypeError, match="not a chore"):
        await manager.run(PlayNow(ANA, CHAT))  # type: ignore[arg-type]
    assert manager.tables() == []
