"""Partners drawn anew each round (bot/core/tournaments/drawn.py; issue 32;
docs/tournaments.md, "Partners drawn each round"): each round's partnerships and tables,
the players' standings from their teams' results, an arena's tables of four."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bot.core.tournaments import Entrant, EntrantError, MatchResult, Round, RoundUnfinished
from bot.core.tournaments.arena import arena_standings
from bot.core.tournaments.drawn import (
    drawn_arena_pair,
    drawn_arena_standings,
    drawn_swiss_pair,
    drawn_swiss_standings,
    individual_results,
    last_partners,
    team_entrant,
    team_key,
    team_players,
)


def players(count: int) -> list[Entrant]:
    """``count`` players alone, keyed by themselves, ``p0`` the best rated."""
    return [Entrant(f"p{i}", (f"p{i}",), 2000 - 10 * i) for i in range(count)]


def first_team_wins(played: Round) -> Round:
    """Every table won by its better placed team, 100 to 60."""
    for pairing in played.pairings:
        played = played.record(MatchResult(pairing.first, pairing.second, pairing.first, (100, 60)))
    return played


def swiss_of(field: list[Entrant], count: int) -> list[Round]:
    rounds: list[Round] = []
    for _ in range(count):
        rounds.append(first_team_wins(drawn_swiss_pair(field, rounds)))
    return rounds


def seated(played: Round) -> list[str]:
    return [p for pairing in played.pairings for k in pairing.keys for p in team_players(k)]


def test_a_team_key_joins_its_two_players_and_splits_back() -> None:
    assert team_key(["telegram:1", "telegram:2"]) == "telegram:1+telegram:2"
    assert team_players("telegram:1+telegram:2") == ("telegram:1", "telegram:2")
    assert team_entrant("a+b", {"a": 1500, "b": 1300}) == Entrant("a+b", ("a", "b"), 1400)
    with pytest.raises(EntrantError):
        team_entrant("a+c", {"a": 1500, "b": 1300})


def test_eight_players_sit_two_tables_a_round_and_never_keep_a_partner() -> None:
    field = players(8)
    rounds = swiss_of(field, 4)
    partners = Counter(
        frozenset(team_players(k)) for r in rounds for p in r.pairings for k in p.keys
    )
    assert [len(r.pairings) for r in rounds] == [2, 2, 2, 2]
    assert [r.byes for r in rounds] == [(), (), (), ()]
    assert all(sorted(seated(r)) == sorted(e.key for e in field) for r in rounds)
    assert len(partners) == 16  # 4 rounds x 4 partnerships, none twice
    assert max(partners.values()) == 1


def test_round_one_partners_the_upper_half_with_the_lower_and_seats_the_best_at_table_one() -> None:
    first = drawn_swiss_pair(players(8), [])
    assert [sorted(p.keys) for p in first.pairings] == [
        ["p0+p4", "p1+p5"],
        ["p2+p6", "p3+p7"],
    ]
    assert first.pairings[0].first == "p0+p4"


def test_with_nine_players_one_rests_a_round_never_the_same_one_twice_and_a_bye_is_a_win() -> None:
    field = players(9)
    rounds = swiss_of(field, 4)
    rested = [r.byes for r in rounds]
    assert all(len(b) == 1 for b in rested)
    assert len({b[0] for b in rested}) == 4
    assert rested[0] == ("p8",)  # the lowest ranked first
    line = {s.key: s for s in drawn_swiss_standings(field, rounds[:1])}
    assert (line["p8"].score, line["p8"].byes, line["p8"].points_difference) == (1, 1, 0)


def test_with_ten_players_a_partnership_of_two_rests_and_with_eleven_three_rest() -> None:
    ten = swiss_of(players(10), 3)
    eleven = swiss_of(players(11), 3)
    assert [len(r.byes) for r in ten] == [2, 2, 2]
    assert [len(r.byes) for r in eleven] == [3, 3, 3]
    assert len({k for r in ten for k in r.byes}) == 6  # nobody rests twice in three rounds
    assert all(len(seated(r)) == 8 for r in ten + eleven)


def test_each_player_scores_their_teams_result_and_buchholz_counts_both_opponents() -> None:
    field = players(4)
    played = Round(1, drawn_swiss_pair(field, []).pairings)
    ((first, second),) = [(p.first, p.second) for p in played.pairings]
    assert (first, second) == ("p0+p2", "p1+p3")
    played = played.record(MatchResult(first, second, second, (40, 100)))
    line = {s.key: s for s in drawn_swiss_standings(field, [played])}
    assert [(k, line[k].score, line[k].points_difference) for k in ("p0", "p1", "p2", "p3")] == [
        ("p0", 0, -60),
        ("p1", 1, 60),
        ("p2", 0, -60),
        ("p3", 1, 60),
    ]
    assert (line["p0"].buchholz, line["p1"].buchholz) == (2, 0)
    assert [s.key for s in drawn_swiss_standings(field, [played])] == ["p1", "p3", "p0", "p2"]


def test_a_round_is_paired_only_when_the_last_one_is_over_and_players_stand_alone() -> None:
    field = players(8)
    with pytest.raises(RoundUnfinished):
        drawn_swiss_pair(field, [drawn_swiss_pair(field, [])])
    with pytest.raises(EntrantError):
        drawn_swiss_standings([Entrant("a+b", ("a", "b"), 1000)] * 1 + players(4), [])
    with pytest.raises(EntrantError):
        drawn_swiss_standings(players(3), [])


def test_a_team_result_counts_once_for_each_player_in_an_arena() -> None:
    result = MatchResult("a+b", "c+d", "c+d", (70, 100))
    assert individual_results([result]) == [
        MatchResult("a", "c", "c", (70, 100)),
        MatchResult("b", "d", "d", (70, 100)),
    ]
    field = [Entrant(k, (k,), 1000) for k in "abcd"]
    line = {s.key: s for s in drawn_arena_standings(field, [result, result])}
    assert [(k, line[k].score, line[k].streak) for k in "abcd"] == [
        ("a", 0, 0),
        ("b", 0, 0),
        ("c", 4, 2),
        ("d", 4, 2),
    ]
    assert last_partners([result]) == {"a": "b", "b": "a", "c": "d", "d": "c"}


def test_four_free_players_change_partners_and_fewer_than_four_wait() -> None:
    field = [Entrant(k, (k,), 1000) for k in "abcdefgh"]
    standings = arena_standings(field, [])
    before = {"a": "b", "b": "a", "c": "d", "d": "c"}
    (table,) = drawn_arena_pair(["a", "b", "c", "d"], standings, before)
    partnerships = {frozenset(team_players(k)) for k in table.keys}
    assert partnerships & {frozenset("ab"), frozenset("cd")} == set()
    assert drawn_arena_pair(["a", "b", "c"], standings, {}) == ()


def test_six_free_players_fill_one_table_and_the_last_two_to_come_wait() -> None:
    field = [Entrant(k, (k,), 1000) for k in "abcdef"]
    standings = arena_standings(field, [])
    (table,) = drawn_arena_pair(["a", "b", "c", "d", "e", "f"], standings, {})
    assert sorted(p for k in table.keys for p in team_players(k)) == ["a", "b", "c", "d"]


def test_twelve_players_sit_three_tables_with_every_player_once() -> None:
    field = players(12)
    keys = [e.key for e in field]
    tables = drawn_arena_pair(keys, arena_standings(field, []), {})
    everyone = [p for t in tables for k in t.keys for p in team_players(k)]
    assert len(tables) == 3
    assert sorted(everyone) == sorted(keys)
    assert all(len(set(itertools.chain(*map(team_players, t.keys)))) == 4 for t in tables)
