"""The terminal's port: prints a table's events as lines of text for the human at seat 0
(see :mod:`bot.terminal`)."""

from __future__ import annotations

import asyncio
import errno
import math
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.core import (
    EmoteShown,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    MovePlayed,
    PlayerRef,
    Refusal,
    SeatGivenBack,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TurnStarted,
    YourTiles,
)
from bot.core.clock import Clock, SystemClock
from bot.present.facts import board_facts
from bot.present.i18n import emote_label, translator
from bot.present.texts import closed_text, refused
from bot.terminal.text import choices_text, line_text, tile_text, tiles_text
from engine.hand import Termination, team_of

if TYPE_CHECKING:
    from render import TableFacts

__all__ = ["TerminalPort"]


class TerminalPort:
    """Prints a table's events for the human at ``me`` (seat 0).

    Args:
        me: the player at the keyboard.
        out: where to print.
        board_png: a file to keep the board picture in (updated on every change).
        clock: to show the seconds left.
    """

    def __init__(
        self,
        me: PlayerRef,
        out: TextIO,
        *,
        board_png: Path | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.me = me
        self.out = out
        self.board_png = board_png
        self._last_table: TableChanged | None = None
        self.clock = clock or SystemClock()
        self._ = translator(me.language)
        self.tiles: YourTiles | None = None
        self.my_seat = 0
        self.names = ["", "", "", ""]
        self.robots = [False, False, False, False]
        self.my_turn = asyncio.Event()
        self.ended = asyncio.Event()
        self.result: MatchEnded | None = None
        self.closed: TableClosed | None = None
        self.board_error: str | None = None
        self.away = False
        self.moves_seen = 0
        self.broken = False
        self.stop = asyncio.Event()

    def say(self, text: str) -> None:
        """Print a line; a closed stdout (EPIPE) stops printing and sets :attr:`stop`."""
        if self.broken:
            return
        try:
            print(text, file=self.out, flush=True)
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
        """A seat's short name, the same in the text and on the board picture.

        Your seat is "Tú"/"You" (on the picture: your name, "Tú" unless ``--name``); a robot's is its place from you ("Compañero", "Rival der.",
        "Rival izq."), short enough for the picture's side panels.
        """
        _ = self._
        if seat == self.my_seat:
            return _("You")
        relative = (seat - self.my_seat) % 4
        if self.robots[seat]:
            return {1: _("Right opponent"), 2: _("Partner"), 3: _("Left opponent")}[relative]
        position = {1: _("right"), 2: _("partner"), 3: _("left")}[relative]
        return f"{self.names[seat]} ({position})"

    def score_text(self, score: tuple[int, int]) -> str:
        mine = team_of(self.my_seat)
        return f"{score[mine]} – {score[1 - mine]}"

    async def deliver(self, event: Event) -> None:
        _ = self._
        if isinstance(event, TableChanged):
            self.names = [s.name for s in event.seats]
            self.robots = [s.player is None and s.is_robot for s in event.seats]
            self._last_table = event
            self._draw_board(event)
        elif isinstance(event, MatchStarted):
            self.names = [s.name for s in event.seats]
            self.say(
                _(
                    "Match starts: first team to {target} points. Stake: ${stake}.",
                    target=event.rules.target,
                    stake=event.rules.stake,
                )
            )
        elif isinstance(event, HandStarted):
            self.say("")
            if event.starter == self.my_seat:
                self.say(_("— Hand {number} — you open.", number=event.hand_number))
            else:
                self.say(
                    _(
                        "— Hand {number} — {who} opens.",
                        number=event.hand_number,
                        who=self.who(event.starter),
                    )
                )
        elif isinstance(event, MovePlayed):
            self.moves_seen += 1
            self.my_turn.clear()  # whatever was offered before this move is stale now
            self._move(event)
        elif isinstance(event, TurnStarted):
            if event.seat != self.my_seat:
                self.my_turn.clear()
        elif isinstance(event, YourTiles):
            self.tiles = event
            self.my_seat = event.seat
            if event.is_your_turn:
                self._show_turn(event)
                self.my_turn.set()
            else:
                self.my_turn.clear()
        elif isinstance(event, HandEnded):
            self.my_turn.clear()
            self._hand_ended(event)
        elif isinstance(event, MatchEnded):
            self.result = event
            self._match_ended(event)
        elif isinstance(event, EmoteShown):
            label = emote_label(event.name, self.me.language)
            self.say("  " + _('{who}: "{text}"', who=self.who(event.seat), text=label))
        elif isinstance(event, SeatTakenByRobot):
            if event.seat == self.my_seat:
                self.say(_("A robot plays for you now. Type b to take your seat back."))
                self.away = True
                self.my_turn.set()  # read what the player types: b brings them back
            else:
                self.say(_("A robot plays for {who}.", who=self.who(event.seat)))
        elif isinstance(event, SeatGivenBack):
            if event.seat == self.my_seat:
                self.say(_("You are back at your seat."))
                self.away = False
                self.my_turn.clear()
            else:
                self.say(_("{who} is back.", who=self.who(event.seat)))
        elif isinstance(event, Refusal):
            self.say(f"  ! {refused(event)}")
        elif isinstance(event, TableClosed):
            self.closed = event
            if text := closed_text(event, self.me.language):
                self.say(text)
            self.ended.set()
            self.my_turn.set()

    def _move(self, event: MovePlayed) -> None:
        _ = self._
        move = event.move
        me = event.seat == self.my_seat
        who = self.who(event.seat)
        side = ""
        if move.side is not None and len(event.view.line) > 1:
            side = " " + (_("on the left") if move.side.value == "left" else _("on the right"))
        if move.tile is None:
            text = _("You pass.") if me else _("{who} passes.", who=who)
        elif me:
            text = _("You play {tile}{side}.", tile=tile_text(move.tile), side=side)
        else:
            text = _("{who} plays {tile}{side}.", who=who, tile=tile_text(move.tile), side=side)
        if event.by == "timeout":
            text += " " + _("(time ran out: a robot played)")
        elif event.by == "forced":
            text += " " + _("(single legal move, played by itself)")
        self.say(f"  {text}")

    def _show_turn(self, tiles: YourTiles) -> None:
        _ = self._
        view = tiles.view
        counts = ", ".join(
            f"{self.who(s)}: {view.tile_counts[s]}" for s in range(4) if s != tiles.seat
        )
        self.say("")
        self.say(_("Line: {line}", line=line_text(view) or _("(empty)")))
        self.say(_("Tiles left: {counts}", counts=counts))
        self.say(_("Your tiles: {tiles}", tiles=tiles_text(view.tiles)))
        seconds = None
        if tiles.deadline is not None:
            seconds = max(0, math.ceil(tiles.deadline - self.clock.now()))
        choices = choices_text(tiles)
        if seconds is not None:
            self.say(_("Your turn ({seconds} s): {choices}", seconds=seconds, choices=choices))
        else:
            self.say(_("Your turn: {choices}", choices=choices))

    def _hand_ended(self, event: HandEnded) -> None:
        _ = self._
        if self._last_table is not None:
            # The last tile of a hand comes with no table change: draw the final line.
            self._draw_board(
                replace(self._last_table, view=event.view, deadline=None, seconds_left=None)
            )
        outcome = event.outcome
        if outcome.end is Termination.DOMINO:
            assert outcome.winner_seat is not None
            if outcome.winner_seat == self.my_seat:
                how = _("You domino")
            else:
                how = _("{who} dominoes", who=self.who(outcome.winner_seat))
            if outcome.capicua:
                how += " " + _("(capicúa!)")
        else:
            how = _("Blocked (tranca)")
        mine = team_of(self.my_seat)
        if outcome.winner_team is None:
            who = _("nobody scores")
        elif outcome.winner_team == mine:
            who = _.ngettext("we win {n} point", "we win {n} points", outcome.points)
        else:
            who = _.ngettext("they win {n} point", "they win {n} points", outcome.points)
        pips = ", ".join(f"{self.who(s)} {outcome.pips_left[s]}" for s in range(4))
        self.say(_("Hand {number}: {how}; {who}.", number=event.hand_number, how=how, who=who))
        self.say(_("Pips left: {pips}", pips=pips))
        points = self.score_text(event.hand_points)
        self.say(
            _(
                "Score (us – them): {points} → {score}",
                points=points,
                score=self.score_text(event.score),
            )
        )

    def _match_ended(self, event: MatchEnded) -> None:
        _ = self._
        self.say("")
        if event.winner_team == team_of(self.my_seat):
            self.say(_("We won the match {score}!", score=self.score_text(event.score)))
        else:
            self.say(_("They won the match {score}.", score=self.score_text(event.score)))

    def board_facts(self, event: TableChanged) -> TableFacts:
        """The board picture's facts, the robots named as the text names them (:meth:`who`)."""
        facts = board_facts(event, self.me.language)
        a, b, c, d = (
            replace(seat, name=self.who(i)) if self.robots[i] else seat
            for i, seat in enumerate(facts.seats)
        )
        return replace(facts, seats=(a, b, c, d))

    def _draw_board(self, event: TableChanged) -> None:
        if self.board_png is None or event.view is None:
            return
        try:
            from render import board_png

            data = board_png(event.view, self.board_facts(event))
            tmp = self.board_png.with_name(self.board_png.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(self.board_png)
        except Exception as exc:  # the picture is a nicety; the game goes on
            if self.board_error is None:
                self.board_error = str(exc)
                self.say(f"  ! board picture: {exc}")
