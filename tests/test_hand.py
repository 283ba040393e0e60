from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMoveError, NotYourTurnError
from engine.hand import (
    HandOutcome,
    HandState,
    Termination,
    deal_tiles,
    first_hand,
    first_hand_opening,
    opening_of,
    team_of,
)
from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import PRESETS, Rules, find_any_preset, find_preset
from engine.tiles import ALL_TILES, Tile
from tests.oracle import expected_outcome

V = PRESETS["venezolano"]


def t(text: str) -> Tile:
    return Tile.parse(text)


def deal_of(*hands: str) -> list[list[Tile]]:
    return [[t(x) for x in hand.split()] for hand in hands]


EXAMPLE_DEAL = deal_of(
    "6-6 6-5 5-5 4-1 3-0 2-2 1-0",
    "6-4 6-3 5-4 5-3 4-4 2-1 0-0",
    "6-2 6-1 5-2 5-1 4-3 3-3 1-1",
    "6-0 5-0 4-2 4-0 3-2 3-1 2-0",
)


def opened() -> HandState:
    return HandState.start(V, EXAMPLE_DEAL, 0, opening_tile=t("6-6")).apply(Move(t("6-6")))


rule_sets = st.builds(
    Rules,
    counting=st.sampled_from(["opponents", "all"]),
    first_starter=st.sampled_from(["double_six", "random", "draw"]),
    next_starter=st.sampled_from(["rotate", "winner"]),
    blocked_winner=st.sampled_from(["team", "individual"]),
    redeal_doubles=st.sampled_from([None, 4, 5]),
    capicua_bonus=st.sampled_from([0, 10, 20, 25, 30]),
)


def play_random_hand(rules: Rules, seed: int) -> HandState:
    rng = random.Random(seed)
    deal, starter, _ = first_hand_opening(rules, rng)
    opening = t("6-6") if rules.first_starter == "double_six" else None
    hand = HandState.start(rules, deal, starter, opening_tile=opening)
    while not hand.is_over:
        hand = hand.apply(rng.choice(hand.legal_moves()))
    return hand


def test_seats_0_and_2_are_one_partnership_and_1_and_3_the_other() -> None:
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_under_double_six_the_opener_may_only_play_6_6() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 0, opening_tile=t("6-6"))
    assert hand.legal_moves() == [Move(t("6-6"))]
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("6-5")))
    assert info.value.reason == "must_open_with"


def test_without_an_opening_tile_the_opener_may_play_any_tile() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 1)
    assert [m.tile for m in hand.legal_moves()] == sorted(EXAMPLE_DEAL[1])


def test_the_opening_tile_puts_its_high_half_on_the_left() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 1).apply(Move(t("6-4")))
    assert hand.ends == (6, 4)
    assert hand.turn == 2


def test_play_goes_counter_clockwise_to_the_next_seat() -> None:
    assert opened().turn == 1


def test_a_tile_that_fits_both_ends_differently_gives_two_moves() -> None:
    hand = opened().apply(Move(t("6-4"))).apply(Move(t("6-2")))
    assert hand.ends == (2, 4)
    moves = hand.legal_moves()
    assert Move(t("4-2"), Side.LEFT) in moves and Move(t("4-2"), Side.RIGHT) in moves
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("4-2")))
    assert info.value.reason == "side_missing"


def test_when_both_ends_match_a_tile_without_a_side_goes_right() -> None:
    hand = opened()
    assert hand.ends == (6, 6)
    assert hand.legal_moves() == [Move(t("6-3"), Side.RIGHT), Move(t("6-4"), Side.RIGHT)]
    after = hand.apply(Move(t("6-4")))
    assert after.ends == (6, 4)
    assert [p.tile for p in after.line] == [t("6-6"), t("6-4")]


def test_a_side_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    hand = opened().apply(Move(t("6-4")))
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("6-2"), Side.RIGHT))
    assert info.value.reason == "side_does_not_fit"
    assert hand.ends == (6, 4) and hand.turn == 2


