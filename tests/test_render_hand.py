from __future__ import annotations

import dataclasses
import io
import itertools

import pytest
from PIL import Image, ImageStat

from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import find_any_preset
from engine.tiles import Tile
from engine.views import SeatView, public_view, seat_view
from render import hand_png, move_labels
from render.hand import HAND_SIZE, PER_ROW, ROW_PITCH, TILE_SHORT, hand_size, tile_boxes
from render.samples import find_match, format_facts, grown_hand_view, one_against_one_match
from tests.render_golden import CUBAN_HAND, FACTS, assert_matches_golden, scripted_match


def _two_sided(match: Match) -> bool:
    tiles = [m.tile for m in match.hand.legal_moves() if m.tile is not None]
    return len(tiles) != len(set(tiles))


def test_a_tile_fitting_both_ends_differently_gets_a_left_and_a_right_label() -> None:
    match = find_match(_two_sided)
    view = seat_view(match, match.hand.turn)
    labels = move_labels(view)
    assert [m for m, _ in labels] == view.legal_moves()
    sides = [(m, label) for m, label in labels if m.side is not None]
    twice = {m.tile for m, _ in sides if sum(1 for n, _ in sides if n.tile == m.tile) == 2}
    assert twice
    for move, label in labels:
        if move.tile in twice:
            suffix = "izq." if move.side is Side.LEFT else "der."
            assert label == f"{move.tile} {suffix}"
        else:
            assert label == str(move.tile)


def test_english_labels_say_left_and_right() -> None:
    match = find_match(_two_sided)
    labels = dict(move_labels(seat_view(match, match.hand.turn), "en"))
    assert any(label.endswith(" left") for label in labels.values())
    assert any(label.endswith(" right") for label in labels.values())


def test_a_forced_pass_is_the_only_label() -> None:
    match = find_match(lambda m: not m.hand.is_over and m.hand.legal_moves() == [PASS])
    view = seat_view(match, match.hand.turn)
    assert move_labels(view) == [(PASS, "Paso")]
    assert move_labels(view, "en") == [(PASS, "Pass")]


def test_the_opener_under_double_six_has_one_label_for_six_six() -> None:
    match = scripted_match(0)
    view = seat_view(match, match.hand.turn)
    assert move_labels(view) == [(Move(Tile(6, 6)), "6-6")]


def test_no_labels_when_it_is_not_the_seats_turn() -> None:
    match = scripted_match(3)
    other = (match.hand.turn + 1) % 4
    assert move_labels(seat_view(match, other)) == []


def test_the_hand_picture_matches_its_golden_picture() -> None:
    match = scripted_match(9)
    assert_matches_golden(hand_png(seat_view(match, match.hand.turn), FACTS), "hand-turn.png")


def test_a_waiting_hand_matches_its_golden_picture() -> None:
    match = scripted_match(9)
    seat = (match.hand.turn + 2) % 4
    assert_matches_golden(hand_png(seat_view(match, seat), FACTS), "hand-waiting.png")


def _brightness(image: Image.Image, x: int, y: int) -> float:
    crop = image.crop((x, y - 20, x + 64, y + 128))
    return float(sum(ImageStat.Stat(crop).mean))


def _lifted_and_dimmed(view: SeatView) -> None:
    """On the seat's turn every tile that fits is lifted and every other tile dimmed."""
    image = Image.open(io.BytesIO(hand_png(view, FACTS))).convert("RGB")
    playable = set(view.playable_tiles())
    assert playable and len(playable) < len(view.tiles)
    tiles = sorted(view.tiles, key=lambda t: (t.high, t.low), reverse=True)
    for tile, (x, y) in zip(tiles, tile_boxes(len(tiles)), strict=True):
        # A lifted tile leaves the felt showing at the bottom of its slot.
        bottom = image.getpixel((x + 32, y + 126))
        if tile in playable:
            assert bottom[1] > bottom[0] + 30, (tile, bottom)  # felt green
        else:
            assert abs(bottom[0] - bottom[1]) < 30, (tile, bottom)  # grey tile face


def test_playable_tiles_are_lifted_and_the_rest_dimmed_on_the_players_turn() -> None:
    match = scripted_match(9)
    _lifted_and_dimmed(seat_view(match, match.hand.turn))


def test_a_21_tile_hand_lifts_the_tiles_that_fit_and_dims_the_rest_in_every_row() -> None:
    view = grown_hand_view(21)
    assert len(view.tiles) == 21 and view.is_my_turn
    _lifted_and_dimmed(view)


def test_a_double_nine_hand_matches_its_golden_picture() -> None:
    """7, 8 and 9 as dots (7 = the 6 plus its centre, 8 = a ring, 9 = three rows of
    three), ten tiles of a Cuban deal in two rows of five."""
    match = scripted_match(9)
    view = dataclasses.replace(
        seat_view(match, (match.hand.turn + 2) % 4),
        tiles=CUBAN_HAND,
    )
    png = hand_png(view, FACTS)
    assert Image.open(io.BytesIO(png)).size == (960, 636)
    assert_matches_golden(png, "hand-double-nine.png")


