"""The three quick levels: ``novato`` (random legal), ``aprendiz`` (heaviest first) and
``jugador`` (the heuristic of robots.md)."""

from __future__ import annotations

import random

from engine.moves import Move
from engine.robots.base import Robot, legal_or_raise, register_level
from engine.robots.formats import format_heuristic_move
from engine.robots.knowledge import to_move
from engine.robots.playout import best_move, best_opening
from engine.tiles import mask_of
from engine.views import SeatView

__all__ = ["ApprenticeRobot", "HeuristicRobot", "RandomRobot"]


class RandomRobot(Robot):
    """``novato``: a uniformly random legal move."""

    level = "novato"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = legal_or_raise(view, any_format=True)
        return moves[0] if len(moves) == 1 else rng.choice(moves)


class ApprenticeRobot(Robot):
    """``aprendiz``: the heaviest tile that fits (ties and sides at random)."""

    level = "aprendiz"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = legal_or_raise(view, any_format=True)
        if len(moves) == 1:
            return moves[0]
        top = max(m.tile.pips for m in moves if m.tile is not None)
        best = [m for m in moves if m.tile is not None and m.tile.pips == top]
        return best[0] if len(best) == 1 else rng.choice(best)


class HeuristicRobot(Robot):
    """``jugador``: pips, +4 for a double, +3 per other tile still fitting an open end
    (robots.md, "The heuristic"); deterministic (ties: the first legal move). Every
    format plays the same heuristic (:func:`~engine.robots.formats.format_heuristic_move`)."""

    level = "jugador"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = legal_or_raise(view, any_format=True)
        if len(moves) == 1:
            return moves[0]
        if not view.rules.is_classic:
            return format_heuristic_move(view, moves)
        mine = mask_of(view.tiles)
        if view.ends is None:
            allowed = mask_of(m.tile for m in moves if m.tile is not None)
            return to_move(view, best_opening(mine, allowed), 1)
        left, right = view.ends
        choice = best_move(mine, left, right)
        if choice is None:  # pragma: no cover - legal_moves() said something fits
            return moves[0]
        return to_move(view, choice[0], choice[1])


register_level("novato", RandomRobot)
register_level("aprendiz", ApprenticeRobot)
register_level("jugador", HeuristicRobot)
