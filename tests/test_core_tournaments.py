"""Tournament pairings, standings, prizes and the no-show rule (bot/core/tournaments;
issue 32; docs/tournaments.md)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.tournaments import (
    ArenaSchedule,
    ArenaStanding,
    Bracket,
    Entrant,
    EntrantError,
    MatchResult,
    Pairing,
    Place,
    ResultError,
    ResultKind,
    Round,
    RoundUnfinished,
    TournamentError,
    TournamentKind,
    arena_pair,
    arena_standings,
    award_prizes,
    bracket_order,
    check_field,
    last_opponents,
    match_points,
    no_show_deadline,
    no_show_result,
    prize_split,
    seed_bracket,
    split_between_players,
    swiss_pair,
    swiss_standings,
)


def field(count: int) -> list[Entrant]:
    """``count`` players alone, ``e0`` the best rated (``e0`` is seed 1)."""
    return [Entrant(f"e{i}", (f"p{i}",), 2000 - 10 * i) for i in range(count)]


def won(pairing: Pairing, winner: str, points: tuple[int, int] = (100, 50)) -> MatchResult:
    """``winner`` beat the other entrant of ``pairing``, ``points`` as (winner, loser)."""
    loser = pairing.second if winner == pairing.first else pairing.first
    return MatchResult(winner, loser, winner, points)


def double_loss(pairing: Pairing) -> MatchResult:
    return MatchResult(pairing.first, pairing.second, None, kind=ResultKind.DOUBLE_NO_SHOW)


def play_round(round_: Round, winners: Sequence[str]) -> Round:
    """``round_`` with each pairing won by the entrant of ``winners`` it holds."""
    for pairing in round_.pairings:
        winner = pairing.first if pairing.first in winners else pairing.second
        round_ = round_.record(won(pairing, winner))
    return round_


# The model


def test_the_three_kinds_are_knockout_swiss_and_arena():
    assert [k.value for k in TournamentKind] == ["knockout", "swiss", "arena"]


def test_an_entrant_of_three_players_is_refused():
    with pytest.raises(EntrantError):
        Entrant("trio", ("a", "b", "c"), 1000)


def test_a_partnership_of_one_player_twice_is_refused():
    with pytest.raises(EntrantError):
        Entrant("pair", ("a", "a"), 1000)


def test_a_result_without_a_winner_must_be_a_double_no_show():
    with pytest.raises(ResultError):
        MatchResult("a", "b", None)


def test_a_double_no_show_names_no_winner():
    with pytest.raises(ResultError):
        MatchResult("a", "b", "a", kind=ResultKind.DOUBLE_NO_SHOW)


def test_a_winner_who_did_not_play_is_refused():
    with pytest.raises(ResultError):
        MatchResult("a", "b", "c")


def test_a_field_with_a_player_in_two_entrants_is_refused():
    pairs = [Entrant("x", ("ana", "bea"), 1000), Entrant("y", ("bea", "cris"), 1000)]
    with pytest.raises(EntrantError) as refused:
        check_field(pairs)
    assert refused.value.key == "bea"


def test_partnerships_and_players_alone_cannot_share_a_field():
    with pytest.raises(EntrantError):
        check_field([Entrant("x", ("ana", "bea"), 1000), Entrant("y", ("cris",), 1000)])


def test_an_entrant_signed_up_twice_is_refused():
    with pytest.raises(EntrantError) as refused:
        check_field([Entrant("x", ("ana",), 1000), Entrant("x", ("bea",), 1000)])
    assert refused.value.key == "x"


def test_a_round_refuses_a_second_result_for_one_pairing():
    round_ = Round(1, (Pairing("a", "b"),)).record(MatchResult("b", "a", "a", (100, 20)))
    with pytest.raises(ResultError):
        round_.record(MatchResult("a", "b", "b", (100, 20)))


def test_a_round_refuses_a_result_of_no_pairing():
    with pytest.raises(ResultError):
        Round(1, (Pairing("a", "b"),)).record(MatchResult("a", "c", "a"))


# Knockout


def test_bracket_order_of_eight_meets_best_and_worst_and_keeps_seeds_one_and_two_apart():
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)


def test_bracket_order_refuses_a_size_that_is_not_a_power_of_two():
    with pytest.raises(TournamentError):
        bracket_order(6)


def test_a_field_of_six_gives_byes_to_the_two_top_seeds():
    bracket = seed_bracket(field(6))
    assert bracket.lines == ("e0", None, "e3", "e4", "e1", None, "e2", "e5")
    assert bracket.pending() == (Pairing("e3", "e4"), Pairing("e2", "e5"))


def test_the_higher_rating_gets_the_better_seed_and_equal_ratings_go_by_key():
    entrants = [
        Entrant("zeta", ("z",), 1200),
        Entrant("alfa", ("a",), 1200),
        Entrant("beta", ("b",), 1500),
    ]
    assert seed_bracket(entrants).seeds == ("beta", "alfa", "zeta")


def test_winners_advance_to_the_next_round_in_bracket_order():
    bracket = seed_bracket(field(8))
    for pairing in bracket.pending():
        bracket = bracket.record(won(pairing, pairing.second))
    assert bracket.round_number == 2
    assert bracket.pending() == (Pairing("e7", "e4"), Pairing("e6", "e5"))


def test_a_best_of_three_series_needs_two_wins():
    bracket = seed_bracket(field(2), wins_needed=2)
    final = Pairing("e0", "e1")
    bracket = bracket.record(won(final, "e1")).record(won(final, "e0"))
    assert (bracket.is_finished, bracket.rounds()[0][0].wins) == (False, (1, 1))
    bracket = bracket.record(won(final, "e1"))
    assert (bracket.is_finished, bracket.champion) == (True, "e1")


def test_a_result_for_a_pairing_not_in_play_is_refused():
    bracket = seed_bracket(field(4))
    with pytest.raises(ResultError):
        bracket.record(MatchResult("e0", "e1", "e0"))


def test_a_decided_series_takes_no_more_results():
    bracket = seed_bracket(field(4))
    bracket = bracket.record(won(Pairing("e0", "e3"), "e0"))
    with pytest.raises(ResultError):
        bracket.record(won(Pairing("e0", "e3"), "e3"))


def test_knockout_places_share_third_between_the_semi_final_losers():
    bracket = seed_bracket(field(4))
    for pairing in bracket.pending():
        bracket = bracket.record(won(pairing, pairing.first))
    bracket = bracket.record(won(Pairing("e0", "e1"), "e1"))
    assert bracket.placing() == (
        Place(1, ("e1",)),
        Place(2, ("e0",)),
        Place(3, ("e2", "e3")),
    )


def test_the_places_are_not_known_before_the_final():
    with pytest.raises(TournamentError):
        seed_bracket(field(4)).placing()


def test_a_double_loss_eliminates_both_and_the_next_opponent_advances_without_playing():
    bracket = seed_bracket(field(4))
    bracket = bracket.record(won(Pairing("e0", "e3"), "e0"))
    bracket = bracket.record(double_loss(Pairing("e1", "e2")))
    assert bracket.is_finished
    assert bracket.champion == "e0"
    assert bracket.rounds()[1][0].is_bye
    assert bracket.placing() == (Place(1, ("e0",)), Place(2, ("e1", "e2", "e3")))


def test_a_double_loss_in_the_final_leaves_no_champion_and_the_finalists_share_first():
    bracket = seed_bracket(field(3))
    bracket = bracket.record(won(Pairing("e1", "e2"), "e1"))
    bracket = bracket.record(double_loss(Pairing("e0", "e1")))
    assert (bracket.is_finished, bracket.champion) == (True, None)
    assert bracket.placing() == (Place(1, ("e0", "e1")), Place(3, ("e2",)))


def bracket_played(data: st.DataObject, size: int, wins_needed: int, doubles: bool) -> Bracket:
    """A knockout of ``size`` entrants played to its end with drawn results."""
    bracket = seed_bracket(field(size), wins_needed=wins_needed)
    while not bracket.is_finished:
        for pairing in bracket.pending():
            if doubles and data.draw(st.integers(0, 5)) == 0:
                bracket = bracket.record(double_loss(pairing))
            else:
                winner = data.draw(st.sampled_from([pairing.first, pairing.second]))
                bracket = bracket.record(won(pairing, winner))
    return bracket


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(1, 3), st.data())
def test_a_knockout_without_double_losses_always_yields_one_champion(
    size: int, wins_needed: int, data: st.DataObject
):
    bracket = bracket_played(data, size, wins_needed, doubles=False)
    placing = bracket.placing()
    assert bracket.champion is not None
    assert placing[0] == Place(1, (bracket.champion,))
    assert sorted(k for p in placing for k in p.entrants) == sorted(e.key for e in field(size))


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(1, 2), st.data())
def test_a_knockout_with_double_losses_still_ends_and_places_every_entrant_once(
    size: int, wins_needed: int, data: st.DataObject
):
    bracket = bracket_played(data, size, wins_needed, doubles=True)
    placing = bracket.placing()
    assert bracket.is_finished
    assert sorted(k for p in placing for k in p.entrants) == sorted(e.key for e in field(size))
    assert [p.number for p in placing] == list(
        itertools.accumulate([1] + [len(p.entrants) for p in placing[:-1]])
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 64))
def test_when_the_better_seed_always_wins_seeds_one_and_two_meet_in_the_final(size: int):
    bracket = seed_bracket(field(size))
    while bracket.round_number != bracket.rounds_count:
        for pairing in bracket.pending():
            bracket = bracket.record(won(pairing, pairing.first))
    assert bracket.pending() == (Pairing("e0", "e1"),)


# Swiss


def test_the_first_swiss_round_pairs_the_upper_half_against_the_lower_half():
    round_ = swiss_pair(field(8), [])
    assert round_.pairings == (
        Pairing("e0", "e4"),
        Pairing("e1", "e5"),
        Pairing("e2", "e6"),
        Pairing("e3", "e7"),
    )
    assert (round_.number, round_.byes) == (1, ())


def test_an_odd_swiss_field_gives_the_first_bye_to_the_lowest_ranked():
    assert swiss_pair(field(5), []).byes == ("e4",)


def test_winners_meet_winners_in_the_second_round():
    entrants = field(8)
    first = play_round(swiss_pair(entrants, []), ["e4", "e5", "e6", "e7"])
    second = swiss_pair(entrants, [first])
    assert second.pairings == (
        Pairing("e4", "e6"),
        Pairing("e5", "e7"),
        Pairing("e0", "e2"),
        Pairing("e1", "e3"),
    )


def test_the_bye_goes_to_the_lowest_ranked_entrant_who_has_not_had_one():
    entrants = field(5)
    first = play_round(swiss_pair(entrants, []), ["e0", "e1"])
    second = swiss_pair(entrants, [first])
    # e4 rested in round 1 (a win); e3 is now the lowest ranked without a bye.
    assert (first.byes, second.byes) == (("e4",), ("e3",))


def test_a_bye_scores_as_a_win():
    entrants = field(3)
    first = play_round(swiss_pair(entrants, []), ["e1"])
    standings = {s.key: s for s in swiss_standings(entrants, [first])}
    assert first.byes == ("e2",)
    assert (standings["e2"].score, standings["e2"].byes, standings["e2"].points_difference) == (
        1,
        1,
        0,
    )


def test_a_double_loss_counts_as_a_loss_for_both():
    entrants = field(2)
    first = swiss_pair(entrants, [])
    first = first.record(double_loss(first.pairings[0]))
    assert [(s.key, s.score) for s in swiss_standings(entrants, [first])] == [
        ("e0", 0),
        ("e1", 0),
    ]


def test_swiss_points_difference_comes_before_buchholz():
    entrants = field(6)
    one = Round(
        1,
        (Pairing("e0", "e3"), Pairing("e1", "e4"), Pairing("e2", "e5")),
        results=(
            MatchResult("e0", "e3", "e0", (100, 90)),
            MatchResult("e1", "e4", "e1", (100, 90)),
            MatchResult("e2", "e5", "e5", (80, 100)),
        ),
    )
    two = Round(
        2,
        (Pairing("e0", "e1"), Pairing("e5", "e3"), Pairing("e2", "e4")),
        results=(
            MatchResult("e0", "e1", "e1", (95, 100)),
            MatchResult("e5", "e3", "e3", (95, 100)),
            MatchResult("e2", "e4", "e2", (100, 95)),
        ),
    )
    standings = swiss_standings(entrants, [one, two])
    # e5 (+15, Buchholz 2) is ahead of e0 (+5, Buchholz 3).
    assert [(s.key, s.score, s.points_difference, s.buchholz) for s in standings] == [
        ("e1", 2, 15, 1),
        ("e5", 1, 15, 2),
        ("e0", 1, 5, 3),
        ("e3", 1, -5, 2),
        ("e2", 1, -15, 1),
        ("e4", 0, -15, 3),
    ]
    assert [s.place for s in standings] == [1, 2, 3, 4, 5, 6]


def test_swiss_equal_score_and_points_difference_fall_to_buchholz():
    entrants = field(4)
    one = Round(
        1,
        (Pairing("e0", "e1"), Pairing("e2", "e3")),
        results=(
            MatchResult("e0", "e1", "e0", (100, 90)),
            MatchResult("e2", "e3", "e3", (90, 100)),
        ),
    )
    two = Round(
        2,
        (Pairing("e0", "e3"), Pairing("e1", "e2")),
        results=(
            MatchResult("e0", "e3", "e0", (100, 90)),
            MatchResult("e1", "e2", "e2", (90, 100)),
        ),
    )
    standings = swiss_standings(entrants, [one, two])
    # e3 (Buchholz 3: e2 has 1, e0 has 2) is ahead of the better seed e2 (Buchholz 1).
    assert [(s.key, s.score, s.points_difference, s.buchholz) for s in standings] == [
        ("e0", 2, 20, 1),
        ("e3", 1, 0, 3),
        ("e2", 1, 0, 1),
        ("e1", 0, -20, 3),
    ]


def test_swiss_ties_in_score_difference_and_buchholz_fall_to_the_seed():
    entrants = field(4)
    one = Round(
        1,
        (Pairing("e0", "e2"), Pairing("e1", "e3")),
        results=(
            MatchResult("e0", "e2", "e2", (90, 100)),
            MatchResult("e1", "e3", "e3", (90, 100)),
        ),
    )
    two = Round(
        2,
        (Pairing("e2", "e3"), Pairing("e0", "e1")),
        results=(
            MatchResult("e2", "e3", "e2", (100, 90)),
            MatchResult("e0", "e1", "e0", (100, 90)),
        ),
    )
    standings = swiss_standings(entrants, [one, two])
    assert [(s.key, s.score, s.points_difference, s.buchholz) for s in standings] == [
        ("e2", 2, 20, 2),
        ("e0", 1, 0, 2),
        ("e3", 1, 0, 2),
        ("e1", 0, -20, 2),
    ]


def test_a_swiss_round_is_not_paired_before_the_last_one_ends():
    entrants = field(4)
    first = swiss_pair(entrants, [])
    first = first.record(won(first.pairings[0], "e0"))
    with pytest.raises(RoundUnfinished) as refused:
        swiss_pair(entrants, [first])
    assert refused.value.number == 1


def test_a_swiss_round_that_leaves_an_entrant_out_is_refused():
    with pytest.raises(TournamentError):
        swiss_standings(field(4), [Round(1, (Pairing("e0", "e1"),))])


def test_a_swiss_round_naming_an_unknown_entrant_is_refused():
    rounds = [Round(1, (Pairing("e0", "e1"), Pairing("e2", "zz")))]
    with pytest.raises(EntrantError) as refused:
        swiss_standings(field(4), rounds)
    assert refused.value.key == "zz"


def test_a_swiss_round_holding_a_result_of_none_of_its_pairings_is_refused():
    stray = MatchResult("e0", "e2", "e0", (100, 10))
    rounds = [Round(1, (Pairing("e0", "e1"), Pairing("e2", "e3")), results=(stray,))]
    with pytest.raises(ResultError) as refused:
        swiss_standings(field(4), rounds)
    assert refused.value.result == stray


def test_two_entrants_meet_again_when_nothing_else_is_possible():
    entrants = field(2)
    first = play_round(swiss_pair(entrants, []), ["e0"])
    assert swiss_pair(entrants, [first]).pairings == (Pairing("e0", "e1"),)


def repeat_free_pairing_exists(
    keys: Sequence[str], met: Counter[frozenset[str]], rest: set[str]
) -> bool:
    """Whether ``keys`` can be paired with no pair in ``met``, the bye (odd count) going
    to one of ``rest``: a search over every pairing."""

    def pairs_all(left: list[str]) -> bool:
        if not left:
            return True
        head, tail = left[0], left[1:]
        return any(
            pairs_all(tail[:i] + tail[i + 1 :])
            for i, other in enumerate(tail)
            if not met[frozenset((head, other))]
        )

    if len(keys) % 2 == 0:
        return pairs_all(list(keys))
    return any(pairs_all([k for k in keys if k != bye]) for bye in sorted(rest))


def check_swiss_round(entrants: Sequence[Entrant], rounds: Sequence[Round], round_: Round):
    """Assert the invariants of one new Swiss round against the rounds before it."""
    keys = [e.key for e in entrants]
    named = [*round_.byes, *(k for p in round_.pairings for k in (p.first, p.second))]
    byes = Counter(k for r in rounds for k in r.byes)
    fewest = min(byes[k] for k in keys)
    met = Counter(p.keys for r in rounds for p in r.pairings)
    repeats = sum(met[p.keys] > 0 for p in round_.pairings)
    rest = {k for k in keys if byes[k] == fewest}
    assert sorted(named) == sorted(keys)
    assert len(round_.byes) == len(keys) % 2
    assert set(round_.byes) <= rest
    assert repeats == 0 or not repeat_free_pairing_exists(keys, met, rest)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 6), st.sampled_from([1, 8]), st.data())
def test_swiss_rounds_pair_everyone_once_rest_fairly_and_repeat_only_when_forced(
    size: int, count: int, window: int, data: st.DataObject
):
    entrants = field(size)
    rounds: list[Round] = []
    for _ in range(count):
        round_ = swiss_pair(entrants, rounds, window=window)
        check_swiss_round(entrants, rounds, round_)
        for pairing in round_.pairings:
            outcome = data.draw(st.sampled_from(["first", "second", "double"]))
            if outcome == "double":
                round_ = round_.record(double_loss(pairing))
            else:
                winner = pairing.first if outcome == "first" else pairing.second
                points = data.draw(st.tuples(st.integers(60, 120), st.integers(0, 99)))
                round_ = round_.record(won(pairing, winner, points))
        rounds.append(round_)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(0, 8), st.data())
def test_swiss_never_gives_a_second_bye_while_someone_has_none(
    size: int, count: int, data: st.DataObject
):
    entrants = field(size)
    rounds: list[Round] = []
    for _ in range(count):
        round_ = swiss_pair(entrants, rounds)
        winners = [data.draw(st.sampled_from([p.first, p.second])) for p in round_.pairings]
        rounds.append(play_round(round_, winners))
    byes = Counter(k for r in rounds for k in r.byes)
    assert max(byes[e.key] for e in entrants) - min(byes[e.key] for e in entrants) <= 1


def test_a_swiss_pairing_is_the_same_for_the_same_history():
    entrants = field(33)
    rounds: list[Round] = []
    for _ in range(4):
        round_ = swiss_pair(entrants, rounds)
        rounds.append(play_round(round_, [p.first for p in round_.pairings]))
    assert swiss_pair(entrants, rounds) == swiss_pair(list(reversed(entrants)), rounds)


# Arena


def test_a_win_scores_two_and_from_the_third_win_in_a_row_four():
    assert [match_points(True, streak) for streak in range(4)] == [2, 2, 4, 4]
    assert match_points(False, 5) == 0


def test_arena_standings_score_a_streak_and_a_loss_ends_it():
    entrants = field(2)
    results = [MatchResult("e0", "e1", w, (100, 50) if w == "e0" else (50, 100))
               for w in ["e0", "e0", "e0", "e1", "e0"]]  # fmt: skip
    standings = {s.key: s for s in arena_standings(entrants, results)}
    # e0: 2 + 2 + 4 (third in a row) + 0 + 2; e1: 2 for its one win.
    assert (standings["e0"].score, standings["e0"].streak, standings["e0"].on_fire) == (
        10,
        1,
        False,
    )
    assert (standings["e1"].score, standings["e1"].wins, standings["e1"].matches) == (2, 1, 5)


def test_a_double_loss_ends_both_streaks_in_an_arena():
    entrants = field(2)
    results = [MatchResult("e0", "e1", "e0", (100, 0))] * 2 + [
        MatchResult("e0", "e1", None, kind=ResultKind.DOUBLE_NO_SHOW)
    ]
    standings = {s.key: s for s in arena_standings(entrants, results)}
    assert (standings["e0"].score, standings["e0"].streak) == (4, 0)


def test_arena_standings_break_ties_by_points_difference_then_rating():
    entrants = field(6)
    results = [
        MatchResult("e3", "e0", "e3", (100, 40)),
        MatchResult("e2", "e1", "e2", (100, 90)),
    ]
    standings = arena_standings(entrants, results)
    assert [(s.key, s.score, s.points_difference) for s in standings] == [
        ("e3", 2, 60),
        ("e2", 2, 10),
        ("e4", 0, 0),
        ("e5", 0, 0),
        ("e1", 0, -10),
        ("e0", 0, -60),
    ]


def test_arena_pairs_the_free_entrants_closest_in_the_standings():
    entrants = field(6)
    standings = arena_standings(entrants, [])
    assert arena_pair(["e5", "e1", "e3", "e0", "e2", "e4"], standings, {}) == (
        Pairing("e0", "e1"),
        Pairing("e2", "e3"),
        Pairing("e4", "e5"),
    )


def test_arena_avoids_the_last_opponent_when_another_is_free():
    entrants = field(4)
    results = [MatchResult("e0", "e1", "e0", (100, 50)), MatchResult("e2", "e3", "e2", (100, 50))]
    standings = arena_standings(entrants, results)
    pairings = arena_pair(["e0", "e1", "e2", "e3"], standings, last_opponents(results))
    assert pairings == (Pairing("e0", "e2"), Pairing("e1", "e3"))


def test_arena_pairs_the_last_opponent_again_when_no_one_else_is_free():
    entrants = field(4)
    results = [MatchResult("e0", "e1", "e0", (100, 50))]
    standings = arena_standings(entrants, results)
    assert arena_pair(["e1", "e0"], standings, last_opponents(results)) == (Pairing("e0", "e1"),)


def test_with_an_odd_count_the_last_to_become_free_waits():
    standings = arena_standings(field(3), [])
    assert arena_pair(["e2", "e0", "e1"], standings, {}) == (Pairing("e0", "e2"),)


def test_one_free_entrant_is_paired_with_nobody():
    assert arena_pair(["e0"], arena_standings(field(3), []), {}) == ()


def test_a_free_entrant_not_in_the_standings_is_refused():
    with pytest.raises(EntrantError) as refused:
        arena_pair(["e0", "zz"], arena_standings(field(3), []), {})
    assert refused.value.key == "zz"


def test_the_arena_schedule_pairs_until_the_end_and_counts_matches_finished_by_it():
    schedule = ArenaSchedule(started_at=1000.0, duration_seconds=1200.0)
    assert (schedule.ends_at, schedule.may_pair(2199.0), schedule.may_pair(2200.0)) == (
        2200.0,
        True,
        False,
    )
    assert (schedule.counts(2200.0), schedule.counts(2200.5)) == (True, False)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=2, max_size=30),
    st.sampled_from([1, 8]),
    st.data(),
)
def test_arena_pairs_each_free_entrant_once_and_leaves_out_only_one_of_an_odd_count(
    scores: list[int], window: int, data: st.DataObject
):
    standings = [
        ArenaStanding(f"e{i}", i + 1, score, 0, 0, 0, 0)
        for i, score in enumerate(sorted(scores, reverse=True))
    ]
    free = data.draw(st.permutations([s.key for s in standings]))
    recent = {s.key: data.draw(st.sampled_from(free)) for s in standings}
    pairings = arena_pair(free, standings, recent, window=window)
    paired = [k for p in pairings for k in (p.first, p.second)]
    assert len(paired) == len(set(paired)) == len(free) - len(free) % 2


# Prize split


def test_a_prize_pool_splits_60_30_10_for_three_places_or_more():
    assert (prize_split(100, 3), prize_split(100, 12)) == ([60, 30, 10], [60, 30, 10])


def test_a_prize_pool_splits_70_30_for_two_places_and_whole_for_one():
    assert (prize_split(100, 2), prize_split(100, 1)) == ([70, 30], [100])


def test_the_dollars_rounding_leaves_go_to_first_place():
    assert (prize_split(101, 3), prize_split(7, 3), prize_split(9, 2)) == (
        [61, 30, 10],
        [5, 2, 0],
        [7, 2],
    )


def test_a_prize_split_refuses_no_place_or_a_negative_pool():
    with pytest.raises(TournamentError):
        prize_split(100, 0)
    with pytest.raises(TournamentError):
        prize_split(-1, 3)


@given(st.integers(0, 10**9), st.integers(1, 300))
def test_a_prize_split_always_sums_to_the_pool_and_never_increases(pool: int, places: int):
    prizes = prize_split(pool, places)
    assert sum(prizes) == pool
    assert prizes == sorted(prizes, reverse=True)
    assert len(prizes) == min(places, 3)
    assert min(prizes) >= 0


def test_a_shared_third_place_splits_the_third_prize_and_its_odd_dollar_goes_to_the_better_seed():
    placing = [Place(1, ("a",)), Place(2, ("b",)), Place(3, ("c", "d"))]
    assert award_prizes(100, placing) == {"a": 60, "b": 30, "c": 5, "d": 5}
    assert award_prizes(11, placing) == {"a": 7, "b": 3, "c": 1, "d": 0}


def test_a_placing_with_a_gap_is_refused():
    with pytest.raises(TournamentError):
        award_prizes(100, [Place(1, ("a",)), Place(3, ("b",))])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 40), st.data())
def test_a_knockout_pays_out_exactly_its_pool(pool: int, size: int, data: st.DataObject):
    bracket = bracket_played(data, size, 1, doubles=True)
    awarded = award_prizes(pool, bracket.placing())
    assert sum(awarded.values()) == pool
    assert sorted(awarded) == sorted(e.key for e in field(size))


def test_a_partnership_splits_its_prize_and_the_odd_dollar_goes_to_the_first_player():
    pair = Entrant("los-primos", ("ana", "bea"), 1100)
    assert split_between_players(7, pair) == {"ana": 4, "bea": 3}


# No-shows


def test_a_tournament_table_waits_two_minutes_for_its_players():
    assert no_show_deadline(1000.0) == 1120.0


PRIMOS = Entrant("primos", ("ana", "bea"), 1100)
VECINOS = Entrant("vecinos", ("cris", "dani"), 1050)


def test_a_full_table_plays_its_match():
    assert no_show_result(PRIMOS, VECINOS, {"ana", "bea", "cris", "dani"}) is None


def test_a_seat_still_empty_loses_the_match_for_its_partnership():
    assert no_show_result(PRIMOS, VECINOS, {"ana", "cris", "dani"}) == MatchResult(
        "primos", "vecinos", "vecinos", (0, 0), ResultKind.NO_SHOW
    )


def test_a_whole_table_of_no_shows_is_a_double_loss():
    assert no_show_result(PRIMOS, VECINOS, set()) == MatchResult(
        "primos", "vecinos", None, (0, 0), ResultKind.DOUBLE_NO_SHOW
    )


def test_an_empty_seat_on_each_side_is_a_double_loss():
    assert no_show_result(PRIMOS, VECINOS, {"ana", "dani"}).kind is ResultKind.DOUBLE_NO_SHOW
