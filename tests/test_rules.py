from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from engine.errors import RulesError
from engine.rules import (
    FORMAT_PRESETS,
    OPTION_VALUES,
    PRESET_NAMES,
    PRESETS,
    Boneyard,
    Rules,
    TileSet,
    find_any_preset,
    find_preset,
)


def test_the_four_presets_match_the_rule_book_table() -> None:
    v, i, e, d = (PRESETS[n] for n in ("venezolano", "internacional", "espanol", "dominicano"))
    assert (v.target, v.counting, v.first_starter, v.next_starter, v.blocked_winner) == (
        100,
        "opponents",
        "double_six",
        "rotate",
        "team",
    )
    assert (v.redeal_doubles, v.capicua_bonus) == (None, 0)
    assert (i.target, i.first_starter, i.next_starter, i.blocked_winner) == (
        200,
        "random",
        "winner",
        "individual",
    )
    assert (e.target, e.counting, e.first_starter, e.redeal_doubles, e.forced_move_seconds) == (
        300,
        "all",
        "draw",
        4,
        3,
    )
    assert (d.target, d.first_starter, d.next_starter, d.capicua_bonus) == (
        200,
        "double_six",
        "winner",
        25,
    )
    assert PRESET_NAMES[0] == "venezolano"


def test_house_defaults_are_a_45_second_turn_and_a_10_dollar_stake() -> None:
    assert Rules().turn_seconds == 45
    assert Rules().stake == 10


def test_a_preset_is_found_by_name_with_overrides() -> None:
    rules = find_preset("dominicano", target=100, capicua_bonus=30)
    assert rules.target == 100 and rules.capicua_bonus == 30 and rules.next_starter == "winner"
    assert find_preset("Español") == PRESETS["espanol"]


