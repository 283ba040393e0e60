from __future__ import annotations

import dataclasses
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import render.canvas
import render.text
from render.canvas import GOLD, MIN_TEXT_SIZE, MUTED, PANEL, PASS_RED, WHITE
from render.samples import LONG_NAMES, sample_standings
from render.standings import (
    _RANK_CENTER,
    _ROW_HEIGHT,
    _ROW_STEP,
    _ROWS_Y,
    GREEN,
    MAX_ROWS,
    MEDALS,
    STANDINGS_SIZE,
    Columns,
    StandingRow,
    StandingsFacts,
    standings_columns,
    standings_image,
    standings_png,
)
from render.text import ELLIPSIS, text_width
from tests.render_golden import assert_matches_golden

HEADERS = ("Jugador", "Rating", "Partidas", "Tendencia")
EMPTY = StandingsFacts(
    "Temporada diciembre 2026",
    "Rating · 0 jugadores",
    HEADERS,
    (),
    empty_text="Aún no hay partidas puntuadas en esta temporada",
    footer="? = provisional (menos de 10 partidas)",
)
PLAIN = StandingsFacts(
    "Ranking · este grupo",
    "",
    HEADERS,
    tuple(StandingRow(i + 1, f"Jugador {i + 1}", f"1.{600 - i * 11}", 20 + i) for i in range(5)),
)

Drawn = list[tuple[int, str, tuple[int, int, int, int]]]


def _pixels(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The RGB pixels of ``box`` in ``image``, row by row."""
    data = image.crop(box).convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Every text the pictures draw from now on, as (size, text, colour)."""
    drawn: Drawn = []
    real = render.text.text_sprite  # what render.canvas draws with

    def recording(
        text: str, size: int, bold: bool, color: tuple[int, int, int, int], ltr: bool = False
    ) -> Image.Image:
        drawn.append((size, text, color))
        return real(text, size, bold, color, ltr)

    monkeypatch.setattr(render.canvas, "text_sprite", recording)
    return drawn


def _row_center(index: int) -> int:
    return _ROWS_Y + index * _ROW_STEP + _ROW_HEIGHT // 2


def _row_box(index: int) -> tuple[int, int, int, int]:
    top = _ROWS_Y + index * _ROW_STEP
    return (0, top, STANDINGS_SIZE[0], top + _ROW_HEIGHT)


def _near(pixel: object, color: tuple[int, int, int], slack: int = 30) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= slack for a, b in zip(pixel, color, strict=False))


def _has_color(
    image: Image.Image, box: tuple[int, int, int, int], color: tuple[int, int, int]
) -> bool:
    return any(_near(p, color, 20) for p in _pixels(image, box))


