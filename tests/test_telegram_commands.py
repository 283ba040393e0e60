"""Command names (Spanish with English aliases), menus and argument reading."""

from __future__ import annotations

import re

from bot.telegram.commands import COMMANDS, bot_commands, command_names, read_table_args


def test_every_command_has_a_spanish_name_and_the_english_alias_where_the_word_differs() -> None:
    names = command_names()
    for spanish, english in [
        ("jugar", "play"),
        ("mesa", "table"),
        ("levantarse", "leave"),
        ("fichas", "tiles"),
        ("saldo", "balance"),
        ("reglas", "rules"),
        ("historial", "history"),
        ("ayuda", "help"),
    ]:
        assert names[spanish] == names[english]
    assert {"robots", "top", "config", "start"} <= set(names)
    assert len({spec.key for spec in COMMANDS}) == len(COMMANDS)


def test_menus_list_spanish_names_in_spanish_and_english_aliases_in_english() -> None:
    spanish = bot_commands("es")
    english = bot_commands("en")
    assert [c.command for c in spanish][:2] == ["jugar", "mesa"]
    assert [c.command for c in english][:2] == ["play", "table"]
    assert "start" not in {c.command for c in spanish}
    assert spanish[0].description != english[0].description
    for command in spanish + english:
        assert re.fullmatch(r"[a-z0-9_]{1,32}", command.command)
        assert 1 <= len(command.description) <= 256


def test_table_words_give_a_preset_options_and_robot_seats() -> None:
    args = read_table_args(
        ["Internacional", "meta=200", "tiempo=30", "derecha=robot", "enfrente=robot:maestro"]
    )
    assert args.preset == "internacional"
    assert args.overrides == {"target": 200, "turn_seconds": 30}
    assert args.seats == {"right": "", "across": "maestro"}
    assert args.errors == []


def test_robot_alone_fills_every_other_seat_and_unknown_words_are_reported() -> None:
    args = read_table_args(["robots", "español", "colour=red", "izquierda=pepe", "nonsense"])
    assert args.seats == {"right": "", "across": "", "left": ""}
    assert args.preset == "espanol"
    assert args.errors == ["colour=red", "izquierda=pepe", "nonsense"]


def test_config_words_take_no_seats() -> None:
    args = read_table_args(["dominicano", "derecha=robot", "forced_move_seconds=none"], seats=False)
    assert args.preset == "dominicano"
    assert args.overrides == {"forced_move_seconds": "none"}
    assert args.errors == ["derecha=robot"]


def test_leaving_is_levantarse_in_the_menu_and_the_old_salir_still_works() -> None:
    """glossary.md: *salir* is leading a hand, never leaving the table (issue 13, item 28)."""
    names = command_names()
    assert names["salir"] == names["levantarse"] == names["leave"] == "leave"
    assert "salir" not in [c.command for c in bot_commands("es")]
    assert "levantarse" in [c.command for c in bot_commands("es")]
    assert "cerrar" in [c.command for c in bot_commands("es")]
    assert "close" in [c.command for c in bot_commands("en")]


def test_a_format_is_read_as_the_preset_of_a_table_or_of_the_group() -> None:
    assert read_table_args(["1v1", "robot"]).preset == "uno-contra-uno"
    assert read_table_args(["doble-nueve"]).preset == "cubano"
    assert read_table_args(["parejas", "meta=200"]).preset is None
    assert read_table_args(["cubano"], seats=False).preset == "cubano"
    assert read_table_args(["trio"]).errors == ["trio"]
