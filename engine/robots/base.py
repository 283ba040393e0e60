"""The robot interface and the level registry (robots.md).

A robot decides one move from what one seat can see (a :class:`~engine.views.SeatView`,
which holds no other seat's tiles) and an injected :class:`random.Random`; given the same
view and a generator in the same state it returns the same move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Final

from engine.moves import Move
from engine.views import SeatView

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_LABELS",
    "Robot",
    "make_robot",
    "register_level",
]

LEVELS: Final[tuple[str, ...]] = ("novato", "aprendiz", "jugador", "experto", "maestro")
"""Robot levels, weakest first (English-free ids: the names players use)."""

DEFAULT_LEVEL: Final[str] = "experto"

LEVEL_LABELS: Final[dict[str, str]] = {
    "novato": "Novato",
    "aprendiz": "Aprendiz",
    "jugador": "Jugador",
    "experto": "Experto",
    "maestro": "Maestro",
}
"""Spanish labels for menus and seat names."""

_FACTORIES: dict[str, Callable[[], Robot]] = {}


class Robot(ABC):
    """A player that chooses moves from a seat's view only.

    Attributes:
        level: the level id (one of :data:`LEVELS`).
    """

    level: str = ""

    @abstractmethod
    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """A legal move for ``view.seat``, which must be the seat to move.

        Args:
            view: what the seat can see (its own tiles and the public table).
            rng: the only source of randomness; same state, same move.

        Raises:
            ValueError: it is not that seat's turn (or the hand is over).
        """

    def __repr__(self) -> str:
        return f"<Robot {self.level}>"


def register_level(level: str, factory: Callable[[], Robot]) -> None:
    """Make ``make_robot(level)`` build robots with ``factory`` (used by the level modules)."""
    _FACTORIES[level] = factory


def make_robot(level: str = DEFAULT_LEVEL) -> Robot:
    """A robot of ``level`` (an id of :data:`LEVELS`, case-insensitive).

    Raises:
        ValueError: an unknown level; the message lists the levels.
    """
    key = level.strip().lower() if isinstance(level, str) else ""
    factory = _FACTORIES.get(key)
    if factory is None:
        raise ValueError(f"unknown robot level '{level}' (levels: {', '.join(LEVELS)})")
    return factory()


def legal_or_raise(view: SeatView, *, any_format: bool = False) -> list[Move]:
    """The seat's legal moves; raises ValueError when it is not its turn to move, or,
    unless ``any_format``, when the format is not partnership double-six (a robot
    written for today's game only, such as ``bench/pimc.py``'s anchor, refuses the
    other formats of rules.md, "Formats", rather than play blind; the levels of
    :data:`LEVELS` play every format: :mod:`engine.robots.formats`)."""
    if not any_format and not view.rules.is_classic:
        raise ValueError(f"robots play only partnership double-six, not {view.rules.format_name}")
    if not view.is_my_turn:
        if view.outcome is not None:
            raise ValueError("the hand is over")
        raise ValueError(f"it is seat {view.turn}'s turn, not seat {view.seat}'s")
    return view.legal_moves()
