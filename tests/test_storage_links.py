"""One player on both platforms in storage (storage/links.py, issue 33; docs/players.md),
run against SQLite and PostgreSQL.

Every behaviour test takes the ``store`` fixture, parametrized over ``SqliteStorage`` and
``PostgresStorage`` (a real server, tests/postgres_server.py), as
tests/test_storage_tournaments.py does, and the ledger is checked after each. Money rules:
rules.md, "The house"; the merge: docs/players.md, "Linking".
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.base import (
    OPENING_BALANCE,
    TOP_UP_EVERY,
    Identity,
    InsufficientFunds,
    LinkRefusal,
    LinkRefused,
    Merge,
    PlayerResult,
    Storage,
)
from storage.links import LINK_CODE_SECONDS, link_code_key, plan_merge

CHAT_T = "telegram:-100"
CHAT_D = "discord:900"
RECORD = {"rules": "venezolano", "hands": []}
EXAMPLES = itertools.count(10_000)
"""Numbers the property's examples, which share one storage."""


async def two_players(store: Storage, first: str = "1", second: str = "9") -> tuple[int, int]:
    ana_t = await store.ensure_player("telegram", first, "Ana", now=1.0)
    ana_d = await store.ensure_player("discord", second, "Ana D", now=2.0)
    return ana_t.id, ana_d.id


async def linked(store: Storage, code: str = "ABC234") -> Merge:
    assert await store.issue_link_code("telegram", "1", code, now=10.0)
    return await store.redeem_link_code(code.lower(), "discord", "9", now=20.0)


async def refusal(store: Storage, code: str, platform: str, user: str, now: float) -> LinkRefusal:
    with pytest.raises(LinkRefused) as raised:
        await store.redeem_link_code(code, platform, user, now=now)
    return raised.value.reason


def test_a_typed_code_drops_spaces_and_dashes_and_is_read_in_capitals() -> None:
    assert link_code_key(" ab3-k9x ") == "AB3K9X"


def test_a_merge_moves_the_whole_balance_and_nothing_else() -> None:
    plan = plan_merge(7, 3, 250)
    assert (plan.key, plan.kind, plan.entries) == (
        "merge:7",
        "merge",
        [("player:7", -250), ("player:3", 250)],
    )
    assert plan_merge(7, 3, 0).entries == []


async def test_a_code_from_telegram_accepted_on_discord_makes_one_player_with_both_balances(
    store: Storage,
) -> None:
    ana_t, ana_d = await two_players(store)
    merge = await linked(store)
    assert merge == Merge(ana_t, ana_d, OPENING_BALANCE, 2 * OPENING_BALANCE, "telegram")
    assert (await store.find_player("discord", "9")).id == ana_t  # type: ignore[union-attr]
    assert await store.balance(ana_t) == 2 * OPENING_BALANCE
    assert await store.balance(ana_d) == 0
    assert await store.player_identities(ana_t) == [
        Identity("discord", "9"),
        Identity("telegram", "1"),
    ]
    history = await store.wallet_history(ana_t)
    assert [(e.kind, e.amount) for e in history] == [("merge", OPENING_BALANCE), ("open", 1000)]


async def test_the_older_player_survives_whichever_platform_gave_the_code(store: Storage) -> None:
    ana_t, _ = await two_players(store)
    assert await store.issue_link_code("discord", "9", "XYZ789", now=10.0)
    merge = await store.redeem_link_code("XYZ789", "telegram", "1", now=20.0)
    assert (merge.player_id, merge.platform) == (ana_t, "discord")


async def test_history_and_totals_follow_the_survivor(store: Storage) -> None:
    ana_t, ana_d = await two_players(store)
    rival = (await store.ensure_player("discord", "50", "Rival", now=3.0)).id
    await store.record_match(
        "d-1",
        CHAT_D,
        RECORD,
        [PlayerResult(ana_d, 0, True), PlayerResult(rival, 1, False)],
        now=5.0,
    )
    await linked(store)
    stats = await store.player_stats(ana_t)
    assert (stats.matches_played, stats.matches_won) == (1, 1)
    assert (await store.player_stats(ana_d)).matches_played == 0


