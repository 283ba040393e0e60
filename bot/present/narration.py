"""A table told as one seated player reads it, in the first person: the terminal's
screens ("Tú juegas [6|4] a la izquierda.", "El rival derecho roba 3 fichas (quedan 9
en el pozo).", the score as "nosotros – ellos").

:class:`Narration` follows a table's events for the player at one seat and turns each
into lines (:func:`Narration.lines`); a front end only prints them (the terminal wraps a
:class:`Listed` line between two items, so no tile is cut). The chats' screens are in
:mod:`bot.present.screens`; this is the same table for a reader who sits at it alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.core.commands import PlayerRef
from bot.core.events import (
    EmoteShown,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    MovePlayed,
    Refusal,
    SeatAbandoned,
    SeatGivenBack,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TurnStarted,
    YourTiles,
)
from bot.core.vocabulary import AwayReason, CloseReason, MovedBy
from bot.present.facts import board_facts
from bot.present.i18n import emote_label, translator, whole_minutes
from bot.present.moves import move_buttons
from bot.present.replies import refused
from bot.present.texts import closed_text, match_money_line
from engine.hand import Termination
from engine.rules import Boneyard, Rules
from engine.tiles import Tile
from engine.views import PublicView

if TYPE_CHECKING:
    from render import TableFacts

__all__ = [
    "Line",
    "Listed",
    "Narration",
    "choice_items",
    "line_items",
    "tile_text",
    "tiles_text",
]


def tile_text(tile: Tile) -> str:
    """A tile as text: ``[6|4]``."""
    return f"[{tile.high}|{tile.low}]"


def tiles_text(tiles: tuple[Tile, ...]) -> str:
    """Tiles as text, one after another: ``[6|4] [5|5]``."""
    return " ".join(tile_text(t) for t in tiles)


def line_items(view: PublicView) -> list[str]:
    """The line's tiles left to right as the players see them, each oriented: ``[6|4]``."""
    return [f"[{p.left}|{p.right}]" for p in view.line]


def choice_items(tiles: YourTiles) -> list[str]:
    """The playable moves numbered from 1, labelled as the move buttons are
    (:func:`bot.present.moves.move_buttons`): ``["1) 6-4 izq.", "2) 6-4 der."]``."""
    return [f"{i}) {label}" for i, (_c, label) in enumerate(move_buttons(tiles), 1)]


@dataclass(frozen=True, slots=True)
class Listed:
    """A sentence holding a list: ``head``, the ``items`` joined by ``separator``, then
    ``tail`` ("Tus fichas: [6|4] [5|5]."); a front end may break it between items only."""

    head: str
    items: tuple[str, ...]
    separator: str
    tail: str

    def __str__(self) -> str:
        return self.head + self.separator.join(self.items) + self.tail


Line = str | Listed
"""One line the player reads: a sentence, or one holding a list."""

_ITEM = "\x00"
"""Stands for a list in a catalog phrase, to find the phrase's head and tail around it."""


