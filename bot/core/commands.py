"""What front ends send the core: player and chat references and the commands.

Commands are frozen dataclasses; each carries the acting :class:`PlayerRef` and, where a
chat matters, the :class:`ChatRef` it came from. ``await manager.handle(command)``
applies one and returns a :class:`~bot.core.events.Reply` at once (see
:mod:`bot.core.messagebus`). The writes that are no player's move at a table are
chores (:class:`Chore`, at the end): ``await manager.run(chore)`` returns their result.
Nothing here draws or phrases text.

Seats: 0..3, counter-clockwise; seat ``s + 1`` plays after seat ``s`` and sits on its
right, ``s + 2`` is its partner (across), ``s + 3`` sits on its left (rules.md, "The fixed
core"). Money is whole virtual dollars.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.core.tournaments.model import Partners, TournamentKind
from engine.rules import OptionValue, Rules
from storage.ratings import SeasonPeriod

__all__ = [
    "AcceptLinkCode",
    "AnnounceSeasonFinals",
    "AnswerFriend",
    "AskFriend",
    "BanPlayer",
    "Challenge",
    "ChatRef",
    "ChatUnreachable",
    "Chore",
    "CloseTable",
    "ComeBack",
    "Command",
    "DeclineChallenge",
    "DismissReport",
    "Emote",
    "FillWithRobots",
    "FriendPress",
    "GiveLinkCode",
    "InviteFriend",
    "InvitePartner",
    "JsonValue",
    "Leave",
    "MoveChat",
    "Mute",
    "NoteUsername",
    "OpenRobotTable",
    "OpenTable",
    "PlayMove",
    "PlayNow",
    "PlayerRef",
    "PressButton",
    "Rematch",
    "RemoveFriend",
    "ReportPlayer",
    "RobotSeat",
    "SetChatRules",
    "SetFrontEndNote",
    "SetReportChannel",
    "SetSeasonPeriod",
    "SetTurnNotifications",
    "ShowMyTiles",
    "SitAt",
    "UnbanPlayer",
    "Unlink",
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
    is taken first.

    Attributes:
        format: a format preset (``engine.rules.FORMAT_PRESET_NAMES``: ``uno-contra-uno``,
            ``individual``, ``cubano``), or None for the chat's own rules: only an open
            table of that format is joined, else one is opened (rules.md, "Formats at
            the tables"); an unknown name is refused (``bad_rules``, option ``format``).
    """

    player: PlayerRef
    chat: ChatRef
    format: str | None = None


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Open a table in this place, sitting at seat 0.

    Attributes:
        preset: a preset name, or None for the chat's rules.
        overrides: single options (``engine.rules.OPTION_VALUES`` names). When the chat's
            admins have set rules, only ``turn_seconds`` and ``forced_move_seconds`` may be
            changed by a player (refusal ``rules_locked`` otherwise).
        right, across, left: who sits at seats 1, 2 and 3: a :class:`PlayerRef` (the seat
            is reserved until they sit), a :class:`RobotSeat`, or None (open). A table
            of fewer players (a format: ``rules.players``) has only the first seats: a
            robot named for a seat past them is not seated, a player invited there takes
            the first seat nobody was chosen for (``bad_seat`` when there is none).
        formats: the front end shows every format (rules.md, "More ways to play:
            formats"): the format presets (``uno-contra-uno``, ``individual``,
            ``cubano``) may be chosen. Without it they are refused as an unknown preset
            (``bad_rules``), as at tables that play only today's game.
    """

    player: PlayerRef
    chat: ChatRef
    preset: str | None = None
    overrides: Mapping[str, OptionValue] = field(default_factory=dict)
    right: PlayerRef | RobotSeat | None = None
    across: PlayerRef | RobotSeat | None = None
    left: PlayerRef | RobotSeat | None = None
    formats: bool = False


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge ``opponent`` to one against one (rules.md, "Formats at the tables": el
    reto): a table of the chat's 1-vs-1 format, the challenger at seat 0 and seat 1 kept
    for ``opponent``, who accepts by sitting there (``SitAt``, the seat's button) or
    declines (:class:`DeclineChallenge`); unanswered, it closes when robots would have
    filled it (``HouseTimes.fill_seconds``; ``CloseReason.EXPIRED``). Nothing is staked
    before the match starts."""

    player: PlayerRef
    chat: ChatRef
    opponent: PlayerRef


