"""Tournaments in storage (storage/tournaments.py, issue 32) and their money
(``PlayersAndWallets.pay_prizes``), run against SQLite and PostgreSQL.

Every behaviour test takes the ``store`` fixture, parametrized over ``SqliteStorage`` and
``PostgresStorage`` (a real server, tests/postgres_server.py; skipped with the reason when
none can be had, a failure in CI), as tests/test_storage_base.py does, and the ledger is
checked after each. Money rules: rules.md, "The house"; the prize split:
docs/tournaments.md, "Prize split".
"""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import ManualClock, TableManager
from bot.core.tournaments.prizes import prize_split
from storage import open_storage
from storage.base import (
    TOURNAMENT_ESCROW_PREFIX,
    Fence,
    FencedOut,
    LedgerEntry,
    MatchClosedError,
    NotInMatchError,
    OpenEscrow,
    Storage,
    TournamentClosedError,
    TournamentPlace,
    UnknownMatchError,
    UnknownPlayerError,
    UnknownTournamentError,
    tournament_escrow,
)
from storage.migrations import MIGRATIONS
from storage.postgres_migrations import POSTGRES_MIGRATIONS
from storage.sqlite import SqliteStorage
from tests.postgres_server import PostgresServer

CHAT = "telegram:-100"
COPA = tournament_escrow("copa")
OLD_DB = Path(__file__).parent / "fixtures" / "old_main_tables.db"
EXAMPLES = itertools.count(1_000)
"""Numbers the property's examples, which share one storage."""


async def make_players(store: Storage, count: int, first: int = 100) -> list[int]:
    return [
        (await store.ensure_player("telegram", str(first + i), f"Jugador {i}", now=0.0)).id
        for i in range(count)
    ]


async def balances(store: Storage, ids: list[int]) -> list[int]:
    return [await store.balance(pid) for pid in ids]


# ----------------------------------------------------------- the escrow id


def test_a_tournaments_escrow_id_is_its_id_after_the_prefix() -> None:
    assert tournament_escrow("copa") == "tournament:copa"
    assert TOURNAMENT_ESCROW_PREFIX == "tournament:"
    with pytest.raises(ValueError):
        tournament_escrow("")


# ------------------------------------------------------------- snapshots


async def test_tournaments_are_saved_replaced_and_loaded_oldest_first(store: Storage) -> None:
    await store.save_tournament("b", CHAT, {"round": 1, "seeds": (1, 2)}, now=10.0)
    await store.save_tournament("a", "discord:7", {"round": 0}, now=11.0)
    await store.save_tournament("c", CHAT, {"round": 0}, now=11.0)
    # saving again replaces the snapshot and keeps the tournament's place in the order
    await store.save_tournament("b", CHAT, {"round": 2, "seeds": [2, 1]}, now=12.0)
    assert await store.load_tournaments() == [
        {"round": 2, "seeds": [2, 1]},
        {"round": 0},
        {"round": 0},
    ]
    assert await store.live_tournament_ids() == ["b", "a", "c"]
    assert await store.get_tournament("a") == {"round": 0}
    assert await store.get_tournament("missing") is None


async def test_a_snapshot_that_is_not_json_or_has_no_id_or_chat_is_refused(
    store: Storage,
) -> None:
    await store.save_tournament("copa", CHAT, {"ok": True}, now=1.0)
    with pytest.raises(TypeError):
        await store.save_tournament("copa", CHAT, {"bad": {1, 2}}, now=2.0)
    with pytest.raises(ValueError):
        await store.save_tournament("", CHAT, {}, now=2.0)
    with pytest.raises(ValueError):
        await store.save_tournament("copa", "", {}, now=2.0)
    assert await store.load_tournaments() == [{"ok": True}]


async def test_a_stale_fence_saves_and_finishes_nothing(store: Storage) -> None:
    await store.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
    assert await store.claim_tables("telegram", "host-a", now=1.0, replacing=None) == 1
    assert await store.claim_tables("telegram", "host-b", now=2.0, replacing="host-a") == 2
    stale = Fence("telegram", "host-a", 1)
    with pytest.raises(FencedOut):
        await store.save_tournament("copa", CHAT, {"round": 2}, now=3.0, fence=stale)
    with pytest.raises(FencedOut):
        await store.finish_tournament("copa", {}, name="Copa", entrants=2, now=3.0, fence=stale)
    assert await store.load_tournaments() == [{"round": 1}]
    await store.save_tournament(
        "copa", CHAT, {"round": 2}, now=4.0, fence=Fence("telegram", "host-b", 2)
    )
    assert await store.load_tournaments() == [{"round": 2}]


