"""The storage's data shapes, errors and pure rules (imported by the code through
:mod:`storage.base`, which re-exports every name here).

Money rules follow rules.md, "The house": an account opens with $1,000, every human pays
the stake into the match's escrow at match start, each winning human receives twice the
stake, an abandoner's stake goes to the house, and a balance below the stake is topped up
to $100 at most once every 24 hours. Money is integer dollars. Time ``now`` is epoch
seconds, always passed in.

Chat keys are ``"<platform>:<chat id>"`` strings (``"telegram:-1001234"``,
``"discord:98765"``, ``"terminal:local"``). Player ids are platform-neutral ints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from engine.rules import Rules, find_any_preset

if TYPE_CHECKING:
    pass

__all__ = [
    "ACTIVE_SECONDS",
    "DEFAULT_LANGUAGE",
    "DEFAULT_STAKE",
    "LANGUAGES",
    "NOTICE_BYTES",
    "NOTIFICATIONS",
    "OPENING_BALANCE",
    "RATING_PRIOR_MATCHES",
    "TOP_UP_EVERY",
    "TOP_UP_TO",
    "TOURNAMENT_ESCROW_PREFIX",
    "TREND_SECONDS",
    "ChatRules",
    "Fence",
    "FencedOut",
    "InsufficientFunds",
    "LedgerEntry",
    "MatchClosedError",
    "MatchSettlement",
    "NotInMatchError",
    "Notifications",
    "OpenEscrow",
    "PairRow",
    "Player",
    "PlayerRecord",
    "PlayerResult",
    "PlayerStats",
    "RankRow",
    "Rating",
    "RatingPoint",
    "RebuildReport",
    "Rival",
    "SchemaError",
    "StorageError",
    "StoredMatch",
    "TablesClaim",
    "TournamentClosedError",
    "TournamentPlace",
    "UnknownMatchError",
    "UnknownPlayerError",
    "UnknownTournamentError",
    "bayesian_rating",
    "check_notice",
    "check_now",
    "check_stake_arguments",
    "normalize_language",
    "top_up_amount",
    "tournament_escrow",
]

OPENING_BALANCE: Final = 1000
"""Dollars a new player's account opens with (rules.md, "The house")."""

DEFAULT_STAKE: Final = 10
"""The default stake in dollars (rules.md, "The house"; ``Rules.stake``)."""

TOP_UP_TO: Final = 100
"""A top-up brings the balance up to this many dollars (rules.md, "The house")."""

TOP_UP_EVERY: Final = 24 * 60 * 60.0
"""Seconds between two top-ups of the same player, at least (rules.md, "The house")."""

ACTIVE_SECONDS: Final = 30 * 24 * 60 * 60.0
"""A player is active when they finished a match within this many seconds."""

TREND_SECONDS: Final = 7 * 24 * 60 * 60.0
"""A top list's trend compares with this many seconds ago (a week)."""

RATING_PRIOR_MATCHES: Final = 10
"""Weight of the prior in the Bayesian win rate: this many imaginary matches at 50 %."""

TOURNAMENT_ESCROW_PREFIX: Final = "tournament:"
"""How a tournament's escrow id begins (:func:`tournament_escrow`): such an escrow holds
entry fees, never a table's stakes, so the tables' resume never refunds it."""

LANGUAGES: Final[tuple[str, ...]] = ("es", "en")
"""Languages players can choose; the first is the default."""


class Notifications(StrEnum):
    """A player's turn notifications (issue 27), stored as their value."""

    TURN = "turn"
    """The default: a notifying private message on each own turn."""
    NONE = "none"
    """Their tiles message is edited in place, silently."""


NOTIFICATIONS: Final[tuple[Notifications, ...]] = tuple(Notifications)
"""Every :class:`Notifications` value, the default first."""

DEFAULT_LANGUAGE: Final = "es"


# ----------------------------------------------------------------------------- errors


class StorageError(Exception):
    """Base of the storage errors. Whenever one is raised, nothing was written."""


class InsufficientFunds(StorageError):
    """Some players cannot pay the stake, even after a due top-up; nothing was written.

    Attributes:
        player_ids: the players who cannot pay, in the order they were given.
    """

    def __init__(self, player_ids: Sequence[int]) -> None:
        self.player_ids: tuple[int, ...] = tuple(player_ids)
        super().__init__(f"insufficient funds: players {', '.join(map(str, self.player_ids))}")


class UnknownPlayerError(StorageError, LookupError):
    """No player has this id.

    Attributes:
        player_id: the id asked for.
    """

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        super().__init__(f"unknown player {player_id}")


class UnknownMatchError(StorageError, LookupError):
    """No stakes were ever taken for this match id (``stake`` was never called).

    Attributes:
        match_id: the id asked for.
    """

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        super().__init__(f"no stakes held for match {match_id!r}")