@dataclass(frozen=True, slots=True)
class DeclineChallenge:
    """The challenged player says no: the challenge's table closes (``DECLINED``).
    Anyone else is refused (``not_challenged``)."""

    player: PlayerRef
    chat: ChatRef
    table_id: str


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
    """Leave my table on purpose: free before the match starts; leaving a started match
    abandons it: my stake is forfeited at once and a robot plays my seat to the end, which
    is never paid and is closed to me (rules.md, "The house"). The 5 minutes to come back
    are for a seat a robot took after missed turns, never for this."""

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
    """Show emote ``name`` (one of ``EMOTES``) at my table; at most one every few
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
    """Change the chat's rules (admins only; see :mod:`bot.core.chat_rules`).

    Attributes:
        preset: start again from this preset, or None to merge ``overrides`` over the
            chat's current preset and options.
        overrides: single options (``engine.rules.OPTION_VALUES`` names).
        is_admin: the front end checked admin rights on its platform; the core refuses
            (``not_admin``) when False and validates the options (``bad_rules``).
        language: the chat's language for group messages (``"es"``, ``"en"``), or None
            to keep it; given alone, the rules are left as they are.
    """

    player: PlayerRef
    chat: ChatRef
    preset: str | None = None
    overrides: Mapping[str, OptionValue] = field(default_factory=dict)
    is_admin: bool = False
    language: str | None = None


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close a table of this chat now, refunding every held stake (admins only; a table
    still seating, or a stuck match: nothing moved for 10 minutes, ``stuck_seconds``,
    and not one the admin plays in or left; rules.md, "The house").

    Attributes:
        table_id: the table, or None for the only live table in this place (the chat,
            and the channel or thread where it was asked).
        label: instead of ``table_id``, the table's number for people (``"3"``) in this
            chat.
        is_admin: the front end checked admin rights on its platform; the core refuses
            (``not_admin``) when False, ``no_table`` when the chat has no such table,
            ``which_table`` when several tables are here and none was named, and for a
            started match ``admin_plays`` or ``not_stuck``.
    """

    player: PlayerRef
    chat: ChatRef
    table_id: str | None = None
    label: str | None = None
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class CreateTournament:
    """An admin opens the chat's tournament (one at a time per chat; docs/tournaments.md,
    "The service"): ``kind`` knockout, Swiss or arena; ``preset`` the rules' preset or
    format name ("" the chat's own game); ``fee`` dollars; ``signup_minutes`` until it
    starts; ``rounds`` of a Swiss (0: as many as the field needs); ``minutes`` of an
    arena; ``wins_needed`` of a knockout series; ``most`` entrants; ``partners`` in
    partnership play, fixed or drawn each round (a Swiss or an arena). ``is_admin``:
    the front end checked the player's admin rights."""

    player: PlayerRef
    chat: ChatRef
    kind: TournamentKind
    is_admin: bool = False
    preset: str = ""
    fee: int = 0
    signup_minutes: int = 10
    rounds: int = 0
    minutes: int = 30
    wins_needed: int = 1
    most: int = 64
    name: str = ""
    partners: Partners = Partners.FIXED


@dataclass(frozen=True, slots=True)
class JoinTournament:
    """Sign up for the chat's tournament (before it starts; nothing paid until then).
    In partnership play ``partner`` names whom to play with: two players who name each
    other play as a fixed partnership; the others are paired by draw at the start
    (docs/tournaments.md, "The service")."""

    player: PlayerRef
    chat: ChatRef
    partner: PlayerRef | None = None


@dataclass(frozen=True, slots=True)
class LeaveTournament:
    """Leave the chat's tournament before it starts (free)."""

    player: PlayerRef
    chat: ChatRef


