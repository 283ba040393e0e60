"""'¿Qué debí jugar?' (engine/robots/analysis.py): the maestro's evaluation of a
seat's decisions, from that seat's information only."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.hand import HandState
from engine.match import Match
from engine.records import replay
from engine.robots.analysis import (
    CLOSE_ENOUGH,
    analyze_hand,
    analyze_record,
    decisions_of,
    evaluate_view,
)
from engine.robots.knowledge import Knowledge
from engine.tiles import ALL_TILES, mask_of
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
