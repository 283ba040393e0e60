"""The lobby (bot.core.lobby): who sits where before a match, and leaving a table."""

from __future__ import annotations

import pytest
from core_parts import ANA, BETO, CARLA, CHAT, DIEGO, build_parts, until_turn

from bot.core import (
    Challenge,
    ChatRef,
    CloseTable,
    DeclineChallenge,
    FillWithRobots,
    Leave,
    OpenTable,
    PlayerRef,
    PlayerSeated,
    PlayerUnseated,
    PlayNow,
    RobotSeat,
    SitAt,
    TableChanged,
    TableClosed,
)
from bot.core.events import Refused
from bot.core.vocabulary import CloseReason, DeadlineKind, Phase, RefusalReason


@pytest.fixture
def parts(memory_storage, clock):
    return build_parts(memory_storage, clock)


async def test_play_now_picks_the_waiting_table_with_the_fewest_free_seats(parts):
    lobby = parts.lobby
    three_free = await lobby.open_table(OpenTable(ANA, CHAT))
    two_free = await lobby.open_table(OpenTable(BETO, CHAT, right=RobotSeat()))
    reply = await lobby.play_now(PlayNow(CARLA, CHAT))
    assert reply.table_id == two_free.table_id
    assert reply.table_id != three_free.table_id
    assert reply.seat == 2
    assert parts.core.tables[two_free.table_id].free_seats() == 1


async def test_play_now_takes_a_seat_reserved_for_me_before_a_fuller_table(parts):
    lobby = parts.lobby
    reserved = await lobby.open_table(OpenTable(ANA, CHAT, across=CARLA))
    await lobby.open_table(OpenTable(BETO, CHAT, right=RobotSeat(), across=RobotSeat()))
    reply = await lobby.play_now(PlayNow(CARLA, CHAT))
    assert (reply.table_id, reply.seat) == (reserved.table_id, 2)
    assert parts.core.tables[reserved.table_id].seats[2].reserved_for is None


async def test_play_now_in_another_place_of_the_chat_opens_a_table_with_the_next_number(parts):
    lobby = parts.lobby
    first = await lobby.play_now(PlayNow(ANA, CHAT))
    elsewhere = await lobby.play_now(PlayNow(BETO, ChatRef("test", "group-1", thread_id="9")))
    same_place = await lobby.play_now(PlayNow(CARLA, CHAT))
    other_chat = await lobby.play_now(PlayNow(DIEGO, ChatRef("test", "group-2")))
    assert elsewhere.table_id != first.table_id
    assert (first.label, elsewhere.label, elsewhere.seat) == ("1", "2", 0)
    assert (same_place.table_id, same_place.seat) == (first.table_id, 1)
    assert other_chat.label == "1"


async def test_a_seat_reserved_for_someone_else_is_refused_and_nothing_changes(parts):
    table_id = (await parts.lobby.open_table(OpenTable(ANA, CHAT, across=CARLA))).table_id
    with pytest.raises(Refused) as refused:
        await parts.lobby.sit_at(SitAt(DIEGO, CHAT, table_id, 2))
    assert refused.value.reason is RefusalReason.SEAT_RESERVED
    assert parts.core.tables[table_id].seats[2].reserved_for == CARLA
    assert parts.core.tables[table_id].seats[2].player is None


async def test_a_player_already_seated_in_the_place_is_refused_with_their_table(parts):
    first = await parts.lobby.play_now(PlayNow(ANA, CHAT))
    with pytest.raises(Refused) as refused:
        await parts.lobby.open_table(OpenTable(ANA, CHAT))
    assert refused.value.reason is RefusalReason.ALREADY_SEATED
    assert refused.value.table_id == first.table_id
    assert refused.value.params == {"label": "1"}
    assert list(parts.core.tables) == [first.table_id]


