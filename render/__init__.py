"""Pictures of the table: pure functions, view in, PNG bytes out (design.md, rule 7).

``board_png`` draws the group's picture from the public view; ``hand_png`` one seat's
tiles from that seat's view; ``hand_result_png`` and ``match_result_png`` the summaries;
``waiting_png`` a table still waiting for players (or counting down to its start);
``standings_png`` a leaderboard and ``profile_png`` a player's profile with a rating
chart, from facts the presentation layer phrased (issue 14); ``bracket_png`` a knockout's
bracket and ``tournament_standings_png`` a Swiss or arena standings (issue 32).
``move_labels`` gives the button labels the hand picture shows. Same input, same bytes.
"""

from __future__ import annotations

from render.board import board_png
from render.facts import SeatFacts, TableFacts
from render.hand import hand_png, move_labels
from render.profile import ProfileFacts, profile_png
from render.results import hand_result_png, match_result_png, net_dollars
from render.standings import StandingRow, StandingsFacts, standings_png
from render.tournament import (
    BracketFacts,
    BracketMatch,
    TournamentRow,
    TournamentStandingsFacts,
    bracket_png,
    tournament_png,
    tournament_standings_png,
)
from render.waiting import waiting_png

__all__ = [
    "BracketFacts",
    "BracketMatch",
    "ProfileFacts",
    "SeatFacts",
    "StandingRow",
    "StandingsFacts",
    "TableFacts",
    "TournamentRow",
    "TournamentStandingsFacts",
    "board_png",
    "bracket_png",
    "hand_png",
    "hand_result_png",
    "match_result_png",
    "move_labels",
    "net_dollars",
    "profile_png",
    "standings_png",
    "tournament_png",
    "tournament_standings_png",
    "waiting_png",
]
