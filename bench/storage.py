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
  False: no rating is read or written); the two ``finish_match`` calls of a match run
  back to back, in alternating order, so load on the machine hits both alike.
  Target: at most 1 ms added per match.
- rebuild throughput: ``rebuild_ratings`` (``domino ratings --check`` and ``--rebuild``)
  over the main run's matches, in matches per second.

Target: >= 1,000 matches per second.

Run: ``python bench/storage.py [--matches 10000] [--tables 50] [--path finish] [--db PATH]
[--rating-matches 2000]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# storage package; this checkout's root goes first instead (not an installed copy).
_HERE = Path(__file__).parent.resolve()
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from storage.base import InsufficientFunds, PlayerResult  # noqa: E402
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
    storage: SqliteStorage,
    table: int,
    matches: int,
    player_ids: list[int],
    rng: random.Random,
    clock: list[float],
    latencies: dict[str, list[float]],
    refused: list[int],
    path: str,
) -> None:
    for n in range(matches):
        humans = rng.sample(player_ids, rng.choice((2, 3, 4, 4, 4)))
        seats = humans + [0] * (4 - len(humans))  # 0 = a robot seat
        rng.shuffle(seats)
        match_id = f"t{table}-m{n}"
        clock[0] += 1.0
        t0 = time.perf_counter()
        try:
            await storage.stake(match_id, humans, 10, now=clock[0])
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
                match_id, "bench:1", winners=winners, record=record, results=results, now=clock[0]
            )
        else:
            await storage.settle(match_id, winners, now=clock[0])
            if path == "separate":
                await storage.record_match(match_id, "bench:1", record, results, now=clock[0])
                for pid in humans:
                    await storage.balance(pid)
        t2 = time.perf_counter()
        latencies["stake"].append(t1 - t0)
        latencies["finish"].append(t2 - t1)


async def run(matches: int, tables: int, players: int, db: Path, seed: int, path: str) -> int:
    storage = await SqliteStorage.open(db)
    try:
        mode = await storage._run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0])
        ids = [
            (await storage.ensure_player("bench", str(i), f"Jugador {i}", now=0.0)).id
            for i in range(players)
        ]
        rng = random.Random(seed)
        clock = [0.0]
        latencies: dict[str, list[float]] = {"stake": [], "finish": []}
        refused = [0]
        per_table = [matches // tables + (1 if t < matches % tables else 0) for t in range(tables)]
        start = time.perf_counter()
        await asyncio.gather(
            *(
                _table(
                    storage,
                    t,
                    per_table[t],
                    ids,
                    random.Random(rng.random()),
                    clock,
                    latencies,
                    refused,
                    path,
                )
                for t in range(tables)
            )
        )
        elapsed = time.perf_counter() - start
        problems = await storage.check_ledger()
        played = len(latencies["finish"])
        writes = {"finish": 2, "separate": 3, "settle": 2}[path]
        print(f"database: {db} (journal_mode={mode}, synchronous=NORMAL)")
        print(f"path: {path} ({_PATH_HELP[path]})")
        print(
            f"{matches} matches over {tables} concurrent tables, {players} players:"
            f" {played} staked and finished, {refused[0]} refused (insufficient funds)"
        )
        print(f"elapsed: {elapsed:.2f} s")
        print(f"matches/second: {matches / elapsed:,.0f} (target >= 1,000)")
        print(f"write transactions/second: {(played * writes + refused[0]) / elapsed:,.0f}")
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


async def _rebuild_throughput(storage: SqliteStorage) -> list[str]:
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


async def rating_cost(matches: int, players: int, folder: Path, seed: int) -> int:
    """Per-match time of ``finish_match`` for rated and unrated records (module doc)."""
    rated = await SqliteStorage.open(folder / "rated.db")
    unrated = await SqliteStorage.open(folder / "unrated.db")
    try:
        stores = (rated, unrated)
        made = [
            [(await s.ensure_player("bench", str(i), f"J{i}", now=0.0)).id for i in range(players)]
            for s in stores
        ]
        ids = made[0]
        assert made[1] == ids
        rng = random.Random(seed)
        times: tuple[list[float], list[float]] = ([], [])
        for n in range(matches):
            humans = rng.sample(ids, rng.choice((1, 2, 3, 3)))
            seats = humans + [0] * (4 - len(humans))
            rng.shuffle(seats)
            winning_team = rng.randrange(2)
            robots = [rng.choice(LEVELS) for _ in range(4 - len(humans))]
            match_id = f"m{n}"
            records = (
                _record(match_id, seats, robots, winning_team, random.Random(n)),
                _record(match_id, seats, [UNRATED_ROBOT] * 4, winning_team, random.Random(n)),
            )
            winners = [pid for seat, pid in enumerate(seats) if pid and seat % 2 == winning_team]
            results = [
                PlayerResult(pid, seat % 2, seat % 2 == winning_team, hands_won=3)
                for seat, pid in enumerate(seats)
                if pid
            ]
            now = 1_767_225_600.0 + 600.0 * n  # from 2026-01-01, so seasons change
            order = (0, 1) if n % 2 == 0 else (1, 0)
            for k in order:
                await stores[k].stake(match_id, humans, 0, now=now)
                t0 = time.perf_counter()
                await stores[k].finish_match(
                    match_id,
                    "bench:1",
                    winners=winners,
                    record=records[k],
                    results=results,
                    now=now,
                )
                times[k].append(time.perf_counter() - t0)
        check = [await store.rebuild_ratings(write=False) for store in stores]
        if (check[0].rated, check[1].rated) != (matches, 0):
            rated_counts = f"{check[0].rated} and {check[1].rated}"
            print(f"rating cost: expected {matches} and 0 rated matches, got {rated_counts}")
            return 1
        ms = [sorted(t * 1000 for t in side) for side in times]
        medians = [statistics.median(side) for side in ms]
        means = [statistics.fmean(side) for side in ms]
        print(
            f"rating cost: {matches:,} matches of 1-3 humans and robots, finished one at a time"
            f" on two fresh databases ({players} players)"
        )
        names = ("rated (robots of rated levels)", f"not rated (level {UNRATED_ROBOT!r})")
        for k, name in enumerate(names):
            p99 = ms[k][min(len(ms[k]) - 1, int(len(ms[k]) * 0.99))]
            print(
                f"  finish_match {name}: median {medians[k]:.3f} ms, mean {means[k]:.3f} ms,"
                f" p99 {p99:.3f} ms"
            )
        added = medians[0] - medians[1]
        print(
            f"  the rating update adds {added:.3f} ms per match (median; mean"
            f" {means[0] - means[1]:.3f} ms); target <= 1 ms: {'OK' if added <= 1.0 else 'MISSED'}"
        )
        return 0
    finally:
        await rated.close()
        await unrated.close()


_PATH_HELP = {
    "finish": "stake, then finish_match",
    "separate": "stake, settle, record_match, a balance read per human",
    "settle": "stake, settle; nothing recorded",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=50, help="concurrent coroutines")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--path", choices=PATHS, default="finish", help="how a match ends")
    parser.add_argument("--db", type=Path, help="database file (default: a fresh temporary one)")
    parser.add_argument(
        "--rating-matches",
        type=int,
        default=2000,
        help="matches of the rating cost figure (0: skip it)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db if args.db is not None else Path(tmp) / "bench.db"
        code = asyncio.run(run(args.matches, args.tables, args.players, db, args.seed, args.path))
        if args.rating_matches > 0:
            code |= asyncio.run(
                rating_cost(args.rating_matches, args.players, Path(tmp), args.seed)
            )
        return code


if __name__ == "__main__":
    sys.exit(main())
