"""Players and wallets: players, their platform links, languages and notifications, and the
money path (stake, settle, a tournament's prizes, refund, forfeit, top-up, history, the
ledger check)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from storage.common import (
    check_notifications,
    check_platform_ids,
    display_name_or,
    plan_forfeit,
    plan_opening,
    plan_prizes,
    plan_refund,
    plan_stake,
    plan_top_up,
    player_account,
    username_key,
)
from storage.shapes import (
    DEFAULT_STAKE,
    LANGUAGES,
    Fence,
    InsufficientFunds,
    LedgerEntry,
    MatchClosedError,
    Notifications,
    NotInMatchError,
    Player,
    UnknownMatchError,
    UnknownPlayerError,
    check_now,
    check_stake_arguments,
    normalize_language,
    top_up_amount,
)
from storage.sql import (
    Escrow,
    Row,
    SqlBase,
    Tx,
    find_escrow,
    known_player,
    paid_in,
    placeholders,
    player_rows,
    settle_escrow,
)

__all__ = ["PlayersAndWallets"]


_LINKED_PLAYER: Final = (
    "SELECT p.id, p.display_name, p.language FROM player_links l"
    " JOIN players p ON p.id = l.player_id WHERE l.platform = ? AND l.platform_user_id = ?"
)


def _player(row: Row) -> Player:
    return Player(int(row[0]), str(row[1]), str(row[2]))


async def _merged(tx: Tx, player_id: int) -> bool:
    """Whether the player was merged into another (``storage.links``): its old id is
    never topped up. Asked only when a top-up is due (rare; and a database older than
    the links' migration never needs it)."""
    return await tx.value("SELECT merged_into FROM players WHERE id = ?", player_id) is not None


async def _player_row(tx: Tx, player_id: int, *, lock: bool = False) -> Row:
    """(id, display_name, language, last_top_up, balance) of a player; ``lock`` locks
    the account to the commit.

    Raises:
        UnknownPlayerError: no such player.
    """
    row = await tx.row(
        "SELECT p.id, p.display_name, p.language, p.last_top_up, a.balance"
        " FROM players p JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id = ?"
        + (tx.dialect.lock_of("a") if lock else ""),
        player_id,
    )
    if row is None:
        raise UnknownPlayerError(player_id)
    return row


async def _escrow(tx: Tx, match_id: str) -> Escrow:
    """Like :func:`find_escrow` (locked).

    Raises:
        UnknownMatchError: the match has no escrow.
    """
    found = await find_escrow(tx, match_id, lock=True)
    if found is None:
        raise UnknownMatchError(match_id)
    return found


_OPERATION_CHECKS: Final[tuple[tuple[str, str], ...]] = (
    (
        "player without its opening",
        "SELECT CAST(p.id AS TEXT) FROM players p WHERE NOT EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'open:' || p.id) OR NOT EXISTS (SELECT 1 FROM accounts a"
        " WHERE a.key = 'player:' || p.id) OR (p.merged_into IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM player_links l WHERE l.player_id = p.id))",
    ),
    (
        # a merged player is an alias (storage/links.py): its wallet moved whole, by its
        # merge transaction, into a player that is no alias itself
        "merged player with money, links or no merge transaction",
        "SELECT CAST(p.id AS TEXT) FROM players p JOIN accounts a ON a.key = 'player:' || p.id"
        " WHERE p.merged_into IS NOT NULL AND (a.balance <> 0 OR EXISTS (SELECT 1 FROM"
        " player_links l WHERE l.player_id = p.id) OR NOT EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'merge:' || p.id) OR EXISTS (SELECT 1 FROM players s"
        " WHERE s.id = p.merged_into AND s.merged_into IS NOT NULL))",
    ),
    (
        "escrow without its stake transaction",
        "SELECT e.match_id FROM escrows e WHERE NOT EXISTS (SELECT 1 FROM"
        " transactions t WHERE t.key = 'stake:' || e.match_id)",
    ),
    (
        "stake transaction without its escrow",
        "SELECT t.match_id FROM transactions t WHERE t.kind = 'stake' AND NOT EXISTS"
        " (SELECT 1 FROM escrows e WHERE e.match_id = t.match_id)",
    ),
    (
        "settled or refunded state without its transaction (or the reverse)",
        "SELECT e.match_id FROM escrows e WHERE (e.state = 'settled') <> EXISTS"
        " (SELECT 1 FROM transactions t WHERE t.key = 'settle:' || e.match_id)"
        " OR (e.state = 'refunded') <> EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'refund:' || e.match_id)",
    ),
    (
        "statistics totals that disagree with the match results",
        "WITH r AS (SELECT chat, player_id, COUNT(*) AS n, SUM(won_match) AS won,"
        " SUM(hands_won) AS hands, SUM(dominoes) AS dominoes, SUM(trancas_won) AS trancas,"
        " SUM(capicuas) AS capicuas, MAX(finished_at) AS last"
        " FROM match_results GROUP BY chat, player_id)"
        " SELECT t.chat || '/' || t.player_id FROM player_chat_totals t LEFT JOIN r"
        " ON r.chat = t.chat AND r.player_id = t.player_id"
        " WHERE r.player_id IS NULL OR t.matches_played <> r.n OR t.matches_won <> r.won"
        " OR t.hands_won <> r.hands OR t.dominoes <> r.dominoes OR t.trancas_won <> r.trancas"
        " OR t.capicuas <> r.capicuas OR t.last_played <> r.last"
        " UNION ALL SELECT r.chat || '/' || r.player_id FROM r LEFT JOIN player_chat_totals t"
        " ON r.chat = t.chat AND r.player_id = t.player_id WHERE t.player_id IS NULL",
    ),
    (
        "forfeit status without its transaction (or the reverse)",
        "SELECT h.match_id || '/' || h.player_id FROM escrow_holders h"
        " WHERE (h.status = 'forfeited') <> EXISTS (SELECT 1 FROM transactions t"
        " WHERE t.key = 'forfeit:' || h.match_id || ':' || h.player_id)",
    ),
)


async def _ledger_problems(tx: Tx) -> list[str]:
    """The ledger's invariants (``Storage.check_ledger``): the database's own checks
    (:meth:`Tx.integrity`), then every transaction sums to zero, each balance equals
    its entries, nothing but the house is negative, escrows hold exactly their stakes,
    and each operation left all its rows (``_OPERATION_CHECKS``)."""
    problems = await tx.integrity()
    for key, total in await tx.rows(
        "SELECT t.key, SUM(e.amount) FROM entries e JOIN transactions t"
        " ON t.id = e.transaction_id GROUP BY t.id HAVING SUM(e.amount) <> 0"
    ):
        problems.append(f"transaction {key} sums to {int(total)}")
    total = await tx.value("SELECT COALESCE(SUM(amount), 0) FROM entries")
    if total:
        problems.append(f"all entries sum to {int(total)}")
    for key, balance, summed in await tx.rows(
        "SELECT a.key, a.balance, COALESCE(s.total, 0) FROM accounts a LEFT JOIN"
        " (SELECT account_id, SUM(amount) AS total FROM entries GROUP BY account_id) s"
        " ON s.account_id = a.id WHERE a.balance <> COALESCE(s.total, 0)"
    ):
        problems.append(f"{key} balance {balance} != entries {int(summed)}")
    for key, balance in await tx.rows(
        "SELECT key, balance FROM accounts WHERE kind <> 'house' AND balance < 0"
    ):
        problems.append(f"{key} balance {balance} is negative")
    for match_id, balance, expected in await tx.rows(
        "SELECT * FROM (SELECT e.match_id, a.balance, CASE WHEN e.state = 'open' THEN"
        " e.stake * (SELECT COUNT(*) FROM escrow_holders h WHERE h.match_id = e.match_id"
        " AND h.status = 'held') ELSE 0 END AS expected"
        " FROM escrows e JOIN accounts a ON a.id = e.account_id) x"
        " WHERE balance <> expected"
    ):
        problems.append(f"escrow {match_id} holds {balance}, expected {int(expected)}")
    for what, sql in _OPERATION_CHECKS:
        for (ref,) in await tx.rows(sql):
            problems.append(f"{what}: {ref}")
    return problems


_HISTORY: Final = (
    "SELECT t.kind, e.amount, t.match_id, t.created_at FROM entries e"
    " JOIN transactions t ON t.id = e.transaction_id"
    " WHERE e.account_id = (SELECT id FROM accounts WHERE key = ?)"
    " ORDER BY e.id DESC LIMIT ?"
)


class PlayersAndWallets(SqlBase):
    """Players, their platform links and languages, and the wallet ledger (rules.md, "The house")."""

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
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        name = display_name_or(display_name, platform_user_id)

        async def write(tx: Tx) -> Player:
            row = await tx.row(_LINKED_PLAYER, platform, platform_user_id)
            if row is not None:
                if row[1] != name:
                    await tx.run("UPDATE players SET display_name = ? WHERE id = ?", name, row[0])
                return Player(int(row[0]), name, str(row[2]))
            lang = normalize_language(language)
            player_id = int(
                await tx.value(
                    "INSERT INTO players (display_name, language, created_at) VALUES (?, ?, ?)"
                    " RETURNING id",
                    name,
                    lang,
                    now,
                )
            )
            await tx.run(
                "INSERT INTO player_links (platform, platform_user_id, player_id) VALUES (?, ?, ?)",
                platform,
                platform_user_id,
                player_id,
            )
            await tx.run(
                "INSERT INTO accounts (key, kind, player_id) VALUES (?, 'player', ?)",
                player_account(player_id),
                player_id,
            )
            await tx.post(plan_opening(player_id), now)
            return Player(player_id, name, lang)

        return await self._transact(write)

    async def get_player(self, player_id: int) -> Player | None:
        """The player with this id, or None."""
        row = await self._query(
            lambda tx: tx.row(
                "SELECT id, display_name, language FROM players WHERE id = ?", player_id
            )
        )
        return None if row is None else _player(row)

    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        """The player linked to this platform user, or None (nothing is created)."""
        row = await self._query(lambda tx: tx.row(_LINKED_PLAYER, platform, platform_user_id))
        return None if row is None else _player(row)

    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        """Link one more platform user to an existing player (same person, other platform).

        Raises:
            UnknownPlayerError: no such player.
            ValueError: the platform user is already linked to another player.
        """
        check_platform_ids(platform, platform_user_id)

        async def write(tx: Tx) -> None:
            await known_player(tx, player_id)
            linked = await tx.value(
                "SELECT player_id FROM player_links WHERE platform = ? AND platform_user_id = ?",
                platform,
                platform_user_id,
            )
            if linked is not None and linked != player_id:
                raise ValueError(f"{platform} user {platform_user_id} is linked to another player")
            if linked is None:
                await tx.run(
                    "INSERT INTO player_links (platform, platform_user_id, player_id)"
                    " VALUES (?, ?, ?)",
                    platform,
                    platform_user_id,
                    player_id,
                )

        await self._transact(write)

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
        check_platform_ids(platform, platform_user_id)
        key = username_key(username)

        async def write(tx: Tx) -> bool:
            if key is not None:  # one user per username: whoever held it before loses it
                await tx.run(
                    "UPDATE player_links SET username = NULL WHERE platform = ? AND username = ?"
                    " AND platform_user_id <> ?",
                    platform,
                    key,
                    platform_user_id,
                )
            await tx.run(
                "UPDATE player_links SET username = ? WHERE platform = ? AND platform_user_id = ?",
                key,
                platform,
                platform_user_id,
            )
            linked = await tx.value(
                "SELECT 1 FROM player_links WHERE platform = ? AND platform_user_id = ?",
                platform,
                platform_user_id,
            )
            return linked is not None

        return await self._transact(write)

    async def find_by_username(self, platform: str, username: str) -> tuple[str, Player] | None:
        """The platform user id and player that last wrote with ``username`` (with or
        without the ``@``, any case), or None."""
        key = username_key(username)
        if key is None:
            return None
        row = await self._query(
            lambda tx: tx.row(
                "SELECT p.id, p.display_name, p.language, l.platform_user_id FROM player_links l"
                " JOIN players p ON p.id = l.player_id WHERE l.platform = ? AND l.username = ?",
                platform,
                key,
            )
        )
        return None if row is None else (str(row[3]), _player(row))

    async def set_player_language(self, player_id: int, language: str) -> None:
        """Set a player's preferred language.

        Raises:
            UnknownPlayerError: no such player.
            ValueError: the language is not one of :data:`LANGUAGES`.
        """

        async def write(tx: Tx) -> None:
            await known_player(tx, player_id)
            if language not in LANGUAGES:
                raise ValueError(
                    f"language must be one of {', '.join(LANGUAGES)} (got {language!r})"
                )
            await tx.run("UPDATE players SET language = ? WHERE id = ?", language, player_id)

        await self._transact(write)

    async def player_notifications(self, player_id: int) -> Notifications:
        """The player's turn notifications (:attr:`Notifications.TURN` until they choose).

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> Notifications:
            await known_player(tx, player_id)
            stored = await tx.value("SELECT notifications FROM players WHERE id = ?", player_id)
            return Notifications(stored)

        return await self._query(read)

    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        """Set the player's turn notifications.

        Raises:
            UnknownPlayerError: no such player.
            ValueError: not one of :data:`NOTIFICATIONS`.
        """

        async def write(tx: Tx) -> None:
            await known_player(tx, player_id)
            check_notifications(notifications)
            await tx.run(
                "UPDATE players SET notifications = ? WHERE id = ?", notifications, player_id
            )

        await self._transact(write)

    async def balance(self, player_id: int) -> int:
        """The player's balance in dollars (never negative).

        Raises:
            UnknownPlayerError: no such player.
        """

        async def read(tx: Tx) -> int:
            balance = await tx.value(
                "SELECT balance FROM accounts WHERE key = ?", player_account(player_id)
            )
            if balance is None:
                raise UnknownPlayerError(player_id)
            return int(balance)

        return await self._query(read)

    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        """The player's latest balance changes, newest first.

        Raises:
            UnknownPlayerError: no such player.
        """
        key, most = player_account(player_id), max(limit, 0)
        rows = await self._query(lambda tx: player_rows(tx, player_id, _HISTORY, key, most))
        return [LedgerEntry(str(k), int(a), m, float(t)) for k, a, m, t in rows]

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
        topped up to :data:`TOP_UP_TO` (see :func:`top_up_amount`; never a player merged
        into another, whose account stays at 0: ``storage.links``); then ``stake``
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
        check_stake_arguments(match_id, player_ids, stake)
        check_now(now)
        ids = list(player_ids)

        async def write(tx: Tx) -> None:
            # The players' locks first (a concurrent stake of the same match then finds
            # its escrow below, and the balances read are the ones this stake spends).
            found: dict[int, tuple[int, float | None]] = {}
            staked = False
            if ids:
                for pid, last, balance, exists in await tx.rows(
                    "SELECT p.id, p.last_top_up, a.balance,"
                    " EXISTS (SELECT 1 FROM escrows WHERE match_id = ?) FROM players p"
                    f" JOIN accounts a ON a.key = 'player:' || p.id WHERE p.id IN ({placeholders(len(ids))})"
                    " ORDER BY a.id" + tx.dialect.lock_of("a"),
                    match_id,
                    *ids,
                ):
                    found[int(pid)] = (int(balance), last)
                    staked = staked or bool(exists)
            if not found:
                staked = await find_escrow(tx, match_id) is not None
            if staked:
                return
            top_ups: dict[int, int] = {}
            short: list[int] = []
            for pid in ids:
                if pid not in found:
                    continue  # unknown: raised below
                balance, last = found[pid]
                added = top_up_amount(balance, stake, last, now)
                if added and await _merged(tx, pid):
                    added = 0
                if balance + added < stake:
                    short.append(pid)
                elif added:
                    top_ups[pid] = added
            if short or len(found) < len(ids):
                # on PostgreSQL the check above ran on the snapshot taken before the
                # players' locks were granted: a stake of this match that committed
                # meanwhile shows now
                if await find_escrow(tx, match_id) is not None:
                    return
                for pid in ids:
                    if pid not in found:
                        raise UnknownPlayerError(pid)
                raise InsufficientFunds(short)
            for pid, added in top_ups.items():
                await tx.post(plan_top_up(pid, added, match_id=match_id, now=now), now)
                await tx.write("UPDATE players SET last_top_up = ? WHERE id = ?", now, pid)
            await tx.post(plan_stake(match_id, stake, ids), now, open_stake=stake)

        await self._transact(write, fence)

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
        check_now(now)
        winners = list(winner_ids)

        async def write(tx: Tx) -> dict[int, int]:
            found = await _escrow(tx, match_id)
            await tx.lock_players(list(found[2]))
            return (await settle_escrow(tx, match_id, found, winners, now))[0]

        return await self._transact(write, fence)

    async def pay_prizes(
        self,
        escrow_id: str,
        prizes: Mapping[int, int],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> dict[int, int]:
        """Pay a tournament's prizes from its escrow of entry fees and close it (issue 32;
        docs/tournaments.md, "Prize split").

        The fees were taken with :meth:`stake` under ``escrow_id``
        (:func:`tournament_escrow`); the prizes share out exactly what the escrow holds,
        the fee of each holder whose status is ``"held"`` (forfeited fees went to the
        house already): nothing comes from or goes to the house. In one transaction with
        its ledger rows, each player receives their prize and the escrow is settled (a
        holder paid nothing has lost). Paying again returns the first payout and moves
        nothing, whatever ``prizes`` are passed (as :meth:`settle`; both close the
        escrow under one idempotency key, so only the first of them pays).

        Args:
            escrow_id: the escrow, ``"tournament:<id>"``.
            prizes: player id -> prize in whole dollars (0 or more); players left out
                receive nothing.

        Returns:
            player id -> dollars paid, for each player paid more than 0, in the holders'
            order.

        Raises:
            UnknownMatchError: no fees were taken under ``escrow_id``.
            MatchClosedError: the escrow was refunded (a cancelled tournament).
            NotInMatchError: a prize for a player who holds no fee in the escrow (a
                stranger, or a positive prize for a holder whose fee was forfeited).
            ValueError: a prize that is not a whole number of dollars >= 0, or prizes
                that do not sum to what the escrow holds. Nothing is written.
        """
        check_now(now)
        for pid, prize in prizes.items():
            if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
                raise ValueError(
                    f"a prize is a whole number of dollars >= 0 (got {prize!r} for {pid})"
                )
        wanted = dict(prizes)

        async def write(tx: Tx) -> dict[int, int]:
            stake, state, holders = await _escrow(tx, escrow_id)
            if state == "settled":
                return await paid_in(tx, escrow_id, "paid")
            if state == "refunded":
                raise MatchClosedError(escrow_id, state)
            for pid, prize in wanted.items():
                status = holders.get(pid)
                if status is None or (status != "held" and prize > 0):
                    raise NotInMatchError(escrow_id, pid)
            held = sum(stake for status in holders.values() if status == "held")
            if sum(wanted.values()) != held:
                raise ValueError(
                    f"the prizes sum to {sum(wanted.values())} dollars; escrow {escrow_id!r}"
                    f" holds {held}"
                )
            await tx.lock_players(list(holders))
            plan = plan_prizes(escrow_id, stake, holders, wanted)
            await tx.post(plan, now, close="settled")
            return dict(plan.amounts)

        return await self._transact(write, fence)

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
        check_now(now)

        async def write(tx: Tx) -> dict[int, int]:
            stake, state, holders = await _escrow(tx, match_id)
            if state == "refunded":
                return await paid_in(tx, match_id, "refunded")
            if state == "settled":
                raise MatchClosedError(match_id, state)
            await tx.lock_players(list(holders))
            plan = plan_refund(match_id, stake, holders)
            await tx.post(plan, now, close="refunded")
            return dict(plan.amounts)

        return await self._transact(write, fence)

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
        check_now(now)

        async def write(tx: Tx) -> None:
            stake, state, holders = await _escrow(tx, match_id)
            status = holders.get(player_id)
            if status is None:
                raise NotInMatchError(match_id, player_id)
            if status == "forfeited":
                return
            if state != "open":
                raise MatchClosedError(match_id, state)
            plan = plan_forfeit(match_id, stake, player_id)
            await tx.run(
                "UPDATE escrow_holders SET status = ? WHERE match_id = ? AND player_id = ?",
                plan.statuses[player_id],
                match_id,
                player_id,
            )
            await tx.post(plan, now)

        await self._transact(write, fence)

    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        """Top the player up to :data:`TOP_UP_TO` if due (see :func:`top_up_amount`).

        Returns:
            dollars added (0 when not due, and always for a player merged into another:
            a process that still knew its old id never puts money there).

        Raises:
            UnknownPlayerError: no such player.
        """
        check_now(now)

        async def write(tx: Tx) -> int:
            row = await _player_row(tx, player_id, lock=True)
            added = top_up_amount(int(row[4]), stake, row[3], now)
            if added and await _merged(tx, player_id):
                added = 0
            if added:
                await tx.run("UPDATE players SET last_top_up = ? WHERE id = ?", now, player_id)
                await tx.post(plan_top_up(player_id, added, match_id=None, now=now), now)
            return added

        return await self._transact(write)

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
        return await self._query(_ledger_problems, snapshot=True)
