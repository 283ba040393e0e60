from __future__ import annotations

import random

from bench.protocol import ProtocolRobot, request_of
from engine import PRESETS, Match, seat_view
from engine.robots import make_robot
from engine.robots.arena import play_hand, seat_rngs
from engine.robots.protocol import read_request


def test_a_request_built_from_a_view_reads_back_as_that_view() -> None:
    for preset in sorted(PRESETS):
        rng = random.Random(preset)
        for _ in range(30):
            match = Match.new(PRESETS[preset], rng)
            for _ in range(rng.randrange(0, 24)):
                after = match.apply(rng.choice(match.hand.legal_moves()))
                if after.hand.is_over:
                    break
                match = after
            view = seat_view(match, match.hand.turn)
            read, mirrored = read_request(request_of(view))
            assert not mirrored
            assert read.history == view.history
            assert read.ends == view.ends
            assert read.tile_counts == view.tile_counts
            assert read.legal_moves() == view.legal_moves()


def test_a_robot_through_domino_robot_plays_the_moves_it_plays_in_process() -> None:
    served = ProtocolRobot("jugador")
    try:
        match = Match.new(PRESETS["venezolano"], random.Random(4))
        through = play_hand(match, [served, *[make_robot("jugador")] * 3], seat_rngs(1))
        direct = play_hand(match, [make_robot("jugador")] * 4, seat_rngs(1))
    finally:
        served.close()
    assert through.hand.history == direct.hand.history
    assert len(served.cpu) == len(served.wall) == len(served.choice) > 0
