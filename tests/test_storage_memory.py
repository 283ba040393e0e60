"""The in-memory storage (storage/memory.py) behaves exactly like the SQLite one and the
PostgreSQL one.

The contract tests in tests/test_storage_base.py run against all three; here random
scripts of operations, failures included, are played on memory and on each database and
every answer, every error and the final state must be the same. Also: values handed back
are copies.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from storage.base import PlayerResult, Storage, StorageError
from storage.memory import MemoryStorage
from storage.sqlite import SqliteStorage

DAY = 24 * 60 * 60.0


def script(seed: int, length: int) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """A random sequence of storage calls (name, args, kwargs), some of them bad."""
    rng = random.Random(seed)
    ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    now = 0.0
    matches: list[str] = []
    for n in range(length):
        now += rng.choice((1.0, 3600.0, DAY / 2))
        pid = rng.randint(1, 9)  # 9 may not exist yet
        kind = rng.choice(
            ["player"] * 2
            + ["stake"] * 4
            + ["settle"] * 3
            + ["finish"] * 2
            + ["refund", "forfeit", "top_up", "record", "language", "rules", "table", "link"]
        )
        if kind == "player" or n < 6:
            user = str(rng.randint(1, 8))
            ops.append(("ensure_player", ("telegram", user, f"P{user}-{n}"), {"now": now}))
        elif kind == "stake":
            match_id = f"m{rng.randint(1, n)}"
            matches.append(match_id)
            table = rng.sample(range(1, 10), rng.randint(1, 4))
            stake = rng.choice((0, 10, 10, 10, 100, 400, 900, -5))
            ops.append(("stake", (match_id, table, stake), {"now": now}))
        elif kind in ("settle", "refund", "forfeit") and matches:
            match_id = rng.choice([*matches, "ghost"])
            if kind == "settle":
                ops.append(("settle", (match_id, rng.sample(range(1, 10), 2)), {"now": now}))
            elif kind == "refund":
                ops.append(("refund", (match_id,), {"now": now}))
            else:
                ops.append(("forfeit", (match_id, pid), {"now": now}))
        elif kind == "finish" and matches:
            match_id = rng.choice([*matches, "ghost", f"r{rng.randint(1, n)}"])
            seated = rng.sample(range(1, 10), rng.randint(0, 4))  # 9 may not exist
            results = [
                PlayerResult(p, i % 2, i % 2 == 0, rng.randint(0, 5), rng.randint(0, 3), 1, 0)
                for i, p in enumerate(seated)
            ]
            ops.append(
                (
                    "finish_match",
                    (match_id, rng.choice(("telegram:-1", "discord:2"))),
                    {
                        "winners": seated[::2],
                        "record": {"n": n},
                        "results": results,
                        "now": now,
                    },
                )
            )
        elif kind == "top_up":
            ops.append(("top_up", (pid,), {"now": now, "stake": rng.choice((10, 50))}))
        elif kind == "record":
            others = rng.sample(range(1, 10), rng.randint(0, 3))
            results = [
                PlayerResult(p, i % 2, i % 2 == 0, rng.randint(0, 5), rng.randint(0, 3), 0, 1)
                for i, p in enumerate(others)
            ]
            chat = rng.choice(("telegram:-1", "discord:2"))
            ops.append(
                ("record_match", (f"r{rng.randint(1, n)}", chat, {"n": n}, results), {"now": now})
            )
        elif kind == "language":
            ops.append(("set_player_language", (pid, rng.choice(("es", "en", "xx"))), {}))
        elif kind == "rules":
            preset = rng.choice(("venezolano", "Dominicano", "nope"))
            overrides = rng.choice(({}, {"target": 200}, {"target": 7}))
            ops.append(
                (
                    "set_chat_rules",
                    ("telegram:-1", preset, overrides),
                    {"changed_by": pid, "now": now},
                )
            )
        elif kind == "table":
            ops.append(("save_table", (f"t{pid % 3}", {"n": n, "at": now}), {"now": now}))
        elif kind == "link":
            ops.append(("link_player", (pid, "discord", str(rng.randint(1, 4))), {}))
    return ops


async def play(store: Storage, ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> list[Any]:
    answers: list[Any] = []
    for name, args, kwargs in ops:
        try:
            answers.append(("ok", await getattr(store, name)(*args, **kwargs)))
        except (StorageError, ValueError, TypeError) as exc:
            answers.append(("error", type(exc).__name__, str(exc)))
    return answers


async def state(store: Storage, now: float) -> dict[str, Any]:
    players = [p for p in [await store.get_player(i) for i in range(1, 10)] if p]
    return {
        "players": players,
        "balances": [await store.balance(p.id) for p in players],
        "history": [await store.wallet_history(p.id, limit=100) for p in players],
        "stats": [await store.player_stats(p.id) for p in players],
        "top_balance": [await store.top_by_balance(c, now=now) for c in (None, "discord:2")],
        "top_rating": [await store.top_by_rating(c, now=now) for c in (None, "telegram:-1")],
        "ratings": [await store.player_rating(p.id) for p in players],
        "rating_history": [await store.rating_history(p.id) for p in players],
        "pairs": await store.top_pairs(None, min_matches=1),
        "records_of": [await store.player_record(p.id) for p in players],
        "seasons": await store.seasons("*"),
        "records": await store.match_records(limit=1000),
        "by_player": [await store.match_records(player_id=p.id) for p in players],
        "rules": await store.get_chat_rules("telegram:-1"),
        "tables": await store.load_tables(),
        "links": [await store.find_player("discord", str(u)) for u in range(1, 5)],
    }


@pytest.mark.parametrize("database_kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("seed", range(4))
async def test_memory_and_the_databases_answer_every_script_the_same(
    request: pytest.FixtureRequest, tmp_path: Path, seed: int, database_kind: str
) -> None:
    ops = script(seed, 160)
    database: Storage
    if database_kind == "sqlite":
        database = await SqliteStorage.open(tmp_path / "same.db")
    else:
        from storage.postgres import PostgresStorage

        server = request.getfixturevalue("postgres_server")
        dsn = await server.create_database()
        database = await PostgresStorage.open(dsn)
    memory = MemoryStorage()
    try:
        assert await play(memory, ops) == await play(database, ops)
        now = max(kw.get("now", 0.0) for _, _, kw in ops)
        assert await state(memory, now) == await state(database, now)
        assert await memory.check_ledger() == [] == await database.check_ledger()
    finally:
        await memory.close()
        await database.close()
        if database_kind == "postgres":
            await server.drop_database(dsn)


async def test_the_scripts_exercise_successes_and_failures() -> None:
    kinds: set[str] = set()
    for seed in range(4):
        answers = await play(MemoryStorage(), script(seed, 160))
        kinds |= {a[1] if a[0] == "error" else "ok" for a in answers}
    assert {
        "ok",
        "InsufficientFunds",
        "UnknownPlayerError",
        "UnknownMatchError",
        "MatchClosedError",
        "NotInMatchError",
        "RulesError",
        "ValueError",
    } <= kinds


async def test_values_handed_back_are_copies() -> None:
    store = MemoryStorage()
    a = (await store.ensure_player("telegram", "1", "Ana", now=0.0)).id
    record: dict[str, Any] = {"hands": [{"moves": ["6-6"]}]}
    await store.record_match("m1", "telegram:-1", record, [PlayerResult(a, 0, True)], now=1.0)
    record["hands"].append("changed later")
    [stored] = await store.match_records()
    stored.record["hands"].clear()
    assert (await store.match_records())[0].record == {"hands": [{"moves": ["6-6"]}]}
    snapshot: dict[str, Any] = {"seats": [1, 2]}
    await store.save_table("t1", snapshot, now=1.0)
    snapshot["seats"].append(3)
    (await store.load_tables())[0]["seats"].append(4)
    assert await store.load_tables() == [{"seats": [1, 2]}]
