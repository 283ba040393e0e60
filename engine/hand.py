"""One hand (mano): the deal, the boneyard, the opener, the line, legal moves and the
outcome.

Implements rules.md "The fixed core", "Ties and edge cases" and "Formats" (2..4
players, individual play, the boneyard and drawing, double-nine). A :class:`HandState`
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
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import Boneyard, Rules
from engine.tiles import (
    DOUBLES_MASK,
    Tile,
    TileSet,
    mask_of,
    pips_of_any_mask,
    tiles_of,
)

__all__ = [
    "Deal",
    "FirstHand",
    "HandOutcome",
    "HandState",
    "Placement",
    "Scoring",
    "Termination",
    "deal_hand",
    "deal_problem",
    "deal_tiles",
    "first_hand",
    "first_hand_opening",
    "is_capicua",
    "opening_of",
    "team_of",
    "tranca_seat",
]

Deal = tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]
"""Four hands of seven tiles, by seat (seats 0 and 2 are team 0; 1 and 3 are team 1):
today's partnership double-six deal."""

Hands = tuple[tuple[Tile, ...], ...]
"""A deal of any format: one hand per seat (rules.md, "Formats")."""

NUMBER_MASKS = TileSet.DOUBLE_NINE.number_masks
"""For each number 0..9, the tiles showing it (a double-six hand only holds bits 0..27,
where these masks equal the double-six set's)."""

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
        winner_team: the winning side: a partnership 0 or 1, or in individual play the
            winning seat (rules.md, "Scoring in individual play"); None for a tied
            tranca (nothing scored).
        winner_seat: the hand's winner as rules.md defines it, or None.
        points: points for the winning side, capicúa bonus included (0 when tied).
        capicua: whether the domino was a capicúa (also when the bonus is 0).
        pips_left: pips left in each seat's hand (one entry per player).
        last_seat: the seat that played (or drew) last.
    """

    end: Termination
    winner_team: int | None
    winner_seat: int | None
    points: int
    capicua: bool
    pips_left: tuple[int, ...]
    last_seat: int

    @property
    def winner_side(self) -> int | None:
        """The winning side (same as :attr:`winner_team`; a seat in individual play)."""
        return self.winner_team

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

    The four-seat methods (:meth:`blocked_team`, :meth:`points`) are partnership play's;
    :meth:`blocked_side` and :meth:`side_points` score every format.

    Attributes:
        all_pips: ``counting == "all"`` (else the opponents' pips).
        individual: ``blocked_winner == "individual"`` (else team totals).
        capicua_bonus: points added to a capicúa domino.
        partnership: partnership play (else each for themselves).
        classic: today's partnership double-six format (what the fast path plays).
    """

    __slots__ = ("all_pips", "capicua_bonus", "classic", "individual", "partnership")

    def __init__(self, rules: Rules) -> None:
        self.all_pips = rules.counting == "all"
        self.individual = rules.blocked_winner == "individual"
        self.capicua_bonus = rules.capicua_bonus
        self.partnership = rules.partnership
        self.classic = rules.is_classic

    def blocked_side(self, pips: Sequence[int]) -> int:
        """The side that wins a tranca with these pips left per seat; -1 for a tie.

        Partnership: :meth:`blocked_team`. Individual play (rules.md, "Scoring in
        individual play"): the single player with the fewest pips; a tie for the fewest
        scores nothing.
        """
        if self.partnership:
            return self.blocked_team(pips[0], pips[1], pips[2], pips[3])
        low = min(pips)
        holders = [seat for seat, p in enumerate(pips) if p == low]
        return holders[0] if len(holders) == 1 else -1

    def side_points(self, pips: Sequence[int], side: int, capicua: bool) -> int:
        """Points for ``side``, the winner: partnership as :meth:`points`; individual
        play: every other hand's pips, or all pips (``counting``), plus a capicúa bonus."""
        if self.partnership:
            return self.points(pips[0], pips[1], pips[2], pips[3], side, capicua)
        total = sum(pips)
        points = total if self.all_pips else total - pips[side]
        return points + self.capicua_bonus if capicua else points

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


