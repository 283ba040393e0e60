from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import HandState, Scoring
from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side, ends_after
from engine.robots import LEVELS, formats, make_robot
from engine.robots.formats import (
    ENDGAME_MIN_SAMPLES,
    ENDGAME_SAMPLES,
    FormatKnowledge,
    format_observations,
    format_playout,
    format_values,
    observation_weight,
    playout_samples,
    side_utility,
    solve_endgame,
    solve_maxn,
)
from engine.robots.montecarlo import MonteCarloRobot
from engine.rules import Rules, find_any_preset
from engine.tiles import Tile, TileSet, mask_of
from engine.views import seat_view

FORMATS = [
    find_any_preset("uno-contra-uno", target=50),
    find_any_preset("individual", target=50),
    find_any_preset("cubano", target=50),
    Rules.build_any(players=3, partnership=False, boneyard="draw", target=50),
    Rules.build_any(
        players=2, partnership=False, boneyard="draw", tile_set="double_nine", target=50
    ),
    Rules.build_any(
        players=4, partnership=False, boneyard="draw", tile_set="double_nine", target=50
    ),
    Rules.build_any(tile_set="double_nine", boneyard="draw", first_starter="random", target=50),
]
"""2, 3 and 4 seats, both sets, draw and pass, partnership and individual (to 50 points,
to keep whole matches short)."""


def t(text: str) -> Tile:
    return Tile.parse(text)


def deal_of(*hands: str) -> list[list[Tile]]:
    return [[t(x) for x in hand.split()] for hand in hands]


def one_vs_one(hands: tuple[str, str], first_drawn: list[str]) -> HandState:
    """A 1-vs-1 draw hand (seat 0 opens) whose boneyard starts with ``first_drawn``."""
    rules = Rules.build_any(
        players=2,
        partnership=False,
        boneyard="draw",
        first_starter="random",
        hand_size=len(hands[0].split()),
    )
    deal = deal_of(*hands)
    first = [t(x) for x in first_drawn]
    dealt = {x for h in deal for x in h}
    rest = [x for x in TileSet.DOUBLE_SIX.tiles if x not in dealt and x not in first]
    return HandState.start(rules, deal, 0, boneyard=first + rest)


@settings(max_examples=14, deadline=None)
@given(
    rules=st.sampled_from(FORMATS),
    seed=st.integers(0, 10_000),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
)
def test_every_level_plays_only_legal_moves_and_a_whole_match_of_any_format_ends(
    rules: Rules, seed: int, levels: list[str]
) -> None:
    rng = random.Random(seed)
    robots = [make_robot(level) for level in levels[: rules.players]]
    match = Match.new(rules, rng)
    moves = 0
    while not match.is_over:
        if match.hand.is_over:
            match = match.next_hand(rng)
            continue
        seat = match.hand.turn
        view = seat_view(match, seat)
        move = robots[seat].choose(view, rng)
        assert move in view.legal_moves()
        match = match.apply(move, seat)
        moves += 1
        assert moves < 5_000
    assert max(match.score) >= rules.target


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_draws_when_drawing_is_its_only_move(level: str) -> None:
    hand = one_vs_one(("6-6 6-5", "1-0 2-2"), ["3-3", "6-1"]).apply(Move(t("6-6")))
    view = seat_view(hand, 1)
    assert view.legal_moves() == [DRAW]
    assert make_robot(level).choose(view, random.Random(0)) == DRAW


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_the_tile_it_drew_when_it_fits(level: str) -> None:
    hand = one_vs_one(("6-6 6-5", "1-0 2-2"), ["3-3", "6-1"]).apply(Move(t("6-6")))
    hand = hand.apply(DRAW).apply(DRAW)
    view = seat_view(hand, 1)
    assert make_robot(level).choose(view, random.Random(0)) == Move(t("6-1"), Side.RIGHT)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_passes_when_nothing_fits_and_nothing_may_be_drawn(level: str) -> None:
    rules = Rules.build_any(
        players=2, partnership=False, boneyard="pass", first_starter="random", hand_size=2
    )
    hand = HandState.start(rules, deal_of("6-6 6-5", "1-0 2-2"), 0).apply(Move(t("6-6")))
    view = seat_view(hand, 1)
    assert (view.legal_moves(), view.boneyard_count) == ([PASS], 24)
    assert make_robot(level).choose(view, random.Random(0)) == PASS


