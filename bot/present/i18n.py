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

import datetime as dt
import gettext
import logging
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.dates import format_timedelta
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LEVEL_NAMES",
    "LOCALES_DIR",
    "Translator",
    "emote_label",
    "isolate",
    "language_of",
    "level_label",
    "refusal_text",
    "time_ago_text",
    "time_left_text",
    "translator",
    "whole_minutes",
]

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("es", "en")
DEFAULT_LANGUAGE = "es"
LOCALES_DIR = Path(__file__).parent.parent / "locales"


def N_(msgid: str) -> str:
    return msgid


def language_of(language: str | None) -> str:
    """A platform locale (``"es-419"``, ``"en_US"``, None) as one of :data:`LANGUAGES`."""
    if not language:
        return DEFAULT_LANGUAGE
    code = language.strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


PluralEntry = tuple[str, ...]
"""A plural message's forms, as the catalog's ``msgstr[0]``, ``msgstr[1]``..."""


@dataclass(frozen=True)
class _Catalog:
    """One ``.po`` file: singular messages, plural messages (by their singular id) and
    the plural rule of its ``Plural-Forms`` header (``n`` -> index of the form)."""

    messages: Mapping[str, str]
    plurals: Mapping[str, PluralEntry]
    plural: Callable[[int], int]

    def __contains__(self, msgid: object) -> bool:
        return msgid in self.messages or msgid in self.plurals

    def __getitem__(self, msgid: str) -> str:
        """A message's text; for a plural message, its plural form."""
        if msgid in self.messages:
            return self.messages[msgid]
        return self.plurals[msgid][-1]


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


_EMPTY = _Catalog({}, {}, _english_plural)


@lru_cache(maxsize=32)
def _catalog(language: str, domain: str) -> _Catalog:
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return _EMPTY
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    out: dict[str, str] = {}
    plurals: dict[str, PluralEntry] = {}
    for message in catalog:
        if message.fuzzy or not message.id:
            continue
        if isinstance(message.id, (tuple, list)) and isinstance(message.string, (tuple, list)):
            forms = tuple(str(form) for form in message.string)
            if all(forms):
                plurals[str(message.id[0])] = forms
        elif isinstance(message.string, str) and message.string:
            out[str(message.id)] = message.string
    rule = gettext.c2py(catalog.plural_expr)
    return _Catalog(out, plurals, rule)


FSI, PDI = "\u2068", "\u2069"
"""Unicode's first-strong isolate and its end (UAX #9): text between them is laid out on
its own, in its own direction, and moves nothing around it."""

