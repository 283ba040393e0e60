"""Live tables, claims and notices: the snapshots of unfinished tables, the open escrows
(tables' and tournaments', apart), the tables' leases (claims and fencing tokens) and
notices between processes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from storage.common import (
    to_json,
)
from storage.shapes import (
    TOURNAMENT_ESCROW_PREFIX,
    Fence,
    OpenEscrow,
    TablesClaim,
    check_notice,
    check_now,
)
from storage.sql import (
    SAVE_TABLE,
    Row,
    SqlBase,
    TryAgain,
    Tx,
)

__all__ = ["TablesClaimsAndNotices"]


_CLAIM_COLUMNS: Final = "SELECT platform, owner, heartbeat_at, fence FROM table_claims"


_IS_TOURNAMENT: Final = (
    f"substr(e.match_id, 1, {len(TOURNAMENT_ESCROW_PREFIX)}) = '{TOURNAMENT_ESCROW_PREFIX}'"
)
"""Whether escrow ``e`` is a tournament's (``substr``: LIKE ignores case on SQLite only)."""


async def _open_escrows(tx: Tx, *, tournaments: bool) -> list[OpenEscrow]:
    """The open escrows of tournaments, or of tables (every other), oldest first."""
    rows = await tx.rows(
        "SELECT e.match_id, e.stake, e.created_at, h.player_id, h.status"
        " FROM escrows e LEFT JOIN escrow_holders h ON h.match_id = e.match_id"
        f" WHERE e.state = 'open' AND {'' if tournaments else 'NOT '}{_IS_TOURNAMENT}"
        " ORDER BY e.created_at, e.match_id, h.position"
    )
    found: dict[str, OpenEscrow] = {}
    for match_id, stake, created_at, pid, status in rows:
        escrow = found.get(match_id)
        if escrow is None:
            escrow = found[match_id] = OpenEscrow(str(match_id), int(stake), {}, float(created_at))
        if pid is not None:
            escrow.holders[int(pid)] = str(status)
    return list(found.values())


def _claim(row: Row) -> TablesClaim:
    return TablesClaim(str(row[0]), str(row[1]), float(row[2]), int(row[3]))


class TablesClaimsAndNotices(SqlBase):
    """Live tables' snapshots, the open escrows, the tables' lease (claims and fencing tokens) and notices between processes (docs/failover.md)."""

    _notices: dict[str, list[Callable[[str], None]]]  # channel -> subscribers, made on use

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
        check_now(now)
        text = to_json(snapshot)
        await self._transact(lambda tx: tx.run(SAVE_TABLE, table_id, text, now), fence)

    async def load_tables(self) -> list[dict[str, Any]]:
        """Every saved snapshot, oldest saved first, as JSON round-tripped them."""
        rows = await self._query(
            lambda tx: tx.rows("SELECT snapshot FROM table_snapshots ORDER BY saved_at, table_id")
        )
        return [json.loads(text) for (text,) in rows]

    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        """Delete a table's snapshot (a finished table). Deleting a missing one is fine."""
        await self._transact(
            lambda tx: tx.run("DELETE FROM table_snapshots WHERE table_id = ?", table_id), fence
        )

    async def open_escrows(self) -> list[OpenEscrow]:
        """Every table's escrow still open (stakes taken, match neither settled nor
        refunded), oldest first. A healthy database has one per live started table.
        Tournaments' escrows (ids beginning ``"tournament:"``,
        :data:`TOURNAMENT_ESCROW_PREFIX`) are not tables' and are left out: see
        :meth:`open_tournament_escrows`."""
        return await self._query(lambda tx: _open_escrows(tx, tournaments=False))

    async def open_tournament_escrows(self) -> list[OpenEscrow]:
        """Every tournament's escrow still open (entry fees taken, prizes neither paid
        nor refunded), oldest first; ``match_id`` is the escrow id (``"tournament:<id>"``).
        A healthy database has one per stored unfinished tournament that took fees."""
        return await self._query(lambda tx: _open_escrows(tx, tournaments=True))

    async def tables_claim(self, platform: str) -> TablesClaim | None:
        """Who holds the lease of scope ``platform`` (e.g. ``"telegram"``), or None."""
        row = await self._query(
            lambda tx: tx.row(_CLAIM_COLUMNS + " WHERE platform = ? AND owner <> ''", platform)
        )
        return None if row is None else _claim(row)

    async def tables_claims(self) -> list[TablesClaim]:
        """Every scope's held lease, by scope name."""
        rows = await self._query(
            lambda tx: tx.rows(
                _CLAIM_COLUMNS + " WHERE owner <> '' ORDER BY platform" + tx.dialect.bytewise
            )
        )
        return [_claim(row) for row in rows]

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
        check_now(now)

        async def write(tx: Tx) -> int | None:
            row = await tx.row(
                "SELECT owner, fence FROM table_claims WHERE platform = ?" + tx.dialect.for_update,
                platform,
            )
            current = None if row is None or not row[0] else str(row[0])
            if current not in (replacing, owner):
                return None
            if row is not None:
                fence = int(row[1]) + (current != owner)
                await tx.run(
                    "UPDATE table_claims SET owner = ?2, heartbeat_at = ?3, fence = ?4"
                    " WHERE platform = ?1",
                    platform,
                    owner,
                    now,
                    fence,
                )
                return fence
            added = await tx.run(
                "INSERT INTO table_claims (platform, owner, heartbeat_at, fence)"
                " VALUES (?, ?, ?, 1) ON CONFLICT (platform) DO NOTHING",
                platform,
                owner,
                now,
            )
            if not added:
                raise TryAgain  # another process claimed it meanwhile: compare again
            return 1

        return await self._transact(write)

    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        """Move ``owner``'s heartbeat to ``now``; False when the claim is not theirs."""
        check_now(now)
        changed = await self._transact(
            lambda tx: tx.run(
                "UPDATE table_claims SET heartbeat_at = ? WHERE platform = ? AND owner = ?",
                now,
                platform,
                owner,
            )
        )
        return changed > 0

    async def release_tables(self, platform: str, owner: str) -> None:
        """Drop ``owner``'s claim (a graceful stop); another owner's claim stays. The
        scope's fencing token is kept (a later claim gets a greater one)."""
        await self._transact(
            lambda tx: tx.run(
                "UPDATE table_claims SET owner = '', heartbeat_at = 0"
                " WHERE platform = ? AND owner = ?",
                platform,
                owner,
            )
        )

    async def publish(self, channel: str, message: str) -> None:
        """Hand ``message`` (text, at most :data:`NOTICE_BYTES` in UTF-8) to every
        subscriber of ``channel``, this process's included: those of this storage object
        here (memory, SQLite: one process), those of every process on the database on
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
