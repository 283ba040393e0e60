"""The Dockerfile (at the repository's top): the image is built from what it copies."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def copied() -> set[str]:
    """Every source the Dockerfile's COPY lines name."""
    sources: set[str] = set()
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            sources.update(line.split()[1:-1])
    return sources


def test_the_image_copies_every_file_the_package_metadata_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = {"pyproject.toml", project["readme"], *project["license-files"]}
    assert needed <= copied()
    assert "LICENSE" in copied()


def test_the_image_copies_every_package_the_project_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert {name.rstrip("*") for name in packages} <= copied()
