from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RecordError
from engine.match import Match
from engine.moves import Move, Side
from engine.records import read_record, record_of, replay, replay_summary
from engine.rules import PRESETS, Rules, find_any_preset
from tests.oracle import expected_outcome

RECORDS = Path(__file__).parent / "records"
SCENARIOS = sorted(p.stem for p in RECORDS.glob("*.json") if not p.stem.endswith(".expected"))


def load(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text())


def example() -> dict[str, Any]:
    return load("records_md_example")


def test_the_records_md_example_replays_to_the_documented_output() -> None:
    summary = replay_summary(replay(example()))
    assert summary == {
        "hands": [
            {
                "end": "domino",
                "winner_team": 0,
                "winner_seat": 0,
                "points": 23,
                "capicua": False,
                "pips_left": [0, 17, 8, 6],
                "score": [23, 0],
            }
        ],
        "score": [23, 0],
        "winner_team": None,
        "finished": False,
    }


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_scripted_scoring_path_replays_as_the_rule_book_scores_it(name: str) -> None:
    """Every stored record is checked against the independent oracle of rules.md."""
    record = load(name)
    summary = replay_summary(replay(record))
    assert summary == json.loads((RECORDS / f"{name}.expected.json").read_text())
    rules = Rules.from_spec(record["rules"]).model_dump()
    for hand_record, result in zip(record["hands"], summary["hands"], strict=True):
        plays, ends = [], None
        seat = hand_record.get("starter", 0)
        for text in hand_record["moves"]:
            if text == "pass":
                seat = (seat + 1) % 4
                continue
            tile, _, side = text.partition(" ")
            a, b = (int(x) for x in tile.split("-"))
            plays.append((seat, tile, ends))
            if ends is None:
                ends = (a, b)
            elif side == "left" or (not side and ends[0] in (a, b) and ends[0] != ends[1]):
                ends = (b if a == ends[0] else a, ends[1])
            else:
                ends = (ends[0], b if a == ends[1] else a)
            seat = (seat + 1) % 4
        if result["end"] == "unfinished":
            continue
        want = expected_outcome(rules, hand_record["deal"], plays, result["end"] == "domino")
        got = {k: result[k] for k in want}
        assert got == want


def test_scenarios_cover_every_scoring_path() -> None:
    ends = {
        (h["end"], h["winner_team"] is None, h["capicua"])
        for n in SCENARIOS
        for h in json.loads((RECORDS / f"{n}.expected.json").read_text())["hands"]
    }
    assert ("domino", False, False) in ends
    assert ("domino", False, True) in ends
    assert ("blocked", False, False) in ends
    assert ("blocked", True, False) in ends


def test_a_capicua_adds_the_bonus_and_a_double_never_counts() -> None:
    capicua = replay_summary(replay(load("capicua_non_double")))["hands"][0]
    assert capicua["capicua"] is True
    assert capicua["points"] == capicua["pips_left"][1] + capicua["pips_left"][3] + 25
    double = replay_summary(replay(load("double_is_never_capicua")))["hands"][0]
    assert double["capicua"] is False


def test_a_tied_tranca_scores_nothing_and_names_no_winner() -> None:
    hand = replay_summary(replay(load("tranca_tie")))["hands"][0]
    p = hand["pips_left"]
    assert p[0] + p[2] == p[1] + p[3]
    assert (hand["winner_team"], hand["winner_seat"], hand["points"]) == (None, None, 0)


def test_under_the_individual_rule_partners_tied_lowest_win_for_their_team() -> None:
    hand = replay_summary(replay(load("individual_partners_tie")))["hands"][0]
    p = hand["pips_left"]
    low = min(p)
    assert [s for s in range(4) if p[s] == low] in ([0, 2], [1, 3])
    assert hand["winner_team"] == p.index(low) % 2


def test_under_the_individual_rule_a_cross_team_tie_scores_nothing() -> None:
    hand = replay_summary(replay(load("individual_cross_team_tie")))["hands"][0]
    assert hand["winner_team"] is None and hand["points"] == 0


