from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, HandState, Move, Side, deal_tiles
from engine.fast import FastHand
from engine.robots.playout import (
    BASE_SCORE,
    Scoring,
    best_move,
    best_opening,
    hand_value,
    playout,
    playout_fast_hand,
)
from engine.tiles import ALL_TILES, NUMBER_MASKS, mask_of, tiles_of

PRESET = st.sampled_from(sorted(PRESETS))


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


@settings(max_examples=40, deadline=None)
@given(PRESET, st.integers(0, 10_000))
def test_a_playout_scores_the_hand_exactly_as_the_engine_does(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal = deal_tiles(rng, rules)
    starter = rng.randrange(4)
    state = HandState.start(rules, deal, starter)
    opening = ALL_TILES[best_opening(state.hand_mask(starter))]
    state = state.apply(Move(opening))
    hands = [state.hand_mask(s) for s in range(4)]
    assert state.ends is not None
    left, right = state.ends
    value = playout(hands[:], left, right, state.turn, Scoring(rules))
    while not state.is_over:
        assert state.ends is not None
        choice = best_move(state.hand_mask(state.turn), *state.ends)
        if choice is None:
            state = state.apply(Move(None))
            continue
        index, side, _nl, _nr = choice
        state = state.apply(Move(ALL_TILES[index], Side.LEFT if side == 0 else Side.RIGHT))
    assert value == _signed(state)
    fh = FastHand(hands, left, right, (starter + 1) & 3, 1)
    assert playout_fast_hand(fh, Scoring(rules)) == value


@settings(max_examples=60, deadline=None)
@given(PRESET, st.integers(0, 10_000))
def test_hand_values_follow_the_engine_for_random_endings(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    state = HandState.start(rules, deal_tiles(rng, rules), rng.randrange(4))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    outcome = state.outcome
    assert outcome is not None
    hands = [state.hand_mask(s) for s in range(4)]
    over = 1 if outcome.end.value == "domino" else 2
    assert hand_value(hands, over, outcome.last_seat, outcome.capicua, Scoring(rules)) == _signed(
        state
    )


def test_a_blocked_line_scores_at_once() -> None:
    rules = PRESETS["venezolano"]
    # every 6 is gone: ends 6 and 6 cannot be played on.
    hands = [mask_of(tiles_of(((1 << 28) - 1) & ~NUMBER_MASKS[6])[s::4]) for s in range(4)]
    value = playout(hands[:], 6, 6, 0, Scoring(rules))
    assert value == hand_value(hands, 2, 0, False, Scoring(rules))
