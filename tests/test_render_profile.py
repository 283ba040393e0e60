from __future__ import annotations

import dataclasses
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import render.canvas
import render.text
from render.canvas import GOLD, MIN_TEXT_SIZE, MUTED
from render.profile import (
    MAX_HISTORY,
    MAX_NOTES,
    MAX_STATS,
    ProfileFacts,
    chart_points,
    format_number,
    profile_image,
    profile_png,
    profile_size,
)
from render.samples import LONG_NAMES, sample_history, sample_profile
from render.text import ELLIPSIS, text_width
from render.typeset import LRM, RLM, SEPARATOR, fit_keeping_tail, ltr_sentence
from tests.render_golden import assert_matches_golden

STATS = (
    ("Partidas", "48"),
    ("Ganadas", "27 (56 %)"),
    ("Dominós", "12"),
    ("Trancas ganadas", "5"),
    ("Capicúas", "2"),
    ("Puntos por mano", "14,2"),
)
NEW = ProfileFacts(
    name="Zoe",
    headline="1.032 (provisional)",
    stats=STATS,
    history=(),
    history_label="Rating",
    history_empty="Aún no hay partidas puntuadas",
    provisional=True,
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


def _with_history(history: tuple[int, ...]) -> ProfileFacts:
    return dataclasses.replace(NEW, history=history, provisional=False, headline="1.500")


def test_a_full_profile_matches_its_golden_picture() -> None:
    assert_matches_golden(profile_png(sample_profile()), "profile.png")


def test_a_new_players_profile_matches_its_golden_picture() -> None:
    assert_matches_golden(profile_png(NEW), "profile-new.png")


def test_the_profile_is_960_wide_and_as_tall_as_its_rows_with_the_same_bytes_each_time() -> None:
    facts = sample_profile()
    png = profile_png(facts)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == profile_size(facts) == (960, 1096)  # four rows of stats, three notes
    assert len(png) <= 200 * 1024
    assert profile_png(facts) == png
    assert profile_png(sample_profile("en")) == profile_png(sample_profile("en"))
    assert profile_size(NEW) == (960, 800)  # three rows of stats, no notes


def test_the_tallest_profile_stays_under_telegrams_1280_pixel_photo_limit() -> None:
    facts = dataclasses.replace(
        sample_profile(),
        stats=(("Partidas", "48"),) * MAX_STATS,
        notes=(("Mejor pareja", "Luis · 7-2"),) * MAX_NOTES,
        history=sample_history(MAX_HISTORY),
    )
    assert profile_image(facts).size == profile_size(facts) == (960, 1264)


def test_an_odd_number_of_stats_takes_as_many_rows_as_the_next_even_number() -> None:
    seven = dataclasses.replace(NEW, stats=(*STATS, ("Racha", "3 ganadas")))
    eight = dataclasses.replace(seven, stats=(*seven.stats, ("Mejor racha", "7")))
    assert profile_size(seven) == profile_size(eight) == (960, 904)


@pytest.mark.parametrize("points", [0, 1])
def test_a_history_of_fewer_than_two_points_says_its_empty_text_instead_of_a_chart(
    monkeypatch: pytest.MonkeyPatch, points: int
) -> None:
    drawn = _drawn(monkeypatch)
    facts = dataclasses.replace(NEW, history=(1032,) * points)
    image = profile_image(facts)
    texts = [t for _, t, _ in drawn]
    assert texts[-2:] == ["Rating", "Aún no hay partidas puntuadas"]
    assert "1.032" not in texts  # no axis, no last value
    chart = (20, 520, 940, 780)
    assert not any(
        all(abs(a - b) <= 20 for a, b in zip(p, GOLD, strict=True)) for p in _pixels(image, chart)
    )


def test_two_points_draw_a_line_with_the_lowest_highest_and_last_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    profile_image(_with_history((1000, 1010)))
    assert [t for _, t, _ in drawn][-4:] == ["Rating", "1.010", "1.000", "1.010"]


def test_two_hundred_points_draw_and_more_keep_only_the_last_two_hundred(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    history = sample_history(MAX_HISTORY)
    longer = (5000, *history)  # an old peak that falls off the chart
    drawn = _drawn(monkeypatch)
    a = profile_png(_with_history(history))
    b = profile_png(_with_history(longer))
    assert a == b
    texts = [t for _, t, _ in drawn]
    assert format_number(max(history)) in texts and "5.000" not in texts


def test_a_flat_history_runs_along_the_middle_with_one_axis_label(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    box = (100, 50, 500, 250)
    assert chart_points((1500, 1500, 1500), box) == [(100, 150), (300, 150), (500, 150)]
    drawn = _drawn(monkeypatch)
    profile_image(_with_history((1500,) * 12))
    assert [t for _, t, _ in drawn][-3:] == ["Rating", "1.500", "1.500"]  # axis, last value


def test_the_chart_puts_the_lowest_value_at_the_bottom_and_the_highest_at_the_top() -> None:
    box = (0, 0, 300, 100)
    assert chart_points((1000, 1500, 1250, 1000), box) == [
        (0, 100),
        (100, 0),
        (200, 50),
        (300, 100),
    ]


def test_a_huge_jump_keeps_every_point_inside_the_chart() -> None:
    history = (1000,) * 100 + (250_000,) + (-3000,) * 99
    box = (140, 634, 776, 842)
    points = chart_points(history, box)
    assert len(points) == 200
    assert min(y for _, y in points) == 634 and max(y for _, y in points) == 842
    assert points[0][0] == 140 and points[-1][0] == 776
    image = profile_image(_with_history(history))
    assert image.size == profile_size(_with_history(history))


def test_a_provisional_profile_differs_from_a_plain_one_its_headline_muted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = dataclasses.replace(sample_profile(), provisional=False)
    provisional = dataclasses.replace(plain, provisional=True)
    drawn = _drawn(monkeypatch)
    a, b = profile_image(plain), profile_image(provisional)
    assert ImageChops.difference(a, b).getbbox()
    headlines = [c for s, t, c in drawn if s == 30 and t == plain.headline]
    assert headlines == [(*GOLD, 255), (*MUTED, 255)]


def test_long_names_are_cut_with_an_ellipsis_and_notes_keep_their_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    facts = dataclasses.replace(
        sample_profile(),
        name=LONG_NAMES[0],
        notes=(("Peor pareja", f"{LONG_NAMES[1]} · 1-4"),),
    )
    drawn = _drawn(monkeypatch)
    profile_image(facts)
    texts = [t for _, t, _ in drawn]
    assert "Maximiliano Alejandro de la San…" in texts
    assert "Ñandú 🐦\u200d🔥 Żółć Ærøskøbing Œuvre… · 1-4" in texts


def test_a_cut_right_to_left_name_ends_with_its_ellipsis_on_the_left() -> None:
    arabic = f"{LONG_NAMES[2]} · {LRM}3-5"
    cut = fit_keeping_tail(arabic, 30, True, 500)
    assert cut.endswith(f"…{RLM} · {LRM}3-5")
    assert text_width(cut, 30, True) <= 500
    assert fit_keeping_tail("Ana · 3-5", 30, True, 500) == "Ana · 3-5"
    assert fit_keeping_tail("sin separador " * 5, 30, True, 300).endswith("…")
    assert fit_keeping_tail(f"Ana{SEPARATOR}{'9' * 40}", 30, True, 300).endswith("…")


def test_a_right_to_left_name_before_a_record_keeps_the_record_left_to_right() -> None:
    assert ltr_sentence("محمد · 3-5") == f"محمد · {LRM}3-5"
    assert ltr_sentence("Luis · 7-2") == "Luis · 7-2"
    assert ltr_sentence("שלום עליכם") == "שלום עליכם"
    assert ltr_sentence("María 12 · שלום 3 · Ana 4") == f"María 12 · שלום {LRM}3 · Ana 4"


def test_chart_numbers_are_grouped_as_the_caller_says_with_a_true_minus() -> None:
    assert format_number(1532) == "1.532"
    assert format_number(1532, ",") == "1,532"
    assert format_number(1532, "") == "1532"
    assert format_number(-40) == "\u221240"
    assert format_number(1_250_000) == "1.250.000"
    assert format_number(0) == "0"


def test_the_initial_on_the_gold_disc_is_the_names_first_character(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    for name in ("maría", "🐦\u200d🔥 Fénix", "ßeta", ""):
        profile_image(dataclasses.replace(NEW, name=name))
    initials = [t for s, t, _ in drawn if s == 44]
    assert initials == ["M", "🐦\u200d🔥", "ß", "?"]


def test_no_text_on_a_profile_is_smaller_than_the_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    for facts in (sample_profile(), sample_profile("en"), NEW, _with_history((1, 2))):
        profile_image(facts)
    assert drawn
    assert [(s, t) for s, t, _ in drawn if s < MIN_TEXT_SIZE] == []
    assert not any(t.endswith(ELLIPSIS) for _, t, _ in drawn if t in ("1.727", "1,073"))


def test_too_many_stats_or_notes_or_anything_but_facts_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 10 statistics, not 11"):
        profile_png(dataclasses.replace(NEW, stats=(("a", "1"),) * 11))
    with pytest.raises(ValueError, match="at most 4 notes, not 5"):
        profile_png(dataclasses.replace(NEW, notes=(("a", "1"),) * 5))
    with pytest.raises(TypeError, match="ProfileFacts"):
        profile_png("María")  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(
    st.text(max_size=60),
    st.lists(st.tuples(st.text(max_size=30), st.text(max_size=30)), max_size=MAX_STATS),
    st.lists(st.integers(-(10**9), 10**9), max_size=MAX_HISTORY),
    st.lists(st.tuples(st.text(max_size=30), st.text(max_size=60)), max_size=MAX_NOTES),
    st.booleans(),
)
def test_text_and_histories_of_every_kind_render_without_error(
    name: str,
    stats: list[tuple[str, str]],
    history: list[int],
    notes: list[tuple[str, str]],
    provisional: bool,
) -> None:
    facts = ProfileFacts(
        name, name, tuple(stats), tuple(history), name, name, tuple(notes), provisional
    )
    assert profile_image(facts).size == profile_size(facts)
