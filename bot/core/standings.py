"""Rankings, seasons and profiles as the core decides them (issue 14; docs/ratings.md).

The storage keeps the ratings and rates each finished match in the transaction that
settles it (``storage.ratings``); here the core chooses what a list or a profile holds:
which list, whose players, which season, the best and worst partner, the rivals, and
when a chat's season has ended and its final standings are due. No text is phrased here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.core.commands import AnnounceSeasonFinals, ChatRef, PlayerRef, SetSeasonPeriod
from bot.core.events import SeasonEnded
from bot.core.state import Core
from bot.core.vocabulary import Ranking
from engine.rules import FORMAT_PRESETS
from storage.base import (
    Identity,
    PairRow,
    PlayerRecord,
    PlayerStats,
    RankRow,
    Rating,
    RatingPoint,
    Rival,
    TournamentPlace,
    UnknownPlayerError,
)
from storage.ratings import (
    ALL_CHATS,
    DEFAULT_PERIOD,
    PAIR_MIN_MATCHES,
    PARTNER_MIN_MATCHES,
    season_key,
)

__all__ = [
    "HISTORY_POINTS",
    "RIVALS_SHOWN",
    "Profile",
    "Standings",
    "StandingsBook",
]

log = logging.getLogger("bot.core")

HISTORY_POINTS = 40
"""Rated matches a profile's rating chart shows (the last ones)."""

RIVALS_SHOWN = 2
"""Opponents a profile names (the ones faced most)."""


@dataclass(frozen=True, slots=True)
class Standings:
    """A top list.

    Attributes:
        ranking: which list (:class:`~bot.core.vocabulary.Ranking`).
        chat: the chat whose players it lists, or None for everyone.
        season: the season key for :attr:`Ranking.SEASON` (``"2026-12"``), else None.
        rows: the players, best first (empty for the pairs list).
        pairs: the pairs, best first (the pairs list only).
        asker: the storage id of the player who asked, when known (to highlight).
        final: the list is a season's final standings.
        format: the format whose ratings the rating and season lists rank (a format
            preset's name, ``engine.rules.FORMAT_PRESET_NAMES``; ``""`` today's game;
            docs/ratings.md, "Formats").
    """

    ranking: Ranking
    chat: ChatRef | None
    season: str | None
    rows: tuple[RankRow, ...] = ()
    pairs: tuple[PairRow, ...] = ()
    asker: int | None = None
    final: bool = False
    format: str = ""

    @property
    def empty(self) -> bool:
        return not self.rows and not self.pairs


@dataclass(frozen=True, slots=True)
class Profile:
    """What ``/perfil`` shows of a player.

    Attributes:
        player_id, name: the player.
        balance: dollars.
        stats: totals over every finished match.
        rating: the all-time rating (None before the first rated match).
        season: the rating in the chat's current season (or the global one), or None.
        season_key: that season.
        history: the all-time rating after each of the last :data:`HISTORY_POINTS` rated
            matches, oldest first.
        record: partners, opponents, streak, points per hand.
        format: the format of ``rating``, ``season`` and ``history`` (as
            :attr:`Standings.format`).
        tournaments: the player's last finished tournaments and places, newest first.
        identities: the platform users linked to the player (docs/players.md), by
            platform: two when a Telegram and a Discord account are linked.
    """

    player_id: int
    name: str
    balance: int
    stats: PlayerStats
    rating: Rating | None
    season: Rating | None
    season_key: str
    history: tuple[RatingPoint, ...]
    record: PlayerRecord
    format: str = ""
    tournaments: tuple[TournamentPlace, ...] = ()
    identities: tuple[Identity, ...] = ()

    @property
    def best_partner(self) -> Rival | None:
        """The partner with the best win rate over at least 3 matches together."""
        ranked = _partners(self.record)
        return ranked[0] if ranked else None

    @property
    def worst_partner(self) -> Rival | None:
        """The partner with the worst win rate over at least 3 matches together (never
        the best one)."""
        ranked = _partners(self.record)
        return ranked[-1] if len(ranked) > 1 else None

    @property
    def rivals(self) -> tuple[Rival, ...]:
        """The opponents faced most (:data:`RIVALS_SHOWN`), with the record against them."""
        return self.record.opponents[:RIVALS_SHOWN]


def _partners(record: PlayerRecord) -> list[Rival]:
    enough = [p for p in record.partners if p.matches >= PARTNER_MIN_MATCHES]
    return sorted(enough, key=lambda p: (-p.wins / p.matches, -p.matches, p.player_id))


