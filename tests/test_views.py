from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.rules import PRESETS, find_any_preset
from engine.tiles import Tile
from engine.views import PublicView, SeatView, public_view, seat_view


def _tiles_in(value: object) -> set[Tile]:
    found: set[Tile] = set()
    if isinstance(value, Tile):
        found.add(value)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            found |= _tiles_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found |= _tiles_in(getattr(value, f.name))
    return found


def _hidden_tiles(view: PublicView) -> set[Tile]:
    """Every tile the view holds outside the line, the history and its own hand."""
    found: set[Tile] = set()
    for f in dataclasses.fields(view):
        if f.name in ("line", "history", "tiles", "opening_tile", "outcome", "rules"):
            continue
        found |= _tiles_in(getattr(view, f.name))
    return found


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(PRESETS)), st.integers(0, 10**9), st.integers(0, 40))
def test_a_view_never_holds_another_seats_tile(preset: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    match = Match.new(PRESETS[preset], rng)
    for _ in range(steps):
        if match.hand.is_over:
            break
        match = match.apply(rng.choice(match.hand.legal_moves()))
    played = {p.tile for p in match.hand.line}
    public = public_view(match)
    assert _tiles_in(public.line) | _tiles_in(public.history) <= played
    assert not _hidden_tiles(public)
    assert not hasattr(public, "tiles")
    for seat in range(4):
        view = seat_view(match, seat)
        assert set(view.tiles) == set(match.hand.tiles(seat))
        assert (_tiles_in(view) - played - {match.hand.opening_tile}) <= set(view.tiles)


def test_a_seat_view_offers_the_same_legal_moves_as_the_hand() -> None:
    rng = random.Random(3)
    match = Match.new(PRESETS["venezolano"], rng)
    while not match.hand.is_over:
        turn = match.hand.turn
        view = seat_view(match, turn)
        assert view.is_my_turn
        assert view.legal_moves() == match.hand.legal_moves()
        other = seat_view(match, (turn + 1) % 4)
        assert other.legal_moves() == []
        match = match.apply(rng.choice(match.hand.legal_moves()))


def test_passes_tell_which_numbers_a_seat_lacks() -> None:
    for seed in range(100):
        rng = random.Random(seed)
        match = Match.new(PRESETS["venezolano"], rng)
        while not match.hand.is_over:
            match = match.apply(rng.choice(match.hand.legal_moves()))
        view = public_view(match)
        if view.passes():
            lacks = view.numbers_lacking()
            for seat, (left, right) in view.passes():
                assert {left, right} <= lacks[seat]
                # a seat that passed held nothing for either end, so holds none now
                assert all(not (x.has(left) or x.has(right)) for x in match.hand.tiles(seat))
            return


def test_views_are_the_types_robots_and_pictures_expect() -> None:
    match = Match.new(PRESETS["venezolano"], random.Random(0))
    assert type(public_view(match)) is PublicView
    assert isinstance(seat_view(match, 0), SeatView)
    assert public_view(match).tile_counts == (7, 7, 7, 7)


def test_a_seat_view_offers_the_draw_and_shows_the_boneyard_count_but_not_its_tiles() -> None:
    rng = random.Random(8)
    rules = find_any_preset("uno-contra-uno")
    match = Match.new(rules, rng)
    draws = 0
    while not match.hand.is_over:
        hand = match.hand
        view = seat_view(match, hand.turn)
        assert view.legal_moves() == hand.legal_moves()
        assert (view.boneyard_count, view.drawable) == (hand.boneyard_count, hand.drawable)
        assert view.tile_counts == tuple(len(hand.tiles(s)) for s in range(2))
        undrawn = set(hand.boneyard[hand.drawn :])
        assert not (_tiles_in(public_view(match)) & undrawn)
        assert not (_tiles_in(view) & undrawn)
        move = rng.choice(hand.legal_moves())
        draws += move.is_draw
        match = match.apply(move)
    assert draws > 0
    passes = [seat for seat, move in match.hand.history if move.is_pass]
    assert [seat for seat, _ in public_view(match).passes()] == passes
