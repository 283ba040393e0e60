"""Whole matches per second on a file database in WAL mode (issue 5).

Each simulated match stakes its humans (two to four of a pool of players, the rest robots)
and finishes with a random winning partnership. ``--path finish`` (the default) finishes
with ``finish_match``: settlement, payouts, match record, statistics and the balances
after, in one ``BEGIN IMMEDIATE`` transaction. ``--path separate`` does the same work the
older way, as separate calls: ``settle``, ``record_match``, then one ``balance`` read per
human. ``--path settle`` only settles (no record, no balances; the figure before
``finish_match`` existed). Matches run from many concurrent coroutines (tables) against
the one writer connection. At the end the ledger invariants are checked (every
transaction sums to zero, each balance equals its entries, nothing negative, escrows hold
exactly their stakes, statistics equal the results) and the figures are printed.
Records carry seats (humans and robots of the rated levels), score and winner as the bot
writes them (docs/records.md), so ``finish_match`` rates every match (docs/ratings.md).

Then two figures of issue 14:

- what the rating update adds to settling a match: the same matches (one to three humans
  and at least one robot, staked, then finished one after another) are finished on two
  fresh databases, once with robots of rated levels (the match is rated: three rating
  tables move) and once with robots of a level that is not rated (``MatchFacts.rated`` is
  False: no rating is read or written); the ``finish_match`` calls of a match run back to
  back, in rotating order, so load on the machine hits both alike. A match of four
  humans is always rated, so the main run's mix (mostly four humans) is measured again
  with the code's ``rating_changes`` (and then ``write_facts``: seats, seasons and
  ratings) replaced by a no-op during the timed call. The figure is the process's CPU time
  per call (a shared machine's wall clock also counts waiting for a core), wall clock
  beside it. Target: at most 1 ms added per match.
- rebuild throughput: ``rebuild_ratings`` (``domino ratings --check`` and ``--rebuild``)
  over the main run's matches, in matches per second.

Target: >= 1,000 matches per second.

Without ``--db`` the same matches run first on PostgreSQL (storage/postgres.py,
``--connections`` operations at once) on a throwaway server started as the tests start
theirs (tests/postgres_server.py: Debian's binaries, a free port of 127.0.0.1, fsync off;
stopped at the end), then on a fresh temporary SQLite file, and the stake + finish (or
settle) cycles per second of both are printed side by side (issue 28's throughput
target: both at least 1,000, the lease fence on). ``--sqlite-only`` skips PostgreSQL;
``--db postgresql://user@host/database`` uses that server instead (the database may be
used again: each run's match ids are new); ``--db PATH`` measures that SQLite file only.

The timed matches follow ``--warmup`` matches (2,000 by default; then ``ANALYZE`` on
PostgreSQL): a database in service, whose statistics autovacuum keeps, not one seconds
old. On a new database PostgreSQL plans the accounts' statements while the table holds a
few hundred rows (a sequential scan is the cheaper plan then) and keeps those plans as
every match adds its escrow's account; ``--warmup 0`` times that. Besides the cycles a
second, each run prints the CPU the bench's process used per cycle and, for the
throwaway server, the server's (a shared machine's wall clock also counts the time
spent waiting for a core).

Run: ``python bench/storage.py [--matches 10000] [--tables 50] [--path finish]
[--db PATH|URL] [--sqlite-only] [--warmup 2000] [--connections 8]
[--rating-matches 2000]``
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# storage package; this checkout's root goes first instead (not an installed copy).
_HERE = Path(__file__).parent.resolve()
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from storage import is_postgres_url, redact_dsn  # noqa: E402
from storage.base import Fence, InsufficientFunds, PlayerResult, Storage  # noqa: E402
from storage.ratings import ROBOT_SKILLS  # noqa: E402
from storage.sqlite import SqliteStorage  # noqa: E402

PATHS = ("finish", "separate", "settle")

LEVELS = sorted(ROBOT_SKILLS)

UNRATED_ROBOT = "externo"
"""A robot level not in ``ROBOT_SKILLS``: a match with it is not rated."""

assert UNRATED_ROBOT not in ROBOT_SKILLS


def _record(
    match_id: str, seats: list[int], robots: list[str], winning_team: int, rng: random.Random
) -> dict[str, Any]:
    """A finished match's record as the bot writes it: seats (0 = a robot, of the next
    level of ``robots``), score and winner (docs/records.md, "What the bot adds")."""
    levels = iter(robots)
    score = [0, 0]
    score[winning_team] = rng.randint(100, 150)
    score[1 - winning_team] = rng.randint(0, 99)
    return {
        "match_id": match_id,
        "hands": [{"moves": []} for _ in range(rng.randint(2, 8))],
        "seats": [
            {"player": pid, "moves": 24, "robot_moves": 0}
            if pid
            else {"robot": next(levels), "moves": 24}
            for pid in seats
        ],
        "score": score,
        "winner_team": winning_team,
    }


async def _table(
    storage: Storage,
    run_id: str,
    table: int,
    matches: int,
    player_ids: list[int],
    rng: random.Random,
    clock: list[float],
    latencies: dict[str, list[float]],
    refused: list[int],
    path: str,
    fence: Fence | None,
) -> None:
    for n in range(matches):
        humans = rng.sample(player_ids, rng.choice((2, 3, 4, 4, 4)))
        seats = humans + [0] * (4 - len(humans))  # 0 = a robot seat
        rng.shuffle(seats)
        match_id = f"{run_id}t{table}-m{n}"
        clock[0] += 1.0
        t0 = time.perf_counter()
        try:
            await storage.stake(match_id, humans, 10, now=clock[0], fence=fence)
        except InsufficientFunds:
            refused[0] += 1
            continue
        t1 = time.perf_counter()
        winning_team = rng.randrange(2)
        winners = [pid for seat, pid in enumerate(seats) if pid and seat % 2 == winning_team]
        results = [
            PlayerResult(pid, seat % 2, seat % 2 == winning_team, hands_won=3, dominoes=1)
            for seat, pid in enumerate(seats)
            if pid
        ]
        robots = [rng.choice(LEVELS) for _ in range(4 - len(humans))]
        record = _record(match_id, seats, robots, winning_team, rng)
        if path == "finish":
            await storage.finish_match(
                match_id,
                "bench:1",
                winners=winners,
                record=record,
                results=results,
                now=clock[0],
                fence=fence,
            )
        else:
            await storage.settle(match_id, winners, now=clock[0], fence=fence)
            if path == "separate":
                await storage.record_match(match_id, "bench:1", record, results, now=clock[0])
                for pid in humans:
                    await storage.balance(pid)
        t2 = time.perf_counter()
        latencies["stake"].append(t1 - t0)
        latencies["finish"].append(t2 - t1)


async def run(
    matches: int,
    tables: int,
    players: int,
    db: Path | str,
    seed: int,
    path: str,
    connections: int = 8,
    figures: dict[str, float] | None = None,
    fenced: bool = True,
    server_pid: int | None = None,
    warmup: int = 0,
) -> int:
    storage: Storage
    if is_postgres_url(db):
        from storage.postgres import PostgresStorage

        storage = await PostgresStorage.open(str(db), connections=connections)
        where = f"{redact_dsn(db)} (PostgreSQL, {connections} connections)"
        run_id = f"r{time.time_ns():x}-"
    else:
        sqlite = await SqliteStorage.open(db)
        storage = sqlite
        mode = await sqlite._run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0])
        where = f"{db} (journal_mode={mode}, synchronous=NORMAL)"
        run_id = ""
    try:
        ids = [
            (await storage.ensure_player("bench", str(i), f"Jugador {i}", now=0.0)).id
            for i in range(players)
        ]
        fence = None
        if fenced:  # as a serving process writes: each write checks its table's lease
            scope = f"bench:{run_id or 'sqlite'}"
            token = await storage.claim_tables(scope, "bench", now=0.0, replacing=None)
            assert token is not None
            fence = Fence(scope, "bench", token)
        rng = random.Random(seed)
        clock = [0.0]
        if warmup > 0:
            # A database in service, not one seconds old: matches already played, and
            # on PostgreSQL statistics that know it (autovacuum's ANALYZE would have
            # run). On a new database PostgreSQL plans the statements of the accounts
            # while they are a few hundred rows (a sequential scan is cheaper then) and
            # keeps those plans as the escrows' accounts grow by one a match.
            await asyncio.gather(
                *(
                    _table(
                        storage, f"{run_id}w", t, n, ids, random.Random(rng.random()), clock,
                        {"stake": [], "finish": []}, [0], path, fence,
                    )
                    for t, n in enumerate(_split(warmup, tables))
                )
            )  # fmt: skip
            if is_postgres_url(db):
                import asyncpg

                conn = await asyncpg.connect(str(db))
                try:
                    await conn.execute("ANALYZE")
                finally:
                    await conn.close()
        latencies: dict[str, list[float]] = {"stake": [], "finish": []}
        refused = [0]
        per_table = _split(matches, tables)
        start = time.perf_counter()
        cpu_start = time.process_time()
        server_start = _server_cpu(server_pid)
        await asyncio.gather(
            *(
                _table(
                    storage,
                    run_id,
                    t,
                    per_table[t],
                    ids,
                    random.Random(rng.random()),
                    clock,
                    latencies,
                    refused,
                    path,
                    fence,
                )
                for t in range(tables)
            )
        )
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        server_cpu = _server_cpu(server_pid) - server_start
        problems = await storage.check_ledger()
        played = len(latencies["finish"])
        writes = {"finish": 2, "separate": 3, "settle": 2}[path]
        print(f"database: {where}")
        print(f"path: {path} ({_PATH_HELP[path]})")
        print("writes: " + ("fenced (a lease checked in each)" if fenced else "unfenced"))
        print(
            f"{matches} matches over {tables} concurrent tables, {players} players:"
            f" {played} staked and finished, {refused[0]} refused (insufficient funds)"
            + (f", after {warmup} matches of warm-up" if warmup else ", on a new database")
        )
        print(f"elapsed: {elapsed:.2f} s")
        print(f"matches/second: {matches / elapsed:,.0f} (target >= 1,000)")
        print(f"write transactions/second: {(played * writes + refused[0]) / elapsed:,.0f}")
        print(f"stake + {path} cycles/second: {played / elapsed:,.0f}")
        print(
            f"this process's CPU: {cpu:.2f} s, {1000 * cpu / max(played, 1):.2f} ms per cycle"
            " (a shared machine's wall clock also counts waiting for a core)"
        )
        if server_pid is not None:
            print(
                f"the PostgreSQL server's CPU: {server_cpu:.2f} s,"
                f" {1000 * server_cpu / max(played, 1):.2f} ms per cycle"
            )
        if figures is not None:
            figures[where] = played / elapsed
        for name, values in latencies.items():
            ms = sorted(v * 1000 for v in values)
            if ms:
                p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
                print(f"{name}: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms")
        print("invariants: " + ("OK" if not problems else "BROKEN"))
        for problem in problems[:20]:
            print("  " + problem)
        if path != "settle":
            problems += await _rebuild_throughput(storage)
        return 1 if problems else 0
    finally:
        await storage.close()


async def _rebuild_throughput(storage: Storage) -> list[str]:
    """Time ``rebuild_ratings`` without and with writing; returns the differences found
    (a rebuild must reproduce what ``finish_match`` stored)."""
    t0 = time.perf_counter()
    check = await storage.rebuild_ratings(write=False)
    t1 = time.perf_counter()
    rebuild = await storage.rebuild_ratings(write=True)
    t2 = time.perf_counter()
    print(
        f"rebuild_ratings: {check.matches:,} matches ({check.rated:,} rated,"
        f" {check.ratings:,} rating rows), {len(check.differences)} differences"
    )
    for name, seconds in (("check (write=False)", t1 - t0), ("rebuild (write=True)", t2 - t1)):
        print(f"  {name}: {seconds:.2f} s, {check.matches / seconds:,.0f} matches/second")
    return list(check.differences + rebuild.differences)


@dataclass(frozen=True)
class _Variant:
    """One way of finishing the same matches, on its own fresh database.

    Attributes:
        name: as printed.
        robot: the level of every robot seat, or None for rated levels at random.
        without: a function replaced by a no-op, in the storage module that calls it
            (``callers`` in :func:`_time_finishes`), during this variant's ``finish_match`` calls (None: the code
            as it is).
    """

    name: str
    robot: str | None = None
    without: str | None = None


@dataclass(frozen=True)
class _Times:
    """``finish_match`` times of one variant in ms, sorted: wall clock, and the process's
    CPU time (both threads: the event loop's and the database connection's). On a shared
    machine the wall clock also counts waiting for a core; the CPU time does not."""

    wall: list[float]
    cpu: list[float]


def _nothing(*args: object) -> list[object]:
    return []


async def _nothing_async(*args: object) -> None:
    return None


async def _time_finishes(
    variants: Sequence[_Variant],
    sizes: Sequence[int],
    matches: int,
    players: int,
    folder: Path,
    seed: int,
) -> list[_Times]:
    """Finish the same ``matches`` (humans: a choice of ``sizes``) one at a time on one
    fresh database per variant, the variants of a match back to back in rotating order;
    returns each variant's ``finish_match`` times."""
    import storage.matches
    import storage.seasons

    callers = {"rating_changes": storage.seasons, "write_facts": storage.matches}

    folder = Path(tempfile.mkdtemp(dir=folder))  # fresh databases for every call
    stores = [await SqliteStorage.open(folder / f"cost{k}.db") for k in range(len(variants))]
    try:
        made = [
            [(await s.ensure_player("bench", str(i), f"J{i}", now=0.0)).id for i in range(players)]
            for s in stores
        ]
        ids = made[0]
        assert all(m == ids for m in made)
        rng = random.Random(seed)
        wall: list[list[float]] = [[] for _ in variants]
        cpu: list[list[float]] = [[] for _ in variants]
        for n in range(matches):
            humans = rng.sample(ids, rng.choice(sizes))
            seats = humans + [0] * (4 - len(humans))
            rng.shuffle(seats)
            winning_team = rng.randrange(2)
            levels = [rng.choice(LEVELS) for _ in range(4 - len(humans))]
            winners = [pid for seat, pid in enumerate(seats) if pid and seat % 2 == winning_team]
            results = [
                PlayerResult(pid, seat % 2, seat % 2 == winning_team, hands_won=3)
                for seat, pid in enumerate(seats)
                if pid
            ]
            match_id = f"m{n}"
            now = 1_767_225_600.0 + 600.0 * n  # from 2026-01-01, so seasons change
            for k in [(n + i) % len(variants) for i in range(len(variants))]:
                variant, store = variants[k], stores[k]
                robots = levels if variant.robot is None else [variant.robot] * 4
                record = _record(match_id, seats, robots, winning_team, random.Random(n))
                await store.stake(match_id, humans, 0, now=now)
                caller = callers[variant.without] if variant.without else None
                kept = getattr(caller, variant.without) if variant.without else None
                if variant.without:
                    nothing = _nothing_async if inspect.iscoroutinefunction(kept) else _nothing
                    setattr(caller, variant.without, nothing)
                try:
                    t0, c0 = time.perf_counter(), time.process_time()
                    await store.finish_match(
                        match_id,
                        "bench:1",
                        winners=winners,
                        record=record,
                        results=results,
                        now=now,
                    )
                    cpu[k].append((time.process_time() - c0) * 1000)
                    wall[k].append((time.perf_counter() - t0) * 1000)
                finally:
                    if variant.without:
                        setattr(caller, variant.without, kept)
        return [_Times(sorted(w), sorted(c)) for w, c in zip(wall, cpu, strict=True)]
    finally:
        for store in stores:
            await store.close()


