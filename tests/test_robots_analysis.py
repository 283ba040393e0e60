"""'¿Qué debí jugar?' (engine/robots/analysis.py): the maestro's evaluation of a
seat's decisions, from that seat's information only."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.hand import HandOutcome, HandState, Termination
from engine.match import Match
from engine.moves import Move
from engine.records import record_of, replay
from engine.robots.analysis import (
    CLOSE_ENOUGH,
    Decision,
    HandAnalysis,
    MoveValue,
    analyze_hand,
    analyze_record,
    decisions_of,
    evaluate_view,
)
from engine.robots.knowledge import Knowledge
from engine.rules import PRESETS, find_any_preset
from engine.tiles import ALL_TILES, Tile, mask_of
from engine.views import seat_view

RECORDS = Path(__file__).parent / "records"


def record(name: str) -> str:
    return (RECORDS / f"{name}.json").read_text()


def test_every_decision_with_a_choice_is_valued_and_the_costliest_comes_first() -> None:
    match = replay(record("tranca_team_win"))
    for seat in range(4):
        analysis = analyze_hand(match, 0, seat)
        views = decisions_of(match, 0, seat)
        assert len(analysis.decisions) == len(views)
        costs = [d.cost for d in analysis.decisions]
        assert costs == sorted(costs, reverse=True)
        for decision in analysis.decisions:
            legal = decision.view.legal_moves()
            assert sorted(map(str, (v.move for v in decision.values))) == sorted(map(str, legal))
            assert decision.played in legal and len(legal) > 1
            values = [v.value for v in decision.values]
            assert values == sorted(values, reverse=True)
            played = next(v.value for v in decision.values if v.move == decision.played)
            assert decision.cost == pytest.approx(decision.best.value - played)
        good = sum(1 for d in analysis.decisions if d.cost <= CLOSE_ENOUGH)
        expected = good / len(analysis.decisions) if analysis.decisions else None
        assert analysis.accuracy == expected


def test_the_analysis_is_the_same_for_the_same_information_whatever_the_hidden_tiles() -> None:
    match = replay(record("records_md_example"))
    view, played = decisions_of(match, 0, 0)[1]
    first = evaluate_view(view)
    # another deal of the tiles the seat could not see, consistent with all it saw
    hidden = Knowledge(view).sample(random.Random(11))
    hand = match.hands[0]
    deal = []
    for seat in range(4):
        seen = [m.tile for s, m in view.history if s == seat and m.tile is not None]
        if seat == 0:
            tiles = list(view.tiles) + seen
        else:
            tiles = [t for t in ALL_TILES if hidden[seat] >> t.index & 1] + seen
        deal.append(sorted(tiles))
    assert mask_of([t for h in deal for t in h]) == (1 << 28) - 1
    assert [sorted(h) for h in deal] != [sorted(h) for h in hand.deal]  # other hands differ
    state = HandState.start(hand.rules, deal, hand.starter, opening_tile=hand.opening_tile)
    for seat, move in view.history:
        state = state.apply(move, seat)
    other = seat_view(Match(match.rules, (state,), (0, 0)), 0)
    assert other == view
    assert evaluate_view(other) == first
    assert played in view.legal_moves()


def test_the_same_record_gives_the_same_analysis_twice() -> None:
    once = analyze_record(record("tranca_tie"), seats=[1])
    again = analyze_record(record("tranca_tie"), seats=[1])
    assert [[(d.number, d.values) for d in h.decisions] for h in once] == [
        [(d.number, d.values) for d in h.decisions] for h in again
    ]


def test_every_stored_record_is_analysed_for_each_finished_hand_and_seat() -> None:
    for path in sorted(RECORDS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        data = json.loads(path.read_text())
        match = replay(data)
        finished = sum(1 for h in match.hands if h.outcome is not None)
        analyses = analyze_record(data)
        assert len(analyses) == 4 * finished, path.name
        assert {a.seat for a in analyses} == {0, 1, 2, 3}


def test_a_bad_seat_or_hand_is_refused() -> None:
    match = replay(record("tranca_tie"))
    with pytest.raises(ValueError, match="seat"):
        analyze_hand(match, 0, 4)
    with pytest.raises(IndexError):
        analyze_hand(match, 5, 0)


# -- crafted hands where the best move is known ----------------------------------------
#
# Each hand is a venezolano deal played to a decision late in the hand where the deciding
# seat's information (its tiles, the line, the tile counts and the passes) fixes every
# legal move's result in all deals of the hidden tiles it allows, and few enough tiles
# are left for the exact endgame search: each move's value is then that result's points,
# exactly, whatever the sampling.

Deal = tuple[str, str, str, str]

# Seat 3 (team 1) holds 1-1 and 4-1 on ends 4|1; the others hold one tile each: 4-4
# (seat 0), 2-2 (seat 1, which passed on 3|4), 3-3 (seat 2). Seat 3 knows seat 1's tile;
# 4-4 and 3-3 may be either way round between seats 0 and 2.
FORCED_DOMINO: Deal = (
    "1-0 2-1 4-0 4-4 5-4 5-5 6-0",
    "0-0 2-0 2-2 3-0 5-0 6-1 6-6",
    "3-2 3-3 4-2 4-3 5-1 6-3 6-5",
    "1-1 3-1 4-1 5-2 5-3 6-2 6-4",
)
FORCED_DOMINO_OTHER_HIDDEN: Deal = (  # 4-4 and 3-3 swapped between seats 0 and 2
    "1-0 2-1 3-3 4-0 5-4 5-5 6-0",
    "0-0 2-0 2-2 3-0 5-0 6-1 6-6",
    "3-2 4-2 4-3 4-4 5-1 6-3 6-5",
    "1-1 3-1 4-1 5-2 5-3 6-2 6-4",
)
FORCED_DOMINO_MOVES = (
    "6-6, 6-3 right, 6-4 left, 5-4 left, 3-0 right, 5-1 left, 3-1 left, 4-0 right, pass,"
    " 4-3 right, 5-3 right, 5-5 right, 5-0 right, 3-2 left, 6-2 left, 6-0 left, 0-0 right,"
    " pass, pass, 1-0 right, 6-1 right, 6-5 right, 5-2 right, 2-1 right, 2-0 left, 4-2 left"
)

# Seat 2 (team 0) holds 3-1 and 5-3 on ends 1|3, every other 1 is on the line: 3-1 on the
# 3 closes the line on 1|1 with 17 pips for its team against 21. The passes tell seat 2
# every hidden tile: 2-2 3-2 (seat 0), 3-3 4-4 (seat 1), 5-2 (seat 3).
WINNING_TRANCA: Deal = (
    "1-0 2-2 3-2 4-1 4-2 4-3 6-3",
    "0-0 3-0 3-3 4-0 4-4 5-0 6-1",
    "1-1 2-0 3-1 5-3 5-5 6-4 6-5",
    "2-1 5-1 5-2 5-4 6-0 6-2 6-6",
)
WINNING_TRANCA_MOVES = (
    "6-6, 6-3 right, 6-1 left, 1-1 left, 5-1 left, 4-3 right, 4-0 right, 5-5 left, 6-0 right,"
    " pass, 5-0 left, 2-0 left, 6-2 left, pass, pass, 6-5 right, 5-4 right, 4-2 right, pass,"
    " 6-4 left, 2-1 right, 1-0 right, 0-0 right, pass, pass, 4-1 left, 3-0 right"
)

# Seat 3 (team 1) holds 1-1 and 4-1 on ends 4|1, every other 1 and 4 is on the line and
# nobody else holds either number: 1-1, or 4-1 on the 4, wins by a domino; 4-1 on the 1
# closes the line on 4|4 with 23 pips for its team against 21. Seat 1 holds 5-5 6-5;
# 5-2, 6-2 and 3-3 may lie two with seat 0 and one with seat 2 in any way.
LOSING_TRANCA: Deal = (
    "2-1 3-1 3-2 4-2 5-2 6-2 6-6",
    "0-0 2-0 5-1 5-4 5-5 6-4 6-5",
    "1-0 2-2 3-3 4-0 5-0 6-0 6-1",
    "1-1 3-0 4-1 4-3 4-4 5-3 6-3",
)
LOSING_TRANCA_OTHER_HIDDEN: Deal = (  # 5-2 and 3-3 swapped between seats 0 and 2
    "2-1 3-1 3-2 3-3 4-2 6-2 6-6",
    "0-0 2-0 5-1 5-4 5-5 6-4 6-5",
    "1-0 2-2 4-0 5-0 5-2 6-0 6-1",
    "1-1 3-0 4-1 4-3 4-4 5-3 6-3",
)
LOSING_TRANCA_MOVES = (
    "6-6, 6-4 right, 6-1 left, 4-3 right, 2-1 left, 2-0 left, 6-0 left, 6-3 left, 3-2 right,"
    " pass, 2-2 right, 3-0 left, 4-2 right, 5-4 right, 4-0 left, 5-3 right, 3-1 right,"
    " 5-1 right, 5-0 right, 4-4 left, pass, 0-0 right, 1-0 right"
)


def played(deal: Deal, *moves: str) -> Match:
    """A venezolano match whose first hand is ``deal`` (by seat; the holder of 6-6 opens)
    played through ``moves`` (records.md notation, comma-separated), by the engine."""
    hands = [[Tile.parse(text) for text in hand.split()] for hand in deal]
    starter = next(seat for seat in range(4) if Tile(6, 6) in hands[seat])
    match = Match.start(PRESETS["venezolano"], hands, starter)
    for text in ", ".join(moves).split(", "):
        match = match.apply(Move.parse(text))
    return match


def outcome(deal: Deal, *moves: str) -> HandOutcome:
    """How the hand ends when played through ``moves`` to its end."""
    found = played(deal, *moves).hand.outcome
    assert found is not None
    return found


def decision(analysis: HandAnalysis, number: int) -> Decision:
    (found,) = [d for d in analysis.decisions if d.number == number]
    return found


def value(move: str, points: float) -> MoveValue:
    return MoveValue(Move.parse(move), points)


def test_the_crafted_positions_end_as_their_comments_say() -> None:
    assert outcome(FORCED_DOMINO, FORCED_DOMINO_MOVES, "4-1 left, pass, pass, pass, 1-1") == (
        HandOutcome(Termination.DOMINO, 1, 3, 14, False, (8, 4, 6, 0), 3)
    )
    assert outcome(FORCED_DOMINO, FORCED_DOMINO_MOVES, "4-1 right, 4-4").points == 6
    assert outcome(FORCED_DOMINO, FORCED_DOMINO_MOVES, "1-1 right, 4-4").points == 9
    tranca = outcome(WINNING_TRANCA, WINNING_TRANCA_MOVES, "3-1 right")
    assert (tranca.end, tranca.winner_team, tranca.points) == (Termination.BLOCKED, 0, 21)
    assert tranca.team_pips == (17, 21)
    tranca = outcome(LOSING_TRANCA, LOSING_TRANCA_MOVES, "4-1 right")
    assert (tranca.end, tranca.winner_team, tranca.points) == (Termination.BLOCKED, 0, 23)
    assert tranca.team_pips == (21, 23)
    for line in ("1-1 right, pass, pass, pass, 4-1 left", "4-1 left, pass, pass, pass, 1-1"):
        domino = outcome(LOSING_TRANCA, LOSING_TRANCA_MOVES, line)
        assert (domino.end, domino.winner_team, domino.points) == (Termination.DOMINO, 1, 21)


def test_a_forced_domino_ranks_first_and_letting_an_opponent_out_costs_the_difference() -> None:
    match = played(FORCED_DOMINO, FORCED_DOMINO_MOVES, "1-1 right, 4-4")
    analysis = analyze_hand(match, 0, 3)
    found = decision(analysis, 27)
    assert found.values == (
        value("4-1 left", 14.0),  # the others all pass, then 1-1 dominoes: 8 + 6 pips
        value("4-1 right", -6.0),  # 4-4 dominoes on 4|4: seat 0's team scores 2 + 4
        value("1-1 right", -9.0),  # 4-4 dominoes on 4|1: 2-2 and 4-1 left, 4 + 5
    )
    assert found.played == Move.parse("1-1 right")
    assert found.cost == 23.0
    assert analysis.decisions[0] == found  # the costliest of the hand comes first


def test_the_forced_domino_played_costs_nothing() -> None:
    match = played(FORCED_DOMINO, FORCED_DOMINO_MOVES, "4-1 left, pass, pass, pass, 1-1")
    found = decision(analyze_hand(match, 0, 3), 27)
    assert found.best == value("4-1 left", 14.0)
    assert found.cost == 0.0


def test_a_tranca_that_wins_is_preferred_to_playing_on() -> None:
    match = played(WINNING_TRANCA, WINNING_TRANCA_MOVES, "5-3 right, 5-2")
    assert match.hand.outcome is not None and match.hand.outcome.points == 13
    found = decision(analyze_hand(match, 0, 2), 28)
    assert found.values == (
        value("3-1 right", 21.0),  # the tranca on 1|1: 17 pips against 21
        value("3-1 left", 15.0),
        value("5-3 right", -13.0),  # seat 3 dominoes with 5-2
    )
    assert found.cost == 34.0


def test_a_tranca_that_loses_ranks_below_the_dominoes_and_costs_both_hands_points() -> None:
    match = played(LOSING_TRANCA, LOSING_TRANCA_MOVES, "4-1 right")
    analysis = analyze_hand(match, 0, 3)
    found = decision(analysis, 24)
    assert found.values == (
        value("1-1 right", 21.0),  # both dominoes score 15 + 6 pips; ties keep legal order
        value("4-1 left", 21.0),
        value("4-1 right", -23.0),  # the tranca on 4|4: 23 pips against 21
    )
    assert found.cost == 44.0
    assert analysis.decisions[0] == found
    assert analysis.lost >= 44.0


@pytest.mark.parametrize(
    ("deal", "other", "moves", "seat"),
    [
        (FORCED_DOMINO, FORCED_DOMINO_OTHER_HIDDEN, FORCED_DOMINO_MOVES, 3),
        (LOSING_TRANCA, LOSING_TRANCA_OTHER_HIDDEN, LOSING_TRANCA_MOVES, 3),
    ],
)
def test_a_crafted_position_is_valued_the_same_whatever_the_hidden_tiles(
    deal: Deal, other: Deal, moves: str, seat: int
) -> None:
    view = seat_view(played(deal, moves), seat)
    other_view = seat_view(played(other, moves), seat)
    assert other_view == view
    assert played(other, moves).hand.deal != played(deal, moves).hand.deal
    assert evaluate_view(other_view) == evaluate_view(view)


def played_hand(preset: str, seed: int) -> Match:
    """The first hand of a match of ``preset``, each seat playing its first legal move."""
    match = Match.new(find_any_preset(preset), random.Random(seed))
    while not match.hand.is_over:
        match = match.apply(match.hand.legal_moves()[0])
    return match


@pytest.mark.parametrize("preset", ["uno-contra-uno", "individual", "cubano"])
def test_a_hand_of_every_format_is_analysed_for_each_of_its_seats(preset: str) -> None:
    """Issue 29: the analysis reads every format from the seat's information (its tiles,
    drawn ones included; the other hands and the boneyard unseen)."""
    match = played_hand(preset, 11)
    players = match.rules.players
    analyses = [analyze_hand(match, 0, seat) for seat in range(players)]
    assert sum(len(a.decisions) for a in analyses) > 0
    for seat, analysis in enumerate(analyses):
        views = decisions_of(match, 0, seat)
        assert [
            (d.number, d.played) for d in sorted(analysis.decisions, key=lambda d: d.number)
        ] == [(len(view.history) + 1, move) for view, move in views]
        for decision in analysis.decisions:
            assert decision.view.seat == seat
            legal = decision.view.legal_moves()
            assert sorted(map(str, (v.move for v in decision.values))) == sorted(map(str, legal))
            values = [v.value for v in decision.values]
            assert values == sorted(values, reverse=True)
    with pytest.raises(ValueError, match=f"seat must be 0..{players - 1}"):
        analyze_hand(match, 0, players)
    # a record of the match is analysed for every seat of its format
    record = record_of(match)
    assert [a.seat for a in analyze_record(record)] == list(range(players))
    assert analyze_record(record) == analyses
