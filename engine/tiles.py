"""Tiles of the double-six set (rules.md, "The fixed core").

A tile is two halves ``0..6``. Tiles are normalised (``6-4`` and ``4-6`` are the same
tile), ordered, hashable and written high half first (``"6-4"``). Every tile also has a
stable index ``0..27`` used by the fast paths (bit masks over the 28 tiles).
"""

from __future__ import annotations

from typing import ClassVar, Final

from engine.errors import InvalidMoveError

__all__ = [
    "ALL_TILES",
    "DOUBLES",
    "NUMBER_MASKS",
    "PIPS",
    "TILE_MASKS",
    "Tile",
    "mask_of",
    "pips_of_mask",
    "tiles_of",
]


class Tile:
    """One domino tile; instances are interned, so ``Tile(6, 4) is Tile(4, 6)``.

    Attributes:
        high: the larger half (pips, 0..6).
        low: the smaller half (pips, 0..6).
        index: stable position 0..27 in :data:`ALL_TILES` (ordered by ``(high, low)``).
    """

    __slots__ = ("high", "index", "low")
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    low: int
    index: int

    def __new__(cls, a: int, b: int) -> Tile:
        key = (a, b) if a >= b else (b, a)
        tile = cls._interned.get(key)
        if tile is None:
            if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= 6 and 0 <= b <= 6):
                raise InvalidMoveError(f"unknown tile '{a}-{b}'", text=f"{a}-{b}")
            raise RuntimeError("tile table not built")  # pragma: no cover
        return tile

    @classmethod
    def _make(cls, high: int, low: int, index: int) -> Tile:
        tile = object.__new__(cls)
        object.__setattr__(tile, "high", high)
        object.__setattr__(tile, "low", low)
        object.__setattr__(tile, "index", index)
        cls._interned[(high, low)] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``"6-4"`` or ``"4-6"`` (spaces around the dash allowed).

        Raises:
            InvalidMoveError: the text is not a double-six tile.
        """
        parts = text.strip().split("-") if isinstance(text, str) else []
        if len(parts) == 2 and all(len(p.strip()) == 1 and p.strip() in "0123456" for p in parts):
            return cls(int(parts[0]), int(parts[1]))
        raise InvalidMoveError(f"unknown tile '{text}'", text=str(text))

    @property
    def pips(self) -> int:
        """The tile's value: the sum of its halves (``4-6`` = 10)."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """True for the seven doubles (``0-0`` .. ``6-6``)."""
        return self.high == self.low

    @property
    def mask(self) -> int:
        """This tile's bit in a 28-bit tile mask."""
        return 1 << self.index

    def has(self, number: int) -> bool:
        """True when either half shows ``number``."""
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The half opposite to ``number`` (which must be on the tile)."""
        return self.low if self.high == number else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


def _build() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for high in range(7):
        for low in range(high + 1):
            tiles.append(Tile._make(high, low, len(tiles)))
    return tuple(tiles)


ALL_TILES: Final[tuple[Tile, ...]] = _build()
"""The 28 tiles of the double-six set, ordered by (high, low): 0-0, 1-0, 1-1, ..., 6-6."""

DOUBLES: Final[tuple[Tile, ...]] = tuple(t for t in ALL_TILES if t.is_double)

NUMBER_MASKS: Final[tuple[int, ...]] = tuple(
    sum(t.mask for t in ALL_TILES if t.has(n)) for n in range(7)
)
"""For each number 0..6, the mask of the 7 tiles showing it."""

TILE_MASKS: Final[tuple[int, ...]] = tuple(t.mask for t in ALL_TILES)

PIPS: Final[tuple[int, ...]] = tuple(t.pips for t in ALL_TILES)
"""``PIPS[i]``: the value of tile ``i`` (:attr:`Tile.pips`)."""

_BYTE_PIPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(PIPS[k * 8 + j] for j in range(8) if (b >> j) & 1 and k * 8 + j < 28)
        for b in range(256)
    )
    for k in range(4)
)
"""``_BYTE_PIPS[k][b]``: the pips of the tiles in byte ``k`` of a mask when it is ``b``."""

DOUBLES_MASK: Final[int] = sum(t.mask for t in DOUBLES)
FULL_MASK: Final[int] = (1 << 28) - 1


def mask_of(tiles: object) -> int:
    """The 28-bit mask of an iterable of tiles."""
    m = 0
    for t in tiles:  # type: ignore[attr-defined]
        m |= 1 << t.index
    return m


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a mask, in ascending order."""
    out = []
    while mask:
        low_bit = mask & -mask
        out.append(ALL_TILES[low_bit.bit_length() - 1])
        mask ^= low_bit
    return tuple(out)


def pips_of_mask(mask: int) -> int:
    """Total pips of the tiles in a 28-bit mask (the pips left in a hand; four lookups)."""
    t = _BYTE_PIPS
    return t[0][mask & 255] + t[1][(mask >> 8) & 255] + t[2][(mask >> 16) & 255] + t[3][mask >> 24]
