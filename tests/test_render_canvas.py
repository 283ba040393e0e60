from __future__ import annotations

import io

import pytest
from PIL import Image

from render.canvas import BACKGROUND, MIN_TEXT_SIZE, PHONE_WIDTH, WHITE, draw_text, encode_png


def test_png_encoding_is_a_palette_of_the_pictures_colours_and_deterministic() -> None:
    image = Image.new("RGBA", (50, 40), (10, 20, 30, 255))
    draw_text(image, 2, 2, "Ana", 27, bold=True, color=WHITE)
    png = encode_png(image)
    assert png == encode_png(image)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P" and decoded.size == (50, 40)
    rgb = decoded.convert("RGB")
    assert rgb.getpixel((49, 39)) == (10, 20, 30)
    assert WHITE in {c for _, c in rgb.getcolors(10000) or []}


def test_text_is_shortened_to_its_box_and_anchored() -> None:
    image = Image.new("RGB", (400, 60), BACKGROUND)
    width = draw_text(
        image, 390, 10, "Maximiliano Alejandro de la Trinidad", 24, max_width=150, anchor="r"
    )
    assert width <= 152
    box = Image.eval(image, lambda v: 255 if v > 200 else 0).getbbox()
    assert box is not None and box[0] >= 390 - 152 and box[2] <= 391


def test_text_is_drawn_in_the_given_colour() -> None:
    image = Image.new("RGB", (200, 50), (0, 0, 0))
    draw_text(image, 5, 5, "MMMM", 30, bold=True, color=WHITE)
    assert WHITE in {c for _, c in image.getcolors(10000) or []}


def _text_sizes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Every text every kind of picture draws, as (size in pixels, text): the demo set
    in both languages (board, hand, results) and the waiting table, filling and full."""
    import render.canvas
    from engine.rules import find_preset
    from render import waiting_png
    from render.samples import demo_pictures, sample_facts

    drawn: list[tuple[int, str]] = []
    real = render.canvas.text_sprite

    def recording(
        text: str, size: int, bold: bool, color: tuple[int, int, int, int], ltr: bool = False
    ) -> Image.Image:
        drawn.append((size, text))
        return real(text, size, bold, color, ltr)

    monkeypatch.setattr(render.canvas, "text_sprite", recording)
    for language in ("es", "en"):
        demo_pictures(language)
        facts = sample_facts(language=language, robots=(1, 3), away=(2,))
        waiting_png(find_preset("venezolano"), facts)
        waiting_png(find_preset("venezolano"), facts, starting=True)
    return drawn


def test_every_text_on_the_pictures_is_at_least_11_pixels_tall_on_a_phone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 13, item 27: at about 400 pixels wide the small grey labels could not be read.

    Every picture is 960 pixels wide; a phone shows it about 400 wide.
    """
    assert MIN_TEXT_SIZE == 27 and MIN_TEXT_SIZE * PHONE_WIDTH / 960 >= 11
    drawn = _text_sizes_drawn(monkeypatch)
    labels = {text for _, text in drawn}
    assert {"Mesa 7", "robot", "izq.", "der.", "left", "right"} <= labels
    assert any(text.startswith("sin ") for text in labels)
    small = sorted({(size, text) for size, text in drawn if size < MIN_TEXT_SIZE})
    assert small == []
