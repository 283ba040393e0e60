"""The ``domino`` subcommands, one module each (``add_arguments`` and ``run``)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["missing_database", "no_database"]


def missing_database(db: str | os.PathLike[str] | None) -> Path | None:
    """The SQLite file a reading command would open (``db``, else ``DOMINO_DB``, else
    ``domino.db``) when it does not exist, else None (it exists, or ``db`` is a
    PostgreSQL URL or ``:memory:``). Looking must not create it: an empty database would
    pass for the bot's own."""
    from storage import db_target, is_postgres_url

    target = db_target(db)
    if is_postgres_url(target) or target == ":memory:":
        return None
    path = Path(target)
    return None if path.is_file() else path


def no_database(path: Path) -> str:
    """What a command says when ``path`` (from ``missing_database``) does not exist."""
    return f"no database at {path} (DOMINO_DB or --db)"
