"""The moves a hand screen offers (bot/present/moves.py): how a move a player sends
as text is read, and the move buttons it must agree with."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.core import (
    ChatRef,
    MoveChoice,
    PlayerRef,
    SeatInfo,
    YourTiles,
    encode_press,
)
from bot.present.moves import (
    PLACE_CHARS,
    MoveKey,
    choices_named,
    move_buttons,
    move_key,
    short_place,
    typed_move_label,
)
from engine.match import Match
from engine.moves import DRAW, Move, Side
from engine.rules import find_any_preset, find_preset
from engine.views import seat_view


def test_a_tile_typed_in_any_usual_form_is_one_move() -> None:
    for text in ("6-4", "64", "4|6", "6 4", " 4-6 ", "6/4", "🁣 6-4"):
        assert move_key(text) == MoveKey(None, "6-4"), text
    assert move_key("0-0") == MoveKey(None, "0-0")
    assert move_key("33") == MoveKey(None, "3-3")


def test_a_side_and_a_pass_are_read_in_spanish_and_english() -> None:
    assert move_key("6-4 izq.") == MoveKey(None, "6-4 left")
    assert move_key("64 izquierda") == MoveKey(None, "6-4 left")
    assert move_key("6-4 left") == MoveKey(None, "6-4 left")
    assert move_key("4 6 derecha") == MoveKey(None, "6-4 right")
    assert move_key("6-4 der.") == MoveKey(None, "6-4 right")
    for text in ("Paso", "paso", "PASAR", "pass", "Pasa"):
        assert move_key(text) == MoveKey(None, "pass"), text


def test_text_that_names_no_move_is_none() -> None:
    for text in ("hola", "7-1", "6-4-2", "6", "6-4 arriba", "paso paso", "robar robar", ""):
        assert move_key(text) is None, text


def test_a_draw_and_a_double_nine_tile_are_read_as_moves() -> None:
    for text in ("Robar", "robo", "ROBA", "draw"):
        assert move_key(text) == MoveKey(None, "draw"), text
    assert move_key("7-9 izq.", top=9) == MoveKey(None, "9-7 left")
    assert move_key("7-1", top=9) == MoveKey(None, "7-1")  # a tile of double-nine
    assert move_key("7-1") is None  # no tile of double-six


def test_a_button_naming_its_place_reads_back_to_that_place() -> None:
    label = typed_move_label("Los amigos del dominó de los jueves", "6-4 izq.")
    assert label == "Los amigos del domin · 6-4 izq."
    assert len(label.split(" · ")[0]) == PLACE_CHARS
    assert move_key(label) == MoveKey(
        short_place("Los amigos del dominó de los jueves"), "6-4 left"
    )
    assert move_key("Uno · Paso") == MoveKey("Uno", "pass")


def test_every_move_button_reads_back_as_its_own_move_and_no_other() -> None:
    rng = random.Random(11)
    checked = 0
    for language in ("es", "en"):
        for _deal in range(30):
            match = Match.new(find_preset("venezolano"), rng)
            for _ in range(rng.randrange(0, 20)):
                if match.hand.is_over:
                    break
                match = match.apply(rng.choice(match.hand.legal_moves()))
            if match.hand.is_over:
                continue
            seat = match.hand.turn
            view = seat_view(match, seat)
            moves = view.legal_moves()
            event = YourTiles(
                table_id="t",
                chat=ChatRef("telegram", "-1"),
                to=PlayerRef("telegram", "1", "Ana", language),
                seat=seat,
                view=view,
                moves=tuple(
                    MoveChoice(m, m.code(), encode_press("t", 1, 1, m.code())) for m in moves
                ),
                hand_number=1,
                move_number=1,
                is_your_turn=True,
                deadline=None,
                seats=tuple(SeatInfo(seat=i, name=f"P{i}") for i in range(4)),
            )
            keys = [move_key(label) for _choice, label in move_buttons(event)]
            assert None not in keys
            assert len(set(keys)) == len(keys) == len(moves)
            checked += 1
    assert checked >= 50  # positions mid-hand, in both languages


def _turn(match: Match, language: str) -> YourTiles:
    """The seat to move's turn as the core offers it (table "t", hand 1, move 1)."""
    seat = match.hand.turn
    view = seat_view(match, seat)
    return YourTiles(
        table_id="t",
        chat=ChatRef("telegram", "-1"),
        to=PlayerRef("telegram", "1", "Ana", language),
        seat=seat,
        view=view,
        moves=tuple(
            MoveChoice(m, m.code(), encode_press("t", 1, 1, m.code())) for m in view.legal_moves()
        ),
        hand_number=1,
        move_number=1,
        is_your_turn=True,
        deadline=None,
        seats=tuple(SeatInfo(seat=i, name=f"P{i}") for i in range(4)),
    )


