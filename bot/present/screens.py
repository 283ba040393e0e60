"""The table's screens, built once per event and reader: what each of the core's events
shows, to whom, with what text and which actions (:func:`screens`); and the board's and
a hand's captions the pictures go with.

A front end turns each :data:`Screen` into its own widgets (a photo and its caption, an
embed, a page's JSON, lines in a terminal) and sends it; it never phrases an event or
decides who is told. Phrased from values the table manager computed (scores, points,
payouts): nothing here decides a rule, a score or an amount. See docs/architecture.md,
"Screens".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.core.commands import ChatRef, PlayerRef
from bot.core.events import (
    ChatRulesChanged,
    EmoteShown,
    Event,
    FriendInfo,
    FriendsView,
    FriendUpdate,
    HandEnded,
    MatchEnded,
    PlayerSeated,
    Refusal,
    ReportFiled,
    SeasonEnded,
    SeatAbandoned,
    SeatGivenBack,
    SeatInfo,
    SeatKept,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TournamentUpdate,
    TournamentView,
    TurnReminder,
    YourTiles,
)
from bot.core.tournaments.model import TournamentKind
from bot.core.vocabulary import (
    AwayReason,
    CloseReason,
    FriendNews,
    Presence,
    TournamentNews,
    TournamentStatus,
)
from bot.present.facts import tournament_picture
from bot.present.i18n import time_ago_text, time_left_text, translator
from bot.present.labels import (
    move_text,
    preset_label,
    score_line,
    seat_name,
    team_names,
    tournament_kind_label,
)
from bot.present.standings import season_ended_text
from bot.present.texts import (
    CAPTION_LIMIT,
    GROUP_CLOSES,
    abandoned_text,
    back_at_table_text,
    closed_text,
    emote_text,
    friend_text,
    hand_ended_text,
    match_ended_caption,
    report_filed_text,
    robot_took_seat_private_text,
    robot_took_seat_text,
    rules_changed_text,
    seat_kept_text,
    signed_text,
    tournament_round_text,
    tournament_text,
    turn_reminder_text,
    unreachable_text,
)
from render import BracketFacts, TournamentStandingsFacts

__all__ = [
    "CAPTION_LIMIT",
    "Action",
    "BoardScreen",
    "ClosedScreen",
    "EmoteScreen",
    "FriendScreen",
    "Notice",
    "Reader",
    "RefusalScreen",
    "ReportScreen",
    "ResultScreen",
    "Screen",
    "SeasonScreen",
    "SeatedScreen",
    "Sheet",
    "TilesScreen",
    "TournamentScreen",
    "TurnGone",
    "board_caption",
    "board_text",
    "challenge_lines",
    "chat_of",
    "friends_text",
    "hand_caption",
    "my_tables_text",
    "names_place",
    "screens",
    "tournament_status_text",
]


class Action(StrEnum):
    """What a screen offers beside its text; each front end draws its own widget."""

    ANALYSIS = "analysis"  # "¿Qué debí jugar?" for the hand just ended
    REMATCH = "rematch"  # "Revancha": the same table again
    BACK = "back"  # "Volver a la mesa": take the seat back from the robot
    JOIN = "join"  # "Inscribirme": sign up for the chat's tournament
    SIT = "sit"  # "Sentarme": take the seat kept for me at the notice's table
    ACCEPT_FRIEND = "accept_friend"  # "Aceptar": a friend request
    DECLINE_FRIEND = "decline_friend"  # "Rechazar": a friend request
    TAKE_INVITE = "take_invite"  # "Sentarme": the seat an invitation keeps
    DISMISS = "dismiss"  # "Descartar": an admin dismisses a report
    BAN = "ban"  # "Vetar": an admin bans the reported player from the chat's tables


class Sheet(StrEnum):
    """A tournament's message kept up to date in its chat: posted once, then edited."""

    SIGNUP = "signup"  # who signed up so far, with the sign-up button
    STANDINGS = "standings"  # an arena's live standings picture


