"""``domino profile``: the terminal player's profile, or a top list, as text and a picture.

The profile is the one ``domino play`` keeps in the local SQLite database (``--db``, else
``DOMINO_DB``, else ``domino.db``): rating and its history, matches, wins, dominoes,
trancas, capicúas, partners and rivals. ``--top [LIST]`` prints a top list of everyone in
that database instead (``rating`` by default; ``temporada``, ``saldo``, ``parejas``), you
highlighted. The text is what the bots put under the pictures; the picture is written to
``--out`` (default ``domino-profile.png`` / ``domino-top.png`` here) and its path printed
last.

Looking writes nothing: the database is neither created, nor upgraded (a database of an
older version is refused: ``domino run`` or ``domino play`` upgrades it), nor given a
player; ``--name`` is the name this output shows for you, the stored one is kept.
``--player telegram:<id>`` (or ``discord:<id>``) shows that player's profile instead: a
player linked on both platforms names both accounts (docs/players.md). Exit codes: 0; 2
for bad options, no database, a database that needs an upgrade or cannot be read, or
(for the profile) no such player in it yet.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from storage.base import SchemaError

if TYPE_CHECKING:
    from bot.core import Standings

HELP = "your profile (rating, statistics, partners) or a top list, as text and a picture"

LISTS = ("rating", "temporada", "saldo", "parejas", "season", "balance", "pairs")
PROFILE_PNG = "domino-profile.png"
TOP_PNG = "domino-top.png"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--top",
        nargs="?",
        const="rating",
        default=None,
        choices=LISTS,
        metavar="LIST",
        help="show a top list instead: rating (default), temporada, saldo or parejas",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite database (default: DOMINO_DB or domino.db)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"write the picture to FILE (default ./{PROFILE_PNG}, or ./{TOP_PNG} with --top)",
    )
    parser.add_argument("--lang", default="es", choices=("es", "en"), help="language (es, en)")
    parser.add_argument(
        "--name",
        default=None,
        help="the name shown for you here (as in domino play --name); the stored one is kept",
    )
    parser.add_argument(
        "--player",
        default=None,
        metavar="PLATFORM:ID",
        help="another player's profile: telegram:<user id> or discord:<user id> (a linked "
        "player's profile names both accounts)",
    )


def run(args: argparse.Namespace) -> int:
    from bot.commands import missing_database, no_database
    from storage import db_target, pending_migrations, redact_dsn

    missing = missing_database(args.db)
    if missing is not None:
        print(f"domino profile: {no_database(missing)}; `domino play` creates it", file=sys.stderr)
        return 2
    db = db_target(args.db)
    try:
        pending = asyncio.run(pending_migrations(db))
    except (SchemaError, sqlite3.Error, OSError) as exc:
        print(f"domino profile: cannot open {redact_dsn(db)}: {exc}", file=sys.stderr)
        return 2
    if pending:  # opening would upgrade it: a look must not write
        print(
            f"domino profile: the database at {redact_dsn(db)} needs an upgrade: start "
            "`domino run` or `domino play` once",
            file=sys.stderr,
        )
        return 2
    if args.player is not None and not _player_ref(args.player):
        print(
            "domino profile: --player is PLATFORM:ID, e.g. telegram:123456 or discord:98765",
            file=sys.stderr,
        )
        return 2
    shown = asyncio.run(_main(args, db))
    if shown is None and args.player is not None:
        print(f"domino profile: nobody is {args.player} in {redact_dsn(db)}", file=sys.stderr)
        return 2
    if shown is None:
        print(
            f"domino profile: no terminal player in {redact_dsn(db)} yet; `domino play` "
            "makes yours",
            file=sys.stderr,
        )
        return 2
    text, picture = shown
    out: Path = args.out or Path(TOP_PNG if args.top is not None else PROFILE_PNG)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(picture)
    print(text)
    print(out)
    return 0


async def _main(args: argparse.Namespace, db: str) -> tuple[str, bytes] | None:
    """The caption and the picture's bytes (None: a profile, but no terminal player)."""
    from bot.core import Ranking, TableManager
    from bot.present.standings import (
        profile_caption,
        profile_facts,
        ranking_from_input,
        standings_caption,
        standings_facts,
    )
    from bot.terminal import local_player
    from render import profile_png, standings_png
    from storage import open_storage

    storage = await open_storage(db)
    try:
        manager = TableManager(storage)
        local = local_player(args.lang, args.name)
        # found, never created nor renamed: `domino play` keeps the terminal player
        platform, user_id = (local.platform, local.user_id)
        if args.player is not None:
            platform, _, user_id = str(args.player).partition(":")
        me = await storage.find_player(platform, user_id)
        if args.top is not None:
            ranking = ranking_from_input(args.top) or Ranking.RATING
            standings = await manager.standings(ranking, None)
            if me is not None:
                standings = _shown_as(standings, me.id, local.display_name)
            facts = standings_facts(standings, args.lang)
            caption = standings_caption(standings, args.lang)
            return caption, await asyncio.to_thread(standings_png, facts)
        if me is None:
            return None
        profile = await manager.profile(me.id, None)
        if args.player is None:  # the terminal player, as --name shows them
            profile = replace(profile, name=local.display_name)
        picture = await asyncio.to_thread(profile_png, profile_facts(profile, args.lang))
        return profile_caption(profile, args.lang), picture
    finally:
        await storage.close()


def _player_ref(text: str) -> bool:
    """Whether ``text`` reads as ``PLATFORM:ID`` (both parts non-empty)."""
    platform, colon, user_id = text.partition(":")
    return bool(platform and colon and user_id)


def _shown_as(standings: Standings, player_id: int, name: str) -> Standings:
    """``standings`` asked by ``player_id``, shown as ``name`` in its rows and pairs."""
    rows = tuple(
        replace(row, display_name=name) if row.player_id == player_id else row
        for row in standings.rows
    )
    pairs = tuple(
        replace(
            pair,
            names=(
                name if pair.player_ids[0] == player_id else pair.names[0],
                name if pair.player_ids[1] == player_id else pair.names[1],
            ),
        )
        for pair in standings.pairs
    )
    return replace(standings, rows=rows, pairs=pairs, asker=player_id)
