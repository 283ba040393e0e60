"""Skill ratings and seasons: the pure rules both storages apply (docs/ratings.md).

Ratings are team-aware Weng-Lin (Plackett-Luce) ratings from ``openskill``: a player's
skill is a mean ``mu`` and an uncertainty ``sigma``; a finished match between the two
partnerships moves the humans' skills in the transaction that settles it. Robots are
rated too, at one fixed skill per level (:data:`ROBOT_SKILLS`, measured with
``domino simulate --matches``), and never move. What players see is the conservative
figure ``mu - 3 sigma`` scaled by :func:`display_rating`; a rating is provisional until
:data:`PROVISIONAL_MATCHES` rated matches.

Three ratings move with every rated match: the all-time one, the chat's season and the
global season (:class:`Scope`), each in the match's format's list (:func:`rating_format`:
today's partnership double-six game is ``""``; every other format is rated apart, an
individual match by finishing order). Seasons are calendar weeks, months or quarters in UTC
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

from engine.errors import DominoError, RulesError
from engine.records import replay
from engine.rules import Rules, find_any_preset, find_preset
from storage.shapes import PairRow, PlayerResult, Rating, RebuildReport, bayesian_rating

__all__ = [
    "ALL_CHATS",
    "ALL_TIME",
    "CLASSIC",
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
    "format_of_preset",
    "pair_order",
    "rate_match",
    "rating_changes",
    "rating_format",
    "rating_of",
    "record_rules",
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

CLASSIC: Final = ""
"""The rating format of today's game (partnership double-six, 7 tiles each): every
rating stored before formats existed is in it."""

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


# ---------------------------------------------------------------------------- formats


def rating_format(rules: Rules) -> str:
    """The list a match under ``rules`` is rated in (docs/ratings.md, "Formats"): its
    format (``Rules.format_key``): :data:`CLASSIC` for today's game whatever its preset,
    else ``"double_six individual 2 draw"``, ``"double_nine partnership"``…"""
    return rules.format_key


def format_of_preset(name: str) -> str:
    """The rating format of a preset named by a player (``"uno-contra-uno"``,
    ``"cubano"``, ``"venezolano"``…).

    Raises:
        RulesError: no preset has that name.
    """
    return rating_format(find_any_preset(name))


def record_rules(record: Mapping[str, Any]) -> Rules:
    """The rules a stored record names (its ``rules``; records.md); a record without
    readable rules is today's game (``venezolano``), as records before formats are."""
    try:
        return Rules.from_spec(record.get("rules", "venezolano"))
    except (RulesError, ValueError, TypeError):
        return find_preset("venezolano")


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
    """Which rating table a rating lives in: a chat (or :data:`ALL_CHATS`), a season
    (or :data:`ALL_TIME`) and a rating format (:func:`rating_format`; :data:`CLASSIC`,
    today's game, by default)."""

    chat: str
    season: str
    format: str = CLASSIC


