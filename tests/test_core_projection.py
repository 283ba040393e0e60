"""What each seat and the public may see (bot.core.projection): pure functions of a
table."""

from __future__ import annotations

import random

from core_parts import ANA, BETO, CHAT, DIEGO

from bot.core import ROBOT_NAMES, decode_press
from bot.core.projection import public, seat_infos, table_changed, your_tiles
from bot.core.table import Table
from bot.core.vocabulary import Phase
from engine.match import Match
from engine.rules import find_preset

NOW = 1_800_000_000.0


def table_with_match() -> Table:
    """Ana at seat 0, Beto (away) at seat 2, robots at 1 and 3; the first hand dealt."""
    rules = find_preset("venezolano")
    table = Table(
        id="abc",
        label="3",
        chat=CHAT,
        rules=rules,
        seed=7,
        created_at=NOW,
        robot_level="experto",
        phase=Phase.PLAYING,
    )
    table.seats[0].player, table.seats[0].player_id = ANA, 1
    table.seats[2].player, table.seats[2].player_id = BETO, 2
    table.seats[2].away, table.seats[2].back_by = True, NOW + 300
    table.seats[1].robot_level = "aprendiz"
    table.seats[3].robot_level = "aprendiz"
    table.match = Match.new(rules, random.Random(7))
    return table


def test_a_seats_tiles_never_contain_another_seats_tiles():
    table = table_with_match()
    hand = table.match.hand
    for seat in (0, 2):
        mine = your_tiles(table, seat, to=ANA).view.tiles
        assert mine == hand.tiles(seat)
        others = {t for s in range(4) if s != seat for t in hand.tiles(s)}
        assert others.isdisjoint(mine)


def test_a_present_seats_moves_carry_payloads_for_this_table_hand_and_move():
    table = table_with_match()
    turn = table.match.hand.turn
    table.seats[turn].player, table.seats[turn].away = DIEGO, False
    tiles = your_tiles(table, turn)
    assert tiles.to == DIEGO
    assert tiles.is_your_turn is True
    assert [c.move for c in tiles.moves] == list(table.match.hand.legal_moves())
    for choice in tiles.moves:
        press = decode_press(choice.payload)
        assert (press.table_id, press.hand_number, press.move_number, press.code) == (
            "abc",
            1,
            1,
            choice.code,
        )


def test_a_seat_a_robot_plays_for_has_no_moves_and_no_turn():
    table = table_with_match()
    tiles = your_tiles(table, 2)
    assert tiles.to == BETO
    assert tiles.moves == ()
    assert tiles.is_your_turn is False
    assert tiles.deadline is None


def test_robots_are_named_by_seat_and_an_away_human_keeps_their_name():
    infos = seat_infos(table_with_match())
    assert [i.name for i in infos] == ["Ana", ROBOT_NAMES[1], "Beto", ROBOT_NAMES[3]]
    assert [i.is_robot for i in infos] == [False, True, True, True]
    assert [i.robot_level for i in infos] == [None, "aprendiz", "experto", "aprendiz"]
    assert (infos[2].away, infos[2].back_by, infos[2].player) == (True, NOW + 300, BETO)


def test_an_open_seat_shows_who_it_is_reserved_for():
    table = table_with_match()
    table.seats[3].robot_level = None
    table.seats[3].reserved_for = DIEGO
    info = seat_infos(table)[3]
    assert (info.is_open, info.reserved_for, info.name) == (True, DIEGO, "")


def test_seconds_left_is_the_ceiling_of_the_time_to_the_deadline_and_never_negative():
    table = table_with_match()
    assert table_changed(table, NOW).seconds_left is None
    table.deadline = NOW + 12.2
    assert table_changed(table, NOW).seconds_left == 13
    assert table_changed(table, NOW + 12).seconds_left == 1
    assert table_changed(table, NOW + 12.2).seconds_left == 0
    assert table_changed(table, NOW + 20).seconds_left == 0


def test_the_public_state_has_the_turn_and_numbers_but_no_tiles():
    table = table_with_match()
    state = table_changed(table, NOW)
    assert (state.table_id, state.label, state.phase) == ("abc", "3", Phase.PLAYING)
    assert (state.hand_number, state.move_number) == (1, 1)
    assert state.turn == table.match.hand.turn
    assert state.view is public(table)
    assert not hasattr(state.view, "tiles")


def test_the_public_view_is_built_once_per_position():
    table = table_with_match()
    first = public(table)
    assert public(table) is first
    table.match = table.match.apply(table.match.hand.legal_moves()[0])
    assert public(table) is not first
    assert public(table).history == table.match.hand.history
