from __future__ import annotations

import dataclasses
import io
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageStat

from engine.rules import find_any_preset
from engine.views import PublicView, public_view
from render import SeatFacts, TableFacts, board_png
from render.board import (
    BOARD_SIZE,
    PLACES,
    SEAT_PANELS,
    TABLE_AREA,
    board_layout,
    end_tags,
    passed_last_turn,
    score_text,
    seat_name,
    seat_panels,
)
from render.canvas import BACKGROUND, GOLD, LABEL_SIZE, SIDE_COLORS
from render.layout import TileBox
from render.samples import (
    LONG_NAMES,
    chain_of_all_tiles,
    cuban_match,
    find_match,
    format_facts,
    full_line_view,
    line_view,
    one_against_one_match,
    three_player_match,
)
from render.text import text_width
from tests.render_golden import FACTS, NINE_LINE, assert_matches_golden, scripted_match

CUBANO = find_any_preset("cubano")


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def test_the_empty_line_board_matches_its_golden_picture() -> None:
    assert_matches_golden(board_png(public_view(scripted_match(0)), FACTS), "board-empty.png")


def test_a_mid_game_board_matches_its_golden_picture() -> None:
    assert_matches_golden(board_png(public_view(scripted_match(14)), FACTS), "board-mid.png")


def test_the_full_28_tile_snake_matches_its_golden_picture() -> None:
    assert_matches_golden(board_png(full_line_view(), FACTS), "board-full.png")


def test_the_board_is_a_960_pixel_square_png_under_150_kb() -> None:
    png = board_png(full_line_view(), FACTS)
    image = _image(png)
    assert image.format == "PNG"
    assert image.size == BOARD_SIZE == (960, 960)
    assert len(png) <= 150 * 1024


def test_the_same_view_gives_the_same_bytes() -> None:
    view = public_view(scripted_match(9))
    assert board_png(view, FACTS) == board_png(view, FACTS)


def test_the_board_layout_holds_every_tile_of_the_line_once() -> None:
    view = public_view(scripted_match(20))
    layout = board_layout(view)
    assert [b.placement for b in layout.tiles] == list(view.line)
    assert all(b.rect.inside(TABLE_AREA) for b in layout.tiles)


def _yellowness(image: Image.Image, box: TileBox) -> float:
    r = box.rect
    red, _, blue = ImageStat.Stat(image.crop((r.x0, r.y0, r.x1, r.y1))).mean
    return float(red - blue)


def test_the_last_tile_played_is_drawn_highlighted() -> None:
    view = public_view(scripted_match(6))
    image = _image(board_png(view, FACTS)).convert("RGB")
    last = max(view.line, key=lambda p: p.order)
    boxes = board_layout(view).tiles
    highlighted = next(b for b in boxes if b.placement is last)
    assert _yellowness(image, highlighted) > 40
    for box in boxes:
        if box is not highlighted:
            assert _yellowness(image, box) < 15


def test_score_notation_is_the_running_total_during_a_hand() -> None:
    view = public_view(scripted_match(5))
    assert score_text(view, 0) == "0" and score_text(view, 1) == "0"


def test_score_notation_after_a_hand_is_hand_points_then_running_total() -> None:
    match = scripted_match(60)
    view = public_view(match)
    outcome = view.outcome
    assert outcome is not None and outcome.winner_team is not None
    winner = outcome.winner_team
    assert score_text(view, winner) == f"+{outcome.points} → {match.score[winner]}"
    assert score_text(view, 1 - winner) == f"+0 → {match.score[1 - winner]}"


def test_the_first_hands_points_and_total_never_read_as_a_tied_score() -> None:
    """Issue 13, item 28: after a first hand won with 37 the card read "37 – 37"."""
    match = scripted_match(60)
    view = public_view(match)
    outcome = view.outcome
    assert outcome is not None and outcome.winner_team is not None
    assert match.score[outcome.winner_team] == outcome.points  # the first hand
    text = score_text(view, outcome.winner_team)
    assert text == f"+{outcome.points} → {outcome.points}"


