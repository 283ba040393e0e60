"""Shared fixtures: a manual clock, storages, a recording port and a table manager.

Tests advance :class:`bot.core.clock.ManualClock` instead of sleeping; the manager's events
land in a :class:`RecordingPort`; storage is SQLite on ``:memory:`` (migrated, private to
the test) unless a test asks for a SQLite file or PostgreSQL (a session server,
tests/postgres_server.py, and a fresh database per test).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings

from bot.core import Event, MoveChoice, PlayerRef, PressButton, ShowMyTiles, TableManager, YourTiles
from bot.core.clock import ManualClock
from storage import open_storage
from storage.base import Storage
from tests.fake_discord import ErrorLog, FakeDiscord, Harness
from tests.postgres_server import (
    PostgresServer,
    PostgresUnavailable,
    require_postgres,
    start_server,
)

E = TypeVar("E")

# Every run draws the same examples (DEVELOPERS.md: deterministic tests); a property test
# widens its search by raising max_examples, never by chance between runs.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")


class RecordingPort:
    """A :class:`bot.core.Port` that keeps every event it is given, in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def deliver(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type[E], **where: Any) -> list[E]:
        """The events of one type whose attributes equal ``where``."""
        return [
            e
            for e in self.events
            if isinstance(e, kind) and all(getattr(e, k) == v for k, v in where.items())
        ]

    def last(self, kind: type[E], **where: Any) -> E:
        found = self.of(kind, **where)
        assert found, f"no {kind.__name__} event with {where}"
        return found[-1]

    def clear(self) -> None:
        self.events.clear()


@pytest.fixture
def clock() -> ManualClock:
    """A clock that moves only when the test advances it."""
    return ManualClock()


@pytest.fixture
async def memory_storage() -> AsyncIterator[Storage]:
    """SQLite on ``:memory:``: the real storage, migrated, private to the test and gone
    when it ends (about 5 ms to open)."""
    storage = await open_storage(":memory:")
    yield storage
    await storage.close()


@pytest.fixture
async def sqlite_storage(tmp_path: Path) -> AsyncIterator[Storage]:
    from storage.sqlite import SqliteStorage

    storage = await SqliteStorage.open(tmp_path / "domino.db")
    yield storage
    await storage.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """The real storage on SQLite and, as a second run, on PostgreSQL (a real server,
    tests/postgres_server.py): the storage contract suite; the ledger is checked after
    each test."""
    storage: Storage
    if request.param == "sqlite":
        from storage.sqlite import SqliteStorage

        storage = await SqliteStorage.open(tmp_path / "domino.db")
    else:
        from storage.postgres import PostgresStorage

        server = request.getfixturevalue("postgres_server")
        dsn = await server.create_database()
        storage = await PostgresStorage.open(dsn)
    yield storage
    assert await storage.check_ledger() == []
    await storage.close()
    if request.param == "postgres":
        await server.drop_database(dsn)


@pytest.fixture
def recorder() -> RecordingPort:
    return RecordingPort()


@pytest.fixture
def make_manager(
    memory_storage: Storage, clock: ManualClock, recorder: RecordingPort
) -> Callable[..., TableManager]:
    """Build a manager on the manual clock, ``memory_storage`` and the recorder, with
    robots that move at once (``robot_delay=0``) at a cheap level; keywords override."""

    def build(**options: Any) -> TableManager:
        settings: dict[str, Any] = {
            "clock": clock,
            "seed": 1,
            "robot_delay": 0.0,
            "hand_pause": 0.0,
            "robot_level": "aprendiz",
        }
        settings.update(options)
        storage = settings.pop("storage", memory_storage)
        port = settings.pop("port", recorder)
        manager = TableManager(storage, **settings)
        manager.register("*", port)
        return manager

    return build


def first_move(tiles: YourTiles) -> MoveChoice:
    """A human who always presses the first button."""
    return tiles.moves[0]