def test_the_unseen_tiles_are_the_other_hands_and_the_boneyard_dealt_by_their_counts() -> None:
    match = Match.new(find_any_preset("individual"), random.Random(3))
    view = seat_view(match, match.hand.turn)
    know = FormatKnowledge(view)
    assert know.unseen == TileSet.DOUBLE_SIX.full_mask & ~mask_of(view.tiles)
    assert (know.counts, know.boneyard) == ([7, 7, 7, 7], 0)
    cubano = Match.new(find_any_preset("cubano"), random.Random(3))
    view = seat_view(cubano, cubano.hand.turn)
    know = FormatKnowledge(view)
    for k in range(20):
        hands, boneyard = know.sample(random.Random(k))
        assert hands[view.seat] == mask_of(view.tiles)
        assert [h.bit_count() for h in hands] == [10, 10, 10, 10]
        assert len(boneyard) == 15
        together = mask_of(view.tiles) | sum(1 << i for i in boneyard)
        for seat in range(4):
            if seat != view.seat:
                assert not together & hands[seat]
                together |= hands[seat]
        assert together == TileSet.DOUBLE_NINE.full_mask


def test_a_seat_that_drew_then_played_is_dealt_no_tile_of_the_ends_it_drew_on() -> None:
    # Seat 1 draws 3-3 (fits neither 6 end) and 6-1 (fits), plays 6-1: its hand, 1-0 2-2
    # 3-3, shows neither 6 nor 6 (the ends it drew on); seat 0 sees only the counts.
    hand = one_vs_one(("6-6 6-5 4-4", "1-0 2-2 5-0"), ["3-3", "6-1"]).apply(Move(t("6-6")))
    hand = hand.apply(DRAW).apply(DRAW).apply(Move(t("6-1"), Side.RIGHT))
    view = seat_view(hand, 0)
    know = FormatKnowledge(view)
    six = TileSet.DOUBLE_NINE.number_masks[6]
    assert know.forbidden[1] == six
    assert (know.counts, know.boneyard) == ([2, 4], 20)
    for k in range(30):
        hands, boneyard = know.sample(random.Random(k))
        assert hands[1].bit_count() == 4 and not hands[1] & six
        assert len(boneyard) == 20


def test_a_void_is_dropped_once_the_seat_draws_again() -> None:
    # Seat 1 draws on 6|6 and plays 6-1; later it draws on 4|1 and plays 4-0: the tile
    # it drew then may show a 6, so only the last void (4 and 1) is kept.
    hand = one_vs_one(("6-6 6-4 4-4", "2-2 3-3 0-0"), ["6-1", "5-2", "4-0"])
    hand = hand.apply(Move(t("6-6"))).apply(DRAW).apply(Move(t("6-1"), Side.RIGHT))
    hand = hand.apply(Move(t("6-4"), Side.LEFT)).apply(DRAW).apply(DRAW)
    hand = hand.apply(Move(t("4-0"), Side.LEFT))
    assert hand.ends == (0, 1)
    know = FormatKnowledge(seat_view(hand, 0))
    numbers = TileSet.DOUBLE_NINE.number_masks
    assert know.forbidden == [0, numbers[4] | numbers[1]]


def test_the_utility_splits_another_players_points_among_the_losers_in_individual_play() -> None:
    match = Match.new(find_any_preset("individual"), random.Random(3))
    know = FormatKnowledge(seat_view(match, 0))
    util = side_utility(know, match_aware=False)
    assert (util(0, 30), util(2, 30), util(-1, 0)) == (30.0, -10.0, 0.0)
    duel = Match.new(find_any_preset("uno-contra-uno"), random.Random(3))
    util = side_utility(FormatKnowledge(seat_view(duel, 1)), match_aware=True)
    assert (util(1, 30), util(0, 100)) == (30.0, -160.0)


