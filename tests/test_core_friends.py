"""Friends run by the core (bot/core/friends.py, issue 33): a request told privately, its
answer by command or button, removing a friend, where friends are now, and an
invitation keeping a seat for 2 minutes; bad input refused with nothing changed."""

from __future__ import annotations

from collections.abc import Callable

from conftest import RecordingPort

from bot.core import (
    AnswerFriend,
    AskFriend,
    ChatRef,
    FriendAction,
    FriendNews,
    FriendPress,
    FriendUpdate,
    InviteFriend,
    Leave,
    OpenTable,
    PlayerRef,
    PlayNow,
    Presence,
    RefusalReason,
    RemoveFriend,
    Reply,
    TableManager,
    encode_friend,
)
from bot.core.clock import ManualClock

CHAT = ChatRef("test", "-100")
ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
CARLA = PlayerRef("test", "3", "Carla")
NOBODY = PlayerRef("test", "99", "Nadie")


def _refused(reply: Reply) -> RefusalReason | None:
    return reply.refusal.reason if reply.refusal is not None else None


async def _known(manager: TableManager, *players: PlayerRef) -> list[int]:
    return [await manager.player_id(p) for p in players]


async def _friends(manager: TableManager, first: PlayerRef, second: PlayerRef) -> None:
    assert (await manager.handle(AskFriend(first, second))).friend is FriendNews.REQUESTED
    assert (await manager.handle(AnswerFriend(second, True, friend=first))).ok


