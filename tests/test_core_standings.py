"""Rankings, profiles and seasons as the core decides them (bot/core/standings.py;
issue 14; docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from conftest import RecordingPort
from test_manager import ANA, CHAT, run_table, seat_with_robots

from bot.core import ChatRef, PlayerRef, Ranking, SeasonEnded
from bot.core.events import MatchEnded
from storage.base import Storage
from storage.ratings import ALL_CHATS, SeasonPeriod, season_key

DAY = 24 * 60 * 60.0
DECEMBER = 1_796_083_200.0  # 2026-12-01 00:00 UTC


def seats(*players: int | str) -> list[dict[str, Any]]:
    return [
        {"player": p, "moves": 20, "robot_moves": 0} if isinstance(p, int) else {"robot": p}
        for p in players
    ]


async def record(
    storage: Storage, match_id: str, players: list[int | str], winner: int, *, at: float
) -> None:
    from storage.base import PlayerResult

    results = [
        PlayerResult(p, i % 2, i % 2 == winner) for i, p in enumerate(players) if isinstance(p, int)
    ]
    score = [100, 30] if winner == 0 else [30, 100]
    body = {"rules": "venezolano", "hands": [], "seats": seats(*players), "score": score}
    await storage.record_match(match_id, CHAT.key, body, results, now=at)


async def test_a_finished_match_records_its_seats_and_rates_the_human(
    make_manager, clock, recorder: RecordingPort, memory_storage
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    seats_kept = ended.record["seats"]
    assert [("player" in s, s.get("robot")) for s in seats_kept] == [
        (True, None),
        (False, "aprendiz"),
        (False, "aprendiz"),
        (False, "aprendiz"),
    ]
    assert seats_kept[0]["robot_moves"] == 0 and seats_kept[0]["moves"] > 0
    assert ended.record["score"] == list(ended.score)
    assert ended.record["winner_team"] == ended.winner_team
    rating = await memory_storage.player_rating(await manager.player_id(ANA))
    assert rating is not None and (rating.matches, rating.wins) == (1, int(ended.winner_team == 0))
    standings = await manager.standings(Ranking.RATING, CHAT, asker=ANA)
    assert [r.display_name for r in standings.rows] == ["Ana"]
    assert standings.asker == await manager.player_id(ANA)


async def test_a_player_who_stops_answering_is_counted_as_played_by_the_robot(
    make_manager, clock, recorder: RecordingPort, memory_storage
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    bea = PlayerRef("test", "9", "Bea")
    other = await seat_with_robots(manager, clock, player=bea, chat=ChatRef("test", "group-2"))
    await run_table(manager, clock, other, [bea])  # Ana's turns run out meanwhile
    await run_table(manager, clock, table_id, [])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    mine = ended.record["seats"][0]
    assert mine["robot_moves"] == mine["moves"] > 0


async def test_each_list_reads_its_own_table(make_manager, clock, memory_storage):
    manager = make_manager()
    ids = [
        await manager.player_id(PlayerRef("test", str(n), name))
        for n, name in enumerate(["Ana", "Beto", "Carla", "Diego"], 1)
    ]
    a, b, c, d = ids
    for n in range(3):
        await record(memory_storage, f"m{n}", [a, b, c, d], 0, at=clock.now() + n)
    rating = await manager.standings(Ranking.RATING, CHAT)
    assert [r.player_id for r in rating.rows] == [a, c, b, d]
    season = await manager.standings(Ranking.SEASON, CHAT)
    assert season.season == season_key(SeasonPeriod.MONTHLY, clock.now())
    assert [r.player_id for r in season.rows] == [a, c, b, d]
    global_season = await manager.standings(Ranking.SEASON, None)
    assert [r.matches for r in global_season.rows] == [3, 3, 3, 3]
    pairs = await manager.standings(Ranking.PAIRS, CHAT)
    assert [(p.player_ids, p.wins) for p in pairs.pairs] == [((a, c), 3), ((b, d), 0)]
    assert pairs.rows == ()
    balance = await manager.standings(Ranking.BALANCE, CHAT)
    assert {r.player_id for r in balance.rows} == {a, b, c, d}
    assert (await manager.standings(Ranking.RATING, ChatRef("test", "elsewhere"))).empty


async def test_a_profile_names_the_best_and_worst_partner_after_three_matches(
    make_manager, clock, memory_storage
):
    manager = make_manager()
    a, b, c, d, e = [
        await manager.player_id(PlayerRef("test", str(n), f"P{n}")) for n in range(1, 6)
    ]
    at = clock.now()
    for n in range(3):
        await record(memory_storage, f"good{n}", [a, b, c, d], 0, at=at + n)
    for n in range(3):
        await record(memory_storage, f"bad{n}", [a, b, e, d], n // 2, at=at + 10 + n)
    await record(memory_storage, "once", [a, e, d, b], 1, at=at + 20)
    profile = await manager.profile(a, CHAT)
    assert profile.name == "P1"
    assert profile.best_partner is not None and profile.best_partner.player_id == c
    assert profile.worst_partner is not None and profile.worst_partner.player_id == e
    assert (profile.worst_partner.matches, profile.worst_partner.wins) == (3, 2)
    assert [r.player_id for r in profile.rivals] == [b, d]
    assert profile.record.streak == -2  # lost bad2, then once
    assert len(profile.history) == 7
    assert profile.rating is not None and profile.rating.matches == 7
    assert profile.season is not None and profile.season.matches == 7
    assert profile.stats.matches_played == 7 and profile.balance == 1000


async def test_a_profile_with_one_partner_names_no_worst_partner(
    make_manager, clock, memory_storage
):
    manager = make_manager()
    a, b, c, d = [await manager.player_id(PlayerRef("test", str(n), f"P{n}")) for n in range(4)]
    for n in range(3):
        await record(memory_storage, f"m{n}", [a, b, c, d], 0, at=clock.now() + n)
    profile = await manager.profile(PlayerRef("test", "0", "P0"), CHAT)
    assert profile.best_partner is not None and profile.best_partner.player_id == c
    assert profile.worst_partner is None


async def test_a_profile_of_a_newcomer_is_empty_but_whole(make_manager):
    manager = make_manager()
    profile = await manager.profile(ANA, None)
    assert (profile.name, profile.rating, profile.season, profile.history) == (
        "Ana",
        None,
        None,
        (),
    )
    assert profile.best_partner is None and profile.rivals == ()


async def test_an_ended_season_is_announced_once_to_the_chat_it_was_played_in(
    memory_storage, recorder: RecordingPort
):
    from bot.core import TableManager
    from bot.core.clock import ManualClock

    clock = ManualClock(DECEMBER - 2 * DAY)
    manager = TableManager(memory_storage, clock=clock, seed=1, robot_delay=0.0)
    manager.register("*", recorder)
    await manager.start(platforms={"test"})
    ids = [await manager.player_id(PlayerRef("test", str(n), f"P{n}")) for n in range(4)]
    await record(memory_storage, "nov", ids, 0, at=clock.now())
    await memory_storage.record_match("elsewhere", "other:1", {"hands": []}, [], now=clock.now())
    assert await manager.announce_season_finals() == 0
    await clock.advance(2 * DAY + 60)  # the heartbeat runs past midnight UTC
    await manager.idle()
    [ended] = recorder.of(SeasonEnded)
    assert (ended.chat.key, ended.season, ended.next_season) == (CHAT.key, "2026-11", "2026-12")
    assert [r.player_id for r in ended.rows] == [ids[0], ids[2], ids[1], ids[3]]
    assert await manager.announce_season_finals() == 0
    await clock.advance(60)
    await manager.idle()
    assert len(recorder.of(SeasonEnded)) == 1
    assert await memory_storage.due_season_finals(clock.now()) == []
    assert await memory_storage.seasons(ALL_CHATS) == ["2026-11"]
    await manager.stop()


async def test_an_admin_chooses_the_chats_season_length(make_manager, clock, memory_storage):
    manager = make_manager()
    await manager.set_season_period(CHAT, SeasonPeriod.QUARTERLY, ANA)
    assert await memory_storage.season_period(CHAT.key) is SeasonPeriod.QUARTERLY
    standings = await manager.standings(Ranking.SEASON, CHAT)
    assert standings.season == season_key(SeasonPeriod.QUARTERLY, clock.now())


async def test_a_formats_matches_are_listed_and_profiled_in_that_formats_list_only(
    make_manager, clock, recorder: RecordingPort
):
    from bot.core import OpenTable, RobotSeat

    manager = make_manager()
    reply = await manager.handle(
        OpenTable(ANA, CHAT, preset="uno-contra-uno", right=RobotSeat(), formats=True)
    )
    await run_table(manager, clock, reply.table_id, [ANA])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=reply.table_id)
    one = await manager.standings(Ranking.RATING, CHAT, asker=ANA, format="uno-contra-uno")
    assert [r.display_name for r in one.rows] == ["Ana"] and one.format == "uno-contra-uno"
    assert (await manager.standings(Ranking.RATING, CHAT)).rows == ()  # today's game
    season = await manager.standings(Ranking.SEASON, CHAT, format="uno-contra-uno")
    assert [r.display_name for r in season.rows] == ["Ana"]
    profile = await manager.profile(ANA, CHAT, "uno-contra-uno")
    assert profile.rating is not None and profile.format == "uno-contra-uno"
    assert (profile.rating.matches, profile.rating.wins) == (1, int(ended.winner_team == 0))
    assert len(profile.history) == 1
    today = await manager.profile(ANA, CHAT)
    assert (today.rating, today.history, today.format) == (None, (), "")
