"""``domino doctor``: check the configuration, the database and the platform tokens.

The first thing an admin runs when something is wrong. Prints one line per check
(``ok``, ``warn`` or ``FAIL`` and what to do) and exits 1 if any check failed.
``--health`` is the container health check: the database opens and the running bot's
heartbeat file is fresh; it contacts no platform.

Checking writes nothing: a database of an older schema is reported with the migrations
``domino run`` would apply (a running older bot refuses the database once they are), not
upgraded, and its ledger, escrows, tables and tournaments are checked after that upgrade.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from pathlib import Path

from pydantic import ValidationError

from bot.commands import no_database
from bot.core.ownership import LeaseTimes, new_owner_id, owner_is_gone
from storage.base import TOURNAMENT_ESCROW_PREFIX, Storage

HELP = "check configuration, database and tokens (what an admin runs first)"

HEARTBEAT_MAX_AGE = 120.0
"""Seconds after which the heartbeat of ``domino run`` counts as stale."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--health",
        action="store_true",
        help="container health check: database and the running bot's heartbeat only",
    )
    parser.add_argument(
        "--env-file", default=None, help="settings file (default: .env when it exists)"
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the database to check, a SQLite file or a postgresql:// URL (default: DOMINO_DB or domino.db)",
    )


def heartbeat_path(db: Path | str) -> Path:
    """Where ``domino run`` writes its heartbeat: beside the SQLite database; for a
    PostgreSQL database (a URL), ``domino.heartbeat`` in the working directory."""
    if isinstance(db, str):
        from storage import is_postgres_url

        if is_postgres_url(db):
            return Path("domino.heartbeat")
        db = Path(db)
    return db.with_name(db.name + ".heartbeat")


class Report:
    def __init__(self) -> None:
        self.failed = False

    def line(self, status: str, what: str, detail: str = "") -> None:
        if status == "FAIL":
            self.failed = True
        print(f"{status:<4}  {what}" + (f": {detail}" if detail else ""), flush=True)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    from bot.config import load_settings

    report = Report()
    try:
        if args.env_file is not None and not os.path.isfile(args.env_file):
            report.line("FAIL", "settings file", f"{args.env_file} not found")
            return 1
        env_file = args.env_file or (".env" if os.path.isfile(".env") else None)
        settings = load_settings(env_file, db=args.db)
    except ValidationError as exc:
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else "?"
            report.line("FAIL", f"setting {name}", str(error["msg"]))
        return 1
    from storage import redact_dsn

    report.line("ok", "configuration read", f"database {redact_dsn(settings.db)}")
    await _check_database(settings.db, report, settings.lease_times(), health=args.health)
    if args.health:
        beat = heartbeat_path(settings.db)
        try:
            age = time.time() - beat.stat().st_mtime
        except OSError:
            report.line("FAIL", "heartbeat", f"{beat} is missing: is `domino run` running?")
        else:
            if age > HEARTBEAT_MAX_AGE:
                report.line("FAIL", "heartbeat", f"last beat {age:.0f} s ago")
            else:
                report.line("ok", "heartbeat", f"{age:.0f} s ago")
        return 1 if report.failed else 0
    if not settings.platforms:
        report.line(
            "warn",
            "platforms",
            "no TELEGRAM_TOKEN or DISCORD_TOKEN set: `domino run` has nothing to host "
            "(`domino play` plays in the terminal)",
        )
    if settings.telegram_token is not None:
        await _check_telegram(settings, report)
    if settings.discord_token is not None:
        await _check_discord(settings, report)
    _check_web(settings, report)
    return 1 if report.failed else 0


def _check_web(settings: object, report: Report) -> None:
    """The web table's settings (README, "The web table"): the address, the port free to
    listen on, the link key, the Mini App's name for Telegram groups, and the Discord
    Activity's mapping."""
    import socket

    url = settings.web_url  # type: ignore[attr-defined]
    if url is None:
        report.line("ok", "web table", "off (DOMINO_WEB_URL not set; chats work without it)")
        return
    host, port = settings.web_host, settings.web_port  # type: ignore[attr-defined]
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError as exc:
            report.line(
                "warn",
                "web table",
                f"cannot listen on {host}:{port} ({exc.strerror}): is `domino run` running, "
                "or is DOMINO_WEB_PORT taken?",
            )
        else:
            report.line("ok", "web table", f"{url} served from {host}:{port}")
    if url.startswith("http://"):
        report.line("warn", "web table", "DOMINO_WEB_URL is http: Telegram opens https only")
    if not settings.platforms:  # type: ignore[attr-defined]
        report.line("FAIL", "web table", "needs TELEGRAM_TOKEN or DISCORD_TOKEN (its tables)")
    if settings.web_secret is None:  # type: ignore[attr-defined]
        report.line(
            "ok", "web links", "signed with a key derived from the tokens (DOMINO_WEB_SECRET)"
        )
    if settings.telegram_token is not None and settings.telegram_webapp is None:  # type: ignore[attr-defined]
        report.line(
            "warn",
            "web table",
            "TELEGRAM_WEBAPP is not set: private chats get the Mini App button, but group "
            "boards cannot link to it (BotFather /newapp gives the short name)",
        )
    client_id = settings.discord_client_id  # type: ignore[attr-defined]
    if client_id is None:
        report.line("ok", "web table", "not a Discord Activity (DISCORD_CLIENT_ID not set)")
    else:
        report.line(
            "ok",
            "web table",
            f"also a Discord Activity: its URL mapping `/` must point at {_host_of(url)} "
            f"(pages of https://{client_id}.discordsays.com may connect)",
        )
        if settings.discord_token is None:  # type: ignore[attr-defined]
            report.line("warn", "web table", "a Discord Activity without DISCORD_TOKEN: no "
                        "Discord tables to open it on")  # fmt: skip


