"""``domino play``'s input loop: :func:`play` opens a robot table, reads a line at each of
the player's turns and turns it into a command; Ctrl-C and a closed stdout leave the
table (see :mod:`bot.terminal`)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Protocol, TextIO

from bot.core import (
    ChatRef,
    ComeBack,
    Emote,
    Leave,
    Manager,
    OpenTable,
    PlayerRef,
    PressButton,
    Refusal,
    Reply,
    RobotSeat,
    ShowMyTiles,
    TableManager,
    YourTiles,
)
from bot.core.clock import Clock, SystemClock
from bot.present.analysis import ANALYSING, analysis_text
from bot.present.i18n import LEVEL_NAMES, Translator, emote_from_input, refusal_text, translator
from bot.present.moves import choices_named, move_key
from bot.present.replies import confirmation, refused
from bot.terminal.port import TerminalPort, Width
from bot.terminal.reader import LineReader, until
from bot.terminal.text import help_text, tiles_text
from engine.rules import Boneyard, Rules
from engine.tiles import TileSet
from storage.base import Storage

__all__ = ["PLATFORM", "Companion", "local_chat", "local_player", "play"]

PLATFORM = "terminal"
"""The platform of the terminal's players and tables."""

LOCAL = "local"
"""The terminal's one player and one chat (``domino play``, ``domino profile``)."""


class Companion(Protocol):
    """Another view of the terminal's table, served beside it (``domino play --web``: the
    web table in the local browser). It only shows and forwards commands; the terminal
    stays in step through the table's own events."""

    async def start(self, manager: TableManager) -> None:
        """Start serving ``manager``'s tables."""
        ...

    def open(self, player: PlayerRef, table_id: str) -> str:
        """Open ``table_id`` as ``player``; returns the address shown to the player."""
        ...

    async def stop(self) -> None:
        """Stop serving."""
        ...


def local_player(language: str = "es", name: str | None = None) -> PlayerRef:
    """Who sits at the terminal: one player per database, "Tú" / "You" unless named."""
    return PlayerRef(PLATFORM, LOCAL, name or translator(language)("You"), language)


def local_chat(language: str = "es") -> ChatRef:
    """The terminal's table chat."""
    return ChatRef(PLATFORM, LOCAL, language=language)


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
    width: Width = None,
    companion: Companion | None = None,
) -> int:
    """Play one match in the terminal; returns the exit code.

    The exit code is 0, 2 for bad options, 130 after Ctrl-C and 141 when stdout was
    closed; in the last two cases the table is left as ``q`` leaves it (stakes refunded).

    Args:
        storage: where the player, the wallet and the table live.
        stdin, stdout: the text streams (a file or pipe works).
        preset: a preset name (None: the default rules).
        seed: seeds the deals and robots (None: random).
        level: the robots' level.
        board_png: keep the board picture in this file.
        interactive: a person types: pause between moves so they can follow (robot
            delay, countdown), and answer each line as it is typed (a script's lines are
            read only at the player's turns).
        clock: time (the system clock by default).
        catch_interrupt: handle SIGINT (Ctrl-C) by leaving the table (the command line
            sets it; needs the main thread and a Unix event loop, else it is skipped).
        width: wrap lines at the terminal's width (:data:`bot.terminal.port.Width`).
        companion: another view of the table served meanwhile (the web table); with a
            person at the keyboard it stays open after the match until Enter.
    """
    clock = clock or SystemClock()
    me = local_player(language, name)  # "Tú": the name on the board picture too
    manager = TableManager(
        storage,
        clock=clock,
        seed=seed,
        robot_delay=0.8 if interactive else 0.0,
        countdown_seconds=1.0 if interactive else 0.0,
        hand_pause=2.0 if interactive else 0.0,
        robot_level=level,
    )
    port = TerminalPort(me, stdout, board_png=board_png, clock=clock, width=width)
    manager.register(PLATFORM, port)
    # only the terminal's own tables: the bot's Telegram and Discord tables in the same
    # database belong to `domino run`, never played out here
    port.muted = True  # a restored table speaks once the player has been told of it
    await manager.start(platforms={PLATFORM})
    try:
        if companion is not None:
            await companion.start(manager)
        code = await _match(
            manager,
            port,
            stdin,
            preset=preset,
            level=level,
            interactive=interactive,
            catch_interrupt=catch_interrupt,
            companion=companion,
        )
    finally:
        if companion is not None:
            await companion.stop()
        await manager.stop()
    if code != 2 and port.broken:
        return 141  # stdout was closed (checked after the manager stopped printing)
    return code


