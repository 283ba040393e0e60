"""``domino play``: a match in the terminal with a robot partner against two robots, or
in a format (``--preset uno-contra-uno``, ``individual``, ``cubano``: rules.md, "More
ways to play: formats") against one robot or each for themselves.

The table, your player and your wallet live in the local SQLite database (``--db``, else
``DOMINO_DB``, else ``domino.db``), like the bot's. Input may be piped from a file: a
number picks a move, ``e hola`` shows an emote, ``q`` leaves; see :mod:`bot.terminal`.
Exit codes: 0; 2 for bad options; 130 after Ctrl-C and 141 when stdout was closed (the
table is left as ``q`` leaves it, the stake refunded).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from engine.errors import RulesError
from engine.robots import DEFAULT_LEVEL, LEVELS
from engine.rules import FORMAT_PRESET_NAMES, PRESET_NAMES, find_any_preset

HELP = "play a match in the terminal (you and a robot partner against two robots)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join((*PRESET_NAMES, *FORMAT_PRESET_NAMES))
    parser.add_argument("--preset", default=None, help=f"rules preset ({names})")
    parser.add_argument("--seed", type=int, default=None, help="seed for the deals and robots")
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=LEVELS, help="the robots' level")
    parser.add_argument(
        "--board-png",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep the board picture in FILE",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite database (default: DOMINO_DB or domino.db)",
    )
    parser.add_argument("--lang", default="es", choices=("es", "en"), help="language (es, en)")
    parser.add_argument("--name", default=None, help="your name at the table")


def run(args: argparse.Namespace) -> int:
    if args.preset is not None:
        try:
            find_any_preset(args.preset)
        except RulesError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    code = asyncio.run(_main(args))
    if code == 141:  # stdout was closed (e.g. piped into head)
        _quiet_stdout()
    return code


async def _main(args: argparse.Namespace) -> int:
    from bot.core import TablesHeldElsewhere
    from bot.present.i18n import translator
    from bot.terminal import play, terminal_width
    from storage import db_target, open_storage, redact_dsn
    from storage.base import SchemaError

    try:
        storage = await open_storage(args.db)
    except (sqlite3.Error, SchemaError, OSError) as exc:
        db = db_target(args.db)
        print(f"domino play: cannot open {redact_dsn(db)}: {exc}", file=sys.stderr)
        return 2
    try:
        return await play(
            storage,
            stdin=sys.stdin,
            stdout=sys.stdout,
            preset=args.preset,
            seed=args.seed,
            level=args.level,
            board_png=args.board_png,
            language=args.lang,
            name=args.name,
            interactive=sys.stdin.isatty(),
            catch_interrupt=True,
            width=terminal_width,
        )
    except TablesHeldElsewhere:
        # two processes must never play one table (issue 13, item 4)
        _ = translator(args.lang)
        print(
            _(
                "Another domino play is running on this database ({db}). Close it "
                "first, or use another one with --db.",
                db=redact_dsn(db_target(args.db)),
            ),
            file=sys.stderr,
        )
        return 1
    finally:
        await storage.close()


def _quiet_stdout() -> None:
    """Point a closed stdout at /dev/null, so the exit flush raises no BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
