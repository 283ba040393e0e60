"""'¿Qué debí jugar?' on Discord (issue 15): a button under every hand's result; each
member who presses it gets the maestro's analysis of their own last finished hand, in a
message only they see (the costliest moves, the better ones, the board at that moment).

The button's ``custom_id`` is ``dma:<table>``, matched by the persistent
:class:`AnalysisItem`, so it keeps working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from bot.core import ANALYSIS_PATTERN, AnalysisPress, Manager, Refusal, encode_analysis
from bot.present.analysis import analysis_button, analysis_picture, analysis_text
from bot.present.replies import refused

__all__ = [
    "AnalysisDesk",
    "AnalysisItem",
    "analysis_item",
    "analysis_view",
]

PICTURE_FILE: Final = "jugada.png"


class AnalysisItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANALYSIS_PATTERN):
    """The analysis button of any hand's result; :func:`analysis_item` binds its presses."""

    def __init__(self, press: AnalysisPress, label: str = "?") -> None:
        custom_id = encode_analysis(press.table_id, press.hand)
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, emoji="🔍"))
        self.press = press

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AnalysisItem:
        hand = match["hand"]
        return cls(AnalysisPress(match["table"], int(hand) if hand else None))


OnAnalysisPress = Callable[[discord.Interaction[Any], AnalysisPress], Awaitable[None]]


def analysis_item(on_press: OnAnalysisPress) -> type[AnalysisItem]:
    """The :class:`AnalysisItem` whose presses go to ``on_press``."""

    class BoundAnalysisItem(AnalysisItem, template=ANALYSIS_PATTERN):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await on_press(interaction, self.press)

    return BoundAnalysisItem


def analysis_view(table_id: str, hand: int, language: str) -> discord.ui.View:
    """The button under the result of hand number ``hand``."""
    view = discord.ui.View(timeout=None)
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=analysis_button(language)[:80],
        custom_id=encode_analysis(table_id, hand),
        emoji="🔍",
    )
    view.add_item(button)
    view.stop()  # answered by AnalysisItem, not by this view
    return view


class AnalysisDesk:
    """Answers the analysis buttons.

    Args:
        manager: the table manager (its ``analyze`` runs the search off the loop).
        render_board: the board picture (``render.board_png``).
    """

    def __init__(self, manager: Manager, render_board: Callable[..., bytes]) -> None:
        self.manager = manager
        self._render_board = render_board

    async def on_press(self, interaction: discord.Interaction[Any], press: AnalysisPress) -> None:
        """The presser's analysis of the button's hand, in a message only they see."""
        from bot.discord.replies import player_of  # replies -> port -> this module

        await interaction.response.defer(ephemeral=True, thinking=True)
        player = player_of(interaction)
        found = await self.manager.analyze(player, None, press.table_id, press.hand)
        if isinstance(found, Refusal):
            await interaction.followup.send(refused(found, player.language), ephemeral=True)
            return
        text = analysis_text(found, player.language)
        picture = analysis_picture(found, player.language)
        if picture is None:
            await interaction.followup.send(text, ephemeral=True)
            return
        png = await asyncio.to_thread(self._render_board, *picture)
        file = discord.File(io.BytesIO(png), PICTURE_FILE)
        await interaction.followup.send(text, file=file, ephemeral=True)
