"""The core's closed vocabularies: every word a command, an event or a snapshot may say.

Each is a :class:`~enum.StrEnum` whose values are the words stored in snapshots and
carried in button payloads, so a stored table or a button sent before this module
existed reads the same (design.md, rule 9: closed vocabularies are enums).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "EMOTES",
    "REFUNDING_CLOSES",
    "AwayReason",
    "CloseReason",
    "DeadlineKind",
    "EmoteName",
    "FriendNews",
    "ModerationAction",
    "MovedBy",
    "Phase",
    "Presence",
    "PressKind",
    "Ranking",
    "RefusalReason",
    "ReportReason",
]


class Phase(StrEnum):
    """A table's phase: seats filling; counting down to the start; a match on; over."""

    WAITING = "waiting"
    COUNTDOWN = "countdown"
    PLAYING = "playing"
    ENDED = "ended"


class DeadlineKind(StrEnum):
    """What a table's main timer does when it fires."""

    FILL = "fill"  # fill the empty seats with robots
    START = "start"  # the countdown ended: take the stakes and deal
    TURN = "turn"  # a human's turn ran out: a robot plays that one move
    FORCED = "forced"  # play the only legal move (rules.forced_move_seconds)
    ROBOT = "robot"  # a robot's move
    NEXT_HAND = "next_hand"  # deal the next hand


class Ranking(StrEnum):
    """The top lists (issue 14): the all-time rating (the default), the current season,
    the balance, and the pairs of partners."""

    RATING = "rating"
    SEASON = "season"
    BALANCE = "balance"
    PAIRS = "pairs"


class MovedBy(StrEnum):
    """Who made a move: the human pressed; a robot (its seat, or standing in for an away
    human); a robot when the human's time ran out; the only legal move, played for them."""

    PLAYER = "player"
    ROBOT = "robot"
    TIMEOUT = "timeout"
    FORCED = "forced"


class AwayReason(StrEnum):
    """Why a robot took a human's seat (rules.md, "The house"): they left on purpose
    (abandoning the match at once), or they missed turns (and, for an abandoned seat,
    did not come back within the 5 minutes)."""

    LEFT = "left"
    MISSED_TURNS = "missed_turns"
    BANNED = "banned"  # the chat's admins banned them: replaced at the end of the hand


class CloseReason(StrEnum):
    """Why a table closed: its match finished; every human abandoned a started match
    (stakes forfeited, nobody paid); everyone left before it started; or the house
    called it off (held stakes refunded: :data:`REFUNDING_CLOSES`)."""

    FINISHED = "finished"
    NO_HUMANS = "no_humans"
    EMPTY = "empty"
    CANCELLED = "cancelled"  # the house called the match off: held stakes are refunded
    UNREACHABLE = "unreachable"  # the bot can no longer reach the table's chat: refunded
    BY_ADMIN = "by_admin"  # a chat admin closed the table: refunded
    DECLINED = "declined"  # the challenged player said no (before the match: nothing paid)
    EXPIRED = "expired"  # nobody took up the challenge in time (nothing paid)
    NO_SHOW = "no_show"  # a tournament table's seat stayed empty (docs/tournaments.md)


REFUNDING_CLOSES: frozenset[CloseReason] = frozenset(
    {CloseReason.CANCELLED, CloseReason.UNREACHABLE, CloseReason.BY_ADMIN}
)
"""Closes that give every held stake back (rules.md, "The house": the bot's outages and
an admin's call never cost a player)."""


class PressKind(StrEnum):
    """What a button does (the letter after ``dm1:`` in its payload, see
    :mod:`bot.core.buttons`)."""

    MOVE = "move"
    SIT = "sit"
    ROBOTS = "robots"
    EMOTE = "emote"
    TILES = "tiles"
    BACK = "back"
    LEAVE = "leave"
    AGAIN = "again"
    DECLINE = "decline"