def test_a_tile_that_fits_neither_end_is_refused() -> None:
    hand = opened()
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("5-4")))
    assert info.value.reason == "does_not_fit"


def test_a_tile_not_held_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as info:
        opened().apply(Move(t("6-2")))
    assert info.value.reason == "not_held"
    assert info.value.seat == 1


def test_a_seat_that_can_play_cannot_pass() -> None:
    with pytest.raises(IllegalMoveError) as info:
        opened().apply(PASS)
    assert info.value.reason == "must_play"
    assert "must play (holds 6-3 for the 6 end), cannot pass" in str(info.value)


def test_a_seat_with_nothing_that_fits_may_only_pass() -> None:
    hand = opened()
    for text in ["6-4", "6-2", "4-2 right", "2-2", "2-1", "5-1", "5-0", "1-0"]:
        hand = hand.apply(Move.parse(text))
    assert hand.turn == 1 and hand.ends == (2, 1)
    assert hand.legal_moves() == [PASS]
    assert hand.apply(PASS).turn == 2


def test_moving_out_of_turn_is_refused() -> None:
    with pytest.raises(NotYourTurnError) as info:
        opened().apply(Move(t("6-5")), seat=0)
    assert (info.value.seat, info.value.turn) == (0, 1)


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    hand = opened()
    after = hand.apply(Move(t("6-4")))
    assert hand.ends == (6, 6) and after.ends == (6, 4)
    assert len(hand.history) == 1 and len(after.history) == 2


def test_no_move_is_legal_once_the_hand_is_over() -> None:
    hand = play_random_hand(V, 1)
    assert hand.legal_moves() == []
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(PASS)
    assert info.value.reason == "hand_over"


def test_the_redeal_rule_never_deals_too_many_doubles() -> None:
    rules = find_preset("espanol")
    rng = random.Random(7)
    for _ in range(300):
        deal = deal_tiles(rng, rules)
        assert all(sum(x.is_double for x in hand) < 4 for hand in deal)


def test_the_draw_opener_is_the_highest_drawn_tile_with_the_higher_half_breaking_ties() -> None:
    rules = find_preset("espanol")
    for seed in range(200):
        _, starter, drawn = first_hand_opening(rules, random.Random(seed))
        assert drawn is not None and len(set(drawn)) == 4
        best = max(drawn, key=lambda x: (x.pips, x.high))
        assert drawn[starter] is best
        ties = [x for x in drawn if x.pips == best.pips and x is not best]
        assert all(x.high < best.high for x in ties)


def test_the_draw_tie_break_is_exercised_by_some_seed() -> None:
    rules = find_preset("espanol")
    for seed in range(500):
        _, starter, drawn = first_hand_opening(rules, random.Random(seed))
        assert drawn is not None
        top = drawn[starter].pips
        if sum(1 for x in drawn if x.pips == top) > 1:
            return
    pytest.fail("no seed drew equal pip totals")


def test_under_double_six_the_holder_of_6_6_opens() -> None:
    for seed in range(50):
        deal, starter, _ = first_hand_opening(V, random.Random(seed))
        assert t("6-6") in deal[starter]


