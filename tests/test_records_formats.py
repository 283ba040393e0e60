"""Records of every format (records.md, "Formats and hidden information"): the private
record, with the boneyard in draw order and each drawn tile, and its replay."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RecordError
from engine.match import Match
from engine.records import (
    check_record,
    public_record_of,
    read_record,
    record_of,
    replay,
    replay_public,
    replay_summary,
)
from engine.rules import FORMAT_PRESETS, Rules, find_any_preset
from engine.tiles import Tile

FORMATS: dict[str, Rules] = {
    **FORMAT_PRESETS,
    "uno-contra-uno double_nine": find_any_preset("uno-contra-uno", tile_set="double_nine"),
    "three players draw": find_any_preset("uno-contra-uno", players=3),
}

ONE_AGAINST_ONE = {"preset": "venezolano", "players": 2, "partnership": False, "boneyard": "draw"}


def drawn_hand() -> dict[str, Any]:
    """A one-against-one hand by hand: seat 1 draws 6-4 (no fit), then 1-0, and plays it."""
    return {
        "rules": dict(ONE_AGAINST_ONE),
        "hands": [
            {
                "deal": [
                    ["3-0", "4-1", "4-4", "5-1", "5-2", "5-3", "6-6"],
                    ["2-2", "3-2", "4-0", "4-3", "5-4", "6-0", "6-1"],
                ],
                "boneyard": [
                    *["6-4", "1-0", "6-5", "6-3", "0-0", "5-5", "1-1"],
                    *["2-1", "5-0", "4-2", "6-2", "2-0", "3-3", "3-1"],
                ],
                "starter": 0,
                "moves": [
                    *["6-6", "6-0", "3-0", "3-2", "5-2", "5-4", "4-1", "6-1 left", "5-1"],
                    *["draw 6-4", "draw 1-0", "1-0", "5-3", "4-0", "4-4"],
                ],
            }
        ],
    }


def play_randomly(rules: Rules, seed: int, max_moves: int) -> Match:
    """A match of ``rules`` played by the engine with random legal moves from ``seed``,
    stopped after ``max_moves`` moves or at its end."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    for _ in range(max_moves):
        if match.hand.is_over:
            if match.is_over:
                break
            match = match.next_hand(rng)
            continue
        match = match.apply(rng.choice(match.hand.legal_moves()))
    return match


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    name=st.sampled_from(sorted(FORMATS)),
    seed=st.integers(0, 2**32),
    max_moves=st.integers(1, 400),
)
def test_a_record_of_a_random_game_of_each_format_replays_to_the_same_outcome(
    name: str, seed: int, max_moves: int
) -> None:
    match = play_randomly(FORMATS[name], seed, max_moves)
    record = json.loads(json.dumps(record_of(match)))
    again = replay(record)
    assert replay_summary(again) == replay_summary(match)
    assert [h.history for h in again.hands] == [h.history for h in match.hands]
    assert [h.boneyard for h in again.hands] == [h.boneyard for h in match.hands]
    assert record_of(again) == record


def test_a_hand_built_record_with_draws_replays_as_scored_by_hand() -> None:
    match = replay(drawn_hand())
    assert match.hand.drawn_tiles(1) == (Tile(6, 4), Tile(1, 0))
    assert match.hand.boneyard_count == 12
    assert replay_summary(match) == {
        "hands": [
            {
                "end": "domino",
                "winner_team": 0,
                "winner_seat": 0,
                "points": 21,  # seat 1 keeps 2-2, 4-3 and the drawn 6-4
                "capicua": False,
                "pips_left": [0, 21],
                "score": [21, 0],
            }
        ],
        "score": [21, 0],
        "winner_team": None,
        "finished": False,
    }


def test_the_engine_writes_the_hand_built_record_back_exactly() -> None:
    assert record_of(replay(drawn_hand())) == drawn_hand()


def test_a_draw_may_leave_its_tile_out_of_a_private_record() -> None:
    record = drawn_hand()
    record["hands"][0]["moves"][9:11] = ["draw", "draw"]
    assert replay_summary(replay(record)) == replay_summary(replay(drawn_hand()))


