from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, HandState, Move, Side
from engine.fast import FastHand
from engine.hand import Termination, first_hand_opening
from engine.robots.playout import (
    BASE_SCORE,
    Scoring,
    best_move,
    best_opening,
    hand_value,
    playout,
    playout_fast_hand,
)
from engine.rules import Rules
from engine.tiles import ALL_TILES, NUMBER_MASKS, Tile, mask_of, tiles_of
from tests.strategies import overrides, rules_of


def _reference_best(hand: int, left: int, right: int) -> tuple[int, int] | None:
    """The heuristic written plainly: (index, side) of the first best legal move."""
    best, best_score = None, -1
    for tile in tiles_of(hand):
        sides = []
        if left == right:
            if tile.has(left):
                sides = [(1, left, tile.other(right))]
        else:
            if tile.has(left):
                sides.append((0, tile.other(left), right))
            if tile.has(right):
                sides.append((1, left, tile.other(right)))
        for side, nl, nr in sides:
            rest = [t for t in tiles_of(hand) if t is not tile]
            score = tile.pips + (4 if tile.is_double else 0)
            score += 3 * sum(1 for t in rest if t.has(nl) or t.has(nr))
            if score > best_score:
                best, best_score = (tile.index, side), score
    return best


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 6), st.integers(0, 6))
def test_the_fast_heuristic_picks_what_the_written_rule_picks(
    rnd: random.Random, left: int, right: int
) -> None:
    hand = mask_of(rnd.sample(ALL_TILES, rnd.randint(1, 7)))
    choice = best_move(hand, left, right)
    expected = _reference_best(hand, left, right)
    if expected is None:
        assert choice is None
    else:
        assert choice is not None and choice[:2] == expected


def test_doubles_score_four_more_than_their_pips() -> None:
    for tile in ALL_TILES:
        assert BASE_SCORE[tile.index] == tile.pips + (4 if tile.is_double else 0)


def test_the_opening_favours_the_heavy_tile_that_keeps_company() -> None:
    hand = mask_of([ALL_TILES[27], ALL_TILES[26], ALL_TILES[0]])  # 6-6, 6-5, 0-0
    assert ALL_TILES[best_opening(hand)].high == 6
    assert best_opening(hand, allowed=1 << 0) == 0


def _signed(state: HandState) -> int:
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner_team is None:
        return 0
    return outcome.points if outcome.winner_team == 0 else -outcome.points


def _random_position(rules: Rules, rng: random.Random) -> HandState:
    """A random first hand after the opening and a few random legal moves, still in play."""
    deal, starter, _ = first_hand_opening(rules, rng)
    opening = Tile(6, 6) if rules.first_starter == "double_six" else None
    state = HandState.start(rules, deal, starter, opening_tile=opening)
    state = state.apply(rng.choice(state.legal_moves()))
    for _ in range(rng.randrange(24)):
        after = state.apply(rng.choice(state.legal_moves()))
        if after.is_over:
            break
        state = after
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=100, deadline=None, derandomize=True)
@given(changes=overrides(), seed=st.integers(0, 2**32 - 1))
def test_a_playout_ends_and_scores_the_hand_exactly_as_the_engine_does(
    preset: str, changes: dict[str, Any], seed: int
) -> None:
    """From a random position, the heuristic played on the reference ends the hand with
    the same tiles left (so the same termination and pips) and the same signed points;
    zero exactly when the reference scores nothing (a tied tranca)."""
    rules = rules_of(preset, changes)
    state = _random_position(rules, random.Random(seed))
    assert state.ends is not None
    left, right = state.ends
    start = [state.hand_mask(s) for s in range(4)]
    hands = start[:]
    value = playout(hands, left, right, state.turn, Scoring(rules))
    fh = FastHand(start[:], left, right, state.turn, len(state.line))
    assert playout_fast_hand(fh, Scoring(rules)) == value
    while not state.is_over:
        assert state.ends is not None
        choice = best_move(state.hand_mask(state.turn), *state.ends)
        if choice is None:
            state = state.apply(Move(None))
            continue
        index, side, nl, nr = choice
        state = state.apply(Move(ALL_TILES[index], Side.LEFT if side == 0 else Side.RIGHT))
        assert state.is_over or state.ends == (nl, nr)
    assert hands == [state.hand_mask(s) for s in range(4)]
    assert value == _signed(state)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=100, deadline=None, derandomize=True)
@given(changes=overrides(), seed=st.integers(0, 2**32 - 1))
def test_hand_values_follow_the_engine_for_random_endings(
    preset: str, changes: dict[str, Any], seed: int
) -> None:
    rules = rules_of(preset, changes)
    rng = random.Random(seed)
    state = _random_position(rules, rng)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    outcome = state.outcome
    assert outcome is not None
    hands = [state.hand_mask(s) for s in range(4)]
    over = 1 if outcome.end is Termination.DOMINO else 2
    sc = Scoring(rules)
    assert hand_value(hands, over, outcome.last_seat, outcome.capicua, sc) == _signed(state)


def test_a_blocked_line_scores_at_once() -> None:
    rules = PRESETS["venezolano"]
    # every 6 is gone: ends 6 and 6 cannot be played on.
    hands = [mask_of(tiles_of(((1 << 28) - 1) & ~NUMBER_MASKS[6])[s::4]) for s in range(4)]
    value = playout(hands[:], 6, 6, 0, Scoring(rules))
    assert value == hand_value(hands, 2, 0, False, Scoring(rules))
