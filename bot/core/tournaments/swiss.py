"""Swiss: standings with their tiebreaks, and each round's pairing by score.

docs/tournaments.md, "Swiss". A Swiss is its entrants and its rounds (each with its
pairings, its bye and its results); :func:`swiss_standings` and :func:`swiss_pair` are
pure functions of them, so a stored Swiss pairs the same way after a restart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.tournaments.matching import Matched, pair_least_penalty
from bot.core.tournaments.model import (
    Entrant,
    EntrantError,
    Pairing,
    ResultError,
    Round,
    RoundUnfinished,
    TournamentError,
    check_field,
)

__all__ = [
    "PAIRING_WINDOW",
    "SwissStanding",
    "pair_by_score",
    "pairing_order",
    "swiss_pair",
    "swiss_standings",
]

PAIRING_WINDOW = 8
"""Candidates on each side of an entrant in the pairing order before the matching widens
(only the time a pairing takes depends on it: docs/tournaments.md, "Pairing 256
entrants")."""


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """One entrant's line in a Swiss's standings.

    Attributes:
        key: the entrant.
        place: 1-based; never shared (the last tiebreak is the seed).
        score: matches won, a bye counted as a win (a double loss is a loss).
        points_difference: points scored minus points conceded over its matches.
        buchholz: the sum of the scores of the opponents it has a result against.
        byes: byes received.
    """

    key: str
    place: int
    score: int
    points_difference: int
    buchholz: int
    byes: int


def swiss_standings(
    entrants: Sequence[Entrant], rounds: Sequence[Round]
) -> tuple[SwissStanding, ...]:
    """The standings after ``rounds`` (results so far; a bye counts once it is given).

    Ordered by score, then points difference, then Buchholz, then seed (rating, then
    key): docs/tournaments.md, "Tiebreaks".

    Raises:
        EntrantError: a field that cannot play together, or a round naming a key not
            in it.
        TournamentError: rounds out of order, or a round that does not pair or rest
            every entrant exactly once.
        ResultError: a round holding a result of none of its pairings, or two for one.
    """
    check_field(entrants)
    _check_rounds(entrants, rounds)
    wins = Counter[str]()
    byes = Counter[str]()
    difference = Counter[str]()
    opponents: dict[str, list[str]] = {e.key: [] for e in entrants}
    for played in rounds:
        byes.update(played.byes)
        for result in played.results:
            for key in (result.first, result.second):
                scored, conceded = result.points_of(key)
                difference[key] += scored - conceded
                wins[key] += result.winner == key
                opponents[key].append(result.opponent_of(key))
    score = {e.key: wins[e.key] + byes[e.key] for e in entrants}
    order = sorted(
        entrants,
        key=lambda e: (
            -score[e.key],
            -difference[e.key],
            -sum(score[o] for o in opponents[e.key]),
            -e.rating,
            e.key,
        ),
    )
    return tuple(
        SwissStanding(
            key=e.key,
            place=place,
            score=score[e.key],
            points_difference=difference[e.key],
            buchholz=sum(score[o] for o in opponents[e.key]),
            byes=byes[e.key],
        )
        for place, e in enumerate(order, start=1)
    )


def swiss_pair(
    entrants: Sequence[Entrant], rounds: Sequence[Round], *, window: int = PAIRING_WINDOW
) -> Round:
    """The next round's pairings: by score, without repeats where possible.

    The pairing is the one of least penalty (networkx's maximum-weight matching) by
    these criteria, each above all the ones after it (docs/tournaments.md, "Swiss:
    pairing"):

    1. a bye (odd field) goes only to an entrant with the fewest byes so far;
    2. as few repeated pairings as possible;
    3. the bye to the lowest ranked of those;
    4. opponents as close in score as possible (the squared differences);
    5. within a score group, the upper half meets the lower half (1st meets the first of
       the lower half, as in the Dutch system), so the leaders meet late.

    Args:
        entrants: the field, at least 2.
        rounds: the rounds played so far, each complete.
        window: candidates on each side in the pairing order before widening (speed
            only; see :data:`PAIRING_WINDOW`).

    Returns:
        The next :class:`Round`: table 1 holds the best ranked pair, each pairing's
        ``first`` is its better ranked entrant, and ``byes`` the one who rests, if any.

    Raises:
        EntrantError, TournamentError: as :func:`swiss_standings`.
        RoundUnfinished: a round still lacks results.
    """
    standings = swiss_standings(entrants, rounds)
    for played in rounds:
        if not played.is_complete:
            raise RoundUnfinished(f"round {played.number} is not over", number=played.number)
    order = pairing_order(standings)
    met = Counter(p.keys for played in rounds for p in played.pairings)
    matched = pair_by_score(order, met, window=window)
    pairs = sorted(
        (sorted((order[i], order[j]), key=lambda s: s.place) for i, j in matched.pairs),
        key=lambda pair: pair[0].place,
    )
    return Round(
        number=len(rounds) + 1,
        pairings=tuple(Pairing(a.key, b.key) for a, b in pairs),
        byes=() if matched.spare is None else (order[matched.spare].key,),
    )


def pair_by_score(
    order: Sequence[SwissStanding], met: Counter[frozenset[str]], *, window: int
) -> Matched:
    """The least-penalty pairing of ``order`` (:func:`pairing_order`) by the Swiss's
    criteria (:func:`swiss_pair`): a bye only to the fewest byes, as few pairs ``met``
    before as possible, the bye to the lowest ranked, close in score, the pairing order.
    Also pairs players into partnerships when partners are drawn each round
    (:mod:`.drawn`, with ``met`` counting partners)."""
    count = len(order)
    fewest_byes = min(s.byes for s in order)
    may_rest = [i for i in sorted(range(count), key=lambda i: -order[i].place)
                if order[i].byes == fewest_byes]  # fmt: skip
    rest_rank = {position: rank for rank, position in enumerate(may_rest)}
    spread = max(s.score for s in order) - min(s.score for s in order)
    # Each unit exceeds the largest total the criteria below it can add up to.
    score_unit = count * count + 1
    rest_unit = count * (spread * spread + 1) * score_unit
    repeat_unit = count * rest_unit

    def penalty(i: int, j: int) -> int:
        a, b = order[i], order[j]
        return (
            met[frozenset((a.key, b.key))] * repeat_unit
            + (a.score - b.score) ** 2 * score_unit
            + (j - i)
        )

    def rest_penalty(i: int) -> int | None:
        rank = rest_rank.get(i)
        return None if rank is None else rank * rest_unit

    return pair_least_penalty(count, penalty, rest_penalty, window=window, avoid=repeat_unit)


def pairing_order(standings: Sequence[SwissStanding]) -> list[SwissStanding]:
    """The standings with each score group's upper and lower halves interleaved (1st,
    first of the lower half, 2nd, second of the lower half...): neighbours in this
    order are the Dutch system's partners, and an odd group's last entrant sits next
    to the group below, where it floats."""
    order: list[SwissStanding] = []
    start = 0
    while start < len(standings):
        end = start
        while end < len(standings) and standings[end].score == standings[start].score:
            end += 1
        group = standings[start:end]
        half = len(group) // 2
        upper, lower = group[:half], group[half:]
        order += [s for pair in zip(upper, lower, strict=False) for s in pair]
        order += lower[len(upper) :]
        start = end
    return order


def _check_rounds(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> None:
    """Check that each round, numbered from 1, pairs or rests every entrant once."""
    keys = {e.key for e in entrants}
    for number, played in enumerate(rounds, start=1):
        if played.number != number:
            raise TournamentError(f"round {played.number} where round {number} belongs")
        named = [*played.byes, *(k for p in played.pairings for k in (p.first, p.second))]
        unknown = next((k for k in named if k not in keys), None)
        if unknown is not None:
            raise EntrantError(f"round {number} names an unknown entrant", key=unknown)
        if len(named) != len(keys) or set(named) != keys:
            raise TournamentError(f"round {number} does not pair or rest every entrant once")
        paired = {p.keys for p in played.pairings}
        decided = Counter(r.keys for r in played.results)
        stray = next(
            (r for r in played.results if r.keys not in paired or decided[r.keys] > 1), None
        )
        if stray is not None:
            raise ResultError(f"round {number} holds a result of no pairing, or two", result=stray)