def test_a_record_without_its_boneyard_draws_the_undealt_tiles_in_ascending_order() -> None:
    record = drawn_hand()
    del record["hands"][0]["boneyard"]
    record["hands"][0]["moves"][9:] = ["draw 0-0", "draw 1-0", "1-0", "5-3", "4-0", "4-4"]
    assert replay(record).hand.boneyard[:3] == (Tile(0, 0), Tile(1, 0), Tile(1, 1))
    assert replay_summary(replay(record))["hands"][0]["pips_left"] == [0, 11]  # 2-2 4-3 0-0


def test_today_s_records_are_written_without_a_boneyard() -> None:
    match = play_randomly(find_any_preset("venezolano"), 3, 30)
    assert all(set(hand) == {"deal", "starter", "moves"} for hand in record_of(match)["hands"])


def test_a_cubano_record_keeps_the_fifteen_tiles_left_out() -> None:
    match = play_randomly(find_any_preset("cubano"), 5, 10)
    hand = record_of(match)["hands"][0]
    assert len(hand["boneyard"]) == 15
    assert [len(tiles) for tiles in hand["deal"]] == [10, 10, 10, 10]
    assert not any(move.startswith("draw") for move in hand["moves"])


def with_moves(moves: list[str], rules: object = None) -> dict[str, Any]:
    record = drawn_hand()
    record["hands"][0]["moves"] = moves
    if rules is not None:
        record["rules"] = rules
    return record


def with_hand(**fields: object) -> dict[str, Any]:
    record = drawn_hand()
    record["hands"][0].update(fields)
    return record


MOVES_TO_THE_DRAW = ["6-6", "6-0", "3-0", "3-2", "5-2", "5-4", "4-1", "6-1 left", "5-1"]

# Two players dealt 14 tiles each: the boneyard is empty from the start. Seat 0 holds
# every 6, so seat 1 has nothing for the opening 6-6.
SIXES = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
NO_SIX = [f"{a}-{b}" for a in range(6) for b in range(a + 1)]
FULL_DEAL = [SIXES + NO_SIX[:7], NO_SIX[7:]]


def full_deal(boneyard: str) -> dict[str, Any]:
    rules = {**ONE_AGAINST_ONE, "hand_size": 14, "boneyard": boneyard}
    hand = {"deal": FULL_DEAL, "moves": ["6-6", "draw"]}
    return {"rules": rules, "hands": [hand]}


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            with_moves(["6-6", "draw"]),
            "hand 1, move 2: seat 1 cannot draw: it holds 6-0 for the 6 end",
        ),
        (
            with_moves([*MOVES_TO_THE_DRAW, "draw 0-0"]),
            "hand 1, move 10: seat 1 draws 6-4 from the boneyard, not 0-0",
        ),
        (
            with_moves([*MOVES_TO_THE_DRAW, "pass"]),
            "hand 1, move 10: seat 1 must draw from the boneyard (14 left), cannot pass",
        ),
        (with_moves([*MOVES_TO_THE_DRAW, "1-0"]), "hand 1, move 10: seat 1 does not hold 1-0"),
        (
            with_moves([*MOVES_TO_THE_DRAW, "draw", "draw", "draw"]),
            "hand 1, move 12: seat 1 cannot draw: it holds 1-0 for the 1 end",
        ),
        (with_moves(["draw"]), "hand 1, move 1: seat 0 cannot draw: it opens the hand with a tile"),
        (with_moves(["6-6", "draw 9-9"]), "hand 1, move 2: unknown tile '9-9'"),
        (with_moves(["6-6", "draw me"]), "hand 1, move 2: unknown tile 'me'"),
        (full_deal("draw"), "hand 1, move 2: seat 1 cannot draw: the boneyard is empty"),
        (
            full_deal("pass"),
            "hand 1, move 2: seat 1 cannot draw: the boneyard rule is pass (nobody draws)",
        ),
        (
            with_moves([*drawn_hand()["hands"][0]["moves"], "draw"]),
            "hand 1, move 16: a move after the hand ended (domino by seat 0)",
        ),
        (
            with_hand(boneyard=drawn_hand()["hands"][0]["boneyard"][1:]),
            "hand 1: the boneyard is not the 14 tiles left undealt",
        ),
        (
            with_hand(boneyard=["6-4", "6-4", *drawn_hand()["hands"][0]["boneyard"][2:]]),
            "hand 1: the boneyard is not the 14 tiles left undealt",
        ),
        (with_hand(boneyard="6-4"), "hand 1: 'boneyard' is not a list of tiles"),
        (with_hand(boneyard=["6-4", "x"]), "hand 1: unknown tile 'x' in the boneyard"),
        (with_hand(deal=[["6-6"] * 7]), "hand 1: 'deal' must be 2 lists of 7 tiles"),
        (
            with_hand(deal=[drawn_hand()["hands"][0]["deal"][0], ["2-2"]]),
            "hand 1: seat 1 is dealt 1 tiles, not 7",
        ),
        (with_hand(starter=2), "hand 1: starter must be a seat 0..1, not 2"),
        (with_hand(starter=1), "hand 1: starter 1 contradicts double_six (seat 0 holds 6-6)"),
    ],
)
def test_an_invalid_record_of_a_format_names_the_hand_the_move_and_the_reason(
    record: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay(copy.deepcopy(record))
    assert str(caught.value) == message


def test_a_draw_in_today_s_game_is_refused_by_the_pass_rule() -> None:
    record = json.loads(json.dumps(record_of(play_randomly(find_any_preset("venezolano"), 1, 1))))
    record["hands"][0]["moves"].append("draw")
    seat = (record["hands"][0]["starter"] + 1) % 4
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value) == (
        f"hand 1, move 2: seat {seat} cannot draw: the boneyard rule is pass (nobody draws)"
    )


