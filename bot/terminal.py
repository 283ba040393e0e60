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
"""

from __future__ import annotations

import asyncio
import errno
import math
import signal
import threading
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from bot.core import (
    ChatRef,
    ComeBack,
    Emote,
    EmoteShown,
    Event,
    HandEnded,
    HandStarted,
    Leave,
    MatchEnded,
    MatchStarted,
    MovePlayed,
    OpenTable,
    PlayerRef,
    PressButton,
    Refusal,
    RobotSeat,
    SeatGivenBack,
    SeatTakenByRobot,
    ShowMyTiles,
    TableChanged,
    TableClosed,
    TableManager,
    TurnStarted,
    YourTiles,
)
from bot.core.clock import Clock, SystemClock
from bot.present.facts import board_facts
from bot.present.i18n import LEVEL_NAMES, emote_from_input, emote_label, emote_names, translator
from bot.present.texts import refused
from engine.hand import Termination, team_of
from engine.moves import Move
from engine.tiles import Tile
from engine.views import PublicView
from storage.base import Storage

if TYPE_CHECKING:
    from render import TableFacts

__all__ = ["TerminalPort", "play", "tile_text"]

T = TypeVar("T")


def tile_text(tile: Tile) -> str:
    """A tile as text: ``[6|4]``."""
    return f"[{tile.high}|{tile.low}]"


def line_text(view: PublicView) -> str:
    """The line left to right as the players see it, each tile oriented: ``[6|6][6|4]``."""
    return "".join(f"[{p.left}|{p.right}]" for p in view.line)


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
            return {1: _("Right rival"), 2: _("Partner"), 3: _("Left rival")}[relative]
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
            if event.reason != "finished":
                self.say(_("The table closed; stakes were refunded."))
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
            text += " " + _("(the only move)")
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
        self.say(_("Your tiles: {tiles}", tiles=" ".join(tile_text(t) for t in view.tiles)))
        seconds = None
        if tiles.deadline is not None:
            seconds = max(0, math.ceil(tiles.deadline - self.clock.now()))
        choices = "  ".join(f"{i}) {self._label(c.move)}" for i, c in enumerate(tiles.moves, 1))
        if seconds is not None:
            self.say(_("Your turn ({seconds} s): {choices}", seconds=seconds, choices=choices))
        else:
            self.say(_("Your turn: {choices}", choices=choices))

    def _label(self, move: Move) -> str:
        _ = self._
        if move.tile is None:
            return _("pass")
        if move.side is None:
            return tile_text(move.tile)
        side = _("left") if move.side.value == "left" else _("right")
        return f"{tile_text(move.tile)} {side}"

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
            who = _("we win {points} points", points=outcome.points)
        else:
            who = _("they win {points} points", points=outcome.points)
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


def _help(_: Callable[..., str], language: str) -> str:
    return _(
        "Type the number of a move; e NAME for an emote ({emotes}); t for your tiles; b to come back; q to leave.",
        emotes=", ".join(emote_names(language)),
    )


async def play(
    storage: Storage,
    *,
    stdin: TextIO,
    stdout: TextIO,
    preset: str | None = None,
    seed: int | None = None,
    level: str = "experto",
    board_png: Path | None = None,
    language: str = "es",
    name: str | None = None,
    interactive: bool = False,
    clock: Clock | None = None,
    catch_interrupt: bool = False,
) -> int:
    """Play one match in the terminal; returns the exit code.

    The exit code is 0, 2 for bad options, 130 after Ctrl-C and 141 when stdout was
    closed; in the last two cases the table is left as ``q`` leaves it (stakes refunded).

    Args:
        storage: where the player, the wallet and the table live.
        stdin, stdout: the text streams (a file or pipe works: lines are read only when
            it is the player's turn).
        preset: a preset name (None: the default rules).
        seed: seeds the deals and robots (None: random).
        level: the robots' level.
        board_png: keep the board picture in this file.
        interactive: pause between moves so a person can follow (robot delay, countdown).
        catch_interrupt: handle SIGINT (Ctrl-C) by leaving the table (the command line
            sets it; needs the main thread and a Unix event loop, else it is skipped).
    """
    clock = clock or SystemClock()
    _ = translator(language)
    user = name or _("You")  # "Tú": the name on the board picture too
    me = PlayerRef("terminal", "local", user, language)
    chat = ChatRef("terminal", "local", language=language)
    manager = TableManager(
        storage,
        clock=clock,
        seed=seed,
        robot_delay=0.8 if interactive else 0.0,
        countdown_seconds=1.0 if interactive else 0.0,
        hand_pause=2.0 if interactive else 0.0,
        robot_level=level,
    )
    port = TerminalPort(me, stdout, board_png=board_png, clock=clock)
    manager.register("terminal", port)
    await manager.start()
    for leftover in manager.tables_of(me):  # a table left over from an interrupted run
        await manager.handle(Leave(me, chat, leftover))
    await manager.idle()
    port.ended.clear()
    port.my_turn.clear()
    port.closed = None
    reply = await manager.handle(
        OpenTable(
            me,
            chat,
            preset=preset,
            right=RobotSeat(level),
            across=RobotSeat(level),
            left=RobotSeat(level),
        )
    )
    if reply.refusal is not None:
        print(refused(reply.refusal), file=stdout)
        await manager.stop()
        return 2
    table_id = reply.table_id
    state = manager.table_state(table_id or "")
    label = state.label if state is not None else ""
    port.say(_("Table {table}: you and a robot partner against two robots.", table=label))
    if level in LEVEL_NAMES:
        port.say(_("Robots' level: {level}.", level=_(LEVEL_NAMES[level])))
    port.say(_help(_, language))
    loop = asyncio.get_running_loop()
    reader = _LineReader(stdin, loop)
    interrupted = False
    if catch_interrupt:
        interrupted_flag = port.stop

        def on_interrupt() -> None:
            nonlocal interrupted
            interrupted = True
            interrupted_flag.set()

        try:
            loop.add_signal_handler(signal.SIGINT, on_interrupt)
        except (NotImplementedError, RuntimeError, ValueError):
            catch_interrupt = False  # not the main thread, or no signals here
    try:
        while not port.ended.is_set():
            if not await _until(port.my_turn.wait(), port.stop):
                break
            if port.ended.is_set():
                break
            tiles = port.tiles
            seen = port.moves_seen
            line = await _until(reader.readline(), port.stop)
            if line is None:
                break
            if port.ended.is_set():
                break
            if line == "":
                port.say(_("End of input: leaving the table."))
                await manager.handle(Leave(me, chat, table_id))
                break
            text = line.strip()
            if not interactive and text:
                port.say(f"> {text}")
            await _command(manager, port, me, chat, table_id, text, tiles, _)
            unchanged = port.moves_seen == seen and port.tiles is tiles
            if port.away or (unchanged and tiles is not None and tiles.is_your_turn):
                # nothing moved (a refusal, an emote, help), or a robot plays for us: read on
                port.my_turn.set()
        if port.stop.is_set() and not port.ended.is_set():
            if interrupted:
                port.say("")
                port.say(_("Interrupted: leaving the table."))
            await manager.handle(Leave(me, chat, table_id))
        await manager.idle()
        balance = await manager.balance(me)
        port.say(_("Your balance: ${balance}.", balance=balance))
    finally:
        if catch_interrupt:
            loop.remove_signal_handler(signal.SIGINT)
        await manager.stop()
    if port.broken:
        return 141
    return 130 if interrupted else 0


async def _until(awaitable: Awaitable[T], stop: asyncio.Event) -> T | None:
    """``awaitable``'s result, or None as soon as ``stop`` is set (it is cancelled then)."""
    if stop.is_set():
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        return None
    task: asyncio.Future[T] = asyncio.ensure_future(awaitable)
    stopper: asyncio.Future[object] = asyncio.ensure_future(stop.wait())
    waited: list[asyncio.Future[object]] = [task, stopper]  # type: ignore[list-item]
    try:
        await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if task.done() and not task.cancelled():
        return task.result()
    task.cancel()
    return None


class _LineReader:
    """Reads ``stdin`` line by line in a daemon thread, one line per request.

    A blocking ``readline`` in the event loop's default executor would keep the program
    from ending until Enter is pressed; a daemon thread does not.
    """

    def __init__(self, stdin: TextIO, loop: asyncio.AbstractEventLoop) -> None:
        self.stdin = stdin
        self.loop = loop
        self.wanted = threading.Semaphore(0)
        self.lines: asyncio.Queue[str] = asyncio.Queue()
        self.thread: threading.Thread | None = None
        self.pending = 0

    async def readline(self) -> str:
        """The next line, ``""`` at the end of the input."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="stdin", daemon=True)
            self.thread.start()
        if self.pending == 0:
            self.pending += 1
            self.wanted.release()
        line = await self.lines.get()
        self.pending -= 1
        return line

    def _run(self) -> None:
        while True:
            self.wanted.acquire()
            try:
                line = self.stdin.readline()
            except (OSError, ValueError):
                line = ""
            try:
                self.loop.call_soon_threadsafe(self.lines.put_nowait, line)
            except RuntimeError:  # the loop is closed: the program is ending
                return
            if line == "":
                return


async def _command(
    manager: TableManager,
    port: TerminalPort,
    me: PlayerRef,
    chat: ChatRef,
    table_id: str | None,
    text: str,
    tiles: YourTiles | None,
    _: Callable[..., str],
) -> None:
    if not text:
        return
    word, _sep, rest = text.partition(" ")
    word = word.lower()
    if word.isdigit():
        if tiles is None or not tiles.is_your_turn:
            port.say("  ! " + _("It is not your turn."))
            return
        index = int(word) - 1
        if not 0 <= index < len(tiles.moves):
            port.say("  ! " + _("Choose a number from 1 to {count}.", count=len(tiles.moves)))
            return
        port.my_turn.clear()
        reply = await manager.handle(PressButton(me, tiles.moves[index].payload, chat))
    elif word == "e":
        reply = await manager.handle(Emote(me, emote_from_input(rest), chat, table_id))
    elif word == "t":
        reply = await manager.handle(ShowMyTiles(me, chat, table_id))
        for event in reply.events:
            if isinstance(event, YourTiles):
                port.say(
                    _("Your tiles: {tiles}", tiles=" ".join(tile_text(t) for t in event.view.tiles))
                )
    elif word == "b":
        reply = await manager.handle(ComeBack(me, chat, table_id))
    elif word == "q":
        reply = await manager.handle(Leave(me, chat, table_id))
    else:
        port.say(_help(_, port.me.language))
        return
    if reply.refusal is not None:
        port.say(f"  ! {refused(reply.refusal)}")
    await manager.idle()