class MatchClosedError(StorageError):
    """The match's escrow is already closed the other way (settled vs refunded).

    Attributes:
        match_id: the match.
        state: ``"settled"`` or ``"refunded"``.
    """

    def __init__(self, match_id: str, state: str) -> None:
        self.match_id = match_id
        self.state = state
        super().__init__(f"match {match_id!r} is already {state}")


class NotInMatchError(StorageError, LookupError):
    """The player holds no stake in this match.

    Attributes:
        match_id: the match.
        player_id: the player.
    """

    def __init__(self, match_id: str, player_id: int) -> None:
        self.match_id = match_id
        self.player_id = player_id
        super().__init__(f"player {player_id} holds no stake in match {match_id!r}")


class UnknownTournamentError(StorageError, LookupError):
    """No tournament was ever saved under this id.

    Attributes:
        tournament_id: the id asked for.
    """

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"no tournament {tournament_id!r}")


class TournamentClosedError(StorageError):
    """The tournament is already closed the other way (finished vs cancelled), or is
    closed and cannot be saved again.

    Attributes:
        tournament_id: the tournament.
        state: ``"finished"`` or ``"cancelled"``.
    """

    def __init__(self, tournament_id: str, state: str) -> None:
        self.tournament_id = tournament_id
        self.state = state
        super().__init__(f"tournament {tournament_id!r} is already {state}")


class SchemaError(StorageError):
    """The database was written by a newer or different version of the schema."""


class FencedOut(StorageError):
    """A write carried a fence that is no longer the scope's: another process took the
    scope's tables over (``bot.core.ownership``). Nothing was written.

    Attributes:
        fence: the stale fence the write carried.
    """

    def __init__(self, fence: Fence) -> None:
        self.fence = fence
        super().__init__(
            f"{fence.owner} no longer owns the {fence.scope} tables (fence {fence.token})"
        )


# ------------------------------------------------------------------------ data shapes


@dataclass(frozen=True)
class Player:
    """A platform-neutral player.

    Attributes:
        id: the player id (used by every other table; never a platform id).
        display_name: the name last seen on a platform.
        language: preferred language, one of :data:`LANGUAGES`.
    """

    id: int
    display_name: str
    language: str


@dataclass(frozen=True)
class PlayerResult:
    """One human's result in a finished match (for :meth:`Storage.finish_match`).

    Attributes:
        player_id: the player.
        team: the player's side, ``rules.side_of(seat)``: the partnership, 0 or 1, or
            in individual play the seat itself (each seat is its own side).
        won_match: whether the player's side won the match (in individual play: the
            player won it).
        hands_won: hands won by the player's team in this match.
        dominoes: hands the player closed by playing their last tile.
        trancas_won: blocked hands (trancas) won by the player's team.
        capicuas: capicúas the player made.
    """

    player_id: int
    team: int
    won_match: bool
    hands_won: int = 0
    dominoes: int = 0
    trancas_won: int = 0
    capicuas: int = 0


@dataclass(frozen=True)
class PlayerStats:
    """A player's totals over every recorded match.

    Attributes:
        player_id: the player.
        matches_played: finished matches recorded.
        matches_won: of those, won.
        hands_won: hands won by the player's team.
        dominoes: hands the player closed.
        trancas_won: blocked hands won by the player's team.
        capicuas: capicúas made.
        last_played: epoch seconds of the last finished match, None if never.
    """

    player_id: int
    matches_played: int = 0
    matches_won: int = 0
    hands_won: int = 0
    dominoes: int = 0
    trancas_won: int = 0
    capicuas: int = 0
    last_played: float | None = None

    @property
    def win_rate(self) -> float:
        """Matches won over matches played (0.0 when none were played)."""
        return self.matches_won / self.matches_played if self.matches_played else 0.0

    @property
    def rating(self) -> float:
        """The Bayesian win rate used by the rating top list (see :func:`bayesian_rating`)."""
        return bayesian_rating(self.matches_won, self.matches_played)


@dataclass(frozen=True)
class RankRow:
    """One line of a top list.

    Attributes:
        player_id: the player.
        display_name: their name.
        value: dollars (int) for the balance list; the shown rating (int, see
            ``storage.ratings.display_rating``) for the rating and season lists.
        matches: matches the player finished in the list's scope (one chat, or all);
            rated matches for the rating and season lists.
        trend: the change of ``value`` over the last :data:`TREND_SECONDS` (rating
            points or dollars), None when there is nothing to compare with.
        provisional: the rating is provisional (fewer than
            ``storage.ratings.PROVISIONAL_MATCHES`` rated matches).
    """

    player_id: int
    display_name: str
    value: float | int
    matches: int
    trend: int | None = None
    provisional: bool = False