def test_a_playout_draws_until_a_tile_fits_and_scores_the_domino() -> None:
    rules = Rules.build_any(players=2, partnership=False, boneyard="draw")
    six_six, six_one, three_three, one_zero = (t(x).index for x in ("6-6", "6-1", "3-3", "1-0"))
    hands = [1 << one_zero, 1 << six_six]
    # Seat 0 on ends 6|6 draws 3-3, then 6-1, and plays 6-1 (ends 6|1); seat 1 plays its
    # only tile, 6-6, and dominoes, scoring seat 0's 1-0 and 3-3: 7 points.
    side, points = format_playout(hands, [three_three, six_one], 6, 6, 0, rules, Scoring(rules))
    assert (side, points) == (1, 7)


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(FORMATS), seed=st.integers(0, 100_000))
def test_the_voids_hold_for_the_real_hands_and_every_sampled_deal_keeps_counts_and_voids(
    rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    checked = 0
    while not match.hand.is_over:
        hand = match.hand
        view = seat_view(match, hand.turn)
        know = FormatKnowledge(view)
        for seat in range(rules.players):
            assert not hand.hand_mask(seat) & know.forbidden[seat]  # sound: the truth fits
        hands, boneyard = know.sample(random.Random(seed + checked))
        assert hands[view.seat] == mask_of(view.tiles)
        assert [h.bit_count() for h in hands] == list(hand.tile_counts())
        assert len(boneyard) == hand.boneyard_count
        dealt = sum(1 << i for i in boneyard)
        for seat in range(rules.players):
            assert not dealt & hands[seat]
            dealt |= hands[seat]
            assert not hands[seat] & know.forbidden[seat]
        assert dealt == mask_of(view.tiles) | know.unseen
        checked += 1
        match = match.apply(rng.choice(view.legal_moves()))
    assert checked > 0


def _duel_utility() -> tuple[Rules, Scoring, object]:
    rules = Rules.build_any(players=2, partnership=False, boneyard="draw")
    match = Match.new(find_any_preset("uno-contra-uno"), random.Random(3))
    return rules, Scoring(rules), side_utility(FormatKnowledge(seat_view(match, 0)), False)


def test_the_endgame_search_finds_the_blocking_move_the_heuristic_misses() -> None:
    rules, sc, util = _duel_utility()
    six_zero, zero_one, six_six = (mask_of([t(x)]) for x in ("6-0", "1-0", "6-6"))
    # Ends 3|0, seat 0 holds 6-0 and 1-0, seat 1 only 6-6, nothing to draw. The
    # heuristic plays 6-0 (6 pips against 1) and seat 1 dominoes with 6-6 (1 point for
    # seat 1); 1-0 leaves ends 3|1, both pass, and the tranca gives seat 0 seat 1's 12.
    after_six_zero = solve_endgame([zero_one, six_six], 3, 6, 1, 0, rules, sc, util, 0)  # type: ignore[arg-type]
    after_one_zero = solve_endgame([six_zero, six_six], 3, 1, 1, 0, rules, sc, util, 0)  # type: ignore[arg-type]
    whole = solve_endgame([six_zero | zero_one, six_six], 3, 0, 0, 0, rules, sc, util, 0)  # type: ignore[arg-type]
    heuristic = format_playout([six_zero | zero_one, six_six], [], 3, 0, 0, rules, sc)
    assert (after_six_zero, after_one_zero, whole, heuristic) == (-1.0, 12.0, 12.0, (1, 1))


def test_the_endgame_search_leaves_the_hands_unchanged() -> None:
    rules, sc, util = _duel_utility()
    hands = [mask_of([t("6-0"), t("1-0")]), mask_of([t("6-6")])]
    solve_endgame(hands, 3, 0, 0, 0, rules, sc, util, 0)  # type: ignore[arg-type]
    assert hands == [mask_of([t("6-0"), t("1-0")]), mask_of([t("6-6")])]


def _individual_endgame_view() -> tuple[object, list[Move]]:
    """The first decision with a choice of seat 0 in an ``individual`` hand played by
    jugador once the hands hold at most 16 tiles."""
    jugador = make_robot("jugador")
    rng = random.Random(11)
    match = Match.new(find_any_preset("individual"), rng)
    while True:
        view = seat_view(match, match.hand.turn)
        moves = view.legal_moves()
        if view.seat == 0 and sum(view.tile_counts) <= 16 and len(moves) > 1 < len(view.tiles):
            return view, moves
        match = match.apply(jugador.choose(view, rng))


def _exact_values(view: Any, moves: list[Move], *, deals: int, seed: int) -> list[float]:
    """Each move's exact value averaged over the first ``deals`` deals of ``seed`` (what
    seat 0's search should find, computed deal by deal)."""
    know = FormatKnowledge(view)
    rules = know.rules
    sc = Scoring(rules)
    util = side_utility(know, False)
    rng = random.Random(seed)
    expected = [0.0] * len(moves)
    for _ in range(deals):
        hands, _bone = know.sample(rng)
        for j, move in enumerate(moves):
            h = hands[:]
            h[0] &= ~mask_of([move.tile])  # type: ignore[list-item]
            nl, nr = ends_after(view.ends, move.tile, move.side)  # type: ignore[arg-type]
            expected[j] += solve_endgame(h, nl, nr, 1, 0, rules, sc, util, 0)
    return [e / deals for e in expected]


def test_with_the_endgame_each_move_is_worth_its_exact_value_averaged_over_the_deals() -> None:
    view, moves = _individual_endgame_view()
    values = format_values(view, moves, random.Random(5), 200, False, endgame=True)  # type: ignore[arg-type]
    assert values == _exact_values(view, moves, deals=ENDGAME_SAMPLES, seed=5)
    assert len(set(values)) > 1


def test_no_exact_search_while_a_tile_may_still_be_drawn() -> None:
    match = Match.new(find_any_preset("uno-contra-uno"), random.Random(2))
    jugador = make_robot("jugador")
    rng = random.Random(2)
    while len(seat_view(match, match.hand.turn).legal_moves()) < 2:
        match = match.apply(jugador.choose(seat_view(match, match.hand.turn), rng))
    view = seat_view(match, match.hand.turn)
    moves = view.legal_moves()
    assert view.boneyard_count > 0
    with_search = format_values(view, moves, random.Random(8), 50, False, endgame=True)
    without = format_values(view, moves, random.Random(8), 50, False, endgame=False)
    assert with_search == without


def test_the_endgame_budget_stops_starting_deals_once_its_positions_are_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision's search is bounded: with a budget of one position, only the
    :data:`ENDGAME_MIN_SAMPLES` deals every decision solves are solved."""
    monkeypatch.setattr(formats, "ENDGAME_NODES", 1)
    view, moves = _individual_endgame_view()
    values = format_values(view, moves, random.Random(5), 200, False, endgame=True)  # type: ignore[arg-type]
    assert values == _exact_values(view, moves, deals=ENDGAME_MIN_SAMPLES, seed=5)


def test_the_search_counts_every_position_it_visits() -> None:
    rules, sc, util = _duel_utility()
    nodes = [0]
    hands = [mask_of([t("6-0"), t("1-0")]), mask_of([t("6-6")])]
    solve_endgame(hands, 3, 0, 0, 0, rules, sc, util, 0, nodes=nodes)  # type: ignore[arg-type]
    # the root; after 6-0 (3|6) seat 1 to move, it dominoes with 6-6 (1 position); after
    # 1-0 (3|1) seat 1 to move, it passes, then seat 0 cannot play: a tranca (2 positions)
    assert nodes == [4]


def test_the_opponents_model_reads_only_free_choices_of_a_hand_it_can_rebuild() -> None:
    # Seat 0 opens 6-6 (the rules name the opening); seat 1 chooses 6-2 over 6-1 (a free
    # choice); seat 0 plays 6-4; seat 1 draws 5-2 and must play it (forced).
    hand = one_vs_one(("6-6 6-4 4-4", "6-1 6-2 0-0"), ["5-2"]).apply(Move(t("6-6")))
    hand = hand.apply(Move(t("6-2"), Side.RIGHT))
    assert format_observations(seat_view(hand, 0)) == [(1, 6, 6, t("6-2").index, 0)]
    hand = hand.apply(Move(t("6-4"), Side.LEFT)).apply(DRAW).apply(Move(t("5-2"), Side.RIGHT))
    # seat 1 drew after choosing 6-2: its hand then is no longer the deal's hand plus
    # what it played since, so the choice is not read
    assert format_observations(seat_view(hand, 0)) == []


def test_a_deal_where_the_opponent_played_the_heuristics_move_weighs_more() -> None:
    six_two = t("6-2").index
    obs = [(1, 6, 6, six_two, 0)]
    exp = [math.exp(-0.25 * d) for d in range(200)]
    # held 6-1 too: 6-2 scores 8 + 3 (6-1 still fits), 6-1 scores 7 + 3: the best
    with_six_one = observation_weight([0, mask_of([t("6-1")])], obs, exp)
    # held 6-5 too: 6-5 scores 11 + 3, three points above 6-2's 8 + 3
    with_six_five = observation_weight([0, mask_of([t("6-5")])], obs, exp)
    assert with_six_one == 1 / (1 + math.exp(-0.25))
    assert with_six_five == math.exp(-0.75) / (math.exp(-0.75) + 1)
    assert observation_weight([0, 0], obs, exp) == 1.0  # 6-2 was its only tile that fit


def _seat_zero_of_three(side: int, points: int) -> float:
    """Seat 0's margin in individual play of 3: its points, or minus half the winner's."""
    if side < 0:
        return 0.0
    return float(points) if side == 0 else -points / 2


def _three_seat_endgame() -> tuple[Rules, Scoring, list[int]]:
    rules = Rules.build_any(players=3, partnership=False, boneyard="pass")
    hands = [mask_of([t("3-0"), t("3-2")]), mask_of([t("5-3"), t("6-6")]), mask_of([t("6-4")])]
    return rules, Scoring(rules), hands


def test_in_individual_play_the_search_lets_every_other_seat_play_for_itself() -> None:
    rules, sc, hands = _three_seat_endgame()
    # Ends 6|3, seat 1 to move; seat 2 then goes out with 6-4 whatever seat 1 plays.
    # Seat 1 playing 6-6 leaves 8 pips with seat 0 and 8 with seat 1: 16 for seat 2, -8
    # for each loser; playing 5-3 keeps 6-6 in its hand: 20 for seat 2, -10 for each.
    # For itself seat 1 plays 6-6; the paranoid search has it play 5-3 against seat 0.
    assert solve_maxn(hands, 6, 3, 1, 0, sc, _seat_zero_of_three, 0, {}) == (2, 16)
    assert solve_endgame(hands, 6, 3, 1, 0, rules, sc, _seat_zero_of_three, 0) == -10.0


def test_the_each_for_itself_search_counts_each_position_once_and_leaves_the_hands() -> None:
    _rules, sc, hands = _three_seat_endgame()
    memo: dict[tuple[int, ...], tuple[int, int]] = {}
    nodes = [0]
    first = solve_maxn(hands, 6, 3, 1, 0, sc, _seat_zero_of_three, 0, memo, nodes)
    # the root, then seat 2 to move after 6-6 (ends 6|3) and after 5-3 (ends 6|5); its
    # 6-4 goes out in both: a leaf, not a position
    assert nodes == [3]
    again = solve_maxn(hands, 6, 3, 1, 0, sc, _seat_zero_of_three, 0, memo, nodes)
    assert (again, nodes) == (first, [3])
    assert hands == _three_seat_endgame()[2]


def test_a_cheap_decision_buys_more_deals_within_its_bounds() -> None:
    assert playout_samples(200, 14_000, 600, 2, 20) == 350
    assert playout_samples(200, 14_000, 600, 2, 10) == 600
    assert playout_samples(200, 14_000, 600, 4, 28) == 200
    assert playout_samples(200, 0, 600, 2, 10) == 200


def _maxn_values(view: Any, moves: list[Move], *, deals: int, seed: int) -> list[float]:
    """Each move's max-n value for seat 0 averaged over the first ``deals`` deals of
    ``seed``, computed deal by deal."""
    know = FormatKnowledge(view)
    sc = Scoring(know.rules)
    util = side_utility(know, False)
    rng = random.Random(seed)
    expected = [0.0] * len(moves)
    for _ in range(deals):
        hands, _bone = know.sample(rng)
        for j, move in enumerate(moves):
            h = hands[:]
            h[0] &= ~mask_of([move.tile])  # type: ignore[list-item]
            nl, nr = ends_after(view.ends, move.tile, move.side)  # type: ignore[arg-type]
            expected[j] += util(*solve_maxn(h, nl, nr, 1, 0, sc, util, 0, {}))
    return [e / deals for e in expected]


def test_each_for_itself_the_endgame_takes_more_deals_while_its_search_is_cheap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, moves = _individual_endgame_view()
    monkeypatch.setattr(formats, "ENDGAME_NODES", 10**9)
    monkeypatch.setattr(formats, "ENDGAME_EXTRA_NODES", 10**9)
    values = format_values(
        view, moves, random.Random(5), 200, False, endgame=True, max_samples=80, each_for_self=True
    )  # type: ignore[arg-type]
    assert values == _maxn_values(view, moves, deals=80, seed=5)
    assert len(set(values)) > 1
    monkeypatch.setattr(formats, "ENDGAME_EXTRA_NODES", 1)
    values = format_values(
        view, moves, random.Random(5), 200, False, endgame=True, max_samples=80, each_for_self=True
    )  # type: ignore[arg-type]
    assert values == _maxn_values(view, moves, deals=ENDGAME_SAMPLES, seed=5)


def test_with_a_budget_a_decision_valued_by_playouts_takes_the_deals_it_pays_for() -> None:
    match = Match.new(find_any_preset("individual"), random.Random(4))
    jugador = make_robot("jugador")
    rng = random.Random(4)
    while len(seat_view(match, match.hand.turn).legal_moves()) < 2:
        match = match.apply(jugador.choose(seat_view(match, match.hand.turn), rng))
    view = seat_view(match, match.hand.turn)
    moves = view.legal_moves()
    deals = playout_samples(50, 14_000, 600, len(moves), sum(view.tile_counts))
    assert deals > 50
    budgeted = format_values(
        view, moves, random.Random(6), 50, False, budget=14_000, max_samples=600
    )
    assert budgeted == format_values(view, moves, random.Random(6), deals, False)


@pytest.mark.parametrize("preset", ["uno-contra-uno", "cubano"])
def test_the_individual_play_options_change_nothing_in_one_against_one_or_partnership_play(
    preset: str,
) -> None:
    plain = MonteCarloRobot("m", format_samples=40, exact_tiles=16, match_aware=True)
    tuned = MonteCarloRobot(
        "m",
        format_samples=40,
        exact_tiles=16,
        match_aware=True,
        individual_budget=14_000,
        individual_max_samples=600,
        individual_each_for_self=True,
    )
    jugador = make_robot("jugador")
    rng = random.Random(9)
    match = Match.new(find_any_preset(preset), rng)
    compared = 0
    while not match.hand.is_over:
        view = seat_view(match, match.hand.turn)
        moves = view.legal_moves()
        if len(moves) > 1:
            assert plain.values(view, moves, random.Random(compared)) == tuned.values(
                view, moves, random.Random(compared)
            )
            compared += 1
        match = match.apply(jugador.choose(view, rng))
    assert compared > 0
