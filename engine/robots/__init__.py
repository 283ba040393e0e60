"""Robots that play a seat from its view only (robots.md; issue 3).

``make_robot(level)`` builds one of :data:`LEVELS`; ``robot.choose(view, rng)`` returns a
legal move. :func:`play_match` and :func:`play_hand` seat robots in the engine's match
loop.
"""

from __future__ import annotations

from engine.robots import montecarlo as _montecarlo  # noqa: F401  (registers levels)
from engine.robots import simple as _simple  # noqa: F401  (registers levels)
from engine.robots.arena import play_hand, play_match, seat_rngs
from engine.robots.base import DEFAULT_LEVEL, LEVEL_LABELS, LEVELS, Robot, make_robot

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_LABELS",
    "Robot",
    "make_robot",
    "play_hand",
    "play_match",
    "seat_rngs",
]
