"""The presentation layer's shared phrases: what the core's refusals and replies say,
and the move buttons' labels, in the reader's language (one home per phrase)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import NamedTuple

from bot.core.buttons import encode_press
from bot.core.commands import (
    Challenge,
    CloseTable,
    Command,
    Leave,
    OpenTable,
    PlayNow,
    Rematch,
    SetChatRules,
    SitAt,
)
from bot.core.events import MoveChoice, Refusal, Reply, SeatAbandoned, TableClosed, YourTiles
from bot.core.vocabulary import AwayReason, CloseReason, PressKind, RefusalReason
from bot.present.i18n import refusal_text, translator, whole_minutes
from bot.present.labels import allowed_text, option_word, preset_label
from engine.moves import Move, Side
from render import move_labels

__all__ = [
    "GROUP_CLOSES",
    "abandoned_text",
    "bad_rules_text",
    "choices_named",
    "closed_text",
    "confirmation",
    "formats_help",
    "left_text",
    "move_buttons",
    "move_key",
    "refused",
    "rules_changed_text",
    "seated_text",
    "short_place",
    "typed_move_label",
    "whole_minutes",
]


def refused(
    refusal: Refusal,
    language: str | None = None,
    typed: Mapping[str, str] | None = None,
    *,
    place: str = "",
) -> str:
    """A refusal as a sentence, in ``language`` or the refused player's.

    ``typed``: for refused rules (``bad_rules``), what the admin typed for each option
    (``{"target": "meta=7"}``), so the sentence names it in their words; without it
    each option is named by the word a player of ``language`` types.
    ``place`` is how the front end names where the refusal's table is (e.g. a Discord
    channel mention): a seat already taken at a table elsewhere in the chat (rules.md,
    "The house": one table at a time per chat) is said with it.
    """
    language = language or refusal.to.language
    params = refusal.params
    if refusal.reason is RefusalReason.BAD_RULES:
        return bad_rules_text(refusal, language, typed or {})
    if refusal.reason is RefusalReason.ALREADY_SEATED and params.get("elsewhere"):
        _ = translator(language)
        if place:
            return _(
                "You already have a seat at table {label}, in {place}. Finish or leave it "
                "first: one table at a time.",
                label=params.get("label", ""),
                place=place,
            )
        return _(
            "You already have a seat at table {label}. Finish or leave it first: one table "
            "at a time.",
            label=params.get("label", ""),
        )
    return refusal_text(refusal.reason, params, language)


def bad_rules_text(refusal: Refusal, language: str, typed: Mapping[str, str]) -> str:
    """Every bad option of a ``bad_rules`` refusal, one a line, in the admin's words:
    "meta=7 no vale: meta puede ser 50, 100, 150, 200, 300 o 500."."""
    _ = translator(language)
    names = str(refusal.params.get("options") or refusal.params.get("option") or "").split()
    lines = []
    for option in names:
        word = option_word(option, language)
        allowed = allowed_text(option, language)
        if option in typed:
            lines.append(
                _(
                    "{typed} is not valid: {option} can be {allowed}.",
                    typed=typed[option],
                    option=word,
                    allowed=allowed,
                )
            )
        else:
            lines.append(_("{option} can be {allowed}.", option=word, allowed=allowed))
    return "\n".join(lines) or _("That cannot be done now.")


def seated_text(reply: Reply, language: str) -> str:
    """ "You sit at table 3, seat 2." after a seating command."""
    seat = (reply.seat or 0) + 1
    return translator(language)(
        "You sit at table {label}, seat {seat}.", label=reply.label, seat=seat
    )


def left_text(reply: Reply, language: str) -> str:
    """ "You left table 3." after ``Leave`` before the match started; leaving a started
    match says the stake is forfeited (``Reply.forfeited``) and the robot plays on."""
    _ = translator(language)
    if reply.forfeited is None:
        return _("You left table {label}.", label=reply.label)
    if reply.match_ended:  # nobody was left to play on
        if reply.forfeited:
            return _(
                "You left table {label}: your stake (${stake}) is forfeited, and with no "
                "player left the match ends.",
                label=reply.label,
                stake=reply.forfeited,
            )
        return _("You left table {label}: with no player left the match ends.", label=reply.label)
    if reply.forfeited:
        return _(
            "You left table {label}: your stake (${stake}) is forfeited and a robot plays "
            "your seat to the end.",
            label=reply.label,
            stake=reply.forfeited,
        )
    return _("You left table {label}: a robot plays your seat to the end.", label=reply.label)


def abandoned_text(event: SeatAbandoned, language: str) -> str:
    """What a table is told when one of its humans abandons the match: left on purpose,
    or not back within the 5 minutes; the stake forfeited and the robot playing on."""
    _ = translator(language)
    name = event.player.display_name
    if event.last:  # the table closes next and says why; no robot plays on
        if event.reason is AwayReason.LEFT:
            if event.stake:
                return _(
                    "{name} left the match: their stake (${stake}) is forfeited.",
                    name=name,
                    stake=event.stake,
                )
            return _("{name} left the match.", name=name)
        if event.stake:
            return _(
                "{name} did not come back in time: their stake (${stake}) is forfeited.",
                name=name,
                stake=event.stake,
            )
        return _("{name} did not come back in time.", name=name)
    if event.reason is AwayReason.LEFT:
        if event.stake:
            return _(
                "{name} left the match: their stake (${stake}) is forfeited and a robot "
                "plays their seat to the end.",
                name=name,
                stake=event.stake,
            )
        return _("{name} left the match: a robot plays their seat to the end.", name=name)
    if event.stake:
        return _(
            "{name} did not come back in time: their stake (${stake}) is forfeited and a "
            "robot plays their seat to the end.",
            name=name,
            stake=event.stake,
        )
    return _("{name} did not come back in time: a robot plays their seat to the end.", name=name)


def rules_changed_text(reply: Reply, language: str) -> str:
    """ "Rules changed: Venezolano." after ``SetChatRules``."""
    return translator(language)(
        "Rules changed: {preset}.", preset=preset_label(reply.preset, language)
    )


def formats_help(language: str, play: str) -> str:
    """The help's line on the other formats, ``play`` the platform's command
    (``"/jugar"``, ``"/domino jugar formato:"``; rules.md, "Formats at the tables")."""
    return translator(language)(
        "Other ways to play: {play} 1v1 (one against one, drawing from the boneyard), "
        "individual (each for themselves) or cubano (double-nine).",
        play=play,
    )


def move_buttons(event: YourTiles) -> list[tuple[MoveChoice, str]]:
    """Each legal move with its button label, the same labels the hand picture shows
    (``render.move_labels``), in the player's language; a draw from the boneyard is
    "Robar" ("Draw")."""
    labelled = dict(move_labels(event.view, event.to.language))
    _ = translator(event.to.language)
    out = []
    for choice in event.moves:
        label = _("Draw") if choice.move.draw else labelled.get(choice.move)
        if label is None:
            label = _("Pass") if choice.move.tile is None else str(choice.move.tile)
        out.append((choice, label))
    return out


PLACE_CHARS = 20
"""The most characters of a place's name a move button repeats."""


