"""Picture data: the one place that turns the core's seats into ``render`` facts.

How many seats a picture draws, whether they play in partnerships, and the boneyard's
count come from the table's rules and the hand's public view (rules.md, "Formats"),
not from the number of seats the core lists: a core that lists four seats for a
two-player table still gives a two-seat picture.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.events import SeatInfo, TableChanged, TournamentView, YourTiles
from bot.core.tournaments.arena import STREAK_WINS
from bot.core.tournaments.model import TournamentKind
from bot.present.i18n import N_, translator
from engine.rules import Boneyard, Rules
from engine.views import PublicView
from render import (
    BracketFacts,
    BracketMatch,
    SeatFacts,
    TableFacts,
    TournamentRow,
    TournamentStandingsFacts,
)

__all__ = [
    "board_facts",
    "boneyard_count",
    "hand_facts",
    "seat_facts",
    "table_facts",
    "tournament_picture",
]

BRACKET_MATCHES = 8
"""The most first-round matches a bracket picture draws (16 entrants); a larger
bracket is drawn from its round of 16 on."""

_ROUND_NAMES = {1: N_("Final"), 2: N_("Semi-finals"), 4: N_("Quarter-finals"), 8: N_("Round of 16")}


def seat_facts(seat: SeatInfo, *, show_reserved: bool = True) -> SeatFacts:
    """A seat for the renderer: an open seat is ``is_open``, named after the player it
    is held for (if any, and when ``show_reserved``)."""
    if seat.is_open:
        held = seat.reserved_for.display_name if seat.reserved_for and show_reserved else ""
        return SeatFacts(name=held, is_open=True)
    return SeatFacts(name=seat.name, is_robot=seat.is_robot, away=seat.away)


def boneyard_count(view: PublicView | None) -> int | None:
    """The boneyard count a picture shows: the tiles left to draw under the ``draw``
    rule ("Pozo: 12"), 0 included; None without a hand, or when nobody draws (today's
    game deals every tile; under ``pass``, and in the cubano game, the undealt tiles
    lie face down all hand and are never drawn)."""
    if view is None or view.rules.boneyard is not Boneyard.DRAW:
        return None
    return view.boneyard_count


def table_facts(
    seats: Sequence[SeatInfo],
    label: str,
    language: str,
    *,
    seconds_left: int | None = None,
    rules: Rules | None = None,
    view: PublicView | None = None,
) -> TableFacts:
    """The ``render.TableFacts`` of a table (``label`` its number, e.g. ``"3"``; the
    picture says "Mesa 3" in ``language``).

    ``rules`` (else ``view.rules``) give the number of seats and partnership play or
    not: the first ``rules.players`` of ``seats`` are drawn. Without either, every seat
    given is drawn, in partnerships at four. ``view`` gives the boneyard's count
    (:func:`boneyard_count`).

    Raises:
        ValueError: fewer seats than the rules' players.
    """
    rules = rules or (view.rules if view is not None else None)
    players = len(seats) if rules is None else rules.players
    if len(seats) < players:
        raise ValueError(f"the rules seat {players} players, the table lists {len(seats)}")
    return TableFacts(
        seats=tuple(seat_facts(s) for s in seats[:players]),
        seconds_left=seconds_left,
        table_label=translator(language)("Table {label}", label=label) if label else "",
        language=language,
        boneyard=boneyard_count(view),
        partnership=None if rules is None else rules.partnership,
    )


def board_facts(event: TableChanged, language: str | None = None) -> TableFacts:
    """The facts of a board (or waiting) picture, with the seconds left to the table's
    timer, its seats and the boneyard's count, in ``language`` or the chat's."""
    # a slow table's hours are said in the caption, not counted on the picture
    seconds = None if event.rules.is_slow else event.seconds_left
    return table_facts(
        event.seats,
        event.label,
        language or event.chat.language,
        seconds_left=seconds,
        rules=event.rules,
        view=event.view,
    )


def hand_facts(event: YourTiles, seconds_left: int | None = None) -> TableFacts:
    """The facts of a player's hand picture, in the player's language."""
    seconds = None if event.view.rules.is_slow else seconds_left  # hours: in the caption
    return table_facts(
        event.seats, event.label, event.to.language, seconds_left=seconds, view=event.view
    )


def tournament_picture(
    view: TournamentView, language: str
) -> BracketFacts | TournamentStandingsFacts | None:
    """A tournament's picture (docs/tournaments.md, "Pictures"): a knockout's bracket,
    a Swiss's or an arena's standings; None before it started."""
    if not view.entrants:
        return None
    _ = translator(language)
    title = view.name or _("The tournament")
    if view.kind is TournamentKind.KNOCKOUT:
        return _bracket_facts(view, title, language)
    if not view.standings:
        return None
    subtitle = (
        _("Round {round} of {rounds}", round=view.round, rounds=view.rounds)
        if view.kind is TournamentKind.SWISS
        else _("Arena · {minutes} min", minutes=view.minutes)
    )
    rows = tuple(
        TournamentRow(
            place=row.place,
            name=_team(row.names, language),
            points=str(row.score),
            tiebreak=f"{row.difference:+d}".replace("-", "\u2212"),
            played=row.matches,
            streak=view.kind is TournamentKind.ARENA and row.streak >= STREAK_WINS,
        )
        for row in view.standings[:20]
    )
    return TournamentStandingsFacts(
        title=title,
        subtitle=subtitle,
        headers=(_("Player"), _("Points"), _("Difference"), _("Played")),
        rows=rows,
        streak_label=_("on a winning streak: a win counts double")
        if view.kind is TournamentKind.ARENA
        else "",
    )


def _team(names: Sequence[str], language: str) -> str:
    if len(names) == 2:
        return translator(language)("{first} and {second}", first=names[0], second=names[1])
    return ", ".join(names)


def _bracket_facts(view: TournamentView, title: str, language: str) -> BracketFacts:
    _ = translator(language)
    total = max(1, (view.entrants - 1).bit_length())  # rounds down to the final
    reached = [list(series) for series in view.bracket]
    rounds: list[tuple[BracketMatch, ...]] = []
    for number in range(total):
        count = 2 ** (total - number - 1)
        played = reached[number] if number < len(reached) else []
        matches = [
            BracketMatch(
                sides=(
                    _team(s.first, language) if s.first else None,
                    _team(s.second, language) if s.second else None,
                ),
                scores=s.scores if s.scores is not None else (None, None),
                winner=s.winner if s.first and s.second else None,
                no_show=s.no_show and bool(s.first and s.second),  # no winner: both absent
            )
            for s in played
        ]
        matches += [BracketMatch(sides=(None, None))] * (count - len(matches))
        rounds.append(tuple(matches))
    hidden = 0
    while len(rounds[0]) > BRACKET_MATCHES:
        rounds.pop(0)
        hidden += 1
    names = tuple(
        _(_ROUND_NAMES[len(r)]) if len(r) in _ROUND_NAMES else _("Round {round}", round=i + 1)
        for i, r in enumerate(rounds)
    )
    return BracketFacts(
        title=title,
        round_names=names,
        rounds=tuple(rounds),
        subtitle=_.ngettext("{n} entrant", "{n} entrants", view.entrants),
        footer=_.ngettext(
            "{n} earlier round is not shown.", "{n} earlier rounds are not shown.", hidden
        )
        if hidden
        else "",
        bye_text=_("bye"),
        no_show_text=_("no-show"),
        champion_text=_("Champion"),
    )
