"""The queries: what a front end, a tool or a test may read of the core, apart from the
commands that change it (issue 28; cosmicpython's ``views.py`` is the model). Nothing
here writes, except that a player's account is opened on first sight
(:meth:`~bot.core.state.Core.player_id`), as every command does."""

from __future__ import annotations

import asyncio
import copy

from bot.core.analysis import AnalysisReply, Analyst
from bot.core.chat_rules import ChatRules
from bot.core.commands import ChatRef, JsonValue, PlayerRef
from bot.core.events import ChatRulesInfo, RecordView, Refusal, Refused, TableChanged
from bot.core.projection import ROBOT_NAMES, table_changed
from bot.core.standings import Profile, Standings, StandingsBook
from bot.core.state import Core
from bot.core.vocabulary import Ranking
from engine.match import Match
from storage.base import Notifications, StoredMatch

__all__ = ["Views"]


class Views:
    """The core's read-only queries (the table manager offers each under its name)."""

    def __init__(
        self, core: Core, rules: ChatRules, standings: StandingsBook, analyst: Analyst
    ) -> None:
        self._core = core
        self._rules = rules
        self._standings = standings
        self._analyst = analyst

    # ------------------------------------------------------------------ live tables

    def tables(self) -> list[str]:
        """Ids of the live tables."""
        return list(self._core.tables)

    def table_state(self, table_id: str) -> TableChanged | None:
        """The table's current public state (what the last ``TableChanged`` said)."""
        table = self._core.tables.get(table_id)
        return table_changed(table, self._core.clock.now()) if table is not None else None

    def tables_of(self, player: PlayerRef) -> list[str]:
        """Ids of the live tables where ``player`` holds a seat."""
        return [t.id for t in self._core.tables.values() if t.seat_of(player.key) is not None]

    def front_end_note(self, table_id: str, key: str) -> JsonValue:
        """The note a front end keeps with live table ``table_id`` under ``key`` (see
        :meth:`bot.core.notes.Notes.set_front_end_note`), or None (no such note, or no
        such live table)."""
        table = self._core.tables.get(table_id)
        if table is None:
            return None
        note: JsonValue = copy.deepcopy(table.notes.get(key))
        return note

    def match_of(self, table_id: str) -> Match | None:
        """The match at a table (tests, tools), also the final one of a recently closed
        table; None before it starts or when long gone."""
        table = self._core.tables.get(table_id)
        if table is not None:
            return table.match
        ended = self._core.ended.get(table_id)
        return ended.match if ended is not None else None

    # ------------------------------------------------------------------ players and chats

    async def player_id(self, player: PlayerRef) -> int:
        """The storage id of ``player`` (their account is opened on first sight)."""
        return await self._core.player_id(player)

    async def turn_notifications(self, player: PlayerRef) -> Notifications:
        """Whether ``player`` is notified on each own turn: :attr:`Notifications.TURN`
        (the default) or :attr:`Notifications.NONE` (issue 27). Front ends honour it."""
        return await self._core.storage.player_notifications(await self.player_id(player))

    async def player_by_username(self, platform: str, username: str) -> PlayerRef | None:
        """The player of ``platform`` who last wrote with ``username`` (``"@ana"``), as
        they were last seen; None when nobody known has it."""
        found = await self._core.storage.find_by_username(platform, username)
        if found is None:
            return None
        user_id, stored = found
        return PlayerRef(platform, user_id, stored.display_name, stored.language)

    async def balance(self, player: PlayerRef) -> int:
        """The player's balance in dollars (rules.md, "The house")."""
        return await self._core.storage.balance(await self.player_id(player))

    async def chat_rules(self, chat: ChatRef) -> ChatRulesInfo:
        """The chat's rules (the default preset when its admins never chose)."""
        return await self._rules.of_chat(chat)

    # ------------------------------------------------------------------ standings

    async def standings(
        self,
        ranking: Ranking,
        chat: ChatRef | None,
        *,
        asker: PlayerRef | None = None,
        season: str | None = None,
        limit: int = 10,
        format: str = "",
    ) -> Standings:
        """A top list of ``chat``'s players (everyone's when None): rating, the current
        season (or ``season``), balance or pairs (docs/ratings.md); the rating and season
        lists of ``format`` (a format preset's name; ``""`` today's game)."""
        return await self._standings.standings(
            ranking, chat, asker=asker, season=season, limit=limit, format=format
        )

    async def profile(
        self, player: PlayerRef | int, chat: ChatRef | None, format: str = ""
    ) -> Profile:
        """A player's profile (a PlayerRef, or a storage player id); the season shown is
        ``chat``'s current one (the global season when None), the ratings ``format``'s.

        Raises:
            storage.base.UnknownPlayerError: an unknown player id.
        """
        player_id = player if isinstance(player, int) else await self.player_id(player)
        return await self._standings.profile(player_id, chat, format)

    async def seasons(self, chat: ChatRef | None) -> list[str]:
        """The seasons played in ``chat`` (everyone's when None), newest first."""
        return await self._standings.seasons(chat)

    async def current_season(self, chat: ChatRef | None) -> str:
        """The season a match finished now counts in, in ``chat`` (the global when None)."""
        return await self._standings.current_season(chat)

    async def history(
        self, *, player: PlayerRef | None = None, chat: ChatRef | None = None, limit: int = 20
    ) -> list[StoredMatch]:
        """Finished matches (records.md records), newest first."""
        player_id = await self.player_id(player) if player is not None else None
        return await self._core.storage.match_records(
            player_id=player_id, chat=chat.key if chat else None, limit=limit
        )

    # ------------------------------------------------------------------ analysis

    async def record_view(self, match_id: str) -> RecordView | None:
        """Finished match ``match_id``'s record with its seats' names (its page, the
        admins' link from a report); None when no finished match has that id."""
        storage = self._core.storage
        stored = await storage.match_record(match_id)
        if stored is None:
            return None
        names: list[str] = []
        for index, seat in enumerate(stored.record.get("seats") or ()):
            player_id = seat.get("player") if isinstance(seat, dict) else None
            found = await storage.get_player(player_id) if isinstance(player_id, int) else None
            robot = ROBOT_NAMES[index % len(ROBOT_NAMES)]
            names.append(found.display_name if found is not None else robot)
        return RecordView(
            stored.match_id, stored.chat, stored.finished_at, stored.record, tuple(names)
        )

    async def analyze(
        self,
        player: PlayerRef,
        chat: ChatRef | None = None,
        table_id: str | None = None,
        hand: int | None = None,
    ) -> AnalysisReply | Refusal:
        """'¿Qué debí jugar?': the maestro's analysis of ``player``'s decisions in hand
        number ``hand`` (from 1; None: their last finished hand) at their table (docs,
        issue 15); a refusal (no table, no finished hand yet...) changes nothing. The
        search runs off the event loop."""
        started = self.start_analysis(player, chat, table_id, hand)
        if isinstance(started, Refusal):
            return started
        return await started

    def start_analysis(
        self,
        player: PlayerRef,
        chat: ChatRef | None = None,
        table_id: str | None = None,
        hand: int | None = None,
    ) -> asyncio.Future[AnalysisReply] | Refusal:
        """:meth:`analyze` in two steps, for a front end that answers a press at once: the
        refusal, found without waiting, or the search under way off the event loop (await
        the future for the analysis; cancel it if nobody will read it)."""
        try:
            return self._analyst.start(player, chat, table_id, hand)
        except Refused as exc:
            return exc.refusal(player)
