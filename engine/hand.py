"""One hand (mano): the deal, the opener, the line, legal moves and the outcome.

Implements rules.md "The fixed core" and "Ties and edge cases". A :class:`HandState`
is immutable: :meth:`HandState.apply` returns a new state. Randomness comes only from an
injected :class:`random.Random` (:func:`deal_tiles`, :func:`first_hand_opening`).

This module is the reference for scoring: :class:`Scoring`, :func:`tranca_seat` and
:func:`is_capicua` are the one home of rules.md's "Points" rules. The fast path
(:mod:`engine.fast`) and the robots' playouts (:mod:`engine.robots.playout`) score through
them too; their move loops keep their own bit-mask arithmetic, and property tests check
them equal to :class:`HandState` on random hands in every preset.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError, NotYourTurnError
from engine.moves import PASS, Move, Side
from engine.rules import Rules
from engine.tiles import (
    ALL_TILES,
    DOUBLES_MASK,
    NUMBER_MASKS,
    Tile,
    mask_of,
    pips_of_mask,
    tiles_of,
)

__all__ = [
    "Deal",
    "HandOutcome",
    "HandState",
    "Placement",
    "Scoring",
    "Termination",
    "deal_problem",
    "deal_tiles",
    "first_hand_opening",
    "is_capicua",
    "team_of",
    "tranca_seat",
]

Deal = tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]
"""Four hands of seven tiles, by seat (seats 0 and 2 are team 0; 1 and 3 are team 1)."""

SIX_SIX = Tile(6, 6)


def team_of(seat: int) -> int:
    """The partnership of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat & 1


