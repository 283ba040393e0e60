"""A table told as one seated player reads it (bot/present/narration.py): each seat named
from the reader's place, and the scores from them in turn order."""

from __future__ import annotations

from bot.core import PlayerRef
from bot.present.narration import Narration
from engine.rules import find_any_preset


def _narration(preset: str, language: str = "es", **overrides: int) -> Narration:
    """The narration for seat 0 of a table of ``preset`` whose other seats are robots."""
    rules = find_any_preset(preset, **overrides)
    narration = Narration(PlayerRef("terminal", "local", "Tú", language))
    narration.rules = rules
    narration.names = ["Tú", *(f"Robot {i}" for i in range(1, rules.players))]
    narration.robots = [False, *([True] * (rules.players - 1))]
    return narration


def test_the_seats_of_every_format_are_named_from_your_place() -> None:
    one = _narration("uno-contra-uno")
    assert (one.who(1), one.in_sentence(1, first=True), one.short_name(1)) == (
        "Rival",
        "El rival",
        "Rival",
    )
    three = _narration("individual", players=3)
    assert [three.who(s) for s in (1, 2)] == ["Rival derecho", "Rival izquierdo"]
    four = _narration("individual")
    assert [four.who(s) for s in (1, 2, 3)] == [
        "Rival derecho",
        "Rival de enfrente",
        "Rival izquierdo",
    ]
    assert four.in_sentence(2) == "el rival de enfrente"
    assert four.short_name(2) == "Rival enfr."
    assert _narration("cubano").who(2) == "Compañero"  # partners across, as today
    assert _narration("individual", "en").who(2) == "Opponent across"


def test_each_players_score_is_listed_from_you_in_turn_order() -> None:
    three = _narration("individual", players=3)
    assert three.scores((12, 30, 5)) == ["Tú 12", "Rival derecho 30", "Rival izquierdo 5"]
    assert three.scores((36, 30, 5), (24, 0, 0)) == [
        "Tú +24 → 36",
        "Rival derecho +0 → 30",
        "Rival izquierdo +0 → 5",
    ]
