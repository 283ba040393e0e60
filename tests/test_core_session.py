"""A live match (bot.core.session): move presses, turns that time out, away and back,
emotes; driven part by part on a manual clock, never a whole match."""

from __future__ import annotations

import pytest
from core_parts import ANA, BETO, CHAT, build_parts, until_turn

from bot.core import (
    CloseReason,
    ComeBack,
    Emote,
    HandEnded,
    Leave,
    MovePlayed,
    OpenTable,
    PlayMove,
    PlayNow,
    RobotSeat,
    SeatAbandoned,
    SeatGivenBack,
    SeatTakenByRobot,
    ShowMyTiles,
    SitAt,
    TableClosed,
)
from bot.core.events import Refused
from bot.core.vocabulary import AwayReason, DeadlineKind, MovedBy, Phase, RefusalReason
from engine.records import replay, replay_summary
from storage.ratings import NEW_SKILL


@pytest.fixture
def parts(memory_storage, clock):
    return build_parts(memory_storage, clock, robot_delay=1.0, missed_turns_limit=3)


@pytest.fixture
def patient(memory_storage, clock):
    """Parts where a partner whose turns time out stays present (no missed-turns limit)."""
    return build_parts(memory_storage, clock, robot_delay=1.0, missed_turns_limit=1000)


async def start_with_robots(parts, clock):
    """Ana at seat 0 with three robots, the match started and her turn on."""
    reply = await parts.lobby.open_table(
        OpenTable(ANA, CHAT, right=RobotSeat(), across=RobotSeat(), left=RobotSeat())
    )
    table = parts.core.tables[reply.table_id]
    await until_turn(parts, clock, table, 0)
    return table


async def start_with_partner(parts, clock):
    """Ana at seat 0, Beto across, robots between, the match started and Ana's turn on."""
    reply = await parts.lobby.open_table(
        OpenTable(ANA, CHAT, right=RobotSeat(), across=BETO, left=RobotSeat())
    )
    await parts.lobby.sit_at(SitAt(BETO, CHAT, reply.table_id))
    table = parts.core.tables[reply.table_id]
    await until_turn(parts, clock, table, 0)
    return table


async def until_ana_has(parts, clock, table, wanted) -> None:
    """Play Ana's turns (her first legal move) until one where ``wanted(legal moves)``."""
    for _turn in range(200):
        await until_turn(parts, clock, table, 0)
        if wanted(table.match.hand.legal_moves()):
            return
        await parts.session.play_move(ana_move(table))
    raise AssertionError("no such turn in 200 of Ana's turns")


def a_choice(moves) -> bool:
    return len(moves) > 1


def only_a_pass(moves) -> bool:
    return len(moves) == 1 and moves[0].tile is None


def ana_move(table) -> PlayMove:
    code = table.match.hand.legal_moves()[0].code()
    return PlayMove(ANA, table.id, table.hand_number, table.move_number, code)


async def test_a_move_press_is_played_and_a_repeated_press_is_refused_stale(parts, clock):
    table = await start_with_robots(parts, clock)
    press = ana_move(table)
    reply = await parts.session.play_move(press)
    assert (reply.table_id, reply.seat) == (table.id, 0)
    after, snapshot = table.match, table.snapshot()
    with pytest.raises(Refused) as refused:
        await parts.session.play_move(press)
    assert refused.value.reason is RefusalReason.STALE
    assert table.match is after
    assert table.snapshot() == snapshot
    played = (await parts.events()).of(MovePlayed, seat=0)
    assert [(e.by, e.move_number) for e in played] == [(MovedBy.PLAYER, press.move_number)]


async def test_a_press_for_another_hand_is_stale_and_changes_nothing(parts, clock):
    table = await start_with_robots(parts, clock)
    press = ana_move(table)
    before, snapshot = table.match, table.snapshot()
    with pytest.raises(Refused) as refused:
        await parts.session.play_move(
            PlayMove(ANA, table.id, press.hand_number + 1, press.move_number, press.code)
        )
    assert refused.value.reason is RefusalReason.STALE
    assert table.match is before
    assert table.snapshot() == snapshot


