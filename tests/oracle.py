"""An independent, deliberately plain reading of rules.md's scoring, for tests.

It shares no code with the engine: it takes a finished hand's deal, the tiles each seat
played (in order) and how the hand ended, and computes what rules.md says.
"""

from __future__ import annotations

from typing import Any


def pips(tile: str) -> int:
    a, b = tile.split("-")
    return int(a) + int(b)


def expected_outcome(
    rules: dict[str, Any],
    deal: list[list[str]],
    plays: list[tuple[int, str, tuple[int, int] | None]],
    domino: bool,
) -> dict[str, Any]:
    """``plays``: (seat, tile, ends before the play or None for the opener), in order."""
    left = [{_norm(t) for t in hand} for hand in deal]
    last_order = [-1, -1, -1, -1]
    for order, (seat, tile, _ends) in enumerate(plays):
        left[seat].remove(_norm(tile))
        last_order[seat] = order
    pips_left = [sum(pips(t) for t in hand) for hand in left]
    counting_all = rules["counting"] == "all"

    def points_for(team: int) -> int:
        if counting_all:
            return sum(pips_left)
        return pips_left[1 - team] + pips_left[3 - team]

    if domino:
        seat, tile, ends = plays[-1]
        a, b = (int(x) for x in tile.split("-"))
        capicua = False
        if ends is not None and a != b:
            e1, e2 = ends
            capicua = {a, b} == {e1, e2} if e1 != e2 else e1 in (a, b)
        team = seat % 2
        bonus = rules["capicua_bonus"] if capicua else 0
        return {
            "end": "domino",
            "winner_team": team,
            "winner_seat": seat,
            "points": points_for(team) + bonus,
            "capicua": capicua,
            "pips_left": pips_left,
        }
    if rules["blocked_winner"] == "team":
        a_total, b_total = pips_left[0] + pips_left[2], pips_left[1] + pips_left[3]
        team = None if a_total == b_total else (0 if a_total < b_total else 1)
    else:
        low = min(pips_left)
        teams = {s % 2 for s in range(4) if pips_left[s] == low}
        team = teams.pop() if len(teams) == 1 else None
    if team is None:
        return {
            "end": "blocked",
            "winner_team": None,
            "winner_seat": None,
            "points": 0,
            "capicua": False,
            "pips_left": pips_left,
        }
    x, y = team, team + 2
    if pips_left[x] != pips_left[y]:
        seat = x if pips_left[x] < pips_left[y] else y
    else:
        seat = x if last_order[x] > last_order[y] else y
    return {
        "end": "blocked",
        "winner_team": team,
        "winner_seat": seat,
        "points": points_for(team),
        "capicua": False,
        "pips_left": pips_left,
    }


def _norm(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"
