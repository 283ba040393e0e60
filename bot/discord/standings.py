"""``/domino top`` and ``/domino perfil``: the standings and profile pictures, with the
same lines as text for screen readers, and the buttons that switch a top list in place.

The core chooses what a list or a profile holds (``manager.standings``,
``manager.profile``) and :mod:`bot.present.standings` words and draws its facts; here they
become a message: the picture as an attachment, the caption as the content, and under a
top list one button per list and one for the scope (this server or everyone).

A top list's buttons carry no table: their ``custom_id`` is ``dmtop:<list>:<scope>``
(:func:`top_custom_id`), matched by the persistent :class:`TopItem`, so they keep working
after a restart. A press edits the message it is on; anything else that looks like one is
refused as a forged press and changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from bot.core import ChatRef, Manager, Ranking
from bot.discord.i18n import help_command, player_language, texts
from bot.discord.replies import chat_of, member_ref, player_of
from bot.present.standings import (
    RANKING_LABELS,
    profile_caption,
    profile_facts,
    standings_caption,
    standings_facts,
)
from engine.rules import FORMAT_PRESET_NAMES

__all__ = [
    "PROFILE_FILE",
    "STANDINGS_FILE",
    "TOP_TEMPLATE",
    "OnTopPress",
    "StandingsDesk",
    "TopItem",
    "parse_top",
    "top_custom_id",
    "top_item",
    "top_view",
]

TOP_PREFIX: Final = "dmtop"
_SCOPES: Final = {"s": False, "g": True}  # this server / everyone
TOP_TEMPLATE: Final = (
    TOP_PREFIX
    + r":(?P<ranking>"
    + "|".join(r.value for r in Ranking)
    + r"):(?P<scope>[sg])(?::(?P<format>"
    + "|".join(FORMAT_PRESET_NAMES)
    + "))?"
)
"""Every top list button's ``custom_id``; nothing else matches."""

STANDINGS_FILE: Final = "top.png"
PROFILE_FILE: Final = "perfil.png"
MAX_CONTENT: Final = 2000  # Discord's limit for a message's content

OnTopPress = Callable[[discord.Interaction[Any], Ranking, bool, str], Awaitable[None]]
"""What a top list button becomes: ``on_press(interaction, ranking, everyone, format)``."""


def top_custom_id(ranking: Ranking, everyone: bool, format: str = "") -> str:
    """The ``custom_id`` of the button showing ``ranking`` (everyone's list or the
    server's) in ``format`` (a format preset's name; ``""`` today's game)."""
    scope = "g" if everyone else "s"
    return f"{TOP_PREFIX}:{ranking.value}:{scope}" + (f":{format}" if format else "")


def parse_top(custom_id: str) -> tuple[Ranking, bool, str] | None:
    """The list, scope and format a top list button shows, or None for anything else."""
    match = re.fullmatch(TOP_TEMPLATE, custom_id)
    if match is None:
        return None
    return Ranking(match["ranking"]), _SCOPES[match["scope"]], match["format"] or ""


class TopItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TOP_TEMPLATE):
    """Any top list button (see the module doc); :func:`top_item` binds its presses."""

    def __init__(self, ranking: Ranking, everyone: bool, format: str = "") -> None:
        custom_id = top_custom_id(ranking, everyone, format)
        super().__init__(discord.ui.Button(label=ranking.value, custom_id=custom_id))
        self.ranking = ranking
        self.everyone = everyone
        self.format = format

    @classmethod
    def matches(cls, custom_id: str) -> bool:
        return parse_top(custom_id) is not None

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TopItem:
        return cls(Ranking(match["ranking"]), _SCOPES[match["scope"]], match["format"] or "")


def top_item(on_press: OnTopPress) -> type[TopItem]:
    """The :class:`TopItem` whose presses go to ``on_press`` (for ``add_dynamic_items``)."""

    class BoundTopItem(TopItem, template=TOP_TEMPLATE):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await on_press(interaction, self.ranking, self.everyone, self.format)

    return BoundTopItem


