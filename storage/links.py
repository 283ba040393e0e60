"""One player on both platforms (issue 33; docs/players.md): the link codes, a merge of
two players into one, and an identity unlinked again.

A person who plays on Telegram and on Discord is two players until they link: one
platform gives a short code (:meth:`Links.issue_link_code`), the other accepts it
(:meth:`Links.redeem_link_code`), and in that one transaction the two players become one.
The older player (the smaller id) survives; the other is merged into it:

- money: the merged player's whole balance moves to the survivor in one ledger
  transaction of kind ``"merge"`` (key ``"merge:<merged id>"``): the sum of the two
  balances, no dollar created or lost. The merged player's account stays, at 0, with
  its ledger rows (they are never rewritten), and the player row stays as an alias
  (``players.merged_into``);
- identities: every platform link of the merged player moves to the survivor;
- history: results, per-chat totals, seats and tournament places move to the survivor
  (a match, a chat and a tournament belong to one platform, so the two never share one);
- ratings: where both hold a rating of the same list (format, chat, season), the one
  with more rated matches is kept (the survivor's on a tie) and the other dropped; the
  all-time rating's history of a format follows the all-time rating kept;
- the survivor keeps its name, language and notifications; its last top-up is the later
  of the two (linking never makes a top-up due sooner).

Refused, with nothing written (:class:`LinkRefused`): an unknown, expired or used code,
a code accepted on the platform that gave it, two identities already one player, a
player linked to another user of the other platform already, and a player holding a
stake in an open escrow (a match or a tournament under way).

Unlinking (:meth:`Links.unlink`) moves one identity out to a fresh player whose account
opens at 0 dollars (its opening transaction moves nothing) and whose top-up waits the
usual :data:`storage.shapes.TOP_UP_EVERY`; the player, with its wallet, ratings and
history, stays with the other identity. Nothing is created or lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from storage.common import Plan, check_platform_ids, player_account
from storage.shapes import StorageError, check_now
from storage.sql import SqlBase, TryAgain, Tx, known_player

__all__ = [
    "LINKABLE_PLATFORMS",
    "LINK_CODE_ALPHABET",
    "LINK_CODE_LENGTH",
    "LINK_CODE_SECONDS",
    "Identity",
    "LinkRefusal",
    "LinkRefused",
    "Links",
    "Merge",
    "link_code_key",
    "plan_merge",
]

LINKABLE_PLATFORMS: Final = ("telegram", "discord")
"""The platforms whose identities link to each other (the terminal's player is its own)."""

LINK_CODE_SECONDS: Final = 600
"""How long a link code is good for: 10 minutes."""

LINK_CODE_LENGTH: Final = 6
"""Characters in a link code."""

LINK_CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A link code's characters: capitals and digits, without the look-alikes 0/O, 1/I."""

_CODES_KEPT_SECONDS: Final = 86_400
"""Used and expired codes are kept a day (to say "used" or "expired"), then dropped."""


class LinkRefusal(StrEnum):
    """Why linking or unlinking was refused (nothing was written)."""

    UNKNOWN_CODE = "unknown_code"  # no such code
    EXPIRED_CODE = "expired_code"  # its 10 minutes are over
    USED_CODE = "used_code"  # it linked two identities already
    SAME_PLATFORM = "same_platform"  # accepted on the platform that gave it
    ALREADY_LINKED = "already_linked"  # the two identities are one player already
    LINKED_ELSEWHERE = "linked_elsewhere"  # a side is linked to another user already
    MONEY_HELD = "money_held"  # a side holds a stake in an open escrow
    NOT_LINKED = "not_linked"  # unlinking an identity that is its player's only one
    NOT_LINKABLE = "not_linkable"  # a platform outside LINKABLE_PLATFORMS


class LinkRefused(StorageError):
    """Linking or unlinking was refused; nothing was written.

    Attributes:
        reason: why.
        platform: for ``linked_elsewhere``, the platform of the link in the way; for
            ``same_platform``, the code's platform.
    """

    def __init__(self, reason: LinkRefusal, platform: str = "") -> None:
        super().__init__(f"{reason.value} {platform}".strip())
        self.reason = reason
        self.platform = platform


@dataclass(frozen=True)
class Identity:
    """A platform user linked to a player.

    Attributes:
        platform: ``"telegram"``, ``"discord"``, ...
        platform_user_id: the platform's user id, as text.
        username: the platform's username last seen (Telegram's ``@name`` without
            the ``@``), or None.
    """

    platform: str
    platform_user_id: str
    username: str | None = None


@dataclass(frozen=True)
class Merge:
    """What a link did.

    Attributes:
        player_id: the survivor: the player both identities are now.
        merged_id: the player merged into it (an alias now), or None when the code's
            identity was the accepting one's player already (never: that is refused).
        moved: dollars moved from the merged player's wallet into the survivor's.
        balance: the survivor's balance after the merge.
        platform: the code's platform (where it was given).
    """

    player_id: int
    merged_id: int
    moved: int
    balance: int
    platform: str


def link_code_key(code: str) -> str:
    """A typed code as stored: spaces and dashes dropped, capitals (``"ab3-k9x"`` ->
    ``"AB3K9X"``)."""
    return "".join(ch for ch in code.upper() if ch not in " -\t")


def plan_merge(merged_id: int, survivor_id: int, balance: int) -> Plan:
    """The merged player's whole ``balance`` moves to the survivor (docs/players.md,
    "Linking"): one transaction, no dollar created or lost; a zero balance moves nothing
    and the transaction still records the merge."""
    entries = [(player_account(merged_id), -balance), (player_account(survivor_id), balance)]
    return Plan(
        f"merge:{merged_id}",
        "merge",
        None,
        [(account, amount) for account, amount in entries if amount],
        {merged_id: -balance, survivor_id: balance},
    )


_LINK: Final = "SELECT player_id FROM player_links WHERE platform = ? AND platform_user_id = ?"

_MONEY_HELD: Final = (
    "SELECT 1 FROM escrow_holders h JOIN escrows e ON e.match_id = h.match_id"
    " WHERE e.state = 'open' AND h.status = 'held' AND h.player_id IN (?, ?) LIMIT 1"
)

_REPOINTED: Final = (
    "match_results",
    "player_chat_totals",
    "match_seats",
    "tournament_places",
)
"""The history tables whose rows move to the survivor as they are (a match, a chat and a
tournament belong to one platform, so the two players never share a row's key). A new
table with a ``player_id`` column joins this list, or :func:`_merge` handles it."""

_CHANGED_BY: Final = ("chat_rules", "chat_settings", "chat_seasons")
"""The tables naming the player who changed a chat's settings (``changed_by``)."""

_PAIRS: Final = (
    ("friendships", "player_id", "friend_id"),
    ("friend_requests", "from_id", "to_id"),
    ("mutes", "player_id", "muted_id"),
)
"""The tables of one player's relation to another (friends, requests, mutes; their key is
the pair): the merged player's rows move to the survivor, except one the survivor holds
already and one that would relate the survivor to themself."""

_MODERATION: Final = (
    ("reports", "reporter_id"),
    ("reports", "reported_id"),
    ("reports", "closed_by"),
    ("bans", "player_id"),
    ("moderation_log", "admin_id"),
    ("moderation_log", "player_id"),
)
"""The moderation rows naming a player (docs/moderation.md): reports, bans and the log
follow the survivor (a chat belongs to one platform, so no key meets its twin)."""


async def _player_of(tx: Tx, platform: str, platform_user_id: str) -> int | None:
    found = await tx.value(_LINK, platform, platform_user_id)
    return None if found is None else int(found)


async def _platforms(tx: Tx, player_id: int) -> dict[str, str]:
    """platform -> platform user id of each link of the player."""
    rows = await tx.rows(
        "SELECT platform, platform_user_id FROM player_links WHERE player_id = ?", player_id
    )
    return {str(r[0]): str(r[1]) for r in rows}


async def _merge(tx: Tx, survivor: int, merged: int, now: float) -> int:
    """Merge player ``merged`` into ``survivor`` (the module's rules); the dollars moved."""
    balance = int(
        await tx.value("SELECT balance FROM accounts WHERE key = ?", player_account(merged))
    )
    await tx.post(plan_merge(merged, survivor, balance), now)
    await tx.run("UPDATE player_links SET player_id = ? WHERE player_id = ?", survivor, merged)
    for table in _REPOINTED:
        await tx.run(f"UPDATE {table} SET player_id = ? WHERE player_id = ?", survivor, merged)
    for table in _CHANGED_BY:
        await tx.run(f"UPDATE {table} SET changed_by = ? WHERE changed_by = ?", survivor, merged)
    for table, one, other in _PAIRS:
        for mine, theirs in ((one, other), (other, one)):
            await tx.run(
                f"DELETE FROM {table} WHERE {mine} = ?2 AND ({theirs} = ?1 OR EXISTS (SELECT 1"
                f" FROM {table} s WHERE s.{mine} = ?1 AND s.{theirs} = {table}.{theirs}))",
                survivor,
                merged,
            )
            await tx.run(f"UPDATE {table} SET {mine} = ? WHERE {mine} = ?", survivor, merged)
    await tx.run(
        "DELETE FROM reports WHERE (reporter_id = ?1 AND reported_id = ?2)"
        " OR (reporter_id = ?2 AND reported_id = ?1)",
        survivor,
        merged,
    )  # a report of one's own other account: nothing left to report
    for table, column in _MODERATION:
        await tx.run(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", survivor, merged)
    await tx.run(
        f"UPDATE player_seen SET seen_at = (SELECT {tx.dialect.greatest}(a.seen_at, b.seen_at)"
        " FROM player_seen a, player_seen b WHERE a.player_id = ?1 AND b.player_id = ?2)"
        " WHERE player_id = ?1 AND EXISTS (SELECT 1 FROM player_seen WHERE player_id = ?2)",
        survivor,
        merged,
    )
    await tx.run(
        "UPDATE player_seen SET player_id = ?1 WHERE player_id = ?2"
        " AND NOT EXISTS (SELECT 1 FROM player_seen WHERE player_id = ?1)",
        survivor,
        merged,
    )
    await tx.run("DELETE FROM player_seen WHERE player_id = ?", merged)
    # ratings: of two ratings of one list, the one with more rated matches is kept
    await tx.run(
        "DELETE FROM ratings WHERE player_id = ?2 AND EXISTS (SELECT 1 FROM ratings s"
        " WHERE s.player_id = ?1 AND s.format = ratings.format AND s.chat = ratings.chat"
        " AND s.season = ratings.season AND s.matches >= ratings.matches)",
        survivor,
        merged,
    )
    # the all-time history of a format follows the all-time rating kept (read before
    # the survivor's losing ratings are dropped below)
    kept = [
        str(f)
        for (f,) in await tx.rows(
            "SELECT format FROM ratings WHERE player_id = ? AND chat = '*' AND season = ''",
            merged,
        )
    ]
    await tx.run(
        "DELETE FROM ratings WHERE player_id = ?1 AND EXISTS (SELECT 1 FROM ratings m"
        " WHERE m.player_id = ?2 AND m.format = ratings.format AND m.chat = ratings.chat"
        " AND m.season = ratings.season)",
        survivor,
        merged,
    )
    await tx.run("UPDATE ratings SET player_id = ? WHERE player_id = ?", survivor, merged)
    for fmt in kept:
        await tx.run("DELETE FROM rating_history WHERE player_id = ? AND format = ?", survivor, fmt)
        await tx.run(
            "UPDATE rating_history SET player_id = ? WHERE player_id = ? AND format = ?",
            survivor,
            merged,
            fmt,
        )
    await tx.run("DELETE FROM rating_history WHERE player_id = ?", merged)
    await tx.run(
        f"UPDATE players SET last_top_up = (SELECT {tx.dialect.greatest}("
        "COALESCE(a.last_top_up, b.last_top_up), COALESCE(b.last_top_up, a.last_top_up))"
        " FROM players a, players b WHERE a.id = ?1 AND b.id = ?2) WHERE id = ?1",
        survivor,
        merged,
    )
    await tx.run("UPDATE players SET merged_into = ? WHERE id = ?", survivor, merged)
    return balance


class Links(SqlBase):
    """One player on both platforms: link codes, the merge, unlinking (docs/players.md)."""

    async def issue_link_code(
        self, platform: str, platform_user_id: str, code: str, *, now: float
    ) -> bool:
        """Keep ``code`` as the platform user's link code for :data:`LINK_CODE_SECONDS`;
        the user's earlier unused codes stop working, codes over a day old are dropped.

        Returns:
            False when ``code`` is taken (another code of that text is kept): nothing
            is written; ask again with another.

        Raises:
            LinkRefused: ``not_linkable`` for a platform outside :data:`LINKABLE_PLATFORMS`.
            ValueError: empty ids or code, or no player is linked to the platform user.
        """
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        key = link_code_key(code)
        if not key:
            raise ValueError("a link code cannot be empty")
        if platform not in LINKABLE_PLATFORMS:
            raise LinkRefused(LinkRefusal.NOT_LINKABLE, platform)

        async def write(tx: Tx) -> bool:
            if await _player_of(tx, platform, platform_user_id) is None:
                raise ValueError(f"no player is linked to {platform} user {platform_user_id}")
            await tx.run("DELETE FROM link_codes WHERE created_at < ?", now - _CODES_KEPT_SECONDS)
            if await tx.value("SELECT 1 FROM link_codes WHERE code = ?", key) is not None:
                return False
            await tx.run(
                "DELETE FROM link_codes WHERE platform = ? AND platform_user_id = ?"
                " AND used_at IS NULL",
                platform,
                platform_user_id,
            )
            await tx.run(
                "INSERT INTO link_codes (code, platform, platform_user_id, created_at,"
                " expires_at) VALUES (?, ?, ?, ?, ?)",
                key,
                platform,
                platform_user_id,
                now,
                now + LINK_CODE_SECONDS,
            )
            return True

        return await self._transact(write)

    async def redeem_link_code(
        self, code: str, platform: str, platform_user_id: str, *, now: float
    ) -> Merge:
        """The platform user accepts a code the other platform gave: the two players
        become one (the module's rules), the code is used.

        Raises:
            LinkRefused: ``unknown_code``, ``expired_code``, ``used_code``,
                ``same_platform``, ``already_linked``, ``linked_elsewhere``,
                ``money_held`` or ``not_linkable``; nothing is written.
            ValueError: empty ids, or no player is linked to the accepting user.
        """
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        key = link_code_key(code)
        if platform not in LINKABLE_PLATFORMS:
            raise LinkRefused(LinkRefusal.NOT_LINKABLE, platform)

        async def write(tx: Tx) -> Merge:
            row = await tx.row(
                "SELECT platform, platform_user_id, expires_at, used_at FROM link_codes"
                " WHERE code = ?" + tx.dialect.for_update,
                key,
            )
            if row is None:
                raise LinkRefused(LinkRefusal.UNKNOWN_CODE)
            giver_platform, giver_user = str(row[0]), str(row[1])
            if row[3] is not None:
                raise LinkRefused(LinkRefusal.USED_CODE)
            if now >= float(row[2]):
                raise LinkRefused(LinkRefusal.EXPIRED_CODE)
            if giver_platform == platform:
                raise LinkRefused(LinkRefusal.SAME_PLATFORM, platform)
            ids = await _both(tx, (giver_platform, giver_user), (platform, platform_user_id))
            await tx.lock_players(sorted(set(ids)))
            if await _both(tx, (giver_platform, giver_user), (platform, platform_user_id)) != ids:
                raise TryAgain  # another link moved one of them meanwhile
            giver, taker = ids
            if giver == taker:
                raise LinkRefused(LinkRefusal.ALREADY_LINKED)
            giver_links, taker_links = await _platforms(tx, giver), await _platforms(tx, taker)
            if platform in giver_links:
                raise LinkRefused(LinkRefusal.LINKED_ELSEWHERE, platform)
            if giver_platform in taker_links:
                raise LinkRefused(LinkRefusal.LINKED_ELSEWHERE, giver_platform)
            if await tx.value(_MONEY_HELD, giver, taker) is not None:
                raise LinkRefused(LinkRefusal.MONEY_HELD)
            survivor, merged = min(giver, taker), max(giver, taker)
            moved = await _merge(tx, survivor, merged, now)
            await tx.run("UPDATE link_codes SET used_at = ? WHERE code = ?", now, key)
            await tx.run(
                "DELETE FROM link_codes WHERE used_at IS NULL AND ((platform = ? AND"
                " platform_user_id = ?) OR (platform = ? AND platform_user_id = ?))",
                giver_platform,
                giver_user,
                platform,
                platform_user_id,
            )
            balance = await tx.value(
                "SELECT balance FROM accounts WHERE key = ?", player_account(survivor)
            )
            return Merge(survivor, merged, moved, int(balance), giver_platform)

        return await self._transact(write)

    async def unlink(
        self, platform: str, platform_user_id: str, display_name: str, *, now: float
    ) -> int:
        """Move the platform user out of their player to a fresh one (the module's
        rules): an account at 0 dollars, their last top-up now; the player keeps its
        wallet, ratings and history with its other identities.

        Returns:
            the fresh player's id.

        Raises:
            LinkRefused: ``not_linked`` (the user is their player's only identity on a
                linkable platform, or no player's), ``not_linkable``; nothing is written.
            ValueError: empty ids.
        """
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        if platform not in LINKABLE_PLATFORMS:
            raise LinkRefused(LinkRefusal.NOT_LINKABLE, platform)

        async def write(tx: Tx) -> int:
            player = await _player_of(tx, platform, platform_user_id)
            if player is None:
                raise LinkRefused(LinkRefusal.NOT_LINKED)
            others = set(await _platforms(tx, player)) & set(LINKABLE_PLATFORMS)
            if others == {platform}:
                raise LinkRefused(LinkRefusal.NOT_LINKED)
            row = await tx.row("SELECT display_name, language FROM players WHERE id = ?", player)
            assert row is not None
            fresh = int(
                await tx.value(
                    "INSERT INTO players (display_name, language, created_at, last_top_up)"
                    " VALUES (?, ?, ?, ?) RETURNING id",
                    display_name.strip() or str(row[0]),
                    str(row[1]),
                    now,
                    now,
                )
            )
            await tx.run(
                "UPDATE player_links SET player_id = ? WHERE platform = ? AND platform_user_id = ?",
                fresh,
                platform,
                platform_user_id,
            )
            await tx.run(
                "INSERT INTO accounts (key, kind, player_id) VALUES (?, 'player', ?)",
                player_account(fresh),
                fresh,
            )
            # the opening transaction, moving nothing: the fresh wallet starts at 0
            await tx.post(Plan(f"open:{fresh}", "open", None, [], {fresh: 0}), now)
            await tx.run(
                "DELETE FROM link_codes WHERE platform = ? AND platform_user_id = ?"
                " AND used_at IS NULL",
                platform,
                platform_user_id,
            )
            return fresh

        return await self._transact(write)

    async def link_code_owner(self, code: str) -> tuple[str, str] | None:
        """(platform, platform user id) of whoever was given ``code`` (any state), or None."""
        row = await self._query(
            lambda tx: tx.row(
                "SELECT platform, platform_user_id FROM link_codes WHERE code = ?",
                link_code_key(code),
            )
        )
        return None if row is None else (str(row[0]), str(row[1]))

    async def player_identities(self, player_id: int) -> list[Identity]:
        """The platform users linked to a player, by platform name.

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> list[Identity]:
            await known_player(tx, player_id)
            rows = await tx.rows(
                "SELECT platform, platform_user_id, username FROM player_links"
                " WHERE player_id = ? ORDER BY platform, platform_user_id",
                player_id,
            )
            return [Identity(str(p), str(u), None if n is None else str(n)) for p, u, n in rows]

        return await self._query(read)


async def _both(tx: Tx, giver: tuple[str, str], taker: tuple[str, str]) -> Sequence[int]:
    """The players of the code's giver and of the accepting user.

    Raises:
        LinkRefused: ``unknown_code`` when the giver is nobody's any more.
        ValueError: the accepting user is nobody's.
    """
    first = await _player_of(tx, *giver)
    if first is None:
        raise LinkRefused(LinkRefusal.UNKNOWN_CODE)
    second = await _player_of(tx, *taker)
    if second is None:
        raise ValueError(f"no player is linked to {taker[0]} user {taker[1]}")
    return (first, second)
