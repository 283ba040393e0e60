"""The terminal table: you, a robot partner and two robot opponents (``domino play``),
or a format (``--preset uno-contra-uno``, ``individual``, ``cubano``: rules.md, "More
ways to play: formats"): you against one robot or each for themselves, robots in every
other seat.

The terminal is one more front end of the table manager (design.md, "Terminal"): a
:class:`TerminalPort` prints the events as text and :func:`play` turns typed lines into
commands. Input may be piped from a file, so a match can be scripted and tested:

* a number picks that playable move (``1`` is the first) of the turn on screen;
* ``e NAME`` shows an emote (``e hola``); ``t`` shows your tiles; ``b`` takes your seat
  back from the robot; ``?`` prints the help; ``q`` leaves your seat to a robot (come
  back with ``b`` within 5 minutes; the match plays on either way);
* at the end of the input the table is left for good (a started match's stake is
  forfeited);
* Ctrl-C (SIGINT, when :func:`play` is asked to catch it) leaves the same way too, prints
  the same goodbye and returns exit code 130 (the shell's code for an interrupt);
* when stdout is closed (``domino play | head``) the table is left quietly and the exit
  code is 141 (the shell's code for a broken pipe).

A person's lines (``interactive``) are read as they are typed and answered at once,
against the turn on screen then: a line typed when it is not your turn is told so, never
kept for a later prompt. A script's lines are read only at the player's turns. Lines are
read by a daemon thread, so nothing waits for Enter when the program ends. Long lines are
wrapped at the terminal's width, between two tiles or two choices, never inside one.

Tiles are drawn ``[6|4]``; the line left to right; your seat is always "you", the seat
across your partner (in individual play "el rival de enfrente"; one against one, "el
rival"). A draw is a move of its own (``1) Robar``, or typed ``robar``): yours is said
with its tile ("Robas [5|3]."), another seat's counted before its next move ("El rival
roba 3 fichas (quedan 9 en el pozo)."); the boneyard's count is listed beside the other
seats' tile counts while drawing is the rule.

Modules: :mod:`~bot.terminal.text` (tiles, the line and the move choices as text),
:mod:`~bot.terminal.port` (:class:`TerminalPort`: events to lines),
:mod:`~bot.terminal.reader` (the stdin thread) and :mod:`~bot.terminal.loop`
(:func:`play`: the input loop, commands and Ctrl-C).
"""

from __future__ import annotations

from bot.terminal.loop import PLATFORM, local_chat, local_player, play
from bot.terminal.port import TerminalPort, terminal_width
from bot.terminal.text import tile_text

__all__ = [
    "PLATFORM",
    "TerminalPort",
    "local_chat",
    "local_player",
    "play",
    "terminal_width",
    "tile_text",
]