def test_a_boneyard_in_today_s_game_must_be_empty() -> None:
    record = json.loads(json.dumps(record_of(play_randomly(find_any_preset("venezolano"), 1, 1))))
    record["hands"][0]["boneyard"] = ["6-6"]
    with pytest.raises(RecordError) as caught:
        read_record(record)
    assert str(caught.value) == "hand 1: the boneyard is not the 0 tiles left undealt"


def test_a_double_nine_record_reads_tiles_up_to_nine() -> None:
    match = play_randomly(find_any_preset("cubano"), 9, 3)
    record = json.loads(json.dumps(record_of(match)))
    assert any("9" in tile for tiles in record["hands"][0]["deal"] for tile in tiles)
    assert read_record(record).rules == find_any_preset("cubano")


# -- public records ---------------------------------------------------------------------


def public_hand() -> dict[str, Any]:
    """The hand-built hand as the table saw it: two draws, tiles unnamed."""
    moves = drawn_hand()["hands"][0]["moves"]
    moves[9:11] = ["draw", "draw"]
    return {
        "rules": dict(ONE_AGAINST_ONE),
        "public": True,
        "hands": [{"starter": 0, "moves": moves, "pips_left": [0, 21]}],
    }


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    name=st.sampled_from([*sorted(FORMATS), "venezolano", "internacional"]),
    seed=st.integers(0, 2**32),
    max_moves=st.integers(1, 400),
)
def test_a_public_record_of_a_random_game_scores_as_the_private_one_and_hides_the_draws(
    name: str, seed: int, max_moves: int
) -> None:
    match = play_randomly(FORMATS.get(name) or find_any_preset(name), seed, max_moves)
    public = json.loads(json.dumps(public_record_of(match)))
    assert all(set(hand) <= {"starter", "moves", "pips_left"} for hand in public["hands"])
    assert not any(m.startswith("draw ") for hand in public["hands"] for m in hand["moves"])
    expected = replay_summary(match)
    if not match.hand.is_over:
        expected["hands"][-1]["pips_left"] = None
    assert replay_public(public) == expected
    assert check_record(public) == expected


def test_the_public_record_of_the_hand_built_hand_is_written_and_scored() -> None:
    assert public_record_of(replay(drawn_hand())) == public_hand()
    assert check_record(public_hand()) == replay_summary(replay(drawn_hand()))


def test_a_public_record_is_not_played_move_by_move() -> None:
    with pytest.raises(RecordError) as caught:
        replay(public_hand())
    assert str(caught.value) == (
        "record: a public record hides the deals: it is checked (domino replay),"
        " not played move by move"
    )


