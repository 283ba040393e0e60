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


def test_the_image_installs_every_font_and_licence_the_renderer_ships() -> None:
    """Issue 13, item 25: the emoji font (and its licence) reach the image's package."""
    from fnmatch import fnmatch

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["*"]
    folder = ROOT / "render" / "fonts"
    fonts = sorted(
        p.name for p in folder.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")
    )
    assert "NotoEmoji-SemiBold.ttf" in fonts and "LICENSE-NotoEmoji.txt" in fonts
    assert all(any(fnmatch(name, pattern) for pattern in patterns) for name in fonts)
    assert "render" in copied()