SHEETS: dict[TournamentNews, Sheet] = {
    TournamentNews.JOINED: Sheet.SIGNUP,
    TournamentNews.LEFT: Sheet.SIGNUP,
    TournamentNews.STANDINGS: Sheet.STANDINGS,
}
"""The news shown by editing a :class:`Sheet` rather than by a message of their own."""


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a table's screens, and the platform's words for them.

    Attributes:
        language: the chat's language (or the page's, for one web reader); a private
            screen is in its player's own language.
        server: the chat is a Discord server, else a Telegram group (the web and the
            terminal read as a group).
        back: how a player comes back on this platform ("/volver", "el botón Volver").
        label: the table's label for people ("3"), "" until its board was seen.
        seats: the table's seats as last shown (names for a hand's result); None when
            the reader has not seen the table (restored mid-hand): no hand result then.
        place: the chat as the platform names it ("Amigos", "Club · #domino"), for
            private messages about it (:func:`names_place`); "" when unknown.
        anonymous: the user id an admin writing as the group has (Telegram's
            anonymous admins): rules changed by it are said to be by "an administrator".
        me: the one player reading (a web page), None for a whole chat: a notice about
            what the reader did themself is theirs already, in their own words.
        private: the table, as last shown, is played privately (a tournament's table
            not featured): what its chat would be told goes to its players instead.
    """

    language: str
    server: bool = False
    back: str = ""
    label: str = ""
    seats: Sequence[SeatInfo] | None = None
    place: str = ""
    anonymous: str = ""
    me: PlayerRef | None = None
    private: bool = False


@dataclass(frozen=True, slots=True)
class BoardScreen:
    """The table's board, for its chat, edited in place (the picture and
    :func:`board_caption`). ``shown`` False: a table played privately
    (``event.private``): the chat sees no board; the front end keeps what it knows of
    the table (its label and seats) and draws nothing there."""

    event: TableChanged
    shown: bool = True


@dataclass(frozen=True, slots=True)
class TilesScreen:
    """A seat's tiles and the moves it may make, privately to ``event.to``
    (:func:`hand_caption`, :mod:`bot.present.moves`)."""

    event: YourTiles


@dataclass(frozen=True, slots=True)
class EmoteScreen:
    """A seat's phrase ("Ana: ¡Buena!"), shown for a few seconds."""

    event: EmoteShown
    text: str


@dataclass(frozen=True, slots=True)
class ResultScreen:
    """A hand's or a match's result, for the table's chat: its text, the result picture
    where the platform draws one, and what it offers."""

    event: HandEnded | MatchEnded
    text: str
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Notice:
    """A message of its own: to the table's chat (``to`` None) or privately to one
    player, with what it offers (``table_id``: the table they concern, "" for none)."""

    chat: ChatRef
    table_id: str
    text: str
    to: PlayerRef | None = None
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class ClosedScreen:
    """The table closed: its board shows it (``text``: why, "" when a finished match's
    result says it all)."""

    event: TableClosed
    text: str


@dataclass(frozen=True, slots=True)
class TurnGone:
    """``player`` has no turn coming at this table any more (left it, or it closed):
    whatever the platform offers for a turn there goes (``left``: by the player's own
    choice)."""

    player: PlayerRef
    table_id: str
    label: str
    left: bool


@dataclass(frozen=True, slots=True)
class SeatedScreen:
    """A human took a seat: the platform checks it can reach them privately and offers
    its other ways to play (the web table)."""

    event: PlayerSeated


@dataclass(frozen=True, slots=True)
class RefusalScreen:
    """A command or press refused, for ``event.to`` only (phrased by
    :func:`bot.present.replies.refused`, with the platform's place for a table)."""

    event: Refusal


