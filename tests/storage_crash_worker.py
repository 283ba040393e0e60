"""A writer process for the crash test (tests/test_storage_sqlite.py); not a test module.

Runs random storage operations against one database until killed, printing
``BEGIN <json>`` before and ``DONE <json>`` after each one (flushed), so the test knows
which operations finished and which one was in flight when SIGKILL arrived.

Usage: ``python tests/storage_crash_worker.py DB SEED``
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

from storage.base import InsufficientFunds, PlayerResult
from storage.sqlite import SqliteStorage


def say(tag: str, op: dict[str, Any]) -> None:
    sys.stdout.write(f"{tag} {json.dumps(op)}\n")
    sys.stdout.flush()


async def main(db: Path, seed: int) -> None:
    rng = random.Random(seed)
    storage = await SqliteStorage.open(db)
    now = 1_000_000.0 + seed * 10_000
    # State is loaded once and then kept here, so that the process spends its time
    # inside storage transactions, where the kill should land.
    players = [
        int(r[0])
        for r in await storage._run(lambda c: c.execute("SELECT id FROM players").fetchall())
    ]
    held: dict[str, list[int]] = {}
    for match_id, player_id in await storage._run(
        lambda c: c.execute(
            "SELECT e.match_id, h.player_id FROM escrows e JOIN escrow_holders h"
            " ON h.match_id = e.match_id WHERE e.state = 'open' AND h.status = 'held'"
        ).fetchall()
    ):
        held.setdefault(str(match_id), []).append(int(player_id))
    n = 0
    while True:
        n += 1
        now += rng.choice((1.0, 60.0, 3600.0))
        open_matches = sorted(held)
        kind = rng.choice(
            ["player"] * (3 if len(players) < 8 else 1)
            + ["stake"] * 4
            + (["settle", "finish", "finish", "refund", "forfeit"] if open_matches else [])
            + ["top_up", "record", "save_table", "delete_table"]
        )
        op: dict[str, Any] = {"kind": kind, "n": n, "seed": seed}
        if kind == "player":
            op["user"] = f"{seed}-{n}"
        elif kind == "stake" and len(players) >= 2:
            op["match"] = f"s{seed}-m{n}"
            op["players"] = rng.sample(players, min(4, len(players), rng.randint(2, 4)))
            op["stake"] = rng.choice((10, 10, 50, 300))
        elif kind in ("settle", "finish", "refund", "forfeit") and open_matches:
            op["match"] = rng.choice(open_matches)
            op["winners"] = rng.sample(players, min(2, len(players)))
            if kind == "forfeit":
                if not held[op["match"]]:
                    continue
                op["player"] = held[op["match"]][0]
        elif kind in ("top_up", "record") and players:
            op["player"] = rng.choice(players)
        elif kind in ("save_table", "delete_table"):
            op["table"] = f"t{rng.randrange(5)}"
        else:
            continue
        say("BEGIN", op)
        try:
            if kind == "player":
                player = await storage.ensure_player("crash", op["user"], f"P{n}", now=now)
                players.append(player.id)
            elif kind == "stake":
                await storage.stake(op["match"], op["players"], op["stake"], now=now)
                held[op["match"]] = list(op["players"])
            elif kind == "settle":
                await storage.settle(op["match"], op["winners"], now=now)
                del held[op["match"]]
            elif kind == "finish":
                holders = held[op["match"]]
                results = [
                    PlayerResult(p, i % 2, i % 2 == 0, 2, 1, 0, 0) for i, p in enumerate(holders)
                ]
                op["results"] = len(results)
                record = {"n": n, "results": len(results), "moves": ["6-6"] * 50}
                await storage.finish_match(
                    op["match"],
                    "crash:1",
                    winners=op["winners"],
                    record=record,
                    results=results,
                    now=now,
                )
                del held[op["match"]]
            elif kind == "refund":
                await storage.refund(op["match"], now=now)
                del held[op["match"]]
            elif kind == "forfeit":
                await storage.forfeit(op["match"], op["player"], now=now)
                held[op["match"]].remove(op["player"])
            elif kind == "top_up":
                await storage.top_up(op["player"], now=now)
            elif kind == "record":
                op["match"] = f"r{seed}-{n}"
                others = [p for p in players if p != op["player"]][:1]
                results = [PlayerResult(op["player"], 0, True, 1, 1, 0, 0)]
                results += [PlayerResult(p, 1, False, 0, 0, 0, 0) for p in others]
                op["results"] = len(results)
                record = {"n": n, "results": len(results), "moves": ["6-6"] * 50}
                await storage.record_match(op["match"], "crash:1", record, results, now=now)
            elif kind == "save_table":
                await storage.save_table(op["table"], {"table_id": op["table"], "n": n}, now=now)
            elif kind == "delete_table":
                await storage.delete_table(op["table"])
        except InsufficientFunds:
            op["refused"] = True
        say("DONE", op)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