class RefusalReason(StrEnum):
    """Why the core refused a command (nothing changed). Parameters travel in
    ``Refusal.params``; the presentation layer phrases each one."""

    FORGED = "forged"  # the payload or code cannot be read
    TABLE_GONE = "table_gone"  # no such table (ended; params: unknown=1 when not remembered)
    NOT_SEATED = "not_seated"  # the player has no seat at this table (a foreign press)
    NO_TABLE = "no_table"  # the player has no table here
    WHICH_TABLE = "which_table"  # several tables here: name one; params: labels
    STALE = "stale"  # not the current hand or move number (an old or repeated press)
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"  # params: reason (an engine.errors.IllegalReason)
    ROBOT_PLAYING = "robot_playing"  # the player is away: come back first
    SEAT_TAKEN = "seat_taken"
    NOT_CHALLENGED = "not_challenged"  # declining a challenge made to someone else
    CHALLENGE_WAITS = "challenge_waits"  # robots cannot take a seat kept for a challenge
    SEAT_RESERVED = "seat_reserved"
    BAD_SEAT = "bad_seat"
    TABLE_FULL = "table_full"
    # params: label (their table in this chat); when it is in another channel or topic
    # of the chat: elsewhere (1) and its channel_id / thread_id
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    NOT_STARTED = "not_started"
    INSUFFICIENT_FUNDS = "insufficient_funds"  # params: balance, stake
    EMOTE_TOO_SOON = "emote_too_soon"  # params: wait_seconds
    UNKNOWN_EMOTE = "unknown_emote"  # params: emotes
    NOT_AWAY = "not_away"
    TOO_LATE = "too_late"  # came back too late; params: seconds (the time to come back)
    LEFT_MATCH = "left_match"  # came back to a match they left on purpose; params: stake
    NOT_ADMIN = "not_admin"
    # an admin closing a live match: nothing moved for less than ``stuck_seconds``;
    # params: label, seconds (the house's stuck time)
    NOT_STUCK = "not_stuck"
    # an admin closing a live match they play in (or left): params: label
    ADMIN_PLAYS = "admin_plays"
    BAD_RULES = "bad_rules"  # params: option, allowed
    RULES_LOCKED = "rules_locked"  # params: option (the chat's admins fixed the rules)
    UNKNOWN_LEVEL = "unknown_level"  # params: levels
    NOT_ENDED = "not_ended"
    WRONG_PLATFORM = "wrong_platform"
    SHUTTING_DOWN = "shutting_down"  # the manager is stopping: nothing is taken now
    NO_FINISHED_HAND = "no_finished_hand"  # nothing to analyse yet (issue 15)
    ANALYSIS_RUNNING = "analysis_running"  # this player's search of that hand runs now
    # tournaments (docs/tournaments.md, "The service")
    NO_TOURNAMENT = "no_tournament"  # no tournament open or running in this chat
    TOURNAMENT_EXISTS = "tournament_exists"  # the chat has one already; params: name
    TOURNAMENT_STARTED = "tournament_started"  # sign-up closed; params: name
    TOURNAMENT_FULL = "tournament_full"  # params: most
    ALREADY_SIGNED = "already_signed"  # params: name
    NOT_SIGNED = "not_signed"  # params: name
    BAD_TOURNAMENT = "bad_tournament"  # params: option, allowed
    DRAWN_PARTNERS = "drawn_partners"  # partners drawn each round: not a knockout nor 1-vs-1
    # friends (issue 33; docs/friends.md)
    FRIEND_SELF = "friend_self"  # a friends command naming the player themself
    FRIEND_UNKNOWN = "friend_unknown"  # never played here; params: name
    ALREADY_FRIENDS = "already_friends"  # params: name
    FRIEND_REQUEST_WAITS = "friend_request_waits"  # asked already; params: name
    NO_FRIEND_REQUEST = "no_friend_request"  # none waits from them; params: name
    NOT_FRIENDS = "not_friends"  # params: name
    FRIEND_ELSEWHERE = "friend_elsewhere"  # plays on another platform only; params: name
    FRIEND_AT_TABLE = "friend_at_table"  # the friend sits at my table; params: name
    INVITE_WAITS = "invite_waits"  # a seat waits for them already; params: name
    INVITE_GONE = "invite_gone"  # no such invitation (taken, or before a restart)
    INVITE_NOT_YOURS = "invite_not_yours"  # someone else's invitation
    INVITE_EXPIRED = "invite_expired"  # its seat was held, then released; params: seconds
    # moderation (issue 33; docs/moderation.md)
    BANNED = "banned"  # the player is banned from this chat's tables
    SELF_REPORT = "self_report"  # reporting or muting yourself
    UNKNOWN_PLAYER = "unknown_player"  # nobody known by that name here
    ALREADY_REPORTED = "already_reported"  # your open report about them exists; params: name
    UNKNOWN_REPORT = "unknown_report"  # no such report in this chat; params: number
    REPORT_CLOSED = "report_closed"  # dismissed or banned already (a stale button); params: number
    UNKNOWN_REASON = "unknown_reason"  # params: reasons
    NOT_BANNED = "not_banned"  # unbanning someone not banned here; params: name
    # one player on both platforms (docs/players.md); values are storage's LinkRefusal's
    # with "link_" before them
    LINK_UNKNOWN_CODE = "link_unknown_code"
    LINK_EXPIRED_CODE = "link_expired_code"
    LINK_USED_CODE = "link_used_code"
    LINK_SAME_PLATFORM = "link_same_platform"  # params: platform (the code's)
    LINK_ALREADY_LINKED = "link_already_linked"
    LINK_LINKED_ELSEWHERE = "link_linked_elsewhere"  # params: platform (of the link in the way)
    LINK_MONEY_HELD = "link_money_held"  # a stake held in a match or a tournament
    LINK_NOT_LINKED = "link_not_linked"  # unlinking an identity that is its player's only one
    LINK_NOT_LINKABLE = "link_not_linkable"  # params: platform
    LINK_SEATED = "link_seated"  # either identity sits at a live table here


