"""``domino run``: host tables on every platform whose token is set (see :mod:`bot.app`)."""

from __future__ import annotations

import argparse
import os

HELP = "host tables on Telegram and/or Discord (tokens from the environment or .env)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")


def run(args: argparse.Namespace) -> int:
    from bot.app import main_run

    return main_run(args.env_file if os.path.exists(args.env_file) else None)
