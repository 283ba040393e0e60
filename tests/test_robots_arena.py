from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, Match, seat_view
from engine.robots import Robot, make_robot
from engine.robots.arena import (
    Tally,
    duplicate_deal,
    duplicate_match,
    play_hand,
    play_match,
    seat_rngs,
)
from engine.rules import Rules, find_any_preset
from engine.views import SeatView


class Checked(Robot):
    """Wraps a robot and checks every move it makes against the view's legal moves."""

    def __init__(self, inner: Robot) -> None:
        self.inner = inner
        self.level = inner.level
        self.moves = 0

    def choose(self, view: SeatView, rng: random.Random):  # type: ignore[no-untyped-def]
        assert type(view) is SeatView
        move = self.inner.choose(view, rng)
        assert move in view.legal_moves()
        self.moves += 1
        return move


QUICK = ("novato", "aprendiz", "jugador")


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.lists(st.sampled_from(QUICK), min_size=4, max_size=4),
    st.integers(0, 10_000),
)
def test_quick_robots_play_only_legal_moves_through_whole_matches(
    preset: str, levels: list[str], seed: int
) -> None:
    robots = [Checked(make_robot(x)) for x in levels]
    match = play_match(PRESETS[preset], robots, random.Random(seed))
    assert match.is_over and match.winner_team in (0, 1)
    assert sum(r.moves for r in robots) > 0


@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from(("experto", "maestro")),
    st.integers(0, 10_000),
)
def test_monte_carlo_robots_play_only_legal_moves(preset: str, level: str, seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(PRESETS[preset], rng)
    robots = [Checked(make_robot(level)), Checked(make_robot("novato"))] * 2
    match = play_hand(match, robots, seat_rngs(seed))
    assert match.hand.is_over


def test_the_same_seed_replays_the_same_match() -> None:
    robots = [make_robot(x) for x in ("experto", "novato", "jugador", "aprendiz")]
    a = play_match(PRESETS["venezolano"], robots, random.Random(5))
    b = play_match(PRESETS["venezolano"], robots, random.Random(5))
    assert [h.history for h in a.hands] == [h.history for h in b.hands]
    assert a.score == b.score


def test_a_level_against_itself_nets_zero_on_duplicate_deals() -> None:
    # jugador is deterministic: both seatings play the same hand, the margins cancel.
    for preset in sorted(PRESETS):
        for index in range(3):
            result = duplicate_deal(PRESETS[preset], "jugador", "jugador", "z", index)
            assert result.margin == 0
            assert result.hands == 2 and result.a_hands == result.b_hands


def test_duplicate_matches_play_both_seatings_to_the_end() -> None:
    result = duplicate_match(PRESETS["venezolano"], "jugador", "novato", "m", 0)
    assert result.a_matches + result.b_matches == 2
    assert result.hands >= 2
    assert set(result.times) == {"jugador", "novato"}


def test_the_tally_gives_a_margin_interval_and_time_percentiles() -> None:
    tally = Tally()
    for index in range(6):
        tally.add(duplicate_deal(PRESETS["venezolano"], "jugador", "novato", "t", index))
    mean, half = tally.margin()
    assert tally.deals == 6 and half > 0
    assert min(tally.margins) <= mean <= max(tally.margins)
    timing = tally.timing("jugador")
    assert timing["n"] > 0 and timing["median"] <= timing["p95"] <= timing["p99"] <= timing["max"]
    assert timing["first_median"] >= 0


def test_play_match_can_take_scripted_deals() -> None:
    from engine import deal_tiles

    rng = random.Random(2)
    script = {}

    def deals(number: int):  # type: ignore[no-untyped-def]
        if number not in script:
            script[number] = deal_tiles(random.Random(number), PRESETS["internacional"])
        return script[number]

    match = play_match(PRESETS["internacional"], [make_robot("jugador")] * 4, rng, deals=deals)
    assert match.is_over
    assert [h.deal for h in match.hands] == [script[n + 1] for n in range(len(match.hands))]
    assert seat_view(match, 0).is_over


def test_in_every_format_a_level_against_itself_nets_zero_on_duplicate_deals() -> None:
    # Individual play seats A at each seat in turn: one seating wins p, the others lose
    # p / (players - 1) each, so a deterministic level against itself nets zero.
    for name, players in (("uno-contra-uno", 2), ("individual", 4), ("cubano", 4)):
        rules = find_any_preset(name)
        seatings = 2 if rules.partnership else players
        for index in range(3):
            result = duplicate_deal(rules, "jugador", "jugador", "z", index)
            assert result.margin == pytest.approx(0, abs=1e-9)
            assert result.hands == seatings
            assert result.a_hands + result.b_hands in (0, seatings)


def test_duplicate_matches_of_a_format_play_every_seating_to_the_end() -> None:
    result = duplicate_match(find_any_preset("uno-contra-uno"), "jugador", "novato", "m", 0)
    assert result.a_matches + result.b_matches == 2
    assert set(result.times) == {"jugador", "novato"}
    three = Rules.build_any(players=3, partnership=False, boneyard="draw", target=50)
    result = duplicate_match(three, "aprendiz", "novato", "m", 1)
    assert result.a_matches + result.b_matches == 3
