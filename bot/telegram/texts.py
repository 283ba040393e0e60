"""The Telegram front end's own sentences: the help listing its commands.

Everything else a player reads (captions, results, rules, labels) comes from
:mod:`bot.present`; the phrases here are Telegram chrome, in the ``telegram`` catalog.
"""

from __future__ import annotations

from bot.present.i18n import translator

__all__ = ["help_text"]


def help_text(language: str) -> str:
    _ = translator(language, "telegram")
    return _(
        "Dominoes for four, two partnerships.\n"
        "/jugar sits you at a table of this group; robots fill the empty seats after 2 minutes "
        "(or at once with /robots).\n"
        "Your tiles come in a private chat with me, with one button per move you can play.\n"
        "/mesa opens a table: a preset, options like meta=200, and seats like "
        "derecha=robot enfrente=robot:maestro (reply to someone's message to invite them as "
        "your partner).\n"
        "/levantarse gets you up from the table; /volver takes your seat back from the robot "
        "within 5 minutes.\n"
        "/saldo, /top, /reglas, /historial. Admins choose the rules with /config and close a "
        "stuck table with /cerrar."
    )
