"""``domino profile``: the terminal player's profile, or a top list, as text and a picture.

The profile is the one ``domino play`` keeps in the local SQLite database (``--db``, else
``DOMINO_DB``, else ``domino.db``): rating and its history, matches, wins, dominoes,
trancas, capicúas, partners and rivals. ``--top [LIST]`` prints a top list of everyone in
that database instead (``rating`` by default; ``temporada``, ``saldo``, ``parejas``), you
highlighted. The text is what the bots put under the pictures; the picture is written to
``--out`` (default ``domino-profile.png`` / ``domino-top.png`` here) and its path printed
last. Exit codes: 0; 2 for bad options or no database (looking does not create one).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

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
    parser.add_argument("--name", default=None, help="your name (as in domino play --name)")


def run(args: argparse.Namespace) -> int:
    from bot.commands import missing_database, no_database

    missing = missing_database(args.db)
    if missing is not None:
        print(f"domino profile: {no_database(missing)}; `domino play` creates it", file=sys.stderr)
        return 2
    text, picture = asyncio.run(_main(args))
    out: Path = args.out or Path(TOP_PNG if args.top is not None else PROFILE_PNG)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(picture)
    print(text)
    print(out)
    return 0


async def _main(args: argparse.Namespace) -> tuple[str, bytes]:
    """The caption and the picture's bytes."""
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

    storage = await open_storage(args.db)
    try:
        manager = TableManager(storage)
        me = local_player(args.lang, args.name)
        if args.top is not None:
            ranking = ranking_from_input(args.top) or Ranking.RATING
            standings = await manager.standings(ranking, None, asker=me)
            facts = standings_facts(standings, args.lang)
            caption = standings_caption(standings, args.lang)
            return caption, await asyncio.to_thread(standings_png, facts)
        profile = await manager.profile(me, None)
        picture = await asyncio.to_thread(profile_png, profile_facts(profile, args.lang))
        return profile_caption(profile, args.lang), picture
    finally:
        await storage.close()
