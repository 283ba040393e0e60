"""``/domino``: one command group (``jugar``, ``mesa``, ``robots``, ``levantarse``,
``fichas``, ``saldo``, ``top``, ``perfil``, ``avisos``, ``reglas``, ``historial``, ``ayuda``), usable
in servers.

Slash command input becomes table manager commands; what is answered comes from
:mod:`bot.discord.replies` and :mod:`bot.discord.messages`. ``/domino-config`` is
:mod:`bot.discord.config`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import (
    AcceptLinkCode,
    Challenge,
    ChatRef,
    Command,
    FillWithRobots,
    GiveLinkCode,
    Leave,
    Manager,
    Mute,
    OpenTable,
    PlayerRef,
    PlayNow,
    Ranking,
    ReportPlayer,
    RobotSeat,
    ShowMyTiles,
    Unlink,
)
from bot.discord.i18n import (
    GROUP,
    HELP,
    chat_language,
    command_name,
    option_name,
    player_language,
    text,
    texts,
)
from bot.discord.messages import help_text, rules_embed, stats_lines
from bot.discord.replies import Replies, chat_of, member_ref, player_of
from bot.discord.standings import StandingsDesk
from bot.present.i18n import LEVEL_NAMES
from bot.present.labels import (
    BONEYARD_LABELS,
    FORMAT_CHOICES,
    FORMAT_LABELS,
    NOTIFICATION_LABELS,
    NOTIFICATIONS_CHOICE,
    PRESET_LABELS,
    REPORT_REASON_LABELS,
    notifications_hint,
)
from bot.present.replies import confirmation
from bot.present.screens import my_tables_text
from bot.present.standings import RANKING_LABELS, ranking_from_input
from engine.robots import LEVELS
from engine.rules import EVERY_PRESET_NAME, MAX_TURN_SECONDS, SLOW_PACE_SECONDS
from storage.base import Storage

__all__ = ["DominoCog", "preset_choices"]


def preset_choices() -> list[app_commands.Choice[str]]:
    """The table presets, then the format presets (rules.md, "Formats at the tables")."""
    return [
        app_commands.Choice(name=text(PRESET_LABELS.get(v) or FORMAT_LABELS[v]), value=v)
        for v in EVERY_PRESET_NAME
    ]


PARTNERSHIPS = "parejas"
"""The ``formato`` choice of the server's own game in partnerships (a choice needs a value)."""


def chosen_format(value: str | None) -> str:
    """A ``formato`` choice as the core names formats: a format preset, ``""`` for the
    server's own game in partnerships (the choice :data:`PARTNERSHIPS`, or none)."""
    return "" if value is None or value == PARTNERSHIPS else value


def format_choices() -> list[app_commands.Choice[str]]:
    """``/domino jugar formato:``: the server's own game, then each format preset."""
    return [
        app_commands.Choice(name=text(FORMAT_LABELS[name]), value=name or PARTNERSHIPS)
        for name in FORMAT_CHOICES
    ]


def _level_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(LEVEL_NAMES.get(level, level)), value=level)
        for level in LEVELS
    ]