async def _match(
    manager: Manager,
    port: TerminalPort,
    stdin: TextIO,
    *,
    preset: str | None,
    level: str,
    interactive: bool,
    catch_interrupt: bool,
    companion: Companion | None = None,
) -> int:
    """Opens the table against robots and plays it from ``stdin``; the exit code (2, 130
    or 0: :func:`play` makes it 141 when stdout was closed)."""
    me = port.me
    language = me.language
    _ = translator(language)
    chat = local_chat(language)
    await manager.idle()
    port.muted = False
    leftovers = manager.tables_of(me)  # a match an earlier run left unfinished (a crash)
    if leftovers:
        # it goes on where it stopped: a crash or a closed window never costs the stake
        # (Ctrl-C and the end of input are leaving, and leave for good)
        leftover = leftovers[0]
        table_id: str | None = leftover
        state = manager.table_state(leftover)
        label = state.label if state is not None else ""
        port.say(_("Table {table}: your unfinished match goes on.", table=label))
        port.say(help_text(_, language, manager.times.return_seconds))
        for event in (await manager.handle(ShowMyTiles(me, chat, leftover))).events:
            await port.deliver(event)  # the turn on screen again, if it is yours
    else:
        reply = await manager.handle(
            OpenTable(
                me,
                chat,
                preset=preset,
                right=RobotSeat(level),
                across=RobotSeat(level),
                left=RobotSeat(level),
                formats=True,  # the terminal plays every format (rules.md, "Formats")
            )
        )
        if reply.refusal is not None:
            print(refused(reply.refusal), file=port.out)
            return 2
        table_id = reply.table_id
        state = manager.table_state(table_id or "")
        label = state.label if state is not None else ""
        rules = state.rules if state is not None else None
        for sentence in table_intro(_, label, rules):
            port.say(sentence)
        if level in LEVEL_NAMES:
            port.say(_("Robots' level: {level}.", level=_(LEVEL_NAMES[level])))
        port.say(help_text(_, language, manager.times.return_seconds))
    if companion is not None and table_id is not None:
        url = companion.open(me, table_id)
        port.say(_("The table in your browser: {url}", url=url))
    loop = asyncio.get_running_loop()
    # A person's lines are read as they are typed and answered at once, against the turn
    # on screen then; a script's lines wait in the pipe until it is the player's turn.
    reader = LineReader(stdin, loop, ahead=interactive)
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
            if not interactive and not await until(port.my_turn.wait(), port.stop):
                break
            line = await until(reader.readline(), port.stop, port.ended)
            if line is None or port.ended.is_set():
                break
            if line == "":
                port.say(_("End of input: leaving the table."))
                await _leave(manager, port, chat, table_id)
                break
            text = line.strip()
            if not interactive and text:
                port.say(f"> {text}")
            await _command(manager, port, chat, table_id, text, _)
        if port.stop.is_set() and not port.ended.is_set():
            if interrupted:
                port.say("")
                port.say(_("Interrupted: leaving the table."))
            await _leave(manager, port, chat, table_id)
        await manager.idle()
        balance = await manager.balance(me)
        port.say(_("Your balance: ${balance}.", balance=balance))
        if companion is not None and interactive and port.ended.is_set() and not interrupted:
            # the page shows the match's end too: it stays until the player is done
            port.say(_("The web table stays open: press Enter to close it."))
            await until(reader.readline(), port.stop)
    finally:
        if catch_interrupt:
            loop.remove_signal_handler(signal.SIGINT)
    return 130 if interrupted else 0