def deal_problem(
    deal: Sequence[Sequence[Tile]],
    rules: Rules | None = None,
    boneyard: Sequence[Tile] | None = None,
) -> str | None:
    """Why ``deal`` is not a deal of ``rules``' format, or None.

    Without ``rules``: four hands of seven of the 28 distinct tiles (today's game).
    With them: ``players`` hands of ``hand_tiles`` distinct tiles of the set; and, if
    ``boneyard`` is given, the boneyard holds exactly the tiles not dealt.
    """
    players = 4 if rules is None else rules.players
    size = 7 if rules is None else rules.hand_tiles
    top = 6 if rules is None else rules.tile_set.top
    if len(deal) != players:
        return f"the deal has {len(deal)} hands, not {players}"
    seen: set[Tile] = set()
    for seat, hand in enumerate(deal):
        if len(hand) != size:
            return f"seat {seat} is dealt {len(hand)} tiles, not {size}"
        for tile in hand:
            if tile in seen:
                return f"the deal repeats {tile}"
            if tile.high > top:
                return f"{tile} is not a tile of the set"
            seen.add(tile)
    if boneyard is not None and rules is not None:
        rest = set(rules.tile_set.tiles) - seen
        if len(boneyard) != len(set(boneyard)) or set(boneyard) != rest:
            return f"the boneyard is not the {len(rest)} tiles left undealt"
    return None


def redeal_seat(rules: Rules, deal: Sequence[Sequence[Tile]]) -> int | None:
    """The first seat whose doubles annul the deal under ``redeal_doubles``, or None."""
    if rules.redeal_doubles is None:
        return None
    for seat, hand in enumerate(deal):
        if sum(1 for t in hand if t.is_double) >= rules.redeal_doubles:
            return seat
    return None


def deal_hand(rng: random.Random, rules: Rules) -> tuple[Hands, tuple[Tile, ...]]:
    """Shuffle and deal ``hand_tiles`` tiles to each of ``players`` seats, redealing as
    ``redeal_doubles`` says (rules.md, "Deal", "Formats").

    Returns ``(hands, boneyard)``: sorted hands by seat, and the undealt tiles in the
    shuffled order they are drawn in (empty for today's game). Today's game draws the
    same numbers from ``rng`` as it always did (seeded matches deal as before).
    """
    tiles = list(rules.tile_set.tiles)
    n, size = rules.players, rules.hand_tiles
    while True:
        rng.shuffle(tiles)
        hands = tuple(tuple(sorted(tiles[s * size : (s + 1) * size])) for s in range(n))
        if redeal_seat(rules, hands) is None:
            return hands, tuple(tiles[n * size :])


def deal_tiles(rng: random.Random, rules: Rules) -> Deal:
    """Shuffle and deal 7 tiles to each seat, redealing as ``redeal_doubles`` says.

    Returns four sorted hands (rules.md, "Deal" and the ``redeal_doubles`` option). For
    other formats the hands of :func:`deal_hand` (which also gives the boneyard).
    """
    hands, _ = deal_hand(rng, rules)
    return hands  # type: ignore[return-value]


def opening_of(rules: Rules, deal: Sequence[Sequence[Tile]]) -> tuple[int, Tile]:
    """``(seat, tile)`` that opens the first hand under ``first_starter = double_six``
    (rules.md, "Opening with a boneyard"): the highest double dealt; if no double was
    dealt, the highest tile (pip total, then the higher half). Always 6-6 when all 28
    double-six tiles are dealt."""
    best: Tile | None = None
    holder = -1
    for seat, hand in enumerate(deal):
        for tile in hand:
            if best is None or _opening_rank(tile) > _opening_rank(best):
                best, holder = tile, seat
    assert best is not None
    return holder, best