class Termination(enum.Enum):
    """How a hand ended."""

    DOMINO = "domino"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on the line, as drawn left to right.

    Attributes:
        tile: the tile.
        left: the pip shown toward the line's left end.
        right: the pip shown toward the line's right end (equal to ``left`` for a double,
            which is drawn across the line).
        seat: who played it.
        order: its position in play order (0 = the opening tile).
    """

    tile: Tile
    left: int
    right: int
    seat: int
    order: int


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """The result of a finished hand (rules.md, "Points" and "Ties and edge cases").

    Attributes:
        end: domino or blocked.
        winner_team: 0, 1, or None for a tied tranca (nothing scored).
        winner_seat: the hand's winner as rules.md defines it, or None.
        points: points for the winning team, capicúa bonus included (0 when tied).
        capicua: whether the domino was a capicúa (also when the bonus is 0).
        pips_left: pips left in each seat's hand.
        last_seat: the seat that played the last tile.
    """

    end: Termination
    winner_team: int | None
    winner_seat: int | None
    points: int
    capicua: bool
    pips_left: tuple[int, int, int, int]
    last_seat: int

    @property
    def team_pips(self) -> tuple[int, int]:
        """Pips left per team ``(team 0, team 1)``: what the ``team`` tranca rule compares."""
        p = self.pips_left
        return (p[0] + p[2], p[1] + p[3])


class Scoring:
    """How a finished hand is scored under a rule set (rules.md, "Points", "Ties and edge
    cases"): the one home of the counting, tranca-winner and capicúa-bonus rules.

    The rule set's scoring options are flattened to plain attributes so the robots' hot
    loops can call it per playout. Pips are passed per seat (``p0``..``p3``), not as a
    tuple, for the same reason.

    Attributes:
        all_pips: ``counting == "all"`` (else the opponents' pips).
        individual: ``blocked_winner == "individual"`` (else team totals).
        capicua_bonus: points added to a capicúa domino.
    """

    __slots__ = ("all_pips", "capicua_bonus", "individual")

    def __init__(self, rules: Rules) -> None:
        self.all_pips = rules.counting == "all"
        self.individual = rules.blocked_winner == "individual"
        self.capicua_bonus = rules.capicua_bonus

    def blocked_team(self, p0: int, p1: int, p2: int, p3: int) -> int:
        """The team that wins a tranca with these pips left per seat; -1 for a tie.

        ``team``: fewer pips in total wins, equal totals tie. ``individual``: the team of
        the single lowest player wins; lowest players of both teams tie, partners do not.
        """
        if self.individual:
            low = min(p0, p1, p2, p3)
            a = p0 == low or p2 == low
            b = p1 == low or p3 == low
            if a and b:
                return -1
            return 0 if a else 1
        ta, tb = p0 + p2, p1 + p3
        if ta == tb:
            return -1
        return 0 if ta < tb else 1

    def points(self, p0: int, p1: int, p2: int, p3: int, team: int, capicua: bool) -> int:
        """Points for ``team``, the winner, with these pips left: the opponents' pips or
        all pips (``counting``), plus the bonus for a capicúa domino."""
        points = p0 + p1 + p2 + p3 if self.all_pips else (p1 + p3 if team == 0 else p0 + p2)
        return points + self.capicua_bonus if capicua else points


def tranca_seat(team: int, pips: Sequence[int], last_placed: Sequence[int]) -> int:
    """The winner of a tranca won by ``team`` (rules.md, "Ties and edge cases"): its
    player with fewer pips; tie: the one of the two who placed a tile most recently
    (``last_placed``: per seat, the play order of its latest tile, -1 for none)."""
    a, b = team, team + 2
    if pips[a] != pips[b]:
        return a if pips[a] < pips[b] else b
    return a if last_placed[a] > last_placed[b] else b


def is_capicua(tile: Tile, left: int, right: int) -> bool:
    """Whether ``tile``, ending a hand on open ends ``left``/``right``, is a capicúa
    (rules.md, "Capicúa"): it fits either end; a double never counts."""
    return not tile.is_double and tile.has(left) and tile.has(right)


def deal_problem(deal: Sequence[Sequence[Tile]]) -> str | None:
    """Why ``deal`` is not four hands of seven of the 28 distinct tiles, or None."""
    if len(deal) != 4:
        return f"the deal has {len(deal)} hands, not 4"
    seen: set[Tile] = set()
    for seat, hand in enumerate(deal):
        if len(hand) != 7:
            return f"seat {seat} is dealt {len(hand)} tiles, not 7"
        for tile in hand:
            if tile in seen:
                return f"the deal repeats {tile}"
            seen.add(tile)
    return None


def redeal_seat(rules: Rules, deal: Sequence[Sequence[Tile]]) -> int | None:
    """The first seat whose doubles annul the deal under ``redeal_doubles``, or None."""
    if rules.redeal_doubles is None:
        return None
    for seat, hand in enumerate(deal):
        if sum(1 for t in hand if t.is_double) >= rules.redeal_doubles:
            return seat
    return None


def deal_tiles(rng: random.Random, rules: Rules) -> Deal:
    """Shuffle and deal 7 tiles to each seat, redealing as ``redeal_doubles`` says.

    Returns four sorted hands (rules.md, "Deal" and the ``redeal_doubles`` option).
    """
    tiles = list(ALL_TILES)
    while True:
        rng.shuffle(tiles)
        deal: Deal = (
            tuple(sorted(tiles[0:7])),
            tuple(sorted(tiles[7:14])),
            tuple(sorted(tiles[14:21])),
            tuple(sorted(tiles[21:28])),
        )
        if redeal_seat(rules, deal) is None:
            return deal


def first_hand_opening(rules: Rules, rng: random.Random) -> tuple[Deal, int, list[Tile] | None]:
    """Deal the first hand and choose its opener (rules.md, ``first_starter``).

    Returns ``(deal, starter, drawn)``: ``drawn`` is the tile each seat drew under
    ``draw`` (the highest pip total opens; tie: the tile with the higher half), else None.
    """
    drawn: list[Tile] | None = None
    if rules.first_starter == "draw":
        drawn = rng.sample(ALL_TILES, 4)
    deal = deal_tiles(rng, rules)
    if rules.first_starter == "double_six":
        starter = next(s for s in range(4) if SIX_SIX in deal[s])
    elif rules.first_starter == "random":
        starter = rng.randrange(4)
    else:
        assert drawn is not None
        starter = max(range(4), key=lambda s: (drawn[s].pips, drawn[s].high))
    return deal, starter, drawn


class HandState:
    """An immutable position of one hand.

    Attributes:
        rules: the rule set.
        deal: what each seat was dealt (sorted).
        starter: the seat that opens.
        opening_tile: the tile the opener must play (6-6 under ``double_six`` in the
            first hand), or None for any tile.
        line: the tiles on the line, left to right.
        ends: the open ends ``(left, right)``, or None before the opening tile.
        turn: the seat to move (meaningless once the hand is over).
        history: every move in order, passes included, as ``(seat, move)``.
        outcome: the result once the hand is over, else None.
    """

    __slots__ = (
        "_hands",
        "_last_placed",
        "deal",
        "ends",
        "history",
        "line",
        "opening_tile",
        "outcome",
        "rules",
        "starter",
        "turn",
    )

    rules: Rules
    deal: Deal
    starter: int
    opening_tile: Tile | None
    line: tuple[Placement, ...]
    ends: tuple[int, int] | None
    turn: int
    history: tuple[tuple[int, Move], ...]
    outcome: HandOutcome | None
    _hands: tuple[int, int, int, int]
    _last_placed: tuple[int, int, int, int]

    @classmethod
    def start(
        cls,
        rules: Rules,
        deal: Sequence[Sequence[Tile]],
        starter: int,
        *,
        opening_tile: Tile | None = None,
    ) -> HandState:
        """A new hand with ``starter`` to open.

        Raises:
            ValueError: a bad deal, starter, or an opening tile the starter lacks.
        """
        problem = deal_problem(deal)
        if problem:
            raise ValueError(problem)
        if starter not in (0, 1, 2, 3):
            raise ValueError(f"starter must be a seat 0..3, not {starter!r}")
        if opening_tile is not None and opening_tile not in deal[starter]:
            raise ValueError(f"seat {starter} does not hold {opening_tile}")
        state = object.__new__(cls)
        state.rules = rules
        state.deal = tuple(tuple(sorted(h)) for h in deal)  # type: ignore[assignment]
        state.starter = starter
        state.opening_tile = opening_tile
        state.line = ()
        state.ends = None
        state.turn = starter
        state.history = ()
        state.outcome = None
        state._hands = tuple(mask_of(h) for h in deal)  # type: ignore[assignment]
        state._last_placed = (-1, -1, -1, -1)
        return state

    def _copy(self) -> HandState:
        new = object.__new__(HandState)
        for name in HandState.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    # -- queries ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def tiles(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds now, ascending."""
        return tiles_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The 28-bit mask of the tiles ``seat`` holds (for fast paths)."""
        return self._hands[seat]

    def tile_counts(self) -> tuple[int, int, int, int]:
        """How many tiles each seat holds."""
        h = self._hands
        return (h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count())

    def pips(self, seat: int) -> int:
        """Pips in ``seat``'s hand."""
        return pips_of_mask(self._hands[seat])

    @property
    def tiles_played(self) -> int:
        return len(self.line)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, in a stable order.

        Tiles ascend; a tile that fits both ends differently gives two moves (left, then
        right); when both ends show the same number the single move goes right
        (records.md). A pass appears only when nothing fits. Empty once the hand is over.
        """
        if self.outcome is not None:
            return []
        return legal_moves_for(self._hands[self.turn], self.ends, self.opening_tile)

    def can_play(self, seat: int) -> bool:
        """True when ``seat`` holds a tile that fits (any tile before the opening)."""
        if self.ends is None:
            return bool(self._hands[seat])
        left, right = self.ends
        return bool(self._hands[seat] & (NUMBER_MASKS[left] | NUMBER_MASKS[right]))

    def resolve(self, move: Move, seat: int | None = None) -> Move:
        """Check ``move`` for the seat to move and fill in its side.

        A tile without a side gets the only end it fits (the right end when both ends
        show the same number). Raises rather than guessing.

        Raises:
            NotYourTurnError: ``seat`` is given and is not the seat to move.
            IllegalMoveError: the move is not legal now (see its ``reason``).
        """
        if self.outcome is not None:
            raise IllegalMoveError(
                "the hand is over", reason="hand_over", seat=seat, move=move.text()
            )
        turn = self.turn
        if seat is not None and seat != turn:
            raise NotYourTurnError(seat, turn)
        tile = move.tile
        if tile is None:
            if self.ends is None:
                raise IllegalMoveError(
                    f"seat {turn} opens the hand, cannot pass",
                    reason="must_play",
                    seat=turn,
                    move="pass",
                    detail={"playable": list(self.tiles(turn))},
                )
            if self.can_play(turn):
                playable = [m.tile for m in self.legal_moves() if m.tile is not None]
                ends = self.ends
                first = playable[0]
                assert first is not None
                assert ends is not None
                end_number = ends[0] if first.has(ends[0]) else ends[1]
                raise IllegalMoveError(
                    f"seat {turn} must play (holds {first} for the {end_number} end), cannot pass",
                    reason="must_play",
                    seat=turn,
                    move="pass",
                    detail={"tile": first, "end": end_number, "playable": playable},
                )
            return PASS
        if not self._hands[turn] & tile.mask:
            raise IllegalMoveError(
                f"seat {turn} does not hold {tile}", reason="not_held", seat=turn, move=move.text()
            )
        if self.ends is None:
            if self.opening_tile is not None and tile is not self.opening_tile:
                raise IllegalMoveError(
                    f"seat {turn} must open with {self.opening_tile}",
                    reason="must_open_with",
                    seat=turn,
                    move=move.text(),
                    detail={"tile": self.opening_tile},
                )
            return Move(tile)
        left, right = self.ends
        on_left, on_right = tile.has(left), tile.has(right)
        detail: dict[str, object] = {"ends": (left, right), "tile": tile}
        if not on_left and not on_right:
            raise IllegalMoveError(
                f"{tile} fits neither end (ends {left} and {right})",
                reason="does_not_fit",
                seat=turn,
                move=move.text(),
                detail=detail,
            )
        side = move.side
        if side is None:
            if on_left and on_right and left != right:
                raise IllegalMoveError(
                    f"{tile} fits both ends ({left} and {right}): the side is required",
                    reason="side_missing",
                    seat=turn,
                    move=move.text(),
                    detail=detail,
                )
            side = Side.RIGHT if on_right else Side.LEFT
        elif (side is Side.LEFT and not on_left) or (side is Side.RIGHT and not on_right):
            raise IllegalMoveError(
                f"{tile} does not fit the {side.value} end (ends {left} and {right})",
                reason="side_does_not_fit",
                seat=turn,
                move=move.text(),
                detail=detail,
            )
        return Move(tile, side)

    # -- transitions -----------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> HandState:
        """The state after ``move`` by the seat to move (checked as :meth:`resolve`).

        Raises:
            NotYourTurnError, IllegalMoveError: see :meth:`resolve`.
        """
        move = self.resolve(move, seat)
        turn = self.turn
        new = self._copy()
        new.history = (*self.history, (turn, move))
        tile = move.tile
        if tile is None:
            new.turn = (turn + 1) & 3
            return new
        order = len(self.line)
        if self.ends is None:
            placement = Placement(tile, tile.high, tile.low, turn, order)
            new.line = (placement,)
            new.ends = (tile.high, tile.low)
        else:
            left, right = self.ends
            if move.side is Side.LEFT:
                other = tile.other(left)
                new.line = (Placement(tile, other, left, turn, order), *self.line)
                new.ends = (other, right)
            else:
                other = tile.other(right)
                new.line = (*self.line, Placement(tile, right, other, turn, order))
                new.ends = (left, other)
        hands = list(self._hands)
        hands[turn] &= ~tile.mask
        new._hands = tuple(hands)  # type: ignore[assignment]
        last = list(self._last_placed)
        last[turn] = order
        new._last_placed = tuple(last)  # type: ignore[assignment]
        if not hands[turn]:
            new.outcome = self._domino_outcome(new, tile, turn)
            return new
        left, right = new.ends
        open_mask = NUMBER_MASKS[left] | NUMBER_MASKS[right]
        if not ((hands[0] | hands[1] | hands[2] | hands[3]) & open_mask):
            new.outcome = self._blocked_outcome(new, turn)
            return new
        new.turn = (turn + 1) & 3
        return new

    def _domino_outcome(self, new: HandState, tile: Tile, seat: int) -> HandOutcome:
        pips = (new.pips(0), new.pips(1), new.pips(2), new.pips(3))
        capicua = self.ends is not None and is_capicua(tile, *self.ends)
        team = team_of(seat)
        points = Scoring(self.rules).points(*pips, team, capicua)
        return HandOutcome(
            Termination.DOMINO,
            team,
            seat,
            points,
            capicua,
            pips,
            seat,
        )

    def _blocked_outcome(self, new: HandState, last_seat: int) -> HandOutcome:
        pips = (new.pips(0), new.pips(1), new.pips(2), new.pips(3))
        scoring = Scoring(self.rules)
        team = scoring.blocked_team(*pips)
        if team < 0:
            return HandOutcome(Termination.BLOCKED, None, None, 0, False, pips, last_seat)
        seat = tranca_seat(team, pips, new._last_placed)
        points = scoring.points(*pips, team, False)
        return HandOutcome(Termination.BLOCKED, team, seat, points, False, pips, last_seat)

    def __repr__(self) -> str:
        line = " ".join(f"[{p.left}|{p.right}]" for p in self.line)
        return f"<HandState turn={self.turn} line={line or '-'} outcome={self.outcome}>"


def legal_moves_for(
    mask: int, ends: tuple[int, int] | None, opening_tile: Tile | None = None
) -> list[Move]:
    """The legal moves of a seat holding ``mask`` on a line with ``ends``.

    The single source of the move order: tiles ascend; a tile that fits both ends
    differently gives a left and a right move; when both ends show the same number the
    single move goes right (records.md); a pass only when nothing fits.
    """
    if ends is None:
        if opening_tile is not None:
            return [Move(opening_tile)]
        return [Move(t) for t in tiles_of(mask)]
    left, right = ends
    fits = mask & (NUMBER_MASKS[left] | NUMBER_MASKS[right])
    if not fits:
        return [PASS]
    moves = []
    for tile in tiles_of(fits):
        if left == right:
            moves.append(Move(tile, Side.RIGHT))
            continue
        if tile.has(left):
            moves.append(Move(tile, Side.LEFT))
        if tile.has(right):
            moves.append(Move(tile, Side.RIGHT))
    return moves


def doubles_in(tiles: Sequence[Tile]) -> int:
    """How many doubles are in ``tiles``."""
    return (mask_of(tiles) & DOUBLES_MASK).bit_count()
