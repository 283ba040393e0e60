"""Button payloads: the only place that encodes or decodes a press.

Buttons carry :func:`encode_press` / :func:`encode_action` payloads (at most 64 bytes:
Telegram's callback data limit, well under Discord's 100-character custom ids). Front
ends hand the raw text to the core with ``PressButton``; the shape is checked here, and
whether the press fits the table now (stale, foreign, illegal) by the core. The format
``dm1:<kind letter>:<table>:...`` never changes for buttons already sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.core.vocabulary import EMOTES, ModerationAction, PressKind

__all__ = [
    "ANALYSIS_PATTERN",
    "FRIEND_PATTERN",
    "MAX_PAYLOAD",
    "MODERATION_PATTERN",
    "PRESS_PREFIX",
    "TOURNAMENT_JOIN",
    "AnalysisPress",
    "ForgedPress",
    "FriendAction",
    "FriendPressed",
    "ModerationPress",
    "Press",
    "decode_analysis",
    "decode_friend",
    "decode_moderation",
    "decode_press",
    "encode_action",
    "encode_analysis",
    "encode_friend",
    "encode_moderation",
    "encode_press",
]

PRESS_PREFIX = "dm1"
"""Every payload starts with this (a version too): ``dm1:<kind>:<table>:...``."""

_TABLE_ID = re.compile(r"[0-9a-z]{1,16}")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")
_MOVE_CODE = re.compile(r"p|d|[0-9][0-9][lr]?")  # a draw; double-nine tiles too
_ARG = re.compile(r"[0-9a-z_]{0,16}")
_KINDS: dict[str, PressKind] = {
    "m": PressKind.MOVE,
    "s": PressKind.SIT,
    "r": PressKind.ROBOTS,
    "e": PressKind.EMOTE,
    "t": PressKind.TILES,
    "b": PressKind.BACK,
    "x": PressKind.LEAVE,
    "a": PressKind.AGAIN,
    "n": PressKind.DECLINE,
}
_LETTERS = {kind: letter for letter, kind in _KINDS.items()}
MAX_PAYLOAD = 64


class ForgedPress(ValueError):
    """A button payload that this bot did not make (or that was tampered with)."""


@dataclass(frozen=True, slots=True)
class Press:
    """A decoded button payload.

    Attributes:
        kind: a :class:`PressKind`; the argument of ``SIT`` is a seat or empty, of
            ``EMOTE`` an emote name.
        table_id: the table.
        hand_number, move_number: for a move (0 otherwise).
        code: the move code for a move, else the argument (may be empty).
    """

    kind: PressKind
    table_id: str
    hand_number: int = 0
    move_number: int = 0
    code: str = ""


def encode_press(table_id: str, hand_number: int, move_number: int, code: str) -> str:
    """The payload of a move button: ``"dm1:m:<table>:<hand>:<move>:<code>"``.

    At most 40 characters (ASCII), inside Telegram's 64 bytes and Discord's 100.

    Raises:
        ValueError: a table id, number or code this module would not decode.
    """
    text = f"{PRESS_PREFIX}:m:{table_id}:{hand_number}:{move_number}:{code}"
    decode_press(text)  # never hand out a payload we would refuse
    return text


def encode_action(kind: PressKind | str, table_id: str, arg: str | int = "") -> str:
    """The payload of a table button (any :class:`PressKind` but ``MOVE``): ``SIT`` takes
    a seat 0..3 or "", ``EMOTE`` an emote name, the others no argument.

    Raises:
        ValueError: an unknown kind or a bad argument.
    """
    try:
        press_kind = PressKind(kind)
    except ValueError:
        raise ValueError(f"unknown button kind {kind!r}") from None
    if press_kind is PressKind.MOVE:
        raise ValueError(f"unknown button kind {kind!r}")
    text = f"{PRESS_PREFIX}:{_LETTERS[press_kind]}:{table_id}:{arg}"
    decode_press(text)
    return text


def decode_press(text: object) -> Press:
    """Read a payload made by :func:`encode_press` or :func:`encode_action`.

    Only the shape is checked here; whether the press fits the table now (stale, foreign,
    illegal) is the manager's business.

    Raises:
        ForgedPress: not a string, too long, or not in one of the two shapes.
    """
    if not isinstance(text, str) or not text or len(text.encode()) > MAX_PAYLOAD:
        raise ForgedPress("not a payload of this bot")
    parts = text.split(":")
    if len(parts) < 4 or parts[0] != PRESS_PREFIX or parts[1] not in _KINDS:
        raise ForgedPress(f"not a payload of this bot: {text!r}")
    kind = _KINDS[parts[1]]
    table_id = parts[2]
    if not _TABLE_ID.fullmatch(table_id):
        raise ForgedPress(f"bad table id in {text!r}")
    if kind is PressKind.MOVE:
        if len(parts) != 6:
            raise ForgedPress(f"bad move payload {text!r}")
        hand, move, code = parts[3], parts[4], parts[5]
        if not (_NUMBER.fullmatch(hand) and _NUMBER.fullmatch(move)):
            raise ForgedPress(f"bad numbers in {text!r}")
        if not _MOVE_CODE.fullmatch(code):
            raise ForgedPress(f"bad move code in {text!r}")
        return Press(PressKind.MOVE, table_id, int(hand), int(move), code)
    if len(parts) != 4 or not _ARG.fullmatch(parts[3]):
        raise ForgedPress(f"bad payload {text!r}")
    arg = parts[3]
    if kind is PressKind.SIT and arg not in ("", "0", "1", "2", "3"):
        raise ForgedPress(f"bad seat in {text!r}")
    if kind is PressKind.EMOTE and arg not in EMOTES:
        raise ForgedPress(f"unknown emote in {text!r}")
    return Press(kind, table_id, 0, 0, arg)


TOURNAMENT_JOIN = "dmj"
"""The payload of the "Sign me up" button under a tournament's news: it signs the presser
up for the tournament of the chat it was pressed in (``JoinTournament``)."""

ANALYSIS_PATTERN = r"dma:(?P<table>[A-Za-z0-9_-]{1,40})(?::(?P<hand>[1-9][0-9]{0,3}))?"
"""The "¿Qué debí jugar?" button under a hand's result: ``dma:<table>:<hand>`` (the hand's
number from 1; buttons sent before it carry the table alone and mean the player's last
finished hand)."""


@dataclass(frozen=True, slots=True)
class AnalysisPress:
    """A decoded analysis button: its table and hand number (None: the last finished)."""

    table_id: str
    hand: int | None


def encode_analysis(table_id: str, hand: int | None) -> str:
    """The payload of the analysis button of hand number ``hand`` at ``table_id``.

    Raises:
        ValueError: a table id or hand number the payload cannot carry.
    """
    text = f"dma:{table_id}" + (f":{hand}" if hand is not None else "")
    if decode_analysis(text) != AnalysisPress(table_id, hand):
        raise ValueError(f"cannot encode an analysis press for {table_id!r} hand {hand!r}")
    return text


def decode_analysis(data: object) -> AnalysisPress | None:
    """An analysis button's table and hand; None if the data is not exactly one of ours."""
    if not isinstance(data, str) or len(data) > MAX_PAYLOAD:
        return None
    match = re.fullmatch(ANALYSIS_PATTERN, data)
    if match is None:
        return None
    hand = match["hand"]
    return AnalysisPress(match["table"], int(hand) if hand else None)


