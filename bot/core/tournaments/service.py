"""A chat's tournament from sign-up to prizes (issue 32; docs/tournaments.md, "The
service").

:class:`TournamentService` applies the tournament commands (create, join, leave,
cancel, start now), keeps each tournament as a snapshot in storage, holds the entry fees
in the tournament's escrow when it starts, opens each pairing's table (every seat kept
for its player, no robot, a no-show after :data:`NO_SHOW_SECONDS`), reads each table's
result when it closes (:attr:`Core.closed_hooks`), pairs the next round (knockout,
Swiss) or whoever is free (arena), and pays the prizes once at the end. The rules of
pairing, standings and prizes are the pure modules beside it; this module decides when
and does the I/O. The core never phrases: what the chat is told travels as
:class:`~bot.core.events.TournamentUpdate` events.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.core.clock import Timer
from bot.core.commands import (
    CancelTournament,
    ChatRef,
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    PlayerRef,
    StartTournament,
)
from bot.core.events import (
    PairingInfo,
    PlaceInfo,
    Refused,
    Reply,
    SeriesInfo,
    StandingInfo,
    TournamentUpdate,
    TournamentView,
)
from bot.core.lobby import Lobby
from bot.core.state import Core
from bot.core.table import Table
from bot.core.tournaments.arena import (
    ArenaSchedule,
    ArenaStanding,
    arena_pair,
    arena_standings,
    last_opponents,
)
from bot.core.tournaments.drawn import (
    LEAST_PLAYERS,
    drawn_arena_pair,
    drawn_arena_standings,
    drawn_swiss_pair,
    drawn_swiss_standings,
    last_partners,
    team_entrant,
    team_players,
)
from bot.core.tournaments.knockout import Bracket, Series, seed_bracket
from bot.core.tournaments.model import (
    Entrant,
    MatchResult,
    Pairing,
    Partners,
    Place,
    ResultKind,
    Round,
    TournamentKind,
)
from bot.core.tournaments.prizes import (
    NO_SHOW_SECONDS,
    award_prizes,
    no_show_result,
    split_between_players,
)
from bot.core.tournaments.swiss import SwissStanding, swiss_pair, swiss_standings
from bot.core.vocabulary import CloseReason, RefusalReason, TournamentNews, TournamentStatus
from engine.errors import RulesError
from engine.rules import EVERY_PRESET_NAME, Rules, find_any_preset
from storage.base import (
    InsufficientFunds,
    MatchClosedError,
    TournamentClosedError,
    UnknownMatchError,
    tournament_escrow,
)

__all__ = [
    "FEES",
    "MAX_ENTRANTS",
    "Tournament",
    "TournamentService",
]

log = logging.getLogger(__name__)

FEES = (0, 10, 25, 50, 100, 250, 500)
"""The entry fees an admin may set, in dollars."""

MAX_ENTRANTS = (4, 8, 16, 32, 64, 128, 256)
"""The largest fields an admin may set."""

SIGNUP_MINUTES = (1, 5, 10, 15, 30, 60, 120, 1440)
"""How long sign-up may stay open, in minutes."""

ARENA_MINUTES = (15, 20, 30, 45, 60, 90, 120)
"""How long an arena may run, in minutes."""

LEAST_ENTRANTS = 2
"""A tournament with fewer entrants at its start is cancelled (fees refunded)."""

STANDINGS_SECONDS = 60.0
"""An arena's live standings are shown again at most once a minute (seconds;
docs/tournaments.md, "Within the platforms' limits")."""


def _player(data: dict[str, Any]) -> PlayerRef:
    return PlayerRef(**data)


def _result(data: dict[str, Any]) -> MatchResult:
    return MatchResult(
        data["first"],
        data["second"],
        data["winner"],
        (int(data["points"][0]), int(data["points"][1])),
        ResultKind(data["kind"]),
    )


def _result_json(result: MatchResult) -> dict[str, Any]:
    return {
        "first": result.first,
        "second": result.second,
        "winner": result.winner,
        "points": list(result.points),
        "kind": result.kind.value,
    }


@dataclass
class Tournament:
    """A tournament's whole state, kept as one snapshot (``to_json``).

    Attributes:
        id, chat, name: which one, where, and what players call it.
        kind: knockout, Swiss or arena; preset: the rules' preset or format name.
        fee: the entry fee, dollars; starts_at: when sign-up closes (epoch seconds).
        rounds: a Swiss's rounds (0: as many as the field needs); minutes: an arena's
            length; wins_needed: a knockout series' wins; most: the largest field.
        signed: who signed up, in order (player keys to their refs).
        entrants: the field once started; ids: player key -> storage player id.
        results: every result, in the order they came; swiss: a Swiss's rounds.
        tables: live table id -> its pairing's two entrant keys.
        prizes: player key -> dollars paid; places: the final places.
        draw: in partnership play, fixed partnerships or partners drawn each round
            (then every entrant is one player, and each pairing names two teams:
            :mod:`.drawn`).
    """

    id: str
    chat: ChatRef
    name: str
    kind: TournamentKind
    preset: str
    fee: int
    starts_at: float
    created_by: PlayerRef
    rounds: int = 0
    minutes: int = 30
    wins_needed: int = 1
    most: int = 64
    status: TournamentStatus = TournamentStatus.SIGNUP
    signed: list[PlayerRef] = field(default_factory=list)
    entrants: list[Entrant] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    results: list[MatchResult] = field(default_factory=list)
    swiss: list[Round] = field(default_factory=list)
    tables: dict[str, list[str]] = field(default_factory=dict)
    started_at: float | None = None
    dropped: list[PlayerRef] = field(default_factory=list)
    prizes: dict[str, int] = field(default_factory=dict)
    places: list[Place] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)  # live table id -> its label
    partners: dict[str, str] = field(default_factory=dict)  # player key -> partner asked for
    draw: Partners = Partners.FIXED

    @property
    def rules(self) -> Rules:
        """The rules of its tables: its preset, without a stake (the fee is the stake)."""
        return find_any_preset(self.preset, stake=0)

    @property
    def drawn(self) -> bool:
        """Whether partners are drawn anew each round (entrants are players alone)."""
        return self.draw is Partners.EACH_ROUND

    @property
    def team_size(self) -> int:
        """Players in an entrant: two in partnership play with fixed partners, else one."""
        return 2 if self.rules.partnership and not self.drawn else 1

    def side(self, key: str) -> Entrant:
        """The entrant ``key`` names, or the team of a round (partners drawn each round:
        two players' keys joined by ``+``).

        Raises:
            KeyError: neither.
        """
        found = next((e for e in self.entrants if e.key == key), None)
        if found is not None:
            return found
        if not self.drawn:
            raise KeyError(key)
        return team_entrant(key, {e.key: e.rating for e in self.entrants})

    def swiss_standings(self) -> tuple[SwissStanding, ...]:
        """A Swiss's standings now (players', when partners are drawn each round)."""
        if self.drawn:
            return drawn_swiss_standings(self.entrants, self.swiss)
        return swiss_standings(self.entrants, self.swiss)

    def arena_standings(self) -> tuple[ArenaStanding, ...]:
        """An arena's standings now (players', when partners are drawn each round)."""
        if self.drawn:
            return drawn_arena_standings(self.entrants, self.results)
        return arena_standings(self.entrants, self.results)

    def played_by(self, key: str, result: MatchResult) -> bool:
        """Whether entrant ``key`` played in ``result`` (in one of its teams, when
        partners are drawn each round)."""
        if self.drawn:
            return any(key in team_players(side) for side in result.keys)
        return key in result.keys

    def members(self) -> dict[str, PlayerRef]:
        """Every signed player, by key string (``"telegram:1001"``)."""
        return {_key(p): p for p in self.signed}

    def to_json(self) -> dict[str, Any]:
        """The snapshot storage keeps (docs/tournaments.md, "The service")."""
        return {
            "id": self.id,
            "chat": asdict(self.chat),
            "name": self.name,
            "kind": self.kind.value,
            "preset": self.preset,
            "fee": self.fee,
            "starts_at": self.starts_at,
            "created_by": asdict(self.created_by),
            "rounds": self.rounds,
            "minutes": self.minutes,
            "wins_needed": self.wins_needed,
            "most": self.most,
            "status": self.status.value,
            "signed": [asdict(p) for p in self.signed],
            "entrants": [
                {"key": e.key, "players": list(e.players), "rating": e.rating}
                for e in self.entrants
            ],
            "ids": dict(self.ids),
            "results": [_result_json(r) for r in self.results],
            "swiss": [
                {
                    "number": r.number,
                    "pairings": [[p.first, p.second] for p in r.pairings],
                    "byes": list(r.byes),
                    "results": [_result_json(x) for x in r.results],
                }
                for r in self.swiss
            ],
            "tables": {k: list(v) for k, v in self.tables.items()},
            "labels": dict(self.labels),
            "started_at": self.started_at,
            "dropped": [asdict(p) for p in self.dropped],
            "prizes": dict(self.prizes),
            "places": [{"number": p.number, "entrants": list(p.entrants)} for p in self.places],
            "partners": dict(self.partners),
            "draw": self.draw.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tournament:
        """A snapshot read back.

        Raises:
            KeyError, TypeError, ValueError: a malformed snapshot.
        """
        return cls(
            id=str(data["id"]),
            chat=ChatRef(**data["chat"]),
            name=str(data["name"]),
            kind=TournamentKind(data["kind"]),
            preset=str(data["preset"]),
            fee=int(data["fee"]),
            starts_at=float(data["starts_at"]),
            created_by=_player(data["created_by"]),
            rounds=int(data["rounds"]),
            minutes=int(data["minutes"]),
            wins_needed=int(data["wins_needed"]),
            most=int(data["most"]),
            status=TournamentStatus(data["status"]),
            signed=[_player(p) for p in data["signed"]],
            entrants=[
                Entrant(e["key"], tuple(e["players"]), int(e["rating"])) for e in data["entrants"]
            ],
            ids={str(k): int(v) for k, v in data["ids"].items()},
            results=[_result(r) for r in data["results"]],
            swiss=[
                Round(
                    int(r["number"]),
                    tuple(Pairing(a, b) for a, b in r["pairings"]),
                    tuple(r["byes"]),
                    tuple(_result(x) for x in r["results"]),
                )
                for r in data["swiss"]
            ],
            tables={str(k): [str(x) for x in v] for k, v in data["tables"].items()},
            labels={str(k): str(v) for k, v in data.get("labels", {}).items()},
            started_at=None if data["started_at"] is None else float(data["started_at"]),
            dropped=[_player(p) for p in data["dropped"]],
            prizes={str(k): int(v) for k, v in data["prizes"].items()},
            places=[Place(int(p["number"]), tuple(p["entrants"])) for p in data["places"]],
            partners={str(k): str(v) for k, v in data.get("partners", {}).items()},
            draw=Partners(data.get("draw", Partners.FIXED.value)),
        )


def _key(player: PlayerRef) -> str:
    """A player's key as a tournament keeps it: ``"telegram:1001"``."""
    return f"{player.platform}:{player.user_id}"


