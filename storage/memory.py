"""An in-memory :class:`~storage.base.Storage` with the same behaviour as SQLite (for tests).

Each method checks everything first and then changes state without awaiting in between,
so under asyncio every operation is atomic, like one SQLite transaction. JSON values
(records, snapshots, overrides) are stored as JSON text, so they come back exactly as the
SQLite storage returns them (tuples as lists, keys as strings).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from storage.base import (
    ACTIVE_SECONDS,
    DEFAULT_STAKE,
    LANGUAGES,
    TREND_SECONDS,
    ChatRules,
    Fence,
    FencedOut,
    InsufficientFunds,
    LedgerEntry,
    MatchClosedError,
    MatchSettlement,
    NotInMatchError,
    OpenEscrow,
    PairRow,
    Player,
    PlayerRecord,
    PlayerResult,
    PlayerStats,
    RankRow,
    Rating,
    RatingPoint,
    RebuildReport,
    Rival,
    Storage,
    StoredMatch,
    TablesClaim,
    UnknownMatchError,
    UnknownPlayerError,
    check_now,
    check_stake_arguments,
    normalize_language,
    top_up_amount,
)
from storage.common import (
    HOUSE,
    Plan,
    canonical_chat_rules,
    check_chat_language,
    check_chat_move,
    check_notifications,
    check_platform_ids,
    check_results,
    display_name_or,
    escrow_account,
    plan_forfeit,
    plan_opening,
    plan_refund,
    plan_settlement,
    plan_stake,
    plan_top_up,
    player_account,
    to_json,
    username_key,
)
from storage.ratings import (
    ALL_CHATS,
    ALL_TIME,
    DEFAULT_PERIOD,
    MatchFacts,
    RatingBook,
    RatingState,
    Scope,
    SeasonPeriod,
    compare_ratings,
    display_rating,
    due_finals,
    facts_of,
    pair_order,
    rating_of,
    season_key,
    streak_of,
)

__all__ = ["MemoryStorage"]


@dataclass
class _Transaction:
    key: str
    kind: str
    match_id: str | None
    at: float
    entries: list[tuple[str, int]]


@dataclass
class _Escrow:
    stake: int
    created_at: float = 0.0
    state: str = "open"  # open | settled | refunded
    holders: dict[int, str] = field(default_factory=dict)  # held|forfeited|paid|lost|refunded
    result: dict[int, int] = field(default_factory=dict)


@dataclass
class _PlayerRow:
    display_name: str
    language: str
    created_at: float
    last_top_up: float | None = None
    notifications: str = "turn"


@dataclass
class _MatchRow:
    seq: int
    chat: str
    finished_at: float
    record_json: str
    results: tuple[PlayerResult, ...]


class MemoryStorage(Storage):
    """The storage port kept in dictionaries; behaves exactly like ``SqliteStorage``."""

    def __init__(self) -> None:
        self._players: dict[int, _PlayerRow] = {}
        self._links: dict[tuple[str, str], int] = {}
        self._usernames: dict[tuple[str, str], str] = {}  # link -> username_key
        self._balances: dict[str, int] = {HOUSE: 0}
        self._transactions: dict[str, _Transaction] = {}
        self._escrows: dict[str, _Escrow] = {}
        self._claims: dict[str, TablesClaim] = {}
        self._matches: dict[str, _MatchRow] = {}
        self._chat_rules: dict[str, tuple[str, str, int | None, float]] = {}
        self._chat_languages: dict[str, str] = {}
        self._tables: dict[str, tuple[str, float]] = {}
        self._facts: dict[str, MatchFacts] = {}  # in the order matches were stored
        self._book = RatingBook()
        self._periods: dict[str, SeasonPeriod] = {}
        self._finals: dict[tuple[str, str], float] = {}

    async def close(self) -> None:
        """Nothing to release; the data stays readable (handy in tests)."""

    # ------------------------------------------------------------------ helpers

    def _post(self, plan: Plan, at: float) -> None:
        entries = [(account, amount) for account, amount in plan.entries if amount != 0]
        if plan.key in self._transactions:
            raise AssertionError(f"idempotency key {plan.key} used twice")
        if sum(amount for _, amount in entries) != 0:
            raise AssertionError(f"unbalanced transaction {plan.key}")
        for account, amount in entries:
            self._balances[account] = self._balances.get(account, 0) + amount
        self._transactions[plan.key] = _Transaction(plan.key, plan.kind, plan.match_id, at, entries)

    def _row(self, player_id: int) -> _PlayerRow:
        row = self._players.get(player_id)
        if row is None:
            raise UnknownPlayerError(player_id)
        return row

    def _player(self, player_id: int) -> Player:
        row = self._row(player_id)
        return Player(player_id, row.display_name, row.language)

    def _escrow(self, match_id: str) -> _Escrow:
        escrow = self._escrows.get(match_id)
        if escrow is None:
            raise UnknownMatchError(match_id)
        return escrow

    def _settlement(self, match_id: str, escrow: _Escrow, winner_ids: Sequence[int]) -> Plan | None:
        """The settlement still to write (None when already settled); checks only."""
        if escrow.state == "settled":
            return None
        if escrow.state == "refunded":
            raise MatchClosedError(match_id, escrow.state)
        return plan_settlement(match_id, escrow.stake, escrow.holders, winner_ids)

    def _settle(self, escrow: _Escrow, plan: Plan | None, now: float) -> dict[int, int]:
        """Write a settlement planned by :meth:`_settlement`; the payouts."""
        if plan is not None:
            self._post(plan, now)
            escrow.holders.update(plan.statuses)
            escrow.state = "settled"
            escrow.result = dict(plan.amounts)
        return dict(escrow.result)

    def _check_record(self, match_id: str, results: Sequence[PlayerResult]) -> bool:
        """Whether the match's record is still to write; checks its players only."""
        if match_id in self._matches:
            return False
        for r in results:
            self._row(r.player_id)
        return True

    def _record(
        self,
        match_id: str,
        chat: str,
        now: float,
        record_json: str,
        results: Sequence[PlayerResult],
    ) -> None:
        self._matches[match_id] = _MatchRow(
            len(self._matches), chat, now, record_json, tuple(results)
        )
        period = self._periods.get(chat, DEFAULT_PERIOD)
        seasons = (season_key(period, now), season_key(DEFAULT_PERIOD, now))
        facts = facts_of(match_id, chat, now, json.loads(record_json), results, seasons)
        self._facts[match_id] = facts
        self._book.apply(facts)

    def _rank_rows(
        self, states: Mapping[int, RatingState], trends: Mapping[int, int | None], limit: int
    ) -> list[RankRow]:
        order = sorted(states, key=lambda p: (-states[p].skill.ordinal, -states[p].matches, p))
        rows = []
        for pid in order[: max(limit, 0)]:
            state = states[pid]
            before = trends.get(pid)
            rows.append(
                RankRow(
                    pid,
                    self._players[pid].display_name,
                    state.display,
                    state.matches,
                    None if before is None else state.display - before,
                    state.provisional,
                )
            )
        return rows

    # ------------------------------------------------------------------ players

    async def ensure_player(
        self,
        platform: str,
        platform_user_id: str,
        display_name: str,
        *,
        language: str | None = None,
        now: float,
    ) -> Player:
        check_platform_ids(platform, platform_user_id)
        check_now(now)
        name = display_name_or(display_name, platform_user_id)
        player_id = self._links.get((platform, platform_user_id))
        if player_id is not None:
            self._players[player_id].display_name = name
            return self._player(player_id)
        player_id = len(self._players) + 1
        self._players[player_id] = _PlayerRow(name, normalize_language(language), now)
        self._links[(platform, platform_user_id)] = player_id
        self._post(plan_opening(player_id), now)
        return self._player(player_id)

    async def get_player(self, player_id: int) -> Player | None:
        return self._player(player_id) if player_id in self._players else None

    async def find_player(self, platform: str, platform_user_id: str) -> Player | None:
        player_id = self._links.get((platform, platform_user_id))
        return None if player_id is None else self._player(player_id)

    async def link_player(self, player_id: int, platform: str, platform_user_id: str) -> None:
        check_platform_ids(platform, platform_user_id)
        self._row(player_id)
        linked = self._links.get((platform, platform_user_id))
        if linked is not None and linked != player_id:
            raise ValueError(f"{platform} user {platform_user_id} is linked to another player")
        self._links[(platform, platform_user_id)] = player_id

    async def set_username(
        self, platform: str, platform_user_id: str, username: str | None
    ) -> bool:
        check_platform_ids(platform, platform_user_id)
        key = username_key(username)
        for link, held in list(self._usernames.items()):
            if link[0] == platform and held == key and link[1] != platform_user_id:
                del self._usernames[link]
        if (platform, platform_user_id) not in self._links:
            return False
        if key is None:
            self._usernames.pop((platform, platform_user_id), None)
        else:
            self._usernames[(platform, platform_user_id)] = key
        return True

    async def find_by_username(self, platform: str, username: str) -> tuple[str, Player] | None:
        key = username_key(username)
        for (link_platform, user_id), held in self._usernames.items():
            if key is not None and link_platform == platform and held == key:
                return user_id, self._player(self._links[(platform, user_id)])
        return None

    async def set_player_language(self, player_id: int, language: str) -> None:
        row = self._row(player_id)
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)} (got {language!r})")
        row.language = language

    async def player_notifications(self, player_id: int) -> str:
        return self._row(player_id).notifications

    async def set_player_notifications(self, player_id: int, notifications: str) -> None:
        row = self._row(player_id)
        check_notifications(notifications)
        row.notifications = notifications

    # ------------------------------------------------------------------- wallet

    async def balance(self, player_id: int) -> int:
        self._row(player_id)
        return self._balances[player_account(player_id)]

    async def stake(
        self,
        match_id: str,
        player_ids: Sequence[int],
        stake: int,
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        check_stake_arguments(match_id, player_ids, stake)
        check_now(now)
        self._check_fence(fence)
        if match_id in self._escrows:
            return
        rows = [self._row(pid) for pid in player_ids]
        top_ups: dict[int, int] = {}
        short: list[int] = []
        for pid, row in zip(player_ids, rows, strict=True):
            balance = self._balances[player_account(pid)]
            added = top_up_amount(balance, stake, row.last_top_up, now)
            if balance + added < stake:
                short.append(pid)
            elif added:
                top_ups[pid] = added
        if short:
            raise InsufficientFunds(short)
        for pid, added in top_ups.items():
            self._post(plan_top_up(pid, added, match_id=match_id, now=now), now)
            self._players[pid].last_top_up = now
        plan = plan_stake(match_id, stake, player_ids)
        self._balances.setdefault(escrow_account(match_id), 0)
        self._post(plan, now)
        self._escrows[match_id] = _Escrow(stake, now, holders=dict(plan.statuses))

    async def settle(
        self,
        match_id: str,
        winner_ids: Sequence[int],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> dict[int, int]:
        check_now(now)
        self._check_fence(fence)
        escrow = self._escrow(match_id)
        plan = self._settlement(match_id, escrow, winner_ids)
        return self._settle(escrow, plan, now)

    async def refund(
        self, match_id: str, *, now: float, fence: Fence | None = None
    ) -> dict[int, int]:
        check_now(now)
        self._check_fence(fence)
        escrow = self._escrow(match_id)
        if escrow.state == "refunded":
            return dict(escrow.result)
        if escrow.state == "settled":
            raise MatchClosedError(match_id, escrow.state)
        plan = plan_refund(match_id, escrow.stake, escrow.holders)
        self._post(plan, now)
        escrow.holders.update(plan.statuses)
        escrow.state = "refunded"
        escrow.result = dict(plan.amounts)
        return dict(plan.amounts)

    async def forfeit(
        self, match_id: str, player_id: int, *, now: float, fence: Fence | None = None
    ) -> None:
        check_now(now)
        self._check_fence(fence)
        escrow = self._escrow(match_id)
        status = escrow.holders.get(player_id)
        if status is None:
            raise NotInMatchError(match_id, player_id)
        if status == "forfeited":
            return
        if escrow.state != "open":
            raise MatchClosedError(match_id, escrow.state)
        plan = plan_forfeit(match_id, escrow.stake, player_id)
        self._post(plan, now)
        escrow.holders.update(plan.statuses)

    async def top_up(self, player_id: int, *, now: float, stake: int = DEFAULT_STAKE) -> int:
        check_now(now)
        row = self._row(player_id)
        balance = self._balances[player_account(player_id)]
        added = top_up_amount(balance, stake, row.last_top_up, now)
        if added:
            self._post(plan_top_up(player_id, added, match_id=None, now=now), now)
            row.last_top_up = now
        return added

    async def wallet_history(self, player_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        self._row(player_id)
        account = player_account(player_id)
        found: list[LedgerEntry] = []
        for tx in reversed(self._transactions.values()):
            for entry_account, amount in tx.entries:
                if entry_account == account:
                    found.append(LedgerEntry(tx.kind, amount, tx.match_id, tx.at))
            if len(found) >= limit:
                break
        return found[:limit]

    async def check_ledger(self) -> list[str]:
        problems: list[str] = []
        sums: dict[str, int] = {}
        total = 0
        for tx in self._transactions.values():
            tx_sum = sum(amount for _, amount in tx.entries)
            if tx_sum:
                problems.append(f"transaction {tx.key} sums to {tx_sum}")
            for account, amount in tx.entries:
                sums[account] = sums.get(account, 0) + amount
                total += amount
        if total:
            problems.append(f"all entries sum to {total}")
        for account, balance in self._balances.items():
            if balance != sums.get(account, 0):
                problems.append(f"{account} balance {balance} != entries {sums.get(account, 0)}")
            if account != HOUSE and balance < 0:
                problems.append(f"{account} balance {balance} is negative")
        for match_id, escrow in self._escrows.items():
            held = sum(escrow.stake for status in escrow.holders.values() if status == "held")
            expected = held if escrow.state == "open" else 0
            balance = self._balances.get(escrow_account(match_id), 0)
            if balance != expected:
                problems.append(f"escrow {match_id} holds {balance}, expected {expected}")
            if f"stake:{match_id}" not in self._transactions:
                problems.append(f"escrow without its stake transaction: {match_id}")
            for state, prefix in (("settled", "settle"), ("refunded", "refund")):
                if (escrow.state == state) != (f"{prefix}:{match_id}" in self._transactions):
                    problems.append(f"{state} state without its transaction: {match_id}")
            for pid, status in escrow.holders.items():
                if (status == "forfeited") != (f"forfeit:{match_id}:{pid}" in self._transactions):
                    problems.append(f"forfeit status without its transaction: {match_id}/{pid}")
        for pid in self._players:
            if f"open:{pid}" not in self._transactions:
                problems.append(f"player without its opening: {pid}")
        return problems

    # ------------------------------------------------------- statistics, history

    async def record_match(
        self,
        match_id: str,
        chat: str,
        record: dict[str, Any],
        results: Sequence[PlayerResult],
        *,
        now: float,
    ) -> None:
        check_now(now)
        check_results(match_id, chat, results)
        record_json = to_json(record)
        if self._check_record(match_id, results):
            self._record(match_id, chat, now, record_json, results)

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
        check_now(now)
        self._check_fence(fence)
        check_results(match_id, chat, results)
        record_json = to_json(record)
        # Everything that may raise comes first; then state changes with no await.
        for r in results:
            self._row(r.player_id)
        escrow = self._escrows.get(match_id)
        plan = None if escrow is None else self._settlement(match_id, escrow, winners)
        to_record = (escrow is not None or bool(results)) and self._check_record(match_id, results)
        payouts = {} if escrow is None else self._settle(escrow, plan, now)
        if to_record:
            self._record(match_id, chat, now, record_json, results)
        holders = [] if escrow is None else list(escrow.holders)
        ids = dict.fromkeys([*holders, *(r.player_id for r in results)])
        return MatchSettlement(
            payouts,
            {pid: self._balances[player_account(pid)] for pid in ids},
            already_finished=plan is None
            and not to_record
            and (escrow is not None or match_id in self._matches),
        )

    def _scope(self, chat: str | None) -> list[_MatchRow]:
        return [m for m in self._matches.values() if chat is None or m.chat == chat]

    async def player_stats(self, player_id: int) -> PlayerStats:
        self._row(player_id)
        played = won = hands = dominoes = trancas = capicuas = 0
        last: float | None = None
        for match in self._matches.values():
            for r in match.results:
                if r.player_id != player_id:
                    continue
                played += 1
                won += int(r.won_match)
                hands += r.hands_won
                dominoes += r.dominoes
                trancas += r.trancas_won
                capicuas += r.capicuas
                last = match.finished_at if last is None else max(last, match.finished_at)
        return PlayerStats(player_id, played, won, hands, dominoes, trancas, capicuas, last)

    def _scope_counts(self, chat: str | None) -> dict[int, tuple[int, int, float]]:
        counts: dict[int, tuple[int, int, float]] = {}
        for match in self._scope(chat):
            for r in match.results:
                played, won, last = counts.get(r.player_id, (0, 0, match.finished_at))
                counts[r.player_id] = (
                    played + 1,
                    won + int(r.won_match),
                    max(last, match.finished_at),
                )
        return counts

    async def top_by_balance(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)
        rows = [
            RankRow(
                pid, self._players[pid].display_name, self._balances[player_account(pid)], played
            )
            for pid, (played, _, last) in self._scope_counts(chat).items()
            if last >= now - ACTIVE_SECONDS
        ]
        rows.sort(key=lambda r: (-r.value, -r.matches, r.player_id))
        since = now - TREND_SECONDS
        moved: dict[str, int] = {}
        for tx in self._transactions.values():
            if tx.at > since and tx.kind != "open":  # the opening grant is no change
                for account, amount in tx.entries:
                    moved[account] = moved.get(account, 0) + amount
        return [
            replace(row, trend=moved.get(player_account(row.player_id), 0))
            for row in rows[: max(limit, 0)]
        ]

    async def top_by_rating(
        self, chat: str | None, *, now: float, limit: int = 10
    ) -> list[RankRow]:
        check_now(now)
        table = self._book.tables.get(Scope(ALL_CHATS, ALL_TIME), {})
        played = None if chat is None else set(self._scope_counts(chat))
        states = {p: st for p, st in table.items() if played is None or p in played}
        trends: dict[int, int | None] = {}
        for pid in states:
            before = [h for h in self._book.history.get(pid, []) if h[1] <= now - TREND_SECONDS]
            trends[pid] = display_rating(before[-1][2], before[-1][3]) if before else None
        return self._rank_rows(states, trends, limit)

    async def season_standings(self, chat: str, season: str, *, limit: int = 10) -> list[RankRow]:
        return self._rank_rows(self._book.tables.get(Scope(chat, season), {}), {}, limit)

    async def top_pairs(
        self, chat: str | None, *, min_matches: int, limit: int = 10
    ) -> list[PairRow]:
        counts: dict[tuple[int, int], list[int]] = {}
        for facts in self._facts.values():
            if chat is not None and facts.chat != chat:
                continue
            for a, b in ((facts.seats[0], facts.seats[2]), (facts.seats[1], facts.seats[3])):
                if a.player_id is None or b.player_id is None:
                    continue
                key = (min(a.player_id, b.player_id), max(a.player_id, b.player_id))
                tally = counts.setdefault(key, [0, 0])
                tally[0] += 1
                tally[1] += int(a.team == facts.winner_team)
        pairs = [
            PairRow(key, (self._players[key[0]].display_name, self._players[key[1]].display_name),
                    n, won)
            for key, (n, won) in counts.items()
            if n >= min_matches
        ]  # fmt: skip
        pairs.sort(key=pair_order)
        return pairs[: max(limit, 0)]

    async def player_rating(
        self, player_id: int, *, chat: str = ALL_CHATS, season: str = ALL_TIME
    ) -> Rating | None:
        self._row(player_id)
        state = self._book.get(Scope(chat, season), player_id)
        return None if state is None else rating_of(player_id, state)

    async def rating_history(self, player_id: int, *, limit: int = 50) -> list[RatingPoint]:
        self._row(player_id)
        points = self._book.history.get(player_id, [])
        chosen = points[max(len(points) - max(limit, 0), 0) :] if limit > 0 else []
        return [
            RatingPoint(m, at, display_rating(mu, sigma), mu, sigma) for m, at, mu, sigma in chosen
        ]

    async def player_record(self, player_id: int) -> PlayerRecord:
        self._row(player_id)
        partners: dict[int, list[int]] = {}
        opponents: dict[int, list[int]] = {}
        results: list[bool] = []
        points = hands = 0
        for facts in self._facts.values():
            mine = next((s for s in facts.seats if s.player_id == player_id), None)
            if mine is None:
                continue
            won = mine.team == facts.winner_team
            results.append(won)
            points += facts.score[mine.team]
            hands += facts.hands
            for other in facts.seats:
                if other.player_id is None or other.seat == mine.seat:
                    continue
                into = partners if other.team == mine.team else opponents
                tally = into.setdefault(other.player_id, [0, 0])
                tally[0] += 1
                tally[1] += int(won)

        def rivals(tallies: dict[int, list[int]]) -> tuple[Rival, ...]:
            order = sorted(tallies, key=lambda p: (-tallies[p][0], p))
            return tuple(
                Rival(p, self._players[p].display_name, tallies[p][0], tallies[p][1]) for p in order
            )

        return PlayerRecord(
            rivals(partners), rivals(opponents), streak_of(results[::-1][:1000]), points, hands
        )

    async def season_period(self, chat: str) -> SeasonPeriod:
        return self._periods.get(chat, DEFAULT_PERIOD)

    async def set_season_period(
        self, chat: str, period: SeasonPeriod, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        self._periods[chat] = SeasonPeriod(period)

    async def seasons(self, chat: str) -> list[str]:
        last: dict[str, float] = {}
        for scope, table in self._book.tables.items():
            if scope.chat == chat and scope.season != ALL_TIME and table:
                last[scope.season] = max(st.updated_at for st in table.values())
        return sorted(last, key=lambda season: (last[season], season), reverse=True)

    async def due_season_finals(self, now: float) -> list[tuple[str, str]]:
        check_now(now)
        seasons = [
            (scope.chat, scope.season)
            for scope, table in self._book.tables.items()
            if scope.season != ALL_TIME and table and (scope.chat, scope.season) not in self._finals
        ]
        return due_finals(seasons, now)

    async def mark_season_final(self, chat: str, season: str, *, now: float) -> bool:
        check_now(now)
        if (chat, season) in self._finals:
            return False
        self._finals[(chat, season)] = now
        return True

    async def rebuild_ratings(self, *, write: bool = True) -> RebuildReport:
        book = RatingBook()
        all_facts = []
        for match_id, row in self._matches.items():
            old = self._facts[match_id]
            facts = facts_of(
                match_id,
                row.chat,
                row.finished_at,
                json.loads(row.record_json),
                sorted(row.results, key=lambda r: r.player_id),
                old.seasons,
            )
            book.apply(facts)
            all_facts.append(facts)
        stored = {
            (scope, pid): state
            for scope, table in self._book.tables.items()
            for pid, state in table.items()
        }
        report = compare_ratings(book, stored, self._book.history, all_facts)
        if write:
            self._book = book
            self._facts = {f.match_id: f for f in all_facts}
        return report

    async def match_records(
        self, *, player_id: int | None = None, chat: str | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        found = [
            (match_id, m)
            for match_id, m in self._matches.items()
            if (chat is None or m.chat == chat)
            and (player_id is None or any(r.player_id == player_id for r in m.results))
        ]
        found.sort(key=lambda item: (item[1].finished_at, item[1].seq), reverse=True)
        return [
            StoredMatch(match_id, m.chat, m.finished_at, json.loads(m.record_json))
            for match_id, m in found[: max(limit, 0)]
        ]

    # ------------------------------------------------------------ chat presets

    async def get_chat_rules(self, chat: str) -> ChatRules | None:
        stored = self._chat_rules.get(chat)
        if stored is None:
            return None
        preset, overrides_json, changed_by, changed_at = stored
        return ChatRules(chat, preset, json.loads(overrides_json), changed_by, changed_at)

    async def set_chat_rules(
        self,
        chat: str,
        preset: str,
        overrides: Mapping[str, object],
        *,
        changed_by: int,
        now: float,
    ) -> ChatRules:
        check_now(now)
        name, clean = canonical_chat_rules(preset, overrides)
        self._chat_rules[chat] = (name, to_json(clean), changed_by, now)
        rules = await self.get_chat_rules(chat)
        assert rules is not None
        return rules

    # ------------------------------------------------------------ chat moves

    async def move_chat(
        self,
        old: str,
        new: str,
        *,
        tables: Mapping[str, dict[str, Any]] | None = None,
        now: float,
    ) -> None:
        check_now(now)
        check_chat_move(old, new)
        texts = {table_id: to_json(snapshot) for table_id, snapshot in (tables or {}).items()}
        rules = self._chat_rules.pop(old, None)
        if rules is not None:
            self._chat_rules.setdefault(new, rules)
        for match in self._matches.values():
            if match.chat == old:
                match.chat = new
        for match_id, facts in self._facts.items():
            if facts.chat == old:
                self._facts[match_id] = replace(facts, chat=new)
        if old in self._periods:
            self._periods.setdefault(new, self._periods.pop(old))
        for _, season in [key for key in self._finals if key[0] == old]:
            self._finals.setdefault((new, season), self._finals.pop((old, season)))
        for scope in [scope for scope in self._book.tables if scope.chat == old]:
            into = self._book.tables.setdefault(Scope(new, scope.season), {})
            for pid, state in self._book.tables.pop(scope).items():
                into.setdefault(pid, state)
        language = self._chat_languages.pop(old, None)
        if language is not None:
            self._chat_languages.setdefault(new, language)
        for table_id, text in texts.items():
            self._tables[table_id] = (text, now)

    async def get_chat_language(self, chat: str) -> str | None:
        return self._chat_languages.get(chat)

    async def set_chat_language(
        self, chat: str, language: str, *, changed_by: int, now: float
    ) -> None:
        check_now(now)
        self._chat_languages[chat] = check_chat_language(language)

    # --------------------------------------------------------- table snapshots

    async def save_table(
        self,
        table_id: str,
        snapshot: dict[str, Any],
        *,
        now: float,
        fence: Fence | None = None,
    ) -> None:
        check_now(now)
        self._check_fence(fence)
        self._tables[table_id] = (to_json(snapshot), now)

    async def load_tables(self) -> list[dict[str, Any]]:
        ordered = sorted(self._tables.items(), key=lambda item: (item[1][1], item[0]))
        return [json.loads(text) for _, (text, _) in ordered]

    async def delete_table(self, table_id: str, *, fence: Fence | None = None) -> None:
        self._check_fence(fence)
        self._tables.pop(table_id, None)

    async def open_escrows(self) -> list[OpenEscrow]:
        found = [
            OpenEscrow(match_id, e.stake, dict(e.holders), e.created_at)
            for match_id, e in self._escrows.items()
            if e.state == "open"
        ]
        return sorted(found, key=lambda e: (e.created_at, e.match_id))

    def _check_fence(self, fence: Fence | None) -> None:
        if fence is None:
            return
        current = self._claims.get(fence.scope)
        if current is None or current.owner != fence.owner or current.fence != fence.token:
            raise FencedOut(fence)

    async def tables_claim(self, platform: str) -> TablesClaim | None:
        claim = self._claims.get(platform)
        return claim if claim is not None and claim.owner else None

    async def tables_claims(self) -> list[TablesClaim]:
        return sorted((c for c in self._claims.values() if c.owner), key=lambda c: c.platform)

    async def claim_tables(
        self, platform: str, owner: str, *, now: float, replacing: str | None
    ) -> int | None:
        check_now(now)
        current = self._claims.get(platform)
        if (current.owner if current and current.owner else None) not in (replacing, owner):
            return None
        fence = 0 if current is None else current.fence
        if current is None or current.owner != owner:
            fence += 1
        self._claims[platform] = TablesClaim(platform, owner, now, fence)
        return fence

    async def renew_tables_claim(self, platform: str, owner: str, *, now: float) -> bool:
        check_now(now)
        current = self._claims.get(platform)
        if current is None or current.owner != owner:
            return False
        self._claims[platform] = TablesClaim(platform, owner, now, current.fence)
        return True

    async def release_tables(self, platform: str, owner: str) -> None:
        current = self._claims.get(platform)
        if current is not None and current.owner == owner:
            self._claims[platform] = TablesClaim(platform, "", 0.0, current.fence)
