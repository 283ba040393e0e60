"""Labels shared by every front end: seat and partnership names, moves, the score line,
the rule options and their values, presets by their names, and a chat's rule set (one
option a line); and the words players type for them, in Spanish and English.

Every label comes from the ``core`` message catalog; nothing here decides a rule: the
options and their allowed values are ``engine.rules``' (:data:`engine.rules.OPTION_VALUES`).
The words follow the glossary (shared docs, ``glossary.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from babel.numbers import format_percent

from bot.core.events import SeatInfo
from bot.present.i18n import N_, translator
from engine.moves import Move
from engine.rules import (
    EVERY_PRESET_NAME,
    FORMAT_OPTION_VALUES,
    FORMAT_PRESET_NAMES,
    OPTION_VALUES,
    PRESET_NAMES,
    OptionValue,
    Rules,
    preset_key,
)
from storage.base import NOTIFICATIONS

__all__ = [
    "BONEYARD_LABELS",
    "FORMAT_CHOICES",
    "FORMAT_LABELS",
    "FORMAT_WORDS",
    "KIND_LABELS",
    "KIND_WORDS",
    "LANGUAGE_LABELS",
    "NOTIFICATIONS_CHOICE",
    "NOTIFICATION_LABELS",
    "OPTION_LABELS",
    "OPTION_WORDS",
    "PARTNER_LABELS",
    "PARTNER_WORDS",
    "PLATFORM_NAMES",
    "PRESET_LABELS",
    "REPORT_ACTION_LABELS",
    "REPORT_REASON_LABELS",
    "REPORT_REASON_WORDS",
    "SIDE_MARKS",
    "SLOW_WORDS",
    "TABLE_FORMAT_OPTIONS",
    "TEAM_MARKS",
    "TOURNAMENT_OPTIONS",
    "VALUE_LABELS",
    "VALUE_WORDS",
    "TournamentWords",
    "allowed_text",
    "format_from_input",
    "format_label",
    "format_word",
    "friend_action_label",
    "join_label",
    "kept_seat_label",
    "kind_label",
    "language_from_input",
    "move_text",
    "notifications_from_input",
    "notifications_hint",
    "option_from_input",
    "option_label",
    "option_word",
    "platform_label",
    "preset_from_input",
    "preset_label",
    "rating_text",
    "report_action_label",
    "report_reason_from_input",
    "report_reason_label",
    "report_reason_words",
    "rules_text",
    "score_line",
    "seat_name",
    "team_names",
    "tournament_from_input",
    "tournament_kind_label",
    "tournament_option_word",
    "value_from_input",
    "value_label",
    "value_word",
]

PRESET_LABELS: Final[dict[str, str]] = {
    "venezolano": N_("Venezuelan"),
    "internacional": N_("International"),
    "espanol": N_("Spanish"),
    "dominicano": N_("Dominican"),
}
"""The presets (``engine.rules.PRESETS`` keys) by their names for people."""

FORMAT_LABELS: Final[dict[str, str]] = {
    "": N_("Partnerships"),
    "uno-contra-uno": N_("One against one"),
    "individual": N_("Individual play"),
    "cubano": N_("Cuban (double-nine)"),
}
"""The formats a player picks (:data:`FORMAT_CHOICES`) by their names for people:
``""`` the chat's own game in partnerships, then the format presets
(``engine.rules.FORMAT_PRESETS`` keys; glossary: uno contra uno, individual, doble nueve)."""

FORMAT_CHOICES: Final[tuple[str, ...]] = ("", *FORMAT_PRESET_NAMES)
"""The formats a player picks from when sitting down: ``""`` the chat's own game (in
partnerships unless its admins chose a format), then the format presets."""

OPTION_LABELS: Final[dict[str, str]] = {
    "target": N_("Match to"),
    "counting": N_("Points counted"),
    "first_starter": N_("Who leads the first hand"),
    "next_starter": N_("Who leads the next hands"),
    "blocked_winner": N_("Tranca won by"),
    "redeal_doubles": N_("Redeal on doubles"),
    "capicua_bonus": N_("Capicúa bonus"),
    "turn_seconds": N_("Seconds per turn"),
    "forced_move_seconds": N_("Auto-play a single legal move after"),
    "stake": N_("Stake ($)"),
}
"""The rule options' names for people (rules.md, "The options")."""

