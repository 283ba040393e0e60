"""How the terminal lays text out: the line left to right, the numbered move choices on
one line, the help, and how a long line is wrapped at the terminal's width. Tiles as
text and every phrase come from :mod:`bot.present` (its narration)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from bot.core import YourTiles
from bot.present.i18n import Translator, emote_names, whole_minutes
from bot.present.narration import choice_items, line_items, tile_text, tiles_text
from engine.views import PublicView

__all__ = [
    "choice_items",
    "choices_text",
    "help_text",
    "line_items",
    "line_text",
    "tile_text",
    "tiles_text",
    "wrap_items",
    "wrap_text",
]

HANGING_INDENT = "  "
"""How much a wrapped sentence's next lines are indented, past its own indent."""


def line_text(view: PublicView) -> str:
    """The line left to right as the players see it, each tile oriented: ``[6|6][6|4]``."""
    return "".join(line_items(view))


def choices_text(tiles: YourTiles) -> str:
    """The numbered moves on one line, two spaces apart: ``1) 6-4 izq.  2) 6-4 der.``."""
    return "  ".join(choice_items(tiles))


def wrap_text(text: str, width: int | None) -> list[str]:
    """A sentence as lines of at most ``width`` columns, broken at spaces only (a word
    longer than the width stays whole); its next lines hang two columns in.

    ``width`` None: one line, as it is.
    """
    if width is None or len(text) <= width:
        return [text]
    indent = text[: len(text) - len(text.lstrip(" "))]
    return textwrap.wrap(
        text,
        width,
        initial_indent="",
        subsequent_indent=indent + HANGING_INDENT,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [text]


def wrap_items(
    head: str, items: Sequence[str], separator: str, tail: str, width: int | None
) -> list[str]:
    """``head``, the items one after another and ``tail`` as lines of at most ``width``
    columns, broken only between two items (a tile, a move choice, a seat's count: never
    inside one); the next lines start under the first item.

    ``width`` None: one line. An item wider than the room left stays whole, overflowing.
    """
    one_line = head + separator.join(items) + tail
    if width is None or len(one_line) <= width or not items:
        return [one_line]
    indent = " " * len(head) if len(head) <= width // 2 else HANGING_INDENT
    end = separator.rstrip()  # what a line ends with when broken after an item
    lines: list[str] = []
    current = head
    first = True
    for index, item in enumerate(items):
        last = index == len(items) - 1
        piece = item + (tail if last else "")
        if first:
            current += piece
            first = False
            continue
        room = 0 if last else len(end)  # for the end mark, should the line break after it
        if len(current + separator + piece) + room <= width:
            current += separator + piece
        else:
            lines.append(current + end)
            current = indent + piece
    lines.append(current)
    return lines


def help_text(_: Translator, language: str, return_seconds: float) -> str:
    """What can be typed, with the emotes' names in ``language``; ``return_seconds``: the
    house's time to take a seat back (``HouseTimes.return_seconds``)."""
    return _(
        "Type the number of a move, or the move (6-4, 6-4 left, pass); e NAME for a phrase "
        "({emotes}); t for your tiles; a for what you should have played in your last hand; "
        "b to take your seat back from the robot that took it over for missed turns (within "
        "{minutes} min); q to leave the match for good (once it has started, your stake is "
        "lost).",
        emotes=", ".join(emote_names(language)),
        minutes=whole_minutes(return_seconds),
    )
