"""'¿Qué debí jugar?' at a live table (bot/core/analysis.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from conftest import run_table
from test_manager import ANA, BETO, CHAT, my_tiles, seat_with_robots

from bot.core import ChatRef, PressButton, Refusal, RefusalReason
from bot.core.analysis import AnalysisReply
from bot.core.bus import TableManager
from bot.core.clock import ManualClock
from engine.robots.analysis import analyze_hand


async def test_before_a_hand_ends_there_is_nothing_to_analyse(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    await seat_with_robots(manager, clock)
    found = await manager.analyze(ANA, CHAT)
    assert isinstance(found, Refusal) and found.reason is RefusalReason.NO_FINISHED_HAND
    assert found.to == ANA
    other = await manager.analyze(BETO, CHAT)
    assert isinstance(other, Refusal) and other.reason is RefusalReason.NO_TABLE


async def test_the_last_finished_hand_of_the_players_seat_is_analysed(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    table_id = await seat_with_robots(manager, clock)
    while (match := manager.match_of(table_id)) is not None and len(match.hands) < 2:
        if manager.table_state(table_id).turn == 0:  # type: ignore[union-attr]
            tiles = await my_tiles(manager, ANA, table_id)
            await manager.handle(PressButton(ANA, tiles.moves[0].payload))
        await clock.advance(1.0)
    found = await manager.analyze(ANA, CHAT)
    assert isinstance(found, AnalysisReply)
    assert (found.table_id, found.analysis.hand, found.analysis.seat) == (table_id, 1, 0)
    match = manager.match_of(table_id)
    assert match is not None
    assert found.analysis == analyze_hand(match, 0, 0)
    assert found.seats[0].name == "Ana"


async def test_a_hand_named_by_its_number_is_analysed_and_one_not_finished_is_refused(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    match = manager.match_of(table_id)
    assert match is not None and len(match.hands) >= 2
    first = await manager.analyze(ANA, None, table_id, 1)
    assert isinstance(first, AnalysisReply)
    assert first.analysis == analyze_hand(match, 0, 0)
    last = await manager.analyze(ANA, None, table_id)
    assert isinstance(last, AnalysisReply) and last.analysis.hand == len(match.hands)
    beyond = await manager.analyze(ANA, None, table_id, len(match.hands) + 1)
    assert isinstance(beyond, Refusal) and beyond.reason == "no_finished_hand"


async def test_a_finished_match_is_analysed_from_the_table_kept_after_it_closed(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager()  # the default: a worker process
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    match = manager.match_of(table_id)
    assert match is not None and table_id not in manager.tables()
    found = await manager.analyze(ANA, None, table_id)
    assert isinstance(found, AnalysisReply)
    last = len(match.hands) - 1
    assert found.analysis == analyze_hand(match, last, 0)
    foreign = await manager.analyze(BETO, None, table_id)
    assert isinstance(foreign, Refusal) and foreign.reason is RefusalReason.NOT_SEATED
    await manager.stop()


async def test_after_the_match_the_players_closed_table_here_is_found_without_its_id(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    found = await manager.analyze(ANA, CHAT)
    assert isinstance(found, AnalysisReply) and found.table_id == table_id
    elsewhere = await manager.analyze(ANA, ChatRef("test", "other-group"))
    assert isinstance(elsewhere, Refusal) and elsewhere.reason is RefusalReason.NO_TABLE


async def test_starting_an_analysis_refuses_at_once_or_hands_back_the_search_under_way(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    table_id = await seat_with_robots(manager, clock)
    early = manager.start_analysis(ANA, CHAT)  # not a coroutine: no waiting for a refusal
    assert isinstance(early, Refusal) and early.reason is RefusalReason.NO_FINISHED_HAND
    await run_table(manager, clock, table_id, [ANA])
    search = manager.start_analysis(ANA, None, table_id)
    assert isinstance(search, asyncio.Future)
    found = await search
    match = manager.match_of(table_id)
    assert match is not None
    assert found.analysis == analyze_hand(match, len(match.hands) - 1, 0)
    assert found == await manager.analyze(ANA, None, table_id)


class CountingExecutor(ThreadPoolExecutor):
    """A one-thread pool that counts the searches handed to it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.searches = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        self.searches += 1
        return super().submit(fn, *args, **kwargs)


async def test_one_search_per_player_and_hand_a_press_meanwhile_is_told_it_is_coming(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    executor = CountingExecutor()
    manager = make_manager(analysis_executor=executor)
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    first = manager.start_analysis(ANA, None, table_id)
    assert isinstance(first, asyncio.Future)
    # Four more presses while the search runs: each is told it is coming, none searches.
    repeats = [manager.start_analysis(ANA, None, table_id) for _ in range(4)]
    assert [r.reason for r in repeats if isinstance(r, Refusal)] == [
        RefusalReason.ANALYSIS_RUNNING
    ] * 4
    assert all(r.to == ANA and r.table_id == table_id for r in repeats if isinstance(r, Refusal))
    found = await first
    # Once done, a press gets the same analysis again at once, without a new search.
    again = manager.start_analysis(ANA, None, table_id)
    assert isinstance(again, asyncio.Future) and again.done()
    assert await again == found
    assert executor.searches == 1
    executor.shutdown()


async def test_a_search_whose_asker_stopped_waiting_still_serves_the_next_press(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    executor = CountingExecutor()
    manager = make_manager(analysis_executor=executor)
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    first = manager.start_analysis(ANA, None, table_id)
    assert isinstance(first, asyncio.Future)
    first.cancel()  # the front end could not reach the player
    running = manager.start_analysis(ANA, None, table_id)
    assert isinstance(running, Refusal) and running.reason is RefusalReason.ANALYSIS_RUNNING
    while isinstance(found := manager.start_analysis(ANA, None, table_id), Refusal):
        await asyncio.sleep(0.01)
    match = manager.match_of(table_id)
    assert match is not None
    assert (await found).analysis == analyze_hand(match, len(match.hands) - 1, 0)
    assert executor.searches == 1
    executor.shutdown()


async def test_a_finished_hand_of_a_format_is_analysed_from_the_players_information(
    make_manager: Callable[..., TableManager], clock: ManualClock, recorder
) -> None:
    from bot.core import HandEnded, OpenTable, RobotSeat

    manager = make_manager(analysis_executor=ThreadPoolExecutor(1))
    robot = RobotSeat("aprendiz")
    opened = await manager.handle(
        OpenTable(ANA, CHAT, preset="uno-contra-uno", right=robot, formats=True)
    )
    table_id = opened.table_id or ""
    await run_table(manager, clock, table_id, [ANA], until=lambda: bool(recorder.of(HandEnded)))
    found = await manager.analyze(ANA, CHAT)
    assert not isinstance(found, Refusal)
    match = manager.match_of(table_id)
    assert match is not None and match.rules.players == 2
    assert found.analysis == analyze_hand(match, 0, 0)
    assert found.analysis.seat == 0 and found.analysis.hand == 1