VALUE_LABELS: Final[dict[str, str]] = {
    "opponents": N_("the opponents'"),
    "all": N_("everyone's"),
    "double_six": N_("the double six"),
    "random": N_("at random"),
    "draw": N_("by draw"),
    "rotate": N_("the next player"),
    "winner": N_("the hand's winner"),
    "team": N_("the partnership with fewer pips"),
    "individual": N_("whoever holds the fewest pips"),
}
"""The word values of the options, for people (as the rule list shows them)."""

LANGUAGE_LABELS: Final[dict[str, str]] = {"es": "Español", "en": "English"}
"""The languages by their own names (the same in every language)."""

NOTIFICATIONS_CHOICE: Final = N_("A notification on each of your turns, or none")
"""What the turn notifications command does (its menu line on every platform)."""

NOTIFICATION_LABELS: Final[dict[str, str]] = {"turn": N_("every turn"), "none": N_("none")}
"""A player's turn notifications (``storage.base.NOTIFICATIONS``) as the choices name
them: a notifying message on each own turn, or none."""

OPTION_WORDS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "target": "meta",
        "counting": "conteo",
        "first_starter": "salida",
        "next_starter": "siguiente",
        "blocked_winner": "tranca",
        "redeal_doubles": "reparto",
        "capicua_bonus": "capicua",
        "turn_seconds": "tiempo",
        "forced_move_seconds": "automatica",
        "stake": "apuesta",
        "language": "idioma",
        "preset": "reglas",
        "format": "formato",
        "players": "jugadores",
        "boneyard": "pozo",
        "tile_set": "juego",
    },
    "en": {
        "target": "target",
        "counting": "counting",
        "first_starter": "first",
        "next_starter": "next",
        "blocked_winner": "tranca",
        "redeal_doubles": "redeal",
        "capicua_bonus": "capicua",
        "turn_seconds": "turn",
        "forced_move_seconds": "auto",
        "stake": "stake",
        "language": "language",
        "preset": "preset",
        "format": "format",
        "players": "players",
        "boneyard": "boneyard",
        "tile_set": "set",
    },
}
"""The word a player of each language types for an option (``meta=150``, ``target=150``)."""

BONEYARD_LABELS: Final[dict[str, str]] = {
    "draw": N_("draw from the boneyard"),
    "pass": N_("pass (nobody draws)"),
}
"""The ``boneyard`` option's values for people (rules.md, "The deal and the boneyard")."""

TABLE_FORMAT_OPTIONS: Final[tuple[str, ...]] = ("players", "boneyard", "tile_set")
"""The format options a player may type when opening a table (``/mesa individual
jugadores=3 pozo=robar``; ``engine.rules.FORMAT_OPTION_VALUES``)."""

_VALUE_WORDS_OF: Final[dict[tuple[str, str], dict[str, str]]] = {
    ("boneyard", "es"): {"draw": "robar"},
}
"""An option's own word for a value where the language's usual one means something else
there (``pozo=robar``, while ``salida=sorteo``)."""

_OLD_OPTION_WORDS: Final[dict[str, str]] = {
    "puntos": "target",
    "redoblar": "redeal_doubles",
    "turno": "turn_seconds",
    "forzada": "forced_move_seconds",
    "forced": "forced_move_seconds",
    "lenguaje": "language",
    "lang": "language",
}
"""Other words accepted for options (earlier versions' and synonyms)."""

VALUE_WORDS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "opponents": "rivales",
        "all": "todos",
        "double_six": "doble-seis",
        "random": "azar",
        "draw": "sorteo",
        "rotate": "rotar",
        "winner": "ganador",
        "team": "pareja",
        "individual": "individual",
        "none": "no",
        "double_nine": "doble-nueve",
        "pass": "pasar",
    },
    "en": {
        "opponents": "opponents",
        "all": "all",
        "double_six": "double-six",
        "random": "random",
        "draw": "draw",
        "rotate": "rotate",
        "winner": "winner",
        "team": "team",
        "individual": "individual",
        "none": "none",
        "double_nine": "double-nine",
        "pass": "pass",
    },
}
"""The word a player of each language types for an option's value (``conteo=todos``)."""

