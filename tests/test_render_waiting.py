from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.rules import find_any_preset, find_preset
from render import SeatFacts, TableFacts, waiting_png
from render.board import BOARD_SIZE, SEAT_PANELS
from render.canvas import GOLD, MUTED, TEAM_COLORS
from render.samples import LONG_NAMES
from render.waiting import preset_label, rules_lines
from tests.render_golden import assert_matches_golden

VENEZOLANO = find_preset("venezolano")

WAITING = TableFacts(
    (
        SeatFacts("María"),
        SeatFacts("", is_open=True),
        SeatFacts("José Luis", is_open=True),  # held for José Luis (an invitation)
        SeatFacts("Robotina", is_robot=True),
    ),
    seconds_left=87,
    table_label="Mesa 7",
)
FULL = TableFacts(
    (
        SeatFacts("María"),
        SeatFacts("Pedro"),
        SeatFacts("Ana", away=True),
        SeatFacts("Robotina", is_robot=True),
    ),
    seconds_left=5,
    table_label="Mesa 7",
)

# A point on the top edge of each seat's panel: its outline.
_OUTLINE = {seat: ((x0 + x1) // 2, y0 + 1) for seat, (x0, y0, x1, _) in SEAT_PANELS.items()}


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(pixel: tuple[int, ...], color: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 30 for a, b in zip(pixel, color, strict=False))


def _has_color(image: Image.Image, box: tuple[int, int, int, int], color: tuple[int, ...]) -> bool:
    region = image.crop(box)
    return any(_near(p, color) for p in region.getdata())  # type: ignore[arg-type]


def test_a_waiting_table_matches_its_golden_picture() -> None:
    assert_matches_golden(waiting_png(VENEZOLANO, WAITING), "waiting.png")


def test_a_full_table_counting_down_matches_its_golden_picture() -> None:
    png = waiting_png(find_preset("dominicano"), FULL, starting=True)
    assert_matches_golden(png, "waiting-starting.png")


def test_the_waiting_picture_is_a_960_pixel_square_png_with_the_same_bytes_each_time() -> None:
    png = waiting_png(VENEZOLANO, WAITING)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == BOARD_SIZE == (960, 960)
    assert len(png) <= 150 * 1024
    assert waiting_png(VENEZOLANO, WAITING) == png


def test_free_seats_are_outlined_muted_and_taken_seats_in_their_partnership_colour() -> None:
    image = _image(waiting_png(VENEZOLANO, WAITING))
    assert _near(image.getpixel(_OUTLINE[0]), TEAM_COLORS[0])  # type: ignore[arg-type]
    assert _near(image.getpixel(_OUTLINE[1]), MUTED)  # type: ignore[arg-type]
    assert _near(image.getpixel(_OUTLINE[2]), MUTED)  # type: ignore[arg-type]
    assert _near(image.getpixel(_OUTLINE[3]), TEAM_COLORS[1])  # type: ignore[arg-type]


def test_the_countdown_shows_in_gold_only_while_a_timer_runs() -> None:
    corner = (800, 860, 950, 910)  # bottom right, where the board shows a turn's time
    timed = _image(waiting_png(VENEZOLANO, WAITING))
    untimed = _image(waiting_png(VENEZOLANO, TableFacts(WAITING.seats, table_label="Mesa 7")))
    assert _has_color(timed, corner, GOLD)
    assert not _has_color(untimed, corner, GOLD)


def test_the_seconds_left_and_the_phase_change_the_picture() -> None:
    later = TableFacts(WAITING.seats, seconds_left=30, table_label="Mesa 7")
    assert waiting_png(VENEZOLANO, later) != waiting_png(VENEZOLANO, WAITING)
    assert waiting_png(VENEZOLANO, WAITING, starting=True) != waiting_png(VENEZOLANO, WAITING)


def test_english_waiting_pictures_differ_from_spanish_ones_in_words_only() -> None:
    english = TableFacts(WAITING.seats, WAITING.seconds_left, WAITING.table_label, "en")
    es, en = waiting_png(VENEZOLANO, WAITING), waiting_png(VENEZOLANO, english)
    assert es != en
    assert _image(es).size == _image(en).size


def test_the_preset_keeps_its_name_with_other_timers_or_stake_and_says_when_changed() -> None:
    assert preset_label(VENEZOLANO) == "Venezolano"
    assert preset_label(find_preset("espanol"), "en") == "Spanish"
    assert preset_label(find_preset("venezolano", turn_seconds=20, stake=0)) == "Venezolano"
    assert preset_label(find_preset("venezolano", target=50)) == "Venezolano, con cambios"
    assert preset_label(find_preset("dominicano", target=500), "en") == "Dominican, changed"


def test_the_rules_list_names_target_counting_bonus_turn_time_and_stake() -> None:
    assert rules_lines(VENEZOLANO) == [
        "Partida a 100 puntos",
        "Cuentan los puntos de los rivales",
        "45 s por turno",
        "Apuesta: $10",
    ]
    english = rules_lines(find_preset("dominicano", stake=0), "en")
    assert "Capicúa: +25" in english
    assert english[-1] == "No stake"
    assert "Everyone's pips count" in rules_lines(find_preset("espanol"), "en")
    # Issue 13, item 28: "…de las cuatro man…" was cut off and used *mano* for tiles.
    assert "Cuentan los puntos de todos" in rules_lines(find_preset("espanol"))


def test_long_right_to_left_and_emoji_names_render_within_the_picture() -> None:
    seats = tuple(SeatFacts(n, is_open=i == 2, away=i == 1) for i, n in enumerate(LONG_NAMES))
    facts = TableFacts(seats, seconds_left=10**6, table_label=LONG_NAMES[0])  # type: ignore[arg-type]
    assert _image(waiting_png(VENEZOLANO, facts)).size == BOARD_SIZE


@settings(max_examples=20, deadline=None)
@given(
    st.lists(st.text(max_size=60), min_size=4, max_size=4),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.one_of(st.none(), st.integers(min_value=-5, max_value=500)),
    st.booleans(),
)
def test_names_of_every_kind_render_without_error(
    names: list[str], free: list[bool], seconds: int | None, starting: bool
) -> None:
    facts = TableFacts(
        tuple(  # type: ignore[arg-type]
            SeatFacts(n, is_open=f, is_robot=i == 3 and not f)
            for i, (n, f) in enumerate(zip(names, free, strict=True))
        ),
        seconds_left=seconds,
        table_label=names[0],
    )
    png = waiting_png(VENEZOLANO, facts, starting=starting)
    assert _image(png).size == BOARD_SIZE


def test_anything_but_a_rule_set_is_refused() -> None:
    with pytest.raises(TypeError, match="Rules"):
        waiting_png("venezolano", WAITING)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["es", "en"])
def test_no_rule_line_of_the_waiting_picture_is_cut_off(language: str) -> None:
    """Issue 13, item 28: "Se cuentan los puntos de las cuatro man…" was cut short."""
    from engine.rules import PRESETS
    from render.board import TABLE_AREA
    from render.text import fit_text

    width = TABLE_AREA.x1 - TABLE_AREA.x0 - 140 - 30
    for rules in PRESETS.values():
        for line in rules_lines(find_preset("espanol", capicua_bonus=25, stake=1000), language):
            assert fit_text(line, 22, False, width) == line
        for line in rules_lines(rules, language):
            assert fit_text(line, 22, False, width) == line


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_seated_count_in_the_corner_is_never_cut_off(language: str) -> None:
    """Issue 13, item 28: the corner said "2 de 4 asientos ocu…"."""
    from render.canvas import LABEL_SIZE
    from render.strings import text
    from render.text import wrap_text

    width = 944 - SEAT_PANELS[2][2] - 14
    for total in (2, 3, 4):
        for seated in range(total + 1):
            phrase = text(language, "seated_count", n=seated, total=total)
            lines = wrap_text(phrase, LABEL_SIZE, True, width, 2)
            assert " ".join(lines).replace("\u00a0", " ") == phrase.replace("\u00a0", " ")
            assert all("…" not in line for line in lines)


ONE_AGAINST_ONE = find_any_preset("uno-contra-uno")
THREE = find_any_preset("individual", players=3, boneyard="draw")


def test_a_one_against_one_table_waiting_for_its_second_player_matches_its_golden_picture() -> None:
    facts = TableFacts(
        (SeatFacts("María"), SeatFacts("José Luis", is_open=True)),
        seconds_left=32,
        table_label="Mesa 7",
    )
    assert_matches_golden(waiting_png(ONE_AGAINST_ONE, facts), "waiting-two-seats.png")


def test_a_full_three_player_table_counting_down_matches_its_golden_picture() -> None:
    facts = TableFacts(
        (SeatFacts("María"), SeatFacts("Robotina", is_robot=True), SeatFacts("José Luis")),
        seconds_left=5,
        table_label="Mesa 7",
    )
    assert_matches_golden(waiting_png(THREE, facts, starting=True), "waiting-three-seats.png")


def test_the_format_presets_are_named_and_a_three_player_table_is_individual() -> None:
    assert preset_label(ONE_AGAINST_ONE) == "Uno contra uno"
    assert preset_label(find_any_preset("individual")) == "Individual"
    assert preset_label(find_any_preset("cubano"), "en") == "Cuban"
    assert preset_label(THREE) == "Individual, con cambios"
    assert preset_label(find_any_preset("uno-contra-uno", target=150), "en") == (
        "One against one, changed"
    )


def test_the_rules_list_says_the_format_when_it_is_not_todays_game() -> None:
    assert rules_lines(ONE_AGAINST_ONE)[:3] == [
        "2 jugadores, cada uno para sí",
        "Se roba del pozo",
        "Partida a 100 puntos",
    ]
    assert rules_lines(find_any_preset("individual", players=2), "en")[:2] == [
        "2 players, each for themselves",
        "No drawing from the boneyard",
    ]
    # four players each for themselves deal every tile: nothing to draw or not
    assert rules_lines(find_any_preset("individual"))[:2] == [
        "4 jugadores, cada uno para sí",
        "Partida a 100 puntos",
    ]
    assert rules_lines(find_any_preset("cubano"))[:2] == ["Doble nueve", "Partida a 100 puntos"]


def test_a_three_seat_waiting_table_says_three_seats_and_no_partnership(
    drawn_texts: list[str],
) -> None:
    drawn = drawn_texts
    facts = TableFacts((SeatFacts("María"), SeatFacts("", is_open=True), SeatFacts("Eva")))
    waiting_png(THREE, facts)
    assert "2\u00a0de\u00a03" in drawn  # under "Asientos:" (the corner is narrow)
    assert "Azul" not in drawn and "Rojo" not in drawn
    # seat 0 at the bottom, 1 (free) on the right, 2 on the left: name, then the note
    assert drawn[:7] == ["María", "en su asiento", "libre", "Asiento 2", "Eva", "en su", "asiento"]


def test_a_waiting_picture_for_another_number_of_seats_than_the_rules_is_refused() -> None:
    with pytest.raises(ValueError, match=r"facts give 4 seats \(partnership\), the rules 2"):
        waiting_png(ONE_AGAINST_ONE, WAITING)
