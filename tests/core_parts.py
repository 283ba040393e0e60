"""The parts of the core wired together as ``bot.core.bus.TableManager`` wires them, on
in-memory storage and a manual clock, for tests of one part at a time."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from conftest import RecordingPort

from bot.core import ChatRef, PlayerRef
from bot.core.chat_rules import ChatRules
from bot.core.clock import ManualClock
from bot.core.lobby import Lobby
from bot.core.session import Session
from bot.core.settlement import Settlement
from bot.core.state import Core, HouseTimes
from bot.core.table import Table
from bot.core.timers import Pacer, Timers
from bot.core.vocabulary import DeadlineKind
from engine.robots import make_robot
from engine.rules import find_preset
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
    core = Core(
        storage=storage,
        clock=clock,
        times=HouseTimes(**settings),
        default_preset=default_preset,
        default_rules=find_preset(default_preset),
        robot_factory=make_robot,
        ids=random.Random(1),
        seeds=random.Random(1),
    )
    port = RecordingPort()
    core.outbox.register("*", port)
    timers = Timers(clock, Pacer(0.005))
    settlement = Settlement(core, timers)
    session = Session(core, timers, settlement)
    rules = ChatRules(core)
    lobby = Lobby(core, timers, session, settlement, rules)
    timers.install(
        {
            DeadlineKind.FILL: lobby.fill_on_time,
            DeadlineKind.START: session.start_match,
            DeadlineKind.NEXT_HAND: session.next_hand,
            DeadlineKind.TURN: session.turn_timed_out,
            DeadlineKind.FORCED: session.forced_move,
            DeadlineKind.ROBOT: session.auto_move,
        },
        away=session.away_expired,
    )
    return Parts(core, timers, settlement, session, rules, lobby, port)


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