_OLD_VALUE_WORDS: Final[dict[str, str]] = {
    "contrarios": "opponents",
    "rival": "opponents",
    "todas": "all",
    "dobleseis": "double_six",
    "doble": "double_six",
    "al-azar": "random",
    "rotando": "rotate",
    "rotacion": "rotate",
    "ganadora": "winner",
    "equipo": "team",
    "robar": "draw",
    "nunca": "none",
    "ninguno": "none",
    "never": "none",
    "off": "none",
}

_WORD_TO_VALUE: Final[dict[str, str]] = {
    **_OLD_VALUE_WORDS,
    **{word: value for words in VALUE_WORDS.values() for value, word in words.items()},
    **{value: value for value in VALUE_WORDS["en"]},
}

_WORD_TO_OPTION: Final[dict[str, str]] = {
    **_OLD_OPTION_WORDS,
    **{word: option for words in OPTION_WORDS.values() for option, word in words.items()},
    **{option: option for option in (*OPTION_VALUES, *TABLE_FORMAT_OPTIONS)},
}

_PRESET_WORDS: Final[dict[str, str]] = {
    "venezuelan": "venezolano",
    "international": "internacional",
    "spanish": "espanol",
    "dominican": "dominicano",
}

_FORMAT_WORDS: Final[dict[str, str]] = {
    **{name: name for name in FORMAT_PRESET_NAMES},
    "1v1": "uno-contra-uno",
    "1vs1": "uno-contra-uno",
    "1-contra-1": "uno-contra-uno",
    "uno": "uno-contra-uno",
    "mano-a-mano": "uno-contra-uno",
    "one-against-one": "uno-contra-uno",
    "one-on-one": "uno-contra-uno",
    "cada-uno": "individual",
    "cada-uno-para-si": "individual",
    "todos-contra-todos": "individual",
    "each": "individual",
    "cuban": "cubano",
    "doble-nueve": "cubano",
    "doble-9": "cubano",
    "double-nine": "cubano",
    "parejas": "",
    "pareja": "",
    "partners": "",
    "partnership": "",
    "pairs": "",
}
"""The words players type for a format (``/jugar 1v1``): a format preset's name, or
``""`` for the chat's own game in partnerships."""

_LANGUAGE_WORDS: Final[dict[str, str]] = {
    "es": "es",
    "espanol": "es",
    "spanish": "es",
    "en": "en",
    "ingles": "en",
    "english": "en",
}

_PLAIN = str.maketrans("áéíóúüñ_", "aeiouun-")


def _plain(word: str) -> str:
    return word.strip().lower().translate(_PLAIN)


def option_from_input(word: str) -> str | None:
    """The option (``engine.rules.OPTION_VALUES`` name, or ``"language"``) a typed word
    names, in Spanish or English (``"meta"``, ``"target"``, ``"capicúa"``); None if none."""
    plain = _plain(word)
    return _WORD_TO_OPTION.get(plain) or _WORD_TO_OPTION.get(plain.replace("-", "_"))


def value_from_input(text: str) -> OptionValue:
    """A typed value as the engine reads it: a number, an option's value named in
    Spanish or English (``"todos"`` -> ``"all"``, ``"no"`` -> ``"none"``), or the word
    itself (lower case) for the engine to refuse."""
    plain = _plain(text)
    if plain.isdigit():
        return int(plain)
    return _WORD_TO_VALUE.get(plain, plain)


def preset_from_input(word: str) -> str | None:
    """The preset a typed word names (``"Español"``, ``"spanish"`` -> ``"espanol"``)."""
    key = preset_key(word)
    if key in PRESET_NAMES:
        return key
    return _PRESET_WORDS.get(_plain(word))


SLOW_WORDS: Final = frozenset({"lenta", "lento", "slow"})
"""The words that open a slow table (``/mesa lenta``; rules.md, "Slow tables")."""