@app_commands.guild_only()
class DominoCog(
    commands.GroupCog,
    group_name=command_name(*GROUP),
    group_description=text("Partnership dominoes: play, tables, balance and rules"),
):
    """The ``/domino`` commands.

    Args:
        manager: the table manager.
        storage: statistics for ``saldo`` (read-only here).
        replies: the answers shared with the presses.
        standings: the top lists and profiles (shared with the top list buttons).
    """

    def __init__(
        self,
        manager: Manager,
        storage: Storage,
        replies: Replies,
        standings: StandingsDesk | None = None,
    ) -> None:
        super().__init__()
        self.manager = manager
        self.storage = storage
        self.replies = replies
        self.standings = standings if standings is not None else StandingsDesk(manager)

    @app_commands.command(
        name=command_name("jugar", "play"), description=text("Sit at a table now")
    )
    @app_commands.rename(formato=option_name("format"))
    @app_commands.describe(formato=text("Format (default: this server's game)"))
    @app_commands.choices(formato=format_choices())
    async def jugar(
        self, interaction: discord.Interaction[Any], formato: str | None = None
    ) -> None:
        chosen = chosen_format(formato) or None  # None: the server's own game
        await self.seat_command(interaction, lambda p, c: PlayNow(p, c, format=chosen))

    @app_commands.command(
        name=command_name("mesa", "table"),
        description=text("Open a table: rules and who sits where"),
    )
    @app_commands.rename(
        preset=option_name("preset"),
        across=command_name("enfrente", "across"),
        right=command_name("derecha", "right"),
        left=command_name("izquierda", "left"),
        robots=command_name("robots", "robots"),
        level=command_name("nivel", "level"),
        turn=option_name("turn_seconds"),
        players=option_name("players"),
        boneyard=option_name("boneyard"),
        slow=command_name("lenta", "slow"),
    )
    @app_commands.describe(
        preset=text("Rule preset (default: this server's rules)"),
        across=text("Your partner, across from you"),
        right=text("The opponent on your right"),
        left=text("The opponent on your left"),
        robots=text("Robots in the seats nobody was chosen for"),
        level=text("The robots' level"),
        turn=text("Seconds per turn"),
        players=text("Players at the table (a format: 2, 3 or 4)"),
        boneyard=text("With nothing that fits: draw from the boneyard, or pass"),
        slow=text("A slow table: hours a turn, for playing at a distance"),
    )
    @app_commands.choices(
        preset=preset_choices(),
        robots=[
            app_commands.Choice(name=text("opponents"), value="opponents"),
            app_commands.Choice(name=text("every free seat"), value="all"),
        ],
        level=_level_choices(),
        boneyard=[
            app_commands.Choice(name=text(label), value=value)
            for value, label in BONEYARD_LABELS.items()
        ],
    )
    async def mesa(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        across: discord.Member | None = None,
        right: discord.Member | None = None,
        left: discord.Member | None = None,
        robots: str | None = None,
        level: str | None = None,
        turn: app_commands.Range[int, 10, MAX_TURN_SECONDS] | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        boneyard: str | None = None,
        slow: bool = False,
    ) -> None:
        lang = player_language(interaction)

        def seat(member: discord.Member | None, opponent: bool) -> PlayerRef | RobotSeat | None:
            if member is not None:
                return member_ref(member, lang)
            if robots == "all" or (robots == "opponents" and opponent):
                return RobotSeat(level)
            return None

        overrides: dict[str, int | str] = {"turn_seconds": turn} if turn is not None else {}
        if players is not None:  # a format's options (rules.md, "Formats")
            overrides["players"] = players
        if boneyard is not None:
            overrides["boneyard"] = boneyard
        if slow and turn is None:  # a slow table (rules.md, "Slow tables")
            overrides["turn_seconds"] = SLOW_PACE_SECONDS
        invited = [m for m in (across, right, left) if m is not None]
        await self.seat_command(
            interaction,
            lambda p, c: OpenTable(
                p,
                c,
                formats=True,
                preset=preset,
                overrides=overrides,
                right=seat(right, True),
                across=seat(across, False),
                left=seat(left, True),
            ),
            invited=invited,
        )

    @app_commands.command(
        name=command_name("mesas", "tables"),
        description=text("Your tables and whose turn it is"),
    )
    async def mesas(self, interaction: discord.Interaction[Any]) -> None:
        """The member's tables, live and slow, with whose turn it is (only they see it)."""
        from bot.discord.messages import place_name

        player = player_of(interaction)
        found = []
        for table_id in self.manager.tables_of(player):
            state = self.manager.table_state(table_id)
            if state is not None:
                found.append((state, place_name(interaction.client, state.chat)))
        language = player_language(interaction)
        play = "`/domino " + texts(language)("play") + "`"
        content = my_tables_text(found, player, language, play=play)
        await self.replies.answer(interaction, content)

    @app_commands.command(
        name=command_name("reto", "challenge"),
        description=text("Challenge a member to one against one"),
    )
    @app_commands.rename(member=command_name("miembro", "member"))
    @app_commands.describe(member=text("The member you challenge"))
    async def reto(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        lang = player_language(interaction)
        if member.bot:  # a bot never answers: robots take free seats by themselves
            await self.replies.answer(interaction, texts(lang)("Challenge a member, not a bot."))
            return
        opponent = member_ref(member, lang)
        await self.seat_command(
            interaction, lambda p, c: Challenge(p, c, opponent), invited=[member]
        )

    @app_commands.command(
        name=command_name("robots", "robots"),
        description=text("Fill the free seats of your table with robots now"),
    )
    @app_commands.rename(level=command_name("nivel", "level"))
    @app_commands.describe(level=text("The robots' level"))
    @app_commands.choices(level=_level_choices())
    async def robots(self, interaction: discord.Interaction[Any], level: str | None = None) -> None:
        await self.simple_command(interaction, lambda p, c: FillWithRobots(p, c, level=level))

    @app_commands.command(
        name=command_name("levantarse", "leave"), description=text("Leave your table")
    )
    async def salir(self, interaction: discord.Interaction[Any]) -> None:
        await self.simple_command(interaction, lambda p, c: Leave(p, c))

    @app_commands.command(
        name=command_name("fichas", "tiles"),
        description=text("Show your tiles again, here, only to you"),
    )
    async def fichas(self, interaction: discord.Interaction[Any]) -> None:
        """The tiles and move buttons, ephemerally."""
        await self.replies.defer_ephemeral(interaction)
        command = ShowMyTiles(player_of(interaction), chat_of(interaction))
        await self.replies.show_tiles(interaction, await self.replies.ask(command))

    @app_commands.command(
        name=command_name("saldo", "balance"), description=text("Your balance and statistics")
    )
    async def saldo(self, interaction: discord.Interaction[Any]) -> None:
        await self.replies.defer_ephemeral(interaction)
        player = player_of(interaction)
        balance = await self.manager.balance(player)
        stats = await self.storage.player_stats(await self.manager.player_id(player))
        lines = stats_lines(balance, stats, player_language(interaction))
        await self.replies.answer(interaction, "\n".join(lines))

    @app_commands.command(
        name=command_name("top", "top"), description=text("This server's best players")
    )
    @app_commands.rename(
        ranking=command_name("lista", "list"),
        everyone=command_name("global", "global"),
        formato=option_name("format"),
    )
    @app_commands.describe(
        ranking=text("Which list: rating, season, balance or pairs"),
        everyone=text("Everyone's list instead of this server's"),
        formato=text("A format's own rating list (default: the game in partnerships)"),
    )
    @app_commands.choices(
        ranking=[app_commands.Choice(name=text(RANKING_LABELS[r]), value=r.value) for r in Ranking],
        formato=format_choices(),
    )
    async def top(
        self,
        interaction: discord.Interaction[Any],
        ranking: str = Ranking.RATING.value,
        everyone: bool = False,
        formato: str | None = None,
    ) -> None:
        """The list as a picture, its rows as text, and buttons to switch it in place."""
        chosen = ranking_from_input(ranking) or Ranking.RATING
        await self.standings.show_top(interaction, chosen, everyone, chosen_format(formato))

    @app_commands.command(
        name=command_name("vincular", "link"),
        description=text("Link your Discord and Telegram accounts: one player"),
    )
    @app_commands.rename(codigo=command_name("codigo", "code"))
    @app_commands.describe(
        codigo=text("The code Telegram gave you (without it: a code for Telegram)")
    )
    async def vincular(self, interaction: discord.Interaction[Any], codigo: str = "") -> None:
        """Without a code, a code to give on Telegram (ephemeral: it is the member's
        alone); with one, accept the code Telegram gave (docs/players.md)."""
        await self.replies.defer_ephemeral(interaction)
        player = player_of(interaction)
        command: Command = (
            AcceptLinkCode(player, codigo, chat_of(interaction))
            if codigo.strip()
            else GiveLinkCode(player)
        )
        await self._linking(interaction, command)

    @app_commands.command(
        name=command_name("desvincular", "unlink"),
        description=text("Unlink this account from your Telegram one"),
    )
    async def desvincular(self, interaction: discord.Interaction[Any]) -> None:
        """This Discord account leaves the linked player and starts again at $0."""
        await self.replies.defer_ephemeral(interaction)
        await self._linking(interaction, Unlink(player_of(interaction), chat_of(interaction)))

    async def _linking(self, interaction: discord.Interaction[Any], command: Command) -> None:
        reply = await self.replies.ask(command)
        if reply.ok:
            await self.replies.confirm(interaction, type(command), reply)
        else:
            await self.replies.refuse(interaction, reply)

    @app_commands.command(
        name=command_name("perfil", "profile"),
        description=text("A player's rating, statistics and partners"),
    )
    @app_commands.rename(member=command_name("miembro", "member"), formato=option_name("format"))
    @app_commands.describe(
        member=text("Whose profile (yours if omitted)"),
        formato=text("A format's own rating list (default: the game in partnerships)"),
    )
    @app_commands.choices(formato=format_choices())
    async def perfil(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        formato: str | None = None,
    ) -> None:
        await self.standings.show_profile(interaction, member, chosen_format(formato))

    @app_commands.command(
        name=command_name("avisos", "notifications"),
        description=text(NOTIFICATIONS_CHOICE),
    )
    @app_commands.rename(mode=command_name("modo", "mode"))
    @app_commands.describe(mode=text("Every turn, or none (your tiles are still updated)"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=text(label), value=value)
            for value, label in NOTIFICATION_LABELS.items()
        ]
    )
    async def avisos(self, interaction: discord.Interaction[Any], mode: str) -> None:
        """The member's turn notifications (issue 27), kept with their player."""
        await self.replies.defer_ephemeral(interaction)
        _ = texts(player_language(interaction))
        try:
            await self.manager.set_turn_notifications(player_of(interaction), mode)
        except ValueError:
            await self.replies.answer(interaction, notifications_hint(player_language(interaction)))
            return
        if mode == "none":
            content = _(
                "No notifications: your tiles direct message is updated in place, silently, "
                "also on your turns."
            )
        else:
            content = _("A direct message will notify you on each of your turns.")
        await self.replies.answer(interaction, content)

    @app_commands.command(
        name=command_name("silenciar", "mute"),
        description=text("Mute a member: their phrases no longer reach you"),
    )
    @app_commands.rename(
        member=command_name("miembro", "member"), quitar=command_name("quitar", "stop")
    )
    @app_commands.describe(member=text("The member to mute"), quitar=text("Hear them again"))
    async def silenciar(
        self, interaction: discord.Interaction[Any], member: discord.Member, quitar: bool = False
    ) -> None:
        """Private: only the member who mutes is answered (issue 33)."""
        begun = await self.replies.begin(interaction)
        if begun is None:
            return
        player, chat = begun
        mute = Mute(player, member_ref(member, chat.language), not quitar, chat)
        await self.replies.moderate(interaction, mute)

    @app_commands.command(
        name=command_name("reportar", "report"),
        description=text("Report a member to this server's admins"),
    )
    @app_commands.rename(
        member=command_name("miembro", "member"), motivo=command_name("motivo", "reason")
    )
    @app_commands.describe(member=text("The member you report"), motivo=text("Why"))
    @app_commands.choices(
        motivo=[
            app_commands.Choice(name=text(label), value=reason)
            for reason, label in REPORT_REASON_LABELS.items()
        ]
    )
    async def reportar(
        self, interaction: discord.Interaction[Any], member: discord.Member, motivo: str
    ) -> None:
        begun = await self.replies.begin(interaction)
        if begun is None:
            return
        player, chat = begun
        report = ReportPlayer(player, chat, member_ref(member, chat.language), motivo)
        await self.replies.moderate(interaction, report)

    @app_commands.command(
        name=command_name("reglas", "rules"), description=text("This server's rules")
    )
    async def reglas(self, interaction: discord.Interaction[Any]) -> None:
        refs = await self.replies.begin(interaction)
        if refs is None:
            return
        lang = player_language(interaction)
        info = await self.manager.chat_rules(refs[1])
        embed = rules_embed(texts(lang)("This server's rules"), info, lang)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(
        name=command_name("historial", "history"),
        description=text("Your last match record, as a JSON file"),
    )
    async def historial(self, interaction: discord.Interaction[Any]) -> None:
        await self.replies.defer_ephemeral(interaction)
        _ = texts(player_language(interaction))
        records = await self.manager.history(
            player=player_of(interaction), chat=chat_of(interaction), limit=1
        )
        if not records:
            await self.replies.answer(interaction, _("You have no finished match here yet."))
            return
        record = records[0]
        data = json.dumps(record.record, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            _("Your last match (replay it with `domino replay`)."),
            file=discord.File(io.BytesIO(data), f"partida-{record.match_id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name=command_name(*HELP), description=text("How to play with this bot"))
    async def ayuda(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            help_text(player_language(interaction), self.manager.times), ephemeral=True
        )

    # ------------------------------------------------------------------ shared shapes
    async def seat_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[PlayerRef, ChatRef], Command],
        *,
        invited: Sequence[discord.abc.User] = (),
    ) -> None:
        """``jugar`` / ``mesa``: seat the member, then check they can receive DMs; members
        invited to the table's other seats are told in the channel (a mention)."""
        refs = await self.replies.begin(interaction)
        if refs is None:
            return
        reply = await self.replies.ask(build(*refs))
        await self.replies.after_seating(interaction, reply)
        if reply.ok and invited and interaction.channel is not None:
            state = self.manager.table_state(reply.table_id or "")
            _ = texts(state.chat.language if state is not None else chat_language(interaction))
            await interaction.channel.send(  # type: ignore[union-attr]
                _(
                    "{name} invites {members} to table {label}: press your seat on the board.",
                    name=interaction.user.display_name,
                    members=", ".join(m.mention for m in invited),
                    label=state.label if state is not None else reply.table_id,
                ),
                allowed_mentions=discord.AllowedMentions(users=list(invited)),
            )

    async def simple_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[PlayerRef, ChatRef], Command],
    ) -> None:
        """A command whose answer is a short ephemeral sentence (robots, leave)."""
        refs = await self.replies.begin(interaction)
        if refs is None:
            return
        command = build(*refs)
        reply = await self.replies.ask(command)
        if not reply.ok:
            await self.replies.refuse(interaction, reply)
            return
        if confirmation(type(command), reply, player_language(interaction)):
            await self.replies.confirm(interaction, type(command), reply)
        else:
            await self.replies.answer(interaction, texts(player_language(interaction))("Done."))