def _with_row(facts: StandingsFacts, index: int, **changes: object) -> StandingsFacts:
    rows = list(facts.rows)
    rows[index] = dataclasses.replace(rows[index], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(facts, rows=tuple(rows))


def test_a_full_leaderboard_matches_its_golden_picture() -> None:
    assert_matches_golden(standings_png(sample_standings()), "standings.png")


def test_an_empty_leaderboard_matches_its_golden_picture() -> None:
    assert_matches_golden(standings_png(EMPTY), "standings-empty.png")


def test_the_leaderboard_is_a_960_by_880_png_with_the_same_bytes_each_time() -> None:
    for facts in (sample_standings(), sample_standings("en"), EMPTY, PLAIN):
        png = standings_png(facts)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG"
        assert image.size == STANDINGS_SIZE == (960, 880)
        assert len(png) <= 150 * 1024
        assert standings_png(facts) == png


def test_a_list_of_three_rows_is_as_tall_as_a_list_of_ten() -> None:
    three = dataclasses.replace(PLAIN, rows=PLAIN.rows[:3])
    assert standings_image(three).size == standings_image(sample_standings()).size


def test_an_empty_list_says_its_empty_text_and_draws_no_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    image = standings_image(EMPTY)
    texts = [t for _, t, _ in drawn]
    assert texts == [
        "Temporada diciembre 2026",
        "Rating · 0 jugadores",
        "Jugador",
        "Rating",
        "Partidas",
        "Tendencia",
        "Aún no hay partidas puntuadas en esta",
        "temporada",
        "? = provisional (menos de 10 partidas)",
    ]
    assert not _has_color(image, (0, _ROWS_Y, 960, _ROWS_Y + 600), GOLD)  # no medal


def test_the_ten_rows_draw_rank_name_value_matches_and_trend_in_that_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    standings_image(sample_standings())
    texts = [t for _, t, _ in drawn]
    first = texts.index("1")
    assert texts[first : first + 5] == ["1", "María", "1.732", "48", "+12"]
    assert texts[-1] == "? = provisional (menos de 10 partidas)"
    assert texts.count("?") == 3  # Pedro, the Maracaibo pair and Zoe are provisional


def test_long_names_end_with_an_ellipsis_inside_the_name_column(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    facts = sample_standings()
    standings_image(facts)
    names = [t for size, t, _ in drawn if size == 30 and t.endswith(ELLIPSIS)]
    assert names == [
        "Maximiliano Alejand…",
        "Ñandú 🐦\u200d🔥 Żółć Ærøs…",
        "محمد عبد الرحمن الفلا…",
        "שׁלום עליכם חברים יקרי…",
        "🇻🇪 Los de Maracaibo…",
    ]
    cols = standings_columns(facts)
    value_left = cols.value_right - cols.value_width
    assert cols.name_x + cols.name_width < value_left
    assert all(cols.name_x + text_width(n, 30, True) <= value_left for n in names)
    assert "Pedro 🎲" in [t for _, t, _ in drawn]  # a short emoji name is drawn whole


def test_the_columns_are_as_wide_as_their_widest_text_and_the_name_gets_the_rest() -> None:
    assert standings_columns(sample_standings()) == Columns(
        name_x=104,
        name_width=378,
        value_right=625,
        value_width=117,
        mark_width=21,
        matches_right=761,
        matches_width=110,
        trend_right=924,
        trend_width=137,
    )
    plain = standings_columns(PLAIN)
    assert plain.mark_width == 0  # no provisional row, no "?" slot
    assert plain.name_width > standings_columns(sample_standings()).name_width


def test_the_first_three_wear_gold_silver_and_bronze_medals() -> None:
    image = standings_image(sample_standings())
    for index in range(3):
        assert _near(image.getpixel((_RANK_CENTER, _row_center(index) - 17)), MEDALS[index])
    assert MEDALS[0] == GOLD
    assert _near(image.getpixel((_RANK_CENTER, _row_center(3) - 17)), PANEL)


def test_the_highlighted_row_is_outlined_in_gold_and_differs_from_a_plain_one() -> None:
    plain = standings_image(PLAIN)
    marked = standings_image(_with_row(PLAIN, 2, highlight=True))
    assert _near(marked.getpixel((480, _ROWS_Y + 2 * _ROW_STEP + 1)), GOLD)
    assert _near(plain.getpixel((480, _ROWS_Y + 2 * _ROW_STEP + 1)), PANEL)
    assert ImageChops.difference(plain.crop(_row_box(2)), marked.crop(_row_box(2))).getbbox()
    assert not ImageChops.difference(plain.crop(_row_box(1)), marked.crop(_row_box(1))).getbbox()


def test_a_provisional_value_is_muted_with_a_gold_question_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = standings_image(PLAIN)
    drawn = _drawn(monkeypatch)
    marked = standings_image(_with_row(PLAIN, 4, provisional=True))
    assert ("?", (*GOLD, 255)) in [(t, c) for _, t, c in drawn]
    assert ("1.556", (*MUTED, 255)) in [(t, c) for _, t, c in drawn]
    assert ("1.589", (*WHITE, 255)) in [(t, c) for _, t, c in drawn]
    assert ImageChops.difference(plain.crop(_row_box(4)), marked.crop(_row_box(4))).getbbox()
    assert _has_color(marked, _row_box(4), GOLD)
    assert not _has_color(plain, _row_box(4), GOLD)


def test_trends_show_a_green_arrow_up_a_red_arrow_down_and_nothing_when_flat() -> None:
    image = standings_image(sample_standings())
    trend = (760, 0, 940, 0)
    up, down, flat = 0, 1, 2  # +12, −8 and no trend in the sample

    def box(i: int) -> tuple[int, int, int, int]:
        return (trend[0], _row_center(i) - 12, trend[2], _row_center(i) + 12)

    assert _has_color(image, box(up), GREEN) and not _has_color(image, box(up), PASS_RED)
    assert _has_color(image, box(down), PASS_RED) and not _has_color(image, box(down), GREEN)
    assert not _has_color(image, box(flat), GREEN) and not _has_color(image, box(flat), PASS_RED)


def test_an_arrow_with_no_text_and_a_flat_trend_text_both_draw() -> None:
    arrow_only = _with_row(PLAIN, 0, trend="", trend_sign=1)
    flat_text = _with_row(PLAIN, 0, trend="=", trend_sign=0)
    plain = standings_image(PLAIN).crop(_row_box(0))
    for facts in (arrow_only, flat_text):
        assert ImageChops.difference(plain, standings_image(facts).crop(_row_box(0))).getbbox()


def test_a_balance_list_with_big_amounts_shows_every_number_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = (
        StandingRow(1, "Ana", "$1.250.000", 1234, "+$12.500", 1),
        StandingRow(1234, LONG_NAMES[1], "−$99.999", 7, "−$5.000", -1, provisional=True),
    )
    drawn = _drawn(monkeypatch)
    standings_image(dataclasses.replace(PLAIN, rows=rows))
    cells = [(s, t) for s, t, _ in drawn][5:]  # after the title and the four headers
    assert cells == [
        (28, "1"),
        (30, "Ana"),
        (30, "$1.250.000"),
        (28, "1234"),
        (28, "+$12.500"),
        (27, "1234"),  # a four-digit rank, one size smaller
        (30, "Ñandú 🐦\u200d🔥 Żó…"),
        (30, "?"),
        (30, "−$99.999"),
        (28, "7"),
        (28, "−$5.000"),
    ]


def test_absurdly_wide_numbers_are_drawn_smaller_then_cut_and_never_overlap_the_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = (
        StandingRow(1, "Ana", "$1.250.000.000", 123456, "+$1.000.000", 1),
        StandingRow(1234, LONG_NAMES[1], "−$99.999", 7, "−$5.000.000.000.000", -1),
    )
    facts = dataclasses.replace(PLAIN, rows=rows)
    drawn = _drawn(monkeypatch)
    assert standings_image(facts).size == STANDINGS_SIZE
    cols = standings_columns(facts)
    assert cols.name_width == 242  # at least 240 (rounding leaves two pixels)
    assert cols.name_x + cols.name_width + 26 == cols.value_right - cols.value_width
    assert cols.trend_right == 924
    texts = [(s, t) for s, t, _ in drawn]
    assert (27, "$1.250.000.…") in texts
    assert (27, "−$5.000.…") in texts
    assert (27, "1234") in texts  # a four-digit rank still fits its column, smaller


def test_no_text_on_a_leaderboard_is_smaller_than_the_minimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    for facts in (sample_standings(), sample_standings("en"), EMPTY, PLAIN):
        standings_image(facts)
    assert drawn
    assert [(s, t) for s, t, _ in drawn if s < MIN_TEXT_SIZE] == []


def test_more_than_ten_rows_or_anything_but_facts_are_refused() -> None:
    rows = tuple(StandingRow(i + 1, "Ana", "1", 1) for i in range(MAX_ROWS + 1))
    with pytest.raises(ValueError, match="at most 10 rows, not 11"):
        standings_png(dataclasses.replace(PLAIN, rows=rows))
    with pytest.raises(TypeError, match="StandingsFacts"):
        standings_png("Ranking")  # type: ignore[arg-type]
    assert MAX_ROWS == 10


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(max_size=50), st.text(max_size=12), st.integers(-1, 1), st.booleans()),
        max_size=MAX_ROWS,
    ),
    st.text(max_size=80),
)
def test_text_of_every_kind_renders_without_error(
    cells: list[tuple[str, str, int, bool]], title: str
) -> None:
    rows = tuple(
        StandingRow(i + 1, name, value, i * 7, value, sign, flag, not flag)
        for i, (name, value, sign, flag) in enumerate(cells)
    )
    facts = StandingsFacts(title, title, (title, title, title, title), rows, title, title)
    assert standings_image(facts).size == STANDINGS_SIZE
