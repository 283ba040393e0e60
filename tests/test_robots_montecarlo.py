from __future__ import annotations

import random

from engine import Match, Move, Tile, find_preset, seat_view
from engine.robots import make_robot
from engine.robots.endgame import Solver
from engine.robots.knowledge import Knowledge
from engine.robots.montecarlo import MonteCarloRobot, _candidates, match_utility
from engine.robots.playout import Scoring
from engine.tiles import ALL_TILES
from engine.views import SeatView

T = Tile.parse
ALL = [str(t) for t in ALL_TILES]


def _deal(*hands: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(x) for x in h.split()) for h in hands)


DEAL = _deal(
    "6-6 6-5 5-4 3-3 2-0 1-1 0-0",
    "6-4 6-1 4-4 5-5 3-0 2-1 1-0",
    "6-3 6-2 5-3 5-2 4-2 2-2 3-1",
    "6-0 5-1 5-0 4-3 4-1 4-0 3-2",
)


def _play(match: Match, *moves: str) -> Match:
    for text in moves:
        match = match.apply(Move.parse(text))
    return match


def test_monte_carlo_levels_repeat_their_choice_for_a_seed() -> None:
    match = _play(Match.start(find_preset("venezolano"), DEAL, 0), "6-6")
    view = seat_view(match, 1)
    for level in ("experto", "maestro"):
        robot = make_robot(level)
        first = robot.choose(view, random.Random(42))
        assert first in view.legal_moves()
        assert robot.choose(view, random.Random(42)) == first


def test_a_robot_goes_out_with_its_last_tile() -> None:
    jugador = make_robot("jugador")
    for seed in range(20):
        rng = random.Random(seed)
        match = Match.new(find_preset("venezolano"), rng)
        while not match.hand.is_over:
            seat = match.hand.turn
            view = seat_view(match, seat)
            if len(view.tiles) == 1 and view.legal_moves()[0].tile is not None:
                for level in ("novato", "aprendiz", "jugador", "experto", "maestro"):
                    move = make_robot(level).choose(view, random.Random(1))
                    after = match.apply(move)
                    assert after.hand.outcome is not None
                    assert after.hand.outcome.winner_seat == seat
                return
            match = match.apply(jugador.choose(view, rng))
    raise AssertionError("nobody went out in twenty deals")


def test_candidates_carry_the_ends_each_move_leaves() -> None:
    match = _play(Match.start(find_preset("venezolano"), DEAL, 0), "6-6", "6-4")
    view = seat_view(match, 2)
    cands = _candidates(view, view.legal_moves())
    for move, index, nl, nr in cands:
        assert move.tile is not None and move.tile.index == index
        after = match.apply(move)
        assert after.hand.ends == (nl, nr)


def test_the_match_utility_rewards_reaching_the_target() -> None:
    near = match_utility((90, 40), 100, team=0)
    assert near(12) > near(9) + 50  # 12 points win the match, 9 do not
    assert near(-5) == -5
    far = match_utility((0, 0), 100, team=1)
    assert far(-20) == 20 and far(20) == -20
    theirs = match_utility((40, 95), 100, team=0)
    assert theirs(-6) < -60


def _all_deals(know: Knowledge) -> list[list[int]]:
    """Every deal of the hidden tiles consistent with the seat's knowledge."""
    groups = know._tile_groups()
    out: list[list[int]] = []

    def rec(k: int, hands: list[int], cap: list[int]) -> None:
        if k == len(groups):
            out.append(hands[:])
            return
        index, seats = groups[k]
        for s in seats:
            if cap[s]:
                cap[s] -= 1
                hands[s] |= 1 << index
                rec(k + 1, hands, cap)
                cap[s] += 1
                hands[s] ^= 1 << index

    hands = [0, 0, 0, 0]
    hands[know.seat] = know.mine
    rec(0, hands, know.counts[:])
    return out


def _dominant_move(view: SeatView) -> int | None:
    """The candidate that beats every other tile by 10+ points in every possible deal."""
    moves = view.legal_moves()
    if len(moves) < 2 or sum(view.tile_counts) > 12:
        return None
    know = Knowledge(view)
    cands = _candidates(view, moves)
    sc = Scoring(view.rules)
    sign = 1 if view.seat % 2 == 0 else -1
    rows = []
    for hands in _all_deals(know):
        solver = Solver(sc)
        row = []
        for _m, i, nl, nr in cands:
            h = hands[:]
            h[view.seat] ^= 1 << i
            row.append(sign * solver.value(h, nl, nr, (view.seat + 1) & 3))
        rows.append(row)
    for j, cand in enumerate(cands):
        if all(
            row[j]
            >= max((row[x] for x, c in enumerate(cands) if c[1] != cand[1]), default=10**6) + 10
            for row in rows
        ):
            return j
    return None