def format_from_input(text: str) -> str | None:
    """The format typed words name (``"1v1"``, ``"uno contra uno"``, ``"doble nueve"``
    -> a format preset's name; ``"parejas"`` -> ``""``, the chat's own game), or None for
    words that name none."""
    return _FORMAT_WORDS.get("-".join(_plain(text).replace("-", " ").split()))


KIND_LABELS: Final[dict[str, str]] = {
    "knockout": N_("knockout"),
    "swiss": N_("Swiss"),
    "arena": N_("arena"),
}
"""The kinds of tournament by their names for people (docs/tournaments.md)."""

KIND_WORDS: Final[dict[str, str]] = {
    "eliminatoria": "knockout",
    "knockout": "knockout",
    "ko": "knockout",
    "suizo": "swiss",
    "swiss": "swiss",
    "arena": "arena",
}
"""What players type for a kind of tournament (``/torneo crear suizo``)."""

PARTNER_WORDS: Final[dict[str, str]] = {
    "sorteo": "each_round",
    "drawn": "each_round",
    "fijos": "fixed",
    "fixed": "fixed",
}
"""What an admin types for the partners of a tournament in partnerships
(``/torneo crear suizo sorteo``: drawn anew each round), by
:class:`bot.core.Partners` value."""

PARTNER_LABELS: Final[dict[str, str]] = {
    "fixed": N_("fixed partners"),
    "each_round": N_("partners drawn each round"),
}
"""The partners of a tournament for people, by :class:`bot.core.Partners` value."""

TOURNAMENT_OPTIONS: Final[dict[str, str]] = {
    "fee": N_("fee"),
    "most": N_("most"),
    "signup_minutes": N_("signup"),
    "minutes": N_("minutes"),
    "rounds": N_("rounds"),
    "wins_needed": N_("wins"),
    "preset": N_("rules"),
}
"""A tournament's options by the words an admin types (``cuota=10``), the core's names
first (:class:`bot.core.CreateTournament`; a refusal names the option so)."""


_TOURNAMENT_WORDS: Final[dict[str, str]] = {
    "cuota": "fee",
    "fee": "fee",
    "maximo": "most",
    "max": "most",
    "most": "most",
    "inscripcion": "signup_minutes",
    "signup": "signup_minutes",
    "minutos": "minutes",
    "minutes": "minutes",
    "rondas": "rounds",
    "rounds": "rounds",
    "victorias": "wins_needed",
    "wins": "wins_needed",
}


@dataclass(frozen=True, slots=True)
class TournamentWords:
    """What an admin typed to open a tournament (``/torneo crear suizo 1v1 cuota=10
    rondas=3 nombre=Viernes``): the kind, the format or preset ("" the chat's own game),
    the numeric options by the command's field names (:class:`bot.core.CreateTournament`), the
    name, and the words not understood."""

    kind: str | None
    preset: str
    options: dict[str, int]
    name: str
    errors: tuple[str, ...]
    partners: str = "fixed"


def tournament_from_input(words: Sequence[str]) -> TournamentWords:
    """Read an admin's words for a new tournament, in Spanish or English (a kind:
    "eliminatoria", "suizo", "arena"; a format or a preset; ``opción=número``;
    ``nombre=…`` taking the rest of the words)."""
    kind: str | None = None
    preset = ""
    options: dict[str, int] = {}
    name = ""
    partners = "fixed"
    errors: list[str] = []
    for index, word in enumerate(words):
        key, sep, value = word.partition("=")
        plain = _plain(key)
        if sep and plain in ("nombre", "name"):
            name = " ".join([value, *words[index + 1 :]]).strip()[:40]
            break
        if sep and plain in _TOURNAMENT_WORDS and value.strip().isdigit():
            options[_TOURNAMENT_WORDS[plain]] = int(value)
        elif not sep and plain in KIND_WORDS and kind is None:
            kind = KIND_WORDS[plain]
        elif not sep and plain in PARTNER_WORDS:
            partners = PARTNER_WORDS[plain]
        elif not sep and (chosen := format_from_input(word)) is not None:
            preset = chosen
        elif not sep and (named := preset_from_input(word)) is not None:
            preset = named
        else:
            errors.append(word)
    return TournamentWords(kind, preset, options, name, tuple(errors), partners)


