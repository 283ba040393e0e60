"""Shared labels: the rule options, their values and a chat's rule set."""

from __future__ import annotations

from bot.present.labels import rules_text, tournament_from_input, tournament_kind_label
from engine.rules import find_preset


def test_rules_are_listed_one_option_a_line_with_changes_marked() -> None:
    rules = find_preset("dominicano", target=150)
    text = rules_text(rules, "dominicano", {"target": 150}, "es")
    assert text.splitlines()[0] == "Reglas: Dominicano"
    assert "• Partida a: 150 *" in text
    assert "• Premio por capicúa: 25" in text
    assert "• Única jugada automática tras: nunca" in text


def test_a_bad_rules_refusal_names_every_option_in_the_players_words() -> None:
    """Issue 13, items 13 and 24: refusals named internal keys (``turn_seconds``)."""
    from bot.core import PlayerRef, Refusal, RefusalReason
    from bot.present.replies import refused

    refusal = Refusal(
        to=PlayerRef("discord", "1", "Ana", "en"),
        reason=RefusalReason.BAD_RULES,
        params={"option": "turn_seconds", "allowed": "10..120", "options": "turn_seconds counting"},
    )
    assert refused(refusal) == (
        "turn can be a number from 10 to 120 or a number from 3600 to 86400.\ncounting can be opponents or all."
    )
    assert refused(refusal, "es") == (
        "tiempo puede ser un número del 10 al 120 o un número del 3600 al 86400.\nconteo puede ser rivales o todos."
    )
    typed = {"turn_seconds": "turno=5"}
    assert refused(refusal, "es", typed).splitlines()[0] == (
        "turno=5 no vale: tiempo puede ser un número del 10 al 120 o un número del 3600 al 86400."
    )


def test_typed_option_names_values_and_presets_are_read_in_spanish_and_english() -> None:
    """Issue 13, item 28: values accepted in the player's words (``conteo=todos``)."""
    from bot.present.labels import (
        language_from_input,
        option_from_input,
        preset_from_input,
        value_from_input,
    )

    assert [option_from_input(w) for w in ("meta", "Target", "capicúa", "redoblar", "x")] == [
        "target",
        "target",
        "capicua_bonus",
        "redeal_doubles",
        None,
    ]
    assert [value_from_input(w) for w in ("todos", "all", "Rivales", "no", "150", "abc")] == [
        "all",
        "all",
        "opponents",
        "none",
        150,
        "abc",
    ]
    assert [preset_from_input(w) for w in ("Español", "spanish", "cubano")] == [
        "espanol",
        "espanol",
        None,
    ]
    assert [language_from_input(w) for w in ("en", "Inglés", "español", "fr")] == [
        "en",
        "en",
        "es",
        None,
    ]


def test_the_rating_is_shown_as_a_percentage_with_a_decimal() -> None:
    """Issue 13, item 28: ``/domino top`` by rating printed 0 or 1."""
    from bot.present.labels import rating_text

    assert rating_text(0.5773, "es") == "57,7\u00a0%"
    assert rating_text(0.5773, "en") == "57.7%"
    assert rating_text(0.049, "es") == "4,9\u00a0%"


def test_the_friends_buttons_are_labelled_in_the_readers_language() -> None:
    from bot.present.labels import friend_action_label

    assert [
        friend_action_label(a, "es") for a in ("accept_friend", "decline_friend", "take_invite")
    ] == ["Aceptar", "Rechazar", "Sentarme"]
    assert friend_action_label("take_invite", "en") == "Take my seat"


def test_report_reasons_are_read_in_both_languages_and_labelled() -> None:
    from bot.present.labels import (
        report_reason_from_input,
        report_reason_label,
        report_reason_words,
    )

    assert [report_reason_from_input(w) for w in ("Frases", "phrases", "abandono", "losing")] == [
        "abusive_emotes",
        "abusive_emotes",
        "left_on_purpose",
        "playing_to_lose",
    ]
    assert report_reason_from_input("abusive_name") == "abusive_name"
    assert report_reason_from_input("feo") is None
    assert report_reason_label("abusive_name", "es") == "nombre ofensivo"
    assert report_reason_words("en") == ["name", "phrases", "leaving", "losing", "other"]


def test_an_admin_asks_for_partners_drawn_each_round_in_either_language() -> None:
    spanish = tournament_from_input(["suizo", "sorteo", "rondas=3"])
    english = tournament_from_input(["swiss", "drawn"])
    plain = tournament_from_input(["arena"])
    assert (spanish.kind, spanish.partners, spanish.options) == (
        "swiss",
        "each_round",
        {"rounds": 3},
    )
    assert (english.partners, plain.partners) == ("each_round", "fixed")
    assert tournament_kind_label("swiss", "each_round", "es") == (
        "suizo, compañeros por sorteo cada ronda"
    )
    assert tournament_kind_label("arena", "each_round", "en") == "arena, partners drawn each round"
    assert tournament_kind_label("swiss", "fixed", "es") == "suizo"
