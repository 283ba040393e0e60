"""Skill ratings and seasons: the pure rules both storages apply (docs/ratings.md).

Ratings are team-aware Weng-Lin (Plackett-Luce) ratings from ``openskill``: a player's
skill is a mean ``mu`` and an uncertainty ``sigma``; a finished match between the two
partnerships moves the humans' skills in the transaction that settles it. Robots are
rated too, at one fixed skill per level (:data:`ROBOT_SKILLS`, measured with
``domino simulate --matches``), and never move. What players see is the conservative
figure ``mu - 3 sigma`` scaled by :func:`display_rating`; a rating is provisional until
:data:`PROVISIONAL_MATCHES` rated matches.

Three ratings move with every rated match: the all-time one, the chat's season and the
global season (:class:`Scope`). Seasons are calendar weeks, months or quarters in UTC
(:class:`SeasonPeriod`); a season key names one (``"2026-12"``, ``"2026-W49"``,
``"2026-Q4"``).

Everything here is deterministic: the same matches in the same order give the same
floats, so ``domino ratings --rebuild`` reproduces the stored ratings exactly.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from openskill.models import PlackettLuce

from engine.errors import DominoError
from engine.records import replay
from engine.rules import Rules
from storage.shapes import PairRow, PlayerResult, Rating, RebuildReport, bayesian_rating

__all__ = [
    "ALL_CHATS",
    "ALL_TIME",
    "DEFAULT_PERIOD",
    "NEW_SKILL",
    "PAIR_MIN_MATCHES",
    "PARTNER_MIN_MATCHES",
    "PROVISIONAL_MATCHES",
    "ROBOT_SKILLS",
    "MatchFacts",
    "RatedSeat",
    "RatingBook",
    "RatingState",
    "Scope",
    "SeasonPeriod",
    "Skill",
    "compare_ratings",
    "display_rating",
    "due_finals",
    "facts_of",
    "pair_order",
    "rate_match",
    "rating_changes",
    "rating_of",
    "season_bounds",
    "season_key",
    "seats_of",
    "streak_of",
]

PROVISIONAL_MATCHES: Final = 10
"""Rated matches before a rating stops being provisional (issue 14)."""

PARTNER_MIN_MATCHES: Final = 3
"""Matches together before a partner counts as best or worst partner in a profile."""

PAIR_MIN_MATCHES: Final = 3
"""Matches together as partners before two players appear in the pairs table."""

DISPLAY_BASE: Final = 1000
DISPLAY_SCALE: Final = 25
"""The shown rating is ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``: a new player
shows 1,000; a player of average strength climbs toward about 1,500 as sigma shrinks."""

ALL_CHATS: Final = "*"
"""The chat of the global ratings (every chat counts)."""

ALL_TIME: Final = ""
"""The season of the all-time ratings."""

_MODEL: Final = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: mean ``mu`` and uncertainty ``sigma`` (openskill units)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        """The rating players see (:func:`display_rating`)."""
        return display_rating(self.mu, self.sigma)


NEW_SKILL: Final = Skill(_MODEL.mu, _MODEL.sigma)
"""A player's skill before their first rated match (displayed 1,000)."""

ROBOT_SIGMA: Final = 1.0
"""The uncertainty of a robot's fixed skill: it is measured, not guessed."""

ROBOT_SKILLS: Final[Mapping[str, Skill]] = {
    # mu per level from duplicate matches between neighbouring levels (docs/ratings.md,
    # "Robots"); "experto", the bot's default robot, is a new player's 25.
    "novato": Skill(13.2, ROBOT_SIGMA),
    "aprendiz": Skill(17.4, ROBOT_SIGMA),
    "jugador": Skill(20.1, ROBOT_SIGMA),
    "experto": Skill(25.0, ROBOT_SIGMA),
    "maestro": Skill(25.8, ROBOT_SIGMA),
}
"""The fixed skill of each robot level; a robot of another level makes a match unrated."""

OLD_RECORD_ROBOT: Final = "experto"
"""The level assumed for robot seats of matches recorded before ratings existed."""