def _bright(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The most white pixel's lowest channel in ``box``: text is near 255, the felt low."""
    return min(image.crop(box).getextrema(), key=lambda band: band[1])[1]


def test_a_finished_hands_score_goes_under_the_partnerships_name_when_both_do_not_fit() -> None:
    """Issue 17's new-user check: "Azul" and "+37 → 37" were drawn over each other."""
    view = public_view(scripted_match(60))  # the first hand over: "+N → N"
    image = _image(board_png(view, FACTS)).convert("RGB")
    name_end = 752 + int(text_width("Azul", LABEL_SIZE, True))
    # the name's row right of the name is empty; the score is on the row under it
    assert _bright(image, (name_end + 4, 10, 944, 36)) < 120
    assert _bright(image, (760, 44, 944, 72)) > 200
    during = _image(board_png(public_view(scripted_match(14)), FACTS)).convert("RGB")
    assert _bright(during, (880, 16, 944, 44)) > 200  # during a hand, beside the name


def test_a_blank_name_falls_back_to_the_seat_number() -> None:
    facts = TableFacts((SeatFacts(""), SeatFacts("\n\t"), SeatFacts("Luis"), SeatFacts("Ana")))
    assert seat_name(facts, 0) == "Asiento 1"
    assert seat_name(TableFacts(facts.seats, language="en"), 1) == "Seat 2"


def test_long_and_right_to_left_names_render_within_the_picture() -> None:
    facts = TableFacts(tuple(SeatFacts(n, away=True) for n in LONG_NAMES))  # type: ignore[arg-type]
    png = board_png(public_view(scripted_match(12)), facts)
    assert _image(png).size == BOARD_SIZE


def test_seats_named_only_with_emoji_are_drawn_and_told_apart() -> None:
    """Issue 13, item 25: an emoji-only name became a single box."""
    view = public_view(scripted_match(12))
    names = ["\U0001f98a", "\U0001f43c", "\U0001f1fb\U0001f1ea", "\U0001f44d\U0001f3fd", "\u25a1"]
    panels = []
    for name in names:
        facts = TableFacts((SeatFacts(name), *FACTS.seats[1:]))  # type: ignore[arg-type]
        assert seat_name(facts, 0) == name
        image = _image(board_png(view, facts)).convert("RGB")
        panels.append(image.crop((300, 830, 660, 950)).tobytes())
    assert len(set(panels)) == len(names)


def test_english_boards_differ_from_spanish_ones_only_in_words() -> None:
    view = public_view(scripted_match(12))
    english = TableFacts(FACTS.seats, FACTS.seconds_left, FACTS.table_label, "en")
    es, en = _image(board_png(view, FACTS)), _image(board_png(view, english))
    assert es.size == en.size
    assert board_png(view, FACTS) != board_png(view, english)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.text(max_size=60), min_size=4, max_size=4),
    st.integers(min_value=0, max_value=30),
    st.one_of(st.none(), st.integers(min_value=-5, max_value=500)),
)
def test_names_of_every_kind_render_without_error(
    names: list[str], moves: int, seconds: int | None
) -> None:
    facts = TableFacts(
        tuple(SeatFacts(n, is_robot=i == 1) for i, n in enumerate(names)),  # type: ignore[arg-type]
        seconds_left=seconds,
        table_label=names[0],
    )
    png = board_png(public_view(scripted_match(moves)), facts)
    assert _image(png).size == BOARD_SIZE


def test_the_board_is_drawn_only_from_a_view_never_from_the_full_state() -> None:
    match = scripted_match(4)
    with pytest.raises(TypeError, match="PublicView"):
        board_png(match, FACTS)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PublicView"):
        board_png(match.hand, FACTS)  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=28), st.integers(min_value=0, max_value=10**6))
