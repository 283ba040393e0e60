"""The allocation-light hot path for playouts: a mutable hand on bit masks.

Robots run thousands of playouts per decision, so this module avoids objects per move:
a hand is four 28-bit masks, two end numbers and a turn. It follows exactly the rules of
:mod:`engine.hand` (rules.md, "The fixed core"); tests check both agree move for move.
Public code should use :class:`engine.hand.HandState`; robots use :class:`FastHand`.

Scoring is not written here: :meth:`FastHand.result` scores through the reference's
:class:`engine.hand.Scoring` and :func:`engine.hand.tranca_seat`, and the capicúa table
:data:`CAPICUA` is built from :func:`engine.hand.is_capicua`. Only the move loops (when a
hand ends, which tile was last) are bit-mask code of their own, checked equal to
:mod:`engine.hand` by the property tests in ``tests/test_fast.py``.

Tile indices are those of :data:`engine.tiles.ALL_TILES`; a side is ``0`` (left) or
``1`` (right).

Formats: this path plays only today's game, partnership double-six with four hands of
seven (:attr:`engine.rules.Rules.is_classic`). The other formats of rules.md
("Formats": individual play, the boneyard, double-nine) are played by
:class:`engine.hand.HandState`; :meth:`FastHand.result` and :func:`check_format` refuse
them with a :class:`FormatNotSupportedError` rather than score them wrongly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.hand import Scoring, is_capicua, tranca_seat
from engine.rules import Rules
from engine.tiles import ALL_TILES, NUMBER_MASKS, PIPS, pips_of_mask

__all__ = [
    "CAPICUA",
    "HIGH",
    "LOW",
    "OTHER",
    "PIPS",
    "FastHand",
    "FormatNotSupportedError",
    "check_format",
    "pips_of_mask",
]


class FormatNotSupportedError(ValueError):
    """The fast path was asked to play a format other than partnership double-six."""


def check_format(rules: Rules | Scoring) -> None:
    """Refuse a rule set the fast path cannot play (rules.md, "Formats").

    Raises:
        FormatNotSupportedError: the format is not partnership double-six with four
            hands of seven.
    """
    classic = rules.classic if isinstance(rules, Scoring) else rules.is_classic
    if not classic:
        name = "this format" if isinstance(rules, Scoring) else rules.format_name
        raise FormatNotSupportedError(
            f"the fast path plays only partnership double-six, not {name}:"
            " use engine.hand.HandState"
        )


HIGH: Final[tuple[int, ...]] = tuple(t.high for t in ALL_TILES)
LOW: Final[tuple[int, ...]] = tuple(t.low for t in ALL_TILES)
OTHER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(t.other(n) if t.has(n) else -1 for n in range(7)) for t in ALL_TILES
)
"""``OTHER[i][n]``: the half of tile ``i`` opposite ``n`` (-1 if ``n`` is not on it)."""

CAPICUA: Final[tuple[bool, ...]] = tuple(
    is_capicua(t, left, right) for t in ALL_TILES for left in range(7) for right in range(7)
)
"""``CAPICUA[49 * i + 7 * left + right]``: tile ``i`` ending a hand on ends ``left``/``right``
is a capicúa (:func:`engine.hand.is_capicua`, tabulated for the hot loops)."""


class FastHand:
    """A mutable hand position for playouts.

    Attributes:
        hands: four masks of the tiles each seat holds.
        left, right: the open ends (-1 before the opening tile).
        turn: the seat to move.
        last_placed: per seat, the play order of its latest tile (-1 if none), for the
            tranca winner's tie-break.
        placed: how many tiles are on the line.
        over: 0 while playing, 1 after a domino, 2 after a tranca.
        last_seat: the seat that played the last tile.
        capicua: whether the ending domino was a capicúa.
    """

    __slots__ = (
        "capicua",
        "hands",
        "last_placed",
        "last_seat",
        "left",
        "over",
        "placed",
        "right",
        "turn",
    )

    def __init__(
        self,
        hands: list[int],
        left: int = -1,
        right: int = -1,
        turn: int = 0,
        placed: int = 0,
        last_placed: list[int] | None = None,
    ) -> None:
        self.hands = hands
        self.left = left
        self.right = right
        self.turn = turn
        self.placed = placed
        self.last_placed = last_placed if last_placed is not None else [-1, -1, -1, -1]
        self.over = 0
        self.last_seat = -1
        self.capicua = False

    def copy(self) -> FastHand:
        new = FastHand(
            self.hands[:], self.left, self.right, self.turn, self.placed, self.last_placed[:]
        )
        new.over = self.over
        new.last_seat = self.last_seat
        new.capicua = self.capicua
        return new

    def playable(self) -> int:
        """Mask of the tiles the seat to move can play (all its tiles before the opening)."""
        if self.left < 0:
            return self.hands[self.turn]
        return self.hands[self.turn] & (NUMBER_MASKS[self.left] | NUMBER_MASKS[self.right])

    def play(self, index: int, side: int) -> None:
        """Play tile ``index`` on ``side`` (0 left, 1 right) for the seat to move.

        No checks: the caller plays a tile from :meth:`playable` on an end it fits.
        """
        turn = self.turn
        hands = self.hands
        bit = 1 << index
        left = self.left
        right = self.right
        if left < 0:
            self.left = HIGH[index]
            self.right = LOW[index]
        elif side == 0:
            self.left = OTHER[index][left]
        else:
            self.right = OTHER[index][right]
        hand = hands[turn] & ~bit
        hands[turn] = hand
        self.last_placed[turn] = self.placed
        self.placed += 1
        self.last_seat = turn
        if not hand:
            self.over = 1
            self.capicua = left >= 0 and CAPICUA[index * 49 + left * 7 + right]
            return
        # tranca on bit masks; checked equal to engine/hand.py by the property test (test_fast)
        open_mask = NUMBER_MASKS[self.left] | NUMBER_MASKS[self.right]
        if not ((hands[0] | hands[1] | hands[2] | hands[3]) & open_mask):
            self.over = 2
            return
        self.turn = (turn + 1) & 3

    def pass_turn(self) -> None:
        """The seat to move passes (the caller checked it has nothing to play)."""
        self.turn = (self.turn + 1) & 3

    def sides_for(self, index: int) -> int:
        """Which ends tile ``index`` fits: bit 0 left, bit 1 right (3: both, differently).

        When both ends show the same number only the right end is reported.
        """
        left = self.left
        if left < 0:
            return 2
        other = OTHER[index]
        right = self.right
        if left == right:
            return 2 if other[left] >= 0 else 0
        return (1 if other[left] >= 0 else 0) | (2 if other[right] >= 0 else 0)

    def result(self, rules: Rules | Scoring) -> tuple[int, int, int]:
        """``(winner_team, winner_seat, points)`` of a finished hand; team -1 when tied.

        Scored by :class:`engine.hand.Scoring` and :func:`engine.hand.tranca_seat`, as
        :meth:`engine.hand.HandState.apply` scores (rules.md, "Points", "Ties and edge
        cases"). ``rules`` may be a :class:`~engine.hand.Scoring` already built from them.

        Raises:
            FormatNotSupportedError: the rules are not partnership double-six.
        """
        sc = rules if isinstance(rules, Scoring) else Scoring(rules)
        if not sc.classic:
            check_format(rules)
        hands = self.hands
        p0 = pips_of_mask(hands[0])
        p1 = pips_of_mask(hands[1])
        p2 = pips_of_mask(hands[2])
        p3 = pips_of_mask(hands[3])
        if self.over == 1:
            seat = self.last_seat
            team = seat & 1
            return (team, seat, sc.points(p0, p1, p2, p3, team, self.capicua))
        team = sc.blocked_team(p0, p1, p2, p3)
        if team < 0:
            return (-1, -1, 0)
        seat = tranca_seat(team, (p0, p1, p2, p3), self.last_placed)
        return (team, seat, sc.points(p0, p1, p2, p3, team, False))

    def random_playout(self, rand: Callable[[], float]) -> None:
        """Play uniformly random legal moves to the end of the hand.

        ``rand`` is a bound ``random.Random.random`` (an injected generator). The loop
        is inlined (no method call per move): this is the robots' hottest path.
        """
        if self.over:
            return
        hands = self.hands
        nm = NUMBER_MASKS
        other_t = OTHER
        last_placed = self.last_placed
        left = self.left
        right = self.right
        turn = self.turn
        placed = self.placed
        everyone = hands[0] | hands[1] | hands[2] | hands[3]
        while True:
            hand = hands[turn]
            if left < 0:
                mask = hand
            else:
                mask = hand & (nm[left] | nm[right])
                if not mask:
                    turn = (turn + 1) & 3
                    continue
            n = mask.bit_count()
            if n > 1:
                k = int(rand() * n)
                while k:
                    mask &= mask - 1
                    k -= 1
            bit = mask & -mask
            index = bit.bit_length() - 1
            hand ^= bit
            hands[turn] = hand
            everyone ^= bit
            last_placed[turn] = placed
            placed += 1
            if left < 0:
                left = HIGH[index]
                right = LOW[index]
            else:
                other = other_t[index]
                on_left = other[left]
                if not hand:
                    self.capicua = CAPICUA[index * 49 + left * 7 + right]
                if on_left >= 0 and (other[right] < 0 or left == right or rand() < 0.5):
                    left = on_left
                else:
                    right = other[right]
            # domino/tranca on bit masks; checked equal to engine/hand.py by the property test
            if not hand:
                self.over = 1
                break
            if not everyone & (nm[left] | nm[right]):
                self.over = 2
                break
            turn = (turn + 1) & 3
        self.left = left
        self.right = right
        self.turn = turn
        self.placed = placed
        self.last_seat = turn
