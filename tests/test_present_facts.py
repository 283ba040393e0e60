"""The pictures' facts built from the core's seats (bot/present/facts.py)."""

from __future__ import annotations

import pytest

from bot.core import ChatRef, PlayerRef, SeatInfo, TableChanged, YourTiles
from bot.present.facts import board_facts, boneyard_count, hand_facts, table_facts
from engine.rules import Rules, find_any_preset, find_preset
from engine.views import PublicView, public_view, seat_view
from render.samples import cuban_match, find_match, one_against_one_match, three_player_match

SEATS = (
    SeatInfo(seat=0, name="Ana"),
    SeatInfo(seat=1, name="Robot (Experto)", is_robot=True),
    SeatInfo(seat=2, name="Luis"),
    SeatInfo(seat=3, name="Bea"),
)


def test_the_picture_names_the_table_with_its_word_and_number_in_the_readers_language() -> None:
    """Issue 13, item 27: the picture's table label is a phrase of the catalogs, never a
    bare number (render draws it as given)."""
    assert table_facts(SEATS, "7", "es").table_label == "Mesa 7"
    assert table_facts(SEATS, "7", "en").table_label == "Table 7"
    assert table_facts(SEATS, "", "es").table_label == ""


SEATED = (
    SeatInfo(seat=0, name="Ana", player=PlayerRef("telegram", "1", "Ana")),
    SeatInfo(seat=1, name="Robot (Experto)", is_robot=True),
    SeatInfo(seat=2, name="Luis", player=PlayerRef("telegram", "2", "Luis")),
    SeatInfo(seat=3, name="Bea", player=PlayerRef("telegram", "3", "Bea")),
)


def _event(rules: Rules, view: PublicView | None, seconds_left: int | None = 9) -> TableChanged:
    return TableChanged(
        table_id="t",
        chat=ChatRef("telegram", "-100", language="es"),
        label="4",
        phase="playing" if view else "waiting",
        rules=rules,
        seats=SEATED,
        view=view,
        seconds_left=seconds_left,
    )


def test_the_seats_and_partnership_come_from_the_rules_even_when_the_core_lists_four() -> None:
    """Today's core lists four seats for every table; the facts draw as many as the
    rules seat, so the pictures are right once the core lists only those."""
    two = table_facts(SEATED, "7", "es", rules=find_any_preset("uno-contra-uno"))
    assert [s.name for s in two.seats] == ["Ana", "Robot (Experto)"]
    assert (two.players, two.is_partnership) == (2, False)
    assert table_facts(SEATED[:2], "7", "es", rules=find_any_preset("uno-contra-uno")) == two
    alone = table_facts(SEATED, "7", "es", rules=find_any_preset("individual"))
    assert (alone.players, alone.is_partnership, alone.sides) == (4, False, 4)
    classic = table_facts(SEATED, "7", "es", rules=find_preset("venezolano"))
    assert (classic.players, classic.is_partnership, classic.boneyard) == (4, True, None)
    with pytest.raises(ValueError, match="the rules seat 4 players, the table lists 2"):
        table_facts(SEATED[:2], "7", "es", rules=find_preset("venezolano"))


def test_the_boneyard_count_is_the_views_when_players_draw_and_none_otherwise() -> None:
    one_against_one = one_against_one_match()
    view = public_view(one_against_one)
    assert boneyard_count(view) == view.boneyard_count == 5
    facts = board_facts(_event(one_against_one.rules, view))
    assert (facts.players, facts.boneyard, facts.seconds_left, facts.table_label) == (
        2,
        5,
        9,
        "Mesa 4",
    )
    cuban = cuban_match()
    assert public_view(cuban).boneyard_count == 15  # face down all hand, never drawn
    assert boneyard_count(public_view(cuban)) is None
    assert board_facts(_event(cuban.rules, public_view(cuban))).boneyard is None
    assert boneyard_count(None) is None
    waiting = board_facts(_event(one_against_one.rules, None))
    assert (waiting.players, waiting.boneyard) == (2, None)
    emptied = find_match(
        lambda m: not m.hand.is_over and m.hand.boneyard_count == 0,
        rules=one_against_one.rules,
    )
    assert boneyard_count(public_view(emptied)) == 0  # "Pozo: 0": nothing left to draw


def test_a_hand_picture_gets_its_seats_and_boneyard_from_the_seats_view() -> None:
    match = three_player_match()
    view = seat_view(match, match.hand.turn)
    event = YourTiles(
        table_id="t",
        chat=ChatRef("telegram", "-100"),
        to=PlayerRef("telegram", "1", "Ana", language="en"),
        seat=view.seat,
        view=view,
        moves=(),
        hand_number=1,
        move_number=len(view.history),
        is_your_turn=True,
        deadline=None,
        seats=SEATED,
        label="4",
    )
    facts = hand_facts(event, seconds_left=20)
    assert (facts.players, facts.is_partnership, facts.boneyard) == (3, False, 4)
    assert (facts.language, facts.table_label, facts.seconds_left) == ("en", "Table 4", 20)


def test_a_knockouts_picture_draws_every_round_to_the_final_named_in_the_readers_words() -> None:
    from bot.core import SeriesInfo, TournamentKind, TournamentStatus, TournamentView
    from bot.present.facts import tournament_picture
    from render import BracketFacts, BracketMatch

    view = TournamentView(
        id="t", name="Copa", kind=TournamentKind.KNOCKOUT, status=TournamentStatus.RUNNING,
        preset="uno-contra-uno", fee=10, pool=60, starts_at=0.0, signed=(), entrants=6,
        round=1, rounds=0, minutes=30,
        bracket=(
            (
                SeriesInfo(("Ana",), None, None, 0),
                SeriesInfo(("Dani",), ("Elena",), (100, 63), 0),
                SeriesInfo(("Beto",), None, None, 0),
                SeriesInfo(("Carla",), ("Fran",), None, None, no_show=True),
            ),
        ),
    )  # fmt: skip
    facts = tournament_picture(view, "es")
    assert isinstance(facts, BracketFacts)
    assert (facts.title, facts.subtitle) == ("Copa", "6 participantes")
    assert facts.round_names == ("Cuartos", "Semifinal", "Final")
    assert facts.rounds[0][1] == BracketMatch(("Dani", "Elena"), (100, 63), 0)
    assert facts.rounds[0][3] == BracketMatch(("Carla", "Fran"), (None, None), None, True)
    assert facts.rounds[1:] == ((BracketMatch((None, None)),) * 2, (BracketMatch((None, None)),))
    assert (facts.bye_text, facts.no_show_text, facts.champion_text) == (
        "pase directo",
        "N.P.",
        "Campeón",
    )
