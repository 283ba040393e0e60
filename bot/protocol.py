"""What the table manager and its front ends say to each other: commands in, events out.

This module is the contract between the core (:class:`bot.manager.TableManager`) and every
front end (terminal, Telegram, Discord, tests). It holds no logic beyond encoding button
payloads; rules, scores and money live in the core (design.md, "Adapters are thin").

The flow::

    adapter                                   TableManager
    ------- PlayNow(player, chat) ----------> await manager.handle(command) -> Reply
    <------ Port.deliver(TableChanged ...) --  (events, in order per table, from a task)

* **Commands** are frozen dataclasses. Each carries the acting :class:`PlayerRef` and,
  where a chat matters, the :class:`ChatRef` it came from. ``await manager.handle(cmd)``
  applies it and returns a :class:`Reply` at once: ``reply.ok`` or ``reply.refusal`` (a
  :class:`Refusal` with a reason code and a ready sentence in the player's language), plus
  anything meant only for the actor (e.g. :class:`YourTiles` for :class:`ShowMyTiles`).
  Answer a Telegram callback or a Discord interaction from the reply.
* **Events** go to the :class:`Port` registered for the table's platform
  (``manager.register(platform, port)``), one ``await port.deliver(event)`` at a time per
  table, in order, from a task of the manager: ``handle`` never waits for a send. Every
  event names its ``table_id`` and ``chat``; private events also name the player ``to``.
  A port that raises is logged and the table carries on ("a failed send never stops a
  table").
* **Buttons** carry :func:`encode_press` / :func:`encode_action` payloads (at most 64
  bytes: Telegram's callback data limit, well under Discord's 100-character custom ids).
  Hand the raw text to the core with :class:`PressButton`; a stale, repeated, foreign or
  forged press is refused with a reason code and changes nothing.

The manager (``bot.manager``), as adapters use it::

    manager = TableManager(storage, clock=SystemClock(), seed=None)   # bot.clock
    manager.register("telegram", port)        # a Port; "*" receives every event
    await manager.start()                     # reload unfinished tables, re-arm timers
    reply = await manager.handle(command)     # -> Reply (ok / refusal / events for the actor)
    await manager.balance(player)             # -> int dollars (opens the account: $1,000)
    await manager.chat_rules(chat)            # -> ChatRulesInfo(preset, overrides, rules, set_by_admins)
    await manager.top(chat, by="balance")     # -> list[storage RankRow] ("balance"|"rating")
    await manager.history(player=..., chat=...)  # -> list[storage StoredMatch]
    await manager.player_id(player)           # -> storage player id (stats, wallet history)
    manager.table_state(table_id)             # -> TableChanged | None (redraw after a restart)
    manager.tables_of(player)                 # -> ids of the live tables where they sit
    await manager.idle()                      # tests: wait until queued events were delivered
    await manager.stop()                      # snapshot every table, cancel timers

Tests drive time with ``bot.clock.ManualClock`` (``await clock.advance(seconds)``) and
``robot_delay=0``; ``tests/conftest.py`` has a recording port and a ``run_table`` helper.

Seats: 0..3, counter-clockwise; seat ``s + 1`` plays after seat ``s`` and sits on its
right, ``s + 2`` is its partner (across), ``s + 3`` sits on its left (rules.md, "The fixed
core"). Times are epoch seconds (float) from the manager's injected clock; money is whole
virtual dollars.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from engine.hand import HandOutcome
from engine.moves import Move
from engine.rules import Rules
from engine.views import PublicView, SeatView

if TYPE_CHECKING:  # pragma: no cover
    from render import SeatFacts, TableFacts

__all__ = [
    "EMOTES",
    "PRESS_PREFIX",
    "REFUSAL_REASONS",
    "ChatRef",
    "ChatRulesChanged",
    "ChatRulesInfo",
    "ComeBack",
    "Command",
    "Emote",
    "EmoteShown",
    "Event",
    "FillWithRobots",
    "ForgedPress",
    "HandEnded",
    "HandStarted",
    "InvitePartner",
    "Leave",
    "MatchEnded",
    "MatchStarted",
    "MoveChoice",
    "MovePlayed",
    "OpenTable",
    "PlayMove",
    "PlayNow",
    "PlayerRef",
    "PlayerSeated",
    "PlayerUnseated",
    "Port",
    "Press",
    "PressButton",
    "Refusal",
    "Rematch",
    "Reply",
    "RobotSeat",
    "SeatGivenBack",
    "SeatInfo",
    "SeatTakenByRobot",
    "SetChatRules",
    "ShowMyTiles",
    "SitAt",
    "TableChanged",
    "TableClosed",
    "TurnStarted",
    "YourTiles",
    "decode_press",
    "encode_action",
    "encode_press",
]

# --------------------------------------------------------------------------- references


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A person on a platform, as the adapter knows them.

    Attributes:
        platform: ``"telegram"``, ``"discord"``, ``"terminal"`` (tests may use others).
        user_id: the platform's user id, as text (e.g. ``"123456789"``).
        display_name: the name shown at the table.
        language: ``"es"`` (default) or ``"en"``, from the platform's locale.
    """

    platform: str
    user_id: str
    display_name: str
    language: str = "es"

    @property
    def key(self) -> tuple[str, str]:
        """``(platform, user_id)``: who this is, whatever their name or language."""
        return (self.platform, self.user_id)