@pytest.mark.parametrize(
    ("options", "option", "allowed"),
    [
        ({"target": 75}, "target", "50, 100, 150, 200, 300, 500"),
        ({"counting": "mine"}, "counting", "opponents, all"),
        ({"capicua_bonus": 15}, "capicua_bonus", "0, 10, 20, 25, 30"),
        ({"turn_seconds": 5}, "turn_seconds", "10..120, 3600..86400"),
        ({"forced_move_seconds": 11}, "forced_move_seconds", "none, 0..10"),
        ({"stake": -1}, "stake", "0..1000"),
        ({"redeal_doubles": 3}, "redeal_doubles", "none, 4, 5"),
        ({"target": True}, "target", "50, 100, 150, 200, 300, 500"),
    ],
)
def test_a_bad_option_value_names_the_option_and_its_allowed_values(
    options: dict[str, object], option: str, allowed: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.build(**options)
    assert info.value.option == option
    assert info.value.allowed == allowed
    assert option in str(info.value) and allowed in str(info.value)


def test_an_unknown_option_or_preset_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown option 'speed'"):
        Rules.build(speed=3)
    with pytest.raises(RulesError, match="unknown preset 'cubano'"):
        find_preset("cubano")


def test_none_may_be_written_as_a_word_or_null() -> None:
    assert Rules.from_spec({"preset": "espanol", "redeal_doubles": "none"}).redeal_doubles is None
    assert (
        Rules.from_spec({"preset": "espanol", "forced_move_seconds": None}).forced_move_seconds
        is None
    )


def test_a_spec_without_a_preset_takes_missing_options_from_venezolano() -> None:
    rules = Rules.from_spec({"target": 200})
    assert rules == find_preset("venezolano", target=200)


def test_a_rule_set_writes_itself_as_the_shortest_spec() -> None:
    assert PRESETS["espanol"].to_spec() == "espanol"
    spec = find_preset("dominicano", target=100).to_spec()
    assert spec == {"preset": "dominicano", "target": 100}
    assert Rules.from_spec(spec) == find_preset("dominicano", target=100)


def test_rules_are_frozen_and_hashable() -> None:
    rules = PRESETS["venezolano"]
    assert hash(rules) == hash(Rules())
    with pytest.raises(ValidationError):
        rules.target = 200  # type: ignore[misc]


# -- formats (rules.md, "Formats") ----------------------------------------------------


def test_the_defaults_are_todays_partnership_double_six_game() -> None:
    rules = Rules()
    assert (rules.tile_set, rules.players, rules.partnership, rules.boneyard) == (
        TileSet.DOUBLE_SIX,
        4,
        True,
        Boneyard.PASS,
    )
    assert (rules.hand_size, rules.hand_tiles, rules.sides, rules.is_classic) == (None, 7, 2, True)
    assert all(preset.is_classic for preset in PRESETS.values())


def test_todays_rule_sets_dump_exactly_as_before_the_formats() -> None:
    old_keys = [
        "target",
        "counting",
        "first_starter",
        "next_starter",
        "blocked_winner",
        "redeal_doubles",
        "capicua_bonus",
        "turn_seconds",
        "forced_move_seconds",
        "stake",
    ]
    for preset in PRESETS.values():
        assert list(preset.model_dump()) == old_keys
        assert Rules.build(**preset.model_dump()) == preset
    assert json.dumps(Rules().model_dump()) == (
        '{"target": 100, "counting": "opponents", "first_starter": "double_six",'
        ' "next_starter": "rotate", "blocked_winner": "team", "redeal_doubles": null,'
        ' "capicua_bonus": 0, "turn_seconds": 45, "forced_move_seconds": null, "stake": 10}'
    )


def test_the_format_presets_match_the_rule_book_table() -> None:
    one, each, cuban = (FORMAT_PRESETS[n] for n in ("uno-contra-uno", "individual", "cubano"))
    assert (one.players, one.partnership, one.boneyard, one.target, one.hand_tiles) == (
        2,
        False,
        Boneyard.DRAW,
        100,
        7,
    )
    assert (each.players, each.partnership, each.boneyard, each.sides) == (
        4,
        False,
        Boneyard.PASS,
        4,
    )
    assert (cuban.tile_set, cuban.players, cuban.partnership, cuban.hand_tiles) == (
        TileSet.DOUBLE_NINE,
        4,
        True,
        10,
    )
    assert (cuban.boneyard, cuban.next_starter, cuban.target) == (Boneyard.PASS, "winner", 100)
    assert not any(p.is_classic for p in FORMAT_PRESETS.values())


def test_a_format_preset_is_found_by_find_any_preset_and_not_offered_to_tables() -> None:
    assert find_any_preset("Cubano") is FORMAT_PRESETS["cubano"]
    assert find_any_preset("uno-contra-uno", target=200).target == 200
    assert find_any_preset("espanol") is PRESETS["espanol"]
    assert "cubano" not in PRESET_NAMES
    with pytest.raises(RulesError, match=r"unknown preset 'mexicano'.*cubano"):
        find_any_preset("mexicano")


def test_a_format_rule_set_writes_its_options_and_reads_back_the_same() -> None:
    for rules in FORMAT_PRESETS.values():
        spec = rules.to_spec()
        assert isinstance(spec, dict) and spec["preset"] == "venezolano"
        assert Rules.from_spec(spec) == rules
        assert Rules.build_any(**rules.model_dump()) == rules
    assert FORMAT_PRESETS["cubano"].model_dump()["tile_set"] == "double_nine"
    assert FORMAT_PRESETS["uno-contra-uno"].overrides_from(Rules()) == {
        "players": 2,
        "partnership": False,
        "boneyard": "draw",
    }
    assert Rules().overrides_from(FORMAT_PRESETS["uno-contra-uno"]) == {
        "players": 4,
        "partnership": True,
        "boneyard": "pass",
    }


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"players": 2}, "partnership", "partnership play needs 4 players, not 2"),
        ({"players": 3, "partnership": True}, "partnership", "needs 4 players, not 3"),
        (
            {"partnership": False, "hand_size": 8},
            "hand_size",
            "4 players x 8 tiles is more than the 28 tiles of double_six",
        ),
        (
            {"partnership": False, "players": 3, "tile_set": "double_nine", "hand_size": 19},
            "hand_size",
            "3 players x 19 tiles is more than the 55 tiles of double_nine",
        ),
        ({"players": 5, "partnership": False}, "players", "must be one of 2, 3, 4"),
        ({"tile_set": "double_twelve"}, "tile_set", "must be one of double_six, double_nine"),
        ({"boneyard": "keep"}, "boneyard", "must be one of pass, draw"),
        ({"hand_size": 0}, "hand_size", "must be one of none, 1..21"),
        ({"partnership": 1}, "partnership", "must be one of true, false"),
    ],
)
def test_format_options_are_validated_together_and_name_the_option(
    options: dict[str, object], option: str, message: str
) -> None:
    with pytest.raises(RulesError, match=message) as info:
        Rules.build_any(**options)
    assert info.value.option == option


def test_partnership_may_be_written_as_a_word() -> None:
    assert Rules.build_any(partnership="false", players=3).partnership is False
    assert Rules.build_any(partnership="true").partnership is True
    assert Rules.build_any(partnership=False, players=2, tile_set="double_nine").hand_tiles == 10
    assert Rules.build_any(partnership=False, players=2, hand_size=9).hand_tiles == 9


def test_the_tables_rule_builder_and_presets_refuse_the_format_options() -> None:
    with pytest.raises(RulesError, match="unknown option 'players'") as info:
        Rules.build(players=2)
    assert info.value.allowed == ", ".join(OPTION_VALUES)
    with pytest.raises(RulesError, match="unknown option 'tile_set'"):
        find_preset("venezolano", tile_set="double_nine")
    with pytest.raises(RulesError, match="unknown preset 'cubano'"):
        find_preset("cubano")
    assert Rules.build_any(players=2, partnership=False).players == 2