@dataclass(frozen=True, slots=True)
class StartTournament:
    """An admin closes sign-up and starts the chat's tournament now."""

    player: PlayerRef
    chat: ChatRef
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class CancelTournament:
    """An admin cancels the chat's tournament: every fee held is refunded."""

    player: PlayerRef
    chat: ChatRef
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class AskFriend:
    """Ask ``friend`` to be my friend (docs/friends.md): they are told privately, with
    buttons to accept or decline; if they had asked me already, we are friends at once.
    Refusals: ``friend_self``, ``friend_unknown`` (they never played here),
    ``already_friends``, ``friend_request_waits``."""

    player: PlayerRef
    friend: PlayerRef
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class AnswerFriend:
    """Accept (``accept``) or decline the friend request ``friend`` sent me (named by
    their platform reference, or by their player id ``friend_id`` from a button).
    Accepted, the one who asked is told. Refusal: ``no_friend_request``."""

    player: PlayerRef
    accept: bool
    friend: PlayerRef | None = None
    friend_id: int | None = None
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class RemoveFriend:
    """End my friendship with ``friend`` (they are not told). Refusal: ``not_friends``."""

    player: PlayerRef
    friend: PlayerRef
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class InviteFriend:
    """Keep a seat at my waiting table (in ``chat``; my only table when None) for my
    friend ``friend``, for ``HouseTimes.invite_seconds`` (2 minutes): they are sent a button that
    seats them (docs/friends.md, "Invitations"). Refusals: ``not_friends``,
    ``friend_elsewhere``, ``friend_at_table``, ``invite_waits``, ``no_table``,
    ``already_started``, ``table_full``."""

    player: PlayerRef
    friend: PlayerRef
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class FriendPress:
    """A friends button's raw payload (untrusted; :func:`bot.core.buttons.decode_friend`):
    accept or decline a request, or take the seat of an invitation. Refusals:
    ``forged``, ``no_friend_request``, ``invite_gone``, ``invite_not_yours``,
    ``invite_expired``, and what sitting down may say."""

    player: PlayerRef
    payload: str
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class Mute:
    """Mute ``target`` (``mute`` False: hear them again): their emotes no longer reach
    me on any table (issue 33; docs/moderation.md). Private: nobody is told."""

    player: PlayerRef
    target: PlayerRef
    mute: bool = True
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class ReportPlayer:
    """Report ``target`` to the chat's admins for ``reason`` (a ``ReportReason`` word);
    the report keeps the match we shared last in this chat, if any."""

    player: PlayerRef
    chat: ChatRef
    target: PlayerRef
    reason: str


@dataclass(frozen=True, slots=True)
class DismissReport:
    """An admin dismisses open report number ``report_id`` of the chat."""

    player: PlayerRef
    chat: ChatRef
    report_id: int
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class BanPlayer:
    """An admin bans ``target`` from the chat's tables (closing their open reports);
    ``report_id`` the report acted on, if any (without ``target``: its reported player,
    a report's "Vetar" button)."""

    player: PlayerRef
    chat: ChatRef
    target: PlayerRef | None = None
    is_admin: bool = False
    report_id: int | None = None


@dataclass(frozen=True, slots=True)
class UnbanPlayer:
    """An admin lifts ``target``'s ban from the chat's tables."""

    player: PlayerRef
    chat: ChatRef
    target: PlayerRef
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class SetReportChannel:
    """An admin chooses the channel the chat's reports go to (Discord; None: the
    admins' private messages)."""

    player: PlayerRef
    chat: ChatRef
    channel_id: str | None
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class GiveLinkCode:
    """Give me a short code that links this platform's identity to my other platform's
    (docs/players.md, "Linking"): one use, for ``storage.base.LINK_CODE_SECONDS``. The
    front end shows it only to the player (a private chat, an ephemeral answer)."""

    player: PlayerRef
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class AcceptLinkCode:
    """Accept the code my other platform gave: the two identities become one player
    (their wallets, ratings and history merged; docs/players.md, "Linking")."""

    player: PlayerRef
    code: str
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class Unlink:
    """Take this platform's identity out of my linked player: it starts again as a new
    player at 0 dollars; the player, with everything it holds, stays with my other
    platform (docs/players.md, "Unlinking")."""

    player: PlayerRef
    chat: ChatRef | None = None


