"""Moves: a tile on a side of the line, a pass, or a draw from the boneyard, with text
and compact codes.

Text notation (records.md): ``"6-4"``, ``"4-2 right"``, ``"pass"``, ``"draw"`` (rules.md,
"Formats": robar). Compact code (for buttons): ``"64r"``, ``"64l"``, ``"64"`` (no side:
the opening tile, or a tile that fits one end only), ``"p"`` and ``"d"``; at most 3
characters, so a table id, hand and move number fit
easily into Telegram's 64-byte callback data and Discord's 100-character custom ids.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.errors import InvalidMoveError
from engine.tiles import Tile, TileSet

__all__ = ["DRAW", "PASS", "Move", "Side", "ends_after"]


class Side(enum.Enum):
    """An end of the line."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def opposite(self) -> Side:
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``tile`` placed on ``side`` of the line, a pass (``tile is None``), or a
    draw from the boneyard (``draw``; :data:`DRAW`, which also has no tile: which tile
    is drawn is the hand's hidden state, not the move's).

    ``side`` is None for a pass, a draw and the opening tile. Legal moves produced by
    the engine always carry a side after the opening, so a move compares equal to the
    engine's move for the same placement.
    """

    tile: Tile | None
    side: Side | None = None
    draw: bool = False

    @property
    def is_pass(self) -> bool:
        return self.tile is None and not self.draw

    @property
    def is_draw(self) -> bool:
        return self.draw

    def text(self, *, with_side: bool = True) -> str:
        """records.md notation: ``"pass"``, ``"draw"``, ``"6-4"`` or ``"6-4 left"``."""
        if self.draw:
            return "draw"
        if self.tile is None:
            return "pass"
        if with_side and self.side is not None:
            return f"{self.tile} {self.side.value}"
        return str(self.tile)

    def __str__(self) -> str:
        return self.text()

    def code(self) -> str:
        """The compact code: ``"p"``, ``"d"``, ``"64"``, ``"64l"`` or ``"64r"``."""
        if self.draw:
            return "d"
        if self.tile is None:
            return "p"
        side = "" if self.side is None else self.side.value[0]
        return f"{self.tile.high}{self.tile.low}{side}"

    @classmethod
    def from_code(cls, code: str, tile_set: TileSet | None = None) -> Move:
        """Inverse of :meth:`code` (tiles of ``tile_set``, double-six when omitted).

        Raises:
            InvalidMoveError: the code is not a move code.
        """
        if code == "p":
            return PASS
        if code == "d":
            return DRAW
        if not isinstance(code, str) or len(code) not in (2, 3):
            raise InvalidMoveError(f"bad move code {code!r}", text=str(code))
        a, b = code[0], code[1]
        digits = "0123456789"[: (6 if tile_set is None else tile_set.top) + 1]
        if a not in digits or b not in digits:
            raise InvalidMoveError(f"bad move code {code!r}", text=code)
        side: Side | None = None
        if len(code) == 3:
            if code[2] == "l":
                side = Side.LEFT
            elif code[2] == "r":
                side = Side.RIGHT
            else:
                raise InvalidMoveError(f"bad move code {code!r}", text=code)
        return cls(Tile(int(a), int(b)), side)

    @classmethod
    def parse(cls, text: str, tile_set: TileSet | None = None) -> Move:
        """Read records.md notation (``"6-4"``, ``"4-2 right"``, ``"pass"``, ``"draw"``),
        tiles of ``tile_set`` (double-six when omitted).

        Raises:
            InvalidMoveError: unreadable text or an unknown tile.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {text!r}", text=repr(text))
        if text == "pass":
            return PASS
        if text == "draw":
            return DRAW
        parts = text.split(" ")
        if len(parts) == 1:
            return cls(Tile.parse(parts[0], tile_set))
        if len(parts) == 2 and parts[1] in ("left", "right"):
            return cls(Tile.parse(parts[0], tile_set), Side(parts[1]))
        raise InvalidMoveError(f"cannot read move '{text}'", text=text)


PASS = Move(None, None)

DRAW = Move(None, None, True)
"""Draw one tile from the boneyard (rules.md, "Formats": robar)."""


def ends_after(ends: tuple[int, int] | None, tile: Tile, side: Side | None) -> tuple[int, int]:
    """The line's ends (left, right numbers) once ``tile`` is played on ``side``: the
    opening (``ends`` None) leaves its high number on the left (rules.md, "The line")."""
    if ends is None:
        return (tile.high, tile.low)
    if side is Side.LEFT:
        return (tile.other(ends[0]), ends[1])
    return (ends[0], tile.other(ends[1]))
