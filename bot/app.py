"""``domino run``: one process hosting every platform whose token is set.

The composition root (style.md, cosmicpython): read the settings, open and migrate the
database, build one :class:`~bot.core.TableManager`, start the Telegram and Discord
front ends that have tokens (both in this event loop, sharing the manager and the
database), restore unfinished tables, and serve until SIGTERM or SIGINT. Shutdown stops
taking commands, lets what is in flight finish, snapshots every table, then closes the
clients and the database; a restart resumes the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.config import Settings

if TYPE_CHECKING:  # pragma: no cover
    from bot.core import TableManager
    from bot.present.live import TableLinks
    from bot.telegram import TelegramFrontEnd
    from bot.web.server import WebTable
    from storage.base import Storage

__all__ = ["NO_TOKEN_MESSAGE", "FrontEnd", "serve"]


class FrontEnd(Protocol):
    """What ``domino run`` needs of a front end once it has started."""

    async def idle(self) -> None:
        """Wait until everything scheduled so far has been sent."""
        ...

    async def stop(self) -> None:
        """Take no more commands, send what is held, disconnect."""
        ...

    async def wait_closed(self) -> None:
        """Return when the platform connection has ended (raise on a failure)."""
        ...


log = logging.getLogger("domino.run")

NO_TOKEN_MESSAGE = """\
domino run: no platform to host. Set TELEGRAM_TOKEN (a bot token from @BotFather) and/or
DISCORD_TOKEN (the bot token of your application in the Discord Developer Portal) in the
environment or in a .env file, then run `domino run` again; `domino doctor` checks them.
To play right now without any token, run `domino play`: a table in this terminal with a
robot partner against two robots."""

HEARTBEAT_SECONDS = 30.0


async def serve(settings: Settings, *, stop: asyncio.Event | None = None) -> int:
    """Host the platforms until ``stop`` is set (or SIGTERM/SIGINT arrives).

    Returns the exit code: 0 after a clean shutdown, 1 when no platform could start or
    another process runs their tables on this database, 2 when no token is configured.
    """
    if not settings.platforms:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return 2
    from bot.commands.doctor import heartbeat_path
    from bot.core import TableManager, TablesHeldElsewhere, tune_gc_for_serving
    from bot.logs import EventLog
    from storage import open_storage, redact_dsn

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    storage = await open_storage(settings.db)
    log.info("database %s opened", redact_dsn(settings.db))
    manager = TableManager(
        storage,
        robot_delay=settings.robot_delay,
        robot_level=settings.robot_level,
        default_preset=settings.default_preset,
    )
    manager.register("*", EventLog())  # one log line per event, with table and player ids
    front_ends: dict[str, FrontEnd] = {}
    started: dict[str, FrontEnd] = {}
    web = _build_web(settings, manager)
    try:
        if web is not None:
            port = await web.start(settings.web_host, settings.web_port)
            log.info(
                "web table at %s (listening on %s:%d)", web.public_url, settings.web_host, port
            )
        # The Telegram front end takes the manager's events from the moment it is built
        # (they wait for its connection), so the tables are restored after it connects
        # (its token checked) and before its long polling begins: a press made while the
        # bot was down finds its table. Discord registers when it connects, so it
        # connects before the restore. Only the tables of the platforms that connected
        # are restored: the others' stay in storage, not played on without their humans.
        telegram_fe = _build_telegram(settings, manager, storage, web)
        if settings.discord_token is not None:
            discord_fe = await _start_platform("discord", settings, manager, storage, web)
            if discord_fe is not None:
                started["discord"] = discord_fe
        if telegram_fe is not None and await _start_telegram(telegram_fe, telegram_fe.connect):
            started["telegram"] = telegram_fe
        try:
            await manager.start(platforms=set(started))
        except TablesHeldElsewhere as exc:
            # two processes must never play one table: the other one keeps them
            log.error("%s", exc)
            front_ends = dict(started)
            return 1
        if telegram_fe is not None and "telegram" in started:
            polled = await _start_telegram(telegram_fe, telegram_fe.poll)
            if not polled:
                del started["telegram"]
        front_ends = {name: started[name] for name in settings.platforms if name in started}
        if not front_ends:
            log.error("no platform could start; see the lines above, or run `domino doctor`")
            return 1
        tune_gc_for_serving()
        log.info("hosting %s", ", ".join(front_ends))
        beat = asyncio.create_task(_heartbeat(heartbeat_path(settings.db), stop))
        watchers = [
            asyncio.create_task(_watch(name, fe, stop, len(front_ends)))
            for name, fe in front_ends.items()
        ]
        await stop.wait()
        log.info("shutting down: no new commands, finishing what is in flight")
        for task in (beat, *watchers):
            task.cancel()
        await asyncio.gather(beat, *watchers, return_exceptions=True)
    finally:
        # Freeze the tables first: no robot move or timer from here on, every table saved,
        # and the events already decided handed to the front ends while they still run,
        # so a player whose turn came just before the signal gets their buttons.
        await manager.stop()
        for name, front_end in front_ends.items():
            await _flush(name, front_end)
            try:  # no more commands; what the front end still holds is sent
                await front_end.stop()
            except Exception:  # one platform's failure must not stop the others' shutdown
                log.exception("%s did not stop cleanly", name)
        await manager.stop()  # saves what a command that slipped in before that changed
        if web is not None:
            await web.stop()
        await storage.close()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    log.info("stopped; every table is saved")
    return 0


def _build_web(settings: Settings, manager: TableManager) -> WebTable | None:
    """The web table when ``DOMINO_WEB_URL`` is set (issue 16), else None."""
    if settings.web_url is None:
        return None
    from bot.web.auth import WebAuth, link_secret
    from bot.web.server import WebTable

    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    configured = settings.web_secret.get_secret_value() if settings.web_secret else None
    secret = link_secret(*settings.secrets(), configured=configured)
    auth = WebAuth(telegram_token=token, secret=secret, clock=time.time)
    return WebTable(manager, auth, public_url=settings.web_url, clock=time.time)


def _build_telegram(
    settings: Settings, manager: TableManager, storage: Storage, links: TableLinks | None = None
) -> TelegramFrontEnd | None:
    """The Telegram front end (not started), or None without a token."""
    if settings.telegram_token is None:
        return None
    from bot.telegram import TelegramFrontEnd

    try:
        return TelegramFrontEnd(
            settings.telegram_token.get_secret_value(),
            manager,
            storage,
            base_url=settings.telegram_api_base_url,
            base_file_url=settings.telegram_file_base_url,
            links=links,
            webapp=settings.telegram_webapp,
        )
    except Exception:
        log.exception("telegram could not start")
        return None


async def _start_telegram(telegram_fe: FrontEnd, step: Callable[[], Awaitable[None]]) -> bool:
    """Run a step of Telegram's start (``connect``, then ``poll``); report a bad token or
    an unreachable Bot API once, clearly, and return False (the front end stopped) so the
    other platform keeps running."""
    from telegram.error import InvalidToken, NetworkError

    try:
        await step()
    except InvalidToken:
        log.error("Telegram: TELEGRAM_TOKEN was refused; copy it again from @BotFather")
    except NetworkError as exc:
        log.error("Telegram: cannot reach the Bot API (%s)", exc)
    except Exception:
        log.exception("telegram could not start")
    else:
        return True
    await _quiet_stop(telegram_fe)
    return False


async def _start_platform(
    name: str,
    settings: Settings,
    manager: TableManager,
    storage: Storage,
    links: TableLinks | None = None,
) -> FrontEnd | None:
    """Start one platform (Discord); report a bad token or an unreachable platform once, clearly,
    and return None so the other platform keeps running."""
    try:
        if name == "discord":
            import discord

            from bot.discord import DiscordFrontEnd

            assert settings.discord_token is not None
            discord_fe = DiscordFrontEnd(
                settings.discord_token.get_secret_value(),
                manager,
                storage,
                test_guild=settings.discord_test_guild,
                shard_count=settings.discord_shard_count,
                shard_ids=settings.discord_shard_ids,
                api_base_url=settings.discord_api_base_url,
                gateway_url=settings.discord_gateway_url,
                links=links,
            )
            try:
                await discord_fe.start()
            except discord.LoginFailure:
                log.error("Discord: DISCORD_TOKEN was refused; reset it in the Developer Portal")
                await _quiet_stop(discord_fe)
                return None
            except (discord.HTTPException, discord.GatewayNotFound, OSError) as exc:
                log.error("Discord: cannot reach Discord (%s)", exc)
                await _quiet_stop(discord_fe)
                return None
            return discord_fe
    except Exception:
        log.exception("%s could not start", name)
        return None
    raise ValueError(f"unknown platform {name!r}")


FLUSH_SECONDS = 3.0
"""At shutdown, how long a front end may take to send what it holds."""


async def _flush(name: str, front_end: FrontEnd) -> None:
    """Let a front end send what it holds (a turn's buttons) before it stops: Discord's
    port drops pending sends when closed, and a restart does not send a turn's buttons
    again."""
    try:
        await asyncio.wait_for(front_end.idle(), FLUSH_SECONDS)
    except TimeoutError:
        log.warning("%s: stopping with messages still unsent", name)
    except Exception:
        log.exception("%s: could not send what was pending", name)


async def _quiet_stop(front_end: FrontEnd) -> None:
    with contextlib.suppress(Exception):
        await front_end.stop()


async def _watch(name: str, front_end: FrontEnd, stop: asyncio.Event, count: int) -> None:
    """Report a platform whose connection ends; the others keep running."""
    try:
        await front_end.wait_closed()
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.error("%s disconnected: %s", name, exc)
    else:
        if not stop.is_set():
            log.error("%s disconnected", name)
    if count == 1 and not stop.is_set():
        stop.set()


async def _heartbeat(path: Path, stop: asyncio.Event) -> None:
    """Touch ``path`` every 30 s while the loop runs (``domino doctor --health`` reads it)."""
    while not stop.is_set():
        try:
            path.touch()
        except OSError as exc:
            log.warning("cannot write the heartbeat %s: %s", path, exc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), HEARTBEAT_SECONDS)


def main_run(env_file: str | None) -> int:
    """Entry of ``domino run``: settings, logging, then :func:`serve`."""
    from pydantic import ValidationError

    from bot.config import load_settings
    from bot.logs import setup_logging

    try:
        settings = load_settings(env_file)
    except ValidationError as exc:
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else "?"
            print(f"domino run: setting {name}: {error['msg']}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings.secrets())
    return asyncio.run(serve(settings))