_BIDI_ACTIVE = frozenset({"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})

NAME_PARAMS = frozenset({"name", "who", "team", "names", "members", "group"})
"""The catalog parameters that carry a name a person chose (a player, a partnership, a
group's title): :func:`_format` passes each through :func:`isolate`."""


def isolate(name: str) -> str:
    """``name`` between bidi isolates (U+2068 … U+2069) when it holds right-to-left
    letters or direction controls, so an Arabic or Hebrew name keeps the sentence's
    colon and words where they belong; any other name unchanged (nothing to move).
    The one home for names put into sentences (every catalog ``{name}``, ``{who}``...).
    """
    if any(unicodedata.bidirectional(ch) in _BIDI_ACTIVE for ch in name):
        return FSI + name + PDI
    return name


class _Format(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """A gettext-like function for one language and catalog: ``_(msgid, **params)``;
    ``_.ngettext(singular, plural, n, **params)`` for a count (the catalog's plural forms,
    with ``{n}`` set to ``n`` unless given)."""

    def __init__(self, catalog: _Catalog, fallback: _Catalog | None = None) -> None:
        self._messages = dict(catalog.messages)
        self._plurals = dict(catalog.plurals)
        self._rule = catalog.plural
        if fallback is not None:
            self._messages = {**fallback.messages, **self._messages}
            self._plurals = {**fallback.plurals, **self._plurals}

    def __call__(self, msgid: str, **params: Any) -> str:
        return _format(msgid, self._messages.get(msgid, msgid), params)

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form of ``singular``/``plural`` for ``n`` in this language."""
        params.setdefault("n", n)
        forms = self._plurals.get(singular)
        if forms is None:
            return _format(singular, singular if n == 1 else plural, params)
        index = self._rule(n)
        text = forms[index] if 0 <= index < len(forms) else forms[-1]
        return _format(singular, text, params)


def _format(msgid: str, text: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    if not NAME_PARAMS.isdisjoint(params):
        params = {
            k: isolate(v) if k in NAME_PARAMS and isinstance(v, str) else v
            for k, v in params.items()
        }
    try:
        return text.format_map(_Format(params))
    except (ValueError, IndexError):  # a broken translation must not break a table
        log.warning("bad catalog entry for %r", msgid)
        return msgid.format_map(_Format(params))


@lru_cache(maxsize=32)
def translator(
    language: str | None, domain: str = "core", fallback: str | None = None
) -> Translator:
    """A gettext-like :class:`Translator` for ``language`` (normalised; unknown -> Spanish).

    The function takes a message id and ``{name}`` parameters: ``_(msgid, **params)``;
    a missing parameter is left as ``{name}`` rather than raising. A message id missing
    from ``domain``'s catalog is looked up in ``fallback``'s (a front end's catalog over
    ``core``: a shared phrase keeps its one home), then falls back to itself. Counts use
    ``_.ngettext(singular, plural, n, **params)``.
    """
    code = language_of(language)
    catalog = _catalog(code, domain)
    if fallback is not None and fallback != domain:
        return Translator(catalog, _catalog(code, fallback))
    return Translator(catalog)


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
    "jugador": N_("Intermediate"),
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
    "not_seated": N_("You have no seat at that table."),
    "no_table": N_("You have no table here."),
    "no_finished_hand": N_("No hand of yours has ended yet: ask again after this one."),
    "analysis_running": N_("Your analysis is on its way: it arrives in a few seconds."),
    "which_table": N_("There are several tables here ({labels}); say which one."),
    "stale": N_("That button is out of date; use the latest one."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_move": N_("That move is not allowed now."),
    "robot_playing": N_("A robot is playing for you; come back first."),
    "seat_taken": N_("That seat is taken."),
    "seat_reserved": N_("That seat is reserved for another player."),
    "not_challenged": N_("That challenge is for another player."),
    "challenge_waits": N_(
        "The seat is kept for the challenged player: no robot takes it until they answer."
    ),
    "bad_seat": N_("There is no such seat."),
    "table_full": N_("That table is full."),
    "already_seated": N_("You already have a seat at table {label} here."),
    "already_started": N_("That match has already started."),
    "not_started": N_("The match has not started yet."),
    "insufficient_funds": N_(
        "You need ${stake} to sit down and you have ${balance}. Your balance is topped up to $100 at most once every 24 hours."
    ),
    "emote_too_soon": N_("Wait {wait_seconds} s before the next phrase."),
    "no_tournament": N_("There is no tournament in this chat now."),
    "tournament_exists": N_("This chat already has a tournament: it ends or is cancelled first."),
    "tournament_started": N_("The tournament has started: sign-up is closed."),
    "tournament_full": N_("The tournament is full ({most} entrants)."),
    "already_signed": N_("You are already signed up for the tournament."),
    "not_signed": N_("You are not signed up for the tournament."),
    "bad_tournament": N_("{option} can be {allowed}."),
    "drawn_partners": N_(
        "Partners drawn each round are for a Swiss or an arena played in partnerships."
    ),
    "unknown_emote": N_("Unknown phrase. Phrases: {emotes}."),
    "not_away": N_("You are at your seat already."),
    "too_late": N_("More than {minutes} min passed: your seat stays with the robot."),
    "left_match": N_(
        "You left that match: your stake (${stake}) is forfeited and a robot plays your seat to the end."
    ),
    "not_admin": N_("Only the admins can change the rules."),
    "not_stuck": N_(
        "Table {label} is being played: an administrator can close a started match only when nothing has moved in it for {minutes} minutes."
    ),
    "admin_plays": N_(
        "You play at table {label} (or left its match): another administrator can close it, and only when it is stuck."
    ),
    "bad_rules": N_("{option} can be {allowed}."),
    "rules_locked": N_("The admins locked the rules; you can only change the turn timers."),
    "unknown_level": N_("Unknown robot level. Levels: {levels}."),
    "not_ended": N_("That match has not ended yet."),
    "wrong_platform": N_("That table is on another platform."),
    "shutting_down": N_("The bot is restarting; try again in a moment."),
    # friends (issue 33; docs/friends.md)
    "friend_self": N_("You cannot be your own friend."),
    "friend_unknown": N_(
        "{name} has not played with me yet: once they have, you can send them a request."
    ),
    "already_friends": N_("You and {name} are friends already."),
    "friend_request_waits": N_("You already asked {name}; wait for their answer."),
    "no_friend_request": N_("You have no friend request waiting from {name}."),
    "not_friends": N_("{name} is not on your friends list."),
    "friend_elsewhere": N_(
        "{name} has never played on this platform: I cannot keep them a seat here."
    ),
    "friend_at_table": N_("{name} already has a seat at your table."),
    "invite_waits": N_("A seat at your table waits for {name} already."),
    "invite_gone": N_("That invitation is no longer valid."),
    "invite_not_yours": N_("That invitation is for someone else."),
    "invite_expired": N_(
        "That invitation expired: the seat was kept for {minutes} min and is free again."
    ),
    "banned": N_("You are banned from the tables of this group."),
    "self_report": N_("You cannot do that to yourself."),
    "unknown_player": N_("I do not know that player: answer one of their messages or name them."),
    "already_reported": N_("You already reported {name}: the admins have your report."),
    "unknown_report": N_("There is no report number {number} in this group."),
    "report_closed": N_("Report number {number} was already dealt with."),
    "unknown_reason": N_("Say why: {reasons}."),
    "not_banned": N_("{name} is not banned here."),
    "link_unknown_code": N_(
        "That code does not exist: check it, or ask your other platform for a new one."
    ),
    "link_expired_code": N_("That code has expired: ask your other platform for a new one."),
    "link_used_code": N_("That code was used already: ask your other platform for a new one."),
    "link_same_platform": N_("That code was given on {platform}: enter it on your other platform."),
    "link_already_linked": N_("Your two accounts are linked already: they are one player."),
    "link_linked_elsewhere": N_(
        "One of the two accounts is linked to another {platform} account already: unlink it first."
    ),
    "link_money_held": N_(
        "You have a stake in play (a match or a tournament): link or unlink when it ends."
    ),
    "link_not_linked": N_("This account is not linked to another one."),
    "link_not_linkable": N_("Only Telegram and Discord accounts can be linked."),
    "link_seated": N_("You are sitting at a table: link or unlink when you leave it."),
}
"""Each refusal reason (``bot.core.RefusalReason``) and its message id."""

UNKNOWN_TABLE = N_("That table does not exist.")
"""``table_gone`` for an id the core does not know (``unknown``): it never ended."""


def time_left_text(seconds: float, language: str | None) -> str:
    """A slow table's time left for a sentence: "12 horas", "45 minutos" (Babel's
    ``format_timedelta``; rules.md, "Slow tables")."""
    return format_timedelta(
        dt.timedelta(seconds=max(0.0, seconds)), threshold=1.5, locale=language_of(language)
    )


def time_ago_text(seconds: float, language: str | None) -> str:
    """How long ago something was, for a sentence: "hace 5 minutos", "5 minutes ago"
    (Babel's ``format_timedelta`` with its direction)."""
    return format_timedelta(
        dt.timedelta(seconds=-max(1.0, seconds)),  # 0 would read as the future
        threshold=1.5,
        add_direction=True,
        locale=language_of(language),
    )


def whole_minutes(seconds: float) -> int:
    """A time for a sentence, in whole minutes (at least 1): the house's times come from
    its settings (``HouseTimes``), never written into a phrase."""
    return max(1, round(seconds / 60))


def refusal_text(reason: str, params: Mapping[str, Any], language: str | None) -> str:
    """A refusal as a sentence in ``language`` (a ``seconds`` parameter is said in
    ``minutes``)."""
    _ = translator(language)
    msgid = REFUSALS.get(reason)
    if reason == "table_gone" and params.get("unknown"):
        msgid = UNKNOWN_TABLE
    if msgid is None:
        return _("That cannot be done now.")
    if reason == "unknown_emote":  # the names this player types, not the core's keys
        params = {**params, "emotes": ", ".join(emote_names(language))}
    if "seconds" in params:
        params = {**params, "minutes": whole_minutes(float(params["seconds"]))}
    return _(msgid, **dict(params))
