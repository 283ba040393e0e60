"""The Discord front end: a sharded bot that runs inside an existing event loop.

``DiscordFrontEnd(token, manager, storage)`` builds an ``AutoShardedBot`` with the
``/domino`` commands, the persistent button item and the :class:`DiscordPort`, registers
the port with the manager, and :meth:`DiscordFrontEnd.start` logs in and connects as a
task (never ``client.run``), so Telegram and the manager share the same loop.

Intents: only ``guilds`` (a privileged intent is never needed: slash commands and
buttons arrive as interactions whatever the intents, DMs are sent without the DM intent,
and the guild cache gives server and channel names for the messages).

Shards: ``shard_count`` and ``shard_ids`` (``DISCORD_SHARD_COUNT``, ``DISCORD_SHARD_IDS``)
let several processes split the bot's servers; each connects only its own shards, so it
receives only their servers' events and interactions (and direct messages only with
shard 0: bot/discord_shards.py).

Pace: every request Discord's global limit counts waits for a slot of
the pacer's pace (bot/discord/pacer.py), players' DMs first; a process serving
some of the bot's shards takes their share of it.

``api_base_url`` / ``gateway_url`` point the client at a REST/gateway proxy (as large bots
do to share rate limits) or at the test fake; discord.py keeps both as class attributes,
so they apply to the whole process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import TOURNAMENT_JOIN, Manager, decode_analysis, decode_moderation
from bot.core.clock import Clock
from bot.discord.analysis import AnalysisDesk, analysis_item
from bot.discord.buttons import (
    ACTIVITY_ID,
    FriendItem,
    PressItem,
    custom_ids,
    friend_item,
    join_item,
    moderation_item,
    press_item,
)
from bot.discord.cog import DominoCog
from bot.discord.config import ConfigCog
from bot.discord.friends import FriendCog
from bot.discord.i18n import DominoTranslator, player_language, texts
from bot.discord.messages import PLATFORM, unknown_command_text
from bot.discord.moderation import ModerationCog
from bot.discord.pacer import GLOBAL_PER_SECOND, GlobalPacer
from bot.discord.port import DiscordPort, Render
from bot.discord.presses import Presses
from bot.discord.relay import PressRelay
from bot.discord.replies import Replies
from bot.discord.standings import StandingsDesk, parse_top, top_item
from bot.discord.tournaments import TournamentCog
from bot.discord_http import point_discord_at
from bot.discord_shards import DM_SHARD, served_shards
from bot.present.live import TableLinks
from storage.base import Storage

__all__ = ["DiscordFrontEnd", "DominoBot", "intents"]

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """The gateway intents the bot asks for: guilds only (no privileged intent)."""
    return discord.Intents(guilds=True)


class DominoBot(commands.AutoShardedBot):
    """discord.py's sharded bot with its dependencies given: the manager, the storage and
    the pictures; it builds its port, cogs and press handler (added in ``setup_hook``)."""

    def __init__(
        self,
        manager: Manager,
        storage: Storage,
        render: dict[str, Render],
        *,
        test_guild: int | None,
        shard_count: int | None,
        shard_ids: tuple[int, ...] | None = None,
        gateway_url: str | None,
        guild_ready_timeout: float,
        pacer: GlobalPacer,
        links: TableLinks | None = None,
    ) -> None:
        served = served_shards(shard_ids, shard_count)
        self.pacer = pacer
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            shard_count=shard_count,
            # None (every shard) is discord.py's own default, though its type says a list.
            shard_ids=list(shard_ids) if shard_ids is not None else None,  # type: ignore[arg-type]
            guild_ready_timeout=guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions.none(),
            chunk_guilds_at_startup=False,
            max_messages=None,
            http_trace=self.pacer,
        )
        self.test_guild = test_guild
        self._gateway_url = gateway_url
        self.manager = manager
        self.storage = storage
        port_render = {k: v for k, v in render.items() if k != "render_profile"}
        self.port = DiscordPort(self, notes=manager, links=links, **port_render)
        self.replies = Replies(manager, self.port)
        self.presses = Presses(self.replies)
        self.friends = FriendCog(manager, self.replies)
        self.analysis = AnalysisDesk(manager, render["render_board"])
        self.moderation: ModerationCog | None = None  # added with the cogs (setup_hook)
        self.standings = StandingsDesk(
            manager,
            render_standings=render.get("render_standings"),
            render_profile=render.get("render_profile"),
        )
        # the shard-0 process of a split bot receives every DM press, also of tables
        # other processes play: it relays those (bot.discord.relay)
        self.relay = PressRelay(
            storage,
            lambda table_id: manager.table_state(table_id) is not None,
            uuid.uuid4().hex,
            relays=DM_SHARD in served
            and shard_count is not None
            and set(served) != set(range(shard_count)),
        )

    async def setup_hook(self) -> None:
        """Add the commands, the persistent buttons and the translator; sync commands."""
        if self._gateway_url is not None:
            self._point_bot_gateway_at(self._gateway_url)
        await self.relay.install(self._connection.parsers)
        await self.tree.set_translator(DominoTranslator())
        guild = discord.Object(self.test_guild) if self.test_guild else None
        await self.add_cog(
            DominoCog(self.manager, self.storage, self.replies, self.standings), guild=guild
        )
        await self.add_cog(ConfigCog(self.manager, self.replies), guild=guild)
        tournaments = TournamentCog(self.manager, self.replies)
        await self.add_cog(tournaments, guild=guild)
        friends = self.friends
        await self.add_cog(friends, guild=guild)
        moderation = self.moderation = ModerationCog(
            self.manager, self.replies, self, links=self.port.links
        )
        await self.add_cog(moderation, guild=guild)
        self.add_dynamic_items(
            press_item(self.presses.on_press),
            top_item(self.standings.on_top_press),
            analysis_item(self.analysis.on_press),
            join_item(tournaments.on_join_press),
            friend_item(friends.on_press),
            moderation_item(moderation.on_press),
        )
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        await self.tree.sync(guild=guild)
        log.info("slash commands synced %s", f"to guild {self.test_guild}" if guild else "globally")

    async def _on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Tell the member, ephemerally, instead of leaving Discord's "thinking..."
        forever: a command Discord still offers but this version no longer has (old
        registrations during a deploy) is said so and logged in one line; any other
        failure is logged with its traceback."""
        language = player_language(interaction)
        stale = None
        if isinstance(error, app_commands.CommandNotFound):
            stale = " ".join([*error.parents, error.name])
        elif isinstance(error, app_commands.CommandSignatureMismatch):
            stale = error.command.qualified_name
        if stale is not None:
            log.warning("/%s is not a command of this version (a stale registration)", stale)
            message = unknown_command_text(language)
        else:
            log.error(
                "/%s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error
            )
            message = texts(language)("Something went wrong; please try again.")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (not an outage: that is "unavailable"):
        its tables close, stakes refunded, players told by DM."""
        self.port.chat_unreachable(str(guild.id))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a press of one of our buttons that is no longer on its message (its
        buttons were removed or changed since it was drawn): discord.py's dynamic items
        only answer buttons still present, and an unanswered press fails on the member's
        screen. The manager then refuses it (stale, ended table...) ephemerally."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        message = interaction.message
        analysis = decode_analysis(custom_id)
        if analysis is not None:
            if message is None or custom_id not in custom_ids(message):
                await self.analysis.on_press(interaction, analysis)
            return  # else AnalysisItem answers it
        moderation = decode_moderation(custom_id)
        if moderation is not None:
            if self.moderation is not None and (
                message is None or custom_id not in custom_ids(message)
            ):
                await self.moderation.on_press(interaction, moderation)
            return  # else ModerationItem answers it
        if custom_id == ACTIVITY_ID:  # "play in Discord": the web table's Activity
            await interaction.response.launch_activity()
            return
        if custom_id == TOURNAMENT_JOIN:  # answered by JoinItem (its custom id is fixed)
            return
        if isinstance(custom_id, str) and FriendItem.matches(custom_id) is not None:
            if message is None or custom_id not in custom_ids(message):
                await self.friends.on_press(interaction, custom_id)  # its buttons went
            return  # else FriendItem answers it
        top = parse_top(custom_id) if isinstance(custom_id, str) else None
        if top is not None:
            if message is None or custom_id not in custom_ids(message):
                await self.standings.on_top_press(interaction, *top)
            return  # else TopItem answers it
        if not isinstance(custom_id, str) or PressItem.matches(custom_id) is None:
            # Not one of our payloads (forged, or a component of something else): refused
            # ephemerally like any forged press, so nothing fails on the member's screen.
            await self.presses.refuse_unknown(interaction)
            return
        if message is not None and custom_id in custom_ids(message):
            return  # PressItem answers it
        await self.presses.on_press(interaction, custom_id)

    def _point_bot_gateway_at(self, url: str) -> None:
        # With auto-sharding, discord.py asks REST for the gateway URL; behind a proxy the
        # configured gateway wins.
        original = self.http.get_bot_gateway

        async def get_bot_gateway() -> Any:
            shards, _, limits = await original()
            return shards, url, limits

        self.http.get_bot_gateway = get_bot_gateway  # type: ignore[method-assign]


class DiscordFrontEnd:
    """Discord hosting for the table manager.

    Args:
        token: the bot token (``DISCORD_TOKEN``).
        manager: the table manager (``handle(command) -> Reply``, ``register(platform,
            port)``).
        storage: balances, rankings, records, rules (read for ``saldo``, ``top``...).
        test_guild: sync commands to this guild only (``DISCORD_TEST_GUILD``: instant,
            for development) instead of globally.
        shard_count: the number of shards of the whole bot (``DISCORD_SHARD_COUNT``);
            None lets Discord choose, and this process then opens every shard.
        shard_ids: the shards this process connects (``DISCORD_SHARD_IDS``), each below
            ``shard_count``, which they need; None for every shard.
        api_base_url: the REST base, e.g. ``http://proxy:8080/api/v10``
            (``DISCORD_API_BASE_URL``).
        gateway_url: the gateway, e.g. ``ws://proxy:8081`` (``DISCORD_GATEWAY_URL``).
        clock: kept for callers; the Discord front end reads no time itself.
        guild_ready_timeout: seconds to wait for guilds after READY (tests use tiny values).
        ready_timeout: how long :meth:`start` waits for the gateway before returning anyway.
        render: the picture functions (default: the ``render`` package's).
        links: the web table when it runs (its links on boards and tiles messages).
        pacer: the pace of the requests Discord's global limit counts
            (:mod:`bot.discord.pacer`); by default :data:`GLOBAL_PER_SECOND` for the whole
            bot, shared between the processes that split it by their shards.

    Attributes:
        served_shards: the shards this process serves, in increasing order: ``shard_ids``,
            else every shard of ``shard_count``, else ``(0,)`` (no count: the process
            serves the whole bot, however many shards Discord gives it).
        shard_count: ``shard_count`` as given (None: Discord chooses at connection).

    Raises:
        ValueError: ``shard_ids`` without ``shard_count``, an id outside it or given twice.
    """

    def __init__(
        self,
        token: str,
        manager: Manager,
        storage: Storage,
        *,
        test_guild: int | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        api_base_url: str | None = None,
        gateway_url: str | None = None,
        clock: Clock | None = None,
        guild_ready_timeout: float = 2.0,
        ready_timeout: float = 120.0,
        render: dict[str, Render] | None = None,
        links: TableLinks | None = None,
        pacer: GlobalPacer | None = None,
    ) -> None:
        self.served_shards = served_shards(shard_ids, shard_count)
        if pacer is None:
            # a process that serves some of the bot's shards takes their share of the pace
            share = 1.0 if shard_ids is None else len(self.served_shards) / (shard_count or 1)
            pacer = GlobalPacer(GLOBAL_PER_SECOND * share)
        self.shard_count = shard_count
        if api_base_url or gateway_url:
            point_discord_at(api_base_url, gateway_url)
        self.token = token
        self.manager = manager
        self.storage = storage
        if render is None:
            import render as render_module

            render = {
                "render_board": render_module.board_png,
                "render_hand": render_module.hand_png,
                "render_hand_result": render_module.hand_result_png,
                "render_match_result": render_module.match_result_png,
                "render_waiting": render_module.waiting_png,
                "render_standings": render_module.standings_png,
                "render_profile": render_module.profile_png,
            }
        self.bot = DominoBot(
            manager,
            storage,
            render,
            test_guild=test_guild,
            shard_count=shard_count,
            shard_ids=None if shard_ids is None else self.served_shards,
            gateway_url=gateway_url,
            guild_ready_timeout=guild_ready_timeout,
            links=links,
            pacer=pacer,
        )
        self.port = self.bot.port
        self.presses = self.bot.presses
        self.clock = clock
        self.ready_timeout = ready_timeout
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Log in (commands are synced here) and connect in the background; returns once
        the bot is ready to receive interactions, or after ``ready_timeout`` seconds with
        the connection still trying (a slow start must not hold the other platforms).

        Raises:
            discord.LoginFailure: a bad token.
            discord.HTTPException: Discord refused the login or the command sync.
        """
        self.manager.register(PLATFORM, self.port)
        if self.shard_count is None:
            log.info("Discord: connecting every shard (as many as Discord recommends)")
        else:
            log.info(
                "Discord: connecting shards %s of %s",
                ",".join(map(str, self.served_shards)),
                self.shard_count,
            )
        await self.bot.login(self.token)
        self._task = asyncio.create_task(self.bot.connect(reconnect=True), name="discord")
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self._task}, timeout=self.ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if self._task in done:
            ready.cancel()
            self._task.result()  # raises why the connection ended
            raise RuntimeError("the Discord connection ended before the bot was ready")
        if ready not in done:
            ready.cancel()
            log.warning(
                "Discord is not ready after %.0f s; still connecting in the background",
                self.ready_timeout,
            )

    async def stop(self) -> None:
        """Close the connection and the port's workers."""
        await self.bot.relay.close()
        await self.port.close()
        if not self.bot.is_closed():
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await self._task
            self._task = None

    async def idle(self) -> None:
        """Wait until the port has sent everything scheduled so far."""
        await self.port.idle()

    async def wait_closed(self) -> None:
        """Wait until the connection task ends (e.g. ``domino run`` waits on it)."""
        if self._task is not None:
            await self._task
