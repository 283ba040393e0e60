"""The prize pool's split, and the no-show rule.

docs/tournaments.md, "Prize split" and "No-shows". Money is whole dollars (design.md:
integers, never floats); every split here sums to exactly what it splits.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.core.tournaments.model import (
    Entrant,
    MatchResult,
    Place,
    ResultKind,
    TournamentError,
)

__all__ = [
    "NO_SHOW_SECONDS",
    "SPLITS",
    "award_prizes",
    "no_show_deadline",
    "no_show_result",
    "prize_split",
    "split_between_players",
]

SPLITS: dict[int, tuple[int, ...]] = {1: (100,), 2: (70, 30), 3: (60, 30, 10)}
"""Percent of the pool per paid place, by how many places can be paid (three or more
places pay the top three: 60/30/10)."""
NO_SHOW_SECONDS = 120.0
"""How long a tournament table waits for its players after it opens, in seconds."""


def prize_split(pool_dollars: int, places: int) -> list[int]:
    """The prize of each paid place, first place first, in whole dollars.

    70/30 for two places, 100 for one, 60/30/10 for three or more (only the top three
    are paid). Each share is rounded down and what rounding leaves goes to first place,
    so the prizes always sum to the pool exactly. docs/tournaments.md, "Prize split".

    Args:
        pool_dollars: the pool, in dollars, 0 or more.
        places: places that can be paid (the number of entrants placed), 1 or more.

    Returns:
        ``min(places, 3)`` prizes in dollars, never increasing.

    Raises:
        TournamentError: a negative pool, or no place.
    """
    if pool_dollars < 0:
        raise TournamentError("a prize pool is never negative")
    if places < 1:
        raise TournamentError("a prize needs at least one place")
    percents = SPLITS[min(places, max(SPLITS))]
    prizes = [pool_dollars * percent // 100 for percent in percents]
    prizes[0] += pool_dollars - sum(prizes)
    return prizes


def award_prizes(pool_dollars: int, placing: Sequence[Place]) -> dict[str, int]:
    """Each entrant's prize, in dollars, from the final places.

    The pool is split by :func:`prize_split` over every entrant placed; a shared place
    takes the prizes of all the places it covers and splits them evenly, the dollars
    that do not divide going one each to its entrants in their listed order (best seed
    first). docs/tournaments.md, "Prize split".

    Args:
        pool_dollars: the pool, in dollars.
        placing: the places, first place first (e.g. :meth:`Bracket.placing`).

    Returns:
        Every placed entrant's key and prize (0 for those out of the money); the prizes
        sum to the pool.

    Raises:
        TournamentError: a negative pool, no entrant placed, or places that do not
            follow one another (each place is the one before plus its entrants).
    """
    count = sum(len(p.entrants) for p in placing)
    prizes = prize_split(pool_dollars, count)
    awarded: dict[str, int] = {}
    expected = 1
    for place in placing:
        if place.number != expected or not place.entrants:
            raise TournamentError(f"place {place.number} where place {expected} belongs")
        covered = sum(prizes[place.number - 1 : place.number - 1 + len(place.entrants)])
        share, left = divmod(covered, len(place.entrants))
        awarded.update((k, share + (i < left)) for i, k in enumerate(place.entrants))
        expected += len(place.entrants)
    return awarded


def split_between_players(dollars: int, entrant: Entrant) -> dict[str, int]:
    """An entrant's prize split between its players: evenly, an odd dollar to the
    first listed player (a player alone takes it all)."""
    share, left = divmod(dollars, len(entrant.players))
    return {p: share + (i < left) for i, p in enumerate(entrant.players)}


def no_show_deadline(opened_at: float) -> float:
    """When a tournament table's wait for its players ends: ``NO_SHOW_SECONDS`` after it
    opened (seconds of the injected clock). docs/tournaments.md, "No-shows"."""
    return opened_at + NO_SHOW_SECONDS


def no_show_result(first: Entrant, second: Entrant, seated: Collection[str]) -> MatchResult | None:
    """The result the no-show rule gives when a table's wait ends, or ``None`` to play.

    An entrant with a seat still empty (one of its players not in ``seated``) loses the
    match; when both have an empty seat (a whole table of no-shows among them) it is a
    double loss. A match decided so scores 0 points to each side. docs/tournaments.md,
    "No-shows".

    Args:
        first, second: the pairing's entrants.
        seated: the player keys sitting at the table when :func:`no_show_deadline` passes.
    """
    first_absent = not set(first.players) <= set(seated)
    second_absent = not set(second.players) <= set(seated)
    if first_absent and second_absent:
        return MatchResult(first.key, second.key, None, kind=ResultKind.DOUBLE_NO_SHOW)
    if first_absent or second_absent:
        winner = second.key if first_absent else first.key
        return MatchResult(first.key, second.key, winner, kind=ResultKind.NO_SHOW)
    return None
