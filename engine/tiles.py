"""Tiles of the double-six and double-nine sets (rules.md, "The fixed core", "Formats").

A tile is two halves ``0..9``. Tiles are normalised (``6-4`` and ``4-6`` are the same
tile), ordered, hashable and written high half first (``"6-4"``). Every tile also has a
stable index used by the fast paths (bit masks): ``0..27`` for the double-six tiles and
``28..54`` for the tiles with a 7, 8 or 9, so a double-six mask is the same in both sets.
:data:`ALL_TILES`, :data:`DOUBLES`, :data:`NUMBER_MASKS` and :data:`PIPS` are the
double-six set's, as before; :class:`TileSet` gives either set.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from engine.errors import InvalidMoveError

__all__ = [
    "ALL_TILES",
    "DOUBLES",
    "NINE_TILES",
    "NUMBER_MASKS",
    "PIPS",
    "TILE_MASKS",
    "Tile",
    "TileSet",
    "mask_of",
    "pips_of_any_mask",
    "pips_of_mask",
    "tiles_of",
]


class Tile:
    """One domino tile; instances are interned, so ``Tile(6, 4) is Tile(4, 6)``.

    Attributes:
        high: the larger half (pips, 0..9).
        low: the smaller half (pips, 0..9).
        index: stable position in :data:`NINE_TILES` (ordered by ``(high, low)``):
            0..27 for the double-six tiles, as in :data:`ALL_TILES`.
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
            if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= 9 and 0 <= b <= 9):
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
    def parse(cls, text: str, tile_set: TileSet | None = None) -> Tile:
        """Parse ``"6-4"`` or ``"4-6"`` (spaces around the dash allowed).

        ``tile_set`` is the set the tile must belong to (double-six when omitted, so
        ``"7-1"`` is refused unless the set is double-nine).

        Raises:
            InvalidMoveError: the text is not a tile of the set.
        """
        digits = "0123456789"[: (6 if tile_set is None else tile_set.top) + 1]
        parts = text.strip().split("-") if isinstance(text, str) else []
        if len(parts) == 2 and all(len(p.strip()) == 1 and p.strip() in digits for p in parts):
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
        """This tile's bit in a tile mask (28 bits for double-six, 55 for double-nine)."""
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
    for high in range(10):
        for low in range(high + 1):
            tiles.append(Tile._make(high, low, len(tiles)))
    return tuple(tiles)


NINE_TILES: Final[tuple[Tile, ...]] = _build()
"""The 55 tiles of the double-nine set, ordered by (high, low): 0-0, 1-0, ..., 9-9 (the
first 28 are the double-six set)."""

ALL_TILES: Final[tuple[Tile, ...]] = NINE_TILES[:28]
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


_BYTE_PIPS_ANY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(NINE_TILES[k * 8 + j].pips for j in range(8) if (b >> j) & 1 and k * 8 + j < 55)
        for b in range(256)
    )
    for k in range(7)
)


class TileSet(StrEnum):
    """A domino set (rules.md, "Formats", option ``tile_set``)."""

    DOUBLE_SIX = "double_six"
    DOUBLE_NINE = "double_nine"

    @property
    def top(self) -> int:
        """The highest half: 6 or 9."""
        return 6 if self is TileSet.DOUBLE_SIX else 9

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set's tiles, ascending (28 or 55)."""
        return ALL_TILES if self is TileSet.DOUBLE_SIX else NINE_TILES

    @property
    def full_mask(self) -> int:
        """The mask of every tile of the set."""
        return (1 << len(self.tiles)) - 1

    @property
    def doubles(self) -> tuple[Tile, ...]:
        """The set's doubles, ascending (7 or 10)."""
        return tuple(t for t in self.tiles if t.is_double)

    @property
    def number_masks(self) -> tuple[int, ...]:
        """For each number ``0..top``, the mask of the set's tiles showing it."""
        return NUMBER_MASKS if self is TileSet.DOUBLE_SIX else _NINE_NUMBER_MASKS


_NINE_NUMBER_MASKS: Final[tuple[int, ...]] = tuple(
    sum(t.mask for t in NINE_TILES if t.has(n)) for n in range(10)
)


def mask_of(tiles: object) -> int:
    """The mask of an iterable of tiles (bit ``tile.index`` per tile)."""
    m = 0
    for t in tiles:  # type: ignore[attr-defined]
        m |= 1 << t.index
    return m


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a mask, in ascending order."""
    out = []
    while mask:
        low_bit = mask & -mask
        out.append(NINE_TILES[low_bit.bit_length() - 1])
        mask ^= low_bit
    return tuple(out)


def pips_of_mask(mask: int) -> int:
    """Total pips of the tiles in a 28-bit mask (the pips left in a hand; four lookups)."""
    t = _BYTE_PIPS
    return t[0][mask & 255] + t[1][(mask >> 8) & 255] + t[2][(mask >> 16) & 255] + t[3][mask >> 24]


def pips_of_any_mask(mask: int) -> int:
    """Total pips of the tiles in a mask of either set (up to 55 bits; seven lookups)."""
    t = _BYTE_PIPS_ANY
    total = 0
    k = 0
    while mask:
        total += t[k][mask & 255]
        mask >>= 8
        k += 1
    return total
