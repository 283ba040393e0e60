from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

RECORDS = Path(__file__).parent / "records"


def test_replay_prints_the_json_result_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(RECORDS / "records_md_example.json")])
    out = capsys.readouterr().out
    assert code == 0
    assert json.loads(out) == json.loads((RECORDS / "records_md_example.expected.json").read_text())


def test_replay_exits_2_with_one_line_naming_hand_move_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((RECORDS / "records_md_example.json").read_text())
    record["hands"][0]["moves"][2] = "6-5"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code = main(["replay", str(path)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err == "hand 1, move 3: seat 2 does not hold 6-5\n"


def test_replay_reads_standard_input_with_a_dash() -> None:
    data = (RECORDS / "tranca_tie.json").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", "-"],
        input=data,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hands"][0]["end"] == "blocked"


def test_replay_of_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/record.json"]) == 2
    assert capsys.readouterr().err.startswith("record: cannot read /nonexistent/record.json")


def test_replay_of_garbage_is_a_record_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "garbage.json"
    path.write_bytes(b"\xff\xfe not json")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("record: not JSON") and err.count("\n") == 1


def test_replay_checks_a_public_record_and_refuses_a_drawn_tile_named_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = {"preset": "venezolano", "players": 2, "partnership": False, "boneyard": "draw"}
    hand = {"starter": 0, "moves": ["6-6", "6-0", "3-0"]}
    path = tmp_path / "public.json"
    path.write_text(json.dumps({"rules": rules, "public": True, "hands": [hand]}))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == [
        {
            "end": "unfinished",
            "winner_team": None,
            "winner_seat": None,
            "points": 0,
            "capicua": False,
            "pips_left": None,
            "score": [0, 0],
        }
    ]
    hand["moves"].append("draw 6-4")
    path.write_text(json.dumps({"rules": rules, "public": True, "hands": [hand]}))
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        "hand 1, move 4: a public record never names a drawn tile (write 'draw')\n"
    )