class FriendNews(StrEnum):
    """What one player is told about friends (:class:`~bot.core.events.FriendUpdate`)."""

    REQUESTED = "requested"  # someone asks to be their friend (accept, decline)
    ACCEPTED = "accepted"  # the player they asked accepted
    INVITED = "invited"  # a friend keeps them a seat at a table (a button seats them)


class Presence(StrEnum):
    """Where a friend is now (``/amigos``)."""

    TABLE = "table"  # at a live-paced table of this bot
    SLOW_TABLE = "slow_table"  # at a slow table only (rules.md, "Slow tables")
    SEEN = "seen"  # at no table: last seen some time ago
    NEVER = "never"  # at no table and never noted present since friends existed


class ReportReason(StrEnum):
    """Why a player reports another (issue 33); the presentation layer labels them."""

    ABUSIVE_NAME = "abusive_name"
    ABUSIVE_EMOTES = "abusive_emotes"
    LEFT_ON_PURPOSE = "left_on_purpose"
    PLAYING_TO_LOSE = "playing_to_lose"
    OTHER = "other"


class ModerationAction(StrEnum):
    """What an admin did, as the moderation log stores it (issue 33)."""

    DISMISS = "dismiss"
    BAN = "ban"
    UNBAN = "unban"


class EmoteName(StrEnum):
    """Emotes (rules.md, "Emotes"); the presentation layer holds their labels."""

    BUENA = "buena"
    GRACIAS = "gracias"
    RAPIDO = "rapido"
    UPS = "ups"
    JAJA = "jaja"
    PENSANDO = "pensando"
    CAPICUA = "capicua"
    HOLA = "hola"


EMOTES: tuple[str, ...] = tuple(e.value for e in EmoteName)
"""Emote names in their order on the emote buttons."""


class TournamentStatus(StrEnum):
    """Where a tournament is (docs/tournaments.md, "The service")."""

    SIGNUP = "signup"  # players sign up; nothing paid yet
    RUNNING = "running"  # the fees are held; its rounds are played
    FINISHED = "finished"  # the prizes are paid
    CANCELLED = "cancelled"  # every fee held was refunded


class TournamentNews(StrEnum):
    """What a tournament's chat is told (:class:`~bot.core.events.TournamentUpdate`)."""

    OPENED = "opened"  # an admin opened sign-up
    JOINED = "joined"  # a player signed up
    LEFT = "left"  # a player left before the start
    STARTED = "started"  # sign-up closed, the fees held
    ROUND = "round"  # tables opened for pairings
    RESULT = "result"  # a table's result came in
    STANDINGS = "standings"  # an arena's live standings, at most once a minute
    FINISHED = "finished"  # the places and the prizes
    CANCELLED = "cancelled"  # an admin cancelled it: fees refunded
    TOO_FEW = "too_few"  # too few entrants at the start: cancelled, fees refunded
