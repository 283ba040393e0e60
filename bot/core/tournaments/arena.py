"""Arena: a fixed duration, whoever is free paired at once, points with a streak bonus.

docs/tournaments.md, "Arena". The model is the chess platforms' arena (lichess's arena
tournaments: 2 points a win, and after two wins in a row every win counts double until
a match is not won).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.tournaments.matching import pair_least_penalty
from bot.core.tournaments.model import (
    Entrant,
    EntrantError,
    MatchResult,
    Pairing,
    check_field,
)

__all__ = [
    "PAIRING_WINDOW",
    "STREAK_WINS",
    "WIN_POINTS",
    "ArenaSchedule",
    "ArenaStanding",
    "arena_pair",
    "arena_standings",
    "last_opponents",
    "match_points",
]

WIN_POINTS = 2
"""Arena points for a match won (a loss, or a double loss, scores 0)."""
STREAK_WINS = 2
"""Wins in a row after which every win counts double (the third win in a row is the
first worth double), until a match is not won."""
STREAK_FACTOR = 2
PAIRING_WINDOW = 8
"""Candidates on each side of an entrant in the standings before the matching widens
(speed only: docs/tournaments.md, "Pairing 256 entrants")."""


@dataclass(frozen=True, slots=True)
class ArenaSchedule:
    """When an arena runs, in seconds of the injected clock.

    Attributes:
        started_at: the start.
        duration_seconds: how long it runs.
    """

    started_at: float
    duration_seconds: float

    @property
    def ends_at(self) -> float:
        """The end, in seconds."""
        return self.started_at + self.duration_seconds

    def may_pair(self, now: float) -> bool:
        """Whether a new pairing may be made at ``now`` (from the start until the end)."""
        return self.started_at <= now < self.ends_at

    def counts(self, finished_at: float) -> bool:
        """Whether a match finished at ``finished_at`` counts: only matches finished by
        the end do, as in lichess's arenas (docs/tournaments.md, "Arena")."""
        return self.started_at <= finished_at <= self.ends_at


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    """One entrant's line in an arena's standings.

    Attributes:
        key: the entrant.
        place: 1-based; never shared (the last tiebreak is the seed).
        score: arena points (:func:`match_points` summed).
        wins: matches won.
        matches: matches finished (double losses included).
        streak: wins in a row up to now (0 after a match not won).
        points_difference: points scored minus points conceded over its matches.
    """

    key: str
    place: int
    score: int
    wins: int
    matches: int
    streak: int
    points_difference: int

    @property
    def on_fire(self) -> bool:
        """Whether its next win counts double."""
        return self.streak >= STREAK_WINS


def match_points(won: bool, streak_before: int) -> int:
    """Arena points for one match: ``WIN_POINTS`` for a win, doubled when the entrant
    had won ``STREAK_WINS`` or more in a row before it; 0 for a loss.

    Args:
        won: whether the entrant won (a no-show win counts; a double loss does not).
        streak_before: its wins in a row before this match.
    """
    if not won:
        return 0
    return WIN_POINTS * (STREAK_FACTOR if streak_before >= STREAK_WINS else 1)


def arena_standings(
    entrants: Sequence[Entrant], results: Sequence[MatchResult]
) -> tuple[ArenaStanding, ...]:
    """The standings from the results counted so far, in the order they finished.

    Ordered by arena points, then points difference, then seed (rating, then key):
    docs/tournaments.md, "Arena".

    Raises:
        EntrantError: a field that cannot play together, or a result naming a key not
            in it.
    """
    check_field(entrants)
    keys = {e.key for e in entrants}
    score, wins, matches, streak, difference = (Counter[str]() for _ in range(5))
    for result in results:
        for key in (result.first, result.second):
            if key not in keys:
                raise EntrantError("a result names an unknown entrant", key=key)
            won = result.winner == key
            score[key] += match_points(won, streak[key])
            streak[key] = streak[key] + 1 if won else 0
            wins[key] += won
            matches[key] += 1
            scored, conceded = result.points_of(key)
            difference[key] += scored - conceded
    order = sorted(entrants, key=lambda e: (-score[e.key], -difference[e.key], -e.rating, e.key))
    return tuple(
        ArenaStanding(
            key=e.key,
            place=place,
            score=score[e.key],
            wins=wins[e.key],
            matches=matches[e.key],
            streak=streak[e.key],
            points_difference=difference[e.key],
        )
        for place, e in enumerate(order, start=1)
    )


def last_opponents(results: Sequence[MatchResult]) -> dict[str, str]:
    """Each entrant's opponent in its latest match (``results`` in the order they
    finished)."""
    latest: dict[str, str] = {}
    for result in results:
        latest[result.first] = result.second
        latest[result.second] = result.first
    return latest


def arena_pair(
    free_entrants: Sequence[str],
    standings: Sequence[ArenaStanding],
    recent_opponents: Mapping[str, str],
    *,
    window: int = PAIRING_WINDOW,
) -> tuple[Pairing, ...]:
    """Pair the entrants free now, closest in the standings.

    The pairing of least penalty (networkx's maximum-weight matching, as lichess pairs
    its arenas) by these criteria, each above all the ones after it
    (docs/tournaments.md, "Arena: pairing"):

    1. nobody meets the opponent of their last match again, where possible;
    2. with an odd count, the one who became free last waits for the next pairing;
    3. opponents as close in arena points as possible;
    4. then as close in the standings as possible.

    Args:
        free_entrants: the keys free now, in the order they became free (earliest
            first); fewer than two pair nobody.
        standings: the current standings (:func:`arena_standings`).
        recent_opponents: each entrant's last opponent (:func:`last_opponents`).
        window: candidates on each side in the standings before widening (speed only).

    Returns:
        The pairings, the best placed table first, each ``first`` the better placed;
        with an odd count one free entrant is in none (it waits).

    Raises:
        EntrantError: a free key twice, or one not in the standings.
    """
    line = {s.key: s for s in standings}
    if len(set(free_entrants)) != len(free_entrants):
        raise EntrantError("an entrant is free twice")
    unknown = next((k for k in free_entrants if k not in line), None)
    if unknown is not None:
        raise EntrantError("a free entrant is not in the standings", key=unknown)
    if len(free_entrants) < 2:
        return ()
    arrival = {key: index for index, key in enumerate(free_entrants)}
    order = sorted((line[k] for k in free_entrants), key=lambda s: s.place)
    count = len(order)
    spread = max(s.score for s in order) - min(s.score for s in order)
    # Each unit exceeds the largest total the criteria below it can add up to.
    score_unit = count * count + 1
    wait_unit = count * (spread + 1) * score_unit
    rematch_unit = count * wait_unit

    def penalty(i: int, j: int) -> int:
        a, b = order[i], order[j]
        rematch = recent_opponents.get(a.key) == b.key or recent_opponents.get(b.key) == a.key
        return rematch * rematch_unit + abs(a.score - b.score) * score_unit + (j - i)

    def wait_penalty(i: int) -> int:
        return (count - 1 - arrival[order[i].key]) * wait_unit

    matched = pair_least_penalty(count, penalty, wait_penalty, window=window, avoid=rematch_unit)
    return tuple(Pairing(order[i].key, order[j].key) for i, j in matched.pairs)