def _plays(hand: HandState) -> list[tuple[int, str, tuple[int, int] | None]]:
    plays = []
    ends: tuple[int, int] | None = None
    for seat, move in hand.history:
        if move.tile is None:
            continue
        plays.append((seat, str(move.tile), ends))
        tile = move.tile
        if ends is None:
            ends = (tile.high, tile.low)
        elif move.side is Side.LEFT:
            ends = (tile.other(ends[0]), ends[1])
        else:
            ends = (ends[0], tile.other(ends[1]))
    return plays


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_every_hand_ends_with_28_tiles_conserved_and_scored_as_the_rule_book_says(
    rules: Rules, seed: int
) -> None:
    hand = play_random_hand(rules, seed)
    outcome = hand.outcome
    assert outcome is not None
    on_line = [p.tile for p in hand.line]
    held = [x for s in range(4) for x in hand.tiles(s)]
    assert sorted(on_line + held) == list(ALL_TILES)
    assert len(set(on_line)) == len(on_line)
    expected = expected_outcome(
        rules.model_dump(),
        [[str(x) for x in h] for h in hand.deal],
        _plays(hand),
        outcome.end is Termination.DOMINO,
    )
    got = {
        "end": outcome.end.value,
        "winner_team": outcome.winner_team,
        "winner_seat": outcome.winner_seat,
        "points": outcome.points,
        "capicua": outcome.capicua,
        "pips_left": list(outcome.pips_left),
    }
    assert got == expected


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_a_blocked_hand_is_one_where_nobody_holds_a_tile_for_either_end(
    rules: Rules, seed: int
) -> None:
    hand = play_random_hand(rules, seed)
    assert hand.outcome is not None
    if hand.outcome.end is Termination.BLOCKED:
        left, right = hand.ends or (0, 0)
        for seat in range(4):
            assert not any(x.has(left) or x.has(right) for x in hand.tiles(seat))
    else:
        assert hand.tiles(hand.outcome.last_seat) == ()


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_the_outcome_gives_each_teams_pips_left(rules: Rules, seed: int) -> None:
    outcome = play_random_hand(rules, seed).outcome
    assert outcome is not None
    a, b = outcome.team_pips
    assert (a, b) == (sum(outcome.pips_left[0::2]), sum(outcome.pips_left[1::2]))
    if outcome.end is Termination.BLOCKED and rules.blocked_winner == "team":
        assert outcome.winner_team == (None if a == b else (0 if a < b else 1))


@settings(max_examples=40, deadline=None)
@given(rule_sets, st.integers(0, 10**9))
def test_the_line_always_joins_matching_halves(rules: Rules, seed: int) -> None:
    hand = play_random_hand(rules, seed)
    line = hand.line
    for a, b in itertools.pairwise(line):
        assert a.right == b.left
    assert hand.ends == (line[0].left, line[-1].right)
    for p in line:
        assert {p.left, p.right} == {p.tile.high, p.tile.low}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_a_pass_is_legal_only_when_nothing_fits(seed: int) -> None:
    rng = random.Random(seed)
    deal, starter, _ = first_hand_opening(V, rng)
    hand = HandState.start(V, deal, starter, opening_tile=t("6-6"))
    while not hand.is_over:
        moves = hand.legal_moves()
        assert moves
        assert (moves == [PASS]) == (not hand.can_play(hand.turn))
        assert moves == sorted(set(moves), key=moves.index)  # no duplicates
        hand = hand.apply(rng.choice(moves))


# -- formats (rules.md, "Formats") ----------------------------------------------------

FORMATS = [
    find_any_preset("uno-contra-uno"),
    find_any_preset("individual"),
    find_any_preset("cubano"),
    Rules.build_any(players=3, partnership=False, boneyard="draw"),
    Rules.build_any(players=3, partnership=False, counting="all", capicua_bonus=25),
    Rules.build_any(players=2, partnership=False, boneyard="draw", tile_set="double_nine"),
    Rules.build_any(
        players=4, partnership=False, boneyard="draw", tile_set="double_nine", first_starter="draw"
    ),
    Rules.build_any(
        players=2, partnership=False, boneyard="draw", hand_size=13, next_starter="winner"
    ),
    Rules.build_any(tile_set="double_nine", boneyard="draw", first_starter="random"),
]
"""A rule set of every format: 2, 3 and 4 players, both sets, draw and pass, both
partnership and individual play (the property tests draw from these)."""


