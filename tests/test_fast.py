from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.fast import FastHand, pips_of_mask
from engine.hand import HandState, first_hand_opening
from engine.moves import PASS, Move, Side
from engine.rules import PRESETS, Rules
from engine.tiles import ALL_TILES, Tile, mask_of

rule_sets = st.builds(
    Rules,
    counting=st.sampled_from(["opponents", "all"]),
    blocked_winner=st.sampled_from(["team", "individual"]),
    capicua_bonus=st.sampled_from([0, 25]),
)


def test_pips_of_a_mask_is_the_sum_of_its_tiles() -> None:
    rng = random.Random(0)
    for _ in range(200):
        tiles = rng.sample(ALL_TILES, rng.randrange(29))
        assert pips_of_mask(mask_of(tiles)) == sum(t.pips for t in tiles)


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_the_fast_hand_plays_and_scores_exactly_like_the_hand_state(
    rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    deal, starter, _ = first_hand_opening(rules, rng)
    hand = HandState.start(rules, deal, starter, opening_tile=Tile(6, 6))
    fast = FastHand([mask_of(h) for h in deal], turn=starter)
    while not hand.is_over:
        assert fast.over == 0 and fast.turn == hand.turn
        legal = hand.legal_moves()
        playable = fast.playable()
        if hand.ends is not None:  # the opener is restricted to 6-6 by the match, not the hand
            assert {m.tile.index for m in legal if m.tile is not None} == {
                i for i in range(28) if playable >> i & 1
            }
        move = rng.choice(legal)
        hand = hand.apply(move)
        if move is PASS or move.tile is None:
            fast.pass_turn()
        else:
            index = move.tile.index
            sides = fast.sides_for(index)
            side = 0 if move.side is Side.LEFT else 1
            assert sides & (1 << side)
            fast.play(index, side)
        if hand.ends is not None:
            assert (fast.left, fast.right) == hand.ends
    outcome = hand.outcome
    assert outcome is not None
    team, seat, points = fast.result(rules)
    assert (None if team < 0 else team) == outcome.winner_team
    assert (None if seat < 0 else seat) == outcome.winner_seat
    assert points == outcome.points
    assert fast.capicua == outcome.capicua


def test_a_random_playout_always_ends_with_every_tile_accounted_for() -> None:
    rng = random.Random(5)
    rules = PRESETS["venezolano"]
    for _ in range(300):
        deal, starter, _ = first_hand_opening(rules, rng)
        hands = [mask_of(h) for h in deal]
        fast = FastHand(hands[:], turn=starter)
        fast.random_playout(rng.random)
        assert fast.over in (1, 2)
        left = sum(h.bit_count() for h in fast.hands)
        assert left + fast.placed == 28
        team, _, points = fast.result(rules)
        assert team in (-1, 0, 1) and points >= 0


def test_a_copy_is_independent_of_the_original() -> None:
    deal, starter, _ = first_hand_opening(PRESETS["venezolano"], random.Random(1))
    fast = FastHand([mask_of(h) for h in deal], turn=starter)
    copy = fast.copy()
    copy.random_playout(random.Random(2).random)
    assert fast.placed == 0 and copy.placed > 0
    assert Move(Tile(6, 6)).tile is Tile(6, 6)
