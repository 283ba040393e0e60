"""Deep links and the admin menu's callback data: adapter-level payloads, all untrusted.

Table buttons carry the core's payloads (``bot.core.encode_press`` /
``encode_action``) and are checked by the table manager. Two payloads are the adapter's
own and are read here, strictly:

* **Deep links** (``https://t.me/<bot>?start=<payload>``) open the private chat with the
  bot for a player who never started it, and finish seating them. The payload (at most 64
  characters of ``A-Za-z0-9_-``) says where: play now in a group (and forum topic), or sit
  at a given table and seat.
* **The /config menu** (callback data ``dmc:...``): choose a preset, step one option to its
  next value, or close the menu.
* **The /top list's switches** (callback data ``dmt:<list>:<scope>``): which list (rating,
  season, balance, pairs) over which players (this group's, or everyone's).

A payload that does not read exactly is refused (None), never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.rules import FORMAT_PRESET_NAMES

__all__ = [
    "CONFIG_PREFIX",
    "TOP_PREFIX",
    "ConfigPress",
    "JoinLink",
    "TopPress",
    "decode_config",
    "decode_start",
    "decode_top",
    "deep_link",
    "encode_config",
    "encode_start",
    "encode_top",
]

_CHAT = r"-?[1-9][0-9]{0,18}"
_TABLE = r"[0-9a-z]{1,16}"
_JOIN = re.compile(rf"j_({_CHAT})(?:_([1-9][0-9]{{0,9}}))?")
_SIT = re.compile(rf"s_({_CHAT})_({_TABLE})_([0-3a])(?:_([1-9][0-9]{{0,9}}))?")
MAX_START = 64


@dataclass(frozen=True, slots=True)
class JoinLink:
    """What a deep link asks: play now in ``chat_id`` (topic ``thread_id``), or sit at
    ``table_id`` (seat 0..3, or any free seat when ``seat`` is None)."""

    chat_id: int
    thread_id: int | None = None
    table_id: str | None = None
    seat: int | None = None


def encode_start(link: JoinLink) -> str:
    """The ``/start`` payload for ``link`` (at most 64 characters)."""
    thread = f"_{link.thread_id}" if link.thread_id else ""
    if link.table_id is None:
        text = f"j_{link.chat_id}{thread}"
    else:
        seat = "a" if link.seat is None else str(link.seat)
        text = f"s_{link.chat_id}_{link.table_id}_{seat}{thread}"
    if decode_start(text) != link:
        raise ValueError(f"cannot encode {link!r}")
    return text


def decode_start(payload: object) -> JoinLink | None:
    """Read a ``/start`` payload made by :func:`encode_start`; None if it is not one."""
    if not isinstance(payload, str) or not payload or len(payload) > MAX_START:
        return None
    if match := _JOIN.fullmatch(payload):
        thread = int(match.group(2)) if match.group(2) else None
        return JoinLink(int(match.group(1)), thread)
    if match := _SIT.fullmatch(payload):
        seat = None if match.group(3) == "a" else int(match.group(3))
        thread = int(match.group(4)) if match.group(4) else None
        return JoinLink(int(match.group(1)), thread, match.group(2), seat)
    return None


def deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the private chat and sends /start."""
    return f"https://t.me/{bot_username}?start={payload}"


CONFIG_PREFIX = "dmc"
_CONFIG = re.compile(r"dmc:(?:(p):([a-z-]{1,20})|(o):([a-z_]{1,24})|(x))")


@dataclass(frozen=True, slots=True)
class ConfigPress:
    """A press on the /config menu: ``action`` ``"preset"`` (``name`` a preset),
    ``"option"`` (``name`` an option: step it to its next value) or ``"close"``."""

    action: str
    name: str = ""


def encode_config(action: str, name: str = "") -> str:
    """Callback data for a /config menu button (well under 64 bytes)."""
    letter = {"preset": "p", "option": "o", "close": "x"}[action]
    text = f"{CONFIG_PREFIX}:{letter}" + (f":{name}" if letter != "x" else "")
    if decode_config(text) != ConfigPress(action, name if letter != "x" else ""):
        raise ValueError(f"cannot encode config press {action!r} {name!r}")
    return text


def decode_config(data: object) -> ConfigPress | None:
    """Read /config menu callback data; None if it is not exactly one of ours."""
    if not isinstance(data, str) or len(data) > 64:
        return None
    match = _CONFIG.fullmatch(data)
    if match is None:
        return None
    if match.group(1):
        return ConfigPress("preset", match.group(2))
    if match.group(3):
        return ConfigPress("option", match.group(4))
    return ConfigPress("close")


TOP_PREFIX = "dmt"
_TOP_LISTS = {"r": "rating", "s": "season", "b": "balance", "p": "pairs"}
_TOP_LETTERS = {name: letter for letter, name in _TOP_LISTS.items()}
_TOP = re.compile(r"dmt:([rsbp]):([cg])(?::([a-z-]{1,20}))?")


@dataclass(frozen=True, slots=True)
class TopPress:
    """A press on a /top list's switches: show list ``ranking`` (a
    :class:`bot.core.Ranking` value) of this group's players (``everyone`` False) or of
    everyone's, in ``format`` (a format preset's name; ``""`` today's game)."""

    ranking: str
    everyone: bool
    format: str = ""


def encode_top(press: TopPress) -> str:
    """Callback data for a /top switch (``dmt:r:c``, ``dmt:r:c:cubano``: far under 64)."""
    text = f"{TOP_PREFIX}:{_TOP_LETTERS[press.ranking]}:{'g' if press.everyone else 'c'}"
    if press.format:
        text += f":{press.format}"
    if decode_top(text) != press:
        raise ValueError(f"cannot encode top press {press!r}")
    return text


def decode_top(data: object) -> TopPress | None:
    """Read /top callback data; None if it is not exactly one of ours."""
    if not isinstance(data, str) or len(data) > 64:
        return None
    match = _TOP.fullmatch(data)
    if match is None or (match.group(3) and match.group(3) not in FORMAT_PRESET_NAMES):
        return None
    return TopPress(_TOP_LISTS[match.group(1)], match.group(2) == "g", match.group(3) or "")
