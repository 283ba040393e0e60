"""Discord front end (issue 8): ``/domino`` slash commands, a board message per table,
tiles by DM, buttons that survive restarts. Thin: the table manager decides everything.

Inside this package ``import discord`` is discord.py (imports are absolute).
"""

from __future__ import annotations

from bot.discord.frontend import DiscordFrontEnd, DominoBot, intents

__all__ = ["DiscordFrontEnd", "DominoBot", "intents"]
