"""Many concurrent robot tables in one process (issue 6's benchmark).

Runs the real :class:`bot.core.TableManager` (commands, timers on the event loop,
events to a port, a snapshot after every move into SQLite on ``:memory:``) with
``--tables`` tables of four robots at once and zero think time (``robot_delay=0``); a
finished table is replaced at once so the count of live tables stays constant.

Prints:
- matches per second (finished matches over the timed run);
- moves per second;
- event-loop lag: how late a 10 ms ticker wakes up, p50 / p99 / max (target p99 <= 100 ms);
- memory per live table: Python heap (tracemalloc) growth with the tables live and
  mid-match, divided by the number of tables, and the same with the bytes of each
  table's stored snapshot added (SQLite keeps them outside Python's heap; target
  <= 100 KB).

Robots play at ``--level`` (default ``aprendiz``, a cheap level: this measures the table
manager, not the robots' thinking; stronger levels spend milliseconds per move).
A full collection of the oldest generation walks every live object (about 200 per table)
and pauses the loop; ``--tune-gc`` does what a long-running server does (freeze the
start-up objects, collect the old generations less often) and shows the difference.
Run: ``python bench/tables.py [--tables 1000] [--seconds 120] [--level aprendiz] [--tune-gc]``.

``--slow N`` measures instead N idle slow tables (issue 30, rules.md "Slow tables"): each
has a human at seat 0 whose 12-hour turn has come (robots played up to it), and the
process then idles for ``--seconds``: it prints the memory per slow table (Python heap
plus its stored snapshot) and the CPU the process spent while idle (target: nothing
between moves).
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder comes first on sys.path; drop it (bench/engine.py
# would shadow the engine package).
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(__file__)]

import argparse  # noqa: E402
import asyncio  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from collections.abc import Callable  # noqa: E402

from bot.core import (  # noqa: E402  # noqa: E402
    ChatRef,
    Event,
    MatchEnded,
    MovePlayed,
    OpenTable,
    PlayerRef,
    RobotSeat,
    TableClosed,
    TableManager,
    tune_gc_for_serving,
)
from bot.core.clock import ManualClock, SystemClock  # noqa: E402
from storage import open_storage  # noqa: E402
from storage.base import Storage  # noqa: E402
from storage.common import to_json  # noqa: E402


class CountingPort:
    """Receives every event, counts moves and finished tables, keeps nothing."""

    def __init__(self) -> None:
        self.moves = 0
        self.match_moves: list[int] = []
        self.closed: asyncio.Queue[str] = asyncio.Queue()

    async def deliver(self, event: Event) -> None:
        if isinstance(event, MovePlayed):
            self.moves += 1
        elif isinstance(event, MatchEnded):
            self.match_moves.append(sum(len(h["moves"]) for h in event.record["hands"]))
        elif isinstance(event, TableClosed):
            self.closed.put_nowait(event.table_id)


async def measure_memory(tables: int, level: str) -> tuple[float, float]:
    """Bytes per live table, mid-match: (Python heap, Python heap + stored snapshot)."""
    storage = await open_storage(":memory:")
    clock = ManualClock()
    manager = TableManager(
        storage, clock=clock, seed=1, robot_delay=1.0, hand_pause=1.0, robot_level=level
    )
    manager.register("*", CountingPort())
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for index in range(tables):
        await manager.open_robot_table(ChatRef("bench", str(index)))
    # about 40 moves each: mid-match, past the first hand
    await clock.advance(40.5)
    await manager.idle()
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    snapshot_bytes = await _snapshot_bytes(storage)
    live = len(manager.tables())
    await manager.stop()
    await storage.close()
    return heap / live, (heap + snapshot_bytes) / live


async def _snapshot_bytes(storage: Storage) -> int:
    """The stored snapshots' size: each live table's snapshot as the JSON text stored."""
    return sum(len(to_json(s).encode()) for s in await storage.load_tables())


async def measure_throughput(tables: int, seconds: float, level: str) -> dict[str, float]:
    storage = await open_storage(":memory:")
    port = CountingPort()
    manager = TableManager(
        storage,
        clock=SystemClock(),
        seed=2,
        robot_delay=0.0,
        hand_pause=0.0,
        robot_level=level,
    )
    manager.register("*", port)
    lags: list[float] = []
    running = True
    loop = asyncio.get_running_loop()

    async def ticker() -> None:
        while running:
            start = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - start - 0.01)

    for index in range(tables):
        await manager.open_robot_table(ChatRef("bench", str(index)))
    tick = asyncio.create_task(ticker())
    started = time.perf_counter()
    finished = 0
    moves_at_start = port.moves
    deadline = started + seconds
    while time.perf_counter() < deadline:
        try:
            await asyncio.wait_for(
                port.closed.get(), timeout=max(0.01, deadline - time.perf_counter())
            )
        except TimeoutError:
            break
        finished += 1
        await manager.open_robot_table(ChatRef("bench", f"r{finished}"))
    elapsed = time.perf_counter() - started
    running = False
    await tick
    moves = port.moves - moves_at_start
    live = len(manager.tables())
    stopping = time.perf_counter()
    await manager.stop()
    stop_seconds = time.perf_counter() - stopping
    await storage.close()
    lags.sort()
    return {
        "matches_per_second": finished / elapsed,
        "moves_per_second": moves / elapsed,
        "lag_p50_ms": 1000 * statistics.median(lags),
        "lag_p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))],
        "lag_max_ms": 1000 * lags[-1],
        "live_tables": live,
        "stop_seconds": stop_seconds,
        "elapsed": elapsed,
        "finished": finished,
        "moves_per_match": statistics.mean(port.match_moves) if port.match_moves else 0.0,
    }


async def measure_slow(tables: int, seconds: float) -> dict[str, float]:
    """N slow tables, each waiting for its human's 12-hour turn, then ``seconds`` idle."""
    storage = await open_storage(":memory:")
    manager = TableManager(
        storage, clock=SystemClock(), seed=3, robot_delay=0.0, hand_pause=0.0,
        countdown_seconds=0.0, robot_level="aprendiz",
    )  # fmt: skip
    manager.register("*", CountingPort())
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    robot = RobotSeat()
    opened = []
    for index in range(tables):
        player = PlayerRef("bench", str(index), f"P{index}")
        reply = await manager.handle(
            OpenTable(
                player,
                ChatRef("bench", f"s{index}"),
                overrides={"turn_seconds": 43200},
                right=robot,
                across=robot,
                left=robot,
            )
        )
        assert reply.table_id is not None, reply.refusal
        opened.append(reply.table_id)

    def waiting() -> int:
        return sum(1 for t in opened if (s := manager.table_state(t)) and s.turn == 0)

    while waiting() < tables:  # robots play up to each human's turn
        await asyncio.sleep(0.05)
    await manager.idle()
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    snapshot_bytes = await _snapshot_bytes(storage)
    cpu = time.process_time()
    wall = time.perf_counter()
    await asyncio.sleep(seconds)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    still = waiting()
    await manager.stop()
    await storage.close()
    return {
        "heap": heap / tables,
        "with_snapshot": (heap + snapshot_bytes) / tables,
        "cpu_ms_per_s": 1000 * cpu / wall,
        "wall": wall,
        "still_waiting": still,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--level", default="aprendiz")
    parser.add_argument("--slow", type=int, default=0, help="measure N idle slow tables instead")
    parser.add_argument(
        "--tune-gc",
        action="store_true",
        help="bot.core.tune_gc_for_serving(): freeze start-up objects, thresholds 700/50/100",
    )
    args = parser.parse_args()
    if args.slow:
        slow = await measure_slow(args.slow, args.seconds)
        print(f"{args.slow} slow tables (12 h a turn), each waiting for its human's turn")
        print(
            f"memory per slow table: {slow['heap'] / 1024:.1f} KB"
            f" ({slow['with_snapshot'] / 1024:.1f} KB with its stored snapshot)"
        )
        print(
            f"idle {slow['wall']:.0f} s: the process used {slow['cpu_ms_per_s']:.2f} ms of CPU"
            f" a second; {slow['still_waiting']:.0f} tables still waiting  [target: ~0]"
        )
        return
    tuned = "tuned (freeze, thresholds 700/50/100)" if args.tune_gc else "Python defaults"
    print(f"{args.tables} concurrent robot tables, robots at level {args.level}, zero think time")
    print(f"garbage collector: {tuned}")
    heap, heap_with_snapshots = await measure_memory(args.tables, args.level)
    print(
        f"memory per live table (mid-match): {heap / 1024:.1f} KB"
        f" ({heap_with_snapshots / 1024:.1f} KB with its stored snapshot)"
        f"  [target <= 100 KB]"
    )
    gc.collect()  # the memory run's tables are garbage now: not the timed run's business
    if args.tune_gc:
        tune_gc_for_serving()
    pauses: list[tuple[int, float]] = []
    gc.callbacks.append(_gc_timer(pauses))
    result = await measure_throughput(args.tables, args.seconds, args.level)
    gc.callbacks.clear()
    print(f"timed run: {result['elapsed']:.0f} s, {result['finished']} matches finished")
    print(f"matches per second: {result['matches_per_second']:.1f} (measured)")
    if result["moves_per_match"]:
        derived = result["moves_per_second"] / result["moves_per_match"]
        print(
            f"                    {derived:.1f} (moves per second / {result['moves_per_match']:.0f}"
            " moves per finished match: the steady state once tables end at random times)"
        )
    print(f"moves per second:   {result['moves_per_second']:.0f}")
    print(
        f"event-loop lag: p50 {result['lag_p50_ms']:.1f} ms, p99 {result['lag_p99_ms']:.1f} ms,"
        f" max {result['lag_max_ms']:.1f} ms  [target p99 <= 100 ms]"
    )
    print(
        f"stop (no more moves, every table saved): {result['stop_seconds']:.2f} s for"
        f" {result['live_tables']} live tables  [target <= 5 s for 1,000]"
    )
    old = [d for g, d in pauses if g == 2]
    print(
        f"garbage collections: {len(pauses)} ({len(old)} of the oldest generation, longest"
        f" {1000 * max(old, default=0):.0f} ms); all pauses {sum(d for _, d in pauses):.1f} s"
    )


def _gc_timer(pauses: list[tuple[int, float]]) -> Callable[[str, dict[str, int]], None]:
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], time.perf_counter() - started[0]))

    return callback


if __name__ == "__main__":
    asyncio.run(main())
