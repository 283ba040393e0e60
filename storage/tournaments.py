"""Tournaments (issue 32): a live tournament's snapshot, resumed after a restart; its end
(finished, with each player's place for their profile, or cancelled, its fees refunded).

The tournament service keeps all its state in one JSON snapshot, saved after each change
as a table's is (:meth:`TablesClaimsAndNotices.save_table`). Its entry fees wait in an
escrow of the ledger, ``"tournament:<id>"`` (:func:`tournament_escrow`), taken with
:meth:`PlayersAndWallets.stake` and paid out with :meth:`PlayersAndWallets.pay_prizes`;
a cancelled tournament's fees are refunded by :meth:`Tournaments.cancel_tournament`.

A tournament is ``"live"`` until it is ``"finished"`` or ``"cancelled"``; a closed one is
no longer resumed, and its snapshot is kept (:meth:`Tournaments.get_tournament`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from storage.common import plan_refund, to_json
from storage.shapes import (
    Fence,
    MatchClosedError,
    TournamentClosedError,
    TournamentPlace,
    UnknownPlayerError,
    UnknownTournamentError,
    check_now,
    tournament_escrow,
)
from storage.sql import SqlBase, Tx, find_escrow, known_player, paid_in, placeholders

__all__ = ["Tournaments"]


_LIVE: Final = "live"
_FINISHED: Final = "finished"
_CANCELLED: Final = "cancelled"

_SAVE: Final = (
    "INSERT INTO tournaments (tournament_id, chat, snapshot, created_at, saved_at)"
    " VALUES (?1, ?2, ?3, ?4, ?4) ON CONFLICT (tournament_id) DO UPDATE SET"
    " chat = excluded.chat, snapshot = excluded.snapshot, saved_at = excluded.saved_at"
    " WHERE tournaments.state = 'live'"
)

_PLACES: Final = (
    "SELECT t.tournament_id, t.chat, t.name, p.place, t.entrants, t.closed_at"
    " FROM tournament_places p JOIN tournaments t ON t.tournament_id = p.tournament_id"
    " WHERE p.player_id = ? ORDER BY t.closed_at DESC, t.tournament_id DESC LIMIT ?"
)


def _check_id(tournament_id: str) -> None:
    if not isinstance(tournament_id, str) or not tournament_id:
        raise ValueError("tournament_id must be a non-empty string")


def _is_whole(value: object) -> bool:
    """Whether ``value`` is an int (bool is an int in Python; True must not pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_finish(places: Mapping[int, int], name: str, entrants: int) -> None:
    """Raise ValueError for a malformed :meth:`Tournaments.finish_tournament` call."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("a finished tournament needs a name")
    if not _is_whole(entrants) or entrants < 1:
        raise ValueError(f"entrants must be a whole number >= 1 (got {entrants!r})")
    for pid, place in places.items():
        if not _is_whole(pid):
            raise ValueError(f"a player id is an int (got {pid!r})")
        if not _is_whole(place) or not 1 <= place <= entrants:
            raise ValueError(f"player {pid}'s place must be 1..{entrants} (got {place!r})")


async def _state(tx: Tx, tournament_id: str) -> str:
    """The tournament's state, its row locked to the commit (the first lock of a
    tournament's operation: then its escrow, its players, the house).

    Raises:
        UnknownTournamentError: never saved.
    """
    state = await tx.value(
        "SELECT state FROM tournaments WHERE tournament_id = ?" + tx.dialect.for_update,
        tournament_id,
    )
    if state is None:
        raise UnknownTournamentError(tournament_id)
    return str(state)


async def _refund_fees(tx: Tx, escrow_id: str, now: float) -> dict[int, int]:
    """Refund the tournament's escrow as :meth:`PlayersAndWallets.refund` does: what each
    holder got back (the first refund's amounts when it was refunded before; nothing
    when no fees were taken).

    Raises:
        MatchClosedError: the escrow was settled (the prizes were paid).
    """
    escrow = await find_escrow(tx, escrow_id, lock=True)
    if escrow is None:
        return {}
    stake, state, holders = escrow
    if state == "refunded":
        return await paid_in(tx, escrow_id, "refunded")
    if state == "settled":
        raise MatchClosedError(escrow_id, state)
    await tx.lock_players(list(holders))
    plan = plan_refund(escrow_id, stake, holders)
    await tx.post(plan, now, close="refunded")
    return dict(plan.amounts)


class Tournaments(SqlBase):
    """Tournaments' snapshots, their end and the players' places (issue 32)."""

    async def save_tournament(
        self,
        tournament_id: str,
        chat: str,
        data: Mapping[str, Any],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """Save (create or replace) a live tournament's snapshot, a JSON object holding
        all the tournament service's state, held in chat key ``chat``.

        The first save is the tournament's creation time (the order
        :meth:`load_tournaments` resumes them in).

        Raises:
            TournamentClosedError: the tournament is finished or cancelled; its snapshot
                stays as it was.
            TypeError: ``data`` is not JSON-serialisable.
            ValueError: an empty tournament id or chat key.
            FencedOut: ``fence`` is stale. Nothing is written when any is raised.
        """
        check_now(now)
        _check_id(tournament_id)
        if not isinstance(chat, str) or not chat:
            raise ValueError("chat must be a non-empty chat key")
        text = to_json(dict(data))

        async def write(tx: Tx) -> None:
            if not await tx.run(_SAVE, tournament_id, chat, text, now):
                raise TournamentClosedError(tournament_id, await _state(tx, tournament_id))

        await self._transact(write, fence)

    async def load_tournaments(self) -> list[dict[str, Any]]:
        """Every live tournament's snapshot (neither finished nor cancelled), as JSON
        round-tripped it, the oldest first (by first save, then id): what a restart
        resumes."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT snapshot FROM tournaments WHERE state = 'live'"
                " ORDER BY created_at, tournament_id"
            )
        )
        return [json.loads(text) for (text,) in rows]

    async def live_tournament_ids(self) -> list[str]:
        """The ids of the live tournaments, in :meth:`load_tournaments`' order (whatever
        their snapshots hold)."""
        rows = await self._query(
            lambda tx: tx.rows(
                "SELECT tournament_id FROM tournaments WHERE state = 'live'"
                " ORDER BY created_at, tournament_id"
            )
        )
        return [str(tid) for (tid,) in rows]

    async def get_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        """The tournament's last saved snapshot, live, finished or cancelled; None when
        it was never saved."""
        text = await self._query(
            lambda tx: tx.value(
                "SELECT snapshot FROM tournaments WHERE tournament_id = ?", tournament_id
            )
        )
        return None if text is None else dict(json.loads(text))

    async def finish_tournament(
        self,
        tournament_id: str,
        places: Mapping[int, int],
        *,
        name: str,
        entrants: int,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """Close a tournament as finished and store each player's place, in one
        transaction: it is no longer loaded by :meth:`load_tournaments` (its snapshot is
        kept) and every player of ``places`` finds it in :meth:`player_tournaments`.

        Pay the prizes first (:meth:`pay_prizes`): a finished tournament is never
        resumed, so nothing would pay them after a crash; a tournament whose fees are
        still in escrow is refused. Finishing again writes nothing (the first places
        stay).

        Args:
            tournament_id: a saved tournament.
            places: player id -> place, 1 for first; players may share a place; robots
                have no player id and no row.
            name: the tournament's name, as profiles show it.
            entrants: how many entrants it had (pairs count once), 1 or more; every
                place is 1..entrants.
            now: when it finished (epoch seconds).

        Raises:
            UnknownTournamentError: never saved.
            TournamentClosedError: it was cancelled.
            UnknownPlayerError: an unknown player id.
            ValueError: an empty name, a place outside 1..entrants, entrants below 1, or
                its escrow ``"tournament:<id>"`` still open.
            FencedOut: ``fence`` is stale. Nothing is written when any is raised.
        """
        check_now(now)
        _check_id(tournament_id)
        _check_finish(places, name, entrants)
        rows = [(tournament_id, pid, place) for pid, place in places.items()]
        escrow_id = tournament_escrow(tournament_id)

        async def write(tx: Tx) -> None:
            state = await _state(tx, tournament_id)
            if state == _FINISHED:
                return
            if state == _CANCELLED:
                raise TournamentClosedError(tournament_id, state)
            escrow = await find_escrow(tx, escrow_id)
            if escrow is not None and escrow[1] == "open":
                raise ValueError(f"escrow {escrow_id!r} still holds the fees: pay the prizes first")
            if rows:
                known = {
                    int(pid)
                    for (pid,) in await tx.rows(
                        f"SELECT id FROM players WHERE id IN ({placeholders(len(rows))})",
                        *(pid for _, pid, _ in rows),
                    )
                }
                for _, pid, _ in rows:
                    if pid not in known:
                        raise UnknownPlayerError(pid)
            await tx.run(
                "UPDATE tournaments SET state = 'finished', name = ?, entrants = ?,"
                " closed_at = ? WHERE tournament_id = ?",
                name.strip(),
                entrants,
                now,
                tournament_id,
            )
            await tx.many(
                "INSERT INTO tournament_places (tournament_id, player_id, place) VALUES (?, ?, ?)",
                rows,
            )

        await self._transact(write, fence)

    async def cancel_tournament(
        self,
        tournament_id: str,
        *,
        now: float,
        fence: Fence | None = None,
        snapshot: Mapping[str, Any] | None = None,
    ) -> dict[int, int]:
        """Close a tournament as cancelled and refund its entry fees, in one transaction
        (an admin's cancel, issue 32): it is no longer loaded by
        :meth:`load_tournaments`; its snapshot is kept, replaced by ``snapshot`` when
        given (its cancelled state, for its page), in the same transaction; no player
        gets a place. The escrow ``"tournament:<id>"``, if fees were taken, is
        refunded as :meth:`refund` does (fees already forfeited stay with the house).
        Cancelling again returns the first refund and moves nothing.

        Returns:
            player id -> dollars refunded, in the holders' order (empty when no fees were
            taken).

        Raises:
            UnknownTournamentError: never saved.
            TournamentClosedError: it finished.
            MatchClosedError: its prizes were paid already (the escrow is settled).
            TypeError: ``snapshot`` is not JSON-serialisable.
            FencedOut: ``fence`` is stale. Nothing is written when any is raised.
        """
        check_now(now)
        _check_id(tournament_id)
        escrow_id = tournament_escrow(tournament_id)
        text = to_json(dict(snapshot)) if snapshot is not None else None

        async def write(tx: Tx) -> dict[int, int]:
            state = await _state(tx, tournament_id)
            if state == _FINISHED:
                raise TournamentClosedError(tournament_id, state)
            refunded = await _refund_fees(tx, escrow_id, now)
            if state == _LIVE:
                await tx.run(
                    "UPDATE tournaments SET state = 'cancelled', closed_at = ?,"
                    " snapshot = COALESCE(?, snapshot) WHERE tournament_id = ?",
                    now,
                    text,
                    tournament_id,
                )
            return refunded

        return await self._transact(write, fence)

    async def player_tournaments(self, player_id: int, *, limit: int = 10) -> list[TournamentPlace]:
        """The player's finished tournaments with their place, newest first (by finish
        time, then id), at most ``limit``; cancelled ones have no places.

        Raises:
            UnknownPlayerError: no such player.
        """
        most = max(limit, 0)

        async def read(tx: Tx) -> list[TournamentPlace]:
            await known_player(tx, player_id)
            return [
                TournamentPlace(str(tid), str(chat), str(name), int(place), int(n), float(at))
                for tid, chat, name, place, n, at in await tx.rows(_PLACES, player_id, most)
            ]

        return await self._query(read)
