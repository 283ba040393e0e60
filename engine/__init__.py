"""The rules engine: pure partnership dominoes (rules.md), no I/O, no clock, no global random."""

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
    HandOutcome,
    HandState,
    Placement,
    Termination,
    deal_tiles,
    first_hand_opening,
    team_of,
)
from engine.match import Match
from engine.moves import PASS, Move, Side
from engine.rules import PRESET_NAMES, PRESETS, Rules, find_preset
from engine.tiles import ALL_TILES, DOUBLES, Tile
from engine.views import PublicView, SeatView, public_view, seat_view

__all__ = [
    "ALL_TILES",
    "DOUBLES",
    "PASS",
    "PRESETS",
    "PRESET_NAMES",
    "Deal",
    "DominoError",
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
    "deal_tiles",
    "find_preset",
    "first_hand_opening",
    "public_view",
    "seat_view",
    "team_of",
]
