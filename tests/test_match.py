from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.moves import Move
from engine.rules import PRESETS, Rules, find_any_preset, find_preset
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


# -- formats (rules.md, "Scoring in individual play") ---------------------------------

FORMAT_RULES = [
    find_any_preset("uno-contra-uno"),
    find_any_preset("individual"),
    find_any_preset("cubano"),
    Rules.build_any(players=3, partnership=False, boneyard="draw", next_starter="winner"),
    Rules.build_any(
        players=2, partnership=False, boneyard="draw", tile_set="double_nine", target=50
    ),
]


@pytest.mark.parametrize("rules", FORMAT_RULES, ids=lambda r: r.format_name)
def test_a_match_of_every_format_ends_when_one_side_reaches_the_target_alone(
    rules: Rules,
) -> None:
    match = play_match(rules, 5)
    assert match.is_over
    assert len(match.score) == rules.sides
    winner = match.winner_team
    assert winner is not None
    assert match.score[winner] >= rules.target
    assert all(match.score[winner] > s for side, s in enumerate(match.score) if side != winner)
    totals = [0] * rules.sides
    for outcome in match.outcomes:
        if outcome.winner_team is not None:
            totals[outcome.winner_team] += outcome.points
    assert tuple(totals) == match.score
    # every hand but the last left the match undecided
    for number in range(1, len(match.hands)):
        assert not Match(rules, match.hands[:number], tuple(_score_after(match, number))).is_over


def _score_after(match: Match, hands: int) -> list[int]:
    score = [0] * match.rules.sides
    for outcome in match.outcomes[:hands]:
        if outcome.winner_team is not None:
            score[outcome.winner_team] += outcome.points
    return score


def _finished_individual_hand() -> Match:
    rules = Rules.build_any(players=3, partnership=False, hand_size=2, first_starter="random")
    deal = [[Tile.parse(x) for x in h.split()] for h in ("6-6 2-0", "5-5 3-1", "4-4 4-3")]
    return Match.start(rules, deal, 0).apply(Move(Tile(6, 6)))


def test_a_tie_for_the_lead_at_the_target_plays_on_in_individual_play() -> None:
    finished = _finished_individual_hand()
    rules, hands = finished.rules, finished.hands
    assert finished.score == (29, 0, 0)
    assert not Match(rules, hands, (100, 100, 20)).is_over
    assert Match(rules, hands, (100, 100, 20)).winner_team is None
    assert Match(rules, hands, (101, 100, 20)).winner_team == 0
    assert Match(rules, hands, (20, 99, 120)).winner_team == 2
    assert not Match(rules, hands, (99, 98, 20)).is_over


def test_an_individual_hand_scores_for_the_seat_and_the_next_opener_rotates_among_the_players() -> (
    None
):
    match = _finished_individual_hand()
    assert match.score_before_hand == (0, 0, 0)
    assert match.next_starter() == 1
    rng = random.Random(3)
    later = match.next_hand(rng)
    assert later.hand.starter == 1 and later.hand.opening_tile is None
    assert len(later.hand.deal) == 3
    assert len(later.hand.boneyard) == 28 - 6
