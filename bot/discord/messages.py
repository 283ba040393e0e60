"""Texts and embeds of the Discord front end built from the core's and present's facts.

Only Discord chrome is phrased here (embeds, the help, the ranking); what happened and
why, partnership names and the rule set are phrased by :mod:`bot.present`.
"""

from __future__ import annotations

import discord

from bot.core import ChatRef, ChatRulesInfo, TableChanged, YourTiles
from bot.discord.i18n import texts
from bot.present.labels import preset_label, rating_text, rules_text, team_names
from storage.base import PlayerStats, RankRow

__all__ = [
    "board_embed",
    "help_text",
    "place_name",
    "rules_embed",
    "stats_lines",
    "tiles_content",
    "top_embed",
]


def board_embed(event: TableChanged, language: str) -> discord.Embed:
    """The short text under the board: table, phase, whose turn and time left, score."""
    _ = texts(language)
    preset = preset_label(event.rules.preset_name, language) if event.rules.preset_name else ""
    preset = preset or _("custom rules")
    embed = discord.Embed(
        title=_("Table {label} · {preset}", label=event.label, preset=preset),
        colour=discord.Colour.dark_green(),
    )
    when = f"<t:{int(event.deadline)}:R>" if event.deadline is not None else ""
    seats = event.seats
    if event.phase == "waiting":
        free = sum(1 for seat in seats if seat.is_open)
        description = _.ngettext(
            "Waiting for players: {n} free seat.", "Waiting for players: {n} free seats.", free
        )
        if when:
            description += " " + _("Robots fill the table {when}.", when=when)
    elif event.phase == "countdown":
        description = _("The match starts {when}.", when=when or "…")
    elif event.phase == "playing":
        if event.turn is not None:
            description = _("{name} to play", name=seats[event.turn].name or "·")
            if when:
                description += f" · {when}"
        else:
            description = _("Hand {number}", number=event.hand_number)
    else:
        description = _("The match is over.")
    embed.description = description
    lines = []
    for seat in seats:
        if seat.is_open:
            name = _("(free)")
            if seat.reserved_for is not None:
                name = _("(for {name})", name=seat.reserved_for.display_name)
        else:
            name = seat.name
            if seat.away:
                name += " " + _("(away)")
        lines.append(f"{seat.seat + 1}. {name}")
    embed.add_field(name=_("Seats"), value="\n".join(lines), inline=True)
    if event.view is not None:
        score = event.view.match_score if event.view.outcome is not None else event.view.score
        embed.add_field(
            name=_("Score (to {target})", target=event.rules.target),
            value=(
                f"{team_names(seats, 0, language)}: **{score[0]}**\n"
                f"{team_names(seats, 1, language)}: **{score[1]}**"
            ),
            inline=True,
        )
    embed.set_footer(text=_("Stake: ${stake}", stake=event.rules.stake))
    return embed


def rules_embed(title: str, info: ChatRulesInfo, language: str) -> discord.Embed:
    """The server's rule set as an embed (``/domino reglas``), worded as on every platform."""
    return discord.Embed(
        title=title,
        description=rules_text(info.rules, info.preset, info.overrides, language),
        colour=discord.Colour.dark_green(),
    )


def stats_lines(balance: int, stats: PlayerStats, language: str) -> list[str]:
    """``/domino saldo``: the balance, then the statistics once a match was played."""
    _ = texts(language)
    lines = [_("Your balance: ${balance}", balance=balance)]
    if stats.matches_played:
        lines.append(
            _(
                "Matches: {matches} · won: {won} · hands won: {hands} · dominoes: {dominoes} · capicúas: {capicuas}",
                matches=stats.matches_played,
                won=stats.matches_won,
                hands=stats.hands_won,
                dominoes=stats.dominoes,
                capicuas=stats.capicuas,
            )
        )
    return lines


def top_embed(rows: list[RankRow], by: str, language: str) -> discord.Embed:
    """``/domino top``: the ranking by balance or by rating (``rows`` not empty)."""
    _ = texts(language)
    title = (
        _("Best rating in this server") if by == "rating" else _("Richest players in this server")
    )
    lines = [
        f"{n}. {row.display_name} — "
        + (rating_text(float(row.value), language) if by == "rating" else f"${row.value}")
        + " · "
        + _.ngettext("{n} match", "{n} matches", row.matches)
        for n, row in enumerate(rows, 1)
    ]
    return discord.Embed(title=title, description="\n".join(lines), colour=discord.Colour.gold())


def help_text(language: str) -> str:
    """``/domino ayuda``."""
    _ = texts(language)
    return "\n".join(
        [
            _("**Dominoes for four, in two partnerships.**"),
            _("`/domino jugar`: sit at a table now (robots fill it after two minutes)."),
            _("`/domino mesa`: open a table choosing the rules, your partner and opponents."),
            _("`/domino robots`: fill the free seats with robots now."),
            _("`/domino fichas`: see your tiles here; they also come by DM each turn."),
            _("`/domino salir`: leave your table (a robot plays for you)."),
            _("`/domino saldo`, `/domino top`, `/domino historial`: money, rankings, records."),
            _("`/domino reglas`: this server's rules; admins change them with `/domino-config`."),
        ]
    )


def place_name(client: discord.Client, chat: ChatRef) -> str:
    """ "Server · #channel" for a chat (ids when the bot cannot see them)."""
    guild = client.get_guild(int(chat.chat_id)) if chat.chat_id.isdigit() else None
    name = guild.name if guild is not None else chat.chat_id
    if chat.channel_id is not None and guild is not None:
        channel = guild.get_channel(int(chat.channel_id))
        if channel is not None:
            return f"{name} · #{channel.name}"
    return name


def tiles_content(event: YourTiles, place: str) -> str:
    """The text of a tiles message: whose turn, at which table and where."""
    _ = texts(event.to.language)
    label = event.label or event.table_id
    if not event.is_your_turn:
        return _("Your tiles at table {label} ({place}).", label=label, place=place)
    if event.deadline is None:
        return _("Your turn at table {label} ({place}).", label=label, place=place)
    return _(
        "Your turn at table {label} ({place}): move {when}.",
        label=label,
        place=place,
        when=f"<t:{int(event.deadline)}:R>",
    )
