"""``experto`` and ``maestro``: determinized Monte Carlo (robots.md, "Monte Carlo").

For each of ``samples`` deals of the hidden tiles consistent with what the seat saw
(:meth:`~engine.robots.knowledge.Knowledge.sample`), every candidate move is played out
to the end of the hand with the heuristic for all four seats (the same deals for every
candidate); the move with the best mean value for the robot's team wins. ``maestro``
spends a playout budget (more deals when there are few candidates or the hand is short),
solves the endgame exactly once at most 16 tiles are left in the hands (at most 100 deals,
stopping after 30 once 30,000 positions are searched: :mod:`engine.robots.endgame`), and
values a hand's points by what they do to the match (:func:`match_utility`).
``maestro`` also weights each deal by how likely the opponents' plays are if they play
the heuristic with softmax noise (``inference``, the inverse temperature, per point of
heuristic score). Measured on duplicate deals: a soft model (0.25) gains about 2 points
per hand against ``jugador`` and costs nothing measurable against ``experto``; a sharp
one (0.5 to 1) gains as much against ``jugador`` but loses points against Monte Carlo
opponents, whose plays the heuristic does not explain.

All of the above is today's game. In the other formats of rules.md (2-4 seats,
individual play, double-nine, a boneyard) both levels sample the other hands and the
boneyard and play out with the heuristic in :mod:`engine.robots.formats`
(``format_samples`` deals; maestro also with its own exact endgame; the opponents'
model is there, ``format_inference``, but measured no gain and is off). In individual
play of 3 or 4 seats maestro also takes more deals where a decision is cheap
(``individual_budget``, counted in tile moves, not time) and its exact endgame lets
every other seat play for itself (``individual_each_for_self``, max-n) instead of
against it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine.fast import HIGH, LOW, OTHER
from engine.moves import Move, Side
from engine.robots.base import Robot, legal_or_raise, register_level
from engine.robots.endgame import Solver
from engine.robots.formats import format_values, softmax_share
from engine.robots.knowledge import Knowledge
from engine.robots.playout import Scoring, move_scores, playout
from engine.views import SeatView

__all__ = ["MonteCarloRobot", "match_utility"]


def match_utility(score: tuple[int, int], target: int, team: int) -> Callable[[int], float]:
    """How much a hand's signed points (positive: team 0 scored) are worth to ``team``.

    Points count as points, plus a bonus of 60 for reaching the target (rules.md,
    "Match": the first team to the target wins), so near the end a sure win of the match
    beats a risky bigger hand. With ``score`` far from ``target`` this is the margin.
    """
    mine, theirs = score[team], score[1 - team]
    bonus = 60.0

    def utility(v: int) -> float:
        pts = v if team == 0 else -v
        if pts > 0:
            return pts + (bonus if mine + pts >= target else 0.0)
        if pts < 0:
            return pts - (bonus if theirs - pts >= target else 0.0)
        return 0.0

    return utility


def _candidates(view: SeatView, moves: list[Move]) -> list[tuple[Move, int, int, int]]:
    """Legal moves as ``(move, tile index, new left, new right)``."""
    out = []
    for move in moves:
        tile = move.tile
        assert tile is not None
        i = tile.index
        if view.ends is None:
            out.append((move, i, HIGH[i], LOW[i]))
        else:
            left, right = view.ends
            if move.side is Side.LEFT:
                out.append((move, i, OTHER[i][left], right))
            else:
                out.append((move, i, left, OTHER[i][right]))
    return out


class MonteCarloRobot(Robot):
    """Determinized Monte Carlo over heuristic playouts.

    Args:
        level: the level id it answers to.
        samples: deals of the hidden tiles per decision (the least, with a budget).
        match_aware: value points by the match score (:func:`match_utility`).
        budget: playouts per decision to spread over the candidates (0: ``samples``
            deals whatever the number of candidates).
        max_samples: the most deals a budget may buy.
        exact_tiles: solve exactly (:class:`~engine.robots.endgame.Solver`) once at most
            this many tiles are left in the four hands (0: never).
        exact_samples: deals per decision for the exact search (the most, with
            ``exact_nodes``).
        exact_nodes: stop dealing for the exact search once the solver has searched this
            many positions in this decision, after at least ``exact_min_samples`` deals
            (0: always ``exact_samples`` deals). Counting positions, not time, keeps the
            robot deterministic while bounding the cost of the larger endgames.
        exact_min_samples: the fewest deals the exact search takes.
        inference: inverse temperature of the opponents' softmax-heuristic model used to
            weight the deals (0: no weighting).
        partner_inference: the same for the partner.
        format_samples: deals per decision in the other formats of rules.md (0:
            ``samples``), played out by :func:`~engine.robots.formats.format_values`
            (with an exact endgame when ``exact_tiles``).
        format_inference: ``inference`` in those formats (0: none; maestro uses none:
            robots.md, "Every format", measured no gain).
        individual_budget: in individual play of 3 or 4 seats only, tile moves played
            out per decision (:func:`~engine.robots.formats.playout_samples`: more deals
            where a decision is cheap; 0: ``format_samples``).
        individual_max_samples: there, the most deals a decision takes (by the budget,
            or by the exact search's budget of positions).
        individual_each_for_self: there, the exact endgame lets every other seat play
            for itself (:func:`~engine.robots.formats.solve_maxn`) instead of against
            the robot.
    """

    def __init__(
        self,
        level: str = "experto",
        samples: int = 100,
        *,
        match_aware: bool = False,
        budget: int = 0,
        max_samples: int = 0,
        exact_tiles: int = 0,
        exact_samples: int = 0,
        exact_nodes: int = 0,
        exact_min_samples: int = 0,
        inference: float = 0.0,
        partner_inference: float = 0.0,
        format_samples: int = 0,
        format_inference: float = 0.0,
        individual_budget: int = 0,
        individual_max_samples: int = 0,
        individual_each_for_self: bool = False,
    ):
        self.level = level
        self.samples = samples
        self.match_aware = match_aware
        self.budget = budget
        self.max_samples = max_samples or samples
        self.exact_tiles = exact_tiles
        self.exact_samples = exact_samples or samples
        self.exact_nodes = exact_nodes
        self.exact_min_samples = exact_min_samples
        self.inference = inference
        self.partner_inference = partner_inference
        self.format_samples = format_samples
        self.format_inference = format_inference
        self.individual_budget = individual_budget
        self.individual_max_samples = individual_max_samples
        self.individual_each_for_self = individual_each_for_self
        self._exp = [math.exp(-inference * d) for d in range(200)]
        self._exp_partner = [math.exp(-partner_inference * d) for d in range(200)]

    def sample_count(self, know: Knowledge, n_cands: int) -> int:
        """Deals to sample: ``samples``, or with a playout ``budget`` as many as it
        pays for (between ``samples`` and ``max_samples``). The budget counts playouts
        of 20 tiles: longer playouts early in a hand buy fewer deals."""
        if not self.budget:
            return self.samples
        budget = self.budget * 20 // max(sum(know.counts), 10)
        return max(self.samples, min(self.max_samples, budget // n_cands))

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = legal_or_raise(view, any_format=True)
        if len(moves) == 1:
            return moves[0]
        if len(view.tiles) == 1:
            return moves[0]  # going out: every legal move ends the hand the same way
        values, cands = self.values(view, moves, rng)
        best = max(range(len(cands)), key=lambda j: values[j])
        return cands[best][0]

    def values(
        self, view: SeatView, moves: list[Move], rng: random.Random
    ) -> tuple[list[float], list[tuple[Move, int, int, int]]]:
        """The mean value of each legal move over the sampled deals (the search behind
        :meth:`choose`; also the analysis's, ``engine.robots.analysis``), with the
        candidates in the same order (in the other formats of rules.md, the moves alone:
        ``(move, -1, -1, -1)``, valued by :func:`~engine.robots.formats.format_values`)."""
        if not view.rules.is_classic:
            samples = self.format_samples or self.samples
            endgame = self.exact_tiles > 0
            rules = view.rules
            if not rules.partnership and rules.players > 2:
                values = format_values(
                    view,
                    moves,
                    rng,
                    samples,
                    self.match_aware,
                    endgame,
                    self.format_inference,
                    budget=self.individual_budget,
                    max_samples=self.individual_max_samples,
                    each_for_self=self.individual_each_for_self,
                )
            else:
                values = format_values(
                    view, moves, rng, samples, self.match_aware, endgame, self.format_inference
                )
            return values, [(move, -1, -1, -1) for move in moves]
        know = Knowledge(view)
        cands = _candidates(view, moves)
        obs = []
        if self.inference or self.partner_inference:
            partner = (view.seat + 2) & 3
            obs = [
                o
                for o in know.observations(view)
                if (self.partner_inference if o[0] == partner else self.inference)
            ]
        return self.evaluate(know, cands, rng, obs), cands

    def utility(self, know: Knowledge) -> Callable[[int], float]:
        team = know.seat & 1
        if self.match_aware:
            return match_utility(know.score, know.rules.target, team)
        if team == 0:
            return lambda v: float(v)
        return lambda v: float(-v)

    def weight(
        self, hands: list[int], obs: list[tuple[int, int, int, int, int]], team: int
    ) -> float:
        """How likely the other seats' plays are under this deal, if they play the
        heuristic with softmax noise (``inference`` is the inverse temperature)."""
        w = 1.0
        opp = self._exp
        partner = self._exp_partner
        for seat, left, right, index, later in obs:
            exp = opp if seat & 1 != team else partner
            top, scores = move_scores(hands[seat] | later | (1 << index), left, right)
            w *= softmax_share(top, scores, index, exp)
        return w

    def evaluate(
        self,
        know: Knowledge,
        cands: list[tuple[Move, int, int, int]],
        rng: random.Random,
        obs: list[tuple[int, int, int, int, int]] | None = None,
    ) -> list[float]:
        """Mean value of each candidate over the sampled deals (weighted by
        :meth:`weight` when ``obs`` are given)."""
        sc = Scoring(know.rules)
        util = self.utility(know)
        seat = know.seat
        nxt = (seat + 1) & 3
        totals = [0.0] * len(cands)
        plan = [(j, 1 << i, nl, nr) for j, (_m, i, nl, nr) in enumerate(cands)]
        in_hands = sum(know.counts)
        if self.exact_tiles and in_hands <= self.exact_tiles:
            n = self.exact_samples
            weights = 0.0
            nodes = 0
            for k in range(n):
                if self.exact_nodes and k >= self.exact_min_samples and nodes >= self.exact_nodes:
                    break
                hands = know.sample(rng)
                w = self.weight(hands, obs, seat & 1) if obs else 1.0
                weights += w
                mine = hands[seat]
                solver = Solver(sc)
                for j, bit, nl, nr in plan:
                    hands[seat] = mine ^ bit
                    totals[j] += w * util(solver.value(hands, nl, nr, nxt))
                hands[seat] = mine
                nodes += solver.nodes
            return [t / (weights or 1.0) for t in totals]
        n = self.sample_count(know, len(cands))
        weights = 0.0
        for _ in range(n):
            hands = know.sample(rng)
            w = self.weight(hands, obs, seat & 1) if obs else 1.0
            weights += w
            mine = hands[seat]
            for j, bit, nl, nr in plan:
                h = hands[:]
                h[seat] = mine ^ bit
                totals[j] += w * util(playout(h, nl, nr, nxt, sc))
        return [t / (weights or 1.0) for t in totals]


register_level("experto", lambda: MonteCarloRobot("experto", samples=100))
register_level(
    "maestro",
    lambda: MonteCarloRobot(
        "maestro",
        samples=100,
        budget=1600,
        max_samples=400,
        exact_tiles=16,
        exact_samples=100,
        exact_nodes=30_000,
        exact_min_samples=30,
        inference=0.25,
        match_aware=True,
        format_samples=200,
        individual_budget=14_000,
        individual_max_samples=600,
        individual_each_for_self=True,
    ),
)