@dataclass(frozen=True, slots=True)
class TournamentScreen:
    """A chat's tournament news, for the chat: its text, what it offers, and the
    bracket or standings picture after a round and at the end (``render.tournament_png``).
    ``edit``: which of the tournament's messages this is, edited in place once posted
    (:class:`Sheet`: the sign-up list, an arena's live standings); ``None`` for a
    message of its own."""

    event: TournamentUpdate
    text: str
    actions: tuple[Action, ...] = ()
    picture: BracketFacts | TournamentStandingsFacts | None = None
    edit: Sheet | None = None


@dataclass(frozen=True, slots=True)
class FriendScreen:
    """Friends' news, privately to ``event.to`` on their platform: its text and its
    buttons (``ACCEPT_FRIEND`` and ``DECLINE_FRIEND`` for a request, ``TAKE_INVITE`` for
    an invitation; the payloads are :func:`bot.core.encode_friend`'s of the event's
    ``friend_id`` or ``invite``)."""

    event: FriendUpdate
    text: str
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportScreen:
    """A report, for the chat's admins only: privately to each (Telegram: those who
    started the bot), or in the channel they chose (``event.channel_id``, Discord); its
    text and buttons (dismiss, ban) in the chat's language."""

    event: ReportFiled
    text: str
    actions: tuple[Action, ...] = (Action.DISMISS, Action.BAN)


@dataclass(frozen=True, slots=True)
class SeasonScreen:
    """A chat's season ended: its final standings picture and this text."""

    event: SeasonEnded
    text: str


Screen = (
    BoardScreen
    | TilesScreen
    | EmoteScreen
    | ResultScreen
    | Notice
    | ClosedScreen
    | TurnGone
    | SeatedScreen
    | RefusalScreen
    | SeasonScreen
    | TournamentScreen
    | FriendScreen
    | ReportScreen
)
"""One thing a reader is shown; a front end maps each kind to its widgets."""


def chat_of(event: Event) -> ChatRef | None:
    """The chat a table's event belongs to; None for a refusal (one player's alone)."""
    return None if isinstance(event, Refusal) else event.chat


def names_place(event: Event) -> bool:
    """Whether ``event``'s screens name the chat (:attr:`Reader.place`): a front end that
    must ask its platform for the name asks only then."""
    return (
        isinstance(event, TurnReminder)
        or (isinstance(event, TableClosed) and event.reason is CloseReason.UNREACHABLE)
        or (isinstance(event, FriendUpdate) and event.news is FriendNews.INVITED)
    )


def _reaches(emote: EmoteShown, reader: Reader) -> bool:
    """Whether ``emote`` reaches ``reader``: the one check of a mute (issue 33;
    docs/moderation.md, "Mute"). A page's own player is spared the phrases of whoever they
    muted; a chat's message reaches everyone seated there, so a phrase a seated player
    muted is not posted in the chat at all."""
    if reader.me is not None:
        return reader.me.key not in emote.muted_by
    return not emote.muted_by


def screens(event: Event, reader: Reader) -> list[Screen]:
    """What ``event`` shows to ``reader``, in order: the one home of which events the
    chat, each player and each page are told, and how (docs/architecture.md, "Screens").
    Events that show nothing of their own (a move, a turn: the board shows them) give
    none. At a table played privately (:attr:`Reader.private`) what the chat would be
    told goes to each of its players, in their language; its emotes stay on the web
    table (docs/tournaments.md, "Within the platforms' limits")."""
    if not reader.private or reader.me is not None:
        return _screens(event, reader)
    plain = replace(reader, private=False)
    out = [s for s in _screens(event, plain) if not _for_chat(s)]
    seats = reader.seats or ()
    for player in (p for s in seats if (p := s.player or s.reserved_for) is not None):
        for screen in _screens(event, replace(plain, language=player.language)):
            if isinstance(screen, ResultScreen):
                event_of = screen.event
                out.append(Notice(event_of.chat, event_of.table_id, screen.text, player))
            elif isinstance(screen, Notice) and screen.to is None:
                out.append(replace(screen, to=player))
    return out