def short_place(place: str) -> str:
    """A place's name as a move button repeats it (cut to :data:`PLACE_CHARS`)."""
    return place[:PLACE_CHARS].strip()


def typed_move_label(place: str, label: str) -> str:
    """A move button's label naming where its table is (a group's name), for a player
    with a turn at two tables: ``"Amigos · 6-4"``."""
    return f"{short_place(place)} · {label}"


class MoveKey(NamedTuple):
    """A move as a player typed or pressed it, reduced (:func:`move_key`)."""

    place: str | None  # where the table is (:func:`typed_move_label`), when the text says
    move: str  # "6-4", "6-4 left", "6-4 right", "pass" or "draw"


_PASS_WORDS = frozenset({"paso", "pasar", "pass", "pasa"})
_DRAW_WORDS = frozenset({"robar", "robo", "roba", "draw", "pozo"})
_SIDE_WORDS = {"izq": "left", "izquierda": "left", "left": "left", "i": "left", "l": "left"}
_SIDE_WORDS |= {"der": "right", "derecha": "right", "right": "right", "d": "right", "r": "right"}


def move_key(text: str, top: int = 6) -> MoveKey | None:
    """The move a private message names, or None when it names none.

    A move button's own label (:func:`move_buttons`, :func:`typed_move_label`) and what
    a player types for it reduce to the same key: ``"6-4"``, ``"64"``, ``"4|6"`` and
    ``"6 4"`` are one tile; ``"izq."``/``"izquierda"``/``"left"`` (and right) a side;
    ``"Paso"``/``"pasar"``/``"pass"`` the pass; ``"Robar"``/``"robo"``/``"draw"`` a
    draw from the boneyard; ``"Amigos · 6-4"`` the place too. A tile's pips go up to
    ``top``, the tile set's highest half (6, or 9 for double-nine: ``TileSet.top``).
    """
    place: str | None = None
    if "·" in text:
        where, text = text.split("·", 1)
        place = where.strip()
    plain = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    tokens = re.findall(r"[a-z]+|\d", plain)
    pips = [int(t) for t in tokens if t.isdigit()]
    words = [t for t in tokens if not t.isdigit()]
    if not pips:
        if len(words) == 1 and words[0] in _PASS_WORDS:
            return MoveKey(place, "pass")
        if len(words) == 1 and words[0] in _DRAW_WORDS:
            return MoveKey(place, "draw")
        return None
    if len(pips) != 2 or max(pips) > top or len(words) > 1:
        return None
    move = f"{max(pips)}-{min(pips)}"
    if words:
        side = _SIDE_WORDS.get(words[0])
        if side is None:
            return None
        move += " " + side
    return MoveKey(place, move)


