"""Fast heuristic play on bit masks: the policy every robot level builds on.

The heuristic (robots.md, "The heuristic"): a move scores the tile's pips, plus 4 for a
double, plus 3 for every other tile left in hand that still fits one of the open ends
after the move ("la ficha más acompañada"). The best score wins; ties go to the first
move in the engine's stable order (tiles ascending, left before right).

Playouts run this policy for all four seats to the end of the hand, on the masks of
:mod:`engine.fast` (tile indices of :data:`engine.tiles.ALL_TILES`). Choices are memoised
per (hand, ends): the same small positions recur across thousands of playouts.

A playout's end is scored by the reference, :class:`engine.hand.Scoring` (re-exported
here); the capicúa test is :data:`engine.fast.CAPICUA`, built from
:func:`engine.hand.is_capicua`.
"""

from __future__ import annotations

from typing import Final

from engine.fast import CAPICUA, HIGH, LOW, OTHER, PIPS, FastHand
from engine.hand import Scoring
from engine.tiles import NUMBER_MASKS, pips_of_mask

__all__ = [
    "BASE_SCORE",
    "FULL_MASK",
    "Scoring",
    "best_move",
    "best_opening",
    "hand_value",
    "move_scores",
    "playout",
]

FULL_MASK: Final[int] = (1 << 28) - 1
BASE_SCORE: Final[tuple[int, ...]] = tuple(
    PIPS[i] + (4 if HIGH[i] == LOW[i] else 0) for i in range(28)
)
"""The move score's part that depends on the tile only: pips, +4 for a double."""

_OPEN: Final[tuple[int, ...]] = tuple(
    NUMBER_MASKS[a] | NUMBER_MASKS[b] for a in range(7) for b in range(7)
)
"""``_OPEN[7 * left + right]``: the tiles that fit ends ``left``/``right``."""

_MEMO: dict[int, tuple[int, int, int, int] | None] = {}
_MEMO_LIMIT: Final[int] = 120_000
"""Entries per memo (about 30 MB each when full); a full memo is cleared and refilled."""
_MISSING: Final[tuple[int, int, int, int]] = (-1, -1, -1, -1)


_OPTIONS: Final[tuple[tuple[tuple[int, int, tuple[int, int, int, int]], ...], ...]] = tuple(
    tuple(
        (BASE_SCORE[i], _OPEN[7 * nl + nr], (i, side, nl, nr))
        for side, nl, nr in (
            ((1, left, OTHER[i][right]),)
            if left == right
            else ((0, OTHER[i][left], right), (1, left, OTHER[i][right]))
        )
        if nl >= 0 and nr >= 0
    )
    for i in range(28)
    for left in range(7)
    for right in range(7)
)
"""``_OPTIONS[49 * i + 7 * left + right]``: the placements of tile ``i`` on ends
``left``/``right`` as ``(base score, tiles fitting the new ends, (i, side, new left,
new right))``, left before right, so the heuristic's inner loop only looks them up."""


def best_move(hand: int, left: int, right: int) -> tuple[int, int, int, int] | None:
    """The heuristic's move for ``hand`` on open ends ``left``/``right``.

    Returns:
        ``(index, side, new_left, new_right)`` (side 0 left, 1 right; equal ends always
        give the right side), or None when nothing fits (a pass).
    """
    key = hand | ((left * 7 + right) << 28)
    found = _MEMO.get(key, _MISSING)
    if found is not _MISSING:
        return found
    return _best_move(hand, left * 7 + right, key)


def _best_move(hand: int, ends: int, key: int) -> tuple[int, int, int, int] | None:
    """:func:`best_move` on a memo miss (``ends`` is ``7 * left + right``, ``key`` the
    memo key), remembered."""
    fits = hand & _OPEN[ends]
    best: tuple[int, int, int, int] | None = None
    best_score = -1
    options = _OPTIONS
    while fits:
        bit = fits & -fits
        fits ^= bit
        rest = hand ^ bit
        for base, company, move in options[49 * (bit.bit_length() - 1) + ends]:
            score = base + 3 * (rest & company).bit_count()
            if score > best_score:
                best_score = score
                best = move
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = best
    return best


_SCORES: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}