def test_all_counting_scores_every_pip_left_including_the_winners() -> None:
    hand = replay_summary(replay(load("tranca_all_counting")))["hands"][0]
    assert hand["points"] == sum(hand["pips_left"])


def test_after_a_scoreless_hand_the_winner_rule_rotates_the_opener() -> None:
    record = load("tranca_tie_then_winner_rule_rotates")
    assert record["hands"][1]["starter"] == (record["hands"][0]["starter"] + 1) % 4
    bad = copy.deepcopy(record)
    bad["hands"][1]["starter"] = (record["hands"][0]["starter"] + 2) % 4
    with pytest.raises(RecordError, match=r"^hand 2: starter \d contradicts"):
        replay(bad)


def test_under_the_winner_rule_the_hand_winner_opens_next() -> None:
    record = load("winner_rule_next_opener_is_winner")
    summary = replay_summary(replay(record))
    assert record["hands"][1]["starter"] == summary["hands"][0]["winner_seat"]


def test_passes_may_be_left_out() -> None:
    record = example()
    record["hands"][0]["moves"] = [m for m in record["hands"][0]["moves"] if m != "pass"]
    assert replay_summary(replay(record)) == replay_summary(replay(example()))


def test_a_reversed_opener_mirrors_the_sides() -> None:
    record = load("tranca_team_win")
    plain = replay_summary(replay(record))
    hand = record["hands"][0]
    moves = hand["moves"]
    first = moves[0].split("-")
    if first[0] != first[1]:
        moves[0] = f"{first[1]}-{first[0]}"
        hand["moves"] = [
            m.replace(" left", " @").replace(" right", " left").replace(" @", " right")
            for m in moves
        ]
        assert replay_summary(replay(record)) == plain


def test_a_sideless_tile_on_equal_ends_goes_right_in_a_record_opened_low_high() -> None:
    """records.md: without a side, a tile on equal ends goes on the record's right end,
    also when the first tile was written low-high (the engine's line is then mirrored)."""

    def record(opener: str, moves: list[str]) -> dict[str, Any]:
        hand = copy.deepcopy(example()["hands"][0])
        hand["moves"] = [opener, *moves]
        return {"rules": {"preset": "internacional"}, "hands": [hand]}

    # Record ends: 5|6, 4|6, 4|2, 2|2 (4-2 on the left), 2|2, 2|1 (2-1 on the right), 2|5.
    low_high = record("5-6", ["5-4", "6-2", "4-2 left", "2-2", "2-1", "5-1 right"])
    # The same line with the first tile written high-low: left and right swap, so the
    # tiles on equal ends need "left" (without a side they would go on its right).
    high_low = record("6-5", ["5-4", "6-2", "4-2 right", "2-2 left", "2-1 left", "5-1 left"])
    mirrored = replay(low_high).hand
    plain = replay(high_low).hand
    assert mirrored.line == plain.line
    # The record reads 2|4 4|5 5|6 6|2 2|2 2|1 1|5; the engine holds it mirrored.
    line = [(p.left, p.right) for p in mirrored.line]
    assert line == [(5, 1), (1, 2), (2, 2), (2, 6), (6, 5), (5, 4), (4, 2)]


def test_the_match_end_at_the_target_is_reported() -> None:
    rng = random.Random(21)
    match = Match.new(PRESETS["venezolano"], rng)
    while True:
        while not match.hand.is_over:
            match = match.apply(rng.choice(match.hand.legal_moves()))
        if match.is_over:
            break
        match = match.next_hand(rng)
    summary = replay_summary(replay(record_of(match)))
    assert summary["finished"] is True
    assert summary["winner_team"] == match.winner_team
    assert max(summary["score"]) >= 100


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(list(PRESETS)), st.integers(0, 10**9), st.integers(1, 200))
def test_writing_then_replaying_a_random_match_reproduces_it(
    preset: str, seed: int, stop_after: int
) -> None:
    rng = random.Random(seed)
    match = Match.new(PRESETS[preset], rng)
    for _ in range(stop_after):
        if match.hand.is_over:
            if match.is_over:
                break
            match = match.next_hand(rng)
        match = match.apply(rng.choice(match.hand.legal_moves()))
    again = replay(json.dumps(record_of(match)))
    assert again.score == match.score
    assert [h.history for h in again.hands] == [h.history for h in match.hands]
    assert [h.line for h in again.hands] == [h.line for h in match.hands]


