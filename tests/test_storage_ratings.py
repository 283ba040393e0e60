"""The rating rules both storages apply (storage/ratings.py; docs/ratings.md, "Formats"):
a list per format, individual matches rated by finishing order (ties share a place),
cubano by partnerships in its own list. Records are played by the engine
(tests/format_records.py)."""

from __future__ import annotations

import pytest

from engine.errors import RulesError
from engine.rules import PRESET_NAMES
from storage.ratings import (
    ALL_CHATS,
    ALL_TIME,
    CLASSIC,
    NEW_SKILL,
    ROBOT_SKILLS,
    RatedSeat,
    RatingBook,
    Scope,
    facts_of,
    format_of_preset,
    rate_match,
    rating_format,
    record_rules,
    seats_of,
)
from storage.shapes import PlayerResult
from tests.format_records import TIED_THREE, stored_record

SEASONS = ("2026-12", "2026-12")
ONE_V_ONE = "double_six individual 2 draw"


def test_todays_presets_share_the_classic_list_and_each_format_has_its_own() -> None:
    assert {format_of_preset(name) for name in PRESET_NAMES} == {CLASSIC}
    assert format_of_preset("uno-contra-uno") == ONE_V_ONE
    assert format_of_preset("individual") == "double_six individual 4 pass"
    assert format_of_preset("cubano") == "double_nine partnership"
    assert format_of_preset("Uno-contra-uno") == ONE_V_ONE
    with pytest.raises(RulesError):
        format_of_preset("parchís")


def test_a_hand_size_other_than_the_sets_own_makes_a_list_of_its_own() -> None:
    rules = record_rules({"rules": {"preset": "venezolano", "players": 2,
                                    "partnership": False, "boneyard": "draw", "hand_size": 9}})  # fmt: skip
    assert rating_format(rules) == f"{ONE_V_ONE} hand 9"
    assert rating_format(record_rules({"rules": "dominicano"})) == CLASSIC


def test_a_record_without_readable_rules_is_todays_game() -> None:
    assert record_rules({"hands": []}).is_classic
    assert record_rules({"rules": {"players": 7}}).is_classic
    assert record_rules({"rules": 3}).is_classic


def test_a_one_against_one_match_moves_the_winner_up_and_the_loser_down_in_its_list() -> None:
    record, results, match = stored_record("uno-contra-uno", [11, 12], seed=1)
    assert match.score == (43, 125) and match.winner_team == 1
    facts = facts_of("m1", "telegram:-1", 5.0, record, results, SEASONS)
    assert (facts.format, facts.sides, facts.winner_team, facts.score) == (
        ONE_V_ONE, 2, 1, (43, 125)
    )  # fmt: skip
    assert facts.seats == (RatedSeat(0, 11, None, 20, 0, 0), RatedSeat(1, 12, None, 20, 0, 1))
    assert facts.rated and facts.ranks() == [1.0, 0.0]
    assert facts.scopes() == (
        Scope(ALL_CHATS, ALL_TIME, ONE_V_ONE),
        Scope(ALL_CHATS, "2026-12", ONE_V_ONE),
        Scope("telegram:-1", "2026-12", ONE_V_ONE),
    )
    skills = rate_match(facts, {})
    assert skills[12].mu > NEW_SKILL.mu > skills[11].mu
    assert skills[12].sigma < NEW_SKILL.sigma and skills[11].sigma < NEW_SKILL.sigma


def test_a_three_player_tie_in_points_shares_second_place() -> None:
    preset, overrides, seed = TIED_THREE
    record, results, match = stored_record(preset, [21, 22, 23], seed, **overrides)
    assert match.score == (0, 145, 0)
    assert [(r.player_id, r.team, r.won_match) for r in results] == [
        (21, 0, False), (22, 1, True), (23, 2, False)
    ]  # fmt: skip
    facts = facts_of("m3", "telegram:-1", 5.0, record, results, SEASONS)
    assert (facts.format, facts.sides, facts.winner_team) == (
        "double_six individual 3 draw", 3, 1
    )  # fmt: skip
    assert facts.ranks() == [1.0, 0.0, 1.0]
    skills = rate_match(facts, {})
    assert skills[21] == skills[23]
    assert skills[22].mu > NEW_SKILL.mu > skills[21].mu


def test_places_follow_the_final_score_after_the_winner() -> None:
    record, results, match = stored_record("individual", [31, 32, 33, 34], seed=1)
    assert (match.score, match.winner_team) == ((93, 139, 96, 72), 1)
    facts = facts_of("m4", "c", 5.0, record, results, SEASONS)
    assert facts.ranks() == [2.0, 0.0, 1.0, 3.0]
    skills = rate_match(facts, {})
    assert skills[32].mu > skills[33].mu > skills[31].mu > skills[34].mu


