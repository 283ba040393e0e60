from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, HandState, Move, Side, Tile, deal_tiles, seat_view
from engine.robots import make_robot
from engine.robots.protocol import ProtocolError, answer, move_text, read_request, serve

EXAMPLE: dict[str, Any] = {
    "rules": "venezolano",
    "seat": 1,
    "hand": ["6-4", "6-3", "5-4", "5-3", "4-4", "2-1", "0-0"],
    "starter": 0,
    "moves": ["6-6"],
    "score": [0, 0],
}
SEAT0 = ["6-6", "6-5", "5-5", "4-1", "3-0", "2-2", "1-0"]


def ask(request: object, level: str = "jugador", seed: int = 1) -> dict[str, str]:
    line = request if isinstance(request, str) else json.dumps(request)
    return answer(line, make_robot(level), seed)


def error_of(request: object) -> str:
    reply = ask(request)
    assert set(reply) == {"error"}, reply
    return reply["error"]


def with_(**changes: Any) -> dict[str, Any]:
    return {**EXAMPLE, **changes}


def test_the_documented_request_gets_a_legal_move() -> None:
    reply = ask(EXAMPLE, "experto")
    assert reply in ({"move": "6-4"}, {"move": "6-3"})


def test_a_seat_with_nothing_that_fits_answers_pass() -> None:
    hand = ["5-4", "5-3", "4-4", "2-1", "0-0", "3-3", "1-1"]
    for level in ("novato", "maestro"):
        assert ask(with_(hand=hand), level) == {"move": "pass"}


def test_same_seed_same_answer_and_every_level_answers() -> None:
    for level in ("novato", "aprendiz", "jugador", "experto", "maestro"):
        first = ask(EXAMPLE, level, seed=9)
        assert "move" in first
        assert ask(EXAMPLE, level, seed=9) == first


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('"6-6"', "JSON object"),
        (with_(deal=[]), "unknown field 'deal'"),
        ({k: v for k, v in EXAMPLE.items() if k != "hand"}, "missing field 'hand'"),
        ({k: v for k, v in EXAMPLE.items() if k != "rules"}, "missing field 'rules'"),
        ({k: v for k, v in EXAMPLE.items() if k != "moves"}, "missing field 'moves'"),
        ({k: v for k, v in EXAMPLE.items() if k != "starter"}, "missing field 'starter'"),
        ({k: v for k, v in EXAMPLE.items() if k != "seat"}, "missing field 'seat'"),
        (with_(rules="cubano"), "unknown preset"),
        (with_(rules={"target": 77}), "target"),
        (with_(seat=4), "'seat' must be a seat"),
        (with_(seat="1"), "'seat' must be a seat"),
        (with_(seat=True), "'seat' must be a seat"),
        (with_(starter=-1), "'starter' must be a seat"),
        (with_(hand="6-4"), "'hand' must be a list"),
        (with_(hand=["6-4", "7-1"]), "unknown tile '7-1'"),
        (with_(hand=["6-4", 64]), "a tile is written"),
        (with_(hand=["6-4", "4-6"]), "listed twice"),
        (with_(hand=[]), "the hand has ended"),
        (with_(hand=[*EXAMPLE["hand"], "3-3"]), "at most 7"),
        (with_(score=[1]), "'score'"),
        (with_(score=[-1, 0]), "'score'"),
        (with_(moves="6-6"), "'moves' must be a list"),
        (with_(moves=[66]), "move 1: a move is text"),
        (with_(moves=["6-6 up"]), "move 1: cannot read"),
        (with_(moves=["pass"]), "before the opening"),
        (with_(moves=["6-6", "pass", "pass", "pass", "pass"]), "move 5: a fourth pass"),
        (with_(moves=["6-6", "6-6"]), "move 2: 6-6 is already on the line"),
        (with_(moves=["6-6", "6-4"]), "in the seat's hand"),
        (with_(moves=["6-6", "1-0"]), "move 2: 1-0 fits neither end"),
        (with_(moves=["6-6", "6-2", "2-6 left"]), "move 3: 6-2 is already"),
        (with_(moves=["6-6", "6-2", "5-0 left"]), "fits neither"),
        (with_(moves=["6-6", "6-2", "6-0 right"]), "does not fit the right end"),
        (with_(seat=0, starter=0, hand=SEAT0, moves=[]), None),
        (with_(starter=2, moves=[]), "turn to open"),
        (with_(moves=["6-6", "pass"]), "cannot pass"),
        (with_(moves=[]), "turn to open"),
        (with_(hand=EXAMPLE["hand"][:6]), "holds 6 tiles but played 0"),
    ],
)
def test_every_bad_request_gets_one_error_line_saying_why(
    request_: object, words: str | None
) -> None:
    if words is None:
        assert ask(request_) == {"move": "6-6"}
        return
    assert words in error_of(request_)


def test_a_side_is_required_when_a_tile_fits_both_ends_differently() -> None:
    hand = ["6-3", "5-4", "5-3", "4-4", "2-1", "0-0"]
    request = with_(hand=hand, moves=["6-6", "6-4", "6-2", "4-2"])
    assert "side is required" in error_of(request)


BLOCKING_MOVES = [
    "0-0", "2-0 left", "2-1 left", "1-0 left", "3-0 right",
    "4-3 right", "4-0 right", "5-0 right", "6-5 right", "6-0 right",
]  # fmt: skip
"""Ten tiles that leave ends 0 and 0 with every 0 on the line: a tranca."""


