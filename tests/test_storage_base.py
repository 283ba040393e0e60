"""The Storage contract (storage/base.py), run against every storage: SQLite and PostgreSQL.

Every behaviour test here is parametrized over ``SqliteStorage`` and ``PostgresStorage`` (a
real server, tests/postgres_server.py; skipped with the reason when none can be had, a
failure in CI) so they stay the same; at the end, random scripts of operations, failures
included, are played on both and every answer, every error and the final state must be
the same. Money rules: rules.md, "The house".
"""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.errors import RulesError
from engine.rules import find_any_preset, find_preset
from storage import open_storage
from storage.base import (
    ACTIVE_SECONDS,
    OPENING_BALANCE,
    TOP_UP_EVERY,
    TOP_UP_TO,
    ChatRules,
    Fence,
    FencedOut,
    InsufficientFunds,
    MatchClosedError,
    MatchSettlement,
    Notifications,
    NotInMatchError,
    PairRow,
    PlayerResult,
    PlayerStats,
    Storage,
    StorageError,
    TablesClaim,
    UnknownMatchError,
    UnknownPlayerError,
    bayesian_rating,
    normalize_language,
    top_up_amount,
)
from storage.ratings import ALL_CHATS, SeasonPeriod, display_rating
from storage.sqlite import SqliteStorage
from tests.format_records import TIED_THREE, stored_record

DAY = 24 * 60 * 60.0


async def make_players(store: Storage, count: int, now: float = 0.0) -> list[int]:
    return [
        (await store.ensure_player("telegram", str(100 + i), f"Jugador {i}", now=now)).id
        for i in range(count)
    ]


async def drain(store: Storage, player_id: int, keep: int, match_id: str, now: float) -> None:
    """Leave the player with ``keep`` dollars by losing one big-stake match."""
    balance = await store.balance(player_id)
    await store.stake(match_id, [player_id], balance - keep, now=now)
    await store.settle(match_id, [], now=now)
    assert await store.balance(player_id) == keep


# --------------------------------------------------------------- pure helpers


def test_platform_locales_become_supported_languages_or_spanish() -> None:
    assert normalize_language("en-US") == "en"
    assert normalize_language("es_VE") == "es"
    assert normalize_language("EN") == "en"
    assert normalize_language("pt-BR") == "es"
    assert normalize_language(None) == "es"
    assert normalize_language("") == "es"


def test_top_up_is_due_only_below_the_stake_and_once_a_day() -> None:
    assert top_up_amount(5, 10, None, 0.0) == TOP_UP_TO - 5
    assert top_up_amount(10, 10, None, 0.0) == 0
    assert top_up_amount(5, 10, 100.0, 100.0 + TOP_UP_EVERY - 1) == 0
    assert top_up_amount(5, 10, 100.0, 100.0 + TOP_UP_EVERY) == TOP_UP_TO - 5
    # A stake above $100 cannot be helped by a top-up to $100; nothing is added then.
    assert top_up_amount(150, 500, None, 0.0) == 0


def test_one_lucky_win_rates_below_a_long_good_record() -> None:
    assert bayesian_rating(1, 1) < bayesian_rating(30, 40)
    assert bayesian_rating(0, 0) == 0.5
    assert math.isclose(bayesian_rating(1, 1), 6 / 11)


def test_player_stats_win_rate_and_rating() -> None:
    stats = PlayerStats(1, matches_played=4, matches_won=3)
    assert stats.win_rate == 0.75
    assert stats.rating == bayesian_rating(3, 4)
    assert PlayerStats(2).win_rate == 0.0


def test_chat_rules_build_the_engine_rule_set() -> None:
    rules = ChatRules("discord:1", "dominicano", {"target": 100}).rules()
    assert rules == find_preset("dominicano", target=100)


def test_insufficient_funds_names_the_players() -> None:
    error = InsufficientFunds([3, 7])
    assert error.player_ids == (3, 7)
    assert "3, 7" in str(error)


# ------------------------------------------------------------------ players


async def test_a_new_player_opens_an_account_with_one_thousand_dollars(store: Storage) -> None:
    player = await store.ensure_player("telegram", "42", "Ana", language="en-GB", now=5.0)
    assert player.display_name == "Ana"
    assert player.language == "en"
    assert await store.balance(player.id) == OPENING_BALANCE
    history = await store.wallet_history(player.id)
    assert [(e.kind, e.amount, e.match_id, e.at) for e in history] == [
        ("open", OPENING_BALANCE, None, 5.0)
    ]


async def test_seeing_a_player_again_updates_the_name_but_not_the_money(store: Storage) -> None:
    first = await store.ensure_player("discord", "9", "Ana", language="en", now=0.0)
    again = await store.ensure_player("discord", "9", "Ana María", language="es", now=9.0)
    assert again.id == first.id
    assert again.display_name == "Ana María"
    assert again.language == "en"  # changed only with set_player_language
    assert await store.balance(first.id) == OPENING_BALANCE
    assert len(await store.wallet_history(first.id)) == 1


async def test_the_same_user_id_on_two_platforms_is_two_players(store: Storage) -> None:
    a = await store.ensure_player("discord", "7", "Ana", now=0.0)
    b = await store.ensure_player("telegram", "7", "Ana", now=0.0)
    assert a.id != b.id


async def test_a_blank_display_name_falls_back_to_the_user_id(store: Storage) -> None:
    player = await store.ensure_player("telegram", "55", "   ", now=0.0)
    assert player.display_name == "55"


async def test_an_empty_platform_user_id_is_refused(store: Storage) -> None:
    with pytest.raises(ValueError):
        await store.ensure_player("telegram", "", "Ana", now=0.0)
    with pytest.raises(ValueError):
        await store.ensure_player("", "1", "Ana", now=0.0)


async def test_players_are_found_by_id_and_by_platform_user(store: Storage) -> None:
    player = await store.ensure_player("telegram", "1", "Ana", now=0.0)
    assert await store.get_player(player.id) == player
    assert await store.find_player("telegram", "1") == player
    assert await store.get_player(999) is None
    assert await store.find_player("discord", "1") is None


async def test_a_player_can_be_linked_on_a_second_platform(store: Storage) -> None:
    ana = await store.ensure_player("telegram", "1", "Ana", now=0.0)
    bea = await store.ensure_player("telegram", "2", "Bea", now=0.0)
    await store.link_player(ana.id, "discord", "555")
    assert (await store.ensure_player("discord", "555", "ana#1", now=1.0)).id == ana.id
    await store.link_player(ana.id, "discord", "555")  # again: nothing changes
    with pytest.raises(ValueError):
        await store.link_player(bea.id, "discord", "555")
    with pytest.raises(UnknownPlayerError):
        await store.link_player(999, "discord", "556")
    assert await store.find_player("discord", "556") is None


async def test_language_is_changed_only_to_a_supported_one(store: Storage) -> None:
    player = await store.ensure_player("telegram", "1", "Ana", now=0.0)
    await store.set_player_language(player.id, "en")
    assert (await store.get_player(player.id)) == player.__class__(player.id, "Ana", "en")
    with pytest.raises(ValueError):
        await store.set_player_language(player.id, "fr")
    assert (await store.get_player(player.id)).language == "en"  # type: ignore[union-attr]
    with pytest.raises(UnknownPlayerError):
        await store.set_player_language(999, "es")


async def test_turn_notifications_are_every_turn_until_the_player_chooses_none(
    store: Storage,
) -> None:
    player = await store.ensure_player("discord", "1", "Ana", now=0.0)
    assert await store.player_notifications(player.id) is Notifications.TURN
    await store.set_player_notifications(player.id, "none")
    assert await store.player_notifications(player.id) is Notifications.NONE
    with pytest.raises(ValueError):
        await store.set_player_notifications(player.id, "sometimes")
    assert await store.player_notifications(player.id) == "none"
    await store.ensure_player("discord", "1", "Ana B.", now=1.0)  # seen again: kept
    assert await store.player_notifications(player.id) == "none"
    with pytest.raises(UnknownPlayerError):
        await store.set_player_notifications(999, "turn")
    with pytest.raises(UnknownPlayerError):
        await store.player_notifications(999)


async def test_a_player_is_found_by_the_username_they_last_wrote_with_and_it_names_one_user(
    store: Storage,
) -> None:
    ana = await store.ensure_player("telegram", "1", "Ana", language="en", now=0.0)
    beto = await store.ensure_player("telegram", "2", "Beto", now=0.0)
    assert await store.set_username("telegram", "1", "@Ana_R") is True
    assert await store.find_by_username("telegram", "@ana_r") == ("1", ana)
    assert await store.find_by_username("telegram", "ANA_R") == ("1", ana)
    assert await store.find_by_username("discord", "ana_r") is None  # per platform
    assert await store.set_username("telegram", "3", "carla") is False  # no player: not kept
    assert await store.find_by_username("telegram", "carla") is None
    # Ana gave up the name and Beto took it: it names Beto only.
    assert await store.set_username("telegram", "2", "ana_r") is True
    assert await store.find_by_username("telegram", "ana_r") == ("2", beto)
    assert await store.set_username("telegram", "2", None) is True
    assert await store.find_by_username("telegram", "ana_r") is None
    assert await store.find_by_username("telegram", "@") is None


async def test_the_balance_of_an_unknown_player_is_an_error(store: Storage) -> None:
    with pytest.raises(UnknownPlayerError) as caught:
        await store.balance(77)
    assert caught.value.player_id == 77