def test_the_last_leaver_of_an_abandoned_individual_match_is_last_and_nobody_rises() -> None:
    record, results, _ = stored_record("individual", [31, 32, 33, 34], seed=1)
    record["abandoned_by"] = 2  # third on points, but the last to leave
    facts = facts_of("m4", "c", 5.0, record, results, SEASONS)
    assert facts.abandoned_by == 2 and facts.ranks() == [1.0, 0.0, 3.0, 2.0]
    skills = rate_match(facts, {})
    assert skills[32] == NEW_SKILL  # the winner gains nothing
    assert skills[33].mu < skills[34].mu < NEW_SKILL.mu


def test_an_absent_player_takes_a_fall_but_never_a_rise() -> None:
    record, results, _ = stored_record("uno-contra-uno", [11, 12], seed=1, absent=(0, 1))
    facts = facts_of("m1", "c", 5.0, record, results, SEASONS)
    assert [s.absent for s in facts.seats] == [True, True]
    skills = rate_match(facts, {})
    assert skills[12] == NEW_SKILL
    assert skills[11].mu < NEW_SKILL.mu


def test_robots_of_an_individual_match_play_at_their_levels_fixed_skill() -> None:
    weak, _, _ = stored_record("individual", [31, "novato", "novato", "novato"], seed=1)
    strong, _, _ = stored_record("individual", [31, "maestro", "maestro", "maestro"], seed=1)
    results = [PlayerResult(31, 0, False)]
    after_weak = rate_match(facts_of("w", "c", 1.0, weak, results, SEASONS), {})[31]
    after_strong = rate_match(facts_of("s", "c", 1.0, strong, results, SEASONS), {})[31]
    assert after_strong.mu > after_weak.mu  # third behind maestros is worth more
    unrated, _, _ = stored_record("individual", [31, "externo", "novato", "novato"], seed=1)
    assert not facts_of("u", "c", 1.0, unrated, results, SEASONS).rated
    assert "externo" not in ROBOT_SKILLS


def test_cubano_is_rated_by_partnerships_in_its_own_list() -> None:
    record, results, match = stored_record("cubano", [41, "experto", 42, "experto"], seed=1)
    assert (match.score, match.winner_team) == ((0, 128), 1)
    facts = facts_of("c1", "c", 5.0, record, results, SEASONS)
    assert (facts.format, facts.sides, facts.score) == ("double_nine partnership", 2, (0, 128))
    assert [s.team for s in facts.seats] == [0, 1, 0, 1]
    skills = rate_match(facts, {})
    assert skills[41] == skills[42] and skills[41].mu < NEW_SKILL.mu


def test_an_individual_record_without_seats_puts_each_human_in_their_sides_seat() -> None:
    record, results, _ = stored_record("individual", [31, "novato", 33, "novato"], seed=1)
    del record["seats"]
    assert seats_of(record, results) == (
        RatedSeat(0, 31, side=0),
        RatedSeat(1, None, "experto", side=1),
        RatedSeat(2, 33, side=2),
        RatedSeat(3, None, "experto", side=3),
    )


def test_seats_naming_other_sides_than_the_results_are_not_trusted() -> None:
    record, _, _ = stored_record("uno-contra-uno", [11, 12], seed=1)
    swapped = [PlayerResult(11, 1, True), PlayerResult(12, 0, False)]
    assert seats_of(record, swapped) == (RatedSeat(0, 12, side=0), RatedSeat(1, 11, side=1))


def test_the_rating_book_keeps_each_formats_tables_and_history_apart() -> None:
    book = RatingBook()
    one, one_results, _ = stored_record("uno-contra-uno", [11, 12], seed=1)
    cubano, cubano_results, _ = stored_record("cubano", [11, "experto", 12, "experto"], seed=1)
    book.apply(facts_of("a", "c", 1.0, one, one_results, SEASONS))
    book.apply(facts_of("b", "c", 2.0, cubano, cubano_results, SEASONS))
    assert book.get(Scope(ALL_CHATS, ALL_TIME), 11) is None
    one_v_one = book.get(Scope(ALL_CHATS, ALL_TIME, ONE_V_ONE), 11)
    partners = book.get(Scope(ALL_CHATS, ALL_TIME, "double_nine partnership"), 11)
    assert one_v_one is not None and partners is not None
    assert (one_v_one.matches, one_v_one.wins, partners.matches, partners.wins) == (1, 0, 1, 0)
    assert sorted(book.history) == [
        ("double_nine partnership", 11),
        ("double_nine partnership", 12),
        (ONE_V_ONE, 11),
        (ONE_V_ONE, 12),
    ]
    assert [m for m, *_ in book.history[(ONE_V_ONE, 12)]] == ["a"]
    assert len(book.tables) == 6  # three scopes in each of two formats
