"""What the core tells front ends: events, refusals, replies and the port they arrive by.

Events go to the :class:`Port` registered for the table's platform, one
``await port.deliver(event)`` at a time per table, in order (:mod:`bot.core.outbox`).
Every event names its ``table_id`` and ``chat``; private events also name the player
``to``. Nothing here draws or phrases text: :mod:`bot.present` turns events into screens
in the reader's language.

Times are epoch seconds (float) from the manager's injected clock; money is whole
virtual dollars.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from bot.core.commands import ChatRef, PlayerRef
from bot.core.tournaments.model import Partners, TournamentKind
from bot.core.vocabulary import (
    AwayReason,
    CloseReason,
    FriendNews,
    ModerationAction,
    MovedBy,
    Phase,
    Presence,
    RefusalReason,
    ReportReason,
    TournamentNews,
    TournamentStatus,
)
from engine.hand import HandOutcome
from engine.moves import Move
from engine.rules import OptionValue, Rules
from engine.tiles import Tile
from engine.views import PublicView, SeatView
from storage.base import RankRow

__all__ = [
    "AccuracyFlag",
    "ChatRulesChanged",
    "ChatRulesInfo",
    "CollusionFlag",
    "EmoteShown",
    "Event",
    "FriendInfo",
    "FriendUpdate",
    "FriendsView",
    "HandEnded",
    "HandStarted",
    "LinkInfo",
    "MatchEnded",
    "MatchStarted",
    "ModerationDesk",
    "ModerationEntryInfo",
    "MoveChoice",
    "MovePlayed",
    "PlayerSeated",
    "PlayerUnseated",
    "Port",
    "RecordView",
    "Refusal",
    "Refused",
    "Reply",
    "ReportFiled",
    "ReportInfo",
    "SeasonEnded",
    "SeatGivenBack",
    "SeatInfo",
    "SeatKept",
    "SeatTakenByRobot",
    "TableChanged",
    "TableClosed",
    "TurnReminder",
    "TurnStarted",
    "YourTiles",
]

Seats = tuple["SeatInfo", ...]


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
        payload: the button payload (:func:`encode_press`).
    """

    move: Move
    code: str
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
        phase: see :class:`~bot.core.vocabulary.Phase`.
        rules: the table's rule set.
        seats: the table's seats (2, 3 or 4).
        view: the public view of the current hand (None before the first deal).
        hand_number, move_number: the current hand (from 1) and the number the next move
            will have (from 1); 0 before the match.
        deadline: when the current timer fires (fill with robots, countdown, turn), or None.
        seconds_left: whole seconds to ``deadline`` when this was sent, or None.
        turn: the seat to move, or None.
        challenge: a challenge (reto) waiting for its answer: the open seat is kept for
            the challenged player, who may accept (sit) or decline.
    """

    label: str
    phase: Phase
    rules: Rules
    seats: Seats
    view: PublicView | None = None
    hand_number: int = 0
    move_number: int = 0
    deadline: float | None = None
    seconds_left: int | None = None
    turn: int | None = None
    challenge: bool = False
    tournament: bool = False  # a tournament's table: its seats kept, no robot fills them
    private: bool = False  # played in private messages and on the web: no board in the chat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatKept(_TableEvent):
    """A tournament's table played privately opened with a seat kept for ``to``: they
    are told privately where to sit (docs/tournaments.md, "Within the platforms' limits").

    Attributes:
        to: the player the seat is kept for.
        seat: their seat.
        label: the table's label ("3").
        tournament: the tournament's name.
        opponents: the other side's names, in seat order.
        wait_seconds: how long the seat waits before it loses the match (seconds).
        partners: their partner's name in partnership play (drawn anew each round, or
            fixed); empty one against one.
    """

    to: PlayerRef
    seat: int
    label: str
    tournament: str
    opponents: tuple[str, ...]
    wait_seconds: float
    partners: tuple[str, ...] = ()


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

    seats: Seats
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
        seats: the table's seats (names for the hand picture).
        drawn: the tile this seat just drew from the boneyard (rules.md, "Formats"):
            private to it, set only on the tiles sent right after its draw.
    """

    to: PlayerRef
    seat: int
    view: SeatView
    moves: tuple[MoveChoice, ...]
    hand_number: int
    move_number: int
    is_your_turn: bool
    deadline: float | None
    seats: Seats
    label: str = ""
    drawn: Tile | None = None


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
class TurnReminder(_TableEvent):
    """Half the time of ``player``'s turn at a slow table is gone (rules.md, "Slow
    tables"): they have until ``deadline`` (epoch seconds), ``seconds`` from now."""

    label: str
    seat: int
    player: PlayerRef
    deadline: float
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePlayed(_TableEvent):
    """A move (or pass) was played.

    Attributes:
        seat: who moved.
        move: the move.
        by: who made it (:class:`~bot.core.vocabulary.MovedBy`).
        hand_number: the hand; move_number: this move's number (from 1).
        view: the public view after the move.
    """

    seat: int
    move: Move
    by: MovedBy
    hand_number: int
    move_number: int
    view: PublicView


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(_TableEvent):
    """A hand ended (rules.md, "Points").

    Attributes:
        outcome: the engine's :class:`~engine.hand.HandOutcome`.
        hand_points: points won this hand by side (``Rules.sides``: two partnerships,
            or one per seat in individual play), e.g. ``(0, 24)``.
        score: running totals by side after the hand, e.g. ``(24, 34)``.
        view: the public view (outcome set) for ``render.hand_result_png``.
        hands: each seat's tiles left when the hand ended, by seat: shown to everyone
            then, as players turn their tiles up to count them (rules.md, "Points").
    """

    hand_number: int
    outcome: HandOutcome
    hand_points: tuple[int, int]
    score: tuple[int, int]
    view: PublicView
    hands: tuple[tuple[Tile, ...], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded(_TableEvent):
    """The match is over and settled (rules.md, "The house").

    Attributes:
        winner_team: the winning side (``Rules.side_of``): 0 (seats 0 and 2) or 1
            (seats 1 and 3) in partnership play, the winning seat in individual play.
        score: final totals by side.
        winners: the humans paid (robots are never paid).
        payouts: seat -> dollars received (for ``render.match_result_png``).
        payouts_by_player: storage player id -> dollars received.
        balances: storage player id -> balance after settlement, for every human seated.
        record: the match record (records.md).
        view: the last hand's public view.
        seats: the table's seats (2, 3 or 4).
    """

    winner_team: int
    score: tuple[int, int]
    winners: tuple[PlayerRef, ...]
    payouts: Mapping[int, int]
    payouts_by_player: Mapping[int, int]
    balances: Mapping[int, int]
    record: Mapping[str, object]
    view: PublicView
    seats: Seats


@dataclass(frozen=True, slots=True, kw_only=True)
class EmoteShown(_TableEvent):
    """A player's emote (``name`` in ``EMOTES``; the presentation layer labels it).

    ``muted_by``: the keys of the players seated at the table who muted its author (issue
    33): the screens show it to none of them (docs/moderation.md, "Mute")."""

    seat: int
    player: PlayerRef
    name: str
    muted_by: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatTakenByRobot(_TableEvent):
    """A robot plays for a human from now on.

    Attributes:
        reason: they left, or several turns timed out (:class:`AwayReason`).
        back_by: the deadline to come back and keep the stake (epoch seconds).
        seconds: whole seconds from this event to ``back_by`` (the house's
            ``return_seconds``), for texts that say the time left.
    """

    seat: int
    player: PlayerRef
    reason: AwayReason
    back_by: float
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatAbandoned(_TableEvent):
    """A human abandoned a started match: their stake is forfeited and a robot plays
    their seat to the end, never paid (rules.md, "The house").

    Attributes:
        reason: ``left``: they left on purpose (the leave command or button, ``q`` in the
            terminal); ``missed_turns``: a robot played for them and they did not come
            back within the 5 minutes.
        stake: the dollars forfeited (0 at a table without a stake).
        last: no human is left at the table: the match ends with this, nobody paid (no
            robot plays on).
    """

    seat: int
    player: PlayerRef
    reason: AwayReason
    stake: int
    last: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatGivenBack(_TableEvent):
    """A human came back within the time and plays their seat (same tiles) again."""

    seat: int
    player: PlayerRef


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(_TableEvent):
    """The table is gone: finished, or cancelled.

    Attributes:
        reason: :class:`CloseReason` (finished after :class:`MatchEnded`; no humans: every
            human abandoned a started match, their stakes forfeited, nobody paid; empty:
            everyone left a waiting table; cancelled, unreachable, by admin: the house
            called it off and refunded every held stake).
        refunds: storage player id -> dollars refunded.
        humans: the humans who held a seat (away ones too), so a front end can tell them
            privately when the table's chat cannot be used (``unreachable``).
        label: the table's number for people (``"3"``).
    """

    reason: CloseReason
    refunds: Mapping[int, int] = field(default_factory=dict)
    humans: tuple[PlayerRef, ...] = ()
    label: str = ""
    tournament: bool = False  # a tournament's table: no stake; its tournament scores it


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatRulesChanged(_TableEvent):
    """An admin changed the chat's rules (``table_id`` is empty): new tables use them.
    ``language`` is the chat's new language when the admin changed it (``chat`` speaks
    it already), else None; ``rules_changed`` is False when only the language changed."""

    preset: str
    overrides: Mapping[str, OptionValue]
    rules: Rules
    by: PlayerRef
    language: str | None = None
    rules_changed: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonEnded(_TableEvent):
    """A chat's season ended (``table_id`` is empty): its final standings, once
    (docs/ratings.md, "Seasons"). ``season`` and ``next_season`` are season keys
    (``"2026-11"``); ``rows`` the final table, best first (may be empty)."""

    season: str
    next_season: str
    rows: tuple[RankRow, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """A command was refused; nothing changed.

    Attributes:
        to: the player refused.
        reason: why (:class:`~bot.core.vocabulary.RefusalReason`).
        params: values for phrasing (e.g. ``{"wait_seconds": 3}``); see each reason.
        table_id: the table concerned, if any.
    """

    to: PlayerRef
    reason: RefusalReason
    params: Mapping[str, str | int] = field(default_factory=dict)
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class StandingInfo:
    """A line of a Swiss's or an arena's standings: place, the entrant's players' names,
    score (Swiss: wins; arena: points), points difference, matches and the current
    winning streak (arena)."""

    place: int
    names: tuple[str, ...]
    score: int
    difference: int
    matches: int
    streak: int


@dataclass(frozen=True, slots=True)
class PairingInfo:
    """A pairing being played: both entrants' players' names, its table's label and its
    table's id (what a spectator link names)."""

    first: tuple[str, ...]
    second: tuple[str, ...]
    label: str
    table_id: str = ""


@dataclass(frozen=True, slots=True)
class SeriesInfo:
    """A knockout pairing as its bracket shows it: each line's players' names (None: an
    empty line, a bye, or one nobody reached yet), the matches each won (a best-of-N) or
    the points of its single match, the winner's line (0, 1, None) and whether a
    no-show decided it."""

    first: tuple[str, ...] | None
    second: tuple[str, ...] | None
    scores: tuple[int, int] | None
    winner: int | None
    no_show: bool = False


@dataclass(frozen=True, slots=True)
class PlaceInfo:
    """A final place: its number, the players holding it and their prize in dollars."""

    number: int
    names: tuple[str, ...]
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as its chat's screens show it (docs/tournaments.md, "The service").

    Attributes:
        id, name, kind, status, preset: which one and how it is played.
        fee, pool: the entry fee and the prize pool held, dollars.
        starts_at: when sign-up closes (epoch seconds).
        signed: the names signed up, in order.
        entrants: entrants once started; round / rounds: the round played (knockout,
            Swiss) and a Swiss's rounds; minutes: an arena's length.
        pairings: the tables in play; standings: a Swiss's or an arena's lines;
        places: the final places with their prizes; dropped: who could not pay the
            fee at the start; refunded: dollars given back on a cancel.
        seconds_left: until sign-up closes, or an arena ends, as it was told.
    """

    id: str
    name: str
    kind: TournamentKind
    status: TournamentStatus
    preset: str
    fee: int
    pool: int
    starts_at: float
    signed: tuple[str, ...]
    entrants: int
    round: int
    rounds: int
    minutes: int
    pairings: tuple[PairingInfo, ...] = ()
    standings: tuple[StandingInfo, ...] = ()
    places: tuple[PlaceInfo, ...] = ()
    dropped: tuple[str, ...] = ()
    refunded: int = 0
    bracket: tuple[tuple[SeriesInfo, ...], ...] = ()  # a knockout's rounds reached so far
    seconds_left: int = 0  # until sign-up closes (or an arena ends), when it was told
    wait_seconds: int = 120  # how long a table waits for its players (the no-show rule)
    partners: Partners = Partners.FIXED  # in partnership play: fixed, or drawn each round


@dataclass(frozen=True, slots=True)
class TournamentUpdate(_TableEvent):
    """What a tournament's chat is told: ``news`` (a :class:`TournamentNews`), the
    tournament as it is now, and the player it is about (a sign-up), if any."""

    news: TournamentNews
    view: TournamentView
    player: PlayerRef | None = None
    opened: tuple[str, ...] = ()  # the labels of the tables just opened (``ROUND``)


@dataclass(frozen=True, slots=True, kw_only=True)
class FriendUpdate(_TableEvent):
    """Friends' news for one player, privately (docs/friends.md).

    Attributes:
        to: the player told (on the platform whose port shows it: ``chat.platform``).
        news: what happened (:class:`~bot.core.vocabulary.FriendNews`).
        friend: the other player's name; friend_id: their player id (the request's
            buttons name it).
        invite: an invitation's id (``INVITED``: its button's payload names it).
        label: the invitation's table's number for people; seconds: how long its seat
            is kept.

    ``table_id`` and ``chat`` are the invitation's table's; for other news ``table_id``
    is "" and ``chat`` names only the platform (``chat_id`` "").
    """

    to: PlayerRef
    news: FriendNews
    friend: str
    friend_id: int
    invite: str = ""
    label: str = ""
    seconds: int = 0


@dataclass(frozen=True, slots=True)
class RecordView:
    """A finished match's record as its page shows it (issue 33: the link the admins
    follow from a report; docs/moderation.md).

    Attributes:
        match_id: the match (its record's id); chat: the chat key it was played in.
        finished_at: epoch seconds.
        record: the match record (records.md: rules, hands with their deals and moves,
            seats).
        names: each seat's name, by seat: its human's, or the robot's
            (:data:`~bot.core.projection.ROBOT_NAMES`).
    """

    match_id: str
    chat: str
    finished_at: float
    record: Mapping[str, object]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReportInfo:
    """A report as the admins read it (issue 33).

    Attributes:
        id: its number; reporter, reported: the players' names (``reported_ref``: the
            reported player as last seen, for the admins' ban).
        reason: why; match_id: the match (record) they shared, None when none.
        created_at: epoch seconds; accuracy: the reported player's share of moves
            within a point of the maestro's best in that match (0..1), None when not
            analysed (no record, or no real choice).
    """

    id: int
    reporter: str
    reported: str
    reason: ReportReason
    match_id: str | None
    created_at: float
    accuracy: float | None = None


@dataclass(frozen=True, slots=True)
class ModerationEntryInfo:
    """One line of the admins' log: who did what to whom, when (epoch seconds)."""

    admin: str
    action: ModerationAction
    player: str
    report_id: int | None
    at: float


@dataclass(frozen=True, slots=True)
class CollusionFlag:
    """Two accounts where money keeps flowing one way (docs/moderation.md, "Flags"):
    ``loser`` lost ``lost`` of the ``matches`` staked matches they played against
    ``winner``, ``dollars`` in stakes."""

    loser: str
    winner: str
    matches: int
    lost: int
    dollars: int


@dataclass(frozen=True, slots=True)
class AccuracyFlag:
    """A player whose moves matched the maestro's far worse against ``opponent`` than
    usual (docs/moderation.md, "Flags"): ``against`` and ``usual`` are shares of their
    choices (0..1) in the ``matches`` matches against them and in their others."""

    player: str
    opponent: str
    matches: int
    against: float
    usual: float


@dataclass(frozen=True, slots=True)
class ModerationDesk:
    """What a chat's admins see with /moderar: the open reports, the flags (money one
    way, accuracy far below usual), who is banned, and the last actions (newest first)."""

    reports: tuple[ReportInfo, ...]
    flags: tuple[CollusionFlag, ...]
    banned: tuple[str, ...]
    log: tuple[ModerationEntryInfo, ...]
    accuracy_flags: tuple[AccuracyFlag, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportFiled(_TableEvent):
    """A player reported another: the chat's admins are told privately, or in the
    channel they chose (``channel_id``, Discord). ``table_id`` is empty."""

    report: ReportInfo
    channel_id: str | None = None


Event = (
    Refusal
    | TableChanged
    | SeatKept
    | PlayerSeated
    | PlayerUnseated
    | MatchStarted
    | HandStarted
    | YourTiles
    | TurnStarted
    | TurnReminder
    | MovePlayed
    | HandEnded
    | MatchEnded
    | EmoteShown
    | SeatTakenByRobot
    | SeatAbandoned
    | SeatGivenBack
    | TableClosed
    | ChatRulesChanged
    | SeasonEnded
    | TournamentUpdate
    | FriendUpdate
    | ReportFiled
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
        language: the language of the chat's group messages (the admins' choice, else
            the one its front end gave it).
    """

    chat: str
    preset: str
    overrides: Mapping[str, OptionValue]
    rules: Rules
    set_by_admins: bool
    language: str = "es"


@dataclass(frozen=True, slots=True)
class FriendInfo:
    """One friend as ``/amigos`` lists them.

    Attributes:
        player_id, name: who.
        presence: where they are now (:class:`~bot.core.vocabulary.Presence`).
        chat, table_id, label: their table's chat, id and number for people (``TABLE``
            and ``SLOW_TABLE``); None, "" and "" otherwise.
        seen_at: when they were last seen (epoch seconds), None if never.
    """

    player_id: int
    name: str
    presence: Presence
    chat: ChatRef | None = None
    table_id: str = ""
    label: str = ""
    seen_at: float | None = None


@dataclass(frozen=True, slots=True)
class FriendsView:
    """A player's friends, at a table first, then by last seen (most recent first);
    ``requests``: the names of the players waiting for my answer, oldest first; ``now``:
    the time it was read (epoch seconds), for "seen 5 minutes ago"."""

    friends: tuple[FriendInfo, ...]
    requests: tuple[str, ...]
    now: float


@dataclass(frozen=True, slots=True)
class LinkInfo:
    """What a link command did (docs/players.md), for its answer.

    Attributes:
        code: the code given (``GiveLinkCode``), else "".
        minutes: how long the code is good for.
        platform: the other platform: where the code is accepted (``GiveLinkCode``),
            where it was given (``AcceptLinkCode``), the one the player stays with
            (``Unlink``).
        balance: the player's balance after linking or unlinking (dollars).
    """

    code: str = ""
    minutes: int = 0
    platform: str = ""
    balance: int = 0


@dataclass(frozen=True, slots=True)
class Reply:
    """The core's immediate answer to a command (for the actor only).

    Attributes:
        refusal: why the command was refused (nothing changed), or None.
        table_id: the table concerned (e.g. the one the player was seated at).
        label: that table's number for people (``"3"``), when there is one.
        seat: the actor's seat there, if any.
        events: events meant for the actor's eyes only (e.g. :class:`YourTiles`).
        preset: the chat's preset after :class:`~bot.core.commands.SetChatRules`.
        forfeited: after :class:`~bot.core.commands.Leave` of a started match, the
            dollars of the stake the player forfeited by leaving (0 without a stake);
            None when leaving cost nothing (before the match started).
        match_ended: after leaving a started match, True when no human was left at the
            table, so the match ended there (nobody paid; rules.md, "The house").
        friend: after a friends command, what it did (``REQUESTED``: asked;
            ``ACCEPTED``: we are friends now; ``INVITED``: a seat waits for them), with
            the friend's name in ``label``; None otherwise.
        link: after a link command (``GiveLinkCode``, ``AcceptLinkCode``, ``Unlink``),
            what it did.
    """

    refusal: Refusal | None = None
    table_id: str | None = None
    label: str = ""
    seat: int | None = None
    events: tuple[Event, ...] = ()
    preset: str | None = None
    forfeited: int | None = None
    match_ended: bool = False
    friend: FriendNews | None = None
    link: LinkInfo | None = None

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


class Refused(Exception):
    """Raised inside the core to refuse a command; :meth:`TableManager.handle` turns it
    into ``Reply(refusal=Refusal(...))``. Nothing may have changed when it is raised."""

    def __init__(
        self, reason: RefusalReason, table_id: str | None = None, /, **params: str | int
    ) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.table_id = table_id
        self.params = params

    def refusal(self, to: PlayerRef) -> Refusal:
        """The refusal as the actor receives it."""
        return Refusal(to=to, reason=self.reason, params=self.params, table_id=self.table_id)