def _for_chat(screen: Screen) -> bool:
    """A screen its table's chat reads as a message of its own (the board aside)."""
    return isinstance(screen, ResultScreen | EmoteScreen) or (
        isinstance(screen, Notice) and screen.to is None
    )


def _screens(event: Event, reader: Reader) -> list[Screen]:
    language = reader.language
    out: list[Screen] = []
    if isinstance(event, TableChanged):
        out.append(BoardScreen(event, shown=not event.private))
    elif isinstance(event, SeatKept):
        text = seat_kept_text(event, event.to.language)
        out.append(Notice(event.chat, event.table_id, text, event.to, (Action.SIT,)))
    elif isinstance(event, YourTiles):
        out.append(TilesScreen(event))
    elif isinstance(event, EmoteShown):
        if _reaches(event, reader):
            out.append(EmoteScreen(event, emote_text(event, language)))
    elif isinstance(event, HandEnded):
        if reader.seats is not None:  # the names for the result
            text = hand_ended_text(event, reader.seats, reader.label, language)
            out.append(ResultScreen(event, text, (Action.ANALYSIS,)))
    elif isinstance(event, MatchEnded):
        text = match_ended_caption(event, reader.label, language)
        out.append(ResultScreen(event, text, (Action.REMATCH,)))
    elif isinstance(event, SeatTakenByRobot):
        text = robot_took_seat_text(event, language, back=reader.back)
        out.append(Notice(event.chat, event.table_id, text))
        if event.reason is AwayReason.LEFT:
            out.append(TurnGone(event.player, event.table_id, reader.label, left=True))
        private = robot_took_seat_private_text(
            event, reader.label or event.table_id, event.player.language
        )
        out.append(Notice(event.chat, event.table_id, private, event.player, (Action.BACK,)))
    elif isinstance(event, SeatAbandoned):
        mine = reader.me is not None and reader.me.key == event.player.key
        if not (mine and event.reason is AwayReason.LEFT):  # answered in their own words
            out.append(Notice(event.chat, event.table_id, abandoned_text(event, language)))
    elif isinstance(event, SeatGivenBack):
        out.append(Notice(event.chat, event.table_id, back_at_table_text(event, language)))
    elif isinstance(event, PlayerSeated):
        out.append(SeatedScreen(event))
    elif isinstance(event, TableClosed):
        out.extend(_closed(event, reader))
    elif isinstance(event, ChatRulesChanged):
        anonymous = bool(reader.anonymous) and event.by.user_id == reader.anonymous
        text = rules_changed_text(event, language, server=reader.server, anonymous=anonymous)
        out.append(Notice(event.chat, "", text))
    elif isinstance(event, TurnReminder):  # a slow table: half the turn's time is gone
        text = turn_reminder_text(event, reader.place, event.player.language)
        out.append(Notice(event.chat, event.table_id, text, event.player))
    elif isinstance(event, Refusal):
        out.append(RefusalScreen(event))
    elif isinstance(event, SeasonEnded):
        out.append(SeasonScreen(event, season_ended_text(event, language)))
    elif isinstance(event, ReportFiled):
        out.append(ReportScreen(event, report_filed_text(event, language)))
    elif isinstance(event, TournamentUpdate):
        text = tournament_text(event, language)
        signing = event.view.status is TournamentStatus.SIGNUP
        pictured = (
            event.news is TournamentNews.STANDINGS  # an arena's live standings
            or event.news is TournamentNews.FINISHED
            or (event.news is TournamentNews.ROUND and event.view.kind is not TournamentKind.ARENA)
        )  # an arena pairs at every table's end: its picture is its live standings'
        picture = tournament_picture(event.view, language) if pictured else None
        if text:
            actions = (Action.JOIN,) if signing else ()
            sheet = SHEETS.get(event.news)  # kept up to date in one message
            out.append(TournamentScreen(event, text, actions, picture, edit=sheet))
    elif isinstance(event, FriendUpdate):  # privately, in the friend's own language
        text = friend_text(event, reader.place, event.to.language)
        buttons: tuple[Action, ...] = ()
        if event.news is FriendNews.REQUESTED:
            buttons = (Action.ACCEPT_FRIEND, Action.DECLINE_FRIEND)
        elif event.news is FriendNews.INVITED:
            buttons = (Action.TAKE_INVITE,)
        out.append(FriendScreen(event, text, buttons))
    return out


