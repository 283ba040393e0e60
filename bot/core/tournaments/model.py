"""The tournament model: kinds, entrants, pairings, rounds, results and places.

Everything here is a frozen value; the pairing modules (:mod:`.knockout`, :mod:`.swiss`,
:mod:`.arena`) are pure functions of these values, so a stored tournament replays to the
same pairings (docs/tournaments.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

__all__ = [
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
    "TournamentError",
    "TournamentKind",
    "check_field",
    "seed_order",
]

PARTNERSHIP_PLAYERS = 2
"""Players in a partnership entrant; an individual entrant has one."""


class TournamentKind(StrEnum):
    """The three kinds of tournament (docs/tournaments.md, "The kinds")."""

    KNOCKOUT = "knockout"
    SWISS = "swiss"
    ARENA = "arena"


class Partners(StrEnum):
    """Who plays with whom in partnership play (docs/tournaments.md, "Partners drawn
    each round"): fixed partnerships for the whole tournament, or new partners drawn
    every round (each player then an entrant of their own; a Swiss or an arena)."""

    FIXED = "fixed"
    EACH_ROUND = "each_round"


class ResultKind(StrEnum):
    """How a match was decided (docs/tournaments.md, "No-shows"): played to its end; one
    side a no-show (the other wins without playing); both sides no-shows (a double loss)."""

    PLAYED = "played"
    NO_SHOW = "no_show"
    DOUBLE_NO_SHOW = "double_no_show"


class TournamentError(ValueError):
    """Base of every tournament error."""


class EntrantError(TournamentError):
    """A field of entrants that cannot be paired (a duplicate key, a player in two
    entrants, entrants of different sizes, too few entrants, an unknown key).

    Attributes:
        key: the entrant or player key at fault ("" when the field as a whole is).
    """

    def __init__(self, message: str, *, key: str = "") -> None:
        super().__init__(message)
        self.key = key


class ResultError(TournamentError):
    """A result that does not fit: not between a pairing's two entrants, for a match
    already decided, or inconsistent in itself.

    Attributes:
        result: the offending result.
    """

    def __init__(self, message: str, *, result: MatchResult) -> None:
        super().__init__(message)
        self.result = result


class RoundUnfinished(TournamentError):
    """The next round was asked for while a round still lacks results.

    Attributes:
        number: the unfinished round's number (1-based).
    """

    def __init__(self, message: str, *, number: int) -> None:
        super().__init__(message)
        self.number = number


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant of a tournament: a player alone, or a partnership of two.

    Attributes:
        key: the entrant's opaque key (for a player alone, usually the player's key).
        players: the player keys it is made of: one, or two for a partnership.
        rating: the shown rating when the tournament starts (docs/ratings.md; a
            partnership's is the one its organiser chose, e.g. the partners' mean);
            it seeds the knockout and breaks the last ties.

    Raises:
        EntrantError: an empty key, no players or more than two, a player twice.
    """

    key: str
    players: tuple[str, ...]
    rating: int

    def __post_init__(self) -> None:
        if not self.key:
            raise EntrantError("an entrant needs a key", key=self.key)
        if not 1 <= len(self.players) <= PARTNERSHIP_PLAYERS:
            raise EntrantError("an entrant is one player or a partnership of two", key=self.key)
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise EntrantError("an entrant's players are distinct keys", key=self.key)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entrants to meet at one table: ``first`` is the better ranked in a Swiss or an
    arena, the upper line of the bracket in a knockout."""

    first: str
    second: str

    @property
    def keys(self) -> frozenset[str]:
        """Both entrants' keys."""
        return frozenset((self.first, self.second))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of one match between two entrants.

    Attributes:
        first, second: the entrants' keys.
        winner: the winner's key; ``None`` only for a double loss (both no-shows).
        points: the points each scored, in the order (first, second) (rules.md; 0 and 0
            for a match not played).
        kind: how it was decided (:class:`ResultKind`).

    Raises:
        ResultError: an entrant against itself, a winner who did not play, negative
            points, a double loss that names a winner or a decided match that does not.
    """

    first: str
    second: str
    winner: str | None
    points: tuple[int, int] = (0, 0)
    kind: ResultKind = ResultKind.PLAYED

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ResultError("an entrant cannot meet itself", result=self)
        if min(self.points) < 0:
            raise ResultError("points are never negative", result=self)
        if (self.winner is None) != (self.kind is ResultKind.DOUBLE_NO_SHOW):
            raise ResultError("only a double no-show has no winner", result=self)
        if self.winner is not None and self.winner not in (self.first, self.second):
            raise ResultError("the winner is one of the two entrants", result=self)

    @property
    def keys(self) -> frozenset[str]:
        """Both entrants' keys."""
        return frozenset((self.first, self.second))

    def points_of(self, key: str) -> tuple[int, int]:
        """``(scored, conceded)`` by entrant ``key`` (one of the two), in points."""
        return self.points if key == self.first else (self.points[1], self.points[0])

    def opponent_of(self, key: str) -> str:
        """The other entrant's key."""
        return self.second if key == self.first else self.first


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a Swiss: its pairings (table 1 first), who rests, the results so far.

    Attributes:
        number: 1-based.
        pairings: one per table, the best ranked table first.
        byes: who rests this round (at most one in a Swiss; a bye scores as a win:
            docs/tournaments.md, "Byes").
        results: at most one per pairing, in the order they came.
    """

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()
    results: tuple[MatchResult, ...] = ()

    @property
    def is_complete(self) -> bool:
        """Whether every pairing has its result."""
        return len(self.results) == len(self.pairings)

    def result_of(self, pairing: Pairing) -> MatchResult | None:
        """The result recorded for ``pairing``, if any."""
        return next((r for r in self.results if r.keys == pairing.keys), None)

    def record(self, result: MatchResult) -> Round:
        """This round with ``result`` added.

        Raises:
            ResultError: no pairing of this round is between those two entrants, or that
                pairing already has its result.
        """
        pairing = next((p for p in self.pairings if p.keys == result.keys), None)
        if pairing is None:
            raise ResultError(f"no pairing of round {self.number} for it", result=result)
        if self.result_of(pairing) is not None:
            raise ResultError("that pairing already has its result", result=result)
        return replace(self, results=(*self.results, result))


@dataclass(frozen=True, slots=True)
class Place:
    """A place in the final standing, perhaps shared.

    Attributes:
        number: the place (1 = first); a place shared by k entrants covers the places
            ``number`` to ``number + k - 1`` (the next place is ``number + k``).
        entrants: the keys holding it, best seed first.
    """

    number: int
    entrants: tuple[str, ...]


def seed_order(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """The entrants by seed: highest rating first, then by key (the deterministic last
    key of every ranking: docs/tournaments.md, "Tiebreaks")."""
    return tuple(sorted(entrants, key=lambda e: (-e.rating, e.key)))


def check_field(entrants: Sequence[Entrant], *, least: int = 2) -> None:
    """Check that ``entrants`` can play one tournament together.

    Raises:
        EntrantError: fewer than ``least`` entrants, a key twice, a player in two
            entrants, or partnerships mixed with players alone.
    """
    if len(entrants) < least:
        raise EntrantError(f"a tournament needs at least {least} entrants")
    keys: set[str] = set()
    players: set[str] = set()
    for entrant in entrants:
        if entrant.key in keys:
            raise EntrantError("an entrant signed up twice", key=entrant.key)
        keys.add(entrant.key)
        for player in entrant.players:
            if player in players:
                raise EntrantError("a player is in two entrants", key=player)
            players.add(player)
    if len({len(e.players) for e in entrants}) > 1:
        raise EntrantError("partnerships and players alone cannot be mixed")