async def test_of_two_ratings_of_one_list_the_one_with_more_matches_is_kept(
    store: Storage,
) -> None:
    ana_t, ana_d = await two_players(store)
    rival = (await store.ensure_player("discord", "50", "Rival", now=3.0)).id
    other = (await store.ensure_player("telegram", "51", "Otro", now=3.0)).id
    await store.record_match(  # Telegram's Ana has one rated match, Discord's two
        "t-0",
        CHAT_T,
        RECORD,
        [PlayerResult(ana_t, 0, False), PlayerResult(other, 1, True)],
        now=4.0,
    )
    in_telegram = await store.player_rating(ana_t, chat=CHAT_T)
    for n in range(2):
        await store.record_match(
            f"d-{n}",
            CHAT_D,
            RECORD,
            [PlayerResult(ana_d, 0, True), PlayerResult(rival, 1, False)],
            now=5.0 + n,
        )
    before = await store.player_rating(ana_d)
    await linked(store)
    assert before is not None and before.matches == 2
    assert await store.player_rating(ana_t) == replace(before, player_id=ana_t)
    assert await store.player_rating(ana_t, chat=CHAT_T) == in_telegram
    assert await store.player_rating(ana_d) is None
    history = await store.rating_history(ana_t)
    assert len(history) == 2  # the all-time rating's history came with it


async def test_a_wrong_expired_reused_or_own_platform_code_is_refused_and_changes_nothing(
    store: Storage,
) -> None:
    ana_t, ana_d = await two_players(store)
    assert await store.issue_link_code("telegram", "1", "ABC234", now=10.0)
    assert await refusal(store, "NOPE22", "discord", "9", 20.0) is LinkRefusal.UNKNOWN_CODE
    assert await refusal(store, "ABC234", "telegram", "1", 20.0) is LinkRefusal.SAME_PLATFORM
    late = 10.0 + LINK_CODE_SECONDS
    assert await refusal(store, "ABC234", "discord", "9", late) is LinkRefusal.EXPIRED_CODE
    assert [await store.balance(ana_t), await store.balance(ana_d)] == [1000, 1000]
    await store.redeem_link_code("ABC234", "discord", "9", now=20.0)
    assert await refusal(store, "ABC234", "discord", "9", 30.0) is LinkRefusal.USED_CODE


async def test_a_new_code_replaces_the_unused_one_and_a_taken_code_is_not_kept(
    store: Storage,
) -> None:
    await two_players(store)
    assert await store.issue_link_code("telegram", "1", "AAA222", now=10.0)
    assert await store.issue_link_code("telegram", "1", "BBB333", now=11.0)
    assert not await store.issue_link_code("discord", "9", "BBB333", now=12.0)
    assert await refusal(store, "AAA222", "discord", "9", 20.0) is LinkRefusal.UNKNOWN_CODE
    assert await store.link_code_owner("bbb333") == ("telegram", "1")


async def test_identities_linked_already_or_linked_to_someone_else_are_refused(
    store: Storage,
) -> None:
    await two_players(store)
    await linked(store)
    assert await store.issue_link_code("telegram", "1", "CCC444", now=30.0)
    assert await refusal(store, "CCC444", "discord", "9", 31.0) is LinkRefusal.ALREADY_LINKED
    await store.ensure_player("discord", "77", "Otra", now=32.0)
    with pytest.raises(LinkRefused) as raised:
        await store.redeem_link_code("CCC444", "discord", "77", now=33.0)
    assert (raised.value.reason, raised.value.platform) == (
        LinkRefusal.LINKED_ELSEWHERE,
        "discord",
    )


async def test_a_player_with_a_stake_held_cannot_link(store: Storage) -> None:
    ana_t, ana_d = await two_players(store)
    await store.stake("m-1", [ana_d], 10, now=5.0)
    assert await store.issue_link_code("telegram", "1", "DDD555", now=10.0)
    assert await refusal(store, "DDD555", "discord", "9", 20.0) is LinkRefusal.MONEY_HELD
    assert [await store.balance(ana_t), await store.balance(ana_d)] == [1000, 990]


async def test_a_merged_players_old_id_is_never_topped_up_and_cannot_stake(
    store: Storage,
) -> None:
    ana_t, ana_d = await two_players(store)
    await linked(store)
    # a process that still knew Ana's Discord id, a day later (any top-up due long since)
    later = 20.0 + 2 * TOP_UP_EVERY
    assert await store.top_up(ana_d, now=later, stake=10) == 0
    with pytest.raises(InsufficientFunds) as short:
        await store.stake("m-old", [ana_d], 10, now=later)
    assert short.value.player_ids == (ana_d,)
    assert [await store.balance(ana_t), await store.balance(ana_d)] == [2000, 0]
    assert await store.check_ledger() == []


async def test_unlinking_gives_the_leaving_identity_a_fresh_player_at_zero(
    store: Storage,
) -> None:
    ana_t, _ = await two_players(store)
    await linked(store)
    fresh = await store.unlink("discord", "9", "Ana D", now=40.0)
    assert (await store.find_player("discord", "9")).id == fresh  # type: ignore[union-attr]
    assert [await store.balance(ana_t), await store.balance(fresh)] == [2000, 0]
    assert await store.top_up(fresh, now=41.0) == 0  # the top-up waits its usual time
    assert await store.player_identities(ana_t) == [Identity("telegram", "1")]


