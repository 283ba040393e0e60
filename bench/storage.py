"""Stake + settle cycles per second on a file database in WAL mode (issue 5).

Each simulated match stakes its humans (two to four of a pool of players, the rest robots)
and settles with a random winning partnership; every stake and every settlement is its
own ``BEGIN IMMEDIATE`` transaction, as in the bot. Matches run from many concurrent
coroutines (tables) against the one writer connection. At the end the ledger invariants
are checked (every transaction sums to zero, each balance equals its entries, nothing
negative, escrows hold exactly their stakes) and the figures are printed.

Target: >= 1,000 matches per second.

Run: ``python bench/storage.py [--matches 10000] [--tables 50] [--db PATH]``
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

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# storage package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

from storage.base import InsufficientFunds  # noqa: E402
from storage.sqlite import SqliteStorage  # noqa: E402


async def _table(
    storage: SqliteStorage,
    table: int,
    matches: int,
    player_ids: list[int],
    rng: random.Random,
    clock: list[float],
    latencies: dict[str, list[float]],
    refused: list[int],
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
        await storage.settle(match_id, winners, now=clock[0])
        t2 = time.perf_counter()
        latencies["stake"].append(t1 - t0)
        latencies["settle"].append(t2 - t1)


async def run(matches: int, tables: int, players: int, db: Path, seed: int) -> int:
    storage = await SqliteStorage.open(db)
    try:
        mode = await storage._run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0])
        ids = [
            (await storage.ensure_player("bench", str(i), f"Jugador {i}", now=0.0)).id
            for i in range(players)
        ]
        rng = random.Random(seed)
        clock = [0.0]
        latencies: dict[str, list[float]] = {"stake": [], "settle": []}
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
                )
                for t in range(tables)
            )
        )
        elapsed = time.perf_counter() - start
        problems = await storage.check_ledger()
        played = len(latencies["settle"])
        print(f"database: {db} (journal_mode={mode}, synchronous=NORMAL)")
        print(
            f"{matches} matches over {tables} concurrent tables, {players} players:"
            f" {played} staked and settled, {refused[0]} refused (insufficient funds)"
        )
        print(f"elapsed: {elapsed:.2f} s")
        print(f"matches/second: {matches / elapsed:,.0f} (target >= 1,000)")
        print(f"transactions/second: {(played * 2 + refused[0]) / elapsed:,.0f}")
        for name, values in latencies.items():
            ms = sorted(v * 1000 for v in values)
            if ms:
                p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
                print(f"{name}: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms")
        print("invariants: " + ("OK" if not problems else "BROKEN"))
        for problem in problems[:20]:
            print("  " + problem)
        return 1 if problems else 0
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=50, help="concurrent coroutines")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="database file (default: a fresh temporary one)")
    args = parser.parse_args(argv)
    if args.db is not None:
        return asyncio.run(run(args.matches, args.tables, args.players, args.db, args.seed))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        return asyncio.run(run(args.matches, args.tables, args.players, db, args.seed))


if __name__ == "__main__":
    sys.exit(main())