async def test_a_press_that_is_not_a_move_code_is_forged(parts, clock):
    table = await start_with_robots(parts, clock)
    press = ana_move(table)
    with pytest.raises(Refused) as refused:
        await parts.session.play_move(
            PlayMove(ANA, table.id, press.hand_number, press.move_number, "zz")
        )
    assert refused.value.reason is RefusalReason.FORGED


async def test_a_move_press_before_the_start_is_refused_not_started(parts):
    table_id = (await parts.lobby.play_now(PlayNow(ANA, CHAT))).table_id
    with pytest.raises(Refused) as refused:
        await parts.session.play_move(PlayMove(ANA, table_id, 0, 0, "p"))
    assert refused.value.reason is RefusalReason.NOT_STARTED


async def test_a_turn_that_times_out_is_played_by_a_robot_and_counts_as_a_miss(parts, clock):
    table = await start_with_robots(parts, clock)
    await until_ana_has(parts, clock, table, a_choice)
    number = table.move_number
    await clock.advance(table.rules.turn_seconds)
    events = await parts.events()
    timed_out = events.last(MovePlayed, seat=0)
    assert (timed_out.by, timed_out.move_number) == (MovedBy.TIMEOUT, number)
    assert table.seats[0].missed == 1
    assert table.seats[0].away is False
    assert events.of(SeatTakenByRobot) == []


async def test_a_move_in_time_clears_the_missed_turns(parts, clock):
    table = await start_with_robots(parts, clock)
    table.seats[0].missed = 2
    await parts.session.play_move(ana_move(table))
    assert table.seats[0].missed == 0


async def test_a_forced_pass_that_times_out_is_not_a_missed_turn(parts, clock):
    """Issue 27, item 5: no tile fits, so the pass asks nothing of the player; with two
    misses already, it neither hands the seat to a robot nor clears the count."""
    table = await start_with_robots(parts, clock)
    await until_ana_has(parts, clock, table, only_a_pass)
    table.seats[0].missed = 2
    number = table.move_number
    await clock.advance(table.rules.turn_seconds)
    events = await parts.events()
    passed = events.last(MovePlayed, seat=0)
    assert (passed.by, passed.move_number, passed.move.tile) == (MovedBy.TIMEOUT, number, None)
    assert (table.seats[0].missed, table.seats[0].away) == (2, False)
    assert events.of(SeatTakenByRobot) == []


async def test_the_third_miss_hands_the_seat_to_a_robot_until_back_by(parts, clock):
    table = await start_with_robots(parts, clock)
    await until_ana_has(parts, clock, table, a_choice)
    table.seats[0].missed = 2
    await clock.advance(table.rules.turn_seconds)
    back_by = clock.now() + parts.core.times.return_seconds
    state = table.seats[0]
    assert (state.away, state.back_by, state.missed) == (True, back_by, 3)
    taken = (await parts.events()).last(SeatTakenByRobot)
    assert (taken.seat, taken.player, taken.reason) == (0, ANA, AwayReason.MISSED_TURNS)
    assert taken.back_by == back_by
    assert parts.core.tables[table.id].seats[0].player == ANA
    assert set(table.away_timers) == {0}


async def miss_out(parts, clock, table) -> None:
    """Ana misses her last allowed turn: a robot takes her seat (as a lost connection)."""
    await until_ana_has(parts, clock, table, a_choice)
    table.seats[0].missed = parts.core.times.missed_turns_limit - 1
    await clock.advance(table.rules.turn_seconds)
    assert table.seats[0].away is True


async def test_coming_back_in_time_gives_the_seat_back_with_a_fresh_count(patient, clock):
    parts = patient
    table = await start_with_partner(parts, clock)
    await miss_out(parts, clock, table)
    await clock.advance(parts.core.times.return_seconds - 1)
    reply = await parts.session.come_back(ComeBack(ANA, CHAT, table.id))
    assert reply.seat == 0
    assert (table.seats[0].away, table.seats[0].back_by, table.seats[0].missed) == (False, None, 0)
    assert 0 not in table.away_timers
    assert table.seats[2].away is False
    given = (await parts.events()).last(SeatGivenBack)
    assert (given.seat, given.player) == (0, ANA)


