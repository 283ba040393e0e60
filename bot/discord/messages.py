"""Texts and embeds of the Discord front end built from the core's and present's facts.

Only Discord chrome is phrased here (embeds, the help); what happened and
why, partnership names and the rule set are phrased by :mod:`bot.present`.
"""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.core import (
    ChatRef,
    ChatRulesInfo,
    HouseTimes,
    Refusal,
    RefusalReason,
    TableChanged,
    YourTiles,
)
from bot.discord.i18n import texts
from bot.present.i18n import whole_minutes
from bot.present.labels import preset_label, rules_text, team_names
from bot.present.replies import formats_help, refused
from bot.present.screens import challenge_lines
from storage.base import PlayerStats

__all__ = [
    "PLATFORM",
    "board_embed",
    "help_text",
    "not_admin_text",
    "place_name",
    "refusal_content",
    "rules_embed",
    "stats_lines",
    "tiles_content",
    "turn_ping",
    "unknown_command_text",
]

PLATFORM = "discord"
"""The platform name of Discord's players and chats for the core."""


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
    if event.challenge:  # who challenges whom; the embed's live timestamp says the time
        description = challenge_lines(replace(event, seconds_left=None), language)[0]
        if when:
            description += " " + _("It expires {when}.", when=when)
    elif event.phase == "waiting":
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
        partnership = event.rules.partnership  # a side is one seat in individual play
        embed.add_field(
            name=_("Score (to {target})", target=event.rules.target),
            value="\n".join(
                f"{team_names(seats, side, language, partnership=partnership)}: **{points}**"
                for side, points in enumerate(score)
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


def help_text(language: str, times: HouseTimes) -> str:
    """``/domino ayuda``; the house's times (seconds) said in minutes."""
    _ = texts(language)
    return "\n".join(
        [
            _("**Dominoes for four, in two partnerships.**"),
            _(
                "`/domino jugar`: sit at a table now (robots fill it after {minutes} min).",
                minutes=whole_minutes(times.fill_seconds),
            ),
            _("`/domino mesa`: open a table choosing the rules, your partner and opponents."),
            formats_help(language, "`/domino jugar formato:`"),
            _("`/domino robots`: fill the free seats with robots now."),
            _("`/domino fichas`: see your tiles here; they also come by DM each turn."),
            _(
                "`/domino levantarse`: leave your table (in a started match your stake is lost "
                "and a robot plays your seat to the end)."
            ),
            _("`/domino saldo`, `/domino top`, `/domino historial`: money, rankings, records."),
            _("`/domino perfil`: your rating, statistics and partners (or a member's)."),
            _("`/domino avisos`: a notification on each of your turns, or none."),
            _("`/domino reglas`: this server's rules; admins change them with `/domino-config`."),
            _("`/domino-cerrar`: admins close a stuck table now; every stake is refunded."),
            _(
                "`/domino-torneo`: the server's tournament: see it, sign up (`unirme`); admins "
                "open (`crear`), start and cancel it."
            ),
        ]
    )


def refusal_content(refusal: Refusal, language: str) -> str:
    """A refusal as said on Discord: the presentation layer's sentence, the other table
    of the server named by a link to its channel, and a server's admins called so."""
    if refusal.reason is RefusalReason.NOT_ADMIN:
        return not_admin_text(language)
    where = refusal.params.get("thread_id") or refusal.params.get("channel_id")
    return refused(refusal, language, place=f"<#{where}>" if where else "")


def not_admin_text(language: str) -> str:
    """Who may change a server's rules (a server, not a chat, on Discord)."""
    return texts(language)(
        "Only this server's administrators (Manage Server) can change its rules."
    )


def close_not_admin_text(language: str) -> str:
    """Who may close a server's table."""
    return texts(language)(
        "Only this server's administrators (Manage Server) can close its tables."
    )


def unknown_command_text(language: str) -> str:
    """The answer to a command Discord still shows but this bot no longer has."""
    return texts(language)(
        "That command no longer exists (the bot was updated). `/domino help` lists the "
        "current ones; Discord may take a minute to refresh its menu."
    )


def place_name(client: discord.Client, chat: ChatRef) -> str:
    """ "Server · #channel" for a chat, "Server · #channel › thread" for a table in a
    thread or a forum post (ids when the bot cannot see them)."""
    guild = client.get_guild(int(chat.chat_id)) if chat.chat_id.isdigit() else None
    name = guild.name if guild is not None else chat.chat_id
    where = chat.thread_id or chat.channel_id
    if where is None or guild is None or not where.isdigit():
        return name
    channel = guild.get_channel_or_thread(int(where))
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        return f"{name} · #{parent.name} › {channel.name}" if parent else f"{name} · {channel.name}"
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


def turn_ping(event: YourTiles, mention: str) -> str:
    """The channel's "your turn" for a member whose DMs are closed (``mention`` them), in
    the chat's language (everyone there reads it)."""
    _ = texts(event.chat.language)
    label = event.label or event.table_id
    if event.deadline is None:
        return _(
            "{mention}, your turn at table {label}. Your direct messages are closed: press "
            "“My tiles” to see your tiles here.",
            mention=mention,
            label=label,
        )
    return _(
        "{mention}, your turn at table {label}: move {when}. Your direct messages are closed: "
        "press “My tiles” to see your tiles here.",
        mention=mention,
        label=label,
        when=f"<t:{int(event.deadline)}:R>",
    )
