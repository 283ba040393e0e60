"""``domino analyze`` (bot/commands/analyze.py): the maestro's analysis of a record as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.records import replay
from engine.robots.analysis import analyze_hand

RECORDS = Path(__file__).parent / "records"


def test_analyze_prints_each_seats_decisions_for_every_finished_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = RECORDS / "tranca_tie_then_winner_rule_rotates.json"
    code = main(["analyze", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(h["hand"], h["seat"]) for h in out["hands"]] == [
        (hand, seat) for hand in (1, 2) for seat in range(4)
    ]
    expected = analyze_hand(replay(path.read_text()), 1, 3)
    seat3 = out["hands"][7]
    assert seat3["accuracy"] == round(expected.accuracy or 0, 3)
    assert [d["move"] for d in seat3["decisions"]] == [d.number for d in expected.decisions]
    for decision, want in zip(seat3["decisions"], expected.decisions, strict=True):
        assert decision["played"] == want.played.text()
        assert decision["best"] == decision["values"][0]["move"] == want.best.move.text()
        assert decision["cost"] == round(want.cost, 2)


def test_analyze_one_seat_of_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["analyze", str(RECORDS / "tranca_tie_then_winner_rule_rotates.json"),
                 "--seat", "2", "--hand", "2"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and [(h["hand"], h["seat"]) for h in out["hands"]] == [(2, 2)]


def test_analyze_refuses_a_bad_record_or_hand_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "venezolano", "hands": [{"deal": []}]}')
    assert main(["analyze", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("hand 1")
    assert main(["analyze", str(RECORDS / "tranca_tie.json"), "--hand", "3"]) == 2
    assert capsys.readouterr().err == "record: no finished hand 3\n"
    assert main(["analyze", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
