"""The moves a player's hand screen offers: each legal move's button label, and a move a
player typed or pressed read back to one of them (one home for the words of a move)."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from bot.core.buttons import encode_press
from bot.core.events import MoveChoice, YourTiles
from bot.present.i18n import translator
from engine.moves import Move, Side
from render import move_labels

__all__ = [
    "PLACE_CHARS",
    "MoveKey",
    "choices_named",
    "move_buttons",
    "move_key",
    "short_place",
    "typed_move_label",
]


def move_buttons(event: YourTiles) -> list[tuple[MoveChoice, str]]:
    """Each legal move with its button label, the same labels the hand picture shows
    (``render.move_labels``), in the player's language; a draw from the boneyard is
    "Robar" ("Draw")."""
    labelled = dict(move_labels(event.view, event.to.language))
    _ = translator(event.to.language)
    out = []
    for choice in event.moves:
        label = _("Draw") if choice.move.draw else labelled.get(choice.move)
        if label is None:
            label = _("Pass") if choice.move.tile is None else str(choice.move.tile)
        out.append((choice, label))
    return out


PLACE_CHARS = 20
"""The most characters of a place's name a move button repeats."""


def short_place(place: str) -> str:
    """A place's name as a move button repeats it (cut to :data:`PLACE_CHARS`)."""
    return place[:PLACE_CHARS].strip()


def typed_move_label(place: str, label: str) -> str:
    """A move button's label naming where its table is (a group's name), for a player
    with a turn at two tables: ``"Amigos · 6-4"``."""
    return f"{short_place(place)} · {label}"


class MoveKey(NamedTuple):
    """A move as a player typed or pressed it, reduced (:func:`move_key`)."""

    place: str | None  # where the table is (:func:`typed_move_label`), when the text says
    move: str  # "6-4", "6-4 left", "6-4 right", "pass" or "draw"


_PASS_WORDS = frozenset({"paso", "pasar", "pass", "pasa"})
_DRAW_WORDS = frozenset({"robar", "robo", "roba", "draw", "pozo"})
_SIDE_WORDS = {"izq": "left", "izquierda": "left", "left": "left", "i": "left", "l": "left"}
_SIDE_WORDS |= {"der": "right", "derecha": "right", "right": "right", "d": "right", "r": "right"}


def move_key(text: str, top: int = 6) -> MoveKey | None:
    """The move a private message names, or None when it names none.

    A move button's own label (:func:`move_buttons`, :func:`typed_move_label`) and what
    a player types for it reduce to the same key: ``"6-4"``, ``"64"``, ``"4|6"`` and
    ``"6 4"`` are one tile; ``"izq."``/``"izquierda"``/``"left"`` (and right) a side;
    ``"Paso"``/``"pasar"``/``"pass"`` the pass; ``"Robar"``/``"robo"``/``"draw"`` a
    draw from the boneyard; ``"Amigos · 6-4"`` the place too. A tile's pips go up to
    ``top``, the tile set's highest half (6, or 9 for double-nine: ``TileSet.top``).
    """
    place: str | None = None
    if "·" in text:
        where, text = text.split("·", 1)
        place = where.strip()
    plain = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    tokens = re.findall(r"[a-z]+|\d", plain)
    pips = [int(t) for t in tokens if t.isdigit()]
    words = [t for t in tokens if not t.isdigit()]
    if not pips:
        if len(words) == 1 and words[0] in _PASS_WORDS:
            return MoveKey(place, "pass")
        if len(words) == 1 and words[0] in _DRAW_WORDS:
            return MoveKey(place, "draw")
        return None
    if len(pips) != 2 or max(pips) > top or len(words) > 1:
        return None
    move = f"{max(pips)}-{min(pips)}"
    if words:
        side = _SIDE_WORDS.get(words[0])
        if side is None:
            return None
        move += " " + side
    return MoveKey(place, move)


def choices_named(event: YourTiles, typed: MoveKey) -> list[MoveChoice]:
    """The legal moves of ``event`` that a typed move names (its place aside): one, or
    none when that move cannot be played now (a tile not held, one that does not fit, a
    side missing where the tile fits both ends, an end it does not fit).

    A side named where its button names none is kept: ``6-4 izq.`` is the 6-4 when it
    fits the left end only, and on the left when both open ends show the same number
    (the engine offers one move there, on the right, but takes either end: records.md;
    the end chosen shapes the line). A side on the opening tile names nothing.
    """
    named = [
        choice
        for choice, label in move_buttons(event)
        if (key := move_key(label, event.view.rules.tile_set.top)) is not None
        and key.move == typed.move
    ]
    tile, _sep, side_name = typed.move.partition(" ")
    if named or not side_name:
        return named
    side = Side(side_name)
    ends = event.view.ends
    for choice in event.moves:
        move = choice.move
        if move.tile is None or move.side is None or str(move.tile) != tile:
            continue
        if move.side is side:
            return [choice]
        if ends is not None and ends[0] == ends[1]:
            mirrored = Move(move.tile, side)
            code = mirrored.code()
            payload = encode_press(event.table_id, event.hand_number, event.move_number, code)
            return [MoveChoice(move=mirrored, code=code, payload=payload)]
    return []