def table_intro(_: Translator, label: str, rules: Rules | None) -> list[str]:
    """Who plays against whom at a new table, and how its format differs from today's
    game (rules.md, "More ways to play: formats"): drawing, the tile set."""
    if rules is None or rules.partnership:
        lines = [_("Table {table}: you and a robot partner against two robots.", table=label)]
    elif rules.players == 2:
        lines = [_("Table {table}: you against a robot, one against one.", table=label)]
    else:
        lines = [
            _(
                "Table {table}: you against {n} robots, each for themselves.",
                table=label,
                n=rules.players - 1,
            )
        ]
    if rules is not None and rules.tile_set is TileSet.DOUBLE_NINE:
        lines.append(_("Double-nine: {n} tiles each.", n=rules.hand_tiles))
    left = 0 if rules is None else len(rules.tile_set.tiles) - rules.players * rules.hand_tiles
    if rules is not None and rules.boneyard is Boneyard.PASS and left:
        lines.append(_("The other {n} tiles stay face down: nobody draws them.", n=left))
    if rules is not None and rules.boneyard is Boneyard.DRAW:
        lines.append(
            _("When no tile of yours fits you draw from the boneyard; once it is empty, you pass.")
        )
    return lines


async def _leave(
    manager: Manager, port: TerminalPort, chat: ChatRef, table_id: str | None
) -> Reply:
    """Leave the table on purpose and say what it cost (a started match's stake)."""
    me = port.me
    reply = await manager.handle(Leave(me, chat, table_id))
    if reply.ok:
        port.say(confirmation(Leave, reply, me.language))
    return reply


async def _command(
    manager: Manager,
    port: TerminalPort,
    chat: ChatRef,
    table_id: str | None,
    text: str,
    _: Translator,
) -> None:
    """Does what one typed line asks (a move by its number or typed as on Telegram,
    ``6-4 izq.``, ``66`` or ``paso``; an emote; ``t``, ``a``, ``b``, ``q``), else help: a
    line with more than its command changes nothing. A number is the move's number when
    there is such a move, else the tile it names (``66`` is the 6-6, as on Telegram).

    A move is checked against the turn on screen now (:attr:`TerminalPort.prompt`),
    never against one that has passed.
    """
    if not text:
        return
    me = port.me
    word, _sep, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    # a move's number (a line of thousands of digits is no number: int() refuses it)
    number = int(word) if word.isdecimal() and len(word) <= 6 and not rest else None
    top = port.rules.tile_set.top if port.rules is not None else 6  # 9: double-nine
    typed = move_key(text, top)  # "6-4", "6-4 izq.", "paso", "robar", a number naming a tile
    if number is not None or typed is not None:
        prompt = port.prompt
        if prompt is None:
            port.say("  ! " + refusal_text("not_your_turn", {}, me.language))
            return
        count = len(prompt.moves)
        if number is not None and (typed is None or 1 <= number <= count):
            if not 1 <= number <= count:
                wanted = (
                    _("Type 1.")
                    if count == 1
                    else _("Choose a number from 1 to {count}.", count=count)
                )
                port.say("  ! " + wanted)
                return
            choice = prompt.moves[number - 1]
        else:  # a typed move, or a number past the moves that names a tile
            assert typed is not None
            named = choices_named(prompt, typed)
            if len(named) != 1:
                port.say("  ! " + refusal_text("illegal_move", {}, me.language))
                return
            choice = named[0]
        reply = await manager.handle(PressButton(me, choice.payload, chat))
    elif rest and word != "e":
        port.say(help_text(_, me.language, manager.times.return_seconds))
        port.remind_turn()
        return
    elif word == "e":
        reply = await manager.handle(Emote(me, emote_from_input(rest), chat, table_id))
    elif word == "t":
        reply = await manager.handle(ShowMyTiles(me, chat, table_id))
        for event in reply.events:
            if isinstance(event, YourTiles):
                port.say(_("Your tiles: {tiles}", tiles=tiles_text(event.view.tiles)))
    elif word == "a":
        search = manager.start_analysis(me, chat, table_id)
        if isinstance(search, Refusal):  # nothing to analyse: the refusal alone
            port.say(f"  ! {refused(search)}")
            return
        port.say(_(ANALYSING))
        found = await search
        for line in analysis_text(found, me.language).splitlines():
            port.say(line)
        port.remind_turn()  # the turn it may have pushed up the screen still waits
        return
    elif word == "b":
        reply = await manager.handle(ComeBack(me, chat, table_id))
    elif word == "q":
        reply = await _leave(manager, port, chat, table_id)
    else:
        port.say(help_text(_, me.language, manager.times.return_seconds))
        port.remind_turn()
        return
    if reply.refusal is not None:
        port.say(f"  ! {refused(reply.refusal)}")
    await manager.idle()