def _host_of(url: str) -> str:
    """``https://mesa.example.com/x`` -> ``mesa.example.com``."""
    return url.split("://", 1)[-1].split("/", 1)[0]


def _report_pending(shown: str, pending: list[str], schema: int, report: Report) -> None:
    """The lines for a database whose schema is older than this version's ``schema``
    (its number of migrations): what the upgrade will be, and the checks left for then."""
    current = schema - len(pending)
    if current == 0:
        what = f"{shown} has no tables yet; `domino run` or `domino play` creates them"
    else:
        what = (
            f"{shown}: schema {current}, this version upgrades it to {schema} when "
            f"`domino run` or `domino play` starts (pending: {', '.join(pending)})"
        )
    report.line("warn", "database", what)
    report.line(
        "warn",
        "ledger",
        "not checked, nor escrows and tables (this version reads them in its own schema): "
        "run `domino doctor` again after the upgrade; nothing was written",
    )


async def _check_database(
    path: Path | str, report: Report, leases: LeaseTimes, *, health: bool = False
) -> None:
    """The database at ``path``: its schema, then its ledger, escrows and table leases
    (a lease is abandoned after ``leases.takeover`` seconds, as ``domino run`` reads it)."""
    from storage import is_postgres_url, redact_dsn
    from storage.migrations import MIGRATIONS

    if is_postgres_url(path):
        from storage.postgres_migrations import POSTGRES_MIGRATIONS

        shown = redact_dsn(path)
        await _check_contents(
            str(path), shown, " (PostgreSQL)", len(POSTGRES_MIGRATIONS), report, leases
        )
        return
    path = Path(path)
    if path.parent and not path.parent.exists():
        report.line("FAIL", "database", f"folder {path.parent} does not exist")
        return
    if str(path) != ":memory:" and not path.exists():
        # looking must not create it: an empty database would pass for the bot's own
        status = "FAIL" if health else "warn"
        report.line(
            status,
            "database",
            f"{no_database(path.resolve())}; `domino run` or `domino play` creates it there",
        )
        return
    await _check_contents(path, str(path), "", len(MIGRATIONS), report, leases)
    if not os.access(path, os.W_OK):
        report.line("FAIL", "database", f"{path} is not writable")


async def _check_contents(
    target: Path | str, shown: str, kind: str, schema: int, report: Report, leases: LeaseTimes
) -> None:
    """The schema of the database at ``target`` (``shown`` as the lines name it, ``kind``
    after) against this version's ``schema`` migrations, read without writing; when it is
    this version's, the database opened and its ledger, escrows and tables checked."""
    from storage import open_storage, pending_migrations

    try:
        pending = await pending_migrations(target)
        if pending:
            _report_pending(shown + kind, pending, schema, report)
            return
        storage = await open_storage(target)  # nothing pending: opening applies nothing
    except Exception as exc:  # any failure here is what the admin must see
        report.line("FAIL", "database", f"cannot open {shown}: {exc}")
        return
    try:
        report.line("ok", "database", f"{shown} opened and migrated{kind}")
        problems = await storage.check_ledger()
        if problems:
            for problem in problems[:10]:
                report.line("FAIL", "ledger", problem)
        else:
            report.line("ok", "ledger", "every balance equals its rows; all sums are zero")
        await _check_escrows(storage, report, leases)
        await _check_tournament_escrows(storage, report)
    finally:
        await storage.close()


