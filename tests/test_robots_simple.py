from __future__ import annotations

import random

from engine import Match, Move, Side, Tile, find_preset, seat_view
from engine.robots import make_robot
from engine.robots.simple import ApprenticeRobot, HeuristicRobot, RandomRobot

T = Tile.parse


def _deal(*hands: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(x) for x in h.split()) for h in hands)


# 6-6 opens; seat 1 holds 6-4, 6-1, 4-4, 5-5, 3-0, 2-1, 1-0.
DEAL = _deal(
    "6-6 6-5 5-4 3-3 2-0 1-1 0-0",
    "6-4 6-1 4-4 5-5 3-0 2-1 1-0",
    "6-3 6-2 5-3 5-2 4-2 2-2 3-1",
    "6-0 5-1 5-0 4-3 4-1 4-0 3-2",
)


def _after_opening() -> Match:
    match = Match.start(find_preset("venezolano"), DEAL, 0)
    return match.apply(Move(T("6-6")))


def test_the_random_robot_plays_legal_moves_and_repeats_itself_for_a_seed() -> None:
    view = seat_view(_after_opening(), 1)
    robot = RandomRobot()
    picks = [robot.choose(view, random.Random(7)) for _ in range(3)]
    assert picks[0] in view.legal_moves()
    assert picks[0] == picks[1] == picks[2]
    seen = {robot.choose(view, random.Random(s)) for s in range(40)}
    assert seen == set(view.legal_moves())


def test_the_apprentice_plays_its_heaviest_tile() -> None:
    view = seat_view(_after_opening(), 1)
    # 6-4 (10 pips) beats 6-1 (7 pips).
    assert ApprenticeRobot().choose(view, random.Random(0)) == Move(T("6-4"), Side.RIGHT)


def test_the_heuristic_keeps_its_numbers_alive() -> None:
    view = seat_view(_after_opening(), 1)
    # Ends 6 and 6. 6-4: 10 pips + 3 * (6-1, 4-4 still fit 6 or 4) = 16;
    # 6-1: 7 pips + 3 * (6-4, 2-1, 1-0 still fit 6 or 1) = 16: a tie goes to the first
    # legal move in the engine's order (6-1 before 6-4).
    assert HeuristicRobot().choose(view, random.Random(0)) == Move(T("6-1"), Side.RIGHT)


def test_every_quick_level_opens_with_the_six_six_under_double_six() -> None:
    match = Match.start(find_preset("venezolano"), DEAL, 0)
    for level in ("novato", "aprendiz", "jugador"):
        assert make_robot(level).choose(seat_view(match, 0), random.Random(3)) == Move(T("6-6"))