def _print_times(variants: Sequence[_Variant], times: Sequence[_Times]) -> None:
    for variant, t in zip(variants, times, strict=True):
        p99 = t.wall[min(len(t.wall) - 1, int(len(t.wall) * 0.99))]
        print(
            f"  finish_match {variant.name}: CPU mean {statistics.fmean(t.cpu):.3f} ms,"
            f" median {statistics.median(t.cpu):.3f} ms; wall median"
            f" {statistics.median(t.wall):.3f} ms, p99 {p99:.3f} ms"
        )


def _added(what: str, with_: _Times, without: _Times, target: bool) -> None:
    cpu = statistics.fmean(with_.cpu) - statistics.fmean(without.cpu)
    wall = statistics.median(with_.wall) - statistics.median(without.wall)
    verdict = f"; target <= 1 ms: {'OK' if cpu <= 1.0 else 'MISSED'}" if target else ""
    print(
        f"  {what} adds {cpu:.3f} ms of CPU per match (mean; wall clock median"
        f" {wall:+.3f} ms){verdict}"
    )


async def rating_cost(matches: int, players: int, folder: Path, seed: int) -> int:
    """What the rating update adds to ``finish_match`` (module doc), measured twice."""
    # 1. Records that rate against records that do not (a robot level not rated): the
    # matches have 1 to 3 humans, since a match of four humans is always rated.
    by_record = (
        _Variant("rated (robots of rated levels)"),
        _Variant(f"not rated (robots {UNRATED_ROBOT!r})", robot=UNRATED_ROBOT),
    )
    times = await _time_finishes(by_record, (1, 2, 3, 3), matches, players, folder, seed)
    print(
        f"rating cost: {matches:,} matches of 1-3 humans and robots, finished one at a time,"
        f" each variant on its own fresh database ({players} players)"
    )
    _print_times(by_record, times)
    _added("the rating update", times[0], times[1], target=True)
    # 2. The main run's mix (2 to 4 humans, mostly 4) with the same records, against the
    # code with the rating update left out (rating_changes writes nothing) and with all
    # of issue 14's writes left out (no seats, seasons or ratings: finish_match as it was
    # before ratings).
    by_code = (
        _Variant("as it is"),
        _Variant("without the rating update", without="rating_changes"),
        _Variant("without seats, seasons and ratings", without="write_facts"),
    )
    times = await _time_finishes(by_code, (2, 3, 4, 4, 4), matches, players, folder, seed + 1)
    print(f"rating cost: {matches:,} matches of 2-4 humans (mostly 4), the same records")
    _print_times(by_code, times)
    _added("the rating update", times[0], times[1], target=True)
    _added("seats, seasons and ratings together", times[0], times[2], target=False)
    return 0


