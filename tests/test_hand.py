from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError, NotYourTurnError
from engine.hand import (
    HandState,
    Termination,
    deal_tiles,
    first_hand_opening,
    team_of,
)
from engine.moves import PASS, Move, Side
from engine.rules import PRESETS, Rules, find_preset
from engine.tiles import ALL_TILES, Tile
from tests.oracle import expected_outcome

V = PRESETS["venezolano"]


def t(text: str) -> Tile:
    return Tile.parse(text)


def deal_of(*hands: str) -> list[list[Tile]]:
    return [[t(x) for x in hand.split()] for hand in hands]


EXAMPLE_DEAL = deal_of(
    "6-6 6-5 5-5 4-1 3-0 2-2 1-0",
    "6-4 6-3 5-4 5-3 4-4 2-1 0-0",
    "6-2 6-1 5-2 5-1 4-3 3-3 1-1",
    "6-0 5-0 4-2 4-0 3-2 3-1 2-0",
)


def opened() -> HandState:
    return HandState.start(V, EXAMPLE_DEAL, 0, opening_tile=t("6-6")).apply(Move(t("6-6")))


rule_sets = st.builds(
    Rules,
    counting=st.sampled_from(["opponents", "all"]),
    first_starter=st.sampled_from(["double_six", "random", "draw"]),
    next_starter=st.sampled_from(["rotate", "winner"]),
    blocked_winner=st.sampled_from(["team", "individual"]),
    redeal_doubles=st.sampled_from([None, 4, 5]),
    capicua_bonus=st.sampled_from([0, 10, 20, 25, 30]),
)


def play_random_hand(rules: Rules, seed: int) -> HandState:
    rng = random.Random(seed)
    deal, starter, _ = first_hand_opening(rules, rng)
    opening = t("6-6") if rules.first_starter == "double_six" else None
    hand = HandState.start(rules, deal, starter, opening_tile=opening)
    while not hand.is_over:
        hand = hand.apply(rng.choice(hand.legal_moves()))
    return hand


def test_seats_0_and_2_are_one_partnership_and_1_and_3_the_other() -> None:
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_under_double_six_the_opener_may_only_play_6_6() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 0, opening_tile=t("6-6"))
    assert hand.legal_moves() == [Move(t("6-6"))]
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("6-5")))
    assert info.value.reason == "must_open_with"


def test_without_an_opening_tile_the_opener_may_play_any_tile() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 1)
    assert [m.tile for m in hand.legal_moves()] == sorted(EXAMPLE_DEAL[1])


def test_the_opening_tile_puts_its_high_half_on_the_left() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 1).apply(Move(t("6-4")))
    assert hand.ends == (6, 4)
    assert hand.turn == 2


def test_play_goes_counter_clockwise_to_the_next_seat() -> None:
    assert opened().turn == 1


def test_a_tile_that_fits_both_ends_differently_gives_two_moves() -> None:
    hand = opened().apply(Move(t("6-4"))).apply(Move(t("6-2")))
    assert hand.ends == (2, 4)
    moves = hand.legal_moves()
    assert Move(t("4-2"), Side.LEFT) in moves and Move(t("4-2"), Side.RIGHT) in moves
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("4-2")))
    assert info.value.reason == "side_missing"


def test_when_both_ends_match_a_tile_without_a_side_goes_right() -> None:
    hand = opened()
    assert hand.ends == (6, 6)
    assert hand.legal_moves() == [Move(t("6-3"), Side.RIGHT), Move(t("6-4"), Side.RIGHT)]
    after = hand.apply(Move(t("6-4")))
    assert after.ends == (6, 4)
    assert [p.tile for p in after.line] == [t("6-6"), t("6-4")]


def test_a_side_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    hand = opened().apply(Move(t("6-4")))
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("6-2"), Side.RIGHT))
    assert info.value.reason == "side_does_not_fit"
    assert hand.ends == (6, 4) and hand.turn == 2


def test_a_tile_that_fits_neither_end_is_refused() -> None:
    hand = opened()
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("5-4")))
    assert info.value.reason == "does_not_fit"


def test_a_tile_not_held_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as info:
        opened().apply(Move(t("6-2")))
    assert info.value.reason == "not_held"
    assert info.value.seat == 1


def test_a_seat_that_can_play_cannot_pass() -> None:
    with pytest.raises(IllegalMoveError) as info:
        opened().apply(PASS)
    assert info.value.reason == "must_play"
    assert "must play (holds 6-3 for the 6 end), cannot pass" in str(info.value)


def test_a_seat_with_nothing_that_fits_may_only_pass() -> None:
    hand = opened()
    for text in ["6-4", "6-2", "4-2 right", "2-2", "2-1", "5-1", "5-0", "1-0"]:
        hand = hand.apply(Move.parse(text))
    assert hand.turn == 1 and hand.ends == (2, 1)
    assert hand.legal_moves() == [PASS]
    assert hand.apply(PASS).turn == 2


def test_moving_out_of_turn_is_refused() -> None:
    with pytest.raises(NotYourTurnError) as info:
        opened().apply(Move(t("6-5")), seat=0)
    assert (info.value.seat, info.value.turn) == (0, 1)


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    hand = opened()
    after = hand.apply(Move(t("6-4")))
    assert hand.ends == (6, 6) and after.ends == (6, 4)
    assert len(hand.history) == 1 and len(after.history) == 2


