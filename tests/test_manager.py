"""The table manager: lobby, whole matches, and presses that must change nothing."""

from __future__ import annotations

import pytest
from conftest import RecordingPort, run_table

from bot.core import (
    ChatRef,
    EmoteShown,
    FillWithRobots,
    HandEnded,
    HandStarted,
    InvitePartner,
    Leave,
    MatchEnded,
    MatchStarted,
    MovePlayed,
    OpenTable,
    PlayerRef,
    PlayerSeated,
    PlayMove,
    PlayNow,
    PressButton,
    Rematch,
    RobotSeat,
    SetChatRules,
    ShowMyTiles,
    SitAt,
    TableChanged,
    TableClosed,
    TableManager,
    TurnStarted,
    YourTiles,
    encode_action,
    encode_press,
)
from bot.core.clock import ManualClock
from bot.present import replies
from bot.present.replies import refused, seated_text
from engine.records import replay
from engine.rules import PRESET_NAMES, find_preset

CHAT = ChatRef("test", "group-1")
OTHER_CHAT = ChatRef("test", "group-2")
ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
CARLA = PlayerRef("test", "3", "Carla")
DIEGO = PlayerRef("test", "4", "Diego")


async def seat_with_robots(manager: TableManager, clock: ManualClock, player=ANA, chat=CHAT) -> str:
    """Seat ``player`` at a new table filled with robots, and start the match."""
    reply = await manager.handle(PlayNow(player, chat))
    assert reply.ok
    assert (await manager.handle(FillWithRobots(player, chat))).ok
    await clock.advance(manager.times.countdown_seconds)
    assert manager.table_state(reply.table_id).phase == "playing"
    return reply.table_id


async def my_tiles(manager: TableManager, player: PlayerRef, table_id: str) -> YourTiles:
    reply = await manager.handle(ShowMyTiles(player, None, table_id))
    assert reply.ok, reply.refusal
    tiles = reply.events[0]
    assert isinstance(tiles, YourTiles)
    return tiles


async def wait_for_turn(manager, clock, table_id, seat) -> None:
    """Advance until it is ``seat``'s turn (robots move meanwhile)."""
    while manager.table_state(table_id).turn != seat:
        await clock.advance(max(0.0, clock.next_deadline() - clock.now()))


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_robots_only_match_plays_to_the_end_under_every_preset(
    make_manager, clock, recorder: RecordingPort, memory_storage, preset
):
    manager = make_manager()
    table_id = await manager.open_robot_table(CHAT, find_preset(preset))
    await run_table(manager, clock, table_id)
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    rules = find_preset(preset)
    assert max(ended.score) >= rules.target and ended.score[0] != ended.score[1]
    assert ended.winner_team == (0 if ended.score[0] > ended.score[1] else 1)
    # the record the table kept replays to the same score
    assert replay(ended.record).score == ended.score
    assert ended.payouts == {} and ended.winners == ()
    hands = recorder.of(HandEnded, table_id=table_id)
    assert (
        len(hands) == len(ended.record["hands"]) == len(recorder.of(HandStarted, table_id=table_id))
    )
    assert recorder.last(TableClosed, table_id=table_id).reason == "finished"
    assert await memory_storage.load_tables() == []
    assert table_id not in manager.tables()


