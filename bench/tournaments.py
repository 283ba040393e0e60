"""How long tournament pairing takes for a large field (issue 32's benchmark).

The issue asks that pairing 256 entrants take under a second. Measures, on one core:
- ``swiss``: each round's pairing (:func:`bot.core.tournaments.swiss_pair`) of a Swiss of
  ``--entrants`` over ``--rounds`` rounds, results drawn so the better rated entrant wins
  more often (a logistic curve on the rating difference, as the shown ratings of
  docs/ratings.md spread about 400 points), the loser scoring 0–99 points against 100;
  the late rounds are the costly ones (score groups fragment, more pairs to avoid). Also
  with one entrant fewer (an odd field: a bye each round);
- ``knockout``: seeding the bracket, then recording every result to the champion (every
  ``pending`` and ``record``) and the final places;
- ``arena``: every entrant free at once (the start), then an arena ``--arena-matches``
  matches in with a quarter of the field free, and with the whole field free;
- ``drawn``: partners drawn each round (:mod:`bot.core.tournaments.drawn`): each round
  of a Swiss of ``--entrants`` players (partnerships, then tables), and an arena's
  pairing of every player free at once.

Prints the median and the slowest of ``--repeat`` runs of each, in milliseconds; no
assertions. ``--full`` also times one late Swiss round paired over every pair at once
(no candidate window), to show what the window saves.
Run: ``python bench/tournaments.py [--entrants 256] [--rounds 8] [--repeat 3] [--full]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.tournaments import (
    Entrant,
    MatchResult,
    Pairing,
    Round,
    arena_pair,
    arena_standings,
    award_prizes,
    last_opponents,
    seed_bracket,
    swiss_pair,
)
from bot.core.tournaments.drawn import drawn_arena_pair, drawn_swiss_pair, team_players

T = TypeVar("T")
RATING_SPREAD = 400  # a logistic curve: 400 points more is 10 times the odds


def make_field(count: int, rng: random.Random) -> list[Entrant]:
    """``count`` partnerships with ratings around 1,400 (docs/ratings.md)."""
    return [
        Entrant(f"pair{i}", (f"a{i}", f"b{i}"), int(rng.gauss(1400, 150))) for i in range(count)
    ]


def play(pairing: Pairing, ratings: dict[str, int], rng: random.Random) -> MatchResult:
    """A match to 100: the better rated wins more often; the loser scores 0-99."""
    edge = (ratings[pairing.first] - ratings[pairing.second]) / RATING_SPREAD
    first_wins = rng.random() < 1 / (1 + 10**-edge)
    winner = pairing.first if first_wins else pairing.second
    loser_points = rng.randrange(100)
    points = (100, loser_points) if first_wins else (loser_points, 100)
    return MatchResult(pairing.first, pairing.second, winner, points)


def timed(run: Callable[[], T]) -> tuple[float, T]:
    """Milliseconds ``run`` took, and what it returned."""
    start = time.perf_counter()
    value = run()
    return (time.perf_counter() - start) * 1000, value


def report(name: str, times: list[float]) -> None:
    print(f"  {name:<58} median {statistics.median(times):7.1f} ms  max {max(times):7.1f} ms")


def swiss(count: int, rounds: int, seed: int, window: int | None = None) -> list[float]:
    """Milliseconds to pair each round of one Swiss."""
    rng = random.Random(seed)
    entrants = make_field(count, rng)
    ratings = {e.key: e.rating for e in entrants}
    played: list[Round] = []
    times = []
    options = {} if window is None else {"window": window}
    for _ in range(rounds):
        ms, paired = timed(lambda: swiss_pair(entrants, played, **options))
        times.append(ms)
        for pairing in paired.pairings:
            paired = paired.record(play(pairing, ratings, rng))
        played.append(paired)
    return times


def knockout(count: int, seed: int) -> tuple[float, float]:
    """Milliseconds to seed a bracket, and to play it through to its places."""
    rng = random.Random(seed)
    entrants = make_field(count, rng)
    ratings = {e.key: e.rating for e in entrants}
    seeding, bracket = timed(lambda: seed_bracket(entrants))

    def through() -> object:
        nonlocal bracket
        while not bracket.is_finished:
            for pairing in bracket.pending():
                bracket = bracket.record(play(pairing, ratings, rng))
        return award_prizes(1000, bracket.placing())

    playing, _ = timed(through)
    return seeding, playing


def arena(count: int, matches: int, seed: int) -> tuple[float, float, float]:
    """Milliseconds to pair: everyone free at the start; a quarter free, then everyone
    free, ``matches`` matches in."""
    rng = random.Random(seed)
    entrants = make_field(count, rng)
    keys = [e.key for e in entrants]
    ratings = {e.key: e.rating for e in entrants}
    start, _ = timed(lambda: arena_pair(keys, arena_standings(entrants, []), {}))
    results = []
    for _ in range(matches):
        first, second = rng.sample(keys, 2)
        results.append(play(Pairing(first, second), ratings, rng))
    standings = arena_standings(entrants, results)
    recent = last_opponents(results)
    quarter, _ = timed(lambda: arena_pair(rng.sample(keys, count // 4), standings, recent))
    whole, _ = timed(lambda: arena_pair(rng.sample(keys, count), standings, recent))
    return start, quarter, whole


def drawn(count: int, rounds: int, seed: int) -> tuple[list[float], float]:
    """Milliseconds to pair each round of a Swiss of ``count`` players with partners
    drawn each round, and an arena's pairing of all of them free at once."""
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i}", (f"p{i}",), int(rng.gauss(1400, 150))) for i in range(count)]
    ratings = {e.key: e.rating for e in entrants}
    played: list[Round] = []
    times = []
    for _ in range(rounds):
        ms, paired = timed(lambda: drawn_swiss_pair(entrants, played))
        times.append(ms)
        for pairing in paired.pairings:
            team = {pairing.first: 0, pairing.second: 0}
            for key in team:
                team[key] = sum(ratings[p] for p in team_players(key)) // 2
            paired = paired.record(play(pairing, team, rng))
        played.append(paired)
    keys = [e.key for e in entrants]
    arena_ms, _ = timed(lambda: drawn_arena_pair(keys, arena_standings(entrants, []), {}))
    return times, arena_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--arena-matches", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    n = args.entrants
    print(f"Pairing {n} entrants (target: under 1 s each), {args.repeat} runs:")
    for count in (n, n - 1):
        runs = [swiss(count, args.rounds, seed) for seed in range(args.repeat)]
        last = [r[-1] for r in runs]
        report(f"swiss, {count} entrants, round {args.rounds} (the last)", last)
        report(f"swiss, {count} entrants, slowest round of {args.rounds}", [max(r) for r in runs])
    knockouts = [knockout(n, seed) for seed in range(args.repeat)]
    report(f"knockout, {n} entrants: seeding", [k[0] for k in knockouts])
    report(f"knockout, {n} entrants: {n - 1} results recorded, places, prizes",
           [k[1] for k in knockouts])  # fmt: skip
    arenas = [arena(n, args.arena_matches, seed) for seed in range(args.repeat)]
    report(f"arena, {n} entrants: all free at the start", [a[0] for a in arenas])
    report(f"arena, {args.arena_matches} matches in: {n // 4} free", [a[1] for a in arenas])
    report(f"arena, {args.arena_matches} matches in: all {n} free", [a[2] for a in arenas])
    drawn_runs = [drawn(n, args.rounds, seed) for seed in range(args.repeat)]
    report(f"drawn partners, swiss of {n} players: slowest round of {args.rounds}",
           [max(d[0]) for d in drawn_runs])  # fmt: skip
    report(f"drawn partners, arena: all {n} players free", [d[1] for d in drawn_runs])
    if args.full:
        full = swiss(n, args.rounds, 0, window=n)
        report(f"swiss, {n} entrants, round {args.rounds}, every pair a candidate", full[-1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
