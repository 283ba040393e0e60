"""The robot protocol in every format (robot-protocol.md, "Formats"): players, tile set,
the boneyard's count and the draw move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DRAW, Match, seat_view
from engine.robots import LEVELS, make_robot
from engine.robots.protocol import answer, move_text, read_request
from engine.rules import FORMAT_PRESETS, Rules, find_any_preset
from engine.views import SeatView

FORMATS: dict[str, Rules] = {
    **FORMAT_PRESETS,
    "uno-contra-uno double_nine": find_any_preset("uno-contra-uno", tile_set="double_nine"),
    "three players draw": find_any_preset("uno-contra-uno", players=3),
}

ONE_AGAINST_ONE = {"preset": "venezolano", "players": 2, "partnership": False, "boneyard": "draw"}

# The hand of records.md ("The private record") from seat 1's side, up to its draws.
BEFORE_THE_DRAW: dict[str, Any] = {
    "rules": ONE_AGAINST_ONE,
    "seat": 1,
    "hand": ["2-2", "4-0", "4-3"],
    "starter": 0,
    "moves": ["6-6", "6-0", "3-0", "3-2", "5-2", "5-4", "4-1", "6-1 left", "5-1"],
    "score": [0, 0],
}


def request_of(view: SeatView) -> dict[str, Any]:
    """A request for ``view`` written as robot-protocol.md says: every pass and draw."""
    moves = []
    for k, (_seat, move) in enumerate(view.history):
        if move.draw:
            moves.append("draw")
        elif move.tile is None:
            moves.append("pass")
        elif k == 0 or move.side is None:
            moves.append(str(move.tile))
        else:
            moves.append(f"{move.tile} {move.side.value}")
    return {
        "rules": view.rules.to_spec(),
        "seat": view.seat,
        "hand": [str(t) for t in view.tiles],
        "starter": view.starter,
        "moves": moves,
        "score": list(view.score),
        "boneyard": view.boneyard_count,
    }


def ask(request: dict[str, Any], level: str = "jugador", seed: int = 1) -> dict[str, str]:
    return answer(json.dumps(request), make_robot(level), seed)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(FORMATS)), seed=st.integers(0, 2**32))
def test_a_request_built_from_a_seat_s_view_in_any_format_reads_back_as_that_view(
    name: str, seed: int
) -> None:
    rng = random.Random(seed)
    match = Match.new(FORMATS[name], rng)
    for _ in range(rng.randrange(0, 40)):
        after = match.apply(rng.choice(match.hand.legal_moves()))
        if after.hand.is_over:
            break
        match = after
    view = seat_view(match, match.hand.turn)
    read, mirrored = read_request(request_of(view))
    assert not mirrored
    assert read.history == view.history
    assert read.line == view.line
    assert read.ends == view.ends
    assert read.tile_counts == view.tile_counts
    assert read.boneyard_count == view.boneyard_count
    assert read.drawable == view.drawable
    assert read.legal_moves() == view.legal_moves()
    legal = {move_text(view, m, False) for m in view.legal_moves()}
    assert ask(request_of(view))["move"] in legal


def test_a_seat_with_nothing_that_fits_and_tiles_in_the_boneyard_answers_draw() -> None:
    for level in LEVELS:
        assert ask(BEFORE_THE_DRAW, level) == {"move": "draw"}


def test_after_its_draws_the_seat_plays_the_drawn_tile_that_fits() -> None:
    request = {
        **BEFORE_THE_DRAW,
        "hand": ["1-0", "2-2", "4-0", "4-3", "6-4"],
        "moves": [*BEFORE_THE_DRAW["moves"], "draw", "draw"],
        "boneyard": 12,
    }
    view, _ = read_request(request)
    assert view.tile_counts == (2, 5)  # seat 0 keeps 4-4 and 5-3
    assert view.boneyard_count == view.drawable == 12
    assert ask(request) == {"move": "1-0"}


def test_a_draw_is_written_draw() -> None:
    view, mirrored = read_request(BEFORE_THE_DRAW)
    assert view.legal_moves() == [DRAW]
    assert move_text(view, DRAW, mirrored) == "draw"


def test_a_double_nine_opener_must_open_with_its_highest_double() -> None:
    hand = ["9-9", "8-8", "9-0", "7-1", "5-2", "4-4", "3-0", "2-1", "6-6", "1-0"]
    request = {
        "rules": {"preset": "venezolano", "tile_set": "double_nine"},
        "seat": 2,
        "hand": hand,
        "starter": 2,
        "moves": [],
        "score": [0, 0],
    }
    assert ask(request) == {"move": "9-9"}


def with_(**changes: Any) -> dict[str, Any]:
    return {**BEFORE_THE_DRAW, **changes}


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            with_(moves=[*BEFORE_THE_DRAW["moves"], "draw 6-4"]),
            "move 10: a request never names a drawn tile (write 'draw')",
        ),
        (
            with_(moves=[*BEFORE_THE_DRAW["moves"], "pass", "5-3"]),
            "move 10: seat 1 must draw from the boneyard (14 left), cannot pass",
        ),
        (
            with_(rules={**ONE_AGAINST_ONE, "boneyard": "pass"}, moves=["6-6", "draw"]),
            "move 2: nobody draws: the boneyard rule is pass",
        ),
        (
            with_(rules={**ONE_AGAINST_ONE, "hand_size": 14}, moves=["6-6", "draw"]),
            "move 2: seat 1 cannot draw: the boneyard is empty",
        ),
        (with_(moves=["draw"]), "move 1: nobody can draw before the opening tile"),
        (
            with_(moves=[*BEFORE_THE_DRAW["moves"], "draw"]),
            "seat 1 holds 3 tiles but the moves leave it 4 (7 dealt, plus its draws, less its"
            " tiles played)",
        ),
        (with_(boneyard=13), "'boneyard' is 13, but the moves leave 14 tiles in it"),
        (with_(seat=2), "'seat' must be a seat 0..1, not 2"),
        (with_(seat=0), "it is seat 1's turn, not seat 0's (every pass and draw is written)"),
        (with_(score=[0, 0, 0]), "'score' must be 2 points totals, like [0, 0]"),
        (with_(hand=["9-9"]), "hand: unknown tile '9-9'"),
        (with_(moves=["6-6", "6-6"]), "move 2: 6-6 is already on the line"),
        (with_(moves=["6-6", "4-0"]), "move 2: 4-0 is in the seat's hand, so it cannot be played"),
        (
            with_(moves=["6-6", "pass", "pass"]),
            "move 2: seat 1 must draw from the boneyard (14 left), cannot pass",
        ),
    ],
)
def test_a_bad_request_in_a_format_gets_one_error_line(
    request_: dict[str, Any], message: str
) -> None:
    assert ask(request_) == {"error": message}


def test_today_s_requests_may_say_the_boneyard_is_empty_and_nothing_else() -> None:
    request = {
        "rules": "venezolano",
        "seat": 1,
        "hand": ["6-4", "6-3", "5-4", "5-3", "4-4", "2-1", "0-0"],
        "starter": 0,
        "moves": ["6-6"],
    }
    assert "move" in ask({**request, "boneyard": 0})
    assert ask({**request, "boneyard": 3}) == {
        "error": "'boneyard' must be 0: today's game deals every tile"
    }


def blocked_individual_hand() -> Match:
    """The first hand of ``individual`` (all 28 tiles dealt) that ends in a tranca when
    seeded matches play their first legal move."""
    for seed in range(500):
        match = Match.new(find_any_preset("individual"), random.Random(seed))
        while not match.hand.is_over:
            match = match.apply(match.hand.legal_moves()[0])
        if match.hand.outcome is not None and match.hand.outcome.end.value == "blocked":
            return match
    raise AssertionError("no tranca in 500 seeds")


def test_a_request_after_a_tranca_of_individual_play_is_an_error() -> None:
    hand = blocked_individual_hand().hand
    last = hand.history[-1][0]
    seat = (last + 1) % 4
    view = seat_view(hand, seat)
    request = request_of(view)
    assert ask(request) == {"error": "the hand has ended (blocked: no tile left fits the ends)"}
    request["moves"].append("pass")
    assert ask(request) == {
        "error": f"move {len(request['moves'])}: moves after the hand ended (blocked)"
    }
