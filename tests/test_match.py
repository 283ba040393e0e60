from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.moves import Move
from engine.rules import PRESETS, Rules, find_preset
from engine.tiles import Tile


def play_to_end_of_hand(match: Match, rng: random.Random) -> Match:
    while not match.hand.is_over:
        match = match.apply(rng.choice(match.hand.legal_moves()))
    return match


def play_match(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    while True:
        match = play_to_end_of_hand(match, rng)
        if match.is_over:
            return match
        match = match.next_hand(rng)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_match_ends_when_a_team_reaches_the_target_and_leads(preset: str) -> None:
    rules = PRESETS[preset]
    match = play_match(rules, 11)
    assert match.is_over
    winner = match.winner_team
    assert winner is not None
    assert match.score[winner] >= rules.target
    assert match.score[winner] > match.score[1 - winner]
    # every earlier hand left both teams below the target
    running = [0, 0]
    for outcome in match.outcomes[:-1]:
        if outcome.winner_team is not None:
            running[outcome.winner_team] += outcome.points
        assert max(running) < rules.target


def test_the_score_is_the_sum_of_the_hands_points() -> None:
    match = play_match(PRESETS["venezolano"], 5)
    totals = [0, 0]
    for outcome in match.outcomes:
        if outcome.winner_team is not None:
            totals[outcome.winner_team] += outcome.points
    assert tuple(totals) == match.score


def test_no_hand_may_be_dealt_after_the_match_ended() -> None:
    match = play_match(PRESETS["venezolano"], 3)
    with pytest.raises(ValueError, match="match is over"):
        match.next_hand(random.Random(0))


def test_the_next_hand_cannot_start_before_this_one_ends() -> None:
    match = Match.new(PRESETS["venezolano"], random.Random(0))
    with pytest.raises(ValueError, match="not over"):
        match.next_hand(random.Random(0))


def test_rotate_gives_the_next_hand_to_the_seat_after_the_previous_opener() -> None:
    rng = random.Random(9)
    match = Match.new(PRESETS["venezolano"], rng)
    for _ in range(5):
        match = play_to_end_of_hand(match, rng)
        if match.is_over:
            break
        opener = match.hand.starter
        match = match.next_hand(rng)
        assert match.hand.starter == (opener + 1) % 4
        assert match.hand.opening_tile is None


def test_winner_gives_the_next_hand_to_the_hand_winner_or_rotates_after_nothing_scored() -> None:
    rules = find_preset("internacional")
    seen_scoreless = seen_winner = False
    for seed in range(400):
        rng = random.Random(seed)
        match = play_to_end_of_hand(Match.new(rules, rng), rng)
        outcome = match.hand.outcome
        assert outcome is not None
        opener = match.hand.starter
        nxt = match.next_hand(rng).hand.starter
        if outcome.winner_seat is None:
            assert nxt == (opener + 1) % 4
            seen_scoreless = True
        else:
            assert nxt == outcome.winner_seat
            seen_winner = True
        if seen_scoreless and seen_winner:
            return
    pytest.fail("did not see both cases")


def test_a_scripted_starter_must_be_the_one_the_rules_give() -> None:
    rng = random.Random(1)
    match = play_to_end_of_hand(Match.new(PRESETS["venezolano"], rng), rng)
    wrong = (match.next_starter() + 2) % 4
    from engine.hand import deal_tiles

    with pytest.raises(ValueError, match="opening"):
        match.next_hand_with(deal_tiles(rng, match.rules), wrong)


def test_double_six_requires_the_holder_of_6_6_to_open_the_first_hand() -> None:
    from engine.hand import deal_tiles

    deal = deal_tiles(random.Random(2), PRESETS["venezolano"])
    holder = next(s for s in range(4) if Tile(6, 6) in deal[s])
    with pytest.raises(ValueError, match="6-6"):
        Match.start(PRESETS["venezolano"], deal, (holder + 1) % 4)
    match = Match.start(PRESETS["venezolano"], deal, holder)
    assert match.hand.legal_moves() == [Move(Tile(6, 6))]


def test_the_score_before_the_hand_excludes_the_finished_hands_points() -> None:
    rng = random.Random(4)
    match = play_to_end_of_hand(Match.new(PRESETS["venezolano"], rng), rng)
    outcome = match.hand.outcome
    assert outcome is not None
    assert sum(match.score) - sum(match.score_before_hand) == (
        outcome.points if outcome.winner_team is not None else 0
    )


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(list(PRESETS)), st.integers(0, 10**9))
def test_every_random_match_ends_with_a_winner(preset: str, seed: int) -> None:
    match = play_match(PRESETS[preset], seed)
    assert match.winner_team in (0, 1)