async def test_an_identity_alone_cannot_be_unlinked(store: Storage) -> None:
    await two_players(store)
    with pytest.raises(LinkRefused) as raised:
        await store.unlink("telegram", "1", "Ana", now=5.0)
    assert raised.value.reason is LinkRefusal.NOT_LINKED


async def test_the_terminal_cannot_link(store: Storage) -> None:
    await store.ensure_player("terminal", "local", "Yo", now=1.0)
    with pytest.raises(LinkRefused) as raised:
        await store.issue_link_code("terminal", "local", "EEE666", now=2.0)
    assert raised.value.reason is LinkRefusal.NOT_LINKABLE


async def wallets(store: Storage, users: list[str]) -> dict[int, int]:
    """Each distinct player of these users' identities -> balance."""
    found: dict[int, int] = {}
    for user in users:
        for platform in ("telegram", "discord"):
            player = await store.find_player(platform, user)
            assert player is not None
            found[player.id] = await store.balance(player.id)
    return found


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["link", "unlink", "play"]), st.integers(0, 2)),
        min_size=1,
        max_size=8,
    )
)
async def test_no_dollar_is_created_or_lost_through_links_and_unlinks(
    store: Storage, steps: list[tuple[str, int]]
) -> None:
    """A link or an unlink, done or refused, leaves the players' money as it was (summed
    over the distinct players: a merged player's wallet is in its survivor's, a fresh one
    holds 0), matches between them move money as always, and the ledger checks hold
    after every step."""
    example = next(EXAMPLES)
    users = [str(example * 10 + n) for n in range(3)]
    for user in users:
        await store.ensure_player("telegram", user, "T", now=1.0)
        await store.ensure_player("discord", user, "D", now=1.0)
    now = 2.0
    for action, n in steps:
        now += 1.0
        user = users[n]
        before = await wallets(store, users)
        if action == "link":
            code = f"L{example}X{now:.0f}"
            await store.issue_link_code("telegram", user, code, now=now)
            try:
                await store.redeem_link_code(code, "discord", user, now=now)
            except LinkRefused as refused:
                assert refused.reason is LinkRefusal.ALREADY_LINKED
        elif action == "unlink":
            try:
                await store.unlink("discord", user, "D", now=now)
            except LinkRefused as refused:
                assert refused.reason is LinkRefusal.NOT_LINKED
        else:  # a match of the players who can pay (a fresh one holds 0), the first paid
            players = sorted(pid for pid, balance in before.items() if balance >= 10)
            match = f"m{example}-{now:.0f}"
            await store.stake(match, players, 10, now=now)
            await store.settle(match, players[:1], now=now)
        after = await wallets(store, users)
        if action != "play":
            assert sum(after.values()) == sum(before.values())
        assert await store.check_ledger() == []


async def test_a_merge_carries_friends_requests_mutes_reports_and_bans_to_the_survivor(
    store: Storage,
) -> None:
    ana_t, ana_d = await two_players(store)
    beto = (await store.ensure_player("telegram", "2", "Beto", now=3.0)).id
    carla = (await store.ensure_player("discord", "3", "Carla", now=3.0)).id
    dani = (await store.ensure_player("discord", "4", "Dani", now=3.0)).id
    # both accounts are Beto's friends; only the Discord one is Carla's; Dani asked it
    for one, other in ((ana_t, beto), (ana_d, beto), (ana_d, carla)):
        await store.ask_friend(one, other, now=4.0)
        assert await store.answer_friend(other, one, accept=True, now=5.0)
    await store.ask_friend(dani, ana_d, now=6.0)
    await store.ask_friend(ana_t, ana_d, now=6.0)  # a request to oneself's other account
    await store.mute(ana_d, beto, now=7.0)
    await store.mute(ana_t, beto, now=7.0)
    report = await store.file_report(CHAT_D, carla, ana_d, "abusive_name", None, now=8.0)
    assert await store.ban(CHAT_D, ana_d, dani, now=9.0, report_id=report.id)
    await store.note_seen({ana_t: 11.0, ana_d: 15.0})
    await linked(store)
    assert [f.player_id for f in await store.friends_of(ana_t)] == sorted([beto, carla])
    assert [f.player_id for f in await store.friends_of(beto)] == [ana_t]
    assert [r.from_id for r in await store.friend_requests_to(ana_t)] == [dani]
    assert await store.muted_players(ana_t) == [beto]
    assert await store.banned_players(CHAT_D) == [ana_t]
    reported = await store.get_report(report.id)
    assert reported is not None and reported.reported_id == ana_t
    assert [f.seen_at for f in await store.friends_of(beto)] == [15.0]  # the later one