def write_record(match: Match, rng: random.Random) -> dict[str, Any]:
    """Write ``match`` as records.md says a player may, independently of record_of:
    every tile (in the deal and in the moves) in a random order (``5-6`` or ``6-5``),
    every side and every pass left out wherever records.md allows, and ``starter`` left
    out where the rules decide it.

    The writer keeps the line's two open ends as the record reads them: the first tile
    ``a-b`` opens with ``a`` on the left. Where each tile went it takes from the match's
    line (the opening tile's placement tells which way round the engine drew the line).
    """
    hands = []
    for number, state in enumerate(match.hands):
        entries: list[str] = []
        ends: tuple[int, int] | None = None
        mirrored = False
        for _seat, move in state.history:
            tile = move.tile
            if tile is None:
                entries.append("pass")
                continue
            a, b = (tile.high, tile.low) if rng.random() < 0.5 else (tile.low, tile.high)
            text = f"{a}-{b}"
            if ends is None:
                ends = (a, b)
                opening = next(p for p in state.line if p.order == 0)
                mirrored = a != b and (a, b) != (opening.left, opening.right)
                entries.append(text)
                continue
            assert move.side is not None
            side = move.side.value
            if mirrored:
                side = "left" if side == "right" else "right"
            left, right = ends
            assert (left if side == "left" else right) in (a, b)
            if left == right:
                needed = side == "left"  # without a side: the right end
            else:
                needed = left in (a, b) and right in (a, b)  # fits both: required
            entries.append(f"{text} {side}" if needed else text)
            if side == "left":
                ends = (b if a == left else a, right)
            else:
                ends = (left, b if a == right else a)
        # A pass may be left out when a tile follows it in the hand (the player passes
        # automatically before that tile); passes at the end of an unfinished hand stay.
        last_tile = max((i for i, e in enumerate(entries) if e != "pass"), default=-1)
        moves = [
            e for i, e in enumerate(entries) if e != "pass" or i > last_tile or rng.random() < 0.5
        ]
        hand: dict[str, Any] = {
            "deal": [
                [f"{t.high}-{t.low}" if rng.random() < 0.5 else f"{t.low}-{t.high}" for t in seat]
                for seat in state.deal
            ],
            "moves": moves,
        }
        rules_decide = number > 0 or match.rules.first_starter == "double_six"
        if not rules_decide or rng.random() < 0.5:
            hand["starter"] = state.starter
        hands.append(hand)
    return {"rules": match.rules.to_spec(), "hands": hands}


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), stop_after=st.integers(1, 600))
def test_a_hand_written_record_of_a_random_match_replays_to_the_same_match(
    preset: str, seed: int, stop_after: int
) -> None:
    """Differential: random tile orientations, sides and passes left out where records.md
    allows, replayed, give the original match's lines, outcomes and score."""
    rng = random.Random(seed)
    match = Match.new(PRESETS[preset], rng)
    for _ in range(stop_after):
        if match.hand.is_over:
            if match.is_over:
                break
            match = match.next_hand(rng)
        move = rng.choice(match.hand.legal_moves())
        ends = match.hand.ends
        if move.tile is not None and ends is not None and ends[0] == ends[1]:
            # Both placements are legal on equal ends; the engine lists only the right.
            move = Move(move.tile, rng.choice([Side.LEFT, Side.RIGHT]))
        match = match.apply(move)
    again = replay(json.dumps(write_record(match, rng)))
    assert [h.line for h in again.hands] == [h.line for h in match.hands]
    assert [h.outcome for h in again.hands] == [h.outcome for h in match.hands]
    assert [h.history for h in again.hands] == [h.history for h in match.hands]
    assert again.score == match.score
    assert again.is_over == match.is_over


