"""Golden-image helpers for the render tests (fixed views, tolerant pixel compare).

Goldens are stored at a third of the picture's size to keep the repository small;
``UPDATE_GOLDEN=1 pytest tests/test_render_*.py`` rewrites them after a deliberate
change (look at them before committing).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

from engine.match import Match
from engine.rules import find_preset
from engine.tiles import ALL_TILES, Tile
from render.facts import SeatFacts, TableFacts

GOLDEN = Path(__file__).parent / "golden"
SCALE = 3


def scripted_match(moves: int, preset: str = "venezolano") -> Match:
    """A match with a fixed deal, after ``moves`` moves that always take the first legal one."""
    order = [(i * 11 + 5) % 28 for i in range(28)]  # a fixed shuffle of the 28 tiles
    tiles = [ALL_TILES[i] for i in order]
    deal = tuple(tuple(sorted(tiles[s * 7 : s * 7 + 7])) for s in range(4))
    rules = find_preset(preset)
    starter = next(s for s in range(4) if ALL_TILES[27] in deal[s])
    match = Match.start(rules, deal, starter)
    for _ in range(moves):
        if match.hand.is_over:
            break
        match = match.apply(match.hand.legal_moves()[0])
    return match


FACTS = TableFacts(
    (
        SeatFacts("María"),
        SeatFacts("Robotina", is_robot=True),
        SeatFacts("José Luis"),
        SeatFacts("Ana"),
    ),
    seconds_left=30,
    table_label="Mesa 1",
)


CUBAN_HAND = tuple(
    Tile(a, b)
    for a, b in ((9, 9), (9, 8), (9, 7), (8, 8), (8, 7), (7, 7), (9, 2), (8, 4), (7, 6), (6, 1))
)
"""Ten double-nine tiles (a Cuban deal), every half from 7 to 9 beside a 6."""

NINE_LINE = tuple(
    (a, b, Tile(a, b))
    for a, b in (
        (5, 9), (9, 9), (9, 8), (8, 8), (8, 7), (7, 7), (7, 9), (9, 6), (6, 8), (8, 3), (3, 7), (7, 1)
    )
)  # fmt: skip
"""A line of twelve double-nine tiles as ``(left pip, right pip, tile)``, left to right."""


def small(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.resize((image.width // SCALE, image.height // SCALE), Image.Resampling.BOX)


def assert_matches_golden(png: bytes, name: str, tolerance: float = 0.01) -> None:
    """The picture matches ``tests/golden/<name>``: under ``tolerance`` of the pixels
    differ by more than 40 levels in some channel (at a third of the size)."""
    actual = small(png)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        if not os.environ.get("UPDATE_GOLDEN"):
            raise AssertionError(f"golden {name} was missing and has been written; check it")
    expected = Image.open(path).convert("RGB")
    assert expected.size == actual.size, (expected.size, actual.size)
    diff = (
        ImageChops.difference(expected, actual).convert("L").point(lambda v: 255 if v > 40 else 0)
    )
    changed = sum(1 for v in diff.getdata() if v)
    share = changed / (actual.width * actual.height)
    assert share <= tolerance, f"{name}: {share:.2%} of pixels differ"
