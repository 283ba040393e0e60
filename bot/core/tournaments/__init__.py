"""Tournaments (issue 32): the pure foundation, with no storage and no front end.

Knockout, Swiss and arena pairings, standings, the prize split and the no-show rule,
as functions of frozen values (docs/tournaments.md). A tournament service will keep
these values in storage and run the rounds' tables; nothing here does I/O, reads a clock
or draws a random number.
"""

from __future__ import annotations

from bot.core.tournaments.arena import (
    STREAK_WINS,
    WIN_POINTS,
    ArenaSchedule,
    ArenaStanding,
    arena_pair,
    arena_standings,
    last_opponents,
    match_points,
)
from bot.core.tournaments.knockout import Bracket, Series, bracket_order, seed_bracket
from bot.core.tournaments.model import (
    Entrant,
    EntrantError,
    MatchResult,
    Pairing,
    Partners,
    Place,
    ResultError,
    ResultKind,
    Round,
    RoundUnfinished,
    TournamentError,
    TournamentKind,
    check_field,
    seed_order,
)
from bot.core.tournaments.prizes import (
    NO_SHOW_SECONDS,
    SPLITS,
    award_prizes,
    no_show_deadline,
    no_show_result,
    prize_split,
    split_between_players,
)
from bot.core.tournaments.swiss import SwissStanding, swiss_pair, swiss_standings

__all__ = [
    "NO_SHOW_SECONDS",
    "SPLITS",
    "STREAK_WINS",
    "WIN_POINTS",
    "ArenaSchedule",
    "ArenaStanding",
    "Bracket",
    "Entrant",
    "EntrantError",
    "MatchResult",
    "Pairing",
    "Partners",
    "Place",
    "ResultError",
    "ResultKind",
    "Round",
    "RoundUnfinished",
    "Series",
    "SwissStanding",
    "TournamentError",
    "TournamentKind",
    "arena_pair",
    "arena_standings",
    "award_prizes",
    "bracket_order",
    "check_field",
    "last_opponents",
    "match_points",
    "no_show_deadline",
    "no_show_result",
    "prize_split",
    "seed_bracket",
    "seed_order",
    "split_between_players",
    "swiss_pair",
    "swiss_standings",
]
