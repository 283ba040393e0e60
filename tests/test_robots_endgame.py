from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS
from engine.fast import HIGH, LOW, OTHER, FastHand
from engine.robots.endgame import Solver
from engine.robots.playout import _OPEN, Scoring, hand_value


def _minimax(hands: list[int], left: int, right: int, turn: int, sc: Scoring) -> int:
    """Plain minimax without pruning or table (team 0 maximises)."""
    fits = hands[turn] & _OPEN[left * 7 + right]
    if not fits:
        return _minimax(hands, left, right, (turn + 1) & 3, sc)
    values = []
    for i in range(28):
        if not fits >> i & 1:
            continue
        ends = set()
        if OTHER[i][left] >= 0:
            ends.add((OTHER[i][left], right))
        if OTHER[i][right] >= 0:
            ends.add((left, OTHER[i][right]))
        for nl, nr in ends:
            h = hands[:]
            h[turn] ^= 1 << i
            if not h[turn]:
                capicua = HIGH[i] != LOW[i] and OTHER[i][left] >= 0 and OTHER[i][right] >= 0
                values.append(hand_value(h, 1, turn, capicua, sc))
            elif not (h[0] | h[1] | h[2] | h[3]) & _OPEN[nl * 7 + nr]:
                values.append(hand_value(h, 2, turn, False, sc))
            else:
                values.append(_minimax(h, nl, nr, (turn + 1) & 3, sc))
    return max(values) if turn % 2 == 0 else min(values)


def _endgame(seed: int, in_hands: int) -> FastHand:
    rng = random.Random(seed)
    tiles = list(range(28))
    rng.shuffle(tiles)
    fh = FastHand([sum(1 << t for t in tiles[7 * s : 7 * s + 7]) for s in range(4)], turn=0)
    while not fh.over and sum(h.bit_count() for h in fh.hands) > in_hands:
        mask = fh.playable()
        if not mask:
            fh.pass_turn()
            continue
        i = rng.choice([k for k in range(28) if mask >> k & 1])
        sides = fh.sides_for(i)
        fh.play(i, 0 if sides == 1 else 1)
    return fh


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(sorted(PRESETS)))
def test_the_solver_finds_the_minimax_value(seed: int, preset: str) -> None:
    fh = _endgame(seed, 9)
    if fh.over:
        return
    sc = Scoring(PRESETS[preset])
    hands = fh.hands[:]
    solver = Solver(sc)
    assert solver.value(hands, fh.left, fh.right, fh.turn) == _minimax(
        fh.hands[:], fh.left, fh.right, fh.turn, sc
    )
    assert hands == fh.hands  # restored
    # a second question on the same table agrees
    assert solver.value(hands, fh.left, fh.right, fh.turn) == _minimax(
        fh.hands[:], fh.left, fh.right, fh.turn, sc
    )