SEAT_LABEL: Final = N_("Take my seat")
"""The button that seats a player at a seat kept for them: "Sentarme" (a friend's
invitation, a tournament's table played privately)."""

FRIEND_ACTION_LABELS: Final[dict[str, str]] = {
    "accept_friend": N_("Accept"),
    "decline_friend": N_("Decline"),
    "take_invite": SEAT_LABEL,
}
"""The friends buttons' labels, by :class:`bot.present.screens.Action` value."""


def friend_action_label(action: str, language: str | None) -> str:
    """A friends button: "Aceptar", "Rechazar" (a request), "Sentarme" (an invitation).

    Raises:
        KeyError: not a friends action.
    """
    return translator(language)(FRIEND_ACTION_LABELS[action])


def join_label(language: str | None) -> str:
    """The button that signs a player up for the chat's tournament: "Inscribirme"."""
    return translator(language)("Sign me up")


def kept_seat_label(language: str | None) -> str:
    """The button under a tournament's private "your table" message: "Sentarme"."""
    return translator(language)(SEAT_LABEL)


def kind_label(kind: str, language: str | None) -> str:
    """A kind of tournament for people: "eliminatoria", "suizo", "arena"."""
    msgid = KIND_LABELS.get(kind)
    return translator(language)(msgid) if msgid else kind


def tournament_kind_label(kind: str, partners: str, language: str | None) -> str:
    """A tournament's kind for people, with its partners when drawn each round:
    "suizo", "suizo, compañeros por sorteo cada ronda"."""
    said = kind_label(kind, language)
    if partners != "each_round":
        return said
    return f"{said}, {translator(language)(PARTNER_LABELS[partners])}"


def tournament_option_word(option: str, language: str | None) -> str:
    """The word an admin of ``language`` types for a tournament's option (``"cuota"``)."""
    msgid = TOURNAMENT_OPTIONS.get(option)
    return translator(language)(msgid) if msgid else option


def format_label(name: str, language: str | None) -> str:
    """A format by its name for people (``"uno-contra-uno"`` -> "Uno contra uno");
    ``""`` is the game in partnerships ("Parejas")."""
    msgid = FORMAT_LABELS.get(name)
    return translator(language)(msgid) if msgid else name


def language_from_input(word: str) -> str | None:
    """The language a typed word names (``"en"``, ``"inglés"``, ``"español"``), or None."""
    return _LANGUAGE_WORDS.get(_plain(word))


def notifications_from_input(text: str) -> str | None:
    """The turn notifications (``"turn"`` or ``"none"``) a typed choice names: its label
    in Spanish or English (``"en cada turno"``, ``"ninguno"``, ``"every turn"``,
    ``"none"``) or the setting's own word; None for anything else."""
    plain = " ".join(_plain(text).replace("-", " ").split())
    for setting in NOTIFICATIONS:
        words = {
            setting,
            *(_plain(translator(lang)(NOTIFICATION_LABELS[setting])) for lang in ("es", "en")),
        }
        if plain in words:
            return setting
    return None


def notifications_hint(language: str | None) -> str:
    """What a player types to choose their turn notifications, e.g. "Choose “every turn”
    or “none”."""
    return translator(language)("Choose “every turn” or “none”.")


def _lang(language: str | None) -> str:
    return "en" if language == "en" else "es"


def option_word(option: str, language: str | None) -> str:
    """The word a player of ``language`` types for ``option`` (``"meta"``)."""
    return OPTION_WORDS[_lang(language)].get(option, option)


FORMAT_WORDS: Final[dict[str, str]] = {
    "uno-contra-uno": "1v1",
    "individual": "individual",
    "cubano": "cubano",
}
"""The shortest word a player types for each format preset (``/jugar 1v1``)."""