_PATH_HELP = {
    "finish": "stake, then finish_match",
    "separate": "stake, settle, record_match, a balance read per human",
    "settle": "stake, settle; nothing recorded",
}


def _split(matches: int, tables: int) -> list[int]:
    """``matches`` shared among ``tables`` as evenly as can be."""
    return [matches // tables + (1 if t < matches % tables else 0) for t in range(tables)]


def _server_cpu(pid: int | None) -> float:
    """CPU seconds used so far by the server process ``pid`` and its children (the
    PostgreSQL backends: the live ones', and the ended ones' counted in their parent);
    0.0 without a pid or where /proc cannot tell."""
    if pid is None:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")

    def used(p: int, ended_children: bool) -> int:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0
        own = int(fields[11]) + int(fields[12])  # utime, stime
        return own + (int(fields[13]) + int(fields[14]) if ended_children else 0)

    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    return (used(pid, True) + sum(used(int(c), False) for c in children)) / ticks


def _postmaster(server: Any) -> int | None:
    """The PID of a throwaway server's postmaster (None for a server given by --db)."""
    if server is None or server.data_dir is None:
        return None
    return int((server.data_dir / "data" / "postmaster.pid").read_text().split()[0])


def _temporary_postgres() -> tuple[Any, str]:
    """A throwaway PostgreSQL server started as the tests start theirs
    (tests/postgres_server.py: Debian's binaries, a free port of 127.0.0.1, fsync off)
    and a fresh migrated database on it: (the server, to ``stop()``; the database's DSN).

    Raises:
        PostgresUnavailable: no server can be had here (the message says why).
    """
    from tests.postgres_server import start_server

    server = start_server()
    try:
        dsn = asyncio.run(server.create_database())
    except BaseException:
        server.stop()
        raise
    return server, dsn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=50, help="concurrent coroutines")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--path", choices=PATHS, default="finish", help="how a match ends")
    parser.add_argument(
        "--db",
        help="a SQLite file (measured alone), or a postgresql:// URL to compare with a fresh"
        " SQLite file (default: a throwaway PostgreSQL server and a fresh SQLite file)",
    )
    parser.add_argument(
        "--connections", type=int, default=8, help="PostgreSQL connections (operations at once)"
    )
    parser.add_argument(
        "--unfenced",
        action="store_true",
        help="write without the lease's fencing token (to measure what the check costs)",
    )
    parser.add_argument(
        "--rating-matches",
        type=int,
        default=2000,
        help="matches of the rating cost figure (0: skip it)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=2000,
        help="matches played before the timed ones (then ANALYZE on PostgreSQL; 0: time"
        " a new database)",
    )
    parser.add_argument(
        "--sqlite-only",
        action="store_true",
        help="without --db: measure SQLite alone (no temporary PostgreSQL server)",
    )
    args = parser.parse_args(argv)
    postgres = args.db is not None and is_postgres_url(args.db)
    figures: dict[str, float] = {}
    code = 0
    server = None
    if args.db is None and not args.sqlite_only:
        server, dsn = _temporary_postgres()
        postgres = True
    else:
        dsn = args.db
    with tempfile.TemporaryDirectory() as tmp:
        if postgres:
            try:
                code |= asyncio.run(
                    run(
                        args.matches,
                        args.tables,
                        args.players,
                        dsn,
                        args.seed,
                        args.path,
                        args.connections,
                        figures,
                        not args.unfenced,
                        _postmaster(server),
                        args.warmup,
                    )
                )
            finally:
                if server is not None:
                    server.stop()
            print()
        db = Path(args.db) if args.db is not None and not postgres else Path(tmp) / "bench.db"
        code |= asyncio.run(
            run(
                args.matches,
                args.tables,
                args.players,
                db,
                args.seed,
                args.path,
                1,
                figures,
                not args.unfenced,
                None,
                args.warmup,
            )
        )
        if len(figures) > 1:
            print()
            print(f"stake + {args.path} cycles per second, side by side:")
            for where, rate in figures.items():
                print(f"  {rate:>8,.0f}  {where}")
        if args.rating_matches > 0:
            code |= asyncio.run(
                rating_cost(args.rating_matches, args.players, Path(tmp), args.seed)
            )
        return code


if __name__ == "__main__":
    sys.exit(main())
