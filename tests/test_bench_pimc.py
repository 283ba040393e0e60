from __future__ import annotations

import random

from bench.pimc import ANCHOR_LEVEL, Dealer, PimcRobot, anchor_playout, heuristic_move, playout
from engine import Match, Move, Tile, find_preset, seat_view
from engine.hand import Scoring
from engine.robots import make_robot
from engine.robots.arena import duplicate_deal
from engine.robots.formats import FormatKnowledge, format_playout
from engine.robots.playout import best_move
from engine.robots.playout import playout as engine_playout
from engine.rules import Rules, find_any_preset
from engine.tiles import ALL_TILES, NUMBER_MASKS, mask_of

T = Tile.parse


def _deal(*hands: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(x) for x in h.split()) for h in hands)


DEAL = _deal(
    "6-6 6-5 5-4 3-3 2-0 1-1 0-0",
    "6-4 6-1 4-4 5-5 3-0 2-1 1-0",
    "6-3 6-2 5-3 5-2 4-2 2-2 3-1",
    "6-0 5-1 5-0 4-3 4-1 4-0 3-2",
)
# seats 2 and 3 swap their hands: seat 1 cannot tell the two deals apart after 6-6
SWAPPED = (DEAL[0], DEAL[1], DEAL[3], DEAL[2])


def _after_six_six(deal: tuple[tuple[Tile, ...], ...]) -> Match:
    return Match.start(find_preset("venezolano"), deal, 0).apply(Move.parse("6-6"))


def _position_with_a_pass() -> Match:
    """The first position of a heuristic-played hand where some seat has passed."""
    jugador = make_robot("jugador")
    for seed in range(200):
        rng = random.Random(seed)
        match = Match.new(find_preset("venezolano"), rng)
        while not match.hand.is_over:
            view = seat_view(match, match.hand.turn)
            if any(view.numbers_lacking()) and len(view.legal_moves()) > 1:
                return match
            match = match.apply(jugador.choose(view, rng))
    raise AssertionError("no pass in 200 hands")


def test_the_anchor_is_the_level_pimc100_with_100_deals() -> None:
    robot = make_robot(ANCHOR_LEVEL)
    assert isinstance(robot, PimcRobot)
    assert robot.samples == 100
    assert robot.level == "pimc100"


def test_the_anchor_chooses_the_same_move_from_the_same_view_whatever_the_hidden_hands() -> None:
    one = seat_view(_after_six_six(DEAL), 1)
    other = seat_view(_after_six_six(SWAPPED), 1)
    assert one == other
    robot = PimcRobot()
    assert robot.choose(one, random.Random(7)) == robot.choose(other, random.Random(7))


def test_the_anchor_repeats_its_choice_for_a_seed() -> None:
    match = _position_with_a_pass()
    view = seat_view(match, match.hand.turn)
    robot = PimcRobot()
    first = robot.choose(view, random.Random(3))
    assert first in view.legal_moves()
    assert [robot.choose(view, random.Random(3)) for _ in range(3)] == [first] * 3


def test_the_anchors_deals_respect_tile_counts_voids_and_its_own_tiles() -> None:
    match = _position_with_a_pass()
    view = seat_view(match, match.hand.turn)
    lacking = view.numbers_lacking()
    dealer = Dealer(view)
    rng = random.Random(1)
    unseen = ((1 << 28) - 1) & ~view.played_mask()
    for _ in range(200):
        hands = dealer.deal(rng)
        assert hands[view.seat] == mask_of(view.tiles)
        assert [h.bit_count() for h in hands] == list(view.tile_counts)
        assert hands[0] | hands[1] | hands[2] | hands[3] == unseen
        for seat in range(4):
            for number in lacking[seat]:
                assert not hands[seat] & NUMBER_MASKS[number]


def test_the_anchors_deals_repeat_for_a_seed() -> None:
    match = _position_with_a_pass()
    view = seat_view(match, match.hand.turn)
    first = [Dealer(view).deal(random.Random(9)) for _ in range(2)]
    assert first[0] == first[1]


def test_the_anchors_heuristic_is_the_engines_move_for_move() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        hand = 0
        for i in rng.sample(range(28), rng.randrange(1, 8)):
            hand |= 1 << i
        left, right = rng.randrange(7), rng.randrange(7)
        ours = heuristic_move(hand, left, right)
        theirs = best_move(hand, left, right)
        assert ours == (None if theirs is None else (theirs[0], theirs[2], theirs[3]))


def test_the_anchors_playout_scores_as_the_engines() -> None:
    rng = random.Random(6)
    for preset in ("venezolano", "internacional", "espanol", "dominicano"):
        sc = Scoring(find_preset(preset))
        for _ in range(300):
            tiles = list(range(28))
            rng.shuffle(tiles)
            hands = [0, 0, 0, 0]
            for k, i in enumerate(tiles[1:]):
                hands[k % 4] |= 1 << i
            first = tiles[0]
            left, right = ALL_TILES[first].high, ALL_TILES[first].low
            turn = rng.randrange(4)
            assert playout(hands[:], left, right, turn, sc) == engine_playout(
                hands[:], left, right, turn, sc
            )


def test_the_anchor_plays_duplicate_deals_in_the_harness() -> None:
    result = duplicate_deal(find_preset("venezolano"), ANCHOR_LEVEL, "jugador", "t", 0)
    assert result.hands == 2
    assert len(result.times[ANCHOR_LEVEL]) > 0


FORMATS = [
    find_any_preset("uno-contra-uno"),
    find_any_preset("individual"),
    find_any_preset("cubano"),
    Rules.build_any(players=3, partnership=False, boneyard="draw"),
]


def test_the_anchor_plays_a_duplicate_deal_of_every_format_once_per_seating() -> None:
    hands = [duplicate_deal(rules, ANCHOR_LEVEL, "jugador", "anchor", 0).hands for rules in FORMATS]
    assert hands == [2, 4, 2, 3]


def test_the_anchor_chooses_the_same_move_in_a_format_from_the_same_view_and_seed() -> None:
    match = Match.new(find_any_preset("cubano"), random.Random(4))
    jugador = make_robot("jugador")
    rng = random.Random(4)
    while len(seat_view(match, match.hand.turn).legal_moves()) < 2:
        view = seat_view(match, match.hand.turn)
        match = match.apply(jugador.choose(view, rng))
    view = seat_view(match, match.hand.turn)
    robot = PimcRobot()
    first = robot.choose(view, random.Random(9))
    again = robot.choose(view, random.Random(9))
    assert first == again
    assert first in view.legal_moves()


def test_the_anchors_frozen_format_playout_agrees_with_the_engines_today() -> None:
    for rules in FORMATS:
        sc = Scoring(rules)
        for seed in range(30):
            match = Match.new(rules, random.Random(seed))
            view = seat_view(match, match.hand.turn)
            know = FormatKnowledge(view)
            hands, bone = know.sample(random.Random(seed))
            tile = view.legal_moves()[0].tile
            assert tile is not None
            hands[view.seat] &= ~mask_of([tile])
            nxt = (view.seat + 1) % rules.players
            ours = anchor_playout(hands[:], bone, tile.high, tile.low, nxt, rules)
            engine = format_playout(hands[:], bone, tile.high, tile.low, nxt, rules, sc)
            assert ours == engine