@dataclass(frozen=True)
class PairRow:
    """Two players who played together as partners (the pairs table).

    Attributes:
        player_ids: the two players, lower id first.
        names: their display names, in the same order.
        matches: matches they finished as partners (in the scope).
        wins: of those, won.
    """

    player_ids: tuple[int, int]
    names: tuple[str, str]
    matches: int
    wins: int


@dataclass(frozen=True)
class Rating:
    """A player's rating in one scope (docs/ratings.md).

    Attributes:
        player_id: the player.
        mu, sigma: the skill (openskill units).
        matches: rated matches in the scope; wins: of those, won.
        display: the shown rating; provisional: fewer than 10 rated matches.
    """

    player_id: int
    mu: float
    sigma: float
    matches: int
    wins: int
    display: int
    provisional: bool


@dataclass(frozen=True)
class RatingPoint:
    """A player's all-time rating right after one rated match.

    Attributes:
        match_id: the match; at: when it finished (epoch seconds); display: the shown
            rating after it; mu, sigma: the skill after it.
    """

    match_id: str
    at: float
    display: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class Rival:
    """Another player a player finished matches with (as partner or as opponent).

    Attributes:
        player_id, display_name: the other player.
        matches: matches together in that role; wins: of those, won by the player.
    """

    player_id: int
    display_name: str
    matches: int
    wins: int


@dataclass(frozen=True)
class PlayerRecord:
    """What a profile shows beyond the totals (issue 14).

    Attributes:
        partners: human partners, most matches first.
        opponents: human opponents, most matches first.
        streak: consecutive results ending with the last match: +n wins or -n losses
            (0 without matches).
        points: points the player's team scored, over every match with facts.
        hands: hands played in those matches.
    """

    partners: tuple[Rival, ...]
    opponents: tuple[Rival, ...]
    streak: int
    points: int
    hands: int

    @property
    def points_per_hand(self) -> float:
        """Team points per hand played (0.0 with no hands)."""
        return self.points / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class RebuildReport:
    """What ``Storage.rebuild_ratings`` found.

    Attributes:
        matches: stored matches replayed; rated: of those, rated.
        ratings: rating rows recomputed (all scopes).
        differences: rows whose stored value differed from the recomputed one (or
            missing on either side), described one per line.
    """

    matches: int
    rated: int
    ratings: int
    differences: tuple[str, ...]


@dataclass(frozen=True)
class StoredMatch:
    """A finished match's record.

    Attributes:
        match_id: the match.
        chat: the chat key where it was played.
        finished_at: epoch seconds.
        record: the match record (records.md JSON object).
    """

    match_id: str
    chat: str
    finished_at: float
    record: dict[str, Any]


@dataclass(frozen=True)
class OpenEscrow:
    """A match's escrow that is neither settled nor refunded (rules.md, "The house").

    Attributes:
        match_id: the match (the table id).
        stake: dollars each holder paid in.
        holders: player id -> ``"held"`` (still in the escrow) or ``"forfeited"``.
        created_at: when the stakes were taken (epoch seconds).
    """

    match_id: str
    stake: int
    holders: dict[int, str]
    created_at: float


@dataclass(frozen=True)
class TablesClaim:
    """Which process runs the live tables of a scope on this database: its lease.

    Attributes:
        platform: the scope: a platform (``"telegram"``, ``"discord"``…) or one
            shard of it (``"discord:3"``).
        owner: the claiming process's opaque id (``bot.core.ownership``).
        heartbeat_at: when the owner last said it is alive (epoch seconds).
        fence: the fencing token: grows by one each time the scope changes owner, never
            reused (a released claim keeps it).
    """

    platform: str
    owner: str
    heartbeat_at: float
    fence: int = 0


@dataclass(frozen=True, slots=True)
class Fence:
    """What a fenced write carries: the scope, its owner and the token it was claimed with.

    A fenced write (``fence=`` of the table and money methods) is refused with
    :class:`FencedOut`, in the same transaction, unless the scope's claim still has
    this owner and this token: a process that lost its tables (paused past its lease)
    can no longer change them nor move their money.
    """

    scope: str
    owner: str
    token: int


@dataclass(frozen=True)
class ChatRules:
    """The rule preset a chat plays with.

    Attributes:
        chat: the chat key.
        preset: a preset name of ``engine.rules.PRESET_NAMES``.
        overrides: options changed on top of the preset (validated values).
        changed_by: the player id of the admin who changed them last.
        changed_at: epoch seconds of that change.
    """

    chat: str
    preset: str
    overrides: dict[str, Any] = field(default_factory=dict)
    changed_by: int | None = None
    changed_at: float = 0.0

    def rules(self) -> Rules:
        """The engine rule set (rules.md, "Presets" and "The options").

        Raises:
            engine.errors.RulesError: the stored preset or overrides no longer validate.
        """
        return find_any_preset(self.preset, **self.overrides)


