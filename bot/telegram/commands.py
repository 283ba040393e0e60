"""The bot's commands: Spanish names with English aliases, menus, and argument reading.

Every command has a Spanish name (shown in the Spanish menu) and, where the word differs,
an English alias (shown in the English menu); both are always handled. Arguments are
read here into plain values; whether they make a valid rule set is the engine's business
(``engine.rules``), and the table manager's to apply them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from telegram import BotCommand

from bot.present.i18n import N_, language_of, translator
from bot.present.labels import (
    NOTIFICATIONS_CHOICE,
    SLOW_WORDS,
    TABLE_FORMAT_OPTIONS,
    format_from_input,
    language_from_input,
    option_from_input,
    preset_from_input,
    value_from_input,
)
from bot.present.standings import period_from_input
from engine.rules import OPTION_VALUES, SLOW_PACE_SECONDS
from storage.ratings import SeasonPeriod

__all__ = [
    "COMMANDS",
    "FRIEND_ACTIONS",
    "MODERATION_ACTIONS",
    "POSITIONS",
    "TOURNAMENT_ACTIONS",
    "UNMUTE_WORDS",
    "CommandSpec",
    "TableArgs",
    "bot_commands",
    "command_names",
    "command_word",
    "help_command",
    "read_table_args",
]


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One command.

    Attributes:
        key: the handler's name in :class:`bot.telegram.handlers.Commands`.
        spanish: the Spanish name (without the slash).
        english: the English alias (same as ``spanish`` when the word is the same).
        description: the menu line (an English message id of the ``telegram`` catalog).
        in_menu: listed with setMyCommands.
        aliases: older names still understood, never listed (``/salir`` for leaving:
            glossary.md keeps *salir* for leading a hand).
    """

    key: str
    spanish: str
    english: str
    description: str
    in_menu: bool = True
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.spanish, self.english, *self.aliases)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("play", "jugar", "play", N_("Sit at a table now")),
    CommandSpec("table", "mesa", "table", N_("Open a table: preset, options, seats")),
    CommandSpec("challenge", "reto", "challenge", N_("Challenge a player to one against one")),
    CommandSpec("tables", "mesas", "tables", N_("Your tables and whose turn it is")),
    CommandSpec("robots", "robots", "robots", N_("Fill the free seats with robots now")),
    CommandSpec("leave", "levantarse", "leave", N_("Leave your table"), aliases=("salir",)),
    CommandSpec("tiles", "fichas", "tiles", N_("Send me my tiles again")),
    CommandSpec("back", "volver", "back", N_("Take your seat back from the robot")),
    CommandSpec("balance", "saldo", "balance", N_("Your balance")),
    CommandSpec("top", "top", "top", N_("Top lists: rating, season, balance, pairs")),
    CommandSpec("profile", "perfil", "profile", N_("Your profile and rating")),
    CommandSpec("notifications", "avisos", "notifications", NOTIFICATIONS_CHOICE),
    CommandSpec(
        "analysis", "analisis", "analysis", N_("What should I have played? (your last hand)")
    ),
    CommandSpec(
        "tournament", "torneo", "tournament", N_("The group's tournament: see it, sign up")
    ),
    CommandSpec("friend", "amigo", "friend", N_("Friends: add, accept, remove, invite")),
    CommandSpec("friends", "amigos", "friends", N_("Your friends and where they play")),
    CommandSpec(
        "mute", "silenciar", "mute", N_("Mute a player: their phrases no longer reach you")
    ),
    CommandSpec("report", "reportar", "report", N_("Report a player to this group's admins")),
    CommandSpec("rules", "reglas", "rules", N_("This chat's rules")),
    CommandSpec("config", "config", "config", N_("Choose this chat's rules (admins)")),
    CommandSpec(
        "close", "cerrar", "close", N_("Close a stuck table now, stakes refunded (admins)")
    ),
    CommandSpec(
        "moderate", "moderar", "moderate", N_("Reports, bans and flags of this group (admins)")
    ),
    CommandSpec("history", "historial", "history", N_("Your last match record (JSON)")),
    CommandSpec(
        "link", "vincular", "link", N_("Link your Telegram and Discord accounts: one player")
    ),
    CommandSpec("unlink", "desvincular", "unlink", N_("Unlink this account from your Discord one")),
    CommandSpec("help", "ayuda", "help", N_("How to play")),
    CommandSpec("start", "start", "start", N_("Start"), in_menu=False),
)
"""Every command, in menu order."""


TOURNAMENT_ACTIONS: dict[str, str] = {
    "crear": "create",
    "create": "create",
    "abrir": "create",
    "unirme": "join",
    "entrar": "join",
    "join": "join",
    "salir": "leave",
    "dejar": "leave",
    "leave": "leave",
    "empezar": "start",
    "start": "start",
    "cancelar": "cancel",
    "cancel": "cancel",
}
"""What follows ``/torneo``: a word in Spanish or English -> what it does."""

UNMUTE_WORDS: frozenset[str] = frozenset({"quitar", "no", "off", "unmute"})
"""``/silenciar quitar @ana``: hear them again."""