# ------------------------------------------------------------- finishing


async def test_a_finished_tournament_leaves_the_list_keeps_its_snapshot_and_gives_places(
    store: Storage,
) -> None:
    ana, beto, carla = await make_players(store, 3)
    await store.save_tournament("copa", CHAT, {"round": 3, "over": True}, now=10.0)
    await store.save_tournament("liga", CHAT, {"round": 1}, now=11.0)
    await store.finish_tournament(
        "copa", {ana: 1, beto: 2, carla: 2}, name="Copa de mayo", entrants=5, now=20.0
    )
    assert await store.load_tournaments() == [{"round": 1}]
    assert await store.live_tournament_ids() == ["liga"]
    assert await store.get_tournament("copa") == {"round": 3, "over": True}
    assert await store.player_tournaments(beto) == [
        TournamentPlace("copa", CHAT, "Copa de mayo", 2, 5, 20.0)
    ]
    assert await store.player_tournaments(carla) == [
        TournamentPlace("copa", CHAT, "Copa de mayo", 2, 5, 20.0)
    ]


async def test_finishing_again_writes_nothing_and_keeps_the_first_places(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    await store.save_tournament("copa", CHAT, {}, now=10.0)
    await store.finish_tournament("copa", {ana: 1, beto: 2}, name="Copa", entrants=2, now=20.0)
    await store.finish_tournament("copa", {ana: 2, beto: 1}, name="Otra", entrants=4, now=30.0)
    assert await store.player_tournaments(ana) == [
        TournamentPlace("copa", CHAT, "Copa", 1, 2, 20.0)
    ]
    assert await store.player_tournaments(beto) == [
        TournamentPlace("copa", CHAT, "Copa", 2, 2, 20.0)
    ]


async def test_a_finished_tournament_cannot_be_saved_or_cancelled(store: Storage) -> None:
    await store.save_tournament("copa", CHAT, {"final": True}, now=10.0)
    await store.finish_tournament("copa", {}, name="Copa", entrants=2, now=20.0)
    with pytest.raises(TournamentClosedError) as saved:
        await store.save_tournament("copa", CHAT, {"final": False}, now=21.0)
    assert (saved.value.tournament_id, saved.value.state) == ("copa", "finished")
    with pytest.raises(TournamentClosedError):
        await store.cancel_tournament("copa", now=22.0)
    assert await store.get_tournament("copa") == {"final": True}
    assert await store.load_tournaments() == []


async def test_a_players_tournaments_are_listed_newest_first_up_to_the_limit(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    for n, (tid, at) in enumerate([("t1", 30.0), ("t2", 10.0), ("t3", 20.0), ("t4", 20.0)]):
        await store.save_tournament(tid, CHAT if n % 2 else "discord:9", {}, now=1.0)
        await store.finish_tournament(
            tid, {ana: n + 1, beto: 1}, name=f"Torneo {n}", entrants=8, now=at
        )
    await store.save_tournament("live", CHAT, {}, now=2.0)
    await store.save_tournament("off", CHAT, {}, now=2.0)
    await store.cancel_tournament("off", now=40.0)
    assert await store.player_tournaments(ana) == [
        TournamentPlace("t1", "discord:9", "Torneo 0", 1, 8, 30.0),
        TournamentPlace("t4", CHAT, "Torneo 3", 4, 8, 20.0),
        TournamentPlace("t3", "discord:9", "Torneo 2", 3, 8, 20.0),
        TournamentPlace("t2", CHAT, "Torneo 1", 2, 8, 10.0),
    ]
    assert [p.tournament_id for p in await store.player_tournaments(beto, limit=2)] == [
        "t1",
        "t4",
    ]
    assert await store.player_tournaments(beto, limit=0) == []
    with pytest.raises(UnknownPlayerError):
        await store.player_tournaments(999)


async def test_a_bad_finish_is_refused_with_nothing_written(store: Storage) -> None:
    (ana,) = await make_players(store, 1)
    with pytest.raises(UnknownTournamentError):
        await store.finish_tournament("never", {ana: 1}, name="Copa", entrants=2, now=5.0)
    await store.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
    with pytest.raises(UnknownPlayerError):
        await store.finish_tournament("copa", {ana: 1, 999: 2}, name="Copa", entrants=2, now=5.0)
    with pytest.raises(ValueError):
        await store.finish_tournament("copa", {ana: 3}, name="Copa", entrants=2, now=5.0)
    with pytest.raises(ValueError):
        await store.finish_tournament("copa", {ana: 0}, name="Copa", entrants=2, now=5.0)
    with pytest.raises(ValueError):
        await store.finish_tournament("copa", {ana: True}, name="Copa", entrants=2, now=5.0)
    with pytest.raises(ValueError):
        await store.finish_tournament("copa", {ana: 1}, name="  ", entrants=2, now=5.0)
    with pytest.raises(ValueError):
        await store.finish_tournament("copa", {}, name="Copa", entrants=0, now=5.0)
    assert await store.live_tournament_ids() == ["copa"]
    assert await store.player_tournaments(ana) == []


async def test_a_tournament_cannot_finish_while_its_fees_are_in_escrow(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    await store.save_tournament("copa", CHAT, {}, now=1.0)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    with pytest.raises(ValueError, match="pay the prizes first"):
        await store.finish_tournament("copa", {ana: 1, beto: 2}, name="Copa", entrants=2, now=3.0)
    assert await store.live_tournament_ids() == ["copa"]
    assert await store.pay_prizes(COPA, {ana: 14, beto: 6}, now=4.0) == {ana: 14, beto: 6}
    await store.finish_tournament("copa", {ana: 1, beto: 2}, name="Copa", entrants=2, now=5.0)
    assert await store.live_tournament_ids() == []
    assert await balances(store, [ana, beto]) == [1004, 996]


# ---------------------------------------------------------------- prizes


async def test_a_pool_of_seven_ten_dollar_fees_is_paid_60_30_10_and_the_escrow_closes(
    store: Storage,
) -> None:
    ids = await make_players(store, 7)
    await store.save_tournament("copa", CHAT, {"entrants": ids}, now=1.0)
    await store.stake(COPA, ids, 10, now=2.0)
    assert await balances(store, ids) == [990] * 7
    first, second, third = prize_split(7 * 10, len(ids))
    assert (first, second, third) == (42, 21, 7)
    paid = await store.pay_prizes(COPA, {ids[4]: first, ids[0]: second, ids[6]: third}, now=3.0)
    assert paid == {ids[0]: 21, ids[4]: 42, ids[6]: 7}
    assert list(paid) == [ids[0], ids[4], ids[6]]  # the holders' order
    assert await balances(store, ids) == [1011, 990, 990, 990, 1032, 990, 997]
    assert sum(await balances(store, ids)) == 7 * 1000
    assert await store.check_ledger() == []
    assert await store.open_tournament_escrows() == []
    assert (await store.wallet_history(ids[4]))[0] == LedgerEntry("payout", 42, COPA, 3.0)


async def test_paying_the_prizes_again_returns_the_first_payout_and_moves_nothing(
    store: Storage,
) -> None:
    ana, beto, carla = await make_players(store, 3)
    await store.stake(COPA, [ana, beto, carla], 10, now=2.0)
    assert await store.pay_prizes(COPA, {ana: 21, beto: 9}, now=3.0) == {ana: 21, beto: 9}
    assert await store.pay_prizes(COPA, {carla: 30}, now=4.0) == {ana: 21, beto: 9}
    assert await store.pay_prizes(COPA, {carla: 1}, now=4.0) == {ana: 21, beto: 9}
    assert await store.settle(COPA, [carla], now=5.0) == {ana: 21, beto: 9}
    assert await balances(store, [ana, beto, carla]) == [1011, 999, 990]
    assert len(await store.wallet_history(ana)) == 3
    with pytest.raises(MatchClosedError):
        await store.refund(COPA, now=6.0)


async def test_prizes_that_do_not_sum_to_the_pool_are_refused_with_nothing_written(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    with pytest.raises(ValueError, match="sum to 21"):
        await store.pay_prizes(COPA, {ana: 14, beto: 7}, now=3.0)
    with pytest.raises(ValueError, match="sum to 19"):
        await store.pay_prizes(COPA, {ana: 19}, now=3.0)
    with pytest.raises(ValueError):
        await store.pay_prizes(COPA, {ana: 25, beto: -5}, now=3.0)
    with pytest.raises(ValueError):
        await store.pay_prizes(COPA, {ana: True, beto: 19}, now=3.0)
    assert await balances(store, [ana, beto]) == [990, 990]
    assert await store.open_tournament_escrows() == [
        OpenEscrow(COPA, 10, {ana: "held", beto: "held"}, 2.0)
    ]
    assert await store.pay_prizes(COPA, {ana: 20, beto: 0}, now=4.0) == {ana: 20}


async def test_a_prize_goes_only_to_a_holder_whose_fee_is_held(store: Storage) -> None:
    ana, beto, carla, stranger = await make_players(store, 4)
    await store.stake(COPA, [ana, beto, carla], 10, now=2.0)
    await store.forfeit(COPA, carla, now=3.0)  # her fee went to the house: the pool is $20
    with pytest.raises(NotInMatchError) as outsider:
        await store.pay_prizes(COPA, {ana: 10, stranger: 10}, now=4.0)
    assert (outsider.value.match_id, outsider.value.player_id) == (COPA, stranger)
    with pytest.raises(NotInMatchError):
        await store.pay_prizes(COPA, {ana: 10, carla: 10}, now=4.0)
    with pytest.raises(ValueError):
        await store.pay_prizes(COPA, {ana: 20, beto: 10}, now=4.0)
    assert await store.pay_prizes(COPA, {ana: 20, beto: 0, carla: 0}, now=5.0) == {ana: 20}
    assert await balances(store, [ana, beto, carla, stranger]) == [1010, 990, 990, 1000]


async def test_a_refunded_or_unknown_escrow_pays_no_prizes(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    assert await store.refund(COPA, now=3.0) == {ana: 10, beto: 10}
    with pytest.raises(MatchClosedError) as closed:
        await store.pay_prizes(COPA, {ana: 20}, now=4.0)
    assert closed.value.state == "refunded"
    with pytest.raises(UnknownMatchError):
        await store.pay_prizes(tournament_escrow("never"), {}, now=4.0)
    assert await balances(store, [ana, beto]) == [1000, 1000]


async def test_a_free_tournament_pays_nothing_and_closes_its_escrow(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    await store.stake(COPA, [ana, beto], 0, now=2.0)
    assert await store.pay_prizes(COPA, {ana: 0, beto: 0}, now=3.0) == {}
    assert await store.open_tournament_escrows() == []
    assert await balances(store, [ana, beto]) == [1000, 1000]


# ------------------------------------------------------------ cancelling


async def test_cancelling_refunds_every_held_fee_and_takes_the_tournament_off_the_list(
    store: Storage,
) -> None:
    ana, beto, carla = await make_players(store, 3)
    await store.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
    await store.stake(COPA, [ana, beto, carla], 25, now=2.0)
    await store.forfeit(COPA, carla, now=3.0)
    assert await store.cancel_tournament("copa", now=4.0) == {ana: 25, beto: 25}
    assert await store.cancel_tournament("copa", now=5.0) == {ana: 25, beto: 25}
    assert await balances(store, [ana, beto, carla]) == [1000, 1000, 975]
    assert await store.load_tournaments() == []
    assert await store.get_tournament("copa") == {"round": 1}
    assert await store.open_tournament_escrows() == []
    with pytest.raises(TournamentClosedError) as closed:
        await store.finish_tournament("copa", {ana: 1}, name="Copa", entrants=3, now=6.0)
    assert closed.value.state == "cancelled"
    with pytest.raises(TournamentClosedError):
        await store.save_tournament("copa", CHAT, {"round": 2}, now=6.0)
    assert await store.player_tournaments(ana) == []


async def test_cancelling_keeps_the_cancelled_snapshot_it_is_given_and_only_the_first(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    await store.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    refunds = await store.cancel_tournament("copa", now=3.0, snapshot={"status": "cancelled"})
    assert refunds == {ana: 10, beto: 10}
    assert await store.get_tournament("copa") == {"status": "cancelled"}
    # cancelling again answers the same refunds and keeps the first cancelled snapshot
    again = await store.cancel_tournament("copa", now=4.0, snapshot={"status": "other"})
    assert again == {ana: 10, beto: 10}
    assert await store.get_tournament("copa") == {"status": "cancelled"}
    with pytest.raises(TypeError):
        await store.cancel_tournament("copa", now=5.0, snapshot={"bad": object()})
    assert await balances(store, [ana, beto]) == [1000, 1000]


async def test_cancelling_a_tournament_without_fees_or_unknown_or_paid(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    await store.save_tournament("free", CHAT, {}, now=1.0)
    assert await store.cancel_tournament("free", now=2.0) == {}
    assert await store.live_tournament_ids() == []
    with pytest.raises(UnknownTournamentError):
        await store.cancel_tournament("never", now=2.0)
    await store.save_tournament("copa", CHAT, {}, now=1.0)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    await store.pay_prizes(COPA, {ana: 20}, now=3.0)
    with pytest.raises(MatchClosedError):
        await store.cancel_tournament("copa", now=4.0)
    assert await store.live_tournament_ids() == ["copa"]
    assert await balances(store, [ana, beto]) == [1010, 990]


# ------------------------------------------- tournaments' escrows are not tables'


async def test_open_escrows_leave_tournaments_out_and_open_tournament_escrows_list_only_them(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    await store.stake("table-1", [ana], 10, now=1.0)
    await store.stake(COPA, [ana, beto], 10, now=2.0)
    await store.stake("Tournament:upper-case-is-a-table", [beto], 5, now=3.0)
    await store.stake(tournament_escrow("paid"), [beto], 5, now=4.0)
    await store.pay_prizes(tournament_escrow("paid"), {beto: 5}, now=5.0)
    assert await store.open_escrows() == [
        OpenEscrow("table-1", 10, {ana: "held"}, 1.0),
        OpenEscrow("Tournament:upper-case-is-a-table", 5, {beto: "held"}, 3.0),
    ]
    assert await store.open_tournament_escrows() == [
        OpenEscrow(COPA, 10, {ana: "held", beto: "held"}, 2.0)
    ]


async def test_a_restart_of_the_table_manager_leaves_a_tournaments_fees_in_escrow(
    memory_storage: Storage,
) -> None:
    ana, beto = await make_players(memory_storage, 2)
    await memory_storage.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
    await memory_storage.stake(COPA, [ana, beto], 10, now=2.0)
    await memory_storage.stake("orphan-table", [ana], 10, now=2.0)
    manager = TableManager(memory_storage, clock=ManualClock(100.0), seed=1)
    await manager.start()  # refunds the escrows no stored table owns: the tables' only
    await manager.stop()
    assert await memory_storage.open_escrows() == []
    assert await memory_storage.open_tournament_escrows() == [
        OpenEscrow(COPA, 10, {ana: "held", beto: "held"}, 2.0)
    ]
    assert await balances(memory_storage, [ana, beto]) == [990, 990]
    assert await memory_storage.check_ledger() == []


async def test_moving_a_chat_moves_its_tournaments_and_their_places(store: Storage) -> None:
    (ana,) = await make_players(store, 1)
    await store.save_tournament("copa", "telegram:-1", {}, now=1.0)
    await store.finish_tournament("copa", {ana: 1}, name="Copa", entrants=2, now=2.0)
    await store.move_chat("telegram:-1", "telegram:-100200", now=3.0)
    assert await store.player_tournaments(ana) == [
        TournamentPlace("copa", "telegram:-100200", "Copa", 1, 2, 2.0)
    ]


# ------------------------------------------------------- property: no dollar lost


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    fee=st.integers(0, 200),
    holders=st.integers(1, 12),
    data=st.data(),
)
async def test_any_prizes_summing_to_the_pool_keep_every_dollar_and_the_ledger_whole(
    store: Storage, fee: int, holders: int, data: st.DataObject
) -> None:
    """Random fee, random holders and a random split of the pool among them: the players'
    balances sum to what they did before the fees (no house money moves), the escrow is
    closed, and the ledger is whole. One storage serves every example: each has its own
    players (platform ids from :data:`EXAMPLES`) and escrow."""
    first = 100 * next(EXAMPLES)
    ids = await make_players(store, holders, first=first)
    tournament_id = f"prop-{first}"
    escrow_id = tournament_escrow(tournament_id)
    await store.save_tournament(tournament_id, CHAT, {}, now=1.0)
    before = sum(await balances(store, ids))
    await store.stake(escrow_id, ids, fee, now=2.0)
    pool = fee * holders
    cuts = sorted(data.draw(st.lists(st.integers(0, pool), max_size=holders - 1)))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, pool], strict=True)]
    winners = data.draw(st.permutations(ids))[: len(shares)]
    prizes = dict(zip(winners, shares, strict=True))
    paid = await store.pay_prizes(escrow_id, prizes, now=3.0)
    assert paid == {pid: prizes[pid] for pid in ids if prizes.get(pid, 0) > 0}
    assert sum(await balances(store, ids)) == before
    assert escrow_id not in [e.match_id for e in await store.open_tournament_escrows()]
    assert await store.check_ledger() == []


# ---------------------------------------------------- older databases upgrade


async def test_the_old_fixture_database_upgrades_and_holds_tournaments(tmp_path: Path) -> None:
    copy = tmp_path / "old_main_tables.db"
    shutil.copyfile(OLD_DB, copy)
    storage = await open_storage(copy)
    try:
        tables = await storage.open_escrows()
        assert tables != []
        assert await storage.open_tournament_escrows() == []
        assert await storage.load_tournaments() == []
        (ana,) = await make_players(storage, 1, first=900_000)
        await storage.save_tournament("copa", CHAT, {"round": 1}, now=1.0)
        await storage.stake(COPA, [ana], 10, now=2.0)
        assert await storage.open_escrows() == tables
        assert await storage.pay_prizes(COPA, {ana: 10}, now=3.0) == {ana: 10}
        await storage.finish_tournament("copa", {ana: 1}, name="Copa", entrants=1, now=4.0)
        assert await storage.player_tournaments(ana) == [
            TournamentPlace("copa", CHAT, "Copa", 1, 1, 4.0)
        ]
        assert await storage.check_ledger() == []
    finally:
        await storage.close()


_TOURNAMENTS = next(i for i, m in enumerate(MIGRATIONS) if m.name == "0012_tournaments")
_PG_TOURNAMENTS = next(i for i, m in enumerate(POSTGRES_MIGRATIONS) if m.name == "0008_tournaments")
"""Where the tournaments' migration stands: a database of the schema before it."""


async def test_a_sqlite_database_of_the_previous_schema_gains_the_tournament_tables(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    old = await SqliteStorage.open(path, migrations=MIGRATIONS[:_TOURNAMENTS])
    (ana,) = await make_players(old, 1)
    await old.stake("table-1", [ana], 10, now=1.0)
    await old.close()
    new = await SqliteStorage.open(path)
    try:
        assert new.applied_migrations == [m.name for m in MIGRATIONS[_TOURNAMENTS:]]
        assert [e.match_id for e in await new.open_escrows()] == ["table-1"]
        await new.save_tournament("copa", CHAT, {"round": 1}, now=2.0)
        assert await new.load_tournaments() == [{"round": 1}]
        assert await new.check_ledger() == []
    finally:
        await new.close()


async def test_a_postgresql_database_of_the_previous_schema_gains_the_tournament_tables(
    postgres_server: PostgresServer,
) -> None:
    from storage.postgres import PostgresStorage

    dsn = await postgres_server.create_database(migrated=False)
    try:
        old = await PostgresStorage.open(dsn, migrations=POSTGRES_MIGRATIONS[:_PG_TOURNAMENTS])
        (ana,) = await make_players(old, 1)
        await old.stake("table-1", [ana], 10, now=1.0)
        await old.close()
        new = await PostgresStorage.open(dsn)
        try:
            later = POSTGRES_MIGRATIONS[_PG_TOURNAMENTS:]
            assert new.applied_migrations == [m.name for m in later]
            assert [e.match_id for e in await new.open_escrows()] == ["table-1"]
            await new.save_tournament("copa", CHAT, {"round": 1}, now=2.0)
            await new.stake(COPA, [ana], 10, now=3.0)
            assert await new.pay_prizes(COPA, {ana: 10}, now=4.0) == {ana: 10}
            await new.finish_tournament("copa", {ana: 1}, name="Copa", entrants=1, now=5.0)
            assert await new.player_tournaments(ana) == [
                TournamentPlace("copa", CHAT, "Copa", 1, 1, 5.0)
            ]
            assert await new.check_ledger() == []
        finally:
            await new.close()
    finally:
        await postgres_server.drop_database(dsn)