def test_a_move_that_is_best_whatever_the_hidden_hands_is_played() -> None:
    jugador = make_robot("jugador")
    checked = 0
    for seed in (62, 128, 163):  # deals that reach such a position under jugador play
        rng = random.Random(seed)
        match = Match.new(find_preset("venezolano"), rng)
        while not match.hand.is_over:
            view = seat_view(match, match.hand.turn)
            best = _dominant_move(view)
            if best is not None:
                cands = _candidates(view, view.legal_moves())
                for level in ("experto", "maestro"):
                    move = make_robot(level).choose(view, random.Random(seed))
                    assert move.tile == cands[best][0].tile, (seed, level, str(move))
                checked += 1
                break
            match = match.apply(jugador.choose(view, rng))
    assert checked == 3


def test_inference_weighs_the_true_hands_above_random_ones_against_heuristic_players() -> None:
    robot = MonteCarloRobot("t", inference=1.0, partner_inference=1.0)
    jugador = make_robot("jugador")
    for seed in range(5):
        rng = random.Random(seed)
        match = Match.new(find_preset("venezolano"), rng)
        while True:
            view = seat_view(match, match.hand.turn)
            if sum(view.tile_counts) <= 18 and view.seat == 0:
                break
            match = match.apply(jugador.choose(view, rng))
        know = Knowledge(view)
        obs = know.observations(view)
        assert obs and all(o[0] != 0 for o in obs)
        truth = [match.hand.hand_mask(s) for s in range(4)]
        sampled = [robot.weight(know.sample(rng), obs, 0) for _ in range(100)]
        assert robot.weight(truth, obs, 0) > 3 * sum(sampled) / len(sampled)


def test_observations_list_what_each_other_seat_held_back() -> None:
    match = _play(Match.start(find_preset("venezolano"), DEAL, 0), "6-6", "6-4", "6-3", "4-3 left")
    view = seat_view(match, 0)
    obs = Knowledge(view).observations(view)
    # the forced 6-6 tells nothing; seat 0's own plays are not listed
    assert [(seat, ALL[index]) for seat, _l, _r, index, _later in obs] == [
        (1, "6-4"),
        (2, "6-3"),
        (3, "4-3"),
    ]
    assert [(left, right) for _s, left, right, _i, _later in obs] == [(6, 6), (6, 4), (3, 4)]


class _CountingKnowledge(Knowledge):
    """Knowledge that counts the deals drawn from it."""

    __slots__ = ("deals",)

    def __init__(self, view: SeatView) -> None:
        super().__init__(view)
        self.deals = 0

    def sample(self, rng: random.Random, tries: int = 200) -> list[int]:
        self.deals += 1
        return super().sample(rng, tries)


def _endgame_view(seed: int, in_hands: int) -> SeatView:
    """A view with a choice once at most ``in_hands`` tiles are left, under jugador play."""
    jugador = make_robot("jugador")
    rng = random.Random(seed)
    match = Match.new(find_preset("venezolano"), rng)
    while not match.hand.is_over:
        view = seat_view(match, match.hand.turn)
        if sum(view.tile_counts) <= in_hands and len(view.legal_moves()) > 1:
            return view
        match = match.apply(jugador.choose(view, rng))
    raise AssertionError("the hand ended before the endgame")


def _exact_deals(robot: MonteCarloRobot, view: SeatView) -> int:
    know = _CountingKnowledge(view)
    robot.evaluate(know, _candidates(view, view.legal_moves()), random.Random(3))
    return know.deals


def test_the_exact_search_deals_exact_samples_without_a_node_budget() -> None:
    view = _endgame_view(5, 12)
    robot = MonteCarloRobot("t", samples=40, exact_tiles=12, exact_samples=9)
    assert _exact_deals(robot, view) == 9


def test_the_exact_search_stops_dealing_once_its_node_budget_is_spent() -> None:
    view = _endgame_view(5, 12)
    robot = MonteCarloRobot(
        "t", samples=40, exact_tiles=12, exact_samples=9, exact_nodes=1, exact_min_samples=4
    )
    assert _exact_deals(robot, view) == 4
    unbounded = MonteCarloRobot(
        "t", samples=40, exact_tiles=12, exact_samples=9, exact_nodes=10**9, exact_min_samples=4
    )
    assert _exact_deals(unbounded, view) == 9
