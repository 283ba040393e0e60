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
    from bot.core import ChatRef, TableManager
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

    Each platform's tables are leased (``bot.core.ownership``): a platform whose lease
    another live process holds is, on PostgreSQL, waited for as a standby (looked at
    every ``STANDBY_SECONDS``, taken over when its holder stops renewing) and, on
    SQLite, refused.

    Returns the exit code: 0 after a clean shutdown, 1 when no platform could start,
    another process runs their tables on this (SQLite) database, or this process lost
    its lease to another one (restart it: it comes back as a standby), 2 when no token
    is configured.
    """
    if not settings.platforms:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return 2
    from bot.commands.doctor import heartbeat_path
    from bot.core import TableManager, new_owner_id, tune_gc_for_serving
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
        hand_pause=settings.hand_pause,
        countdown_seconds=settings.countdown_seconds,
        robot_level=settings.robot_level,
        default_preset=settings.default_preset,
        owner=new_owner_id(settings.instance),
        lease_times=settings.lease_times(),
    )
    manager.register("*", EventLog())  # one log line per event, with table and player ids
    host = _Host(settings, manager, storage, stop)
    web = _build_web(settings, manager)
    code = 0
    try:
        if web is not None:
            port = await web.start(settings.web_host, settings.web_port)
            log.info(
                "web table at %s (listening on %s:%d)", web.public_url, settings.web_host, port
            )
        host.telegram = _build_telegram(settings, manager, storage, web)
        host.links = web
        if not await host.start_what_is_free():
            return 1
        tune_gc_for_serving()
        beat = asyncio.create_task(_heartbeat(heartbeat_path(settings.db), stop, manager))
        code = await host.serve_until_stopped()
        log.info("shutting down: no new commands, finishing what is in flight")
        beat.cancel()
        await asyncio.gather(beat, return_exceptions=True)
    finally:
        # Freeze the tables first: no robot move or timer from here on, every table saved,
        # and the events already decided handed to the front ends while they still run,
        # so a player whose turn came just before the signal gets their buttons.
        await manager.stop()
        for name, front_end in host.front_ends.items():
            if name not in host.lost:  # a lost platform's tables are shown by their owner
                await _flush(name, front_end, settings.stop_wait_seconds)
            try:  # no more commands; what the front end still holds is sent
                await front_end.stop()
            except Exception:  # one platform's failure must not stop the others' shutdown
                log.exception("%s did not stop cleanly", name)
        if host.telegram is not None and "telegram" not in host.front_ends:
            await _quiet_stop(host.telegram)  # built, never started (a standby)
        await manager.stop()  # saves what a command that slipped in before that changed
        if web is not None:
            await web.stop()
        await storage.close()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    if manager.tables_dropped:
        log.warning(
            "stopped; %d tables were left unsaved to the process that took their lease",
            manager.tables_dropped,
        )
    else:
        log.info("stopped; every table is saved")
    return code


class _Host:
    """The platforms of one ``domino run``: which are served, which wait as standbys."""

    def __init__(
        self, settings: Settings, manager: TableManager, storage: Storage, stop: asyncio.Event
    ) -> None:
        self.settings = settings
        self.manager = manager
        self.storage = storage
        self.stop = stop
        self.shared = is_shared(settings)
        self.telegram: TelegramFrontEnd | None = None
        self.links: TableLinks | None = None
        self.front_ends: dict[str, FrontEnd] = {}
        self.waiting: dict[str, list[str]] = {
            name: self.scopes_of(name) for name in settings.platforms
        }
        self._told: set[str] = set()
        self.reachable = True  # the database answered the last look
        self.lost: set[str] = set()  # platforms whose lease (or a shard's) was lost
        self._watchers: list[asyncio.Task[None]] = []
        count = settings.discord_shard_count
        if count is not None:  # each shard its own lease, a table that of its server's
            from bot.discord_shards import shard_of

            def shard_scope(chat: ChatRef) -> str:
                return f"discord:{shard_of(int(chat.chat_id), count)}"

            manager.partition("discord", shard_scope)

    def scopes_of(self, platform: str) -> list[str]:
        """The lease scopes ``platform`` is served under (``bot.core.ownership``): the
        platform, or with ``DISCORD_SHARD_COUNT`` one per Discord shard this process
        connects (``discord:0``...)."""
        settings = self.settings
        if platform == "discord" and settings.discord_shard_count is not None:
            from bot.discord_shards import served_shards

            shards = served_shards(settings.discord_shard_ids, settings.discord_shard_count)
            return [f"discord:{shard}" for shard in shards]
        return [platform]

    async def start_what_is_free(self) -> bool:
        """Start each waiting platform whose lease is free; False when this process
        should exit (refused on SQLite, or nothing left to serve or wait for)."""
        from bot.core import TablesHeldElsewhere

        started: list[str] = []
        for name, scopes in list(self.waiting.items()):
            try:
                await self.manager.claim(scopes)
            except TablesHeldElsewhere as exc:
                self.reachable = True
                if not self.shared:
                    # two processes must never play one table: the other one keeps them
                    log.error("%s", exc)
                    return False
                if name not in self._told:
                    self._told.add(name)
                    log.warning("standby for %s: %s", name, exc)
                continue
            except Exception as exc:  # asyncpg's errors, OSError: the database is down
                if not self.shared:
                    raise
                # a standby waits the outage out and looks again
                self.reachable = False
                log.warning("standby for %s: the database cannot be reached (%s)", name, exc)
                continue
            self.reachable = True
            del self.waiting[name]
            if name in self._told:
                log.warning("%s: taking over as the active process", name)
            front_end = await self._start(name, scopes)
            if front_end is None:
                await self.manager.release(scopes)
                continue
            self.front_ends[name] = front_end
            self._watchers.append(asyncio.create_task(self._watch(name, front_end)))
            started.append(name)
        if started:
            log.info("hosting %s", ", ".join(started))
        if not self.front_ends and not self.waiting:
            log.error("no platform could start; see the lines above, or run `domino doctor`")
            return False
        return True

    async def _start(self, name: str, scopes: list[str]) -> FrontEnd | None:
        """Connect a platform, restore its tables, then let commands in (Telegram polls
        after the restore, so a press made while the bot was down finds its table;
        Discord registers its port when it connects, so it connects first)."""
        settings, manager, storage = self.settings, self.manager, self.storage
        if name == "telegram":
            front_end = self.telegram
            if front_end is None or not await _start_telegram(front_end, front_end.connect):
                return None
            await manager.start(platforms=scopes)
            if not await _start_telegram(front_end, front_end.poll):
                return None
            return front_end
        started = await _start_platform(name, settings, manager, storage, self.links)
        if started is not None:
            await manager.start(platforms=scopes)
        return started

    async def serve_until_stopped(self) -> int:
        """Serve until the stop signal, a lost lease (exit 1) or every platform's end;
        a standby looks for free leases every ``STANDBY_SECONDS``."""
        lost = asyncio.create_task(self.manager.lost())
        stopping = asyncio.create_task(self.stop.wait())
        code = 0
        try:
            while not self.stop.is_set():
                timeout = self.manager.leases.times.standby if self.waiting else None
                done, _ = await asyncio.wait(
                    {lost, stopping}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if lost in done:
                    scope = lost.result()
                    self.lost.add(scope.split(":", 1)[0])
                    log.error(
                        "lost the %s lease to another process: stopping (a restart waits"
                        " as a standby)",
                        lost.result(),
                    )
                    code = 1
                    break
                if self.waiting and not self.stop.is_set() and not await self.start_what_is_free():
                    code = 1
                    break
        finally:
            for task in (lost, stopping, *self._watchers):
                task.cancel()
            await asyncio.gather(lost, stopping, *self._watchers, return_exceptions=True)
        return code

    async def _watch(self, name: str, front_end: FrontEnd) -> None:
        """Report a platform whose connection ends; the others keep running."""
        try:
            await front_end.wait_closed()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("%s disconnected: %s", name, exc)
        else:
            if not self.stop.is_set():
                log.error("%s disconnected", name)
        if len(self.front_ends) == 1 and not self.waiting and not self.stop.is_set():
            self.stop.set()


def is_shared(settings: Settings) -> bool:
    """Whether several processes may serve one database (PostgreSQL): a platform held
    elsewhere is then waited for as a standby instead of refused."""
    from storage import is_postgres_url

    return is_postgres_url(settings.db)


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
    activity = None
    if settings.discord_client_id and settings.discord_client_secret:
        from bot.web.activity import DiscordActivity

        activity = DiscordActivity(
            settings.discord_client_id,
            settings.discord_client_secret.get_secret_value(),
            api_base=settings.discord_api_base_url,
            clock=time.time,
        )
    return WebTable(manager, auth, public_url=settings.web_url, clock=time.time, activity=activity)


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
            before_poll=lambda: manager.leases.may_poll("telegram"),
            stop_wait=settings.stop_wait_seconds,
            board_spacing=settings.telegram_board_spacing,
            private_gap=settings.telegram_private_gap,
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


async def _flush(name: str, front_end: FrontEnd, seconds: float) -> None:
    """Let a front end send what it holds (a turn's buttons) before it stops: Discord's
    port drops pending sends when closed, and a restart does not send a turn's buttons
    again. ``seconds`` (``DOMINO_STOP_WAIT_SECONDS``) is the longest wait; what is still
    unsent then is logged (by kind, chat and count when the front end can say)."""
    hurry = getattr(front_end, "hurry", None)  # Telegram: boards shown at once, not spaced
    if hurry is not None:
        hurry()
    try:
        await asyncio.wait_for(front_end.idle(), seconds)
    except TimeoutError:
        unsent = getattr(front_end, "unsent", None)  # Telegram says which chats, how many
        what = unsent() if unsent is not None else "messages"
        log.warning("%s: stopping with %s still unsent", name, what)
    except Exception:
        log.exception("%s: could not send what was pending", name)


async def _quiet_stop(front_end: FrontEnd) -> None:
    with contextlib.suppress(Exception):
        await front_end.stop()


async def _heartbeat(path: Path, stop: asyncio.Event, manager: TableManager) -> None:
    """Touch ``path`` every 30 s while the loop runs and its leases hold: not while
    the last lease renewal failed (the database is unreachable), so ``domino doctor
    --health`` (which reads it) fails then. A lost lease ends the process (exit 1)."""
    while not stop.is_set():
        try:
            if manager.leases.healthy:
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
