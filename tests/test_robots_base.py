from __future__ import annotations

import dataclasses
import random

import pytest

from engine import Match, Tile, find_preset, public_view, seat_view
from engine.robots import DEFAULT_LEVEL, LEVEL_LABELS, LEVELS, Robot, make_robot
from engine.robots.base import legal_or_raise
from engine.rules import find_any_preset
from engine.views import SeatView


def _deal() -> tuple[tuple[Tile, ...], ...]:
    tiles = sorted(Tile(a, b) for a in range(7) for b in range(a + 1))
    return tuple(tuple(tiles[s::4]) for s in range(4))


def test_every_level_builds_a_robot_with_its_id_and_a_spanish_label() -> None:
    for level in LEVELS:
        robot = make_robot(level)
        assert isinstance(robot, Robot)
        assert robot.level == level
        assert LEVEL_LABELS[level]
    assert DEFAULT_LEVEL == "experto"
    assert make_robot().level == "experto"
    assert make_robot(" Maestro ").level == "maestro"


def test_an_unknown_level_is_refused_with_the_list_of_levels() -> None:
    with pytest.raises(ValueError, match="novato"):
        make_robot("gran maestro")


def test_a_robot_receives_a_view_that_holds_only_its_own_tiles() -> None:
    fields = {f.name for f in dataclasses.fields(SeatView)}
    public = {
        f.name
        for f in dataclasses.fields(
            type(public_view(Match.new(find_preset("venezolano"), random.Random(1))))
        )
    }
    assert fields - public == {"seat", "tiles"}
    match = Match.new(find_preset("venezolano"), random.Random(1))
    view = seat_view(match, 2)
    assert set(view.tiles) == set(match.hand.tiles(2))
    others = {t for s in (0, 1, 3) for t in match.hand.tiles(s)}
    values = [getattr(view, f) for f in fields if f != "tiles"]
    assert not any(isinstance(v, tuple) and others & set(v) for v in values)


def test_a_robot_asked_out_of_turn_refuses() -> None:
    match = Match.start(find_preset("venezolano"), _deal(), 3)
    for level in LEVELS:
        with pytest.raises(ValueError, match="turn"):
            make_robot(level).choose(seat_view(match, 0), random.Random(0))


def test_legal_or_raise_refuses_the_formats_unless_the_robot_plays_them() -> None:
    match = Match.new(find_any_preset("uno-contra-uno"), random.Random(2))
    view = seat_view(match, match.hand.turn)
    with pytest.raises(ValueError, match="robots play only partnership double-six"):
        legal_or_raise(view)
    assert legal_or_raise(view, any_format=True) == view.legal_moves()


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move_in_a_format(level: str) -> None:
    match = Match.new(find_any_preset("uno-contra-uno"), random.Random(2))
    view = seat_view(match, match.hand.turn)
    assert make_robot(level).choose(view, random.Random(1)) in view.legal_moves()