# ------------------------------------------------------------------------ match facts


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """Who held one seat of a finished match.

    Attributes:
        seat: 0..players-1.
        player_id: the human's id, or None for a robot seat.
        robot: the robot's level for a robot seat.
        moves: moves this seat made (tiles, passes and draws).
        robot_moves: of those, made by a robot for the human (away, timed out, gone).
        side: the side the seat scores for (``Rules.side_of``: its partnership, or the
            seat itself in individual play); None: the partnership ``seat % 2``.
    """

    seat: int
    player_id: int | None
    robot: str | None = None
    moves: int = 0
    robot_moves: int = 0
    side: int | None = None

    @property
    def team(self) -> int:
        """The seat's side: its partnership (0 or 1), or its seat in individual play."""
        return self.seat % 2 if self.side is None else self.side

    @property
    def absent(self) -> bool:
        """A robot played most of this human's moves (issue 14: loss counts, win does not)."""
        return self.player_id is not None and 2 * self.robot_moves > self.moves


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What ratings and profiles need of a finished match.

    Attributes:
        match_id, chat, finished_at: as stored (epoch seconds).
        seats: every seat (2, 3 or 4), by seat number.
        winner_team: the winning side (0 or 1 in partnership play, the winning seat in
            individual play).
        score: the final score by side (points): two partnerships, or one per seat.
        hands: hands played.
        seasons: (chat season key, global season key) the match counts in.
        abandoned_by: the seat of the last human who abandoned a match every human
            abandoned (records.md ``abandoned_by``; it ended there, lost by that seat's
            side: no human gains), None for a match played to its end.
        format: the rating format (:func:`rating_format`; :data:`CLASSIC` today's game).
        sides: how many sides score (2 in partnership play, the seats in individual).
    """

    match_id: str
    chat: str
    finished_at: float
    seats: tuple[RatedSeat, ...]
    winner_team: int
    score: tuple[int, ...]
    hands: int
    seasons: tuple[str, str]
    abandoned_by: int | None = None
    format: str = CLASSIC
    sides: int = 2

    @property
    def abandoned(self) -> bool:
        """Every human abandoned the match (:attr:`abandoned_by` is set)."""
        return self.abandoned_by is not None

    @property
    def rated(self) -> bool:
        """Rated when a human played and every robot seat has a rated level (issue 14),
        at a table of 2 to 4 seats whose sides are those of its format."""
        humans = [s for s in self.seats if s.player_id is not None]
        robots_rated = all(s.robot in ROBOT_SKILLS for s in self.seats if s.player_id is None)
        sides_ok = {s.team for s in self.seats} == set(range(self.sides))
        return bool(humans) and robots_rated and 2 <= len(self.seats) <= 4 and sides_ok

    def scopes(self) -> tuple[Scope, Scope, Scope]:
        """The all-time, global season and chat season rating tables this match moves,
        in its format's list."""
        return (
            Scope(ALL_CHATS, ALL_TIME, self.format),
            Scope(ALL_CHATS, self.seasons[1], self.format),
            Scope(self.chat, self.seasons[0], self.format),
        )

    def ranks(self) -> list[float]:
        """The place of each side, 0 first (docs/ratings.md, "Formats"): the winner
        first; then by final score, highest first, equal scores sharing a place; the
        side of :attr:`abandoned_by` last. Two sides: the winner 0, the other 1."""
        last = None if self.abandoned_by is None else self._side_of_seat(self.abandoned_by)
        others = [side for side in range(self.sides) if side not in (self.winner_team, last)]
        scores = sorted({self.score[side] for side in others}, reverse=True)
        ranks = [0.0] * self.sides
        for side in others:
            ranks[side] = 1.0 + scores.index(self.score[side])
        if last is not None and last != self.winner_team:
            ranks[last] = 1.0 + len(scores)
        return ranks

    def _side_of_seat(self, seat: int) -> int | None:
        for s in self.seats:
            if s.seat == seat:
                return s.team
        return None


def seats_of(
    record: Mapping[str, Any], results: Sequence[PlayerResult], rules: Rules | None = None
) -> tuple[RatedSeat, ...]:
    """The seats of a stored match under ``rules`` (default: the record's,
    :func:`record_rules`): from the record's ``seats`` (records.md, "What the bot adds"),
    one per seat of the format, when they name exactly the humans of ``results`` on
    their sides (``PlayerResult.team``: ``rules.side_of(seat)``); else (a record written
    before ratings) the humans by team, lower id first, with :data:`OLD_RECORD_ROBOT`
    robots in the other seats of a four-seat table."""
    rules = record_rules(record) if rules is None else rules
    seats = record.get("seats")
    teams = {r.player_id: r.team for r in results}
    count = rules.players
    if (
        isinstance(seats, list)
        and len(seats) == count
        and all(isinstance(s, Mapping) for s in seats)
    ):
        out = []
        for index, seat in enumerate(seats):
            player = seat.get("player")
            moves, robot_moves = seat.get("moves", 0), seat.get("robot_moves", 0)
            side = None if rules.partnership else rules.side_of(index)
            if not (_count(moves) and _count(robot_moves)):
                break
            if isinstance(player, int) and not isinstance(player, bool):
                out.append(RatedSeat(index, player, None, moves, robot_moves, side))
            elif isinstance(seat.get("robot"), str) and player is None:
                out.append(RatedSeat(index, None, seat["robot"], moves, robot_moves, side))
            else:
                break
        named = {s.player_id: s.team for s in out if s.player_id is not None}
        if len(out) == count and named == teams:
            return tuple(out)
    if not rules.partnership:
        # no seats to trust: each human in the seat of their side, robots elsewhere
        sides = {r.team: r.player_id for r in results}
        return tuple(
            RatedSeat(i, sides[i], side=i)
            if i in sides
            else RatedSeat(i, None, OLD_RECORD_ROBOT, side=i)
            for i in range(count)
        )
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
    """A stored match's facts: format (:func:`rating_format` of the record's rules),
    seats (:func:`seats_of`), winner, score and hands.

    The score comes from the record's ``score`` (one total per side), or from replaying
    a record written before that field (zeros when it does not replay). In partnership
    play the winner is the team of the humans' results (the record's ``winner_team``
    when no human played); in individual play it is the seat of the result that won
    the match, else the record's ``winner_team``, else the highest score (the lowest
    seat among equals). A record with a seat number as ``abandoned_by`` is an abandoned
    match (:attr:`MatchFacts.abandoned_by`).
    """
    rules = record_rules(record)
    sides = rules.sides
    score = record.get("score")
    hands = record.get("hands")
    count = len(hands) if isinstance(hands, list) else 0
    if not (isinstance(score, list) and len(score) == sides and all(_count(x) for x in score)):
        try:
            match = replay(dict(record))
            score, count = list(match.score), len(match.hands)
        except (DominoError, ValueError, TypeError, KeyError):
            score = [0] * sides
        if len(score) != sides:
            score = [0] * sides
    winner = record.get("winner_team")
    if rules.partnership:
        for result in results:
            winner = result.team if result.won_match else 1 - result.team
            break
    else:
        for result in results:
            if result.won_match:
                winner = result.team
                break
    if not (isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < sides):
        winner = max(range(sides), key=lambda side: (score[side], -side))
    abandoned = record.get("abandoned_by")
    return MatchFacts(
        match_id=match_id,
        chat=chat,
        finished_at=finished_at,
        seats=seats_of(record, results, rules),
        winner_team=int(winner),
        score=tuple(int(x) for x in score),
        hands=count,
        seasons=seasons,
        abandoned_by=abandoned if _seat_number(abandoned, rules.players) else None,
        format=rating_format(rules),
        sides=sides,
    )


def _seat_number(value: object, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def rate_match(facts: MatchFacts, skills: Mapping[int, Skill]) -> dict[int, Skill]:
    """The humans' new skills after a rated match (issue 14; docs/ratings.md).

    ``skills`` holds the humans' skills before the match (missing: :data:`NEW_SKILL`).
    Each side is a team of the model (two partnerships, or one team per seat in
    individual play), ranked by :meth:`MatchFacts.ranks` (ties share a place). Robots
    play at their level's fixed skill. A human whose seat a robot played most of the
    match, and every human of an abandoned match (:attr:`MatchFacts.abandoned`), takes
    a fall but never a rise: in partnership play, the loss when their team lost and
    their skill kept when it won.
    Returns player id -> skill for every human of the match.
    """
    teams: list[list[Any]] = [[] for _ in range(facts.sides)]
    for seat in facts.seats:
        if seat.player_id is None:
            fixed = ROBOT_SKILLS[seat.robot or ""]
            teams[seat.team].append(_MODEL.rating(mu=fixed.mu, sigma=fixed.sigma))
        else:
            skill = skills.get(seat.player_id, NEW_SKILL)
            teams[seat.team].append(_MODEL.rating(mu=skill.mu, sigma=skill.sigma))
    rated = _MODEL.rate(teams, ranks=facts.ranks())
    out: dict[int, Skill] = {}
    positions = [0] * facts.sides
    for seat in facts.seats:
        new = rated[seat.team][positions[seat.team]]
        positions[seat.team] += 1
        if seat.player_id is None:
            continue
        before = skills.get(seat.player_id, NEW_SKILL)
        if (seat.absent or facts.abandoned) and _rises(facts, seat, before, float(new.mu)):
            out[seat.player_id] = before
        else:
            out[seat.player_id] = Skill(float(new.mu), float(new.sigma))
    return out


def _rises(facts: MatchFacts, seat: RatedSeat, before: Skill, mu: float) -> bool:
    """Whether the match would raise this seat's skill: the winning partnership's in
    partnership play (as ratings always did), a higher mu in individual play."""
    if facts.sides == 2 and len(facts.seats) == 4:
        return seat.team == facts.winner_team
    return mu > before.mu


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
        self.history: dict[tuple[str, int], list[tuple[str, float, float, float]]] = {}
        """(rating format, player id) -> (match id, finished_at, mu, sigma) after each
        all-time change in that format."""

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
                self.history.setdefault((scope.format, pid), []).append(
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
    history: Mapping[tuple[str, int], Sequence[tuple[str, float, float, float]]],
    facts: Sequence[MatchFacts],
) -> RebuildReport:
    """What a rebuild found: the recomputed ``book`` against the stored rows."""
    differences = []
    recomputed = {
        (scope, pid): state for scope, table in book.tables.items() for pid, state in table.items()
    }
    for key in sorted(
        set(recomputed) | set(stored), key=lambda k: (k[0].format, k[0].chat, k[0].season, k[1])
    ):
        new, old = recomputed.get(key), stored.get(key)
        if new != old:
            scope, pid = key
            differences.append(
                f"player {pid}, {scope.chat or '*'} {scope.season or 'all time'}"
                f"{_format_label(scope.format)}: stored {_shown(old)}, recomputed {_shown(new)}"
            )
    for fmt, pid in sorted(set(book.history) | set(history)):
        if list(book.history.get((fmt, pid), [])) != list(history.get((fmt, pid), [])):
            differences.append(f"player {pid}{_format_label(fmt)}: rating history differs")
    return RebuildReport(
        matches=len(facts),
        rated=sum(1 for f in facts if f.rated),
        ratings=len(recomputed),
        differences=tuple(differences),
    )


def _format_label(fmt: str) -> str:
    return f" ({fmt})" if fmt else ""


def _shown(state: RatingState | None) -> str:
    if state is None:
        return "none"
    return f"mu {state.mu!r} sigma {state.sigma!r} ({state.matches} matches, {state.wins} won)"