async def test_one_table_at_a_time_per_chat_and_the_refusal_says_which_channel_or_topic(parts):
    # rules.md, "The house": a Discord server and a Telegram group alike.
    server = ChatRef("discord", "900", channel_id="901")
    other_channel = ChatRef("discord", "900", channel_id="902")
    group = ChatRef("telegram", "-100", thread_id="7")
    other_topic = ChatRef("telegram", "-100", thread_id="8")
    other_server = ChatRef("discord", "950", channel_id="951")
    for chat, elsewhere, where in (
        (server, other_channel, {"channel_id": "901"}),
        (group, other_topic, {"thread_id": "7"}),
    ):
        player = PlayerRef(chat.platform, "5", "Eva")
        first = await parts.lobby.play_now(PlayNow(player, chat))
        with pytest.raises(Refused) as refused:
            await parts.lobby.play_now(PlayNow(player, elsewhere))
        assert refused.value.reason is RefusalReason.ALREADY_SEATED
        assert refused.value.table_id == first.table_id
        assert refused.value.params == {"label": "1", "elsewhere": 1, **where}
        with pytest.raises(Refused) as refused:
            await parts.lobby.fill_now(FillWithRobots(player, elsewhere))
        assert refused.value.reason is RefusalReason.NO_TABLE
        assert parts.core.tables[first.table_id].free_seats() == 3
    # Another server is another chat: a second table there is hers to take.
    eva = PlayerRef("discord", "5", "Eva")
    assert (await parts.lobby.play_now(PlayNow(eva, other_server))).seat == 0


async def test_a_full_table_counts_down_and_a_leave_goes_back_to_waiting_for_the_fill(parts, clock):
    times = parts.core.times
    table_id = (
        await parts.lobby.open_table(
            OpenTable(ANA, CHAT, right=RobotSeat(), across=BETO, left=RobotSeat())
        )
    ).table_id
    table = parts.core.tables[table_id]
    assert (table.phase, table.deadline_kind) == (Phase.WAITING, DeadlineKind.FILL)
    assert table.deadline == table.created_at + times.fill_seconds
    await parts.lobby.sit_at(SitAt(BETO, CHAT, table_id))
    assert (table.phase, table.deadline_kind) == (Phase.COUNTDOWN, DeadlineKind.START)
    assert table.deadline == clock.now() + times.countdown_seconds
    await clock.advance(times.countdown_seconds - 1)
    await parts.lobby.leave(Leave(BETO, CHAT, table_id))
    assert (table.phase, table.deadline_kind) == (Phase.WAITING, DeadlineKind.FILL)
    assert table.deadline == table.created_at + times.fill_seconds
    await clock.advance(1)
    assert table.phase is Phase.WAITING
    assert table.match is None


async def test_leaving_before_the_start_is_free_and_the_last_leave_closes_the_table(
    parts, memory_storage
):
    table_id = (await parts.lobby.play_now(PlayNow(ANA, CHAT))).table_id
    ana = await parts.core.player_id(ANA)
    reply = await parts.lobby.leave(Leave(ANA, CHAT, table_id))
    assert (reply.table_id, reply.seat) == (table_id, 0)
    assert await memory_storage.balance(ana) == 1000
    assert table_id not in parts.core.tables
    assert parts.core.ended[table_id].started is False
    assert await memory_storage.load_tables() == []
    events = await parts.events()
    assert [type(e) for e in events.events if not isinstance(e, TableChanged)] == [
        PlayerSeated,
        PlayerUnseated,
        TableClosed,
    ]
    assert events.last(TableClosed).reason is CloseReason.EMPTY
    assert events.last(TableClosed).refunds == {}


async def test_the_fill_deadline_gives_the_free_seats_to_robots_and_counts_down(parts, clock):
    table_id = (await parts.lobby.play_now(PlayNow(ANA, CHAT))).table_id
    table = parts.core.tables[table_id]
    await clock.advance(parts.core.times.fill_seconds)
    assert [s.robot_level for s in table.seats] == [None, "aprendiz", "aprendiz", "aprendiz"]
    assert (table.phase, table.deadline_kind) == (Phase.COUNTDOWN, DeadlineKind.START)


