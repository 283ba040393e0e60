"""The rules engine: pure dominoes (rules.md), no I/O, no clock, no global random.

Today's partnership double-six game and the formats of rules.md ("Formats": 2..4
players, individual play, the boneyard and drawing, double-nine)."""

from __future__ import annotations

from engine.errors import (
    DominoError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    RecordError,
    RulesError,
)
from engine.hand import (
    Deal,
    FirstHand,
    HandOutcome,
    HandState,
    Placement,
    Termination,
    deal_hand,
    deal_tiles,
    first_hand,
    first_hand_opening,
    opening_of,
    team_of,
)
from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import (
    FORMAT_PRESETS,
    PRESET_NAMES,
    PRESETS,
    Boneyard,
    Rules,
    find_any_preset,
    find_preset,
)
from engine.tiles import ALL_TILES, DOUBLES, NINE_TILES, Tile, TileSet
from engine.views import PublicView, SeatView, public_view, seat_view

__all__ = [
    "ALL_TILES",
    "DOUBLES",
    "DRAW",
    "FORMAT_PRESETS",
    "NINE_TILES",
    "PASS",
    "PRESETS",
    "PRESET_NAMES",
    "Boneyard",
    "Deal",
    "DominoError",
    "FirstHand",
    "HandOutcome",
    "HandState",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "Move",
    "NotYourTurnError",
    "Placement",
    "PublicView",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatView",
    "Side",
    "Termination",
    "Tile",
    "TileSet",
    "deal_hand",
    "deal_tiles",
    "find_any_preset",
    "find_preset",
    "first_hand",
    "first_hand_opening",
    "opening_of",
    "public_view",
    "seat_view",
    "team_of",
]