def display_rating(mu: float, sigma: float) -> int:
    """The shown rating of a skill, rounded to a whole number (docs/ratings.md)."""
    return math.floor(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma) + 0.5)


# ---------------------------------------------------------------------------- seasons


class SeasonPeriod(StrEnum):
    """How long a chat's seasons last (calendar periods in UTC)."""

    WEEKLY = "weekly"
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"


DEFAULT_PERIOD: Final = SeasonPeriod.MONTHLY
"""A chat's season length until an admin changes it; the global season is monthly."""


def season_key(period: SeasonPeriod, at: float) -> str:
    """The season holding the instant ``at`` (epoch seconds): ``"2026-W49"`` (ISO week),
    ``"2026-12"`` or ``"2026-Q4"``."""
    day = dt.datetime.fromtimestamp(at, dt.UTC).date()
    if period is SeasonPeriod.WEEKLY:
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if period is SeasonPeriod.QUARTERLY:
        return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
    return f"{day.year}-{day.month:02d}"


def season_bounds(key: str) -> tuple[float, float]:
    """When season ``key`` starts and ends (epoch seconds, end excluded).

    Raises:
        ValueError: ``key`` is not a season key.
    """
    year_text, _, rest = key.partition("-")
    year = int(year_text)
    if rest.startswith("W"):
        start = dt.datetime.fromisocalendar(year, int(rest[1:]), 1).replace(tzinfo=dt.UTC)
        end = start + dt.timedelta(days=7)
    elif rest.startswith("Q"):
        quarter = int(rest[1:])
        if not 1 <= quarter <= 4:
            raise ValueError(f"not a season: {key!r}")
        start = dt.datetime(year, 3 * quarter - 2, 1, tzinfo=dt.UTC)
        end = dt.datetime(year + quarter // 4, 3 * quarter % 12 + 1, 1, tzinfo=dt.UTC)
    else:
        month = int(rest)
        start = dt.datetime(year, month, 1, tzinfo=dt.UTC)
        end = dt.datetime(year + month // 12, month % 12 + 1, 1, tzinfo=dt.UTC)
    return start.timestamp(), end.timestamp()


def season_period_of(key: str) -> SeasonPeriod:
    """The period a season key belongs to."""
    rest = key.partition("-")[2]
    if rest.startswith("W"):
        return SeasonPeriod.WEEKLY
    if rest.startswith("Q"):
        return SeasonPeriod.QUARTERLY
    return SeasonPeriod.MONTHLY


@dataclass(frozen=True, slots=True)
class Scope:
    """Which rating table a rating lives in: a chat (or :data:`ALL_CHATS`) and a season
    (or :data:`ALL_TIME`)."""

    chat: str
    season: str


# ------------------------------------------------------------------------ match facts


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """Who held one seat of a finished match.

    Attributes:
        seat: 0..3 (seats 0 and 2 are partners).
        player_id: the human's id, or None for a robot seat.
        robot: the robot's level for a robot seat.
        moves: moves this seat made (tiles and passes).
        robot_moves: of those, made by a robot for the human (away, timed out, gone).
    """

    seat: int
    player_id: int | None
    robot: str | None = None
    moves: int = 0
    robot_moves: int = 0

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def absent(self) -> bool:
        """A robot played most of this human's moves (issue 14: loss counts, win does not)."""
        return self.player_id is not None and 2 * self.robot_moves > self.moves


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What ratings and profiles need of a finished match.

    Attributes:
        match_id, chat, finished_at: as stored (epoch seconds).
        seats: the four seats, by seat number.
        winner_team: 0 or 1.
        score: the final score by team (points).
        hands: hands played.
        seasons: (chat season key, global season key) the match counts in.
        abandoned: every human abandoned it; it ended there, lost by the team of the
            last one (records.md ``abandoned_by``): the winners' humans gain nothing.
    """

    match_id: str
    chat: str
    finished_at: float
    seats: tuple[RatedSeat, ...]
    winner_team: int
    score: tuple[int, int]
    hands: int
    seasons: tuple[str, str]
    abandoned: bool = False
    classic: bool = True

    @property
    def rated(self) -> bool:
        """Rated when a human played and every robot seat has a rated level (issue 14),
        in today's game only: the other formats get lists of their own (issue 29), never
        today's."""
        humans = [s for s in self.seats if s.player_id is not None]
        robots_rated = all(s.robot in ROBOT_SKILLS for s in self.seats if s.player_id is None)
        return self.classic and bool(humans) and robots_rated and len(self.seats) == 4

    def scopes(self) -> tuple[Scope, Scope, Scope]:
        """The all-time, global season and chat season rating tables this match moves."""
        return (
            Scope(ALL_CHATS, ALL_TIME),
            Scope(ALL_CHATS, self.seasons[1]),
            Scope(self.chat, self.seasons[0]),
        )


def seats_of(record: Mapping[str, Any], results: Sequence[PlayerResult]) -> tuple[RatedSeat, ...]:
    """The seats of a stored match: from the record's ``seats`` (records.md, "What the
    bot adds") when they name exactly the humans of ``results`` on their teams; else
    (a record written before ratings) the humans by team, lower id first, with
    :data:`OLD_RECORD_ROBOT` robots in the other seats."""
    seats = record.get("seats")
    teams = {r.player_id: r.team for r in results}
    if isinstance(seats, list) and len(seats) == 4 and all(isinstance(s, Mapping) for s in seats):
        out = []
        for index, seat in enumerate(seats):
            player = seat.get("player")
            moves, robot_moves = seat.get("moves", 0), seat.get("robot_moves", 0)
            if not (_count(moves) and _count(robot_moves)):
                break
            if isinstance(player, int) and not isinstance(player, bool):
                out.append(RatedSeat(index, player, None, moves, robot_moves))
            elif isinstance(seat.get("robot"), str) and player is None:
                out.append(RatedSeat(index, None, seat["robot"], moves, robot_moves))
            else:
                break
        named = {s.player_id: s.team for s in out if s.player_id is not None}
        if len(out) == 4 and named == teams:
            return tuple(out)
    by_seat: dict[int, int] = {}
    for result in sorted(results, key=lambda r: r.player_id):
        seat = result.team if result.team not in by_seat else result.team + 2
        by_seat[seat] = result.player_id
    return tuple(
        RatedSeat(i, by_seat[i]) if i in by_seat else RatedSeat(i, None, OLD_RECORD_ROBOT)
        for i in range(4)
    )


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def facts_of(
    match_id: str,
    chat: str,
    finished_at: float,
    record: Mapping[str, Any],
    results: Sequence[PlayerResult],
    seasons: tuple[str, str],
) -> MatchFacts:
    """A stored match's facts: seats (:func:`seats_of`), winner, score and hands.

    The winner is the team of the humans' results (the record's ``winner_team`` when no
    human played); the score comes from the record's ``score``, or from replaying a
    record written before that field (0-0 when it does not replay). A record with a
    seat number as ``abandoned_by`` is an abandoned match (:attr:`MatchFacts.abandoned`).
    """
    score = record.get("score")
    hands = record.get("hands")
    count = len(hands) if isinstance(hands, list) else 0
    if not (isinstance(score, list) and len(score) == 2 and all(_count(x) for x in score)):
        try:
            match = replay(dict(record))
            score, count = list(match.score), len(match.hands)
        except (DominoError, ValueError, TypeError, KeyError):
            score = [0, 0]
    winner = record.get("winner_team")
    for result in results:
        winner = result.team if result.won_match else 1 - result.team
        break
    if winner not in (0, 1):
        winner = 0 if score[0] >= score[1] else 1
    return MatchFacts(
        match_id=match_id,
        chat=chat,
        finished_at=finished_at,
        seats=seats_of(record, results),
        winner_team=int(winner),
        score=(int(score[0]), int(score[1])),
        hands=count,
        seasons=seasons,
        abandoned=_seat_number(record.get("abandoned_by")),
        classic=_is_classic(record),
    )


def _is_classic(record: Mapping[str, Any]) -> bool:
    """Whether a record is of today's game (a record without rules is)."""
    spec = record.get("rules")
    if spec is None:
        return True
    try:
        return Rules.from_spec(spec).is_classic
    except (DominoError, ValueError, TypeError):
        return False


def _seat_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4


def rate_match(facts: MatchFacts, skills: Mapping[int, Skill]) -> dict[int, Skill]:
    """The humans' new skills after a rated match (issue 14; docs/ratings.md).

    ``skills`` holds the humans' skills before the match (missing: :data:`NEW_SKILL`).
    Robots play at their level's fixed skill. A human whose seat a robot played most
    of the match takes the loss when their team lost and keeps their skill when it won;
    in an abandoned match (:attr:`MatchFacts.abandoned`, every human left) no human of
    the winning team gains, and the last leaver's team takes the loss.
    Returns player id -> skill for every human of the match.
    """
    teams: list[list[Any]] = [[], []]
    for seat in facts.seats:
        if seat.player_id is None:
            fixed = ROBOT_SKILLS[seat.robot or ""]
            teams[seat.team].append(_MODEL.rating(mu=fixed.mu, sigma=fixed.sigma))
        else:
            skill = skills.get(seat.player_id, NEW_SKILL)
            teams[seat.team].append(_MODEL.rating(mu=skill.mu, sigma=skill.sigma))
    ranks = [0.0, 1.0] if facts.winner_team == 0 else [1.0, 0.0]
    rated = _MODEL.rate(teams, ranks=ranks)
    out: dict[int, Skill] = {}
    positions = [0, 0]
    for seat in facts.seats:
        new = rated[seat.team][positions[seat.team]]
        positions[seat.team] += 1
        if seat.player_id is None:
            continue
        before = skills.get(seat.player_id, NEW_SKILL)
        if (seat.absent or facts.abandoned) and seat.team == facts.winner_team:
            out[seat.player_id] = before
        else:
            out[seat.player_id] = Skill(float(new.mu), float(new.sigma))
    return out


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's rating in one scope.

    Attributes:
        mu, sigma: the skill (openskill units).
        matches: rated matches in the scope.
        wins: of those, won by the player's team.
        updated_at: when the last rated match finished (epoch seconds).
    """

    mu: float
    sigma: float
    matches: int
    wins: int
    updated_at: float

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def rating_changes(
    facts: MatchFacts, lookup: Callable[[Scope, Sequence[int]], Mapping[int, RatingState]]
) -> list[tuple[Scope, int, RatingState]]:
    """The rating rows a rated match writes, in every scope it moves (empty when the
    match is not rated). ``lookup(scope, player_ids)`` gives those players' current rows
    in a scope (a player without one is left out)."""
    if not facts.rated:
        return []
    changes = []
    players = [s.player_id for s in facts.seats if s.player_id is not None]
    # the same skills give the same result: a player's all-time, global season and chat
    # season ratings are often equal (one chat, one month), so each distinct set of skills
    # is rated once (the floats are those of a separate call)
    done: dict[tuple[Skill | None, ...], dict[int, Skill]] = {}
    for scope in facts.scopes():
        found = lookup(scope, players)
        states = {pid: found.get(pid) for pid in players}
        skills = {pid: st.skill for pid, st in states.items() if st is not None}
        key = tuple(skills.get(pid) for pid in players)
        rated = done.get(key)
        if rated is None:
            rated = done[key] = rate_match(facts, skills)
        for seat in facts.seats:
            pid = seat.player_id
            if pid is None:
                continue
            new = rated[pid]
            before = states[pid]
            won = int(seat.team == facts.winner_team)
            changes.append(
                (
                    scope,
                    pid,
                    RatingState(
                        new.mu,
                        new.sigma,
                        (before.matches if before else 0) + 1,
                        (before.wins if before else 0) + won,
                        facts.finished_at,
                    ),
                )
            )
    return changes


class RatingBook:
    """Every rating table in memory, built by applying matches in order
    (``domino ratings --rebuild``'s state)."""

    def __init__(self) -> None:
        self.tables: dict[Scope, dict[int, RatingState]] = {}
        self.history: dict[int, list[tuple[str, float, float, float]]] = {}
        """player id -> (match id, finished_at, mu, sigma) after each all-time change."""

    def get(self, scope: Scope, player_id: int) -> RatingState | None:
        return self.tables.get(scope, {}).get(player_id)

    def get_many(self, scope: Scope, player_ids: Sequence[int]) -> dict[int, RatingState]:
        table = self.tables.get(scope, {})
        return {pid: table[pid] for pid in player_ids if pid in table}

    def apply(self, facts: MatchFacts) -> list[tuple[Scope, int, RatingState]]:
        """Apply one match; returns the rows it changed (see :func:`rating_changes`)."""
        changes = rating_changes(facts, self.get_many)
        for scope, pid, state in changes:
            self.tables.setdefault(scope, {})[pid] = state
            if scope.chat == ALL_CHATS and scope.season == ALL_TIME:
                self.history.setdefault(pid, []).append(
                    (facts.match_id, facts.finished_at, state.mu, state.sigma)
                )
        return changes


# ------------------------------------------------------------- shared by the storages


def rating_of(player_id: int, state: RatingState) -> Rating:
    """A stored rating row as the storage port returns it."""
    return Rating(
        player_id,
        state.mu,
        state.sigma,
        state.matches,
        state.wins,
        state.display,
        state.provisional,
    )


def pair_order(pair: PairRow) -> tuple[float, int, tuple[int, int]]:
    """The pairs table's order: Bayesian win rate, then matches, then ids."""
    return (-bayesian_rating(pair.wins, pair.matches), -pair.matches, pair.player_ids)


def streak_of(results: Sequence[bool]) -> int:
    """The current streak of results given newest first: +n wins or -n losses."""
    if not results:
        return 0
    first = results[0]
    count = 0
    for won in results:
        if won != first:
            break
        count += 1
    return count if first else -count


def due_finals(seasons: Sequence[tuple[str, str]], now: float) -> list[tuple[str, str]]:
    """The (chat, season) pairs among ``seasons`` that ended before ``now``, oldest first
    (chat seasons only: the global season has no chat to announce it in)."""
    due = [
        (chat, season)
        for chat, season in seasons
        if chat != ALL_CHATS and season_bounds(season)[1] <= now
    ]
    return sorted(due, key=lambda cs: (season_bounds(cs[1])[1], cs))


def compare_ratings(
    book: RatingBook,
    stored: Mapping[tuple[Scope, int], RatingState],
    history: Mapping[int, Sequence[tuple[str, float, float, float]]],
    facts: Sequence[MatchFacts],
) -> RebuildReport:
    """What a rebuild found: the recomputed ``book`` against the stored rows."""
    differences = []
    recomputed = {
        (scope, pid): state for scope, table in book.tables.items() for pid, state in table.items()
    }
    for key in sorted(set(recomputed) | set(stored), key=lambda k: (k[0].chat, k[0].season, k[1])):
        new, old = recomputed.get(key), stored.get(key)
        if new != old:
            scope, pid = key
            differences.append(
                f"player {pid}, {scope.chat or '*'} {scope.season or 'all time'}: "
                f"stored {_shown(old)}, recomputed {_shown(new)}"
            )
    for pid in sorted(set(book.history) | set(history)):
        if list(book.history.get(pid, [])) != list(history.get(pid, [])):
            differences.append(f"player {pid}: rating history differs")
    return RebuildReport(
        matches=len(facts),
        rated=sum(1 for f in facts if f.rated),
        ratings=len(recomputed),
        differences=tuple(differences),
    )


def _shown(state: RatingState | None) -> str:
    if state is None:
        return "none"
    return f"mu {state.mu!r} sigma {state.sigma!r} ({state.matches} matches, {state.wins} won)"