MODERATION_ACTIONS: dict[str, str] = {
    "descartar": "dismiss",
    "dismiss": "dismiss",
    "vetar": "ban",
    "ban": "ban",
    "perdonar": "unban",
    "desvetar": "unban",
    "unban": "unban",
}
"""What follows ``/moderar``: a word in Spanish or English -> what it does."""


FRIEND_ACTIONS: dict[str, str] = {
    "agregar": "ask",
    "añadir": "ask",
    "pedir": "ask",
    "add": "ask",
    "aceptar": "accept",
    "accept": "accept",
    "rechazar": "decline",
    "decline": "decline",
    "quitar": "remove",
    "borrar": "remove",
    "eliminar": "remove",
    "remove": "remove",
    "invitar": "invite",
    "invite": "invite",
}
"""What follows ``/amigo``: a word in Spanish or English -> what it does (without one,
``/amigo @name`` sends a friend request)."""


def command_word(key: str, language: str | None) -> str:
    """A command as the menu of ``language`` names it: ``/ayuda``, ``/help``."""
    spec = next(spec for spec in COMMANDS if spec.key == key)
    return "/" + (spec.english if language_of(language) == "en" else spec.spanish)


def help_command(language: str | None) -> str:
    """The help command as the menu of ``language`` names it: ``/ayuda``, ``/help``."""
    return command_word("help", language)


def command_names() -> dict[str, str]:
    """Every accepted name (Spanish and English) -> its command key."""
    return {name: spec.key for spec in COMMANDS for name in spec.names}


def bot_commands(language: str) -> list[BotCommand]:
    """The menu for ``language`` (``"es"``: Spanish names; ``"en"``: English aliases).
    A line shared with the other platforms is read from the ``core`` catalog."""
    _ = translator(language, "telegram", "core")
    return [
        BotCommand(spec.english if language == "en" else spec.spanish, _(spec.description))
        for spec in COMMANDS
        if spec.in_menu
    ]


POSITIONS: dict[str, str] = {
    "derecha": "right",
    "right": "right",
    "enfrente": "across",
    "frente": "across",
    "companero": "across",
    "compañero": "across",
    "across": "across",
    "partner": "across",
    "izquierda": "left",
    "left": "left",
}
"""Words naming the seats around the player who opens a table (rules.md: the seat on the
right plays next, the partner sits across)."""


@dataclass
class TableArgs:
    """Arguments of ``/mesa`` or ``/config``.

    Attributes:
        preset: a preset name as typed (normalised to lower case), or None.
        overrides: option name -> value (ints where the text is a number).
        seats: ``"right"``/``"across"``/``"left"`` -> a robot level ("" for the default
            level) for seats given to robots.
        errors: the words that could not be read (tell the player; change nothing).
        typed: option name -> the word as typed (``"meta=7"``), to name it in a refusal.
        language: the group language asked for (``idioma=en``; /config only), or None.
        season: the season length asked for (``temporada=semanal``; /config only), or None.
    """

    preset: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    typed: dict[str, str] = field(default_factory=dict)
    language: str | None = None
    season: SeasonPeriod | None = None


SEASON_WORDS = ("temporada", "season")
"""The /config word naming the season length (``temporada=semanal``, ``season=weekly``)."""


def read_table_args(args: list[str], *, seats: bool = True) -> TableArgs:
    """Read words like ``internacional meta=200 derecha=robot enfrente=robot:maestro``.

    A word without ``=`` is the preset or a format (``1v1``, ``cubano``; ``robot`` alone
    puts robots in every open seat);
    ``option=value`` sets an option, its name and word values in Spanish or English
    (:func:`bot.present.labels.option_from_input`: ``meta=200``, ``conteo=todos``,
    ``target=200``); with ``seats``, ``derecha|enfrente|izquierda=robot[:level]`` gives
    that seat to a robot; without ``seats`` (/config), ``idioma=en`` sets the group's
    language and ``temporada=semanal|mensual|trimestral`` its season length.
    """
    out = TableArgs()
    for word in args:
        word = word.strip()
        if not word:
            continue
        name, sep, value = word.partition("=")
        key = name.strip().lower()
        if not sep:
            preset = preset_from_input(key) or format_from_input(key)  # "" partnerships
            if preset is not None and out.preset is None:
                out.preset = preset or None
            elif seats and key in SLOW_WORDS:  # a slow table, unless tiempo= says its time
                out.overrides.setdefault("turn_seconds", SLOW_PACE_SECONDS)
            elif seats and key in ("robot", "robots"):
                for position in ("right", "across", "left"):
                    out.seats.setdefault(position, "")
            else:
                out.errors.append(word)
            continue
        value = value.strip()
        if seats and key in POSITIONS:
            robot, _, level = value.lower().partition(":")
            if robot in ("robot", "bot"):
                out.seats[POSITIONS[key]] = level
            else:
                out.errors.append(word)
            continue
        if not seats and key in SEASON_WORDS:
            period = period_from_input(value)
            if period is None:
                out.errors.append(word)
            else:
                out.season = period
            continue
        option = option_from_input(key)
        if option == "language" and not seats and language_from_input(value):
            out.language = language_from_input(value)
        elif (option in OPTION_VALUES or (seats and option in TABLE_FORMAT_OPTIONS)) and value:
            out.overrides[option] = value_from_input(value)
            out.typed[option] = word
        else:
            out.errors.append(word)
    return out