@dataclass(frozen=True, slots=True)
class ChatRef:
    """Where a table lives (and whose rules apply).

    Attributes:
        platform: as :attr:`PlayerRef.platform`.
        chat_id: the group: a Telegram chat id, a Discord server (guild) id, ``"local"``
            for the terminal. The chat's rules and rankings are keyed by it.
        channel_id: the Discord channel holding the board (None on Telegram).
        thread_id: the Telegram forum topic (``message_thread_id``), or a Discord thread.
        language: the chat's language for group messages, ``"es"`` by default.
    """

    platform: str
    chat_id: str
    channel_id: str | None = None
    thread_id: str | None = None
    language: str = "es"

    @property
    def key(self) -> str:
        """The storage chat key ``"<platform>:<chat id>"`` (rules, rankings, history)."""
        return f"{self.platform}:{self.chat_id}"

    @property
    def place(self) -> tuple[str, str, str | None, str | None]:
        """Where a board is shown: "play now" looks for open tables in the same place."""
        return (self.platform, self.chat_id, self.channel_id, self.thread_id)


@dataclass(frozen=True, slots=True)
class RobotSeat:
    """A robot chosen for a seat when building a table.

    Attributes:
        level: an ``engine.robots.LEVELS`` name; None for the default level.
    """

    level: str | None = None


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PlayNow:
    """Seat me at the open table of this place with the fewest free seats, or open one
    (rules.md, "The house": play now). A seat reserved for me (an invitation, a rematch)
    is taken first."""

    player: PlayerRef
    chat: ChatRef


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Open a table in this place, sitting at seat 0.

    Attributes:
        preset: a preset name, or None for the chat's rules.
        overrides: single options (``engine.rules.OPTION_VALUES`` names). When the chat's
            admins have set rules, only ``turn_seconds`` and ``forced_move_seconds`` may be
            changed by a player (refusal ``rules_locked`` otherwise).
        right, across, left: who sits at seats 1, 2 and 3: a :class:`PlayerRef` (the seat
            is reserved until they sit), a :class:`RobotSeat`, or None (open).
    """

    player: PlayerRef
    chat: ChatRef
    preset: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)
    right: PlayerRef | RobotSeat | None = None
    across: PlayerRef | RobotSeat | None = None
    left: PlayerRef | RobotSeat | None = None


@dataclass(frozen=True, slots=True)
class SitAt:
    """Take seat ``seat`` (0..3) at a waiting table, or any free seat when None."""

    player: PlayerRef
    chat: ChatRef
    table_id: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class InvitePartner:
    """Reserve the seat across from me at my waiting table (in this place) for ``partner``."""

    player: PlayerRef
    chat: ChatRef
    partner: PlayerRef
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class FillWithRobots:
    """Fill the free seats of my waiting table (or ``table_id``) with robots now."""

    player: PlayerRef
    chat: ChatRef
    table_id: str | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave my table: free before the match starts; during a match a robot takes the seat
    and my stake is forfeited unless I come back within 5 minutes (rules.md, "The house")."""

    player: PlayerRef
    chat: ChatRef | None = None
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class PlayMove:
    """Play ``code`` (``engine.moves.Move.code``) as move ``move_number`` (from 1, passes
    included) of hand ``hand_number`` (from 1) at ``table_id``. ``chat`` is where the
    press came from (a private chat is fine)."""

    player: PlayerRef
    table_id: str
    hand_number: int
    move_number: int
    code: str
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class PressButton:
    """A raw button payload (untrusted), decoded and checked by the core: a move, a seat,
    robots now, an emote, my tiles, come back, leave or rematch."""

    player: PlayerRef
    payload: str
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class ComeBack:
    """Take my seat back from the robot (within 5 minutes), with the same tiles."""

    player: PlayerRef
    chat: ChatRef | None = None
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class Emote:
    """Show emote ``name`` (one of :data:`EMOTES`) at my table; at most one every few
    seconds per player (refusal ``emote_too_soon`` with ``wait_seconds``)."""

    player: PlayerRef
    name: str
    chat: ChatRef | None = None
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class ShowMyTiles:
    """Send me my tiles again: the :class:`YourTiles` comes back in the reply only (the
    adapter shows it privately or ephemerally)."""

    player: PlayerRef
    chat: ChatRef | None = None
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class Rematch:
    """Open a new table in the same place with the same seats as ended table
    ``table_id``: robots again, the other humans' seats reserved for them."""

    player: PlayerRef
    chat: ChatRef
    table_id: str