@dataclass(frozen=True)
class LedgerEntry:
    """One change of a player's balance, as the player's wallet history shows it.

    Attributes:
        kind: ``"open"``, ``"top_up"``, ``"stake"``, ``"payout"``, ``"refund"``.
        amount: dollars, positive when received, negative when paid.
        match_id: the match it belongs to, if any.
        at: epoch seconds.
    """

    kind: str
    amount: int
    match_id: str | None
    at: float


@dataclass(frozen=True)
class MatchSettlement:
    """What :meth:`Storage.finish_match` did to the players' money.

    Attributes:
        payouts: player id -> dollars received from the settlement (twice the stake for
            each winner still holding a stake, in seat order; empty when the match had
            no escrow or nobody was paid).
        balances: player id -> balance in dollars right after the operation, for every
            player of ``results`` and every holder of the match's escrow (forfeited
            players included).
        already_finished: True when the call wrote nothing because the match had been
            finished before (escrow settled, record stored); ``payouts`` are then the
            first settlement's and ``balances`` the current ones.
    """

    payouts: dict[int, int]
    balances: dict[int, int]
    already_finished: bool


@dataclass(frozen=True)
class TournamentPlace:
    """A player's place in a finished tournament, as their profile lists it.

    Attributes:
        tournament_id: the tournament.
        chat: the chat key it was held in.
        name: its name, as the admins gave it.
        place: the player's place, 1 for first (players who share a place have the
            same number).
        entrants: how many entrants it had.
        finished_at: when it finished (epoch seconds).
    """

    tournament_id: str
    chat: str
    name: str
    place: int
    entrants: int
    finished_at: float


# ---------------------------------------------------------------- shared pure rules


def normalize_language(language: str | None) -> str:
    """A platform locale (``"es-ES"``, ``"en_US"``, ``"pt-BR"``, None) as a language.

    Returns one of :data:`LANGUAGES`; anything unsupported gives :data:`DEFAULT_LANGUAGE`.
    """
    if not language:
        return DEFAULT_LANGUAGE
    code = language.strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def top_up_amount(balance: int, stake: int, last_top_up: float | None, now: float) -> int:
    """Dollars a top-up adds now (rules.md, "The house"); 0 when not due.

    Due when the balance is below ``stake`` and no top-up happened in the last
    :data:`TOP_UP_EVERY` seconds; it brings the balance up to :data:`TOP_UP_TO`.
    """
    if balance >= stake or balance >= TOP_UP_TO:
        return 0
    if last_top_up is not None and now - last_top_up < TOP_UP_EVERY:
        return 0
    return TOP_UP_TO - balance


def bayesian_rating(wins: int, matches: int) -> float:
    """A win rate pulled toward 50 % by :data:`RATING_PRIOR_MATCHES` imaginary matches.

    ``(wins + prior/2) / (matches + prior)``: one lucky win gives 0.545, not 1.0; a long
    record dominates the prior. Returns a float in 0..1.
    """
    prior = RATING_PRIOR_MATCHES
    return (wins + prior / 2) / (matches + prior)


NOTICE_BYTES: Final = 7000
"""The longest message :meth:`Storage.publish` takes, in UTF-8 bytes (PostgreSQL's
``NOTIFY`` takes under 8,000)."""


def check_notice(message: str) -> None:
    """Raise ValueError for a message :meth:`Storage.publish` cannot carry."""
    if len(message.encode()) > NOTICE_BYTES:
        raise ValueError(f"a notice holds at most {NOTICE_BYTES} bytes")


def check_stake_arguments(match_id: str, player_ids: Sequence[int], stake: int) -> None:
    """Raise ValueError for a malformed :meth:`Storage.stake` call."""
    if not isinstance(match_id, str) or not match_id:
        raise ValueError("match_id must be a non-empty string")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
        raise ValueError(f"stake must be a whole number of dollars >= 0 (got {stake!r})")
    if len(set(player_ids)) != len(player_ids):
        raise ValueError("a player appears twice in the stake")


def tournament_escrow(tournament_id: str) -> str:
    """The escrow id of a tournament's entry fees: ``"tournament:<id>"``.

    Raises:
        ValueError: an empty tournament id.
    """
    if not isinstance(tournament_id, str) or not tournament_id:
        raise ValueError("tournament_id must be a non-empty string")
    return TOURNAMENT_ESCROW_PREFIX + tournament_id


def check_now(now: float) -> None:
    """Raise ValueError when ``now`` is not a finite number of epoch seconds."""
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise ValueError(f"now must be epoch seconds (got {now!r})")