@example(length=28, seed=8191)  # a tight corner: no room above, below or beside the end
def test_each_open_end_is_tagged_left_or_right_without_covering_a_tile(
    length: int, seed: int
) -> None:
    rng = random.Random(seed)
    chain = chain_of_all_tiles(rng)
    start = rng.randrange(0, 29 - length)
    view = line_view(chain[start : start + length], rng.randrange(length), rng)
    layout = board_layout(view)
    tags = end_tags(layout, "es")
    assert [label for label, _ in tags] == ["izq.", "der."]
    for _, rect in tags:
        assert not any(rect.overlaps(b.rect) for b in layout.tiles)
        assert rect.x0 >= 0 and rect.x1 <= BOARD_SIZE[0]
        assert TABLE_AREA.y0 - 8 <= rect.y0 and rect.y1 <= TABLE_AREA.y1 + 8
    assert not tags[0][1].overlaps(tags[1][1])
    assert [label for label, _ in end_tags(layout, "en")] == ["left", "right"]


def _texts_drawn(drawn: list[str], view: PublicView, facts: TableFacts) -> list[str]:
    """Every text the board draws for ``view``, in order (``drawn``: the recorder)."""
    drawn.clear()
    board_png(view, facts)
    return list(drawn)


def test_only_a_seat_whose_last_turn_was_a_pass_shows_the_red_pass_chip(
    drawn_texts: list[str],
) -> None:
    """Issue 13, item 27: a filled and an outlined "Pasó" chip needed a legend. Now one
    chip, one meaning: the seat's latest turn was a pass; earlier passes show only as
    the numbers it lacks."""
    match = find_match(
        lambda m: (
            not m.hand.is_over
            and bool(m.hand.history)
            and m.hand.history[-1][1].tile is None
            and any(
                move.tile is None and later.tile is not None
                for i, (seat, move) in enumerate(m.hand.history)
                for other, later in m.hand.history[i + 1 :]
                if other == seat
            )
        )
    )
    view = public_view(match)
    passed = passed_last_turn(view)
    last = {seat: move.tile is None for seat, move in view.history}
    assert passed == [last.get(seat, False) for seat in range(4)]
    ever = {seat for seat, move in view.history if move.tile is None}
    assert any(not passed[seat] for seat in ever)  # a seat passed, then played
    drawn = _texts_drawn(drawn_texts, view, FACTS)
    assert drawn.count("Pasó") == sum(passed) >= 1
    assert not any(t.startswith("Pasó ") for t in drawn)
    for seat in ever:  # every seat that ever passed says what it lacks
        lacking = ", ".join(str(n) for n in sorted(view.numbers_lacking()[seat]))
        assert f"sin {lacking}" in drawn


def test_the_table_label_is_drawn_as_given_with_its_word(drawn_texts: list[str]) -> None:
    drawn = _texts_drawn(drawn_texts, public_view(scripted_match(3)), FACTS)
    assert FACTS.table_label == "Mesa 1" and "Mesa 1" in drawn


def test_the_table_label_stands_at_least_8_pixels_tall_on_a_400_pixel_wide_phone() -> None:
    """Issue 13, item 27, on a downscaled render: "Mesa 1" is as tall on a phone as text
    of 11 pixels (capitals 0.73 of the size: 8 pixels), so it can be read."""
    from PIL import ImageChops

    view = public_view(scripted_match(3))
    unlabelled = TableFacts(FACTS.seats, FACTS.seconds_left, "", FACTS.language)
    phone = []
    for facts in (FACTS, unlabelled):
        image = _image(board_png(view, facts)).convert("L")
        phone.append(image.resize((400, 400), Image.Resampling.LANCZOS))
    ink = ImageChops.difference(*phone).point(lambda v: 255 if v > 48 else 0).getbbox()
    assert ink is not None
    assert ink[3] - ink[1] >= 8


def test_a_picture_for_the_seat_to_move_says_te_toca_and_sales_tu_not_le_toca_tu(
    drawn_texts: list[str],
) -> None:
    """Issue 13, item 28: the terminal's own picture read "Le toca · Tú" and "Sale Tú"."""
    drawn = drawn_texts
    from dataclasses import replace

    view = public_view(scripted_match(0).hand)
    assert view.turn is not None and not view.line
    seats = list(FACTS.seats)
    seats[view.turn] = replace(seats[view.turn], name="Tú", is_you=True)
    board_png(view, replace(FACTS, seats=tuple(seats), seconds_left=None))  # type: ignore[arg-type]
    assert "Te toca" in drawn
    assert "Le toca" not in drawn
    assert [t for t in drawn if t.startswith("Sale ")] == []
    assert any(t.startswith("Sales tú con el ") for t in drawn)
    drawn.clear()
    board_png(view, replace(FACTS, seconds_left=None))
    assert "Le toca" in drawn and "Te toca" not in drawn


