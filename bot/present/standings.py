"""Top lists, profiles and seasons as players see them (issue 14; docs/ratings.md).

The core chooses what a list or a profile holds (:mod:`bot.core.standings`); here they
become the facts of the pictures (:mod:`render.standings`, :mod:`render.profile`) and the
same lines as text, for captions and screen readers. Every phrase comes from the
``core`` catalog; every front end shows these and phrases none of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from babel.dates import format_skeleton
from babel.numbers import format_decimal

from bot.core.events import SeasonEnded
from bot.core.standings import Profile, Standings
from bot.core.vocabulary import Ranking
from bot.present.i18n import N_, Translator, language_of, translator
from bot.present.labels import format_label, platform_label
from render.profile import ProfileFacts
from render.standings import StandingRow, StandingsFacts
from storage.base import PairRow, RankRow, Rival
from storage.ratings import (
    PAIR_MIN_MATCHES,
    PROVISIONAL_MATCHES,
    SeasonPeriod,
    season_bounds,
    season_period_of,
)

__all__ = [
    "PERIOD_LABELS",
    "PERIOD_WORDS",
    "RANKING_LABELS",
    "number_text",
    "period_from_input",
    "profile_caption",
    "profile_facts",
    "ranking_from_input",
    "season_ended_text",
    "season_from_input",
    "season_name",
    "standings_caption",
    "standings_facts",
]

RANKING_LABELS: Final[dict[Ranking, str]] = {
    Ranking.RATING: N_("Rating"),
    Ranking.SEASON: N_("Season"),
    Ranking.BALANCE: N_("Balance"),
    Ranking.PAIRS: N_("Pairs"),
}
"""The name of each list (buttons, choices, titles)."""

RANKING_WORDS: Final[dict[str, Ranking]] = {
    "rating": Ranking.RATING,
    "temporada": Ranking.SEASON,
    "season": Ranking.SEASON,
    "saldo": Ranking.BALANCE,
    "balance": Ranking.BALANCE,
    "parejas": Ranking.PAIRS,
    "pairs": Ranking.PAIRS,
}
"""Words players type after /top, Spanish and English (glossary.md)."""

PERIOD_LABELS: Final[dict[SeasonPeriod, str]] = {
    SeasonPeriod.WEEKLY: N_("weekly"),
    SeasonPeriod.MONTHLY: N_("monthly"),
    SeasonPeriod.QUARTERLY: N_("quarterly"),
}

PERIOD_WORDS: Final[dict[str, SeasonPeriod]] = {
    "semanal": SeasonPeriod.WEEKLY,
    "weekly": SeasonPeriod.WEEKLY,
    "mensual": SeasonPeriod.MONTHLY,
    "monthly": SeasonPeriod.MONTHLY,
    "trimestral": SeasonPeriod.QUARTERLY,
    "quarterly": SeasonPeriod.QUARTERLY,
}
"""Season lengths as admins type them (``/config temporada=semanal``)."""


def ranking_from_input(word: str) -> Ranking | None:
    """A list named by a player's word (``"temporada"``, ``"saldo"``…), or None."""
    return RANKING_WORDS.get(word.strip().lower().lstrip("/"))


def period_from_input(word: str) -> SeasonPeriod | None:
    """A season length named by an admin's word (``"semanal"``, ``"monthly"``…), or None."""
    return PERIOD_WORDS.get(word.strip().lower())


PREVIOUS_WORDS: Final = ("anterior", "pasada", "previous", "last")
"""Words for the season before the current one (``/top temporada anterior``)."""


def season_from_input(word: str, played: Sequence[str], current: str) -> str | None:
    """The season a player names after ``/top temporada``: a season key among ``played``
    (``"2026-11"``), or "anterior" for the last one before ``current``; else None."""
    key = word.strip().lower()
    if key in PREVIOUS_WORDS:
        return next((season for season in played if season != current), None)
    return key if key in played else None


def number_text(value: int, language: str) -> str:
    """A whole number with the language's grouping: ``1.532`` / ``1,532``."""
    return format_decimal(value, locale=language_of(language))


def _signed(value: int, language: str) -> str:
    text = number_text(abs(value), language)
    return f"+{text}" if value > 0 else f"\u2212{text}" if value < 0 else "0"


