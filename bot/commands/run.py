"""``domino run``: host tables on every platform whose token is set (see :mod:`bot.app`)."""

from __future__ import annotations

import argparse
import os
import sys

HELP = "host tables on Telegram and/or Discord (tokens from the environment or .env)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--env-file", default=None, help="settings file (default: .env when it exists)"
    )


def run(args: argparse.Namespace) -> int:
    from bot.app import main_run

    if args.env_file is not None and not os.path.isfile(args.env_file):
        print(f"domino run: settings file {args.env_file} not found", file=sys.stderr)
        return 2
    env_file = args.env_file or (".env" if os.path.isfile(".env") else None)
    return main_run(env_file)
