"""Tables of every format in the core (rules.md, "More ways to play: formats"): 2, 3 and
4 seats, robots in the empty seats, drawing as a move of its own whose tile only the
drawer learns, snapshots that restore a format's table, and a whole match to the paid
end through the table manager."""

from __future__ import annotations

import pytest
from conftest import run_table

from bot.core import (
    HandEnded,
    MatchEnded,
    MovePlayed,
    OpenTable,
    PlayerRef,
    PlayNow,
    PressButton,
    RobotSeat,
    SetChatRules,
    ShowMyTiles,
    TableClosed,
    YourTiles,
)
from bot.core.buttons import decode_press, encode_press
from bot.core.commands import ChatRef
from bot.core.table import Table
from engine.moves import DRAW
from engine.records import replay
from engine.rules import find_any_preset

CHAT = ChatRef("test", "group-1")
ANA = PlayerRef("test", "1", "Ana")


async def open_format(manager, preset: str, *, formats: bool = True):
    robot = RobotSeat("aprendiz")
    return await manager.handle(
        OpenTable(ANA, CHAT, preset=preset, right=robot, across=robot, left=robot, formats=formats)
    )


@pytest.mark.parametrize(
    ("preset", "seats"), [("uno-contra-uno", 2), ("individual", 4), ("cubano", 4)]
)
async def test_a_format_preset_opens_a_table_of_its_players_with_robots_in_the_empty_seats(
    make_manager, preset, seats
):
    manager = make_manager()
    reply = await open_format(manager, preset)
    assert reply.ok, reply.refusal
    state = manager.table_state(reply.table_id)
    assert state is not None
    assert state.rules == find_any_preset(preset)
    assert len(state.seats) == seats
    assert state.seats[0].player == ANA
    assert [s.robot_level for s in state.seats[1:]] == ["aprendiz"] * (seats - 1)


async def test_a_three_player_table_seats_three(make_manager):
    manager = make_manager()
    robot = RobotSeat("aprendiz")
    reply = await manager.handle(
        OpenTable(
            ANA,
            CHAT,
            preset="individual",
            overrides={"players": 3},
            right=robot,
            left=robot,
            formats=True,
        )
    )
    assert reply.ok, reply.refusal
    state = manager.table_state(reply.table_id)
    assert state is not None and len(state.seats) == 3
    assert state.rules.players == 3 and not state.rules.partnership


async def test_a_front_end_that_shows_only_todays_game_is_refused_a_format_preset(make_manager):
    manager = make_manager()
    reply = await open_format(manager, "uno-contra-uno", formats=False)
    assert reply.refusal is not None
    assert reply.refusal.reason == "bad_rules"
    assert reply.refusal.params["option"] == "preset"
    assert reply.refusal.params["allowed"] == "venezolano, internacional, espanol, dominicano"
    assert manager.tables() == []


async def test_a_player_invited_across_at_a_one_against_one_table_takes_its_other_seat(
    make_manager,
):
    manager = make_manager()
    beto = PlayerRef("test", "2", "Beto")
    reply = await manager.handle(
        OpenTable(ANA, CHAT, preset="uno-contra-uno", across=beto, formats=True)
    )
    assert reply.ok, reply.refusal
    state = manager.table_state(reply.table_id)
    assert state is not None
    assert [s.reserved_for for s in state.seats] == [None, beto]


async def test_a_player_cannot_be_invited_where_the_format_has_no_free_seat(make_manager):
    manager = make_manager()
    beto = PlayerRef("test", "2", "Beto")
    reply = await manager.handle(
        OpenTable(ANA, CHAT, preset="uno-contra-uno", right=RobotSeat(), across=beto, formats=True)
    )
    assert reply.refusal is not None and reply.refusal.reason == "bad_seat"
    assert manager.tables() == []


async def test_play_now_in_a_format_opens_a_table_of_it_and_the_next_player_of_it_joins_there(
    make_manager,
):
    manager = make_manager()
    beto = PlayerRef("test", "2", "Beto")
    carla = PlayerRef("test", "3", "Carla")
    first = await manager.handle(PlayNow(ANA, CHAT, format="uno-contra-uno"))
    classic = await manager.handle(PlayNow(carla, CHAT))  # the chat's own game: its own table
    second = await manager.handle(PlayNow(beto, CHAT, format="uno-contra-uno"))
    assert first.ok and classic.ok and second.ok
    assert second.table_id == first.table_id != classic.table_id
    one = manager.table_state(first.table_id)
    other = manager.table_state(classic.table_id)
    assert one is not None and other is not None
    assert one.rules == find_any_preset("uno-contra-uno")
    assert [s.player for s in one.seats] == [ANA, beto]
    assert one.phase == "countdown"  # both seats taken: the match is about to start
    assert other.rules == find_any_preset("venezolano") and other.phase == "waiting"


