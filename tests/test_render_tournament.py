from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable

import pytest
from PIL import Image

import render
import render.canvas
import render.text
from render.canvas import GOLD, MIN_TEXT_SIZE, MUTED, PASS_RED, WHITE
from render.samples import (
    sample_arena_standings,
    sample_bracket,
    sample_bracket_sixteen,
    sample_bracket_with_byes,
    sample_swiss_standings,
)
from render.text import ELLIPSIS
from render.tournament import (
    FLAME,
    MAX_FIRST_ROUND,
    MAX_STANDINGS_ROWS,
    BracketFacts,
    BracketMatch,
    TournamentRow,
    TournamentStandingsFacts,
    bracket_image,
    bracket_png,
    bracket_size,
    champion,
    standings_columns,
    tournament_standings_image,
    tournament_standings_png,
    tournament_standings_size,
)
from tests.render_golden import assert_matches_golden

Drawn = list[tuple[int, str, tuple[int, int, int, int]]]

ROW = TournamentRow(1, "Ana", "3", "+40", 3)
STANDINGS = TournamentStandingsFacts(
    "Torneo", "Ronda 1 de 3", ("Jugador", "Puntos", "Dif.", "Jugadas"), (ROW,)
)
FINAL = BracketFacts("Duelo", ("Final",), ((BracketMatch(("Ana", "Luis"), (100, 80), 0),),))


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


