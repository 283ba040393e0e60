"""A table's snapshot: the record written move by move equals the engine's record."""

from __future__ import annotations

import json
import random

import pytest

from bot.core import ChatRef, PlayerRef
from bot.core.table import Seat, Table
from engine.match import Match
from engine.records import record_of
from engine.robots import make_robot
from engine.rules import PRESET_NAMES, find_preset
from engine.views import seat_view


def new_table(preset: str) -> Table:
    return Table(
        id="abc",
        label="1",
        chat=ChatRef("telegram", "-100", thread_id="7", language="en"),
        rules=find_preset(preset),
        seed=99,
        created_at=1.0,
        robot_level="aprendiz",
    )


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_record_written_move_by_move_equals_record_of_the_match(preset):
    table = new_table(preset)
    rng = random.Random(preset)
    robot = make_robot("aprendiz")
    table.match = Match.new(table.rules, rng)
    while not table.match.is_over:
        match = table.match
        if match.hand.is_over:
            table.match = match.next_hand(rng)
        else:
            table.match = match.apply(robot.choose(seat_view(match, match.hand.turn), rng))
        if rng.random() < 0.3:  # snapshots are not taken after every single move here
            assert table.record() == record_of(table.match)
    assert table.record() == record_of(table.match)


def test_a_snapshot_survives_json_and_rebuilds_seats_deadlines_and_stakes():
    table = new_table("dominicano")
    table.seats[0] = Seat(player=PlayerRef("telegram", "5", "Ana", "en"), player_id=3)
    table.seats[1] = Seat(robot_level="experto")
    table.seats[2] = Seat(
        player=PlayerRef("telegram", "6", "Beto"), player_id=4, away=True, back_by=500.0, missed=2
    )
    table.seats[3] = Seat(reserved_for=PlayerRef("telegram", "7", "Carla"))
    table.phase = "playing"
    table.match = Match.new(table.rules, random.Random(1))
    table.deadline, table.deadline_kind = 123.5, "turn"
    table.stakes = {3: 10, 4: 10}
    table.notes = {"telegram.board": {"chat_id": -100, "message_id": 9}}
    data = json.loads(json.dumps(table.snapshot()))
    back = Table.from_snapshot(data)
    assert back.notes == {"telegram.board": {"chat_id": -100, "message_id": 9}}
    assert back.seats == table.seats
    assert (back.deadline, back.deadline_kind, back.stakes) == (123.5, "turn", {3: 10, 4: 10})
    assert back.chat == table.chat and back.rules == table.rules and back.seed == 99
    assert back.match is not None and back.match.hand.tiles(0) == table.match.hand.tiles(0)
    assert back.seat_of(("telegram", "6")) == 2
    assert back.reserved_seat_for(("telegram", "7")) == 3
    assert back.humans() == [0, 2] and back.present_humans() == [0]


def test_a_forfeited_seat_no_longer_belongs_to_its_player():
    table = new_table("venezolano")
    table.seats[1] = Seat(player=PlayerRef("t", "1", "A"), player_id=1, away=True, forfeited=True)
    assert table.seat_of(("t", "1")) is None
    assert table.humans() == []
    assert table.seats[1].robot_plays


def test_a_snapshot_without_notes_loads_with_none_and_bad_notes_are_refused():
    data = json.loads(json.dumps(new_table("venezolano").snapshot()))
    del data["notes"]  # written before front ends kept notes
    assert Table.from_snapshot(data).notes == {}
    with pytest.raises(ValueError, match="notes"):
        Table.from_snapshot({**data, "notes": ["not", "an", "object"]})


def test_a_challenge_survives_a_snapshot_and_other_tables_write_no_challenge_key():
    plain = new_table("venezolano")
    assert "challenge" not in plain.snapshot()
    assert Table.from_snapshot(json.loads(json.dumps(plain.snapshot()))).challenge is False
    plain.challenge = True
    back = Table.from_snapshot(json.loads(json.dumps(plain.snapshot())))
    assert back.challenge is True