def expected_points(rules: Rules, outcome: HandOutcome) -> tuple[int | None, int]:
    """``(winning side, points)`` as rules.md says, from the pips left (the test's own
    oracle for individual play; partnership with the ``team`` tranca rule)."""
    pips = outcome.pips_left
    bonus = rules.capicua_bonus if outcome.capicua else 0
    if rules.partnership:
        if outcome.end is Termination.DOMINO:
            side = outcome.last_seat % 2
        else:
            teams = (pips[0] + pips[2], pips[1] + pips[3])
            if teams[0] == teams[1]:
                return None, 0
            side = 0 if teams[0] < teams[1] else 1
        mine = pips[side] + pips[side + 2]
    else:
        if outcome.end is Termination.DOMINO:
            side = outcome.last_seat
        else:
            low = min(pips)
            if pips.count(low) > 1:
                return None, 0
            side = pips.index(low)
        mine = pips[side]
    total = sum(pips) if rules.counting == "all" else sum(pips) - mine
    return side, total + bonus


def check_tiles_conserved(hand: HandState) -> None:
    held = [set(hand.tiles(s)) for s in range(hand.players)]
    line = {p.tile for p in hand.line}
    boneyard = set(hand.boneyard[hand.drawn :])
    parts = [*held, line, boneyard]
    assert sum(len(p) for p in parts) == len(hand.rules.tile_set.tiles)
    assert set().union(*parts) == set(hand.rules.tile_set.tiles)
    assert len(hand.line) + sum(len(h) for h in held) + hand.boneyard_count == len(
        hand.rules.tile_set.tiles
    )


