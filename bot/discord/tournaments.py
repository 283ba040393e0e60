"""``/domino-torneo``: a server's tournament (issue 32; docs/tournaments.md).

Members see it (``ver``), sign up (``unirme``, or the "Inscribirme" button under its
news) and leave before it starts (``salir``); members who may manage the server open it
(``crear``), start it now (``empezar``) and cancel it (``cancelar``), checked when the
command runs (a top-level group: Discord cannot give one subcommand its own default
permission). The core runs it; what the channel reads comes from
:func:`bot.present.screens.screens` through the port.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import (
    CancelTournament,
    Command,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    Manager,
    Partners,
    PlayerRef,
    StartTournament,
    TournamentKind,
)
from bot.core.tournaments.service import ARENA_MINUTES, FEES, MAX_ENTRANTS, SIGNUP_MINUTES
from bot.discord.cog import preset_choices
from bot.discord.i18n import command_name, player_language, text, texts
from bot.discord.messages import PLATFORM
from bot.discord.replies import Replies, chat_of, player_of
from bot.present.labels import KIND_LABELS, PARTNER_LABELS
from bot.present.replies import confirmation
from bot.present.screens import tournament_status_text

__all__ = ["TournamentCog"]


def _choices(values: tuple[int, ...]) -> list[app_commands.Choice[int]]:
    return [app_commands.Choice(name=str(v), value=v) for v in values]


def _kind_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(label), value=kind) for kind, label in KIND_LABELS.items()
    ]


def _partner_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(label), value=value)
        for value, label in PARTNER_LABELS.items()
    ]


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog,
    group_name=command_name("domino-torneo", "domino-tournament"),
    group_description=text("The server's tournament: see it, sign up, open it (admins)"),
):
    """The ``/domino-torneo`` commands.

    Args:
        manager: the table manager (its tournament service).
        replies: the shared answers.
    """

    def __init__(self, manager: Manager, replies: Replies) -> None:
        super().__init__()
        self.manager = manager
        self.replies = replies

    async def _send(self, interaction: discord.Interaction[Any], command: Command) -> None:
        """Hand ``command`` to the core; the member is answered only they see it."""
        await self.replies.defer_ephemeral(interaction)
        reply = await self.replies.ask(command)
        if not reply.ok:
            await self.replies.refuse(interaction, reply)
            return
        language = player_language(interaction)
        said = confirmation(type(command), reply, language) or texts(language)("Done.")
        await self.replies.answer(interaction, said)

    async def on_join_press(self, interaction: discord.Interaction[Any]) -> None:
        """The sign-up button: the presser joins the tournament of this server."""
        chat = chat_of(interaction)
        if chat is not None:
            await self._send(interaction, JoinTournament(player_of(interaction), chat))

    @app_commands.command(
        name=command_name("ver", "show"), description=text("The server's tournament now")
    )
    async def ver(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        language = player_language(interaction)
        view = self.manager.tournament_here(chat) if chat is not None else None
        create = "`/domino-torneo " + texts(language)("create") + "`"
        await self.replies.answer(
            interaction, tournament_status_text(view, language, create=create)
        )

    @app_commands.command(
        name=command_name("unirme", "join"), description=text("Sign up for the tournament")
    )
    @app_commands.rename(pareja=command_name("pareja", "partner"))
    @app_commands.describe(pareja=text("Your partner in partnership play (they name you too)"))
    async def unirme(
        self, interaction: discord.Interaction[Any], pareja: discord.Member | None = None
    ) -> None:
        chat = chat_of(interaction)
        if chat is None:
            return
        partner = None
        if pareja is not None and not pareja.bot:
            partner = PlayerRef(PLATFORM, str(pareja.id), pareja.display_name)
        await self._send(interaction, JoinTournament(player_of(interaction), chat, partner))

    @app_commands.command(
        name=command_name("salir", "leave"),
        description=text("Leave the tournament before it starts"),
    )
    async def salir(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is not None:
            await self._send(interaction, LeaveTournament(player_of(interaction), chat))

    def _admin(self, interaction: discord.Interaction[Any]) -> bool:
        return bool(interaction.permissions.manage_guild)

    async def _not_admin(self, interaction: discord.Interaction[Any]) -> None:
        language = player_language(interaction)
        await self.replies.answer(
            interaction,
            texts(language)(
                "Only this server's administrators (Manage Server) can open, start or "
                "cancel a tournament."
            ),
        )

    @app_commands.command(
        name=command_name("crear", "create"),
        description=text("Open a tournament in this server (Manage Server)"),
    )
    @app_commands.rename(
        tipo=command_name("tipo", "kind"),
        reglas=command_name("reglas", "rules"),
        cuota=command_name("cuota", "fee"),
        inscripcion=command_name("inscripcion", "signup"),
        rondas=command_name("rondas", "rounds"),
        minutos=command_name("minutos", "minutes"),
        maximo=command_name("maximo", "most"),
        victorias=command_name("victorias", "wins"),
        nombre=command_name("nombre", "name"),
        companeros=command_name("companeros", "partners"),
    )
    @app_commands.describe(
        tipo=text("Knockout, Swiss or arena"),
        reglas=text("Rule preset or format"),
        cuota=text("Entry fee in dollars, held when it starts"),
        inscripcion=text("Minutes of sign-up before it starts"),
        rondas=text("Rounds of a Swiss (0: as many as the field needs)"),
        minutos=text("Minutes an arena runs"),
        maximo=text("The most entrants"),
        victorias=text("Wins that take a knockout pairing"),
        nombre=text("The tournament's name"),
        companeros=text("In partnerships: fixed partners, or drawn anew each round"),
    )
    @app_commands.choices(  # type: ignore[misc]
        tipo=_kind_choices(),
        reglas=preset_choices(),
        cuota=_choices(FEES),
        inscripcion=_choices(SIGNUP_MINUTES),
        minutos=_choices(ARENA_MINUTES),
        maximo=_choices(MAX_ENTRANTS),
        companeros=_partner_choices(),
    )
    async def crear(
        self,
        interaction: discord.Interaction[Any],
        tipo: str,
        reglas: str | None = None,
        cuota: int = 0,
        inscripcion: int = 10,
        rondas: app_commands.Range[int, 0, 12] = 0,
        minutos: int = 30,
        maximo: int = 64,
        victorias: app_commands.Range[int, 1, 3] = 1,
        nombre: app_commands.Range[str, 1, 40] | None = None,
        companeros: str = Partners.FIXED.value,
    ) -> None:
        chat = chat_of(interaction)
        if chat is None or not self._admin(interaction):
            await self._not_admin(interaction)
            return
        command = CreateTournament(
            player_of(interaction),
            chat,
            TournamentKind(tipo),
            is_admin=True,
            preset=reglas or "",
            fee=cuota,
            signup_minutes=inscripcion,
            rounds=rondas,
            minutes=minutos,
            wins_needed=victorias,
            most=maximo,
            name=nombre or "",
            partners=Partners(companeros),
        )
        await self._send(interaction, command)

    @app_commands.command(
        name=command_name("empezar", "start"),
        description=text("Close sign-up and start the tournament now (Manage Server)"),
    )
    async def empezar(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None or not self._admin(interaction):
            await self._not_admin(interaction)
            return
        await self._send(interaction, StartTournament(player_of(interaction), chat, is_admin=True))

    @app_commands.command(
        name=command_name("cancelar", "cancel"),
        description=text("Cancel the tournament; every fee is refunded (Manage Server)"),
    )
    async def cancelar(self, interaction: discord.Interaction[Any]) -> None:
        chat = chat_of(interaction)
        if chat is None or not self._admin(interaction):
            await self._not_admin(interaction)
            return
        await self._send(interaction, CancelTournament(player_of(interaction), chat, is_admin=True))
