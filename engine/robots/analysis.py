"""'¿Qué debí jugar?': the maestro's evaluation of a player's decisions (issue 15).

For each decision of a seat with a real choice (two or more legal moves), every legal
move is evaluated by the maestro robot's own search (``make_robot("maestro")``, valued in
points of the player's team rather than match utility) **from that seat's information at
that moment**: the :class:`~engine.views.SeatView` then, never a hidden tile. The random
draws are seeded from that view alone, so two matches that looked the same to the player
get the same analysis, whatever the other hands held.

Results: for each decision, the moves best first with their expected margin (points for
the player's team minus the opponents', over the rest of the hand), what the played move
cost against the best, and for the hand an accuracy figure: the share of real choices
where the move played was within :data:`CLOSE_ENOUGH` points of the best.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.hand import HandState
from engine.match import Match
from engine.moves import Move
from engine.records import replay
from engine.robots.base import make_robot
from engine.robots.montecarlo import MonteCarloRobot
from engine.views import SeatView, seat_view

__all__ = [
    "CLOSE_ENOUGH",
    "Decision",
    "HandAnalysis",
    "MoveValue",
    "analyze_hand",
    "analyze_record",
    "decisions_of",
]

CLOSE_ENOUGH: Final = 1.0
"""Points: a move within this of the best counts as accurate."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move and its expected margin for the player's team (points)."""

    move: Move
    value: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision with a real choice.

    Attributes:
        hand: the hand, from 1.
        number: the move's number in the hand, from 1 (passes included).
        view: what the seat saw then (for a picture of the line).
        played: the move made.
        values: every legal move, best first.
    """

    hand: int
    number: int
    view: SeatView
    played: Move
    values: tuple[MoveValue, ...]

    @property
    def best(self) -> MoveValue:
        return self.values[0]

    @property
    def cost(self) -> float:
        """Points the move played gave up against the best (0 when it was the best)."""
        played = next(v.value for v in self.values if v.move == self.played)
        return max(0.0, self.best.value - played)


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """A seat's decisions in one hand, costliest first, and its accuracy.

    Attributes:
        hand: the hand, from 1.
        seat: the seat analysed.
        decisions: the decisions with a real choice, costliest first (ties: in order).
    """

    hand: int
    seat: int
    decisions: tuple[Decision, ...]

    @property
    def accuracy(self) -> float | None:
        """Share (0..1) of choices within :data:`CLOSE_ENOUGH` of the best; None when the
        seat had no real choice in the hand."""
        if not self.decisions:
            return None
        good = sum(1 for d in self.decisions if d.cost <= CLOSE_ENOUGH)
        return good / len(self.decisions)

    @property
    def lost(self) -> float:
        """Points given up over the hand's decisions."""
        return sum(d.cost for d in self.decisions)


def _analyst() -> MonteCarloRobot:
    """The maestro's search, valued in points of the seat's team (not match utility)."""
    robot = make_robot("maestro")
    assert isinstance(robot, MonteCarloRobot)
    analyst = copy.copy(robot)
    analyst.match_aware = False
    return analyst


def _seed(view: SeatView) -> str:
    """A seed from what the seat saw (never from a hidden tile)."""
    history = ",".join(f"{seat}{move.code()}" for seat, move in view.history)
    tiles = ",".join(str(t) for t in view.tiles)
    return f"analysis|{view.hand_number}|{view.seat}|{tiles}|{history}|{view.score}"


def evaluate_view(view: SeatView, analyst: MonteCarloRobot | None = None) -> list[MoveValue]:
    """Every legal move of ``view`` with its expected margin (points), best first
    (ties keep the legal moves' order)."""
    analyst = analyst or _analyst()
    values, cands = analyst.values(view, view.legal_moves(), random.Random(_seed(view)))
    found = [MoveValue(c[0], round(v, 3)) for c, v in zip(cands, values, strict=True)]
    return sorted(found, key=lambda mv: -mv.value)


def _hand_positions(match: Match, index: int) -> Iterator[tuple[Match, int, Move]]:
    """Each position of hand ``index`` (from 0) before a move: (position, seat, move)."""
    played = match.hands[index]
    score = [0] * match.rules.sides
    for finished in match.hands[:index]:
        outcome = finished.outcome
        if outcome is not None and outcome.winner_side is not None:
            score[outcome.winner_side] += outcome.points
    state = HandState.start(
        played.rules,
        played.deal,
        played.starter,
        opening_tile=played.opening_tile,
        boneyard=played.boneyard,
    )
    before = match.hands[:index]
    for seat, move in played.history:
        yield Match(match.rules, (*before, state), tuple(score)), seat, move
        state = state.apply(move, seat)


def decisions_of(match: Match, index: int, seat: int) -> list[tuple[SeatView, Move]]:
    """The seat's decisions with a real choice in hand ``index`` (from 0): what it saw
    and what it played."""
    found = []
    for position, mover, move in _hand_positions(match, index):
        if mover != seat:
            continue
        view = seat_view(position, seat)
        if len(view.legal_moves()) > 1 and len(view.tiles) > 1:
            found.append((view, move))
    return found


def analyze_hand(match: Match, index: int, seat: int) -> HandAnalysis:
    """The maestro's analysis of ``seat``'s decisions in hand ``index`` (from 0).

    Raises:
        IndexError: no such hand.
        ValueError: ``seat`` is not one of the match's seats.
    """
    players = match.rules.players
    if isinstance(seat, bool) or seat not in range(players):
        raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
    match.hands[index]
    analyst = _analyst()
    decisions = []
    for view, played in decisions_of(match, index, seat):
        values = tuple(evaluate_view(view, analyst))
        decisions.append(Decision(index + 1, len(view.history) + 1, view, played, values))
    decisions.sort(key=lambda d: (-d.cost, d.number))
    return HandAnalysis(index + 1, seat, tuple(decisions))


def analyze_record(
    record: Mapping[str, Any] | str, *, seats: Sequence[int] | None = None
) -> list[HandAnalysis]:
    """Every finished hand of a records.md record, for each of ``seats`` (default: every
    seat of its format).

    Raises:
        engine.errors.RecordError: the record is not valid.
    """
    match = replay(record)
    out = []
    for index, hand in enumerate(match.hands):
        if hand.outcome is None:
            continue  # an unfinished hand: its tiles are not public yet
        for seat in range(match.rules.players) if seats is None else seats:
            out.append(analyze_hand(match, index, seat))
    return out
