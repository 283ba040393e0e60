"""What a seat, or the group, may see of a hand (design.md, rule 2).

:class:`PublicView` holds no tile of anyone's hand: it feeds the group picture.
:class:`SeatView` adds one seat's own tiles: it feeds that player's hand picture and
the robots. Nothing else of a hand's hidden state ever leaves the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.hand import HandOutcome, HandState, Placement, legal_moves_for
from engine.match import Match
from engine.moves import DRAW, PASS, Move, ends_after
from engine.rules import Rules
from engine.tiles import Tile, mask_of

__all__ = ["PublicView", "SeatView", "public_view", "seat_view"]


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as everyone sees it.

    Attributes:
        rules: the rule set.
        hand_number: the hand, counted from 1.
        starter: the seat that opened.
        opening_tile: the tile the opener must play, if any (6-6 under ``double_six``).
        line: the tiles on the line, left to right.
        ends: the open ends ``(left, right)``, or None before the first tile.
        turn: the seat to move.
        tile_counts: how many tiles each seat holds.
        history: every move so far, passes included, as ``(seat, move)``.
        score: the match score before this hand, by team.
        outcome: the hand's result once it is over (its ``pips_left`` is public then).
        match_score: the running score including this hand once it is over.
        boneyard_count: tiles left in the boneyard (rules.md, "Formats"; 0 in today's
            game). Which tiles they are is hidden from everyone.
        drawable: how many of them may still be drawn (0 unless the rule is ``draw``).
    """

    rules: Rules
    hand_number: int
    starter: int
    opening_tile: Tile | None
    line: tuple[Placement, ...]
    ends: tuple[int, int] | None
    turn: int
    tile_counts: tuple[int, int, int, int]
    history: tuple[tuple[int, Move], ...]
    score: tuple[int, int]
    outcome: HandOutcome | None = None
    match_score: tuple[int, int] = (0, 0)
    boneyard_count: int = 0
    drawable: int = 0

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def last_move(self) -> tuple[int, Move] | None:
        return self.history[-1] if self.history else None

    def passes(self) -> list[tuple[int, tuple[int, int]]]:
        """Every pass as ``(seat, ends at the time)``: the seat holds neither number (a
        draw is no pass: the drawn tile may fit)."""
        out = []
        ends: tuple[int, int] | None = None
        for seat, move in self.history:
            tile = move.tile
            if move.draw:
                continue
            if tile is None:
                assert ends is not None
                out.append((seat, ends))
            else:
                ends = ends_after(ends, tile, move.side)
        return out

    def numbers_lacking(self) -> tuple[frozenset[int], ...]:
        """For each seat, the numbers its passes prove it does not hold."""
        lacks: list[set[int]] = [set(), set(), set(), set()]
        for seat, (left, right) in self.passes():
            lacks[seat].update((left, right))
        return tuple(frozenset(s) for s in lacks)

    def played_mask(self) -> int:
        """The 28-bit mask of the tiles on the line."""
        return mask_of(p.tile for p in self.line)


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """A seat's view: the public view plus that seat's own tiles.

    Attributes:
        seat: whose view this is.
        tiles: that seat's tiles, ascending.
    """

    seat: int = 0
    tiles: tuple[Tile, ...] = field(default=())

    @property
    def is_my_turn(self) -> bool:
        return self.outcome is None and self.turn == self.seat

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves now (same order as :meth:`HandState.legal_moves`);
        empty when it is not this seat's turn."""
        if not self.is_my_turn:
            return []
        moves = legal_moves_for(mask_of(self.tiles), self.ends, self.opening_tile)
        if moves[0] is PASS and self.drawable:
            return [DRAW]
        return moves

    def playable_tiles(self) -> list[Tile]:
        """The seat's tiles that fit now (for highlighting), ascending."""
        return sorted({m.tile for m in self.legal_moves() if m.tile is not None})


def _public_fields(match: Match | HandState) -> dict[str, object]:
    score: tuple[int, ...]
    match_score: tuple[int, ...]
    if isinstance(match, Match):
        hand, number, score, match_score = (
            match.hand,
            match.hand_number,
            match.score_before_hand,
            match.score,
        )
    else:
        zero: tuple[int, ...] = (0,) * match.rules.sides
        hand, number, score, match_score = match, 1, zero, zero
    return {
        "rules": hand.rules,
        "hand_number": number,
        "starter": hand.starter,
        "opening_tile": hand.opening_tile,
        "line": hand.line,
        "ends": hand.ends,
        "turn": hand.turn,
        "tile_counts": hand.tile_counts(),
        "history": hand.history,
        "score": score,
        "outcome": hand.outcome,
        "match_score": match_score,
        "boneyard_count": hand.boneyard_count,
        "drawable": hand.drawable,
    }


def public_view(match: Match | HandState) -> PublicView:
    """The group's view of the current hand: no tile of any hand."""
    return PublicView(**_public_fields(match))  # type: ignore[arg-type]


def seat_view(match: Match | HandState, seat: int) -> SeatView:
    """``seat``'s view of the current hand: the public view plus its own tiles."""
    hand = match.hand if isinstance(match, Match) else match
    return SeatView(**_public_fields(match), seat=seat, tiles=hand.tiles(seat))  # type: ignore[arg-type]