def _closed(event: TableClosed, reader: Reader) -> list[Screen]:
    """A table closed: its board says so; an early close is told to its chat, an
    unreachable chat's players privately; nobody has a turn coming there."""
    out: list[Screen] = [ClosedScreen(event, closed_text(event, reader.language))]
    if event.reason is CloseReason.UNREACHABLE:
        for human in event.humans:  # the chat cannot be told: each player is
            text = unreachable_text(event, reader.place, human.language)
            out.append(Notice(event.chat, event.table_id, text, human))
    elif event.reason in GROUP_CLOSES:
        out.append(Notice(event.chat, event.table_id, closed_text(event, reader.language)))
    left = event.reason is CloseReason.NO_HUMANS
    out.extend(TurnGone(human, event.table_id, event.label, left=left) for human in event.humans)
    return out


TEXT_LIMIT = 4096
"""The longest text a screen gets (Telegram's message limit)."""


def board_caption(event: TableChanged, language: str, *, emote: str | None = None) -> str:
    """The board's caption: table, phase, whose turn and time left, score, last move."""
    _ = translator(language)
    seats = event.seats
    lines: list[str] = []
    if event.phase == "waiting" and event.challenge:  # a reto waiting for its answer
        lines.append(_("Table {label} · challenge", label=event.label))
        lines.extend(challenge_lines(event, language))
    elif event.phase == "waiting" and event.tournament:  # kept seats, a no-show timer
        lines.append(_("Table {label} · tournament", label=event.label))
        waiting = [s.reserved_for.display_name for s in seats if s.reserved_for is not None]
        lines.append(_("Waiting for: {names}", names=", ".join(waiting)))
        if event.seconds_left is not None:
            lines.append(
                _("A seat still empty in {seconds} s loses the match.", seconds=event.seconds_left)
            )
        lines.append(_("Press your seat's button or send /jugar."))
    elif event.phase == "waiting":
        free = sum(1 for s in seats if s.is_open)
        lines.append(_("Table {label} · waiting for players", label=event.label))
        names = [s.name for s in seats if not s.is_open]
        if names:
            lines.append(_("Players: {names}", names=", ".join(names)))
        lines.append(_.ngettext("{n} free seat", "{n} free seats", free))
        if event.seconds_left is not None:
            lines.append(_("Robots fill the table in {seconds} s", seconds=event.seconds_left))
        lines.append(_("Press a seat button or send /jugar."))
    elif event.phase == "countdown":
        lines.append(_("Table {label} · starting", label=event.label))
        if event.rules.sides == 2:  # two partnerships, or one against one
            partnership = event.rules.partnership
            lines.append(
                _(
                    "{team0} against {team1}",
                    team0=team_names(seats, 0, language, partnership=partnership),
                    team1=team_names(seats, 1, language, partnership=partnership),
                )
            )
        else:  # each for themselves, three or four
            everyone = (seat_name(seats, seat, language) for seat in range(len(seats)))
            lines.append(_("Players: {names}", names=", ".join(everyone)))
        if event.seconds_left is not None:
            lines.append(_("The match starts in {seconds} s", seconds=event.seconds_left))
    else:
        view = event.view
        header = _("Table {label}", label=event.label)
        if event.hand_number:
            header += " · " + _("Hand {hand}", hand=event.hand_number)
        header += " · " + _("Match to {target}", target=event.rules.target)
        lines.append(header)
        score = view.match_score if view is not None else (0,) * event.rules.sides
        lines.append(score_line(seats, score, language, partnership=event.rules.partnership))
        if event.phase == "ended":
            lines.append(_("The match is over."))
        elif event.turn is not None and (view is None or view.outcome is None):
            if event.seconds_left is not None and event.rules.is_slow:  # hours, not seconds
                lines.append(
                    _(
                        "Turn: {name} ({left} left)",
                        name=seat_name(seats, event.turn, language),
                        left=time_left_text(event.seconds_left, language),
                    )
                )
            elif event.seconds_left is not None:
                lines.append(
                    _(
                        "Turn: {name} ({seconds} s)",
                        name=seat_name(seats, event.turn, language),
                        seconds=event.seconds_left,
                    )
                )
            else:
                lines.append(_("Turn: {name}", name=seat_name(seats, event.turn, language)))
        if view is not None and view.last_move is not None:
            seat, move = view.last_move
            lines.append(
                _(
                    "Last: {name} {move}",
                    name=seat_name(seats, seat, language),
                    move=move_text(move, language),
                )
            )
    if emote:
        lines.append("💬 " + emote)
    return "\n".join(lines)[:CAPTION_LIMIT]