async def test_a_request_is_told_privately_and_accepted_with_its_button(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    ana, beto = await _known(manager, ANA, BETO)
    asked = await manager.handle(AskFriend(ANA, BETO))
    assert (asked.friend, asked.label) == (FriendNews.REQUESTED, "Beto")
    await manager.idle()
    (told,) = recorder.of(FriendUpdate)
    assert (told.to, told.news, told.friend, told.friend_id) == (
        BETO,
        FriendNews.REQUESTED,
        "Ana",
        ana,
    )
    assert told.chat == ChatRef("test", "")
    pressed = await manager.handle(FriendPress(BETO, encode_friend(FriendAction.ACCEPT, ana)))
    assert (pressed.friend, pressed.label) == (FriendNews.ACCEPTED, "Ana")
    await manager.idle()
    accepted = recorder.of(FriendUpdate, news=FriendNews.ACCEPTED)
    assert [(e.to.key, e.friend, e.friend_id) for e in accepted] == [(ANA.key, "Beto", beto)]
    assert [f.name for f in (await manager.friends(ANA)).friends] == ["Beto"]
    assert [f.name for f in (await manager.friends(BETO)).friends] == ["Ana"]


async def test_a_stale_a_foreign_and_a_forged_request_button_change_nothing(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    ana, _, _ = await _known(manager, ANA, BETO, CARLA)
    await manager.handle(AskFriend(ANA, BETO))
    accept = encode_friend(FriendAction.ACCEPT, ana)
    foreign = await manager.handle(FriendPress(CARLA, accept))
    assert _refused(foreign) is RefusalReason.NO_FRIEND_REQUEST
    assert foreign.refusal is not None and foreign.refusal.params == {"name": "Ana"}
    assert _refused(await manager.handle(FriendPress(BETO, "dmf:a:x1"))) is RefusalReason.FORGED
    assert _refused(await manager.handle(FriendPress(BETO, "dmf:q:1"))) is RefusalReason.FORGED
    assert (await manager.friends(CARLA)).friends == ()
    assert (await manager.friends(BETO)).requests == ("Ana",)
    declined = await manager.handle(FriendPress(BETO, encode_friend(FriendAction.DECLINE, ana)))
    assert declined.ok and declined.friend is None
    stale = await manager.handle(FriendPress(BETO, accept))
    assert _refused(stale) is RefusalReason.NO_FRIEND_REQUEST
    assert (await manager.friends(BETO)).friends == ()


async def test_bad_requests_are_refused_with_the_friends_name(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    await _known(manager, ANA, BETO)
    assert _refused(await manager.handle(AskFriend(ANA, ANA))) is RefusalReason.FRIEND_SELF
    unknown = await manager.handle(AskFriend(ANA, NOBODY))
    assert _refused(unknown) is RefusalReason.FRIEND_UNKNOWN
    assert unknown.refusal is not None and unknown.refusal.params == {"name": "Nadie"}
    await manager.handle(AskFriend(ANA, BETO))
    twice = await manager.handle(AskFriend(ANA, BETO))
    assert _refused(twice) is RefusalReason.FRIEND_REQUEST_WAITS
    mutual = await manager.handle(AskFriend(BETO, ANA))  # Ana asked first: friends now
    assert mutual.friend is FriendNews.ACCEPTED
    again = await manager.handle(AskFriend(ANA, BETO))
    assert _refused(again) is RefusalReason.ALREADY_FRIENDS
    nothing = await manager.handle(AnswerFriend(ANA, True, friend=BETO))
    assert _refused(nothing) is RefusalReason.NO_FRIEND_REQUEST


async def test_removing_a_friend_ends_it_for_both_and_twice_is_refused(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    await _known(manager, ANA, BETO)
    await _friends(manager, ANA, BETO)
    assert (await manager.handle(RemoveFriend(BETO, ANA))).label == "Ana"
    assert (await manager.friends(ANA)).friends == ()
    again = await manager.handle(RemoveFriend(BETO, ANA))
    assert _refused(again) is RefusalReason.NOT_FRIENDS


async def test_friends_are_listed_at_their_table_first_then_by_when_they_were_seen(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager()
    await _known(manager, ANA, BETO, CARLA)
    await _friends(manager, ANA, BETO)
    await _friends(manager, ANA, CARLA)
    await manager.handle(PlayNow(CARLA, CHAT))
    await clock.advance(30)
    assert (await manager.handle(Leave(CARLA, CHAT))).ok  # the table closes: seen now
    await manager.idle()
    await clock.advance(60)
    seated = await manager.handle(PlayNow(BETO, CHAT))
    view = await manager.friends(ANA)
    assert [(f.name, f.presence, f.table_id, f.label) for f in view.friends] == [
        ("Beto", Presence.TABLE, seated.table_id, seated.label),
        ("Carla", Presence.SEEN, "", ""),
    ]
    (_, carla) = view.friends
    assert carla.seen_at == clock.now() - 60
    assert view.friends[0].chat == CHAT
    assert view.now == clock.now()


async def test_an_invitation_keeps_a_seat_that_its_friend_takes_with_the_button(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    ana, _ = await _known(manager, ANA, BETO)
    await _friends(manager, ANA, BETO)
    opened = await manager.handle(OpenTable(ANA, CHAT))
    invited = await manager.handle(InviteFriend(ANA, BETO, CHAT))
    assert (invited.friend, invited.label, invited.seat) == (FriendNews.INVITED, "Beto", 2)
    state = manager.table_state(opened.table_id or "")
    assert state is not None and state.seats[2].reserved_for == BETO
    await manager.idle()
    (told,) = recorder.of(FriendUpdate, news=FriendNews.INVITED)
    assert (told.to, told.friend, told.friend_id, told.label, told.seconds) == (
        BETO,
        "Ana",
        ana,
        opened.label,
        120,
    )
    assert (told.table_id, told.chat) == (opened.table_id, CHAT)
    again = await manager.handle(InviteFriend(ANA, BETO, CHAT))
    assert _refused(again) is RefusalReason.INVITE_WAITS
    sit = encode_friend(FriendAction.SIT, told.invite)
    foreign = await manager.handle(FriendPress(ANA, sit))
    assert _refused(foreign) is RefusalReason.INVITE_NOT_YOURS
    seated = await manager.handle(FriendPress(BETO, sit))
    assert (seated.table_id, seated.seat) == (opened.table_id, 2)
    state = manager.table_state(opened.table_id or "")
    assert state is not None and state.seats[2].player == BETO
    stale = await manager.handle(FriendPress(BETO, sit))
    assert _refused(stale) is RefusalReason.INVITE_GONE


async def test_an_invitation_nobody_took_frees_its_seat_after_two_minutes(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> None:
    manager = make_manager(fill_seconds=600.0)
    await _known(manager, ANA, BETO)
    await _friends(manager, ANA, BETO)
    opened = await manager.handle(OpenTable(ANA, CHAT))
    await manager.handle(InviteFriend(ANA, BETO, CHAT))
    await manager.idle()
    (told,) = recorder.of(FriendUpdate, news=FriendNews.INVITED)
    await clock.advance(119)
    state = manager.table_state(opened.table_id or "")
    assert state is not None and state.seats[2].reserved_for == BETO
    await clock.advance(1)
    state = manager.table_state(opened.table_id or "")
    assert state is not None and state.seats[2].reserved_for is None
    late = await manager.handle(FriendPress(BETO, encode_friend(FriendAction.SIT, told.invite)))
    assert _refused(late) is RefusalReason.INVITE_EXPIRED
    assert late.refusal is not None and late.refusal.params == {"seconds": 120}
    assert manager.tables_of(BETO) == []


async def test_inviting_someone_who_is_not_a_friend_or_to_a_full_table_is_refused(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    await _known(manager, ANA, BETO, CARLA)
    no_table = await manager.handle(InviteFriend(ANA, BETO, CHAT))
    assert _refused(no_table) is RefusalReason.NOT_FRIENDS
    await _friends(manager, ANA, BETO)
    assert _refused(await manager.handle(InviteFriend(ANA, BETO, CHAT))) is RefusalReason.NO_TABLE
    full = await manager.handle(OpenTable(ANA, CHAT, preset="uno-contra-uno", formats=True))
    await manager.handle(PlayNow(CARLA, CHAT, format="uno-contra-uno"))
    refused = await manager.handle(InviteFriend(ANA, BETO, CHAT))
    assert _refused(refused) is RefusalReason.TABLE_FULL
    assert refused.refusal is not None and refused.refusal.table_id == full.table_id
    assert _refused(await manager.handle(InviteFriend(ANA, NOBODY, CHAT))) is (
        RefusalReason.FRIEND_UNKNOWN
    )


async def test_a_friend_who_never_played_on_the_tables_platform_cannot_be_invited(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    elsewhere = PlayerRef("other", "7", "Eva")
    await _known(manager, ANA, elsewhere)
    await _friends(manager, ANA, elsewhere)
    await manager.handle(OpenTable(ANA, CHAT))
    refused = await manager.handle(InviteFriend(ANA, elsewhere, CHAT))
    assert _refused(refused) is RefusalReason.FRIEND_ELSEWHERE
    assert refused.refusal is not None and refused.refusal.params == {"name": "Eva"}


async def test_an_accepted_request_reaches_the_asker_on_the_platform_they_play_on(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    elsewhere = PlayerRef("other", "7", "Eva")
    eva, _ = await _known(manager, elsewhere, BETO)
    await manager.handle(AskFriend(elsewhere, BETO))
    assert (await manager.handle(AnswerFriend(BETO, True, friend_id=eva))).ok
    await manager.idle()
    (told,) = recorder.of(FriendUpdate, news=FriendNews.ACCEPTED)
    assert (told.to.key, told.chat) == (elsewhere.key, ChatRef("other", ""))


async def _invited_then_restarted(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> tuple[TableManager, str, str]:
    """Ana invites Beto; a minute of the invitation's two goes by; the bot stops for five
    minutes and starts again. The restarted manager, the table's id, the invitation's."""
    first = make_manager(fill_seconds=600.0)
    await _known(first, ANA, BETO)
    await _friends(first, ANA, BETO)
    opened = await first.handle(OpenTable(ANA, CHAT))
    await first.handle(InviteFriend(ANA, BETO, CHAT))
    await first.idle()
    (told,) = recorder.of(FriendUpdate, news=FriendNews.INVITED)
    await clock.advance(60)
    await first.stop()
    await clock.advance(300)  # the bot's downtime: not counted
    second = make_manager(fill_seconds=600.0)
    await second.start()
    return second, opened.table_id or "", told.invite


async def test_after_a_restart_an_invitation_still_seats_the_friend(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> None:
    second, table_id, invite = await _invited_then_restarted(make_manager, recorder, clock)
    state = second.table_state(table_id)
    assert state is not None and state.seats[2].reserved_for == BETO
    pressed = await second.handle(FriendPress(BETO, encode_friend(FriendAction.SIT, invite)))
    assert pressed.ok and pressed.seat == 2
    state = second.table_state(table_id)
    assert state is not None and state.seats[2].player == BETO
    await second.stop()


async def test_after_a_restart_an_invitation_ends_at_its_time_with_the_downtime_added(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> None:
    second, table_id, invite = await _invited_then_restarted(make_manager, recorder, clock)
    await clock.advance(59)  # 119 s of its 120 counted: still kept
    state = second.table_state(table_id)
    assert state is not None and state.seats[2].reserved_for == BETO
    await clock.advance(1)
    await second.idle()
    state = second.table_state(table_id)
    assert state is not None and state.seats[2].reserved_for is None
    late = await second.handle(FriendPress(BETO, encode_friend(FriendAction.SIT, invite)))
    assert _refused(late) is RefusalReason.INVITE_EXPIRED
    await second.stop()


async def test_a_friend_at_a_table_another_process_runs_is_shown_at_it(
    make_manager: Callable[..., TableManager],
) -> None:
    from bot.core.ownership import OwnerId

    # two processes on one database: the first runs the "test" chats, the second others
    first = make_manager(owner=OwnerId("bot-a", 1, "one"))
    second = make_manager(owner=OwnerId("bot-b", 2, "two"))
    await first.start(platforms={"test"})
    await second.start(platforms={"other"})
    await _known(first, ANA, BETO)
    await _friends(first, ANA, BETO)
    opened = await first.handle(OpenTable(BETO, CHAT))
    assert opened.table_id is not None and second.tables() == []
    view = await second.friends(ANA)
    (beto,) = view.friends
    assert (beto.name, beto.presence, beto.table_id, beto.chat) == (
        "Beto",
        Presence.TABLE,
        opened.table_id,
        CHAT,
    )
    # the first process's own answer is the same, read from its live table
    (same,) = (await first.friends(ANA)).friends
    assert (same.presence, same.table_id) == (Presence.TABLE, opened.table_id)
    await first.stop()
    await second.stop()