async def _check_escrows(storage: Storage, report: Report, leases: LeaseTimes) -> None:
    """Every open escrow belongs to a stored table that has started its match (issue 13,
    item 5): stakes that no table owns would stay in escrow for ever. Then every held
    lease, called gone when its heartbeat is older than ``leases.takeover`` seconds
    (``DOMINO_LEASE_TAKEOVER_SECONDS``, the time after which ``domino run`` takes it
    over) or its process is known gone."""
    tables = {str(t.get("table_id")): t for t in await storage.load_tables()}
    stray: list[str] = []
    for escrow in await storage.open_escrows():
        held = sum(escrow.stake for status in escrow.holders.values() if status == "held")
        table = tables.get(escrow.match_id)
        if table is None:
            stray.append(f"{escrow.match_id} (${held}, no table)")
        elif table.get("record") is None:
            stray.append(f"{escrow.match_id} (${held}, its table never started)")
    if stray:
        report.line(
            "warn",
            "escrows",
            f"{len(stray)} hold stakes that no live table owns: {', '.join(stray[:10])}; "
            "the next `domino run` or `domino play` refunds them (or starts that match)",
        )
    else:
        count = len(tables)
        report.line("ok", "escrows", f"every open escrow belongs to a live table ({count} saved)")
    for claim in await storage.tables_claims():  # every held lease (docs/capacity.md)
        scope = claim.platform
        age = time.time() - claim.heartbeat_at
        if age > leases.takeover or owner_is_gone(claim.owner, new_owner_id()):
            report.line(
                "warn",
                "tables",
                f"the {scope} tables were run by {claim.owner}, which is gone (last heartbeat "
                f"{age:.0f} s ago); a standby or the next start takes them over",
            )
        else:
            report.line("ok", "tables", f"{scope} tables run by {claim.owner} ({age:.0f} s ago)")


async def _check_tournament_escrows(storage: Storage, report: Report) -> None:
    """Every open tournament escrow (entry fees) belongs to a stored live tournament
    (issue 32): the tables' start refunds only tables' escrows, and the fees of a
    tournament that is gone or over would stay in escrow for ever."""
    live = await storage.live_tournament_ids()
    stray: list[str] = []
    for escrow in await storage.open_tournament_escrows():
        held = sum(escrow.stake for status in escrow.holders.values() if status == "held")
        tournament_id = escrow.match_id.removeprefix(TOURNAMENT_ESCROW_PREFIX)
        if tournament_id in live:
            continue
        if await storage.get_tournament(tournament_id) is None:
            stray.append(f"{escrow.match_id} (${held}, no tournament)")
        else:
            stray.append(f"{escrow.match_id} (${held}, its tournament is over)")
    if stray:
        report.line(
            "warn",
            "tournaments",
            f"{len(stray)} hold entry fees that no live tournament owns: "
            f"{', '.join(stray[:10])}; nothing pays or refunds them on its own",
        )
    else:
        report.line(
            "ok",
            "tournaments",
            f"every open tournament escrow belongs to a live tournament ({len(live)} live)",
        )


async def _check_telegram(settings: object, report: Report) -> None:
    import telegram
    from telegram.error import InvalidToken, NetworkError, TelegramError

    token = settings.telegram_token.get_secret_value()  # type: ignore[attr-defined]
    kwargs = {}
    if settings.telegram_api_base_url:  # type: ignore[attr-defined]
        kwargs["base_url"] = settings.telegram_api_base_url  # type: ignore[attr-defined]
    if settings.telegram_file_base_url:  # type: ignore[attr-defined]
        kwargs["base_file_url"] = settings.telegram_file_base_url  # type: ignore[attr-defined]
    try:
        bot = telegram.Bot(token, **kwargs)
        async with bot:  # initializing asks getMe: the token is checked once
            username = bot.username
        report.line("ok", "telegram", f"token accepted: @{username}")
    except InvalidToken:
        report.line("FAIL", "telegram", "TELEGRAM_TOKEN was refused: copy it again from @BotFather")
    except NetworkError as exc:
        report.line("FAIL", "telegram", f"cannot reach the Bot API: {exc}")
    except TelegramError as exc:
        report.line("FAIL", "telegram", str(exc))


async def _check_discord(settings: object, report: Report) -> None:
    import discord

    from bot.discord_http import point_discord_at

    point_discord_at(
        settings.discord_api_base_url,  # type: ignore[attr-defined]
        settings.discord_gateway_url,  # type: ignore[attr-defined]
    )
    token = settings.discord_token.get_secret_value()  # type: ignore[attr-defined]
    # discord.py warns about voice support and intents at start-up: nothing an admin
    # checking a token needs to read.
    logging.getLogger("discord").setLevel(logging.ERROR)
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        await client.login(token)
        user = client.user
        report.line("ok", "discord", f"token accepted: {user}")
    except discord.LoginFailure:
        report.line(
            "FAIL", "discord", "DISCORD_TOKEN was refused: reset it in the Developer Portal"
        )
    except (discord.HTTPException, OSError) as exc:
        report.line("FAIL", "discord", f"cannot reach Discord: {exc}")
    finally:
        await client.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace(health=False, env_file=None)))
