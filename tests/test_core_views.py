"""The queries (bot.core.views): the table manager answers each of them with the views'
own method, and reading changes no table."""

from __future__ import annotations

import inspect

from core_parts import ANA, CHAT

from bot.core import PlayNow
from bot.core.views import Views
from storage.base import OPENING_BALANCE

QUERIES = {
    name
    for name, member in inspect.getmembers(Views, inspect.isfunction)
    if not name.startswith("_")
}


def test_every_query_of_the_views_is_offered_by_the_manager_under_its_name(make_manager):
    manager = make_manager()
    assert len(QUERIES) == 18
    for name in QUERIES:
        assert getattr(manager, name).__func__ is getattr(Views, name), name


async def test_reading_a_table_changes_nothing(make_manager):
    manager = make_manager()
    seated = await manager.handle(PlayNow(ANA, CHAT))
    before = manager.table_state(seated.table_id)
    assert manager.tables_of(ANA) == [seated.table_id]
    assert manager.front_end_note(seated.table_id, "test.board") is None
    assert manager.match_of(seated.table_id) is None  # still seating
    assert await manager.balance(ANA) == OPENING_BALANCE  # a seat taken, no stake yet
    assert await manager.turn_notifications(ANA) == "turn"
    assert manager.table_state(seated.table_id) == before
    assert manager.tables() == [seated.table_id]
