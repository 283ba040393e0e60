"""Partners drawn anew each round: each player is an entrant of their own, and every
round (a Swiss's) or every pairing (an arena's) makes new partnerships and seats them
two against two (docs/tournaments.md, "Partners drawn each round").

A partnership of a round is a *team*: its key joins its two players' keys with ``+``,
the better placed first; a result (:class:`~bot.core.tournaments.model.MatchResult`)
names the two teams, and each player of a team scores what the team scored. Both steps
of a pairing use the least-penalty matching of :mod:`.matching`: first the players into
partnerships, then the partnerships into tables. Pure functions of frozen values, as
the rest of the package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.tournaments.arena import ArenaStanding, arena_pair, arena_standings
from bot.core.tournaments.matching import pair_least_penalty
from bot.core.tournaments.model import (
    Entrant,
    EntrantError,
    MatchResult,
    Pairing,
    Round,
    RoundUnfinished,
    check_field,
)
from bot.core.tournaments.swiss import (
    PAIRING_WINDOW,
    SwissStanding,
    pair_by_score,
    pairing_order,
)

__all__ = [
    "LEAST_PLAYERS",
    "drawn_arena_pair",
    "drawn_arena_standings",
    "drawn_swiss_pair",
    "drawn_swiss_standings",
    "individual_results",
    "last_partners",
    "team_entrant",
    "team_key",
    "team_players",
]

LEAST_PLAYERS = 4
"""Players a tournament with partners drawn each round needs: one table of four."""

_JOINER = "+"


def team_key(players: Sequence[str]) -> str:
    """A team's key: its players' keys joined by ``+`` (the better placed first)."""
    return _JOINER.join(players)


def team_players(key: str) -> tuple[str, ...]:
    """The players' keys of a team's key (:func:`team_key` undone)."""
    return tuple(key.split(_JOINER))


def team_entrant(key: str, ratings: Mapping[str, int]) -> Entrant:
    """A team as an entrant of one match: its players, its rating their mean.

    Raises:
        EntrantError: a key not of two players, or a player not in ``ratings``.
    """
    players = team_players(key)
    unknown = next((p for p in players if p not in ratings), None)
    if len(players) != 2 or unknown is not None:
        raise EntrantError("a team is two known players", key=unknown or key)
    return Entrant(key, players, sum(ratings[p] for p in players) // 2)


def individual_results(results: Sequence[MatchResult]) -> list[MatchResult]:
    """Each team result as one result per player, each facing one player of the other
    team with the team's outcome and points: what an arena's standings count (a
    player's points, wins and streak are their team's)."""
    out: list[MatchResult] = []
    for result in results:
        first, second = team_players(result.first), team_players(result.second)
        for mine, theirs in zip(first, second, strict=True):
            winner = None
            if result.winner is not None:
                winner = mine if result.winner == result.first else theirs
            out.append(MatchResult(mine, theirs, winner, result.points, result.kind))
    return out


@dataclass(frozen=True, slots=True)
class _Team:
    players: tuple[SwissStanding, SwissStanding]

    @property
    def key(self) -> str:
        return team_key([p.key for p in self.players])

    @property
    def place(self) -> int:
        return min(p.place for p in self.players)

    @property
    def score(self) -> int:
        return sum(p.score for p in self.players)

    @property
    def byes(self) -> int:
        return sum(p.byes for p in self.players)


def _team(a: SwissStanding, b: SwissStanding) -> _Team:
    return _Team((a, b) if a.place < b.place else (b, a))


def drawn_swiss_standings(
    entrants: Sequence[Entrant], rounds: Sequence[Round]
) -> tuple[SwissStanding, ...]:
    """The players' Swiss standings after ``rounds`` whose pairings are teams.

    As :func:`~bot.core.tournaments.swiss.swiss_standings`: score (wins, a bye counted
    as a win), then points difference, then Buchholz (the scores of every opponent
    faced: two a table), then seed. docs/tournaments.md, "Partners drawn each round".

    Raises:
        EntrantError: fewer than :data:`LEAST_PLAYERS` players, not players alone, or a
            round naming a player not in the field.
    """
    check_field(entrants, least=LEAST_PLAYERS)
    if any(len(e.players) != 1 for e in entrants):
        raise EntrantError("partners drawn each round pair players alone")
    keys = {e.key for e in entrants}
    wins, byes, difference = Counter[str](), Counter[str](), Counter[str]()
    opponents: dict[str, list[str]] = {key: [] for key in keys}

    def known(key: str) -> str:
        if key not in keys:
            raise EntrantError("a round names a player not in the field", key=key)
        return key

    for played in rounds:
        byes.update(known(k) for k in played.byes)
        for result in played.results:
            for side in (result.first, result.second):
                other = team_players(result.opponent_of(side))
                scored, conceded = result.points_of(side)
                for key in map(known, team_players(side)):
                    wins[key] += result.winner == side
                    difference[key] += scored - conceded
                    opponents[key] += other
    score = {key: wins[key] + byes[key] for key in keys}
    buchholz = {key: sum(score[known(o)] for o in opponents[key]) for key in keys}
    order = sorted(
        entrants,
        key=lambda e: (-score[e.key], -difference[e.key], -buchholz[e.key], -e.rating, e.key),
    )
    return tuple(
        SwissStanding(
            key=e.key,
            place=place,
            score=score[e.key],
            points_difference=difference[e.key],
            buchholz=buchholz[e.key],
            byes=byes[e.key],
        )
        for place, e in enumerate(order, start=1)
    )


def drawn_swiss_pair(
    entrants: Sequence[Entrant], rounds: Sequence[Round], *, window: int = PAIRING_WINDOW
) -> Round:
    """The next round: new partnerships, then their tables (docs/tournaments.md,
    "Partners drawn each round").

    First the players are paired into partnerships in the Swiss's pairing order (each
    score group's upper half with its lower half): nobody with a partner they had
    before where possible, partners close in score; with an odd count the lowest ranked
    of those with the fewest byes rests. Then the partnerships are paired into tables:
    as few opponents met before as possible, teams close in score; with an odd count of
    teams the one with the fewest byes, lowest ranked, rests. Up to three players rest a
    round (the field's count modulo 4); a bye scores as a win.

    Returns:
        The next :class:`~bot.core.tournaments.model.Round`: pairings of team keys,
        table 1 the best placed team's, each ``first`` the better placed team.

    Raises:
        EntrantError: as :func:`drawn_swiss_standings`.
        RoundUnfinished: a round still lacks results.
    """
    standings = drawn_swiss_standings(entrants, rounds)
    for played in rounds:
        if not played.is_complete:
            raise RoundUnfinished(f"round {played.number} is not over", number=played.number)
    partnered = Counter(
        frozenset(team_players(k)) for r in rounds for p in r.pairings for k in (p.first, p.second)
    )
    faced = Counter(
        frozenset((x, y))
        for r in rounds
        for p in r.pairings
        for x in team_players(p.first)
        for y in team_players(p.second)
    )
    order = pairing_order(standings)
    spread = max(s.score for s in standings) - min(s.score for s in standings)
    teams, resting = _partnerships(order, partnered, window)
    tables, resting_team = _tables(teams, faced, spread, window)
    byes = [*resting, *(() if resting_team is None else resting_team.players)]
    return Round(
        number=len(rounds) + 1,
        pairings=tuple(Pairing(a.key, b.key) for a, b in tables),
        byes=tuple(s.key for s in sorted(byes, key=lambda s: s.place)),
    )


def _partnerships(
    order: Sequence[SwissStanding], partnered: Counter[frozenset[str]], window: int
) -> tuple[list[_Team], list[SwissStanding]]:
    matched = pair_by_score(order, partnered, window=window)
    teams = [_team(order[i], order[j]) for i, j in matched.pairs]
    return teams, [] if matched.spare is None else [order[matched.spare]]


def _tables(
    teams: Sequence[_Team], faced: Counter[frozenset[str]], spread: int, window: int
) -> tuple[list[tuple[_Team, _Team]], _Team | None]:
    order = sorted(teams, key=lambda t: (-t.score, t.place))
    count = len(order)
    if count < 2:
        return [], order[0] if order else None
    fewest_byes = min(t.byes for t in order)
    may_rest = sorted(
        (i for i in range(count) if order[i].byes == fewest_byes), key=lambda i: -order[i].place
    )
    rest_rank = {position: rank for rank, position in enumerate(may_rest)}
    score_unit = count * count + 1
    rest_unit = count * (4 * spread * spread + 1) * score_unit
    repeat_unit = 4 * count * rest_unit

    def met(a: _Team, b: _Team) -> int:
        return sum(faced[frozenset((x.key, y.key))] for x in a.players for y in b.players)

    def penalty(i: int, j: int) -> int:
        a, b = order[i], order[j]
        return met(a, b) * repeat_unit + (a.score - b.score) ** 2 * score_unit + (j - i)

    def rest_penalty(i: int) -> int | None:
        rank = rest_rank.get(i)
        return None if rank is None else rank * rest_unit

    matched = pair_least_penalty(count, penalty, rest_penalty, window=window, avoid=repeat_unit)
    tables = sorted(
        (sorted((order[i], order[j]), key=lambda t: t.place) for i, j in matched.pairs),
        key=lambda pair: pair[0].place,
    )
    spare = None if matched.spare is None else order[matched.spare]
    return [(a, b) for a, b in tables], spare


def drawn_arena_standings(
    entrants: Sequence[Entrant], results: Sequence[MatchResult]
) -> tuple[ArenaStanding, ...]:
    """The players' arena standings from team results (:func:`individual_results`
    counted by :func:`~bot.core.tournaments.arena.arena_standings`).

    Raises:
        EntrantError: as :func:`~bot.core.tournaments.arena.arena_standings`.
    """
    return arena_standings(entrants, individual_results(results))


def last_partners(results: Sequence[MatchResult]) -> dict[str, str]:
    """Each player's partner in their latest match (``results`` in the order they
    finished)."""
    latest: dict[str, str] = {}
    for result in results:
        for side in (result.first, result.second):
            a, b = team_players(side)
            latest[a], latest[b] = b, a
    return latest


def drawn_arena_pair(
    free_players: Sequence[str],
    standings: Sequence[ArenaStanding],
    recent_partners: Mapping[str, str],
    *,
    window: int = PAIRING_WINDOW,
) -> tuple[Pairing, ...]:
    """Seat the players free now two against two, closest in the standings.

    The partnerships are :func:`~bot.core.tournaments.arena.arena_pair`'s pairing of
    the free players with their last *partners* to avoid (so partners change whenever
    anyone else is free); then the partnerships are paired into tables closest in
    arena points; with an odd count of partnerships the one that became free last
    waits, as does an odd player out. Fewer than four free players wait.

    Returns:
        The pairings of team keys, the best placed table first, each ``first`` the
        better placed team.

    Raises:
        EntrantError: as :func:`~bot.core.tournaments.arena.arena_pair`.
    """
    teams = arena_pair(free_players, standings, recent_partners, window=window)
    if len(teams) < 2:
        return ()
    line = {s.key: s for s in standings}
    arrival = {key: index for index, key in enumerate(free_players)}
    order = sorted(teams, key=lambda t: min(line[t.first].place, line[t.second].place))
    count = len(order)

    def score(i: int) -> int:
        return line[order[i].first].score + line[order[i].second].score

    spread = max(map(score, range(count))) - min(map(score, range(count)))
    score_unit = count * count + 1
    wait_unit = count * (spread + 1) * score_unit

    def penalty(i: int, j: int) -> int:
        return abs(score(i) - score(j)) * score_unit + (j - i)

    def wait_penalty(i: int) -> int:
        came = max(arrival[order[i].first], arrival[order[i].second])
        return (len(free_players) - 1 - came) * wait_unit

    matched = pair_least_penalty(count, penalty, wait_penalty, window=window, avoid=wait_unit)
    return tuple(
        Pairing(
            team_key((order[i].first, order[i].second)), team_key((order[j].first, order[j].second))
        )
        for i, j in matched.pairs
    )