FRIEND_PATTERN = r"dmf:(?P<action>[adi]):(?P<arg>[0-9a-z]{1,16}(?:\.[0-9a-z]{1,8})?)"
"""A friends button (docs/friends.md): ``dmf:a:<player id>`` accepts and ``dmf:d:<player
id>`` declines that player's friend request; ``dmf:i:<table>.<code>`` takes the seat an
invitation keeps (the invitation's id names its table, so a press that reached another
process is relayed to the table's: ``bot/discord/relay.py``)."""


_PLAYER_ID = re.compile(r"[1-9][0-9]{0,15}")


class FriendAction(StrEnum):
    """What a friends button does (the letter after ``dmf:``)."""

    ACCEPT = "a"
    DECLINE = "d"
    SIT = "i"


@dataclass(frozen=True, slots=True)
class FriendPressed:
    """A decoded friends button: its action and its argument (a player id for a request,
    an invitation's id)."""

    action: FriendAction
    arg: str

    @property
    def table_id(self) -> str | None:
        """The table an invitation keeps a seat at (``SIT``), None for a request."""
        table, dot, _code = self.arg.partition(".")
        return table if self.action is FriendAction.SIT and dot else None

    @property
    def player_id(self) -> int:
        """The requester's player id (``ACCEPT``, ``DECLINE``).

        Raises:
            ForgedPress: the argument is no number.
        """
        if not _PLAYER_ID.fullmatch(self.arg):
            raise ForgedPress(f"no player id in {self.arg!r}")
        return int(self.arg)