@settings(max_examples=90, deadline=None)
@given(rules=st.sampled_from(FORMATS), seed=st.integers(0, 2**32 - 1))
def test_every_format_keeps_its_tiles_refuses_no_legal_move_draws_only_when_nothing_fits_and_ends(
    rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    hand = Match.new(rules, rng).hand
    assert hand.players == rules.players
    assert [len(h) for h in hand.deal] == [rules.hand_tiles] * rules.players
    limit = 2 * len(rules.tile_set.tiles) * rules.players
    steps = 0
    while not hand.is_over:
        check_tiles_conserved(hand)
        moves = hand.legal_moves()
        fits = hand.can_play(hand.turn)
        if DRAW in moves:
            assert moves == [DRAW]
            assert not fits and rules.boneyard == "draw" and hand.boneyard_count > 0
            with pytest.raises(IllegalMoveError) as info:
                hand.apply(PASS)
            assert info.value.reason == "must_draw"
        else:
            with pytest.raises(IllegalMoveError) as info:
                hand.apply(DRAW)
            assert info.value.reason == "cannot_draw"
        if hand.ends is not None and not fits and DRAW not in moves:
            assert moves == [PASS] and hand.drawable == 0
        for move in moves:  # no legal move is refused
            hand.apply(move)
        move = rng.choice(moves)
        before = hand
        hand = hand.apply(move)
        if move == DRAW:
            drawn = before.boneyard[before.drawn]
            assert set(hand.tiles(before.turn)) == {*before.tiles(before.turn), drawn}
            assert hand.drawn_tiles(before.turn)[-1] is drawn
        steps += 1
        assert steps <= limit
    check_tiles_conserved(hand)
    outcome = hand.outcome
    assert outcome is not None
    assert len(outcome.pips_left) == rules.players
    assert outcome.pips_left == tuple(hand.pips(s) for s in range(rules.players))
    side, points = expected_points(rules, outcome)
    assert (outcome.winner_team, outcome.points) == (side, points)


def fmt(**options: object) -> Rules:
    """A format whose first hand any seat opens with any tile (hand-built positions)."""
    return Rules.build_any(first_starter="random", **options)


def test_in_individual_play_a_domino_scores_the_pips_left_in_every_other_hand() -> None:
    for counting in ("opponents", "all"):
        rules = fmt(players=3, partnership=False, hand_size=2, counting=counting)
        hand = HandState.start(rules, deal_of("6-6 6-5", "5-5 1-0", "4-4 2-1"), 0)
        hand = hand.apply(Move(t("6-6")))
        assert hand.legal_moves() == [PASS]
        hand = hand.apply(PASS).apply(PASS).apply(Move(t("6-5")))
        outcome = hand.outcome
        assert outcome is not None
        assert (outcome.end, outcome.winner_team, outcome.winner_seat) == (
            Termination.DOMINO,
            0,
            0,
        )
        assert (outcome.pips_left, outcome.points) == ((0, 11, 11), 22)


def test_in_individual_play_a_tranca_goes_to_the_single_player_with_the_fewest_pips() -> None:
    rules = fmt(players=3, partnership=False, hand_size=2)
    hand = HandState.start(rules, deal_of("6-6 2-0", "5-5 3-1", "4-4 4-3"), 0)
    hand = hand.apply(Move(t("6-6")))
    outcome = hand.outcome
    assert outcome is not None
    assert (outcome.end, outcome.winner_team, outcome.winner_seat) == (Termination.BLOCKED, 0, 0)
    assert (outcome.pips_left, outcome.points) == ((2, 14, 15), 29)
    everything = HandState.start(
        fmt(players=3, partnership=False, hand_size=2, counting="all"),
        deal_of("6-6 2-0", "5-5 3-1", "4-4 4-3"),
        0,
    ).apply(Move(t("6-6")))
    assert everything.outcome is not None and everything.outcome.points == 31


def test_in_individual_play_a_tie_for_the_fewest_pips_scores_nothing_and_rotates() -> None:
    rules = fmt(players=3, partnership=False, hand_size=2, next_starter="winner")
    match = Match.start(rules, deal_of("6-6 3-1", "2-2 0-0", "5-5 4-3"), 0)
    match = match.apply(Move(t("6-6")))
    outcome = match.hand.outcome
    assert outcome is not None
    assert outcome.pips_left == (4, 4, 17)
    assert (outcome.winner_team, outcome.winner_seat, outcome.points) == (None, None, 0)
    assert match.score == (0, 0, 0)
    assert match.next_starter() == 1


def test_a_player_with_nothing_that_fits_draws_one_tile_at_a_time_then_must_play_it() -> None:
    rules = fmt(players=2, partnership=False, hand_size=2, boneyard="draw")
    deal = deal_of("6-6 6-5", "1-0 2-2")
    dealt = {x for h in deal for x in h}
    first = [t("3-3"), t("6-1")]
    boneyard = first + [x for x in ALL_TILES if x not in dealt and x not in first]
    hand = HandState.start(rules, deal, 0, boneyard=boneyard).apply(Move(t("6-6")))
    assert (hand.turn, hand.legal_moves(), hand.boneyard_count) == (1, [DRAW], 24)
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(PASS)
    assert info.value.reason == "must_draw"
    with pytest.raises(IllegalMoveError) as info:
        hand.apply(Move(t("1-0")))
    assert info.value.reason == "does_not_fit"
    hand = hand.apply(DRAW)
    assert (hand.turn, hand.tiles(1), hand.legal_moves()) == (
        1,
        (t("1-0"), t("2-2"), t("3-3")),
        [DRAW],
    )
    hand = hand.apply(DRAW)
    assert hand.legal_moves() == [Move(t("6-1"), Side.RIGHT)]
    assert hand.drawn_tiles(1) == (t("3-3"), t("6-1"))
    assert hand.drawn_tiles(0) == ()
    assert hand.boneyard_count == 22
    assert hand.history[1:] == ((1, DRAW), (1, DRAW))


def test_a_draw_is_refused_under_pass_when_a_tile_fits_and_to_the_opener() -> None:
    passing = HandState.start(
        fmt(players=2, partnership=False, hand_size=2), deal_of("6-6 6-5", "1-0 2-2"), 0
    ).apply(Move(t("6-6")))
    assert passing.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError) as info:
        passing.apply(DRAW)
    assert (info.value.reason, info.value.detail["why"]) == (
        "cannot_draw",
        "the rule is pass: nobody draws",
    )
    drawing = HandState.start(
        fmt(players=2, partnership=False, hand_size=2, boneyard="draw"),
        deal_of("6-6 6-5", "6-1 2-2"),
        0,
    )
    with pytest.raises(IllegalMoveError) as info:
        drawing.apply(DRAW)
    assert info.value.detail["why"] == "the opener plays a tile"
    drawing = drawing.apply(Move(t("6-6")))
    with pytest.raises(IllegalMoveError) as info:
        drawing.apply(DRAW)
    assert info.value.detail["why"] == "a tile fits"


