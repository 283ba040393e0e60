"""What a seat knows, on bit masks, and deals of the hidden tiles consistent with it.

:class:`Knowledge` is built from a :class:`~engine.views.SeatView` only: the seat's own
tiles, the line, the tile counts and the passes (a seat that passed on ends ``l`` and
``r`` holds no tile showing ``l`` or ``r``; robots.md, "Monte Carlo"). :meth:`sample`
deals the hidden tiles to the other three seats at random, respecting their counts and
those voids (most constrained tiles first, each tile to a seat with probability
proportional to its free places, retrying on a dead end).
"""

from __future__ import annotations

import random

from engine.moves import Move, Side, ends_after
from engine.rules import Rules
from engine.tiles import NUMBER_MASKS, mask_of
from engine.views import SeatView

__all__ = ["Knowledge", "SamplingError"]

FULL = (1 << 28) - 1


class SamplingError(ValueError):
    """No deal of the hidden tiles fits what the seat saw (an inconsistent view)."""


class Knowledge:
    """A seat's knowledge of the current hand.

    Attributes:
        seat: the seat (to move).
        rules: the rule set.
        mine: mask of the seat's tiles.
        played: mask of the tiles on the line.
        hidden: mask of the tiles in the other three hands.
        left, right: the open ends (-1 before the opening).
        counts: tiles held per seat.
        forbidden: per seat, the mask of tiles it cannot hold (from its passes).
        score: the match score before this hand, by team.
        history: the hand's moves as ``(seat, Move)``.
    """

    __slots__ = (
        "_groups",
        "counts",
        "forbidden",
        "hidden",
        "history",
        "left",
        "mine",
        "played",
        "right",
        "rules",
        "score",
        "seat",
    )

    def __init__(self, view: SeatView) -> None:
        self.seat = view.seat
        self.rules: Rules = view.rules
        self.mine = mask_of(view.tiles)
        self.played = view.played_mask()
        self.hidden = FULL & ~self.played & ~self.mine
        if view.ends is None:
            self.left = self.right = -1
        else:
            self.left, self.right = view.ends
        self.counts = list(view.tile_counts)
        self.score = view.score
        self.history = view.history
        forbidden = [0, 0, 0, 0]
        for seat, numbers in enumerate(view.numbers_lacking()):
            for n in numbers:
                forbidden[seat] |= NUMBER_MASKS[n]
        self.forbidden = forbidden
        self._groups: list[tuple[int, tuple[int, ...]]] | None = None

    def observations(self, view: SeatView) -> list[tuple[int, int, int, int, int]]:
        """The other seats' past plays, for inference: ``(seat, left, right, index,
        later)`` with the ends before the play (-1, -1 for a free opening), the tile
        played and the mask of the tiles that seat played afterwards. A forced opening
        (the 6-6 under ``double_six``) tells nothing and is left out."""
        rows: list[tuple[int, int, int, int, int]] = []
        ends: tuple[int, int] | None = None
        for seat, move in view.history:
            tile = move.tile
            if tile is None:
                continue
            if ends is None:
                if seat != self.seat and view.opening_tile is not tile:
                    rows.append((seat, -1, -1, tile.index, 0))
                ends = (tile.high, tile.low)
                continue
            if seat != self.seat:
                rows.append((seat, ends[0], ends[1], tile.index, 0))
            ends = ends_after(ends, tile, move.side)
        later = [0, 0, 0, 0]
        out = []
        for seat, left, right, index, _ in reversed(rows):
            out.append((seat, left, right, index, later[seat]))
            later[seat] |= 1 << index
        out.reverse()
        return out

    def others(self) -> list[int]:
        """The three other seats, in turn order after this seat."""
        return [(self.seat + k) & 3 for k in (1, 2, 3)]

    def allowed(self, seat: int) -> int:
        """Mask of hidden tiles ``seat`` may hold."""
        return self.hidden & ~self.forbidden[seat]

    def _tile_groups(self) -> list[tuple[int, tuple[int, ...]]]:
        """Hidden tiles as ``(index, seats that may hold it)``, most constrained first."""
        if self._groups is None:
            others = self.others()
            allowed = [self.allowed(s) for s in range(4)]
            groups = []
            mask = self.hidden
            while mask:
                bit = mask & -mask
                mask ^= bit
                seats = tuple(s for s in others if allowed[s] & bit)
                groups.append((bit.bit_length() - 1, seats))
            groups.sort(key=lambda g: len(g[1]))
            self._groups = groups
        return self._groups

    def sample(self, rng: random.Random, tries: int = 200) -> list[int]:
        """A deal of the hidden tiles consistent with the counts and voids.

        Returns:
            Four hand masks by seat (this seat's own tiles included).

        Raises:
            SamplingError: no consistent deal was found (the view contradicts itself).
        """
        groups = self._tile_groups()
        counts = self.counts
        rand = rng.random
        for _ in range(tries):
            hands = [0, 0, 0, 0]
            hands[self.seat] = self.mine
            cap = counts[:]
            for index, seats in groups:
                n = len(seats)
                if n == 1:
                    s = seats[0]
                    if not cap[s]:
                        break
                elif n == 3:
                    a, b, c = seats
                    ca, cb = cap[a], cap[b]
                    r = rand() * (ca + cb + cap[c])
                    s = a if r < ca else (b if r < ca + cb else c)
                elif n == 2:
                    a, b = seats
                    ca, cb = cap[a], cap[b]
                    total = ca + cb
                    if not total:
                        break
                    s = a if rand() * total < ca else b
                else:
                    break
                cap[s] -= 1
                hands[s] |= 1 << index
            else:
                return hands
        found = self._search(rng)
        if found is None:
            raise SamplingError("no deal of the hidden tiles fits the passes and tile counts")
        return found

    def _search(self, rng: random.Random) -> list[int] | None:
        """A consistent deal by backtracking (seats tried in random order): the fallback
        when random dealing keeps reaching dead ends on tight constraints."""
        groups = self._tile_groups()
        hands = [0, 0, 0, 0]
        hands[self.seat] = self.mine
        cap = self.counts[:]
        budget = [20_000]

        def rec(k: int) -> bool:
            if k == len(groups):
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            index, seats = groups[k]
            order = list(seats)
            rng.shuffle(order)
            for s in order:
                if cap[s]:
                    cap[s] -= 1
                    hands[s] |= 1 << index
                    if rec(k + 1):
                        return True
                    cap[s] += 1
                    hands[s] ^= 1 << index
            return False

        return hands if rec(0) else None

    def legal(self) -> list[tuple[int, int]]:
        """The seat's legal moves as ``(index, side)`` (side 0 left, 1 right; -1 pass).

        The opening (``left < 0``) gives every tile with side 1.
        """
        hand = self.mine
        left, right = self.left, self.right
        out: list[tuple[int, int]] = []
        if left < 0:
            m = hand
            while m:
                bit = m & -m
                m ^= bit
                out.append((bit.bit_length() - 1, 1))
            return out
        fits = hand & (NUMBER_MASKS[left] | NUMBER_MASKS[right])
        if not fits:
            return [(-1, -1)]
        while fits:
            bit = fits & -fits
            fits ^= bit
            if left == right:
                out.append((bit.bit_length() - 1, 1))
                continue
            if bit & NUMBER_MASKS[left]:
                out.append((bit.bit_length() - 1, 0))
            if bit & NUMBER_MASKS[right]:
                out.append((bit.bit_length() - 1, 1))
        return out


def to_move(view: SeatView, index: int, side: int) -> Move:
    """The engine move for ``(index, side)`` in ``view`` (the one :meth:`legal_moves` lists)."""
    for move in view.legal_moves():
        if index < 0 and move.tile is None:
            return move
        if (
            move.tile is not None
            and move.tile.index == index
            and (move.side is None or move.side is (Side.LEFT if side == 0 else Side.RIGHT))
        ):
            return move
    raise ValueError(f"no legal move for tile index {index}, side {side}")