class StandingsBook:
    """The core's reads of rankings and profiles, and the seasons' end."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def current_season(self, chat: ChatRef | None) -> str:
        """The season key a match finished now counts in (the chat's, or the global)."""
        storage, now = self.core.storage, self.core.clock.now()
        period = DEFAULT_PERIOD if chat is None else await storage.season_period(chat.key)
        return season_key(period, now)

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
        """A top list of ``chat``'s players (everyone's when None).

        The season list is the chat's own season table (the global season's when None),
        the current season unless ``season`` names another. The rating and season lists
        rank the ratings of ``format`` (:attr:`Standings.format`).

        Raises:
            KeyError: ``format`` is not a format preset's name.
        """
        storage, now = self.core.storage, self.core.clock.now()
        kind = format_key(format)
        key = None if chat is None else chat.key
        asker_id = None if asker is None else await self.core.player_id(asker)
        if ranking is Ranking.PAIRS:
            pairs = await storage.top_pairs(key, min_matches=PAIR_MIN_MATCHES, limit=limit)
            return Standings(ranking, chat, None, pairs=tuple(pairs), asker=asker_id)
        if ranking is Ranking.SEASON:
            chosen = season or await self.current_season(chat)
            rows = await storage.season_standings(
                key or ALL_CHATS, chosen, limit=limit, format=kind
            )
            return Standings(ranking, chat, chosen, rows=tuple(rows), asker=asker_id, format=format)
        if ranking is Ranking.BALANCE:
            rows = await storage.top_by_balance(key, now=now, limit=limit)
            return Standings(ranking, chat, None, rows=tuple(rows), asker=asker_id)
        rows = await storage.top_by_rating(key, now=now, limit=limit, format=kind)
        return Standings(ranking, chat, None, rows=tuple(rows), asker=asker_id, format=format)

    async def seasons(self, chat: ChatRef | None) -> list[str]:
        """The seasons with rated matches in ``chat`` (the global ones when None), newest
        first: the current one (when it has matches) and the past ones."""
        return await self.core.storage.seasons(ALL_CHATS if chat is None else chat.key)

    async def profile(self, player_id: int, chat: ChatRef | None, format: str = "") -> Profile:
        """A player's profile; the season shown is ``chat``'s current one, the ratings
        those of ``format`` (:attr:`Standings.format`).

        Raises:
            storage.base.UnknownPlayerError: no such player.
            KeyError: ``format`` is not a format preset's name.
        """
        storage = self.core.storage
        kind = format_key(format)
        season = await self.current_season(chat)
        player = await storage.get_player(player_id)
        if player is None:
            raise UnknownPlayerError(player_id)
        return Profile(
            player_id=player_id,
            name=player.display_name,
            balance=await storage.balance(player_id),
            stats=await storage.player_stats(player_id),
            rating=await storage.player_rating(player_id, format=kind),
            season=await storage.player_rating(
                player_id,
                chat=ALL_CHATS if chat is None else chat.key,
                season=season,
                format=kind,
            ),
            season_key=season,
            history=tuple(
                await storage.rating_history(player_id, limit=HISTORY_POINTS, format=kind)
            ),
            record=await storage.player_record(player_id),
            format=format,
            tournaments=tuple(await storage.player_tournaments(player_id, limit=2)),
            identities=tuple(await storage.player_identities(player_id)),
        )

    async def set_period(self, chore: SetSeasonPeriod) -> None:
        """Store the chat's season length (the caller checked the player is an admin)."""
        core = self.core
        await core.storage.set_season_period(
            chore.chat.key,
            chore.period,
            changed_by=await core.player_id(chore.player),
            now=core.clock.now(),
        )

    async def announce_finals(self, chore: AnnounceSeasonFinals) -> int:
        """:meth:`announce_season_finals` of the scopes this process holds."""
        return await self.announce_season_finals(set(self.core.fences))

    async def announce_season_finals(self, scopes: set[str], limit: int = 10) -> int:
        """Tell each chat of ``scopes`` (lease scopes, ``Core.scope_of``) whose season
        ended its final standings, once (:class:`~bot.core.events.SeasonEnded`); returns
        how many were announced."""
        core = self.core
        storage, now = core.storage, core.clock.now()
        announced = 0
        for chat_key, season in await storage.due_season_finals(now):
            platform, _, chat_id = chat_key.partition(":")
            chat = ChatRef(platform, chat_id)
            if core.scope_of(chat) not in scopes or not core.outbox.ports_for(platform):
                continue
            if not await storage.mark_season_final(chat_key, season, now=now):
                continue
            language = await storage.get_chat_language(chat_key)
            if language is not None:
                chat = ChatRef(platform, chat_id, language=language)
            rows = await storage.season_standings(chat_key, season, limit=limit)
            core.outbox.emit_chat(
                SeasonEnded(
                    table_id="",
                    chat=chat,
                    season=season,
                    next_season=await self.current_season(chat),
                    rows=tuple(rows),
                )
            )
            log.info("season %s of %s ended: final standings sent", season, chat_key)
            announced += 1
        return announced


def format_key(name: str) -> str:
    """The rating format (``Rules.format_key``) of a format preset's name; ``""``, today's
    game, for ``""``.

    Raises:
        KeyError: ``name`` is not a format preset's name.
    """
    return FORMAT_PRESETS[name].format_key if name else ""