# -- invalid records ----------------------------------------------------------------


def with_moves(moves: list[str]) -> dict[str, Any]:
    record = example()
    record["hands"][0]["moves"] = moves
    return record


MOVES = example()["hands"][0]["moves"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("{not json", r"^record: not JSON"),
        ("[]", r"^record: a record is a JSON object"),
        ({"hands": []}, r"^record: 'rules' is missing"),
        ({"rules": "cubano", "hands": []}, r"^record: rules: unknown preset 'cubano'"),
        ({"rules": {"target": 75}, "hands": []}, r"^record: rules: option 'target' must be one of"),
        ({"rules": {"speed": 1}, "hands": []}, r"^record: rules: unknown option 'speed'"),
        ({"rules": "venezolano", "hands": []}, r"^record: 'hands' must be a non-empty list"),
        (
            with_moves(["6-6", "6-4", "6-2", "4-2 right", "6-5"]),
            r"^hand 1, move 5: 6-5 fits neither end \(ends 2 and 2\)$",
        ),
        (
            with_moves(["6-6", "6-4", "6-2", "4-2 right", "4-4"]),
            r"^hand 1, move 5: seat 0 does not hold 4-4$",
        ),
        (
            with_moves(
                [
                    "6-6",
                    "6-4",
                    "6-2",
                    "4-2 right",
                    "2-2",
                    "2-1",
                    "5-1",
                    "5-0",
                    "1-0",
                    "pass",
                    "5-2",
                    "pass",
                ]
            ),
            r"^hand 1, move 12: seat 3 must play \(holds 3-1 for the 1 end\), cannot pass$",
        ),
        (with_moves(["6-6", "6-4", "7-2"]), r"^hand 1, move 3: unknown tile '7-2'$"),
        (with_moves(["6-6", "6-4", "6-5"]), r"^hand 1, move 3: seat 2 does not hold 6-5$"),
        (
            with_moves(["6-6", "6-4", "5-2"]),
            r"^hand 1, move 3: 5-2 fits neither end \(ends 6 and 4\)$",
        ),
        (
            with_moves(["6-6", "6-4", "6-2 right"]),
            r"^hand 1, move 3: 6-2 does not fit the right end \(ends 6 and 4\)$",
        ),
        (
            with_moves(["6-6", "6-4", "6-2", "4-2"]),
            r"^hand 1, move 4: 4-2 fits both ends \(2 and 4\): its side \(left or right\) is required$",
        ),
        (
            with_moves([*MOVES, "pass"]),
            r"^hand 1, move 26: a move after the hand ended \(domino by seat 0\)$",
        ),
        (with_moves(["6-5"]), r"^hand 1, move 1: seat 0 must open with 6-6 \(double_six\)$"),
        (with_moves(["6-6", "6-4 up"]), r"^hand 1, move 2: cannot read move '6-4 up'$"),
        (with_moves(["6-6", 64]), r"^hand 1, move 2: a move is text"),
    ],
)
def test_an_invalid_record_names_the_hand_the_move_and_the_reason(
    record: object, message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        replay(record if isinstance(record, str) else json.dumps(record))


def _hand_problem(change: Any) -> dict[str, Any]:
    record = example()
    change(record["hands"][0])
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            _hand_problem(lambda h: h["deal"][1].__setitem__(0, "5-5")),
            r"^hand 1: the deal repeats 5-5$",
        ),
        (_hand_problem(lambda h: h["deal"][2].pop()), r"^hand 1: seat 2 is dealt 6 tiles, not 7$"),
        (_hand_problem(lambda h: h["deal"].pop()), r"^hand 1: 'deal' must be four lists"),
        (
            _hand_problem(lambda h: h["deal"][0].__setitem__(0, "9-9")),
            r"^hand 1: unknown tile '9-9' in the deal$",
        ),
        (
            _hand_problem(lambda h: h.__setitem__("starter", 2)),
            r"^hand 1: starter 2 contradicts double_six \(seat 0 holds 6-6\)$",
        ),
        (_hand_problem(lambda h: h.__setitem__("starter", 7)), r"^hand 1: starter must be a seat"),
        (
            _hand_problem(lambda h: h.__setitem__("colour", "red")),
            r"^hand 1: unknown field 'colour'$",
        ),
    ],
)
def test_a_problem_with_a_whole_hand_names_the_hand_only(
    record: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_a_deal_the_redeal_rule_annuls_is_refused() -> None:
    record = example()
    record["rules"] = {"preset": "venezolano", "redeal_doubles": 4}
    # seat 0 gets four doubles
    record["hands"][0]["deal"][0] = ["6-6", "5-5", "2-2", "1-1", "3-0", "4-1", "1-0"]
    record["hands"][0]["deal"][2] = ["6-2", "6-1", "5-2", "5-1", "4-3", "3-3", "6-5"]
    with pytest.raises(RecordError, match=r"^hand 1: seat 0 was dealt 4 doubles: the redeal rule"):
        replay(record)


def test_the_first_starter_is_required_when_the_rules_leave_it_to_chance() -> None:
    record = example()
    record["rules"] = "internacional"
    del record["hands"][0]["starter"]
    with pytest.raises(
        RecordError, match=r"^hand 1: 'starter' is required when first_starter is random$"
    ):
        replay(record)


def test_a_hand_after_an_unfinished_hand_or_after_the_match_is_refused() -> None:
    record = example()
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:5]
    record["hands"].append(copy.deepcopy(example()["hands"][0]) | {"starter": 1})
    with pytest.raises(RecordError, match=r"^hand 2: hand 1 did not finish$"):
        replay(record)
    rng = random.Random(21)
    match = Match.new(PRESETS["venezolano"], rng)
    while True:
        while not match.hand.is_over:
            match = match.apply(rng.choice(match.hand.legal_moves()))
        if match.is_over:
            break
        match = match.next_hand(rng)
    finished = record_of(match)
    extra = copy.deepcopy(finished["hands"][-1])
    extra["starter"] = match.next_starter()
    finished["hands"].append(extra)
    with pytest.raises(
        RecordError, match=rf"^hand {len(match.hands) + 1}: the match already ended$"
    ):
        replay(finished)


