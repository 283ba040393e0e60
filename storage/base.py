"""The storage interface: players, the wallet ledger, statistics, presets, snapshots.

:class:`Storage` is the async port the core types against. It is seven roles a reader can
hold in their head, each a module of SQL written once for SQLite and PostgreSQL, each
method's docstring (shapes, units, errors, the rule's source) written there and only there:
:class:`PlayersAndWallets` (:mod:`storage.wallets`), :class:`MatchesAndRecords`
(:mod:`storage.matches`), :class:`RatingsAndSeasons` (:mod:`storage.seasons`),
:class:`ChatsAndRules` (:mod:`storage.chats`), :class:`TablesClaimsAndNotices`
(:mod:`storage.tables`), :class:`Tournaments` (:mod:`storage.tournaments`),
:class:`Friends` (:mod:`storage.friends`), :class:`ModerationLog` (:mod:`storage.moderation`,
its shapes and errors with it) and :class:`Links` (:mod:`storage.links`: one player on
both platforms); the data
shapes, errors and pure rules are :mod:`storage.shapes`, re-exported here. A database supplies how an operation runs:
:class:`storage.sqlite.SqliteStorage` (aiosqlite, the bot's default) and
:class:`storage.postgres.PostgresStorage` (asyncpg, for several processes), modules the
core never imports. Money rules follow rules.md, "The house"; money is integer dollars;
time ``now`` is epoch seconds, always passed in.

Every balance change is a ledger entry in a double-entry ledger (accounts: one per
player, one escrow per match, one house account); each transaction sums to zero and is
keyed by an idempotency key so a retried operation never applies twice.

Chat keys are ``"<platform>:<chat id>"`` strings (``"telegram:-1001234"``,
``"discord:98765"``, ``"terminal:local"``). Player ids are platform-neutral ints.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from storage import moderation, shapes
from storage.chats import ChatsAndRules
from storage.friends import Friend, FriendRequest, Friends, RequestOutcome
from storage.links import (
    LINK_CODE_ALPHABET,
    LINK_CODE_LENGTH,
    LINK_CODE_SECONDS,
    LINKABLE_PLATFORMS,
    Identity,
    LinkRefusal,
    LinkRefused,
    Links,
    Merge,
)
from storage.matches import MatchesAndRecords
from storage.moderation import *  # noqa: F403 (its shapes and errors: storage.moderation.__all__)
from storage.moderation import ModerationLog
from storage.seasons import RatingsAndSeasons
from storage.shapes import *  # noqa: F403 (every data shape, error and rule: storage.shapes.__all__)
from storage.tables import TablesClaimsAndNotices
from storage.tournaments import Tournaments
from storage.wallets import PlayersAndWallets

__all__ = [
    "LINKABLE_PLATFORMS",
    "LINK_CODE_ALPHABET",
    "LINK_CODE_LENGTH",
    "LINK_CODE_SECONDS",
    "ChatsAndRules",
    "Friend",
    "FriendRequest",
    "Friends",
    "Identity",
    "LinkRefusal",
    "LinkRefused",
    "Links",
    "MatchesAndRecords",
    "Merge",
    "PlayersAndWallets",
    "RatingsAndSeasons",
    "RequestOutcome",
    "Storage",
    "TablesClaimsAndNotices",
    "Tournaments",
]
__all__ += shapes.__all__
__all__ += moderation.__all__


class Storage(
    PlayersAndWallets,
    MatchesAndRecords,
    RatingsAndSeasons,
    ChatsAndRules,
    TablesClaimsAndNotices,
    Tournaments,
    Friends,
    ModerationLog,
    Links,
    ABC,
):
    """The async storage port (design.md, "storage"). Every method is one transaction.

    It is seven roles a caller can name alone (type a parameter with the role it uses):
    :class:`PlayersAndWallets`, :class:`MatchesAndRecords`, :class:`RatingsAndSeasons`,
    :class:`ChatsAndRules`, :class:`TablesClaimsAndNotices`, :class:`Tournaments`,
    :class:`Friends`, :class:`ModerationLog` and :class:`Links` (one player on both
    platforms).
    Errors leave nothing written. Methods taking ``now`` use it as the time of the change (epoch seconds).
    Implementations: ``SqliteStorage``, ``PostgresStorage``.
    """

    @abstractmethod
    async def close(self) -> None:
        """Release the storage (the database connection). Idempotent."""