def season_name(key: str, language: str) -> str:
    """A season as players say it: ``"diciembre de 2026"``, ``"semana 49 de 2026"``,
    ``"4.º trimestre de 2026"`` (English: ``"December 2026"``, ``"week 49, 2026"``…)."""
    lang = language_of(language)
    _ = translator(lang)
    start = _season_start(key)
    period = season_period_of(key)
    if period is SeasonPeriod.WEEKLY:
        year, week, _day = start.isocalendar()
        return _("week {week}, {year}", week=week, year=year)
    if period is SeasonPeriod.QUARTERLY:
        return _("quarter {quarter}, {year}", quarter=_quarter(start), year=start.year)
    return format_skeleton("yMMMM", start, locale=lang)


def _season_start(key: str) -> dt.date:
    return dt.datetime.fromtimestamp(season_bounds(key)[0], dt.UTC).date()


def _quarter(start: dt.date) -> int:
    return (start.month - 1) // 3 + 1


def _season_title(_: Translator, key: str, scope: str, language: str) -> str:
    """A season list's title: "Temporada de diciembre de 2026 · todos", "Temporada de la
    semana 49 de 2026 · todos", "Temporada del 4.º trimestre de 2026 · todos" (each
    length its own phrase: Spanish joins "de" with the article each one wants)."""
    start = _season_start(key)
    period = season_period_of(key)
    if period is SeasonPeriod.WEEKLY:
        year, week, _day = start.isocalendar()
        return _("Season week {week}, {year} · {scope}", week=week, year=year, scope=scope)
    if period is SeasonPeriod.QUARTERLY:
        return _(
            "Season quarter {quarter}, {year} · {scope}",
            quarter=_quarter(start),
            year=start.year,
            scope=scope,
        )
    return _("Season {season} · {scope}", season=season_name(key, language), scope=scope)


def _scope_title(_: Translator, standings: Standings, chat_title: str | None) -> str:
    if standings.chat is None:
        return _("everyone")
    return chat_title or _("this chat")


def _title(_: Translator, standings: Standings, language: str, chat_title: str | None) -> str:
    title = _list_title(_, standings, language, chat_title)
    if standings.format:  # a format's own list (docs/ratings.md, "Formats")
        title += " · " + format_label(standings.format, language)
    return title


def _list_title(_: Translator, standings: Standings, language: str, chat_title: str | None) -> str:
    scope = _scope_title(_, standings, chat_title)
    if standings.ranking is Ranking.SEASON and standings.season is not None:
        if standings.final:
            season = season_name(standings.season, language)
            return _("Final standings · {season}", season=season)
        return _season_title(_, standings.season, scope, language)
    label = _(RANKING_LABELS[standings.ranking])
    return _("{ranking} · {scope}", ranking=label, scope=scope)


def _value(standings: Standings, row: RankRow, language: str) -> str:
    if standings.ranking is Ranking.BALANCE:
        return f"${number_text(int(row.value), language)}"
    return number_text(int(row.value), language)


def _trend(standings: Standings, row: RankRow, language: str) -> str:
    """The change over the last week: rating points, or dollars for the balance list."""
    if not row.trend:
        return ""
    text = _signed(row.trend, language)
    return f"{text[0]}${text[1:]}" if standings.ranking is Ranking.BALANCE else text


def _pair_name(pair: PairRow) -> str:
    return f"{pair.names[0]} & {pair.names[1]}"


def _win_rate(wins: int, matches: int, language: str) -> str:
    share = round(100 * wins / matches) if matches else 0
    return f"{share}\u00a0%" if language_of(language) == "es" else f"{share}%"