def choices_named(event: YourTiles, typed: MoveKey) -> list[MoveChoice]:
    """The legal moves of ``event`` that a typed move names (its place aside): one, or
    none when that move cannot be played now (a tile not held, one that does not fit, a
    side missing where the tile fits both ends, an end it does not fit).

    A side named where its button names none is kept: ``6-4 izq.`` is the 6-4 when it
    fits the left end only, and on the left when both open ends show the same number
    (the engine offers one move there, on the right, but takes either end: records.md;
    the end chosen shapes the line). A side on the opening tile names nothing.
    """
    named = [
        choice
        for choice, label in move_buttons(event)
        if (key := move_key(label, event.view.rules.tile_set.top)) is not None
        and key.move == typed.move
    ]
    tile, _sep, side_name = typed.move.partition(" ")
    if named or not side_name:
        return named
    side = Side(side_name)
    ends = event.view.ends
    for choice in event.moves:
        move = choice.move
        if move.tile is None or move.side is None or str(move.tile) != tile:
            continue
        if move.side is side:
            return [choice]
        if ends is not None and ends[0] == ends[1]:
            mirrored = Move(move.tile, side)
            code = mirrored.code()
            payload = encode_press(event.table_id, event.hand_number, event.move_number, code)
            return [MoveChoice(move=mirrored, code=code, payload=payload)]
    return []


_SEATING: tuple[type[Command] | PressKind, ...] = (
    PlayNow,
    Challenge,
    OpenTable,
    SitAt,
    Rematch,
    PressKind.SIT,
    PressKind.AGAIN,
)


def confirmation(done: type[Command] | PressKind, reply: Reply, language: str) -> str:
    """The short sentence confirming an accepted command (or button press) to the actor;
    empty when nothing needs saying (a move, an emote: the table shows it)."""
    if not reply.ok:
        return ""
    if done in _SEATING:
        return seated_text(reply, language)
    if done in (Leave, PressKind.LEAVE):
        return left_text(reply, language)
    if done is SetChatRules:
        return rules_changed_text(reply, language)
    if done is CloseTable:
        return translator(language)(
            "You closed table {label}; every stake was refunded.", label=reply.label
        )
    return ""


GROUP_CLOSES = frozenset(
    {
        CloseReason.NO_HUMANS,
        CloseReason.CANCELLED,
        CloseReason.BY_ADMIN,
        CloseReason.DECLINED,
        CloseReason.EXPIRED,
    }
)
"""The early closes a table's chat is told about (:func:`closed_text`); an unreachable
chat's players are told privately, and an empty or finished table says it all itself."""


def closed_text(event: TableClosed, language: str) -> str:
    """Why a table closed early (empty for a finished match: its result says it all)."""
    _ = translator(language)
    if event.reason is CloseReason.EMPTY:
        return _("The table closed before the match started; nothing was paid.")
    if event.reason is CloseReason.NO_HUMANS:
        return _("The table closed: every player left the match; their stakes stay in the pot.")
    if event.reason is CloseReason.CANCELLED:
        return _("The table closed; stakes were refunded.")
    if event.reason is CloseReason.UNREACHABLE:
        return _(
            "Table {label} closed: the bot can no longer use its chat. Nobody lost: "
            "stakes were refunded.",
            label=event.label,
        )
    if event.reason is CloseReason.BY_ADMIN:
        return _("An administrator closed the table; stakes were refunded.")
    if event.reason is CloseReason.DECLINED:
        return _(
            "The challenge at table {label} was declined; nothing was paid.", label=event.label
        )
    if event.reason is CloseReason.EXPIRED:
        return _(
            "Nobody took up the challenge at table {label} in time; the table closed and "
            "nothing was paid.",
            label=event.label,
        )
    return ""