def test_a_board_with_a_boneyard_count_matches_its_golden_picture() -> None:
    facts = dataclasses.replace(FACTS, boneyard=12)
    assert_matches_golden(board_png(public_view(scripted_match(14)), facts), "board-boneyard.png")


def test_the_boneyard_count_is_drawn_as_pozo_n_and_not_at_all_without_a_boneyard(
    drawn_texts: list[str],
) -> None:
    view = public_view(scripted_match(14))
    none = _texts_drawn(drawn_texts, view, FACTS)
    assert not any(t.startswith(("Pozo", "Boneyard")) for t in none)
    assert "Pozo: 12" in _texts_drawn(drawn_texts, view, dataclasses.replace(FACTS, boneyard=12))
    assert "Pozo: 0" in _texts_drawn(drawn_texts, view, dataclasses.replace(FACTS, boneyard=0))
    english = _texts_drawn(
        drawn_texts, view, dataclasses.replace(FACTS, boneyard=21, language="en")
    )
    at = english.index("Boneyard:")  # too wide for one line beside the table: two
    assert english[at : at + 2] == ["Boneyard:", "21"]


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("table_label", ["Mesa 1", ""])
def test_the_boneyard_label_sits_left_of_the_table_above_the_left_seat_readable_on_a_phone(
    language: str, table_label: str
) -> None:
    from PIL import ImageChops

    view = public_view(scripted_match(14))
    plain = dataclasses.replace(FACTS, language=language, table_label=table_label)
    counted = dataclasses.replace(plain, boneyard=12)
    full = [_image(board_png(view, f)).convert("L") for f in (plain, counted)]
    ink = ImageChops.difference(*full).point(lambda v: 255 if v > 48 else 0).getbbox()
    assert ink is not None
    assert ink[0] >= 18 and ink[2] <= TABLE_AREA.x0 - 8  # left of the table's frame
    assert ink[1] >= (122 if table_label else 86) and ink[3] <= SEAT_PANELS[3][1]
    phone = [image.resize((400, 400), Image.Resampling.LANCZOS) for image in full]
    small = ImageChops.difference(*phone).point(lambda v: 255 if v > 48 else 0).getbbox()
    assert small is not None and small[3] - small[1] >= 8


def test_a_double_nine_line_matches_its_golden_picture() -> None:
    """7, 8 and 9 as dots on the board's tiles, upright and lying, and on the last
    tile's highlight (the engine's double-nine tiles, under the cubano rules)."""
    rng = random.Random(3)
    view = line_view(list(NINE_LINE), 1, rng, rules=CUBANO, counts=(7, 7, 7, 7))
    assert board_layout(view).short == 48
    assert_matches_golden(board_png(view, FACTS), "board-double-nine.png")


def test_a_one_against_one_board_with_a_14_tile_hand_matches_its_golden_picture() -> None:
    """Two players face to face (bottom and top), one hand grown to 14 tiles by drawing
    (seven backs and the count), the boneyard's count, and each player's score."""
    match = one_against_one_match()
    view = public_view(match)
    assert (len(view.tile_counts), max(view.tile_counts), view.boneyard_count) == (2, 14, 5)
    assert len(view.line) == 5
    facts = format_facts(match.rules, view)
    assert (facts.players, facts.is_partnership, facts.boneyard) == (2, False, 5)
    assert_matches_golden(board_png(view, facts), "board-one-against-one.png")


def test_a_three_player_board_matches_its_golden_picture() -> None:
    """Three players each for themselves: bottom, right and left, a colour each, the
    last move a draw ("José Luis robó"), the boneyard's count."""
    match = three_player_match()
    view = public_view(match)
    assert len(view.tile_counts) == 3 and view.boneyard_count == 4
    assert_matches_golden(
        board_png(view, format_facts(match.rules, view)), "board-three-players.png"
    )