async def test_play_now_in_an_unknown_format_is_refused_with_the_formats_and_opens_nothing(
    make_manager,
):
    manager = make_manager()
    reply = await manager.handle(PlayNow(ANA, CHAT, format="dominicano"))
    assert reply.refusal is not None and reply.refusal.reason == "bad_rules"
    assert reply.refusal.params["option"] == "format"
    assert reply.refusal.params["allowed"] == "uno-contra-uno, individual, cubano"
    assert manager.tables() == []


async def test_a_format_in_a_chat_whose_admins_set_the_rules_keeps_their_target_and_stake(
    make_manager,
):
    manager = make_manager()
    admin = PlayerRef("test", "9", "Admin")
    changed = await manager.handle(
        SetChatRules(admin, CHAT, "dominicano", {"stake": 25}, is_admin=True)
    )
    assert changed.ok, changed.refusal
    reply = await manager.handle(PlayNow(ANA, CHAT, format="uno-contra-uno"))
    state = manager.table_state(reply.table_id)
    assert state is not None
    assert state.rules == find_any_preset(
        "dominicano", stake=25, players=2, partnership=False, boneyard="draw"
    )


async def test_the_admins_may_make_a_format_the_chats_own_game(make_manager):
    manager = make_manager()
    admin = PlayerRef("test", "9", "Admin")
    changed = await manager.handle(
        SetChatRules(admin, CHAT, "cubano", {"target": 200}, is_admin=True)
    )
    assert changed.ok, changed.refusal
    assert changed.preset == "cubano"
    reply = await manager.handle(PlayNow(ANA, CHAT))
    state = manager.table_state(reply.table_id)
    assert state is not None
    assert state.rules == find_any_preset("cubano", target=200)
    assert (await manager.chat_rules(CHAT)).rules == state.rules


def draw_first(tiles: YourTiles):
    """A human who draws whenever drawing is offered, else presses the first button."""
    return tiles.moves[0]


async def test_a_whole_one_against_one_match_is_played_to_the_paid_end(
    make_manager, clock, recorder, memory_storage
):
    manager = make_manager()
    reply = await open_format(manager, "uno-contra-uno")
    table_id = reply.table_id
    await run_table(manager, clock, table_id, [ANA], choose=draw_first)
    await manager.idle()
    ended = recorder.last(MatchEnded)
    assert len(ended.seats) == 2
    assert ended.winner_team in (0, 1)
    assert max(ended.score) >= 100
    record = dict(ended.record)
    match = replay(record)
    assert match.is_over and list(match.score) == list(ended.score)
    draws = [e for e in recorder.of(MovePlayed) if e.move == DRAW]
    assert draws, "a 1-vs-1 match with a boneyard has draws"
    # the money: Ana staked $10; a winner receives 2 stakes ($20), a loser nothing
    balance = await manager.balance(ANA)
    assert balance == (1010 if ended.winner_team == 0 else 990)
    assert ended.payouts == ({0: 20} if ended.winner_team == 0 else {})
    assert recorder.last(TableClosed).reason == "finished"
    stored = await memory_storage.match_records(chat=CHAT.key)
    assert [m.match_id for m in stored] == [table_id]
    assert stored[0].record["hands"] == record["hands"]


async def test_only_the_drawer_learns_the_tile_drawn(make_manager, clock, recorder):
    manager = make_manager()
    reply = await open_format(manager, "uno-contra-uno")
    table_id = reply.table_id
    drew: list[YourTiles] = []

    def watch() -> bool:
        drew.extend(e for e in recorder.of(YourTiles) if e.drawn is not None and e not in drew)
        return bool(drew)

    await run_table(manager, clock, table_id, [ANA], choose=draw_first, until=watch)
    mine = drew[0]
    assert mine.to == ANA and mine.seat == 0
    assert mine.drawn in mine.view.tiles
    assert mine.is_your_turn  # the turn stays with the drawer
    draw = [e for e in recorder.of(MovePlayed) if e.move == DRAW and e.seat == 0][-1]
    # everyone else learns that a tile was drawn and the boneyard's count, not which
    assert draw.move.tile is None
    assert draw.view.boneyard_count == mine.view.boneyard_count
    assert not hasattr(draw.view, "tiles")