def challenge_lines(event: TableChanged, language: str) -> list[str]:
    """A challenge waiting for its answer: who challenges whom, and the time to answer
    ("Ana reta a Beto a uno contra uno.", "Beto: acepta o rechaza en 120 s.")."""
    _ = translator(language)
    seats = event.seats
    challenger = next((s.name for s in seats if not s.is_open), "")
    challenged = next((s.reserved_for.display_name for s in seats if s.reserved_for), "")
    lines = [
        _(
            "{challenger} challenges {challenged} to one against one.",
            challenger=challenger,
            challenged=challenged,
        )
    ]
    if event.seconds_left is not None:
        lines.append(
            _(
                "{challenged}: accept or decline within {seconds} s.",
                challenged=challenged,
                seconds=event.seconds_left,
            )
        )
    return lines


def board_text(event: TableChanged, language: str, *, emote: str | None = None) -> str:
    """The board without its picture (where pictures cannot be sent): the caption, then
    the line of play left to right (``[6|6][6|4]``) and how many tiles each seat holds."""
    _ = translator(language)
    lines = [board_caption(event, language, emote=emote)]
    view = event.view
    if view is not None:
        line = "".join(f"[{p.left}|{p.right}]" for p in view.line)
        lines.append(_("Line: {line}", line=line or _("(empty)")))
        counts = ", ".join(
            f"{seat_name(event.seats, seat, language)} {count}"
            for seat, count in enumerate(view.tile_counts)
        )
        lines.append(_("Tiles left: {counts}", counts=counts))
    return "\n".join(lines)[:TEXT_LIMIT]


def hand_caption(
    event: YourTiles,
    language: str,
    *,
    group: str,
    seconds_left: int | None = None,
    match_over: bool = False,
) -> str:
    """The private hand picture's caption; it names the table and the group.

    It says only what stays true until the next time it is shown: whose turn it is
    goes on the board (the player's own turn is shown anew), and once the hand is over
    (``event`` the last tiles shown) or the match (``match_over``) it says so.
    """
    _ = translator(language)
    where = _("Table {label} in {group}", label=event.label, group=group)
    if match_over:
        return where + "\n" + _("The match is over.")
    if event.is_your_turn:
        if seconds_left is not None and event.view.rules.is_slow:  # a slow table: hours
            left = time_left_text(seconds_left, language)
            return where + "\n" + _("Your turn! You have {left}.", left=left)
        if seconds_left is not None:
            return where + "\n" + _("Your turn! You have {seconds} s.", seconds=seconds_left)
        return where + "\n" + _("Your turn!")
    return where + "\n" + _("Your tiles (hand {hand}).", hand=event.hand_number)


