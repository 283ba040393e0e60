"""The terminal table: you, a robot partner and two robot opponents (``domino play``).

The terminal is one more front end of the table manager (design.md, "Terminal"): a
:class:`TerminalPort` prints the events as text and :func:`play` turns typed lines into
commands. Input may be piped from a file, so a match can be scripted and tested:

* a number picks that playable move (``1`` is the first);
* ``e NAME`` shows an emote (``e hola``); ``t`` shows your tiles; ``b`` takes your seat
  back from the robot; ``?`` prints the help; ``q`` leaves (the match is cancelled and
  stakes refunded, since no other human is at the table);
* at the end of the input the table is left the same way, cleanly;
* Ctrl-C (SIGINT, when :func:`play` is asked to catch it) leaves the same way too, prints
  the same goodbye and returns exit code 130 (the shell's code for an interrupt);
* when stdout is closed (``domino play | head``) the table is left quietly, the stake
  refunded, and the exit code is 141 (the shell's code for a broken pipe).

Lines are read by a daemon thread, so nothing waits for Enter when the program ends.

Tiles are drawn ``[6|4]``; the line left to right; your seat is always "you", the seat
across your partner.

Modules: :mod:`~bot.terminal.text` (tiles, the line and the move choices as text),
:mod:`~bot.terminal.port` (:class:`TerminalPort`: events to lines),
:mod:`~bot.terminal.reader` (the stdin thread) and :mod:`~bot.terminal.loop`
(:func:`play`: the input loop, commands and Ctrl-C).
"""

from __future__ import annotations

from bot.terminal.loop import play
from bot.terminal.port import TerminalPort
from bot.terminal.text import tile_text

__all__ = ["TerminalPort", "play", "tile_text"]