def encode_friend(action: FriendAction, arg: str | int) -> str:
    """The payload of a friends button (at most 32 characters).

    Raises:
        ValueError: an argument the payload cannot carry.
    """
    text = f"dmf:{action.value}:{arg}"
    try:
        decode_friend(text)
    except ForgedPress:
        raise ValueError(f"cannot encode a friends press of {arg!r}") from None
    return text


def decode_friend(data: object) -> FriendPressed:
    """A friends button's action and argument.

    Raises:
        ForgedPress: not exactly one of ours.
    """
    if not isinstance(data, str) or len(data) > MAX_PAYLOAD:
        raise ForgedPress("not a friends payload of this bot")
    match = re.fullmatch(FRIEND_PATTERN, data)
    if match is None:
        raise ForgedPress(f"not a friends payload of this bot: {data!r}")
    pressed = FriendPressed(FriendAction(match["action"]), match["arg"])
    if pressed.action is not FriendAction.SIT and not _PLAYER_ID.fullmatch(pressed.arg):
        raise ForgedPress(f"no player id in {data!r}")
    return pressed


MODERATION_PATTERN = r"dmm:(?P<action>[db]):(?P<report>[1-9][0-9]{0,11}):(?P<chat>-?[0-9]{1,20})"
"""A report's buttons for the chat's admins (issue 33): ``dmm:d:<report>:<chat id>``
dismisses it, ``dmm:b:<report>:<chat id>`` bans the reported player from the chat's
tables. The chat (a Telegram group, a Discord server) says where the presser must be an
admin: the buttons are pressed in a private message."""

_MODERATION_LETTERS = {"d": ModerationAction.DISMISS, "b": ModerationAction.BAN}


@dataclass(frozen=True, slots=True)
class ModerationPress:
    """A decoded report button: what it does, the report's number and its chat's id."""

    action: ModerationAction
    report_id: int
    chat_id: str


def encode_moderation(action: ModerationAction, report_id: int, chat_id: str) -> str:
    """The payload of a report's ``action`` button (dismiss or ban).

    Raises:
        ValueError: an action without a button (unban), or a number or chat id the
            payload cannot carry.
    """
    letter = next((k for k, v in _MODERATION_LETTERS.items() if v is action), None)
    text = f"dmm:{letter}:{report_id}:{chat_id}"
    if letter is None or decode_moderation(text) != ModerationPress(action, report_id, chat_id):
        raise ValueError(f"cannot encode a moderation press {action!r} {report_id!r}")
    return text


def decode_moderation(data: object) -> ModerationPress | None:
    """A report button's action, number and chat; None if the data is not exactly one
    of ours."""
    if not isinstance(data, str) or len(data) > MAX_PAYLOAD:
        return None
    match = re.fullmatch(MODERATION_PATTERN, data)
    if match is None:
        return None
    action = _MODERATION_LETTERS[match["action"]]
    return ModerationPress(action, int(match["report"]), match["chat"])
