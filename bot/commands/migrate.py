"""``domino migrate --to postgresql://… [--from PATH]``: move a SQLite database to PostgreSQL.

Copies everything of the SQLite database (``--from``, default ``DOMINO_DB`` or
``domino.db``) into an empty PostgreSQL database (which must exist; its tables are
created), in one transaction, then checks the copy: the ledger's invariants, every
account's balance against the source, every table's row count. A target that already
holds data is refused. Stop the bot first; afterwards set ``DOMINO_DB`` to the URL.
See the README's "Moving to PostgreSQL" and ``storage/to_postgres.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

HELP = "copy the SQLite database into an empty PostgreSQL database"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the PostgreSQL database: postgresql://user:password@host:port/database",
    )
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        metavar="PATH",
        help="the SQLite database to copy (default: DOMINO_DB or domino.db)",
    )


def run(args: argparse.Namespace) -> int:
    from storage import db_target, is_postgres_url, redact_dsn

    if not is_postgres_url(args.to):
        print("domino migrate: --to must be a postgresql:// or postgres:// URL", file=sys.stderr)
        return 2
    source = db_target(args.source)
    if is_postgres_url(source):
        print(
            f"domino migrate: the source must be a SQLite file, not {redact_dsn(source)}",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(_copy(source, args.to))


async def _copy(source: str, dsn: str) -> int:
    from storage import redact_dsn
    from storage.to_postgres import CopyError, copy_sqlite_to_postgres

    try:
        report = await copy_sqlite_to_postgres(source, dsn)
    except CopyError as exc:
        print(f"domino migrate: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # the server unreachable, a refusal: the admin must see it
        print(f"domino migrate: cannot copy to {redact_dsn(dsn)}: {exc}", file=sys.stderr)
        return 1
    copied = ", ".join(f"{table} {count}" for table, count in report.rows.items() if count)
    print(f"copied {source} to {report.target}: {copied or 'nothing (empty database)'}")
    print(f"checked: the ledger is whole and all {report.balances} balances match the source")
    print(f"now set DOMINO_DB={report.target} (with its password) and start the bot")
    return 0
