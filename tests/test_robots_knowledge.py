from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, Match, Move, Side, Tile, seat_view
from engine.robots.knowledge import Knowledge, SamplingError, to_move
from engine.tiles import NUMBER_MASKS, mask_of


def _random_position(seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(PRESETS["venezolano"], rng)
    for _ in range(rng.randrange(0, 20)):
        if match.hand.is_over:
            break
        match = match.apply(rng.choice(match.hand.legal_moves()))
    return match


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000))
def test_sampled_deals_respect_counts_voids_and_the_seats_own_tiles(seed: int) -> None:
    match = _random_position(seed)
    if match.hand.is_over:
        return
    seat = match.hand.turn
    view = seat_view(match, seat)
    know = Knowledge(view)
    lacking = view.numbers_lacking()
    rng = random.Random(seed)
    for _ in range(5):
        hands = know.sample(rng)
        assert hands[seat] == mask_of(view.tiles)
        assert [h.bit_count() for h in hands] == list(view.tile_counts)
        assert hands[0] | hands[1] | hands[2] | hands[3] == ((1 << 28) - 1) & ~view.played_mask()
        assert (
            sum(h.bit_count() for h in hands)
            == (hands[0] | hands[1] | hands[2] | hands[3]).bit_count()
        )
        for s in range(4):
            for n in lacking[s]:
                assert not hands[s] & NUMBER_MASKS[n]
    # the true deal is one of the possible ones
    for s in range(4):
        assert not match.hand.hand_mask(s) & know.forbidden[s]


def test_sampling_is_reproducible_for_a_seed() -> None:
    match = _random_position(11)
    view = seat_view(match, match.hand.turn)
    a = Knowledge(view).sample(random.Random(5))
    b = Knowledge(view).sample(random.Random(5))
    assert a == b


def test_a_view_that_contradicts_itself_cannot_be_sampled() -> None:
    match = _random_position(3)
    view = seat_view(match, match.hand.turn)
    know = Knowledge(view)
    for s in know.others():
        know.forbidden[s] = (1 << 28) - 1  # nobody may hold anything
    with pytest.raises(SamplingError):
        know.sample(random.Random(0), tries=3)


def test_moves_map_back_to_the_engines_moves() -> None:
    match = _random_position(21)
    while match.hand.ends is None or match.hand.legal_moves()[0].tile is None:
        match = match.apply(match.hand.legal_moves()[0])
    view = seat_view(match, match.hand.turn)
    for move in view.legal_moves():
        assert move.tile is not None
        side = 0 if move.side is Side.LEFT else 1
        assert to_move(view, move.tile.index, side) == move
    with pytest.raises(ValueError):
        to_move(view, Tile(6, 6).index if Tile(6, 6) not in view.tiles else 0, 0)


def test_the_legal_list_matches_the_views() -> None:
    match = _random_position(8)
    view = seat_view(match, match.hand.turn)
    know = Knowledge(view)
    expected = []
    for m in view.legal_moves():
        if m.tile is None:
            expected.append((-1, -1))
        else:
            expected.append((m.tile.index, 0 if m.side is Side.LEFT else 1))
    if view.ends is not None:
        assert know.legal() == expected
    assert Move(None) not in view.legal_moves() or know.legal() == [(-1, -1)]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 100_000))
def test_the_backtracking_fallback_also_deals_consistent_hands(seed: int) -> None:
    match = _random_position(seed)
    if match.hand.is_over:
        return
    view = seat_view(match, match.hand.turn)
    know = Knowledge(view)
    hands = know._search(random.Random(seed))
    assert hands is not None
    assert [h.bit_count() for h in hands] == list(view.tile_counts)
    assert hands[0] | hands[1] | hands[2] | hands[3] == ((1 << 28) - 1) & ~view.played_mask()
    for s in range(4):
        assert not hands[s] & know.forbidden[s]
