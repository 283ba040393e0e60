"""The ``domino`` command line: one subcommand per module under ``bot/commands/``.

Each subcommand module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit code). Add a subcommand by adding its module name to
:data:`SUBCOMMANDS`; modules are imported only when used, so ``domino replay`` does not
pay for discord.py's import.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

__all__ = ["SUBCOMMANDS", "main"]

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    # name: (module, one-line help)
    "play": ("bot.commands.play", "play a match in the terminal against robots"),
    "run": ("bot.commands.run", "host tables on Telegram and/or Discord (tokens from env/.env)"),
    "doctor": ("bot.commands.doctor", "check configuration, database and tokens"),
    "backup": ("bot.commands.backup", "copy the database safely while the bot runs"),
    "migrate": ("bot.commands.migrate", "copy the SQLite database into an empty PostgreSQL one"),
    "ratings": ("bot.commands.ratings", "recompute the ratings from the match records (--check)"),
    "replay": ("bot.commands.replay", "check and score a match record (docs/records.md)"),
    "analyze": (
        "bot.commands.analyze",
        "what should have been played: the maestro's analysis of a record (JSON)",
    ),
    "robot": ("bot.commands.robot", "a robot speaking the robot protocol on stdin/stdout"),
    "simulate": ("bot.commands.simulate", "compare two robot levels on duplicate deals"),
    "profile": (
        "bot.commands.profile",
        "your profile or a top list, as text and a picture (--top [LIST])",
    ),
    "render-demo": ("bot.commands.render_demo", "write sample board, hand and result pictures"),
}


def _load_env_file() -> None:
    """Read ``./.env`` into the environment (never overriding what is set), so every
    subcommand — ``play`` and ``backup`` too — uses the same settings as ``domino run``
    (unless ``--env-file`` names another file)."""
    if os.path.isfile(".env"):
        from dotenv import load_dotenv

        load_dotenv(".env", override=False)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domino",
        description="Partnership dominoes for Discord, Telegram and the terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``domino`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # Two passes: find the subcommand, then let its module add its own arguments.
    if argv and argv[0] in SUBCOMMANDS and not argv[0].startswith("-"):
        module = importlib.import_module(SUBCOMMANDS[argv[0]][0])
        sub = argparse.ArgumentParser(prog=f"domino {argv[0]}", description=SUBCOMMANDS[argv[0]][1])
        module.add_arguments(sub)
        args = sub.parse_args(argv[1:])
        if not any(a == "--env-file" or a.startswith("--env-file=") for a in argv[1:]):
            _load_env_file()
        try:
            return int(module.run(args))
        except BrokenPipeError:
            # The reader went away (``domino doctor | head -2``): stop quietly, as Unix
            # tools do, and keep Python from complaining again at exit.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 141
        except OSError as exc:  # a path given that cannot be used: a folder, a file, no permission
            print(f"domino {argv[0]}: {exc}", file=sys.stderr)
            return 1
    args = parser.parse_args(argv)
    if args.command is None:  # a usage error, as for any missing argument
        parser.print_help(sys.stderr)
        return 2
    return 0  # pragma: no cover - handled above


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
