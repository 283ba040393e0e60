"""One writer process of tests/test_storage_postgres.py's concurrency test.

``python tests/postgres_worker.py DSN WORKER MATCHES``: opens the (maybe not yet
migrated) database with two connections, creates the shared players (every worker
creates the same twelve at once), then plays MATCHES matches of its own among them
(stake, then a refund, a forfeit and a finish, a settlement raced by two calls, or a
finish) and one shared match out of every five, which every worker stakes and finishes at
once. Prints one JSON object: each player's expected change of balance from its own
matches, and for each shared match whether this worker's finish was the one that paid.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage.base import PlayerResult
from storage.postgres import PostgresStorage

PLAYERS = 12
STAKE = 1


def shared_match(n: int, players: list[int]) -> tuple[str, list[int], int, dict[str, Any]]:
    """The shared match ``n``: (match id, seats (0 = robot), winning team, record); the
    same in every worker."""
    rng = random.Random(1000 + n)
    humans = rng.sample(players, rng.choice((2, 3, 4)))
    seats = humans + [0] * (4 - len(humans))
    rng.shuffle(seats)
    return f"shared-{n}", seats, rng.randrange(2), record_of(seats, rng)


def record_of(seats: list[int], rng: random.Random) -> dict[str, Any]:
    return {
        "seats": [{"player": p, "moves": 20} if p else {"robot": "experto"} for p in seats],
        "score": [rng.randrange(200), rng.randrange(200)],
        "hands": [],
    }


def results_of(seats: list[int], winning_team: int) -> list[PlayerResult]:
    return [
        PlayerResult(pid, seat % 2, seat % 2 == winning_team, hands_won=1)
        for seat, pid in enumerate(seats)
        if pid
    ]


async def main(dsn: str, worker: int, matches: int) -> dict[str, Any]:
    store = await PostgresStorage.open(dsn, connections=2)
    rng = random.Random(worker)
    delta: dict[int, int] = {}
    paid_shared: dict[str, bool] = {}
    try:
        users = list(range(PLAYERS))
        rng.shuffle(users)  # every worker creates them in its own order
        ids = {
            u: (await store.ensure_player("telegram", str(u), f"P{u}", now=0.0)).id for u in users
        }
        players = [ids[u] for u in range(PLAYERS)]
        for n in range(matches):
            now = float(n + 1)
            if n % 5 == 0:
                match_id, seats, team, record = shared_match(n // 5, players)
                humans = [p for p in seats if p]
                await store.stake(match_id, humans, STAKE, now=now)
                done = await store.finish_match(
                    match_id,
                    "telegram:-1",
                    winners=[p for s, p in enumerate(seats) if p and s % 2 == team],
                    record=record,
                    results=results_of(seats, team),
                    now=now,
                )
                paid_shared[match_id] = not done.already_finished
                continue
            humans = rng.sample(players, rng.choice((2, 3, 4)))
            seats = humans + [0] * (4 - len(humans))
            rng.shuffle(seats)
            team = rng.randrange(2)
            winners = [p for s, p in enumerate(seats) if p and s % 2 == team]
            match_id = f"w{worker}-{n}"
            await store.stake(match_id, humans, STAKE, now=now)
            for pid in humans:
                delta[pid] = delta.get(pid, 0) - STAKE
            kind = n % 4
            if kind == 0:
                for pid, amount in (await store.refund(match_id, now=now)).items():
                    delta[pid] += amount
                continue
            if kind == 1:
                await store.forfeit(match_id, humans[0], now=now)
            if kind == 2:
                raced = await asyncio.gather(
                    store.settle(match_id, winners, now=now),
                    store.settle(match_id, winners, now=now),
                )
                assert raced[0] == raced[1], raced
                payouts = raced[0]
                await store.record_match(
                    match_id, "discord:2", record_of(seats, rng), results_of(seats, team), now=now
                )
            else:
                settlement = await store.finish_match(
                    match_id,
                    "discord:2",
                    winners=winners,
                    record=record_of(seats, rng),
                    results=results_of(seats, team),
                    now=now,
                )
                payouts = settlement.payouts
            for pid, amount in payouts.items():
                delta[pid] += amount
    finally:
        await store.close()
    return {
        "players": players,
        "delta": {str(k): v for k, v in delta.items()},
        "shared": paid_shared,
    }


if __name__ == "__main__":
    dsn, worker, matches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(asyncio.run(main(dsn, worker, matches))))