def _positions(want: Callable[[Match], bool], count: int) -> list[Match]:
    """``count`` positions mid-hand (random plays from seeded deals) where ``want`` holds."""
    rng = random.Random(5)
    found: list[Match] = []
    while len(found) < count:
        match = Match.new(find_preset("venezolano"), rng)
        for _ in range(rng.randrange(1, 16)):
            if match.hand.is_over:
                break
            match = match.apply(rng.choice(match.hand.legal_moves()))
        if not match.hand.is_over and want(match):
            found.append(match)
    return found


def _same_ends_and_a_tile_for_them(match: Match) -> bool:
    ends = match.hand.ends
    moves = match.hand.legal_moves()
    return (
        ends is not None
        and ends[0] == ends[1]
        and any(m.tile is not None and not m.tile.is_double for m in moves)
    )


def test_with_both_ends_on_one_number_a_tile_is_played_on_the_end_named() -> None:
    for match in _positions(_same_ends_and_a_tile_for_them, 10):
        tile = next(m.tile for m in match.hand.legal_moves() if m.tile and not m.tile.is_double)
        assert tile is not None
        for language, left, right in (("es", "izq.", "der."), ("en", "left", "right")):
            event = _turn(match, language)
            for word, side in ((left, Side.LEFT), (right, Side.RIGHT)):
                typed = move_key(f"{tile} {word}")
                assert typed is not None
                move = Move(tile, side)
                assert choices_named(event, typed) == [
                    MoveChoice(move, move.code(), encode_press("t", 1, 1, move.code()))
                ], (tile, word)
                # the core takes it: that end is legal, and the line grows there
                assert match.hand.resolve(move) == move
            plain = move_key(str(tile))
            assert plain is not None
            assert [c.move for c in choices_named(event, plain)] == [Move(tile, Side.RIGHT)]


def _ends_differ_and_a_tile_fits_one(match: Match) -> bool:
    ends = match.hand.ends
    moves = match.hand.legal_moves()
    tiles = [m.tile for m in moves]
    return (
        ends is not None
        and ends[0] != ends[1]
        and any(m.tile is not None and tiles.count(m.tile) == 1 for m in moves)
    )


def test_a_side_named_for_a_tile_that_fits_one_end_is_played_there_or_refused() -> None:
    for match in _positions(_ends_differ_and_a_tile_fits_one, 10):
        moves = match.hand.legal_moves()
        tiles = [m.tile for m in moves]
        move = next(m for m in moves if m.tile is not None and tiles.count(m.tile) == 1)
        assert move.side is not None
        other = Side.LEFT if move.side is Side.RIGHT else Side.RIGHT
        event = _turn(match, "es")
        words = {Side.LEFT: "izq.", Side.RIGHT: "der."}
        fits = move_key(f"{move.tile} {words[move.side]}")
        fits_not = move_key(f"{move.tile} {words[other]}")
        assert fits is not None and fits_not is not None
        assert [c.move for c in choices_named(event, fits)] == [move]
        assert choices_named(event, fits_not) == []


def _must_draw(rules) -> Match:
    """A match of ``rules`` played (the first legal move each time) to a turn whose
    only move is a draw from the boneyard."""
    match = Match.new(rules, random.Random(3))
    while match.hand.legal_moves() != [DRAW]:
        match = match.apply(match.hand.legal_moves()[0])
    return match


def test_a_draw_button_reads_robar_and_typing_robar_names_it() -> None:
    match = _must_draw(find_any_preset("uno-contra-uno"))
    spanish, english = _turn(match, "es"), _turn(match, "en")
    assert [label for _c, label in move_buttons(spanish)] == ["Robar"]
    assert [label for _c, label in move_buttons(english)] == ["Draw"]
    assert [c.move for c in choices_named(spanish, MoveKey(None, "draw"))] == [DRAW]
    assert choices_named(spanish, MoveKey(None, "pass")) == []