def standings_facts(
    standings: Standings,
    language: str,
    *,
    chat_title: str | None = None,
    help_command: str | None = None,
) -> StandingsFacts:
    """The picture of a top list (``render.standings``); ``chat_title`` names the chat;
    ``help_command`` is the front end's own help command as its players type it (e.g.
    ``/ayuda`` on Telegram, ``/domino ayuda`` on Discord), named under the rating list;
    None names none."""
    lang = language_of(language)
    _ = translator(lang)
    title = _title(_, standings, lang, chat_title)
    if standings.ranking is Ranking.PAIRS:
        rows = tuple(
            StandingRow(
                rank=n,
                name=_pair_name(pair),
                value=_win_rate(pair.wins, pair.matches, lang),
                matches=pair.matches,
                trend=f"{pair.wins}-{pair.matches - pair.wins}",
                highlight=standings.asker in pair.player_ids,
            )
            for n, pair in enumerate(standings.pairs, 1)
        )
        return StandingsFacts(
            title=title,
            subtitle=_.ngettext(
                "Partners with at least {n} match together",
                "Partners with at least {n} matches together",
                PAIR_MIN_MATCHES,
            ),
            headers=(_("Pair"), _("Win rate"), _("Matches"), _("Record")),
            rows=rows,
            empty_text=_("No pair has played enough matches together yet."),
        )
    rated = standings.ranking is not Ranking.BALANCE
    rows = tuple(
        StandingRow(
            rank=n,
            name=row.display_name,
            value=_value(standings, row, lang),
            matches=row.matches,
            trend=_trend(standings, row, lang),
            trend_sign=0 if row.trend is None else (row.trend > 0) - (row.trend < 0),
            provisional=rated and row.provisional,
            highlight=row.player_id == standings.asker,
        )
        for n, row in enumerate(standings.rows, 1)
    )
    headers = (
        _("Player"),
        _("Balance") if not rated else _("Rating"),
        _("Matches"),
        _("Last 7 days") if standings.ranking is not Ranking.SEASON else "",
    )
    footer = ""
    if rated and any(r.provisional for r in rows):
        footer = _.ngettext(
            "? = provisional (fewer than {n} rated match)",
            "? = provisional (fewer than {n} rated matches)",
            PROVISIONAL_MATCHES,
        )
    empty = (
        _("Nobody has played a rated match here yet.")
        if rated
        else _("Nobody has finished a match here in the last 30 days.")
    )
    return StandingsFacts(
        title=title,
        subtitle=_subtitle(_, standings, lang, help_command),
        headers=headers,
        rows=rows,
        empty_text=empty,
        footer=footer,
    )


def _subtitle(_: Translator, standings: Standings, language: str, help_command: str | None) -> str:
    if standings.ranking is Ranking.SEASON and standings.season is not None:
        end = dt.datetime.fromtimestamp(season_bounds(standings.season)[1], dt.UTC).date()
        last = end - dt.timedelta(days=1)
        if standings.final:
            return _("The season is over; a new one has begun.")
        return _("Until {date} (UTC)", date=format_skeleton("MMMd", last, locale=language))
    if standings.ranking is Ranking.BALANCE:
        return _("Active players (a match in the last 30 days)")
    if help_command is None:
        return _("Team rating (openskill)")
    return _("Team rating (openskill); see {help}", help=help_command)


def standings_caption(standings: Standings, language: str, *, chat_title: str | None = None) -> str:
    """The same list as text, one line per row (a caption; screen readers)."""
    facts = standings_facts(standings, language, chat_title=chat_title)
    _ = translator(language_of(language))
    lines = [facts.title]
    if not facts.rows:
        lines.append(facts.empty_text)
    for row in facts.rows:
        mark = "?" if row.provisional else ""
        count = _.ngettext("{n} match", "{n} matches", row.matches)
        trend = f" ({row.trend})" if row.trend else ""
        lines.append(f"{row.rank}. {row.name} — {row.value}{mark} · {count}{trend}")
    if facts.footer:
        lines.append(facts.footer)
    return "\n".join(lines)


def _rival_text(rival: Rival, language: str) -> str:
    return f"{rival.display_name} · {rival.wins}-{rival.matches - rival.wins}"


def _streak_text(_: Translator, streak: int) -> str:
    if streak > 0:
        return _.ngettext("{n} won", "{n} won", streak)
    if streak < 0:
        return _.ngettext("{n} lost", "{n} lost", -streak)
    return "—"


def _stats(_: Translator, profile: Profile, language: str) -> list[tuple[str, str]]:
    stats = profile.stats
    won = f"{number_text(stats.matches_won, language)} ({_win_rate(stats.matches_won, stats.matches_played, language)})"
    per_hand = format_decimal(
        round(profile.record.points_per_hand, 1), "#,##0.0", locale=language_of(language)
    )
    return [
        (_("Matches"), number_text(stats.matches_played, language)),
        (_("Won"), won),
        (_("Dominoes"), number_text(stats.dominoes, language)),
        (_("Trancas won"), number_text(stats.trancas_won, language)),
        (_("Capicúas"), number_text(stats.capicuas, language)),
        (_("Points per hand"), per_hand),
        (_("Streak"), _streak_text(_, profile.record.streak)),
        (_("Balance"), f"${number_text(profile.balance, language)}"),
    ]


