"""Exact endgame search: alpha-beta over one fully known deal (robots.md, "Where more
strength comes from").

Once enough tiles are on the line the hidden hands are small, so for each sampled deal
the rest of the hand can be solved exactly: team 0 maximises the hand's signed points
(positive: team 0 scores), team 1 minimises them, every seat seeing every hand (the
determinized game). A transposition table keyed on the four hands, the ends and the turn
shares work between the candidate moves of one deal.
"""

from __future__ import annotations

from engine.fast import CAPICUA, HIGH, LOW, OTHER, PIPS
from engine.robots.playout import _OPEN, Scoring, hand_value

__all__ = ["Solver"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_BY_PIPS = tuple((i, 1 << i) for i in sorted(range(28), key=lambda i: -PIPS[i]))
"""Tiles heaviest first as ``(index, bit)``: shedding pips early finds cut-offs sooner."""


class Solver:
    """Solves the rest of one deal exactly.

    Args:
        sc: the scoring.
        utility: optional per-outcome value (a function of the signed points); the
            search then maximises team 0's utility. Default: the signed points.

    Attributes:
        nodes: positions searched so far (for measuring).
    """

    __slots__ = ("nodes", "sc", "table")

    def __init__(self, sc: Scoring) -> None:
        self.sc = sc
        self.table: dict[int, tuple[int, int]] = {}
        self.nodes = 0

    def value(self, hands: list[int], left: int, right: int, turn: int) -> int:
        """The exact value (signed points for team 0) of the position, ``turn`` to move.

        ``hands`` is restored before returning.
        """
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        if not remaining & _OPEN[left * 7 + right]:
            return hand_value(hands, 2, turn, False, self.sc)
        return self._search(hands, left, right, turn, remaining, -10_000, 10_000, 0)

    def _search(
        self,
        hands: list[int],
        left: int,
        right: int,
        turn: int,
        remaining: int,
        alpha: int,
        beta: int,
        passes: int,
    ) -> int:
        self.nodes += 1
        hand = hands[turn]
        fits = hand & _OPEN[left * 7 + right]
        if not fits:
            return self._search(hands, left, right, (turn + 1) & 3, remaining, alpha, beta, passes)
        # One int key: hashing it is cheaper than hashing a tuple of four.
        key = (
            hands[0]
            | hands[1] << 28
            | hands[2] << 56
            | hands[3] << 84
            | (left * 7 + right) << 112
            | turn << 118
        )
        entry = self.table.get(key)
        if entry is not None:
            flag, v = entry
            if flag == _EXACT:
                return v
            if flag == _LOWER:
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            elif v <= alpha:
                return v
            else:
                beta = min(beta, v)
        a0, b0 = alpha, beta
        maximise = (turn & 1) == 0
        best = -100_000 if maximise else 100_000
        nxt = (turn + 1) & 3
        sc = self.sc
        for i, bit in _BY_PIPS:
            if not fits & bit:
                continue
            fits ^= bit
            other = OTHER[i]
            options: tuple[tuple[int, int], ...]
            if left == right:
                options = ((left, other[right]),)
            else:
                ol, orr = other[left], other[right]
                if ol >= 0 and orr >= 0:
                    options = ((ol, right), (left, orr)) if HIGH[i] != LOW[i] else ((ol, right),)
                elif ol >= 0:
                    options = ((ol, right),)
                else:
                    options = ((left, orr),)
            new_hand = hand ^ bit
            hands[turn] = new_hand
            rem = remaining ^ bit
            for nl, nr in options:
                if not new_hand:
                    v = hand_value(hands, 1, turn, CAPICUA[i * 49 + left * 7 + right], sc)
                elif not rem & _OPEN[nl * 7 + nr]:
                    v = hand_value(hands, 2, turn, False, sc)
                else:
                    v = self._search(hands, nl, nr, nxt, rem, alpha, beta, 0)
                if maximise:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
            hands[turn] = hand
            if alpha >= beta or not fits:
                break
        if best <= a0:
            self.table[key] = (_UPPER, best)
        elif best >= b0:
            self.table[key] = (_LOWER, best)
        else:
            self.table[key] = (_EXACT, best)
        return best
