"""Shared labels: the rule options, their values and a chat's rule set."""

from __future__ import annotations

from bot.present.labels import rules_text
from engine.rules import find_preset


def test_rules_are_listed_one_option_a_line_with_changes_marked() -> None:
    rules = find_preset("dominicano", target=150)
    text = rules_text(rules, "dominicano", {"target": 150}, "es")
    assert text.splitlines()[0] == "Reglas: Dominicano"
    assert "• Partida a: 150 *" in text
    assert "• Premio por capicúa: 25" in text
    assert "• Única jugada automática tras: nunca" in text
