"""Top lists, profiles and seasons as players read them (bot/present/standings.py)."""

from __future__ import annotations

from bot.core import ChatRef, Ranking, SeasonEnded
from bot.core.standings import Profile, Standings
from bot.present.standings import (
    period_from_input,
    profile_caption,
    profile_facts,
    ranking_from_input,
    season_ended_text,
    season_name,
    standings_caption,
    standings_facts,
)
from storage.base import PairRow, PlayerRecord, PlayerStats, RankRow, Rating, RatingPoint, Rival
from storage.ratings import SeasonPeriod

CHAT = ChatRef("telegram", "-100", language="es")
ROWS = (
    RankRow(1, "María", 1532, 48, trend=12),
    RankRow(2, "José", 1490, 31, trend=-8),
    RankRow(3, "Zoe", 998, 3, trend=None, provisional=True),
)


def test_seasons_are_named_as_players_say_them_in_both_languages() -> None:
    assert season_name("2026-12", "es") == "diciembre de 2026"
    assert season_name("2026-12", "en") == "December 2026"
    assert season_name("2026-W49", "es") == "semana 49 de 2026"
    assert season_name("2026-W49", "en") == "week 49, 2026"
    assert season_name("2026-Q4", "es") == "4.º trimestre de 2026"
    assert season_name("2026-Q4", "en") == "quarter 4, 2026"


def test_players_words_name_the_lists_and_the_season_lengths() -> None:
    assert ranking_from_input("Temporada") is Ranking.SEASON
    assert ranking_from_input("saldo") is Ranking.BALANCE
    assert ranking_from_input("pairs") is Ranking.PAIRS
    assert ranking_from_input("rating") is Ranking.RATING
    assert ranking_from_input("otra") is None
    assert period_from_input("semanal") is SeasonPeriod.WEEKLY
    assert period_from_input("Quarterly") is SeasonPeriod.QUARTERLY
    assert period_from_input("anual") is None


def test_the_rating_list_formats_values_trends_and_marks_provisional_ratings() -> None:
    standings = Standings(Ranking.RATING, CHAT, None, rows=ROWS, asker=2)
    facts = standings_facts(standings, "es", chat_title="Dominó Caracas")
    assert facts.title == "Rating · Dominó Caracas"
    assert facts.headers == ("Jugador", "Rating", "Partidas", "7 días")
    assert [(r.rank, r.name, r.value, r.trend, r.trend_sign) for r in facts.rows] == [
        (1, "María", "1.532", "+12", 1),
        (2, "José", "1.490", "\u22128", -1),
        (3, "Zoe", "998", "", 0),
    ]
    assert [r.highlight for r in facts.rows] == [False, True, False]
    assert [r.provisional for r in facts.rows] == [False, False, True]
    assert facts.footer == "? = provisional (menos de 10 partidas puntuadas)"
    english = standings_facts(standings, "en")
    assert english.rows[0].value == "1,532"
    assert english.title == "Rating · this chat"


def test_the_global_season_list_is_titled_with_its_season_and_scope() -> None:
    standings = Standings(Ranking.SEASON, None, "2026-12", rows=ROWS)
    facts = standings_facts(standings, "es")
    assert facts.title == "Temporada de diciembre de 2026 · todos"
    assert facts.subtitle == "Hasta el 31 dic (UTC)"
    assert standings_facts(standings, "en").title == "Season December 2026 · everyone"
    weekly = Standings(Ranking.SEASON, None, "2026-W49", rows=ROWS)
    assert standings_facts(weekly, "es").title == "Temporada de la semana 49 de 2026 · todos"
    assert standings_facts(weekly, "en").title == "Season week 49, 2026 · everyone"
    quarterly = Standings(Ranking.SEASON, None, "2026-Q4", rows=ROWS)
    assert standings_facts(quarterly, "es").title == "Temporada del 4.º trimestre de 2026 · todos"
    assert standings_facts(quarterly, "en").title == "Season quarter 4, 2026 · everyone"
    final = standings_facts(Standings(Ranking.SEASON, CHAT, "2026-11", rows=ROWS, final=True), "es")
    assert final.title == "Clasificación final · noviembre de 2026"


def test_the_balance_list_shows_dollars_and_no_provisional_mark() -> None:
    rows = (RankRow(1, "María", 12500, 48, trend=-30, provisional=True),)
    facts = standings_facts(Standings(Ranking.BALANCE, CHAT, None, rows=rows), "es")
    assert (facts.rows[0].value, facts.rows[0].trend, facts.rows[0].provisional) == (
        "$12.500",
        "\u2212$30",
        False,
    )
    assert facts.footer == ""


def test_the_pairs_list_names_both_partners_and_their_record() -> None:
    pairs = (PairRow((1, 2), ("Ana", "Luis"), 9, 7),)
    facts = standings_facts(Standings(Ranking.PAIRS, CHAT, None, pairs=pairs, asker=2), "es")
    row = facts.rows[0]
    assert (row.name, row.value, row.matches, row.trend, row.highlight) == (
        "Ana & Luis",
        "78\u00a0%",
        9,
        "7-2",
        True,
    )
    assert facts.headers == ("Pareja", "% ganadas", "Partidas", "Récord")
    assert facts.subtitle == "Parejas con al menos 3 partidas jugadas"
    assert facts.empty_text == "Aún ninguna pareja ha jugado suficientes partidas."
    english = standings_facts(Standings(Ranking.PAIRS, CHAT, None, pairs=pairs), "en")
    assert english.subtitle == "Partners with at least 3 matches together"
    assert english.empty_text == "No pair has played enough matches together yet."