def _opening_rank(tile: Tile) -> tuple[bool, int, int]:
    return (tile.is_double, tile.pips, tile.high)


@dataclass(frozen=True, slots=True)
class FirstHand:
    """The first hand of a match, dealt (:func:`first_hand`).

    Attributes:
        deal: the hands by seat.
        boneyard: the undealt tiles in draw order.
        starter: the opener.
        opening_tile: the tile the opener must play (``double_six``), else None.
        drawn: the tile each seat drew under ``first_starter = draw``, else None.
    """

    deal: Hands
    boneyard: tuple[Tile, ...]
    starter: int
    opening_tile: Tile | None
    drawn: list[Tile] | None


def first_hand(rules: Rules, rng: random.Random) -> FirstHand:
    """Deal the first hand and choose its opener (rules.md, ``first_starter`` and
    "Opening with a boneyard"), for any format."""
    n = rules.players
    drawn: list[Tile] | None = None
    if rules.first_starter == "draw":
        drawn = rng.sample(rules.tile_set.tiles, n)
    deal, boneyard = deal_hand(rng, rules)
    opening: Tile | None = None
    if rules.first_starter == "double_six":
        starter, opening = opening_of(rules, deal)
    elif rules.first_starter == "random":
        starter = rng.randrange(n)
    else:
        assert drawn is not None
        starter = max(range(n), key=lambda s: (drawn[s].pips, drawn[s].high))
    return FirstHand(deal, boneyard, starter, opening, drawn)


def first_hand_opening(rules: Rules, rng: random.Random) -> tuple[Deal, int, list[Tile] | None]:
    """Deal the first hand and choose its opener (rules.md, ``first_starter``).

    Returns ``(deal, starter, drawn)``: ``drawn`` is the tile each seat drew under
    ``draw`` (the highest pip total opens; tie: the tile with the higher half), else None.
    (:func:`first_hand` also gives the boneyard, for every format.)
    """
    first = first_hand(rules, rng)
    return first.deal, first.starter, first.drawn  # type: ignore[return-value]