def test_an_unfinished_last_hand_is_reported_as_unfinished() -> None:
    record = example()
    record["hands"][0]["moves"] = record["hands"][0]["moves"][:5]
    summary = replay_summary(replay(record))
    assert summary["hands"][0]["end"] == "unfinished"
    assert summary["hands"][0]["winner_team"] is None
    assert summary["finished"] is False


def test_table_options_are_accepted_and_do_not_change_a_replay() -> None:
    record = example()
    record["rules"] = {
        "preset": "venezolano",
        "turn_seconds": 20,
        "stake": 50,
        "forced_move_seconds": "none",
    }
    assert replay_summary(replay(record)) == replay_summary(replay(example()))


def test_read_record_keeps_extra_top_level_fields() -> None:
    record = example() | {"table": "abc"}
    assert read_record(record).extra == {"table": "abc"}
    assert record_of(replay(record), table="abc")["table"] == "abc"


def test_a_record_of_a_new_format_is_read_by_that_format_s_deal() -> None:
    record = example()
    record["rules"] = {"preset": "venezolano", "players": 2, "partnership": False}
    with pytest.raises(RecordError, match=r"^hand 1: 'deal' must be 2 lists of 7 tiles$"):
        read_record(record)
    match = Match.new(find_any_preset("cubano"), random.Random(1))
    assert replay_summary(replay(record_of(match))) == replay_summary(match)