def test_a_cuban_board_matches_its_golden_picture() -> None:
    """The cubano format: double-nine partnership at four seats, 7, 8 and 9 as dots,
    hands of up to ten tiles, no boneyard count (its 15 tiles are never drawn)."""
    match = cuban_match()
    view = public_view(match)
    assert sum(1 for p in view.line if p.tile.high >= 7) >= 8 and view.boneyard_count == 15
    facts = format_facts(match.rules, view)
    assert facts.boneyard is None and facts.is_partnership
    assert_matches_golden(board_png(view, facts), "board-cubano.png")


def test_two_seats_face_each_other_and_three_sit_bottom_right_and_left() -> None:
    assert PLACES == {
        2: ("bottom", "top"),
        3: ("bottom", "right", "left"),
        4: ("bottom", "right", "top", "left"),
    }
    assert seat_panels(2) == {0: SEAT_PANELS[0], 1: SEAT_PANELS[2]}
    assert seat_panels(3) == {0: SEAT_PANELS[0], 1: SEAT_PANELS[1], 2: SEAT_PANELS[3]}
    assert seat_panels(4) == SEAT_PANELS


def _panel_outline(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, ...]:
    """The colour of a panel's top edge, rounded to a multiple of 8 (the PNG's palette
    moves a colour by a level or two)."""
    x0, y0, x1, _ = box
    pixel = image.convert("RGB").getpixel(((x0 + x1) // 2, y0 + 1))
    return tuple((v + 4) // 8 for v in pixel)  # type: ignore[union-attr]


def _rounded(color: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple((v + 4) // 8 for v in color)


def test_each_seat_of_three_is_drawn_in_its_own_colour_and_no_panel_where_nobody_sits() -> None:
    match = three_player_match()
    view = public_view(match)
    image = _image(board_png(view, format_facts(match.rules, view)))
    for seat, box in seat_panels(3).items():
        color = GOLD if seat == view.turn else SIDE_COLORS[seat]
        assert _panel_outline(image, box) == _rounded(color)
    assert _panel_outline(image, SEAT_PANELS[2]) == _rounded(BACKGROUND)  # the top: nobody


def test_individual_play_lists_each_players_score_and_no_partnership(
    drawn_texts: list[str],
) -> None:
    match = three_player_match()
    view = public_view(match)
    drawn = _texts_drawn(drawn_texts, view, format_facts(match.rules, view))
    assert "Azul" not in drawn and "Rojo" not in drawn
    names = ["María", "Robotina", "José Luis"]
    at = drawn.index("Pozo: 4") + 1
    assert drawn[at : at + 6] == [names[0], "0", names[1], "0", names[2], "0"]


def test_a_draw_is_told_as_a_draw_and_is_no_pass(drawn_texts: list[str]) -> None:
    match = three_player_match()
    view = public_view(match)
    seat, move = view.history[-1]
    assert move.draw and seat == 2
    assert passed_last_turn(view) == [False, False, False]
    drawn = _texts_drawn(drawn_texts, view, format_facts(match.rules, view))
    assert "José Luis robó" in drawn and "Pasó" not in drawn
    short = format_facts(match.rules, view, names=("Ana", "Eva", "Luz"), language="en")
    assert "Luz drew" in _texts_drawn(drawn_texts, view, short)


def test_in_individual_play_only_the_hands_winner_shows_points_then_total() -> None:
    match = find_match(lambda m: m.hand.is_over, rules=three_player_match().rules)
    view = public_view(match)
    assert view.outcome is not None and view.outcome.winner_team is not None
    winner = view.outcome.winner_team
    points = view.outcome.points
    for seat in range(3):
        total = view.match_score[seat]
        expected = f"+{points} → {total}" if seat == winner else str(total)
        assert score_text(view, seat) == expected


def test_facts_for_another_table_than_the_views_are_refused() -> None:
    match = one_against_one_match()
    with pytest.raises(ValueError, match=r"facts give 4 seats \(partnership\), the rules 2"):
        board_png(public_view(match), FACTS)
