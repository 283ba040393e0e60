from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.hand import Termination
from engine.match import Match
from engine.rules import find_any_preset, find_preset
from engine.views import public_view
from render import hand_result_png, match_result_png
from render.board import score_text
from render.canvas import MUTED, PASS_RED
from render.results import RESULT_SIZE, _how, money_lines, net_dollars
from render.samples import find_match, finished_match, format_facts
from render.strings import text
from tests.render_golden import FACTS, assert_matches_golden, scripted_match

THREE = find_any_preset("individual", players=3, boneyard="draw")


def _ended(end: Termination, **kw: object) -> Match:
    def ok(m: Match) -> bool:
        o = m.hand.outcome
        return o is not None and o.end is end and all(getattr(o, k) == v for k, v in kw.items())

    return find_match(ok, rules=find_preset("dominicano") if kw.get("capicua") else None)


def test_a_domino_result_matches_its_golden_picture() -> None:
    match = scripted_match(60)
    assert match.hand.is_over
    assert_matches_golden(hand_result_png(public_view(match), FACTS), "hand-result.png")


def test_a_domino_names_who_went_out_and_the_last_tile() -> None:
    match = _ended(Termination.DOMINO, capicua=False)
    view = public_view(match)
    title, how = _how(view, FACTS)
    assert view.outcome is not None and view.last_move is not None
    name = FACTS.seats[view.outcome.last_seat].name
    assert title == f"¡Dominó de {name}!"
    assert how == f"Última ficha: {view.last_move[1].tile}"


def test_a_capicua_shows_its_bonus() -> None:
    match = _ended(Termination.DOMINO, capicua=True)
    _, how = _how(public_view(match), FACTS)
    assert how.startswith("¡Capicúa! +25")


def test_a_tranca_says_how_it_was_decided() -> None:
    match = _ended(Termination.BLOCKED)
    view = public_view(match)
    outcome = view.outcome
    assert outcome is not None
    title, how = _how(view, FACTS)
    assert title == "¡Tranca!"
    pips = outcome.pips_left
    if outcome.winner_team is None:
        assert how == "Empate: nadie anota"
    else:
        t = outcome.winner_team
        assert f"{pips[t] + pips[t + 2]} puntos contra {pips[1 - t] + pips[3 - t]}" in how


def test_a_tied_tranca_says_nobody_scores_in_english_too() -> None:
    match = _ended(Termination.BLOCKED, winner_team=None)
    english = type(FACTS)(FACTS.seats, language="en")
    assert _how(public_view(match), english) == ("Blocked!", "Tie: nobody scores")


def test_an_individual_tranca_names_the_lowest_player() -> None:
    rules = find_preset("internacional")
    match = find_match(
        lambda m: (
            m.hand.outcome is not None
            and m.hand.outcome.end is Termination.BLOCKED
            and m.hand.outcome.winner_seat is not None
        ),
        rules=rules,
    )
    outcome = match.hand.outcome
    assert outcome is not None and outcome.winner_seat is not None
    _, how = _how(public_view(match), FACTS)
    assert FACTS.seats[outcome.winner_seat].name in how
    assert f"({outcome.pips_left[outcome.winner_seat]})" in how


def test_result_pictures_refuse_a_hand_that_is_not_over() -> None:
    view = public_view(scripted_match(3))
    with pytest.raises(ValueError, match="not over"):
        hand_result_png(view, FACTS)
    with pytest.raises(ValueError, match="not over"):
        match_result_png(view, FACTS, {})


def test_the_match_result_matches_its_golden_picture() -> None:
    match = finished_match()
    assert match.winner_team is not None
    w = match.winner_team
    png = match_result_png(public_view(match), FACTS, {w: 20, w + 2: 20})
    assert Image.open(io.BytesIO(png)).size == RESULT_SIZE
    assert png == match_result_png(public_view(match), FACTS, {w: 20, w + 2: 20})
    assert_matches_golden(png, "match-result.png")


def test_the_match_result_shows_winners_and_losers_alike_net_of_the_stake() -> None:
    lines = money_lines(FACTS, 10, {0: 20, 2: 20})
    assert [amount for amount, _ in lines] == ["+$10", "—", "+$10", "−$10"]
    assert money_lines(FACTS, 0, {})[0][0] == "—"  # no stake, no money line
    assert text("es", "stake_net", n=10) == "Apuesta: $10 · resultado neto"
    assert text("en", "stake_net", n=10) == "Stake: $10 · net result"


def test_a_human_a_robot_played_at_the_end_shows_the_stake_lost_not_a_robots_dash() -> None:
    """Issue 27, item 2: a seat abandoned, or not back in time, paid its stake and is
    paid nothing; the picture says "−$10" for it, as the caption does."""
    from dataclasses import replace

    seats = list(FACTS.seats)
    seats[2] = replace(seats[2], is_robot=True, away=True)
    facts = replace(FACTS, seats=tuple(seats))
    lines = money_lines(facts, 10, {0: 20})
    assert [amount for amount, _ in lines] == ["+$10", "—", "−$10", "−$10"]
    assert [net_dollars(10, paid) for paid in (20, 0, 10)] == ["+$10", "−$10", "$0"]


def test_a_one_against_one_hand_result_matches_its_golden_picture() -> None:
    """Two rows, centred where four would be, and a score card per player."""
    rules = find_any_preset("uno-contra-uno")
    view = public_view(finished_match(rules=rules))
    png = hand_result_png(view, format_facts(rules, view))
    assert Image.open(io.BytesIO(png)).size == RESULT_SIZE
    assert_matches_golden(png, "hand-result-two-seats.png")


def test_a_three_player_match_result_matches_its_golden_picture() -> None:
    rules = THREE
    match = finished_match(rules=rules)
    assert match.winner_team == 1  # Robotina, a robot: every human lost the stake
    view = public_view(match)
    png = match_result_png(view, format_facts(rules, view), {})
    assert_matches_golden(png, "match-result-three-seats.png")


def test_an_individual_tranca_goes_to_the_player_with_the_fewest_pips_by_name() -> None:
    view = public_view(finished_match(rules=THREE))
    outcome = view.outcome
    assert outcome is not None and outcome.end is Termination.BLOCKED
    assert outcome.winner_team == 1 and outcome.pips_left[1] == 10
    facts = format_facts(THREE, view)
    assert _how(view, facts) == ("¡Tranca!", "Gana Robotina: tiene menos (10)")
    english = format_facts(THREE, view, language="en")
    assert _how(view, english) == ("Blocked!", "Robotina wins: holds the fewest (10)")


def test_an_individual_match_names_its_one_winner_and_each_player_its_money(
    drawn_texts: list[str],
) -> None:
    drawn = drawn_texts
    match = finished_match(rules=THREE)
    view = public_view(match)
    match_result_png(view, format_facts(THREE, view), {})
    assert "Gana Robotina" in drawn and not any(t.startswith("Ganan") for t in drawn)
    assert money_lines(format_facts(THREE, view), THREE.stake, {}) == [
        ("−$10", PASS_RED),
        ("—", MUTED),
        ("−$10", PASS_RED),
    ]
    scores = [score_text(view, seat) for seat in range(3)]
    assert scores == [str(view.match_score[0]), f"+70 → {view.match_score[1]}", "76"]
    assert all(s in drawn for s in scores)