@dataclass(frozen=True, slots=True)
class SetChatRules:
    """Set the chat's preset and single options (admins only).

    The adapter checks admin rights on its platform and says so in ``is_admin``; the core
    refuses (``not_admin``) when False and validates the options (``bad_rules``).
    """

    player: PlayerRef
    chat: ChatRef
    preset: str
    overrides: Mapping[str, Any] = field(default_factory=dict)
    is_admin: bool = False


Command = (
    PlayNow
    | OpenTable
    | SitAt
    | InvitePartner
    | FillWithRobots
    | Leave
    | PlayMove
    | PressButton
    | ComeBack
    | Emote
    | ShowMyTiles
    | Rematch
    | SetChatRules
)
"""Everything an adapter may ask of the core."""

# --------------------------------------------------------------------------- events

Phase = Literal["waiting", "countdown", "playing", "ended"]
"""A table's phase: seats filling; counting down to the start; a match on; over."""

EMOTES: tuple[str, ...] = (
    "buena",
    "gracias",
    "rapido",
    "ups",
    "jaja",
    "pensando",
    "capicua",
    "hola",
)
"""Emote names (rules.md, "Emotes"); labels come from the ``core`` catalog
(``bot.i18n.emote_label``)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat, as everyone may see it.

    Attributes:
        seat: 0..3.
        name: the display name (a robot's label for robots; empty when the seat is open).
        player: the human sitting here (also while a robot plays for them), or None.
        player_id: the storage player id of that human, or None.
        is_robot: a robot plays this seat now (a robot seat, or a human's stand-in).
        robot_level: the robot's level when ``is_robot``.
        away: the human left or dropped and a robot plays for them until they come back.
        back_by: when ``away``, the deadline (epoch seconds) to come back.
        reserved_for: an open seat held for this invited player.
    """

    seat: int
    name: str = ""
    player: PlayerRef | None = None
    player_id: int | None = None
    is_robot: bool = False
    robot_level: str | None = None
    away: bool = False
    back_by: float | None = None
    reserved_for: PlayerRef | None = None

    @property
    def is_open(self) -> bool:
        return self.player is None and not self.is_robot


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """One legal move of a seat, ready for a button.

    Attributes:
        move: the engine move.
        code: its compact code (``"64l"``, ``"p"``).
        label: a short button label in the player's language.
        payload: the button payload (:func:`encode_press`).
    """

    move: Move
    code: str
    label: str
    payload: str


@dataclass(frozen=True, slots=True, kw_only=True)
class _TableEvent:
    table_id: str
    chat: ChatRef


@dataclass(frozen=True, slots=True, kw_only=True)
class TableChanged(_TableEvent):
    """The table's public state changed: redraw the board (group).

    Attributes:
        label: a short table name for people (e.g. ``"Mesa 3"``-style number ``"3"``).
        phase: see :data:`Phase`.
        rules: the table's rule set.
        seats: the four seats.
        view: the public view of the current hand (None before the first deal).
        hand_number, move_number: the current hand (from 1) and the number the next move
            will have (from 1); 0 before the match.
        deadline: when the current timer fires (fill with robots, countdown, turn), or None.
        seconds_left: whole seconds to ``deadline`` when this was sent, or None.
        turn: the seat to move, or None.
    """

    label: str
    phase: Phase
    rules: Rules
    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]
    view: PublicView | None = None
    hand_number: int = 0
    move_number: int = 0
    deadline: float | None = None
    seconds_left: int | None = None
    turn: int | None = None

    def table_facts(self, language: str | None = None) -> TableFacts:
        """The ``render.TableFacts`` for drawing this board."""
        from bot.i18n import translator
        from render import TableFacts

        language = language or self.chat.language
        facts = tuple(_seat_facts(x) for x in self.seats)
        return TableFacts(
            seats=(facts[0], facts[1], facts[2], facts[3]),
            seconds_left=self.seconds_left,
            table_label=translator(language)("Table {label}", label=self.label),
            language=language,
        )


