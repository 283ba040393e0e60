from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.cli import main


def test_render_demo_writes_the_sample_pictures(tmp_path: Path, capsys: object) -> None:
    assert main(["render-demo", "--out", str(tmp_path / "pics")]) == 0
    files = sorted((tmp_path / "pics").glob("*.png"))
    assert len(files) >= 15
    assert any("28-tile" in f.name for f in files)
    for f in files:
        with Image.open(f) as image:
            assert image.format == "PNG"


def test_render_demo_can_write_english_pictures(tmp_path: Path) -> None:
    assert main(["render-demo", "--out", str(tmp_path), "--language", "en"]) == 0
    assert len(list(tmp_path.glob("*.png"))) >= 15
