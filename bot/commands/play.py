"""``domino play``: a match in the terminal with a robot partner against two robots, or
in a format (``--preset uno-contra-uno``, ``individual``, ``cubano``: rules.md, "More
ways to play: formats") against one robot or each for themselves.

The table, your player and your wallet live in the local SQLite database (``--db``, else
``DOMINO_DB``, else ``domino.db``), like the bot's. Input may be piped from a file: a
number picks a move, ``e hola`` shows an emote, ``q`` leaves; see :mod:`bot.terminal`.
Exit codes: 0; 2 for bad options; 130 after Ctrl-C and 141 when stdout was closed (the
table is left as ``q`` leaves it, the stake refunded).

``--web`` also serves the table's web page on 127.0.0.1 (:class:`LocalWeb`) and opens it
in the browser: the same table, played from either side, no bot token needed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sqlite3
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import RulesError
from engine.robots import DEFAULT_LEVEL, LEVELS
from engine.rules import EVERY_PRESET_NAME, find_any_preset

if TYPE_CHECKING:
    from bot.core import PlayerRef, TableManager
    from bot.web.server import WebTable

HELP = "play a match in the terminal (you and a robot partner against two robots)"

LOCAL_HOST = "127.0.0.1"
"""Where ``--web`` serves the page: this machine only."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(EVERY_PRESET_NAME)
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
    parser.add_argument(
        "--web",
        action="store_true",
        help="also show the table in your browser (served on 127.0.0.1; no token needed)",
    )
    parser.add_argument(
        "--web-port",
        type=int,
        default=0,
        metavar="PORT",
        help="the port --web listens on (default: any free one)",
    )


def run(args: argparse.Namespace) -> int:
    if args.preset is not None:
        try:
            find_any_preset(args.preset)  # refused before anything opens
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
            companion=LocalWeb(args.web_port) if args.web else None,
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


def open_in_browser(url: str) -> bool:
    """Open ``url`` in the desktop's browser; on a Linux without a display (a server, an
    SSH session) nothing, so no text browser takes over the terminal: the link is printed."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False


class LocalWeb:
    """The web table of ``domino play --web``: served on 127.0.0.1 beside the terminal, its
    links signed with a key made for this run (no bot token), the seat's link opened in
    the browser (:func:`webbrowser.open`, or ``browser``).

    Args:
        port: the port to listen on (0: any free one).
        browser: opens an address, returning whether it could (default
            :func:`open_in_browser`); the address is printed either way.
        rate: frames a second the page may send (default the web table's own).
    """

    def __init__(
        self,
        port: int = 0,
        *,
        browser: Callable[[str], bool] | None = None,
        rate: float | None = None,
    ) -> None:
        self.port = port
        self.rate = rate
        self.browser = browser or open_in_browser
        self.web: WebTable | None = None

    async def start(self, manager: TableManager) -> None:
        from bot.web.auth import WebAuth
        from bot.web.server import RATE, WebTable

        now = manager.clock.now
        auth = WebAuth(telegram_token=None, secret=secrets.token_bytes(32), clock=now)
        rate = RATE if self.rate is None else self.rate
        web = WebTable(manager, auth, public_url=f"http://{LOCAL_HOST}", clock=now, rate=rate)
        port = await web.start(LOCAL_HOST, self.port)
        web.public_url = web.origin = f"http://{LOCAL_HOST}:{port}"
        self.web = web

    def open(self, player: PlayerRef, table_id: str) -> str:
        assert self.web is not None, "start first"
        url = self.web.seat_url(player, table_id)
        self.browser(url)
        return url

    async def stop(self) -> None:
        if self.web is not None:
            await self.web.stop()
            self.web = None


def _quiet_stdout() -> None:
    """Point a closed stdout at /dev/null, so the exit flush raises no BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