def move_scores(hand: int, left: int, right: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The heuristic's score of every legal move of ``hand`` on ends ``left``/``right``
    (``left < 0``: an opening, any tile).

    Returns:
        ``(best score, ((tile index, score), ...))``: one entry per tile, with the better
        of its two sides (the sides matter to :func:`best_move`, not to inference).
    """
    key = hand | ((left * 7 + right) << 28) if left >= 0 else hand | (63 << 28)
    found = _SCORES.get(key)
    if found is not None:
        return found
    nm = NUMBER_MASKS
    out = []
    top = -1
    if left < 0:
        cands = hand
    else:
        cands = hand & _OPEN[left * 7 + right]
    while cands:
        bit = cands & -cands
        cands ^= bit
        i = bit.bit_length() - 1
        rest = hand ^ bit
        other = OTHER[i]
        if left < 0:
            score = BASE_SCORE[i] + 3 * (rest & (nm[HIGH[i]] | nm[LOW[i]])).bit_count()
        else:
            score = -1
            nl = other[left]
            if nl >= 0:
                score = BASE_SCORE[i] + 3 * (rest & (nm[nl] | nm[right])).bit_count()
            nr = other[right]
            if nr >= 0:
                score = max(score, BASE_SCORE[i] + 3 * (rest & (nm[left] | nm[nr])).bit_count())
        out.append((i, score))
        top = max(top, score)
    result = (top, tuple(out))
    if len(_SCORES) >= _MEMO_LIMIT:
        _SCORES.clear()
    _SCORES[key] = result
    return result


def best_opening(hand: int, allowed: int | None = None) -> int:
    """The heuristic's opening tile index from ``hand`` (restricted to ``allowed``)."""
    cands = hand if allowed is None else hand & allowed
    best_i, best_score = -1, -1
    nm = NUMBER_MASKS
    while cands:
        bit = cands & -cands
        cands ^= bit
        i = bit.bit_length() - 1
        rest = hand ^ bit
        score = BASE_SCORE[i] + 3 * (rest & (nm[HIGH[i]] | nm[LOW[i]])).bit_count()
        if score > best_score:
            best_i, best_score = i, score
    return best_i


def hand_value(hands: list[int], over: int, last_seat: int, capicua: bool, sc: Scoring) -> int:
    """Points of a finished hand, signed for team 0 (positive: team 0 scored).

    ``over`` is 1 after a domino by ``last_seat``, 2 after a tranca; scored by
    :class:`engine.hand.Scoring` (rules.md, "Points", "Ties and edge cases").
    """
    p0 = pips_of_mask(hands[0])
    p1 = pips_of_mask(hands[1])
    p2 = pips_of_mask(hands[2])
    p3 = pips_of_mask(hands[3])
    if over == 1:
        team = last_seat & 1
    else:
        team = sc.blocked_team(p0, p1, p2, p3)
        if team < 0:
            return 0
        capicua = False
    points = sc.points(p0, p1, p2, p3, team, capicua)
    return points if team == 0 else -points


def playout(hands: list[int], left: int, right: int, turn: int, sc: Scoring) -> int:
    """Play the heuristic for all four seats to the hand's end; ``hands`` is consumed.

    Args:
        hands: the four seats' masks (mutated).
        left, right: the open ends (the line is open: both >= 0).
        turn: the seat to move.
        sc: the scoring.

    Returns:
        The hand's points signed for team 0 (see :func:`hand_value`).
    """
    # Domino/tranca on bit masks; checked equal to engine/hand.py by the property test.
    remaining = hands[0] | hands[1] | hands[2] | hands[3]
    memo = _MEMO
    opens = _OPEN
    if not remaining & opens[left * 7 + right]:
        return hand_value(hands, 2, turn, False, sc)
    while True:
        hand = hands[turn]
        key = hand | ((left * 7 + right) << 28)
        choice = memo.get(key, _MISSING)
        if choice is _MISSING:
            choice = _best_move(hand, left * 7 + right, key)
        if choice is None:
            turn = (turn + 1) & 3
            continue
        i, _side, nl, nr = choice
        bit = 1 << i
        hand ^= bit
        hands[turn] = hand
        if not hand:
            return hand_value(hands, 1, turn, CAPICUA[i * 49 + left * 7 + right], sc)
        remaining ^= bit
        left, right = nl, nr
        if not remaining & opens[left * 7 + right]:
            return hand_value(hands, 2, turn, False, sc)
        turn = (turn + 1) & 3


def playout_fast_hand(fh: FastHand, sc: Scoring) -> int:
    """:func:`playout` from a :class:`~engine.fast.FastHand` position (a copy is consumed)."""
    return playout(fh.hands[:], fh.left, fh.right, fh.turn, sc)
