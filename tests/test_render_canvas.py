from __future__ import annotations

import io

from PIL import Image

from render.canvas import BACKGROUND, WHITE, draw_text, encode_png


def test_png_encoding_is_rgb_and_deterministic() -> None:
    image = Image.new("RGBA", (50, 40), (10, 20, 30, 255))
    png = encode_png(image)
    assert png == encode_png(image)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "RGB" and decoded.size == (50, 40)


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