def _seat_facts(seat: SeatInfo) -> SeatFacts:
    """A seat for the renderer: an open seat is ``is_open``, named after the player it
    is held for (if any)."""
    from render import SeatFacts

    if seat.is_open:
        held = seat.reserved_for.display_name if seat.reserved_for is not None else ""
        return SeatFacts(name=held, is_open=True)
    return SeatFacts(name=seat.name, is_robot=seat.is_robot, away=seat.away)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSeated(_TableEvent):
    """A human sat down (adapters check here that they can reach the player privately)."""

    seat: int
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerUnseated(_TableEvent):
    """A human left a table before its match started (nothing paid)."""

    seat: int
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchStarted(_TableEvent):
    """The match began: each human in ``stakes`` (storage player id -> dollars) paid."""

    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]
    rules: Rules
    stakes: Mapping[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(_TableEvent):
    """A hand was dealt (private tiles follow as :class:`YourTiles`)."""

    hand_number: int
    starter: int
    view: PublicView


@dataclass(frozen=True, slots=True, kw_only=True)
class YourTiles(_TableEvent):
    """A seat's private view, sent to the human at that seat after each move.

    Attributes:
        to: the human.
        seat: their seat.
        view: their :class:`~engine.views.SeatView`.
        moves: their legal moves now (empty when it is not their turn).
        hand_number, move_number: what a move press must carry.
        is_your_turn: it is their turn now (notify them).
        deadline: their turn's deadline, when it is their turn.
        seats: the four seats (names for the hand picture).
    """

    to: PlayerRef
    seat: int
    view: SeatView
    moves: tuple[MoveChoice, ...]
    hand_number: int
    move_number: int
    is_your_turn: bool
    deadline: float | None
    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]
    label: str = ""

    def table_facts(self, seconds_left: int | None = None) -> TableFacts:
        """The ``render.TableFacts`` for drawing this hand, in the player's language."""
        from bot.i18n import translator
        from render import SeatFacts, TableFacts

        facts = tuple(SeatFacts(name=x.name, is_robot=x.is_robot, away=x.away) for x in self.seats)
        return TableFacts(
            seats=(facts[0], facts[1], facts[2], facts[3]),
            seconds_left=seconds_left,
            table_label=translator(self.to.language)("Table {label}", label=self.label),
            language=self.to.language,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(_TableEvent):
    """Seat ``seat`` is to move by ``deadline`` (``player`` None for a robot seat)."""

    seat: int
    player: PlayerRef | None
    deadline: float
    seconds: int
    hand_number: int
    move_number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePlayed(_TableEvent):
    """A move (or pass) was played.

    Attributes:
        seat: who moved.
        move: the move.
        by: ``"player"`` (the human pressed), ``"robot"`` (a robot's seat or a robot
            standing in for an away player), ``"timeout"`` (a robot played this one move
            when time ran out), ``"forced"`` (the only legal move, played after
            ``forced_move_seconds``).
        hand_number: the hand; move_number: this move's number (from 1).
        view: the public view after the move.
    """

    seat: int
    move: Move
    by: Literal["player", "robot", "timeout", "forced"]
    hand_number: int
    move_number: int
    view: PublicView


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(_TableEvent):
    """A hand ended (rules.md, "Points").

    Attributes:
        outcome: the engine's :class:`~engine.hand.HandOutcome`.
        hand_points: points won this hand by team, e.g. ``(0, 24)``.
        score: running totals by team after the hand, e.g. ``(24, 34)``.
        view: the public view (outcome set) for ``render.hand_result_png``.
    """

    hand_number: int
    outcome: HandOutcome
    hand_points: tuple[int, int]
    score: tuple[int, int]
    view: PublicView


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded(_TableEvent):
    """The match is over and settled (rules.md, "The house").

    Attributes:
        winner_team: 0 (seats 0 and 2) or 1 (seats 1 and 3).
        score: final totals by team.
        winners: the humans paid (robots are never paid).
        payouts: seat -> dollars received (for ``render.match_result_png``).
        payouts_by_player: storage player id -> dollars received.
        balances: storage player id -> balance after settlement, for every human seated.
        record: the match record (records.md).
        view: the last hand's public view.
        seats: the four seats.
    """

    winner_team: int
    score: tuple[int, int]
    winners: tuple[PlayerRef, ...]
    payouts: Mapping[int, int]
    payouts_by_player: Mapping[int, int]
    balances: Mapping[int, int]
    record: Mapping[str, Any]
    view: PublicView
    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]