async def test_a_human_seat_driven_by_the_test_plays_a_whole_match(
    make_manager, clock, recorder: RecordingPort, memory_storage
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await run_table(manager, clock, table_id, [ANA])
    await manager.idle()
    ended = recorder.last(MatchEnded, table_id=table_id)
    mine = [e for e in recorder.of(MovePlayed, table_id=table_id) if e.seat == 0]
    assert mine and all(e.by == "player" for e in mine)
    player_id = await manager.player_id(ANA)
    won = ended.winner_team == 0
    assert ended.balances[player_id] == (1010 if won else 990)
    assert await manager.balance(ANA) == ended.balances[player_id]
    assert ended.payouts_by_player == ({player_id: 20} if won else {})
    assert await memory_storage.check_ledger() == []
    history = await manager.history(player=ANA)
    assert [m.match_id for m in history] == [table_id]


async def test_the_robots_at_a_table_have_names_that_tell_them_apart(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    state = manager.table_state(table_id)
    assert state is not None
    robots = [seat.name for seat in state.seats if seat.is_robot]
    assert len(robots) == 3 and len(set(robots)) == 3
    assert all(len(name) <= 13 for name in robots)  # fits a seat panel of the board


async def test_the_human_is_told_their_tiles_and_turn_and_every_press_names_its_table(
    make_manager, clock, recorder: RecordingPort
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    await manager.idle()
    tiles = recorder.last(YourTiles, to=ANA)
    assert tiles.is_your_turn and tiles.table_id == table_id
    assert tiles.view.tiles == manager.match_of(table_id).hand.tiles(0)
    assert [c.move for c in tiles.moves] == manager.match_of(table_id).hand.legal_moves()
    assert all(table_id in c.payload for c in tiles.moves)
    turn = recorder.last(TurnStarted, table_id=table_id)
    assert turn.seat == 0 and turn.player == ANA
    assert turn.deadline == pytest.approx(clock.now() + 45)
    board = recorder.last(TableChanged, table_id=table_id)
    assert board.turn == 0 and board.seconds_left == 45
    assert [s.is_robot for s in board.seats] == [False, True, True, True]


# --------------------------------------------------------------------------- presses


async def test_a_repeated_press_is_stale_and_changes_nothing(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    payload = tiles.moves[0].payload
    assert (await manager.handle(PressButton(ANA, payload))).ok
    match = manager.match_of(table_id)
    again = await manager.handle(PressButton(ANA, payload))
    assert again.refusal.reason == "stale"
    assert refused(again.refusal) == "Ese botón ya no vale; usa el más reciente."
    assert manager.match_of(table_id) is match


async def test_a_press_for_an_old_hand_or_move_is_stale(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    code = tiles.moves[0].code
    match = manager.match_of(table_id)
    for hand, move in [
        (tiles.hand_number + 1, tiles.move_number),
        (tiles.hand_number, tiles.move_number - 1),
    ]:
        reply = await manager.handle(PlayMove(ANA, table_id, hand, move, code))
        assert reply.refusal.reason == "stale"
    assert manager.match_of(table_id) is match


async def test_a_press_by_someone_not_seated_is_foreign_and_changes_nothing(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    match = manager.match_of(table_id)
    reply = await manager.handle(PressButton(BETO, tiles.moves[0].payload))
    assert reply.refusal.reason == "not_seated"
    # the same user id on another platform is someone else
    reply = await manager.handle(
        PressButton(PlayerRef("other", "1", "Ana"), tiles.moves[0].payload)
    )
    assert reply.refusal.reason == "not_seated"
    assert manager.match_of(table_id) is match


async def test_forged_payloads_and_illegal_codes_are_refused_and_change_nothing(
    make_manager, clock
):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    match = manager.match_of(table_id)
    held = set(tiles.view.tiles)
    not_held = next(t for t in find_all_tiles() if t not in held)
    for payload in ["garbage", f"dm1:m:{table_id}:1:1:99", "dm1:m:" + table_id + ":1:x:64"]:
        assert (await manager.handle(PressButton(ANA, payload))).refusal.reason == "forged"
    code = f"{not_held.high}{not_held.low}"
    forged = encode_press(table_id, tiles.hand_number, tiles.move_number, code)
    reply = await manager.handle(PressButton(ANA, forged))
    assert reply.refusal.reason == "illegal_move"
    assert reply.refusal.params["reason"] == "not_held"
    reply = await manager.handle(
        PlayMove(ANA, table_id, tiles.hand_number, tiles.move_number, "zz")
    )
    assert reply.refusal.reason == "forged"
    reply = await manager.handle(PressButton(ANA, encode_press("nosuchtable", 1, 1, "64")))
    assert reply.refusal.reason == "table_gone"
    assert manager.match_of(table_id) is match


async def test_a_press_with_the_current_numbers_out_of_turn_is_refused_and_changes_nothing(
    make_manager, clock
):
    manager = make_manager(robot_delay=1.0)  # the robot after Ana waits a second
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    assert (tiles.hand_number, tiles.move_number) == (1, 1)  # seed 1: Ana opens the hand
    assert (await manager.handle(PressButton(ANA, tiles.moves[0].payload))).ok
    state = manager.table_state(table_id)
    assert (state.phase, state.turn, state.hand_number, state.move_number) == ("playing", 1, 1, 2)
    history = manager.match_of(table_id).hand.history
    reply = await manager.handle(PlayMove(ANA, table_id, 1, 2, "66"))
    assert reply.refusal.reason == "not_your_turn"
    assert manager.match_of(table_id).hand.history == history
    assert manager.table_state(table_id).move_number == 2


async def test_pressing_a_move_button_again_after_it_was_played_is_refused_as_stale(
    make_manager, clock
):
    manager = make_manager(robot_delay=1.0)
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    tiles = await my_tiles(manager, ANA, table_id)
    button = tiles.moves[0].payload
    assert (await manager.handle(PressButton(ANA, button))).ok
    history = manager.match_of(table_id).hand.history
    again = await manager.handle(PressButton(ANA, button))
    assert again.refusal.reason == "stale"
    assert manager.match_of(table_id).hand.history == history
    assert manager.table_state(table_id).move_number == 2


def find_all_tiles():
    from engine.tiles import ALL_TILES

    return ALL_TILES


# --------------------------------------------------------------------------- lobby


async def test_play_now_picks_the_open_table_with_the_fewest_free_seats(make_manager, clock):
    manager = make_manager()
    first = await manager.handle(PlayNow(ANA, CHAT))
    second = await manager.handle(
        OpenTable(BETO, CHAT, right=RobotSeat(), across=None, left=RobotSeat())
    )
    assert first.table_id != second.table_id
    reply = await manager.handle(PlayNow(CARLA, CHAT))
    assert reply.table_id == second.table_id and reply.seat == 2
    assert seated_text(reply, "es") == "Te sentaste en la mesa 2, asiento 3."
    # that table is now full: a countdown starts it
    assert manager.table_state(second.table_id).phase == "countdown"
    again = await manager.handle(PlayNow(CARLA, CHAT))
    assert again.refusal.reason == "already_seated"


async def test_an_incomplete_table_fills_with_robots_after_two_minutes(
    make_manager, clock, recorder
):
    manager = make_manager()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    await clock.advance(119)
    assert manager.table_state(table_id).phase == "waiting"
    await clock.advance(1)
    state = manager.table_state(table_id)
    assert state.phase == "countdown"
    assert [s.is_robot for s in state.seats] == [False, True, True, True]
    await clock.advance(manager.times.countdown_seconds)
    assert manager.table_state(table_id).phase == "playing"
    await manager.idle()
    assert recorder.last(MatchStarted, table_id=table_id).stakes == {
        await manager.player_id(ANA): 10
    }


async def test_a_table_built_with_chosen_seats_reserves_them_for_the_invited(
    make_manager, clock, recorder
):
    manager = make_manager()
    reply = await manager.handle(
        OpenTable(ANA, CHAT, right=RobotSeat("novato"), across=BETO, left=RobotSeat())
    )
    table_id = reply.table_id
    state = manager.table_state(table_id)
    assert state.seats[2].reserved_for == BETO and state.seats[1].robot_level == "novato"
    refused = await manager.handle(SitAt(CARLA, CHAT, table_id, 2))
    assert refused.refusal.reason == "seat_reserved"
    assert (await manager.handle(PlayNow(CARLA, CHAT))).table_id != table_id  # no free seat for her
    seated = await manager.handle(PressButton(BETO, encode_action("sit", table_id), CHAT))
    assert seated.ok and seated.seat == 2 and seated.table_id == table_id
    await manager.idle()
    assert recorder.last(PlayerSeated, table_id=table_id).player == BETO
    assert manager.table_state(table_id).phase == "countdown"


async def test_inviting_a_partner_reserves_the_seat_across(make_manager, clock):
    manager = make_manager()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    assert (await manager.handle(InvitePartner(ANA, CHAT, BETO))).ok
    assert manager.table_state(table_id).seats[2].reserved_for == BETO
    reply = await manager.handle(PlayNow(BETO, CHAT))
    assert (reply.table_id, reply.seat) == (table_id, 2)


async def test_leaving_before_the_start_costs_nothing_and_an_empty_table_closes(
    make_manager, clock, recorder
):
    manager = make_manager()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    assert (await manager.handle(Leave(ANA, CHAT))).ok
    await manager.idle()
    assert recorder.last(TableClosed, table_id=table_id).reason == "empty"
    assert await manager.balance(ANA) == 1000
    assert (await manager.handle(Leave(ANA, CHAT))).refusal.reason == "no_table"


async def test_two_tables_in_two_chats_for_the_same_player_stay_apart(
    make_manager, clock, recorder
):
    manager = make_manager()
    first = await seat_with_robots(manager, clock, ANA, CHAT)
    second = await seat_with_robots(manager, clock, ANA, OTHER_CHAT)
    assert first != second
    assert sorted(manager.tables_of(ANA)) == sorted([first, second])
    await wait_for_turn(manager, clock, first, 0)
    await wait_for_turn(manager, clock, second, 0)
    tiles_1 = await my_tiles(manager, ANA, first)
    tiles_2 = await my_tiles(manager, ANA, second)
    other = manager.match_of(second)
    assert (await manager.handle(PressButton(ANA, tiles_1.moves[0].payload))).ok
    assert manager.match_of(second) is other
    # a press made for one table is never applied to the other: as it was (table 1's
    # numbers) it is stale there; with table 2's numbers, its tile is not in her hand there
    assert (tiles_1.hand_number, tiles_1.move_number, tiles_1.moves[0].code) == (1, 1, "66")
    assert (tiles_2.hand_number, tiles_2.move_number) == (1, 3)
    assert not any(t.high == t.low == 6 for t in tiles_2.view.tiles)
    history = other.hand.history
    replayed = tiles_1.moves[0].payload.replace(first, second)
    assert (await manager.handle(PressButton(ANA, replayed))).refusal.reason == "stale"
    forged = encode_press(second, 1, 3, "66")
    reply = await manager.handle(PressButton(ANA, forged))
    assert (reply.refusal.reason, reply.refusal.params["reason"]) == ("illegal_move", "not_held")
    assert manager.match_of(second) is other and other.hand.history == history
    await manager.idle()
    assert {e.table_id for e in recorder.of(YourTiles, to=ANA)} == {first, second}
    await run_table(manager, clock, first, [ANA])
    await run_table(manager, clock, second, [ANA])
    await manager.idle()
    assert len(recorder.of(MatchEnded)) == 2
    del tiles_2


async def test_emotes_are_shown_at_most_once_every_few_seconds(make_manager, clock, recorder):
    manager = make_manager()
    table_id = (await manager.handle(PlayNow(ANA, CHAT))).table_id
    from bot.core import Emote

    assert (await manager.handle(Emote(ANA, "hola", CHAT))).ok
    await clock.advance(2)
    refused = await manager.handle(Emote(ANA, "buena", CHAT))
    assert refused.refusal.reason == "emote_too_soon"
    assert refused.refusal.params == {"wait_seconds": 3}
    assert replies.refused(refused.refusal) == "Espera 3 s antes de la próxima frase."
    unknown = await manager.handle(Emote(ANA, "insulto", CHAT))
    assert unknown.refusal.reason == "unknown_emote"
    await clock.advance(3)
    assert (await manager.handle(PressButton(ANA, encode_action("emote", table_id, "gracias")))).ok
    await manager.idle()
    assert [e.name for e in recorder.of(EmoteShown, table_id=table_id)] == ["hola", "gracias"]
    assert (await manager.handle(Emote(BETO, "hola", CHAT))).refusal.reason == "no_table"


async def test_a_rematch_opens_a_table_with_the_same_seats(make_manager, clock, recorder):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    early = await manager.handle(Rematch(ANA, CHAT, table_id))
    assert early.refusal.reason == "not_ended"
    await run_table(manager, clock, table_id, [ANA])
    reply = await manager.handle(PressButton(ANA, encode_action("again", table_id)))
    assert reply.ok and reply.table_id != table_id and reply.seat == 0
    assert manager.table_state(reply.table_id).phase == "countdown"
    assert (await manager.handle(Rematch(BETO, CHAT, table_id))).refusal.reason == "not_seated"


async def test_only_admins_change_a_chats_rules_and_new_tables_use_them(make_manager, clock):
    manager = make_manager()
    refused = await manager.handle(SetChatRules(ANA, CHAT, "dominicano", {}, is_admin=False))
    assert refused.refusal.reason == "not_admin"
    bad = await manager.handle(SetChatRules(ANA, CHAT, "dominicano", {"target": 7}, is_admin=True))
    assert bad.refusal.reason == "bad_rules" and bad.refusal.params["option"] == "target"
    assert not (await manager.chat_rules(CHAT)).set_by_admins
    assert (
        await manager.handle(SetChatRules(ANA, CHAT, "dominicano", {"stake": 20}, is_admin=True))
    ).ok
    info = await manager.chat_rules(CHAT)
    assert info.set_by_admins and info.preset == "dominicano" and info.rules.stake == 20
    table_id = (await manager.handle(PlayNow(BETO, CHAT))).table_id
    assert manager.table_state(table_id).rules == info.rules
    # players may only change the turn timers of their own table now
    locked = await manager.handle(OpenTable(CARLA, CHAT, preset="venezolano"))
    assert locked.refusal.reason == "rules_locked"
    locked = await manager.handle(OpenTable(CARLA, CHAT, overrides={"stake": 0}))
    assert locked.refusal.reason == "rules_locked"
    fast = await manager.handle(OpenTable(CARLA, CHAT, overrides={"turn_seconds": 20}))
    assert manager.table_state(fast.table_id).rules.turn_seconds == 20
    assert manager.table_state(fast.table_id).rules.capicua_bonus == 25
    assert manager.table_state(fast.table_id).rules.stake == 20  # the admins' options stay
    await manager.handle(Leave(CARLA, CHAT))
    same = await manager.handle(
        OpenTable(CARLA, CHAT, preset="Dominicano", overrides={"forced_move_seconds": 2})
    )
    assert same.ok
    assert manager.table_state(same.table_id).rules == find_preset(
        "dominicano", stake=20, forced_move_seconds=2
    )


async def test_a_player_may_choose_a_preset_where_the_admins_never_chose(make_manager, clock):
    manager = make_manager()
    reply = await manager.handle(
        OpenTable(ANA, CHAT, preset="internacional", overrides={"target": 50})
    )
    rules = manager.table_state(reply.table_id).rules
    assert rules == find_preset("internacional", target=50)
    bad = await manager.handle(OpenTable(BETO, CHAT, preset="nope"))
    assert bad.refusal.reason == "bad_rules"
    level = await manager.handle(OpenTable(BETO, CHAT, right=RobotSeat("genio")))
    assert level.refusal.reason == "unknown_level"


async def test_a_failing_port_never_stops_a_table(make_manager, clock, recorder):
    class Broken:
        async def deliver(self, event):
            raise RuntimeError("network down")

    manager = make_manager()
    manager.register("test", Broken())
    table_id = await manager.open_robot_table(CHAT)
    await run_table(manager, clock, table_id)
    await manager.idle()
    assert recorder.last(TableClosed, table_id=table_id).reason == "finished"


async def test_a_chat_given_a_new_id_takes_its_tables_rules_and_history_along_once(
    make_manager, clock, memory_storage
):
    manager = make_manager()
    await manager.handle(SetChatRules(ANA, CHAT, "dominicano", {"target": 150}, is_admin=True))
    table_id = await seat_with_robots(manager, clock)
    waiting = (await manager.handle(PlayNow(BETO, CHAT))).table_id
    elsewhere = (await manager.handle(PlayNow(CARLA, OTHER_CHAT))).table_id
    new_chat = ChatRef("test", "group-9")

    moved = await manager.move_chat("test", "group-1", "group-9")
    assert sorted(moved) == sorted([table_id, waiting])
    assert await manager.move_chat("test", "group-1", "group-9") == []  # told twice: once
    assert manager.table_state(table_id).chat == new_chat
    assert manager.table_state(elsewhere).chat == OTHER_CHAT
    info = await manager.chat_rules(new_chat)
    assert (info.preset, info.rules.target, info.set_by_admins) == ("dominicano", 150, True)
    assert not (await manager.chat_rules(CHAT)).set_by_admins
    # The player is seated in the new chat, not given a second table there.
    again = await manager.handle(PlayNow(ANA, new_chat))
    assert again.refusal.reason == "already_seated"
    assert (await manager.handle(ShowMyTiles(ANA, new_chat))).ok
    # A restart finds the tables in the new chat.
    saved = {s["table_id"]: s["chat"]["chat_id"] for s in await memory_storage.load_tables()}
    assert saved == {table_id: "group-9", waiting: "group-9", elsewhere: "group-2"}
    await manager.stop()
    restarted = make_manager()
    await restarted.start()
    assert restarted.table_state(table_id).chat == new_chat
    await restarted.stop()


async def test_a_table_id_never_seen_is_refused_as_unknown_and_a_closed_one_as_gone(
    make_manager, clock
):
    manager = make_manager()
    reply = await manager.handle(SitAt(ANA, CHAT, "nosuch"))
    assert (reply.refusal.reason, dict(reply.refusal.params)) == ("table_gone", {"unknown": 1})
    assert refused(reply.refusal, "es") == "Esa mesa no existe."
    table_id = (await manager.handle(PlayNow(BETO, CHAT))).table_id
    await manager.handle(Leave(BETO, CHAT))  # the empty table closes
    gone = await manager.handle(SitAt(ANA, CHAT, table_id))
    assert (gone.refusal.reason, dict(gone.refusal.params)) == ("table_gone", {})
    assert refused(gone.refusal, "es") == "Esa mesa ya terminó."


async def test_a_player_renamed_on_their_platform_is_seated_under_the_new_name(make_manager, clock):
    from dataclasses import replace

    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    assert (await manager.handle(ShowMyTiles(replace(ANA, display_name="Anita"), CHAT))).ok
    assert manager.table_state(table_id).seats[0].name == "Anita"
    assert manager.tables_of(ANA) == [table_id]
