"""'¿Qué debí jugar?' as players read it (bot/present/analysis.py)."""

from __future__ import annotations

from bot.core import PlayerRef
from bot.core.analysis import AnalysisReply
from bot.core.events import SeatInfo
from bot.present.analysis import analysis_picture, analysis_text, move_phrase
from engine.moves import Move, Side
from engine.records import replay
from engine.robots.analysis import Decision, HandAnalysis, MoveValue, decisions_of
from engine.tiles import Tile
from tests.test_robots_analysis import record

SEATS = (
    SeatInfo(seat=0, name="Ana", player=PlayerRef("t", "1", "Ana")),
    SeatInfo(seat=1, name="Robot Bit", is_robot=True),
    SeatInfo(seat=2, name="Luis", player=PlayerRef("t", "2", "Luis")),
    SeatInfo(seat=3, name="Robot Chispa", is_robot=True),
)


def reply(*costs: float) -> AnalysisReply:
    """A hand of decisions costing ``costs`` points (the best move is always 5-5)."""
    match = replay(record("records_md_example"))
    views = decisions_of(match, 0, 0)
    decisions = []
    for n, cost in enumerate(costs):
        view, _ = views[n % len(views)]
        best = Move(Tile(5, 5), Side.LEFT)
        played = Move(Tile(5, 2), Side.LEFT) if cost else best
        values = (MoveValue(best, 10.0), MoveValue(Move(Tile(5, 2), Side.LEFT), 10.0 - cost))
        decisions.append(Decision(1, 4 + n, view, played, values if cost else values[:1]))
    ordered = tuple(sorted(decisions, key=lambda d: -d.cost))
    return AnalysisReply("t1", "3", HandAnalysis(1, 0, ordered), SEATS)


def test_moves_are_said_with_their_side_in_the_players_language() -> None:
    assert move_phrase(Move(Tile(5, 2), Side.LEFT), "es") == "5-2 por la izquierda"
    assert move_phrase(Move(Tile(5, 2), Side.RIGHT), "en") == "5-2 on the right"
    assert move_phrase(Move(Tile(5, 2), None), "es") == "5-2"
    assert move_phrase(Move(None, None), "es") == "paso"


def test_the_costliest_moves_are_named_first_with_the_better_move() -> None:
    text = analysis_text(reply(6.2, 0.0, 1.6, 0.4), "es")
    assert text.splitlines() == [
        "Mano 1: precisión 50 % (2 de 4 jugadas como el maestro).",
        "Jugada 4: 5-2 por la izquierda costó ~6 puntos; mejor 5-5 por la izquierda.",
        "Jugada 6: 5-2 por la izquierda costó ~2 puntos; mejor 5-5 por la izquierda.",
    ]
    picture = analysis_picture(reply(6.2, 0.0), "es")
    assert picture is not None
    view, facts = picture
    assert not hasattr(view, "tiles")  # the public line only, no hand
    assert (facts.table_label, facts.seats[0].name) == ("Mesa 3", "Ana")


def test_a_hand_played_like_the_maestro_is_praised_and_a_hand_without_choices_said_so() -> None:
    assert analysis_text(reply(0.0, 0.5), "en").splitlines() == [
        "Hand 1: accuracy 100 % (2 of 2 choices as the maestro).",
        "No move cost you more than a point. Well played!",
    ]
    assert analysis_picture(reply(0.0, 0.5), "en") is None
    assert analysis_text(reply(), "es") == "Mano 1: no tuviste ninguna elección de verdad."