def test_an_empty_list_says_so_in_the_picture_and_the_caption() -> None:
    standings = Standings(Ranking.RATING, CHAT, None)
    assert standings_facts(standings, "es").empty_text == (
        "Aquí nadie ha jugado aún una partida puntuada."
    )
    assert standings_caption(standings, "es", chat_title="Grupo").splitlines() == [
        "Rating · Grupo",
        "Aquí nadie ha jugado aún una partida puntuada.",
    ]


def test_the_caption_repeats_every_row_for_screen_readers() -> None:
    caption = standings_caption(Standings(Ranking.RATING, None, None, rows=ROWS), "es")
    assert caption.splitlines() == [
        "Rating · todos",
        "1. María — 1.532 · 48 partidas (+12)",
        "2. José — 1.490 · 31 partidas (\u22128)",
        "3. Zoe — 998? · 3 partidas",
        "? = provisional (menos de 10 partidas puntuadas)",
    ]


def _profile(**changes: object) -> Profile:
    values: dict[str, object] = {
        "player_id": 1,
        "name": "María",
        "balance": 1250,
        "stats": PlayerStats(1, 48, 27, 60, 12, 5, 2, 10.0),
        "rating": Rating(1, 30.0, 2.0, 48, 27, 1600, False),
        "season": Rating(1, 28.0, 4.0, 6, 4, 1400, True),
        "season_key": "2026-12",
        "history": tuple(RatingPoint(f"m{n}", float(n), 1500 + n, 0.0, 0.0) for n in range(5)),
        "record": PlayerRecord(
            partners=(Rival(2, "Luis", 9, 7), Rival(3, "Ana", 4, 1), Rival(4, "Eva", 2, 2)),
            opponents=(Rival(5, "José", 12, 5), Rival(6, "Rosa", 8, 6), Rival(7, "Leo", 1, 1)),
            streak=3,
            points=1420,
            hands=100,
        ),
    }
    values.update(changes)
    return Profile(**values)  # type: ignore[arg-type]


def test_a_profile_picture_shows_the_rating_statistics_and_partners() -> None:
    facts = profile_facts(_profile(), "es")
    assert facts.name == "María"
    assert facts.headline == "Rating 1.600 · temporada 1.400"
    assert dict(facts.stats) == {
        "Partidas": "48",
        "Ganadas": "27 (56\u00a0%)",
        "Dominós": "12",
        "Trancas ganadas": "5",
        "Capicúas": "2",
        "Puntos por mano": "14,2",
        "Racha": "3 ganadas",
        "Saldo": "$1.250",
    }
    assert facts.history == (1500, 1501, 1502, 1503, 1504)
    assert facts.history_label == "Rating en las últimas 5 partidas puntuadas"
    assert facts.notes == (
        ("Mejor pareja", "Luis · 7-2"),
        ("Peor pareja", "Ana · 1-3"),
        ("Rival", "José · 5-7"),
        ("Rival", "Rosa · 6-2"),
    )
    assert not facts.provisional


def test_a_newcomers_profile_says_they_are_not_rated_yet() -> None:
    record = PlayerRecord((), (), 0, 0, 0)
    profile = _profile(rating=None, season=None, history=(), record=record)
    facts = profile_facts(profile, "en")
    assert facts.headline == "Not rated yet"
    assert facts.provisional
    assert facts.history_empty == "No rated matches yet"
    one = _profile(history=(RatingPoint("m", 1.0, 1061, 0.0, 0.0),))
    assert profile_facts(one, "es").history_empty == (
        "El gráfico empieza con la segunda partida puntuada"
    )
    assert dict(facts.stats)["Streak"] == "—"
    assert facts.notes == ()
    caption = profile_caption(profile, "en")
    assert caption.splitlines()[0] == "María — Not rated yet"


def test_a_provisional_rating_is_said_so() -> None:
    profile = _profile(rating=Rating(1, 25.0, 6.0, 4, 2, 1175, True))
    assert profile_facts(profile, "es").headline == "1.175 (provisional)"
    assert (
        dict(profile_facts(_profile(record=PlayerRecord((), (), -2, 0, 0)), "es").stats)["Racha"]
        == "2 perdidas"
    )


def test_the_end_of_a_season_names_it_the_next_one_and_the_podium() -> None:
    event = SeasonEnded(table_id="", chat=CHAT, season="2026-11", next_season="2026-12", rows=ROWS)
    assert season_ended_text(event, "es").splitlines() == [
        "Terminó la temporada (noviembre de 2026). Empieza una nueva: diciembre de 2026.",
        "1. María — 1.532",
        "2. José — 1.490",
        "3. Zoe — 998",
    ]


def test_a_profile_without_a_chart_does_not_announce_one() -> None:
    none = profile_facts(_profile(history=()), "es")
    assert (none.history_label, none.history_empty) == ("Rating", "Aún no hay partidas puntuadas")