class HandState:
    """An immutable position of one hand, in any format (rules.md, "Formats").

    Attributes:
        rules: the rule set.
        deal: what each seat was dealt (sorted), one hand per player.
        boneyard: the tiles left undealt, in the order they are drawn (empty in
            today's game; face down: no view shows them).
        drawn: how many tiles of the boneyard have been drawn (the first ``drawn``).
        starter: the seat that opens.
        opening_tile: the tile the opener must play (the highest double dealt under
            ``double_six`` in the first hand: 6-6 in today's game), or None for any tile.
        line: the tiles on the line, left to right.
        ends: the open ends ``(left, right)``, or None before the opening tile.
        turn: the seat to move (meaningless once the hand is over).
        history: every move in order, passes and draws included, as ``(seat, move)``.
        outcome: the result once the hand is over, else None.
    """

    __slots__ = (
        "_hands",
        "_last_placed",
        "boneyard",
        "deal",
        "drawn",
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
    boneyard: tuple[Tile, ...]
    drawn: int
    starter: int
    opening_tile: Tile | None
    line: tuple[Placement, ...]
    ends: tuple[int, int] | None
    turn: int
    history: tuple[tuple[int, Move], ...]
    outcome: HandOutcome | None
    _hands: tuple[int, ...]
    _last_placed: tuple[int, ...]

    @classmethod
    def start(
        cls,
        rules: Rules,
        deal: Sequence[Sequence[Tile]],
        starter: int,
        *,
        opening_tile: Tile | None = None,
        boneyard: Sequence[Tile] | None = None,
    ) -> HandState:
        """A new hand with ``starter`` to open.

        ``boneyard`` is the undealt tiles in draw order; omitted, they lie in ascending
        order (which matters only when the rule is ``draw``).

        Raises:
            ValueError: a bad deal or boneyard, starter, or an opening tile the starter
                lacks.
        """
        problem = deal_problem(deal, None if rules.is_classic else rules, boneyard)
        if problem:
            raise ValueError(problem)
        if isinstance(starter, bool) or starter not in range(rules.players):
            raise ValueError(f"starter must be a seat 0..{rules.players - 1}, not {starter!r}")
        if opening_tile is not None and opening_tile not in deal[starter]:
            raise ValueError(f"seat {starter} does not hold {opening_tile}")
        hands = tuple(mask_of(h) for h in deal)
        if boneyard is None:
            dealt = 0
            for mask in hands:
                dealt |= mask
            boneyard = tiles_of(rules.tile_set.full_mask & ~dealt)
        state = object.__new__(cls)
        state.rules = rules
        state.deal = tuple(tuple(sorted(h)) for h in deal)  # type: ignore[assignment]
        state.boneyard = tuple(boneyard)
        state.drawn = 0
        state.starter = starter
        state.opening_tile = opening_tile
        state.line = ()
        state.ends = None
        state.turn = starter
        state.history = ()
        state.outcome = None
        state._hands = hands
        state._last_placed = (-1,) * rules.players
        return state

    def _copy(self) -> HandState:
        new = object.__new__(HandState)
        new._hands = self._hands
        new._last_placed = self._last_placed
        new.boneyard = self.boneyard
        new.deal = self.deal
        new.drawn = self.drawn
        new.ends = self.ends
        new.history = self.history
        new.line = self.line
        new.opening_tile = self.opening_tile
        new.outcome = self.outcome
        new.rules = self.rules
        new.starter = self.starter
        new.turn = self.turn
        return new

    # -- queries ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def players(self) -> int:
        """How many seats play this hand."""
        return len(self._hands)

    def tiles(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds now, ascending (drawn tiles included)."""
        return tiles_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The mask of the tiles ``seat`` holds (for fast paths)."""
        return self._hands[seat]

    def tile_counts(self) -> tuple[int, int, int, int]:
        """How many tiles each seat holds (one entry per player)."""
        return tuple(h.bit_count() for h in self._hands)  # type: ignore[return-value]

    def pips(self, seat: int) -> int:
        """Pips in ``seat``'s hand."""
        return pips_of_any_mask(self._hands[seat])

    @property
    def tiles_played(self) -> int:
        return len(self.line)

    @property
    def boneyard_count(self) -> int:
        """How many tiles are left in the boneyard (public: "Quedan 14 en el pozo")."""
        return len(self.boneyard) - self.drawn

    @property
    def drawable(self) -> int:
        """How many tiles may still be drawn: the boneyard's count under ``draw`` (every
        tile may be drawn, rules.md "The deal and the boneyard"), 0 under ``pass``."""
        if self.rules.boneyard is Boneyard.DRAW:
            return len(self.boneyard) - self.drawn
        return 0

    def drawn_tiles(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` drew so far, in order (hidden from everyone else)."""
        out = []
        k = 0
        for who, move in self.history:
            if move.draw:
                if who == seat:
                    out.append(self.boneyard[k])
                k += 1
        return tuple(out)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, in a stable order.

        Tiles ascend; a tile that fits both ends differently gives two moves (left, then
        right); when both ends show the same number the single move goes right
        (records.md). When nothing fits: a draw if the seat may draw (rules.md,
        "Formats"), else a pass. Empty once the hand is over.
        """
        if self.outcome is not None:
            return []
        moves = legal_moves_for(self._hands[self.turn], self.ends, self.opening_tile)
        if moves[0] is PASS and self.drawable:
            return [DRAW]
        return moves

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
        if move.draw:
            return self._resolve_draw(turn)
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
            if self.drawable:
                raise IllegalMoveError(
                    f"seat {turn} must draw from the boneyard ({self.drawable} left), cannot pass",
                    reason="must_draw",
                    seat=turn,
                    move="pass",
                    detail={"boneyard": self.drawable},
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

    def _resolve_draw(self, turn: int) -> Move:
        """A draw is legal only when nothing fits, the rule is ``draw`` and the
        boneyard holds a tile (rules.md, "The deal and the boneyard")."""
        why = None
        if self.rules.boneyard is not Boneyard.DRAW:
            why = "the rule is pass: nobody draws"
        elif self.ends is None or self.can_play(turn):
            why = "a tile fits" if self.ends is not None else "the opener plays a tile"
        elif not self.drawable:
            why = "the boneyard is empty"
        if why is not None:
            raise IllegalMoveError(
                f"seat {turn} cannot draw: {why}",
                reason="cannot_draw",
                seat=turn,
                move="draw",
                detail={"why": why, "boneyard": self.drawable},
            )
        return DRAW

    # -- transitions -----------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> HandState:
        """The state after ``move`` by the seat to move (checked as :meth:`resolve`).

        A draw adds the boneyard's next tile to the seat's hand and leaves the turn
        with it. The hand blocks (tranca) when no seat holds a tile that fits and
        nobody can draw.

        Raises:
            NotYourTurnError, IllegalMoveError: see :meth:`resolve`.
        """
        move = self.resolve(move, seat)
        turn = self.turn
        new = self._copy()
        new.history = (*self.history, (turn, move))
        tile = move.tile
        if tile is None:
            if move.draw:
                drawn = self.boneyard[self.drawn]
                hands = list(self._hands)
                hands[turn] |= drawn.mask
                new._hands = tuple(hands)
                new.drawn = self.drawn + 1
                if not new.drawable and self._nobody_fits(new._hands, self.ends):
                    new.outcome = self._blocked_outcome(new, turn)
                return new
            nxt = turn + 1
            new.turn = 0 if nxt == len(self._hands) else nxt
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
        new._hands = tuple(hands)
        last = list(self._last_placed)
        last[turn] = order
        new._last_placed = tuple(last)
        if not hands[turn]:
            new.outcome = self._domino_outcome(new, tile, turn)
            return new
        if self.rules.boneyard is Boneyard.PASS or self.drawn == len(self.boneyard):
            everyone = 0
            for mask in hands:
                everyone |= mask
            left, right = new.ends
            if not everyone & (NUMBER_MASKS[left] | NUMBER_MASKS[right]):
                new.outcome = self._blocked_outcome(new, turn)
                return new
        nxt = turn + 1
        new.turn = 0 if nxt == len(hands) else nxt
        return new

    @staticmethod
    def _nobody_fits(hands: tuple[int, ...], ends: tuple[int, int] | None) -> bool:
        if ends is None:
            return False
        everyone = 0
        for mask in hands:
            everyone |= mask
        return not everyone & (NUMBER_MASKS[ends[0]] | NUMBER_MASKS[ends[1]])

    def _domino_outcome(self, new: HandState, tile: Tile, seat: int) -> HandOutcome:
        pips = tuple(new.pips(s) for s in range(len(new._hands)))
        capicua = self.ends is not None and is_capicua(tile, *self.ends)
        side = self.rules.side_of(seat)
        points = Scoring(self.rules).side_points(pips, side, capicua)
        return HandOutcome(Termination.DOMINO, side, seat, points, capicua, pips, seat)

    def _blocked_outcome(self, new: HandState, last_seat: int) -> HandOutcome:
        pips = tuple(new.pips(s) for s in range(len(new._hands)))
        scoring = Scoring(self.rules)
        side = scoring.blocked_side(pips)
        if side < 0:
            return HandOutcome(Termination.BLOCKED, None, None, 0, False, pips, last_seat)
        seat = tranca_seat(side, pips, new._last_placed) if scoring.partnership else side
        points = scoring.side_points(pips, side, False)
        return HandOutcome(Termination.BLOCKED, side, seat, points, False, pips, last_seat)

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
