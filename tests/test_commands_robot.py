from __future__ import annotations

import json
import subprocess
import sys

from bot.cli import SUBCOMMANDS

REQUEST = {
    "rules": "venezolano",
    "seat": 1,
    "hand": ["6-4", "6-3", "5-4", "5-3", "4-4", "2-1", "0-0"],
    "starter": 0,
    "moves": ["6-6"],
    "score": [0, 0],
}


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from bot.cli import main; sys.exit(main())",
            "robot",
            *args,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_robot_is_a_registered_subcommand() -> None:
    assert SUBCOMMANDS["robot"][0] == "bot.commands.robot"


def test_the_robot_answers_each_line_at_once_and_stays_up() -> None:
    proc = _start("--level", "experto", "--seed", "7")
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(REQUEST) + "\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())  # answered before the input ends
        assert first["move"] in ("6-4", "6-3")
        proc.stdin.write("this is not json\n")
        proc.stdin.flush()
        assert "error" in json.loads(proc.stdout.readline())
        proc.stdin.write(b"\xff\xfe garbage".decode("latin-1") + "\n")
        proc.stdin.flush()
        assert "error" in json.loads(proc.stdout.readline())
        proc.stdin.write(json.dumps(REQUEST) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline()) == first  # same seed, same answer
    finally:
        proc.stdin.close()
        code = proc.wait(timeout=20)
    assert code == 0


def test_a_bad_level_is_refused_by_the_argument_parser() -> None:
    proc = _start("--level", "dios")
    _out, err = proc.communicate("", timeout=20)
    assert proc.returncode == 2
    assert "novato" in err


def test_the_robot_answers_a_one_against_one_request_with_a_draw() -> None:
    request = {
        "rules": {"preset": "venezolano", "players": 2, "partnership": False, "boneyard": "draw"},
        "seat": 1,
        "hand": ["2-2", "4-0", "4-3"],
        "starter": 0,
        "moves": ["6-6", "6-0", "3-0", "3-2", "5-2", "5-4", "4-1", "6-1 left", "5-1"],
        "boneyard": 14,
    }
    proc = _start("--level", "maestro", "--seed", "3")
    out, _err = proc.communicate(json.dumps(request) + "\n", timeout=20)
    assert proc.returncode == 0
    assert [json.loads(line) for line in out.splitlines()] == [{"move": "draw"}]
