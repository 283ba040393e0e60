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


def test_compose_runs_two_bots_from_this_image_on_one_postgresql_each_with_its_own_name():
    """Issue 17: compose.yaml, the multi-process deployment of the README."""
    import yaml

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "bot-1", "bot-2"}
    assert services["db"]["image"].startswith("postgres:")
    bots = [services["bot-1"], services["bot-2"]]
    # one service builds the image, the other runs the same image
    assert (services["bot-1"]["build"], "build" in services["bot-2"]) == (".", False)
    assert services["bot-2"]["pull_policy"] == "never"
    for bot in bots:
        assert bot["image"] == "domino-bot:local"
        assert bot["restart"] == "unless-stopped"
        assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
        assert bot["environment"]["DOMINO_DB"].startswith("postgresql://domino:")
        assert bot["environment"]["DOMINO_DB"].endswith("@db:5432/domino")
    assert bots[0]["environment"]["DOMINO_DB"] == bots[1]["environment"]["DOMINO_DB"]
    assert [b["environment"]["DOMINO_INSTANCE"] for b in bots] == ["bot-1", "bot-2"]
    assert bots[0]["volumes"] != bots[1]["volumes"]  # each its own heartbeat


def test_the_image_runs_from_its_data_volume_so_the_heartbeat_is_writable():
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    workdirs = [line.split()[1] for line in lines if line.startswith("WORKDIR ")]
    assert workdirs[-1] == "/data"
    assert lines.index("USER domino") < lines.index("WORKDIR /data")


def test_compose_requires_the_database_password_instead_of_a_default():
    import yaml

    text = (ROOT / "compose.yaml").read_text()
    assert "change-me" not in text
    compose = yaml.safe_load(text)
    required = "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"
    assert compose["services"]["db"]["environment"]["POSTGRES_PASSWORD"] == required
    for bot in ("bot-1", "bot-2"):
        dsn = compose["services"][bot]["environment"]["DOMINO_DB"]
        assert dsn == f"postgresql://domino:{required}@db:5432/domino"


def test_the_image_health_check_is_domino_doctor_health():
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    health = [line for line in lines if "HEALTHCHECK" in line or "doctor" in line]
    assert any('CMD ["domino", "doctor", "--health"]' in line for line in health)