async def test_wallet_history_is_newest_first_and_limited(store: Storage) -> None:
    a, b = await make_players(store, 2)
    for n in range(3):
        await store.stake(f"m{n}", [a, b], 10, now=float(n))
        await store.settle(f"m{n}", [a], now=float(n) + 0.5)
    history = await store.wallet_history(a, limit=3)
    assert [(e.kind, e.amount, e.match_id, e.at) for e in history] == [
        ("payout", 20, "m2", 2.5),
        ("stake", -10, "m2", 2.0),
        ("payout", 20, "m1", 1.5),
    ]
    assert len(await store.wallet_history(b, limit=100)) == 4
    with pytest.raises(UnknownPlayerError):
        await store.wallet_history(999)


# ------------------------------------------------------------------- stakes


async def test_stake_moves_each_humans_stake_into_escrow(store: Storage) -> None:
    ids = await make_players(store, 3)
    await store.stake("m1", ids, 10, now=1.0)
    assert [await store.balance(p) for p in ids] == [990, 990, 990]
    history = await store.wallet_history(ids[0])
    assert (history[0].kind, history[0].amount, history[0].match_id) == ("stake", -10, "m1")


async def test_staking_the_same_match_again_changes_nothing(store: Storage) -> None:
    ids = await make_players(store, 2)
    await store.stake("m1", ids, 10, now=1.0)
    await store.stake("m1", ids, 10, now=2.0)
    await store.stake("m1", ids[:1], 50, now=3.0)
    assert [await store.balance(p) for p in ids] == [990, 990]


async def test_stake_is_refused_and_nothing_written_when_one_cannot_pay(store: Storage) -> None:
    ids = await make_players(store, 3)
    await drain(store, ids[1], 5, "drain", now=0.0)
    await store.top_up(ids[1], now=1.0)  # uses today's top-up: $100
    await store.stake("spend", [ids[1]], 100, now=2.0)
    await store.settle("spend", [], now=2.0)
    before = [await store.balance(p) for p in ids]
    histories = [await store.wallet_history(p) for p in ids]
    with pytest.raises(InsufficientFunds) as caught:
        await store.stake("m1", ids, 10, now=3.0)
    assert caught.value.player_ids == (ids[1],)
    assert [await store.balance(p) for p in ids] == before
    assert [await store.wallet_history(p) for p in ids] == histories
    with pytest.raises(UnknownMatchError):
        await store.settle("m1", ids, now=4.0)


async def test_a_refused_stake_leaves_the_top_up_of_others_unspent(store: Storage) -> None:
    rich, poor, broke = await make_players(store, 3)
    await drain(store, poor, 4, "d1", now=0.0)
    await drain(store, broke, 0, "d2", now=0.0)
    await store.top_up(broke, now=0.0)
    await store.stake("spend", [broke], 100, now=0.0)
    await store.settle("spend", [], now=0.0)
    with pytest.raises(InsufficientFunds) as caught:
        await store.stake("m1", [rich, poor, broke], 10, now=10.0)
    assert caught.value.player_ids == (broke,)
    assert await store.balance(poor) == 4
    # The top-up was not used: it is still due now.
    assert await store.top_up(poor, now=11.0) == TOP_UP_TO - 4


async def test_stake_tops_up_a_player_below_the_stake_first(store: Storage) -> None:
    rich, poor = await make_players(store, 2)
    await drain(store, poor, 3, "d", now=0.0)
    await store.stake("m1", [rich, poor], 10, now=DAY)
    assert await store.balance(poor) == TOP_UP_TO - 10
    kinds = [(e.kind, e.amount) for e in await store.wallet_history(poor, limit=2)]
    assert kinds == [("stake", -10), ("top_up", TOP_UP_TO - 3)]


async def test_the_top_up_comes_at_most_once_every_24_hours(store: Storage) -> None:
    (poor,) = await make_players(store, 1)
    await drain(store, poor, 0, "d", now=0.0)
    await store.stake("m1", [poor], 100, now=10.0)  # topped up to 100, stakes all of it
    await store.settle("m1", [], now=10.0)
    with pytest.raises(InsufficientFunds):
        await store.stake("m2", [poor], 10, now=10.0 + TOP_UP_EVERY - 1)
    assert await store.top_up(poor, now=10.0 + TOP_UP_EVERY - 1) == 0
    await store.stake("m3", [poor], 10, now=10.0 + TOP_UP_EVERY)
    assert await store.balance(poor) == TOP_UP_TO - 10


async def test_top_up_adds_nothing_to_a_player_who_can_pay(store: Storage) -> None:
    (player,) = await make_players(store, 1)
    assert await store.top_up(player, now=0.0) == 0
    assert await store.balance(player) == OPENING_BALANCE
    await drain(store, player, 9, "d", now=0.0)
    assert await store.top_up(player, now=0.0, stake=5) == 0
    assert await store.top_up(player, now=0.0) == TOP_UP_TO - 9
    assert await store.top_up(player, now=1.0) == 0
    with pytest.raises(UnknownPlayerError):
        await store.top_up(999, now=0.0)