def format_word(name: str, language: str | None) -> str:
    """The word a player types for a format (``"1v1"``; ``"parejas"`` for ``""``)."""
    if not name:
        return translator(language)("partnerships")
    return FORMAT_WORDS.get(name, name)


def value_word(value: str, language: str | None) -> str:
    """The word a player of ``language`` types for an option's value (``"todos"``)."""
    return VALUE_WORDS[_lang(language)].get(value, value)


def preset_label(preset: str | None, language: str | None) -> str:
    """A preset by its name for people (``"espanol"`` -> ``"Español"``); "—" for none."""
    if not preset:
        return "—"
    key = preset_key(preset)
    msgid = PRESET_LABELS.get(key) or FORMAT_LABELS.get(key)
    return translator(language)(msgid) if msgid else preset


def option_label(option: str, language: str) -> str:
    return translator(language)(OPTION_LABELS.get(option, option))


def value_label(value: Any, language: str) -> str:
    if value is None:
        return translator(language)("never")
    if isinstance(value, str) and value in VALUE_LABELS:
        return translator(language)(VALUE_LABELS[value])
    return str(value)


def allowed_text(option: str, language: str | None) -> str:
    """What ``option`` accepts, as a player of ``language`` types it: ``"50, 100, 150,
    200, 300 o 500"``, ``"rivales o todos"``, ``"un número del 10 al 120"``."""
    _ = translator(language)
    if option == "language":
        parts = list(LANGUAGE_LABELS)
    elif option == "preset":  # the table presets, by the names players know them by
        parts = [preset_label(name, language) for name in EVERY_PRESET_NAME]
    elif option == "format":  # as typed after /jugar: 1v1, individual, cubano
        parts = [format_word(name, language) for name in FORMAT_PRESET_NAMES]
    else:
        parts = []
        values = OPTION_VALUES.get(option) or FORMAT_OPTION_VALUES.get(option, "")
        own = _VALUE_WORDS_OF.get((option, _lang(language)), {})
        for part in values.split(","):
            part = part.strip()
            low, dots, high = part.partition("..")
            if dots:
                parts.append(_("a number from {low} to {high}", low=low, high=high))
            elif part.isdigit():
                parts.append(part)
            elif part:
                parts.append(own.get(part) or value_word(part, language))
    if len(parts) < 2:
        return "".join(parts)
    return _("{items} or {last}", items=", ".join(parts[:-1]), last=parts[-1])


def rating_text(rating: float, language: str | None) -> str:
    """A player's rating (a win rate, 0..1) as a percentage with one decimal:
    ``"57,7 %"`` in Spanish (a no-break space), ``"57.7%"`` in English."""
    language = _lang(language)
    pattern = "#,##0.0%" if language == "en" else "#,##0.0\u00a0%"
    return format_percent(rating, pattern, locale=language)


def seat_name(seats: Sequence[SeatInfo], seat: int, language: str) -> str:
    name = seats[seat].name
    return name if name else translator(language)("free seat")


def team_names(
    seats: Sequence[SeatInfo], team: int, language: str, *, partnership: bool = True
) -> str:
    """A side's name: ``"Ana y Luis"``, the two seats of partnership ``team`` (seats team
    and team+2); in individual play (``partnership`` false) the seat's own name, a side
    being one seat (rules.md, "Formats")."""
    if not partnership:
        return seat_name(seats, team, language)
    return translator(language)(
        "{first} and {second}",
        first=seat_name(seats, team, language),
        second=seat_name(seats, team + 2, language),
    )


def rematch_label(language: str | None) -> str:
    """The label of "the same seats at a new table" under a match's end (chats and page)."""
    return translator(_lang(language))("Play again")


def move_text(move: Move, language: str) -> str:
    """``"6-4"``, ``"passed"`` or ``"drew"`` (a draw from the boneyard, its tile
    unnamed: rules.md, "Formats") in ``language``."""
    _ = translator(language)
    if move.draw:
        return _("drew")
    return _("passed") if move.tile is None else str(move.tile)


SIDE_MARKS = ("🔵", "🔴", "🟣", "🟢")
"""Each side's colour, as the board picture draws it (``render.canvas.SIDE_COLORS``):
the partnerships (seats 0 and 2 blue), or each seat in individual play."""