async def test_coming_back_after_back_by_is_refused_too_late(patient, clock):
    parts = patient
    table = await start_with_partner(parts, clock)
    await miss_out(parts, clock, table)
    await clock.advance(parts.core.times.return_seconds + 1)
    assert table.phase is Phase.PLAYING
    assert table.seats[0].forfeited is True
    with pytest.raises(Refused) as refused:
        await parts.session.come_back(ComeBack(ANA, CHAT, table.id))
    assert (refused.value.reason, refused.value.params) == (
        RefusalReason.TOO_LATE,
        {"seconds": round(parts.core.times.return_seconds)},
    )
    assert table.seats[0].away is True


async def test_leaving_a_started_match_forfeits_the_stake_at_once_and_closes_the_seat(
    patient, clock, memory_storage
):
    """Issue 27, item 2: leaving on purpose is abandoning: the stake goes to the house
    now (not after 5 minutes), the robot plays on and the seat is not given back."""
    parts = patient
    table = await start_with_partner(parts, clock)
    ana = table.seats[0].player_id
    reply = await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    assert (reply.seat, reply.forfeited) == (0, 10)
    (escrow,) = await memory_storage.open_escrows()
    assert escrow.holders[ana] == "forfeited"  # the ledger's forfeit, at this moment
    assert await memory_storage.balance(ana) == 990
    abandoned = (await parts.events()).last(SeatAbandoned)
    assert (abandoned.seat, abandoned.player, abandoned.reason, abandoned.stake) == (
        0,
        ANA,
        AwayReason.LEFT,
        10,
    )
    state = table.seats[0]
    assert (state.forfeited, state.left, state.away, state.back_by) == (True, True, True, None)
    assert table.away_timers == {}
    for command in (ComeBack(ANA, CHAT, table.id), ComeBack(ANA, CHAT)):
        with pytest.raises(Refused) as refused:
            await parts.session.come_back(command)
        assert (refused.value.reason, refused.value.params) == (
            RefusalReason.LEFT_MATCH,
            {"stake": 10},
        )
    assert table.seats[0].away is True
    assert table.phase is Phase.PLAYING  # Beto plays on with a robot for a partner
    assert await memory_storage.check_ledger() == []
    assert (reply.match_ended, abandoned.last) == (False, False)


async def test_the_last_human_leaving_ends_the_match_and_is_told_so(parts, clock, memory_storage):
    table = await start_with_robots(parts, clock)
    reply = await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    assert (reply.forfeited, reply.match_ended) == (10, True)
    events = await parts.events()
    assert events.last(SeatAbandoned).last is True
    assert events.last(TableClosed).reason is CloseReason.NO_HUMANS
    assert table.closed is True
    assert await memory_storage.check_ledger() == []


async def test_a_lone_human_leaving_a_started_match_has_it_recorded_as_a_loss_and_rated_down(
    parts, clock, memory_storage
):
    """Issue 27 follow-up: leaving never protects a rating. Ana alone with three robots
    plays one move, then leaves: the match ends there, stored as played so far and marked
    abandoned by her seat, lost by her team in her statistics and her rating."""
    table = await start_with_robots(parts, clock)
    ana = table.seats[0].player_id
    await parts.session.play_move(ana_move(table))
    await until_turn(parts, clock, table, 0)
    played = table.match
    assert await memory_storage.player_rating(ana) is None  # new: shown as 1,000
    await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    (stored,) = await memory_storage.match_records(player_id=ana)
    assert stored.match_id == table.id
    assert (stored.record["abandoned_by"], stored.record["winner_team"]) == (0, 1)
    assert stored.record["score"] == list(played.score)
    assert stored.record["seats"][0] == {"player": ana, "moves": 1, "robot_moves": 0}
    summary = replay_summary(replay(stored.record))
    assert (summary["finished"], summary["hands"][-1]["end"]) == (False, "unfinished")
    stats = await memory_storage.player_stats(ana)
    assert (stats.matches_played, stats.matches_won) == (1, 0)
    rating = await memory_storage.player_rating(ana)
    assert (rating.matches, rating.wins) == (1, 0)
    assert rating.mu < NEW_SKILL.mu
    assert rating.display < NEW_SKILL.display == 1000
    assert await memory_storage.balance(ana) == 990  # her stake, and nothing more
    assert await memory_storage.check_ledger() == []


