"""The terminal's port: prints a table's events as lines of text for the human at seat 0
(see :mod:`bot.terminal`)."""

from __future__ import annotations

import asyncio
import errno
import math
import shutil
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.core import (
    AwayReason,
    CloseReason,
    EmoteShown,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    MovedBy,
    MovePlayed,
    PlayerRef,
    Refusal,
    SeatAbandoned,
    SeatGivenBack,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TurnStarted,
    YourTiles,
)
from bot.core.clock import Clock, SystemClock
from bot.present.facts import board_facts
from bot.present.i18n import emote_label, translator, whole_minutes
from bot.present.replies import refused
from bot.present.texts import closed_text, match_money_line
from bot.terminal.text import (
    choice_items,
    line_items,
    tile_text,
    wrap_items,
    wrap_text,
)
from engine.hand import Termination
from engine.rules import Boneyard, Rules

if TYPE_CHECKING:
    from render import TableFacts

__all__ = ["TerminalPort", "Width", "terminal_width"]

Width = int | Callable[[], int] | None
"""The terminal's width in columns (or how to ask it, each time a line is printed); None
prints every line whole."""


def terminal_width() -> int:
    """The terminal's width now, in columns (80 when the output is no terminal)."""
    return shutil.get_terminal_size().columns


_ITEM = "\x00"
"""Stands for a list in a catalog phrase, to find the phrase's head and tail around it."""


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
        self._last_table: TableChanged | None = None
        self.clock = clock or SystemClock()
        self._ = translator(me.language)
        self.tiles: YourTiles | None = None
        self.prompt: YourTiles | None = None
        self.my_seat = 0
        self.muted = False  # while a table left by an earlier run is restored: kept quiet
        self.names = ["", "", "", ""]
        self.robots = [False, False, False, False]
        self.rules: Rules | None = None  # the table's, once an event names them
        # another seat's draws not said yet: (seat, how many, the boneyard's count after)
        self._draws: tuple[int, int, int] | None = None
        self._my_draw_note = ""  # who drew for you (time ran out, forced), said with the tile
        self.my_turn = asyncio.Event()
        self.ended = asyncio.Event()
        self.result: MatchEnded | None = None
        self.closed: TableClosed | None = None
        self.board_error: str | None = None
        self.analysis_hint = False  # "Type a …" waits for the next hand (:meth:`_hand_ended`)
        self.away = False
        self.left = False  # I left the match on purpose (its stake forfeited)
        self.broken = False
        self.stop = asyncio.Event()

    def columns(self) -> int | None:
        """The width to wrap at now (None: do not wrap)."""
        return self.width() if callable(self.width) else self.width

    def say(self, text: str) -> None:
        """Print a sentence, wrapped at spaces to the terminal's width."""
        self._print(wrap_text(text, self.columns()))

    def say_list(self, phrase: str, items: Sequence[str], separator: str) -> None:
        """Print a catalog phrase holding a list (``phrase`` made with :data:`_ITEM` in the
        list's place), wrapped between two items only: a tile is never cut."""
        head, _sep, tail = phrase.partition(_ITEM)
        self._print(wrap_items(head, items, separator, tail, self.columns()))

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
        """A seat's name in the text.

        Your seat is "Tú"/"You"; a robot's is its place from you ("Compañero", "Rival
        derecho", "Rival izquierdo"): written whole, so no sentence ends in "der..".
        """
        _ = self._
        if seat == self.my_seat:
            return _("You")
        place = self._place(seat)
        if self.robots[seat]:
            return {
                "right": _("Right opponent"),
                "partner": _("Partner"),
                "across": _("Opponent across"),
                "left": _("Left opponent"),
                "opponent": _("Opponent"),
            }[place]
        position = {
            "right": _("right"),
            "partner": _("partner"),
            "across": _("across"),
            "left": _("left"),
            "opponent": _("opponent"),
        }[place]
        return f"{self.names[seat]} ({position})"

    def _place(self, seat: int) -> str:
        """Where another seat sits from you: ``right`` (next to play after you),
        ``left`` (just before you), ``partner`` across (partnership play), ``across``
        (an opponent across, four each for themselves) or ``opponent`` (one against
        one)."""
        players = len(self.names)
        relative = (seat - self.my_seat) % players
        if players == 2:
            return "opponent"
        if relative == 1:
            return "right"
        if relative == players - 1:
            return "left"
        partners = self.rules is None or self.rules.partnership
        return "partner" if partners else "across"

    def in_sentence(self, seat: int, *, first: bool = False) -> str:
        """A seat's name inside a sentence: a robot's place with the article the language
        wants there ("sale el compañero"; "El rival derecho pasa." when ``first``, at the
        start of a sentence); a player as :meth:`who` names them."""
        _ = self._
        if seat == self.my_seat or not self.robots[seat]:
            return self.who(seat)
        name = {
            "right": _("the right opponent"),
            "partner": _("the partner"),
            "across": _("the opponent across"),
            "left": _("the left opponent"),
            "opponent": _("the opponent"),
        }[self._place(seat)]
        return name[:1].upper() + name[1:] if first else name

    def short_name(self, seat: int) -> str:
        """A robot seat's name on the board picture: :meth:`who`'s, shortened to fit the
        picture's side panels ("Rival der.", "Compañero", "Rival izq.")."""
        _ = self._
        if seat == self.my_seat or not self.robots[seat]:
            return self.who(seat)
        return {
            "right": _("Right opp."),
            "partner": _("Partner"),
            "across": _("Opp. across"),
            "left": _("Left opp."),
            "opponent": _("Opponent"),
        }[self._place(seat)]

    @property
    def partners(self) -> bool:
        """Partnership play (two teams), else each for themselves (rules.md, "Formats")."""
        return self.rules is None or self.rules.partnership

    def _my_side(self) -> int:
        return self.rules.side_of(self.my_seat) if self.rules is not None else self.my_seat & 1

    def score_text(self, score: tuple[int, int]) -> str:
        """Partnership play: "us – them" (``34 – 12``)."""
        mine = self._my_side()
        return f"{score[mine]} – {score[1 - mine]}"

    def scores(self, score: Sequence[int], points: Sequence[int] | None = None) -> list[str]:
        """Individual play: each seat's score, you first, then in turn order ("Tú 12",
        "Rival 30"); with ``points``, the hand's too ("Tú +24 → 36")."""
        players = len(score)
        out = []
        for step in range(players):
            seat = (self.my_seat + step) % players
            if points is None:
                out.append(f"{self.who(seat)} {score[seat]}")
            else:
                out.append(f"{self.who(seat)} +{points[seat]} → {score[seat]}")
        return out

    async def deliver(self, event: Event) -> None:
        _ = self._
        if not isinstance(event, (TableChanged, TurnStarted, MovePlayed)):
            self._say_draws()  # another seat's draws come before whatever follows them
        if isinstance(event, TableChanged):
            self.names = [s.name for s in event.seats]
            self.robots = [s.player is None and s.is_robot for s in event.seats]
            self.rules = event.rules
            self._last_table = event
            self._draw_board(event)
        elif isinstance(event, MatchStarted):
            self.names = [s.name for s in event.seats]
            self.rules = event.rules
            if self.partners:
                text = _(
                    "Match starts: first team to {target} points. Stake: ${stake}.",
                    target=event.rules.target,
                    stake=event.rules.stake,
                )
            else:
                text = _(
                    "Match starts, each for themselves: the first to {target} points wins "
                    "${pot}. Stake: ${stake}.",
                    target=event.rules.target,
                    pot=event.rules.stake * event.rules.players,
                    stake=event.rules.stake,
                )
            self.say(text)
        elif isinstance(event, HandStarted):
            if self.analysis_hint:  # the match went on: a can be typed
                self.analysis_hint = False
                self.say(_("Type a to see what you should have played in this hand."))
            self.say("")
            if event.starter == self.my_seat:
                self.say(_("— Hand {number} — you open.", number=event.hand_number))
            else:
                self.say(
                    _(
                        "— Hand {number} — {who} opens.",
                        number=event.hand_number,
                        who=self.in_sentence(event.starter),
                    )
                )
        elif isinstance(event, MovePlayed):
            self._close_prompt()  # whatever was offered before this move is stale now
            self._move(event)
        elif isinstance(event, TurnStarted):
            if event.seat != self.my_seat:
                self._close_prompt()
        elif isinstance(event, YourTiles):
            self.tiles = event
            self.my_seat = event.seat
            self.names = [s.name for s in event.seats]  # also for a resumed table's first
            self.robots = [s.player is None and s.is_robot for s in event.seats]
            self.rules = event.view.rules
            if event.drawn is not None:
                note, self._my_draw_note = self._my_draw_note, ""
                self.say("  " + _("You draw {tile}.", tile=tile_text(event.drawn)) + note)
            if event.is_your_turn and event.drawn is not None:
                self._say_moves(event)  # the rest of the turn is on screen already
                self.prompt = event
                self._turn_changed()
            elif event.is_your_turn:
                self._show_turn(event)
                self.prompt = event
                self._turn_changed()
            else:
                self._close_prompt()
        elif isinstance(event, HandEnded):
            self._close_prompt()
            self._hand_ended(event)
        elif isinstance(event, MatchEnded):
            self.result = event
            self._match_ended(event)
        elif isinstance(event, EmoteShown):
            label = emote_label(event.name, self.me.language)
            self.say("  " + _('{who}: "{text}"', who=self.who(event.seat), text=label))
        elif isinstance(event, SeatTakenByRobot):
            if event.seat == self.my_seat:
                minutes = whole_minutes(event.seconds)
                self.say(
                    _(
                        "A robot plays for you now. Type b within {minutes} min to take "
                        "your seat back; q leaves the match for good (and forfeits your stake).",
                        minutes=minutes,
                    )
                )
                self.away = True
                self._close_prompt()  # read what the player types: b brings them back
            else:
                self.say(_("A robot plays for {who}.", who=self.in_sentence(event.seat)))
        elif isinstance(event, SeatAbandoned) and event.seat == self.my_seat:
            # the loop printed the leave confirmation (the stake forfeited); a seat not
            # back in time is said by the table's close below (the terminal's only human)
            self.left = event.reason is AwayReason.LEFT
            self.away = True
            self._close_prompt()
        elif isinstance(event, SeatGivenBack):
            if event.seat == self.my_seat:
                self.say(_("You are back at your seat."))
                self.away = False
                self._turn_changed()
            else:
                self.say(_("{who} is back.", who=self.in_sentence(event.seat, first=True)))
        elif isinstance(event, Refusal):
            self.say(f"  ! {refused(event)}")
        elif isinstance(event, TableClosed):
            self.closed = event
            if event.reason is CloseReason.NO_HUMANS:  # you are the table's only human
                if not self.left:
                    self.say(_("You left the match: your stake stays in the pot."))
            elif text := closed_text(event, self.me.language):
                self.say(text)
            self.ended.set()
            self._close_prompt()

    def _close_prompt(self) -> None:
        self.prompt = None
        self._turn_changed()

    def _turn_changed(self) -> None:
        """:attr:`my_turn` follows the prompt, being away and the table's end."""
        if self.prompt is not None or self.away or self.ended.is_set():
            self.my_turn.set()
        else:
            self.my_turn.clear()

    def _move(self, event: MovePlayed) -> None:
        _ = self._
        move = event.move
        me = event.seat == self.my_seat
        if move.draw:
            self._drew(event)
            return
        self._say_draws()
        who = self.in_sentence(event.seat, first=True)
        side = ""
        if move.side is not None and len(event.view.line) > 1:
            side = " " + (_("on the left") if move.side.value == "left" else _("on the right"))
        if move.tile is None:
            text = _("You pass.") if me else _("{who} passes.", who=who)
        elif me:
            text = _("You play {tile}{side}.", tile=tile_text(move.tile), side=side)
        else:
            text = _("{who} plays {tile}{side}.", who=who, tile=tile_text(move.tile), side=side)
        self.say(f"  {text}{self._by_note(event.by, me)}")

    def _by_note(self, by: MovedBy, me: bool) -> str:
        """Who made a move not chosen by its player: " (time ran out: a robot played)",
        " (single legal move, played by itself)", " (a robot played for you)", or ""."""
        _ = self._
        if by == MovedBy.TIMEOUT:
            return " " + _("(time ran out: a robot played)")
        if by == MovedBy.FORCED:
            return " " + _("(single legal move, played by itself)")
        if by == MovedBy.ROBOT and me:  # while you are away
            return " " + _("(a robot played for you)")
        return ""

    def _drew(self, event: MovePlayed) -> None:
        """A draw from the boneyard: yours is said with its tile when your tiles come
        (:class:`YourTiles`, ``drawn``); another seat's draws in a row are said once,
        counted, before its next move ("El rival roba 3 fichas (quedan 9 en el pozo).")."""
        left = event.view.boneyard_count
        if event.seat == self.my_seat:
            note = self._by_note(event.by, True)
            if event.view.is_over or event.by == MovedBy.ROBOT:
                # the draw blocked the hand, or a robot plays for you: no tiles follow it
                self.say("  " + self._("You draw a tile.") + note)
            else:
                self._my_draw_note = note  # said with the tile drawn, when it comes
            return
        pending = self._draws
        if pending is not None and pending[0] != event.seat:
            self._say_draws()
            pending = None
        count = 1 if pending is None else pending[1] + 1
        self._draws = (event.seat, count, left)

    def _say_draws(self) -> None:
        """Say another seat's draws not said yet (see :meth:`_drew`)."""
        if self._draws is None:
            return
        seat, count, left = self._draws
        self._draws = None
        _ = self._
        who = self.in_sentence(seat, first=True)
        text = _.ngettext("{who} draws {n} tile", "{who} draws {n} tiles", count, who=who)
        rest = _.ngettext("{n} tile left in the boneyard", "{n} tiles left in the boneyard", left)
        self.say(f"  {text} ({rest}).")

    def _show_turn(self, tiles: YourTiles) -> None:
        _ = self._
        view = tiles.view
        seats = range(len(view.tile_counts))
        counts = [f"{self.who(s)}: {view.tile_counts[s]}" for s in seats if s != tiles.seat]
        draws = view.rules.boneyard is Boneyard.DRAW
        if draws:
            counts.append(_("boneyard: {n}", n=view.boneyard_count))
        self.say("")
        if self.partners:
            self.say(
                _(
                    "Score (us – them): {score}, match to {target}",
                    score=self.score_text(view.score),
                    target=view.rules.target,
                )
            )
        else:
            self.say_list(
                _("Score: {scores}; match to {target}", scores=_ITEM, target=view.rules.target),
                self.scores(view.score),
                ", ",
            )
        line = line_items(view)
        if line:
            self.say_list(_("Line: {line}", line=_ITEM), line, "")
        else:
            self.say(_("Line: {line}", line=_("(empty)")))
        self.say_list(_("Tiles left: {counts}", counts=_ITEM), counts, ", ")
        self.say_list(
            _("Your tiles: {tiles}", tiles=_ITEM), [tile_text(t) for t in view.tiles], " "
        )
        moves = [choice.move for choice in tiles.moves]
        if draws and len(moves) == 1 and moves[0].draw:
            self.say(_("No tile of yours fits: draw from the boneyard."))
        elif draws and len(moves) == 1 and moves[0].is_pass and view.ends is not None:
            self.say(_("No tile of yours fits and the boneyard is empty: you pass."))
        self._say_moves(tiles)

    def remind_turn(self) -> None:
        """Print the turn's moves and the seconds left again, when the player still has
        to move (after the help or an analysis pushed them up the screen)."""
        if self.prompt is not None:
            self._say_moves(self.prompt)

    def _say_moves(self, tiles: YourTiles) -> None:
        """ "Your turn (45 s): 1) 6-4 left  2) 6-4 right", the seconds counted now."""
        _ = self._
        choices = choice_items(tiles)
        if tiles.deadline is not None:
            seconds = max(0, math.ceil(tiles.deadline - self.clock.now()))
            self.say_list(
                _("Your turn ({seconds} s): {choices}", seconds=seconds, choices=_ITEM),
                choices,
                "  ",
            )
        else:
            self.say_list(_("Your turn: {choices}", choices=_ITEM), choices, "  ")

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
                how = _("{who} dominoes", who=self.in_sentence(outcome.winner_seat, first=True))
            if outcome.capicua:
                how += " " + _("(capicúa!)")
        else:
            how = _("Blocked game (tranca)")
        mine = self._my_side()
        if outcome.winner_team is None:
            who = _("nobody scores")
        elif not self.partners and outcome.winner_team == mine:
            who = _.ngettext("you win {n} point", "you win {n} points", outcome.points)
        elif not self.partners:
            who = _.ngettext(
                "{who} wins {n} point",
                "{who} wins {n} points",
                outcome.points,
                who=self.in_sentence(outcome.winner_team),
            )
        elif outcome.winner_team == mine:
            who = _.ngettext("we win {n} point", "we win {n} points", outcome.points)
        else:
            who = _.ngettext("they win {n} point", "they win {n} points", outcome.points)
        pips = [f"{self.who(s)} {n}" for s, n in enumerate(outcome.pips_left)]
        self.say(_("Hand {number}: {how}; {who}.", number=event.hand_number, how=how, who=who))
        self.say_list(_("Pips left: {pips}", pips=_ITEM), pips, ", ")
        if self.partners:
            points = self.score_text(event.hand_points)
            self.say(
                _(
                    "Score (us – them): {points} → {score}",
                    points=points,
                    score=self.score_text(event.score),
                )
            )
        else:
            self.say_list(
                _("Score: {scores}", scores=_ITEM),
                self.scores(event.score, event.hand_points),
                ", ",
            )
        # said when the next hand starts: after the match's last hand the program ends
        # and nothing more can be typed (the match's end is the core's to say); the
        # analysis reads today's game only
        self.analysis_hint = True

    def _match_ended(self, event: MatchEnded) -> None:
        _ = self._
        self.say("")
        if not self.partners:
            if event.winner_team == self._my_side():
                self.say(_("You won the match!"))
            else:
                who = self.in_sentence(event.winner_team, first=True)
                self.say(_("{who} won the match.", who=who))
            self.say_list(_("Final score: {scores}", scores=_ITEM), self.scores(event.score), ", ")
        elif event.winner_team == self._my_side():
            self.say(_("We won the match {score}!", score=self.score_text(event.score)))
        else:
            self.say(_("They won the match {score}.", score=self.score_text(event.score)))
        if money := match_money_line(event, self.me.language):
            self.say(money)  # as the results picture says it: net of the stake

    def board_facts(self, event: TableChanged) -> TableFacts:
        """The board picture's facts, the robots named by their place (:meth:`short_name`)
        and your own seat marked (its turn reads "Te toca")."""
        facts = board_facts(event, self.me.language)
        seats = tuple(
            replace(seat, name=self.short_name(i))
            if self.robots[i]
            else replace(seat, is_you=i == self.my_seat)
            for i, seat in enumerate(facts.seats)
        )
        return replace(facts, seats=seats)

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