class Narration:
    """A table told to the player at one seat (``me``), in their language.

    It follows the table's names, robots and rules from the events it reads; its seat
    is the one its tiles come to (0 until then).
    """

    def __init__(self, me: PlayerRef) -> None:
        self.me = me
        self._ = translator(me.language)
        self.my_seat = 0
        self.names = ["", "", "", ""]
        self.robots = [False, False, False, False]
        self.rules: Rules | None = None  # the table's, once an event names them
        self.last_table: TableChanged | None = None
        # another seat's draws not said yet: (seat, how many, the boneyard's count after)
        self._draws: tuple[int, int, int] | None = None
        self._my_draw_note = ""  # who drew for you (time ran out, forced), said with the tile
        self.analysis_hint = False  # "Type a …" waits for the next hand
        self.left = False  # I left the match on purpose (its stake forfeited)

    def _listed(self, out: list[Line], phrase: str, items: Sequence[str], separator: str) -> None:
        """Add a catalog phrase holding a list (``phrase`` made with :data:`_ITEM` in the
        list's place)."""
        head, _sep, tail = phrase.partition(_ITEM)
        out.append(Listed(head, tuple(items), separator, tail))

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

    def lines(self, event: Event, now: float) -> list[Line]:
        """What ``event`` says to the player, in order (``now``: the clock's time, for
        the seconds a turn has left); it also follows the table (names, seats, rules)."""
        _ = self._
        out: list[Line] = []
        if not isinstance(event, (TableChanged, TurnStarted, MovePlayed)):
            self._say_draws(out)  # another seat's draws come before whatever follows them
        if isinstance(event, TableChanged):
            self.names = [s.name for s in event.seats]
            self.robots = [s.player is None and s.is_robot for s in event.seats]
            self.rules = event.rules
            self.last_table = event
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
            out.append(text)
        elif isinstance(event, HandStarted):
            if self.analysis_hint:  # the match went on: a can be typed
                self.analysis_hint = False
                out.append(_("Type a to see what you should have played in this hand."))
            out.append("")
            if event.starter == self.my_seat:
                out.append(_("— Hand {number} — you open.", number=event.hand_number))
            else:
                out.append(
                    _(
                        "— Hand {number} — {who} opens.",
                        number=event.hand_number,
                        who=self.in_sentence(event.starter),
                    )
                )
        elif isinstance(event, MovePlayed):
            self._move(event, out)
        elif isinstance(event, YourTiles):
            self.my_seat = event.seat
            self.names = [s.name for s in event.seats]  # also for a resumed table's first
            self.robots = [s.player is None and s.is_robot for s in event.seats]
            self.rules = event.view.rules
            if event.drawn is not None:
                note, self._my_draw_note = self._my_draw_note, ""
                out.append("  " + _("You draw {tile}.", tile=tile_text(event.drawn)) + note)
            if event.is_your_turn and event.drawn is not None:
                self._say_moves(event, now, out)  # the rest of the turn is on screen already
            elif event.is_your_turn:
                self._show_turn(event, now, out)
        elif isinstance(event, HandEnded):
            self._hand_ended(event, out)
        elif isinstance(event, MatchEnded):
            self._match_ended(event, out)
        elif isinstance(event, EmoteShown):
            label = emote_label(event.name, self.me.language)
            out.append("  " + _('{who}: "{text}"', who=self.who(event.seat), text=label))
        elif isinstance(event, SeatTakenByRobot) and event.seat == self.my_seat:
            out.append(
                _(
                    "A robot plays for you now. Type b within {minutes} min to take "
                    "your seat back; q leaves the match for good (and forfeits your stake).",
                    minutes=whole_minutes(event.seconds),
                )
            )
        elif isinstance(event, SeatTakenByRobot):
            out.append(_("A robot plays for {who}.", who=self.in_sentence(event.seat)))
        elif isinstance(event, SeatAbandoned) and event.seat == self.my_seat:
            # the loop printed the leave confirmation (the stake forfeited); a seat not
            # back in time is said by the table's close below (the terminal's only human)
            self.left = event.reason is AwayReason.LEFT
        elif isinstance(event, SeatGivenBack) and event.seat == self.my_seat:
            out.append(_("You are back at your seat."))
        elif isinstance(event, SeatGivenBack):
            out.append(_("{who} is back.", who=self.in_sentence(event.seat, first=True)))
        elif isinstance(event, Refusal):
            out.append(f"  ! {refused(event)}")
        elif isinstance(event, TableClosed):
            if event.reason is CloseReason.NO_HUMANS:  # you are the table's only human
                if not self.left:
                    out.append(_("You left the match: your stake stays in the pot."))
            elif text := closed_text(event, self.me.language):
                out.append(text)
        return out

    def _move(self, event: MovePlayed, out: list[Line]) -> None:
        _ = self._
        move = event.move
        me = event.seat == self.my_seat
        if move.draw:
            self._drew(event, out)
            return
        self._say_draws(out)
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
        out.append(f"  {text}{self._by_note(event.by, me)}")

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

    def _drew(self, event: MovePlayed, out: list[Line]) -> None:
        """A draw from the boneyard: yours is said with its tile when your tiles come
        (:class:`YourTiles`, ``drawn``); another seat's draws in a row are said once,
        counted, before its next move ("El rival roba 3 fichas (quedan 9 en el pozo).")."""
        left = event.view.boneyard_count
        if event.seat == self.my_seat:
            note = self._by_note(event.by, True)
            if event.view.is_over or event.by == MovedBy.ROBOT:
                # the draw blocked the hand, or a robot plays for you: no tiles follow it
                out.append("  " + self._("You draw a tile.") + note)
            else:
                self._my_draw_note = note  # said with the tile drawn, when it comes
            return
        pending = self._draws
        if pending is not None and pending[0] != event.seat:
            self._say_draws(out)
            pending = None
        count = 1 if pending is None else pending[1] + 1
        self._draws = (event.seat, count, left)

    def _say_draws(self, out: list[Line]) -> None:
        """Say another seat's draws not said yet (see :meth:`_drew`)."""
        if self._draws is None:
            return
        seat, count, left = self._draws
        self._draws = None
        _ = self._
        who = self.in_sentence(seat, first=True)
        text = _.ngettext("{who} draws {n} tile", "{who} draws {n} tiles", count, who=who)
        rest = _.ngettext("{n} tile left in the boneyard", "{n} tiles left in the boneyard", left)
        out.append(f"  {text} ({rest}).")

    def _show_turn(self, tiles: YourTiles, now: float, out: list[Line]) -> None:
        _ = self._
        view = tiles.view
        seats = range(len(view.tile_counts))
        counts = [f"{self.who(s)}: {view.tile_counts[s]}" for s in seats if s != tiles.seat]
        draws = view.rules.boneyard is Boneyard.DRAW
        if draws:
            counts.append(_("boneyard: {n}", n=view.boneyard_count))
        out.append("")
        if self.partners:
            out.append(
                _(
                    "Score (us – them): {score}, match to {target}",
                    score=self.score_text(view.score),
                    target=view.rules.target,
                )
            )
        else:
            self._listed(
                out,
                _("Score: {scores}; match to {target}", scores=_ITEM, target=view.rules.target),
                self.scores(view.score),
                ", ",
            )
        line = line_items(view)
        if line:
            self._listed(out, _("Line: {line}", line=_ITEM), line, "")
        else:
            out.append(_("Line: {line}", line=_("(empty)")))
        self._listed(out, _("Tiles left: {counts}", counts=_ITEM), counts, ", ")
        self._listed(
            out, _("Your tiles: {tiles}", tiles=_ITEM), [tile_text(t) for t in view.tiles], " "
        )
        moves = [choice.move for choice in tiles.moves]
        if draws and len(moves) == 1 and moves[0].draw:
            out.append(_("No tile of yours fits: draw from the boneyard."))
        elif draws and len(moves) == 1 and moves[0].is_pass and view.ends is not None:
            out.append(_("No tile of yours fits and the boneyard is empty: you pass."))
        self._say_moves(tiles, now, out)

    def turn_lines(self, tiles: YourTiles, now: float) -> list[Line]:
        """The turn's moves and the seconds left, said again (after the help or an
        analysis pushed them up the screen)."""
        out: list[Line] = []
        self._say_moves(tiles, now, out)
        return out

    def _say_moves(self, tiles: YourTiles, now: float, out: list[Line]) -> None:
        """ "Your turn (45 s): 1) 6-4 left  2) 6-4 right", the seconds counted now."""
        _ = self._
        choices = choice_items(tiles)
        if tiles.deadline is not None:
            seconds = max(0, math.ceil(tiles.deadline - now))
            self._listed(
                out,
                _("Your turn ({seconds} s): {choices}", seconds=seconds, choices=_ITEM),
                choices,
                "  ",
            )
        else:
            self._listed(out, _("Your turn: {choices}", choices=_ITEM), choices, "  ")

    def _hand_ended(self, event: HandEnded, out: list[Line]) -> None:
        _ = self._
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
        out.append(_("Hand {number}: {how}; {who}.", number=event.hand_number, how=how, who=who))
        self._listed(out, _("Pips left: {pips}", pips=_ITEM), pips, ", ")
        if self.partners:
            points = self.score_text(event.hand_points)
            out.append(
                _(
                    "Score (us – them): {points} → {score}",
                    points=points,
                    score=self.score_text(event.score),
                )
            )
        else:
            self._listed(
                out,
                _("Score: {scores}", scores=_ITEM),
                self.scores(event.score, event.hand_points),
                ", ",
            )
        # said when the next hand starts: after the match's last hand the program ends
        # and nothing more can be typed (the match's end is the core's to say); the
        # analysis reads today's game only
        self.analysis_hint = True

    def _match_ended(self, event: MatchEnded, out: list[Line]) -> None:
        _ = self._
        out.append("")
        if not self.partners:
            if event.winner_team == self._my_side():
                out.append(_("You won the match!"))
            else:
                who = self.in_sentence(event.winner_team, first=True)
                out.append(_("{who} won the match.", who=who))
            self._listed(
                out, _("Final score: {scores}", scores=_ITEM), self.scores(event.score), ", "
            )
        elif event.winner_team == self._my_side():
            out.append(_("We won the match {score}!", score=self.score_text(event.score)))
        else:
            out.append(_("They won the match {score}.", score=self.score_text(event.score)))
        if money := match_money_line(event, self.me.language):
            out.append(money)  # as the results picture says it: net of the stake

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