def test_a_blocked_hand_is_refused() -> None:
    request = {
        "rules": "internacional",
        "seat": 2,
        "hand": ["6-6", "5-5", "4-4", "3-3", "2-2"],
        "starter": 0,
        "moves": BLOCKING_MOVES,
    }
    assert "the hand has ended (blocked" in error_of(request)
    request["moves"] = [*BLOCKING_MOVES, "pass"]
    assert "move 11: moves after the hand ended" in error_of(request)
    request["moves"] = BLOCKING_MOVES[:-1]
    request["seat"], request["hand"] = 1, ["6-6", "6-0", "5-5", "4-4", "3-3"]
    assert "move" in ask(request)


def test_a_hand_someone_went_out_of_is_refused() -> None:
    rules = PRESETS["internacional"]
    for seed in range(50):
        rng = random.Random(seed)
        state = HandState.start(rules, deal_tiles(rng, rules), 0)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
        outcome = state.outcome
        assert outcome is not None
        if outcome.end.value != "domino":
            continue
        seat = (outcome.winner_seat + 1) & 3  # type: ignore[operator]
        request = {
            "rules": "internacional",
            "seat": seat,
            "hand": [str(t) for t in state.tiles(seat)],
            "starter": 0,
            "moves": [m.text() for _s, m in state.history],
        }
        assert "the hand has ended" in error_of(request)
        return
    raise AssertionError("no domino in fifty random hands")


def test_passes_may_be_left_out() -> None:
    full = with_(seat=0, hand=SEAT0[1:], moves=["6-6", "6-4", "6-2", "pass"])
    short = with_(seat=0, hand=SEAT0[1:], moves=["6-6", "6-4", "6-2"])
    view_full, _ = read_request(full)
    view_short, _ = read_request(short)
    assert view_full.history == view_short.history
    assert view_full.numbers_lacking()[3] == frozenset({2, 4})


def test_an_opening_written_low_high_mirrors_the_sides() -> None:
    base = {
        "rules": "internacional",
        "seat": 2,
        "hand": ["4-2", "0-0", "1-1", "3-3", "5-5", "5-0", "1-0"],
        "starter": 0,
    }
    view, mirrored = read_request({**base, "moves": ["4-6", "6-2"]})
    assert mirrored and view.ends == (2, 4)
    assert move_text(view, Move(Tile(4, 2), Side.LEFT), mirrored) == "4-2 right"
    view2, mirrored2 = read_request({**base, "moves": ["6-4", "6-2 left"]})
    assert not mirrored2 and view2.ends == (2, 4)
    assert move_text(view2, Move(Tile(4, 2), Side.LEFT), mirrored2) == "4-2 left"
    assert ask({**base, "moves": ["4-6", "6-2"]})["move"] in ("4-2 left", "4-2 right")


def _record_moves(state: HandState, mirror: bool, keep_passes: bool) -> list[str]:
    out = []
    opening = state.history[0][1].tile if state.history else None
    mirror = mirror and opening is not None and not opening.is_double
    for k, (_seat, move) in enumerate(state.history):
        if move.tile is None:
            if keep_passes:
                out.append("pass")
        elif k == 0:
            t = move.tile
            out.append(f"{t.low}-{t.high}" if mirror else str(t))
        else:
            assert move.side is not None
            side = move.side.opposite if mirror else move.side
            out.append(f"{move.tile} {side.value}")
    return out


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 100_000), st.booleans())
def test_a_request_rebuilds_the_seats_view_of_a_real_hand(
    preset: str, seed: int, mirror: bool
) -> None:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal, starter = deal_tiles(rng, rules), rng.randrange(4)
    # a request without a score is a match's first hand (robot-protocol.md): where the
    # rules open it with 6-6 and the starter holds it, the hand must open with it
    six_six = Tile(6, 6)
    opens = rules.first_starter == "double_six" and six_six in deal[starter]
    state = HandState.start(rules, deal, starter, opening_tile=six_six if opens else None)
    for _ in range(rng.randrange(0, 24)):
        nxt = state.apply(rng.choice(state.legal_moves()))
        if nxt.is_over:
            break
        state = nxt
    seat = state.turn
    request = {
        "rules": preset,
        "seat": seat,
        "hand": [str(t) for t in state.tiles(seat)],
        "starter": state.starter,
        "moves": _record_moves(state, mirror, keep_passes=True),
    }
    view, _mirrored = read_request(request)
    truth = seat_view(state, seat)
    assert view.history == truth.history
    assert view.ends == truth.ends
    assert view.line == truth.line
    assert view.tile_counts == truth.tile_counts
    assert view.legal_moves() == truth.legal_moves()
    # without the passes the request is still read as a consistent position
    request["moves"] = _record_moves(state, mirror, keep_passes=False)
    short, _ = read_request(request)
    assert short.ends == truth.ends
    assert short.legal_moves() == truth.legal_moves()
    assert sum(short.tile_counts) == sum(truth.tile_counts)
    reply = ask(request)
    assert "move" in reply


def test_serve_answers_line_by_line_skips_blank_lines_and_keeps_going() -> None:
    lines = [json.dumps(EXAMPLE), "", "oops", json.dumps(EXAMPLE)]
    out = io.StringIO()
    assert serve(make_robot("jugador"), lines, out, seed=1) == 3
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert "move" in replies[0] and "error" in replies[1] and replies[2] == replies[0]


def test_read_request_raises_protocol_errors() -> None:
    with pytest.raises(ProtocolError):
        read_request([])


def test_a_request_in_a_format_is_answered_with_a_legal_move() -> None:
    rules = {"preset": "venezolano", "players": 2, "partnership": False, "boneyard": "draw"}
    assert ask(with_(rules=rules)) in ({"move": "6-4"}, {"move": "6-3"})