async def test_a_draw_is_pressed_like_any_move(make_manager, clock, recorder):
    manager = make_manager()
    reply = await open_format(manager, "uno-contra-uno")
    table_id = reply.table_id

    def must_draw() -> bool:
        tiles = [e for e in recorder.of(YourTiles) if e.is_your_turn]
        return bool(tiles) and tiles[-1].moves[0].move == DRAW and table_id in manager.tables()

    await run_table(manager, clock, table_id, [ANA], until=must_draw)
    tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
    assert isinstance(tiles, YourTiles)
    assert [c.code for c in tiles.moves] == ["d"]
    press = tiles.moves[0].payload
    assert decode_press(press).code == "d"
    count = tiles.view.boneyard_count
    pressed = await manager.handle(PressButton(ANA, press))
    assert pressed.ok, pressed.refusal
    after = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
    assert isinstance(after, YourTiles)
    assert after.view.boneyard_count == count - 1
    assert len(after.view.tiles) == len(tiles.view.tiles) + 1


async def test_a_double_nine_tile_is_pressed_by_its_code(make_manager, clock, recorder):
    manager = make_manager()
    reply = await open_format(manager, "cubano")
    table_id = reply.table_id
    nine: list[YourTiles] = []

    def has_nine() -> bool:
        nine.extend(
            e
            for e in recorder.of(YourTiles)
            if e.is_your_turn and any(c.move.tile and c.move.tile.high > 6 for c in e.moves)
        )
        return bool(nine) and table_id in manager.tables()

    await run_table(manager, clock, table_id, [ANA], until=has_nine)
    tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
    assert isinstance(tiles, YourTiles)
    choice = next(c for c in tiles.moves if c.move.tile and c.move.tile.high > 6)
    pressed = await manager.handle(PressButton(ANA, choice.payload))
    assert pressed.ok, pressed.refusal
    await manager.idle()
    played = recorder.last(MovePlayed, seat=0)
    assert played.move == choice.move


async def test_a_forged_draw_code_on_a_table_that_does_not_draw_is_refused(
    make_manager, clock, recorder
):
    manager = make_manager()
    reply = await open_format(manager, "cubano")
    table_id = reply.table_id

    def my_turn() -> bool:
        return any(e.is_your_turn for e in recorder.of(YourTiles))

    await run_table(manager, clock, table_id, [ANA], until=my_turn)
    tiles = recorder.last(YourTiles)
    payload = encode_press(table_id, tiles.hand_number, tiles.move_number, "d")
    pressed = await manager.handle(PressButton(ANA, payload))
    assert pressed.refusal is not None and pressed.refusal.reason == "illegal_move"


@pytest.mark.parametrize("preset", ["uno-contra-uno", "individual", "cubano"])
async def test_a_stored_table_of_a_format_restores_exactly(make_manager, clock, recorder, preset):
    manager = make_manager()
    reply = await open_format(manager, preset)
    table_id = reply.table_id
    await run_table(
        manager, clock, table_id, [ANA], until=lambda: len(recorder.of(MovePlayed)) >= 30
    )
    live = manager._core.tables[table_id]  # the snapshot of this very table
    snapshot = live.snapshot()
    restored = Table.from_snapshot(snapshot)
    assert restored.rules == live.rules
    assert len(restored.seats) == len(live.seats)
    assert restored.match is not None and live.match is not None
    assert restored.match.score == live.match.score
    assert restored.match.hand.history == live.match.hand.history
    assert restored.match.hand.boneyard_count == live.match.hand.boneyard_count
    assert [restored.match.hand.tiles(s) for s in range(len(live.seats))] == [
        live.match.hand.tiles(s) for s in range(len(live.seats))
    ]


async def test_hand_points_name_every_side_of_individual_play(make_manager, clock, recorder):
    manager = make_manager()
    reply = await open_format(manager, "individual")
    await run_table(
        manager, clock, reply.table_id, [ANA], until=lambda: bool(recorder.of(HandEnded))
    )
    ended = recorder.last(HandEnded)
    assert len(ended.hand_points) == 4 and len(ended.score) == 4
    assert sum(ended.hand_points) == ended.outcome.points
    assert ended.score == ended.hand_points


async def test_a_table_of_three_robots_plays_individual_play_to_its_end_unpaid(
    make_manager, clock, recorder
):
    manager = make_manager()
    rules = find_any_preset("individual", players=3)
    table_id = await manager.open_robot_table(CHAT, rules, levels=["aprendiz"] * 4)
    await run_table(manager, clock, table_id)
    await manager.idle()
    ended = recorder.last(MatchEnded)
    assert len(ended.seats) == 3 and len(ended.score) == 3
    assert ended.winner_team == ended.score.index(max(ended.score))
    assert ended.payouts == {} and ended.winners == ()
    assert replay(dict(ended.record)).rules == rules
