from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.errors import RulesError
from engine.rules import PRESET_NAMES, PRESETS, Rules, find_preset


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
        ({"turn_seconds": 5}, "turn_seconds", "10..120"),
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