# ---------------------------------------------------------------- an admin closing a table


async def live_match(parts, clock, *, partner=None):
    """Ana at seat 0 (Beto across when ``partner``), robots elsewhere; her turn on."""
    across = BETO if partner else RobotSeat()
    reply = await parts.lobby.open_table(
        OpenTable(ANA, CHAT, right=RobotSeat(), across=across, left=RobotSeat())
    )
    if partner:
        await parts.lobby.sit_at(SitAt(BETO, CHAT, reply.table_id))
    table = parts.core.tables[reply.table_id]
    await until_turn(parts, clock, table, 0)
    return table


async def test_an_admin_cannot_close_a_live_match_that_still_moves(parts, clock, memory_storage):
    """Issue 27, item 3: closing refunds every stake, so a match that is being played
    is no admin's to call off; the refusal names the table and the stuck time."""
    table = await live_match(parts, clock)
    await clock.advance(60)  # her turn times out, the robots play: the match moves
    with pytest.raises(Refused) as refused:
        await parts.lobby.close_table(CloseTable(CARLA, CHAT, is_admin=True))
    assert (refused.value.reason, refused.value.params) == (
        RefusalReason.NOT_STUCK,
        {"label": "1", "seconds": 600},
    )
    assert table.id in parts.core.tables and not table.closed
    assert await memory_storage.balance(table.seats[0].player_id) == 990


async def test_an_admin_closes_a_match_where_nothing_moved_for_the_stuck_time(
    parts, clock, memory_storage
):
    table = await live_match(parts, clock)
    parts.timers.freeze(table)  # its timer lost: nothing will move any more
    await clock.advance(parts.core.times.stuck_seconds - 1)
    with pytest.raises(Refused) as refused:
        await parts.lobby.close_table(CloseTable(CARLA, CHAT, is_admin=True))
    assert refused.value.reason is RefusalReason.NOT_STUCK
    await clock.advance(1)
    reply = await parts.lobby.close_table(CloseTable(CARLA, CHAT, is_admin=True))
    assert reply.table_id == table.id
    closed = (await parts.events()).last(TableClosed)
    assert (closed.reason, dict(closed.refunds)) == (
        CloseReason.BY_ADMIN,
        {table.seats[0].player_id: 10},
    )
    assert await memory_storage.check_ledger() == []


async def test_an_admin_who_plays_or_left_cannot_close_the_live_match_even_stuck(
    parts, clock, memory_storage
):
    """Issue 27, item 3: an admin sat, left and closed her own table to get her stake
    back; seated or gone from this match, she cannot close it while it is live."""
    table = await live_match(parts, clock, partner=True)
    ana, beto = table.seats[0].player_id, table.seats[2].player_id
    parts.timers.freeze(table)
    await clock.advance(parts.core.times.stuck_seconds)
    for admin in (BETO, ANA):
        with pytest.raises(Refused) as refused:
            await parts.lobby.close_table(CloseTable(admin, CHAT, is_admin=True))
        assert (refused.value.reason, refused.value.params) == (
            RefusalReason.ADMIN_PLAYS,
            {"label": "1"},
        )
    await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    parts.timers.freeze(table)
    await clock.advance(parts.core.times.stuck_seconds)
    with pytest.raises(Refused) as refused:
        await parts.lobby.close_table(CloseTable(ANA, CHAT, label="1", is_admin=True))
    assert refused.value.reason is RefusalReason.ADMIN_PLAYS
    assert (await memory_storage.balance(ana), await memory_storage.balance(beto)) == (990, 990)
    await parts.lobby.close_table(CloseTable(CARLA, CHAT, is_admin=True))
    # the stuck match is called off: Beto's stake comes back, Ana's stayed forfeited
    assert (await memory_storage.balance(ana), await memory_storage.balance(beto)) == (990, 1000)
    assert await memory_storage.check_ledger() == []


