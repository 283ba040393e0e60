"""Robots in the engine's match loop, and duplicate-deal comparisons (robots.md, "Measuring").

:func:`play_hand` and :func:`play_match` seat four robots (one per seat) in a
:class:`~engine.match.Match`; each robot sees only its :func:`~engine.views.seat_view`.
:func:`duplicate_deal` and :func:`duplicate_match` play the same deals twice with the two
teams swapping seats (and, where the first tile is free, a rotating opener), so the luck
of the deal cancels; :class:`Tally` sums the results and gives the margin's 95 % interval.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.hand import (
    SIX_SIX,
    Deal,
    deal_hand,
    deal_tiles,
    first_hand,
    first_hand_opening,
    opening_of,
)
from engine.match import Match
from engine.robots.base import Robot, make_robot
from engine.rules import Rules
from engine.tiles import Tile
from engine.views import seat_view

__all__ = [
    "DealResult",
    "Tally",
    "duplicate_deal",
    "duplicate_match",
    "play_hand",
    "play_match",
    "seat_rngs",
]

DecisionHook = Callable[[int, float, bool, bool], None]
"""Called after each decision with ``(seat, seconds, first decision of the seat in this
hand, forced: the seat had a single legal move)``."""


def seat_rngs(seed: object) -> list[random.Random]:
    """Four independent generators, one per seat, derived from ``seed``."""
    return [random.Random(f"{seed}/seat{s}") for s in range(4)]


def play_hand(
    match: Match,
    robots: Sequence[Robot],
    rngs: Sequence[random.Random],
    *,
    on_decision: DecisionHook | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Match:
    """Play the current hand of ``match`` to its end with ``robots[seat]`` at each seat.

    Args:
        match: a match whose current hand is not over.
        robots: four robots, by seat.
        rngs: four generators, by seat (each robot gets only its own).
        on_decision: optional timing hook.
        clock: the clock the hook's durations come from (seconds).

    Returns:
        The match after the hand's last move (scored).
    """
    seen = [False, False, False, False]
    while not match.hand.is_over:
        seat = match.hand.turn
        view = seat_view(match, seat)
        start = clock()
        move = robots[seat].choose(view, rngs[seat])
        elapsed = clock() - start
        if on_decision is not None:
            on_decision(seat, elapsed, not seen[seat], len(view.legal_moves()) == 1)
        seen[seat] = True
        match = match.apply(move, seat)
    return match


def play_match(
    rules: Rules,
    robots: Sequence[Robot],
    rng: random.Random,
    *,
    deals: Callable[[int], Deal] | None = None,
    on_decision: DecisionHook | None = None,
) -> Match:
    """Play a whole match (rules.md, "Match") with four robots, by seat.

    Args:
        rules: the rule set.
        robots: four robots, by seat.
        rng: deals the hands (unless ``deals`` is given) and seeds the robots' generators.
        deals: optional ``deals(hand_number)`` (from 1) giving each hand's deal; the first
            hand's opener then follows ``first_starter`` with ``rng`` where it is random.
        on_decision: optional timing hook.

    Returns:
        The finished match.
    """
    match = Match.new(rules, rng) if deals is None else _first_hand(rules, deals(1), rng)
    rngs = seat_rngs(rng.random())
    while True:
        match = play_hand(match, robots, rngs, on_decision=on_decision)
        if match.is_over:
            return match
        if deals is None:
            match = match.next_hand(rng)
        else:
            match = match.next_hand_with(deals(match.hand_number + 1))


def _first_hand(rules: Rules, deal: Deal, rng: random.Random, starter: int | None = None) -> Match:
    if rules.first_starter == "double_six":
        return Match.start(rules, deal, next(s for s in range(4) if SIX_SIX in deal[s]))
    if starter is None:
        starter = rng.randrange(4)
    return Match.start(rules, deal, starter)


# -- duplicate comparisons ---------------------------------------------------------------


@dataclass
class DealResult:
    """One duplicate deal (or match pair): A's margin and the hands/matches each won.

    Attributes:
        margin: A's points minus B's, per hand, averaged over the deal's hands.
        hands: hands played; a_hands / b_hands: hands won by A / B.
        a_matches / b_matches: matches won (match mode).
        times: decision seconds by level; first: first decisions of a hand by level;
        choice: decisions with more than one legal move, by level.
    """

    margin: float = 0.0
    hands: int = 0
    a_hands: int = 0
    b_hands: int = 0
    a_matches: int = 0
    b_matches: int = 0
    a_points: int = 0
    b_points: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)
    first: dict[str, list[float]] = field(default_factory=dict)
    choice: dict[str, list[float]] = field(default_factory=dict)


def _timing_hook(result: DealResult, levels: Sequence[str]) -> DecisionHook:
    def hook(seat: int, seconds: float, first: bool, forced: bool) -> None:
        level = levels[seat]
        result.times.setdefault(level, []).append(seconds)
        if first:
            result.first.setdefault(level, []).append(seconds)
        if not forced:
            result.choice.setdefault(level, []).append(seconds)

    return hook


def _seatings(a: str, b: str, rules: Rules | None = None) -> list[tuple[list[str], int]]:
    """The seatings as ``(level by seat, A's side)``. Partnership: A at seats 0/2 (A is
    team 0), then A at seats 1/3 (team 1). Individual play (rules.md, "Formats"): A at
    each seat in turn, B at every other seat (A's side is its seat)."""
    if rules is None or rules.partnership:
        return [([a, b, a, b], 0), ([b, a, b, a], 1)]
    n = rules.players
    return [([a if s == k else b for s in range(n)], k) for k in range(n)]


def _format_first_hand(rules: Rules, deal: Deal, boneyard: Sequence[Tile], index: int) -> Match:
    """The first hand of a format's duplicate deal: under ``double_six`` the holder of
    the highest double dealt opens; else seat ``index % players``."""
    if rules.first_starter == "double_six":
        starter = opening_of(rules, deal)[0]
    else:
        starter = index % rules.players
    return Match.start(rules, deal, starter, boneyard=boneyard)


def duplicate_deal(
    rules: Rules,
    level_a: str,
    level_b: str,
    seed: object,
    index: int,
    robots: dict[str, Robot] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> DealResult:
    """Deal ``index`` of ``seed`` played twice, the teams swapping seats (one hand each).

    Decision times come from ``clock`` (wall time by default; ``time.process_time``
    measures this process's CPU time, which other programs' load does not inflate).

    Under ``double_six`` the holder of 6-6 opens with it; where the first tile is free,
    the opener rotates with ``index`` (seat ``index % 4``) and is the same in both seatings.

    The other formats (rules.md, "Formats") deal the hands and the boneyard once; in
    individual play the deal is played once per seat, A at that seat and B at the others
    (see :func:`_score_hand` for A's margin).
    """
    robots = robots if robots is not None else {}
    for level in (level_a, level_b):
        if level not in robots:
            robots[level] = make_robot(level)
    deal_rng = random.Random(f"{seed}/deal{index}")
    classic = rules.is_classic
    boneyard: tuple[Tile, ...] = ()
    if classic:
        deal = deal_tiles(deal_rng, rules)
    else:
        deal, boneyard = deal_hand(deal_rng, rules)  # type: ignore[assignment]
    seatings = _seatings(level_a, level_b, rules)
    result = DealResult()
    total = 0.0
    for levels, a_team in seatings:
        if classic:
            match = _first_hand(rules, deal, random.Random(0), starter=index % 4)
        else:
            match = _format_first_hand(rules, deal, boneyard, index)
        rngs = seat_rngs(f"{seed}/{index}/{a_team}")
        match = play_hand(
            match,
            [robots[x] for x in levels],
            rngs,
            on_decision=_timing_hook(result, levels),
            clock=clock,
        )
        total += _score_hand(result, match, a_team)
    result.margin = total / len(seatings)
    return result


def _score_hand(result: DealResult, match: Match, a_team: int) -> float:
    """A's margin in this hand: its points when it wins; when B wins, minus B's points,
    shared among B's players in individual play of 3 or 4 (A's points minus B's mean)."""
    outcome = match.hand.outcome
    assert outcome is not None
    result.hands += 1
    if outcome.winner_team is None:
        return 0
    if outcome.winner_team == a_team:
        result.a_hands += 1
        result.a_points += outcome.points
        return outcome.points
    result.b_hands += 1
    result.b_points += outcome.points
    sides = match.rules.sides
    return -outcome.points if sides == 2 else -outcome.points / (sides - 1)


def duplicate_match(
    rules: Rules,
    level_a: str,
    level_b: str,
    seed: object,
    index: int,
    robots: dict[str, Robot] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> DealResult:
    """Match ``index`` of ``seed`` played twice on the same deal sequence, teams swapped.

    ``margin`` is A's points minus B's per hand over both matches.
    """
    robots = robots if robots is not None else {}
    for level in (level_a, level_b):
        if level not in robots:
            robots[level] = make_robot(level)
    deals: dict[int, Deal] = {}
    bones: dict[int, tuple[Tile, ...]] = {}
    classic = rules.is_classic
    first_rng = random.Random(f"{seed}/match{index}/hand1")
    if classic:
        first_deal, first_starter, _ = first_hand_opening(rules, first_rng)
    else:
        first = first_hand(rules, first_rng)
        first_deal, first_starter = first.deal, first.starter  # type: ignore[assignment]
        bones[1] = first.boneyard
    deals[1] = first_deal

    def deal_for(number: int) -> Deal:
        if number not in deals:
            deal_rng = random.Random(f"{seed}/match{index}/hand{number}")
            if classic:
                deals[number] = deal_tiles(deal_rng, rules)
            else:
                deals[number], bones[number] = deal_hand(deal_rng, rules)  # type: ignore[assignment]
        return deals[number]

    result = DealResult()
    total = 0.0
    for levels, a_team in _seatings(level_a, level_b, rules):
        seated = [robots[x] for x in levels]
        hook = _timing_hook(result, levels)
        rngs = seat_rngs(f"{seed}/match{index}/{a_team}")
        if classic:
            match = _first_hand(rules, first_deal, random.Random(0), starter=first_starter)
        else:
            match = Match.start(rules, first_deal, first_starter, boneyard=bones[1])
        while True:
            match = play_hand(match, seated, rngs, on_decision=hook, clock=clock)
            total += _score_hand(result, match, a_team)
            if match.is_over:
                break
            number = match.hand_number + 1
            deal = deal_for(number)
            match = match.next_hand_with(deal, boneyard=bones.get(number))
        if match.winner_team == a_team:
            result.a_matches += 1
        else:
            result.b_matches += 1
    result.margin = total / max(result.hands, 1)
    return result


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


@dataclass
class Tally:
    """Running totals of many :class:`DealResult`.

    Attributes:
        margins: each deal's margin (points per hand of A over B).
    """

    margins: list[float] = field(default_factory=list)
    hands: int = 0
    a_hands: int = 0
    b_hands: int = 0
    a_matches: int = 0
    b_matches: int = 0
    a_points: int = 0
    b_points: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)
    first: dict[str, list[float]] = field(default_factory=dict)
    choice: dict[str, list[float]] = field(default_factory=dict)

    def add(self, r: DealResult) -> None:
        self.margins.append(r.margin)
        self.hands += r.hands
        self.a_hands += r.a_hands
        self.b_hands += r.b_hands
        self.a_matches += r.a_matches
        self.b_matches += r.b_matches
        self.a_points += r.a_points
        self.b_points += r.b_points
        for src, dst in ((r.times, self.times), (r.first, self.first), (r.choice, self.choice)):
            for level, values in src.items():
                dst.setdefault(level, []).extend(values)

    @property
    def deals(self) -> int:
        return len(self.margins)

    def margin(self) -> tuple[float, float]:
        """A's mean margin per hand and the half-width of its 95 % interval
        (1.96 × standard deviation per deal / √deals)."""
        n = len(self.margins)
        if n == 0:
            return (math.nan, math.nan)
        mean = statistics.fmean(self.margins)
        if n < 2:
            return (mean, math.nan)
        return (mean, 1.96 * statistics.stdev(self.margins) / math.sqrt(n))

    def timing(self, level: str) -> dict[str, float]:
        """Decision times of ``level`` in milliseconds: median, p95, p99, max, and the
        median and p99 of each hand's first decision, the median and p99 of the decisions
        with a choice (more than one legal move); ``n`` decisions."""
        values = sorted(self.times.get(level, []))
        first = sorted(self.first.get(level, []))
        choice = sorted(self.choice.get(level, []))
        return {
            "n": float(len(values)),
            "median": _percentile(values, 0.5) * 1000,
            "p95": _percentile(values, 0.95) * 1000,
            "p99": _percentile(values, 0.99) * 1000,
            "max": (values[-1] * 1000) if values else math.nan,
            "first_median": _percentile(first, 0.5) * 1000,
            "first_p99": _percentile(first, 0.99) * 1000,
            "choice_median": _percentile(choice, 0.5) * 1000,
            "choice_p99": _percentile(choice, 0.99) * 1000,
        }