@dataclass(frozen=True, slots=True, kw_only=True)
class EmoteShown(_TableEvent):
    """A player's emote (``name`` in :data:`EMOTES`; label via ``bot.i18n.emote_label``)."""

    seat: int
    player: PlayerRef
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatTakenByRobot(_TableEvent):
    """A robot plays for a human from now on.

    Attributes:
        reason: ``"left"`` (they left), ``"missed_turns"`` (several turns timed out).
        back_by: the deadline to come back and keep the stake (epoch seconds).
    """

    seat: int
    player: PlayerRef
    reason: Literal["left", "missed_turns"]
    back_by: float


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatGivenBack(_TableEvent):
    """A human came back within the time and plays their seat (same tiles) again."""

    seat: int
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(_TableEvent):
    """The table is gone: finished, or cancelled.

    Attributes:
        reason: ``"finished"`` (after :class:`MatchEnded`), ``"no_humans"`` (every human
            left: stakes refunded to those still entitled), ``"empty"`` (everyone left a
            waiting table).
        refunds: storage player id -> dollars refunded.
    """

    reason: Literal["finished", "no_humans", "empty"]
    refunds: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatRulesChanged(_TableEvent):
    """An admin changed the chat's rules (``table_id`` is empty): new tables use them."""

    preset: str
    overrides: Mapping[str, Any]
    rules: Rules
    by: PlayerRef