TEAM_MARKS = SIDE_MARKS[:2]
"""The partnerships' colours (seats 0 and 2 blue, 1 and 3 red)."""


def score_line(
    seats: Sequence[SeatInfo],
    score: Sequence[int],
    language: str,
    *,
    partnership: bool = True,
) -> str:
    """The running score by side, each side in its colour: ``"🔵 Ana y Luis: 24 – 🔴 Beto
    y Carla: 34"``, or in individual play one entry per seat (``score`` by side,
    ``Rules.sides``)."""
    if not partnership:
        return " – ".join(
            f"{SIDE_MARKS[side]} {seat_name(seats, side, language)}: {points}"
            for side, points in enumerate(score)
        )
    return translator(language)(
        "{team0}: {score0} – {team1}: {score1}",
        team0=f"{TEAM_MARKS[0]} {team_names(seats, 0, language)}",
        score0=score[0],
        team1=f"{TEAM_MARKS[1]} {team_names(seats, 1, language)}",
        score1=score[1],
    )


def rules_text(
    rules: Rules, preset: str | None, overrides: Mapping[str, Any], language: str
) -> str:
    """The chat's rule set, one option a line (the preset by its name: "Reglas:
    Venezolano")."""
    _ = translator(language)
    lines = [_("Preset: {preset}", preset=preset_label(preset or rules.preset_name, language))]
    values = rules.model_dump()
    for option in OPTION_VALUES:
        mark = " *" if option in overrides else ""
        lines.append(
            f"• {option_label(option, language)}: {value_label(values[option], language)}{mark}"
        )
    if overrides:
        lines.append(_("* changed from the preset"))
    return "\n".join(lines)


REPORT_REASON_LABELS: Final[dict[str, str]] = {
    "abusive_name": N_("abusive name"),
    "abusive_emotes": N_("abusive phrases"),
    "left_on_purpose": N_("leaving on purpose"),
    "playing_to_lose": N_("playing to lose"),
    "other": N_("other"),
}
"""Each report reason (``bot.core.ReportReason``) as a sentence names it (issue 33)."""

REPORT_REASON_WORDS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "abusive_name": "nombre",
        "abusive_emotes": "frases",
        "left_on_purpose": "abandono",
        "playing_to_lose": "perder",
        "other": "otro",
    },
    "en": {
        "abusive_name": "name",
        "abusive_emotes": "phrases",
        "left_on_purpose": "leaving",
        "playing_to_lose": "losing",
        "other": "other",
    },
}
"""The word a player types for each report reason (``/reportar frases``)."""


def report_reason_label(reason: str, language: str | None) -> str:
    """A report reason for a sentence ("nombre ofensivo")."""
    msgid = REPORT_REASON_LABELS.get(reason)
    return translator(language)(msgid) if msgid else reason


def report_reason_words(language: str | None) -> list[str]:
    """The reasons' words a player of ``language`` types, in order."""
    return list(REPORT_REASON_WORDS[_lang(language)].values())


def report_reason_from_input(word: str) -> str | None:
    """The report reason a typed word names, in Spanish or English (a reason's own
    value too); None when it names none."""
    plain = _plain(word.strip())
    for words in REPORT_REASON_WORDS.values():
        for reason, typed in words.items():
            if plain in (typed, _plain(reason)):
                return reason
    return None


REPORT_ACTION_LABELS: Final[dict[str, str]] = {"dismiss": N_("Dismiss"), "ban": N_("Ban")}
"""A report's buttons for the admins (``bot.core.ModerationAction``)."""


def report_action_label(action: str, language: str | None) -> str:
    """A report button's label: "Descartar", "Vetar"."""
    return translator(language)(REPORT_ACTION_LABELS[action])


PLATFORM_NAMES: dict[str, str] = {"telegram": "Telegram", "discord": "Discord"}
"""A platform's proper name (the same in every language)."""


def platform_label(platform: str) -> str:
    """ "Telegram" for ``"telegram"``; an unknown platform as it is."""
    return PLATFORM_NAMES.get(platform, platform)
