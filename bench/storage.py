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

Target: >= 1,000 matches per second.

``--db postgresql://user@host/database`` runs the same matches on PostgreSQL
(storage/postgres.py, ``--connections`` operations at once) and then on a fresh temporary
SQLite file, and prints the stake + finish (or settle) cycles per second of both side by
side. The PostgreSQL database may be used again: each run's match ids are new.

Run: ``python bench/storage.py [--matches 10000] [--tables 50] [--path finish] [--db PATH|URL]``
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
# storage package; this checkout's root goes first instead (not an installed copy).
_HERE = Path(__file__).parent.resolve()
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from storage import is_postgres_url, redact_dsn  # noqa: E402
from storage.base import InsufficientFunds, PlayerResult, Storage  # noqa: E402
from storage.sqlite import SqliteStorage  # noqa: E402

PATHS = ("finish", "separate", "settle")


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
) -> None:
    for n in range(matches):
        humans = rng.sample(player_ids, rng.choice((2, 3, 4, 4, 4)))
        seats = humans + [0] * (4 - len(humans))  # 0 = a robot seat
        rng.shuffle(seats)
        match_id = f"{run_id}t{table}-m{n}"
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
        record = {"match_id": match_id, "seats": seats, "winner_team": winning_team}
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


async def run(
    matches: int,
    tables: int,
    players: int,
    db: Path | str,
    seed: int,
    path: str,
    connections: int = 8,
    figures: dict[str, float] | None = None,
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
                    run_id,
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
        print(f"database: {where}")
        print(f"path: {path} ({_PATH_HELP[path]})")
        print(
            f"{matches} matches over {tables} concurrent tables, {players} players:"
            f" {played} staked and finished, {refused[0]} refused (insufficient funds)"
        )
        print(f"elapsed: {elapsed:.2f} s")
        print(f"matches/second: {matches / elapsed:,.0f} (target >= 1,000)")
        print(f"write transactions/second: {(played * writes + refused[0]) / elapsed:,.0f}")
        print(f"stake + {path} cycles/second: {played / elapsed:,.0f}")
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
        return 1 if problems else 0
    finally:
        await storage.close()


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
    parser.add_argument(
        "--db",
        help="database file, or a postgresql:// URL to compare PostgreSQL with SQLite"
        " (default: a fresh temporary SQLite file)",
    )
    parser.add_argument(
        "--connections", type=int, default=8, help="PostgreSQL connections (operations at once)"
    )
    args = parser.parse_args(argv)
    if args.db is not None and not is_postgres_url(args.db):
        return asyncio.run(
            run(args.matches, args.tables, args.players, Path(args.db), args.seed, args.path)
        )
    figures: dict[str, float] = {}
    code = 0
    if args.db is not None:
        code = asyncio.run(
            run(
                args.matches,
                args.tables,
                args.players,
                args.db,
                args.seed,
                args.path,
                args.connections,
                figures,
            )
        )
        print()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        code |= asyncio.run(
            run(args.matches, args.tables, args.players, db, args.seed, args.path, 1, figures)
        )
    if len(figures) > 1:
        print()
        print(f"stake + {args.path} cycles per second, side by side:")
        for where, rate in figures.items():
            print(f"  {rate:>8,.0f}  {where}")
    return code


if __name__ == "__main__":
    sys.exit(main())
