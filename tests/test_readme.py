"""The READMEs (README.md, README.es.md): what they tell a newcomer to type works, and what
they show is what the program prints."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def readme(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def quick_start(name: str, heading: str) -> list[str]:
    """The quick start's command lines (comments dropped): the first code block after
    ``heading``."""
    text = readme(name)
    block = FENCE.search(text, text.index(heading))
    assert block is not None
    return [re.sub(r"\s+#.*$", "", line) for line in block.group(1).splitlines()]


SYSTEM_PYTHON = f"""#!{sys.executable}
# python3 as on a fresh Debian or Ubuntu (PEP 668): it makes virtual environments, whose
# tools only record how they were called, and refuses to pip install into itself
import os, sys
from pathlib import Path

log = Path(os.environ["LOG"])
def record(words):
    with log.open("a") as out:
        out.write(" ".join(words) + "\\n")

record(["python3", *sys.argv[1:]])
if sys.argv[1:3] == ["-m", "venv"]:
    tools = Path(sys.argv[3]) / "bin"
    tools.mkdir(parents=True)
    for tool in ("pip", "python", "domino"):
        path = tools / tool
        path.write_text(
            "#!{sys.executable}\\n"
            "import os, sys\\n"
            "with open(os.environ['LOG'], 'a') as out:\\n"
            "    out.write(' '.join(sys.argv) + '\\\\n')\\n"
        )
        path.chmod(0o755)
    sys.exit(0)
print("error: externally-managed-environment", file=sys.stderr)
sys.exit(1)
"""

SYSTEM_PIP = """#!/bin/sh
echo "error: externally-managed-environment" >&2
exit 1
"""


@pytest.mark.parametrize(
    ("name", "heading", "play"),
    [
        ("README.md", "## Quick start", ".venv/bin/domino play --lang en"),
        ("README.es.md", "## Empezar", ".venv/bin/domino play"),
    ],
)
def test_the_quick_start_works_where_the_system_python_refuses_pip_install(
    tmp_path: Path, name: str, heading: str, play: str
):
    system = tmp_path / "system"
    system.mkdir()
    for tool, script in (("python3", SYSTEM_PYTHON), ("pip", SYSTEM_PIP), ("pip3", SYSTEM_PIP)):
        (system / tool).write_text(script)
        (system / tool).chmod(0o755)
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    log = tmp_path / "log"
    bash = shutil.which("bash")
    assert bash is not None
    env = {"PATH": str(system), "LOG": str(log), "HOME": str(tmp_path)}
    codes = [
        subprocess.run([bash, "-c", line], cwd=checkout, env=env, timeout=60).returncode
        for line in quick_start(name, heading)
    ]
    assert codes == [0, 0]
    assert log.read_text().splitlines() == [
        "python3 -m venv .venv",
        ".venv/bin/pip install -e .[dev]",
        play,
        ".venv/bin/python -m pytest -n 2",
    ]


@pytest.mark.parametrize(
    ("name", "command", "language"),
    [
        ("README.md", "domino play --seed 11 --lang en", "en"),
        ("README.es.md", "domino play --seed 11", "es"),
    ],
)
def test_the_terminal_example_is_what_domino_play_prints(
    tmp_path: Path, name: str, command: str, language: str
):
    text = readme(name)
    assert f"`{command}`" in text
    (example,) = [block for block in FENCE.findall(text) if block.startswith("— ")]
    env = {**os.environ, "COLUMNS": "80"}
    options = ["--seed", "11", "--lang", language, "--db", str(tmp_path / "d.db")]
    played = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *options],
        input="1\n",  # then the end of the input: you leave
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert played.returncode == 0, played.stderr
    # piped input is echoed as "> 1"; at a terminal you see the 1 you typed
    assert example in played.stdout.replace("\n> 1\n", "\n1\n")


def test_the_domino_robot_example_answers_what_the_readme_shows():
    lines = readme("README.md").splitlines()
    (at,) = [i for i, line in enumerate(lines) if "| domino robot " in line]
    match = re.fullmatch(r"\$ echo '(.*)' \| domino robot (.*)", lines[at])
    assert match is not None
    request, options = match.groups()
    assert "--seed" in options.split()  # without a seed the answer may differ run to run
    answered = subprocess.run(
        [sys.executable, "-m", "bot.cli", "robot", *options.split()],
        input=request + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert answered.returncode == 0, answered.stderr
    assert answered.stdout == lines[at + 1] + "\n"


@pytest.mark.parametrize(
    ("name", "heading", "q_says"),
    [
        (
            "README.md",
            "## Play in the terminal",
            "`q` leaves the match for good: your stake is forfeited at once",
        ),
        (
            "README.es.md",
            "## Jugar en la terminal",
            "`q` te levanta de la partida del todo: pierdes la apuesta en ese momento",
        ),
    ],
)
def test_the_terminal_section_says_q_leaves_the_match_for_good_at_once(
    name: str, heading: str, q_says: str
):
    text = readme(name)
    start = text.index(heading)
    section = text[start : text.index("\n## ", start + 1)]
    assert q_says in " ".join(section.split())  # as the program says after q
