"""The parts of the core wired by the one bootstrap (``bot.core.bootstrap``, as
``bot.core.bus.TableManager`` is), on the storage and manual clock a test gives, for
tests of one part at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conftest import RecordingPort

from bot.core import ChatRef, PlayerRef
from bot.core.bootstrap import bootstrap
from bot.core.chat_rules import ChatRules
from bot.core.clock import ManualClock
from bot.core.lobby import Lobby
from bot.core.session import Session
from bot.core.settlement import Settlement
from bot.core.state import Core, HouseTimes
from bot.core.table import Table
from bot.core.timers import Timers
from bot.core.vocabulary import DeadlineKind
from storage.base import Storage

CHAT = ChatRef("test", "group-1")
ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
CARLA = PlayerRef("test", "3", "Carla")
DIEGO = PlayerRef("test", "4", "Diego")


@dataclass
class Parts:
    core: Core
    timers: Timers
    settlement: Settlement
    session: Session
    rules: ChatRules
    lobby: Lobby
    port: RecordingPort

    async def events(self) -> RecordingPort:
        """The recorder, once every queued event was delivered."""
        await self.core.outbox.idle()
        return self.port


def build_parts(
    storage: Storage, clock: ManualClock, *, default_preset: str = "venezolano", **times: Any
) -> Parts:
    """The core's parts; house times as in the manager's tests (robots at once, cheap)
    unless ``times`` says otherwise."""
    settings: dict[str, Any] = {"robot_delay": 0.0, "hand_pause": 0.0, "robot_level": "aprendiz"}
    settings.update(times)
    wired = bootstrap(
        storage, clock=clock, seed=1, times=HouseTimes(**settings), default_preset=default_preset
    )
    port = RecordingPort()
    wired.core.outbox.register("*", port)
    return Parts(
        wired.core,
        wired.timers,
        wired.settlement,
        wired.session,
        wired.rules,
        wired.lobby,
        port,
    )


async def until_turn(parts: Parts, clock: ManualClock, table: Table, seat: int) -> None:
    """Advance from deadline to deadline until ``seat`` has a human's turn to play."""
    while not (
        table.match is not None
        and not table.match.hand.is_over
        and table.match.hand.turn == seat
        and table.deadline_kind is DeadlineKind.TURN
    ):
        deadline = clock.next_deadline()
        assert deadline is not None
        await clock.advance(max(0.0, deadline - clock.now()))