REFUSAL_REASONS: tuple[str, ...] = (
    "forged",  # the payload or code cannot be read
    "table_gone",  # no such table (ended, or never existed)
    "not_seated",  # the player has no seat at this table (a foreign press)
    "no_table",  # the player has no table here
    "stale",  # the hand or move number is not the current one (an old or repeated press)
    "not_your_turn",
    "illegal_move",  # params: reason (engine IllegalMoveError reason)
    "robot_playing",  # the player is away: come back first
    "seat_taken",
    "seat_reserved",
    "bad_seat",
    "table_full",
    "already_seated",  # params: table_id (the player already sits at a table here)
    "already_started",
    "not_started",
    "insufficient_funds",  # params: balance, stake
    "emote_too_soon",  # params: wait_seconds
    "unknown_emote",
    "not_away",
    "too_late",  # came back after the 5 minutes
    "not_admin",
    "bad_rules",  # params: option, allowed
    "rules_locked",  # params: option (the chat's admins fixed the rules)
    "unknown_level",
    "not_ended",
    "wrong_platform",
)
"""Every refusal reason code; ``bot.i18n`` phrases each in ``core``'s catalogs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """A command was refused; nothing changed.

    Attributes:
        to: the player refused.
        reason: one of :data:`REFUSAL_REASONS`.
        params: values for phrasing (e.g. ``{"wait_seconds": 3}``).
        text: a ready sentence in the player's language (``core`` catalog).
        table_id: the table concerned, if any.
    """

    to: PlayerRef
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""
    table_id: str | None = None


Event = (
    Refusal
    | TableChanged
    | PlayerSeated
    | PlayerUnseated
    | MatchStarted
    | HandStarted
    | YourTiles
    | TurnStarted
    | MovePlayed
    | HandEnded
    | MatchEnded
    | EmoteShown
    | SeatTakenByRobot
    | SeatGivenBack
    | TableClosed
    | ChatRulesChanged
)
"""Everything the core tells a front end through its :class:`Port`. A :class:`Refusal`
arrives as an event only when it is not the answer to a command (e.g. a player who could
not pay the stake when the countdown ended is told and unseated)."""


@dataclass(frozen=True, slots=True)
class ChatRulesInfo:
    """A chat's rules, for ``/reglas`` and the admins' menu.

    Attributes:
        chat: the storage chat key.
        preset: the preset name.
        overrides: options changed on top of the preset.
        rules: the resulting rule set.
        set_by_admins: False when the chat never set rules (the default preset applies,
            and players may pick a preset for their own tables).
    """

    chat: str
    preset: str
    overrides: Mapping[str, Any]
    rules: Rules
    set_by_admins: bool


@dataclass(frozen=True, slots=True)
class Reply:
    """The core's immediate answer to a command (for the actor only).

    Attributes:
        refusal: why the command was refused (nothing changed), or None.
        table_id: the table concerned (e.g. the one the player was seated at).
        seat: the actor's seat there, if any.
        events: events meant for the actor's eyes only (e.g. :class:`YourTiles`).
        text: a short confirmation sentence in the actor's language (may be empty).
    """

    refusal: Refusal | None = None
    table_id: str | None = None
    seat: int | None = None
    events: tuple[Event, ...] = ()
    text: str = ""

    @property
    def ok(self) -> bool:
        return self.refusal is None


@runtime_checkable
class Port(Protocol):
    """What a front end implements to receive events (register it with
    ``manager.register(platform, port)``; platform ``"*"`` receives every event)."""

    async def deliver(self, event: Event) -> None:
        """Show ``event``; called in order per table, never concurrently for one table.
        Exceptions are logged by the manager and do not stop the table."""
        ...


# --------------------------------------------------------------------------- button payloads

PRESS_PREFIX = "dm1"
"""Every payload starts with this (a version too): ``dm1:<kind>:<table>:...``."""

_TABLE_ID = re.compile(r"[0-9a-z]{1,16}")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")
_MOVE_CODE = re.compile(r"p|[0-6][0-6][lr]?")
_ARG = re.compile(r"[0-9a-z_]{0,16}")
_KINDS = {
    "m": "move",
    "s": "sit",
    "r": "robots",
    "e": "emote",
    "t": "tiles",
    "b": "back",
    "x": "leave",
    "a": "again",
}
MAX_PAYLOAD = 64


class ForgedPress(ValueError):
    """A button payload that this bot did not make (or that was tampered with)."""


@dataclass(frozen=True, slots=True)
class Press:
    """A decoded button payload.

    Attributes:
        kind: ``"move"``, ``"sit"`` (arg: seat or empty), ``"robots"``, ``"emote"`` (arg:
            emote name), ``"tiles"``, ``"back"``, ``"leave"``, ``"again"`` (rematch).
        table_id: the table.
        hand_number, move_number: for a move (0 otherwise).
        code: the move code for a move, else the argument (may be empty).
    """

    kind: str
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


def encode_action(kind: str, table_id: str, arg: str | int = "") -> str:
    """The payload of a table button: ``kind`` one of ``"sit"`` (arg: seat 0..3 or ""),
    ``"robots"``, ``"emote"`` (arg: emote name), ``"tiles"``, ``"back"``, ``"leave"``,
    ``"again"``.

    Raises:
        ValueError: an unknown kind or a bad argument.
    """
    letters = {v: k for k, v in _KINDS.items()}
    if kind not in letters or kind == "move":
        raise ValueError(f"unknown button kind {kind!r}")
    text = f"{PRESS_PREFIX}:{letters[kind]}:{table_id}:{arg}"
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
    if kind == "move":
        if len(parts) != 6:
            raise ForgedPress(f"bad move payload {text!r}")
        hand, move, code = parts[3], parts[4], parts[5]
        if not (_NUMBER.fullmatch(hand) and _NUMBER.fullmatch(move)):
            raise ForgedPress(f"bad numbers in {text!r}")
        if not _MOVE_CODE.fullmatch(code):
            raise ForgedPress(f"bad move code in {text!r}")
        return Press("move", table_id, int(hand), int(move), code)
    if len(parts) != 4 or not _ARG.fullmatch(parts[3]):
        raise ForgedPress(f"bad payload {text!r}")
    arg = parts[3]
    if kind == "sit" and arg not in ("", "0", "1", "2", "3"):
        raise ForgedPress(f"bad seat in {text!r}")
    if kind == "emote" and arg not in EMOTES:
        raise ForgedPress(f"unknown emote in {text!r}")
    return Press(kind, table_id, 0, 0, arg)