def test_a_21_tile_hand_matches_its_golden_picture() -> None:
    """A one-against-one hand grown by drawing: three rows of seven, the 5-2 with its
    two labels above a lifted tile of the next row."""
    png = hand_png(grown_hand_view(21), FACTS)
    assert Image.open(io.BytesIO(png)).size == (960, 892)
    assert_matches_golden(png, "hand-21-tiles.png")


def test_hand_pictures_are_deterministic_and_sized_for_a_phone() -> None:
    match = scripted_match(9)
    view = seat_view(match, match.hand.turn)
    png = hand_png(view, FACTS)
    assert png == hand_png(view, FACTS)
    image = Image.open(io.BytesIO(png))
    assert image.size == HAND_SIZE
    assert len(png) < 80 * 1024


@pytest.mark.parametrize("count", range(8))
def test_tile_slots_are_centred_and_never_overlap(count: int) -> None:
    boxes = tile_boxes(count)
    assert len(boxes) == count
    for (x0, _), (x1, _) in itertools.pairwise(boxes):
        assert x1 - x0 >= 64 + 40
    if boxes:
        left = boxes[0][0]
        right = HAND_SIZE[0] - (boxes[-1][0] + 64)
        assert abs(left - right) <= 1 and left >= 0


@pytest.mark.parametrize(
    ("count", "rows", "size"),
    [
        (0, [0], (960, 380)),
        (7, [7], (960, 380)),
        (8, [4, 4], (960, 636)),
        (13, [7, 6], (960, 636)),
        (15, [5, 5, 5], (960, 892)),
        (20, [7, 7, 6], (960, 892)),
        (21, [7, 7, 7], (960, 892)),
    ],
)
def test_a_hand_of_more_than_seven_tiles_wraps_into_even_rows_of_at_most_seven(
    count: int, rows: list[int], size: tuple[int, int]
) -> None:
    boxes = tile_boxes(count)
    assert hand_size(count) == size
    tops = sorted({y for _, y in boxes})
    assert [sum(1 for _, y in boxes if y == top) for top in tops] == [n for n in rows if n]
    assert [b - a for a, b in itertools.pairwise(tops)] == [ROW_PITCH] * (len(tops) - 1)
    assert boxes == sorted(boxes, key=lambda b: (b[1], b[0]))  # row by row, left to right


@pytest.mark.parametrize("count", range(8, 22))
def test_wrapped_rows_are_centred_inside_the_picture_and_never_overlap(count: int) -> None:
    width, height = hand_size(count)
    boxes = tile_boxes(count)
    assert len(boxes) == count
    for top in {y for _, y in boxes}:
        row = sorted(x for x, y in boxes if y == top)
        assert len(row) <= PER_ROW
        assert all(b - a >= TILE_SHORT + 40 for a, b in itertools.pairwise(row))
        left, right = row[0], width - (row[-1] + TILE_SHORT)
        assert abs(left - right) <= 1 and left >= 0
    # room under the last row for a lifted tile's two labels
    assert max(y for _, y in boxes) + 2 * TILE_SHORT + 10 + 2 * 42 <= height - 20


def test_an_empty_hand_after_a_domino_draws_without_error() -> None:
    match = find_match(lambda m: m.hand.is_over and 0 in m.hand.tile_counts())
    view = seat_view(match, match.hand.tile_counts().index(0))
    assert view.tiles == ()
    assert Image.open(io.BytesIO(hand_png(view, FACTS))).size == HAND_SIZE


def test_a_hand_is_drawn_only_from_a_seats_view() -> None:
    match = scripted_match(4)
    with pytest.raises(TypeError, match="SeatView"):
        hand_png(public_view(match), FACTS)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="SeatView"):
        hand_png(match, FACTS)  # type: ignore[arg-type]


def test_a_seat_with_nothing_that_fits_and_tiles_in_the_boneyard_is_offered_a_draw() -> None:
    rules = find_any_preset("uno-contra-uno")
    match = find_match(lambda m: not m.hand.is_over and m.hand.legal_moves() == [DRAW], rules=rules)
    view = seat_view(match, match.hand.turn)
    assert move_labels(view) == [(DRAW, "Robar")]
    assert move_labels(view, "en") == [(DRAW, "Draw")]
    facts = format_facts(rules, view)
    assert hand_png(view, facts) == hand_png(view, facts)


def test_a_one_against_one_hand_of_14_tiles_matches_its_golden_picture() -> None:
    """The player who drew up to 14 tiles, on their turn: two rows of seven, the tiles
    that fit lifted, the rest dimmed (a real position, not a synthetic one)."""
    match = one_against_one_match()
    seat = match.hand.tile_counts().index(14)
    view = seat_view(match, seat)
    assert len(view.tiles) == 14 and view.is_my_turn
    png = hand_png(view, format_facts(match.rules, view))
    assert Image.open(io.BytesIO(png)).size == hand_size(14)
    assert_matches_golden(png, "hand-one-against-one.png")