def _notes(_: Translator, profile: Profile, language: str) -> list[tuple[str, str]]:
    notes = []
    if len(profile.identities) > 1:  # linked accounts (docs/players.md): each platform's
        notes.append((_("Accounts"), identities_text(profile)))
    if profile.tournaments:  # the last ones finished, newest first (docs/tournaments.md)
        places = " · ".join(
            _(
                "#{place} of {entrants} in {name}",
                place=t.place,
                entrants=t.entrants,
                name=t.name,
            )
            for t in profile.tournaments
        )
        notes.append((_("Tournaments"), places))
    if profile.best_partner is not None:
        notes.append((_("Best partner"), _rival_text(profile.best_partner, language)))
    if profile.worst_partner is not None:
        notes.append((_("Worst partner"), _rival_text(profile.worst_partner, language)))
    for rival in profile.rivals:
        notes.append((_("Rival"), _rival_text(rival, language)))
    return notes[:4]


def identities_text(profile: Profile) -> str:
    """The player's linked accounts: "Telegram @ana · Discord" (platform names and
    usernames are the same in every language)."""
    return " · ".join(
        platform_label(i.platform) + (f" @{i.username}" if i.username else "")
        for i in profile.identities
    )


def _headline(_: Translator, profile: Profile, language: str) -> str:
    headline = _rating_headline(_, profile, language)
    if profile.format:  # the ratings of a format (docs/ratings.md, "Formats")
        headline += " · " + format_label(profile.format, language)
    return headline


def _rating_headline(_: Translator, profile: Profile, language: str) -> str:
    rating = profile.rating
    if rating is None:
        return _("Not rated yet")
    shown = number_text(rating.display, language)
    if rating.provisional:
        return _("{rating} (provisional)", rating=shown)
    season = profile.season
    if season is None:
        return _("Rating {rating}", rating=shown)
    return _(
        "Rating {rating} · season {season}",
        rating=shown,
        season=number_text(season.display, language),
    )


def profile_facts(profile: Profile, language: str) -> ProfileFacts:
    """The picture of a profile (``render.profile``)."""
    lang = language_of(language)
    _ = translator(lang)
    return ProfileFacts(
        name=profile.name,
        headline=_headline(_, profile, lang),
        stats=tuple(_stats(_, profile, lang)),
        history=tuple(p.display for p in profile.history),
        history_label=(
            _.ngettext(
                "Rating over the last {n} rated match",
                "Rating over the last {n} rated matches",
                len(profile.history),
            )
            if len(profile.history) > 1
            else _("Rating")
        ),
        history_empty=(
            _("No rated matches yet")
            if not profile.history
            else _("The chart starts with the second rated match")
        ),
        notes=tuple(_notes(_, profile, lang)),
        provisional=profile.rating is None or profile.rating.provisional,
        thousands="," if lang == "en" else ".",
    )


def profile_caption(profile: Profile, language: str) -> str:
    """The same profile as text (a caption; screen readers)."""
    lang = language_of(language)
    _ = translator(lang)
    facts = profile_facts(profile, lang)
    lines = [f"{facts.name} — {facts.headline}"]
    lines.append(" · ".join(f"{label}: {value}" for label, value in facts.stats))
    lines.extend(f"{label}: {value}" for label, value in facts.notes)
    return "\n".join(lines)


def season_ended_text(event: SeasonEnded, language: str) -> str:
    """The message that goes with a season's final standings picture."""
    lang = language_of(language)
    _ = translator(lang)
    lines = [
        _(
            "Season {season} is over. A new season begins: {next}.",
            season=season_name(event.season, lang),
            next=season_name(event.next_season, lang),
        )
    ]
    podium: Sequence[RankRow] = event.rows[:3]
    for n, row in enumerate(podium, 1):
        lines.append(f"{n}. {row.display_name} — {number_text(int(row.value), lang)}")
    return "\n".join(lines)