async def test_leaving_on_my_turn_hands_it_to_the_robot_at_once(parts, clock):
    table = await start_with_partner(parts, clock)
    await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    assert table.deadline_kind is DeadlineKind.ROBOT
    await clock.advance(parts.core.times.robot_delay)
    assert (await parts.events()).last(MovePlayed, seat=0).by is MovedBy.ROBOT


async def test_coming_back_while_present_is_refused_not_away(parts, clock):
    table = await start_with_robots(parts, clock)
    with pytest.raises(Refused) as refused:
        await parts.session.come_back(ComeBack(ANA, CHAT, table.id))
    assert refused.value.reason is RefusalReason.NOT_AWAY


async def test_an_emote_too_soon_is_refused_with_the_seconds_to_wait(parts, clock):
    table_id = (await parts.lobby.play_now(PlayNow(ANA, CHAT))).table_id
    assert (await parts.session.emote(Emote(ANA, "hola", CHAT, table_id))).seat == 0
    await clock.advance(1.5)
    with pytest.raises(Refused) as refused:
        await parts.session.emote(Emote(ANA, "buena", CHAT, table_id))
    assert refused.value.reason is RefusalReason.EMOTE_TOO_SOON
    assert refused.value.params == {"wait_seconds": 4}
    await clock.advance(3.5)
    assert (await parts.session.emote(Emote(ANA, "buena", CHAT, table_id))).ok


async def test_an_unknown_emote_is_refused_with_the_emotes(parts):
    await parts.lobby.play_now(PlayNow(ANA, CHAT))
    with pytest.raises(Refused) as refused:
        await parts.session.emote(Emote(ANA, "insult", CHAT))
    assert refused.value.reason is RefusalReason.UNKNOWN_EMOTE
    assert str(refused.value.params["emotes"]).split(", ")[0] == "buena"


async def test_my_tiles_come_in_the_reply_only_and_only_mine(parts, clock):
    table = await start_with_robots(parts, clock)
    parts.port.clear()
    reply = await parts.session.show_tiles(ShowMyTiles(ANA, CHAT, table.id))
    (tiles,) = reply.events
    assert tiles.to == ANA and tiles.seat == 0 and tiles.is_your_turn is True
    assert tiles.view.tiles == table.match.hand.tiles(0)
    assert tiles.deadline == table.deadline
    assert table.deadline_kind is DeadlineKind.TURN
    assert (await parts.events()).events == []


async def test_a_hands_end_shows_every_seats_tiles_left(parts, clock):
    table = await start_with_robots(parts, clock)
    hand_number = table.hand_number
    for _turn in range(200):
        if table.hand_number != hand_number or table.match.hand.is_over:
            break
        await until_ana_has(parts, clock, table, lambda moves: True)
        if table.hand_number != hand_number:
            break
        await parts.session.play_move(ana_move(table))
    events = await parts.events()
    [ended] = [e for e in events.of(HandEnded) if e.hand_number == hand_number]
    last = ended.view
    assert len(ended.hands) == 4
    assert [sum(t.pips for t in tiles) for tiles in ended.hands] == list(ended.outcome.pips_left)
    assert [len(tiles) for tiles in ended.hands] == list(last.tile_counts)
    dealt = set(replay_record_deal(table, hand_number))
    on_line = {p.tile for p in last.line}
    left = {t for tiles in ended.hands for t in tiles}
    assert left | on_line == dealt and not left & on_line  # every tile once


def replay_record_deal(table, hand_number):
    """Every tile dealt in hand ``hand_number`` of ``table``'s match (its four hands)."""
    return [t for seat in table.match.hands[hand_number - 1].deal for t in seat]