def test_a_hand_blocks_when_the_last_tile_is_drawn_and_nothing_fits() -> None:
    # uno-contra-uno: among random hands some block right after the boneyard's last draw.
    rules = find_any_preset("uno-contra-uno")
    blocked = []
    for seed in range(60):
        rng = random.Random(seed)
        hand = Match.new(rules, rng).hand
        while not hand.is_over:
            if not hand.drawable and hand.ends is not None:
                assert hand.legal_moves() != [DRAW]
            hand = hand.apply(rng.choice(hand.legal_moves()))
        assert hand.outcome is not None
        if hand.outcome.end is Termination.BLOCKED and hand.history[-1][1] == DRAW:
            blocked.append(hand)
    assert blocked
    for hand in blocked:
        assert hand.boneyard_count == 0
        assert not any(hand.can_play(seat) for seat in range(2))
        assert hand.outcome is not None
        assert hand.outcome.last_seat == hand.history[-1][0]


def test_the_first_hand_with_a_boneyard_opens_with_the_highest_double_dealt() -> None:
    rules = Rules.build_any(players=2, partnership=False, hand_size=2)
    assert opening_of(rules, deal_of("1-1 6-5", "2-2 3-0")) == (1, t("2-2"))
    assert opening_of(rules, deal_of("6-3 5-1", "5-4 4-0")) == (0, t("6-3"))
    assert opening_of(rules, deal_of("6-2 5-1", "5-4 4-0")) == (1, t("5-4"))
    match = Match.start(rules, deal_of("1-1 6-5", "2-2 3-0"), 1)
    assert match.hand.opening_tile == t("2-2")
    with pytest.raises(ValueError, match="holder of 2-2 opens, not seat 0"):
        Match.start(rules, deal_of("1-1 6-5", "2-2 3-0"), 0)


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(FORMATS), seed=st.integers(0, 2**32 - 1))
def test_a_dealt_first_hand_opens_with_the_rules_opener(rules: Rules, seed: int) -> None:
    first = first_hand(rules, random.Random(seed))
    assert len(first.deal) == rules.players
    assert set(first.boneyard) == set(rules.tile_set.tiles) - {x for h in first.deal for x in h}
    if rules.first_starter == "double_six":
        dealt = [x for h in first.deal for x in h]
        doubles = [x for x in dealt if x.is_double]
        best = max(doubles) if doubles else max(dealt, key=lambda x: (x.pips, x.high))
        assert first.opening_tile is best
        assert best in first.deal[first.starter]


def test_a_double_nine_tile_is_played_in_a_double_nine_hand_only() -> None:
    nine = fmt(players=2, partnership=False, tile_set="double_nine", hand_size=2)
    hand = HandState.start(nine, [[Tile(9, 9), Tile(9, 7)], [Tile(8, 0), Tile(7, 7)]], 0)
    hand = hand.apply(Move(Tile(9, 9))).apply(PASS).apply(Move(Tile(9, 7)))
    assert hand.outcome is not None and hand.outcome.points == 22
    with pytest.raises(ValueError, match="9-9 is not a tile of the set"):
        HandState.start(
            fmt(players=2, partnership=False, hand_size=2),
            [[Tile(9, 9), t("1-0")], deal_of("2-2 3-3")[0]],
            0,
        )


def test_a_copied_state_keeps_every_slot() -> None:
    hand = HandState.start(V, EXAMPLE_DEAL, 0, opening_tile=t("6-6"))
    new = hand._copy()
    assert all(getattr(new, name) is getattr(hand, name) for name in HandState.__slots__)
