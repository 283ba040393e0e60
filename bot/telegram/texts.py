"""The Telegram front end's own sentences: the help listing its commands, and the
season length /config reports.

Everything else a player reads (captions, results, rules, labels) comes from
:mod:`bot.present`; the phrases here are Telegram chrome, in the ``telegram`` catalog.
"""

from __future__ import annotations

from bot.core import HouseTimes
from bot.present.i18n import translator, whole_minutes
from bot.present.replies import formats_help
from bot.present.standings import PERIOD_LABELS
from bot.telegram.commands import command_word
from storage.ratings import SeasonPeriod

__all__ = ["help_text", "season_text"]


def help_text(language: str, times: HouseTimes) -> str:
    """/ayuda: what the bot does; the house's times (seconds) said in minutes."""
    _ = translator(language, "telegram")
    return (
        _(
            "Dominoes for four, two partnerships.\n"
            "/jugar sits you at a table of this group; robots fill the empty seats after {fill} "
            "min (or at once with /robots).\n"
            "Your tiles come in a private chat with me, with one button per move you can play.\n"
            "/mesa opens a table: a preset, options like meta=200, and seats like "
            "derecha=robot enfrente=robot:maestro (reply to someone's message to invite them as "
            "your partner).\n"
            "/levantarse gets you up from the table (leaving a started match loses your stake); "
            "/volver takes your seat back from the robot that took it after missed turns, within "
            "{back} min.\n"
            "/saldo, /top, /reglas, /historial. Admins choose the rules with /config and close a "
            "stuck table with /cerrar.",
            fill=whole_minutes(times.fill_seconds),
            back=whole_minutes(times.return_seconds),
        )
        + "\n"
        + formats_help(language, command_word("play", language))
        + "\n"
        + _(
            "/torneo shows the group's tournament; /torneo unirme signs you up. Admins open "
            "one with /torneo crear eliminatoria|suizo|arena cuota=10."
        )
        + "\n"
        + _(
            "/amigo @name sends a friend request; /amigo invitar @name keeps your friend a "
            "seat at your table for {invite} min; /amigos shows where your friends play.",
            invite=whole_minutes(times.invite_seconds),
        )
        + "\n"
        + _(
            "/silenciar (answering a player's message) hides their phrases from you; "
            "/reportar frases|nombre|abandono|perder|otro reports them to the admins, who "
            "see the reports with /moderar and ban with /moderar vetar N."
        )
        + "\n"
        + _(
            "/avisos ninguno: your turn messages come without a notification; /avisos en cada "
            "turno: with one (the default)."
        )
        + "\n\n"
        + _(
            "Ratings: /top shows the rating, season, balance and pairs lists; /perfil your "
            "profile (reply to someone's message for theirs).\n"
            "A rating moves only by the formula: robots count at a fixed rating per level; a "
            "seat a robot played most of the match takes the loss but never the win. It is "
            "provisional until 10 rated matches. Seasons are monthly (admins: /config "
            "temporada=semanal)."
        )
    )


def season_text(period: SeasonPeriod, language: str, *, changed: bool = False) -> str:
    """The chat's season length as /config says it (``changed``: just set)."""
    _ = translator(language, "telegram")
    label = translator(language)(PERIOD_LABELS[period])
    if changed:
        return _("Seasons in this group are {period} now.", period=label)
    return _("Seasons: {period} (/config temporada=semanal|mensual|trimestral).", period=label)
