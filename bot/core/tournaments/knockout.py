"""Knockout: a seeded bracket, byes to the top seeds, best-of-N series, the places.

docs/tournaments.md, "Knockout". The bracket is a value: :func:`seed_bracket` builds it,
:meth:`Bracket.record` returns it with one more result, and everything else (who plays
now, who advanced, the places) is computed from the first-round lines and the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.core.tournaments.model import (
    Entrant,
    MatchResult,
    Pairing,
    Place,
    ResultError,
    ResultKind,
    TournamentError,
    check_field,
    seed_order,
)

__all__ = ["Bracket", "Series", "bracket_order", "seed_bracket"]


@dataclass(frozen=True, slots=True)
class Series:
    """One pairing of a knockout round and how it stands.

    Attributes:
        first, second: the two lines' entrants (``first`` the upper line); ``None`` is an
            empty line (a bye in round 1, or a line nobody reached after a double loss).
        wins: matches won by ``first`` and by ``second``.
        results: the matches played in this series, in order.
        decided: whether the series is over (a side has the wins needed, a double loss,
            or a line is empty).
        advancing: who goes on when decided (``None``: nobody, after a double loss or
            with both lines empty).
    """

    first: str | None
    second: str | None
    wins: tuple[int, int]
    results: tuple[MatchResult, ...]
    decided: bool
    advancing: str | None

    @property
    def is_bye(self) -> bool:
        """Whether one line is empty and the other advances without playing."""
        return (self.first is None) != (self.second is None)


def bracket_order(size: int) -> tuple[int, ...]:
    """The seed (1-based) on each first-round line of a bracket of ``size`` lines.

    Seed 1 meets seed ``size``, and each round the best remaining seed meets the worst,
    so seeds 1 and 2 can meet only in the final: for 8, ``(1, 8, 4, 5, 2, 7, 3, 6)``.

    Raises:
        TournamentError: ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise TournamentError(f"a bracket has a power of two lines, not {size}")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return tuple(order)


def seed_bracket(entrants: Sequence[Entrant], *, wins_needed: int = 1) -> Bracket:
    """The first-round bracket of ``entrants``, seeded by rating.

    The lines are the next power of two at or above the field; the lines of the seeds
    past the field are empty, so the top seeds get the byes (docs/tournaments.md,
    "Knockout").

    Args:
        entrants: the field, at least 2.
        wins_needed: matches a side must win to take a series (best of
            ``2 * wins_needed - 1``); 1 is one match per pairing.

    Raises:
        EntrantError: a field that cannot play together (:func:`check_field`).
        TournamentError: ``wins_needed`` below 1.
    """
    check_field(entrants)
    if wins_needed < 1:
        raise TournamentError("a series needs at least one win")
    seeds = seed_order(entrants)
    size = 1 << (len(seeds) - 1).bit_length()
    lines = tuple(seeds[s - 1].key if s <= len(seeds) else None for s in bracket_order(size))
    return Bracket(tuple(e.key for e in seeds), lines, wins_needed)


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout bracket and the results so far.

    A round starts when the one before it is over (every series decided), as the issue's
    rounds do: the next round's tables open when the last table ends.

    Attributes:
        seeds: the entrants' keys, seed 1 first.
        lines: the first round's lines, top to bottom (``None``: a bye's empty line).
        wins_needed: wins that take a series.
        results: every match recorded, in order.
    """

    seeds: tuple[str, ...]
    lines: tuple[str | None, ...]
    wins_needed: int
    results: tuple[MatchResult, ...] = ()

    @property
    def rounds_count(self) -> int:
        """Rounds from the first to the final (4 lines: 2)."""
        return (len(self.lines) - 1).bit_length()

    def rounds(self) -> tuple[tuple[Series, ...], ...]:
        """Every round reached so far, round 1 first; only the last may be undecided."""
        by_pair: dict[frozenset[str], list[MatchResult]] = {}
        for result in self.results:
            by_pair.setdefault(result.keys, []).append(result)
        reached: list[tuple[Series, ...]] = []
        lines = self.lines
        while len(lines) > 1:
            series = tuple(
                self._series(lines[i], lines[i + 1], by_pair) for i in range(0, len(lines), 2)
            )
            reached.append(series)
            if not all(s.decided for s in series):
                break
            lines = tuple(s.advancing for s in series)
        return tuple(reached)

    @property
    def round_number(self) -> int | None:
        """The round being played (1-based), or ``None`` once the final is decided."""
        rounds = self.rounds()
        return None if self._over(rounds) else len(rounds)

    @property
    def is_finished(self) -> bool:
        """Whether the final is decided."""
        return self._over(self.rounds())

    @property
    def champion(self) -> str | None:
        """The final's winner; ``None`` before the end or after a double loss in it."""
        rounds = self.rounds()
        return rounds[-1][0].advancing if self._over(rounds) else None

    def pending(self) -> tuple[Pairing, ...]:
        """The pairings of the current round that need another match, top line first."""
        return tuple(
            Pairing(s.first, s.second)
            for s in self.rounds()[-1]
            if not s.decided and s.first is not None and s.second is not None
        )

    def record(self, result: MatchResult) -> Bracket:
        """This bracket with one more match result.

        Raises:
            ResultError: the two entrants are not a series of the current round that is
                still undecided.
        """
        if not any(p.keys == result.keys for p in self.pending()):
            raise ResultError("not a pairing of the current round in play", result=result)
        return replace(self, results=(*self.results, result))

    def placing(self) -> tuple[Place, ...]:
        """The final places, once the bracket is finished.

        Entrants out in the same round share a place: the final's loser is 2nd, the two
        semi-final losers share 3rd (3rd-4th), the quarter-final losers 5th (5th-8th).
        A final that is a double loss has no champion and its two finalists share 1st
        (1st-2nd). docs/tournaments.md, "Knockout: places".

        Raises:
            TournamentError: the bracket is not finished.
        """
        rounds = self.rounds()
        if not self._over(rounds):
            raise TournamentError("the places are known when the final is decided")
        out_in: dict[str, int] = {}
        for number, series in enumerate(rounds, start=1):
            for s in series:
                out_in.update((k, number) for k in (s.first, s.second) if k and k != s.advancing)
        last = self.rounds_count + 1
        placing: list[Place] = []
        ahead = 0
        for number in range(last, 0, -1):
            keys = tuple(k for k in self.seeds if out_in.get(k, last) == number)
            if keys:
                placing.append(Place(ahead + 1, keys))
                ahead += len(keys)
        return tuple(placing)

    def _over(self, rounds: tuple[tuple[Series, ...], ...]) -> bool:
        """Whether ``rounds`` (:meth:`rounds`) reach a decided final."""
        return len(rounds) == self.rounds_count and all(s.decided for s in rounds[-1])

    def _series(
        self,
        first: str | None,
        second: str | None,
        by_pair: dict[frozenset[str], list[MatchResult]],
    ) -> Series:
        """How the series between two lines stands (``by_pair``: the results by pair;
        two entrants meet at most once in a knockout)."""
        if first is None or second is None:
            return Series(first, second, (0, 0), (), True, first or second)
        played = tuple(by_pair.get(frozenset((first, second)), ()))
        wins = (
            sum(r.winner == first for r in played),
            sum(r.winner == second for r in played),
        )
        if any(r.kind is ResultKind.DOUBLE_NO_SHOW for r in played):
            return Series(first, second, wins, played, True, None)
        if max(wins) >= self.wins_needed:
            return Series(first, second, wins, played, True, first if wins[0] > wins[1] else second)
        return Series(first, second, wins, played, False, None)