Command = (
    PlayNow
    | OpenTable
    | SitAt
    | Challenge
    | DeclineChallenge
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
    | CloseTable
    | CreateTournament
    | JoinTournament
    | LeaveTournament
    | StartTournament
    | CancelTournament
    | AskFriend
    | AnswerFriend
    | RemoveFriend
    | InviteFriend
    | FriendPress
    | Mute
    | ReportPlayer
    | DismissReport
    | BanPlayer
    | UnbanPlayer
    | SetReportChannel
    | GiveLinkCode
    | AcceptLinkCode
    | Unlink
)
"""Everything an adapter may ask of the core."""


# --------------------------------------------------------------------------- chores

R = TypeVar("R", covariant=True)

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""A JSON value, as a front end's note holds it."""


class Chore(Generic[R]):
    """A write that is no player's move at a table: a front end's note, a chat that moved
    or became unreachable, a player's or a chat's setting, a season's finals sent, a
    robot table opened (tools, benches). ``manager.run(chore)``
    (:meth:`bot.core.messagebus.MessageBus.run`) returns its ``R``; the table manager's
    methods of the same names send them."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class SetFrontEndNote(Chore[bool]):
    """Keep ``value`` with live table ``table_id`` under ``key``, for a front end
    (:mod:`bot.core.notes`); returns False when there is no such live table."""

    table_id: str
    key: str
    value: JsonValue


@dataclass(frozen=True, slots=True)
class SetTurnNotifications(Chore[None]):
    """Set whether ``player`` is notified on each own turn (``storage.base.NOTIFICATIONS``)."""

    player: PlayerRef
    notifications: str


@dataclass(frozen=True, slots=True)
class NoteUsername(Chore[bool]):
    """Remember ``player``'s platform username (Telegram's ``@name``; None: they have
    none now) if they are a player already; returns False when they are not."""

    player: PlayerRef
    username: str | None


@dataclass(frozen=True, slots=True)
class SetSeasonPeriod(Chore[None]):
    """Change how long ``chat``'s seasons last (the front end checked ``player`` is one of
    its admins)."""

    chat: ChatRef
    period: SeasonPeriod
    player: PlayerRef


@dataclass(frozen=True, slots=True)
class MoveChat(Chore[list[str]]):
    """The platform gave a chat a new id (a Telegram group upgraded to a supergroup):
    its tables, rules, history and rankings follow (:mod:`bot.core.chats`); returns the
    ids of the live tables moved."""

    platform: str
    old_chat_id: str
    new_chat_id: str


@dataclass(frozen=True, slots=True)
class ChatUnreachable(Chore[list[str]]):
    """The bot can no longer use a chat (or only its ``channel_id``): its live tables
    close, every held stake refunded (:mod:`bot.core.chats`); returns their ids."""

    platform: str
    chat_id: str
    channel_id: str | None = None


@dataclass(frozen=True, slots=True)
class AnnounceSeasonFinals(Chore[int]):
    """Send the final standings of every ended season of this process's chats, once each
    (also done with each lease heartbeat; :mod:`bot.core.standings`); returns how many
    were sent."""


@dataclass(frozen=True, slots=True)
class OpenRobotTable(Chore[str]):
    """Open a table of robots only, one per player of its rules (simulations,
    benchmarks, tests); returns its id.

    Attributes:
        chat: where the table lives.
        rules: its rules (None: the ``venezolano`` preset).
        levels: the robots' levels by seat, the first ``rules.players`` used (None:
            the house's robot level for each); an unknown one raises ValueError.
        start: skip the countdown and deal the first hand at once.
    """

    chat: ChatRef
    rules: Rules | None = None
    levels: tuple[str, ...] | None = None
    start: bool = True
