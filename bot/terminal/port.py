"""The terminal's port: prints a table's events as lines of text for the human at seat 0
(see :mod:`bot.terminal`)."""

from __future__ import annotations

import asyncio
import errno
import shutil
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from bot.core import (
    Event,
    HandEnded,
    MatchEnded,
    MovePlayed,
    PlayerRef,
    SeatAbandoned,
    SeatGivenBack,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TurnStarted,
    YourTiles,
)
from bot.core.clock import Clock, SystemClock
from bot.present.narration import Line, Listed, Narration
from bot.terminal.text import wrap_items, wrap_text
from engine.rules import Rules

__all__ = ["TerminalPort", "Width", "terminal_width"]

Width = int | Callable[[], int] | None
"""The terminal's width in columns (or how to ask it, each time a line is printed); None
prints every line whole."""


def terminal_width() -> int:
    """The terminal's width now, in columns (80 when the output is no terminal)."""
    return shutil.get_terminal_size().columns


class TerminalPort:
    """Prints a table's events for the human at ``me`` (seat 0).

    Args:
        me: the player at the keyboard.
        out: where to print.
        board_png: a file to keep the board picture in (updated on every change).
        clock: to show the seconds left.
        width: wrap lines at this many columns (see :data:`Width`).

    :attr:`prompt` is the turn the player was last shown and may still answer (None when
    it is not their turn): a typed number is checked against it and nothing else.
    :attr:`my_turn` is set while there is such a prompt, while a robot plays for the
    player (``b`` brings them back) and once the table closed.
    """

    def __init__(
        self,
        me: PlayerRef,
        out: TextIO,
        *,
        board_png: Path | None = None,
        clock: Clock | None = None,
        width: Width = None,
    ) -> None:
        self.me = me
        self.width = width
        self.out = out
        self.board_png = board_png
        self.clock = clock or SystemClock()
        self.narration = Narration(me)  # the table told to this player, in their words
        self.tiles: YourTiles | None = None
        self.prompt: YourTiles | None = None
        self.muted = False  # while a table left by an earlier run is restored: kept quiet
        self.my_turn = asyncio.Event()
        self.ended = asyncio.Event()
        self.result: MatchEnded | None = None
        self.closed: TableClosed | None = None
        self.board_error: str | None = None
        self.away = False
        self.broken = False
        self.stop = asyncio.Event()

    def columns(self) -> int | None:
        """The width to wrap at now (None: do not wrap)."""
        return self.width() if callable(self.width) else self.width

    def say(self, text: str) -> None:
        """Print a sentence, wrapped at spaces to the terminal's width."""
        self._print(wrap_text(text, self.columns()))

    def _print(self, lines: list[str]) -> None:
        """Print lines; a closed stdout (EPIPE) stops printing and sets :attr:`stop`."""
        if self.broken or self.muted:
            return
        try:
            print("\n".join(lines), file=self.out, flush=True)
        except (BrokenPipeError, ValueError) as exc:  # ValueError: the stream was closed
            self._broken(exc)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            self._broken(exc)

    def _broken(self, exc: BaseException) -> None:
        self.broken = True
        self.stop.set()

    def who(self, seat: int) -> str:
        """A seat's name in the text (:meth:`Narration.who`)."""
        return self.narration.who(seat)

    @property
    def rules(self) -> Rules | None:
        """The table's rules, once an event named them."""
        return self.narration.rules

    def say_lines(self, lines: Sequence[Line]) -> None:
        """Print the narration's lines, each wrapped to the terminal's width (a list
        between two items only: a tile is never cut)."""
        for line in lines:
            if isinstance(line, Listed):
                self._print(
                    wrap_items(line.head, line.items, line.separator, line.tail, self.columns())
                )
            else:
                self.say(line)

    async def deliver(self, event: Event) -> None:
        """Print what ``event`` says to the player (:class:`Narration`), then follow it:
        the move offered, being away, the table's end, the board picture."""
        self.say_lines(self.narration.lines(event, self.clock.now()))
        me = self.narration.my_seat
        if isinstance(event, TableChanged):
            self._draw_board(event)
        elif isinstance(event, YourTiles):
            self.tiles = event
            self.prompt = event if event.is_your_turn else None
            self._turn_changed()
        elif isinstance(event, MovePlayed | HandEnded):
            self._close_prompt()  # whatever was offered before is stale now
        elif isinstance(event, TurnStarted) and event.seat != me:
            self._close_prompt()
        if isinstance(event, HandEnded) and self.narration.last_table is not None:
            # The last tile of a hand comes with no table change: draw the final line.
            last = self.narration.last_table
            self._draw_board(replace(last, view=event.view, deadline=None, seconds_left=None))
        elif isinstance(event, MatchEnded):
            self.result = event
        elif isinstance(event, SeatTakenByRobot | SeatAbandoned) and event.seat == me:
            self.away = True  # read what the player types: b brings them back
            self._close_prompt()
        elif isinstance(event, SeatGivenBack) and event.seat == me:
            self.away = False
            self._turn_changed()
        elif isinstance(event, TableClosed):
            self.closed = event
            self.ended.set()
            self._close_prompt()

    @property
    def left(self) -> bool:
        """The player left the match on purpose (its stake forfeited)."""
        return self.narration.left

    def remind_turn(self) -> None:
        """Print the turn's moves and the seconds left again, when the player still has
        to move (after the help or an analysis pushed them up the screen)."""
        if self.prompt is not None:
            self.say_lines(self.narration.turn_lines(self.prompt, self.clock.now()))

    def _close_prompt(self) -> None:
        self.prompt = None
        self._turn_changed()

    def _turn_changed(self) -> None:
        """:attr:`my_turn` follows the prompt, being away and the table's end."""
        if self.prompt is not None or self.away or self.ended.is_set():
            self.my_turn.set()
        else:
            self.my_turn.clear()

    def _draw_board(self, event: TableChanged) -> None:
        if self.board_png is None or event.view is None:
            return
        try:
            from render import board_png

            data = board_png(event.view, self.narration.board_facts(event))
            tmp = self.board_png.with_name(self.board_png.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(self.board_png)
        except Exception as exc:  # the picture is a nicety; the game goes on
            if self.board_error is None:
                self.board_error = str(exc)
                self.say(f"  ! board picture: {exc}")
