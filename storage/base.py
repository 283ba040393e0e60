"""The storage interface: players, the wallet ledger, statistics, presets, snapshots.

:class:`Storage` is a small abstract async port. Two implementations keep the same
behaviour, both :class:`storage.sql.SqlStorage` (the SQL written once):
:class:`storage.sqlite.SqliteStorage` (aiosqlite, the bot's default; on ``":memory:"``
what the tests use) and :class:`storage.postgres.PostgresStorage` (asyncpg, for several
processes). Money rules follow rules.md,
"The house": an account opens with $1,000, every human pays the stake into the match's
escrow at match start, each winning human receives twice the stake, an abandoner's stake
goes to the house, and a balance below the stake is topped up to $100 at most once every
24 hours. Money is integer dollars. Time ``now`` is epoch seconds, always passed in.

Every balance change is a ledger entry in a double-entry ledger (accounts: one per
player, one escrow per match, one house account); each transaction sums to zero and is
keyed by an idempotency key so a retried operation never applies twice.

Chat keys are ``"<platform>:<chat id>"`` strings (``"telegram:-1001234"``,
``"discord:98765"``, ``"terminal:local"``). Player ids are platform-neutral ints.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from engine.rules import Rules, find_preset

if TYPE_CHECKING:
    from storage.ratings import SeasonPeriod

__all__ = [
    "ACTIVE_SECONDS",
    "DEFAULT_LANGUAGE",
    "DEFAULT_STAKE",
    "LANGUAGES",
    "NOTICE_BYTES",
    "OPENING_BALANCE",
    "RATING_PRIOR_MATCHES",
    "TOP_UP_EVERY",
    "TOP_UP_TO",
    "TREND_SECONDS",
    "ChatRules",
    "ChatsAndRules",
    "Fence",
    "FencedOut",
    "InsufficientFunds",
    "LedgerEntry",
    "MatchClosedError",
    "MatchSettlement",
    "MatchesAndRecords",
    "NotInMatchError",
    "OpenEscrow",
    "PairRow",
    "Player",
    "PlayerRecord",
    "PlayerResult",
    "PlayerStats",
    "PlayersAndWallets",
    "RankRow",
    "Rating",
    "RatingPoint",
    "RatingsAndSeasons",
    "RebuildReport",
    "Rival",
    "SchemaError",
    "Storage",
    "StorageError",
    "StoredMatch",
    "TablesClaim",
    "TablesClaimsAndNotices",
    "UnknownMatchError",
    "UnknownPlayerError",
    "bayesian_rating",
    "normalize_language",
    "top_up_amount",
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

LANGUAGES: Final[tuple[str, ...]] = ("es", "en")
"""Languages players can choose; the first is the default."""

NOTIFICATIONS: Final[tuple[str, ...]] = ("turn", "none")
"""A player's turn notifications (issue 27): ``"turn"`` (the default) a notifying private
message on each own turn; ``"none"``: their tiles message is edited in place, silently."""

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
        team: the partnership, 0 or 1 (``engine.hand.team_of(seat)``).
        won_match: whether the player's team won the match.
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
        return find_preset(self.preset, **self.overrides)


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


def check_now(now: float) -> None:
    """Raise ValueError when ``now`` is not a finite number of epoch seconds."""
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise ValueError(f"now must be epoch seconds (got {now!r})")


# ------------------------------------------------------------------------- the port


class PlayersAndWallets(ABC):
    """Players, their platform links and languages, and the wallet ledger (rules.md, "The house")."""

    @abstractmethod
    async def ensure_player(
        self,
        platform: str,
        platform_user_id: str,
        display_name: str,
        *,
        language: str | None = None,
        now: float,
    ) -> Player:
        """The player linked to a platform user, created on first sight.

        A new player gets an account opened with :data:`OPENING_BALANCE` dollars (a
        ledger transaction from the house) and the language ``normalize_language(language)``.
        A known player's display name is updated; their language is kept (it changes
        only through :meth:`set_player_language`).

        Raises:
            ValueError: empty platform or platform user id.
        """

    @abstractmethod
    async def get_player(self, player_id: int) -> Player | None:
        """The player with this id, or None."""

    @abstractmethod
    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        """The player linked to this platform user, or None (nothing is created)."""

    @abstractmethod
    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        """Link one more platform user to an existing player (same person, other platform).

        Raises:
            UnknownPlayerError: no such player.
            ValueError: the platform user is already linked to another player.
        """

    @abstractmethod
    async def set_username(
        self, platform: str, platform_user_id: str, username: str | None
    ) -> bool:
        """Remember the platform's username of a linked user (Telegram's ``@ana``: stored
        as ``"ana"``, without the ``@`` and in lower case; None or "" forgets it), so a
        player can be found by it (:meth:`find_by_username`) after a restart. A platform
        username belongs to one user: another user of the platform who held it loses it.

        Returns:
            False when no player is linked to that user (nothing is stored).
        """

    @abstractmethod
    async def find_by_username(self, platform: str, username: str) -> tuple[str, Player] | None:
        """The platform user id and player that last wrote with ``username`` (with or
        without the ``@``, any case), or None."""

    @abstractmethod
    async def set_player_language(self, player_id: int, language: str) -> None:
        """Set a player's preferred language.

        Raises:
            UnknownPlayerError: no such player.
            ValueError: the language is not one of :data:`LANGUAGES`.
        """

    @abstractmethod
    async def player_notifications(self, player_id: int) -> str:
        """The player's turn notifications, one of :data:`NOTIFICATIONS` (``"turn"``
        until they choose).

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        """Set the player's turn notifications.

        Raises:
            UnknownPlayerError: no such player.
            ValueError: not one of :data:`NOTIFICATIONS`.
        """

    @abstractmethod
    async def balance(self, player_id: int) -> int:
        """The player's balance in dollars (never negative).

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def stake(
        self,
        match_id: str,
        player_ids: Sequence[int],
        stake: int,
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """Take every human's stake into the match's escrow (rules.md, "The house").

        In one transaction: each player below ``stake`` whose top-up is due is first
        topped up to :data:`TOP_UP_TO` (see :func:`top_up_amount`); then ``stake``
        dollars move from every player to the escrow of ``match_id``. Robots are not
        passed and pay nothing. A stake of 0 opens the escrow with no money moved.
        Calling it again for the same match id does nothing (idempotent).

        Raises:
            InsufficientFunds: some player cannot pay; nothing is written, not even
                top-ups.
            UnknownPlayerError: an unknown player id; nothing is written.
            ValueError: empty match id, a negative or non-integer stake, or a player
                given twice.
        """

    @abstractmethod
    async def settle(
        self,
        match_id: str,
        winner_ids: Sequence[int],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> dict[int, int]:
        """Pay the winners of a match (rules.md, "The house"); prefer :meth:`finish_match`.

        Each id of ``winner_ids`` that still holds a stake in the match receives twice
        the stake, paid from the escrow and, for the rest, from the house; whatever the
        escrow still holds (losers' stakes) goes to the house, which closes the escrow.
        Ids without a held stake (robots, players who forfeited) receive nothing.
        Settling again returns the first settlement's payouts and pays nothing. The
        settlement is the same as :meth:`finish_match`'s, without the record.

        Returns:
            player id -> dollars paid, for each paid winner.

        Raises:
            UnknownMatchError: no stakes were taken for the match.
            MatchClosedError: the match was refunded.
        """

    @abstractmethod
    async def refund(
        self, match_id: str, *, now: float, fence: Fence | None = None
    ) -> dict[int, int]:
        """Give every held stake back (a cancelled match); closes the escrow.

        Stakes already forfeited stay with the house. Refunding again returns the
        first refund's amounts and moves nothing.

        Returns:
            player id -> dollars returned.

        Raises:
            UnknownMatchError: no stakes were taken for the match.
            MatchClosedError: the match was settled.
        """

    @abstractmethod
    async def forfeit(
        self, match_id: str, player_id: int, *, now: float, fence: Fence | None = None
    ) -> None:
        """Move an abandoning player's stake from the escrow to the house.

        The player is no longer paid by :meth:`settle` nor refunded. Forfeiting
        again does nothing.

        Raises:
            UnknownMatchError: no stakes were taken for the match.
            NotInMatchError: the player holds no stake in the match.
            MatchClosedError: the match was already settled or refunded.
        """

    @abstractmethod
    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        """Top the player up to :data:`TOP_UP_TO` if due (see :func:`top_up_amount`).

        Returns:
            dollars added (0 when not due).

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        """The player's latest balance changes, newest first.

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def check_ledger(self) -> list[str]:
        """Check the ledger's invariants; returns the problems found (empty when whole).

        Checked: every transaction sums to zero; all entries sum to zero; each
        account's balance equals the sum of its entries; no player or escrow balance
        is negative; each open escrow holds exactly its held stakes; each operation is
        whole (a player has its opening, an escrow its stake transaction, a settled,
        refunded or forfeited state its transaction, and the reverse). SQLite also
        checks the file (``quick_check``), foreign keys and the statistics totals.
        Meant for tests, benchmarks and audits: it reads the whole ledger.
        """


class MatchesAndRecords(ABC):
    """Finished matches: the one-transaction finish, records, results and statistics (docs/records.md)."""

    @abstractmethod
    async def finish_match(
        self,
        match_id: str,
        chat: str,
        *,
        winners: Sequence[int],
        record: Mapping[str, Any],
        results: Sequence[PlayerResult],
        now: float,
        fence: Fence | None = None,
    ) -> MatchSettlement:
        """Finish a match in one transaction: settle, pay, record, count (rules.md, "The house").

        All of it is written, or nothing (one ``BEGIN IMMEDIATE`` in SQLite):

        - the escrow, if the match has one, is settled exactly as :meth:`settle` does
          (same plan, same ledger transaction keyed ``"settle:<match id>"``): each id of
          ``winners`` still holding a stake receives twice the stake (dollars), from the
          escrow and then the house; losers' stakes go to the house; forfeited players,
          robots and strangers receive nothing. A match without an escrow (never
          staked) moves no money.
        - the match record (``record``, the records.md JSON object) and each human's
          result and statistics are stored as :meth:`record_match` does, with ``now``
          (epoch seconds) as the finish time; ``chat`` is the chat key.

        When ``results`` is empty and the match has no escrow, nothing is written.

        Idempotent per ``match_id``: a part already done (escrow settled, record
        stored, by an earlier call or by :meth:`settle` / :meth:`record_match`) is not
        done again, so a retry after a crash finishes what is missing; when everything
        was done before, nothing is written and ``already_finished`` is True, with the
        first settlement's payouts.

        Returns:
            a :class:`MatchSettlement`: the payouts, the balances after the operation
            (every player of ``results`` and every escrow holder) and whether the match
            was already finished.

        Raises:
            MatchClosedError: the match's escrow was refunded (a cancelled match).
            UnknownPlayerError: a result names an unknown player.
            ValueError: empty match id or chat, a player with two results, a team not 0
                or 1, a negative count, or ``now`` not finite.
            TypeError: the record is not JSON-serialisable.
            In every case nothing is written.
        """

    @abstractmethod
    async def record_match(
        self,
        match_id: str,
        chat: str,
        record: dict[str, Any],
        results: Sequence[PlayerResult],
        *,
        now: float,
    ) -> None:
        """Store a finished match's record and each human's result (idempotent per id).

        ``record`` is the records.md JSON object; ``now`` is the finish time. Written
        the same way as by :meth:`finish_match`, which also settles the escrow.

        Raises:
            UnknownPlayerError: a result names an unknown player; nothing is written.
            ValueError: a player appears twice, a team is not 0 or 1, or a count is
                negative.
            TypeError: the record is not JSON-serialisable.
        """

    @abstractmethod
    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        """Finished matches, newest first, filtered by player and/or chat.

        Pass a large ``limit`` to export them all.
        """

    @abstractmethod
    async def player_stats(self, player_id: int) -> PlayerStats:
        """The player's totals (zeros for a player without recorded matches).

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def top_by_balance(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        """The richest active players (rules.md, "The house": the top 10).

        Active means a match finished within :data:`ACTIVE_SECONDS` before ``now`` (in
        ``chat`` when given, anywhere when None). Ordered by balance, then by matches
        played in the scope, then by player id. ``value`` is the balance in dollars;
        ``trend`` what the balance changed by since :data:`TREND_SECONDS` before ``now``,
        the :data:`OPENING_BALANCE` a new player starts with not counted as a change (a
        player new this week who lost one match shows -10).
        """


class RatingsAndSeasons(ABC):
    """Team ratings, their history, seasons and their finals (docs/ratings.md)."""

    @abstractmethod
    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        """The best players by all-time rating (docs/ratings.md).

        In a chat (``chat`` given), the players who finished a match there; everyone
        rated when None. Ordered by the conservative estimate (mu - 3 sigma), then rated
        matches, then player id. ``value`` is the shown rating; ``trend`` its change since
        :data:`TREND_SECONDS` before ``now`` (None for a player rated only since).
        """

    @abstractmethod
    async def season_standings(self, chat: str, season: str, *, limit: int = 10) -> list[RankRow]:
        """A season's table: ``chat`` (a chat key, or ``storage.ratings.ALL_CHATS`` for
        the global season) and ``season`` (a season key such as ``"2026-12"``).

        Ordered like :meth:`top_by_rating`; ``value`` is the season rating, ``matches``
        the season's rated matches, ``trend`` None.
        """

    @abstractmethod
    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        """Pairs of humans who finished at least ``min_matches`` matches as partners (in
        ``chat``, or anywhere when None), ordered by the Bayesian win rate
        (:func:`bayesian_rating`), then matches, then ids."""

    @abstractmethod
    async def player_rating(
        self, player_id: int, *, chat: str = "*", season: str = ""
    ) -> Rating | None:
        """The player's rating in a scope (all-time global by default), None when unrated
        there.

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def rating_history(self, player_id: int, *, limit: int = 50) -> list[RatingPoint]:
        """The player's all-time rating after each of their last ``limit`` rated matches,
        oldest first.

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def player_record(self, player_id: int) -> PlayerRecord:
        """Partners, opponents, current streak and points per hand (issue 14).

        Raises:
            UnknownPlayerError: no such player.
        """

    @abstractmethod
    async def season_period(self, chat: str) -> SeasonPeriod:
        """How long the chat's seasons last (``storage.ratings.DEFAULT_PERIOD`` unless
        an admin changed it)."""

    @abstractmethod
    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        """Change the chat's season length; matches from now on count in the season of
        the new length that holds them (docs/ratings.md, "Seasons")."""

    @abstractmethod
    async def seasons(self, chat: str) -> list[str]:
        """The seasons with rated matches in ``chat`` (or ``ALL_CHATS``), newest first."""

    @abstractmethod
    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        """(chat, season) pairs of chat seasons that ended before ``now``, had rated
        matches and whose final standings were not yet announced (oldest first)."""

    @abstractmethod
    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        """Note that a season's final standings were announced; False when already noted."""

    @abstractmethod
    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        """Replay every stored match in the order it was stored and recompute the seats,
        ratings, seasons and rating history from the records (``domino ratings
        --rebuild``); compare with what is stored and, when ``write``, replace it in one
        transaction. Money and statistics are not touched.
        """


class ChatsAndRules(ABC):
    """A chat's presets, its language and its move to a new chat key."""

    @abstractmethod
    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        """The chat's rule preset and overrides, or None when never set."""

    @abstractmethod
    async def set_chat_rules(
        self,
        chat: str,
        preset: str,
        overrides: Mapping[str, object],
        *,
        changed_by: int,
        now: float,
    ) -> ChatRules:
        """Set the chat's preset and overrides (rules.md, "Presets"), replacing the old ones.

        Validated with ``engine.rules.find_preset``; the preset is stored under its
        canonical name (``"español"`` -> ``"espanol"``) and the overrides with their
        validated values.

        Raises:
            engine.errors.RulesError: unknown preset, unknown option or bad value;
                nothing is written.
        """

    @abstractmethod
    async def move_chat(
        self,
        old: str,
        new: str,
        *,
        tables: Mapping[str, dict[str, Any]] | None = None,
        now: float,
    ) -> None:
        """Move what is kept under chat key ``old`` to ``new``, in one transaction.

        For a chat whose platform gave it a new id (a Telegram group upgraded to a
        supergroup): its rules and its language (unless ``new`` already has its own,
        which are newer and kept; ``old``'s are dropped), its season length, its finished
        matches, their results, seats and season keys, its players' totals (added to any
        ``new`` already has) and its season ratings and finals, so rankings, seasons and
        history follow the chat. ``tables`` (table id -> snapshot) are saved in the same
        transaction: the moved live tables' snapshots, which name the chat. Moving a
        chat again, or one with nothing kept, changes nothing else.

        Raises:
            ValueError: ``old`` or ``new`` is empty, or they are equal; nothing is written.
            TypeError: a snapshot is not JSON-serialisable; nothing is written.
        """

    @abstractmethod
    async def get_chat_language(self, chat: str) -> str | None:
        """The language the chat's admins chose for its group messages (``"es"`` or
        ``"en"``), or None when never chosen."""

    @abstractmethod
    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        """Set the chat's language for group messages, replacing the old one.

        Raises:
            ValueError: ``language`` is not ``"es"`` or ``"en"``; nothing is written.
        """


class TablesClaimsAndNotices(ABC):
    """Live tables' snapshots, the open escrows, the tables' lease (claims and fencing tokens) and notices between processes (docs/failover.md)."""

    _notices: dict[str, list[Callable[[str], None]]]  # channel -> subscribers, made on use

    @abstractmethod
    async def save_table(
        self,
        table_id: str,
        snapshot: dict[str, Any],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """Save (replace) an unfinished table's snapshot, a JSON object.

        Raises:
            TypeError: the snapshot is not JSON-serialisable; nothing is written.
            FencedOut: ``fence`` is stale (every method taking ``fence`` raises it so,
                nothing written; None: unfenced, as tools and tests write).
        """

    @abstractmethod
    async def load_tables(self) -> list[dict[str, Any]]:
        """Every saved snapshot, oldest saved first, as JSON round-tripped them."""

    @abstractmethod
    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        """Delete a table's snapshot (a finished table). Deleting a missing one is fine."""

    @abstractmethod
    async def open_escrows(self) -> list[OpenEscrow]:
        """Every escrow still open (stakes taken, match neither settled nor refunded),
        oldest first. A healthy database has one per live started table."""

    @abstractmethod
    async def tables_claim(self, platform: str) -> TablesClaim | None:
        """Who holds the lease of scope ``platform`` (e.g. ``"telegram"``), or None."""

    @abstractmethod
    async def tables_claims(self) -> list[TablesClaim]:
        """Every scope's held lease, by scope name."""

    @abstractmethod
    async def claim_tables(
        self, platform: str, owner: str, *, now: float, replacing: str | None
    ) -> int | None:
        """Claim scope ``platform``'s tables for ``owner`` (compare and set).

        Succeeds when the current claim is ``replacing`` (None: no claim) or already
        ``owner``; the heartbeat becomes ``now``.

        Returns:
            the claim's fencing token: the same when ``owner`` held it already, one more
            than any earlier token of the scope otherwise; None (nothing written) when
            another process changed the claim meanwhile.
        """

    @abstractmethod
    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        """Move ``owner``'s heartbeat to ``now``; False when the claim is not theirs."""

    @abstractmethod
    async def release_tables(self, platform: str, owner: str) -> None:
        """Drop ``owner``'s claim (a graceful stop); another owner's claim stays. The
        scope's fencing token is kept (a later claim gets a greater one)."""

    async def publish(self, channel: str, message: str) -> None:
        """Hand ``message`` (text, at most :data:`NOTICE_BYTES` in UTF-8) to every
        subscriber of ``channel``, this process's included: those of this storage object
        here (SQLite: one process), those of every process on the database on
        PostgreSQL (``NOTIFY``). Nothing is kept: a process subscribing later never sees
        it.

        Raises:
            ValueError: the message is too long.
        """
        check_notice(message)
        for callback in list(self._subscribers().get(channel, ())):
            callback(message)

    async def subscribe(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(message)`` for each message published on ``channel`` from now
        on (in the event loop; it must not block)."""
        self._subscribers().setdefault(channel, []).append(callback)

    def _subscribers(self) -> dict[str, list[Callable[[str], None]]]:
        found: dict[str, list[Callable[[str], None]]] | None = getattr(self, "_notices", None)
        if found is None:
            found = {}
            self._notices = found
        return found


class Storage(
    PlayersAndWallets, MatchesAndRecords, RatingsAndSeasons, ChatsAndRules, TablesClaimsAndNotices
):
    """The async storage port (design.md, "storage"). Every method is one transaction.

    It is five roles a caller can name alone (type a parameter with the role it uses):
    :class:`PlayersAndWallets`, :class:`MatchesAndRecords`, :class:`RatingsAndSeasons`,
    :class:`ChatsAndRules` and :class:`TablesClaimsAndNotices`. Errors leave nothing
    written. Methods taking ``now`` use it as the time of the change (epoch seconds).
    Implementations: ``SqliteStorage``, ``PostgresStorage``.
    """

    @abstractmethod
    async def close(self) -> None:
        """Release the storage (the database connection). Idempotent."""