async def run_table(
    manager: TableManager,
    clock: ManualClock,
    table_id: str,
    humans: Sequence[PlayerRef] = (),
    *,
    choose: Callable[[YourTiles], MoveChoice] = first_move,
    until: Callable[[], bool] | None = None,
    max_steps: int = 20_000,
) -> None:
    """Play ``table_id`` until it closes (or ``until()``): each human in ``humans`` asks
    for their tiles when it is their turn and presses ``choose(tiles)``; everything else
    happens by advancing the clock from deadline to deadline."""
    keys = {p.key: p for p in humans}
    for _ in range(max_steps):
        if table_id not in manager.tables() or (until is not None and until()):
            return
        state = manager.table_state(table_id)
        assert state is not None
        if state.phase == "playing" and state.turn is not None:
            seat = state.seats[state.turn]
            player = keys.get(seat.player.key) if seat.player is not None else None
            if player is not None and not seat.away:
                reply = await manager.handle(ShowMyTiles(player, None, table_id))
                tiles = reply.events[0]
                assert isinstance(tiles, YourTiles) and tiles.is_your_turn
                pressed = await manager.handle(PressButton(player, choose(tiles).payload))
                assert pressed.ok, pressed.refusal
                continue
        deadline = clock.next_deadline()
        assert deadline is not None, "the table is stuck: no timer armed"
        await clock.advance(max(0.0, deadline - clock.now()))
    raise AssertionError("the table did not finish")


async def wait_until(
    predicate: Callable[[], Any], *, timeout: float = 20.0, every: float = 0.01
) -> Any:
    """Poll ``predicate()`` every ``every`` seconds until it is truthy, and return its value.

    For what changes outside this task: a bot in another process, a gateway event, a log
    file. The timeout only bounds a failure (it is never waited out by a passing test);
    a fake that can wake its waiters (``FakeDiscord.wait_until``, ``FakeTelegram.wait_for``)
    is better where it exists.

    Raises:
        AssertionError: still false after ``timeout`` seconds.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"not true within {timeout} s: {predicate}")
        await asyncio.sleep(every)


# ---------------------------------------------------------------- the Discord fake


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord (tests/fake_discord.py) on 127.0.0.1; any error logged while it
    runs fails the test. (Telegram tests name their own fake.)"""
    server = FakeDiscord()
    await server.start()
    with ErrorLog() as errors:
        yield server
    await server.close()
    assert errors.messages() == []


@pytest.fixture
async def harness(fake: FakeDiscord, memory_storage: Storage) -> AsyncIterator[Harness]:
    """The real discord.py client and a table manager on the fake, with one server "Club"."""
    fake.add_guild("Club")
    running = await Harness(fake, memory_storage).start()
    yield running
    await running.stop()


# ---------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (tests/postgres_server.py): skipped with the
    reason when none can be had, failed instead under ``DOMINO_REQUIRE_POSTGRES=1``."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if require_postgres():
            pytest.fail(f"DOMINO_REQUIRE_POSTGRES is set but {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database for one test, dropped afterwards."""
    dsn = await postgres_server.create_database()
    yield dsn
    await postgres_server.drop_database(dsn)


@pytest.fixture
async def postgres_storage(postgres_dsn: str) -> AsyncIterator[Storage]:
    from storage.postgres import PostgresStorage

    storage = await PostgresStorage.open(postgres_dsn)
    yield storage
    await storage.close()


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own, so that stopping it stops no other test's."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if require_postgres():
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    if server.data_dir is None:
        pytest.skip("DOMINO_TEST_POSTGRES names a server these tests cannot stop")
    yield server
    server.stop()


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text a picture draws from now on, in order (render.canvas.text_sprite
    recorded): what a test reads of a picture besides its golden."""
    import render.canvas

    drawn: list[str] = []
    real = render.canvas.text_sprite

    def recording(text: str, size: int, bold: bool, color: Any, ltr: bool = False) -> Any:
        drawn.append(text)
        return real(text, size, bold, color, ltr)

    monkeypatch.setattr(render.canvas, "text_sprite", recording)
    return drawn