def my_tables_text(
    tables: Sequence[tuple[TableChanged, str]], player: PlayerRef, language: str, *, play: str
) -> str:
    """``/mesas``: a player's tables, one a line, each with where it is (``place``, as
    the front end names it) and whose turn it is: "Mesa 2 · Amigos · lenta · te toca
    (quedan 6 horas)" (rules.md, "Slow tables"); without any, how to sit (``play``: the
    platform's command)."""
    _ = translator(language)
    if not tables:
        return _("You have no table now. {play} sits you at one.", play=play)
    lines = []
    for event, place in tables:
        parts = [_("Table {label}", label=event.label), place]
        if event.rules.is_slow:
            parts.append(_("slow"))
        seat = event.turn
        if event.phase in ("waiting", "countdown"):
            parts.append(_("waiting for players"))
        elif seat is None:
            parts.append(_("between hands"))
        elif (who := event.seats[seat].player) is not None and who.key == player.key:
            if event.seconds_left is not None and event.rules.is_slow:
                left = time_left_text(event.seconds_left, language)
                parts.append(_("your turn ({left} left)", left=left))
            else:
                parts.append(_("your turn"))
        else:
            parts.append(_("{name} to play", name=seat_name(event.seats, seat, language)))
        lines.append(" · ".join(parts))
    return "\n".join(lines)[:TEXT_LIMIT]


def tournament_status_text(view: TournamentView | None, language: str, *, create: str) -> str:
    """``/torneo``: the chat's tournament as it stands (sign-up and who signed, or the
    round in play and the standings); without one, how an admin opens one (``create``:
    the platform's command, e.g. "/torneo crear suizo 1v1 cuota=10")."""
    _ = translator(language)
    if view is None:
        return _(
            "There is no tournament here now. An administrator opens one: {create}", create=create
        )
    name = view.name or _("The tournament")
    if view.status is TournamentStatus.SIGNUP:
        lines = [
            _(
                "{name}: {kind}, {format}, entry fee ${fee}.",
                name=name,
                kind=tournament_kind_label(view.kind, view.partners, language),
                format=preset_label(view.preset, language),
                fee=view.fee,
            ),
            signed_text(view, language),
            _("It starts in {left}.", left=time_left_text(view.seconds_left, language)),
        ]
        return "\n".join(lines)[:TEXT_LIMIT]
    return tournament_round_text(view, language)


def friends_text(view: FriendsView, places: Mapping[str, str], language: str, *, ask: str) -> str:
    """``/amigos``: each friend and where they are now, one a line: "Beto: en la mesa 2
    de Amigos", "Carla: en la mesa lenta 3 de Club", "Dani: última vez hace 5 minutos";
    then who waits for the reader's answer. ``places``: table id -> the chat as the
    front end names it (a table elsewhere is named by its platform); ``ask``: the
    platform's command that sends a request, said when the list is empty."""
    _ = translator(language)
    lines = []
    if not view.friends:
        lines.append(_("You have no friends here yet. {ask} sends a friend request.", ask=ask))
    else:
        lines.append(_("Your friends:"))
    for friend in view.friends:
        lines.append("• " + _friend_line(friend, view.now, places, language))
    if view.requests:
        lines.append(_("Waiting for your answer: {names}.", names=", ".join(view.requests)))
    return "\n".join(lines)[:TEXT_LIMIT]


def _friend_line(friend: FriendInfo, now: float, places: Mapping[str, str], language: str) -> str:
    _ = translator(language)
    name = friend.name
    if friend.presence in (Presence.TABLE, Presence.SLOW_TABLE):
        platform = friend.chat.platform.capitalize() if friend.chat is not None else ""
        place = places.get(friend.table_id) or platform
        if friend.presence is Presence.SLOW_TABLE:
            return _(
                "{name}: at slow table {label} in {place}",
                name=name,
                label=friend.label,
                place=place,
            )
        return _("{name}: at table {label} in {place}", name=name, label=friend.label, place=place)
    if friend.presence is Presence.SEEN and friend.seen_at is not None:
        ago = time_ago_text(now - friend.seen_at, language)
        return _("{name}: last seen {ago}", name=name, ago=ago)
    return _("{name}: no recent activity", name=name)