async def test_bad_stake_calls_are_refused_and_write_nothing(store: Storage) -> None:
    ids = await make_players(store, 2)
    for match_id, players, stake in [
        ("m1", ids, -1),
        ("m1", ids, 2.5),
        ("m1", ids, True),
        ("m1", [ids[0], ids[0]], 10),
        ("", ids, 10),
    ]:
        with pytest.raises(ValueError):
            await store.stake(match_id, players, stake, now=0.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await store.stake("m1", ids, 10, now=float("nan"))
    with pytest.raises(UnknownPlayerError):
        await store.stake("m1", [ids[0], 999], 10, now=0.0)
    assert [await store.balance(p) for p in ids] == [OPENING_BALANCE] * 2
    with pytest.raises(UnknownMatchError):
        await store.refund("m1", now=0.0)


async def test_a_zero_stake_opens_the_escrow_and_moves_no_money(store: Storage) -> None:
    ids = await make_players(store, 2)
    await store.stake("free", ids, 0, now=0.0)
    assert await store.settle("free", ids[:1], now=1.0) == {ids[0]: 0}
    assert [await store.balance(p) for p in ids] == [OPENING_BALANCE] * 2


# ------------------------------------------------------------ settle, refund


async def test_each_winning_human_receives_twice_the_stake(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.stake("m1", [a, b, c, d], 10, now=0.0)
    assert await store.settle("m1", [a, c], now=1.0) == {a: 20, c: 20}
    assert [await store.balance(p) for p in (a, b, c, d)] == [1010, 990, 1010, 990]
    history = await store.wallet_history(a)
    assert (history[0].kind, history[0].amount, history[0].at) == ("payout", 20, 1.0)


async def test_settling_twice_pays_once(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=0.0)
    first = await store.settle("m1", [a], now=1.0)
    again = await store.settle("m1", [a], now=2.0)
    other = await store.settle("m1", [b], now=3.0)
    assert first == again == other == {a: 20}
    assert [await store.balance(p) for p in (a, b)] == [1010, 990]


async def test_the_house_pays_what_the_escrow_cannot(store: Storage) -> None:
    # One human with three robots wins: the escrow holds 10, the house adds 10.
    (solo,) = await make_players(store, 1)
    await store.stake("m1", [solo], 10, now=0.0)
    assert await store.settle("m1", [solo], now=1.0) == {solo: 20}
    assert await store.balance(solo) == 1010


async def test_robots_and_strangers_in_the_winners_are_paid_nothing(store: Storage) -> None:
    a, b, stranger = await make_players(store, 3)
    await store.stake("m1", [a, b], 10, now=0.0)
    assert await store.settle("m1", [a, stranger, 424242], now=1.0) == {a: 20}
    assert await store.balance(stranger) == OPENING_BALANCE


async def test_a_losing_table_leaves_its_stakes_to_the_house(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=0.0)
    assert await store.settle("m1", [], now=1.0) == {}
    assert [await store.balance(p) for p in (a, b)] == [990, 990]


async def test_settling_an_unknown_or_refunded_match_is_refused(store: Storage) -> None:
    a, b = await make_players(store, 2)
    with pytest.raises(UnknownMatchError):
        await store.settle("nope", [a], now=0.0)
    await store.stake("m1", [a, b], 10, now=0.0)
    await store.refund("m1", now=1.0)
    with pytest.raises(MatchClosedError) as caught:
        await store.settle("m1", [a], now=2.0)
    assert caught.value.state == "refunded"
    assert [await store.balance(p) for p in (a, b)] == [1000, 1000]


async def test_a_cancelled_match_gives_every_stake_back_once(store: Storage) -> None:
    a, b, c = await make_players(store, 3)
    await store.stake("m1", [a, b, c], 25, now=0.0)
    assert await store.refund("m1", now=1.0) == {a: 25, b: 25, c: 25}
    assert await store.refund("m1", now=2.0) == {a: 25, b: 25, c: 25}
    assert [await store.balance(p) for p in (a, b, c)] == [1000, 1000, 1000]
    assert (await store.wallet_history(a))[0].kind == "refund"


async def test_refunding_a_settled_match_is_refused(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=0.0)
    await store.settle("m1", [a], now=1.0)
    with pytest.raises(MatchClosedError) as caught:
        await store.refund("m1", now=2.0)
    assert caught.value.state == "settled"
    assert [await store.balance(p) for p in (a, b)] == [1010, 990]


# ------------------------------------------------------------------ forfeit


async def test_an_abandoners_stake_goes_to_the_house(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.stake("m1", [a, b, c, d], 10, now=0.0)
    await store.forfeit("m1", a, now=1.0)
    await store.forfeit("m1", a, now=2.0)  # again: nothing more
    # a's team wins anyway: the partner is paid, the abandoner is not.
    assert await store.settle("m1", [a, c], now=3.0) == {c: 20}
    assert [await store.balance(p) for p in (a, b, c, d)] == [990, 990, 1010, 990]


async def test_a_refund_after_a_forfeit_returns_only_the_held_stakes(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=0.0)
    await store.forfeit("m1", b, now=1.0)
    assert await store.refund("m1", now=2.0) == {a: 10}
    assert [await store.balance(p) for p in (a, b)] == [1000, 990]


async def test_forfeit_failures_write_nothing(store: Storage) -> None:
    a, b, outsider = await make_players(store, 3)
    with pytest.raises(UnknownMatchError):
        await store.forfeit("nope", a, now=0.0)
    await store.stake("m1", [a, b], 10, now=0.0)
    with pytest.raises(NotInMatchError) as caught:
        await store.forfeit("m1", outsider, now=1.0)
    assert (caught.value.match_id, caught.value.player_id) == ("m1", outsider)
    await store.settle("m1", [a], now=2.0)
    with pytest.raises(MatchClosedError):
        await store.forfeit("m1", b, now=3.0)
    assert [await store.balance(p) for p in (a, b, outsider)] == [1010, 990, 1000]


# ------------------------------------------------------------- concurrency


async def test_hundreds_of_concurrent_stakes_and_settlements_keep_the_ledger_whole(
    store: Storage,
) -> None:
    ids = await make_players(store, 24)
    rng = random.Random(5)

    async def play(n: int) -> None:
        table = rng.sample(ids, 4)
        match_id = f"c{n}"
        try:
            await store.stake(match_id, table, 10, now=float(n))
        except InsufficientFunds:
            return
        await asyncio.sleep(0)
        if n % 7 == 0:
            await store.forfeit(match_id, table[1], now=float(n))
        if n % 11 == 0:
            await store.refund(match_id, now=float(n))
        else:
            # Retries race the first settlement: only one may pay.
            results = await asyncio.gather(
                *(store.settle(match_id, table[n % 2 :: 2], now=float(n)) for _ in range(3))
            )
            assert results[0] == results[1] == results[2]

    await asyncio.gather(*(play(n) for n in range(300)))
    assert await store.check_ledger() == []
    total = sum([await store.balance(p) for p in ids])
    # Money only enters through openings and top-ups and leaves through losses.
    assert all([await store.balance(p) >= 0 for p in ids])
    assert total > 0


# ------------------------------------------------------- statistics, history


def result(player_id: int, team: int, won: bool, **counts: int) -> PlayerResult:
    return PlayerResult(player_id, team, won, **counts)


async def test_recorded_matches_add_up_in_the_player_statistics(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.record_match(
        "m1",
        "telegram:-1",
        {"rules": "venezolano", "hands": []},
        [
            result(a, 0, True, hands_won=3, dominoes=2, trancas_won=1, capicuas=1),
            result(b, 1, False, hands_won=1),
        ],
        now=100.0,
    )
    await store.record_match(
        "m2",
        "discord:5",
        {"rules": "venezolano", "hands": []},
        [result(a, 1, False, hands_won=2, dominoes=1)],
        now=200.0,
    )
    assert await store.player_stats(a) == PlayerStats(a, 2, 1, 5, 3, 1, 1, 200.0)
    assert await store.player_stats(b) == PlayerStats(b, 1, 0, 1, 0, 0, 0, 100.0)


async def test_a_player_without_matches_has_zero_statistics(store: Storage) -> None:
    (a,) = await make_players(store, 1)
    assert await store.player_stats(a) == PlayerStats(a)
    with pytest.raises(UnknownPlayerError):
        await store.player_stats(999)


async def test_recording_a_match_twice_keeps_the_first(store: Storage) -> None:
    (a,) = await make_players(store, 1)
    await store.record_match("m1", "telegram:-1", {"n": 1}, [result(a, 0, True)], now=1.0)
    await store.record_match("m1", "telegram:-2", {"n": 2}, [result(a, 0, True)], now=2.0)
    assert (await store.player_stats(a)).matches_played == 1
    [stored] = await store.match_records()
    assert (stored.chat, stored.record) == ("telegram:-1", {"n": 1})


async def test_bad_match_results_are_refused_and_write_nothing(store: Storage) -> None:
    (a,) = await make_players(store, 1)
    bad = [
        [result(a, 2, True)],
        [result(a, 0, True, dominoes=-1)],
        [result(a, 0, True), result(a, 1, False)],
    ]
    for results in bad:
        with pytest.raises(ValueError):
            await store.record_match("m1", "telegram:-1", {}, results, now=1.0)
    with pytest.raises(UnknownPlayerError):
        await store.record_match(
            "m1", "telegram:-1", {}, [result(a, 0, True), result(999, 1, False)], now=1.0
        )
    with pytest.raises(TypeError):
        await store.record_match(
            "m1", "telegram:-1", {"x": object()}, [result(a, 0, True)], now=1.0
        )
    with pytest.raises(TypeError):
        await store.record_match("m1", "telegram:-1", {"x": float("inf")}, [], now=1.0)
    assert await store.match_records() == []
    assert (await store.player_stats(a)).matches_played == 0


async def test_match_records_are_found_by_player_and_chat_newest_first(store: Storage) -> None:
    a, b = await make_players(store, 2)
    record = {"rules": {"preset": "venezolano", "target": 50}, "hands": [{"moves": ["6-6"]}]}
    await store.record_match("m1", "telegram:-1", record, [result(a, 0, True)], now=10.0)
    await store.record_match("m2", "telegram:-1", record, [result(b, 0, True)], now=20.0)
    await store.record_match("m3", "discord:9", record, [result(a, 1, False)], now=20.0)
    await store.record_match("m4", "discord:9", record, [], now=5.0)
    assert [m.match_id for m in await store.match_records()] == ["m3", "m2", "m1", "m4"]
    assert [m.match_id for m in await store.match_records(player_id=a)] == ["m3", "m1"]
    assert [m.match_id for m in await store.match_records(chat="telegram:-1")] == ["m2", "m1"]
    assert [m.match_id for m in await store.match_records(player_id=a, chat="discord:9")] == ["m3"]
    assert [m.match_id for m in await store.match_records(limit=2)] == ["m3", "m2"]
    [first] = await store.match_records(player_id=b)
    assert (first.chat, first.finished_at, first.record) == ("telegram:-1", 20.0, record)
    assert await store.match_record("m2") == first
    assert await store.match_record("nope") is None


async def test_the_balance_top_list_shows_active_players_richest_first(store: Storage) -> None:
    ids = await make_players(store, 13)
    now = 100 * DAY
    for i, pid in enumerate(ids):
        # Player i ends with 1000 + 20*i - 10*(12-i) dollars... made simple: i wins.
        for w in range(i):
            await store.stake(f"w{pid}-{w}", [pid], 10, now=now)
            await store.settle(f"w{pid}-{w}", [pid], now=now)
    old, *active = ids
    await store.record_match(
        "old", "telegram:-1", {}, [result(old, 0, True)], now=now - ACTIVE_SECONDS - 1
    )
    for i, pid in enumerate(active):
        await store.record_match(
            f"r{pid}",
            "telegram:-1" if i % 2 else "discord:1",
            {},
            [result(pid, 0, True)],
            now=now - DAY,
        )
    top = await store.top_by_balance(None, now=now)
    assert [r.player_id for r in top] == list(reversed(active))[:10]
    assert [r.value for r in top] == [await store.balance(r.player_id) for r in top]
    assert all(r.matches == 1 for r in top)
    assert top[0].display_name == "Jugador 12"
    in_chat = await store.top_by_balance("telegram:-1", now=now, limit=3)
    assert [r.player_id for r in in_chat] == [ids[12], ids[10], ids[8]]
    # Thirty days later only a fresh match counts.
    assert await store.top_by_balance(None, now=now + ACTIVE_SECONDS) == []


async def test_the_balance_trend_is_what_the_balance_changed_by_in_the_last_week(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2, now=0.0)
    await store.stake("old", [a, b], 10, now=1.0)
    await store.settle("old", [a], now=2.0)  # a +10, b -10: more than a week ago
    for n in range(3):
        await store.stake(f"new{n}", [a, b], 10, now=9 * DAY + n)
        await store.settle(f"new{n}", [b], now=9 * DAY + n)
    await store.record_match("m", "c:1", {}, [result(a, 0, True), result(b, 1, False)], now=9 * DAY)
    top = {r.player_id: r for r in await store.top_by_balance("c:1", now=10 * DAY)}
    assert (top[a].value, top[a].trend) == (980, -30)
    assert (top[b].value, top[b].trend) == (1020, 30)
    later = {r.player_id: r.trend for r in await store.top_by_balance("c:1", now=20 * DAY)}
    assert later == {a: 0, b: 0}


async def test_a_new_players_opening_grant_is_not_counted_in_the_balance_trend(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2, now=9 * DAY)
    await store.stake("m", [a, b], 10, now=9 * DAY + 1)
    await store.settle("m", [b], now=9 * DAY + 2)
    await store.record_match("m", "c:1", {}, [result(a, 0, False), result(b, 1, True)], now=9 * DAY)
    top = {r.player_id: r for r in await store.top_by_balance("c:1", now=10 * DAY)}
    assert (top[a].value, top[a].trend) == (OPENING_BALANCE - 10, -10)
    assert (top[b].value, top[b].trend) == (OPENING_BALANCE + 10, 10)


async def test_balance_ties_go_to_the_player_with_more_matches(store: Storage) -> None:
    a, b = await make_players(store, 2)
    for n in range(3):
        await store.record_match(
            f"m{n}",
            "c:1",
            {},
            [result(b, 0, True)] + ([result(a, 1, False)] if n == 0 else []),
            now=1.0,
        )
    assert [(r.player_id, r.matches) for r in await store.top_by_balance("c:1", now=2.0)] == [
        (b, 3),
        (a, 1),
    ]


def seated_record(
    seats: list[int | str], score: tuple[int, int] = (100, 40), **extra: Any
) -> dict[str, Any]:
    """A record naming its seats: a player id, or a robot level (records.md)."""
    return {
        "rules": "venezolano",
        "hands": [{"moves": []}, {"moves": []}],
        "score": list(score),
        "winner_team": 0 if score[0] > score[1] else 1,
        "seats": [
            {
                "player": s,
                "moves": extra.get(f"moves{i}", 20),
                "robot_moves": extra.get(f"robot{i}", 0),
            }
            if isinstance(s, int)
            else {"robot": s, "moves": 20, "robot_moves": 0}
            for i, s in enumerate(seats)
        ],
    }


async def play_rated(
    store: Storage,
    match_id: str,
    seats: list[int | str],
    winner: int,
    *,
    chat: str = "telegram:-1",
    now: float = 1.0,
    **extra: Any,
) -> None:
    """Record a finished match with these seats that ``winner``'s team won."""
    score = (100, 40) if winner == 0 else (40, 100)
    results = [result(s, i % 2, i % 2 == winner) for i, s in enumerate(seats) if isinstance(s, int)]
    await store.record_match(match_id, chat, seated_record(seats, score, **extra), results, now=now)


async def test_a_finished_match_moves_the_four_humans_ratings_in_three_tables(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    at = 1_796_083_200.0 + 5 * DAY  # 2026-12-06
    await play_rated(store, "m1", [a, b, c, d], 0, now=at)
    winner = await store.player_rating(a)
    loser = await store.player_rating(b)
    assert winner is not None and loser is not None
    assert (winner.matches, winner.wins, loser.matches, loser.wins) == (1, 1, 1, 0)
    assert winner.mu > 25.0 > loser.mu
    assert winner.sigma < 25 / 3 and winner.provisional
    assert winner.display == display_rating(winner.mu, winner.sigma)
    assert await store.player_rating(c) == replace(winner, player_id=c)
    season = await store.player_rating(a, chat="telegram:-1", season="2026-12")
    global_season = await store.player_rating(a, chat=ALL_CHATS, season="2026-12")
    assert season is not None and global_season is not None
    assert (season.mu, season.sigma) == (winner.mu, winner.sigma)
    assert (global_season.mu, global_season.sigma) == (winner.mu, winner.sigma)
    assert await store.player_rating(a, chat="telegram:-1", season="2026-11") is None


async def test_beating_maestro_robots_is_worth_more_than_beating_novato_robots(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2)
    await play_rated(store, "m1", [a, "maestro", "experto", "maestro"], 0)
    await play_rated(store, "m2", [b, "novato", "experto", "novato"], 0)
    strong, weak = await store.player_rating(a), await store.player_rating(b)
    assert strong is not None and weak is not None
    assert strong.mu > weak.mu > 25.0


async def test_a_seat_a_robot_played_most_of_takes_the_loss_but_not_the_win(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    await play_rated(store, "m1", [a, b, c, d], 0, moves0=20, robot0=11, moves1=20, robot1=15)
    gone_winner, gone_loser = await store.player_rating(a), await store.player_rating(b)
    present_loser = await store.player_rating(d)
    assert gone_winner is not None and gone_loser is not None and present_loser is not None
    assert (gone_winner.mu, gone_winner.sigma, gone_winner.matches) == (25.0, 25 / 3, 1)
    assert (gone_loser.mu, gone_loser.sigma) == (present_loser.mu, present_loser.sigma)
    assert gone_loser.mu < 25.0


async def test_a_match_with_a_robot_of_no_rated_level_moves_no_rating(store: Storage) -> None:
    (a,) = await make_players(store, 1)
    await play_rated(store, "m1", [a, "externo", "experto", "novato"], 0)
    assert await store.player_rating(a) is None
    assert (await store.player_stats(a)).matches_played == 1


async def test_the_rating_list_orders_by_the_conservative_rating_in_the_chats_players(
    store: Storage,
) -> None:
    a, b, c, d, e = await make_players(store, 5)
    for n in range(12):
        await play_rated(store, f"m{n}", [a, b, c, d], 0, now=float(n + 1))
    await play_rated(store, "x", [e, "novato", "experto", "novato"], 0, chat="discord:9", now=20.0)
    top = await store.top_by_rating(None, now=30.0)
    assert [r.player_id for r in top[:2]] == [a, c]
    assert top[0].value == (await store.player_rating(a)).display  # type: ignore[union-attr]
    assert (top[0].matches, top[0].provisional) == (12, False)
    assert [r.player_id for r in top if r.player_id in (b, d)] == [b, d]
    assert [(r.player_id, r.provisional) for r in top if r.player_id == e] == [(e, True)]
    assert [r.player_id for r in await store.top_by_rating("discord:9", now=30.0)] == [e]
    assert [r.player_id for r in await store.top_by_rating(None, now=30.0, limit=1)] == [a]
    assert await store.top_by_rating("telegram:-99", now=30.0) == []


async def test_the_rating_trend_is_the_change_over_the_last_week(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    await play_rated(store, "m1", [a, b, c, d], 0, now=1.0)
    await play_rated(store, "m2", [a, b, c, d], 0, now=10 * DAY)
    week_ago = (await store.rating_history(a))[0].display
    top = {r.player_id: r for r in await store.top_by_rating(None, now=10 * DAY)}
    assert top[a].trend == top[a].value - week_ago
    assert top[a].trend is not None and top[a].trend > 0
    assert top[b].trend is not None and top[b].trend < 0
    fresh = {r.player_id: r for r in await store.top_by_rating(None, now=5 * DAY)}
    assert fresh[a].trend is None


async def test_the_rating_history_lists_the_last_ratings_oldest_first(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    for n in range(5):
        await play_rated(store, f"m{n}", [a, b, c, d], n % 2, now=float(n + 1))
    history = await store.rating_history(a)
    assert [p.match_id for p in history] == ["m0", "m1", "m2", "m3", "m4"]
    assert [p.at for p in history] == [1.0, 2.0, 3.0, 4.0, 5.0]
    now = await store.player_rating(a)
    assert now is not None and (history[-1].mu, history[-1].sigma) == (now.mu, now.sigma)
    assert history[-1].display == now.display
    assert [p.match_id for p in await store.rating_history(a, limit=2)] == ["m3", "m4"]
    with pytest.raises(UnknownPlayerError):
        await store.rating_history(999)


async def test_seasons_follow_the_chats_period_and_the_global_season_is_monthly(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    december = 1_796_083_200.0  # 2026-12-01, a Tuesday (ISO week 49)
    assert await store.season_period("telegram:-1") is SeasonPeriod.MONTHLY
    await store.set_season_period("telegram:-1", SeasonPeriod.WEEKLY, changed_by=a, now=december)
    assert await store.season_period("telegram:-1") is SeasonPeriod.WEEKLY
    await play_rated(store, "m1", [a, b, c, d], 0, now=december + DAY)
    await play_rated(store, "m2", [a, b, c, d], 1, now=december + 8 * DAY)
    await play_rated(store, "m3", [a, b, c, d], 0, chat="discord:5", now=december + 8 * DAY)
    assert await store.seasons("telegram:-1") == ["2026-W50", "2026-W49"]
    assert await store.seasons("discord:5") == ["2026-12"]
    assert await store.seasons(ALL_CHATS) == ["2026-12"]
    week = await store.season_standings("telegram:-1", "2026-W49")
    assert [(r.player_id, r.matches) for r in week] == [(a, 1), (c, 1), (b, 1), (d, 1)]
    month = await store.season_standings(ALL_CHATS, "2026-12")
    assert {r.player_id: r.matches for r in month} == {a: 3, b: 3, c: 3, d: 3}
    assert all(r.trend is None for r in month)
    assert await store.season_standings("telegram:-1", "2026-12") == []


async def test_an_ended_chat_season_is_due_for_its_final_standings_once(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    december = 1_796_083_200.0
    await play_rated(store, "m1", [a, b, c, d], 0, now=december - DAY)  # November
    await play_rated(store, "m2", [a, b, c, d], 0, now=december + DAY)
    assert await store.due_season_finals(december - 1.0) == []
    assert await store.due_season_finals(december + 2 * DAY) == [("telegram:-1", "2026-11")]
    assert await store.mark_season_final("telegram:-1", "2026-11", now=december + 2 * DAY)
    assert not await store.mark_season_final("telegram:-1", "2026-11", now=december + 3 * DAY)
    assert await store.due_season_finals(december + 2 * DAY) == []


async def test_the_pairs_table_lists_partners_with_enough_matches_by_win_rate(
    store: Storage,
) -> None:
    a, b, c, d, e = await make_players(store, 5)
    for n in range(4):
        await play_rated(store, f"m{n}", [a, b, c, d], 0, now=float(n + 1))
    for n in range(3):
        await play_rated(store, f"x{n}", [e, "novato", a, "novato"], 1, now=float(n + 10))
    await play_rated(store, "y", [b, "novato", e, "novato"], 0, chat="discord:1", now=20.0)
    pairs = await store.top_pairs(None, min_matches=3)
    assert [(p.player_ids, p.matches, p.wins) for p in pairs] == [
        ((a, c), 4, 4),
        ((a, e), 3, 0),  # 0 of 3 is less sure than 0 of 4 (the Bayesian win rate)
        ((b, d), 4, 0),
    ]
    assert pairs[0].names == ("Jugador 0", "Jugador 2")
    assert await store.top_pairs("discord:1", min_matches=1) == [
        PairRow((b, e), ("Jugador 1", "Jugador 4"), 1, 1)
    ]
    assert await store.top_pairs("telegram:-1", min_matches=5) == []


async def test_a_players_record_names_partners_opponents_streak_and_points(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    await play_rated(store, "m1", [a, b, c, d], 1, now=1.0)
    await play_rated(store, "m2", [a, b, c, d], 0, now=2.0)
    await play_rated(store, "m3", [b, a, c, d], 1, now=3.0)
    record = await store.player_record(a)
    assert [(r.player_id, r.matches, r.wins) for r in record.partners] == [(c, 2, 1), (d, 1, 1)]
    assert [(r.player_id, r.matches, r.wins) for r in record.opponents] == [
        (b, 3, 2),
        (d, 2, 1),
        (c, 1, 1),
    ]
    assert record.partners[0].display_name == "Jugador 2"
    assert record.streak == 2
    assert (record.points, record.hands) == (40 + 100 + 100, 6)
    assert record.points_per_hand == 40.0
    assert (await store.player_record(b)).streak == -2
    with pytest.raises(UnknownPlayerError):
        await store.player_record(999)


async def test_rebuilding_the_ratings_reproduces_the_stored_ones_exactly(store: Storage) -> None:
    players = await make_players(store, 6)
    rng = random.Random(5)
    rows = set()  # (chat, season, player) of every rating row the matches make
    for n in range(40):
        seats: list[int | str] = [*rng.sample(players, 2), "experto", "novato"]
        rng.shuffle(seats)
        chat = rng.choice(["telegram:-1", "discord:2"])
        await play_rated(store, f"m{n}", seats, rng.randint(0, 1), chat=chat, now=n * DAY)
        month = "1970-01" if n < 31 else "1970-02"
        for pid in seats:
            rows |= (
                {("*", "", pid), ("*", month, pid), (chat, month, pid)}
                if isinstance(pid, int)
                else set()
            )
    before = [await store.player_rating(p) for p in players]
    history = [await store.rating_history(p, limit=100) for p in players]
    report = await store.rebuild_ratings(write=False)
    assert (report.matches, report.rated, report.differences) == (40, 40, ())
    assert report.ratings == len(rows)
    report = await store.rebuild_ratings()
    assert report.differences == ()
    assert [await store.player_rating(p) for p in players] == before
    assert [await store.rating_history(p, limit=100) for p in players] == history


async def test_moving_a_chat_moves_its_season_ratings_and_period(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.set_season_period("telegram:-1", SeasonPeriod.QUARTERLY, changed_by=a, now=1.0)
    await play_rated(store, "m1", [a, b, c, d], 0, now=2.0)
    await store.move_chat("telegram:-1", "telegram:-1002", now=3.0)
    assert await store.season_period("telegram:-1002") is SeasonPeriod.QUARTERLY
    assert await store.season_period("telegram:-1") is SeasonPeriod.MONTHLY
    assert await store.seasons("telegram:-1002") == ["1970-Q1"]
    assert await store.seasons("telegram:-1") == []
    assert [r.player_id for r in await store.season_standings("telegram:-1002", "1970-Q1")] == [
        a,
        c,
        b,
        d,
    ]
    assert (await store.rebuild_ratings(write=False)).differences == ()


# ------------------------------------------------------- a list per format

ONE_V_ONE = "double_six individual 2 draw"


async def test_a_one_against_one_match_is_rated_in_its_own_list_only(store: Storage) -> None:
    a, b, c, d = await make_players(store, 4)
    await play_rated(store, "classic", [a, b, c, d], 0, now=1.0)
    classic_before = await store.top_by_rating(None, now=3.0)
    record, results, _ = stored_record("uno-contra-uno", [a, b], seed=1)  # seat 1 (b) wins
    await store.record_match("uno", "telegram:-1", record, results, now=2.0)
    won = await store.player_rating(b, format=ONE_V_ONE)
    lost = await store.player_rating(a, format=ONE_V_ONE)
    assert won is not None and lost is not None
    assert (won.matches, won.wins, lost.matches, lost.wins) == (1, 1, 1, 0)
    assert won.mu > 25.0 > lost.mu
    # today's list is untouched: b still has only the partnership match he lost
    assert await store.top_by_rating(None, now=3.0) == classic_before
    today = await store.player_rating(b)
    assert today is not None and (today.matches, today.wins) == (1, 0)
    top = await store.top_by_rating(None, now=3.0, format=ONE_V_ONE)
    assert [(r.player_id, r.matches, r.value) for r in top] == [
        (b, 1, won.display),
        (a, 1, lost.display),
    ]
    assert [p.match_id for p in await store.rating_history(b, format=ONE_V_ONE)] == ["uno"]
    assert [p.match_id for p in await store.rating_history(b)] == ["classic"]
    season = await store.season_standings("telegram:-1", "1970-01", format=ONE_V_ONE)
    assert [r.player_id for r in season] == [b, a]
    assert await store.seasons("telegram:-1", format=ONE_V_ONE) == ["1970-01"]
    # an individual match has no partners and no pairs
    assert await store.top_pairs(None, min_matches=1) == [
        PairRow((a, c), ("Jugador 0", "Jugador 2"), 1, 1),
        PairRow((b, d), ("Jugador 1", "Jugador 3"), 1, 0),
    ]
    profile = await store.player_record(b)
    assert [(r.player_id, r.matches) for r in profile.partners] == [(d, 1)]
    assert [(r.player_id, r.matches, r.wins) for r in profile.opponents] == [
        (a, 2, 1),
        (c, 1, 0),
    ]


async def test_a_three_player_match_with_a_tie_in_points_shares_second_place(
    store: Storage,
) -> None:
    a, b, c = await make_players(store, 3)
    preset, overrides, seed = TIED_THREE
    record, results, match = stored_record(preset, [a, b, c], seed, **overrides)
    assert match.score == (0, 145, 0)
    assert [r.team for r in results] == [0, 1, 2]
    await store.record_match("three", "discord:5", record, results, now=2.0)
    three = "double_six individual 3 draw"
    ratings = {p: await store.player_rating(p, format=three) for p in (a, b, c)}
    tied, winner = ratings[a], ratings[b]
    assert tied is not None and winner is not None
    assert ratings[c] == replace(tied, player_id=c)
    assert (winner.wins, tied.wins) == (1, 0)
    assert winner.mu > 25.0 > tied.mu
    assert [r.player_id for r in await store.top_by_rating("discord:5", now=3.0, format=three)] == [
        b,
        a,
        c,
    ]
    assert (await store.player_stats(b)).matches_won == 1
    assert (await store.player_stats(a)).matches_won == 0


async def test_a_cubano_match_is_rated_in_its_own_list(store: Storage) -> None:
    a, b = await make_players(store, 2)
    record, results, _ = stored_record("cubano", [a, "experto", b, "experto"], seed=1)
    await store.record_match("cubano", "telegram:-1", record, results, now=2.0)
    cubano = await store.player_rating(a, format="double_nine partnership")
    assert cubano is not None and (cubano.matches, cubano.wins) == (1, 0)
    assert await store.player_rating(a) is None
    assert await store.top_by_rating(None, now=3.0) == []
    assert [r.player_id for r in await store.top_by_rating(None, now=3.0, format="double_nine partnership")] == [a, b]  # fmt: skip
    assert await store.top_pairs(None, min_matches=1) == [
        PairRow((a, b), ("Jugador 0", "Jugador 1"), 1, 0)
    ]


async def test_a_result_must_name_a_side_of_the_records_format(store: Storage) -> None:
    a, b, c = await make_players(store, 3)
    record, _, _ = stored_record("uno-contra-uno", [a, b, c], seed=1, players=3)
    with pytest.raises(ValueError, match=r"team must be a side 0\.\.2"):
        await store.record_match("x", "c:1", record, [PlayerResult(a, 3, False)], now=1.0)
    with pytest.raises(ValueError, match=r"team must be a side 0\.\.1"):
        await store.record_match(
            "y", "c:1", seated_record([a, b, c, "experto"]), [PlayerResult(a, 2, True)], now=1.0
        )
    assert await store.match_records() == []


async def test_rebuilding_ratings_of_every_format_reproduces_the_stored_ones(
    store: Storage,
) -> None:
    players = await make_players(store, 5)
    rng = random.Random(29)
    formats = [
        ("uno-contra-uno", {}, 2),
        ("uno-contra-uno", {"players": 3}, 3),
        ("individual", {}, 4),
        ("cubano", {}, 4),
    ]
    for n in range(16):
        preset, overrides, count = formats[n % 4]
        seats: list[int | str] = [*rng.sample(players, 2), *["novato"] * (count - 2)]
        rng.shuffle(seats)
        record, results, _ = stored_record(preset, seats, n, **overrides)
        chat = rng.choice(["telegram:-1", "discord:2"])
        await store.record_match(f"m{n}", chat, record, results, now=n * DAY)
        if n % 5 == 0:
            await play_rated(store, f"c{n}", [players[0], "experto", players[1], "novato"], 0)
    lists = {
        fmt: [(r.player_id, r.value) for r in await store.top_by_rating(None, now=20 * DAY, format=fmt)]
        for fmt in ("", ONE_V_ONE, "double_six individual 3 draw",
                    "double_six individual 4 pass", "double_nine partnership")
    }  # fmt: skip
    assert all(lists.values())
    history = [await store.rating_history(p, format=ONE_V_ONE) for p in players]
    report = await store.rebuild_ratings(write=False)
    assert (report.matches, report.rated, report.differences) == (20, 20, ())
    assert (await store.rebuild_ratings()).differences == ()
    for fmt, rows in lists.items():
        again = await store.top_by_rating(None, now=20 * DAY, format=fmt)
        assert [(r.player_id, r.value) for r in again] == rows
    assert [await store.rating_history(p, format=ONE_V_ONE) for p in players] == history


# ------------------------------------------------------------- finish_match

RECORD = {"rules": {"preset": "venezolano", "target": 100}, "hands": [{"moves": ["6-6"]}]}


def four_results(a: int, b: int, c: int, d: int) -> list[PlayerResult]:
    """Seats a, b, c, d: team 0 (a, c) won 2 hands to 1."""
    return [
        result(a, 0, True, hands_won=2, dominoes=1, capicuas=1),
        result(b, 1, False, hands_won=1, dominoes=1),
        result(c, 0, True, hands_won=2, dominoes=1, trancas_won=1),
        result(d, 1, False, hands_won=1),
    ]


async def test_finishing_a_match_pays_the_winners_and_records_it_in_one_call(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.stake("m1", [a, b, c, d], 10, now=1.0)
    settlement = await store.finish_match(
        "m1",
        "telegram:-1",
        winners=[a, c],
        record=RECORD,
        results=four_results(a, b, c, d),
        now=5.0,
    )
    assert settlement == MatchSettlement(
        payouts={a: 20, c: 20},
        balances={a: 1010, b: 990, c: 1010, d: 990},
        already_finished=False,
    )
    assert settlement.balances == {p: await store.balance(p) for p in (a, b, c, d)}
    assert await store.player_stats(a) == PlayerStats(a, 1, 1, 2, 1, 0, 1, 5.0)
    assert await store.player_stats(d) == PlayerStats(d, 1, 0, 1, 0, 0, 0, 5.0)
    [stored] = await store.match_records()
    assert (stored.match_id, stored.chat, stored.finished_at, stored.record) == (
        "m1",
        "telegram:-1",
        5.0,
        RECORD,
    )
    history = await store.wallet_history(a)
    assert [(e.kind, e.amount, e.match_id, e.at) for e in history[:2]] == [
        ("payout", 20, "m1", 5.0),
        ("stake", -10, "m1", 1.0),
    ]
    with pytest.raises(MatchClosedError):
        await store.refund("m1", now=6.0)


async def test_a_winner_of_individual_play_is_paid_its_share_of_stakes_and_nothing_else_moves(
    store: Storage,
) -> None:
    """rules.md, "Money in the formats": four each for themselves, two humans staking:
    the winner receives four stakes, the house paying the robots' two."""
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    settlement = await store.finish_match(
        "m1", "terminal:local", winners=[b], record=RECORD, results=[], now=5.0, share=4
    )
    assert (settlement.payouts, settlement.balances) == ({b: 40}, {a: 990, b: 1030})
    assert await store.check_ledger() == []


async def test_a_share_below_one_stake_is_refused_and_writes_nothing(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    for share in (0, -2, True):
        with pytest.raises(ValueError, match="share"):
            await store.finish_match(
                "m1",
                "terminal:local",
                winners=[a],
                record=RECORD,
                results=[],
                now=5.0,
                share=share,
            )
    assert [await store.balance(p) for p in (a, b)] == [990, 990]
    assert await store.match_records() == []


async def test_finishing_a_match_again_changes_nothing_and_returns_the_same_figures(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.stake("m1", [a, b, c, d], 10, now=1.0)
    first = await store.finish_match(
        "m1",
        "telegram:-1",
        winners=[a, c],
        record=RECORD,
        results=four_results(a, b, c, d),
        now=5.0,
    )
    histories = [await store.wallet_history(p, limit=100) for p in (a, b, c, d)]
    again = await store.finish_match(
        "m1",
        "discord:9",
        winners=[b, d],
        record={"other": 1},
        results=four_results(b, a, d, c),
        now=9.0,
    )
    assert again == MatchSettlement(first.payouts, first.balances, already_finished=True)
    assert [await store.balance(p) for p in (a, b, c, d)] == [1010, 990, 1010, 990]
    assert [await store.wallet_history(p, limit=100) for p in (a, b, c, d)] == histories
    assert await store.player_stats(b) == PlayerStats(b, 1, 0, 1, 1, 0, 0, 5.0)
    [stored] = await store.match_records()
    assert (stored.chat, stored.record) == ("telegram:-1", RECORD)
    assert await store.settle("m1", [b, d], now=10.0) == {a: 20, c: 20}


async def test_concurrent_finishes_of_one_match_pay_once(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    results = [result(a, 0, True), result(b, 1, False)]
    calls = [
        store.finish_match("m1", "c:1", winners=[a], record={"n": n}, results=results, now=float(n))
        for n in range(3)
    ]
    done = await asyncio.gather(*calls)
    assert [s.already_finished for s in done] == [False, True, True]
    assert [s.payouts for s in done] == [{a: 20}] * 3
    assert [s.balances for s in done] == [{a: 1010, b: 990}] * 3
    assert (await store.player_stats(a)).matches_played == 1


async def test_a_finish_that_fails_midway_writes_nothing_and_leaves_the_escrow_open(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    histories = [await store.wallet_history(p) for p in (a, b)]
    with pytest.raises(UnknownPlayerError) as caught:
        await store.finish_match(
            "m1",
            "telegram:-1",
            winners=[a],
            record=RECORD,
            results=[result(a, 0, True), result(999, 1, False)],
            now=2.0,
        )
    assert caught.value.player_id == 999
    assert [await store.balance(p) for p in (a, b)] == [990, 990]
    assert [await store.wallet_history(p) for p in (a, b)] == histories
    assert await store.match_records() == []
    assert await store.player_stats(a) == PlayerStats(a)
    # The escrow is still open: a good call finishes the match.
    settlement = await store.finish_match(
        "m1",
        "telegram:-1",
        winners=[a],
        record=RECORD,
        results=[result(a, 0, True), result(b, 1, False)],
        now=3.0,
    )
    assert settlement == MatchSettlement({a: 20}, {a: 1010, b: 990}, already_finished=False)


async def test_bad_finish_calls_are_refused_and_write_nothing(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    good = [result(a, 0, True), result(b, 1, False)]
    for results in ([result(a, 2, True)], [result(a, 0, True, capicuas=-1)], good + good[:1]):
        with pytest.raises(ValueError):
            await store.finish_match("m1", "c:1", winners=[a], record={}, results=results, now=2.0)
    for match_id, chat, now in (("", "c:1", 2.0), ("m1", "", 2.0), ("m1", "c:1", math.inf)):
        with pytest.raises(ValueError):
            await store.finish_match(match_id, chat, winners=[a], record={}, results=good, now=now)
    with pytest.raises(TypeError):
        await store.finish_match(
            "m1", "c:1", winners=[a], record={"x": object()}, results=good, now=2.0
        )
    assert [await store.balance(p) for p in (a, b)] == [990, 990]
    assert await store.match_records() == []
    assert await store.refund("m1", now=3.0) == {a: 10, b: 10}


async def test_a_cancelled_match_cannot_be_finished(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("m1", [a, b], 10, now=1.0)
    await store.refund("m1", now=2.0)
    with pytest.raises(MatchClosedError) as caught:
        await store.finish_match(
            "m1", "c:1", winners=[a], record={}, results=[result(a, 0, True)], now=3.0
        )
    assert caught.value.state == "refunded"
    assert [await store.balance(p) for p in (a, b)] == [1000, 1000]
    assert await store.match_records() == []
    assert await store.player_stats(a) == PlayerStats(a)


async def test_a_forfeited_player_gets_nothing_when_the_match_is_finished(
    store: Storage,
) -> None:
    a, b, c, d = await make_players(store, 4)
    await store.stake("m1", [a, b, c, d], 10, now=1.0)
    await store.forfeit("m1", a, now=2.0)
    # a's team wins with a robot in a's seat; a has no result but still a balance.
    settlement = await store.finish_match(
        "m1",
        "telegram:-1",
        winners=[a, c],
        record=RECORD,
        results=four_results(a, b, c, d)[1:],
        now=5.0,
    )
    assert settlement == MatchSettlement(
        payouts={c: 20},
        balances={a: 990, b: 990, c: 1010, d: 990},
        already_finished=False,
    )
    assert settlement.balances == {p: await store.balance(p) for p in (a, b, c, d)}
    assert await store.player_stats(a) == PlayerStats(a)
    assert (await store.player_stats(c)).matches_won == 1


async def test_finishing_a_match_without_escrow_only_records_it(store: Storage) -> None:
    (a,) = await make_players(store, 1)
    settlement = await store.finish_match(
        "r1", "terminal:local", winners=[a], record=RECORD, results=[result(a, 0, True)], now=4.0
    )
    assert settlement == MatchSettlement({}, {a: OPENING_BALANCE}, already_finished=False)
    assert [e.kind for e in await store.wallet_history(a)] == ["open"]
    assert await store.player_stats(a) == PlayerStats(a, 1, 1, 0, 0, 0, 0, 4.0)
    assert [m.match_id for m in await store.match_records()] == ["r1"]
    again = await store.finish_match(
        "r1", "terminal:local", winners=[a], record={}, results=[result(a, 0, True)], now=5.0
    )
    assert again == MatchSettlement({}, {a: OPENING_BALANCE}, already_finished=True)
    assert (await store.player_stats(a)).matches_played == 1


async def test_finishing_a_match_without_escrow_or_results_writes_nothing(
    store: Storage,
) -> None:
    for _ in range(2):
        settlement = await store.finish_match(
            "r1", "c:1", winners=[], record=RECORD, results=[], now=1.0
        )
        assert settlement == MatchSettlement({}, {}, already_finished=False)
    assert await store.match_records() == []


async def test_a_robots_only_match_with_its_empty_escrow_is_recorded(store: Storage) -> None:
    await store.stake("bots", [], 10, now=1.0)
    settlement = await store.finish_match(
        "bots", "c:1", winners=[], record=RECORD, results=[], now=2.0
    )
    assert settlement == MatchSettlement({}, {}, already_finished=False)
    assert [m.match_id for m in await store.match_records()] == ["bots"]
    again = await store.finish_match("bots", "c:1", winners=[], record={}, results=[], now=3.0)
    assert again == MatchSettlement({}, {}, already_finished=True)


async def test_a_zero_stake_match_is_finished_with_no_money_moved(store: Storage) -> None:
    a, b = await make_players(store, 2)
    await store.stake("free", [a, b], 0, now=1.0)
    settlement = await store.finish_match(
        "free",
        "c:1",
        winners=[a],
        record={},
        results=[result(a, 0, True), result(b, 1, False)],
        now=2.0,
    )
    assert settlement == MatchSettlement(
        {a: 0}, {a: OPENING_BALANCE, b: OPENING_BALANCE}, already_finished=False
    )


async def test_a_match_half_finished_by_the_old_calls_gets_the_missing_part(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2)
    results = [result(a, 0, True), result(b, 1, False)]
    await store.stake("settled", [a, b], 10, now=1.0)
    assert await store.settle("settled", [a], now=2.0) == {a: 20}
    settled = await store.finish_match(
        "settled", "c:1", winners=[b], record=RECORD, results=results, now=3.0
    )
    assert settled == MatchSettlement({a: 20}, {a: 1010, b: 990}, already_finished=False)
    assert [m.match_id for m in await store.match_records()] == ["settled"]

    await store.stake("recorded", [a, b], 10, now=4.0)
    await store.record_match("recorded", "c:1", RECORD, results, now=5.0)
    recorded = await store.finish_match(
        "recorded", "c:1", winners=[b], record={}, results=results, now=6.0
    )
    assert recorded == MatchSettlement({b: 20}, {a: 1000, b: 1000}, already_finished=False)
    assert (await store.player_stats(a)).matches_played == 2


async def test_the_balances_after_a_finish_include_a_top_up_taken_at_the_stake(
    store: Storage,
) -> None:
    rich, poor = await make_players(store, 2)
    await drain(store, poor, 3, "d", now=0.0)
    await store.stake("m1", [rich, poor], 10, now=DAY)  # poor is topped up to 100 first
    settlement = await store.finish_match(
        "m1",
        "c:1",
        winners=[poor],
        record={},
        results=[result(rich, 1, False), result(poor, 0, True)],
        now=DAY + 1,
    )
    assert settlement == MatchSettlement(
        {poor: 20}, {rich: 990, poor: TOP_UP_TO + 10}, already_finished=False
    )
    assert settlement.balances == {p: await store.balance(p) for p in (rich, poor)}


# ------------------------------------------------------------ chat presets


async def test_a_chat_without_rules_has_none(store: Storage) -> None:
    assert await store.get_chat_rules("telegram:-1") is None


async def test_chat_rules_are_validated_and_stored_canonically(store: Storage) -> None:
    saved = await store.set_chat_rules(
        "discord:1",
        "Español",
        {"target": 200, "forced_move_seconds": "none"},
        changed_by=7,
        now=50.0,
    )
    assert saved == ChatRules(
        "discord:1", "espanol", {"target": 200, "forced_move_seconds": None}, 7, 50.0
    )
    assert await store.get_chat_rules("discord:1") == saved
    assert saved.rules() == find_preset("espanol", target=200, forced_move_seconds=None)


async def test_a_chats_rules_may_be_a_format_preset_with_its_options(store: Storage) -> None:
    stored = await store.set_chat_rules(
        "telegram:-1", "Cubano", {"target": 200}, changed_by=1, now=1.0
    )
    assert (stored.preset, stored.overrides) == ("cubano", {"target": 200})
    again = await store.get_chat_rules("telegram:-1")
    assert again is not None and again.rules() == find_any_preset("cubano", target=200)


async def test_bad_chat_rules_are_refused_and_keep_the_old_ones(store: Storage) -> None:
    old = await store.set_chat_rules("telegram:-1", "dominicano", {}, changed_by=1, now=1.0)
    for preset, overrides in [
        ("cubana", {}),
        ("cubano", {"players": 5}),
        ("venezolano", {"target": 77}),
        ("venezolano", {"color": "red"}),
        ("venezolano", {"stake": True}),
    ]:
        with pytest.raises(RulesError):
            await store.set_chat_rules("telegram:-1", preset, overrides, changed_by=2, now=2.0)
    assert await store.get_chat_rules("telegram:-1") == old


async def test_a_chats_language_is_kept_apart_from_its_rules_and_refused_when_unknown(
    store: Storage,
) -> None:
    assert await store.get_chat_language("telegram:-1") is None
    await store.set_chat_language("telegram:-1", "en", changed_by=1, now=1.0)
    await store.set_chat_language("telegram:-2", "es", changed_by=1, now=1.0)
    with pytest.raises(ValueError, match="language"):
        await store.set_chat_language("telegram:-1", "fr", changed_by=1, now=2.0)
    assert await store.get_chat_language("telegram:-1") == "en"
    assert await store.get_chat_language("telegram:-2") == "es"
    assert await store.get_chat_rules("telegram:-1") is None


async def test_setting_chat_rules_again_replaces_them(store: Storage) -> None:
    await store.set_chat_rules("telegram:-1", "dominicano", {"target": 100}, changed_by=1, now=1.0)
    await store.set_chat_rules("telegram:-1", "venezolano", {}, changed_by=2, now=2.0)
    assert await store.get_chat_rules("telegram:-1") == ChatRules(
        "telegram:-1", "venezolano", {}, 2, 2.0
    )


# ------------------------------------------------------------ chat moves


async def test_moving_a_chat_moves_its_rules_history_rankings_and_tables_once(
    store: Storage,
) -> None:
    a, b = await make_players(store, 2)
    old, new = "telegram:-1", "telegram:-1002"
    await store.set_chat_rules(old, "dominicano", {"target": 150}, changed_by=a, now=1.0)
    await store.record_match("m1", old, {"n": 1}, [result(a, 0, True, hands_won=2)], now=10.0)
    await store.record_match("m2", new, {"n": 2}, [result(a, 1, False, dominoes=1)], now=20.0)
    await store.record_match("m3", "telegram:-9", {"n": 3}, [result(b, 0, True)], now=30.0)
    for n in range(5):
        await store.record_match(f"r{n}", old, {}, [result(b, 0, True)], now=40.0 + n)
    await store.save_table("t1", {"chat": old}, now=5.0)
    before_a = await store.player_stats(a)

    await store.move_chat(old, new, tables={"t1": {"chat": new}}, now=100.0)
    await store.move_chat(old, new, tables={"t1": {"chat": new}}, now=101.0)  # once only

    moved = await store.get_chat_rules(new)
    assert moved == ChatRules(new, "dominicano", {"target": 150}, a, 1.0)
    assert await store.get_chat_rules(old) is None
    assert [m.match_id for m in await store.match_records(chat=new, player_id=a)] == ["m2", "m1"]
    assert await store.match_records(chat=old) == []
    assert [m.chat for m in await store.match_records(chat="telegram:-9")] == ["telegram:-9"]
    assert await store.player_stats(a) == before_a
    assert [(r.player_id, r.matches) for r in await store.top_by_rating(new, now=100.0)] == [
        (b, 6),  # ratings are global: b's match in telegram:-9 counts too
        (a, 2),
    ]
    assert await store.top_by_rating(old, now=100.0) == []
    top = await store.top_by_balance(new, now=100.0)
    assert {(r.player_id, r.matches) for r in top} == {(a, 2), (b, 5)}
    assert await store.top_by_balance(old, now=100.0) == []
    assert await store.load_tables() == [{"chat": new}]


async def test_moving_a_chat_keeps_the_rules_the_new_chat_already_has(store: Storage) -> None:
    await store.set_chat_rules("telegram:-1", "dominicano", {}, changed_by=1, now=1.0)
    await store.set_chat_rules("telegram:-2", "espanol", {}, changed_by=2, now=2.0)
    await store.move_chat("telegram:-1", "telegram:-2", now=3.0)
    assert await store.get_chat_rules("telegram:-2") == ChatRules(
        "telegram:-2", "espanol", {}, 2, 2.0
    )
    assert await store.get_chat_rules("telegram:-1") is None


async def test_a_bad_chat_move_is_refused_and_writes_nothing(store: Storage) -> None:
    await store.set_chat_rules("telegram:-1", "dominicano", {}, changed_by=1, now=1.0)
    for old, new in [("telegram:-1", "telegram:-1"), ("", "telegram:-2"), ("telegram:-1", "")]:
        with pytest.raises(ValueError, match="chat"):
            await store.move_chat(old, new, now=2.0)
    with pytest.raises(TypeError):
        await store.move_chat("telegram:-1", "telegram:-2", tables={"t": {"x": {1, 2}}}, now=2.0)
    assert (await store.get_chat_rules("telegram:-1")) is not None
    assert await store.get_chat_rules("telegram:-2") is None
    assert await store.load_tables() == []


# --------------------------------------------------------- table snapshots


async def test_table_snapshots_are_saved_replaced_loaded_and_deleted(store: Storage) -> None:
    first = {"table_id": "t1", "seats": [1, None, 2, None], "deadline": 12.5, "score": (3, 4)}
    await store.save_table("t1", first, now=10.0)
    await store.save_table("t2", {"table_id": "t2", "robots": {"1": "experto"}}, now=11.0)
    # JSON round trip: tuples come back as lists.
    assert await store.load_tables() == [
        {"table_id": "t1", "seats": [1, None, 2, None], "deadline": 12.5, "score": [3, 4]},
        {"table_id": "t2", "robots": {"1": "experto"}},
    ]
    await store.save_table("t1", {"table_id": "t1", "moves": 3}, now=12.0)
    assert [s["table_id"] for s in await store.load_tables()] == ["t2", "t1"]
    await store.delete_table("t2")
    await store.delete_table("t2")
    assert await store.load_tables() == [{"table_id": "t1", "moves": 3}]


async def test_a_snapshot_that_is_not_json_is_refused(store: Storage) -> None:
    await store.save_table("t1", {"ok": True}, now=1.0)
    with pytest.raises(TypeError):
        await store.save_table("t1", {"bad": {1, 2}}, now=2.0)
    assert await store.load_tables() == [{"ok": True}]


async def test_open_escrows_lists_only_the_escrows_neither_settled_nor_refunded(
    store: Storage,
) -> None:
    a, b, c = await make_players(store, 3)
    await store.stake("open", [a, b], 10, now=5.0)
    await store.stake("settled", [c], 10, now=6.0)
    await store.settle("settled", [c], now=7.0)
    await store.stake("refunded", [c], 10, now=8.0)
    await store.refund("refunded", now=9.0)
    await store.stake("robots", [], 10, now=10.0)
    await store.forfeit("open", b, now=11.0)
    escrows = await store.open_escrows()
    assert [(e.match_id, e.stake, e.holders, e.created_at) for e in escrows] == [
        ("open", 10, {a: "held", b: "forfeited"}, 5.0),
        ("robots", 10, {}, 10.0),
    ]


async def test_a_platforms_tables_are_claimed_by_one_owner_at_a_time(store: Storage) -> None:
    assert await store.tables_claim("telegram") is None
    assert await store.claim_tables("telegram", "one", now=1.0, replacing=None) == 1
    assert await store.claim_tables("telegram", "two", now=2.0, replacing=None) is None
    assert not await store.renew_tables_claim("telegram", "two", now=2.0)
    assert await store.renew_tables_claim("telegram", "one", now=3.0)
    assert await store.tables_claim("telegram") == TablesClaim("telegram", "one", 3.0, 1)
    assert await store.claim_tables("discord:1", "two", now=3.0, replacing=None) == 1
    # taking over a claim names the claim it replaces
    assert await store.claim_tables("telegram", "two", now=4.0, replacing="someone") is None
    assert await store.claim_tables("telegram", "two", now=4.0, replacing="one") == 2
    assert not await store.renew_tables_claim("telegram", "one", now=5.0)
    await store.release_tables("telegram", "one")  # not theirs: nothing happens
    assert await store.tables_claim("telegram") == TablesClaim("telegram", "two", 4.0, 2)
    # claiming again what one holds keeps its fence
    assert await store.claim_tables("telegram", "two", now=6.0, replacing=None) == 2
    assert await store.tables_claims() == [
        TablesClaim("discord:1", "two", 3.0, 1),
        TablesClaim("telegram", "two", 6.0, 2),
    ]
    await store.release_tables("telegram", "two")
    assert await store.tables_claim("telegram") is None
    assert await store.tables_claim("discord:1") == TablesClaim("discord:1", "two", 3.0, 1)
    assert await store.tables_claims() == [TablesClaim("discord:1", "two", 3.0, 1)]


async def test_a_released_scopes_next_claim_gets_a_greater_fence_than_any_before(
    store: Storage,
) -> None:
    assert await store.claim_tables("telegram", "one", now=1.0, replacing=None) == 1
    await store.release_tables("telegram", "one")
    assert await store.claim_tables("telegram", "two", now=2.0, replacing=None) == 2
    await store.release_tables("telegram", "two")
    assert await store.claim_tables("telegram", "one", now=3.0, replacing=None) == 3


async def test_a_stale_fence_writes_no_snapshot_and_moves_no_money(store: Storage) -> None:
    a, b = await make_players(store, 2)
    assert await store.claim_tables("telegram", "one", now=1.0, replacing=None) == 1
    old = Fence("telegram", "one", 1)
    await store.save_table("t1", {"table_id": "t1", "v": 1}, now=2.0, fence=old)
    await store.stake("t1", [a, b], 10, now=2.0, fence=old)
    # the process stalls past its lease; another one takes the scope over
    assert await store.claim_tables("telegram", "two", now=40.0, replacing="one") == 2
    new = Fence("telegram", "two", 2)
    with pytest.raises(FencedOut) as refused:
        await store.save_table("t1", {"table_id": "t1", "v": 2}, now=41.0, fence=old)
    assert refused.value.fence == old
    with pytest.raises(FencedOut):
        await store.finish_match(
            "t1",
            "telegram:chat",
            winners=[a],
            record={"moves": []},
            results=[
                PlayerResult(a, 0, True, hands_won=1),
                PlayerResult(b, 1, False),
            ],
            now=41.0,
            fence=old,
        )
    with pytest.raises(FencedOut):
        await store.refund("t1", now=41.0, fence=old)
    with pytest.raises(FencedOut):
        await store.forfeit("t1", a, now=41.0, fence=old)
    with pytest.raises(FencedOut):
        await store.settle("t1", [a], now=41.0, fence=old)
    with pytest.raises(FencedOut):
        await store.stake("t2", [a, b], 10, now=41.0, fence=old)
    with pytest.raises(FencedOut):
        await store.delete_table("t1", fence=old)
    assert await store.load_tables() == [{"table_id": "t1", "v": 1}]
    assert [e.match_id for e in await store.open_escrows()] == ["t1"]
    assert (await store.balance(a), await store.balance(b)) == (990, 990)
    assert await store.check_ledger() == []
    # the new owner's writes go through
    await store.save_table("t1", {"table_id": "t1", "v": 3}, now=42.0, fence=new)
    assert await store.refund("t1", now=42.0, fence=new) == {a: 10, b: 10}
    await store.delete_table("t1", fence=new)
    assert await store.load_tables() == []
    assert (await store.balance(a), await store.balance(b)) == (1000, 1000)


async def test_a_fence_of_another_scope_or_owner_is_refused(store: Storage) -> None:
    assert await store.claim_tables("discord:0", "one", now=1.0, replacing=None) == 1
    for fence in (
        Fence("discord:1", "one", 1),
        Fence("discord:0", "two", 1),
        Fence("discord:0", "one", 2),
    ):
        with pytest.raises(FencedOut):
            await store.save_table("t", {"table_id": "t"}, now=2.0, fence=fence)
    await store.release_tables("discord:0", "one")
    with pytest.raises(FencedOut):  # a released claim fences its owner out too
        await store.save_table("t", {"table_id": "t"}, now=3.0, fence=Fence("discord:0", "one", 1))
    assert await store.load_tables() == []


async def test_a_notice_reaches_every_subscriber_of_its_channel_and_no_other(
    store: Storage,
) -> None:
    heard: list[tuple[str, str]] = []
    await store.subscribe("presses", lambda m: heard.append(("one", m)))
    await store.subscribe("presses", lambda m: heard.append(("two", m)))
    await store.subscribe("other", lambda m: heard.append(("other", m)))
    await store.publish("presses", '{"press": 1}')
    for _ in range(100):  # PostgreSQL delivers through its own connection
        if len(heard) == 2:
            break
        await asyncio.sleep(0.01)
    assert sorted(heard) == [("one", '{"press": 1}'), ("two", '{"press": 1}')]
    with pytest.raises(ValueError, match="at most 7000 bytes"):
        await store.publish("presses", "x" * 7001)


async def test_values_handed_back_are_copies(store: Storage) -> None:
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


# ------------------------------------------- random scripts: SQLite and PostgreSQL agree


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


async def play_script(
    store: Storage, ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]]
) -> list[Any]:
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


@pytest.mark.parametrize("seed", range(4))
async def test_sqlite_and_postgresql_answer_every_script_the_same(
    postgres_storage: Storage, tmp_path: Path, seed: int
) -> None:
    ops = script(seed, 160)
    sqlite = await SqliteStorage.open(tmp_path / "same.db")
    try:
        assert await play_script(sqlite, ops) == await play_script(postgres_storage, ops)
        now = max(kw.get("now", 0.0) for _, _, kw in ops)
        assert await state(sqlite, now) == await state(postgres_storage, now)
        assert await sqlite.check_ledger() == [] == await postgres_storage.check_ledger()
    finally:
        await sqlite.close()


async def test_the_scripts_exercise_successes_and_failures() -> None:
    kinds: set[str] = set()
    for seed in range(4):
        fresh = await open_storage(":memory:")
        try:
            answers = await play_script(fresh, script(seed, 160))
        finally:
            await fresh.close()
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