class TournamentService:
    """Runs every tournament of this process's chats (see the module doc).

    Args:
        core: the shared state (storage, clock, the lobby lock, the outbox).
        lobby: opens the pairings' tables.
        no_show_seconds: how long a tournament table waits for its players.
    """

    def __init__(
        self, core: Core, lobby: Lobby, *, no_show_seconds: float = NO_SHOW_SECONDS
    ) -> None:
        self.core = core
        self.lobby = lobby
        self.no_show_seconds = no_show_seconds
        self.live: dict[str, Tournament] = {}  # chat key -> its tournament
        self._lock = asyncio.Lock()
        self._timers: dict[str, Timer] = {}
        # an arena's live standings: when last shown, and the timer of the next showing
        self._standings: dict[str, tuple[float, Timer | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        core.closed_hooks.append(self._table_closed)

    # ------------------------------------------------------------------ commands

    async def create(self, command: CreateTournament) -> Reply:
        """An admin opens a tournament in the chat (one at a time per chat).

        Refusals: ``not_admin``; ``tournament_exists``; ``bad_tournament`` (an option
        outside its allowed values: :data:`FEES`, :data:`MAX_ENTRANTS`,
        :data:`SIGNUP_MINUTES`, :data:`ARENA_MINUTES`, a preset by name)."""
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        core = self.core
        checks: list[tuple[str, bool, str]] = [
            ("fee", command.fee in FEES, ", ".join(map(str, FEES))),
            ("most", command.most in MAX_ENTRANTS, ", ".join(map(str, MAX_ENTRANTS))),
            (
                "signup_minutes",
                command.signup_minutes in SIGNUP_MINUTES,
                ", ".join(map(str, SIGNUP_MINUTES)),
            ),
            ("minutes", command.minutes in ARENA_MINUTES, ", ".join(map(str, ARENA_MINUTES))),
            ("rounds", 0 <= command.rounds <= 12, "0..12"),
            ("wins_needed", command.wins_needed in (1, 2, 3), "1, 2, 3"),
        ]
        preset = command.preset or core.default_preset
        try:
            rules = find_any_preset(preset, stake=0)
        except (RulesError, KeyError):
            checks.append(("preset", False, ", ".join(EVERY_PRESET_NAME)))
        else:
            checks.append(("preset", rules.sides == 2, ", ".join(EVERY_PRESET_NAME)))
        for option, ok, allowed in checks:
            if not ok:
                raise Refused(RefusalReason.BAD_TOURNAMENT, option=option, allowed=allowed)
        if command.partners is Partners.EACH_ROUND and (
            command.kind is TournamentKind.KNOCKOUT or not rules.partnership
        ):
            raise Refused(RefusalReason.DRAWN_PARTNERS)
        async with self._lock:
            held = self.live.get(command.chat.key)
            if held is not None:
                raise Refused(RefusalReason.TOURNAMENT_EXISTS, name=held.name)
            tournament = Tournament(
                id="".join(core.ids.choice("0123456789abcdefghijkmnpqrstuvwxyz") for _ in range(8)),
                chat=command.chat,
                name=command.name,
                kind=command.kind,
                preset=preset,
                fee=command.fee,
                starts_at=core.clock.now() + command.signup_minutes * 60,
                created_by=command.player,
                rounds=command.rounds,
                minutes=command.minutes,
                wins_needed=command.wins_needed,
                most=command.most,
                draw=command.partners,
            )
            self.live[command.chat.key] = tournament
            await self._save(tournament)
            self._arm_start(tournament)
            self._tell(tournament, TournamentNews.OPENED, command.player)
        return Reply(label=tournament.name)

    async def join(self, command: JoinTournament) -> Reply:
        """A player signs up (before the start; nothing is paid until it starts)."""
        async with self._lock:
            tournament = self._open_here(command.chat)
            if any(p.key == command.player.key for p in tournament.signed):
                raise Refused(RefusalReason.ALREADY_SIGNED, name=tournament.name)
            if len(tournament.signed) >= tournament.most * tournament.team_size:
                raise Refused(RefusalReason.TOURNAMENT_FULL, most=tournament.most)
            await self.core.player_id(command.player)  # known to storage before the start
            tournament.signed.append(command.player)
            partner = command.partner
            if partner is not None and partner.key != command.player.key and not tournament.drawn:
                tournament.partners[_key(command.player)] = _key(partner)
            await self._save(tournament)
            self._tell(tournament, TournamentNews.JOINED, command.player)
        return Reply(label=tournament.name)

    async def leave(self, command: LeaveTournament) -> Reply:
        """A player leaves before the start (free: nothing was paid yet)."""
        async with self._lock:
            tournament = self._open_here(command.chat)
            if not any(p.key == command.player.key for p in tournament.signed):
                raise Refused(RefusalReason.NOT_SIGNED, name=tournament.name)
            tournament.signed = [p for p in tournament.signed if p.key != command.player.key]
            tournament.partners.pop(_key(command.player), None)
            await self._save(tournament)
            self._tell(tournament, TournamentNews.LEFT, command.player)
        return Reply(label=tournament.name)

    async def cancel(self, command: CancelTournament) -> Reply:
        """An admin cancels the chat's tournament: every fee held is refunded; tables in
        play end as they are (their own stakes are none)."""
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        async with self._lock:
            tournament = self.live.get(command.chat.key)
            if tournament is None:
                raise Refused(RefusalReason.NO_TOURNAMENT)
            await self._cancel(tournament, command.player)
        return Reply(label=tournament.name)

    async def start_now(self, command: StartTournament) -> Reply:
        """An admin closes sign-up and starts the chat's tournament now."""
        if not command.is_admin:
            raise Refused(RefusalReason.NOT_ADMIN)
        async with self._lock:
            tournament = self._open_here(command.chat)
            await self._start(tournament)
        return Reply(label=tournament.name)

    def tournament_here(self, chat: ChatRef) -> TournamentView | None:
        """The chat's tournament as its screens show it, if any (a query)."""
        tournament = self.live.get(chat.key)
        return None if tournament is None else self._view(tournament)

    async def view_of(self, tournament_id: str) -> TournamentView | None:
        """Tournament ``tournament_id`` as its page shows it (a query): a live one of
        this process as it is now, a finished or cancelled one as its last snapshot in
        storage left it (places and prizes, or the fees refunded); None for an id nobody
        knows, or one another process runs (its snapshot in storage is not kept current
        enough to show)."""
        live = next((t for t in self.live.values() if t.id == tournament_id), None)
        if live is not None:
            return self._view(live)
        data = await self.core.storage.get_tournament(tournament_id)
        if data is None:
            return None
        try:
            stored = Tournament.from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            log.error("tournament %s: unreadable snapshot: %s", tournament_id, exc)
            return None
        closed = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
        return self._view(stored) if stored.status in closed else None

    # ------------------------------------------------------------------ lifecycle

    async def restore(self, scopes: Collection[str] | None = None) -> None:
        """Reload the unfinished tournaments of ``scopes`` (lease scopes; None: every
        one) from storage after a restart and re-arm their clocks; their tables resume
        and close as usual, and are scored then."""
        core = self.core
        for data in await core.storage.load_tournaments():
            try:
                tournament = Tournament.from_json(data)
            except (KeyError, TypeError, ValueError) as exc:
                log.error("dropping tournament snapshot %r: %s", data.get("id"), exc)
                continue
            if scopes is not None and core.scope_of(tournament.chat) not in scopes:
                continue
            if tournament.chat.key in self.live:
                continue  # already running here
            if tournament.status is TournamentStatus.FINISHED:
                # paid and saved, but a crash came before storage closed it
                await self._close_finished(tournament)
                continue
            self.live[tournament.chat.key] = tournament
            if tournament.status is TournamentStatus.SIGNUP:
                self._arm_start(tournament)
            elif tournament.kind is TournamentKind.ARENA and tournament.started_at is not None:
                self._arm(tournament, tournament.started_at + tournament.minutes * 60)

    def stop(self) -> None:
        """Cancel the clocks (the snapshots stay; :meth:`restore` picks them up)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for _shown, pending in self._standings.values():
            if pending is not None:
                pending.cancel()
        self._standings.clear()

    async def idle(self) -> None:
        """Wait until every result read is applied (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _arm_start(self, tournament: Tournament) -> None:
        self._arm(tournament, tournament.starts_at)

    def _arm(self, tournament: Tournament, when: float) -> None:
        old = self._timers.pop(tournament.id, None)
        if old is not None:
            old.cancel()

        async def fire() -> None:
            async with self._lock:
                if self.live.get(tournament.chat.key) is not tournament:
                    return
                if tournament.status is TournamentStatus.SIGNUP:
                    await self._start(tournament)
                else:
                    await self._advance(tournament)

        self._timers[tournament.id] = self.core.clock.call_at(when, fire)

    async def _start(self, tournament: Tournament) -> None:
        """Sign-up closes: the field is drawn up, the fees held, the first round paired.

        Partnership play pairs the players in sign-up order's seeded shuffle into fixed
        partnerships (an odd one out is not entered and pays nothing). A player who
        cannot pay the fee is left out (told so); fewer than :data:`LEAST_ENTRANTS`
        entrants cancel it."""
        core = self.core
        storage = core.storage
        players = list(tournament.signed)
        while True:
            size = tournament.team_size
            if size == 2:
                players = _partnered(players, tournament.partners, core.seeds)
            ids = {_key(p): await core.player_id(p, fresh=True) for p in players}
            if len(players) < (LEAST_PLAYERS if tournament.drawn else LEAST_ENTRANTS * size):
                tournament.ids = ids
                await self._cancel(tournament, None, news=TournamentNews.TOO_FEW)
                return
            try:
                await storage.stake(
                    tournament_escrow(tournament.id),
                    list(ids.values()),
                    tournament.fee,
                    now=core.clock.now(),
                )
            except InsufficientFunds as exc:
                short = set(exc.player_ids)
                tournament.dropped += [p for p in players if ids[_key(p)] in short]
                players = [p for p in players if ids[_key(p)] not in short]
                continue
            break
        tournament.ids = ids
        ratings: dict[str, int] = {}
        for player in players:
            rating = await storage.player_rating(
                ids[_key(player)], format=tournament.rules.format_key
            )
            ratings[_key(player)] = rating.display if rating is not None else 1000
        keys = [_key(p) for p in players]
        tournament.entrants = [
            Entrant(
                "+".join(keys[i : i + size]),
                tuple(keys[i : i + size]),
                sum(ratings[k] for k in keys[i : i + size]) // size,
            )
            for i in range(0, len(keys), size)
        ]
        tournament.status = TournamentStatus.RUNNING
        tournament.started_at = core.clock.now()
        if tournament.kind is TournamentKind.SWISS and tournament.rounds == 0:
            tournament.rounds = max(1, math.ceil(math.log2(len(tournament.entrants))))
        if tournament.kind is TournamentKind.ARENA:
            self._arm(tournament, tournament.started_at + tournament.minutes * 60)
        self._tell(tournament, TournamentNews.STARTED, None)
        await self._advance(tournament)

    async def _cancel(
        self,
        tournament: Tournament,
        by: PlayerRef | None,
        news: TournamentNews = TournamentNews.CANCELLED,
    ) -> None:
        core = self.core
        refunds: dict[int, int] = {}
        held = tournament.status is TournamentStatus.RUNNING and tournament.fee > 0
        tournament.status = TournamentStatus.CANCELLED
        tournament.tables.clear()
        # its last snapshot, kept for its page: cancelled, each fee held given back
        tournament.prizes = {key: tournament.fee for key in tournament.ids} if held else {}
        try:  # closed as cancelled, every fee held refunded, in one transaction
            refunds = await core.storage.cancel_tournament(
                tournament.id, now=core.clock.now(), snapshot=tournament.to_json()
            )
        except (MatchClosedError, TournamentClosedError) as exc:
            log.error("tournament %s: cancel failed: %s", tournament.id, exc)
        by_id = {v: k for k, v in tournament.ids.items()}
        tournament.prizes = {
            by_id[pid]: dollars for pid, dollars in refunds.items() if pid in by_id
        }
        self._forget(tournament)
        self._tell(tournament, news, by)

    def _forget(self, tournament: Tournament) -> None:
        self.live.pop(tournament.chat.key, None)
        timer = self._timers.pop(tournament.id, None)
        if timer is not None:
            timer.cancel()
        _shown, pending = self._standings.pop(tournament.id, (0.0, None))
        if pending is not None:
            pending.cancel()

    def _standings_soon(self, tournament: Tournament) -> None:
        """Show an arena's live standings now, or when a minute has passed since they
        were last shown (:data:`STANDINGS_SECONDS`; one showing for any number of
        results meanwhile), edited in place by the front ends."""
        clock = self.core.clock
        shown, pending = self._standings.get(tournament.id, (-math.inf, None))
        if pending is not None:
            return  # already coming, with whatever results are in by then
        if clock.now() - shown >= STANDINGS_SECONDS:
            self._standings[tournament.id] = (clock.now(), None)
            self._tell(tournament, TournamentNews.STANDINGS, None)
            return

        async def fire() -> None:
            async with self._lock:
                self._standings[tournament.id] = (shown, None)
                if self.live.get(tournament.chat.key) is tournament:
                    self._standings_soon(tournament)

        self._standings[tournament.id] = (shown, clock.call_at(shown + STANDINGS_SECONDS, fire))

    # ------------------------------------------------------------------ rounds

    async def _advance(self, tournament: Tournament) -> None:
        """Open whatever tables are due now, or finish (lock held)."""
        if tournament.status is not TournamentStatus.RUNNING:
            return
        due = self._due_pairings(tournament)
        if due is None:
            await self._finish(tournament)
            return
        opened = [await self._open(tournament, pairing) for pairing in due]
        if opened:
            self._tell(tournament, TournamentNews.ROUND, None, opened=opened)
        await self._save(tournament)

    def _due_pairings(self, tournament: Tournament) -> list[Pairing] | None:
        """The pairings to seat now; None once the tournament is over. A Swiss's next
        round is paired here and kept (``tournament.swiss``) once the last one is over."""
        entrants = tournament.entrants
        playing = {k for pair in tournament.tables.values() for k in pair}
        if tournament.kind is TournamentKind.KNOCKOUT:
            bracket = self._bracket(tournament)
            if bracket.is_finished:
                return None
            return [p for p in bracket.pending() if not p.keys & playing]
        if tournament.kind is TournamentKind.SWISS:
            rounds = tournament.swiss
            if rounds and not rounds[-1].is_complete:
                return []
            if len(rounds) >= tournament.rounds:
                return None
            pair = drawn_swiss_pair if tournament.drawn else swiss_pair
            new = pair(entrants, rounds)
            tournament.swiss.append(new)
            return list(new.pairings)
        assert tournament.started_at is not None
        schedule = ArenaSchedule(tournament.started_at, tournament.minutes * 60)
        if not schedule.may_pair(self.core.clock.now()):
            return None if not tournament.tables else []
        standings = tournament.arena_standings()
        if tournament.drawn:
            busy = {p for key in playing for p in team_players(key)}
            free = [e.key for e in entrants if e.key not in busy]
            return list(drawn_arena_pair(free, standings, last_partners(tournament.results)))
        free = [e.key for e in entrants if e.key not in playing]
        return list(arena_pair(free, standings, last_opponents(tournament.results)))

    def _bracket(self, tournament: Tournament) -> Bracket:
        bracket = seed_bracket(tournament.entrants, wins_needed=tournament.wins_needed)
        for result in tournament.results:
            bracket = bracket.record(result)
        return bracket

    async def _open(self, tournament: Tournament, pairing: Pairing) -> str:
        """Open ``pairing``'s table in the tournament's chat, every seat kept: one
        against one, or each partnership at its two opposite seats. One table at a time
        is featured (its board in the chat: the first opened while none is); the others
        are played privately (docs/tournaments.md, "Within the platforms' limits")."""
        core = self.core
        rules = tournament.rules
        members = tournament.members()
        first, second = tournament.side(pairing.first), tournament.side(pairing.second)
        seats: list[PlayerRef | None] = [None] * rules.players
        for side, entrant in enumerate((first, second)):
            for index, key in enumerate(entrant.players):
                seats[side + 2 * index] = members[key]
        featured = any(
            (live := core.tables.get(table_id)) is not None
            and live.tournament is not None
            and not live.tournament.get("private")
            for table_id in tournament.tables
        )
        tag = {
            "id": tournament.id,
            "sides": [first.key, second.key],
            "name": tournament.name,
            "private": featured,
        }
        async with core.lobby:
            table = await self.lobby.open_tournament_table(
                tournament.chat, rules, seats, tag, self.no_show_seconds
            )
        tournament.tables[table.id] = [first.key, second.key]
        tournament.labels[table.id] = table.label
        return table.id

    def _table_closed(self, table: Table, reason: CloseReason, winner: int | None) -> None:
        """A table closed (hook of :class:`~bot.core.settlement.Settlement`): a
        tournament's is scored in a task of its own (locks are held here)."""
        tag = table.tournament
        if tag is None:
            return
        seated = [_key(s.player) for s in table.seats if s.player is not None]
        score = tuple(table.match.score) if table.match is not None else (0, 0)
        task = asyncio.create_task(
            self._score(str(tag["id"]), table.id, reason, winner, seated, score)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _score(
        self,
        tournament_id: str,
        table_id: str,
        reason: CloseReason,
        winner: int | None,
        seated: Sequence[str],
        score: Sequence[int],
    ) -> None:
        async with self._lock:
            tournament = next((t for t in self.live.values() if t.id == tournament_id), None)
            if tournament is None or table_id not in tournament.tables:
                return  # cancelled meanwhile, or scored already
            first_key, second_key = tournament.tables.pop(table_id)
            tournament.labels.pop(table_id, None)
            first, second = tournament.side(first_key), tournament.side(second_key)
            result: MatchResult | None
            if reason is CloseReason.NO_SHOW:
                result = no_show_result(first, second, seated)
            elif winner is not None:
                result = MatchResult(
                    first.key,
                    second.key,
                    (first.key, second.key)[winner],
                    (int(score[0]), int(score[1])),
                )
            else:
                result = None  # called off: an admin closed it, or the chat is gone
            if result is None and reason is CloseReason.UNREACHABLE:
                await self._cancel(tournament, None)  # its chat is gone: fees refunded
                return
            if result is None and tournament.kind is not TournamentKind.ARENA:
                again = await self._open(tournament, Pairing(first_key, second_key))
                self._tell(tournament, TournamentNews.ROUND, None, opened=[again])
                await self._save(tournament)
                return
            if result is None:
                await self._advance(tournament)  # an arena pairs them again when free
                return
            if tournament.kind is TournamentKind.ARENA and tournament.started_at is not None:
                schedule = ArenaSchedule(tournament.started_at, tournament.minutes * 60)
                if not schedule.counts(self.core.clock.now()):
                    await self._advance(tournament)  # ended after the arena: not counted
                    return
            tournament.results.append(result)
            if tournament.kind is TournamentKind.SWISS:
                tournament.swiss[-1] = tournament.swiss[-1].record(result)
            self._tell(tournament, TournamentNews.RESULT, None)
            await self._advance(tournament)
            if (
                tournament.kind is TournamentKind.ARENA
                and tournament.status is TournamentStatus.RUNNING
            ):
                self._standings_soon(tournament)

    # ------------------------------------------------------------------ the end

    def _placing(self, tournament: Tournament) -> list[Place]:
        if tournament.kind is TournamentKind.KNOCKOUT:
            return list(self._bracket(tournament).placing())
        rows: Sequence[SwissStanding | ArenaStanding]
        if tournament.kind is TournamentKind.SWISS:
            rows = tournament.swiss_standings()
        else:
            rows = tournament.arena_standings()
        return [Place(row.place, (row.key,)) for row in rows]

    async def _finish(self, tournament: Tournament) -> None:
        """The last result is in: places, the prize pool paid once (docs/tournaments.md,
        "Prize split"), each player's place kept for their profile."""
        core = self.core
        places = self._placing(tournament)
        pool = tournament.fee * len(tournament.ids)
        by_key = {e.key: e for e in tournament.entrants}
        prizes: dict[str, int] = {}
        for entrant_key, dollars in award_prizes(pool, places).items():
            prizes.update(split_between_players(dollars, by_key[entrant_key]))
        paid = {tournament.ids[k]: v for k, v in prizes.items() if v}
        try:
            await core.storage.pay_prizes(
                tournament_escrow(tournament.id), paid, now=core.clock.now()
            )
        except (UnknownMatchError, MatchClosedError) as exc:
            log.error("tournament %s: paying the prizes failed: %s", tournament.id, exc)
        tournament.prizes = {k: v for k, v in prizes.items() if v}
        tournament.places = places
        tournament.status = TournamentStatus.FINISHED
        # the last snapshot is the finished one (its page shows the places and prizes);
        # storage refuses any save once it is closed
        await self._save(tournament)
        await self._close_finished(tournament)
        self._forget(tournament)
        self._tell(tournament, TournamentNews.FINISHED, None)

    async def _close_finished(self, tournament: Tournament) -> None:
        """Close a finished tournament in storage with each player's place for their
        profile (again after a crash: storage writes it once)."""
        by_key = {e.key: e for e in tournament.entrants}
        player_places = {
            tournament.ids[player]: place.number
            for place in tournament.places
            for key in place.entrants
            for player in by_key[key].players
        }
        await self.core.storage.finish_tournament(
            tournament.id,
            player_places,
            name=tournament.name or tournament.kind.value,
            entrants=len(tournament.entrants),
            now=self.core.clock.now(),
        )

    # ------------------------------------------------------------------ helpers

    def _open_here(self, chat: ChatRef) -> Tournament:
        tournament = self.live.get(chat.key)
        if tournament is None:
            raise Refused(RefusalReason.NO_TOURNAMENT)
        if tournament.status is not TournamentStatus.SIGNUP:
            raise Refused(RefusalReason.TOURNAMENT_STARTED, name=tournament.name)
        return tournament

    async def _save(self, tournament: Tournament) -> None:
        await self.core.storage.save_tournament(
            tournament.id, tournament.chat.key, tournament.to_json(), now=self.core.clock.now()
        )

    def _tell(
        self,
        tournament: Tournament,
        news: TournamentNews,
        player: PlayerRef | None,
        *,
        opened: Sequence[str] = (),
    ) -> None:
        """Tell the chat (``opened``: the tables just opened, by id)."""
        self.core.outbox.emit_chat(
            TournamentUpdate(
                table_id="",
                chat=tournament.chat,
                news=news,
                view=self._view(tournament),
                player=player,
                opened=tuple(tournament.labels[t] for t in opened if t in tournament.labels),
            )
        )

    def _view(self, tournament: Tournament) -> TournamentView:
        """What the screens show of ``tournament`` now (names, standings, pairings)."""
        members = tournament.members()
        names = {
            e.key: tuple(members[k].display_name for k in e.players if k in members)
            for e in tournament.entrants
        }
        for pair in tournament.tables.values():  # a round's teams (partners drawn)
            for key in pair:
                if key not in names:
                    names[key] = tuple(n for p in team_players(key) for n in names[p])
        standings: tuple[StandingInfo, ...] = ()
        if tournament.entrants and tournament.kind is TournamentKind.SWISS:
            standings = tuple(
                StandingInfo(
                    s.place,
                    names[s.key],
                    s.score,
                    s.points_difference,
                    sum(
                        1
                        for r in tournament.swiss
                        for x in r.results
                        if tournament.played_by(s.key, x)
                    ),
                    0,
                )
                for s in tournament.swiss_standings()
            )
        elif tournament.entrants and tournament.kind is TournamentKind.ARENA:
            standings = tuple(
                StandingInfo(
                    s.place, names[s.key], s.score, s.points_difference, s.matches, s.streak
                )
                for s in tournament.arena_standings()
            )
        pairings = tuple(
            PairingInfo(names[a], names[b], tournament.labels.get(table_id, ""), table_id)
            for table_id, (a, b) in tournament.tables.items()
        )
        players_of = {e.key: e.players for e in tournament.entrants}
        places = tuple(
            PlaceInfo(
                place.number,
                tuple(name for key in place.entrants for name in names[key]),
                sum(tournament.prizes.get(p, 0) for k in place.entrants for p in players_of[k]),
            )
            for place in tournament.places
        )
        bracket_round = None
        bracket: tuple[tuple[SeriesInfo, ...], ...] = ()
        if tournament.entrants and tournament.kind is TournamentKind.KNOCKOUT:
            drawn = self._bracket(tournament)
            bracket_round = drawn.round_number
            bracket = tuple(
                tuple(_series_info(s, names, tournament.wins_needed) for s in series)
                for series in drawn.rounds()
            )
        return TournamentView(
            id=tournament.id,
            name=tournament.name,
            kind=tournament.kind,
            status=tournament.status,
            preset=tournament.preset,
            fee=tournament.fee,
            pool=tournament.fee * len(tournament.ids),
            starts_at=tournament.starts_at,
            signed=tuple(p.display_name for p in tournament.signed),
            entrants=len(tournament.entrants),
            round=bracket_round or len(tournament.swiss),
            rounds=tournament.rounds,
            minutes=tournament.minutes,
            pairings=pairings,
            standings=standings,
            bracket=bracket,
            places=places,
            dropped=tuple(p.display_name for p in tournament.dropped),
            refunded=sum(tournament.prizes.values())
            if tournament.status is TournamentStatus.CANCELLED
            else 0,
            seconds_left=max(0, math.ceil(self._ends_at(tournament) - self.core.clock.now())),
            wait_seconds=math.ceil(self.no_show_seconds),
            partners=tournament.draw,
        )

    def _ends_at(self, tournament: Tournament) -> float:
        """When sign-up closes, or an arena ends (epoch seconds)."""
        if tournament.kind is TournamentKind.ARENA and tournament.started_at is not None:
            return tournament.started_at + tournament.minutes * 60
        return tournament.starts_at


def _series_info(series: Series, names: dict[str, tuple[str, ...]], wins_needed: int) -> SeriesInfo:
    """A knockout series as the bracket picture shows it (the points of a single match,
    the matches won in a best-of-N)."""
    winner = None
    if series.decided and series.advancing is not None:
        winner = 0 if series.advancing == series.first else 1
    scores: tuple[int, int] | None = None
    no_show = any(r.kind is not ResultKind.PLAYED for r in series.results)
    if series.results and wins_needed == 1 and not no_show:
        (only,) = series.results[-1:]
        scores = only.points if only.first == series.first else (only.points[1], only.points[0])
    elif series.results and wins_needed > 1:
        scores = series.wins
    return SeriesInfo(
        names.get(series.first) if series.first is not None else None,
        names.get(series.second) if series.second is not None else None,
        scores,
        winner,
        no_show,
    )


def _partnered(
    players: Sequence[PlayerRef], asked: dict[str, str], seeds: random.Random
) -> list[PlayerRef]:
    """The players in partnership order (each two in a row a partnership): first the
    fixed ones (two players who named each other at sign-up, in sign-up order), then the
    others paired by the tournament's seeded draw; an odd one out is left out."""
    by_key = {_key(p): p for p in players}
    fixed: list[PlayerRef] = []
    taken: set[str] = set()
    for player in players:
        key = _key(player)
        other = asked.get(key)
        if key in taken or other is None or other in taken or other not in by_key:
            continue
        if asked.get(other) == key:
            fixed += [player, by_key[other]]
            taken |= {key, other}
    rest = sorted((p for p in players if _key(p) not in taken), key=_key)
    seeds.shuffle(rest)
    return fixed + rest[: len(rest) // 2 * 2]