def public_with(moves: list[str] | None = None, **fields: object) -> dict[str, Any]:
    record = public_hand()
    hand = record["hands"][0]
    if moves is not None:
        hand["moves"] = moves
        hand.pop("pips_left")
    hand.update(fields)
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            public_with(["6-6", "6-0", "draw 6-4"]),
            "hand 1, move 3: a public record never names a drawn tile (write 'draw')",
        ),
        (
            public_with([*MOVES_TO_THE_DRAW, "pass"]),
            "hand 1, move 10: seat 1 must draw from the boneyard (14 left), cannot pass",
        ),
        (public_with(["draw"]), "hand 1, move 1: seat 0 opens the hand, cannot draw"),
        (public_with(["6-6", "6-0", "6-6"]), "hand 1, move 3: 6-6 is already on the line"),
        (public_with(["6-6", "5-4"]), "hand 1, move 2: 5-4 fits neither end (ends 6 and 6)"),
        (
            public_with(["6-6", "6-0", "6-5 right"]),
            "hand 1, move 3: 6-5 does not fit the right end (ends 6 and 0)",
        ),
        (
            public_with(["6-6", "6-0", "0-6"]),
            "hand 1, move 3: 6-0 is already on the line",
        ),
        (
            public_with(["6-6", "6-0", "6-1", "1-0"]),
            "hand 1, move 4: 1-0 fits both ends (1 and 0): its side (left or right) is required",
        ),
        (
            {**public_hand(), "rules": {**ONE_AGAINST_ONE, "boneyard": "pass"}},
            "hand 1, move 10: seat 1 cannot draw: the boneyard rule is pass (nobody draws)",
        ),
        (
            {**public_hand(), "rules": {**ONE_AGAINST_ONE, "hand_size": 14}},
            "hand 1, move 10: seat 1 cannot draw: the boneyard is empty",
        ),
        (
            public_with(pips_left=[0, 200]),
            "hand 1: the pips left (200) cannot be those of the 3 tiles held"
            " (87 pips are off the line)",
        ),
        (
            public_with(pips_left=[3, 21]),
            "hand 1: seat 0 holds no tile but shows 3 pips",
        ),
        (public_with(pips_left=[0]), "hand 1: 'pips_left' must be 2 pip counts, one per seat"),
        (
            public_with(moves=MOVES_TO_THE_DRAW, pips_left=[3, 4]),
            "hand 1: the hand cannot be blocked while the boneyard holds 14 tiles to draw",
        ),
        (
            public_with(deal=[["6-6"]]),
            "hand 1: unknown field 'deal' (a public record hides it)",
        ),
        (
            {**public_hand(), "hands": [{"moves": ["6-6"]}]},
            "hand 1: 'starter' is required in a public record's first hand (the deal is hidden)",
        ),
        (
            {**public_hand(), "hands": [public_hand()["hands"][0], {"starter": 0, "moves": []}]},
            "hand 2: starter 0 contradicts next_starter (seat 1 opens)",
        ),
        (
            {**public_hand(), "hands": [{"starter": 0, "moves": ["6-6"]}, {"moves": []}]},
            "hand 2: hand 1 did not finish",
        ),
        (
            {
                **public_hand(),
                "hands": [{"starter": 0, "moves": [*public_hand()["hands"][0]["moves"]]}],
            },
            "hand 1: seat 0 went out: the hand is over and 'pips_left' is required",
        ),
        (
            public_with([*public_hand()["hands"][0]["moves"], "pass"]),
            "hand 1, move 16: a move after the hand ended (domino by seat 0)",
        ),
        (
            {
                "rules": "venezolano",
                "public": True,
                "hands": [{"starter": 0, "moves": ["6-5"]}],
            },
            "hand 1, move 1: seat 0 must open with 6-6 (double_six)",
        ),
        (
            {
                "rules": "venezolano",
                "public": True,
                "hands": [{"starter": 0, "moves": ["6-6", "pass", "pass", "pass", "pass"]}],
            },
            "hand 1, move 5: every seat passed in a row: the hand was over (blocked) before"
            " this pass",
        ),
    ],
)
def test_an_invalid_public_record_names_the_hand_the_move_and_the_reason(
    record: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        replay_public(copy.deepcopy(record))
    assert str(caught.value) == message
