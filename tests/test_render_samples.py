from __future__ import annotations

import io
import itertools
import random

from PIL import Image

from engine.tiles import ALL_TILES
from render.samples import chain_of_all_tiles, demo_pictures, find_match, full_line_view, line_view


def test_the_chain_of_all_tiles_is_a_legal_line_of_28_distinct_tiles() -> None:
    for seed in range(20):
        chain = chain_of_all_tiles(random.Random(seed))
        assert sorted(t for _, _, t in chain) == sorted(ALL_TILES)
        for a, b, tile in chain:
            assert {a, b} == {tile.high, tile.low}
        for (_, b, _), (a, _, _) in itertools.pairwise(chain):
            assert a == b


def test_a_synthetic_line_view_has_a_history_that_rebuilds_its_ends() -> None:
    view = full_line_view()
    assert len(view.line) == 28
    assert view.ends == (view.line[0].left, view.line[-1].right)
    assert sorted(p.order for p in view.line) == list(range(28))
    assert view.passes() == []  # replaying the history never meets an impossible pass
    rng = random.Random(2)
    chain = chain_of_all_tiles(rng)[:5]
    short = line_view(chain, 2, rng)
    assert [p.tile for p in short.line] == [t for _, _, t in chain]


def test_find_match_returns_a_position_that_satisfies_the_question() -> None:
    match = find_match(lambda m: len(m.hand.line) >= 10)
    assert len(match.hand.line) >= 10


def test_the_demo_set_is_every_kind_of_picture_as_png() -> None:
    pictures = demo_pictures()
    names = [name for name, _ in pictures]
    assert len(names) == len(set(names)) >= 15
    for needed in ("empty-line", "one-tile", "mid-game", "28-tile", "long-names", "pass"):
        assert any(needed in n for n in names), needed
    for _, data in pictures:
        assert Image.open(io.BytesIO(data)).format == "PNG"