def _pixels(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The RGB pixels of ``box`` in ``image``, row by row."""
    data = image.crop(box).convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _near(pixel: tuple[int, int, int], color: tuple[int, int, int], slack: int = 30) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, color, strict=True))


def _size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


def _with_match(facts: BracketFacts, round_: int, index: int, match: object) -> BracketFacts:
    rounds = [list(r) for r in facts.rounds]
    rounds[round_][index] = match  # type: ignore[call-overload]
    return dataclasses.replace(facts, rounds=tuple(tuple(r) for r in rounds))


# Golden pictures.


def test_an_eight_entrant_bracket_mid_event_matches_its_golden_picture() -> None:
    assert_matches_golden(bracket_png(sample_bracket()), "bracket-eight.png")


def test_a_six_pair_bracket_with_byes_and_a_champion_matches_its_golden_picture() -> None:
    assert_matches_golden(bracket_png(sample_bracket_with_byes()), "bracket-byes.png")


def test_a_sixteen_entrant_bracket_matches_its_golden_picture() -> None:
    assert_matches_golden(bracket_png(sample_bracket_sixteen()), "bracket-sixteen.png")


def test_a_swiss_standings_of_twelve_rows_matches_its_golden_picture() -> None:
    assert_matches_golden(tournament_standings_png(sample_swiss_standings()), "swiss.png")


def test_an_arena_standings_with_streaks_matches_its_golden_picture() -> None:
    assert_matches_golden(tournament_standings_png(sample_arena_standings()), "arena.png")


# Sizes and determinism.


def test_a_bracket_is_960_wide_and_678_tall_up_to_eight_entrants_and_1126_for_sixteen() -> None:
    assert _size(bracket_png(FINAL)) == bracket_size(FINAL) == (960, 678)
    assert _size(bracket_png(sample_bracket())) == (960, 678)
    assert _size(bracket_png(sample_bracket_with_byes())) == (960, 678)
    assert _size(bracket_png(sample_bracket_sixteen())) == (960, 1126)
    assert _size(bracket_png(sample_bracket_sixteen(hidden_rounds=2))) == (960, 1126)


def test_a_standings_is_960_wide_and_grows_with_its_rows_past_eight() -> None:
    three = dataclasses.replace(STANDINGS, rows=(ROW,) * 3)
    twenty = dataclasses.replace(STANDINGS, rows=(ROW,) * 20)
    assert _size(tournament_standings_png(three)) == (960, 672)
    assert _size(tournament_standings_png(sample_swiss_standings())) == (960, 880)
    assert _size(tournament_standings_png(twenty)) == (960, 1296)
    assert tournament_standings_size(twenty) == (960, 1296)


def test_every_picture_has_the_same_bytes_each_time_and_stays_small() -> None:
    draws: tuple[Callable[[], bytes], ...] = (
        lambda: bracket_png(sample_bracket()),
        lambda: bracket_png(sample_bracket_with_byes("en")),
        lambda: bracket_png(sample_bracket_sixteen()),
        lambda: tournament_standings_png(sample_swiss_standings()),
        lambda: tournament_standings_png(sample_arena_standings("en")),
    )
    for draw in draws:
        png = draw()
        assert draw() == png
        assert len(png) <= 150 * 1024


def test_the_render_package_exports_both_pictures_and_their_facts() -> None:
    assert render.bracket_png is bracket_png
    assert render.tournament_standings_png is tournament_standings_png
    assert render.BracketFacts is BracketFacts
    assert render.BracketMatch is BracketMatch
    assert render.TournamentRow is TournamentRow
    assert render.TournamentStandingsFacts is TournamentStandingsFacts


# What the bracket draws.


def test_the_winner_is_bold_gold_the_loser_muted_and_a_no_show_red(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket())
    cells = [(t, c[:3]) for _, t, c in drawn]
    assert ("María", GOLD) in cells
    assert ("100", GOLD) in cells
    assert ("Pedro 🎲", MUTED) in cells
    assert ("64", MUTED) in cells
    assert ("Rosa", MUTED) in cells
    assert ("N.P.", PASS_RED) in cells
    assert ("Carmen", WHITE) not in cells  # decided matches only: gold or muted


def test_a_match_not_played_yet_draws_both_names_white_and_no_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket())
    white = [t for _, t, c in drawn if c[:3] == WHITE]
    assert white == ["Maximiliano Alej…", "Ñandú 🐦\u200d🔥 Żółć Æ…", "María"]


def test_the_rounds_names_and_every_line_are_drawn_left_to_right_top_to_bottom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket_with_byes())
    texts = [t for _, t, _ in drawn]
    assert texts[:5] == [
        "Torneo del viernes · Eliminatoria",
        "6 parejas · partidas a 100",
        "Cuartos",
        "Semifinal",
        "Final",
    ]
    assert texts[5:9] == ["Ana & Luis", "pase directo", "🇻🇪 Los de M…", "100"]
    assert texts.count("pase directo") == 2  # the top two seeds' byes
    assert texts[-2:] == ["Campeones", "María & José"]


def test_the_champion_is_named_on_a_card_only_when_the_final_has_a_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert champion(sample_bracket_with_byes()) == "María & José"
    assert champion(sample_bracket()) is None
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket())
    assert "Campeón" not in [t for _, t, _ in drawn]
    drawn.clear()
    bracket_image(sample_bracket_sixteen())
    assert [(s, t) for s, t, _ in drawn][-3:] == [
        (27, "Campeón"),
        (30, "Carmen"),
        (27, "N.P. = no se presentó"),
    ]


def test_the_champion_card_shows_a_gold_trophy_above_the_gold_outlined_final() -> None:
    image = bracket_image(sample_bracket_with_byes())
    gold = sum(1 for p in _pixels(image, (780, 165, 815, 215)) if _near(p, GOLD))
    assert gold > 300  # the cup, drawn with shapes
    outline = (946, 370, 947, 371)  # a pixel of the final's right edge
    assert _near(_pixels(image, outline)[0], GOLD)
    plain = bracket_image(sample_bracket())
    assert not _near(_pixels(plain, outline)[0], GOLD)


def test_a_bigger_field_is_drawn_from_its_round_of_sixteen_with_the_callers_footer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket_sixteen(hidden_rounds=2))
    texts = [t for _, t, _ in drawn]
    assert texts[2:6] == ["Octavos", "Cuartos", "Semifinal", "Final"]
    assert texts[-1] == "2 rondas anteriores no se muestran · 64 jugadores"


def test_long_names_in_a_sixteen_bracket_end_with_an_ellipsis_at_the_smallest_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket_sixteen())
    cut = sorted({(s, t) for s, t, _ in drawn if t.endswith(ELLIPSIS)})
    assert cut == [(27, "Maximil…"), (27, "Ñandú…")]
    assert (27, "José Luis") in [(s, t) for s, t, _ in drawn]  # too wide at 28, whole at 27


def test_no_text_on_a_tournament_picture_is_smaller_than_the_minimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    bracket_image(sample_bracket_sixteen())
    bracket_image(sample_bracket_with_byes("en"))
    tournament_standings_image(sample_swiss_standings())
    tournament_standings_image(sample_arena_standings())
    assert drawn
    assert [(s, t) for s, t, _ in drawn if s < MIN_TEXT_SIZE] == []


# What the standings draw.


def test_the_standings_draw_place_name_points_tiebreak_and_played_in_that_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    tournament_standings_image(sample_swiss_standings())
    texts = [t for _, t, _ in drawn]
    assert texts[:6] == [
        "Torneo del viernes · Suizo",
        "Ronda 3 de 5 · 12 jugadores",
        "Jugador",
        "Puntos",
        "Dif.",
        "Jugadas",
    ]
    assert texts[6:11] == ["1", "María", "3", "+212", "3"]
    assert texts[-1] == "Desempate: diferencia de puntos, luego puntos de los rivales"


def test_a_streak_draws_a_flame_gold_points_and_the_legend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _drawn(monkeypatch)
    image = tournament_standings_image(sample_arena_standings())
    gold_points = [t for s, t, c in drawn if s == 30 and c[:3] == GOLD]
    assert gold_points == ["14", "10", "8"]  # Carmen, María and محمد are on a streak
    assert "En racha: cada victoria vale doble" in [t for _, t, _ in drawn]
    # the flame after "Carmen" (first row): orange pixels right of the name
    assert any(_near(p, FLAME) for p in _pixels(image, (200, 144, 300, 190)))


def test_no_streak_draws_no_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    tournament_standings_image(dataclasses.replace(STANDINGS, streak_label="En racha"))
    assert "En racha" not in [t for _, t, _ in drawn]


def test_the_name_column_gets_what_the_figures_leave() -> None:
    cols = standings_columns(sample_swiss_standings())
    assert cols.name_x == 104
    assert cols.played_right == 924
    assert cols.name_x + cols.name_width + 26 == cols.points_right - cols.points_width
    wide = dataclasses.replace(
        STANDINGS, rows=(TournamentRow(1, "Ana", "1.000.000.000", "+1.000.000.000.000", 9999),)
    )
    assert standings_columns(wide).name_width >= 240


# Bad facts.


def test_anything_but_facts_is_refused() -> None:
    with pytest.raises(TypeError, match="BracketFacts"):
        bracket_png("bracket")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="TournamentStandingsFacts"):
        tournament_standings_png(FINAL)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rounds", "names", "message"),
    [
        ((), (), "at least one round"),
        ((tuple(BracketMatch(("A", "B")) for _ in range(3)),), ("R",), "1, 2, 4 or 8"),
        ((tuple(BracketMatch(("A", "B")) for _ in range(16)),), ("R",), "1, 2, 4 or 8"),
        (((BracketMatch(("A", "B")),) * 2,), ("R",), r"\[2, 1\] matches, not \[2\]"),
        (((BracketMatch(("A", "B")),),), ("Final", "Extra"), "1 round names, not 2"),
    ],
)
def test_rounds_that_do_not_halve_to_one_final_are_refused(
    rounds: tuple[tuple[BracketMatch, ...], ...], names: tuple[str, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        bracket_png(BracketFacts("T", names, rounds))
    assert MAX_FIRST_ROUND == 8


@pytest.mark.parametrize(
    ("match", "error", "message"),
    [
        (BracketMatch(("A", "B"), winner=2), ValueError, "0, 1 or None, not 2"),
        (BracketMatch(("A", None), winner=1), ValueError, "winner is an empty side"),
        (BracketMatch(("A", "B"), winner=True), TypeError, "winner is an int, not bool"),
        (BracketMatch(("A", "B"), (-1, 3), 1), ValueError, "score 0 is negative"),
        (BracketMatch(("A", None), (100, 3), 0), ValueError, "empty side 1 has a score"),
        (BracketMatch(("A", "B"), (1.5, 3), 1), TypeError, "score 0 is an int, not float"),  # type: ignore[arg-type]
        (BracketMatch(("A", 7), winner=0), TypeError, "side 1 is a str, not int"),  # type: ignore[arg-type]
        (BracketMatch(("A", None), winner=0, no_show=True), ValueError, "no-show with an empty"),
        ("A v B", TypeError, "is a BracketMatch, not str"),
    ],
)
def test_a_match_that_cannot_be_is_refused(
    match: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        bracket_png(_with_match(FINAL, 0, 0, match))


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        ((), ValueError, "1 to 20 rows, not 0"),
        ((ROW,) * (MAX_STANDINGS_ROWS + 1), ValueError, "1 to 20 rows, not 21"),
        ((dataclasses.replace(ROW, place=0),), ValueError, "place is 1 or more, not 0"),
        ((dataclasses.replace(ROW, played=-1),), ValueError, "played is negative"),
        ((dataclasses.replace(ROW, played=True),), TypeError, "is an int, not bool"),
        ((dataclasses.replace(ROW, points=3),), TypeError, "is a str, not int"),  # type: ignore[arg-type]
        (("Ana",), TypeError, "row 1 is a TournamentRow, not str"),
    ],
)
def test_standings_rows_that_cannot_be_are_refused(
    rows: tuple[object, ...], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        tournament_standings_png(dataclasses.replace(STANDINGS, rows=rows))  # type: ignore[arg-type]
