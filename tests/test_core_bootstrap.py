"""The one wiring of the core (bot.core.bootstrap): every command, chore and deadline
has its handler, and the table manager is built on it."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.core import Chore, Command, TableManager
from bot.core.bootstrap import Wiring, bootstrap
from bot.core.commands import (
    AnnounceSeasonFinals,
    ChatUnreachable,
    MoveChat,
    NoteUsername,
    OpenRobotTable,
    SetFrontEndNote,
    SetSeasonPeriod,
    SetTurnNotifications,
)
from bot.core.state import HouseTimes
from bot.core.vocabulary import DeadlineKind
from engine.robots import DEFAULT_LEVEL

CHORES = {
    SetFrontEndNote,
    SetTurnNotifications,
    NoteUsername,
    SetSeasonPeriod,
    MoveChat,
    ChatUnreachable,
    AnnounceSeasonFinals,
    OpenRobotTable,
}


def test_every_chore_type_is_one_of_the_eight_writes_the_bus_runs() -> None:
    # a slotted dataclass is a second class of the same name: compare the names
    assert {kind.__name__ for kind in Chore.__subclasses__()} == {k.__name__ for k in CHORES}


def test_every_command_and_every_chore_has_exactly_one_handler(make_manager, clock) -> None:
    wired = bootstrap(make_manager().storage, clock=clock, seed=1)
    assert set(wired.bus.handlers) == set(get_args(Command))
    assert set(wired.bus.chores) == CHORES


def test_every_deadline_kind_has_a_handler_installed(make_manager, clock) -> None:
    wired = bootstrap(make_manager().storage, clock=clock, seed=1)
    assert set(wired.timers._handlers) == set(DeadlineKind)


def test_an_unknown_robot_level_is_refused_with_the_levels_named(make_manager, clock) -> None:
    with pytest.raises(ValueError, match=r"unknown robot level 'genio' \(levels: "):
        bootstrap(make_manager().storage, clock=clock, times=HouseTimes(robot_level="genio"))


def test_an_unknown_preset_is_refused(make_manager, clock) -> None:
    with pytest.raises(ValueError):
        bootstrap(make_manager().storage, clock=clock, default_preset="no-such-preset")


def test_the_table_manager_is_built_on_the_bootstrap_with_the_house_times_it_was_given(
    make_manager, clock
) -> None:
    manager = TableManager(
        make_manager().storage, clock=clock, seed=1, hand_pause=2.5, stuck_seconds=60
    )
    assert isinstance(manager.wiring, Wiring)
    assert manager.wiring.core.times == HouseTimes(
        hand_pause=2.5, stuck_seconds=60, robot_level=DEFAULT_LEVEL
    )
    assert manager.wiring.core.outbox.may_send == manager.leases.held


def test_the_same_seed_and_clock_give_the_same_table_seeds(make_manager, clock) -> None:
    first = bootstrap(make_manager().storage, clock=clock, seed=7).core
    second = bootstrap(make_manager().storage, clock=clock, seed=7).core
    assert [first.seeds.random() for _ in range(3)] == [second.seeds.random() for _ in range(3)]
    assert [first.ids.random() for _ in range(3)] == [second.ids.random() for _ in range(3)]