def test_no_move_is_legal_once_the_hand_is_over() -> None:
    hand = play_random_hand(V, 1)
    assert hand.legal_moves() == []
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(PASS)
    assert info.value.reason == "hand_over"


def test_the_redeal_rule_never_deals_too_many_doubles() -> None:
    rules = find_preset("espanol")
    rng = random.Random(7)
    for _ in range(300):
        deal = deal_tiles(rng, rules)
        assert all(sum(x.is_double for x in hand) < 4 for hand in deal)


def test_the_draw_opener_is_the_highest_drawn_tile_with_the_higher_half_breaking_ties() -> None:
    rules = find_preset("espanol")
    for seed in range(200):
        _, starter, drawn = first_hand_opening(rules, random.Random(seed))
        assert drawn is not None and len(set(drawn)) == 4
        best = max(drawn, key=lambda x: (x.pips, x.high))
        assert drawn[starter] is best
        ties = [x for x in drawn if x.pips == best.pips and x is not best]
        assert all(x.high < best.high for x in ties)


def test_the_draw_tie_break_is_exercised_by_some_seed() -> None:
    rules = find_preset("espanol")
    for seed in range(500):
        _, starter, drawn = first_hand_opening(rules, random.Random(seed))
        assert drawn is not None
        top = drawn[starter].pips
        if sum(1 for x in drawn if x.pips == top) > 1:
            return
    pytest.fail("no seed drew equal pip totals")


def test_under_double_six_the_holder_of_6_6_opens() -> None:
    for seed in range(50):
        deal, starter, _ = first_hand_opening(V, random.Random(seed))
        assert t("6-6") in deal[starter]


def _plays(hand: HandState) -> list[tuple[int, str, tuple[int, int] | None]]:
    plays = []
    ends: tuple[int, int] | None = None
    for seat, move in hand.history:
        if move.tile is None:
            continue
        plays.append((seat, str(move.tile), ends))
        tile = move.tile
        if ends is None:
            ends = (tile.high, tile.low)
        elif move.side is Side.LEFT:
            ends = (tile.other(ends[0]), ends[1])
        else:
            ends = (ends[0], tile.other(ends[1]))
    return plays


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_every_hand_ends_with_28_tiles_conserved_and_scored_as_the_rule_book_says(
    rules: Rules, seed: int
) -> None:
    hand = play_random_hand(rules, seed)
    outcome = hand.outcome
    assert outcome is not None
    on_line = [p.tile for p in hand.line]
    held = [x for s in range(4) for x in hand.tiles(s)]
    assert sorted(on_line + held) == list(ALL_TILES)
    assert len(set(on_line)) == len(on_line)
    expected = expected_outcome(
        rules.model_dump(),
        [[str(x) for x in h] for h in hand.deal],
        _plays(hand),
        outcome.end is Termination.DOMINO,
    )
    got = {
        "end": outcome.end.value,
        "winner_team": outcome.winner_team,
        "winner_seat": outcome.winner_seat,
        "points": outcome.points,
        "capicua": outcome.capicua,
        "pips_left": list(outcome.pips_left),
    }
    assert got == expected


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_a_blocked_hand_is_one_where_nobody_holds_a_tile_for_either_end(
    rules: Rules, seed: int
) -> None:
    hand = play_random_hand(rules, seed)
    assert hand.outcome is not None
    if hand.outcome.end is Termination.BLOCKED:
        left, right = hand.ends or (0, 0)
        for seat in range(4):
            assert not any(x.has(left) or x.has(right) for x in hand.tiles(seat))
    else:
        assert hand.tiles(hand.outcome.last_seat) == ()


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_the_outcome_gives_each_teams_pips_left(rules: Rules, seed: int) -> None:
    outcome = play_random_hand(rules, seed).outcome
    assert outcome is not None
    a, b = outcome.team_pips
    assert (a, b) == (sum(outcome.pips_left[0::2]), sum(outcome.pips_left[1::2]))
    if outcome.end is Termination.BLOCKED and rules.blocked_winner == "team":
        assert outcome.winner_team == (None if a == b else (0 if a < b else 1))


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_the_line_always_joins_matching_halves(rules: Rules, seed: int) -> None:
    hand = play_random_hand(rules, seed)
    line = hand.line
    for a, b in itertools.pairwise(line):
        assert a.right == b.left
    assert hand.ends == (line[0].left, line[-1].right)
    for p in line:
        assert {p.left, p.right} == {p.tile.high, p.tile.low}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_a_pass_is_legal_only_when_nothing_fits(seed: int) -> None:
    rng = random.Random(seed)
    deal, starter, _ = first_hand_opening(V, rng)
    hand = HandState.start(V, deal, starter, opening_tile=t("6-6"))
    while not hand.is_over:
        moves = hand.legal_moves()
        assert moves
        assert (moves == [PASS]) == (not hand.can_play(hand.turn))
        assert moves == sorted(set(moves), key=moves.index)  # no duplicates
        hand = hand.apply(rng.choice(moves))