async def test_a_table_still_seating_closes_at_once_even_by_an_admin_seated_there(parts):
    table_id = (await parts.lobby.play_now(PlayNow(ANA, CHAT))).table_id
    reply = await parts.lobby.close_table(CloseTable(ANA, CHAT, is_admin=True))
    assert reply.table_id == table_id
    assert table_id not in parts.core.tables


async def test_a_challenge_keeps_its_seat_for_the_challenged_player_who_accepts_by_sitting(
    parts, clock, memory_storage
):
    reply = await parts.lobby.challenge(Challenge(ANA, CHAT, BETO))
    table = parts.core.tables[reply.table_id]
    assert (table.challenge, table.rules.players, table.rules.partnership) == (True, 2, False)
    assert [s.player for s in table.seats] == [ANA, None]
    assert table.seats[1].reserved_for == BETO
    changed = (await parts.events()).last(TableChanged)
    assert changed.challenge is True
    with pytest.raises(Refused) as taken:  # nobody else takes the kept seat
        await parts.lobby.sit_at(SitAt(CARLA, CHAT, table.id, 1))
    assert taken.value.reason is RefusalReason.SEAT_RESERVED
    with pytest.raises(Refused) as robots:  # nor a robot, by the challenger's button
        await parts.lobby.fill_now(FillWithRobots(ANA, CHAT, table.id))
    assert robots.value.reason is RefusalReason.CHALLENGE_WAITS
    with pytest.raises(Refused) as foreign:  # only the challenged may decline
        await parts.lobby.decline(DeclineChallenge(CARLA, CHAT, table.id))
    assert foreign.value.reason is RefusalReason.NOT_CHALLENGED
    assert table.id in parts.core.tables
    await parts.lobby.sit_at(SitAt(BETO, CHAT, table.id))  # accepted
    assert table.phase is Phase.COUNTDOWN
    assert (await parts.events()).last(TableChanged).challenge is False
    await clock.advance(parts.core.times.countdown_seconds)
    assert table.phase is Phase.PLAYING
    ana, beto = await parts.core.player_id(ANA), await parts.core.player_id(BETO)
    assert [await memory_storage.balance(p) for p in (ana, beto)] == [990, 990]


async def test_a_declined_challenge_closes_its_table_and_nobody_pays(parts, memory_storage):
    reply = await parts.lobby.challenge(Challenge(ANA, CHAT, BETO))
    declined = await parts.lobby.decline(DeclineChallenge(BETO, CHAT, reply.table_id))
    assert declined.table_id == reply.table_id
    assert reply.table_id not in parts.core.tables
    closed = (await parts.events()).last(TableClosed)
    assert (closed.reason, closed.refunds) == (CloseReason.DECLINED, {})
    assert await memory_storage.balance(await parts.core.player_id(ANA)) == 1000
    with pytest.raises(Refused) as again:  # a second press finds it gone
        await parts.lobby.decline(DeclineChallenge(BETO, CHAT, reply.table_id))
    assert again.value.reason is RefusalReason.TABLE_GONE


async def test_an_unanswered_challenge_expires_when_robots_would_have_filled_it(parts, clock):
    reply = await parts.lobby.challenge(Challenge(ANA, CHAT, BETO))
    table = parts.core.tables[reply.table_id]
    assert table.deadline_kind is DeadlineKind.FILL
    await clock.advance(parts.core.times.fill_seconds)
    assert reply.table_id not in parts.core.tables
    closed = (await parts.events()).last(TableClosed)
    assert closed.reason is CloseReason.EXPIRED
    assert all(seat.robot_level is None for seat in table.seats)


async def test_a_player_cannot_challenge_themselves(parts):
    with pytest.raises(Refused) as refused:
        await parts.lobby.challenge(Challenge(ANA, CHAT, ANA))
    assert refused.value.reason is RefusalReason.BAD_SEAT
    assert parts.core.tables == {}