def top_view(
    ranking: Ranking, everyone: bool, language: str, *, server: bool, format: str = ""
) -> discord.ui.View:
    """One button per list (the one shown is highlighted and inert), and in a server a
    button for the other scope (everyone's list, or back to the server's); each keeps the
    list's ``format``."""
    _ = texts(language)
    view = discord.ui.View(timeout=None)
    for shown in Ranking:
        current = shown is ranking
        view.add_item(
            discord.ui.Button(
                label=_(RANKING_LABELS[shown]),
                custom_id=top_custom_id(shown, everyone, format),
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
                row=0,
            )
        )
    if server:
        view.add_item(
            discord.ui.Button(
                label=_("This server") if everyone else _("Everyone"),
                custom_id=top_custom_id(ranking, not everyone, format),
                style=discord.ButtonStyle.success,
                row=1,
            )
        )
    view.stop()  # plain buttons: only TopItem answers them (see bot.discord.buttons)
    return view


class StandingsDesk:
    """The top lists and profiles of one bot.

    Args:
        manager: the table manager (lists, profiles, the server's language).
        render_standings, render_profile: the pictures (``render.standings_png``,
            ``render.profile_png`` by default), drawn in a worker thread.
    """

    def __init__(
        self,
        manager: Manager,
        *,
        render_standings: Callable[..., bytes] | None = None,
        render_profile: Callable[..., bytes] | None = None,
    ) -> None:
        if render_standings is None or render_profile is None:
            import render

            render_standings = render_standings or render.standings_png
            render_profile = render_profile or render.profile_png
        self.manager = manager
        self._render_standings = render_standings
        self._render_profile = render_profile

    async def _chat_language(
        self, chat: ChatRef | None, interaction: discord.Interaction[Any]
    ) -> str:
        """What a public answer speaks: the server's language (its admins' choice)."""
        if chat is None:
            return player_language(interaction)
        return (await self.manager.chat_rules(chat)).language

    async def top_message(
        self,
        interaction: discord.Interaction[Any],
        chat: ChatRef | None,
        ranking: Ranking,
        everyone: bool,
        format: str = "",
    ) -> tuple[str, discord.File, discord.ui.View]:
        """The content, picture and buttons of a top list, the member who asked (or
        pressed) highlighted; ``format`` a format's own list (``core.Standings.format``)."""
        language = await self._chat_language(chat, interaction)
        everyone = everyone or chat is None
        standings = await self.manager.standings(
            ranking, None if everyone else chat, asker=player_of(interaction), format=format
        )
        guild = interaction.guild
        title = guild.name if guild is not None else None
        facts = standings_facts(
            standings, language, chat_title=title, help_command=help_command(language)
        )
        caption = standings_caption(standings, language, chat_title=title)
        png = await asyncio.to_thread(self._render_standings, facts)
        view = top_view(ranking, everyone, language, server=chat is not None, format=format)
        return caption[:MAX_CONTENT], discord.File(io.BytesIO(png), STANDINGS_FILE), view

    async def show_top(
        self,
        interaction: discord.Interaction[Any],
        ranking: Ranking,
        everyone: bool,
        format: str = "",
    ) -> None:
        """``/domino top``: a public answer (a ranking is for the whole channel)."""
        await interaction.response.defer(thinking=True)
        content, file, view = await self.top_message(
            interaction, chat_of(interaction), ranking, everyone, format
        )
        await interaction.followup.send(content, file=file, view=view)

    async def on_top_press(
        self,
        interaction: discord.Interaction[Any],
        ranking: Ranking,
        everyone: bool,
        format: str = "",
    ) -> None:
        """A top list button: the same message now shows that list."""
        await interaction.response.defer()  # a silent "got it"; the edit follows
        content, file, view = await self.top_message(
            interaction, chat_of(interaction), ranking, everyone, format
        )
        await interaction.edit_original_response(content=content, attachments=[file], view=view)

    async def show_profile(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        format: str = "",
    ) -> None:
        """``/domino perfil [miembro]``: the member's profile (the asker's without one),
        public like a top list."""
        await interaction.response.defer(thinking=True)
        chat = chat_of(interaction)
        language = await self._chat_language(chat, interaction)
        who = member if member is not None else interaction.user
        if who.bot and who.id != interaction.user.id:
            await interaction.followup.send(texts(language)("Bots have no profile here."))
            return
        profile = await self.manager.profile(
            member_ref(who, player_language(interaction)), chat, format
        )
        png = await asyncio.to_thread(self._render_profile, profile_facts(profile, language))
        await interaction.followup.send(
            profile_caption(profile, language)[:MAX_CONTENT],
            file=discord.File(io.BytesIO(png), PROFILE_FILE),
        )
