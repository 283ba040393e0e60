"""Player-facing text from gettext message catalogs (design.md, "Speak the player's language").

Catalogs are ``.po`` files read with Babel at run time (no compile step):
``bot/locales/<lang>/LC_MESSAGES/<domain>.po``. Languages: ``es`` (the default) and
``en``. Domains: ``core`` (the presentation layer's shared phrases, terminal), ``telegram``
and ``discord`` (each front end's platform chrome). Message ids are English sentences with ``{name}``
placeholders; a message missing from a catalog falls back to its id.

    _ = translator("es")
    _("Your turn: {seconds} s", seconds=45)   # -> "Tu turno: 45 s"
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LEVEL_NAMES",
    "LOCALES_DIR",
    "Translator",
    "emote_label",
    "language_of",
    "level_label",
    "refusal_text",
    "translator",
]

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("es", "en")
DEFAULT_LANGUAGE = "es"
LOCALES_DIR = Path(__file__).parent.parent / "locales"

Translator = Callable[..., str]


def N_(msgid: str) -> str:
    return msgid


def language_of(language: str | None) -> str:
    """A platform locale (``"es-419"``, ``"en_US"``, None) as one of :data:`LANGUAGES`."""
    if not language:
        return DEFAULT_LANGUAGE
    code = language.strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@lru_cache(maxsize=32)
def _catalog(language: str, domain: str) -> Mapping[str, str]:
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    out: dict[str, str] = {}
    for message in catalog:
        msgid, text = message.id, message.string
        usable = isinstance(msgid, str) and isinstance(text, str) and not message.fuzzy
        if usable and msgid and text:
            out[str(msgid)] = str(text)
    return out


class _Format(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@lru_cache(maxsize=32)
def translator(
    language: str | None, domain: str = "core", fallback: str | None = None
) -> Translator:
    """A gettext-like function for ``language`` (normalised; unknown -> Spanish).

    The function takes a message id and ``{name}`` parameters: ``_(msgid, **params)``;
    a missing parameter is left as ``{name}`` rather than raising. A message id missing
    from ``domain``'s catalog is looked up in ``fallback``'s (a front end's catalog over
    ``core``: a shared phrase keeps its one home), then falls back to itself.
    """
    catalog = _catalog(language_of(language), domain)
    if fallback is not None and fallback != domain:
        catalog = {**_catalog(language_of(language), fallback), **catalog}

    def gettext(msgid: str, **params: Any) -> str:
        text = catalog.get(msgid, msgid)
        if not params:
            return text
        try:
            return text.format_map(_Format(params))
        except (ValueError, IndexError):  # a broken translation must not break a table
            log.warning("bad catalog entry for %r", msgid)
            return msgid.format_map(_Format(params))

    return gettext


EMOTE_LABELS: dict[str, str] = {
    "buena": N_("Good one!"),
    "gracias": N_("Thanks, partner"),
    "rapido": N_("Hurry up, please"),
    "ups": N_("Oops, my mistake"),
    "jaja": N_("Haha"),
    "pensando": N_("Give me a moment"),
    "capicua": N_("Capicúa!"),
    "hola": N_("Hello, table"),
}
"""Emote names (rules.md, "Emotes") and their message ids."""

EMOTE_NAMES_EN: dict[str, str] = {
    "buena": "nice",
    "gracias": "thanks",
    "rapido": "hurry",
    "ups": "oops",
    "jaja": "haha",
    "pensando": "thinking",
    "capicua": "capicua",
    "hola": "hello",
}
"""The emotes' English names (what an English-speaking player types), by Spanish name."""

_EMOTES_BY_ENGLISH = {english: name for name, english in EMOTE_NAMES_EN.items()}


def emote_names(language: str | None) -> list[str]:
    """The emotes' names as a player of ``language`` types them, in :data:`EMOTE_LABELS` order."""
    if language == "en":
        return [EMOTE_NAMES_EN[name] for name in EMOTE_LABELS]
    return list(EMOTE_LABELS)


def emote_from_input(word: str) -> str:
    """The emote's (Spanish) name for a typed name in either language; ``word`` if unknown.

    Case and accents are ignored: ``"Rápido"``, ``"hurry"`` and ``"rapido"`` are all
    ``"rapido"``.
    """
    key = word.strip().lower().translate(_PLAIN)
    return _EMOTES_BY_ENGLISH.get(key, key)


_PLAIN = str.maketrans("áéíóúü", "aeiouu")


def emote_label(name: str, language: str | None) -> str:
    """The emote's text in ``language`` (the name itself for an unknown emote)."""
    msgid = EMOTE_LABELS.get(name)
    return translator(language)(msgid) if msgid else name


LEVEL_NAMES: dict[str, str] = {
    "novato": N_("Beginner"),
    "aprendiz": N_("Apprentice"),
    "jugador": N_("Player"),
    "experto": N_("Expert"),
    "maestro": N_("Master"),
}


def level_label(level: str | None, language: str | None) -> str:
    """A robot's name at the table, e.g. ``"Robot (Experto)"``."""
    _ = translator(language)
    if level is None or level not in LEVEL_NAMES:
        return _("Robot")
    return _("Robot ({level})", level=_(LEVEL_NAMES[level]))


REFUSALS: dict[str, str] = {
    "forged": N_("That button is not valid."),
    "table_gone": N_("That table has ended."),
    "not_seated": N_("You are not seated at that table."),
    "no_table": N_("You have no table here."),
    "which_table": N_("There are several tables here ({labels}); say which one."),
    "stale": N_("That button is out of date; use the latest one."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_move": N_("That move is not allowed now."),
    "robot_playing": N_("A robot is playing for you; come back first."),
    "seat_taken": N_("That seat is taken."),
    "seat_reserved": N_("That seat is reserved for another player."),
    "bad_seat": N_("There is no such seat."),
    "table_full": N_("That table is full."),
    "already_seated": N_("You already have a seat at table {label} here."),
    "already_started": N_("That match has already started."),
    "not_started": N_("The match has not started yet."),
    "insufficient_funds": N_(
        "You need ${stake} to sit down and you have ${balance}. Your balance is topped up to $100 at most once every 24 hours."
    ),
    "emote_too_soon": N_("Wait {wait_seconds} s before the next emote."),
    "unknown_emote": N_("Unknown emote. Emotes: {emotes}."),
    "not_away": N_("You are at your seat already."),
    "too_late": N_("More than 5 minutes passed: your seat stays with the robot."),
    "not_admin": N_("Only the chat's administrators can change its rules."),
    "bad_rules": N_("Option {option} must be one of: {allowed}."),
    "rules_locked": N_("This chat's admins fixed the rules; you can only change the turn timers."),
    "unknown_level": N_("Unknown robot level. Levels: {levels}."),
    "not_ended": N_("That match has not ended yet."),
    "wrong_platform": N_("That table is on another platform."),
    "shutting_down": N_("The bot is restarting; try again in a moment."),
}
"""Each refusal reason (``bot.core.RefusalReason``) and its message id."""

UNKNOWN_TABLE = N_("That table does not exist.")
"""``table_gone`` for an id the core does not know (``unknown``): it never ended."""


def refusal_text(reason: str, params: Mapping[str, Any], language: str | None) -> str:
    """A refusal as a sentence in ``language``."""
    _ = translator(language)
    msgid = REFUSALS.get(reason)
    if reason == "table_gone" and params.get("unknown"):
        msgid = UNKNOWN_TABLE
    if msgid is None:
        return _("That cannot be done now.")
    return _(msgid, **dict(params))
