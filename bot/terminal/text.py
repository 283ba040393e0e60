"""How the terminal draws things as text: tiles ``[6|4]``, the line left to right, the
numbered move choices and the help line. Phrases come from :mod:`bot.present`."""

from __future__ import annotations

from bot.core import YourTiles
from bot.present.i18n import Translator, emote_names
from bot.present.texts import move_buttons
from engine.tiles import Tile
from engine.views import PublicView

__all__ = ["choices_text", "help_text", "line_text", "tile_text", "tiles_text"]


def tile_text(tile: Tile) -> str:
    """A tile as text: ``[6|4]``."""
    return f"[{tile.high}|{tile.low}]"


def tiles_text(tiles: tuple[Tile, ...]) -> str:
    """Tiles as text, one after another: ``[6|4] [5|5]``."""
    return " ".join(tile_text(t) for t in tiles)


def line_text(view: PublicView) -> str:
    """The line left to right as the players see it, each tile oriented: ``[6|6][6|4]``."""
    return "".join(f"[{p.left}|{p.right}]" for p in view.line)


def choices_text(tiles: YourTiles) -> str:
    """The playable moves numbered from 1, labelled as the move buttons are
    (:func:`bot.present.texts.move_buttons`): ``1) 6-4 izq.  2) 6-4 der.``."""
    return "  ".join(f"{i}) {label}" for i, (_c, label) in enumerate(move_buttons(tiles), 1))


def help_text(_: Translator, language: str) -> str:
    """What can be typed, with the emotes' names in ``language``."""
    return _(
        "Type the number of a move; e NAME for a phrase ({emotes}); t for your tiles; b to come back; q to leave the table.",
        emotes=", ".join(emote_names(language)),
    )
